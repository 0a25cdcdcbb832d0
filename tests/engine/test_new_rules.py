"""Unit tests for the rules added with the Goat, Mas and Melniki games, and the readings
corrected against the texts (each test names its source by title and section)."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator import engine
from adjudicator.cards import parse_card
from adjudicator.engine.state import PHASE_ONE, PHASE_TWO, State
from adjudicator.play.adjudicate import Report, adjudicate
from adjudicator.record import RecordError, load_record
from adjudicator.rules.presets import PRESETS


def start_one(
    variant: str,
    hands: dict[str, str],
    actions: list[Any],
    stock: str = "",
    options: dict[str, Any] | None = None,
    **start: Any,
) -> dict[str, Any]:
    """A phase-one start for the players named by ``hands``; the first one leads."""
    players = list(hands)
    return {
        "format": "skitgubbe-record/1",
        "variant": variant,
        "options": options or {},
        "players": players,
        "start": {
            "phase": 1,
            "leader": players[0],
            "dealer": players[-1],
            "hands": {name: text.split() for name, text in hands.items()},
            "stock": stock.split(),
            **start,
        },
        "actions": actions,
    }


def run(record: dict[str, Any]) -> Report:
    return adjudicate(load_record(record))


def after(record: dict[str, Any]) -> State:
    """The state after every action of ``record`` (each must be legal)."""
    game = load_record(record)
    state = engine.new_state(game)
    for action in game.actions:
        engine.push(state, action)
    return state


def first_rule(record: dict[str, Any]) -> str | None:
    report = run(record)
    return report.violations[0].rule if report.violations else None


def ids(text: str) -> list[int]:
    return sorted(parse_card(c) for c in text.split())


# --- the Goat treatise ------------------------------------------------------------------

GOAT = {"Anna": "3S 8D 5H", "Bo": "3H 3D 2C", "Cai": "AS AD 2S"}


FULL_PILES = {
    "Anna": ["AC", "KC", "QC", "JC", "TC", "9C"],
    "Cai": ["AH", "QH", "JH", "TH", "9H", "8H"],
}
"""Won cards enough to keep Anna and Cai above the dreck's limit of six."""


def goat(actions: list[Any], hands: dict[str, str] = GOAT, stock: str = "", **extra: Any) -> dict:
    stock = stock or "7C QS JD 5C 9H 4C 6D TH 2D KC 8C 9S"
    return start_one("goat", hands, actions, stock, trump_card="KH", **extra)


def test_goat_the_important_restriction_forbids_a_tap_too() -> None:
    """II.E.2: holding the rank of the highest card so far, you must play it."""
    assert first_rule(goat(["Anna play 3S", "Bo dare"])) == "phase1.tie.compulsory"
    assert first_rule(goat(["Anna play 3S", "Bo play 2C"])) == "phase1.tie.compulsory"
    assert first_rule(goat(["Anna play 3S", "Bo play 3H", "Cai play 2S"])) is None


def test_goat_restriction_one_only_before_your_own_play() -> None:
    """II.E.3 #1: before playing you may not sluff the top rank; after, anything matching."""
    assert first_rule(goat(["Anna play 3S", "Bo sluff 3D"])) == "phase1.sluff.top"
    assert first_rule(goat(["Anna play 3S", "Bo play 3H", "Bo sluff 3D"])) is None
    # Cai is due but holds no 3: sluffing a 2 matches nothing played yet.
    assert first_rule(goat(["Anna play 3S", "Cai sluff 2S"])) == "phase1.sluff.rank"


def test_goat_a_war_is_led_by_the_first_tied_player_and_only_the_tied_play() -> None:
    """II.E.4: only the tied players play the war, the first of them leading."""
    record = goat(["Anna play 3S", "Bo play 3H", "Cai play 2S", "Bo play 2C"])
    assert first_rule(record) == "turn.order"
    state = after(goat(["Anna play 3S", "Bo play 3H", "Cai play 2S"]))
    assert state.replay and state.round == [0, 1] and state.turn == 0


