"""The rules engine: ``legal_actions``, ``check`` and ``apply`` on one State.

``check`` is the one source of legality: ``legal_actions`` is the list of
candidate actions that ``check`` passes, so the two cannot disagree.
"""

from __future__ import annotations

from adjudicator.actions import Action
from adjudicator.cards import card_text
from adjudicator.engine import deals, phase_one_all, phase_one_pairs, phase_two
from adjudicator.engine.phase_two import start_phase_two
from adjudicator.engine.state import OVER, PHASE_ONE, PHASE_TWO, State, TableView
from adjudicator.engine.violations import IllegalAction, Violation
from adjudicator.record import Game
from adjudicator.rules.options import RuleOptions

__all__ = [
    "IllegalAction",
    "State",
    "TableView",
    "Violation",
    "apply",
    "check",
    "legal_actions",
    "narrate",
    "new_state",
    "push",
    "variant_acts",
]


def variant_acts(options: RuleOptions) -> frozenset[str]:
    """The acts a variant has at all, derived from its options."""
    acts = {"play", "pick"}
    if options.dare:
        acts.add("dare")
    if options.sluffing != "none":
        acts.add("sluff")
    if options.sluffing == "unlimited":
        acts.add("take")
    if (
        options.low_cards
        or options.low_cards_by_indicator
        or options.unfinished_trick == "deal_out"
        or options.phase_one_end == "skip_empty"
    ):
        acts.add("deal")
    return frozenset(acts)


def new_state(game: Game) -> State:
    """The table before the first action: dealt from the deck, or the start position."""
    state = State(game.options, game.players)
    if game.deck is not None:
        assert game.dealer is not None and game.first_leader is not None
        n = len(game.players)
        size = game.options.hand_size
        # 000 'Two Player Game': the avstickshög is set aside before the deal.
        reserve = game.options.reserve
        state.reserve = list(reversed(game.deck[:reserve]))
        deck = game.deck[reserve:]
        for i in range(n * size):
            state.hands[(game.dealer + 1 + i) % n].append(deck[i])
        state.stock = list(reversed(deck[n * size :]))
        state.dealer = game.dealer
        state.leader = game.first_leader
        state.second = state.left_of(state.leader)
        state.turn = state.leader
        state.phase = PHASE_ONE
        if game.options.phase_one == "all":
            phase_one_all.begin_trick(state, game.first_leader)
    else:
        assert game.start_hands is not None and game.start_leader is not None
        state.hands = [list(h) for h in game.start_hands]
        state.trump = game.start_trump
        start_phase_two(state, game.start_leader)
    return state


def _phase(state: State):
    """The module whose rules apply now."""
    if state.deal is not None:
        return deals
    if state.phase == PHASE_ONE:
        return phase_one_all if state.options.phase_one == "all" else phase_one_pairs
    return phase_two


def check(state: State, action: Action) -> Violation | None:
    """Why ``action`` is illegal in ``state``, or None when it is legal."""
    names = state.names
    if state.phase == OVER:
        who = (
            f"{names[state.loser]} is the loser"
            if state.loser is not None
            else "nobody holds cards"
        )
        return Violation("game.over", f"The game is already over ({who}); nothing may follow")
    if action.act not in variant_acts(state.options):
        return Violation("act.variant", f"'{action.act}' is not an act of this variant's rules")
    if state.deal is not None:
        return deals.check(state, action)
    if action.act == "deal":
        return Violation("deal.none", "Nothing is to be dealt now: no shuffle is due")
    if state.phase == PHASE_TWO and action.act in ("sluff", "take"):
        return Violation(
            "phase2.act",
            f"'{action.act}' belongs to phase one; in phase two a player beats or picks up",
        )
    module = _phase(state)
    if action.act == "sluff":
        return module.check(state, action)  # anyone may sluff when the rules allow it
    if action.player != state.turn:
        return Violation(
            "turn.order",
            f"It is not {names[action.player]}'s turn: {module.whose_turn(state)}",
        )
    return module.check(state, action)


def legal_actions(state: State) -> list[Action]:
    """Every legal action now (a pick or dare is listed without naming cards)."""
    if state.phase == OVER:
        return []
    acts = variant_acts(state.options)
    return [a for a in _phase(state).candidates(state) if a.act in acts and check(state, a) is None]


def apply(state: State, action: Action) -> None:
    """Carry out a legal action in place.  Call :func:`check` first."""
    _phase(state).apply(state, action)


def push(state: State, action: Action) -> None:
    """Check and apply; raise :class:`IllegalAction` with the violation if illegal."""
    bad = check(state, action)
    if bad is not None:
        raise IllegalAction(bad)
    apply(state, action)


def narrate(state: State, action: Action) -> str:
    """The action in words, as said at the table; call before applying it."""
    if state.deal is not None and action.act == "deal":
        return deals.narrate(state, action)
    if state.phase == PHASE_ONE and state.options.phase_one == "all":
        return phase_one_all.narrate(state, action)
    name = state.names[action.player]
    cards = " ".join(card_text(c) for c in action.cards)
    if action.act == "dare":
        if state.phase == PHASE_ONE and state.stock:
            return f"{name} dares and turns {card_text(state.stock[-1])}"
        return f"{name} dares"
    if action.act == "pick":
        if state.trick and state.phase != PHASE_ONE:
            return f"{name} {phase_two.describe_pick(state, action.player)}"
        return f"{name} picks up"
    if action.act == "play":
        if not state.trick or (state.phase == PHASE_ONE and len(state.trick) % 2 == 0):
            return f"{name} leads {cards}"
        if state.phase == PHASE_ONE:
            return f"{name} plays {cards} to {card_text(state.trick[-1][1][-1])}"
        top = " ".join(card_text(c) for c in state.trick[-1][1])
        cards = " ".join(card_text(c) for c in sorted(action.cards))
        return f"{name} beats {top} with {cards}"
    return f"{name} {action.act}s {cards}".rstrip()
