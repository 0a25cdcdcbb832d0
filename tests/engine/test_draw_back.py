"""``draw_back``: hands filled by the engine ('automatic'), or by the record's own ``draw``
acts ('any_time', the Goat app's Draw; 'without_delay', the treatise's rule checked on a
record that writes its draws)."""

from __future__ import annotations

from typing import Any

from adjudicator import engine
from adjudicator.actions import Action
from adjudicator.cards import parse_card
from adjudicator.engine.state import PHASE_ONE, State
from adjudicator.engine.violations import Violation
from adjudicator.record import FORMAT, load_record

DEAL = "2S 9C 5C 8C 4H KD 2H 7D 3H 6D"
"""The trump card set aside, then the deal one at a time: A 9C 4H 7D, B 5C KD 3H, C 8C 2H 6D."""
STOCK = "AS QS JS TS 9S 8S 7S 6S 5S 4S 3S AH KH QH JH TH 9H 8H 7H 6H 5H AD QD JD TD 9D"
REST = "8D 5D 4D 3D 2D AC KC QC JC TC 7C 6C 4C 3C 2C KS"


def record(actions: list[str], draw_back: str, **options: Any) -> dict[str, Any]:
    """Three players of the Goat game, A leading, every card in a known place."""
    return {
        "format": FORMAT,
        "variant": "goat",
        "options": {"draw_back": draw_back, "high_trump": "none", **options},
        "players": ["A", "B", "C"],
        "dealer": "C",
        "first_leader": "A",
        "deck": f"{DEAL} {STOCK} {REST}",
        "actions": actions,
    }


def played(rec: dict[str, Any]) -> tuple[State, Violation | None]:
    """The state after the record's actions (the last one applied only if legal), and
    the violation of the last one (None: legal); every earlier action must be legal."""
    game = load_record(rec)
    state = engine.new_state(game)
    bad = None
    for k, action in enumerate(game.actions):
        bad = engine.check(state, action)
        if k < len(game.actions) - 1:
            assert bad is None, (action, bad)
        if bad is None:
            engine.apply(state, action)
    return state, bad


def rule_of(actions: list[str], draw_back: str, **options: Any) -> str | None:
    bad = played(record(actions, draw_back, **options))[1]
    return None if bad is None else bad.rule


TRICK = ["A play 9C", "B play 5C", "C play 8C"]


def test_automatic_draws_for_the_player_and_has_no_draw_act() -> None:
    state, _ = played(record(["A play 9C"], "automatic"))
    assert sorted(state.hands[0]) == sorted(map(parse_card, ["4H", "7D", "AS"]))
    assert rule_of(["A play 9C", "A draw"], "automatic") == "act.variant"


def test_any_time_a_short_hand_draws_when_its_player_chooses_even_out_of_turn() -> None:
    state, _ = played(record(["A play 9C"], "any_time"))
    assert len(state.hands[0]) == 2 and len(state.stock) == 42  # nothing drawn for A
    assert Action(0, "draw") in engine.legal_actions(state)  # out of turn: B is to play
    assert Action(1, "draw") not in engine.legal_actions(state)  # B holds three
    state, bad = played(record(["A play 9C", "B play 5C", "A draw"], "any_time"))
    assert bad is None and parse_card("AS") in state.hands[0] and state.turn == 2
    # A may also wait: the trick played out and taken with a short hand
    assert rule_of([*TRICK, "A take", "A play 4H"], "any_time") is None


def test_a_draw_into_a_full_hand_from_an_empty_stock_or_naming_a_card_is_refused() -> None:
    assert rule_of(["A draw"], "any_time") == "phase1.draw"  # A holds three
    assert rule_of(["A play 9C", "A draw"], "any_time") is None
    assert rule_of(["A play 9C", "A draw", "A draw"], "any_time") == "phase1.draw"
    assert rule_of(["A play 9C", "A draw AS"], "any_time") == "phase1.draw"
    assert rule_of(["A play 9C", "B play 5C", "B draw", "B draw"], "any_time") == "phase1.draw"


def test_a_draw_leaves_a_sluffing_window_open() -> None:
    """With sluffing once, any act but a sluff closes the decided trick's window; a draw
    (out of turn, where the record writes draws) does not: a sluff may still follow."""
    once = {"sluffing": "once", "sluff_top_first": False, "sluff_final": False}
    state, bad = played(record([*TRICK, "B draw"], "any_time", **once))
    assert bad is None and state.decided == 0 and len(state.trick) == 3


def test_a_draw_from_an_empty_stock_is_refused() -> None:
    start = {
        "phase": 1,
        "leader": "A",
        "hands": {"A": ["4C", "9H"], "B": ["8C", "9D"], "C": ["4H", "KS", "9C"]},
        "stock": [],
        "trump_card": "7S",
    }
    rec = record(["A play 4C", "A draw"], "any_time")
    del rec["deck"], rec["dealer"]
    bad = played({**rec, "start": start})[1]
    assert bad is not None and bad.rule == "phase1.draw"
    assert bad.message == "The stock is empty: there is nothing to draw"


def test_without_delay_a_short_hand_draws_before_its_player_acts_again() -> None:
    assert rule_of([*TRICK, "A take"], "without_delay") == "phase1.draw.owed"
    assert rule_of([*TRICK, "A take"], "any_time") is None
    assert rule_of([*TRICK, "A draw", "A take"], "without_delay") is None
    state, _ = played(record(TRICK, "without_delay"))
    legal = engine.legal_actions(state)
    assert Action(0, "take") not in legal and Action(0, "draw") in legal
    assert legal == engine.legal_by_check(state)
    # others' acts wait for nobody: B, full after drawing, may sluff while A is short
    assert rule_of(["A play 9C", "B play 5C"], "without_delay") is None


def test_the_draw_that_empties_the_stock_can_end_part_one() -> None:
    """B holds nothing but may draw while the stock lasts (with daring or without), so A's
    lead does not end part one; A's draw of the stock's last card leaves B, still to play,
    without a card."""
    start = {
        "phase": 1,
        "leader": "A",
        "hands": {"A": ["4C", "9H"], "B": [], "C": ["4H", "KS", "9C"]},
        "stock": ["2H"],
        "trump_card": "7S",
        "piles": {"A": ["2S", "3S"], "B": ["9S", "TS"], "C": ["3D", "5D"]},
    }
    for end, dare in (("still_to_play", True), ("all_hold", True), ("all_hold", False)):
        rec = record(["A play 4C"], "any_time", phase_one_end=end, dare=dare)
        del rec["deck"], rec["dealer"]
        rec["start"] = start
        state, bad = played(rec)
        assert bad is None and (state.phase, state.turn) == (PHASE_ONE, 1)
        state, bad = played({**rec, "actions": ["A play 4C", "A draw"]})
        # part one over: the trick taken back, the low cards (the dreck) due before phase two
        assert bad is None and state.deal is not None and state.deal.kind == "low_cards", end
        assert not state.trick and parse_card("4C") in state.hands[0]
