"""Unit tests for every phase-two rule option, from start positions."""

from __future__ import annotations

import random
from typing import Any

import pytest

from adjudicator import engine
from adjudicator.cards import parse_card
from adjudicator.engine.state import PHASE_ONE, PHASE_TWO
from adjudicator.play.adjudicate import Report, adjudicate
from adjudicator.record import RecordError, load_record

SEQ = {"sequences": "two", "pick_from": "top", "pick_takes": "play"}


def record(
    hands: dict[str, str],
    actions: list[str],
    options: dict[str, Any] | None = None,
    trump: str = "S",
    leader: str = "A",
) -> dict[str, Any]:
    """A start-position record; players are the keys of ``hands`` in order."""
    return {
        "format": "skitgubbe-record/1",
        "variant": "pagat",
        "options": options or {},
        "players": list(hands),
        "start": {"phase": 2, "trump": trump, "leader": leader, "hands": hands},
        "actions": actions,
    }


def run(
    hands: dict[str, str],
    actions: list[str],
    options: dict[str, Any] | None = None,
    trump: str = "S",
    leader: str = "A",
) -> Report:
    """Adjudicate a start-position record."""
    return adjudicate(load_record(record(hands, actions, options, trump, leader)))


def state_after(
    hands: dict[str, str],
    actions: list[str],
    options: dict[str, Any] | None = None,
    trump: str = "S",
) -> engine.State:
    """The state after applying every action (all must be legal)."""
    game = load_record(record(hands, actions, options, trump))
    state = engine.new_state(game)
    for action in game.actions:
        engine.push(state, action)
    return state


def first_violation(report: Report) -> tuple[str, int | None]:
    """(rule, index) of the first violation."""
    assert report.violations, "expected a violation"
    return report.violations[0].rule, report.violations[0].index


def cards(text: str) -> list[int]:
    """Card ints from ``'7H 8H'``."""
    return [parse_card(c) for c in text.split()]


# --- sequences --------------------------------------------------------------------


def test_runs_off_rejects_two_cards_as_play_count() -> None:
    report = run({"A": "7H 8H", "B": "9H"}, ["A play 7H 8H"])
    assert first_violation(report) == ("play.count", 0)
    assert "one card" in report.violations[0].message


@pytest.mark.parametrize(
    ("sequences", "play", "legal"),
    [
        ("two", "7H 8H", True),
        ("two", "7H 8H 9H", True),
        ("two", "7H 9H", False),
        ("two", "7H 8D", False),
        ("three", "7H 8H", False),
        ("three", "7H 8H 9H", True),
        ("from_two", "2H 3H", True),
        ("from_two", "7H 8H", False),
        ("from_two", "9H", True),
    ],
)
def test_which_runs_may_be_played(sequences: str, play: str, legal: bool) -> None:
    hands = {"A": "2H 3H 7H 8H 9H 8D", "B": "KC"}
    report = run(hands, [f"A play {play}"], {"sequences": sequences})
    if legal:
        assert report.status == "legal"
    else:
        assert first_violation(report) == ("phase2.sequence", 0)


def test_000_diamond_example_runs_beat_runs() -> None:
    hands = {"A": "5D 4C", "B": "7D 8D 9D 4H", "C": "QD KD 2D"}
    report = run(hands, ["A play 5D", "B play 7D 8D 9D", "C play QD KD"], SEQ)
    assert report.status == "legal"


def test_run_below_top_does_not_beat() -> None:
    hands = {"A": "9D 4C", "B": "7D 8D 4H", "C": "QD"}
    report = run(hands, ["A play 9D", "B play 7D 8D"], SEQ)
    assert first_violation(report) == ("phase2.beat", 1)
    assert report.violations[0].message.startswith("7♦ 8♦ does not beat 9♦")


def test_trump_run_beats_plain_run_but_plain_never_beats_trump() -> None:
    hands = {"A": "7D 8D 4C", "B": "2S 3S 4H", "C": "AD"}
    ok = run(hands, ["A play 7D 8D", "B play 2S 3S"], SEQ)
    assert ok.status == "legal"
    bad = run(hands, ["A play 7D 8D", "B play 2S 3S", "C play AD"], SEQ)
    assert first_violation(bad) == ("phase2.beat", 2)
    assert "only a higher spade beats a trump" in bad.violations[0].message


def test_legal_actions_list_every_run() -> None:
    state = state_after({"A": "5H 6H 7H 9H", "B": "2C"}, [], {"sequences": "two"})
    plays = {tuple(a.cards) for a in engine.legal_actions(state) if a.act == "play"}
    assert tuple(cards("5H 6H 7H")) in plays
    assert tuple(cards("6H 7H")) in plays
    assert tuple(cards("7H 9H")) not in plays
    assert len(plays) == 4 + 3  # four singles; 5-6, 6-7, 5-6-7


