"""Phase one where every player plays to every trick.

000 'All Players play to Each Trick in Phase One' (Helmfrid), its 'Variants:
trick play and sluffing' and 'Variants: end of phase one'; 000 'Mattis',
'Atlanta Variation' and 'Koira'; 002 'All-player tricks'.

A trick is played in rounds: the first round is every player clockwise from
the leader; a tie for the head of the trick starts a new round of just the
tied players, in their order, until one player heads it alone.  Every play
and sluff is followed at once by drawing back to a full hand; the stock's last
card is the trump indicator, kept face down by its drawer.  The winner takes
the trick (with any sluffs) and leads the next one.

When sluffing is allowed after the trick is decided, the trick stays on the
table until its winner leads again (or, with unlimited sluffing, takes it with
the act ``take``).  If no new trick would begin (phase one is over), the
winner takes the trick at once and nobody sluffs to it any more.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from adjudicator.actions import Action
from adjudicator.cards import Card, card_text, cards_text, rank, suit
from adjudicator.engine import intermission
from adjudicator.engine.common import dare_problem, draw_card, held
from adjudicator.engine.state import DealDue, State
from adjudicator.engine.violations import Violation

RANK_WORDS = {11: "jack", 12: "queen", 13: "king", 14: "ace"}


def rank_word(r: int) -> str:
    """``7`` or ``queen``: a rank as said at the table."""
    return RANK_WORDS.get(r, str(r))


# --- the course of a trick ------------------------------------------------------


def begin_trick(state: State, leader: int) -> None:
    """``leader`` leads a new trick, unless the rules end phase one first."""
    n = state.n
    state.trick.clear()
    state.sluffs.clear()
    state.decided = None
    state.replay = False
    state.tied = []
    state.head_rank = 0
    state.sluffed = [False] * n
    state.own_rank = [None] * n
    if not _trick_begins(state, leader):
        intermission.end_phase_one(state)
        return
    seats = [(leader + i) % n for i in range(n)]
    if state.options.phase_one_end == "skip_empty":
        seats = [s for s in seats if state.hands[s]]
        leader = seats[0]
    state.leader = leader
    state.round = seats
    state.round_at = 0
    state.round_plays = []
    _advance(state)


def _trick_begins(state: State, leader: int) -> bool:
    """Whether a new trick begins, or phase one ends here (000 'Variants: end of phase one')."""
    end = state.options.phase_one_end
    hands = state.hands
    if end == "skip_empty":
        return bool(state.stock) or any(hands)
    if not state.stock:
        if end == "talon_empty":
            return False
        if end == "two_cards" and any(len(hand) < 2 for hand in hands):
            return False
    return bool(hands[leader]) or len(state.stock) >= 2


def _advance(state: State) -> None:
    """The next player due to play in this round; decide the round when all have played."""
    while state.round_at < len(state.round):
        player = state.round[state.round_at]
        if state.hands[player] or len(state.stock) >= 2:
            state.turn = player
            return
        if state.options.phase_one_end != "skip_empty":
            intermission.end_phase_one(state)  # 'due to play but has no card'
            return
        if state.replay:
            _tie_out(state)
            return
        del state.round[state.round_at]  # Koira: players without cards are skipped
    _decide(state)


def head(plays: list[tuple[int, int]], tie_rule: str) -> tuple[int, list[int]]:
    """The rank heading a round and the players who played it."""
    counts = Counter(r for _, r in plays)
    top = max(counts)
    if tie_rule == "tied_beat_unique":
        tied = [r for r, times in counts.items() if times >= 2]
        if tied:
            top = max(tied)
    return top, [p for p, r in plays if r == top]


def _decide(state: State) -> None:
    """Everybody in the round has played: a winner, or the tied players play again."""
    top, heads = head(state.round_plays, state.options.tie_rule)
    state.head_rank = top
    if len(heads) == 1:
        _settle(state, heads[0])
    elif state.options.tie_resolution == "deal_ascending" and _others_on_table(state, heads):
        _share_ascending(state, heads)
    else:
        state.replay = True
        state.tied = heads
        state.round = heads
        state.round_at = 0
        state.round_plays = []
        _advance(state)


def _others_on_table(state: State, heads: list[int]) -> bool:
    """Whether the trick holds cards besides the tied plays of this round.

    When it holds only tied cards, taking them back and dealing nothing would
    set up the very same trick again (for ever, if the players have no other
    cards); the tie is then played off as usual.
    """
    if state.sluffs or len(state.trick) > len(state.round_plays):
        return True
    return any(p not in heads for p, _ in state.round_plays)


def _settle(state: State, winner: int) -> None:
    """The trick is decided: take it now, or leave it open for sluffs."""
    state.last_winner = winner
    state.replay = False
    state.tied = []
    state.turn = winner
    sluffing = state.options.sluffing
    if sluffing == "none":
        _take(state, winner)
        begin_trick(state, winner)
        return
    state.decided = winner
    if sluffing != "unlimited":
        _close_if_last(state)


def _close_if_last(state: State) -> None:
    """If the winner cannot lead again (phase one ends, or they hold no card), the trick is
    taken now: the window for sluffs closes with the winner's next lead."""
    winner = state.decided
    if winner is None:
        return
    can_lead = bool(state.hands[winner]) or len(state.stock) >= 2
    if not can_lead or not _trick_begins(state, winner):
        _take(state, winner)
        begin_trick(state, winner)