def test_goat_sluffs_are_drawn_back_to_three_and_the_winner_takes_with_take() -> None:
    state = after(goat(["Anna play 3S", "Bo play 3H", "Bo sluff 3D", "Cai play AS"]))
    assert state.decided == 2 and state.count(1) == 3
    assert first_rule(goat(["Anna play 3S", "Bo play 3H", "Cai play AS", "Cai play AD"])) == (
        "phase1.take.due"
    )


def test_goat_restriction_two_is_judged_when_the_final_trick_is_known() -> None:
    """II.E.3 #2 with II.F: a sluff to what turns out to be the final trick, made while the
    sluffer could still win it, is illegal at the sluff; the same sluff is legal when the
    trick is not the last."""
    hands = {"Anna": "4H", "Bo": "9S", "Cai": "4D QD"}
    final = goat(
        ["Anna play 4H", "Bo play 9S", "Cai sluff 4D", "Cai play QD", "Cai take"], hands, stock=" "
    )
    report = run(final)
    assert (report.violations[0].rule, report.violations[0].index) == ("phase1.sluff.final", 2)
    assert report.applied == 2
    lost_first = goat(["Anna play 4H", "Bo play 9S", "Cai play QD", "Bo sluff 9S"], hands, " ")
    assert first_rule(lost_first) == "play.held"  # Bo played his 9: he has nothing to sluff
    later = goat(
        ["Anna play 4H", "Bo play 9S", "Cai sluff 4D", "Cai play QD", "Cai take"],
        hands,
        stock="2C 3C 5C 6C 7C 8C 2H 3H 5H 6H 7H 8H",
    )
    assert first_rule(later) is None


def test_goat_part_one_ends_when_a_player_has_no_card_for_the_next_round() -> None:
    """II.C, II.F: the trick after which someone is out of cards is the final trick; its
    winner leads part two (II.H, IV.F.1)."""
    hands = {"Anna": "4H 6C", "Bo": "9S", "Cai": "4D 5D"}
    piles = {**FULL_PILES, "Bo": ["AD", "KD", "QD", "JD", "TD", "9D"]}
    actions = ["Anna play 4H", "Bo play 9S", "Cai play 4D", "Bo take"]
    state = after(goat(actions, hands, " ", piles=piles))
    assert state.phase == PHASE_TWO and state.leader == 1
    assert state.trump == parse_card("KH") // 13  # the trump card set aside before the deal


def test_goat_the_set_aside_trump_card_is_out_of_play_for_the_high_trump() -> None:
    """Variations I: 'the Ace, unless it determined trump'."""
    record = {
        "format": "skitgubbe-record/1",
        "variant": "goat",
        "players": ["A", "B", "C"],
        "start": {
            "phase": 1,
            "leader": "A",
            "dealer": "C",
            "trump_card": "AS",
            "hands": {"A": ["9S"], "B": ["2C"], "C": ["3C", "KS"]},
            "stock": [],
            "piles": {
                "A": ["AC", "KC", "QC", "JC", "TC", "9C"],
                "B": ["AH", "KH", "QH", "JH", "TH", "9H"],
                "C": ["AD", "KD", "QD", "JD", "TD", "9D"],
            },
        },
        "actions": ["A play 9S", "B play 2C", "C play 3C", "A take"],
    }
    state = after(record)
    assert state.phase == PHASE_TWO and state.options.high_trump == "kill_only"
    assert "AS" not in [c for hand in state.hands for c in hand]
    from adjudicator.engine.phase_two import high_trump

    assert high_trump(state)[0] == parse_card("KS")


def test_goat_aces_low_in_part_one_only() -> None:
    """Variations III: aces rank below twos in the first part."""
    hands = {"Anna": "AS 7C", "Bo": "2C 8C", "Cai": "3C 9C"}
    stock = "QS JD 5C 9H 4C 6D TH 2D KC"
    actions = ["Anna play AS", "Bo play 2C", "Cai play 3C"]
    record = goat(actions, hands, stock, options={"aces_low": True})
    assert after(record).decided == 2  # the 3 wins: the ace is lowest