# --- what a pick takes --------------------------------------------------------------

FOUR = {"A": "3C 9H", "B": "5C 6C 9D", "C": "7C 8C 9S", "D": "2D"}
FOUR_PLAYS = ["A play 3C", "B play 5C 6C", "C play 7C 8C"]


@pytest.mark.parametrize(
    ("pick_from", "pick_takes", "taken"),
    [
        ("top", "card", "8C"),
        ("top", "play", "7C 8C"),
        ("top", "joined", "5C 6C 7C 8C"),
        ("bottom", "card", "3C"),
        ("bottom", "play", "3C"),
        ("bottom", "joined", "3C"),
    ],
)
def test_pick_takes_what_the_rule_says(pick_from: str, pick_takes: str, taken: str) -> None:
    options = {"sequences": "two", "pick_from": pick_from, "pick_takes": pick_takes}
    assert run(FOUR, [*FOUR_PLAYS, f"D pick {taken}"], options).status == "legal"
    state = state_after(FOUR, [*FOUR_PLAYS, "D pick"], options)
    assert sorted(state.hands[3]) == sorted(cards("2D " + taken))
    wrong = run(FOUR, [*FOUR_PLAYS, "D pick 8C 7C 6C 5C 3C"], options)
    assert first_violation(wrong) == ("phase2.pick.cards", 3)


def test_bottom_joined_run_crosses_plays() -> None:
    hands = {"A": "3C 4C", "B": "5C 6C 9D", "C": "8C", "D": "2D"}
    options = {"sequences": "two", "pick_from": "bottom", "pick_takes": "joined"}
    report = run(
        hands, ["A play 3C 4C", "B play 5C 6C", "C play 8C", "D pick 3C 4C 5C 6C"], options
    )
    assert report.status == "legal"


def test_card_pick_leaves_the_rest_of_a_run_in_play() -> None:
    """pagat.com, 'Koira' variants: a run counts as a play until all its cards are gone."""
    options = {"sequences": "two", "pick_from": "bottom", "pick_takes": "card"}
    hands = {"A": "3C 4C 5C 8H", "B": "2D", "C": "9D"}
    state = state_after(hands, ["A play 3C 4C 5C", "B pick 3C"], options)
    assert state.trick == [(0, tuple(cards("4C 5C")))]
    assert state.turn == 2
    # Still one play on the table: the trick of three needs two more.
    state2 = state_after(hands, ["A play 3C 4C 5C", "B pick 3C", "C pick 4C"], options)
    assert state2.trick == [(0, tuple(cards("5C")))]
    assert state2.turn == 0


def test_pick_that_empties_the_table_passes_the_lead_left() -> None:
    state = state_after({"A": "3C 4D", "B": "2D", "C": "9D"}, ["A play 3C", "B pick"])
    assert state.trick == [] and state.turn == 2


# --- forced pick-up ---------------------------------------------------------------


def test_forced_pick_makes_the_next_player_pick() -> None:
    hands = {"A": "5H 7H 2C", "B": "9H 3C", "C": "4C 5C"}
    options = {"forced_pick": True}
    report = run(hands, ["A play 5H", "B play 9H", "C pick", "A play 7H"], options)
    assert first_violation(report) == ("phase2.pick.forced", 3)
    assert report.violations[0].alternatives == ["A pick"]
    legal = run(hands, ["A play 5H", "B play 9H", "C pick", "A pick", "B play 3C"], options)
    assert legal.status == "legal"
    # Without the option A may beat instead.
    assert run(hands, ["A play 5H", "B play 9H", "C pick", "A play 7H"]).status == "legal"


# --- complete suit --------------------------------------------------------------------

CLUBS = {
    "A": "2C 3C 4C 5C 6C 7C 9H",
    "B": "8C 9C TC JC QC KC 9D",
    "C": "AC 9S",
    "D": "2H 3H",
}
CLUB_PLAYS = ["A play 2C 3C 4C 5C 6C 7C", "B play 8C 9C TC JC QC KC", "C play AC"]


def test_complete_suit_completes_the_trick() -> None:
    state = state_after(CLUBS, CLUB_PLAYS, {"sequences": "two", "complete_suit": True})
    assert state.trick == [] and state.turn == 2 and len(state.discard) == 13


