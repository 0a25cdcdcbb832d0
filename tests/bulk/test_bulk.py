"""Bulk checking: files, folders and JSON Lines; order, jobs, streaming, summary, exit status."""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from adjudicator import bulk
from adjudicator.bulk import Source
from adjudicator.cli.commands import main
from adjudicator.play.simulate import simulate


@pytest.fixture(scope="module")
def legal() -> list[dict[str, Any]]:
    """A few simulated, legal, finished records."""
    return list(simulate("pagat", 3, 11, 3))


def wrong_claim(record: dict[str, Any]) -> dict[str, Any]:
    """The record claiming someone else lost: illegal by the rule ``result.loser``."""
    loser = record["result"]["loser"]
    other = next(p for p in record["players"] if p != loser)
    return {**record, "result": {"loser": other}}


def write_jsonl(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def check(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", *args])
    return result.exit_code, result.stdout


def test_folders_are_walked_recursively_in_order_for_json_only(tmp_path: Path) -> None:
    for name in ("b/z.json", "b/a/y.json", "a.json", "c.json.bak", "runs.jsonl", "b/x.txt"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}", encoding="utf-8")
    found = [s.file for s in bulk.sources([str(tmp_path)])]
    assert found == [str(tmp_path / n) for n in ("a.json", "b/a/y.json", "b/z.json")]
    assert bulk.count([str(tmp_path)]) == 3


def test_json_lines_are_numbered_and_blank_lines_skipped(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "r.jsonl", ["{}", "", "  ", '{"a": 1}'])
    found = list(bulk.sources([str(path)]))
    assert [(s.line, s.text) for s in found] == [(1, "{}\n"), (4, '{"a": 1}\n')]
    assert [s.label for s in found] == [f"{path}:1", f"{path}:4"]
    assert bulk.count([str(path)]) == 2


def test_unreadable_input_is_invalid_not_fatal(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"{}\n\xff\xfe\n")
    results = [c.as_json() for c in bulk.check_all(bulk.sources([str(bad), "missing.jsonl"]))]
    assert [(r.get("line"), r["status"]) for r in results] == [
        (1, "invalid"),
        (2, "invalid"),
        (None, "invalid"),
    ]
    assert results[1]["error"] == "line 2 is not UTF-8 text"
    assert results[2]["error"].startswith("cannot read missing.jsonl")


def test_json_output_keeps_input_order_and_names_lines(
    tmp_path: Path, legal: list[dict[str, Any]]
) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "one.json").write_text(json.dumps(legal[0]), encoding="utf-8")
    runs = write_jsonl(
        tmp_path / "runs.jsonl",
        [json.dumps(legal[1]), json.dumps(wrong_claim(legal[2])), "{not json"],
    )
    code, out = check("--json", str(folder), str(runs))
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 2
    assert [(r["file"], r.get("line"), r["status"]) for r in results] == [
        (str(folder / "one.json"), None, "legal"),
        (str(runs), 1, "legal"),
        (str(runs), 2, "illegal"),
        (str(runs), 3, "invalid"),
    ]
    assert results[2]["violations"][0]["rule"] == "result.loser"
    assert results[3]["error"].startswith("not JSON")
    assert set(results[0]) == {
        "file", "status", "variant", "actions", "applied", "finished", "loser", "losers",
        "violations", "undetermined", "error",
    }  # fmt: skip


@pytest.mark.parametrize(("make_illegal", "expected"), [(False, 0), (True, 1)])
def test_exit_status(
    tmp_path: Path, legal: list[dict[str, Any]], make_illegal: bool, expected: int
) -> None:
    lines = [json.dumps(r) for r in legal]
    if make_illegal:
        lines[1] = json.dumps(wrong_claim(legal[1]))
    code, _ = check(str(write_jsonl(tmp_path / "r.jsonl", lines)))
    assert code == expected


def test_two_jobs_give_the_same_verdicts_in_the_same_order(
    tmp_path: Path, legal: list[dict[str, Any]]
) -> None:
    records = [legal[i % 3] if i % 4 else wrong_claim(legal[i % 3]) for i in range(40)]
    lines = [json.dumps(r) for r in records]
    lines[17] = '{"format": "skitgubbe-record/1"}'
    path = str(write_jsonl(tmp_path / "r.jsonl", lines))
    one = check("--json", path)
    two = check("--json", "--jobs", "2", path)
    assert one == two
    assert one[0] == 2 and len(one[1].splitlines()) == 40


def test_records_are_streamed_not_read_ahead(legal: list[dict[str, Any]]) -> None:
    """With two workers, taking 30 verdicts pulls only a few hundred records at most."""
    text = json.dumps(legal[0])
    pulled = 0

    def endless() -> Iterator[Source]:
        nonlocal pulled
        for line in itertools.count(1):
            pulled += 1
            yield Source("endless.jsonl", line, text)

    verdicts = bulk.check_all(endless(), jobs=2, chunksize=4)
    first = list(itertools.islice(verdicts, 30))
    verdicts.close()
    assert [c.line for c in first] == list(range(1, 31))
    assert {c.status for c in first} == {"legal"}
    assert pulled < 1000


def test_small_runs_print_every_verdict(tmp_path: Path, legal: list[dict[str, Any]]) -> None:
    path = write_jsonl(tmp_path / "r.jsonl", [json.dumps(legal[0]), json.dumps(legal[1])])
    code, out = check(str(path))
    assert code == 0
    assert f"{path}:1: legal" in out and f"{path}:2: legal" in out
    assert "Checked 2 records" in out


def test_large_runs_print_only_problems_then_the_summary(
    tmp_path: Path, legal: list[dict[str, Any]]
) -> None:
    lines = [json.dumps(legal[0])] * 25
    lines[6] = json.dumps(wrong_claim(legal[0]))
    lines[9] = "[]"
    path = write_jsonl(tmp_path / "r.jsonl", lines)
    code, out = check(str(path))
    assert code == 2
    assert f"{path}:7: illegal" in out
    assert f"{path}:10: invalid" in out
    assert ": legal" not in out
    summary = out[out.index("Checked 25 records") :]
    for row in ("legal", "23"), ("illegal", "1"), ("invalid", "1"), ("result.loser", "1"):
        assert any(row[0] in line and row[1] in line for line in summary.splitlines()), row
    _, everything = check("--all", str(path))
    assert everything.count(": legal") == 23


CUT_SHORT = """
import os, struct, sys, time
from concurrent.futures import ProcessPoolExecutor
from adjudicator import bulk

if __name__ == "__main__":
    pool = ProcessPoolExecutor(1, initializer=bulk._worker_signals)
    assert pool.submit(abs, -1).result() == 1
    manager = pool._executor_manager_thread
    # verdicts cut short, as a worker killed halfway through sending them leaves them
    os.write(pool._result_queue._writer.fileno(), struct.pack("!i", 1000) + b"x" * 10)
    time.sleep(0.5)
    bulk._kill(pool, list(pool._processes.values()))
    print("manager alive" if manager.is_alive() else "manager done")
"""


def test_a_run_stopped_while_verdicts_were_half_sent_still_exits(tmp_path: Path) -> None:
    """Ctrl-C with --jobs 2 hung about once in 40 to 120 runs (interrupt_stress.py): a
    worker killed while sending its verdicts left the pool's thread reading the rest of
    the message, and Python's exit waited for that thread for ever.  The same message
    cut short, written here, must not keep the process from ending."""
    import subprocess
    import sys

    script = tmp_path / "cut_short.py"
    script.write_text(CUT_SHORT, encoding="utf-8")
    root = str(Path(__file__).resolve().parents[2])
    done = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": root},
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "manager done\n", "")
