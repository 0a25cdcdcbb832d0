"""The other "Skitgubbe" (issue 40, item 3): a record of Vändtia is named as that game.

By its variant (any spelling, case and accents) or by a shape only that game has
(face-down and face-up cards, burns): one line in the language speaking, exit status 2 as
for any invalid record, HTTP 422 with the same line.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import DISPUTE
from fastapi.testclient import TestClient

from adjudicator import i18n
from adjudicator.cli.commands import main
from adjudicator.record import RecordError, load
from adjudicator.record.other_games import fold, is_vandtia, shape_at
from adjudicator.rules.presets import PRESETS
from adjudicator.web import app

LINE = (
    "this is Vändtia (Palace), a different game also called Skitgubbe; this tool judges "
    "the two-phase Skitgubbe family (see docs/other-games.md)"
)


def error(record: dict[str, Any]) -> str:
    with pytest.raises(RecordError) as caught:
        load(copy.deepcopy(record))
    return str(caught.value)


@pytest.mark.parametrize(
    "variant",
    [
        "vändtia",
        "Vandtia",
        "VÄNDTIAN",
        "vändtia",  # decomposed: a + combining diaeresis
        "Palace",
        "shithead",
        "Shit-Head",
        "karma",
        "Skitgubbe (Vändtia)",
        "skitgubbe/palace",
        "  Shed ",
    ],
)
def test_a_variant_read_as_vandtia_is_named(variant: str) -> None:
    said = error({**DISPUTE, "variant": variant})
    assert said.startswith("variant: ") and said.endswith(
        "is Vändtia (Palace), a different game also called Skitgubbe; this tool judges the "
        "two-phase Skitgubbe family (see docs/other-games.md)"
    )
    assert len(said.splitlines()) == 1


@pytest.mark.parametrize("variant", [*PRESETS, "skitgubbe", "mas", "Pagta", "sheddings", "x"])
def test_other_names_are_not_vandtia(variant: str) -> None:
    assert not is_vandtia(variant)


def test_folding_drops_accents_case_and_punctuation() -> None:
    assert fold("Skitgubbe (Vändtia)") == "skitgubbevandtia"
    assert fold("ＰＡＬＡＣＥ") == "palace"  # full-width letters


@pytest.mark.parametrize(
    ("extra", "place"),
    [
        ({"faceDown": {"Anna": ["2S", "3S", "4S"]}}, "faceDown"),
        ({"face_up": {}}, "face_up"),
        ({"table_cards": {}}, "table_cards"),
        ({"players": [{"name": "Anna", "blind": ["2S"]}, "Bo", "Cai"]}, "players[0].blind"),
        ({"start": {**DISPUTE["start"], "burned": ["TS"]}}, "start.burned"),
        ({"actions": [{"player": "Anna", "act": "play", "cards": ["TS"], "burns": True}]}, None),
    ],
)
def test_a_record_of_vandtias_shape_is_named(extra: dict[str, Any], place: str | None) -> None:
    said = error({**DISPUTE, **extra})
    where = place or "actions[0].burns"
    assert said == f"{where}: {LINE}"


def test_the_users_keys_and_meta_are_not_looked_into() -> None:
    record = {**DISPUTE, "meta": {"faceDown": 1}, "_faceUp": 2}
    assert shape_at(record) is None
    load(copy.deepcopy(record))  # a valid record of this family


def test_a_plain_unknown_key_is_still_only_unknown() -> None:
    assert error({**DISPUTE, "pile": []}) == (
        "pile: is not a field of this place in the record format"
    )


def test_the_line_is_in_the_language_speaking_exit_status_2() -> None:
    text = json.dumps({**DISPUTE, "variant": "Vändtia"})
    for lang in i18n.LANGUAGES:
        result = CliRunner().invoke(main, ["check", "--lang", lang, "-"], input=text)
        assert result.exit_code == 2, result.output
        line = result.output.strip()
        assert len(line.splitlines()) == 1 and "Vändtia" in line and "docs/other-games.md" in line
        with i18n.speaking(lang):
            assert error({**DISPUTE, "variant": "Vändtia"}) in line
        if lang != i18n.SOURCE:
            assert LINE not in line  # translated


def test_the_api_answers_422_with_the_same_line() -> None:
    client = TestClient(app)
    for lang in ("en", "sv"):
        answer = client.post(f"/api/check?lang={lang}", json={**DISPUTE, "variant": "palace"})
        assert answer.status_code == 422
        with i18n.speaking(lang):
            assert answer.json()["error"] == error({**DISPUTE, "variant": "palace"})


def test_a_session_of_vandtia_is_named_too() -> None:
    from adjudicator.samples import text

    session = json.loads(text("goat_session_3_games.json"))
    assert error({**session, "variant": "Shithead"}).startswith("variant: 'Shithead' is Vändtia")
    session["games"][0]["face_down"] = {}
    assert error(session) == f"games[0].face_down: {LINE}"
