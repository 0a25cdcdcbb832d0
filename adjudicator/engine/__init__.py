"""The rules engine: ``legal_actions``, ``check`` and ``apply`` on one State.

``check`` is the one source of legality: ``legal_actions`` is the list of
candidate actions that ``check`` passes, so the two cannot disagree.

A check that depends on cards nobody knows returns a violation marked
``undetermined``: the action stands and play goes on.  Where the course of the
game itself depends on such cards, the state records why in ``stopped`` and
the game is followed no further.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from adjudicator.actions import ANY_TIME, Action
from adjudicator.cards import UNKNOWN, Card, suit
from adjudicator.engine import deals, intermission, phase_one_all, phase_one_pairs, phase_two
from adjudicator.engine import events as ev
from adjudicator.engine.common import can_dare
from adjudicator.engine.events import Event, note
from adjudicator.engine.phase_two import start_phase_two
from adjudicator.engine.state import (
    OVER,
    PHASE_ONE,
    PHASE_TWO,
    State,
    TableView,
    variant_acts,
)
from adjudicator.engine.violations import IllegalActionError, Violation
from adjudicator.game import Game
from adjudicator.i18n import _
from adjudicator.rules.deal import deal_layout

__all__ = [
    "Event",
    "IllegalActionError",
    "State",
    "TableView",
    "Violation",
    "apply",
    "check",
    "close_window",
    "describe",
    "ends_when_window_closes",
    "legal_actions",
    "legal_by_check",
    "moved_cards",
    "new_state",
    "push",
    "step",
    "unseen_actions",
    "variant_acts",
]


def _split(cards: list[Card]) -> tuple[list[Card], int]:
    """Known cards and how many are unknown."""
    known = [c for c in cards if c != UNKNOWN]
    return known, len(cards) - len(known)


def new_state(game: Game) -> State:
    """The table before the first action: dealt from the deck, or the start position."""
    options = game.options
    state = State(options, game.players)
    state.trump_hint = game.trump_hint
    state.first_leader = game.first_leader
    state.dealer = game.dealer
    written: list[Card] = []
    if game.deck is not None:
        assert game.first_leader is not None
        written = list(game.deck)
        _deal(state, game, list(game.deck))
    else:
        start = game.start
        assert start is not None
        for hand in start.hands:
            written += hand
        for i, hand in enumerate(start.hands):
            state.hands[i], state.hidden[i] = _split(hand)
        if start.phase == 2:
            state.trump = start.trump
            _unseen(state, written, 52 * options.decks - start.written)
            start_phase_two(state, start.leader)
            return state
        _start_phase_one(state, game, written)
        return state
    _unseen(state, written, 0)
    _begin(state, game.first_leader)
    return state


def _unseen(state: State, written: list[Card], out_of_play: int) -> None:
    decks = state.options.decks
    known = Counter(c for c in written if c != UNKNOWN)
    state.unseen = [decks - known[c] for c in range(52)]
    state.out_hidden = out_of_play


def _deal(state: State, game: Game, deck: list[Card]) -> None:
    """Set the trump card aside (Goat), the avstickshög aside, deal, turn up (Mas), stock."""
    layout = deal_layout(game.options, state.n)
    if layout.set_aside is not None:
        state.indicator = deck[layout.set_aside]
        state.indicator_down = True
    state.reserve = [deck[i] for i in reversed(layout.reserve)]
    dealer = state.dealer
    assert dealer is not None
    for i in layout.hands:
        card = deck[i]
        player = layout.seat(i, dealer)
        if card == UNKNOWN:
            state.hidden[player] += 1
        else:
            state.hands[player].append(card)
    stock = [deck[i] for i in layout.stock]  # top card first
    if layout.turned_up is not None:
        turned = deck[layout.turned_up]
        stock.append(turned)  # face up under the stock
        state.trump = suit(turned)
    stock.reverse()
    state.stock = stock


def _start_phase_one(state: State, game: Game, written: list[Card]) -> None:
    start = game.start
    assert start is not None
    options = game.options
    for i, pile in enumerate(start.piles):
        state.piles[i], state.pile_hidden[i] = _split(pile)
        written += pile
    for i, stored in enumerate(start.stored):
        state.stored[i] = list(stored)
        written += stored
    state.stock = list(reversed(start.stock))
    state.reserve = list(reversed(start.reserve))
    written += start.stock + start.reserve
    card = start.trump_card
    if card is not None:
        if options.trump_card != "turned_up":
            written.append(card)  # a turned-up trump is also written where it lies
        if options.trump_card == "turned_up":
            state.trump = suit(card)
            state.exchanged = bool(state.stock) and state.stock[0] != card
            state.stock_done = not state.stock
        else:
            state.indicator = card
            state.indicator_down = True
            state.indicator_holder = start.trump_holder
            state.stock_done = not state.stock
    _unseen(state, written, 52 * options.decks - start.written)
    if any(start.piles):
        # Somebody has won a trick, and the winner leads the next (the Goat treatise,
        # II.D; pagat.com, 'Play in the first phase'): the leader won the last one.
        state.last_winner = start.leader
    _begin(state, start.leader)


def _begin(state: State, leader: int) -> None:
    if state.options.phase_one == "all":
        phase_one_all.begin_trick(state, leader)
    else:
        phase_one_pairs.begin_trick(state, leader)


# --- one act ahead: what the next act may end first ----------------------------------
#
# Two moments end only with the next act: the sluffing window of a decided trick
# (the next act that is not a sluff closes it: the winner takes the trick) and a
# low-card deal that hidden cards may or may not call for (the next act that is not
# a deal says there was none).  Such an act is judged in the state after that end.


_NOTHING: list[Event] | tuple[Event, ...] = ev.NOTHING
"""(Typed as ``State.events`` is: assigning it must not narrow ``state.events`` to a tuple,
which the compiled engine would hold it to after the act has made a list; see setup.py.)"""

ANOTHER_ACT = Action(0, "play")
"""Any act that is neither a sluff nor a deal: what ends a window or an optional deal."""


def _passes(state: State, action: Action) -> bool:
    """Whether ``action`` first ends a sluffing window or an optional deal."""
    due = state.deal
    if due is not None:
        return due.optional and action.act != "deal"
    return state.phase == PHASE_ONE and phase_one_all.must_close_first(state, action)


def _pass(state: State, announce: bool = True) -> None:
    """End the window (the winner takes the trick) or the optional deal (none was dealt)."""
    if state.deal is not None:
        note(state, ev.NoLowCards)
        state.deal = None
        intermission.begin_phase_two(state)
    else:
        phase_one_all.close(state, announce)


def _ahead(state: State) -> State:
    """The state once the window or optional deal has passed (cached per step)."""
    return _passed(state)[0]


def _passed(state: State) -> tuple[State, Sequence[Event]]:
    """The state once the window or optional deal has passed, and what that caused."""
    cached = state.ahead
    if cached is not None and cached[0] == state.steps:
        return cached[1], cached[2]
    other = state.clone()
    other.telling = True  # what passing causes is cached and may be read later
    other.ahead = None
    events: list[Event] = []
    other.events = events  # (a list of its own, not NOTHING: _pass adds to it in place)
    _pass(other)
    state.ahead = (state.steps, other, events)
    return other, events


def ends_when_window_closes(state: State) -> bool:
    """Whether the decided trick's sluffing window is all that keeps the game from its end.

    Then a record that stops there has closed it by silence: nobody sluffed more.
    """
    return (
        state.phase == PHASE_ONE
        and state.deal is None
        and state.decided is not None
        and state.options.sluffing not in ("none", "unlimited")
        and phase_one_all.closing_moves_on(state)
        and _ahead(state).finished
    )


def close_window(state: State) -> list[Event]:
    """Close the decided trick's sluffing window: the winner takes it (see above)."""
    state.events = [ev.WindowClosed()]
    phase_one_all.close(state)
    return list(state.events)


