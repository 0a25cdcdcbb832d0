"""One notation (issue 19): an action reads and writes the same way, the deal included.

``Action.text`` / :func:`format_action` write the string form, :func:`parse_action`
and the record reader read it back; a deal may be written as a string in a
record (``"Cai deal Anna:2H,5C Bo:3D"``) as well as an object.  A built
``Game`` is frozen, a session's replay changes none of its games, and the
engine runs without the record layer.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.actions import ACTS, Action
from adjudicator.cards import FULL_PACK, card_code
from adjudicator.play.adjudicate import adjudicate, adjudicate_session
from adjudicator.record import (
    Game,
    RecordError,
    canonical,
    format_action,
    load,
    load_record,
    parse_action,
    parse_record,
)
from adjudicator.rules.deal import deal_layout
from adjudicator.rules.presets import PRESETS

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_games"

# Player names as the format allows them (no spaces, printable), ':' and ',' included:
# the deal's separators must not be confused by a name that holds them.
NAME = st.text(
    st.characters(categories=("L", "N", "P", "S"), exclude_characters="\x7f"),
    min_size=1,
    max_size=12,
)
CARD = st.sampled_from(FULL_PACK)


@st.composite
def tables_and_actions(draw: st.DrawFn) -> tuple[list[str], Action]:
    """A seating and any action at it: every act, a deal with any receivers and cards."""
    players = draw(
        st.lists(NAME.filter(lambda n: not n.startswith("{")), min_size=2, max_size=8, unique=True)
    )
    seat = st.integers(0, len(players) - 1)
    act = draw(st.sampled_from(ACTS))
    if act == "deal":
        receivers = draw(st.lists(seat, max_size=len(players), unique=True))
        to = tuple((r, tuple(draw(st.lists(CARD, max_size=6)))) for r in receivers)
        return players, Action(draw(seat), act, (), to)
    return players, Action(draw(seat), act, tuple(draw(st.lists(CARD, max_size=5))))


@settings(max_examples=300, deadline=None)
@given(tables_and_actions())
def test_every_action_reads_back_as_written(drawn: tuple[list[str], Action]) -> None:
    players, action = drawn
    text = format_action(action, players)
    assert text == action.text(players)
    assert parse_action(text, players) == action


def test_the_deal_has_a_string_form() -> None:
    players = ["Anna", "Bo", "Cai"]
    deal = Action(2, "deal", (), ((0, (13, 3)), (1, (28,))))
    assert format_action(deal, players) == "Cai deal Anna:2H,5S Bo:4D"
    assert parse_action("Cai deal Anna:2h,5♠ Bo:4D", players) == deal
    assert parse_action("Cai deal Anna: Bo:4D", players).to == ((0, ()), (1, (28,)))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Cai deal Anna", "'Anna' is not '<receiver>:<card>,<card>...'"),
        ("Cai deal :2H", "':2H' is not '<receiver>:<card>,<card>...'"),
        ("Cai deal Olof:2H", "to.Olof: 'Olof' is not one of the players"),
        ("Cai deal Anna:2H Anna:3H", "to.Anna: is written twice"),
        ("Cai deal Anna:2H,ZZ", "to.Anna[1]: 'ZZ' is not a card"),
        ("Cai deal Anna:2H,,3H", "to.Anna[1]: '' is not a card"),
        ("Cai deal Anna:??", "to.Anna[0]: '??' is not allowed here"),
        ("Cai steal 2H", "'steal' is not an act"),
        ("Cai", "'Cai' is not '<player> <act> [card ...]'"),
        ("Olof play 2H", "player: 'Olof' is not one of the players"),
    ],
)
def test_a_bad_string_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_action(text, ["Anna", "Bo", "Cai"])
    assert isinstance(info.value, RecordError)
    assert message in str(info.value)


def _deals_as_strings(record: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """``record`` with every deal object written in the string form instead."""
    out = json.loads(json.dumps(record))
    written = 0
    for index, entry in enumerate(out["actions"]):
        if isinstance(entry, dict) and entry["act"] == "deal":
            receivers = " ".join(f"{name}:{','.join(cards)}" for name, cards in entry["to"].items())
            out["actions"][index] = f"{entry['player']} deal {receivers}"
            written += 1
    return out, written


@pytest.mark.parametrize(
    "name", ["helmfrid_3p_full.json", "goat_5p_full.json", "illegal_deal_receivers.json"]
)
def test_a_record_may_write_its_deals_as_strings(name: str) -> None:
    record = json.loads((SAMPLES / name).read_text(encoding="utf-8"))
    as_strings, written = _deals_as_strings(record)
    assert written >= 1
    objects, strings = load_record(record), load_record(as_strings)
    assert strings.actions == objects.actions
    first, second = adjudicate(objects), adjudicate(strings)
    assert [(v.index, v.rule, v.message) for v in second.violations] == [
        (v.index, v.rule, v.message) for v in first.violations
    ]
    assert (second.finished, second.loser) == (first.finished, first.loser)


def test_canonical_keeps_each_deal_in_the_form_it_was_written() -> None:
    record = json.loads((SAMPLES / "helmfrid_3p_full.json").read_text(encoding="utf-8"))
    as_strings, _ = _deals_as_strings(record)
    as_strings["actions"] = [
        a.replace("5C", "5c", 1) if isinstance(a, str) and " deal " in a else a
        for a in as_strings["actions"]
    ]
    out = canonical(parse_record(as_strings))
    deals = [a for a in out["actions"] if isinstance(a, str) and " deal " in a]
    assert deals == [a for a in _deals_as_strings(record)[0]["actions"] if " deal " in str(a)]
    assert canonical(parse_record(record))["actions"] == record["actions"]


def test_a_bad_deal_string_in_a_record_names_its_place() -> None:
    record = json.loads((SAMPLES / "helmfrid_3p_full.json").read_text(encoding="utf-8"))
    record["actions"][3] = "Bo deal Anna:2C Dag:3C"
    with pytest.raises(RecordError) as info:
        load_record(record)
    assert str(info.value) == "actions[3].to.Dag: 'Dag' is not one of the players"


def test_a_built_game_is_frozen() -> None:
    game = load_record(SAMPLES / "helmfrid_3p_full.json")
    assert isinstance(game, Game)
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.first_leader = 0  # type: ignore[misc]
    start = load_record(SAMPLES / "bottom_goat_example_1.json").start
    assert start is not None
    with pytest.raises(dataclasses.FrozenInstanceError):
        start.leader = 0  # type: ignore[misc]


def test_a_sessions_replay_changes_none_of_its_games() -> None:
    session = load(SAMPLES / "goat_session_3_games.json")
    before = [dataclasses.astuple(game) for game in session.games]  # type: ignore[union-attr]
    third = session.games[2]  # type: ignore[union-attr]
    assert not third.first_leader_given
    assert third.players[third.first_leader] != "Cai"  # the dealer's left, until replayed
    report = adjudicate_session(session)  # type: ignore[arg-type]
    assert [dataclasses.astuple(game) for game in session.games] == before  # type: ignore[union-attr]
    # The third game is led by the second game's loser, in the copy that was played.
    assert report.played[2].players[report.played[2].first_leader] == "Cai"  # type: ignore[index]
    assert report.status == "legal"


def test_the_engine_runs_without_the_record_layer() -> None:
    """Importing the engine imports neither ``adjudicator.record`` nor pydantic's models of
    the format.  The package's own ``__init__`` (which offers ``load_record``) is bypassed."""
    probe = (
        "import sys, types\n"
        "package = types.ModuleType('adjudicator')\n"
        f"package.__path__ = [{str(ROOT / 'adjudicator')!r}]\n"
        "sys.modules['adjudicator'] = package\n"
        "import adjudicator.engine\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('adjudicator.record'))\n"
        "assert not loaded, loaded\n"
        "print('engine alone')\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "engine alone"


TABLES = [
    (name, players)
    for name, preset in sorted(PRESETS.items())
    for players in range(preset.options.min_players, preset.options.max_players + 1)
]


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_the_deal_layout_uses_every_card_of_the_deck_once(name: str, players: int) -> None:
    options = PRESETS[name].options_for(players)
    layout = deal_layout(options, players)
    places = [
        *([layout.set_aside] if layout.set_aside is not None else []),
        *layout.reserve,
        *layout.hands,
        *([layout.turned_up] if layout.turned_up is not None else []),
        *layout.stock,
    ]
    assert places == list(range(52 * options.decks))
    assert layout.trump_card in places
    assert [layout.seat(i, 0) for i in layout.hands][:players] == [
        *range(1, players),
        0,
    ]


def test_the_deal_follows_the_layout() -> None:
    """The engine deals what the layout says: hands, stock and the trump card."""
    from adjudicator.engine import new_state

    game = load_record(SAMPLES / "helmfrid_3p_full.json")
    assert game.deck is not None and game.dealer is not None
    layout = deal_layout(game.options, len(game.players))
    state = new_state(game)
    for seat in range(len(game.players)):
        dealt = [game.deck[i] for i in layout.hands if layout.seat(i, game.dealer) == seat]
        assert state.hands[seat] == dealt
    assert state.stock[-1] == game.deck[layout.stock[0]]  # the top card is next in the deck
    assert card_code(state.stock[0]) == card_code(game.deck[layout.trump_card])


def test_a_deal_is_listed_in_the_object_form() -> None:
    from adjudicator.record.notation import listed_form

    assert listed_form("Cai deal Anna:2h,5C Bo:") == {
        "player": "Cai",
        "act": "deal",
        "to": {"Anna": ["2H", "5C"], "Bo": []},
    }
    assert listed_form("Anna play 7H") == "Anna play 7H"


def test_a_name_beginning_with_a_brace_is_refused() -> None:
    """' {' opens a comment in the string form, so a deal to a player named '{' could not be
    read back (found by the property test above): such a name is refused, one line."""
    record = {
        "format": "skitgubbe-record/1",
        "variant": "pagat",
        "players": ["Anna", "{Bo", "Cai"],
        "dealer": "Anna",
        "deck": " ".join(card_code(c) for c in FULL_PACK),
        "actions": [],
    }
    with pytest.raises(RecordError, match=r"may not begin with '\{'"):
        load_record(json.dumps(record))
