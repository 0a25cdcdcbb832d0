"""Phase one where everybody plays to each trick: one test or more per rule and option.

Sources: pagat.com, 'All Players play to Each Trick in Phase One', 'Variants: trick
play and sluffing', 'Variants: end of phase one', 'Mattis', 'Atlanta
Variation', 'Koira'.  Decks are built so that each hand and the top of the
stock are known; the rest of the stock is the remaining cards in pack order.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import PACK, cards, codes, final_state, hand, run

from adjudicator import engine
from adjudicator.actions import Action
from adjudicator.cards import Card, parse_card
from adjudicator.engine import intermission
from adjudicator.engine.state import PHASE_ONE, PHASE_TWO, State
from adjudicator.engine.violations import Violation
from adjudicator.record import FORMAT, load_record
from adjudicator.rules.options import RuleOptions

ABC = ["Anna", "Bo", "Cai"]
ROOT = Path(__file__).resolve().parents[2]


def deck_for(
    hands: dict[str, str], dealer: str = "Cai", top: str = "", bottom: str = ""
) -> list[str]:
    """A pack dealing ``hands`` (one at a time from the dealer's left), then ``top`` as the
    stock's first cards and ``bottom`` as its last (the last card is the trump indicator)."""
    players = list(hands)
    n = len(players)
    left = (players.index(dealer) + 1) % n
    order = players[left:] + players[:left]
    size = len(cards(hands[players[0]]))
    dealt = [cards(hands[p])[r] for r in range(size) for p in order]
    named = dealt + cards(top) + cards(bottom)
    assert len(set(named)) == len(named)
    rest = [c for c in PACK if c not in named]
    return dealt + cards(top) + rest + cards(bottom)


def record(
    hands: dict[str, str],
    actions: list[Any],
    variant: str = "helmfrid",
    dealer: str = "Cai",
    top: str = "",
    bottom: str = "",
    **options: Any,
) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "variant": variant,
        "options": options,
        "players": list(hands),
        "dealer": dealer,
        "deck": " ".join(deck_for(hands, dealer, top, bottom)),
        "actions": actions,
    }


def ids(text: str) -> list[Card]:
    """Cards as the engine holds them, sorted: to compare with piles and trick plays."""
    return sorted(parse_card(word) for word in text.split())


def verdict(rec: dict[str, Any]) -> tuple[str, str | None, int | None]:
    report = run(rec)
    first = report.violations[0] if report.violations else None
    return report.status, first.rule if first else None, first.index if first else None


HANDS = {"Anna": "7H 9S 2C", "Bo": "9H 3S 4C", "Cai": "KH 5S 6D"}
TOP = "JC JS QD AD TD TH TS AS"


# --- playing and deciding a trick -----------------------------------------------------------


def test_everyone_plays_clockwise_the_highest_wins_and_leads_and_all_draw_back() -> None:
    rec = record(HANDS, ["Anna play 7H", "Bo play 9H", "Cai play KH", "Cai play 5S"], top=TOP)
    state = final_state(rec)
    assert state.piles[2] and sorted(state.piles[2]) == ids("7H 9H KH")
    assert hand(state, "Anna") == codes("9S 2C JC")
    assert hand(state, "Bo") == codes("3S 4C JS")
    assert [p for p, _ in state.trick] == [2]  # Cai won and leads the next trick
    assert state.turn == 0


def test_out_of_turn_in_an_all_player_trick() -> None:
    rec = record(HANDS, ["Anna play 7H", "Cai play KH"], top=TOP)
    assert verdict(rec) == ("illegal", "turn.order", 1)


def test_a_tie_is_played_off_by_the_tied_players_in_their_order() -> None:
    hands = {"Anna": "9H 2S 3C", "Bo": "4H 5S 6C", "Cai": "9D 7S 8C"}
    # Anna and Cai tie with nines; they play again, Anna first; Cai's 8 beats Anna's 3.
    actions = ["Anna play 9H", "Bo play 4H", "Cai play 9D", "Anna play 3C", "Cai play 8C"]
    state = final_state(record(hands, actions, variant="mattis", top=TOP))
    assert sorted(state.piles[2]) == ids("9H 4H 9D 3C 8C")
    assert state.turn == 2 and not state.trick
    # Bo may not play in the tie's round:
    bad = record(hands, [*actions[:3], "Bo play 5S"], top=TOP)
    assert verdict(bad) == ("illegal", "turn.order", 3)