def _take(state: State, winner: int) -> None:
    """The winner takes every card played or sluffed to the trick."""
    pile = state.piles[winner]
    for _, cards in state.trick:
        pile.extend(cards)
    for _, cards in state.sluffs:
        pile.extend(cards)
    state.trick.clear()
    state.sluffs.clear()
    state.decided = None


def _share_ascending(state: State, heads: list[int]) -> None:
    """000 'Koira', variants: tied cards back to hand, the rest dealt lowest first.

    The deal starts with the last tied player and goes counter-clockwise among
    the tied players, into their piles; the same leader leads again.
    """
    n = state.n
    first_of_round = len(state.trick) - len(state.round_plays)
    back = {first_of_round + i for i, (p, _) in enumerate(state.round_plays) if p in heads}
    rest: list[Card] = []
    for i, (player, cards) in enumerate(state.trick):
        if i in back:
            state.hands[player].extend(cards)
        else:
            rest.extend(cards)
    for _, cards in state.sluffs:
        rest.extend(cards)
    last = heads[-1]
    order = sorted(heads, key=lambda p: (last - p) % n)
    for i, card in enumerate(sorted(rest, key=lambda c: (rank(c), suit(c)))):
        state.piles[order[i % len(order)]].append(card)
    state.trick.clear()
    state.sluffs.clear()
    begin_trick(state, state.leader)


def _tie_out(state: State) -> None:
    """000 'Koira': a tied player has no card to play again, so the trick is shared out."""
    cards = [c for _, played in state.trick for c in played]
    cards += [c for _, sluffed in state.sluffs for c in sluffed]
    state.deal = DealDue(
        kind="tie_out",
        cards=tuple(sorted(cards)),
        receivers=tuple(state.tied),
        shares=None,
        shufflers=frozenset(range(state.n)),
        to_piles=True,
        leader=state.leader,
        what="the tied trick",
    )
    state.turn = None


def draw_up(state: State, player: int) -> None:
    """Draw back to a full hand; the stock's last card is the indicator, kept apart."""
    hand = state.hands[player]
    size = state.options.hand_size
    while len(hand) < size and state.stock:
        draw_card(state, player)


# --- what may be done ---------------------------------------------------------------


def must_tie(state: State, player: int) -> int | None:
    """The rank ``player`` must play under compulsory ties, or None (000 'Variants')."""
    options = state.options
    if not options.compulsory_ties or not state.round_plays or state.decided is not None:
        return None
    mine = {rank(c) for c in state.hands[player]}
    played = Counter(r for _, r in state.round_plays)
    if options.tie_rule == "highest":
        top = max(played)
        return top if top in mine else None
    # Only a tie standing on a *higher* rank frees the player: joining the heading tie
    # is compulsory too, as joining the highest rank is under 'highest'.
    tied = [r for r, times in played.items() if times >= 2]
    floor = max(tied) if tied else 0
    makeable = [r for r in played if r >= floor and r in mine]
    return max(makeable) if makeable else None


def whose_turn(state: State) -> str:
    """Why it is the current player's turn, in table language."""
    names = state.names
    if state.turn is None:
        return "nobody is to play"
    name = names[state.turn]
    if state.decided is not None:
        if state.options.sluffing == "unlimited":
            return f"{name} won the trick and takes it next"
        return f"{name} won the trick and leads the next"
    if state.replay:
        return f"{name} plays again to break the tie"
    if not state.trick:
        return f"{name} leads this trick"
    return f"{name} plays next to {names[state.leader]}'s trick"


