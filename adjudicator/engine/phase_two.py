"""Phase two: beat the top card or pick it up (000 'Play in the second phase').

A card is beaten by a higher card of its suit, or a non-trump by any trump.
A trick is complete when it holds as many plays as players held cards when
it was led; its cards leave the game.  The last player holding cards loses.
"""

from __future__ import annotations

from adjudicator.actions import Action
from adjudicator.cards import SUIT_SYMBOLS, Card, card_text, suit, suit_name
from adjudicator.engine.common import card_list, held, one_card, unique_plays
from adjudicator.engine.state import OVER, State
from adjudicator.engine.violations import Violation


def whose_turn(state: State) -> str:
    """Why it is the current player's turn, in table language."""
    name = state.names[state.turn] if state.turn is not None else "nobody"
    if not state.trick:
        return f"{name} leads"
    return f"{name} must beat {card_list(state.trick[-1][1])} or pick it up"


def beats(card: Card, top: Card, trump: int | None) -> bool:
    """A higher card of the same suit, or a trump on a non-trump."""
    if card // 13 == top // 13:
        return card > top
    return card // 13 == trump


def why_not_beat(card: Card, top: Card, trump: int | None) -> str:
    """Table language for a card that does not beat the top card."""
    top_suit = suit(top)
    trump_txt = f"a trump ({SUIT_SYMBOLS[trump]})" if trump is not None else "a trump"
    head = f"{card_text(card)} does not beat {card_text(top)}: "
    if top_suit == trump:
        return head + f"only a higher {suit_name(top_suit)} beats a trump"
    return head + f"a higher {suit_name(top_suit)} or {trump_txt} is needed"


def candidates(state: State) -> list[Action]:
    """Every action worth testing for the player to move (a superset of the legal)."""
    p = state.turn
    assert p is not None
    acts = [Action(p, "play", cards) for cards in unique_plays(state.hands[p])]
    acts.append(Action(p, "pick"))
    acts.append(Action(p, "dare"))
    return acts


def check(state: State, action: Action) -> Violation | None:
    """Why ``action`` is illegal now, or None."""
    act = action.act
    trick = state.trick
    if act == "play":
        bad = one_card(state, action, "A play in phase two") or held(state, action)
        if bad or not trick:
            return bad
        top = trick[-1][1][-1]
        card = action.cards[0]
        if not beats(card, top, state.trump):
            return Violation("phase2.beat", why_not_beat(card, top, state.trump))
        return None
    if act == "pick":
        if not trick:
            return Violation(
                "phase2.pick.empty",
                f"There is nothing on the table to pick up: {state.names[action.player]} leads",
            )
        if action.cards:
            take = trick[-1][1]
            if sorted(action.cards) != sorted(take):
                return Violation(
                    "phase2.pick.cards",
                    f"A pick takes the top card, {card_list(take)}, not {card_list(action.cards)}",
                )
        return None
    if act == "dare":
        return Violation("phase2.dare", "There is no stock in phase two: nobody dares")
    return None


def apply(state: State, action: Action) -> None:
    """Lead, beat or pick; close the trick when it is complete; end the game."""
    p = action.player
    hands = state.hands
    trick = state.trick
    if action.act == "pick":
        _, cards = trick.pop()
        hands[p].extend(cards)
        state.turn = state.next_with_cards(p)
        if not trick:
            state.leader = state.turn
    else:
        card = action.cards[0]
        if not trick:
            state.trick_target = state.holders()
            state.leader = p
        hands[p].remove(card)
        trick.append((p, action.cards))
        if len(trick) >= state.trick_target:
            for _, cards in trick:
                state.discard.extend(cards)
            trick.clear()
            state.completed_tricks += 1
            state.last_winner = p
            state.turn = p if hands[p] else state.next_with_cards(p)
            state.leader = state.turn
        else:
            state.turn = state.next_with_cards(p)
    end_if_over(state)


def end_if_over(state: State) -> None:
    """The game ends the moment at most one player holds cards: that one loses."""
    holders = [i for i, hand in enumerate(state.hands) if hand]
    if len(holders) <= 1:
        state.phase = OVER
        state.loser = holders[0] if holders else None
        state.turn = None