def test_a_tie_of_the_tie_is_played_off_again() -> None:
    hands = {"Anna": "9H 2S 3C", "Bo": "4H 5S 6C", "Cai": "9D 2H 8C"}
    actions = ["Anna play 9H", "Bo play 4H", "Cai play 9D", "Anna play 2S", "Cai play 2H"]
    state = final_state(record(hands, actions, top=TOP))
    assert state.replay and state.round == [0, 2] and state.turn == 0


def test_tied_ranks_beat_unique_ranks() -> None:
    hands = {"Anna": "4H 2S 3C", "Bo": "4S 5S 6C", "Cai": "KD 7S 8C"}
    # Anna and Bo tie with fours: under the option they beat Cai's king and play again.
    actions = ["Anna play 4H", "Bo play 4S", "Cai play KD", "Anna play 3C", "Bo play 6C"]
    state = final_state(
        record(hands, actions, variant="mattis", top=TOP, tie_rule="tied_beat_unique")
    )
    assert sorted(state.piles[1]) == ids("4H 4S KD 3C 6C")
    plain = record(hands, actions, top=TOP)
    assert verdict(plain) == ("illegal", "turn.order", 3)  # without it, Cai's king wins


def test_one_to_three_cards_of_one_rank() -> None:
    hands = {"Anna": "7H 7S 7C", "Bo": "9H 3S 4C", "Cai": "KH 5S 6D"}
    ok = record(hands, ["Anna play 7H 7S 7C", "Bo play 9H"], top=TOP)
    assert verdict(ok) == ("legal", None, None)
    assert hand(final_state(ok), "Anna") == codes("JC JS QD")
    mixed = record(HANDS, ["Anna play 7H 9S"], top=TOP)
    assert verdict(mixed) == ("illegal", "phase1.play.rank", 0)
    single = record(hands, ["Anna play 7H 7S"], variant="mattis", top=TOP)
    assert verdict(single) == ("illegal", "play.count", 0)


def test_daring_plays_the_stock_top_and_never_the_last_card() -> None:
    rec = record(HANDS, ["Anna dare", "Bo play 9H"], top=TOP)
    state = final_state(rec)
    assert state.trick[0] == (0, tuple(ids("JC")))
    assert hand(state, "Anna") == codes("7H 9S 2C")
    wrong = record(HANDS, ["Anna dare 3D"], top=TOP)
    assert verdict(wrong) == ("illegal", "phase1.dare.card", 0)


def test_compulsory_ties_under_highest_wins() -> None:
    hands = {"Anna": "9H 2S 3C", "Bo": "9S 5S 6C", "Cai": "KD 7S 8C"}
    bad = record(hands, ["Anna play 9H", "Bo play 5S"], top=TOP, compulsory_ties=True)
    assert verdict(bad) == ("illegal", "phase1.tie.compulsory", 1)
    dare = record(hands, ["Anna play 9H", "Bo dare"], top=TOP, compulsory_ties=True)
    assert verdict(dare) == ("illegal", "phase1.tie.compulsory", 1)
    good = record(hands, ["Anna play 9H", "Bo play 9S"], top=TOP, compulsory_ties=True)
    assert verdict(good)[0] == "legal"
    free = record(hands, ["Anna play 9H", "Bo play 5S"], top=TOP)
    assert verdict(free)[0] == "legal"


def test_compulsory_ties_when_ties_beat_unique_ranks() -> None:
    hands = {"Anna": "4H 9S 3C", "Bo": "9H 4S 6C", "Cai": "KD 7S 8C"}
    opts = {"tie_rule": "tied_beat_unique", "compulsory_ties": True}
    # Bo can match the rank Anna played, so he must.
    assert verdict(record(hands, ["Anna play 4H", "Bo play 4S"], top=TOP, **opts))[0] == "legal"
    rec = record(hands, ["Anna play 9S", "Bo play 4S"], top=TOP, **opts)
    assert verdict(rec) == ("illegal", "phase1.tie.compulsory", 1)
    rec = record(hands, ["Anna play 4H", "Bo play 6C"], top=TOP, **opts)
    assert verdict(rec) == ("illegal", "phase1.tie.compulsory", 1)


# --- sluffing ---------------------------------------------------------------------------------


SLUFF_HANDS = {"Anna": "7H 7S 2C", "Bo": "9H 9S 4C", "Cai": "KH 7D 6D"}


