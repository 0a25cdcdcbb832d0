"""Unknown cards (``??``) and phase-one start positions: each fine point of the contract.

Every check that reads a hand or the stock says whether it could be decided:
legal, illegal, or undetermined when only a hidden card could tell.  Nothing is
deduced by elimination, but a hidden card can only be a card known nowhere.
"""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator import engine
from adjudicator.play.adjudicate import Report, adjudicate
from adjudicator.record import RecordError, load_record

Q = "??"


def phase_one(
    hands: dict[str, list[str]],
    actions: list[Any],
    variant: str = "helmfrid",
    stock: list[str] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A phase-one start: three players Anna, Bo, Cai; Anna leads."""
    start: dict[str, Any] = {
        "phase": 1,
        "leader": "Anna",
        "hands": hands,
        "stock": stock if stock is not None else [Q] * 10,
    }
    start.update(extra.pop("start", {}))
    return {
        "format": "skitgubbe-record/1",
        "variant": variant,
        "players": ["Anna", "Bo", "Cai"],
        "start": start,
        "actions": actions,
        **extra,
    }


def run(record: dict[str, Any]) -> Report:
    return adjudicate(load_record(record))


def notes(report: Report) -> list[tuple[int | None, str]]:
    return [(v.index, v.rule) for v in report.undetermined]


TIES = {"compulsory_ties": True}


def test_a_compulsory_tie_is_illegal_when_the_king_is_known() -> None:
    record = phase_one(
        {"Anna": [Q, Q, Q], "Bo": ["KD", "7C", Q], "Cai": [Q, Q, Q]},
        ["Anna play KS", "Bo play 7C"],
        options=TIES,
    )
    report = run(record)
    assert report.status == "illegal"
    assert report.violations[0].rule == "phase1.tie.compulsory"


def test_a_compulsory_tie_is_undetermined_when_a_hidden_card_could_be_a_king() -> None:
    record = phase_one(
        {"Anna": [Q, Q, Q], "Bo": ["7C", Q, Q], "Cai": [Q, Q, Q]},
        ["Anna play KS", "Bo play 7C"],
        options=TIES,
    )
    report = run(record)
    assert report.status == "legal"
    assert notes(report) == [(1, "phase1.tie.compulsory")]


def test_a_hidden_card_cannot_be_a_card_known_elsewhere() -> None:
    """Every king is known to be somewhere else, so Bo's hidden card is no king: legal."""
    record = phase_one(
        {"Anna": [Q, Q, Q], "Bo": ["7C", Q, Q], "Cai": ["KH", "KD", "KC"]},
        ["Anna play KS", "Bo play 7C"],
        options=TIES,
    )
    report = run(record)
    assert report.status == "legal" and report.undetermined == []


def test_a_card_known_elsewhere_is_not_held_whatever_the_hidden_cards() -> None:
    record = phase_one(
        {"Anna": [Q, Q, Q], "Bo": [Q, Q, Q], "Cai": ["KH", Q, Q]},
        ["Anna play 5S", "Bo play KH"],
    )
    report = run(record)
    assert report.violations[0].rule == "play.held"
    assert "known to be elsewhere" in report.violations[0].message


def test_one_hidden_card_stands_for_one_card_only() -> None:
    record = phase_one(
        {"Anna": [Q, Q, Q], "Bo": ["2C", "3C", Q], "Cai": [Q, Q, Q]},
        ["Anna play 5S", "Bo play 9H 9D"],
    )
    assert run(record).violations[0].rule == "play.held"


def test_a_dare_on_an_unknown_stock_names_its_card_or_the_record_is_invalid() -> None:
    good = phase_one({"Anna": [Q, Q, Q], "Bo": [Q, Q, Q], "Cai": [Q, Q, Q]}, ["Anna dare 7H"])
    assert run(good).status == "legal"
    with pytest.raises(RecordError, match=r"^actions\[0\]: .*must name the card"):
        run(phase_one({"Anna": [Q, Q, Q], "Bo": [Q, Q, Q], "Cai": [Q, Q, Q]}, ["Anna dare"]))
    elsewhere = phase_one(
        {"Anna": ["7H", Q, Q], "Bo": [Q, Q, Q], "Cai": [Q, Q, Q]}, ["Anna dare 7H"]
    )
    assert run(elsewhere).violations[0].rule == "phase1.dare.card"


def test_the_daring_player_needs_no_hidden_card() -> None:
    record = phase_one(
        {"Anna": ["2C", "3C", "4C"], "Bo": [Q, Q, Q], "Cai": [Q, Q, Q]}, ["Anna dare QS"]
    )
    assert run(record).status == "legal"


def test_unknown_cards_may_not_be_written_in_actions() -> None:
    with pytest.raises(RecordError, match=r"actions\[1\].*'\?\?' is not allowed"):
        run(
            phase_one(
                {"Anna": [Q, Q, Q], "Bo": [Q, Q, Q], "Cai": [Q, Q, Q]},
                ["Anna play 5S", "Bo play ??"],
            )
        )


def test_the_engine_counts_hidden_cards_through_draws() -> None:
    game = load_record(
        phase_one(
            {"Anna": [Q, Q, Q], "Bo": ["7C", Q, Q], "Cai": [Q, Q, Q]},
            ["Anna play 5S", "Bo play 7C", "Cai play 9H"],
        )
    )
    state = engine.new_state(game)
    for action in game.actions:
        engine.push(state, action)
    assert [state.count(p) for p in range(3)] == [3, 3, 3]
    assert state.hands[1] == [] and state.hidden[1] == 3
    assert len(state.stock) == 7


def test_a_phase_two_position_with_a_hidden_hand_checks_what_is_known() -> None:
    record = {
        "format": "skitgubbe-record/1",
        "variant": "pagat",
        "players": ["A", "B", "C"],
        "start": {
            "phase": 2,
            "trump": "S",
            "leader": "A",
            "hands": {"A": ["7H", "2C"], "B": [Q, Q], "C": ["9H", "AD"]},
        },
        "actions": ["A play 7H", "B play 6H"],
    }
    report = run(record)
    assert report.violations[0].rule == "phase2.beat"  # 6♥ does not beat 7♥, hidden or not


def test_an_unknown_trump_leaves_a_beat_by_another_suit_undetermined() -> None:
    record = {
        "format": "skitgubbe-record/1",
        "variant": "pagat",
        "players": ["A", "B"],
        "start": {
            "phase": 1,
            "leader": "A",
            "dealer": "B",
            "hands": {"A": ["7H"], "B": ["5C"]},
            "stock": [],
            "trump_card": Q,
            "trump_holder": "B",
            "piles": {"A": ["2D", "3D"], "B": ["4D"]},
        },
        "actions": ["A play 7H", "B play 5C", "B play 4D", "A play 7H"],
    }
    report = run(record)  # A wins the last trick and has no card: phase one ends, B leads
    assert report.status == "legal"
    assert notes(report) == [(3, "phase2.beat")]  # is 7♥ a trump? nobody knows


def test_a_known_trump_card_must_agree_with_the_trump_given() -> None:
    record = {
        "format": "skitgubbe-record/1",
        "variant": "pagat",
        "players": ["A", "B"],
        "trump": "H",
        "start": {"phase": 2, "trump": "S", "leader": "A", "hands": {"A": ["7H"], "B": ["5C"]}},
        "actions": [],
    }
    with pytest.raises(RecordError, match=r"^trump:"):
        run(record)


@pytest.mark.parametrize(
    ("start", "where"),
    [
        ({"trump_card": "6S", "trump_holder": "Bo"}, "start.trump_card"),  # the stock is not empty
        ({"stock": []}, "start.trump_card"),  # drawn, but who holds it?
        ({"stored": {"Anna": ["2S", "3S", "4S"]}}, "start.stored"),  # no Mas here
        ({"hands": {"Anna": ["7H"], "Bo": ["7H"], "Cai": []}}, "start.hands.Bo[0]"),
    ],
)
def test_a_phase_one_start_that_cannot_be_is_invalid(start: dict[str, Any], where: str) -> None:
    record = phase_one(
        {"Anna": ["2C"], "Bo": ["3C"], "Cai": ["4C"]}, [], variant="pagat", start=start
    )
    with pytest.raises(RecordError) as caught:
        run(record)
    assert caught.value.path == where


def test_the_goat_trump_card_is_required_and_may_be_unknown() -> None:
    hands = {"Anna": ["2C", "8D", "KH"], "Bo": ["3C", "9D", "5S"], "Cai": ["4C", "TD", "6H"]}
    with pytest.raises(RecordError, match=r"start\.trump_card: is required"):
        run(phase_one(hands, [], variant="goat"))
    record = phase_one(hands, ["Anna play KH"], variant="goat", start={"trump_card": Q})
    assert run(record).status == "legal"


def test_a_low_card_deal_from_several_hidden_hands_stops_the_game_there() -> None:
    record = phase_one(
        {"Anna": ["AS"], "Bo": [Q], "Cai": [Q]},
        ["Anna play AS", "Bo play KD", "Cai play QD", "Bo deal"],
        stock=[],
        start={
            "dealer": "Cai",
            "trump_card": "9H",
            "trump_holder": "Cai",
            "piles": {"Anna": [Q] * 20, "Bo": [Q] * 3, "Cai": [Q] * 2},
        },
    )
    record["actions"][3] = {
        "player": "Anna",
        "act": "deal",
        "to": {"Bo": ["2C", "3C"], "Cai": ["4C"]},
    }
    report = run(record)
    assert report.status == "legal" and not report.finished
    assert notes(report)[-1] == (3, "game.stopped")


def test_a_hand_partly_unknown_at_a_mas_table_may_not_follow_undetermined() -> None:
    record = {
        "format": "skitgubbe-record/1",
        "variant": "melniki",
        "players": ["Anna", "Bo", "Cai"],
        "start": {
            "phase": 1,
            "leader": "Anna",
            "hands": {"Anna": ["9H", Q, Q], "Bo": ["2C", Q, Q], "Cai": [Q, Q, Q]},
            "stock": [Q, Q, Q, "6S"],
            "trump_card": "6S",
        },
        "actions": ["Anna play 9H", "Bo pick"],
    }
    report = run(record)
    assert report.status == "legal"
    assert notes(report) == [(1, "phase1.pick.follow")]


def test_a_rule_that_needs_the_missing_dealer_stops_the_game_there() -> None:
    record = phase_one(
        {"Anna": ["AS"], "Bo": [Q], "Cai": [Q]},
        ["Anna play AS", "Bo play KD", "Cai play QD", "Cai play 4C"],
        stock=[],
        start={"trump_card": "9H", "trump_holder": "Cai", "piles": {"Bo": [Q] * 3}},
    )
    report = run(record)  # the low cards are dealt in the order of a deal nobody wrote down
    assert report.status == "legal" and not report.finished
    assert notes(report) == [(2, "game.stopped")]
    assert "dealer" in report.undetermined[0].message


def test_whether_a_card_is_the_highest_trump_left_may_be_undetermined() -> None:
    """The Goat treatise, variations I: only the highest trump left kills; a hidden card in
    another hand might be a higher trump."""
    record = {
        "format": "skitgubbe-record/1",
        "variant": "pagat",
        "options": {"high_trump": "kill_only"},
        "players": ["A", "B", "C"],
        "start": {
            "phase": 2,
            "trump": "S",
            "leader": "A",
            "hands": {"A": ["KS", "2C"], "B": [Q, Q], "C": ["3D", "4D"]},
        },
        "actions": ["A play KS"],
    }
    report = run(record)
    assert report.status == "legal"
    assert notes(report) == [(0, "phase2.high_trump")]
    record["start"]["hands"]["B"] = ["AS", Q]  # the ace is known: the king is not the highest
    assert run(record).undetermined == []


def test_an_unknown_trump_card_that_sets_the_low_card_limit_stops_the_game() -> None:
    """pagat.com, 'Variants: end of phase one': the limit is the trump card's rank."""
    record = phase_one(
        {"Anna": ["AS"], "Bo": ["KD", "2C"], "Cai": ["QD", "3C"]},
        ["Anna play AS", "Bo play KD", "Cai play QD", "Anna play 9H"],
        stock=[],
        start={"dealer": "Cai", "trump_card": Q, "trump_holder": "Cai"},
        options={"low_cards_by_indicator": True},
        trump="H",
    )
    report = run(record)
    assert report.status == "legal" and not report.finished
    assert notes(report)[-1][1] == "game.stopped"
    assert "rank sets the low-card limit" in report.undetermined[-1].message
