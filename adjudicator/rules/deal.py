"""The deal layout: where each card of a shuffled deck goes, by its place in the deck.

One function, read by the record layer (where the trump card lies, whether a
stock is left) and by the engine (the deal itself), so the two cannot disagree.
The order follows the texts: the trump card set aside first (the Goat
treatise), then the two-player avstickshög (pagat.com, 'Two Player Game'), the
hands one card at a time clockwise from the dealer's left, then the stock,
whose top card is the next card of the deck; in Mas the first card after the
hands is turned up and lies face up under the stock (pagat.com, 'Mas with
turned up trump').
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.rules.options import RuleOptions


@dataclass(frozen=True)
class DealLayout:
    """Deck places (0 = the first card dealt) of every part of the deal."""

    players: int
    set_aside: int | None
    """The trump card set aside face down before the deal, if the rules do that."""
    reserve: range
    """The avstickshög, top card first."""
    hands: range
    """The cards dealt to the hands, one at a time clockwise from the dealer's left."""
    turned_up: int | None
    """The trump card turned up under the stock, if the rules do that."""
    stock: range
    """The stock, top card first (without a turned-up trump lying under it)."""
    trump_card: int
    """Where the trump card lies: set aside, turned up, or the stock's last card."""

    def seat(self, place: int, dealer: int) -> int:
        """Who is dealt the card at ``place`` (one of :attr:`hands`)."""
        return (dealer + 1 + place - self.hands.start) % self.players


def deal_layout(options: RuleOptions, players: int) -> DealLayout:
    """The layout of a deal of ``options.decks`` packs to ``players`` players.

    The stock may come out empty or negative-sized when too many players are
    dealt too many cards: the record layer refuses such a table first.  Worked out
    once per options and table (reading a record asks three times).
    """
    key = (id(options), players)
    found = _LAID.get(key)
    if found is not None and found[0] is options:
        return found[1]
    if len(_LAID) >= 256:
        _LAID.clear()
    layout = _layout(options, players)
    _LAID[key] = (options, layout)  # the options kept: their id stays theirs
    return layout


_LAID: dict[tuple[int, int], tuple[RuleOptions, DealLayout]] = {}


def _layout(options: RuleOptions, players: int) -> DealLayout:
    size = 52 * options.decks
    at = 0
    set_aside = None
    if options.trump_card == "set_aside":
        set_aside, at = 0, 1
    reserve = range(at, at + options.reserve)
    at = reserve.stop
    hands = range(at, at + players * options.hand_size)
    at = hands.stop
    turned_up = None
    if options.trump_card == "turned_up":
        turned_up, at = at, at + 1
    stock = range(at, max(at, size))
    trump_card = size - 1
    if set_aside is not None:
        trump_card = set_aside
    elif turned_up is not None:
        trump_card = turned_up
    return DealLayout(players, set_aside, reserve, hands, turned_up, stock, trump_card)