def test_sluffing_once_after_the_trick_is_decided() -> None:
    plays = ["Anna play 7H", "Bo play 9H", "Cai play KH"]
    rec = record(SLUFF_HANDS, [*plays, "Bo sluff 9S", "Anna sluff 7S", "Cai play 7D"], top=TOP)
    state = final_state(rec)
    assert sorted(state.piles[2]) == ids("7H 9H KH 9S 7S")
    assert len(state.hands[1]) == 3 and len(state.hands[0]) == 3  # both drew back up
    early = record(SLUFF_HANDS, ["Anna play 7H", "Anna sluff 7S"], top=TOP)
    assert verdict(early) == ("illegal", "phase1.sluff.window", 1)
    twice = record(SLUFF_HANDS, [*plays, "Anna sluff 7S", "Anna sluff 2C"], top=TOP)
    assert verdict(twice) == ("illegal", "phase1.sluff.once", 4)
    rank = record(SLUFF_HANDS, [*plays, "Bo sluff 4C"], top=TOP)
    assert verdict(rank) == ("illegal", "phase1.sluff.rank", 3)
    after = record(SLUFF_HANDS, [*plays, "Cai play 7D", "Bo sluff 9S"], top=TOP)
    assert verdict(after) == ("illegal", "phase1.sluff.window", 4)  # the new trick is undecided


def test_no_sluffing_in_mattis() -> None:
    rec = record(
        SLUFF_HANDS,
        ["Anna play 7H", "Bo play 9H", "Cai play KH", "Bo sluff 9S"],
        variant="mattis",
        top=TOP,
    )
    assert verdict(rec) == ("illegal", "act.variant", 3)


def test_unlimited_sluffing_needs_the_winner_to_take_the_trick() -> None:
    opts = {"sluffing": "unlimited"}
    plays = ["Anna play 7H", "Anna sluff 7S", "Bo play 9H", "Cai play KH"]
    rec = record(SLUFF_HANDS, [*plays, "Bo sluff 9S", "Cai take", "Cai play 7D"], top=TOP, **opts)
    state = final_state(rec)
    assert sorted(state.piles[2]) == ids("7H 7S 9H KH 9S")
    lead = record(SLUFF_HANDS, [*plays, "Cai play 7D"], top=TOP, **opts)
    assert verdict(lead) == ("illegal", "phase1.take.due", 4)
    early = record(SLUFF_HANDS, ["Anna play 7H", "Bo take"], top=TOP, **opts)
    assert verdict(early) == ("illegal", "phase1.take", 1)
    no_take = record(SLUFF_HANDS, ["Anna play 7H", "Bo take"], top=TOP)
    assert verdict(no_take) == ("illegal", "act.variant", 1)


def test_sluff_must_match_own_card() -> None:
    opts = {"sluffing": "own_rank"}
    ok = record(SLUFF_HANDS, ["Anna play 7H", "Anna sluff 7S", "Bo play 9H"], top=TOP, **opts)
    assert verdict(ok)[0] == "legal"
    other = record(SLUFF_HANDS, ["Anna play 7H", "Bo play 9H", "Cai sluff 7D"], top=TOP, **opts)
    assert verdict(other) == ("illegal", "phase1.sluff.window", 2)
    rank = record(SLUFF_HANDS, ["Anna play 7H", "Bo play 9H", "Bo sluff 4C"], top=TOP, **opts)
    assert verdict(rank) == ("illegal", "phase1.sluff.rank", 2)


def test_atlanta_sluffs_once_after_playing_only_losing_ranks() -> None:
    opts = {"sluffing": "atlanta", "low_cards": 0, "low_cards_six_of_trumps": False}
    plays = ["Anna play 7H", "Bo play 9H"]
    ok = record(
        SLUFF_HANDS, [*plays, "Anna sluff 7S", "Cai play KH"], variant="atlanta", top=TOP, **opts
    )
    assert verdict(ok)[0] == "legal"
    heading = record(SLUFF_HANDS, [*plays, "Bo sluff 9S"], variant="atlanta", top=TOP, **opts)
    assert verdict(heading) == ("illegal", "phase1.sluff.rank", 2)  # the 9 heads the trick
    before = record(SLUFF_HANDS, [*plays, "Cai sluff 7D"], variant="atlanta", top=TOP, **opts)
    assert verdict(before) == ("illegal", "phase1.sluff.window", 2)


# --- the end of phase one ------------------------------------------------------------------


