"""Hostile input at the command line (issue 23): nothing runs, nothing hangs.

Text from a record is never markup; file names cannot drive a terminal; what is not a
regular file, or too large, is refused without being read.  The rest of issue 23 is tested
with its layer: interrupts and dead workers in tests/bulk/test_interrupts.py, outputs
written whole in tests/bulk/test_outputs.py, names in the HTML ruling and the interactive
replay in tests/render/.  The process tests run the command as a subprocess, with bounded
timeouts.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import COMMAND_TIMEOUT, MARKUP_NAMES, with_loser_named
from conftest import adjudicator_command as command
from conftest import run_adjudicator as run

from adjudicator import limits
from adjudicator.cli.commands import main


def invoke(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


# --- text from a record is never markup -------------------------------------------


@pytest.mark.parametrize("name", MARKUP_NAMES)
def test_a_name_is_text_in_replay_check_legal_and_as(
    tmp_path: Path, games: list[dict[str, Any]], name: str
) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(with_loser_named(games[0], name)), encoding="utf-8")
    for args in (
        ("replay", str(path)),
        ("replay", str(path), "--as", name),
        ("check", str(path)),
        ("legal", str(path)),
        ("legal", str(path), "--at", "3"),
    ):
        code, out, err = invoke(*args)
        assert code == 0, (args, out, err)
        assert name in out, (args, out)  # shown as written, not taken as markup
        assert "Traceback" not in out + err
    code, out, _ = invoke("replay", str(path))
    assert f"loser {name}" in out
    assert any(name in line.split() for line in out.splitlines())  # its row of the table


# --- file names --------------------------------------------------------------------


def test_file_names_from_a_folder_walk_are_escaped(
    tmp_path: Path, games: list[dict[str, Any]]
) -> None:
    name = "FAKE: legal.json\n\x1b[31mred\u202etxt.json"
    (tmp_path / name).write_text(json.dumps(games[0]), encoding="utf-8")
    (tmp_path / "ok.json").write_text(json.dumps(games[1]), encoding="utf-8")
    code, out, _ = invoke("check", str(tmp_path))
    assert code == 0
    assert "\x1b" not in out and "\u202e" not in out
    assert not any(line.startswith("FAKE") for line in out.splitlines())
    assert json.dumps(str(tmp_path / name)) + ": legal" in out
    code, out, _ = invoke("check", "--json", str(tmp_path))
    assert [json.loads(line)["file"] for line in out.splitlines()] == [
        str(tmp_path / name),
        str(tmp_path / "ok.json"),
    ]


# --- input that is too much ---------------------------------------------------------------


def test_a_fifo_and_a_device_in_a_folder_are_refused_unread(
    tmp_path: Path, games: list[dict[str, Any]]
) -> None:
    os.mkfifo(tmp_path / "a.json")
    (tmp_path / "b.json").write_text(json.dumps(games[0]), encoding="utf-8")
    (tmp_path / "z.json").symlink_to("/dev/zero")
    os.mkfifo(tmp_path / "p.jsonl")
    done = run("check", str(tmp_path), str(tmp_path / "p.jsonl"))
    assert done.returncode == 2
    lines = done.stdout.splitlines()
    fifo = tmp_path / "a.json"
    assert lines[0] == f"{fifo}: invalid · {fifo} is not a regular file (a named pipe)"
    assert lines[1].startswith(f"{tmp_path / 'b.json'}: legal")
    assert lines[2].endswith("is not a regular file (a device)")
    assert lines[3].endswith("is not a regular file (a named pipe)")
    done = run("replay", str(tmp_path / "z.json"))
    assert done.returncode == 2 and "not a regular file (a device)" in done.stdout


def test_a_record_over_the_limit_is_invalid_with_the_way_to_raise_it(
    tmp_path: Path, games: list[dict[str, Any]]
) -> None:
    text = json.dumps(dict(games[0], meta={"pad": "x" * 5000}))
    (tmp_path / "r.json").write_text(text, encoding="utf-8")
    small = json.dumps(games[1])
    lines = tmp_path / "r.jsonl"
    lines.write_text(text + "\n" + small + "\n", encoding="utf-8")
    size = len(text.encode())
    limit = str(size - 1)
    code, out, _ = invoke("check", str(tmp_path / "r.json"), "--max-record-size", limit)
    assert code == 2, out
    assert out.strip() == f"{tmp_path / 'r.json'}: invalid · " + limits.too_big(
        str(tmp_path / "r.json"), size - 1
    )
    assert "--max-record-size raises it" in out
    code, out, _ = invoke("check", str(tmp_path / "r.json"), "--max-record-size", str(size))
    assert code == 0
    # JSON Lines: the long line alone is invalid, the next is read
    code, out, _ = invoke("check", str(lines), "--max-record-size", str(len(small) + 1))
    assert code == 2, out
    assert out.splitlines()[:2] == [
        f"{lines}:1: invalid · " + limits.too_big("line 1", len(small) + 1),
        out.splitlines()[1],
    ]
    assert out.splitlines()[1].startswith(f"{lines}:2: legal")
    code, out, _ = invoke("replay", str(tmp_path / "r.json"), "--max-record-size", limit)
    assert code == 2 and "larger than the limit" in out
    code, out, _ = invoke("legal", str(tmp_path / "r.json"), "--max-record-size", limit)
    assert code == 2 and "larger than the limit" in out
    assert limits.MAX_RECORD_SIZE == 64 * 1024 * 1024


def test_endless_standard_input_is_cut_at_the_limit() -> None:
    with open("/dev/zero", "rb") as zero:
        done = subprocess.run(
            [*command(), "check", "-", "--max-record-size", "1000"],
            stdin=zero,
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT,
        )
    assert done.returncode == 2
    assert done.stdout.startswith("-: invalid · standard input is larger than the limit")


def test_dask_reads_lone_cr_line_endings_as_a_local_run(
    tmp_path: Path, games: list[dict[str, Any]]
) -> None:
    pytest.importorskip("distributed")
    text = json.dumps(games[0], indent=1).replace("\n", "\r")
    (tmp_path / "cr.json").write_text(text[:-40], encoding="utf-8", newline="")
    (tmp_path / "ok.json").write_text(text, encoding="utf-8", newline="")
    local = run("check", "--json", str(tmp_path))
    dask = run("check", "--json", "--dask", "local", str(tmp_path))
    assert local.stdout == dask.stdout and local.returncode == dask.returncode == 2
    assert "line 1 column" in local.stdout


def test_emoji_codes_in_text_stay_text() -> None:
    """rich turns ':x:' into an emoji by default: an error line or a name must not change."""
    code, _, err = invoke("check", "--dask", "local:x:", "nothing.json")
    assert code == 2
    assert "local:x:" in err and "\u274c" not in err
