"""Between the phases: the unfinished trick, trump, piles, and the low cards.

pagat.com, 'Play in the first phase' (last two paragraphs), 'Play in the
second phase' (first paragraph), 'All Players play to Each Trick in Phase One'
(the 'shit cards'), 'Variants: end of phase one' and 'Atlanta Variation' (the
dreck); the Goat treatise, II.F and III (intermission).  Where the rules leave
an outcome to a shuffle, the state waits for the record's ``deal`` act (see
:mod:`adjudicator.engine.deals`).
"""

from __future__ import annotations

from adjudicator.cards import UNKNOWN, Card, cards_text, rank, suit
from adjudicator.engine import events as ev
from adjudicator.engine.events import note
from adjudicator.engine.phase_two import start_phase_two
from adjudicator.engine.state import DealDue, State
from adjudicator.engine.violations import Violation
from adjudicator.i18n import N_, _

LOW_RANKS = frozenset((2, 3, 4, 5))


def deal_order(state: State) -> list[int]:
    """Seats in the order of the first deal: the dealer's left first."""
    first = (state.dealer + 1) % state.n if state.dealer is not None else 0
    return [(first + i) % state.n for i in range(state.n)]


def final_trick_sluffs(state: State, risky: list[tuple[int, int, tuple[Card, ...]]]) -> None:
    """The Goat treatise, II.E.3, restriction #2: judged now that the final trick is known.

    ``risky`` holds the final trick's sluffs made by players who could still win it.
    """
    if not state.options.sluff_final or not risky or state.late is not None:
        return
    step, player, cards = risky[0]
    name = state.names[player]
    state.late = Violation(
        "phase1.sluff.final",
        _(
            "{name} sluffed {cards} to what turned out to be the last trick of phase "
            "one, before it was determined that {name} would not win it"
        ).format(name=name, cards=cards_text(cards)),
        index=step,
        player=name,
    )


def end_phase_one(state: State) -> None:
    """Phase one is over: settle the unfinished trick, then set up phase two."""
    final_trick_sluffs(state, state.taken_risky)
    state.decided = None
    played = [c for _, cards in state.trick for c in cards]
    played += [c for _, cards in state.sluffs for c in cards]
    if played and state.options.unfinished_trick == "deal_out":
        if state.dealer is None:
            state.stop(
                _("the unfinished trick is dealt out by the dealer, who is not in the record")
            )
            return
        note(state, ev.UnfinishedTrick, state.dealer)
        state.deal = DealDue(
            kind="trick_out",
            cards=tuple(sorted(played)),
            receivers=tuple(deal_order(state)),
            ordered=True,
            shufflers=frozenset((state.dealer,)),
            to_piles=False,
            what="the unfinished trick",
        )
        state.turn = None
        return
    if played:
        note(state, ev.UnfinishedTrick, None)
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


def _reveal(state: State) -> None:
    """Trumps from the trump card; the card itself to its drawer, or out of play."""
    kind = state.options.trump_card
    card = state.indicator
    if kind == "turned_up" or card is None:
        return
    state.trump = suit(card) if card != UNKNOWN else state.trump_hint
    note(state, ev.TrumpRevealed, card, state.trump)
    if not state.indicator_down:
        return
    state.indicator_down = False
    holder = state.indicator_holder
    if kind == "stock_last" and holder is not None:
        if card == UNKNOWN:
            state.hidden[holder] += 1
        else:
            state.hands[holder].append(card)
    elif card == UNKNOWN:
        state.out_hidden += 1
    else:
        state.discard.append(card)  # set aside before the deal: out of play for the game


