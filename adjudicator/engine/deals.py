"""The ``deal`` act: the recorded outcome of a shuffle the rules leave to chance.

A deal is due when the state holds a :class:`DealDue` (the unfinished trick
dealt out, a Koira tie shared out, the low cards).  The engine cannot know the
shuffle, so the record says who got what; the engine checks that the shuffler
may shuffle, that exactly the right cards are dealt, to exactly the right
players, in shares the rule allows.

With hidden cards in the hands, a low-card deal may name low cards nobody had
seen, as long as the hands together hold that many hidden cards; whether every
low card was dealt is then a check that cannot be made.
"""

from __future__ import annotations

from collections import Counter

from adjudicator.actions import Action
from adjudicator.cards import Card, cards_text
from adjudicator.engine import events as ev
from adjudicator.engine import intermission
from adjudicator.engine.events import note
from adjudicator.engine.state import DealDue, State, one_at_a_time
from adjudicator.engine.violations import Violation
from adjudicator.i18n import _
from adjudicator.speech import dealt_said


def _names(state: State, players: object) -> str:
    seats = sorted(players)  # type: ignore[call-overload]
    return _(" or ").join(state.names[p] for p in seats)


def whose_turn(state: State) -> str:
    """Who is to deal and what."""
    due = state.deal
    assert due is not None
    return _("{what} must be dealt first, by {names}").format(
        what=dealt_said(due.what), names=_names(state, due.shufflers)
    )


def due_message(state: State) -> str:
    """Why no other act can come now."""
    text = whose_turn(state)
    return text[0].upper() + text[1:]


def _received(action: Action) -> dict[int, list[Card]]:
    got: dict[int, list[Card]] = {}
    for player, cards in action.to:
        got.setdefault(player, []).extend(cards)
    return got


def check(state: State, action: Action) -> Violation | None:
    """Why this deal is not the one the rules allow, or None."""
    due = state.deal
    assert due is not None
    names = state.names
    if action.act != "deal":
        return Violation("deal.due", due_message(state))
    if action.player not in due.shufflers:
        return Violation(
            "deal.shuffler",
            _("{name} may not shuffle {what}: {names} does").format(
                name=names[action.player],
                what=dealt_said(due.what),
                names=_names(state, due.shufflers),
            ),
        )
    got = _received(action)
    strangers = [p for p, cards in got.items() if cards and p not in due.receivers]
    if strangers:
        who = ", ".join(names[p] for p in strangers)
        return Violation(
            "deal.receivers",
            _("{names} may not receive any of {what}; they go to {receivers}").format(
                names=who,
                what=dealt_said(due.what),
                receivers=", ".join(names[p] for p in due.receivers),
            ),
        )
    dealt = Counter(c for cards in got.values() for c in cards)
    wanted = Counter(due.cards)
    missing = sorted((wanted - dealt).elements())
    surplus = dealt - wanted
    extra: list[Card] = []
    for card, times in sorted(surplus.items()):
        if not (intermission.is_low(state, card) and times <= state.unseen[card]):
            extra += [card] * times
    if not extra and surplus.total() > due.hidden:
        extra = sorted(surplus.elements())
    if missing or extra:
        parts = []
        if missing:
            parts.append(_("{cards} not dealt").format(cards=cards_text(missing)))
        if extra:
            parts.append(_("{cards} not among them").format(cards=cards_text(extra)))
        if due.hidden:
            text = _(
                "The cards to deal ({what}) are {cards} and up to {count} unseen low cards: "
                "{problems}"
            )
        else:
            text = _("The cards to deal ({what}) are {cards}: {problems}")
        return Violation(
            "deal.cards",
            text.format(
                what=dealt_said(due.what),
                cards=cards_text(due.cards),
                count=due.hidden,
                problems="; ".join(parts),
            ),
        )
    sizes = tuple(len(got.get(p, ())) for p in due.receivers)

    def counts(numbers: tuple[int, ...]) -> str:
        return ", ".join(f"{names[p]} {k}" for p, k in zip(due.receivers, numbers, strict=True))

    total = sum(sizes)
    if due.ordered:
        shares = one_at_a_time(total, len(due.receivers))
        if sizes != shares:
            return Violation(
                "deal.shares",
                _(
                    "Dealt one at a time in turn, {what} give {shares}; the record gives {sizes}"
                ).format(what=dealt_said(due.what), shares=counts(shares), sizes=counts(sizes)),
            )
    elif max(sizes) - min(sizes) > 1:
        return Violation(
            "deal.shares",
            _(
                "The cards to deal ({what}) are shared as evenly as possible; "
                "the record gives {sizes}"
            ).format(what=dealt_said(due.what), sizes=counts(sizes)),
        )
    if due.hidden and total - len(due.cards) < due.hidden:
        return Violation(
            "deal.cards",
            _(
                "Whether every low card was dealt is unknown: hidden cards in the hands may be "
                "low cards too ({count} could be)"
            ).format(count=due.hidden),
            undetermined=True,
        )
    return None


