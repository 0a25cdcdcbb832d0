"""Issue 20: where the engine ruled against the texts (each test names its source by
title and section)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from adjudicator import engine
from adjudicator.adjudicate import Report, adjudicate, adjudicate_session
from adjudicator.record import Session, load, load_record

ROOT = Path(__file__).resolve().parent.parent

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


# --- 2. a session game whose leader is unknown is not judged on turn order -----------


def test_game_after_an_unplayed_game_is_not_judged_on_turn_order() -> None:
    session = load(ROOT / "sample_games" / "goat_session_3_games.json")
    assert isinstance(session, Session)
    session.games[1].first_leader = session.players.index("Anna")  # not the Goat (Dag)
    session.games[1].first_leader_given = True
    session.games[2].first_leader_given = False
    report = adjudicate_session(session)
    assert [(v.rule, v.game) for v in report.violations] == [("session.first_leader", 1)]
    third = report.games[2]
    assert third.violations == []
    assert [(u.rule, u.index) for u in third.undetermined] == [("session.first_leader", None)]
    assert "Cai, who acts first, is taken to lead" in third.undetermined[0].message


def test_a_named_leader_is_judged_even_after_an_unplayed_game() -> None:
    session = load(ROOT / "sample_games" / "goat_session_3_games.json")
    assert isinstance(session, Session)
    session.games[1].first_leader = session.players.index("Anna")
    session.games[1].first_leader_given = True
    session.games[2].first_leader = session.players.index("Bo")  # Cai acts first
    session.games[2].first_leader_given = True
    third = adjudicate_session(session).games[2]
    assert third.undetermined == []
    assert first(third) == ("turn.order", 0)
