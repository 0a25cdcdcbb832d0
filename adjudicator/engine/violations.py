"""Violation: what an illegal action broke, in table language."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.exceptions import AdjudicatorError


class Violation:
    """A broken rule: stable ``rule`` id (see docs/rules.md) and the reason.

    ``index`` and ``player`` are filled in by the adjudicator (the engine does
    not know where in the record an action stands); ``alternatives`` lists the
    legal actions at that point in record notation.

    The reason is built when it is first read: generating legal actions by
    ``check`` refuses many candidates whose reasons nobody reads.  Build one with
    ``Violation(rule, message)``, or lazily with :meth:`later` (the words from
    a function of values that do not change, never of the mutable state).
    """

    __slots__ = (
        "_args",
        "_message",
        "_words",
        "action",
        "alternatives",
        "comment",
        "game",
        "index",
        "invalid",
        "place",
        "player",
        "rule",
        "table",
        "to_act",
        "undetermined",
        "unplayable",
        "with_unseen",
    )

    def __init__(
        self,
        rule: str,
        message: str,
        index: int | None = None,
        player: str | None = None,
        action: str | None = None,
        alternatives: list[str | dict[str, Any]] | None = None,
        undetermined: bool = False,
        invalid: bool = False,
        game: int | None = None,
        with_unseen: int = 0,
    ) -> None:
        self.rule = rule
        self._message: str | None = message
        self._words: Callable[..., str] | None = None
        self._args: tuple[Any, ...] = ()
        self.index = index
        self.player = player
        self.action = action
        self.alternatives: list[str | dict[str, Any]] = [] if alternatives is None else alternatives
        self.undetermined = undetermined
        """The check could not be made: it depends on cards nobody knows (the action stands)."""
        self.invalid = invalid
        """Not a rule broken but a record that lacks what the table saw (a dare on an unknown
        stock that names no card): the record is invalid."""
        self.game = game
        """In a session: the game (0-based) the violation belongs to."""
        self.with_unseen = with_unseen
        """How many more actions would be legal with a card nobody has seen (``??``)."""
        self.table: str | None = None
        """What the table did about the action: 'taken back', 'stands', or None (the replay
        stopped there)."""
        self.unplayable: str | None = None
        """Why an action the table let stand could not be carried out (the replay stopped)."""
        self.comment: str | None = None
        """The note a person wrote beside the action in the record (filled in by the
        adjudicator, as ``index``): carried with the violation, never read by a rule."""
        self.place: str | None = None
        """Where the action stands in the app's log it was imported from (``events[41]``),
        filled in for a log checked as it is read: the log's own words for the place."""
        self.to_act: tuple[str, ...] | None = None
        """Whose the ``alternatives`` are when they are not the actor's (names, in seat
        order): the actor had no legal action there (an illegal sluff) and another player
        is to act; joined in the language speaking where it is said."""

    @classmethod
    def later(
        cls,
        rule: str,
        words: Callable[..., str],
        *args: Any,
        undetermined: bool = False,
        invalid: bool = False,
    ) -> Violation:
        """A violation whose message is ``words(*args)``, built on first read.

        ``args`` must be values the game does not change afterwards (names,
        card tuples, numbers): the state goes on being mutated in place.
        """
        out = cls.__new__(cls)
        out.rule = rule
        out._message = None
        out._words = words
        out._args = args
        out.index = None
        out.player = None
        out.action = None
        out.alternatives = []
        out.undetermined = undetermined
        out.invalid = invalid
        out.game = None
        out.with_unseen = 0
        out.table = None
        out.unplayable = None
        out.comment = None
        out.place = None
        out.to_act = None
        return out

    def replace(self, **changes: Any) -> Violation:
        """A copy with ``changes`` (fields by name); the message is built if it was not."""
        out = Violation(self.rule, self.message)
        for name in self.__slots__:
            if not name.startswith("_") and name != "rule":
                setattr(out, name, getattr(self, name))
        for name, value in changes.items():
            setattr(out, name, value)
        return out

    @property
    def message(self) -> str:
        """The reason in table language (built now if nobody has read it yet)."""
        text = self._message
        if text is None:
            assert self._words is not None
            text = self._message = self._words(*self._args)
            self._words = None
            self._args = ()
        return text

    @message.setter
    def message(self, text: str) -> None:
        self._message = text
        self._words = None
        self._args = ()

    def _fields(self) -> tuple[Any, ...]:
        return (
            self.rule,
            self.message,
            self.index,
            self.player,
            self.action,
            self.alternatives,
            self.undetermined,
            self.invalid,
            self.game,
            self.with_unseen,
        )

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return bool(self._fields() == other._fields())

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass was

    def __repr__(self) -> str:
        names = [
            "rule",
            "message",
            "index",
            "player",
            "action",
            "alternatives",
            "undetermined",
            "invalid",
            "game",
            "with_unseen",
        ]
        inner = ", ".join(f"{n}={v!r}" for n, v in zip(names, self._fields(), strict=True))
        return f"Violation({inner})"


class IllegalActionError(AdjudicatorError, ValueError):
    """An action the rules forbid; ``violation`` says which rule, why, and what was legal.
    Raised by ``Table.push`` and :func:`adjudicator.engine.push` (a ``ValueError`` too: the
    input is wrong)."""

    def __init__(self, violation: Violation) -> None:
        self.violation = violation
        super().__init__(f"{violation.rule}: {violation.message}")
