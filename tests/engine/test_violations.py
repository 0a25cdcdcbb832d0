"""A violation's message is built when it is first read, and reads as it always did."""

from __future__ import annotations

from adjudicator import engine, service
from adjudicator.actions import Action
from adjudicator.cards import PARSE
from adjudicator.engine.violations import Violation
from adjudicator.record import load_record


def test_a_lazy_message_is_built_once_on_first_read() -> None:
    calls: list[tuple[str, int]] = []

    def words(name: str, count: int) -> str:
        calls.append((name, count))
        return f"{name} named {count}"

    lazy = Violation.later("play.count", words, "Anna", 2, undetermined=True)
    assert calls == []  # nothing built yet
    assert lazy.undetermined and not lazy.invalid and lazy.alternatives == []
    assert lazy.message == "Anna named 2"
    assert lazy.message == "Anna named 2"
    assert calls == [("Anna", 2)]
    assert lazy == Violation("play.count", "Anna named 2", undetermined=True)
    assert service.ViolationOut.of(lazy).message == "Anna named 2"


def test_the_plain_form_still_works_and_a_message_may_be_replaced() -> None:
    plain = Violation("turn.order", "It is not Bo's turn", index=3, player="Bo")
    assert (plain.rule, plain.message, plain.index, plain.player) == (
        "turn.order",
        "It is not Bo's turn",
        3,
        "Bo",
    )
    lazy = Violation.later("turn.order", str.upper, "later")
    lazy.message = "set by hand"
    assert lazy.message == "set by hand"
    assert plain != lazy
    assert "It is not Bo's turn" in repr(plain)


def test_a_lazy_message_does_not_change_when_the_state_moves_on() -> None:
    """The words come from values taken at the check, not from the state mutated later."""
    game = load_record(
        {
            "format": "skitgubbe-record/1",
            "variant": "pagat",
            "players": ["Anna", "Bo", "Cai"],
            "dealer": "Cai",
            "start": {
                "phase": 2,
                "trump": "S",
                "leader": "Anna",
                "hands": {"Anna": ["7H", "9H"], "Bo": ["8H", "3C"], "Cai": ["QH", "4D"]},
            },
            "actions": ["Anna play 9H"],
        }
    )
    state = engine.new_state(game)
    engine.apply(state, game.actions[0])  # Anna leads 9♥
    refused = engine.check(state, Action(1, "play", (PARSE["8H"],)))  # Bo's 8♥
    assert refused is not None and refused.rule == "phase2.beat"
    engine.apply(state, Action(1, "pick"))  # the table moves on before anyone reads it
    assert refused.message == ("8♥ does not beat 9♥: a higher heart or a trump (♠) is needed")