def _sluff_candidates(state: State) -> list[Action]:
    out = []
    for player, hand in enumerate(state.hands):
        cards = sorted(set(hand))
        for size in range(1, len(cards) + 1):
            out.extend(Action(player, "sluff", combo) for combo in combinations(cards, size))
    return out


def candidates(state: State) -> list[Action]:
    """Every action worth testing now (a superset of the legal ones)."""
    out: list[Action] = []
    player = state.turn
    if player is not None:
        by_rank: dict[int, list[Card]] = {}
        for card in sorted(set(state.hands[player])):
            by_rank.setdefault(rank(card), []).append(card)
        most = state.options.hand_size if state.options.multi_card_plays else 1
        for cards in by_rank.values():
            for size in range(1, min(most, len(cards)) + 1):
                out.extend(Action(player, "play", combo) for combo in combinations(cards, size))
        out += [Action(player, "dare"), Action(player, "pick"), Action(player, "take")]
    if state.options.sluffing != "none" and state.trick:
        out += _sluff_candidates(state)
    return out


def check(state: State, action: Action) -> Violation | None:
    """Why ``action`` is illegal now, or None.  Turn order is checked by the caller."""
    act = action.act
    names = state.names
    p = action.player
    if act == "sluff":
        return _check_sluff(state, action)
    if act == "pick":
        return Violation(
            "phase1.pick",
            "Nobody picks up in phase one: the player to move plays a card or dares",
        )
    if act == "take":
        if action.cards:
            return Violation("phase1.take", "A take names no cards: the winner takes them all")
        if state.decided is None:
            return Violation(
                "phase1.take",
                "The trick is not decided yet: nothing can be taken"
                if state.trick
                else "There is no trick on the table to take",
            )
        return None
    if state.decided is not None and state.options.sluffing == "unlimited":
        return Violation(
            "phase1.take.due",
            f"{names[p]} won the trick and must take it (act 'take') before leading again",
        )
    must = must_tie(state, p)
    if act == "dare":
        bad = dare_problem(state, action)
        if bad is not None:
            return bad
        if must is not None:
            return Violation(
                "phase1.tie.compulsory",
                f"{names[p]} holds a {rank_word(must)} and must play it to make a tie, not dare",
            )
        return None
    if act != "play":
        return None
    cards = action.cards
    most = state.options.hand_size if state.options.multi_card_plays else 1
    if not 1 <= len(cards) <= most:
        allowed = "one card" if most == 1 else f"one to {most} cards of one rank"
        return Violation(
            "play.count",
            f"A play in phase one is {allowed}; {names[p]} named "
            + (f"{len(cards)} ({cards_text(cards)})" if cards else "none"),
        )
    if len({rank(c) for c in cards}) > 1:
        return Violation(
            "phase1.play.rank",
            f"The cards of one play must be of one rank: {cards_text(cards)} are not",
        )
    bad = held(state, action)
    if bad is not None:
        return bad
    if len(set(cards)) != len(cards):
        return Violation("play.count", f"{names[p]} names the same card twice")
    if must is not None and rank(cards[0]) != must:
        return Violation(
            "phase1.tie.compulsory",
            f"{names[p]} holds a {rank_word(must)} and must play it to make a tie "
            f"(compulsory ties), not {cards_text(cards)}",
        )
    return None


def heading_plays(state: State) -> set[int]:
    """Indices in ``trick`` of the plays heading it now.

    In a round under way (or just decided), its plays of the heading rank; at
    the start of a tie's replay, the tied plays (each tied player's latest).
    """
    trick = state.trick
    plays = state.round_plays
    if plays:
        first = len(trick) - len(plays)
        return {first + i for i, (_, r) in enumerate(plays) if r == state.head_rank}
    latest: dict[int, int] = {}
    for i, (player, _) in enumerate(trick):
        if player in state.tied:
            latest[player] = i
    return set(latest.values())


def losing_ranks(state: State) -> set[int]:
    """Ranks of cards played to the trick and losing it (000 'Atlanta Variation').

    Judged card by card: a 9 that lost in the first round is a losing card even
    if another 9 heads the tie's replay, so nines may be sluffed.
    """
    heading = heading_plays(state)
    return {rank(cards[0]) for i, (_, cards) in enumerate(state.trick) if i not in heading}


