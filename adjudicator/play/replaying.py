"""The one replay loop: check and apply a record's actions on a table, in order.

:func:`replay` is the only loop that replays a record: :func:`adjudicate`
(the verdict), :func:`legal.position` (what was legal at a point) and the
state before a late-found violation all go through it, so each completes a
:class:`Violation` the same way.  It runs once per action of every record
checked, so it is compiled with the engine (setup.py); :class:`Table`, the
public face, stays in :mod:`adjudicator.play.table`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from adjudicator import engine
from adjudicator.actions import Action
from adjudicator.cards import UNKNOWN, Card, card_text, cards_text
from adjudicator.engine import phase_one_all
from adjudicator.engine.events import Event
from adjudicator.engine.state import FIELDS, OVER, PHASE_ONE, State, TableView
from adjudicator.engine.violations import Violation
from adjudicator.i18n import _
from adjudicator.play import words
from adjudicator.play.listing import forms
from adjudicator.record import RecordError

if TYPE_CHECKING:
    from adjudicator.play.table import Table


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


def _complete(bad: Violation, state: State, action: Action, index: int, full: bool) -> None:
    """Fill in where a violation stands and what was legal instead."""
    names = state.names
    bad.index = index
    bad.player = names[action.player]
    if bad.undetermined or bad.invalid:
        return
    bad.action = action.text(names)
    legal = engine.legal_actions(state)
    bad.alternatives = forms(legal, names)
    others = {a.player for a in legal}
    if others and action.player not in others:
        bad.to_act = tuple(names[p] for p in sorted(others))
    if full and (state.hidden_anywhere() or UNKNOWN in state.stock):
        bad.with_unseen = len(engine.unseen_actions(state))


# --- the one replay loop ------------------------------------------------------------


_NO_NOTES: tuple[Violation, ...] = ()
_NO_MARKS: dict[int, str] = {}
TAKEN_BACK, STANDS = "taken back", "stands"


@dataclass
class Replay:
    """What replaying a record's actions on a table found."""

    applied: int = 0
    """How many actions were gone through: applied, or taken back as the table did."""
    violation: Violation | None = None
    """The rule broken where the replay stopped (or, when the table went on past every
    irregularity, the last one), completed with the alternatives."""
    undetermined: list[Violation] = field(default_factory=list)
    stopped: bool = False
    """The game's course depends on cards nobody knows; it was not followed further."""
    steps: list[Step] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    """Every rule broken, in order: those the table took back or let stand, then the one
    the replay stopped at (if any)."""
    notes: list[Violation] = field(default_factory=list)
    """Legal actions the table took back anyway ("taken back, though legal")."""


def replay(
    table: Table,
    actions: Sequence[Action],
    *,
    steps: bool = False,
    full: bool = True,
    marks: Mapping[int, str] = _NO_MARKS,
    go_on: str | None = None,
) -> Replay:
    """Check and apply ``actions`` in order on ``table`` until one is illegal.

    ``marks`` says, by record index, what the table did about an action ('taken back':
    checked, reported, not applied; 'stands': applied as played even if illegal);
    ``go_on`` is that for every unmarked illegal action (None: the replay stops there).
    With ``steps`` every action keeps its events and the table after it.  ``full``
    also counts what would be legal with unseen cards and lists the alternatives
    of a violation found late.  Raises :class:`RecordError` for a record that lacks
    what the table saw.
    """
    telling = table.state.telling
    table.state.telling = steps  # only steps read what each act caused
    try:
        return _replay(table, actions, steps, full, marks, go_on)
    finally:
        table.state.telling = telling


