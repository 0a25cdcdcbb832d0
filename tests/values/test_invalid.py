"""One error type for bad input, messages cut at 300 characters, sizes in range, and
player names that look alike (issue 35's library side; the faults from outside the
records are in tests/fuzz/test_faults.py)."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import DISPUTE, PACK

from adjudicator import Table, limits
from adjudicator.cards import card_code, card_text, parse_card, parse_suit
from adjudicator.cli import main
from adjudicator.invalid import MESSAGE_MAX, RecordError, cut
from adjudicator.record import load, load_record
from adjudicator.record.confusables import _ASCII_CONFUSABLE, _prototypes, derive, skeleton
from adjudicator.rules.presets import find_variant
from adjudicator.service import page, routes

CYRILLIC_A = "\u0410"


@pytest.mark.parametrize(
    ("call", "given"),
    [
        (load_record, "\ud800"),
        (load_record, "a\udcffb.json"),
        (parse_card, None),
        (parse_suit, 7),
        (find_variant, 3),
        (find_variant, ["pagat"]),
        (card_code, Decimal("1E+999999")),
        (card_code, 52),
        (card_text, 3.0),
    ],
)
def test_bad_input_is_record_error(call: Any, given: Any) -> None:
    with pytest.raises(RecordError) as caught:
        call(given)
    assert "\n" not in str(caught.value) and len(str(caught.value)) <= MESSAGE_MAX


def test_a_table_set_from_no_game_is_a_type_error() -> None:
    """A caller's misuse is Python's own error (issue 42), in one line all the same."""
    with pytest.raises(TypeError, match="a table is set from a Game") as caught:
        Table.from_game(None)  # type: ignore[arg-type]
    assert "\n" not in str(caught.value) and len(str(caught.value)) <= MESSAGE_MAX


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"a": 1}, "options.a: is not a rule option"),
        ({"sequences": "four"}, "options.sequences: 'four' is not a value this option takes"),
        ({"min_players": 5, "max_players": 3}, "options: min_players (5) is above max_players (3)"),
    ],
)
def test_rule_options_refuse_in_the_projects_error(options: dict[str, Any], said: str) -> None:
    """``RuleOptions(a=1)`` raised pydantic's ValidationError; a record's options keep the
    record layer's fuller words (each option's allowed values) all the same."""
    from adjudicator.rules.options import RuleOptions

    with pytest.raises(RecordError) as caught:
        RuleOptions(**options)
    assert str(caught.value) == said
    record = {
        "format": "skitgubbe-record/1",
        "variant": "pagat",
        "players": ["Anna", "Bo", "Cai"],
        "options": {"sequences": "four"},
        "deck": list(PACK),
        "actions": [],
    }
    with pytest.raises(RecordError) as whole:
        load_record(json.dumps(record))
    assert str(whole.value).startswith("options.sequences: must be ")


@pytest.mark.parametrize("size", [None, 0, -1, 1.5, "64", True, 10**30])
def test_max_size_out_of_range_is_record_error(size: Any) -> None:
    with pytest.raises(RecordError, match=r"^max_size: "):
        load_record(json.dumps(DISPUTE), max_size=size)


def test_a_limit_larger_than_the_file_allocates_nothing_up_front(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(DISPUTE), encoding="utf-8")
    most = limits.memory()
    assert load_record(path, max_size=most).players == ("Anna", "Bo", "Cai")
    assert limits.read_limited(str(path), most) == path.read_bytes()


def test_messages_are_cut_at_300_characters() -> None:
    assert cut("x" * 1000) == "x" * 297 + "..." and cut("short") == "short"
    long_path = ".".join(["deep"] * 200)
    error = RecordError(long_path, "y" * 1000)
    assert len(str(error)) <= MESSAGE_MAX and str(error).startswith("deep.deep")
    assert len(str(RecordError("", "z" * 5000))) == MESSAGE_MAX
    with pytest.raises(RecordError) as caught:
        load_record("/" + "d" * 4000 + "/r.json")
    assert len(str(caught.value)) <= MESSAGE_MAX


def test_the_apis_errors_are_cut_too() -> None:
    with pytest.raises(page.BadInput) as caught:
        page.explain("t" * 10_000)
    assert len(caught.value.message) <= MESSAGE_MAX
    status, text = routes.answer("GET", "/api/" + "n" * 10_000)  # no such page, in the browser
    assert status == 404 and len(json.loads(text)["error"]) <= MESSAGE_MAX


def test_the_servers_own_errors_are_cut() -> None:
    from fastapi.testclient import TestClient

    from adjudicator.web import app

    answer = TestClient(app).get("/" + "n" * 10_000)
    assert answer.status_code == 404 and len(answer.json()["error"]) <= MESSAGE_MAX


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


# --- names that look alike ------------------------------------------------------------


def test_anna_and_anna_with_a_cyrillic_a_are_refused_naming_both() -> None:
    record = dict(DISPUTE, players=["Anna", "Bo", CYRILLIC_A + "nna"])
    with pytest.raises(RecordError) as caught:
        load(record)
    message = str(caught.value)
    assert message.startswith("players[2]: ")
    assert f"'{CYRILLIC_A}nna'" in message and "'Anna' (players[0])" in message
    assert "U+0410 CYRILLIC CAPITAL LETTER A" in message


@pytest.mark.parametrize(
    ("one", "other"),
    [("Anna", CYRILLIC_A + "nna"), ("Il", "ll"), ("Kim", "Kirn"), ("Bo", "B\u03bf")],
)
def test_confusable_names_share_a_skeleton(one: str, other: str) -> None:
    assert skeleton(one) == skeleton(other)


@pytest.mark.parametrize(("one", "other"), [("Anna", "Anne"), ("Bo", "bo"), ("Cai", "Kai")])
def test_different_names_keep_different_skeletons(one: str, other: str) -> None:
    assert skeleton(one) != skeleton(other)


def test_the_ascii_fast_path_knows_every_ascii_character_the_table_maps() -> None:
    mapped = {ch for ch in _prototypes() if ch.isascii()}
    assert mapped == set(_ASCII_CONFUSABLE)


def test_the_table_is_derived_from_unicodes_file_as_it_is_written() -> None:
    text = (
        "\ufeff# confusables.txt\n# Version: 99.0.0\n"
        "0410 ;\t0041 ;\tMA\t# ( А → A ) CYRILLIC CAPITAL LETTER A → LATIN CAPITAL LETTER A\n"
        "006D ;\t0072 006E ;\tMA\t# ( m → rn )\n"
        "\n0391 ;\t0041 ;\tMA\t# ( Α → A )\n"
    )
    module = derive(text)
    assert "version 99.0.0" in module
    namespace: dict[str, Any] = {}
    exec(module, namespace)
    assert namespace["TABLE"].split() == ["0041:0410,0391", "0072+006E:006D"]


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
