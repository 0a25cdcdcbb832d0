"""Any terminal (issue 39): output its encoding cannot show is replaced, never a traceback.

Under ``PYTHONIOENCODING=ascii`` even a legal record's verdict (its ``·``) was a
``UnicodeEncodeError`` traceback, and an illegal one's ``✗`` exited 1 with a traceback
(1 means "illegal").  Each command runs in a process of its own with the environment of
an ASCII, a Latin-1 and a C-locale terminal (no Latin-1 locale is installed here, so
``PYTHONIOENCODING=latin-1`` stands for ``sv_SE.ISO-8859-1``; the C locale with Python's
coercion to UTF-8 switched off is plain ASCII).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator import samples
from adjudicator.cli import terminal

TIMEOUT = 120

TERMINALS = {
    "ascii": {"PYTHONIOENCODING": "ascii"},
    "latin-1": {"PYTHONIOENCODING": "latin-1"},
    "C": {"LC_ALL": "C", "LANG": "C"},
    "C, no coercion": {
        "LC_ALL": "C",
        "LANG": "C",
        "PYTHONCOERCECLOCALE": "0",
        "PYTHONUTF8": "0",
    },
}
ENCODING = {"ascii": "ascii", "latin-1": "latin-1", "C": "utf-8", "C, no coercion": "ascii"}


def run(terminal_name: str, *args: str) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "PYTHONIO"))}
    env.pop("ADJUDICATOR_LANG", None)
    env.update(TERMINALS[terminal_name])
    return subprocess.run(
        [sys.executable, "-m", "adjudicator", *args],
        capture_output=True,
        timeout=TIMEOUT,
        env=env,
    )


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("records")
    for name in ("pagat_3p_full", "illegal_phase2_beat"):
        (folder / f"{name}.json").write_text(samples.text(name), encoding="utf-8")
    return folder


def shown(done: subprocess.CompletedProcess[bytes], name: str) -> str:
    """Standard output as the terminal shows it: it must decode in the terminal's own
    encoding, and stderr holds no traceback."""
    err = done.stderr.decode(ENCODING[name], errors="replace")
    assert "Traceback" not in err and "UnicodeEncodeError" not in err, err
    return done.stdout.decode(ENCODING[name])  # strict: a byte it cannot show fails


@pytest.mark.parametrize("name", TERMINALS)
def test_check_of_an_illegal_record_exits_1_with_the_suits_replaced(
    name: str, records: Path
) -> None:
    done = run(name, "check", str(records / "illegal_phase2_beat.json"))
    assert done.returncode == 1
    out = shown(done, name)
    assert "illegal action 2: B play 7H" in out
    if ENCODING[name] != "utf-8":
        assert "x illegal action 2" in out
        assert "7H does not beat 9H" in out and "a trump (S) is needed" in out


@pytest.mark.parametrize("name", TERMINALS)
def test_check_of_a_legal_record_and_the_summary(name: str, records: Path) -> None:
    done = run(name, "check", str(records / "pagat_3p_full.json"))
    assert done.returncode == 0
    assert "legal" in shown(done, name)
    done = run(name, "check", str(records))
    assert done.returncode == 1
    out = shown(done, name)
    assert "Checked 2 records" in out and "phase2.beat" in out


@pytest.mark.parametrize("name", TERMINALS)
@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (["replay", "RECORDS/illegal_phase2_beat.json"], 1, "B play 7H"),
        (["replay", "RECORDS/pagat_3p_full.json", "--to", "5"], 0, "legal"),
        (["variants"], 0, "helmfrid"),
        (["variants", "mattis"], 0, "anti_trump"),
        (["explain", "phase2.beat"], 0, "Where the rule is written"),
        (["explain"], 0, "phase2.beat"),
        (["legal", "RECORDS/illegal_phase2_beat.json", "--at", "2"], 0, "B pick"),
        (["--lang", "sv", "check", "RECORDS/illegal_phase2_beat.json"], 1, "drag 2"),
        (["--lang", "fi", "replay", "RECORDS/illegal_phase2_beat.json"], 1, "B play 7H"),
    ],
)
def test_every_command_writes_what_the_terminal_can_show(
    name: str, args: list[str], code: int, words: str, records: Path
) -> None:
    done = run(name, *[a.replace("RECORDS", str(records)) for a in args])
    assert done.returncode == code, done.stderr
    assert words in shown(done, name)


@pytest.mark.parametrize("name", TERMINALS)
@pytest.mark.parametrize(
    "args",
    [
        ["check", "--json", "RECORDS/illegal_phase2_beat.json"],
        ["legal", "--json", "RECORDS/illegal_phase2_beat.json", "--at", "2"],
        ["--lang", "sv", "check", "--json", "RECORDS/illegal_phase2_beat.json"],
        ["samples", "helmfrid_dispute_known"],
    ],
)
def test_json_stays_json_with_the_same_values(name: str, args: list[str], records: Path) -> None:
    argv = [a.replace("RECORDS", str(records)) for a in args]
    done = run(name, *argv)
    out = shown(done, name)
    utf8 = subprocess.run(
        [sys.executable, "-m", "adjudicator", *argv],
        capture_output=True,
        timeout=TIMEOUT,
        env=dict(os.environ, PYTHONIOENCODING="utf-8"),
    )
    assert json.loads(out) == json.loads(utf8.stdout.decode("utf-8"))
    if ENCODING[name] != "utf-8":
        assert out.isascii()


def test_nearest_keeps_what_the_encoding_has() -> None:
    assert terminal.nearest("·", "latin-1") == "·"
    assert terminal.nearest("·", "ascii") == "-"
    assert terminal.nearest("å", "ascii") == "a" and terminal.nearest("å", "latin-1") == "å"
    assert [terminal.nearest(c, "ascii") for c in "✗♠♥♦♣"] == ["x", "S", "H", "D", "C"]
    assert terminal.nearest("\u4e2d", "ascii") == "?"
    assert "Ａｎｎａ".encode("ascii", errors=terminal.HANDLER) == b"Anna"


def test_json_escapes_reach_past_the_basic_plane() -> None:
    class Ascii:
        encoding = "ascii"

    text = json.dumps({"name": "Bo 🂡 ♠ å"}, ensure_ascii=False)
    escaped = terminal.json_text(text, Ascii())
    assert escaped.isascii() and json.loads(escaped) == json.loads(text)