def short_game(**options: Any) -> dict[str, Any]:
    """Three players, 52 cards: dare through the stock to reach its end quickly."""
    return record(HANDS, [], top=TOP, **options)


def play_until(rec: dict[str, Any], stop) -> tuple[dict[str, Any], Any]:  # type: ignore[no-untyped-def]
    """Play the first legal play (or dare) until ``stop(state)``; return the record and state."""
    game = load_record(rec)
    state = engine.new_state(game)
    names = rec["players"]
    while not stop(state):
        legal = engine.legal_actions(state)
        choice = next((a for a in legal if a.act == "dare"), None) or next(
            a for a in legal if a.act in ("play", "deal")
        )
        rec["actions"].append(choice.record_form(names))
        engine.apply(state, choice)
    return rec, state


def trick_starts(end: str) -> tuple[list[tuple[int, list[int]]], int]:
    """Play ``short_game`` to phase two under ``phase_one_end``: the (stock, hand sizes) at
    each trick's start, and how many actions phase one took."""
    game = load_record(short_game(variant="mattis", phase_one_end=end))
    state = engine.new_state(game)
    starts = []
    actions = 0
    while state.phase == PHASE_ONE:
        if not state.trick and state.deal is None:
            starts.append((len(state.stock), [len(h) for h in state.hands]))
        legal = engine.legal_actions(state)
        choice = next((a for a in legal if a.act == "dare"), None) or next(
            a for a in legal if a.act in ("play", "deal")
        )
        engine.apply(state, choice)
        actions += 1
    return starts, actions


def test_the_three_ends_of_phase_one_on_one_deck() -> None:
    """pagat.com, 'All Players play to Each Trick' (a player due has no card) and 'Variants: end of
    phase one' (no trick begun with an empty talon; or only if everyone holds two cards)."""
    default, default_length = trick_starts("no_card")
    talon, talon_length = trick_starts("talon_empty")
    two, two_length = trick_starts("two_cards")
    # By default tricks go on after the talon is gone, until someone has no card.
    assert any(stock == 0 for stock, _ in default)
    # 'talon_empty': no trick begins once the talon is gone, so phase one is shorter.
    assert all(stock > 0 for stock, _ in talon)
    assert talon_length < default_length
    # 'two_cards': a trick begins on an empty talon only when everyone holds two cards.
    assert all(min(sizes) >= 2 for stock, sizes in two if stock == 0)
    assert talon_length <= two_length <= default_length
    assert two_length < default_length  # on this deck someone is down to one card first


def test_default_end_gives_the_unfinished_trick_back() -> None:
    state = crafted({"Anna": "9S", "Bo": "", "Cai": "KD"})
    state.trick = [(0, (parse_card("7H"),)), (2, (parse_card("8H"),))]
    intermission.end_phase_one(state)
    assert state.phase == PHASE_TWO
    assert sorted(state.hands[0]) == ids("7H 9S") and sorted(state.hands[2]) == ids("8H KD")


def crafted(hands: dict[str, str], dealer: str = "Cai", **options: Any) -> State:
    """A phase-one table set by hand: for the rules between the phases."""
    preset = {"phase_one": "all", **options}
    state = State(RuleOptions(**preset), tuple(hands))
    state.hands = [sorted(parse_card(w) for w in text.split()) for text in hands.values()]
    state.dealer = list(hands).index(dealer)
    state.phase = PHASE_ONE
    return state


def deal(state: State, shuffler: str, **to: str) -> Action:
    names = list(state.names)
    return Action(
        names.index(shuffler),
        "deal",
        (),
        tuple((names.index(n), tuple(parse_card(w) for w in t.split())) for n, t in to.items()),
    )


def test_unfinished_trick_dealt_out_by_the_dealer_one_at_a_time_from_the_left() -> None:
    state = crafted({"Anna": "9S", "Bo": "", "Cai": "KD"}, unfinished_trick="deal_out")
    state.trick = [(0, (parse_card("7H"),)), (2, (parse_card("8H"),))]
    state.sluffs = [(0, (parse_card("7C"),))]
    intermission.end_phase_one(state)
    assert state.deal is not None and state.deal.kind == "trick_out"
    rule = lambda a: (engine.check(state, a) or Violation("ok", "")).rule  # noqa: E731
    assert rule(Action(0, "play", (parse_card("9S"),))) == "deal.due"
    assert rule(deal(state, "Anna", Anna="7H 7C", Bo="8H")) == "deal.shuffler"
    assert rule(deal(state, "Cai", Anna="7H", Bo="8H", Cai="7C")) == "ok"
    assert rule(deal(state, "Cai", Anna="7H 7C", Bo="8H")) == "deal.shares"
    assert rule(deal(state, "Cai", Anna="7H", Bo="8H", Cai="2C")) == "deal.cards"
    engine.apply(state, deal(state, "Cai", Anna="8H", Bo="7C", Cai="7H"))
    assert state.phase == PHASE_TWO and state.deal is None
    assert sorted(state.hands[1]) == ids("7C")


