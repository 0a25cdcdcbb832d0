"""Issue 20: where the engine ruled against the texts (each test names its source by
title and section)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from adjudicator import engine
from adjudicator.play.adjudicate import Report, adjudicate
from adjudicator.record import RecordError, load_record

ROOT = Path(__file__).resolve().parents[2]

# --- 1. restriction #2 judged as soon as the final trick is known -------------------

WAR_FOR_EMPTY_HAND: dict[str, Any] = {
    "format": "skitgubbe-record/1",
    "variant": "goat",
    "options": {},
    "players": ["A", "B", "C"],
    "start": {
        "phase": 1,
        "leader": "A",
        "hands": {"A": ["5H", "9C"], "B": ["5D", "7D", "2C"], "C": ["2H", "4S", "3D"]},
        "stock": [],
        "piles": {
            "A": ["QH", "KH", "AH", "QC", "KC", "AC"],
            "B": ["QD", "KD", "AD", "JC", "TC", "JD"],
            "C": ["QS", "KS", "AS", "JS", "TS", "JH"],
        },
        "trump_card": "7S",
    },
    "actions": ["A play 5H", "B play 5D", "C play 2H", "B sluff 2C", "A play 9C", "B play 7D"],
}
"""Issue 20's record: the war over fives is decided for A, who holds no card, with the
stock empty; so the trick is the final trick at once, and B sluffed to it while still in
the war (the Goat treatise, II.E.3, restriction #2; II.C and II.F, the end of part one)."""


def run(record: dict[str, Any]) -> Report:
    return adjudicate(load_record(record))


def with_actions(record: dict[str, Any], *more: str) -> dict[str, Any]:
    out = copy.deepcopy(record)
    out["actions"] += list(more)
    return out


def first(report: Report) -> tuple[str, int | None]:
    assert report.violations, "no violation"
    return report.violations[0].rule, report.violations[0].index


def test_sluff_to_final_trick_reported_when_the_record_ends_at_the_decision() -> None:
    assert first(run(WAR_FOR_EMPTY_HAND)) == ("phase1.sluff.final", 3)


def test_sluff_to_final_trick_reported_before_a_later_wrong_act() -> None:
    # A leads again instead of taking: wrong too, but the sluff came first.
    assert first(run(with_actions(WAR_FOR_EMPTY_HAND, "A play QH"))) == ("phase1.sluff.final", 3)


def test_sluff_to_final_trick_reported_after_the_take() -> None:
    assert first(run(with_actions(WAR_FOR_EMPTY_HAND, "A take"))) == ("phase1.sluff.final", 3)


def test_no_violation_when_the_sluffer_could_not_win() -> None:
    # C lost the first round (a 2 under the fives) and sluffs afterwards: allowed.
    record = copy.deepcopy(WAR_FOR_EMPTY_HAND)
    record["start"]["hands"]["C"] = ["2H", "2S", "3D"]
    record["actions"] = ["A play 5H", "B play 5D", "C play 2H", "C sluff 2S", "A play 9C"]
    record["actions"] += ["B play 7D", "A take"]
    report = run(record)
    assert report.violations == [], report.violations


def test_winner_may_not_sluff_to_a_trick_known_to_be_the_last() -> None:
    # B wins the war with the last card of the trick but keeps one card; A holds none and the
    # stock is empty, so the trick is the last one and its winner may not sluff to it.
    record = copy.deepcopy(WAR_FOR_EMPTY_HAND)
    record["start"]["hands"]["B"] = ["5D", "TD", "2C"]
    record["actions"] = ["A play 5H", "B play 5D", "C play 2H", "A play 9C", "B play TD"]
    state = engine.new_state(load_record(record))
    for action in load_record(record).actions:
        engine.push(state, action)
    b = 1
    assert state.decided == b
    assert not [a for a in engine.legal_actions(state) if a.act == "sluff" and a.player == b]
    report = run(with_actions(record, "B sluff 2C"))
    assert first(report) == ("phase1.sluff.final", 5)
    assert run(with_actions(record, "B take")).violations == []


# --- 3. a card played from a hidden card uses it up ------------------------------------

Q = "??"


def atlanta(anna: list[str], actions: list[str]) -> dict[str, Any]:
    """Atlanta (compulsory ties) from a phase-one position: Cai leads, then Anna, then Bo."""
    return {
        "format": "skitgubbe-record/1",
        "variant": "atlanta",
        "players": ["Anna", "Bo", "Cai"],
        "start": {
            "phase": 1,
            "leader": "Cai",
            "hands": {"Anna": anna, "Bo": [Q, Q, Q], "Cai": ["9H", "KD", "2C"]},
            "stock": [Q] * 10,
        },
        "actions": actions,
    }


def test_a_play_from_the_only_hidden_card_leaves_nothing_unknown() -> None:
    # Anna's hand was J♠ 7♣ 10♠: no 9, so she was not bound to tie the 9s (pagat.com,
    # 'Atlanta Variation', compulsory ties).
    report = run(atlanta([Q, "7C", "TS"], ["Cai play 9H", "Anna play JS"]))
    assert report.violations == [] and report.undetermined == []


def test_a_hidden_card_left_after_the_play_keeps_the_tie_unknown() -> None:
    report = run(atlanta([Q, Q, "7C"], ["Cai play 9H", "Anna play JS"]))
    assert report.violations == []
    assert [(u.rule, u.index) for u in report.undetermined] == [("phase1.tie.compulsory", 1)]
    assert "Whether Anna holds a 9," in report.undetermined[0].message


def test_a_known_card_played_leaves_the_hidden_card_unknown() -> None:
    report = run(atlanta([Q, "7C", "TS"], ["Cai play 9H", "Anna play 7C"]))
    assert [(u.rule, u.index) for u in report.undetermined] == [("phase1.tie.compulsory", 1)]


def test_a_rank_is_named_with_its_article() -> None:
    record = atlanta(["8S", "7C", "AS"], ["Cai play 8H", "Anna play 7C"])
    record["start"]["hands"]["Cai"] = ["8H", "KD", "2C"]
    message = run(record).violations[0].message
    assert message.startswith("Anna holds an 8 and must play it"), message
    record = atlanta(["8S", "7C", "AS"], ["Cai play AH", "Anna play 7C"])
    record["start"]["hands"]["Cai"] = ["AH", "KD", "2C"]
    message = run(record).violations[0].message
    assert message.startswith("Anna holds an ace and must play it"), message


# --- 4. positions the contract refuses or lets through ---------------------------------


def test_a_top_level_trump_must_agree_with_the_stocks_last_card() -> None:
    record = {
        "format": "skitgubbe-record/1",
        "variant": "pagat",
        "trump": "H",
        "players": ["A", "B"],
        "start": {
            "phase": 1,
            "leader": "A",
            "hands": {"A": ["5H", "9C", "2D"], "B": ["5D", "7D", "2C"]},
            "stock": ["3C", "6S"],
        },
        "actions": [],
    }
    with pytest.raises(RecordError) as caught:
        load_record(record)
    assert str(caught.value) == "trump: the trump card start.stock[1] is 6S, not of that suit"
    record["trump"] = "S"
    load_record(record)
    record["start"]["stock"] = ["3C", "??"]
    record["trump"] = "H"
    load_record(record)  # an unknown trump card: the top-level trump says what it showed


def test_a_phase_one_start_names_the_first_leader_who_shuffles_the_dreck() -> None:
    virtuoso = json.loads((ROOT / "sample_games" / "goat_virtuoso.json").read_text("utf-8"))
    report = run(virtuoso)
    assert report.violations == [] and report.undetermined == []
    wrong = copy.deepcopy(virtuoso)
    wrong["actions"][-1]["player"] = "B"
    assert first(run(wrong)) == ("deal.shuffler", 4)
    unnamed = copy.deepcopy(virtuoso)
    del unnamed["first_leader"]
    report = run(unnamed)
    assert report.stopped and [u.rule for u in report.undetermined] == ["game.stopped"]


# --- 6. readings of the Mas text a table may hold ----------------------------------------


def mas(options: dict[str, Any], actions: list[str]) -> dict[str, Any]:
    """Mas from an invented position: spades trumps (the 9 turned up), Anna leads."""
    return {
        "format": "skitgubbe-record/1",
        "variant": "mas",
        "options": options,
        "players": ["Anna", "Bo", "Cai"],
        "start": {
            "phase": 1,
            "leader": "Anna",
            "dealer": "Cai",
            "hands": {
                "Anna": ["5H", "JC", "2D"],
                "Bo": ["8H", "3C", "6D"],
                "Cai": ["TH", "QC", "2S"],
            },
            "stock": ["4C", "8D", "KH", "7D", "9S"],
            "trump_card": "9S",
        },
        "actions": actions,
    }


def test_pick_leads_left_by_default_or_the_picker() -> None:
    picker_leads = ["Anna play JC", "Bo pick", "Bo play 8H"]
    assert first(run(mas({}, picker_leads))) == ("turn.order", 2)
    assert run(mas({}, ["Anna play JC", "Bo pick", "Cai play TH"])).violations == []
    assert run(mas({"pick_leads": "picker"}, picker_leads)).violations == []
    assert (
        first(run(mas({"pick_leads": "picker"}, ["Anna play JC", "Bo pick", "Cai play TH"])))[0]
        == "turn.order"
    )


def test_specials_any_time_by_default_or_on_ones_own_turn() -> None:
    off_turn = ["Anna play 5H", "Cai exchange 2S"]
    assert run(mas({}, off_turn)).violations == []
    assert first(run(mas({"specials_turn": "own_turn"}, off_turn))) == ("turn.order", 1)
    own = ["Anna play 5H", "Bo play 8H", "Bo play 3C", "Cai exchange 2S"]
    assert run(mas({"specials_turn": "own_turn"}, own)).violations == []


def test_dare_by_any_player_by_default_or_the_leader_only() -> None:
    second_dares = ["Anna play 5H", "Bo dare"]
    assert run(mas({}, second_dares)).violations == []
    assert first(run(mas({"dare_by": "leader"}, second_dares))) == ("phase1.dare.leader", 1)
    assert run(mas({"dare_by": "leader"}, ["Anna dare"])).violations == []


def test_a_failed_dare_is_played_by_default_or_picked_up() -> None:
    game = load_record(mas({}, ["Anna play JC", "Bo dare"]))
    state = engine.new_state(game)
    for action in game.actions:
        engine.push(state, action)
    anna, bo = 0, 1
    assert state.turn == anna and len(state.piles[anna]) == 2  # Anna won both cards
    game = load_record(mas({"failed_dare": "pick_up"}, ["Anna play JC", "Bo dare"]))
    state = engine.new_state(game)
    for action in game.actions:
        engine.push(state, action)
    assert state.turn == 2 and len(state.hands[bo]) == 5 and not state.piles[anna]
