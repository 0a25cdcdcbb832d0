"""The `deal` act: low cards between the phases, Koira's tie shared out, and edge cases.

Sources: pagat.com, 'All Players play to Each Trick in Phase One' (the shit cards, dealt
one at a time in the order of the first deal), 'Variants: end of phase one'
(limits 6, 7, 10 or the indicator's rank), 'Atlanta Variation' (the dreck with
the six of trumps, shared as evenly as possible), 'Koira' (a tie that cannot be
played off is shuffled into the tied players' piles); the Goat treatise III.C.  The engine
cannot know a shuffle, so ``check`` must take *any* lawful deal, not just the
ones ``legal_actions`` offers as samples, and reject every other one precisely.
"""

from __future__ import annotations

import random

from test_phase_one_all import TOP, crafted, deal, ids, record, verdict

from adjudicator import engine
from adjudicator.actions import Action
from adjudicator.cards import parse_card
from adjudicator.engine import intermission, phase_one_all
from adjudicator.engine.state import PHASE_ONE, PHASE_TWO, State

SHORT = {"Anna": "2H 3C AS", "Bo": "4D 5S KS KH KD", "Cai": "QH QS QD QC JH JS 2S"}
"""Anna (3 cards) is short of five; Bo and Cai are not."""


def low_table(**options: object) -> State:
    state = crafted(SHORT, low_cards=5, **options)
    state.indicator, state.indicator_holder, state.indicator_down = parse_card("9C"), 2, True
    intermission.reveal_and_pick_up(state)
    return state


def rule(state: State, action: Action) -> str | None:
    bad = engine.check(state, action)
    return bad.rule if bad is not None else None


def test_any_shuffle_of_the_low_cards_is_accepted_not_only_the_listed_samples() -> None:
    state = crafted(
        {"Anna": "2H AS", "Bo": "3H KS", "Cai": "QH QS QD QC JH JS JD JC 4C 5C 2S 4D"},
        low_cards=5,
    )
    intermission.reveal_and_pick_up(state)
    due = state.deal
    assert due is not None and due.receivers == (0, 1) and due.shares == (3, 3)
    pool = list(due.cards)
    listed = engine.legal_actions(state)
    assert listed and all(a.act == "deal" and a.player == 2 for a in listed)
    for seed in range(20):  # every shuffle dealt in turn is lawful
        random.Random(seed).shuffle(pool)
        action = Action(2, "deal", (), ((0, tuple(pool[0::2])), (1, tuple(pool[1::2]))))
        assert engine.check(state, action) is None
    # ... the receivers may be written in any order; a wrong card or a missing one is caught
    assert rule(state, deal(state, "Cai", Bo="3H 4C 5C", Anna="2H 2S 4D")) is None
    assert rule(state, deal(state, "Cai", Bo="3H 4C 5C", Anna="2H 2S 2C")) == "deal.cards"
    assert rule(state, deal(state, "Cai", Bo="3H 4C 5C", Anna="2H 2S")) == "deal.cards"
    assert rule(state, deal(state, "Cai", Bo="3H 4C 5C", Anna="2H 2S 4C")) == "deal.cards"


def test_receivers_and_shares_of_the_low_cards() -> None:
    state = low_table()
    due = state.deal
    assert due is not None and due.receivers == (0,) and due.shufflers == {1, 2}
    assert sorted(due.cards) == ids("2H 3C 4D 5S 2S")
    everything = "2H 3C 4D 5S 2S"
    assert rule(state, deal(state, "Bo", Anna=everything)) is None
    assert rule(state, deal(state, "Bo", Anna="2H 3C 4D 5S", Cai="2S")) == "deal.receivers"
    assert rule(state, deal(state, "Bo", Anna=everything + " AS")) == "deal.cards"
    assert rule(state, deal(state, "Anna", Anna=everything)) == "deal.shuffler"
    assert rule(state, Action(1, "play", (parse_card("KS"),))) == "deal.due"
    engine.apply(state, deal(state, "Bo", Anna=everything))
    assert state.phase == PHASE_TWO
    assert sorted(state.hands[0]) == ids(everything + " AS")
    assert sorted(state.hands[1]) == ids("KS KH KD")  # gave up 4D 5S, received nothing


