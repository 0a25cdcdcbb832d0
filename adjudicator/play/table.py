"""A table to step through, as python-chess has ``Board``.

>>> from adjudicator import Table, load_record
>>> table = Table.from_game(load_record("sample_games/pagat_3p_full.json"))
>>> table.players
('Anna', 'Bo', 'Cai')

Its actions go through the one replay loop's checks (:mod:`adjudicator.play.replaying`,
whose names are also here: :func:`replay`, :class:`Replay`, :class:`Step`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from adjudicator import engine
from adjudicator.actions import Action
from adjudicator.cards import UNKNOWN, Card, card_code
from adjudicator.engine.events import Event
from adjudicator.engine.state import OVER, PHASE_ONE, State, TableView
from adjudicator.engine.violations import IllegalActionError, Violation
from adjudicator.invalid import shown
from adjudicator.play import words
from adjudicator.play.listing import forms
from adjudicator.play.replaying import (
    STANDS,
    TAKEN_BACK,
    Replay,
    Step,
    _complete,
    cannot_play,
    replay,
)
from adjudicator.record import FORMAT, ActionObject, Game, RecordError, load_record
from adjudicator.record.notation import read_object, read_text

__all__ = [
    "STANDS",
    "TAKEN_BACK",
    "IllegalActionError",
    "Outcome",
    "Replay",
    "Step",
    "Table",
    "cannot_play",
    "replay",
]


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: who lost, and who went out in which order."""

    losers: tuple[str, ...]
    out_order: tuple[tuple[str, ...], ...]

    @property
    def loser(self) -> str | None:
        """The one loser, or None when several lost together (or nobody)."""
        return self.losers[0] if len(self.losers) == 1 else None


