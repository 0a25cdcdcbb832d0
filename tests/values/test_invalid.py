"""One error type for bad input (``invalid.py``), messages cut at 300 characters, sizes
in range (``limits.py``): issue 35's library side.  Its other sides are tested with their
layers: names that look alike in tests/record/test_confusables.py, the API's and the
server's errors in tests/service/ and tests/web/, the command line's in
tests/cli/test_bad_input.py, the faults from outside the records in
tests/fuzz/test_faults.py."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from conftest import DISPUTE

from adjudicator import limits
from adjudicator.cards import card_code, card_text, parse_card, parse_suit
from adjudicator.invalid import MESSAGE_MAX, RecordError, cut
from adjudicator.record import load_record
from adjudicator.rules.presets import find_variant


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


def test_printable_leaves_plain_names_alone() -> None:
    assert limits.printable("games/Åsa 1.json") == "games/Åsa 1.json"
    assert limits.printable("a\nb") == '"a\\nb"'
    assert limits.printable("x\udcff.json") == '"x\\udcff.json"'