def _replay(
    table: Table,
    actions: Sequence[Action],
    steps: bool,
    full: bool,
    marks: Mapping[int, str],
    go_on: str | None,
) -> Replay:
    state = table.state
    names = state.names
    history = table._history
    out = Replay()
    if _halted(state):
        out.undetermined.append(_stopped(state, None))
    check = engine.check
    apply = engine.apply
    base = len(history)
    applied = 0
    if not steps and not marks and go_on is None and not _halted(state):
        # The common case (a bulk check): legal actions applied one after another, nothing
        # kept per action.  The first action that is not plainly legal, or that ends in a
        # course nobody can follow, goes on to the full loop below.
        for action in actions:
            if check(state, action) is not None:
                break
            apply(state, action)
            applied += 1
            if state.late is not None or _halted(state):
                break
        history.extend(actions[:applied])
        if state.late is not None:
            return _ended_late(out, table, full, None)
        if _halted(state):
            out.undetermined.append(_stopped(state, base + applied - 1))
    # Where each applied action stands in the record, once actions taken back make the two
    # counts differ (a violation found late names its action by the count of applied ones).
    positions: list[int] | None = list(range(base)) if marks or go_on else None
    for offset in range(applied, len(actions)):
        action = actions[offset]
        if _halted(state):
            break
        index = base + offset
        bad = check(state, action)
        notes: Sequence[Violation] = _NO_NOTES
        mark = marks.get(index) if marks else None
        if bad is not None:
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
                out.violations.append(bad)
                bad.table = mark or go_on
                if bad.table == TAKEN_BACK:
                    if steps:
                        out.steps.append(_step_of(state, action, bad))
                    applied += 1
                    continue
                if bad.table == STANDS:
                    happened = _as_played(state, action, bad)
                    if happened is not None:
                        history.append(action)
                        if positions is not None:
                            positions.append(index)
                        applied += 1
                        if steps:
                            out.steps.append(
                                Step(index, bad.action or "", state.view(), happened, bad)
                            )
                        if _halted(state):
                            out.undetermined.append(_stopped(state, index))
                        continue
                if steps:
                    out.steps.append(_step_of(state, action, bad))
                break
        if mark == TAKEN_BACK:  # a legal (or undetermined) act the table withdrew anyway
            note = Violation.later("table.taken_back", words.taken_back_though_legal)
            note.index = index
            note.player = names[action.player]
            note.action = action.text(names)
            note.table = TAKEN_BACK
            out.notes.append(note)
            if steps:
                out.steps.append(Step(index, note.action, state.view(), _said(state, action), note))
            applied += 1
            continue
        if steps:
            happened = engine.step(state, action)
            text = action.text(names)
            out.steps.append(Step(index, text, state.view(), happened, None, list(notes)))
        else:
            apply(state, action)
        history.append(action)
        if positions is not None:
            positions.append(index)
        applied += 1
        if state.late is not None:
            return _ended_late(out, table, full, positions)
        if _halted(state):
            out.undetermined.append(_stopped(state, index))
    out.applied = applied
    out.stopped = out.stopped or _halted(state)
    return out


def _ended_late(out: Replay, table: Table, full: bool, positions: list[int] | None) -> Replay:
    """The replay ends at a rule broken earlier and found only now (restriction #2)."""
    out.violation = _late(table, full)
    if positions is not None and out.violation.index is not None:
        out.violation.index = positions[out.violation.index]
    out.violations.append(out.violation)
    out.applied = out.violation.index or 0
    out.stopped = table.state.stopped is not None
    return out


def _said(state: State, action: Action) -> list[Event]:
    """The act in its context, if the engine can say it here (an irregular act may not fit)."""
    try:
        return engine.describe(state, action)
    except (AssertionError, IndexError, KeyError, ValueError, TypeError):
        return []


def _step_of(state: State, action: Action, bad: Violation) -> Step:
    """A step for an action that was not applied: the table as it was."""
    return Step(bad.index or 0, bad.action or "", state.view(), _said(state, action), bad)


def _conserved(state: State) -> tuple[list[Card], int]:
    """What conservation compares: the known cards anywhere, and how many are unknown."""
    return sorted(state.all_cards()), state.unknown_places()


