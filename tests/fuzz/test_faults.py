"""Faults from outside the records, as the command meets them on a real machine: an
output that is a symbolic link, a full disk, a reader that closes the pipe, the run
killed with ``kill -9`` while its workers check, and one record built to take memory.

Each runs the installed command in a process of its own (as a shell would), except
the memory case, which measures one library call in a fresh interpreter.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from conftest import adjudicator_command as command

from adjudicator.play.simulate import simulate

TIMEOUT = 120
SAMPLES = Path(__file__).parents[2] / "sample_games"
LEGAL = SAMPLES / "atlanta_3p_full.json"
"""A whole game that checks legal."""


def run(*args: str, **kw: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*command(), *args], capture_output=True, text=True, timeout=TIMEOUT, **kw
    )


def one_line(err: str, *words: str) -> None:
    """``err`` is one line (no traceback, no usage text) holding every one of ``words``."""
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for word in words:
        assert word in lines[0], err


@pytest.fixture(scope="module")
def legal_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """300 legal records: more than a pipe's buffer of verdicts."""
    folder = tmp_path_factory.mktemp("legal")
    for i in range(300):
        shutil.copy(LEGAL, folder / f"g{i:03d}.json")
    return folder


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """20,000 JSON Lines records: a run long enough to be killed halfway."""
    path = tmp_path_factory.mktemp("corpus") / "corpus.jsonl"
    block = "".join(json.dumps(g) + "\n" for g in simulate("pagat", 3, seed=7, count=4))
    with path.open("w", encoding="utf-8") as out:
        for _ in range(5000):
            out.write(block)
    return path


# --- a symbolic link as output --------------------------------------------------------


def test_write_legal_onto_a_link_writes_its_target_and_leaves_the_link(tmp_path: Path) -> None:
    real = tmp_path / "real.jsonl"
    real.write_text("old\n", encoding="utf-8")
    link = tmp_path / "link.jsonl"
    link.symlink_to(real)
    done = run("check", str(LEGAL), "--write-legal", str(link))
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and os.readlink(link) == str(real)
    lines = real.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 and json.loads(lines[0]) == json.loads(LEGAL.read_text())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.jsonl", "real.jsonl"]


def test_a_dangling_link_as_output_makes_the_file_it_names(tmp_path: Path) -> None:
    link = tmp_path / "page.html"
    link.symlink_to(tmp_path / "made.html")
    done = run("replay", str(LEGAL), "--to", "3", "--html", str(link))
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and (tmp_path / "made.html").read_text().startswith("<!")