def canonical(due: DealDue) -> tuple[tuple[int, tuple[Card, ...]], ...]:
    """One lawful outcome: the cards in order, one at a time round the receivers."""
    k = len(due.receivers)
    shares: list[list[Card]] = [[] for _ in range(k)]
    for i, card in enumerate(due.cards):
        shares[i % k].append(card)
    return tuple((p, tuple(cards)) for p, cards in zip(due.receivers, shares, strict=True))


def candidates(state: State) -> list[Action]:
    """A couple of lawful deals per shuffler (the shuffle itself is chance)."""
    due = state.deal
    assert due is not None
    plain = canonical(due)
    backwards = canonical(
        DealDue(
            due.kind, tuple(reversed(due.cards)), due.receivers, due.ordered, due.shufflers, False
        )
    )
    out = []
    for shuffler in sorted(due.shufflers):
        out.append(Action(shuffler, "deal", (), plain))
        if backwards != plain:
            out.append(Action(shuffler, "deal", (), backwards))
    return out


def generate(state: State) -> list[Action]:
    """The legal deals, generated directly: each candidate deals exactly the cards due, one
    at a time round the receivers, by a shuffler who may shuffle them.

    While hidden cards may be low cards too (``due.hidden``), a deal of only the
    known ones is undetermined, so none is listed (:func:`check` says why).
    """
    due = state.deal
    assert due is not None
    if due.hidden:
        return []
    return candidates(state)


def _give_up_low(state: State, due: DealDue, dealt: list[Card]) -> None:
    """Every hand gives up its low cards; unseen ones named by the deal came from hidden cards."""
    for hand in state.hands:
        hand[:] = [c for c in hand if not intermission.is_low(state, c)]
    unseen = Counter(dealt) - Counter(due.cards)
    if not unseen:
        return
    holders = [p for p in range(state.n) if state.hidden[p]]
    for card, times in unseen.items():
        state.unseen[card] -= times
    if len(holders) == 1:
        state.hidden[holders[0]] -= sum(unseen.values())
        return
    # Several hands held hidden cards: which gave up the unseen low cards is unknown.
    for _card in range(sum(unseen.values())):
        for p in holders:
            if state.hidden[p]:
                state.hidden[p] -= 1
                break
    state.stop(_("which hands gave up the unseen low cards is unknown, so their sizes are too"))


def apply(state: State, action: Action) -> None:
    """Hand the cards out as recorded, then let play go on."""
    due = state.deal
    assert due is not None
    state.deal = None
    got = _received(action)
    if due.kind == "low_cards":
        _give_up_low(state, due, [c for cards in got.values() for c in cards])
    for player, cards in got.items():
        (state.piles if due.to_piles else state.hands)[player].extend(cards)
    if state.stopped is not None:
        return
    if due.kind == "low_cards":
        intermission.begin_phase_two(state)
    elif due.kind == "trick_out":
        intermission.after_trick_out(state)
    else:
        from adjudicator.engine import phase_one_all

        state.trick.clear()
        state.sluffs.clear()
        note(state, ev.Leads, due.leader, "again")
        phase_one_all.begin_trick(state, due.leader)


def describe(state: State, action: Action) -> ev.Act:
    """The deal: what is dealt, and to whom (``Anna deals the low cards: Bo 2♥ 5♣``)."""
    due = state.deal
    what = due.what if due is not None else "cards"
    return ev.Dealt(action.player, what, tuple((p, tuple(c)) for p, c in action.to if c))