def test_without_complete_suit_the_trick_goes_on() -> None:
    state = state_after(CLUBS, CLUB_PLAYS, {"sequences": "two"})
    assert len(state.trick) == 3 and state.turn == 3


# --- anti-trumps ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("anti", "trump", "lead", "trump_card", "blocked"),
    [
        ("same_colour", "S", "5C", "2S", True),
        ("same_colour", "S", "5H", "2S", False),
        ("same_colour", "H", "5D", "2H", True),
        ("electric_clubs", "H", "5C", "2H", True),
        ("electric_clubs", "H", "5S", "2H", False),
        ("electric_clubs", "C", "5S", "2C", True),
        ("none", "S", "5C", "2S", False),
    ],
)
def test_anti_trumps_cannot_be_trumped(
    anti: str, trump: str, lead: str, trump_card: str, blocked: bool
) -> None:
    hands = {"A": f"{lead} 9D", "B": f"{trump_card} 8D", "C": "KD"}
    report = run(hands, [f"A play {lead}", f"B play {trump_card}"], {"anti_trump": anti}, trump)
    if blocked:
        assert first_violation(report) == ("phase2.beat", 1)
        assert "anti-trumps" in report.violations[0].message
    else:
        assert report.status == "legal"


def test_anti_trump_is_beaten_by_a_higher_anti_trump() -> None:
    hands = {"A": "5C 9D", "B": "7C 8D", "C": "KD"}
    report = run(hands, ["A play 5C", "B play 7C"], {"anti_trump": "same_colour"})
    assert report.status == "legal"


# --- a trump ends the trick -------------------------------------------------------------


def test_trump_on_non_trump_ends_the_trick() -> None:
    hands = {"A": "5H 9D", "B": "2S 8D", "C": "KD", "D": "QC"}
    state = state_after(hands, ["A play 5H", "B play 2S"], {"trump_ends_trick": True})
    assert state.trick == [] and state.turn == 1 and len(state.discard) == 2
    plain = state_after(hands, ["A play 5H", "B play 2S"])
    assert len(plain.trick) == 2 and plain.turn == 2


def test_trump_on_trump_does_not_end_the_trick() -> None:
    hands = {"A": "5S 9D", "B": "7S 8D", "C": "KD", "D": "QC"}
    state = state_after(hands, ["A play 5S", "B play 7S"], {"trump_ends_trick": True})
    assert len(state.trick) == 2 and state.turn == 2


# --- high trumps ----------------------------------------------------------------------------

HIGH = {"high_trump": "kill_only"}


def test_high_trump_may_only_complete_a_trick() -> None:
    hands = {"A": "5H 9D", "B": "AS 6H", "C": "8H 3D"}
    early = run(hands, ["A play 5H", "B play AS"], HIGH)
    assert first_violation(early) == ("phase2.high_trump", 1)
    assert "A♠ is the highest trump left" in early.violations[0].message
    kill = run(
        {"A": "5H 9D", "B": "6H 3D", "C": "AS 2C"}, ["A play 5H", "B play 6H", "C play AS"], HIGH
    )
    assert kill.status == "legal"


def test_high_trump_cannot_lead() -> None:
    report = run({"A": "AS 5H", "B": "6H", "C": "7H"}, ["A play AS"], HIGH)
    assert first_violation(report) == ("phase2.high_trump", 0)


def test_next_trump_becomes_high_when_the_ace_is_gone() -> None:
    hands = {"A": "5H 9D", "B": "6H 3D KS", "C": "AS 2C"}
    actions = ["A play 5H", "B play 6H", "C play AS", "C play 2C", "A pick", "B play KS"]
    report = run(hands, actions, HIGH)
    # A♠ killed trick 1; A picked C's last card, so B leads, and K♠ is now the high trump.
    assert first_violation(report) == ("phase2.high_trump", 5)


def test_leader_holding_only_the_high_trump_passes_the_lead_right() -> None:
    hands = {"A": "5H 9D", "B": "7H KD", "C": "8H AS"}
    state = state_after(hands, ["A play 5H", "B play 7H", "C play 8H"], HIGH)
    assert state.turn == 1  # C completed, holds only A♠: the lead goes to B, on C's right
    without = state_after(hands, ["A play 5H", "B play 7H", "C play 8H"])
    assert without.turn == 2


def test_only_killer_counts_no_plays() -> None:
    hands = {"A": "5H AS 2D", "B": "7H 3D", "C": "8H 4D"}
    options = {"high_trump": "only_killer"}
    state = state_after(hands, ["A play 5H", "B play 7H", "C play 8H"], options)
    assert len(state.trick) == 3 and state.turn == 0
    killed = state_after(hands, ["A play 5H", "B play 7H", "C play 8H", "A play AS"], options)
    assert killed.trick == [] and killed.turn == 0 and len(killed.discard) == 4