def test_limits_six_seven_ten_and_the_indicator() -> None:
    for limit, receivers in ((5, (0,)), (6, (0, 1)), (7, (0, 1)), (10, (0, 1, 2))):
        state = crafted(SHORT, low_cards=limit)
        state.indicator, state.indicator_holder, state.indicator_down = parse_card("9C"), 2, True
        intermission.reveal_and_pick_up(state)
        assert state.deal is not None and state.deal.receivers == receivers, limit
        if len(receivers) == 3:
            assert state.deal.shufflers == {0, 1, 2}  # nobody has enough: anyone shuffles
    # The indicator (8♣ drawn by Cai, who then holds 8) makes the limit eight.
    state = crafted(SHORT, low_cards_by_indicator=True)
    state.indicator, state.indicator_holder, state.indicator_down = parse_card("8C"), 2, True
    intermission.reveal_and_pick_up(state)
    assert state.deal is not None and state.deal.receivers == (0, 1)


def test_nobody_short_means_no_deal_and_a_deal_is_refused() -> None:
    state = crafted(
        {"Anna": "2H 3C AS KC QC", "Bo": "KS KH KD 4C 5C", "Cai": "QH QS QD"}, low_cards=3
    )
    state.indicator, state.indicator_holder, state.indicator_down = parse_card("9C"), 2, True
    intermission.reveal_and_pick_up(state)
    assert state.deal is None and state.phase == PHASE_TWO
    assert rule(state, deal(state, "Bo", Anna="2H")) == "deal.none"


def test_no_low_cards_to_share_means_no_shuffle() -> None:
    state = crafted({"Anna": "AS", "Bo": "KS KH KD KC QS", "Cai": "QH QD QC JH JS"}, low_cards=5)
    state.indicator, state.indicator_holder, state.indicator_down = parse_card("9C"), 2, True
    intermission.reveal_and_pick_up(state)
    assert state.deal is None and state.phase == PHASE_TWO
    assert rule(state, deal(state, "Bo", Anna="AS")) == "deal.none"


def test_dealer_order_decides_who_gets_the_odd_card() -> None:
    hands = {"Anna": "2H AS", "Bo": "3H KS", "Cai": "QH QS QD QC JH JS JD JC 4C"}
    state = crafted(hands, dealer="Anna", low_cards=5)  # Bo is first to the dealer's left
    intermission.reveal_and_pick_up(state)
    assert state.deal is not None and state.deal.receivers == (1, 0)
    assert state.deal.shares == (2, 1)
    assert rule(state, deal(state, "Cai", Bo="2H 3H", Anna="4C")) is None
    assert rule(state, deal(state, "Cai", Anna="2H 3H", Bo="4C")) == "deal.shares"


def test_atlanta_dreck_takes_the_six_of_trumps_and_shares_evenly() -> None:
    hands = {"Anna": "2H 6C AS", "Bo": "6H 3S KS", "Cai": "QH QS QD QC JH JS JD 4C"}
    state = crafted(hands, low_cards=6, low_cards_six_of_trumps=True, low_cards_shares="even")
    state.indicator, state.indicator_holder, state.indicator_down = parse_card("9C"), 2, True
    intermission.reveal_and_pick_up(state)  # clubs are trumps: 6♣ is dreck, 6♥ is not
    due = state.deal
    assert due is not None and sorted(due.cards) == ids("2H 6C 3S 4C")
    assert due.shares is None and due.receivers == (0, 1)
    assert rule(state, deal(state, "Cai", Anna="2H", Bo="6C 3S 4C")) == "deal.shares"
    assert rule(state, deal(state, "Cai", Anna="2H 6C", Bo="3S 4C")) is None
    assert rule(state, deal(state, "Cai", Bo="2H 6C", Anna="3S 4C")) is None


