"""Checks and moves shared by every phase: cards held, dares, draws, hidden cards.

Hidden cards (``??``) enter here: a card named by an action comes from the
hand's known cards first, and otherwise from one of its hidden cards, which
then becomes known (it must be a card known to be nowhere else).  Whether a
hand *could* hold a card of some kind is three-valued: True, False, or None
when only a hidden card could say.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from adjudicator.actions import Action
from adjudicator.cards import UNKNOWN, Card, card_text, cards_text, sorted_hand
from adjudicator.engine.state import State
from adjudicator.engine.violations import Violation
from adjudicator.i18n import N_, _, ngettext, number

ONE_CARD_ACTS = (N_("A play in phase one"),)
"""What :func:`one_card` is told a one-card act is (translated only when it refuses one)."""


def holding(state: State, player: int) -> str:
    """A hand in words: ``7♥ Q♠ and 2 unseen cards``."""
    shown = cards_text(sorted_hand(state.hands[player], state.trump))
    hidden = state.hidden[player]
    if hidden:
        unseen = ngettext("{count} unseen card", "{count} unseen cards", hidden).format(
            count=hidden
        )
        return _("{cards} and {unseen}").format(cards=shown, unseen=unseen) if shown else unseen
    return shown or _("no cards")


def index_of(cards: list[Card], card: Card) -> int:
    """Where ``card`` first lies in ``cards``, or -1.  A plain loop, as the compiled engine
    runs it fastest: ``in`` and ``list.remove`` compare each card as an object."""
    for i in range(len(cards)):
        if cards[i] == card:
            return i
    return -1


def held(state: State, action: Action) -> Violation | None:
    """Every card named must be in the player's hand (as many times as named).

    A card not among the hand's known cards may be one of its hidden cards, if
    the hand has enough of them and the card is known to be nowhere else.
    """
    p = action.player
    hand = state.hands[p]
    cards = action.cards
    if len(cards) == 1:
        if index_of(hand, cards[0]) >= 0:
            return None
    elif len(set(cards)) == len(cards) and all(index_of(hand, c) >= 0 for c in cards):
        return None
    need = Counter(cards)
    have = Counter(hand)
    elsewhere: list[Card] = []
    from_hidden = 0
    for card, times in need.items():
        short = times - have[card]
        if short > 0:
            from_hidden += short
            if short > state.unseen[card]:
                elsewhere.append(card)
    name = state.names[p]
    twice = [c for c in elsewhere if have[c]]
    if twice:  # holds the card, names it more often than it is held
        card = twice[0]
        return Violation(
            "play.held",
            _("{name} holds {held} {card} and names it {times} (holds {hand})").format(
                name=name,
                held=_times(have[card], need[card])[0],
                card=card_text(card),
                times=_times(have[card], need[card])[1],
                hand=holding(state, p),
            ),
        )
    if elsewhere:
        where = cards_text(elsewhere)
        if not state.hidden[p]:
            return Violation(
                "play.held",
                _("{name} does not hold {cards} (holds {hand})").format(
                    name=name, cards=where, hand=holding(state, p)
                ),
            )
        return Violation(
            "play.held",
            _("{name} does not hold {cards}: it is known to be elsewhere (holds {hand})").format(
                name=name, cards=where, hand=holding(state, p)
            ),
        )
    if from_hidden > state.hidden[p]:
        missing = [c for c, times in need.items() if times > have[c]]
        return Violation(
            "play.held",
            _("{name} does not hold {cards} (holds {hand})").format(
                name=name, cards=cards_text(missing), hand=holding(state, p)
            ),
        )
    return None


def _times(held: int, named: int) -> tuple[str, str]:
    """A card held ``one``/``two`` times and named ``twice``/``3 times``, in words."""
    copies = {1: _("one"), 2: _("two")}.get(held, str(held))
    if named == 2:
        times = _("twice")
    else:
        times = ngettext("{count} time", "{count} times", named).format(count=named)
    return copies, times


def take_from_hand(state: State, player: int, cards: Iterable[Card]) -> None:
    """Remove played cards from a hand: known ones first, else a hidden card turns out to be it."""
    hand = state.hands[player]
    for card in cards:
        at = index_of(hand, card)
        if at >= 0:
            del hand[at]
        else:
            state.hidden[player] -= 1
            state.unseen[card] -= 1


def may_hold(state: State, player: int, match: Callable[[Card], bool]) -> bool | None:
    """Whether ``player`` holds a card that ``match`` accepts: True, False, or None (unknown)."""
    if any(match(c) for c in state.hands[player]):
        return True
    if state.hidden[player] and any(state.unseen[c] and match(c) for c in range(52)):
        return None
    return False


def dare_floor(state: State) -> int:
    """Fewest cards the stock must hold for a dare: its last card may be the trump card."""
    return 1 if state.options.trump_card == "set_aside" else 2


def can_dare(state: State) -> bool:
    """Whether the stock may be dared now (a dare is the same act in both kinds of phase one)."""
    return state.options.dare and len(state.stock) >= dare_floor(state)


def dare_problem(state: State, action: Action) -> Violation | None:
    """A dare turns the stock's top card, never a trump card lying under the stock.

    pagat.com, 'Play in the first phase' and 'All Players play to Each Trick in
    Phase One'; the Goat treatise, II.E.1 (the tap: the whole stock may be dared).
    """
    stock = state.stock
    floor = dare_floor(state)
    if len(stock) < floor:
        return Violation(
            "phase1.dare.stock",
            (
                _("A dare needs a card in the stock; it holds {count}")
                if floor == 1
                else _("A dare needs two or more cards in the stock; it holds {count}")
                if not stock
                else _(
                    "A dare needs two or more cards in the stock; it holds {count} "
                    "(the trump card, which is never dared)"
                )
            ).format(count=len(stock)),
        )
    top = stock[-1]
    if top == UNKNOWN:
        if not action.cards:
            return Violation(
                "record.dare",
                _("The stock's top card is unknown, so the dare must name the card turned"),
                invalid=True,
            )
        if len(action.cards) != 1:
            return Violation(
                "phase1.dare.card",
                _("A dare turns one card, not {cards}").format(cards=cards_text(action.cards)),
            )
        if not state.may_be_unseen(action.cards[0]):
            return Violation(
                "phase1.dare.card",
                _(
                    "The stock's top card cannot be {card}: that card is known to be elsewhere"
                ).format(card=card_text(action.cards[0])),
            )
        return None
    if action.cards and (len(action.cards) != 1 or action.cards[0] != top):
        return Violation(
            "phase1.dare.card",
            _("The stock's top card is {card}, not {cards}").format(
                card=card_text(top), cards=cards_text(action.cards)
            ),
        )
    return None


def dared_card(state: State, action: Action) -> Card | None:
    """The card a dare turns: the stock's top card, or the card named where it is unknown."""
    top = state.stock[-1] if state.stock else None
    return action.cards[0] if action.cards and top in (None, UNKNOWN) else top