def test_low_cards_receivers_are_judged_before_anyone_gives_up_cards() -> None:
    # Bo has five cards, all low: he is not short, gives up all five and ends with none.
    state = crafted(
        {"Anna": "2H 3H AS", "Bo": "2S 3S 4S 5S 5C", "Cai": "KH KS KD KC QH QS"},
        low_cards=5,
    )
    intermission.reveal_and_pick_up(state)
    due = state.deal
    assert due is not None and due.kind == "low_cards"
    assert due.receivers == (0,) and due.shufflers == {1, 2}
    assert sorted(due.cards) == ids("2H 3H 2S 3S 4S 5S 5C")
    everything = "2H 3H 2S 3S 4S 5S 5C"
    assert engine.check(state, deal(state, "Anna", Anna=everything)).rule == "deal.shuffler"
    assert engine.check(state, deal(state, "Bo", Cai=everything)).rule == "deal.receivers"
    assert engine.check(state, deal(state, "Bo", Anna="2H 3H")).rule == "deal.cards"
    engine.apply(state, deal(state, "Cai", Anna=everything))
    assert state.phase == PHASE_TWO
    assert sorted(state.hands[0]) == ids(everything + " AS") and not state.hands[1]


def test_low_cards_in_deal_order_or_as_even_as_possible() -> None:
    hands = {"Anna": "2H AS", "Bo": "3H KS", "Cai": "QH QS QD QC JH JS JD JC"}
    state = crafted(hands, low_cards=5)  # Anna, then Bo, receive: Anna first gets the odd one
    intermission.reveal_and_pick_up(state)
    assert state.deal is not None and state.deal.shares == (1, 1)
    assert engine.check(state, deal(state, "Cai", Anna="2H", Bo="3H")) is None
    assert engine.check(state, deal(state, "Cai", Anna="2H 3H")).rule == "deal.shares"
    hands = {"Anna": "2H 4H AS", "Bo": "3H KS", "Cai": "QH QS QD QC JH JS JD JC"}
    order = crafted(hands, low_cards=5)
    intermission.reveal_and_pick_up(order)
    assert order.deal is not None and order.deal.shares == (2, 1)
    assert engine.check(order, deal(order, "Cai", Anna="3H", Bo="2H 4H")).rule == "deal.shares"
    even = crafted(hands, low_cards=5, low_cards_shares="even")
    intermission.reveal_and_pick_up(even)
    assert engine.check(even, deal(even, "Cai", Anna="3H", Bo="2H 4H")) is None


def test_the_six_of_trumps_and_the_indicator_threshold() -> None:
    hands = {"Anna": "2H 6S AS", "Bo": "6H KS", "Cai": "QH QS QD QC JH JS JD JC"}
    state = crafted(hands, low_cards=5, low_cards_six_of_trumps=True)
    state.indicator, state.indicator_holder, state.indicator_down = parse_card("TS"), 2, True
    intermission.reveal_and_pick_up(state)
    assert state.deal is not None and sorted(state.deal.cards) == ids("2H 6S")
    by_rank = crafted(hands, low_cards_by_indicator=True)
    by_rank.indicator, by_rank.indicator_holder, by_rank.indicator_down = parse_card("TS"), 2, True
    intermission.reveal_and_pick_up(by_rank)  # threshold 10: Cai holds 9 cards now
    assert by_rank.deal is not None and by_rank.deal.receivers == (0, 1, 2)


def test_koira_skips_players_without_cards() -> None:
    rec, state = play_until(
        record(HANDS | {"Dag": "QS QH QC"}, [], variant="koira", dealer="Dag", top=TOP),
        lambda s: s.phase != PHASE_ONE,
    )
    assert state.phase == PHASE_TWO
    assert run(rec).status == "legal"


