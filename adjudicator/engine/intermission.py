"""Between the phases: take back the unfinished trick, reveal trump, pick up piles.

000 'Play in the first phase' (last two paragraphs) and 'Play in the second
phase' (first paragraph).
"""

from __future__ import annotations

from adjudicator.cards import suit
from adjudicator.engine.phase_two import start_phase_two
from adjudicator.engine.state import State


def end_phase_one(state: State) -> None:
    """Phase one is over: set up phase two in place."""
    for player, cards in state.trick:
        state.hands[player].extend(cards)
    state.trick.clear()
    if state.indicator is not None and state.indicator_holder is not None:
        state.trump = suit(state.indicator)
        state.hands[state.indicator_holder].append(state.indicator)
    for player, pile in enumerate(state.piles):
        if pile:
            state.hands[player][:0] = pile
            pile.clear()
    if state.options.phase_two_leader == "last_trick_winner" and state.last_winner is not None:
        leader = state.last_winner
    else:
        leader = state.indicator_holder if state.indicator_holder is not None else 0
    start_phase_two(state, leader)
