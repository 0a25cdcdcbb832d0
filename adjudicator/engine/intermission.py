"""Between the phases: the unfinished trick, trump, piles, and the low cards.

000 'Play in the first phase' (last two paragraphs), 'Play in the second phase'
(first paragraph), 'All Players play to Each Trick in Phase One' (the 'shit
cards'), 'Variants: end of phase one' and 'Atlanta Variation' (the dreck).
Where the rules leave an outcome to a shuffle, the state waits for the
record's ``deal`` act (see :mod:`adjudicator.engine.deals`).
"""

from __future__ import annotations

from adjudicator.cards import Card, rank, suit
from adjudicator.engine.phase_two import start_phase_two
from adjudicator.engine.state import DealDue, State

LOW_RANKS = frozenset((2, 3, 4, 5))


def deal_order(state: State) -> list[int]:
    """Seats in the order of the first deal: the dealer's left first."""
    first = (state.dealer + 1) % state.n if state.dealer is not None else 0
    return [(first + i) % state.n for i in range(state.n)]


def one_at_a_time(count: int, receivers: int) -> tuple[int, ...]:
    """How many cards each of ``receivers`` gets when ``count`` are dealt round in order."""
    return tuple(count // receivers + (1 if i < count % receivers else 0) for i in range(receivers))


def end_phase_one(state: State) -> None:
    """Phase one is over: settle the unfinished trick, then set up phase two."""
    played = [c for _, cards in state.trick for c in cards]
    played += [c for _, cards in state.sluffs for c in cards]
    if played and state.options.unfinished_trick == "deal_out" and state.dealer is not None:
        state.deal = DealDue(
            kind="trick_out",
            cards=tuple(sorted(played)),
            receivers=tuple(deal_order(state)),
            shares=one_at_a_time(len(played), state.n),
            shufflers=frozenset((state.dealer,)),
            to_piles=False,
            what="the unfinished trick",
        )
        state.turn = None
        return
    for player, cards in state.trick:
        state.hands[player].extend(cards)
    for player, cards in state.sluffs:
        state.hands[player].extend(cards)
    state.trick.clear()
    state.sluffs.clear()
    reveal_and_pick_up(state)


def after_trick_out(state: State) -> None:
    """The unfinished trick has been dealt out: go on to phase two."""
    state.trick.clear()
    state.sluffs.clear()
    reveal_and_pick_up(state)


def reveal_and_pick_up(state: State) -> None:
    """Trump from the indicator, piles into hands; then the low cards, then phase two."""
    state.decided = None
    if state.indicator is not None and state.indicator_holder is not None and state.indicator_down:
        state.trump = suit(state.indicator)
        state.hands[state.indicator_holder].append(state.indicator)
        state.indicator_down = False
    for player, pile in enumerate(state.piles):
        if pile:
            state.hands[player][:0] = pile
            pile.clear()
    due = low_cards_due(state)
    if due is not None:
        state.deal = due
        state.turn = None
        return
    begin_phase_two(state)


def is_low(state: State, card: Card) -> bool:
    """A 2-5 (and, under the Atlanta rule, the six of trumps)."""
    if rank(card) in LOW_RANKS:
        return True
    return state.options.low_cards_six_of_trumps and rank(card) == 6 and suit(card) == state.trump


def low_cards_due(state: State) -> DealDue | None:
    """The low-card deal, if any player is short: receivers judged before anyone gives up."""
    options = state.options
    threshold = options.low_cards
    if options.low_cards_by_indicator and state.indicator is not None:
        threshold = rank(state.indicator)
    if not threshold:
        return None
    order = deal_order(state)
    receivers = tuple(p for p in order if len(state.hands[p]) < threshold)
    if not receivers:
        return None
    low = tuple(sorted(c for hand in state.hands for c in hand if is_low(state, c)))
    if not low:
        return None  # nothing to share (the avstickshög may hold them all): no shuffle
    others = frozenset(p for p in range(state.n) if p not in receivers)
    return DealDue(
        kind="low_cards",
        cards=low,
        receivers=receivers,
        shares=one_at_a_time(len(low), len(receivers))
        if options.low_cards_shares == "deal_order"
        else None,
        shufflers=others or frozenset(range(state.n)),
        to_piles=False,
        what="the low cards",
    )


def begin_phase_two(state: State) -> None:
    """The indicator's drawer leads, or the last trick's winner where the variant says so."""
    if state.options.phase_two_leader == "last_trick_winner" and state.last_winner is not None:
        leader = state.last_winner
    else:
        leader = state.indicator_holder if state.indicator_holder is not None else 0
    start_phase_two(state, leader)