def reveal_and_pick_up(state: State) -> None:
    """Trump from the trump card, piles (and stored trumps) into hands; low cards; phase two."""
    state.decided = None
    if state.stock:
        state.stop(_("phase one ended with cards still in the stock, which no rule here allows"))
        return
    _reveal(state)
    for player, pile in enumerate(state.piles):
        if pile:
            state.hands[player][:0] = pile
            pile.clear()
        state.hidden[player] += state.pile_hidden[player]
        state.pile_hidden[player] = 0
        stored = state.stored[player]
        if stored:
            state.hands[player].extend(stored)
            stored.clear()
    if _trump_needed(state):
        return
    due = low_cards_due(state)
    if state.stopped is not None:
        return
    if due is not None:
        state.deal = due
        state.turn = None
        return
    begin_phase_two(state)


def _trump_needed(state: State) -> bool:
    """Stop when the trump suit is unknown and a rule between or in phase two needs it."""
    if state.trump is not None:
        return False
    options = state.options
    needs = [
        name
        for name, on in (
            (N_("the six of trumps is a low card"), options.low_cards_six_of_trumps),
            (N_("anti-trumps"), options.anti_trump != "none"),
            (N_("the high trump"), options.high_trump != "none"),
            (N_("a trump ends the trick"), options.trump_ends_trick),
        )
        if on
    ]
    if needs:
        state.stop(
            _("the trump suit is unknown and these rules need it ({option})").format(
                option=_(needs[0])  # the rule in the language speaking, as the sentence is
            )
        )
        return True
    return False


def is_low(state: State, card: Card) -> bool:
    """A 2-5 (and, under the Atlanta and Goat rule, the six of trumps)."""
    if rank(card) in LOW_RANKS:
        return True
    return state.options.low_cards_six_of_trumps and rank(card) == 6 and suit(card) == state.trump


def low_cards_due(state: State) -> DealDue | None:
    """The low-card deal, if any player is short: receivers judged before anyone gives up."""
    options = state.options
    threshold = options.low_cards
    if options.low_cards_by_indicator and state.indicator is not None:
        if state.indicator == UNKNOWN:
            state.stop(_("the trump card is unknown, and its rank sets the low-card limit"))
            return None
        threshold = rank(state.indicator)
    if not threshold:
        return None
    order = deal_order(state)
    receivers = tuple(p for p in order if state.count(p) < threshold)
    if not receivers:
        return None
    if state.dealer is None and options.low_cards_shares == "deal_order":
        state.stop(_("the low cards are dealt in the order of the deal, and the dealer is unknown"))
        return None
    low = tuple(sorted(c for hand in state.hands for c in hand if is_low(state, c)))
    unseen_low = sum(state.unseen[c] for c in range(52) if is_low(state, c))
    hidden = min(sum(state.hidden), unseen_low)
    if not low and not hidden:
        return None  # nothing to share (the avstickshög may hold them all): no shuffle
    kind = options.low_cards_shuffler
    if kind == "first_leader":
        if state.first_leader is None:
            state.stop(_("the Goat shuffles the low cards, and who led the first trick is unknown"))
            return None
        shufflers = frozenset((state.first_leader,))
    elif kind == "not_receiving":
        shufflers = frozenset(p for p in range(state.n) if p not in receivers) or frozenset(
            range(state.n)
        )
    else:
        shufflers = frozenset(range(state.n))
    note(state, ev.LowCardsShared, tuple(receivers), threshold)
    return DealDue(
        kind="low_cards",
        cards=low,
        receivers=receivers,
        ordered=options.low_cards_shares == "deal_order",
        shufflers=shufflers,
        to_piles=False,
        what="the low cards",
        hidden=hidden,
        optional=not low,
    )


def begin_phase_two(state: State) -> None:
    """The trump card's drawer leads, or the last trick's winner where the variant says so."""
    if state.options.phase_two_leader == "last_trick_winner" and state.last_winner is not None:
        leader = state.last_winner
    elif state.indicator_holder is not None:
        leader = state.indicator_holder
    else:  # no trick was won (ties dealt out) and nobody drew the trump card
        leader = state.leader  # the last trick's leader, who would have led again
    start_phase_two(state, leader)