def turn_dare(state: State, action: Action) -> Card:
    """Take the dared card off the stock; an unknown top is the card the action names."""
    card = state.stock.pop()
    if card == UNKNOWN:
        card = action.cards[0]
        state.unseen[card] -= 1
    if not state.stock:
        state.stock_done = True
    return card


def draw_card(state: State, player: int) -> None:
    """Draw the stock's top card.

    Its last card is the trump card under 'stock_last' (kept face down by its
    drawer) and under 'turned_up' (face up, into the hand: its drawer leads
    phase two).
    """
    card = state.stock.pop()
    if not state.stock:
        state.stock_done = True
        kind = state.options.trump_card
        if kind == "stock_last":
            state.indicator = card
            state.indicator_holder = player
            state.indicator_down = True
            return
        if kind == "turned_up":
            state.indicator_holder = player
    if card == UNKNOWN:
        state.hidden[player] += 1
    else:
        state.hands[player].append(card)


def draw_up(state: State, player: int) -> None:
    """Draw back to a full hand while the stock lasts."""
    size = state.options.hand_size
    hand = state.hands[player]
    hidden = state.hidden
    while state.stock and len(hand) + hidden[player] < size:
        draw_card(state, player)


def one_card(state: State, action: Action, what: str) -> Violation | None:
    """Exactly one card must be named."""
    if len(action.cards) == 1:
        return None
    count = len(action.cards)
    return Violation(
        "play.count",
        (
            _("{what} is one card; {name} named none")
            if count == 0
            else _("{what} is one card; {name} named {count} ({cards})")
        ).format(
            what=_(what),
            name=state.names[action.player],
            count=number(count),
            cards=cards_text(action.cards),
        ),
    )


def unique_plays(hand: list[Card]) -> list[tuple[Card, ...]]:
    """Each distinct card of a hand as a one-card play, in a stable order."""
    return [(c,) for c in sorted(set(hand))]


def card_list(cards: tuple[Card, ...]) -> str:
    """``7♥`` or ``7♥ 8♥``."""
    return cards_text(cards) if len(cards) != 1 else card_text(cards[0])


def attempted(action: Action, due: Sequence[Card] | None) -> tuple[Card, ...] | None:
    """The cards a pick picks up as the record names them: a refused pick is narrated
    as it was attempted, not with the cards the rule would give (issue 24, point 2)."""
    if action.cards and (due is None or sorted(action.cards) != sorted(due)):
        return tuple(action.cards)
    return tuple(due) if due is not None else None
