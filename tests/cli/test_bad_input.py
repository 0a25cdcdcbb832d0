"""Bad input: exit status 2, one line naming the place, never a traceback.

One case for each kind of invalid record the contract lists (not JSON, a
missing field, an unknown variant, option, act or player, a string that is no
card, a deck that is not a whole pack, a card twice in a start position), plus
the other ways a person can get a command wrong.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import DISPUTE, PACK, deck_record, start_record

from adjudicator.cli.commands import main
from adjudicator.invalid import MESSAGE_MAX

DECK = " ".join(PACK)
GOOD_START = start_record({"Anna": "2C 3C", "Bo": "7C 8C 9C", "Cai": "AH"}, ["Anna play 2C"])


def edited(record: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """``record`` with top-level fields replaced; a value of None removes the field."""
    out = {**record, **changes}
    return {k: v for k, v in out.items() if v is not None}


CASES: list[tuple[str, str, str]] = [
    ("not json", "{ this is not json", "not JSON"),
    ("empty file", "", "the file is empty"),
    ("not an object", "[1, 2, 3]", "object"),
    (
        "missing field",
        json.dumps(edited(deck_record(DECK, []), players=None)),
        "players",
    ),
    ("wrong format", json.dumps(edited(deck_record(DECK, []), format="skitgubbe/2")), "format"),
    ("unknown variant", json.dumps(edited(deck_record(DECK, []), variant="bridge")), "variant"),
    (
        "unknown option",
        json.dumps(edited(deck_record(DECK, []), options={"jokers": True})),
        "options.jokers",
    ),
    (
        "bad option value",
        json.dumps(edited(deck_record(DECK, []), options={"sequences": "four"})),
        "options.sequences",
    ),
    ("unknown act", json.dumps(deck_record(DECK, ["Anna steal 2S"])), "actions[0]"),
    ("unknown player", json.dumps(deck_record(DECK, ["Olof play 2S"])), "actions[0]"),
    (
        "unknown player in an object",
        json.dumps(deck_record(DECK, [{"player": "Olof", "act": "play", "cards": ["2S"]}])),
        "actions[0].player",
    ),
    ("not a card", json.dumps(deck_record(DECK, ["Anna play ZZ"])), "'ZZ' is not a card"),
    (  # the format: a play's cards are required (a stranger's play without them was illegal)
        "a play object without cards",
        json.dumps({**GOOD_START, "actions": [{"player": "Anna", "act": "play"}]}),
        "actions[0].cards: is required: a play names the cards played",
    ),
    (
        "a sluff object without cards",
        json.dumps({**GOOD_START, "actions": [{"player": "Anna", "act": "sluff"}]}),
        "actions[0].cards: is required: a sluff names the cards added",
    ),
    (
        "not a card in an object",
        json.dumps(deck_record(DECK, [{"player": "Anna", "act": "play", "cards": ["2S", "1H"]}])),
        "actions[0].cards[1]",
    ),
    ("deck too short", json.dumps(deck_record(" ".join(PACK[:-1]), [])), "deck"),
    ("deck with a card twice", json.dumps(deck_record(" ".join([*PACK[:-1], "2S"]), [])), "deck"),
    ("not a card in the deck", json.dumps(deck_record(" ".join([*PACK[:-1], "XX"]), [])), "deck"),
    (
        "card twice in a start position",
        json.dumps(start_record({"Anna": "2C 3C", "Bo": "2C 8C", "Cai": "AH"}, [])),
        "start.hands",
    ),
    ("dealer unknown", json.dumps(edited(deck_record(DECK, []), dealer="Olof")), "dealer"),
    (
        "duplicate player",
        json.dumps(edited(deck_record(DECK, []), players=["Anna", "Anna", "Bo"])),
        "players",
    ),
    (
        "too many players",
        json.dumps(edited(deck_record(DECK, []), players=list("ABCDE"))),
        "players",
    ),
    (
        "deck and start both",
        json.dumps({**GOOD_START, "dealer": "Anna", "deck": DECK}),
        "start",
    ),
    (
        "neither deck nor start",
        json.dumps(edited(deck_record(DECK, []), deck=None, dealer=None)),
        "deck",
    ),
    (
        "result names a stranger",
        json.dumps({**GOOD_START, "result": {"loser": "Olof"}}),
        "result.loser",
    ),
    (
        "start leader unknown",
        json.dumps({**GOOD_START, "start": {**GOOD_START["start"], "leader": "Olof"}}),
        "start.leader",
    ),
    (
        "start trump not a suit",
        json.dumps({**GOOD_START, "start": {**GOOD_START["start"], "trump": "X"}}),
        "start.trump",
    ),
]


def run(*args: str) -> tuple[int, str, str, BaseException | None]:
    result = CliRunner().invoke(main, list(args))
    exc = result.exception if not isinstance(result.exception, SystemExit) else None
    return result.exit_code, result.stdout, result.stderr, exc


def assert_one_line_naming(text: str, where: str) -> None:
    assert "Traceback" not in text
    lines = text.strip().splitlines()
    assert len(lines) == 1, lines
    assert where in lines[0], (where, lines[0])


@pytest.mark.parametrize(("case", "text", "where"), CASES, ids=[c[0] for c in CASES])
def test_check_says_invalid_in_one_line(case: str, text: str, where: str, tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_text(text, encoding="utf-8")
    code, out, _, exc = run("check", str(path))
    assert exc is None
    assert code == 2
    assert out.startswith(f"{path}: invalid")
    assert_one_line_naming(out, where)


@pytest.mark.parametrize(("case", "text", "where"), CASES, ids=[c[0] for c in CASES])
def test_check_json_says_invalid_with_the_error(
    case: str, text: str, where: str, tmp_path: Path
) -> None:
    path = tmp_path / "record.json"
    path.write_text(text, encoding="utf-8")
    code, out, _, exc = run("check", "--json", str(path))
    assert exc is None
    assert code == 2
    verdict = json.loads(out)
    assert verdict["status"] == "invalid"
    assert verdict["violations"] == [] and verdict["applied"] == 0
    assert_one_line_naming(verdict["error"], where)


@pytest.mark.parametrize(("case", "text", "where"), CASES, ids=[c[0] for c in CASES])
def test_replay_says_invalid_in_one_line(case: str, text: str, where: str, tmp_path: Path) -> None:
    """The same line as check's, on the same stream (stdout): a verdict, not a usage error."""
    path = tmp_path / "record.json"
    path.write_text(text, encoding="utf-8")
    code, out, err, exc = run("replay", str(path))
    assert exc is None
    assert code == 2
    assert err == ""
    assert out.startswith(f"{path}: invalid")
    assert_one_line_naming(out, where)
    assert out == run("check", str(path))[1]