def test_goat_high_trump_two_only_the_highest_trump_kills() -> None:
    """Variations IV: while a trump is in the game nothing but the highest kills a trick."""
    record = {
        "format": "skitgubbe-record/1",
        "variant": "pagat",
        "options": {"high_trump": "only_killer"},
        "players": ["A", "B"],
        "start": {
            "phase": 2,
            "trump": "S",
            "leader": "A",
            "hands": {"A": ["5H", "9H", "4D"], "B": ["7H", "AS", "2C"]},
        },
        "actions": ["A play 5H", "B play 7H", "A play 9H"],
    }
    state = after(record)
    assert len(state.trick) == 3  # two players, three plays, and the trick goes on
    record["actions"].append("B play AS")
    assert after(record).trick == []  # the ace of trumps kills it


def test_the_goat_preset_changes_by_player_count() -> None:
    """0: High Trump for three players, the double deck for more than six."""
    goat_ = PRESETS["goat"]
    assert goat_.options_for(3).high_trump == "kill_only"
    assert goat_.options_for(4).high_trump == "none"
    assert (goat_.options_for(7).decks, goat_.options_for(7).low_cards) == (2, 12)
    assert goat_.options_for(10).decks == 2 and goat_.options_for(6).decks == 1


def test_goat_the_dreck_is_shuffled_by_the_goat() -> None:
    """III.C: the Goat (this game's first leader) shuffles the dreck."""
    record = start_one(
        "goat",
        {"Anna": "9S", "Bo": "8S", "Cai": "7S"},
        ["Anna play 9S", "Bo play 8S", "Cai play 7S", "Anna take"],
        " ",
        trump_card="KH",
        piles={"Anna": ["2C", "3C", "4C", "AD", "KD", "QD", "JD"]},
    )
    record["first_leader"] = "Cai"
    state = after(record)
    assert state.deal is not None and state.deal.shufflers == frozenset({2})
    assert state.deal.receivers == (1, 2)  # Bo and Cai hold fewer than six
    assert not state.deal.ordered  # shared as evenly as possible, any way


# --- double deck ---------------------------------------------------------------------------


def test_two_copies_of_a_card_are_the_same_card_and_may_be_played_together_in_phase_one() -> None:
    record = start_one(
        "helmfrid",
        {"Anna": "6C 6C 9S", "Bo": "2C 3C 4C", "Cai": "2D 3D 4D"},
        ["Anna play 6C 6C"],
        "7H 8H 9H 7D",
        options={"decks": 2},
    )
    assert first_rule(record) is None
    state = after(record)
    assert state.trick == [(0, (parse_card("6C"), parse_card("6C")))]


def test_a_phase_two_play_holds_one_copy_of_a_card() -> None:
    """Variations II.B: the two 6♣ are played one at a time; 6-7-8 does not beat 5-6-7."""
    record = {
        "format": "skitgubbe-record/1",
        "variant": "goat",
        "options": {"decks": 2},
        "players": ["A", "B", "C", "D"],
        "start": {
            "phase": 2,
            "trump": "S",
            "leader": "A",
            "hands": {
                "A": ["5C", "6C", "7C"],
                "B": ["6C", "7C", "8C"],
                "C": ["9C", "9C"],
                "D": ["2S"],
            },
        },
        "actions": ["A play 5C 6C 7C", "B play 6C 7C 8C"],
    }
    assert first_rule(record) == "phase2.beat"
    record["actions"][1] = "B play 8C"
    assert first_rule(record) is None
    record["actions"] = ["A play 5C", "B pick", "C play 9C 9C"]
    assert first_rule(record) == "phase2.one_copy"


def test_a_deck_of_two_packs_holds_every_card_twice() -> None:
    cards = [f"{r}{s}" for s in "SHDC" for r in "23456789TJQKA"]
    record = {
        "format": "skitgubbe-record/1",
        "variant": "goat",
        "players": [f"P{i}" for i in range(7)],
        "dealer": "P0",
        "first_leader": "P3",
        "deck": cards * 2,
        "actions": [],
    }
    assert load_record(record).options.decks == 2
    record["deck"] = cards + cards[:-1] + ["2S"]
    with pytest.raises(RecordError, match=r"deck\[103\]: 2S is already"):
        load_record(record)


