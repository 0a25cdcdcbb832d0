"""A table to step through, as python-chess has ``Board``; and the one replay loop.

>>> from adjudicator import Table, load_record
>>> table = Table.from_game(load_record("sample_games/pagat_3p_full.json"))
>>> table.players
('Anna', 'Bo', 'Cai')

:func:`replay` is the only loop that replays a record: :func:`adjudicate`
(the verdict), :func:`legal.position` (what was legal at a point) and the
state before a late-found violation all go through it, so each completes a
:class:`Violation` the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from adjudicator import engine, words
from adjudicator.actions import Action
from adjudicator.cards import UNKNOWN, Card
from adjudicator.engine import phase_one_all
from adjudicator.engine.events import Event
from adjudicator.engine.state import OVER, PHASE_ONE, State, TableView
from adjudicator.engine.violations import Violation
from adjudicator.record import FORMAT, ActionObject, Game, RecordError, load_record
from adjudicator.record.notation import read_object, read_text

__all__ = ["IllegalActionError", "Outcome", "Replay", "Step", "Table", "replay"]


class IllegalActionError(ValueError):
    """An action the rules forbid; ``violation`` says which rule, why, and what was legal."""

    def __init__(self, violation: Violation) -> None:
        self.violation = violation
        super().__init__(f"{violation.rule}: {violation.message}")


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: who lost, and who went out in which order."""

    losers: tuple[str, ...]
    out_order: tuple[tuple[str, ...], ...]

    @property
    def loser(self) -> str | None:
        """The one loser, or None when several lost together (or nobody)."""
        return self.losers[0] if len(self.losers) == 1 else None


@dataclass
class Step:
    """One applied (or rejected) action and the table after it."""

    index: int
    action: str
    table: TableView
    happened: list[Event]
    """The act in its context and what followed from it (see :func:`engine.step`)."""
    violation: Violation | None = None
    notes: list[Violation] = field(default_factory=list)
    """Checks of this action that could not be made (cards nobody knows)."""

    @property
    def words(self) -> str:
        """The act in table words (``Bo beats 9♥ with 10♥``), after what it first ended."""
        return words.act_and_consequences(self.happened, self.table.names)[0]

    @property
    def events(self) -> list[str]:
        """What followed from the act by itself: "bounce", "Cai takes the trick", ..."""
        return words.act_and_consequences(self.happened, self.table.names)[1]


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
        as a record writes them.  Raises :class:`RecordError` for what a record may not say.
        """
        if (deck is None) == (start is None):
            raise ValueError("give a deck or a start position")
        data: dict[str, Any] = {
            "format": FORMAT,
            "variant": variant,
            "players": list(players),
            "actions": [],
        }
        data.update(record)
        if deck is not None:
            data["deck"] = [c if isinstance(c, str) else _code(c) for c in deck]
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
        from adjudicator.legal import forms

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
        names = {name: i for i, name in enumerate(self.state.names)}
        try:
            if isinstance(text, dict):
                return read_object(ActionObject.model_validate(text), names)
            return read_text(text, names)
        except RecordError as exc:
            raise ValueError(f"{text!r}: {exc.message}") from None
        except ValueError as exc:  # pydantic's ValidationError
            raise ValueError(f"{text!r} is not an action") from exc

    def _action(self, action: Action | str | dict[str, Any]) -> Action:
        """``action`` as an :class:`Action` whose seats and cards are at this table."""
        if not isinstance(action, Action):
            if isinstance(action, str | dict):
                return self.parse(action)
            raise TypeError(f"an action is an Action or a string, not {type(action).__name__}")
        n = self.state.n
        seats = [action.player, *(p for p, _ in action.to)]
        for seat in seats:
            if not isinstance(seat, int) or not 0 <= seat < n:
                raise ValueError(f"seat {seat!r} is not at this table (0 to {n - 1})")
        for card in (*action.cards, *(c for _, cards in action.to for c in cards)):
            if not isinstance(card, int) or not (0 <= card < 52 or card == UNKNOWN):
                raise ValueError(f"{card!r} is not a card (0 to 51)")
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
        """Make ``action``; what it did and what followed (see :mod:`adjudicator.words`).

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
    from adjudicator.cards import card_code

    return card_code(card)


