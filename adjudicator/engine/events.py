"""What happens at the table, as values: the act itself and what follows from it by itself.

:func:`adjudicator.engine.apply` returns the consequences of an act (a bounce,
a trick taken, phase one ending and why, the trump card turned, a player out);
:func:`adjudicator.engine.describe` says what the act itself does where it is
made (a lead, a reply to a card, a tie broken).  They hold seats and cards,
never words: :mod:`adjudicator.words` says them in table language, for the
terminal, the HTML and the page alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from adjudicator.cards import Card

if TYPE_CHECKING:
    from adjudicator.engine.state import State


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened at the table."""


@dataclass(frozen=True, slots=True)
class Act(Event):
    """The act a player made, in its context (what :func:`engine.describe` returns)."""

    player: int


# --- acts ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Played(Act):
    """A play; ``how`` is ``lead``, ``to`` (a reply to ``against``), ``again`` (to break a
    tie), ``beat`` (phase two: ``cards`` beat ``against``), ``to_lead`` (another act where a
    lead is due, said as a play) or empty (a play to the round)."""

    cards: tuple[Card, ...]
    how: str = ""
    against: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class Dared(Act):
    """A dare: the stock's top card turned and played (``card`` None: nothing to show)."""

    card: Card | None
    how: str = ""
    against: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class Picked(Act):
    """A pick-up of ``cards`` (None: there was nothing on the table to pick up)."""

    cards: tuple[Card, ...] | None
    phase: int


@dataclass(frozen=True, slots=True)
class Sluffed(Act):
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Took(Act):
    """The winner takes the trick (the act ``take``), ``count`` cards."""

    count: int


@dataclass(frozen=True, slots=True)
class SetAside(Act):
    """Three trumps shown and set aside (Mas)."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Exchanged(Act):
    """A card exchanged for the turned-up trump ``under`` (None: it is not known)."""

    cards: tuple[Card, ...]
    under: Card | None


@dataclass(frozen=True, slots=True)
class Dealt(Act):
    """A shuffle dealt out: ``what`` (the low cards, the tied trick) in ``shares``."""

    what: str
    shares: tuple[tuple[int, tuple[Card, ...]], ...]


@dataclass(frozen=True, slots=True)
class OtherAct(Act):
    """An act with no words of its own in this phase (a rejected one, as a rule)."""

    act: str
    cards: tuple[Card, ...]
    phase: int


# --- consequences -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PhaseOneEnds(Event):
    """Phase one is over; ``why`` says the rule, ``players`` who it is about.

    ``why``: ``all_played``, ``stock_used``, ``two_cards``, ``no_card_round``,
    ``no_lead``, ``no_play``; where two play, also ``stock_done``, ``fewer_than_two``,
    ``no_card_bounce``.
    """

    why: str
    players: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Tie(Event):
    """``players`` tie with ``ranks`` and play again (or take their cards back)."""

    players: tuple[int, ...]
    ranks: tuple[int, ...]
    take_back: bool


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    """The trick is decided; its sluffing window is open."""

    winner: int


@dataclass(frozen=True, slots=True)
class TrickTaken(Event):
    """The winner takes ``count`` cards (``leads``: and leads, said where two play)."""

    winner: int
    count: int
    leads: bool = False


@dataclass(frozen=True, slots=True)
class RestDealt(Event):
    """Tied cards back to hand, the rest dealt lowest first (Koira)."""

    shares: tuple[tuple[int, tuple[Card, ...]], ...]


@dataclass(frozen=True, slots=True)
class TieOut(Event):
    """A tied player has no card to play again: the trick is shuffled and shared out."""


@dataclass(frozen=True, slots=True)
class NoLowCards(Event):
    """An optional deal of the low cards did not happen: none were shared."""


@dataclass(frozen=True, slots=True)
class WindowClosed(Event):
    """The record ends in a sluffing window: nobody sluffed more."""


@dataclass(frozen=True, slots=True)
class Bounce(Event):
    leader: int


@dataclass(frozen=True, slots=True)
class Leads(Event):
    """``player`` leads; ``how``: ``next`` (after a pick), ``again`` (after a deal), ``empty``
    (the table is empty), ``phase_two`` (phase two begins) or empty."""

    player: int
    how: str = ""


@dataclass(frozen=True, slots=True)
class LeadsInstead(Event):
    """``holder`` holds only the highest trump, so ``leader`` leads instead."""

    holder: int
    leader: int


@dataclass(frozen=True, slots=True)
class UnfinishedTrick(Event):
    """The unfinished trick of phase one: dealt out by ``dealer``, or (None) taken back."""

    dealer: int | None


@dataclass(frozen=True, slots=True)
class TrumpRevealed(Event):
    """The trump card (UNKNOWN when not written down) and the trump suit (None: unknown)."""

    card: Card
    trump: int | None


@dataclass(frozen=True, slots=True)
class LowCardsShared(Event):
    """``players`` hold fewer than ``threshold`` cards: the low cards are shared out."""

    players: tuple[int, ...]
    threshold: int


@dataclass(frozen=True, slots=True)
class Out(Event):
    """``player`` has no cards left: out, unless the avstickshög lasts (``reserve``)."""

    player: int
    reserve: bool = False


@dataclass(frozen=True, slots=True)
class TrickLeaves(Event):
    """Phase two: the trick is complete and leaves the game."""


@dataclass(frozen=True, slots=True)
class WithoutCards(Event):
    """``players`` start phase two without cards (and lose)."""

    players: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    losers: tuple[int, ...]


NOTHING: tuple[Event, ...] = ()
"""What most acts cause by themselves: no list is made for them."""


def note(state: State, event: Event) -> None:
    """Keep a consequence of the act being applied; :func:`engine.apply` hands them back."""
    events = state.events
    if events is NOTHING:
        state.events = [event]
    else:
        events.append(event)  # type: ignore[union-attr]
