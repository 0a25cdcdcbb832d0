"""What happens at the table, as values: the act itself and what follows from it by itself.

:func:`adjudicator.engine.apply` returns the consequences of an act (a bounce,
a trick taken, phase one ending and why, the trump card turned, a player out);
:func:`adjudicator.engine.describe` says what the act itself does where it is
made (a lead, a reply to a card, a tie broken).  They hold seats and cards,
never words: :mod:`adjudicator.play.words` says them in table language, for the
terminal, the HTML and the page alike.

Each event is an immutable named tuple; two events are equal only when they are
of one kind.  The engine makes one at nearly every trick, so :func:`note` makes
it only when someone reads it (a bulk check and a random game never do).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple, ParamSpec

from adjudicator.cards import Card

if TYPE_CHECKING:
    from adjudicator.engine.state import State

_P = ParamSpec("_P")


# --- acts ---------------------------------------------------------------------------


class Played(NamedTuple):
    """A play; ``how`` is ``lead``, ``to`` (a reply to ``against``), ``again`` (to break a
    tie), ``beat`` (phase two: ``cards`` beat ``against``), ``to_lead`` (another act where a
    lead is due, said as a play) or empty (a play to the round)."""

    player: int
    cards: tuple[Card, ...]
    how: str = ""
    against: tuple[Card, ...] = ()


class Dared(NamedTuple):
    """A dare: the stock's top card turned and played (``card`` None: nothing to show)."""

    player: int
    card: Card | None
    how: str = ""
    against: tuple[Card, ...] = ()


class Picked(NamedTuple):
    """A pick-up of ``cards`` (None: there was nothing on the table to pick up)."""

    player: int
    cards: tuple[Card, ...] | None
    phase: int


class Sluffed(NamedTuple):
    player: int
    cards: tuple[Card, ...]


class Took(NamedTuple):
    """The winner takes the trick (the act ``take``), ``size`` cards."""

    player: int
    size: int


class Drew(NamedTuple):
    """A card drawn from the stock (the act ``draw``, where the record writes its draws);
    which card is the drawer's to know."""

    player: int


class SetAside(NamedTuple):
    """Three trumps shown and set aside (Mas)."""

    player: int
    cards: tuple[Card, ...]


class Exchanged(NamedTuple):
    """A card exchanged for the turned-up trump ``under`` (None: it is not known)."""

    player: int
    cards: tuple[Card, ...]
    under: Card | None


class Dealt(NamedTuple):
    """A shuffle dealt out: ``what`` (the low cards, the tied trick) in ``shares``."""

    player: int
    what: str
    shares: tuple[tuple[int, tuple[Card, ...]], ...]


class OtherAct(NamedTuple):
    """An act with no words of its own in this phase (a rejected one, as a rule)."""

    player: int
    act: str
    cards: tuple[Card, ...]
    phase: int


# --- consequences -------------------------------------------------------------------


class DareFailed(NamedTuple):
    """A turned card that does not beat the led card: ``player`` picks up both (Mas,
    failed_dare pick_up)."""

    player: int
    card: Card


class PhaseOneEnds(NamedTuple):
    """Phase one is over; ``why`` says the rule, ``players`` who it is about.

    ``why``: ``all_played``, ``stock_used``, ``two_cards``, ``no_card_round``,
    ``no_lead``, ``no_play``; where two play, also ``stock_done``, ``fewer_than_two``,
    ``no_card_bounce``.
    """

    why: str
    players: tuple[int, ...] = ()


class Tie(NamedTuple):
    """``players`` tie with ``ranks`` and play again (or take their cards back)."""

    players: tuple[int, ...]
    ranks: tuple[int, ...]
    take_back: bool


class TrickWon(NamedTuple):
    """The trick is decided; its sluffing window is open."""

    winner: int


class TrickTaken(NamedTuple):
    """The winner takes ``size`` cards (``leads``: and leads, said where two play)."""

    winner: int
    size: int
    leads: bool = False


class RestDealt(NamedTuple):
    """Tied cards back to hand, the rest dealt lowest first (Koira)."""

    shares: tuple[tuple[int, tuple[Card, ...]], ...]


class TieOut(NamedTuple):
    """A tied player has no card to play again: the trick is shuffled and shared out."""


class NoLowCards(NamedTuple):
    """An optional deal of the low cards did not happen: none were shared."""