def _complete(bad: Violation, state: State, action: Action, index: int, full: bool) -> None:
    """Fill in where a violation stands and what was legal instead."""
    names = state.names
    bad.index = index
    bad.player = names[action.player]
    if bad.undetermined or bad.invalid:
        return
    from adjudicator.legal import forms

    bad.action = action.text(names)
    legal = engine.legal_actions(state)
    bad.alternatives = forms(legal, names)
    others = {a.player for a in legal}
    if others and action.player not in others:
        who = [names[p] for p in sorted(others)]
        bad.to_act = who[0] if len(who) == 1 else ", ".join(who[:-1]) + " or " + who[-1]
    if full and (state.hidden_anywhere() or UNKNOWN in state.stock):
        bad.with_unseen = len(engine.unseen_actions(state))


# --- the one replay loop ------------------------------------------------------------


_NO_NOTES: tuple[Violation, ...] = ()


@dataclass
class Replay:
    """What replaying a record's actions on a table found."""

    applied: int = 0
    violation: Violation | None = None
    """The first rule broken (the replay stopped there), completed with the alternatives."""
    undetermined: list[Violation] = field(default_factory=list)
    stopped: bool = False
    """The game's course depends on cards nobody knows; it was not followed further."""
    steps: list[Step] = field(default_factory=list)


def replay(
    table: Table, actions: Sequence[Action], *, steps: bool = False, full: bool = True
) -> Replay:
    """Check and apply ``actions`` in order on ``table`` until one is illegal.

    With ``steps`` every action keeps its events and the table after it.  ``full``
    also counts what would be legal with unseen cards and lists the alternatives
    of a violation found late.  Raises :class:`RecordError` for a record that lacks
    what the table saw.
    """
    state = table.state
    names = state.names
    history = table._history
    out = Replay()
    if state.stopped is not None:
        out.undetermined.append(_stopped(state, None))
    check = engine.check
    apply = engine.apply
    base = len(history)
    applied = 0
    for offset, action in enumerate(actions):
        if state.stopped is not None:
            break
        bad = check(state, action)
        notes: Sequence[Violation] = _NO_NOTES
        if bad is not None:
            index = base + offset
            bad.index = index
            bad.player = names[action.player]
            if bad.invalid:
                raise RecordError(f"actions[{index}]", bad.message)
            if bad.rule == "game.stopped":  # the act would pass into a course nobody knows
                bad.index = index - 1 if index else None
                bad.player = None
                out.undetermined.append(bad)
                out.stopped = True
                break
            if bad.undetermined:
                out.undetermined.append(bad)
                notes = [bad]
            else:
                _complete(bad, state, action, index, full)
                out.violation = bad
                if steps:
                    said = engine.describe(state, action)
                    out.steps.append(Step(index, bad.action or "", state.view(), said, bad))
                break
        if steps:
            happened = engine.step(state, action)
            text = action.text(names)
            out.steps.append(Step(base + offset, text, state.view(), happened, None, list(notes)))
        else:
            apply(state, action)
        applied += 1
        if state.late is not None:
            history.extend(actions[:applied])
            out.violation = _late(table, full)
            out.applied = out.violation.index or 0
            out.stopped = state.stopped is not None
            return out
        if state.stopped is not None:
            out.undetermined.append(_stopped(state, base + offset))
    history.extend(actions[:applied])
    out.applied = applied
    out.stopped = out.stopped or state.stopped is not None
    return out


def _late(table: Table, full: bool) -> Violation:
    """A rule broken earlier found only now (restriction #2): reported at its action."""
    late = table.state.late
    assert late is not None and late.index is not None
    names = table.state.names
    history = table._history
    late.action = history[late.index].text(names)
    if not full:
        return late
    before = Table.from_game(table.game).state
    for action in history[: late.index]:
        engine.apply(before, action)
    # What was legal there, knowing now that the trick was the last: no sluff by a
    # player who could still win it.
    allowed = [
        a
        for a in engine.legal_actions(before)
        if a.act != "sluff" or not phase_one_all.could_win(before, a.player)
    ]
    from adjudicator.legal import forms

    late.alternatives = forms(allowed, names)
    return late


def _stopped(state: State, index: int | None) -> Violation:
    """The course depends on unknown cards: where it stopped and why."""
    return Violation(
        "game.stopped",
        f"The game cannot be followed further: {state.stopped}",
        index,
        undetermined=True,
    )