def cannot_play(state: State, action: Action) -> str | None:
    """Why ``action`` cannot be carried out at all, as played, or None when it can.

    The cards must be where the act takes them from, and the act must have a place
    in the game now; everything else a standing irregularity may break.
    """
    made_in = engine.made_in(state, action)
    if made_in is not state:  # it first ends a sluffing window: judged where it is made
        return cannot_play(made_in, action)
    names = state.names
    who = names[action.player]
    act = action.act
    if state.phase == OVER:
        return _("the game is already over")
    if act not in state.acts:
        return _("these rules have no '{act}'").format(act=act)
    if state.phase != PHASE_ONE and act in (
        "sluff",
        "take",
        "exchange",
        "set_aside",
        "dare",
        "draw",
    ):
        return _("phase two has no place for '{act}'").format(act=act)
    if act == "deal" and state.deal is None and state.decided is None:
        return _("nothing is to be dealt now")
    if act != "deal" and state.deal is not None:
        return _("a deal is due: nothing else can be played before it")
    if act in ("play", "sluff", "exchange", "set_aside"):
        if not action.cards:
            return _("{name} names no card").format(name=who)
        pairs = state.phase == PHASE_ONE and state.options.phase_one == "pairs"
        if pairs and act == "play" and len(action.cards) > 1:
            return _("a two-card trick takes one card from each player")
        answering = len(state.trick) % 2 and state.turn != action.player
        if pairs and act == "play" and answering and action.player == state.leader:
            return _("{name} would answer their own lead").format(name=who)
        hand = list(state.hands[action.player])
        hidden = state.hidden[action.player]
        for card in action.cards:
            if card in hand:
                hand.remove(card)
            elif hidden and state.unseen[card]:
                hidden -= 1
            else:
                return _("{name} does not hold {card}").format(name=who, card=card_text(card))
    if act == "pick" and not state.trick and state.decided is None:
        return _("there is no trick to pick up")
    if act == "dare" and not state.stock:
        return _("the stock is empty")
    if act in ("pick", "dare") and action.cards:
        moved = sorted(engine.moved_cards(state, action))
        if moved and moved != sorted(action.cards):  # a card nobody knows is named freely
            said = (
                _("the pick names {cards}, but it moves {moved}")
                if act == "pick"
                else _("the dare names {cards}, but it moves {moved}")
            )
            return said.format(cards=cards_text(action.cards), moved=cards_text(moved))
    return None


def takes_the_turn(state: State, action: Action) -> None:
    """Out of turn, the player plays now, in the place of the one whose turn it was, and
    the game goes on from them: in a two-card trick they lead it, or answer the lead."""
    p = action.player
    if action.act not in ("play", "pick", "dare") or state.turn in (None, p):
        return
    if state.deal is not None or state.decided is not None:
        return
    if state.phase == PHASE_ONE and state.options.phase_one == "pairs":
        if len(state.trick) % 2 == 0:
            state.leader = p
            state.second = state.next_with_cards(p)
        elif p != state.leader:
            state.second = p
        else:
            return  # the leader plays again onto their own card: no place for it
    state.turn = p


def _as_played(state: State, action: Action, bad: Violation) -> list[Event] | None:
    """Carry out an illegal action the table let stand, as played; what followed.

    Tried on a copy first: when the cards cannot go where the action says (or the
    engine finds no way to carry it out), ``bad.unplayable`` says why and the table
    is left as it was (None).
    """
    reason = cannot_play(state, action)
    happened: list[Event] = []
    trial = state.clone()
    if reason is None:
        before = _conserved(state)
        takes_the_turn(trial, action)
        try:
            happened = engine.step(trial, action)
        except (AssertionError, IndexError, KeyError, ValueError, TypeError, ZeroDivisionError):
            reason = _("the rules give no way to go on from it")
        else:
            if _conserved(trial) != before:
                reason = _("the cards would not add up after it")
    if reason is not None:
        bad.unplayable = _("It cannot stand as played: {why}").format(why=reason)
        return None
    for name in FIELDS:
        setattr(state, name, getattr(trial, name))
    return happened


def _late(table: Table, full: bool) -> Violation:
    """A rule broken earlier found only now (restriction #2): reported at its action."""
    late = table.state.late
    assert late is not None and late.index is not None
    names = table.state.names
    history = table._history
    late.action = history[late.index].text(names)
    if not full:
        return late
    before = engine.new_state(table.game)
    for action in history[: late.index]:
        engine.apply(before, action)
    # What was legal there, knowing now that the trick was the last: no sluff by a
    # player who could still win it.
    allowed = [
        a
        for a in engine.legal_actions(before)
        if a.act != "sluff" or not phase_one_all.could_win(before, a.player)
    ]
    late.alternatives = forms(allowed, names)
    return late


def _halted(state: State) -> bool:
    """Whether the game's course stopped, read afresh: an act applied since the last look
    may have stopped it, which a type checker's narrowing of ``state.stopped`` (and so
    the compiled engine, see setup.py) would not see."""
    return state.stopped is not None


def _stopped(state: State, index: int | None) -> Violation:
    """The course depends on unknown cards: where it stopped and why."""
    stopped = Violation.later(
        "game.stopped", words.cannot_be_followed, state.stopped, undetermined=True
    )
    stopped.index = index
    return stopped
