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