def test_svg_and_simulate_out_write_through_links(tmp_path: Path) -> None:
    real = tmp_path / "real.svg"
    real.write_text("old", encoding="utf-8")
    (tmp_path / "pic.svg").symlink_to(real)
    done = run("replay", str(LEGAL), "--step", "2", "--svg", str(tmp_path / "pic.svg"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "pic.svg").is_symlink() and "<svg" in real.read_text()
    folder = tmp_path / "games"
    folder.mkdir()
    name = "pagat-3p-seed0-0000.json"
    (tmp_path / "kept.json").write_text("old", encoding="utf-8")
    (folder / name).symlink_to(tmp_path / "kept.json")
    done = run("simulate", "--count", "1", "--out", str(folder))
    assert done.returncode == 0, done.stderr
    assert (folder / name).is_symlink()
    assert json.loads((tmp_path / "kept.json").read_text())["variant"] == "pagat"


def test_a_killed_runs_part_file_is_removed_by_the_next_run(tmp_path: Path) -> None:
    target = tmp_path / "legal.jsonl"
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    stale = tmp_path / f".legal.jsonl.{dead.stdout.strip()}-x1y2z3.part"
    stale.write_text("half a line", encoding="utf-8")
    running = tmp_path / f".legal.jsonl.{os.getpid()}-a1b2c3.part"  # a writer still alive
    running.write_text("being written", encoding="utf-8")
    done = run("check", str(LEGAL), "--write-legal", str(target))
    assert done.returncode == 0, done.stderr
    assert not stale.exists() and running.exists()
    assert len(target.read_text().splitlines()) == 1


# --- a full disk ----------------------------------------------------------------------


@pytest.fixture
def full_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MB tmpfs, mounted for the test (root only; skipped otherwise)."""
    if os.geteuid() != 0:
        pytest.skip("a full disk is a small tmpfs, and mounting one needs root")
    where = tmp_path / "small"
    where.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(where)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        pytest.skip(f"root, but cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


@contextmanager
def filled(folder: Path, leave: int) -> Iterator[None]:
    """The file system of ``folder`` filled up to ``leave`` free bytes, for the block."""
    filler = folder / "filler"
    free = shutil.disk_usage(folder).free
    with filler.open("wb") as out:
        out.write(b"\0" * max(0, free - leave))
    try:
        yield
    finally:
        filler.unlink()


def test_a_full_disk_keeps_the_older_file_and_is_one_line(
    full_disk: Path, legal_folder: Path
) -> None:
    outputs = {
        "legal.jsonl": ("check", str(legal_folder), "--write-legal"),
        "page.html": ("replay", str(LEGAL), "--html"),
        "pic.svg": ("replay", str(LEGAL), "--step", "200", "--svg"),
    }
    for name, args in outputs.items():
        target = full_disk / name
        target.write_text("the older file\n", encoding="utf-8")
        with filled(full_disk, leave=8192):
            done = run(*args, str(target))
        assert done.returncode == 2, (name, done.stderr)
        one_line(done.stderr, "No space left on device", name)
        assert target.read_text(encoding="utf-8") == "the older file\n", name
    assert not [p.name for p in full_disk.iterdir() if p.name.endswith(".part")]
    # simulate --out: the games that fit are whole, the one that did not is not there
    out = full_disk / "games"  # 400 games of 8 players: more than 1 MB
    done = run(
        "simulate", "--variant", "goat", "--players", "8", "--count", "400", "--out", str(out)
    )
    assert done.returncode == 2
    one_line(done.stderr, "--out", "No space left on device")
    for game in out.iterdir():
        assert not game.name.endswith(".part")
        json.loads(game.read_text(encoding="utf-8"))  # whole, or not there


# --- a reader that closes the pipe ----------------------------------------------------


def first_line_then_close(*args: str) -> tuple[int, str, str]:
    """Run the command into a pipe, read its first line and close the pipe (``| head -1``)."""
    process = subprocess.Popen(
        [*command(), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.readline()
    process.stdout.close()
    err = process.stderr.read()
    return process.wait(TIMEOUT), first, err


@pytest.mark.parametrize("flags", [(), ("--all",), ("--json",), ("--jobs", "2", "--all")])
def test_a_closed_pipe_ends_with_the_status_of_the_verdicts(
    legal_folder: Path, flags: tuple[str, ...]
) -> None:
    code, first, err = first_line_then_close("check", str(legal_folder), *flags)
    assert first and err == ""
    assert code == 0  # every record legal: not the 1 of "some record illegal"


def test_a_closed_pipe_still_reports_an_illegal_record_after_it(
    legal_folder: Path, tmp_path: Path
) -> None:
    for i in range(300):
        (tmp_path / f"a{i:03d}.json").symlink_to(legal_folder / f"g{i:03d}.json")
    shutil.copy(SAMPLES / "app_log_two_bugs.json", tmp_path / "z.json")  # checked last
    code, _, err = first_line_then_close("check", "--all", str(tmp_path))
    assert (code, err) == (1, "")


def test_replay_into_a_closed_pipe_keeps_its_status() -> None:
    code, first, err = first_line_then_close("replay", str(LEGAL))
    assert (code, err) == (0, "") and first


# --- the run killed while its workers check -------------------------------------------


def children(pid: int) -> set[int]:
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the workers in /proc")
def test_kill_9_of_the_run_leaves_no_worker(corpus: Path) -> None:
    process = subprocess.Popen(
        [*command(), "check", str(corpus), "--jobs", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + TIMEOUT
    workers: set[int] = set()
    while len(workers) < 2 and time.monotonic() < deadline:
        assert process.poll() is None, "the run ended before its workers started"
        workers = children(process.pid)
        time.sleep(0.1)
    assert len(workers) >= 2
    time.sleep(1)  # the workers are checking
    process.kill()
    process.wait(TIMEOUT)
    gone_by = time.monotonic() + 5
    while any(alive(pid) for pid in workers) and time.monotonic() < gone_by:
        time.sleep(0.1)
    left = [pid for pid in workers if alive(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"workers still running 5 s after kill -9: {left}"
    assert process.stdout is not None
    process.stdout.read()  # the pipe ends: no worker holds it open (| wc -l would end)
    process.stdout.close()


# --- memory for one record ------------------------------------------------------------

MEASURE = """
import json, resource, sys
from adjudicator.record import RecordError, load
text = sys.stdin.read()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    load(text)
except RecordError as exc:
    print(json.dumps([str(exc), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before]))
"""


def huge_record(kind: str) -> str:
    """An Atlanta record with 500 KB to 1.5 MB of bad values in one place (its start's
    hands, the players, the actions, the options, the losers), or such a session."""
    record = json.loads((SAMPLES / "atlanta_receiver_shuffles.json").read_text())
    hands = record["start"]["hands"]
    if kind == "lists":
        hands["Anna"] = [["KS"]] * 100_000
    elif kind == "numbers":
        hands["Anna"] = list(range(120_000))
    elif kind == "strings":
        hands["Anna"] = ["ZZ"] * 170_000
    elif kind == "hands":  # a hands object of 40,000 bad hands
        record["start"]["hands"] = {f"P{i}": [["KS"]] for i in range(40_000)}
    elif kind == "players":
        record["players"] = ["a b"] * 100_000
    elif kind == "actions":
        record["actions"] = [{"player": 1, "act": 2}] * 60_000
    elif kind == "options":
        record["options"] = {f"o{i}": [1] for i in range(60_000)}
    elif kind == "losers":
        record["result"] = {"losers": [[1]] * 100_000}
    else:  # a session of 50,000 bad games
        record = {"format": "skitgubbe-session/1", "variant": "pagat"}
        record.update(players=["A", "B", "C"], games=[{"x": [1]}] * 50_000)
    return json.dumps(record)


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss is in kilobytes on Linux")
@pytest.mark.parametrize(
    "kind",
    ["lists", "numbers", "strings", "hands", "players", "actions", "options", "losers", "games"],
)
def test_a_huge_invalid_record_takes_a_few_times_its_size(kind: str) -> None:
    text = huge_record(kind)
    done = subprocess.run(
        [sys.executable, "-c", MEASURE],
        input=text,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    message, grown_kb = json.loads(done.stdout)
    assert message
    # json.loads alone holds each item as an object: about 20 times the text. pydantic's
    # error for every item took 50-400 MB for these (up to 400 times); the bound is 40.
    assert grown_kb * 1024 < 40 * len(text), (kind, len(text), grown_kb)