# --- Koira: a tie that cannot be played off ---------------------------------------------------


def koira_tie() -> State:
    """Anna and Bo tie with nines; Anna has no card left to play again."""
    state = crafted({"Anna": "9H", "Bo": "9S 2C", "Cai": "3D"}, phase_one_end="skip_empty")
    state.indicator, state.indicator_holder, state.indicator_down = parse_card("TC"), 2, True
    phase_one_all.begin_trick(state, 0)
    for text in ("Anna play 9H", "Bo play 9S", "Cai play 3D"):
        who, _, card = text.split()
        engine.push(state, Action(state.names.index(who), "play", (parse_card(card),)))
    return state


def test_an_unplayable_koira_tie_is_dealt_evenly_to_the_tied_players_piles() -> None:
    state = koira_tie()
    due = state.deal
    assert due is not None and due.kind == "tie_out" and due.receivers == (0, 1)
    assert sorted(due.cards) == ids("9H 9S 3D") and due.shares is None and due.to_piles
    assert rule(state, deal(state, "Cai", Anna="9H 9S 3D")) == "deal.shares"
    assert rule(state, deal(state, "Cai", Anna="9H", Cai="9S 3D")) == "deal.receivers"
    assert rule(state, Action(1, "play", (parse_card("2C"),))) == "deal.due"
    engine.push(state, deal(state, "Cai", Anna="3D", Bo="9H 9S"))
    assert sorted(state.piles[1]) == ids("9H 9S") and sorted(state.piles[0]) == ids("3D")
    assert state.phase == PHASE_ONE and state.turn == 1  # Anna has no card: Bo leads


# --- compulsory ties and Atlanta's losing cards ---------------------------------------------


def test_joining_the_heading_tie_is_compulsory_when_ties_beat_unique_ranks() -> None:
    hands = {"Anna": "4H 2S 3C", "Bo": "4S 5S 6C", "Cai": "4D 7S 8C", "Dag": "KD 9S 9H"}
    opts = {"tie_rule": "tied_beat_unique", "compulsory_ties": True}
    # Anna and Bo tie with fours: Cai holds a four and must join (no higher tie stands).
    rec = record(
        hands, ["Anna play 4H", "Bo play 4S", "Cai play 7S"], dealer="Dag", top=TOP, **opts
    )
    assert verdict(rec) == ("illegal", "phase1.tie.compulsory", 2)
    ok = record(hands, ["Anna play 4H", "Bo play 4S", "Cai play 4D"], dealer="Dag", top=TOP, **opts)
    assert verdict(ok)[0] == "legal"


def test_atlanta_losing_cards_are_judged_card_by_card() -> None:
    # Anna's 9 loses the first round to the kings; in the replay Bo's 9 (drawn after his king)
    # heads it.  Anna's 9 is still a card played and losing, so she may sluff her other 9.
    hands = {"Anna": "9H 9C 3C", "Bo": "KH 6C 5S", "Cai": "KD 8C 7C"}
    opts = {"low_cards": 0, "low_cards_six_of_trumps": False}
    top = "2D 9S 3D " + TOP
    plays = ["Anna play 9H", "Bo play KH", "Cai play KD", "Bo play 9S"]
    nine = record(hands, [*plays, "Anna sluff 9C"], variant="atlanta", top=top, **opts)
    assert verdict(nine)[0] == "legal"
    three = record(hands, [*plays, "Anna sluff 3C"], variant="atlanta", top=top, **opts)
    assert verdict(three) == ("illegal", "phase1.sluff.rank", 4)
    # Before the replay begins the tied kings head the trick: they are not losing yet.
    kings = record(
        {"Anna": "9H 9C 3C", "Bo": "KH 6C 5S", "Cai": "KD KS 8C"},
        ["Anna play 9H", "Bo play KH", "Cai play KD", "Cai sluff KS"],
        variant="atlanta",
        top=top,
        **opts,
    )
    assert verdict(kings) == ("illegal", "phase1.sluff.rank", 3)
