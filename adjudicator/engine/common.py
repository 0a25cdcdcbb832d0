"""Checks shared by every phase: whose turn, which acts, cards held."""

from __future__ import annotations

from collections import Counter

from adjudicator.actions import Action
from adjudicator.cards import Card, card_text, cards_text, sorted_hand
from adjudicator.engine.state import State
from adjudicator.engine.violations import Violation


def held(state: State, action: Action) -> Violation | None:
    """Every card named must be in the player's hand (as many times as named)."""
    hand = state.hands[action.player]
    cards = action.cards
    if len(cards) == 1:
        if cards[0] in hand:
            return None
        missing = cards
    else:
        need = Counter(cards)
        have = Counter(hand)
        missing = tuple(c for c in need if need[c] > have[c])
        if not missing:
            return None
    name = state.names[action.player]
    holding = cards_text(sorted_hand(hand, state.trump)) or "no cards"
    return Violation(
        "play.held",
        f"{name} does not hold {cards_text(missing)} (holds {holding})",
    )


def dare_problem(state: State, action: Action) -> Violation | None:
    """A dare in phase one turns the stock's top card, never its last (the trump indicator).

    000 'Play in the first phase' and 'All Players play to Each Trick in Phase One'.
    """
    stock = state.stock
    if len(stock) < 2:
        return Violation(
            "phase1.dare.stock",
            f"A dare needs two or more cards in the stock; it holds {len(stock)}"
            + (" (the trump indicator, which is never played)" if stock else ""),
        )
    if action.cards and (len(action.cards) != 1 or action.cards[0] != stock[-1]):
        return Violation(
            "phase1.dare.card",
            f"The stock's top card is {card_text(stock[-1])}, not {cards_text(action.cards)}",
        )
    return None


def draw_card(state: State, player: int) -> None:
    """Draw the stock's top card; the last card is the trump indicator, kept face down."""
    card = state.stock.pop()
    if state.stock:
        state.hands[player].append(card)
    else:
        state.indicator = card
        state.indicator_holder = player
        state.indicator_down = True


def one_card(state: State, action: Action, what: str) -> Violation | None:
    """Exactly one card must be named."""
    if len(action.cards) == 1:
        return None
    count = len(action.cards)
    return Violation(
        "play.count",
        f"{what} is one card; {state.names[action.player]} named "
        + ("none" if count == 0 else f"{count} ({cards_text(action.cards)})"),
    )


def unique_plays(hand: list[Card]) -> list[tuple[Card, ...]]:
    """Each distinct card of a hand as a one-card play, in a stable order."""
    return [(c,) for c in sorted(set(hand))]


def card_list(cards: tuple[Card, ...]) -> str:
    """``7♥`` or ``7♥ 8♥``."""
    return cards_text(cards) if len(cards) != 1 else card_text(cards[0])