def _closes_into_other_state(state: State, action: Action) -> bool:
    """Whether ``action`` must be judged in the state after the window or deal has passed."""
    if not _passes(state, action):
        return False
    return state.deal is not None or phase_one_all.closing_moves_on(state)


# --- the interface ----------------------------------------------------------------


class _Rules(Protocol):
    """What each phase's module (and the deals) offers: the engine's interface per phase."""

    def check(self, state: State, action: Action) -> Violation | None: ...
    def candidates(self, state: State) -> list[Action]: ...
    def generate(self, state: State) -> list[Action] | None: ...
    def apply(self, state: State, action: Action) -> None: ...
    def whose_turn(self, state: State) -> str: ...


def _phase(state: State) -> _Rules:
    """The module whose rules apply now."""
    if state.deal is not None:
        return deals
    if state.phase == PHASE_ONE:
        return phase_one_all if state.options.phase_one == "all" else phase_one_pairs
    return phase_two


_ORDINARY = frozenset(("play", "pick", "dare"))


def check(state: State, action: Action) -> Violation | None:
    """Why ``action`` is illegal in ``state``, or None when it is legal."""
    act = action.act
    if (
        action.player == state.turn
        and act in _ORDINARY
        and act in state.acts
        and state.deal is None
        and state.decided is None
        and state.stopped is None
    ):  # the player to move plays, picks or dares: straight to the phase's rules
        if state.phase == PHASE_TWO:
            return phase_two.check(state, action)
        if state.options.phase_one == "all":
            return phase_one_all.check(state, action)
        return phase_one_pairs.check(state, action)
    return _check(state, action)


