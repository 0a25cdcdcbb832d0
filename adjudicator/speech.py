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