class WindowClosed(NamedTuple):
    """The record ends in a sluffing window: nobody sluffed more."""


class Bounce(NamedTuple):
    leader: int


class Leads(NamedTuple):
    """``player`` leads; ``how``: ``next`` (after a pick), ``again`` (after a deal), ``empty``
    (the table is empty), ``phase_two`` (phase two begins) or empty."""

    player: int
    how: str = ""


class LeadsInstead(NamedTuple):
    """``holder`` holds only the highest trump, so ``leader`` leads instead."""

    holder: int
    leader: int


class UnfinishedTrick(NamedTuple):
    """The unfinished trick of phase one: dealt out by ``dealer``, or (None) taken back."""

    dealer: int | None


class TrumpRevealed(NamedTuple):
    """The trump card (UNKNOWN when not written down) and the trump suit (None: unknown)."""

    card: Card
    trump: int | None


class LowCardsShared(NamedTuple):
    """``players`` hold fewer than ``threshold`` cards: the low cards are shared out."""

    players: tuple[int, ...]
    threshold: int


class Out(NamedTuple):
    """``player`` has no cards left: out, unless the avstickshög lasts (``reserve``)."""

    player: int
    reserve: bool = False


class TrickLeaves(NamedTuple):
    """Phase two: the trick is complete and leaves the game."""


class WithoutCards(NamedTuple):
    """``players`` start phase two without cards (and lose)."""

    players: tuple[int, ...]


class GameOver(NamedTuple):
    losers: tuple[int, ...]


ACTS = (Played, Dared, Picked, Sluffed, Took, Drew, SetAside, Exchanged, Dealt, OtherAct)
"""What :func:`engine.describe` returns: the act a player made, in its context."""
CONSEQUENCES = (
    DareFailed,
    PhaseOneEnds,
    Tie,
    TrickWon,
    TrickTaken,
    RestDealt,
    TieOut,
    NoLowCards,
    WindowClosed,
    Bounce,
    Leads,
    LeadsInstead,
    UnfinishedTrick,
    TrumpRevealed,
    LowCardsShared,
    Out,
    TrickLeaves,
    WithoutCards,
    GameOver,
)
"""What :func:`engine.apply` returns: what followed from an act by itself."""

Act = Played | Dared | Picked | Sluffed | Took | Drew | SetAside | Exchanged | Dealt | OtherAct
Event = (
    Act
    | DareFailed
    | PhaseOneEnds
    | Tie
    | TrickWon
    | TrickTaken
    | RestDealt
    | TieOut
    | NoLowCards
    | WindowClosed
    | Bounce
    | Leads
    | LeadsInstead
    | UnfinishedTrick
    | TrumpRevealed
    | LowCardsShared
    | Out
    | TrickLeaves
    | WithoutCards
    | GameOver
)


def _eq(self: Any, other: object) -> bool:
    return type(self) is type(other) and tuple.__eq__(self, other)  # type: ignore[operator]


def _ne(self: Any, other: object) -> bool:
    return not _eq(self, other)


def _hash(self: Any) -> int:
    return hash((type(self).__name__, tuple(self)))


for _kind in (*ACTS, *CONSEQUENCES):
    _kind.__eq__ = _eq  # type: ignore[method-assign]
    _kind.__ne__ = _ne  # type: ignore[method-assign]
    _kind.__hash__ = _hash  # type: ignore[method-assign]


NOTHING: tuple[Event, ...] = ()
"""What most acts cause by themselves: no list is made for them."""


def note(state: State, kind: Callable[_P, Event], /, *args: _P.args, **kwargs: _P.kwargs) -> None:
    """Keep a consequence of the act being applied; :func:`engine.apply` hands them back.

    The event is made here, and only when someone will read it: a bulk check or a
    random game sets ``state.telling`` off, and then nothing is made at all.  Where an
    act notes an event every trick, the (compiled) engine tests ``state.telling`` before
    the call: this module is not compiled, and calling into it costs more than the test.
    """
    if not state.telling:
        return
    event = kind(*args, **kwargs)
    events = state.events
    if events is NOTHING:
        state.events = [event]
    else:
        events.append(event)  # type: ignore[union-attr]


def keep(state: State, event: Event) -> None:
    """Keep an event already made (one a rule module returned) as :func:`note` does."""
    if not state.telling:
        return
    events = state.events
    if events is NOTHING:
        state.events = [event]
    else:
        events.append(event)  # type: ignore[union-attr]