def _check(state: State, action: Action) -> Violation | None:
    names = state.names
    if state.phase == OVER:
        losers = _(" and ").join(names[p] for p in state.losers)
        if losers:
            text = _("The game is already over ({names} lost); nothing may follow")
        else:
            text = _("The game is already over (nobody holds cards); nothing may follow")
        return Violation("game.over", text.format(names=losers))
    if state.stopped is not None:
        return Violation(
            "game.stopped",
            _("The game cannot be followed further: {why}").format(why=state.stopped),
            undetermined=True,
        )
    act = action.act
    if act not in state.acts:
        return Violation(
            "act.variant", _("'{act}' is not an act of this variant's rules").format(act=act)
        )
    if (state.decided is not None or state.deal is not None) and _closes_into_other_state(
        state, action
    ):
        return check(_ahead(state), action)
    if state.deal is not None:
        return deals.check(state, action)
    if act == "deal":
        return Violation("deal.none", _("Nothing is to be dealt now: no shuffle is due"))
    if state.phase == PHASE_TWO and act in ("sluff", "take", "exchange", "set_aside"):
        return Violation(
            "phase2.act",
            _("'{act}' belongs to phase one; in phase two a player beats or picks up").format(
                act=act
            ),
        )
    module = _phase(state)
    if act in ANY_TIME:
        return module.check(state, action)  # anyone may, whenever the rules allow it
    if action.player != state.turn:
        return Violation(
            "turn.order",
            _("It is not {name}'s turn: {why}").format(
                name=names[action.player], why=module.whose_turn(state)
            ),
        )
    return module.check(state, action)


def _candidates(state: State) -> list[Action]:
    out = _phase(state).candidates(state)
    if _closes_into_other_state(state, ANOTHER_ACT):
        ahead = _ahead(state)
        out = [a for a in out if not _passes(state, a)]
        if not ahead.finished and ahead.stopped is None:
            out += _candidates(ahead)
    return out


def _generate(state: State) -> list[Action] | None:
    """The legal actions generated directly by the phase's rules, or None (use ``check``)."""
    module = _phase(state)
    if _closes_into_other_state(state, ANOTHER_ACT):
        ahead = _ahead(state)
        later = [] if ahead.finished or ahead.stopped is not None else _generate(ahead)
        here = module.generate(state)
        if later is None or here is None:
            return None
        kept = "sluff" if state.deal is None else "deal"  # what leaves the window or deal open
        return [a for a in here if a.act == kept] + later
    return module.generate(state)


def legal_actions(state: State) -> list[Action]:
    """Every legal action now (a pick or dare is listed without naming cards).

    Generated directly by the phase's rules where they allow it; otherwise (and
    in the property tests, always) the candidates that :func:`check` passes,
    which stays the one definition of legality.  With hidden cards, only actions
    that use known cards and pass every check are listed; :func:`unseen_actions`
    gives the rest.
    """
    if state.stopped is not None:
        return []
    phase = state.phase
    if state.deal is None:  # most actions: straight to the phase's rules
        if phase == PHASE_TWO:
            return phase_two.generate(state)
        if phase == PHASE_ONE and state.decided is None:  # no window to look past
            module = phase_one_all if state.options.phase_one == "all" else phase_one_pairs
            generated = module.generate(state)
            return generated if generated is not None else legal_by_check(state)
    if phase == OVER:
        return []
    generated = _generate(state)
    if generated is not None:
        return generated
    return legal_by_check(state)


def legal_by_check(state: State) -> list[Action]:
    """Every candidate action that :func:`check` passes: the definition of legality."""
    if state.phase == OVER or state.stopped is not None:
        return []
    acts = state.acts
    seen: set[Action] = set()
    out = []
    for action in _candidates(state):
        if action.act in acts and action not in seen and check(state, action) is None:
            seen.add(action)
            out.append(action)
    return out