# --- Mas and Melniki (pagat.com, 'Mas with turned up trump'; Wikipedia, 'Related games') ---

MAS = {"Anna": "9H 5C JD", "Bo": "7H QH 2S", "Cai": "AC 8D 3D"}


def mas(actions: list[Any], hands: dict[str, str] = MAS, stock: str = "4C KC TC 6S", **extra: Any):
    return start_one("mas", hands, actions, stock, trump_card="6S", **extra)


def test_mas_the_second_player_beats_by_suit_or_trump_or_picks_up() -> None:
    assert first_rule(mas(["Anna play 9H", "Bo play 7H"])) == "phase1.beat"
    assert first_rule(mas(["Anna play 9H", "Bo play 2S"])) is None  # a trump on a non-trump
    state = after(mas(["Anna play 9H", "Bo play QH"]))
    assert state.piles[1] == ids("9H QH") and state.leader == 1 and state.second == 2


def test_mas_a_pick_takes_the_led_card_and_the_player_after_the_picker_leads() -> None:
    state = after(mas(["Anna play 9H", "Bo pick"]))
    assert sorted(state.hands[1]) == ids("7H QH 2S 9H")  # four cards: no draw
    assert state.leader == 2 and state.turn == 2


def test_mas_three_trumps_and_nothing_else_are_set_aside_at_any_moment() -> None:
    hands = {"Anna": "9H 5C JD", "Bo": "7S QS 2S", "Cai": "AC 8D 3D"}
    state = after(mas(["Bo set_aside 2S 7S QS"], hands))
    assert state.stored[1] == ids("2S 7S QS") and state.count(1) == 3
    assert first_rule(mas(["Anna set_aside 9H 5C JD"], hands)) == "phase1.set_aside"


def test_mas_the_two_of_trumps_is_exchanged_only_while_the_turned_up_trump_lies() -> None:
    state = after(mas(["Bo exchange 2S"]))
    assert state.stock[0] == parse_card("2S") and parse_card("6S") in state.hands[1]
    assert first_rule(mas(["Bo exchange 2S", "Bo exchange 2S"])) == "play.held"
    assert first_rule(mas(["Anna exchange 9H"])) == "phase1.exchange"


def test_mas_phase_one_ends_with_the_trick_in_which_the_turned_up_trump_is_drawn() -> None:
    """The drawer of the stock's last card leads phase two."""
    state = after(mas(["Anna play 9H", "Bo play QH"], stock="6S"))
    assert state.phase == PHASE_TWO and state.leader == 0  # Anna drew the 6♠


def test_melniki_a_player_who_can_follow_suit_may_not_pick_up() -> None:
    record = start_one("melniki", MAS, ["Anna play 9H", "Bo pick"], "4C KC 6S", trump_card="6S")
    assert first_rule(record) == "phase1.pick.follow"
    record["actions"][1] = "Bo play 7H"  # a lower heart: allowed, Anna wins the trick
    state = after(record)
    assert sorted(state.piles[0]) == ids("9H 7H")


# --- corrections against the texts (issue: where the engine contradicted them) --------------


def test_helmfrid_the_last_trick_of_phase_one_may_still_be_sluffed_to() -> None:
    """pagat.com, 'All Players play to Each Trick in Phase One': one more opportunity."""
    record = start_one(
        "helmfrid",
        {"Anna": "AH", "Bo": "9C 9S 2D", "Cai": "KD 3H 4H"},
        ["Anna play AH", "Bo play 9C", "Cai play KD", "Bo sluff 9S"],
        trump_card="JC",
        trump_holder="Cai",
        piles={
            "Anna": ["AS", "KS", "QS"],
            "Bo": ["AD", "QD", "JD", "TD", "8D"],
            "Cai": ["AC", "KC", "QC", "TC", "9D"],
        },
    )
    state = after(record)
    assert state.phase == PHASE_ONE and state.decided == 0
    engine.close_window(state)
    assert state.phase == PHASE_TWO and parse_card("9S") in state.hands[0]


