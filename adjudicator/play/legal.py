"""The legal actions at a point of a record, in the notation a record is written in.

``adjudicator legal`` and every "legal instead" use this module, so what they
print can be pasted back into a record: a string such as ``"Bo play QH"``, or
the object form for a deal (``{"player": "Cai", "act": "deal", "to": {...}}``).

Positions are counted like actions, from 0: position ``N`` is the table just
before action ``N`` (after actions ``0 .. N-1``), so the legal actions at
position ``N`` are what could have been done instead of action ``N``.
Position ``len(actions)`` (the default) is what may come next.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator import engine
from adjudicator.engine.state import State
from adjudicator.engine.violations import Violation
from adjudicator.exceptions import AdjudicatorError
from adjudicator.play.listing import Form, forms
from adjudicator.play.table import Table, replay
from adjudicator.record import Game


@dataclass
class Position:
    """The table before action ``at`` of a record, and what is legal there."""

    at: int
    actions: int
    state: State
    legal: list[Form] = field(default_factory=list)
    with_unseen: list[Form] = field(default_factory=list)
    """Actions that name a card nobody has seen (``??``) and are legal if a hidden card is
    that one."""
    with_unseen_unless: list[tuple[Form, Violation]] = field(default_factory=list)
    """The same, legal unless the hidden cards hold something that rules them out (the
    check that cannot be made, e.g. a compulsory tie)."""

    @property
    def names(self) -> tuple[str, ...]:
        return self.state.names

    @property
    def movers(self) -> list[str]:
        """Who may act now: the player to move, or the players entitled to deal."""
        state = self.state
        if state.finished:
            return []
        if state.deal is not None:
            return [state.names[p] for p in sorted(state.deal.shufflers)]
        return [state.names[state.turn]] if state.turn is not None else []

    @property
    def deal_what(self) -> str:
        """What is to be dealt, in words, when a deal is due."""
        return self.state.deal.what if self.state.deal is not None else ""


class Unreachable(AdjudicatorError):
    """The position lies beyond an illegal action: the replay cannot get there."""

    def __init__(self, violation: Violation) -> None:
        self.violation = violation
        super().__init__(violation.message)


def position(game: Game, at: int | None = None, go_on: str | None = None) -> Position:
    """Replay ``game`` up to position ``at`` (default: after the last action).

    Raises :class:`Unreachable` when the replay stops at an illegal action before
    ``at`` (one neither taken back nor standing as played), with the violation
    filled in as the adjudicator would (index, player, action).  ``go_on`` reads
    every unmarked illegal action as 'taken back' or 'stands'.
    """
    stop = len(game.actions) if at is None else at
    if not 0 <= stop <= len(game.actions):
        raise ValueError(f"position {stop} is not in 0-{len(game.actions)}")
    table = Table.from_game(game)
    done = replay(table, game.actions[:stop], full=False, marks=game.marks, go_on=go_on)
    halted = [v for v in done.violations if v.table is None or v.unplayable is not None]
    if halted:
        raise Unreachable(halted[0])
    state = table.state
    names = game.players
    pairs = engine.unseen_actions(state)
    unseen = forms((a for a, note in pairs if note is None), names)
    unless = [(a.record_form(names), note) for a, note in pairs if note is not None]
    return Position(
        stop, len(game.actions), state, forms(engine.legal_actions(state), names), unseen, unless
    )