class Table:
    """A game in progress: ask what is legal, check an action, push it, copy, look.

    Actions are :class:`Action` values or record notation (``"Anna play 7H"``); a
    seat or card that is not at this table is a :class:`ValueError`, an action the
    rules forbid an :class:`IllegalActionError`.
    """

    __slots__ = ("_history", "game", "state")

    def __init__(self, game: Game, state: State, history: list[Action]) -> None:
        self.game = game
        """The record the table was set from (its actions are not applied by themselves)."""
        self.state = state
        self._history = history

    @classmethod
    def from_game(cls, game: Game) -> Table:
        """The table before the first action of ``game`` (dealt, or its start position)."""
        if not isinstance(game, Game):
            raise TypeError(f"a table is set from a Game (load_record's), not {shown(game)}")
        return cls(game, engine.new_state(game), [])

    @classmethod
    def new(
        cls,
        variant: str,
        players: Sequence[str],
        *,
        deck: Sequence[str | Card] | None = None,
        start: dict[str, Any] | None = None,
        **record: Any,
    ) -> Table:
        """A fresh table: ``deck`` top card first (codes such as ``"7H"``), or a ``start``
        position; other record fields (``first_leader``, ``dealer``, ``options``, ``trump``)
        as a record writes them.  Raises :class:`RecordError` for what a record may not say,
        ``ValueError`` for both a deck and a start (or neither).
        """
        if (deck is None) == (start is None):
            raise ValueError("a new table needs a deck or a start position (one of them)")
        data: dict[str, Any] = {
            "format": FORMAT,
            "variant": variant,
            "players": list(players) if isinstance(players, list | tuple) else players,
            "actions": [],
        }
        data.update(record)
        if isinstance(deck, list | tuple):  # cards as codes or numbers; anything else as given
            data["deck"] = [_code(c) if type(c) is int else c for c in deck]
        elif deck is not None:
            data["deck"] = deck
        else:
            data["start"] = start
        return cls.from_game(load_record(data))

    # --- looking ------------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        return self.state.names

    @property
    def history(self) -> tuple[Action, ...]:
        """The actions pushed so far, in order."""
        return tuple(self._history)

    @property
    def turn(self) -> str | None:
        """Who is to play, or None (a deal is due, or the game is over)."""
        turn = self.state.turn
        return self.state.names[turn] if turn is not None else None

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        state = self.state
        if not state.finished:
            return None
        names = state.names
        return Outcome(
            tuple(names[p] for p in state.losers),
            tuple(tuple(names[p] for p in group) for group in state.out_order),
        )

    def view(self) -> TableView:
        """A frozen picture of the table now."""
        return self.state.view()

    @property
    def legal_actions(self) -> list[Action]:
        """Every legal action now (a pick or a dare without naming its cards)."""
        return engine.legal_actions(self.state)

    def legal_forms(self) -> list[str | dict[str, Any]]:
        """The legal actions as written in a record (a deal in its object form)."""
        return forms(engine.legal_actions(self.state), self.state.names)

    def __repr__(self) -> str:
        state = self.state
        names = ", ".join(state.names)
        if state.phase == OVER:
            losers = " and ".join(state.names[p] for p in state.losers) or "nobody"
            now = f"over, {losers} lost"
        elif state.stopped is not None:
            now = "not followed further"
        else:
            phase = "phase one" if state.phase == PHASE_ONE else "phase two"
            who = self.turn
            now = f"{phase}, {who} to play" if who is not None else f"{phase}, a deal is due"
        return f"<Table {self.game.variant}: {names}; {now}; {len(self._history)} actions>"

    # --- acting -------------------------------------------------------------------

    def parse(self, text: str | dict[str, Any]) -> Action:
        """An action in record notation (``"Anna play 7H"``, or a deal's object form)."""
        if not isinstance(text, str | dict):
            raise TypeError(f"an action is written as a string or an object, not {shown(text)}")
        names = {name: i for i, name in enumerate(self.state.names)}
        try:
            if isinstance(text, dict):
                return read_object(ActionObject.model_validate(text), names)
            return read_text(text, names)
        except RecordError as exc:
            raise RecordError("", f"{shown(text)}: {exc.message}") from None
        except ValueError:  # pydantic's ValidationError
            raise RecordError("", f"{shown(text)} is not an action") from None

    def _action(self, action: Action | str | dict[str, Any]) -> Action:
        """``action`` as an :class:`Action` whose seats and cards are at this table."""
        if not isinstance(action, Action):
            if isinstance(action, str | dict):
                return self.parse(action)
            raise TypeError(f"an action is an Action or a string, not {shown(action)}")
        n = self.state.n
        seats = [action.player, *(p for p, _ in action.to)]
        for seat in seats:
            if not isinstance(seat, int) or not 0 <= seat < n:
                raise ValueError(f"seat {shown(seat)} is not at this table (0 to {n - 1})")
        for card in (*action.cards, *(c for _, cards in action.to for c in cards)):
            if not isinstance(card, int) or not (0 <= card < 52 or card == UNKNOWN):
                raise ValueError(f"{shown(card)} is not a card (0 to 51)")
        return action

    def check(self, action: Action | str | dict[str, Any]) -> Violation | None:
        """Why ``action`` is illegal now (with the legal alternatives), or None.

        A check that depends on cards nobody knows comes back ``undetermined``:
        such an action may still be pushed.
        """
        action = self._action(action)
        bad = engine.check(self.state, action)
        if bad is not None:
            _complete(bad, self.state, action, len(self._history), full=True)
        return bad

    def push(self, action: Action | str | dict[str, Any]) -> list[Event]:
        """Make ``action``; what it did and what followed (see :mod:`adjudicator.play.words`).

        Raises :class:`IllegalActionError` when the rules forbid it.
        """
        action = self._action(action)
        bad = engine.check(self.state, action)
        if bad is not None and (bad.invalid or not bad.undetermined):
            _complete(bad, self.state, action, len(self._history), full=True)
            raise IllegalActionError(bad)
        happened = engine.step(self.state, action)
        self._history.append(action)
        return happened

    def pop(self) -> Action:
        """Take back the last action pushed and return it: the table is as it was before it.

        What undo, "take it back" and "play on from here" are built on, as python-chess's
        ``Board.pop``.  The engine keeps no undo log (replay mutates one state in place, and
        a log would slow every push), so the position is replayed from the table's start
        through the actions that remain: a few milliseconds for a whole game.  Raises
        :class:`IndexError` when nothing was pushed.
        """
        if not self._history:
            raise IndexError("pop from a table with no action pushed")
        action = self._history.pop()
        state = engine.new_state(self.game)
        for earlier in self._history:
            engine.step(state, earlier)  # as push made it, so the state is the same
        self.state = state
        return action

    def say(self, events: Sequence[Event]) -> list[str]:
        """Events in table words, one each."""
        return [words.say(e, self.state.names) for e in events]

    def copy(self) -> Table:
        """An independent table in the same position (push on one, the other stays)."""
        state = self.state.clone()
        state.ahead = None
        state.events = ()
        return Table(self.game, state, list(self._history))


def _code(card: Card) -> str:
    return card_code(card)