def test_a_missing_file_is_invalid(tmp_path: Path) -> None:
    missing = str(tmp_path / "nowhere.json")
    for args in (("check", missing), ("replay", missing)):
        code, out, err, exc = run(*args)
        assert exc is None and code == 2
        assert_one_line_naming(out + err, "nowhere.json")


def test_a_file_that_is_not_utf8_is_invalid(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes('{"players": ["Åsa"]}'.encode("latin-1"))
    code, out, _, exc = run("check", str(path))
    assert exc is None and code == 2
    assert_one_line_naming(out, "latin1.json")


@pytest.mark.parametrize(
    "args",
    [
        ["replay", "--step", "99", "GOOD"],
        ["replay", "--to", "-1", "GOOD"],
        ["replay", "--step", "x", "GOOD"],
        ["variants", "bridge"],
        ["check"],
        ["frobnicate"],
    ],
)
def test_command_line_mistakes_exit_2_without_traceback(args: list[str], tmp_path: Path) -> None:
    path = tmp_path / "good.json"
    path.write_text(json.dumps(GOOD_START), encoding="utf-8")
    code, out, err, exc = run(*[str(path) if a == "GOOD" else a for a in args])
    assert exc is None
    assert code == 2
    assert "Traceback" not in out + err
    assert (out + err).strip()


def test_the_good_record_used_above_is_legal(tmp_path: Path) -> None:
    path = tmp_path / "good.json"
    path.write_text(json.dumps(GOOD_START), encoding="utf-8")
    assert run("check", str(path))[0] == 0


@pytest.mark.parametrize("option", ["--step", "--to"])
def test_steps_of_a_record_without_actions_are_refused(option: str, tmp_path: Path) -> None:
    path = tmp_path / "empty.json"
    path.write_text(json.dumps({**GOOD_START, "actions": []}), encoding="utf-8")
    code, out, err, exc = run("replay", option, "1", str(path))
    assert exc is None and code == 2
    assert_one_line_naming(out + err, f"{option} 1: the record has no actions")


DEEP = "[" * 5000 + "]" * 5000
DEEP_OBJECT = '{"a":' * 5000 + "1" + "}" * 5000


@pytest.mark.parametrize("text", [DEEP, DEEP_OBJECT], ids=["array", "object"])
def test_deeply_nested_json_is_one_invalid_line(text: str, tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text(text, encoding="utf-8")
    for command in ("check", "replay"):
        code, out, err, exc = run(command, str(path))
        assert exc is None and code == 2, command
        assert_one_line_naming(out + err, "nested too deeply")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_deeply_nested_line_does_not_stop_a_bulk_run(jobs: str, tmp_path: Path) -> None:
    good = json.dumps(GOOD_START)
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join([good, DEEP, good]) + "\n", encoding="utf-8")
    code, out, _, exc = run("check", "--json", "--jobs", jobs, str(path))
    assert exc is None and code == 2
    statuses = [json.loads(line)["status"] for line in out.splitlines()]
    assert statuses == ["legal", "invalid", "legal"]


def test_a_play_that_writes_no_cards_is_illegal_not_invalid(tmp_path: Path) -> None:
    """``"cards": []`` is written: the record is well formed and the play breaks
    ``play.count``; only a missing ``cards`` field makes it invalid."""
    path = tmp_path / "record.json"
    action = {"player": "Anna", "act": "play", "cards": []}
    path.write_text(json.dumps({**GOOD_START, "actions": [action]}), encoding="utf-8")
    code, out, _, exc = run("check", str(path))
    assert (exc, code) == (None, 1)
    assert "rule play.count: Anna names no card to play" in out


@pytest.mark.parametrize(
    ("given", "words"),
    [
        ("1e30", "more than this machine's memory"),
        ("99999999999999999999999", "more than this machine's memory"),
        ("1e99999999", "more than this machine's memory"),
        ("0", "at least 1 byte"),
        ("abc", "not a number of bytes"),
        ("1.5", "not a number of bytes"),
    ],
)
def test_max_record_size_out_of_range_is_one_line(given: str, words: str) -> None:
    result = CliRunner().invoke(main, ["check", "x.json", "--max-record-size", given])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert (
        len(lines) == 1 and lines[0].startswith(f"--max-record-size {given}") and words in lines[0]
    )


def test_max_record_size_takes_a_number_written_with_an_exponent(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(DISPUTE), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path), "--max-record-size", "2e1"])
    assert result.exit_code == 2 and "limit of 20 bytes" in result.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["replay", "x.json", "--step", "9" * 5000],
        ["--" + "x" * 5000],
        ["check", "--" + "x" * 5000, "x.json"],
    ],
)
def test_usage_errors_are_cut_too(args: list[str]) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert max(len(line) for line in result.stderr.splitlines()) <= MESSAGE_MAX


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["legal", "x.json", "--go-on", "x"], "adjudicator legal: Invalid value for '--go-on'"),
        (["replay", "x.json", "--go-on", "x"], "adjudicator replay: Invalid value for '--go-on'"),
        (["check"], "adjudicator check: Missing argument 'PATH...'"),
        (["--no-such-option"], "adjudicator: No such option '--no-such-option'"),
    ],
)
def test_a_command_line_mistake_is_one_line(args: list[str], words: str) -> None:
    """click prints three lines (usage, a hint, the error): here one, naming the command."""
    result = CliRunner().invoke(main, args, prog_name="adjudicator")
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(words), result.stderr
    assert lines[0].endswith("--help')")


def test_a_database_piped_in_is_one_line_saying_it_is_read_from_a_file(tmp_path: Path) -> None:
    # 'cat app.db | adjudicator import albined-db -' said '-: -: cannot be read'
    import sqlite3

    db = tmp_path / "app.db"
    sqlite3.connect(db).execute("CREATE TABLE games (id TEXT)").connection.close()
    piped = db.read_bytes()
    said = "a database is read from a file, not from standard input: name the file"
    for args in (
        ["import", "albined-db", "-"],
        ["check", "--from", "albined-db", "-"],
        ["replay", "--from", "albined-db", "-"],
        ["legal", "--from", "albined-db", "-"],
    ):
        result = CliRunner().invoke(main, args, input=piped)
        assert result.exit_code == 2, args
        assert result.stderr == f"-: {said}\n" and result.stdout == "", args
    for args in (["check", "-"], ["replay", "-"]):  # told by its bytes, without --from
        result = CliRunner().invoke(main, args, input=piped)
        assert result.exit_code == 2, args
        assert result.stdout == f"-: invalid · {said}\n", args
