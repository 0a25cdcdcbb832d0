"""The Table at its boundary, events and their words.

The Table is checked against adjudicate and legal over simulated games in
tests/engine/test_properties.py; here are the edges a person meets: a bad seat or card, a
refused action, a copy, a table from no game.  The service behind every edge is
tests/service/test_service.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adjudicator import (
    AdjudicatorError,
    IllegalActionError,
    Table,
    load_record,
)
from adjudicator.actions import Action
from adjudicator.cards import parse_card
from adjudicator.engine import events as ev
from adjudicator.invalid import MESSAGE_MAX
from adjudicator.play import words
from adjudicator.play.adjudicate import adjudicate_session
from adjudicator.record import load

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_games"


@pytest.fixture
def table() -> Table:
    return Table.from_game(load_record(SAMPLES / "pagat_3p_full.json"))


def test_a_seat_or_card_not_at_the_table_is_a_value_error_not_an_index_error(table: Table) -> None:
    for bad in (Action(3, "play", (parse_card("3C"),)), Action(-1, "play", ())):
        with pytest.raises(ValueError, match="not at this table") as refused:
            table.check(bad)
        assert not isinstance(refused.value, AdjudicatorError)  # the caller's misuse
    with pytest.raises(ValueError, match="is not a card"):
        table.push(Action(0, "play", (52,)))
    with pytest.raises(TypeError, match="an action is an Action or a string"):
        table.check(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a table is set from a Game"):
        Table.from_game("pagat_3p_full.json")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'Zed'"):
        table.parse("Zed play 3C")
    with pytest.raises(ValueError, match="not an act"):
        table.parse("Anna juggle 3C")
    assert table.history == ()


def test_an_illegal_push_raises_the_violation_and_leaves_the_table_as_it_was(table: Table) -> None:
    with pytest.raises(IllegalActionError) as refused:
        table.push("Bo play 7S")
    v = refused.value.violation
    assert isinstance(refused.value, ValueError)
    assert (v.rule, v.index, v.player, v.action) == ("turn.order", 0, "Bo", "Bo play 7S")
    assert "Anna play 3C" in v.alternatives
    assert str(refused.value).startswith("turn.order: It is not Bo's turn")
    assert table.history == () and table.turn == "Anna"
    assert table.check("Anna play 3C") is None


def test_push_returns_the_act_and_its_consequences_in_table_words(table: Table) -> None:
    happened = table.push("Anna play 3C")
    assert happened == [ev.Played(0, (parse_card("3C"),), "lead")]
    happened = table.push("Bo dare")
    assert isinstance(happened[0], ev.Dared) and happened[0].how == "to"
    said, after = words.act_and_consequences(happened, table.players)
    assert said == "Bo dares and turns A♣ to 3♣"  # as the sample's replay snapshot says
    assert after == ["Bo takes the trick (2 cards) and leads"]


def test_a_copy_steps_on_alone_and_repr_says_where_the_game_is(table: Table) -> None:
    game = table.game
    other = table.copy()
    for action in game.actions:
        other.push(action)
    assert table.history == () and len(other.history) == len(game.actions)
    assert repr(table) == "<Table pagat: Anna, Bo, Cai; phase one, Anna to play; 0 actions>"
    assert repr(other) == "<Table pagat: Anna, Bo, Cai; over, Cai lost; 313 actions>"
    assert table.outcome is None
    assert other.outcome is not None and other.outcome.loser == "Cai"
    assert other.legal_actions == []


def test_table_new_deals_from_a_deck_as_a_record_would() -> None:
    game = load_record(SAMPLES / "pagat_3p_full.json")
    record = json.loads((SAMPLES / "pagat_3p_full.json").read_text(encoding="utf-8"))
    fresh = Table.new("pagat", game.players, deck=record["deck"].split(), dealer="Cai")
    assert fresh.view() == Table.from_game(game).view()
    with pytest.raises(ValueError, match="deck or a start"):
        Table.new("pagat", game.players)


def test_adjudicate_does_not_edit_its_input() -> None:
    session = load(SAMPLES / "goat_session_3_games.json")
    last = session.games[2]
    assert last.first_leader_given is False
    before = last.first_leader
    report = adjudicate_session(session)
    assert report.status == "legal"
    assert session.games[2].first_leader == before


def test_a_table_set_from_no_game_is_a_type_error() -> None:
    """A caller's misuse is Python's own error (issue 42), in one line all the same."""
    with pytest.raises(TypeError, match="a table is set from a Game") as caught:
        Table.from_game(None)  # type: ignore[arg-type]
    assert "\n" not in str(caught.value) and len(str(caught.value)) <= MESSAGE_MAX
