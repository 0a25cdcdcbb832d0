"""Actions as the engine sees them: player index, act, cards."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from adjudicator.cards import Card, card_code

ACTS: tuple[str, ...] = (
    "play",
    "dare",
    "sluff",
    "pick",
    "deal",
    "take",
    "exchange",
    "set_aside",
    "draw",
)
"""Every act the record format knows.  A variant may allow only some of them."""

RECEIVER_SEP = ":"
"""Between a receiver and their cards in the string form of a deal: ``Anna:2H,5C``."""
CARD_SEP = ","
"""Between the cards a receiver got in the string form of a deal."""

_CODES: tuple[str, ...] = tuple(card_code(c) for c in range(52))
"""Each known card's written form, made once."""

ANY_TIME: frozenset[str] = frozenset(("sluff", "exchange", "set_aside", "draw"))
"""Acts a player may take out of turn, whenever the rules allow them."""


class Action(NamedTuple):
    """One thing a player did.  ``cards`` may be empty for dare and pick.

    ``to`` is only used by ``deal``: (receiver, cards) pairs in record order.
    A tuple: immutable, hashable, and cheap to make, which matters because
    generating legal actions makes thousands of them per game.
    """

    player: int
    act: str
    cards: tuple[Card, ...] = ()
    to: tuple[tuple[int, tuple[Card, ...]], ...] = ()

    def record_form(self, names: Sequence[str]) -> str | dict[str, object]:
        """The action as ``legal`` lists it: a string, or the object form for a deal
        (the form most readers know; the string form of a deal reads the same)."""
        if self.act != "deal":
            return self.text(names)
        return {
            "player": names[self.player],
            "act": "deal",
            "to": {names[p]: [card_code(c) for c in cards] for p, cards in self.to},
        }

    def text(self, names: Sequence[str]) -> str:
        """The action in record notation: ``Anna play 7H``, ``Cai deal Anna:2H,5C Bo:3D``.

        The string form of the record format, which ``adjudicator.record.parse_action``
        reads back (deals included).
        """
        if not self.to:  # the common forms at once: every simulated action is written
            cards = self.cards
            if not cards:
                return f"{names[self.player]} {self.act}"
            if len(cards) == 1 and cards[0] >= 0:
                return f"{names[self.player]} {self.act} {_CODES[cards[0]]}"
        words = [names[self.player], self.act]
        words += [_CODES[c] if 0 <= c < 52 else card_code(c) for c in self.cards]
        for receiver, cards in self.to:
            words.append(names[receiver] + RECEIVER_SEP + CARD_SEP.join(map(card_code, cards)))
        return " ".join(words)


# --- made once: the actions generation lists over and over ---------------------------
#
# Generating legal actions makes one Action per candidate, thousands per game, and the
# NamedTuple's ``__new__`` is a Python-level call.  Actions are immutable, so one object
# serves every list: the common ones are made once here, the rest by ``tuple.__new__``.

SEATS = 52
"""The most players a table may have (``RuleOptions.max_players``)."""

_new = tuple.__new__

PICK: tuple[Action, ...] = tuple(_new(Action, (p, "pick", (), ())) for p in range(SEATS))
"""``Action(p, "pick")`` for every seat ``p``."""
DARE: tuple[Action, ...] = tuple(_new(Action, (p, "dare", (), ())) for p in range(SEATS))
"""``Action(p, "dare")`` for every seat ``p``."""
TAKE: tuple[Action, ...] = tuple(_new(Action, (p, "take", (), ())) for p in range(SEATS))
"""``Action(p, "take")`` for every seat ``p``."""
DRAW: tuple[Action, ...] = tuple(_new(Action, (p, "draw", (), ())) for p in range(SEATS))
"""``Action(p, "draw")`` for every seat ``p`` (``draw_back`` other than 'automatic')."""

_SINGLES: list[tuple[Action, ...] | None] = [None] * SEATS


def single_plays(player: int) -> tuple[Action, ...]:
    """``Action(player, "play", (card,))`` for every card, indexed by card (made at first use)."""
    plays = _SINGLES[player]
    if plays is None:
        plays = tuple(_new(Action, (player, "play", (c,), ())) for c in range(52))
        _SINGLES[player] = plays
    return plays