# --- players without cards when phase two begins ----------------------------------------


def test_empty_hand_is_out_by_default() -> None:
    state = state_after({"A": "5H 9D", "B": "7H", "C": ""}, ["A play 5H"])
    assert state.trick_target == 2 and state.turn == 1


def test_blamattis_must_pick_the_lowest_card_at_first_turn() -> None:
    hands = {"A": "5H 9D", "B": "7H 3C", "C": ""}
    options = {"empty_hand_at_phase_two": "blamattis"}
    state = state_after(hands, ["A play 5H", "B play 7H"], options)
    assert state.trick_target == 3 and state.turn == 2
    bad = run(hands, ["A play 5H", "B play 7H", "C play 9H"], options)
    assert first_violation(bad) == ("phase2.blamattis", 2)
    assert bad.violations[0].alternatives == ["C pick"]
    picked = state_after(hands, ["A play 5H", "B play 7H", "C pick 5H"], options)
    assert picked.hands[2] == cards("5H") and not picked.pending[2]


def test_empty_hand_loses_at_once() -> None:
    report = run(
        {"A": "5H", "B": "7H", "C": ""}, ["A play 5H"], {"empty_hand_at_phase_two": "lose"}
    )
    assert report.loser == "C"
    assert first_violation(report) == ("game.over", 0)


# --- the two-player avstickshög ------------------------------------------------------------


def test_reserve_is_for_two_players_only() -> None:
    data = record({"A": "5H", "B": "7H", "C": "8H"}, [], {"reserve": 12})
    with pytest.raises(RecordError, match=r"options\.reserve"):
        load_record(data)


def _reserve_state(hands: dict[str, str], reserve: str) -> engine.State:
    game = load_record(record(hands, []))
    state = engine.new_state(game)
    state.reserve = list(reversed(cards(reserve)))
    return state


def _push(state: engine.State, text: str) -> None:
    player, act, *codes = text.split()
    action = engine.Action(state.names.index(player), act, tuple(cards(" ".join(codes))))
    engine.push(state, action)


def test_reserve_draws_after_a_completed_trick_completer_first() -> None:
    state = _reserve_state({"A": "5H 9D", "B": "7H"}, "2C 3C 4C")
    _push(state, "A play 5H")
    _push(state, "B play 7H")  # B's last card completes the trick: not out, draws first
    assert not state.finished
    assert state.hands[1] == cards("2C") and state.hands[0] == cards("9D 3C")
    assert state.turn == 1 and state.reserve == cards("4C")


def test_reserve_leading_last_card_and_being_picked_loses_the_picker() -> None:
    state = _reserve_state({"A": "5H", "B": "3H 2D"}, "2C 3C 4C")
    _push(state, "A play 5H")
    assert not state.finished  # A is empty but the trick is open while the pile lasts
    _push(state, "B pick")
    assert state.finished and state.loser == 1


def test_reserve_from_a_deal_is_set_aside_first() -> None:
    deck = [c for c in range(52)]
    random.Random(4).shuffle(deck)
    from adjudicator.cards import card_code

    data = {
        "format": "skitgubbe-record/1",
        "variant": "pagat",
        "options": {"reserve": 12},
        "players": ["A", "B"],
        "dealer": "B",
        "deck": [card_code(c) for c in deck],
        "actions": [],
    }
    state = engine.new_state(load_record(data))
    assert state.reserve == list(reversed(deck[:12]))
    assert state.hands[0] == [deck[12], deck[14], deck[16]]
    assert len(state.stock) == 52 - 12 - 6


# --- who leads phase two -----------------------------------------------------------------


@pytest.mark.parametrize("leader_rule", ["trump_drawer", "last_trick_winner"])
def test_phase_two_leader(leader_rule: str) -> None:
    rng = random.Random(11)
    from adjudicator.play.simulate import random_game

    for _ in range(20):
        data, game = random_game("pagat", 3, rng)
        data["options"] = {"phase_two_leader": leader_rule}
        game = load_record(data)
        state = engine.new_state(game)
        for action in game.actions:
            if engine.check(state, action) is not None:
                break
            was_phase_one = state.phase == PHASE_ONE
            engine.apply(state, action)
            if was_phase_one and state.phase == PHASE_TWO:
                expected = (
                    state.indicator_holder if leader_rule == "trump_drawer" else state.last_winner
                )
                assert expected is not None
                if state.hands[expected]:
                    assert state.turn == expected
                break