def test_mattis_all_players_of_equal_cards_play_again() -> None:
    """pagat.com, 'Mattis', variants: A 5, B 5, C 9, D 9, E K: A, B, C and D play again."""
    hands = {n: "" for n in "ABCDE"}
    cards = {"A": "5S 7D", "B": "5H JC", "C": "9S 3H", "D": "9H 8C", "E": "KC 2D"}
    hands.update(cards)
    record = start_one(
        "mattis",
        hands,
        ["A play 5S", "B play 5H", "C play 9S", "D play 9H", "E play KC"],
        "2S 3S 4S 5D 6D 7S 8S 9D TS JS",
        options={"tie_rule": "all_tied"},
    )
    state = after(record)
    assert state.replay and state.round == [0, 1, 2, 3]
    swedish = {**record, "options": {"tie_rule": "tied_beat_unique"}}
    assert after(swedish).round == [2, 3]  # only the heading tied rank replays


def test_mattis_every_blamattis_loses_at_once() -> None:
    """pagat.com, 'Mattis', variants: anyone who is Blåmattis loses immediately."""
    record = start_one(
        "mattis",
        {"Anna": "AH 8H", "Bo": "4C", "Cai": "3D", "Dag": "KS QS"},
        ["Anna play AH", "Bo play 4C", "Cai play 3D", "Dag play KS", "Anna play 8H"],
        trump_card="JD",
        trump_holder="Dag",
        options={"empty_hand_at_phase_two": "lose"},
    )
    record["result"] = {"losers": ["Bo", "Cai"]}
    report = run(record)
    assert report.status == "legal" and report.finished
    assert (report.loser, report.losers) == (None, ["Bo", "Cai"])
    record["result"] = {"loser": "Bo"}
    assert run(record).violations[0].rule == "result.loser"


def test_atlanta_anyone_may_shuffle_the_dreck_helmfrid_only_a_player_not_receiving() -> None:
    assert PRESETS["atlanta"].options.low_cards_shuffler == "anyone"
    assert PRESETS["helmfrid"].options.low_cards_shuffler == "not_receiving"


# --- more of Melniki and the Goat ------------------------------------------------------------


def test_melniki_a_player_who_cannot_follow_trumps_or_picks_up() -> None:
    """Wikipedia, 'Related games': 'could choose to draw or trump'; no side card."""
    hands = {"Anna": "9H KH 2H", "Bo": "2C 5D 3S", "Cai": "AH AD AC"}
    record = start_one(
        "melniki", hands, ["Anna play 9H", "Bo play 2C"], "4D 8D TS", trump_card="TS"
    )
    assert first_rule(record) == "phase1.reply"
    record["actions"][1] = "Bo play 3S"
    assert first_rule(record) is None
    record["actions"][1] = "Bo pick"
    assert first_rule(record) is None
    follower = {**hands, "Bo": "2C 5D 4H"}
    record = start_one(
        "melniki", follower, ["Anna play 9H", "Bo play 2C"], "4D 8D TS", trump_card="TS"
    )
    assert first_rule(record) is None  # holding a heart, any card may be played


def test_the_goat_seats_any_number_the_packs_allow() -> None:
    """0: 'any number can play'; two and eleven are advised against, not forbidden."""
    assert (PRESETS["goat"].options.min_players, PRESETS["goat"].options.max_players) == (2, 34)
    assert PRESETS["goat"].options_for(11).decks == 2


def test_a_goat_start_names_who_won_the_last_trick() -> None:
    """II.D and IV.F.1: the leader of a position with won cards won the last trick."""
    record = start_one(
        "goat",
        {"A": "", "B": "9H TH", "C": "JH QH"},
        ["C play JH"],
        "",
        trump_card="KC",
        piles={
            "A": ["2S", "3S", "4S", "5S", "6S", "7S", "8S"],
            "B": ["9S", "TS", "JS", "QS", "KS", "AS"],
            "C": ["2D", "3D", "4D", "5D", "6D", "7D", "8D"],
        },
    )
    record["start"]["leader"] = "C"
    state = after(record)
    assert state.phase == PHASE_TWO and state.last_winner == 2