def unseen_actions(state: State) -> list[tuple[Action, Violation | None]]:
    """Actions that would be legal with a card nobody has seen: a play (or dare) of each
    unseen card by each player who could hold it, with the check that could not be made
    (None when the action would simply be legal)."""
    if state.phase == OVER or state.stopped is not None or state.deal is not None:
        return []
    unseen = [c for c in range(52) if state.unseen[c]]
    out: list[tuple[Action, Violation | None]] = []
    tries: list[Action] = []
    for player in range(state.n):
        if state.hidden[player]:
            tries += [Action(player, "play", (c,)) for c in unseen]
            if state.options.sluffing != "none" and state.phase == PHASE_ONE:
                tries += [Action(player, "sluff", (c,)) for c in unseen]
    top_unknown = state.phase == PHASE_ONE and bool(state.stock) and state.stock[-1] == UNKNOWN
    if top_unknown and state.turn is not None and can_dare(state):
        tries += [Action(state.turn, "dare", (c,)) for c in unseen]
    for action in tries:
        bad = check(state, action)
        if bad is None or bad.undetermined:
            out.append((action, bad))
    return out


def made_in(state: State, action: Action) -> State:
    """The state ``action`` is carried out in: past the sluffing window or the optional
    deal it ends first (a copy, as :func:`apply` passes it), or ``state`` itself.

    Wider than where :func:`check` judges an act (``_closes_into_other_state``: only a
    window that moves the game on), because an act let stand is carried out whatever
    its rules said: a deal in a window that leads to another phase-one trick is made
    there too, where nothing is to be dealt."""
    if (state.decided is not None or state.deal is not None) and _passes(state, action):
        return _ahead(state)
    return state


def moved_cards(state: State, action: Action) -> tuple[Card, ...]:
    """The cards a cardless ``pick`` or ``dare`` would move now (what naming them must say)."""
    if _closes_into_other_state(state, action):
        return moved_cards(_ahead(state), action)
    if action.act == "dare":
        return (state.stock[-1],) if state.stock and state.stock[-1] != UNKNOWN else ()
    if action.act != "pick" or not state.trick:
        return ()
    if state.phase == PHASE_ONE:
        return state.trick[-1][1]
    return tuple(sorted(phase_two.pick_cards(state, action.player)))


def apply(state: State, action: Action) -> Sequence[Event]:
    """Carry out a legal action in place (call :func:`check` first); what followed from it.

    The events are the consequences, in order: first what the act ended before it
    was made (the decided trick taken, no low cards shared), then what it caused.
    """
    state.events = _NOTHING
    if (state.decided is not None or state.deal is not None) and _passes(state, action):
        _pass(state)
        if state.finished or state.stopped is not None:
            state.steps += 1
            return state.events
    if state.deal is not None:  # each phase's apply called by name: direct calls when compiled
        deals.apply(state, action)
    elif state.phase != PHASE_ONE:
        phase_two.apply(state, action)
    elif state.options.phase_one == "all":
        phase_one_all.apply(state, action)
    else:
        phase_one_pairs.apply(state, action)
    state.steps += 1
    return state.events


def push(state: State, action: Action) -> None:
    """Check and apply; raise :class:`IllegalActionError` with the violation if illegal.

    (:meth:`adjudicator.Table.push` does the same and returns what happened.)
    """
    bad = check(state, action)
    if bad is not None and not bad.undetermined:
        raise IllegalActionError(bad)
    apply(state, action)


def describe(state: State, action: Action) -> list[Event]:
    """The act as it would be made now (call before applying it): what it first ends (a
    sluffing window, an optional deal), then the act itself, an :class:`events.Act`."""
    if _passes(state, action):
        ahead, passed = _passed(state)
        return [*passed, *describe(ahead, action)]
    if state.deal is not None and action.act == "deal":
        return [deals.describe(state, action)]
    if state.phase == PHASE_ONE:
        if state.options.phase_one == "all":
            return [phase_one_all.describe(state, action)]
        return [phase_one_pairs.describe(state, action)]
    return [phase_two.describe(state, action)]


def step(state: State, action: Action) -> list[Event]:
    """Apply a legal action; the act in its context and everything that followed from it."""
    said = describe(state, action)
    events = apply(state, action)
    return [*said, *events[len(said) - 1 :]]
