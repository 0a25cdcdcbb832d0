"""Violation: what an illegal action broke, in table language."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Violation:
    """A broken rule: stable ``rule`` id (see docs/rules.md) and the reason.

    ``index`` and ``player`` are filled in by the adjudicator (the engine does
    not know where in the record an action stands); ``alternatives`` lists the
    legal actions at that point in record notation.
    """

    rule: str
    message: str
    index: int | None = None
    player: str | None = None
    action: str | None = None
    alternatives: list[str | dict[str, Any]] = field(default_factory=list)
    undetermined: bool = False
    """The check could not be made: it depends on cards nobody knows (the action stands)."""
    invalid: bool = False
    """Not a rule broken but a record that lacks what the table saw (a dare on an unknown
    stock that names no card): the record is invalid."""
    game: int | None = None
    """In a session: the game (0-based) the violation belongs to."""
    with_unseen: int = 0
    """How many more actions would be legal with a card nobody has seen (``??``)."""


class IllegalAction(Exception):
    """Raised by :func:`adjudicator.engine.push` for an action that fails ``check``."""

    def __init__(self, violation: Violation) -> None:
        self.violation = violation
        super().__init__(f"{violation.rule}: {violation.message}")
