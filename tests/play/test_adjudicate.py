"""Sessions (``play/adjudicate.py``): places and the loser added up, the claimed scores
checked, and a game whose leader is unknown not judged on turn order (issue 20)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from adjudicator.play.adjudicate import Report, adjudicate_session
from adjudicator.record import Session, load

ROOT = Path(__file__).resolve().parents[2]


def first(report: Report) -> tuple[str, int | None]:
    assert report.violations, "no violation"
    return report.violations[0].rule, report.violations[0].index


# --- sessions and scoring -------------------------------------------------------------------


def session(games: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {
        "format": "skitgubbe-session/1",
        "variant": "pagat",
        "options": {"first_lead": "previous_loser"},
        "players": ["A", "B", "C"],
        "games": games,
        **extra,
    }


def test_a_session_adds_up_places_and_the_loser_and_checks_the_claim() -> None:
    scoring = {"places": [5, 3], "loser": -5, "others": 0}
    game = {
        "start": {
            "phase": 2,
            "trump": "S",
            "leader": "A",
            "hands": {"A": ["2C"], "B": ["7C"], "C": ["AH", "3D"]},
        },
        "actions": ["A play 2C", "B play 7C"],
    }
    data = session([game, game], scoring=scoring, result={"scores": {"A": 10, "B": 6, "C": -10}})
    report = adjudicate_session(load(data))  # type: ignore[arg-type]
    assert report.status == "legal" and report.scores == {"A": 10, "B": 6, "C": -10}
    data["result"] = {"scores": {"A": 6, "B": 10, "C": -10}}
    wrong = adjudicate_session(load(data))  # type: ignore[arg-type]
    assert [v.rule for v in wrong.violations] == ["session.scores"]


def test_players_going_out_together_share_the_better_place() -> None:
    from adjudicator.play.adjudicate import game_points
    from adjudicator.record import Scoring

    report = Report("pagat", ("A", "B", "C", "D"), 0, 0, True, "D", ["D"])
    report.out_order = [["A", "B"], ["C"]]
    points = game_points(Scoring(places=[5, 3, 1], loser=-5), report, report.players)
    assert points == {"A": 5, "B": 5, "C": 1, "D": -5}


# --- issue 20, point 2: a session game whose leader is unknown is not judged on turn order


def _session(leaders: dict[int, str | None]) -> Session:
    """The three-game Goat session with game ``k``'s ``first_leader`` written (or removed)."""
    data = json.loads((ROOT / "sample_games" / "goat_session_3_games.json").read_text("utf-8"))
    for k, name in leaders.items():
        data["games"][k].pop("first_leader", None)
        if name is not None:
            data["games"][k]["first_leader"] = name
    session = load(data)
    assert isinstance(session, Session)
    return session


def test_game_after_an_unplayed_game_is_not_judged_on_turn_order() -> None:
    session = _session({1: "Anna", 2: None})  # Anna is not the Goat (Dag)
    report = adjudicate_session(session)
    assert [(v.rule, v.game) for v in report.violations] == [("session.first_leader", 1)]
    third = report.games[2]
    assert third.violations == []
    assert [(u.rule, u.index) for u in third.undetermined] == [("session.first_leader", None)]
    assert "Cai, who acts first, is taken to lead" in third.undetermined[0].message


def test_a_named_leader_is_judged_even_after_an_unplayed_game() -> None:
    session = _session({1: "Anna", 2: "Bo"})  # Cai acts first in game 2
    third = adjudicate_session(session).games[2]
    assert third.undetermined == []
    assert first(third) == ("turn.order", 0)
