"""Phase one where every player plays to every trick.

pagat.com, 'All Players play to Each Trick in Phase One' (Helmfrid), its
'Variants: trick play and sluffing' and 'Variants: end of phase one';
pagat.com, 'Mattis', 'Atlanta Variation' and 'Koira'; Wikipedia, 'All-player
tricks'; the Goat treatise, II (rounds, the Important Restriction, sluffing
with its two restrictions, wars).

A trick is played in rounds: the first round is every player clockwise from
the leader; a tie for the head of the trick starts a new round of just the
tied players, in their order, until one player heads it alone (a war).  Every
play and sluff is followed at once by drawing back to a full hand, unless the
record writes its draws (``draw_back``: the act ``draw``).  The winner takes the
trick (with any sluffs) and leads the next one.

When sluffing is allowed after the trick is decided, the trick stays on the
table until the next act that is not a sluff (the winner's lead, or whatever
comes once phase one is over), or, with unlimited sluffing, until the winner
takes it with the act ``take``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from adjudicator.actions import DARE, DRAW, TAKE, Action, single_plays
from adjudicator.cards import UNKNOWN, Card, cards_text, suit
from adjudicator.engine import events as ev
from adjudicator.engine import intermission
from adjudicator.engine.common import (
    can_dare,
    dare_problem,
    dared_card,
    draw_card,
    draw_up,
    held,
    may_hold,
    take_from_hand,
    turn_dare,
)
from adjudicator.engine.events import keep, note
from adjudicator.engine.state import DealDue, State
from adjudicator.engine.violations import Violation
from adjudicator.i18n import _, ngettext, number
from adjudicator.speech import a_rank_said, rank_said

_new = tuple.__new__

# --- the course of a trick ------------------------------------------------------


def begin_trick(state: State, leader: int) -> None:
    """``leader`` leads a new trick, unless the rules end phase one first."""
    n = state.n
    state.trick.clear()
    state.sluffs.clear()
    state.decided = None
    state.replay = False
    state.tied = []
    state.head_ranks = frozenset()
    state.sluffed = [False] * n
    state.own_rank = [None] * n
    state.risky = []
    reason = _no_trick(state, leader)
    if reason is not None:
        keep(state, reason)
        intermission.end_phase_one(state)
        return
    seats = [(leader + i) % n for i in range(n)]
    if state.options.phase_one_end == "skip_empty":
        seats = [s for s in seats if state.holds(s)] or seats
        leader = seats[0]
    state.leader = leader
    state.round = seats
    state.round_at = 0
    state.round_plays = []
    _advance(state)


def _no_trick(state: State, leader: int) -> ev.PhaseOneEnds | None:
    """Why no new trick begins (pagat.com, 'Variants: end of phase one'), or None."""
    end = state.options.phase_one_end
    if end == "skip_empty":
        if state.stock or any(state.holds(p) for p in range(state.n)):
            return None
        return ev.PhaseOneEnds("all_played")
    if not state.stock:
        if end == "talon_empty":
            return ev.PhaseOneEnds("stock_used")
        if end == "two_cards":
            short = [p for p in range(state.n) if state.count(p) < 2]
            if short:
                return ev.PhaseOneEnds("two_cards", tuple(short))
        if end == "all_hold" or end == "still_to_play":
            empty = [p for p in range(state.n) if not state.holds(p)]
            if empty:
                return ev.PhaseOneEnds("no_card_round", tuple(empty))
    if may_play(state, leader):
        return None
    return ev.PhaseOneEnds("no_lead", (leader,))


def _advance(state: State) -> None:
    """The next player due to play in this round; decide the round when all have played."""
    if state.options.phase_one_end == "still_to_play":
        short = _short_still_to_play(state)
        if short is not None:
            note(state, ev.PhaseOneEnds, "no_play", (short,))
            intermission.end_phase_one(state)  # the app's reading: no one plays on first
            return
    while state.round_at < len(state.round):
        player = state.round[state.round_at]
        if may_play(state, player):
            state.turn = player
            return
        if state.options.phase_one_end != "skip_empty":
            note(state, ev.PhaseOneEnds, "no_play", (player,))
            intermission.end_phase_one(state)  # 'due to play but has no card'
            return
        if state.replay:
            _tie_out(state)
            return
        del state.round[state.round_at]  # Koira: players without cards are skipped
    _decide(state)


def _short_still_to_play(state: State) -> int | None:
    """The first player still to play in this round (or its tie's replay) who holds no
    card and cannot dare, or None (``phase_one_end: still_to_play``)."""
    for player in state.round[state.round_at :]:
        if not may_play(state, player):
            return player
    return None


def may_play(state: State, player: int) -> bool:
    """Whether ``player`` can still play when due: holds a card, may dare, or (where the
    record writes its draws) may draw one first."""
    return state.holds(player) or can_dare(state) or can_draw(state, player)


def can_draw(state: State, player: int) -> bool:
    """Whether ``player`` may draw now where the record writes its draws: a short hand and
    a stock to draw from (``draw_back`` 'any_time' and 'without_delay')."""
    return (
        state.options.draw_back != "automatic"
        and bool(state.stock)
        and state.count(player) < state.options.hand_size
    )


def head(plays: list[tuple[int, int]], tie_rule: str) -> tuple[list[int], frozenset[int]]:
    """The players heading a round and the ranks that head it: the highest rank, or under
    a tie rule the highest rank played twice or more ('all_tied': every such rank)."""
    top = -1
    seen = twice = 0  # the ranks (1..14) played, and played more than once, as bits
    for _seat, r in plays:
        bit = 1 << r
        twice |= seen & bit
        seen |= bit
        if r > top:
            top = r
    if tie_rule != "highest" and twice:
        if tie_rule == "all_tied":
            ranks = frozenset(r for r in range(15) if twice >> r & 1)
            return [p for p, r in plays if r in ranks], ranks
        top = twice.bit_length() - 1
    return [p for p, r in plays if r == top], _ONE_RANK[top]


_ONE_RANK = tuple(frozenset((r,)) for r in range(15))  # one rank heading, each made once


def _decide(state: State) -> None:
    """Everybody in the round has played: a winner, or the tied players play again."""
    heads, ranks = head(state.round_plays, state.options.tie_rule)
    state.head_ranks = ranks
    if len(heads) == 1:
        _settle(state, heads[0])
        return
    back = state.options.tie_resolution == "deal_ascending" and _others_on_table(state, heads)
    note(state, ev.Tie, tuple(heads), tuple(sorted(ranks, reverse=True)), take_back=back)
    if back:
        _share_ascending(state, heads)
        return
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
    """The trick is decided: taken now, or left open for sluffs until the next act."""
    state.last_winner = winner
    state.replay = False
    state.tied = []
    state.turn = winner
    state.decided = winner
    if state.options.sluffing == "none":
        close(state)
    else:
        note(state, ev.TrickWon, winner)
        judge_final(state)


def final_known(state: State) -> bool:
    """Whether the decided trick is sure to be the last of phase one (the Goat treatise, II.C
    and II.F): taking it ends phase one, or the stock is empty and a player holds no card, so
    the next trick stops at them and is taken back.  Hands only shrink from here on."""
    winner = state.decided
    if winner is None:
        return False
    if _no_trick(state, winner) is not None:
        return True
    if state.options.phase_one_end == "skip_empty" or state.stock:
        return False
    return not all(state.holds(p) for p in range(state.n))


def judge_final(state: State) -> None:
    """Restriction #2, judged as soon as the decided trick is known to be the last one."""
    if state.options.sluff_final and state.risky and state.late is None and final_known(state):
        intermission.final_trick_sluffs(state, state.risky)


def close(state: State, announce: bool = True) -> None:
    """The decided trick goes to its winner, who leads the next (or phase one ends)."""
    winner = state.decided
    assert winner is not None
    _take(state, winner, announce)
    begin_trick(state, winner)


def must_close_first(state: State, action: Action) -> bool:
    """Whether ``action`` closes the decided trick's sluffing window before it is judged.

    With a sluffing window ('once', 'own_rank', 'atlanta') every act that is not
    a sluff (or a draw) closes it; 'unlimited' closes only with the winner's ``take``.
    """
    return (
        state.decided is not None
        and action.act != "sluff"
        and action.act != "draw"
        and state.options.sluffing not in ("none", "unlimited")
    )


def closing_moves_on(state: State) -> bool:
    """Whether closing the decided trick does more than let its winner lead the next one."""
    winner = state.decided
    assert winner is not None
    if not may_play(state, winner):
        return True
    if state.options.phase_one_end == "skip_empty":
        return False
    return _no_trick(state, winner) is not None


def _take(state: State, winner: int, announce: bool = True) -> None:
    """The winner takes every card played or sluffed to the trick."""
    pile = state.piles[winner]
    count = 0
    for _seat, cards in state.trick:
        pile.extend(cards)
        count += len(cards)
    for _seat, cards in state.sluffs:
        pile.extend(cards)
        count += len(cards)
    state.trick.clear()
    state.sluffs.clear()
    state.decided = None
    state.taken_risky = state.risky
    state.risky = []
    if announce and state.telling:
        note(state, ev.TrickTaken, winner, count)


def _share_ascending(state: State, heads: list[int]) -> None:
    """pagat.com, 'Koira', variants: tied cards back to hand, the rest dealt lowest first.

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
    for _seat, cards in state.sluffs:
        rest.extend(cards)
    last = heads[-1]
    order = sorted(heads, key=lambda p: (last - p) % n)
    rank1 = state.rank1
    got: dict[int, list[Card]] = {p: [] for p in order}
    for i, card in enumerate(sorted(rest, key=lambda c: (rank1[c], suit(c)))):
        got[order[i % len(order)]].append(card)
    for player, dealt in got.items():
        state.piles[player].extend(dealt)
    note(state, ev.RestDealt, tuple((p, tuple(c)) for p, c in got.items() if c))
    state.trick.clear()
    state.sluffs.clear()
    begin_trick(state, state.leader)


def _tie_out(state: State) -> None:
    """pagat.com, 'Koira': a tied player has no card to play again, so the trick is shared out."""
    cards = [c for _, played in state.trick for c in played]
    cards += [c for _, sluffed in state.sluffs for c in sluffed]
    note(state, ev.TieOut)
    state.deal = DealDue(
        kind="tie_out",
        cards=tuple(sorted(cards)),
        receivers=tuple(state.tied),
        ordered=False,
        shufflers=frozenset(range(state.n)),
        to_piles=True,
        leader=state.leader,
        what="the tied trick",
    )
    state.turn = None


# --- what may be done ---------------------------------------------------------------


def _makeable(state: State) -> list[int]:
    """The ranks a tie can be made on in the round under way (it has plays), highest first."""
    rule = state.options.tie_rule
    if rule == "highest":
        return [max(r for _, r in state.round_plays)]
    played = Counter(r for _, r in state.round_plays)
    if rule == "tied_beat_unique":
        # Only a tie standing on a *higher* rank frees the player: joining the heading tie
        # is compulsory too, as joining the highest rank is under 'highest'.
        tied = [r for r, times in played.items() if times >= 2]
        floor = max(tied) if tied else 0
        return sorted((r for r in played if r >= floor), reverse=True)
    return sorted(played, reverse=True)


def tie_ranks(state: State, player: int) -> list[tuple[int, bool | None]]:
    """The ranks ``player`` would have to play to make a tie, highest first, each with
    whether the hand holds it (True, False, or None when only a hidden card could say).

    pagat.com, 'Variants: trick play and sluffing' (compulsory ties); the Goat
    treatise, II.E.2 (the Important Restriction).  Empty when no tie is compulsory.
    """
    options = state.options
    if not options.compulsory_ties or not state.round_plays or state.decided is not None:
        return []
    makeable = _makeable(state)
    rank1 = state.rank1
    out: list[tuple[int, bool | None]] = []
    for r in makeable:

        def of_rank(c: Card, r: int = r) -> bool:
            return rank1[c] == r

        status = may_hold(state, player, of_rank)
        if status is not False:
            out.append((r, status))
    return out


def _tie_problem(
    state: State, player: int, played: int | None, cards: tuple[Card, ...] = ()
) -> Violation | None:
    """A compulsory tie broken by playing rank ``played`` (None: a dare), or None.

    Cards of the play that are not among the hand's known cards use up its hidden cards:
    whether it held a tying rank is unknown only if a hidden card is left besides them.
    """
    ranks = tie_ranks(state, player)
    if not ranks:
        return None
    name = state.names[player]
    hidden_left = False
    if state.hidden[player]:
        have = Counter(state.hands[player])
        used = sum(max(0, times - have[c]) for c, times in Counter(cards).items())
        hidden_left = state.hidden[player] - used > 0
    for r, status in ranks:
        if r == played:
            return None
        if status is None and not hidden_left:
            continue  # the hidden cards were the play itself: the hand held no such rank
        if status is None:
            return Violation(
                "phase1.tie.compulsory",
                _(
                    "Whether {name} holds {rank}, which would have to be played to make "
                    "a tie, is unknown"
                ).format(name=name, rank=a_rank_said(r)),
                undetermined=True,
            )
        return Violation.later("phase1.tie.compulsory", _tie_words, name, r, played, cards)
    return None


def _tie_words(name: str, r: int, played: int | None, cards: tuple[Card, ...]) -> str:
    """phase1.tie.compulsory: the rank that would make the tie, and what was done instead."""
    if played is None:
        text = _("{name} holds {rank} and must play it to make a tie (compulsory ties), not dare")
    else:
        text = _(
            "{name} holds {rank} and must play it to make a tie (compulsory ties), not {cards}"
        )
    return text.format(name=name, rank=a_rank_said(r), cards=cards_text(cards))


def whose_turn(state: State) -> str:
    """Why it is the current player's turn, in table language."""
    names = state.names
    if state.turn is None:
        return _("nobody is to play")
    name = names[state.turn]
    if state.decided is not None:
        if state.options.sluffing == "unlimited":
            return _("{name} won the trick and takes it next").format(name=name)
        return _("{name} won the trick and leads the next").format(name=name)
    if state.replay:
        return _("{name} plays again to break the tie").format(name=name)
    if not state.trick:
        return _("{name} leads this trick").format(name=name)
    return _("{name} plays next to {leader}'s trick").format(name=name, leader=names[state.leader])


def _sluff_candidates(state: State) -> list[Action]:
    out: list[Action] = []
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
        for card in sorted(state.hands[player]):
            by_rank.setdefault(state.rank1[card], []).append(card)
        most = state.options.hand_size if state.options.multi_card_plays else 1
        for cards in by_rank.values():
            for size in range(1, min(most, len(cards)) + 1):
                out.extend(
                    Action(player, "play", combo)
                    for combo in sorted(set(combinations(cards, size)))
                )
        out += [Action(player, "dare"), Action(player, "pick"), Action(player, "take")]
    if state.options.sluffing != "none" and state.trick:
        out += _sluff_candidates(state)
    if state.options.draw_back != "automatic":
        out += DRAW[: state.n]
    return out


def generate(state: State) -> list[Action] | None:
    """The legal actions, generated directly; None where hidden cards in a hand need
    :func:`check`.  An unknown card on top of the stock only keeps the cardless dare off
    the list (a dare must then name the card it turned).  The order is
    :func:`candidates`' (plays by rank, each rank where its lowest card comes, then the
    dare, then the sluffs player by player), which seeded simulations rely on."""
    stock = state.stock
    if any(state.hidden):
        return None
    options = state.options
    drawers: list[Action] = []
    if options.draw_back != "automatic":
        drawers = [DRAW[p] for p in range(state.n) if can_draw(state, p)]
        if drawers and options.draw_back == "without_delay":
            return None  # a short hand must draw first: check says which of its acts wait
    out: list[Action] = []
    player = state.turn
    if player is not None:
        if state.decided is not None and options.sluffing == "unlimited":
            out.append(TAKE[player])
        else:
            rank1 = state.rank1
            must = None  # the rank a compulsory tie calls for (tie_ranks, no hidden card)
            if options.compulsory_ties and state.round_plays and state.decided is None:
                held = {rank1[c] for c in state.hands[player]}
                must = next((r for r in _makeable(state) if r in held), None)
            by_rank: dict[int, list[Card]] = {}
            for card in sorted(state.hands[player]):
                r = rank1[card]
                if must is None or r == must:
                    by_rank.setdefault(r, []).append(card)
            if not options.multi_card_plays:
                singles = single_plays(player)
                for cards in by_rank.values():  # each distinct card (copies lie side by side)
                    out += [singles[c] for c in dict.fromkeys(cards)]
            elif options.decks == 1:  # distinct cards: each combination once, in order
                most = options.hand_size
                singles = single_plays(player)
                for cards in by_rank.values():
                    out += [singles[c] for c in cards]
                    for size in range(2, min(most, len(cards)) + 1):
                        out += [
                            _new(Action, (player, "play", combo, ()))
                            for combo in combinations(cards, size)
                        ]
            else:
                most = options.hand_size
                for cards in by_rank.values():
                    for size in range(1, min(most, len(cards)) + 1):
                        out += [
                            _new(Action, (player, "play", combo, ()))
                            for combo in sorted(set(combinations(cards, size)))
                        ]
            if must is None and can_dare(state) and stock[-1] != UNKNOWN:
                out.append(DARE[player])  # an unknown top: the dare must name it
    if options.sluffing != "none" and state.trick:
        for sluffer, cards in sluffable(state):
            if len(cards) == 1:
                out.append(_new(Action, (sluffer, "sluff", (cards[0],), ())))
                continue
            for size in range(1, len(cards) + 1):
                out += [_new(Action, (sluffer, "sluff", c, ())) for c in combinations(cards, size)]
    return out + drawers if drawers else out


def sluffable(state: State) -> list[tuple[int, list[Card]]]:
    """Each player who may sluff now, with the distinct cards they may sluff, each allowed on
    its own (the rules of a sluff are card by card, so any set of them may go together).

    What :func:`_check_sluff` allows, worked out once for the whole table."""
    options = state.options
    mode = options.sluffing
    rank1 = state.rank1
    decided = state.decided
    # Restriction #2: the winner of what is sure to be the last trick sluffs nothing.
    final = decided if decided is not None and _final_winner(state, decided) else None
    found: list[tuple[int, list[Card]]] = []
    if mode == "once" or mode == "unlimited":
        if mode == "once" and decided is None:
            return found  # 'once' sluffs only into a decided trick
        allowed = {rank1[c] for _, cards in state.trick for c in cards}
        allowed |= {rank1[c] for _, cards in state.sluffs for c in cards}
        waiting: Sequence[int] = ()  # who has yet to play to the round: not its top rank
        below_top = allowed
        if options.sluff_top_first and decided is None and state.round_plays:
            waiting = state.round[state.round_at :]
            below_top = allowed - {max(r for _, r in state.round_plays)}
        once = mode == "once"
        for player, hand in enumerate(state.hands):
            if not hand or player == final or (once and state.sluffed[player]):
                continue
            ranks = below_top if player in waiting else allowed
            cards = sorted({c for c in hand if rank1[c] in ranks})
            if cards:
                found.append((player, cards))
    elif mode == "own_rank":
        for player, hand in enumerate(state.hands):
            own = state.own_rank[player]
            if not hand or player == final or own is None:
                continue
            cards = sorted({c for c in hand if rank1[c] == own})
            if cards:
                found.append((player, cards))
    else:  # atlanta: only those who played to the trick, once, their losing ranks
        played = {p for p, _ in state.trick}
        losing: set[int] | None = None
        for player, hand in enumerate(state.hands):
            if not hand or player == final or state.sluffed[player] or player not in played:
                continue
            if losing is None:
                losing = losing_ranks(state)
                if not losing:
                    break  # no play loses yet: nobody sluffs
            cards = sorted({c for c in hand if rank1[c] in losing})
            if cards:
                found.append((player, cards))
    return found


def check(state: State, action: Action) -> Violation | None:
    """Why ``action`` is illegal now, or None.  Turn order is checked by the caller."""
    act = action.act
    names = state.names
    p = action.player
    if state.options.draw_back != "automatic":
        if act == "draw":
            return _draw_problem(state, action)
        if act != "pick" and state.options.draw_back == "without_delay" and can_draw(state, p):
            return Violation.later(
                "phase1.draw.owed", _owed_words, names[p], state.count(p), state.options.hand_size
            )
    if act == "sluff":
        return _check_sluff(state, action)
    if act == "pick":
        return Violation(
            "phase1.pick",
            _("Nobody picks up in phase one: the player to move plays a card or dares"),
        )
    if act == "take":
        if action.cards:
            return Violation("phase1.take", _("A take names no cards: the winner takes them all"))
        if state.decided is None:
            return Violation(
                "phase1.take",
                _("The trick is not decided yet: nothing can be taken")
                if state.trick
                else _("There is no trick on the table to take"),
            )
        return None
    if state.decided is not None and state.options.sluffing == "unlimited":
        return Violation(
            "phase1.take.due",
            _("{name} won the trick and must take it (act 'take') before leading again").format(
                name=names[p]
            ),
        )
    if act == "dare":
        return dare_problem(state, action) or _tie_problem(state, p, None)
    if act != "play":
        return None
    cards = action.cards
    most = state.options.hand_size if state.options.multi_card_plays else 1
    if not 1 <= len(cards) <= most:
        if most == 1:
            allowed = _("A play in phase one is one card")
        else:
            allowed = _("A play in phase one is one to {most} cards of one rank").format(most=most)
        named = (_("{name} named {count} ({cards})") if cards else _("{name} named none")).format(
            name=names[p], count=number(len(cards)), cards=cards_text(cards)
        )
        return Violation("play.count", f"{allowed}; {named}")
    rank1 = state.rank1
    if len({rank1[c] for c in cards}) > 1:
        return Violation(
            "phase1.play.rank",
            _("The cards of one play must be of one rank: {cards} are not").format(
                cards=cards_text(cards)
            ),
        )
    bad = held(state, action)
    if bad is not None:
        return bad
    if len(set(cards)) != len(cards) and state.options.decks == 1:
        return Violation("play.count", _("{name} names the same card twice").format(name=names[p]))
    return _tie_problem(state, p, rank1[cards[0]], cards)


def _draw_problem(state: State, action: Action) -> Violation | None:
    """phase1.draw: one card off the stock, named by nobody, into a short hand."""
    p = action.player
    if action.cards:
        return Violation("phase1.draw", _("A draw names no card: the stock's top card is drawn"))
    if not state.stock:
        return Violation("phase1.draw", _("The stock is empty: there is nothing to draw"))
    size = state.options.hand_size
    if state.count(p) >= size:
        return Violation.later("phase1.draw", _full_words, state.names[p], state.count(p), size)
    return None


def _cards_said(count: int) -> str:
    return ngettext("{n} card", "{n} cards", count).format(n=number(count))


def _owed_words(name: str, count: int, size: int) -> str:
    """phase1.draw.owed: a short hand acts before its draw."""
    return _(
        "{name} holds {count} and the stock is not empty: a hand is drawn back to "
        "{size} before its player plays, dares, sluffs or takes again"
    ).format(name=name, count=_cards_said(count), size=number(size))


def _full_words(name: str, count: int, size: int) -> str:
    """phase1.draw: a draw into a full hand."""
    return _("{name} already holds {count}: a hand is drawn back to {size}, no further").format(
        name=name, count=_cards_said(count), size=number(size)
    )


def heading_plays(state: State) -> set[int]:
    """Indices in ``trick`` of the plays heading it now.

    In a round under way (or just decided), its plays of the heading ranks; at
    the start of a tie's replay, the tied plays (each tied player's latest).
    """
    trick = state.trick
    plays = state.round_plays
    if plays:
        first = len(trick) - len(plays)
        ranks = state.head_ranks
        return {first + i for i, (_, r) in enumerate(plays) if r in ranks}
    latest: dict[int, int] = {}
    for i, (player, _cards) in enumerate(trick):
        if player in state.tied:
            latest[player] = i
    return set(latest.values())


def losing_ranks(state: State) -> set[int]:
    """Ranks of cards played to the trick and losing it (pagat.com, 'Atlanta Variation').

    Judged card by card: a 9 that lost in the first round is a losing card even
    if another 9 heads the tie's replay, so nines may be sluffed.
    """
    heading = heading_plays(state)
    rank1 = state.rank1
    return {rank1[cards[0]] for i, (_, cards) in enumerate(state.trick) if i not in heading}


def _final_winner(state: State, player: int) -> bool:
    """Whether ``player`` won the decided trick and it is sure to be the last (restriction #2)."""
    return state.options.sluff_final and state.decided == player and final_known(state)


def could_win(state: State, player: int) -> bool:
    """Whether ``player`` might still win the trick on the table (the Goat treatise, II.E.3,
    sluffing restriction #2: 'until it is determined that you won't be getting it')."""
    if state.decided is not None:
        return player == state.decided
    if player in state.round[state.round_at :]:
        return True
    mine = [r for p, r in state.round_plays if p == player]
    if not mine:
        return False
    if state.options.tie_rule == "highest":
        return mine[-1] >= max(r for _, r in state.round_plays)
    return True  # a later play of the same rank could still make it head the trick


def _check_sluff(state: State, action: Action) -> Violation | None:
    mode = state.options.sluffing
    names = state.names
    p = action.player
    if not action.cards:
        return Violation(
            "play.count", _("A sluff names the cards; {name} named none").format(name=names[p])
        )
    bad = held(state, action)
    if bad is not None:
        return bad
    if len(set(action.cards)) != len(action.cards) and state.options.decks == 1:
        return Violation("play.count", _("{name} names the same card twice").format(name=names[p]))
    if not state.trick:
        return Violation("phase1.sluff.window", _("There is no trick on the table to sluff to"))
    rank1 = state.rank1
    played = any(player == p for player, _ in state.trick)
    if mode == "once":
        if state.decided is None:
            return Violation(
                "phase1.sluff.window",
                _("Sluffing comes once the trick is decided, not while it is being played"),
            )
        allowed = {rank1[c] for _, cards in state.trick for c in cards}
        allowed |= {rank1[c] for _, cards in state.sluffs for c in cards}
    elif mode == "unlimited":
        allowed = {rank1[c] for _, cards in state.trick for c in cards}
        allowed |= {rank1[c] for _, cards in state.sluffs for c in cards}
    elif mode == "own_rank":
        own = state.own_rank[p]
        if own is None:
            return Violation(
                "phase1.sluff.window",
                _("{name} has not played to this trick, so has no rank to sluff").format(
                    name=names[p]
                ),
            )
        allowed = {own}
    else:  # atlanta
        if not played:
            return Violation(
                "phase1.sluff.window",
                _("{name} has not played to this trick yet: a sluff comes after playing").format(
                    name=names[p]
                ),
            )
        allowed = losing_ranks(state)
    if mode in ("once", "atlanta") and state.sluffed[p]:
        return Violation(
            "phase1.sluff.once",
            _("{name} has already sluffed to this trick").format(name=names[p]),
        )
    wrong = [c for c in action.cards if rank1[c] not in allowed]
    if wrong:
        return Violation.later(
            "phase1.sluff.rank",
            _sluff_rank_words,
            tuple(wrong),
            mode,
            names[p],
            state.own_rank[p],
            tuple(sorted(allowed)),
        )
    if _final_winner(state, p):
        return Violation(
            "phase1.sluff.final",
            _(
                "{name} wins what is now sure to be the last trick of phase one, so may not "
                "sluff to it"
            ).format(name=names[p]),
        )
    if state.options.sluff_top_first and state.decided is None and state.round_plays:
        due = p in state.round[state.round_at :]
        top = max(r for _, r in state.round_plays)
        matching = [c for c in action.cards if rank1[c] == top]
        if due and matching:
            return Violation.later(
                "phase1.sluff.top", _sluff_top_words, names[p], tuple(matching), top
            )
    return None


def _sluff_rank_words(
    wrong: tuple[Card, ...], mode: str, name: str, own: int | None, allowed: tuple[int, ...]
) -> str:
    """phase1.sluff.rank: the cards refused, and the ranks the sluffing rule lets through."""
    shown = " ".join(rank_said(r) for r in allowed) or _("none")
    if mode == "own_rank":
        assert own is not None
        text = _("{cards} may not be sluffed: only the rank {name} played ({rank}) may ({shown})")
    elif mode == "atlanta":
        text = _(
            "{cards} may not be sluffed: only ranks already played and not heading the trick "
            "may ({shown})"
        )
    else:
        text = _("{cards} may not be sluffed: only ranks already in the trick may ({shown})")
    return text.format(
        cards=cards_text(wrong),
        name=name,
        rank=rank_said(own) if own is not None else "",
        shown=shown,
    )


def _sluff_top_words(name: str, matching: tuple[Card, ...], top: int) -> str:
    """phase1.sluff.top: a card of the round's top rank is owed as a play, not a sluff."""
    return _(
        "{name} has not played to this round yet, so may not sluff "
        "{cards}: a card of the highest rank so far ({rank}) must be the play"
    ).format(name=name, cards=cards_text(matching), rank=rank_said(top))


# --- doing it ------------------------------------------------------------------------


def apply(state: State, action: Action) -> None:
    """Play, dare, sluff or take; draw back up; move the trick on."""
    act = action.act
    p = action.player
    automatic = state.options.draw_back == "automatic"
    if act == "draw":
        draw_card(state, p)
        if not state.stock:  # the last card drawn: a player due may now be without a play
            if state.decided is None:
                _advance(state)
            else:
                judge_final(state)
        return
    if act == "sluff":
        if state.options.sluff_final and could_win(state, p):
            state.risky.append((state.steps, p, action.cards))
        take_from_hand(state, p, action.cards)
        state.sluffs.append((p, tuple(action.cards)))
        state.sluffed[p] = True
        if automatic:
            draw_up(state, p)
        if state.decided is None and not may_play(state, p):
            if state.turn == p or (
                state.options.phase_one_end == "still_to_play"
                and p in state.round[state.round_at :]
            ):
                _advance(state)  # the player due (or still to play) sluffed their last card
        elif state.decided is not None:
            judge_final(state)  # a sluff that empties a hand can make this trick the last
        return
    if act == "take":
        close(state, announce=False)
        return
    if act == "dare":
        cards: tuple[Card, ...] = (turn_dare(state, action),)
    else:
        cards = tuple(action.cards)
        take_from_hand(state, p, cards)
        if automatic:
            draw_up(state, p)
    state.trick.append((p, cards))
    played_rank = state.rank1[cards[0]]
    state.round_plays.append((p, played_rank))
    state.own_rank[p] = played_rank
    state.head_ranks = head(state.round_plays, state.options.tie_rule)[1]
    state.round_at += 1
    _advance(state)


def describe(state: State, action: Action) -> ev.Act:
    """The action where it is made (a lead, a play to break a tie); before applying it."""
    p = action.player
    act = action.act
    if act == "sluff":
        return ev.Sluffed(p, tuple(action.cards))
    if act == "take":
        count = sum(len(c) for _, c in state.trick) + sum(len(c) for _, c in state.sluffs)
        return ev.Took(p, count)
    if act == "draw":
        return ev.Drew(p)
    if not state.trick or state.decided is not None:
        how = "lead"
    else:
        how = "again" if state.replay else ""
    if act == "dare":
        return ev.Dared(p, dared_card(state, action), how)
    if act != "play" and how == "lead":
        how = "to_lead"  # an act with no words here (a deal not due): said as a play
    return ev.Played(p, tuple(action.cards), how)