def test_koira_ascending_deal_of_the_seven_player_example() -> None:
    hands = {
        "A": "2H 9S 9H",
        "B": "8H KS KH",
        "C": "JH 3C 6C",
        "D": "5H 7C 8C",
        "E": "JS TC QC",
        "F": "JD KC AC",
        "G": "4H 6S 7S",
    }
    plays = [
        "A play 2H",
        "B play 8H",
        "C play JH",
        "D play 5H",
        "E play JS",
        "F play JD",
        "G play 4H",
    ]
    state = final_state(
        record(hands, plays, variant="koira", dealer="G", tie_resolution="deal_ascending")
    )
    pile = {name: sorted(state.piles[i]) for i, name in enumerate(hands)}
    assert pile["F"] == ids("2H 8H") and pile["E"] == ids("4H")
    assert pile["C"] == ids("5H") and not pile["A"] and not pile["B"]
    assert "JH" in hand(state, "C") and "JS" in hand(state, "E") and "JD" in hand(state, "F")
    assert state.turn == 0  # A leads again


# --- the tjwilson90/goat app's end of part one (phase_one_end: still_to_play) ---------------


def war_start(hands: dict[str, list[str]], actions: list[str], end: str) -> dict[str, Any]:
    """A Goat position late in part one (the stock used up, A to lead): the sample's."""
    rec: dict[str, Any] = json.loads(
        (ROOT / "sample_games" / "illegal_goat_sluff_final_war.json").read_text()
    )
    rec["start"]["hands"] = hands
    return {**rec, "options": {"phase_one_end": end}, "actions": actions}


def state_after(rec: dict[str, Any]) -> State:
    game = load_record(rec)
    state = engine.new_state(game)
    for action in game.actions:
        assert engine.check(state, action) is None, action
        engine.apply(state, action)
    return state


def test_a_war_whose_player_holds_no_card_ends_part_one_at_once_under_still_to_play() -> None:
    """A and B tie with nines, B with their last card: under 'all_hold' A plays the war
    first and then B, due with no card, ends it (II.F); under 'still_to_play' it ends
    as the tie is known, and A leads phase two."""
    hands = {"A": ["9C", "4H"], "B": ["9D"], "C": ["3C", "5C"]}
    tied = ["A play 9C", "B play 9D", "C play 3C"]
    by_text = state_after(war_start(hands, tied, "all_hold"))
    assert (by_text.phase, by_text.turn, engine.legal_actions(by_text)) == (
        PHASE_ONE,
        0,
        [Action(0, "play", (parse_card("4H"),))],
    )
    assert state_after(war_start(hands, [*tied, "A play 4H"], "all_hold")).phase == PHASE_TWO
    by_app = state_after(war_start(hands, tied, "still_to_play"))
    assert (by_app.phase, by_app.turn) == (PHASE_TWO, 0)
    assert sorted(by_app.hands[0]) == ids("9C 4H 2S 3S 4S 5S 6S 8S")  # the war's 9 taken back


def test_a_player_still_to_play_sluffing_their_last_card_ends_part_one_under_still_to_play() -> (
    None
):
    """D, still to play after C, sluffs their last card (a five, a rank in the trick but
    not its top): under 'all_hold' C plays on and D, then due, ends it; under
    'still_to_play' it ends at the sluff."""
    hands = {"A": ["9C", "4H"], "B": ["5C", "KD"], "C": ["8C", "2H"], "D": ["5H"]}
    sluffed = ["A play 9C", "B play 5C", "D sluff 5H"]

    def four(actions: list[str], end: str) -> dict[str, Any]:
        rec = war_start(hands, actions, end)
        rec["players"] = ["A", "B", "C", "D"]
        rec["start"]["piles"]["D"] = []
        return rec

    by_text = state_after(four(sluffed, "all_hold"))
    assert (by_text.phase, by_text.turn, len(by_text.trick)) == (PHASE_ONE, 2, 2)
    ended = state_after(four([*sluffed, "C play 8C"], "all_hold"))
    by_app = state_after(four(sluffed, "still_to_play"))
    # the same end, each card of the unfinished trick back in its player's hand: C's 8C
    # never played under 'still_to_play'
    assert [sorted(h) for h in by_app.hands] == [sorted(h) for h in ended.hands]
    assert not by_app.trick and by_app.turn is None
    assert [len(h) for h in by_app.hands] == [8, 8, 8, 1]
    # before anyone is short, 'still_to_play' plays as 'all_hold' does
    assert state_after(four(["A play 9C"], "still_to_play")).turn == 1
