"""Cards as small ints, with precomputed parse tables.

A card is ``suit * 13 + (rank - 2)``: 0..51.  Ints keep the replay hot path free
of object allocation; the helpers below turn them into table language.
"""

from __future__ import annotations

from collections.abc import Iterable

from adjudicator.i18n import _, number
from adjudicator.invalid import RecordError, shown

Card = int
"""A card: ``suit * 13 + rank - 2``, see :func:`make_card`."""

SUIT_LETTERS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spade", "heart", "diamond", "club")
RANK_LETTERS = "23456789TJQKA"

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)

_RANK_TOKENS: dict[str, int] = {str(r): r for r in range(2, 10)}
_RANK_TOKENS.update({"T": 10, "10": 10, "J": 11, "Q": 12, "K": 13, "A": 14})
_SUIT_TOKENS: dict[str, int] = {}
for _i, _letters in enumerate(("S♠♤", "H♥♡", "D♦♢", "C♣♧")):
    for _ch in _letters:
        _SUIT_TOKENS[_ch] = _i

PARSE: dict[str, Card] = {
    rank_token + suit_token: suit * 13 + rank - 2
    for rank_token, rank in _RANK_TOKENS.items()
    for suit_token, suit in _SUIT_TOKENS.items()
}
"""Every accepted spelling, upper-cased, to its card."""

PARSE_SUIT: dict[str, int] = dict(_SUIT_TOKENS)
FULL_PACK: tuple[Card, ...] = tuple(range(52))

UNKNOWN: Card = -1
"""A card nobody knows, written ``??``: only ever in a deck, a stock or a start position."""
UNKNOWN_TEXT = "??"


def pack(decks: int = 1) -> tuple[Card, ...]:
    """Every card of ``decks`` packs: each card ``decks`` times."""
    return FULL_PACK * decks


def make_card(rank: int, suit: int) -> Card:
    """The card of ``rank`` (2..14) and ``suit`` (0..3)."""
    return suit * 13 + rank - 2


def rank(card: Card) -> int:
    """2..14, ace high."""
    return card % 13 + 2


def suit(card: Card) -> int:
    """0..3 in the order S H D C."""
    return card // 13


def parse_card(text: str) -> Card:
    """Parse any accepted spelling (``10h``, ``TH``, ``T♥``); :class:`RecordError` otherwise."""
    card = PARSE.get(text.strip().upper()) if isinstance(text, str) else None
    if card is None:
        raise RecordError("", f"{shown(text)} is not a card")
    return card


def parse_suit(text: str) -> int:
    """Parse a suit letter or symbol; :class:`RecordError` otherwise."""
    found = PARSE_SUIT.get(text.strip().upper()) if isinstance(text, str) else None
    if found is None:
        raise RecordError("", f"{shown(text)} is not a suit (S, H, D, C or ♠ ♥ ♦ ♣)")
    return found


def card_code(card: Card) -> str:
    """Canonical written form: ``TH`` (``??`` for an unknown card)."""
    if not isinstance(card, int) or card >= 52:
        raise _no_card(card)
    if card < 0:
        return UNKNOWN_TEXT
    return RANK_LETTERS[card % 13] + SUIT_LETTERS[card // 13]


def _no_card(card: object) -> RecordError:
    """The error for a value that is no card's number (a float, a Decimal, 52, None)."""
    return RecordError("", f"{shown(card)} is no card's number (0-51, or -1)")


def card_text(card: Card) -> str:
    """Table form: ``10♥`` (``??`` for an unknown card)."""
    if not isinstance(card, int) or card >= 52:
        raise _no_card(card)
    if card < 0:
        return UNKNOWN_TEXT
    r = card % 13 + 2
    return ("10" if r == 10 else RANK_LETTERS[r - 2]) + SUIT_SYMBOLS[card // 13]


RANK_WORDS = {1: "ace", 11: "jack", 12: "queen", 13: "king", 14: "ace"}
"""Ranks said as words at the table (the others as numbers)."""


def rank_word(r: int) -> str:
    """``7`` or ``queen``: a rank as said at the table."""
    return RANK_WORDS.get(r, str(r))


QUOTED_CARDS = 60
"""Cards a message or a narration names before it counts the rest: more than a hand in
any real game, fewer than a record that names a card 300,000 times in one action."""


def cards_text(cards: Iterable[Card]) -> str:
    """Several cards in table form, separated by spaces; past :data:`QUOTED_CARDS`,
    the rest counted ("… and 349,465 more")."""
    listed = cards if isinstance(cards, (list, tuple)) else list(cards)
    if len(listed) <= QUOTED_CARDS:
        return " ".join(card_text(c) for c in listed)
    first = " ".join(card_text(c) for c in listed[:QUOTED_CARDS])
    more = len(listed) - QUOTED_CARDS
    return _("{cards} … and {count} more").format(cards=first, count=number(more))


def suit_name(s: int, plural: bool = False) -> str:
    """``heart`` or ``hearts``."""
    return SUIT_NAMES[s] + ("s" if plural else "")


def sort_key(card: Card, trump: int | None = None) -> tuple[int, int]:
    """Sort by suit (trumps last) then rank: how a player holds a hand."""
    s = card // 13
    return (4 if s == trump else s, card % 13)


def sorted_hand(cards: Iterable[Card], trump: int | None = None) -> list[Card]:
    """A hand sorted as a player would hold it."""
    return sorted(cards, key=lambda c: sort_key(c, trump))