def _check_sluff(state: State, action: Action) -> Violation | None:
    mode = state.options.sluffing
    names = state.names
    p = action.player
    if not action.cards:
        return Violation("play.count", f"A sluff names the cards; {names[p]} named none")
    bad = held(state, action)
    if bad is not None:
        return bad
    if len(set(action.cards)) != len(action.cards):
        return Violation("play.count", f"{names[p]} names the same card twice")
    if not state.trick:
        return Violation("phase1.sluff.window", "There is no trick on the table to sluff to")
    played = any(player == p for player, _ in state.trick)
    if mode == "once":
        if state.decided is None:
            return Violation(
                "phase1.sluff.window",
                "Sluffing comes once the trick is decided, not while it is being played",
            )
        allowed = {rank(c) for _, cards in state.trick for c in cards}
        allowed |= {rank(c) for _, cards in state.sluffs for c in cards}
        what = "ranks already in the trick"
    elif mode == "unlimited":
        allowed = {rank(c) for _, cards in state.trick for c in cards}
        allowed |= {rank(c) for _, cards in state.sluffs for c in cards}
        what = "ranks already in the trick"
    elif mode == "own_rank":
        own = state.own_rank[p]
        if own is None:
            return Violation(
                "phase1.sluff.window",
                f"{names[p]} has not played to this trick, so has no rank to sluff",
            )
        allowed = {own}
        what = f"the rank {names[p]} played ({rank_word(own)})"
    else:  # atlanta
        if not played:
            return Violation(
                "phase1.sluff.window",
                f"{names[p]} has not played to this trick yet: a sluff comes after playing",
            )
        allowed = losing_ranks(state)
        what = "ranks already played and not heading the trick"
    if mode in ("once", "atlanta") and state.sluffed[p]:
        return Violation("phase1.sluff.once", f"{names[p]} has already sluffed to this trick")
    wrong = [c for c in action.cards if rank(c) not in allowed]
    if wrong:
        shown = " ".join(rank_word(r) for r in sorted(allowed)) or "none"
        return Violation(
            "phase1.sluff.rank",
            f"{cards_text(wrong)} may not be sluffed: only {what} may ({shown})",
        )
    return None


# --- doing it ------------------------------------------------------------------------


def apply(state: State, action: Action) -> None:
    """Play, dare, sluff or take; draw back up; move the trick on."""
    act = action.act
    p = action.player
    if act == "sluff":
        hand = state.hands[p]
        for card in action.cards:
            hand.remove(card)
        state.sluffs.append((p, tuple(action.cards)))
        state.sluffed[p] = True
        draw_up(state, p)
        if state.decided is not None:
            if state.options.sluffing != "unlimited":
                _close_if_last(state)
        elif state.turn == p and not state.hands[p] and len(state.stock) < 2:
            _advance(state)  # the player due sluffed their last card: skipped, or the end
        return
    if act == "take":
        _take(state, p)
        begin_trick(state, p)
        return
    if state.decided is not None:  # the winner leads again: the trick is taken first
        _take(state, p)
        begin_trick(state, p)
    if act == "dare":
        cards: tuple[Card, ...] = (state.stock.pop(),)
    else:
        cards = tuple(action.cards)
        hand = state.hands[p]
        for card in cards:
            hand.remove(card)
        draw_up(state, p)
    state.trick.append((p, cards))
    played_rank = rank(cards[0])
    state.round_plays.append((p, played_rank))
    state.own_rank[p] = played_rank
    state.head_rank = head(state.round_plays, state.options.tie_rule)[0]
    state.round_at += 1
    _advance(state)


def narrate(state: State, action: Action) -> str:
    """The action in words; call before applying it."""
    name = state.names[action.player]
    act = action.act
    if act == "sluff":
        return f"{name} sluffs {cards_text(action.cards)}"
    if act == "take":
        count = sum(len(c) for _, c in state.trick) + sum(len(c) for _, c in state.sluffs)
        return f"{name} takes the trick ({count} cards)"
    if act == "dare":
        shown = f" and turns {card_text(state.stock[-1])}" if state.stock else ""
        what = f"{name} dares{shown}"
    else:
        what = f"{name} plays {cards_text(action.cards)}"
    if not state.trick or state.decided is not None:
        return what.replace(" plays ", " leads ", 1) if act == "play" else what + " to lead"
    if state.replay:
        return what + " to break the tie"
    return what
