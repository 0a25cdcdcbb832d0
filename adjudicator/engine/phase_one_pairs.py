"""Phase one with two-card tricks: the basic game (000 'Play in the first phase').

The leader plays against their left neighbour; higher rank wins and the winner
leads the next trick against their own left neighbour; equal ranks bounce and
the same pair plays again.  After a play from hand the player draws; the
stock's last card is the trump indicator, kept face down by its drawer.
"""

from __future__ import annotations

from adjudicator.actions import Action
from adjudicator.cards import card_text, rank
from adjudicator.engine import intermission
from adjudicator.engine.common import dare_problem, draw_card, held, one_card, unique_plays
from adjudicator.engine.state import State
from adjudicator.engine.violations import Violation


def whose_turn(state: State) -> str:
    """Why it is the current player's turn, in table language."""
    name = state.names[state.turn] if state.turn is not None else "nobody"
    if state.turn == state.leader:
        return f"{name} leads this trick"
    lead = state.trick[-1][1][0]
    return f"{name} plays second, to {state.names[state.leader]}'s {card_text(lead)}"


def candidates(state: State) -> list[Action]:
    """Every action worth testing for the player to move (a superset of the legal)."""
    p = state.turn
    assert p is not None
    acts = [Action(p, "play", cards) for cards in unique_plays(state.hands[p])]
    acts.append(Action(p, "dare"))
    acts.append(Action(p, "pick"))
    return acts


def check(state: State, action: Action) -> Violation | None:
    """Why ``action`` is illegal now, or None."""
    act = action.act
    if act == "play":
        return one_card(state, action, "A play in phase one") or held(state, action)
    if act == "dare":
        return dare_problem(state, action)
    if act == "pick":
        return Violation(
            "phase1.pick",
            "Nobody picks up in phase one: the player to move plays a card or dares",
        )
    return None


def apply(state: State, action: Action) -> None:
    """Play or dare, draw, and settle the trick once both cards are down."""
    p = action.player
    if action.act == "dare":
        card = state.stock.pop()
    else:
        card = action.cards[0]
        state.hands[p].remove(card)
        draw(state, p)
    state.trick.append((p, (card,)))
    if p == state.leader and len(state.trick) % 2 == 1:
        state.turn = state.second
    else:
        settle(state)
    if not state.hands[state.turn]:  # type: ignore[index]
        intermission.end_phase_one(state)


def draw(state: State, player: int) -> None:
    """After a play from hand: one card from the stock, if any is left."""
    if state.stock:
        draw_card(state, player)


def settle(state: State) -> None:
    """Both cards are down: bounce, or the higher card takes everything on the table."""
    lead = state.trick[-2][1][0]
    reply = state.trick[-1][1][0]
    if rank(lead) == rank(reply):
        state.turn = state.leader
        return
    winner = state.leader if rank(lead) > rank(reply) else state.second
    pile = state.piles[winner]
    for _, cards in state.trick:
        pile.extend(cards)
    state.trick.clear()
    state.last_winner = winner
    state.leader = winner
    state.second = state.left_of(winner)
    state.turn = winner
