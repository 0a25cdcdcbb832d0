"""The game's own words in the language speaking now: suits and the like.

The English words stay where the records and the JSON need them (``cards.suit_name``);
these are for messages a person reads.  They follow docs/glossary.md.
"""

from __future__ import annotations

from adjudicator.i18n import _

_SUITS = (
    (lambda: _("spade"), lambda: _("spades")),
    (lambda: _("heart"), lambda: _("hearts")),
    (lambda: _("diamond"), lambda: _("diamonds")),
    (lambda: _("club"), lambda: _("clubs")),
)


def suit_word(s: int, plural: bool = False) -> str:
    """``diamond`` (sv ``ruter``, fi ``ruutu``, nb ``ruter``), or the plural."""
    return _SUITS[s][1 if plural else 0]()


_RANK_WORDS = {
    1: lambda: _("ace"),
    11: lambda: _("jack"),
    12: lambda: _("queen"),
    13: lambda: _("king"),
    14: lambda: _("ace"),
}


def rank_said(r: int) -> str:
    """``7`` or ``queen`` (sv ``dam``, fi ``kuningatar``, nb ``dame``)."""
    word = _RANK_WORDS.get(r)
    return word() if word is not None else str(r)


def a_rank_said(r: int) -> str:
    """One card of a rank, as said at the table: ``a 7``, ``an ace`` (sv ``en 7:a``,
    ``ett ess``)."""
    if r in _RANK_WORDS:
        return {
            1: lambda: _("an ace"),
            11: lambda: _("a jack"),
            12: lambda: _("a queen"),
            13: lambda: _("a king"),
            14: lambda: _("an ace"),
        }[r]()
    if r == 8:
        return _("an {rank}").format(rank=r)
    return _("a {rank}").format(rank=r)


def ranks_said(r: int) -> str:
    """Several cards of a rank: ``7s``, ``sixes``, ``queens`` (sv ``7:or``, ``damer``)."""
    words = {
        1: lambda: _("aces"),
        6: lambda: _("sixes"),
        11: lambda: _("jacks"),
        12: lambda: _("queens"),
        13: lambda: _("kings"),
        14: lambda: _("aces"),
    }
    word = words.get(r)
    return word() if word is not None else _("{rank}s").format(rank=r)


def table_said(what: str) -> str:
    """What the table did about an irregular action (``taken back``, ``stands``), said."""
    if what == "taken back":
        return _("taken back")
    if what == "stands":
        return _("stands")
    return what


def dealt_said(what: str) -> str:
    """What a deal hands out (the engine's English: ``the low cards``), said."""
    said = {
        "the low cards": lambda: _("the low cards"),
        "the tied trick": lambda: _("the tied trick"),
        "the unfinished trick": lambda: _("the unfinished trick"),
    }.get(what)
    return said() if said is not None else what
