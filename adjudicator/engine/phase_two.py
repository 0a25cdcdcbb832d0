"""Phase two: beat the top play or pick up (pagat.com, 'Play in the second phase').

A play is one card or, where ``sequences`` allows, a run of one suit.  It beats
the top play when its lowest card is above the top play's highest card in that
suit, or when it is trumps on a non-trump (and not on an anti-trump).  A trick
is complete when it holds as many plays as players were in the game when it was
led; its cards leave the game.  What a pick takes is ``pick_from`` x
``pick_takes``.  The last player holding cards loses.
"""

from __future__ import annotations

from bisect import bisect_left
from itertools import pairwise

from adjudicator.actions import PICK, Action, single_plays
from adjudicator.cards import (
    CLUBS,
    SPADES,
    SUIT_SYMBOLS,
    Card,
    card_text,
    rank,
    suit,
)
from adjudicator.engine import events as ev
from adjudicator.engine.common import attempted, card_list, held, index_of, take_from_hand
from adjudicator.engine.events import note
from adjudicator.engine.state import OVER, PHASE_TWO, State
from adjudicator.engine.violations import Violation
from adjudicator.i18n import _, ngettext, number
from adjudicator.speech import suit_word

_new = tuple.__new__

# --- the suits' powers --------------------------------------------------------


def anti_trump_suit(state: State) -> int | None:
    """The anti-trump suit of pagat.com, 'Anti-trumps', if the options have one."""
    kind = state.options.anti_trump
    trump = state.trump
    if kind == "none" or trump is None:
        return None
    if kind == "same_colour":
        return {0: 3, 3: 0, 1: 2, 2: 1}[trump]
    return SPADES if trump == CLUBS else CLUBS


def beats(cards: tuple[Card, ...], top: tuple[Card, ...], state: State) -> bool:
    """Whether the play ``cards`` (sorted) beats the play ``top`` (sorted): phase2.beat,
    the one comparison that :func:`check`, its fast path and :func:`generate` all call.

    With the trump suit unknown (an unknown trump card and no ``trump`` in the
    record), a play of another suit is let through here; :func:`check` reports
    it as undetermined (see :func:`surely_beats`).
    """
    low = cards[0]
    high = top[-1]
    if low // 13 == high // 13:
        return low > high
    if state.trump is None:
        return True
    return low // 13 == state.trump and high // 13 != anti_trump_suit(state)


def surely_beats(cards: tuple[Card, ...], top: tuple[Card, ...], state: State) -> bool:
    """:func:`beats`, and known to: with the trump suit unknown only a play of the top
    play's suit is sure to beat it (any other is undetermined, never listed as legal)."""
    return beats(cards, top, state) and (state.trump is not None or cards[0] // 13 == top[-1] // 13)


def why_not_beat(cards: tuple[Card, ...], top: tuple[Card, ...], state: State) -> str:
    """Table language for a play that does not beat the top play."""
    return _not_beaten(cards, top, state.trump, anti_trump_suit(state))


def _not_beaten(
    cards: tuple[Card, ...], top: tuple[Card, ...], trump: int | None, anti: int | None
) -> str:
    """:func:`why_not_beat` from the suits' powers alone (a violation's lazy words)."""
    top_suit = suit(top[-1])
    shown, beaten, word = card_list(cards), card_list(top), suit_word(top_suit)
    if top_suit == trump:
        text = _("{cards} does not beat {top}: only a higher {suit} beats a trump")
        return text.format(cards=shown, top=beaten, suit=word)
    if top_suit == anti:
        text = _(
            "{cards} does not beat {top}: {suits} are anti-trumps: only a higher {suit} beats them"
        )
        return text.format(cards=shown, top=beaten, suits=suit_word(top_suit, True), suit=word)
    run = len(top) > 1 or len(cards) > 1
    if trump is None:
        if run:
            text = _("{cards} does not beat {top}: a {suit} above {card} or a trump is needed")
        else:
            text = _("{cards} does not beat {top}: a higher {suit} or a trump is needed")
        return text.format(cards=shown, top=beaten, suit=word, card=card_text(top[-1]))
    if run:
        text = _(
            "{cards} does not beat {top}: a {suit} above {card} or a trump ({symbol}) is needed"
        )
    else:
        text = _("{cards} does not beat {top}: a higher {suit} or a trump ({symbol}) is needed")
    return text.format(
        cards=shown, top=beaten, suit=word, card=card_text(top[-1]), symbol=SUIT_SYMBOLS[trump]
    )


# --- runs ---------------------------------------------------------------------


def run_problem(cards: tuple[Card, ...], state: State) -> str | None:
    """Why ``cards`` (sorted) is not a play the options allow, or None."""
    if len(cards) == 1:
        return None
    min_run = state.options.min_run
    if not min_run:
        return _("a play in phase two is one card here, not {count} ({cards})").format(
            count=number(len(cards)), cards=card_list(cards)
        )
    s = suit(cards[0])
    for a, b in pairwise(cards):
        if suit(b) != s or b != a + 1:
            return _("{cards} is not a run: a run is consecutive cards of one suit").format(
                cards=card_list(cards)
            )
    if len(cards) < min_run:
        return ngettext(
            "{cards} is too short: a run here has at least {count} card",
            "{cards} is too short: a run here has at least {count} cards",
            min_run,
        ).format(cards=card_list(cards), count=min_run)
    if state.options.sequences == "from_two" and rank(cards[0]) != 2:
        return _("{cards} does not begin with a 2: only runs from the 2 may be played").format(
            cards=card_list(cards)
        )
    return None


def runs_in(hand: list[Card], min_run: int) -> list[tuple[Card, ...]]:
    """Every single card and every run of at least ``min_run`` cards in a hand."""
    cards = sorted(set(hand))
    plays: list[tuple[Card, ...]] = [(c,) for c in cards]
    if min_run:
        plays += _runs(cards, min_run)
    return plays


def _runs(cards: list[Card], min_run: int) -> list[tuple[Card, ...]]:
    """Every run of at least ``min_run`` cards among ``cards`` (sorted, distinct)."""
    plays: list[tuple[Card, ...]] = []
    start = 0
    prev = -2
    for i, c in enumerate([*cards, -2]):  # -2 follows no card: it ends the last run
        if c == prev + 1 and c % 13:
            prev = c
            continue  # the next card of the same suit: the run goes on
        if i - start >= min_run:
            segment = tuple(cards[start:i])
            size = i - start
            for a in range(size - min_run + 1):
                for b in range(a + min_run, size + 1):
                    plays.append(segment[a:b])
        start = i
        prev = c
    return plays


# --- what a pick takes ----------------------------------------------------------


def pick_plan(state: State, bottom: bool) -> tuple[int, int, tuple[Card, ...]]:
    """(first play, end play, cards) a pick takes: plays ``[first:end]``, whole or in part.

    For ``pick_takes == 'card'`` the range is one play and ``cards`` is one card
    of it (the highest from the top, the lowest from the bottom).
    """
    trick = state.trick
    takes = state.options.pick_takes
    if bottom:
        cards = trick[0][1]
        if takes == "card":
            return 0, 1, cards[:1]
        end = 1
        if takes == "joined":
            while end < len(trick):
                nxt = trick[end][1][0]
                if nxt // 13 != cards[-1] // 13 or nxt != cards[-1] + 1:
                    break
                cards = cards + trick[end][1]
                end += 1
        return 0, end, cards
    last = len(trick) - 1
    cards = trick[last][1]
    if takes == "card":
        return last, last + 1, cards[-1:]
    first = last
    if takes == "joined":
        while first > 0:
            below = trick[first - 1][1][-1]
            if below // 13 != cards[0] // 13 or below != cards[0] - 1:
                break
            first -= 1
            cards = trick[first][1] + cards
    return first, last + 1, cards


def _picks_from_bottom(state: State, player: int) -> bool:
    return state.options.pick_from == "bottom" or state.pending[player]


def pick_cards(state: State, player: int) -> tuple[Card, ...]:
    """The cards ``player`` would take by picking now."""
    return pick_plan(state, _picks_from_bottom(state, player))[2]


# --- high trump ---------------------------------------------------------------


def high_trump(state: State, extra: tuple[Card, ...] = ()) -> tuple[Card | None, bool]:
    """The highest trump still in the game (in a hand or on the table), and whether that is
    certain: a hidden card in some hand might be a higher trump nobody has seen.

    ``extra`` are cards about to be played (they may come from a hidden card).
    """
    trump = state.trump
    if trump is None:
        return None, False
    best = -1
    for hand in state.hands:
        for c in hand:
            if c // 13 == trump and c > best:
                best = c
    for _seat, cards in state.trick:
        for c in cards:
            if c // 13 == trump and c > best:
                best = c
    for c in extra:
        if c // 13 == trump and c > best:
            best = c
    certain = True
    if state.hidden_anywhere():
        top = trump * 13 + 12
        certain = not any(state.unseen[c] for c in range(max(best + 1, trump * 13), top + 1))
    return (best if best >= 0 else None), certain


def completes(
    state: State, cards: tuple[Card, ...], high: Card | None, certain: bool = True
) -> tuple[bool, bool]:
    """Whether playing ``cards`` now ends the trick, and whether that is certain.

    ``high``: the highest trump in the game before the play (see :func:`high_trump`).
    """
    opts = state.options
    trick = state.trick
    if opts.high_trump == "only_killer" and (high is not None or not certain):
        # The Goat treatise, variations IV: while a trump is in the game only the highest
        # one kills; nothing else ends a trick.
        if high is not None and high in cards:
            return True, certain
        return False, high is not None
    done = bool(trick) and len(trick) + 1 >= state.trick_target
    if opts.high_trump == "only_killer":
        done = False  # no trump left: tricks are never killed by their number of plays
    if not done and opts.trump_ends_trick and trick:
        done = cards[0] // 13 == state.trump and trick[-1][1][-1] // 13 != state.trump
    if not done and opts.complete_suit:
        s = cards[0] // 13
        on_table = sum(1 for _seat, played in trick for c in played if c // 13 == s)
        done = on_table + len(set(cards)) >= 13 and _whole_suit(trick, cards, s)
    return done, True


def _whole_suit(trick: list[tuple[int, tuple[Card, ...]]], cards: tuple[Card, ...], s: int) -> bool:
    """Whether the table and ``cards`` hold every card of suit ``s``, 2 to A."""
    present = {c for _seat, played in trick for c in played if c // 13 == s}
    present.update(c for c in cards if c // 13 == s)
    return len(present) == 13


# --- the engine interface ---------------------------------------------------------


def whose_turn(state: State) -> str:
    """Why it is the current player's turn, in table language."""
    name = state.names[state.turn] if state.turn is not None else _("nobody")
    if not state.trick:
        return _("{name} leads").format(name=name)
    if state.turn is not None and state.pending[state.turn]:
        return _("{name} is Blåmattis and must pick up").format(name=name)
    if state.forced:
        return _("{name} must pick up, as the player before did").format(name=name)
    return _("{name} must beat {top} or pick up").format(
        name=name, top=card_list(state.trick[-1][1])
    )


def candidates(state: State) -> list[Action]:
    """Every action worth testing for the player to move (a superset of the legal)."""
    p = state.turn
    assert p is not None
    acts = [Action(p, "play", cards) for cards in runs_in(state.hands[p], state.options.min_run)]
    acts.append(Action(p, "pick"))
    acts.append(Action(p, "dare"))
    return acts


def generate(state: State) -> list[Action]:
    """The legal actions, generated directly by the same rules :func:`check` applies.

    Only the hand's known cards are candidates (as in :func:`candidates`), so
    hidden cards elsewhere change nothing but whether the highest trump is
    certain, which a refusal under 'kill_only' does not depend on.  With the
    trump suit unknown, a play of another suit than the top play's is
    undetermined, so it is not listed.  The order is :func:`candidates`' (the
    single cards low to high, then the runs), which seeded simulations rely on.
    """
    options = state.options
    p = state.turn
    assert p is not None
    trick = state.trick
    if state.pending[p] or (trick and state.forced):
        return [PICK[p]] if trick else []
    hand = state.hands[p]
    trump = state.trump
    if trick:
        # A play beats when its lowest card does (see beats), and every card of a run
        # is above its lowest one: the runs that beat are the runs among the cards
        # that beat.
        top = trick[-1][1]
        cards = sorted({c for c in hand if surely_beats((c,), top, state)})
    else:
        cards = sorted(set(hand))
    singles = single_plays(p)
    out = [singles[c] for c in cards]
    min_run = options.min_run if options.sequences != "off" else 0
    if min_run and len(cards) >= min_run:
        runs = _runs(cards, min_run)
        if options.sequences == "from_two":
            runs = [c for c in runs if c[0] % 13 == 0]
        out += [_new(Action, (p, "play", run, ())) for run in runs]
    if options.high_trump == "kill_only" and trump is not None and _holds_suit(cards, trump):
        # The Goat treatise, variations I: the highest trump may only complete a trick.
        # Only a play of the highest trump among the cards listed can hold it.
        high, certain = high_trump(state)
        if high is not None and high in cards:
            out = [
                a for a in out if high not in a.cards or completes(state, a.cards, high, certain)[0]
            ]
    if trick:
        out.append(PICK[p])
    return out


def _holds_suit(cards: list[Card], s: int) -> bool:
    """Whether ``cards`` (sorted) hold a card of suit ``s``."""
    at = bisect_left(cards, s * 13)
    return at < len(cards) and cards[at] < s * 13 + 13


def check(state: State, action: Action) -> Violation | None:
    """Why ``action`` is illegal now, or None."""
    act = action.act
    trick = state.trick
    p = action.player
    cards = action.cards
    if (  # the common case, decided at once: one known card, no special rule in the way
        act == "play"
        and state.plain_play
        and len(cards) == 1
        and index_of(state.hands[p], cards[0]) >= 0
        and not state.pending[p]
        and not (trick and state.forced)
        and (not trick or surely_beats(cards, trick[-1][1], state))
    ):
        return None  # (anything else goes the whole way below, the same beats included)
    if act == "play":
        if state.pending[p]:
            return Violation(
                "phase2.blamattis",
                _(
                    "{name} is Blåmattis (no cards at the start of phase two) "
                    "and must pick up at the first turn"
                ).format(name=state.names[p]),
            )
        cards = action.cards
        if not cards:
            return Violation(
                "play.count", _("{name} names no card to play").format(name=state.names[p])
            )
        if len(cards) > 1:
            cards = tuple(sorted(cards))
        bad = held(state, action)
        if bad:
            return bad
        if len(cards) > 1 and len(set(cards)) != len(cards):
            twice = sorted({c for c in cards if cards.count(c) > 1})
            return Violation(
                "phase2.one_copy",
                _(
                    "{cards} named twice: a play holds one copy of a card, so the "
                    "two copies are played one at a time"
                ).format(cards=card_list(tuple(twice))),
            )
        problem = run_problem(cards, state)
        if problem:
            rule = "phase2.sequence" if state.options.min_run else "play.count"
            return Violation(rule, problem[0].upper() + problem[1:])
        if trick and state.forced:
            return Violation.later(
                "phase2.pick.forced", _forced_words, state.names[p], pick_cards(state, p)
            )
        if trick and not beats(cards, trick[-1][1], state):
            top_play = trick[-1][1]
            return Violation.later(
                "phase2.beat", _not_beaten, cards, top_play, state.trump, anti_trump_suit(state)
            )
        trump = state.trump
        if state.options.high_trump == "kill_only" and any(c // 13 == trump for c in cards):
            # (a play without a trump cannot hold the highest one: no need to look for it)
            high, certain = high_trump(state, cards)
            if high is not None and high in cards:
                done, _sure = completes(state, cards, high, certain)
                if not done:
                    return Violation.later(
                        "phase2.high_trump",
                        _high_trump_words,
                        high,
                        certain,
                        len(trick),
                        state.trick_target,
                        undetermined=not certain,
                    )
        if trick and state.trump is None and cards[0] // 13 != trick[-1][1][-1] // 13:
            return Violation(
                "phase2.beat",
                _(
                    "Whether {cards} beats {top} is unknown: the trump suit was not written down"
                ).format(cards=card_list(cards), top=card_list(trick[-1][1])),
                undetermined=True,
            )
        return None
    if act == "pick":
        if not trick:
            return Violation(
                "phase2.pick.empty",
                _("There is nothing on the table to pick up: {name} leads").format(
                    name=state.names[p]
                ),
            )
        if action.cards:
            take = pick_cards(state, p)
            if sorted(action.cards) != sorted(take):
                return Violation.later(
                    "phase2.pick.cards",
                    _pick_words,
                    _picks_from_bottom(state, p),
                    state.options.pick_takes,
                    take,
                    action.cards,
                )
        return None
    if act == "dare":
        return Violation("phase2.dare", _("There is no stock in phase two: nobody dares"))
    return None


def _forced_words(name: str, take: tuple[Card, ...]) -> str:
    return _(
        "After a pick every following player picks until the table is empty: "
        "{name} must pick up {cards}"
    ).format(name=name, cards=card_list(take))


def _pick_words(bottom: bool, takes: str, take: tuple[Card, ...], named: tuple[Card, ...]) -> str:
    if takes == "card":
        text = (
            _("A pick takes the bottom card, {take}, not {named}")
            if bottom
            else _("A pick takes the top card, {take}, not {named}")
        )
    elif takes == "play":
        text = (
            _("A pick takes the bottom play, {take}, not {named}")
            if bottom
            else _("A pick takes the top play, {take}, not {named}")
        )
    else:
        text = (
            _("A pick takes the bottom joined run, {take}, not {named}")
            if bottom
            else _("A pick takes the top joined run, {take}, not {named}")
        )
    return text.format(take=card_list(take), named=card_list(named))


def _high_trump_words(high: Card, certain: bool, played: int, target: int) -> str:
    shown = card_text(high)
    if not certain:
        return _(
            "Whether {card} is the highest trump left is unknown (a higher one "
            "may be hidden in a hand); the highest may only complete a trick"
        ).format(card=shown)
    if played:
        return _(
            "{card} is the highest trump left and may only complete a trick; "
            "this would be play {number} of {target}"
        ).format(card=shown, number=played + 1, target=target)
    return _(
        "{card} is the highest trump left and may only complete a trick, never lead one"
    ).format(card=shown)


def apply(state: State, action: Action) -> None:
    """Lead, beat or pick; close the trick when it is complete; end the game."""
    p = action.player
    trick = state.trick
    options = state.options
    if action.act == "pick":
        bottom = options.pick_from == "bottom" or state.pending[p]
        first, end, taken = pick_plan(state, bottom)
        if options.pick_takes == "card":
            played = trick[first][1]
            rest = played[1:] if bottom else played[:-1]
            if rest:
                trick[first] = (trick[first][0], rest)
            else:
                del trick[first]
        else:
            del trick[first:end]
        state.hands[p].extend(taken)
        state.pending[p] = False
        if trick:
            state.forced = options.forced_pick
            state.turn = next_in_trick(state, p)
            return  # a pick mid-trick puts nobody out: the game cannot end here
        state.forced = False
        leader = state.next_with_cards(p)
        if state.telling:
            note(state, ev.Leads, leader, "empty")
        lead_next(state, leader)
    else:
        cards = tuple(sorted(action.cards)) if len(action.cards) > 1 else action.cards
        if not trick:
            state.trick_target = state.holders_in_game()
            state.leader = p
        if state.plain_kill:
            done, sure = bool(trick) and len(trick) + 1 >= state.trick_target, True
        else:
            high, certain = (None, True)
            if options.high_trump == "only_killer":  # (only there does the highest trump kill)
                high, certain = high_trump(state, cards)
            done, sure = completes(state, cards, high, certain)
        hand = state.hands[p]
        at = index_of(hand, cards[0]) if len(cards) == 1 else -1
        if at >= 0:
            del hand[at]
        else:
            take_from_hand(state, p, cards)
        trick.append((p, cards))
        went_out = not hand and not state.hidden[p]
        if went_out:
            state.out_order.append([p])
            note(state, ev.Out, p, reserve=bool(state.reserve))
        if not sure:
            state.stop(
                _(
                    "whether {cards} kills the trick depends on whether a hidden card is "
                    "a higher trump"
                ).format(cards=card_list(cards))
            )
            return
        if done:
            for _seat, played in trick:
                state.discard.extend(played)
            trick.clear()
            state.completed_tricks += 1
            state.last_winner = p
            _draw_reserve(state, p)
            leader = p if state.holds(p) else state.next_with_cards(p)
            if state.telling:
                note(state, ev.TrickLeaves)
            lead_next(state, leader)
            if state.telling and state.holders_in_game() > 1:
                note(state, ev.Leads, state.leader)
        else:
            state.turn = next_in_trick(state, p)
            if not went_out:
                return  # nobody went out and no trick ended: the game goes on
    end_if_over(state)


def next_in_trick(state: State, player: int) -> int:
    """The next player clockwise who holds cards or is a Blåmattis yet to pick."""
    n = len(state.names)
    for step in range(1, n + 1):
        other = (player + step) % n
        if state.hands[other] or state.hidden[other] or state.pending[other]:
            return other
    return player


def lead_next(state: State, leader: int) -> None:
    """``leader`` leads the next trick; under high trump the lead may pass to the right.

    The Goat treatise, variations I: a player due to lead who holds only the
    highest trump passes the lead to the player on their right.
    """
    hand = state.hands[leader]
    trump = state.trump
    if (
        state.options.high_trump == "kill_only"
        and all(c // 13 == trump for c in hand)  # else it holds more than the highest trump
        and state.holders() > 1
    ):
        high, certain = high_trump(state)
        maybe = all(c == high for c in hand) and (bool(hand) or state.hidden[leader] > 0)
        if maybe and (state.hidden[leader] or not certain):
            state.stop(
                _(
                    "whether {name} holds nothing but the highest trump depends on hidden cards"
                ).format(name=state.names[leader])
            )
            return
        if maybe and high is not None:
            n = len(state.names)
            for step in range(1, n):
                other = (leader - step) % n
                if state.holds(other):
                    note(state, ev.LeadsInstead, leader, other)
                    leader = other
                    break
    state.turn = leader
    state.leader = leader


def _draw_reserve(state: State, completer: int) -> None:
    """pagat.com, 'Two Player Game': the completer, then the other, draw from the avstickshög."""
    reserve = state.reserve
    if not reserve:
        return
    n = len(state.names)
    for step in range(n):
        if not reserve:
            break
        player = (completer + step) % n
        card = reserve.pop()
        if card < 0:
            state.hidden[player] += 1
        else:
            state.hands[player].append(card)
        if [player] in state.out_order:
            state.out_order.remove([player])  # not safe after all: the avstickshög lasted


def end_if_over(state: State) -> None:
    """The game ends the moment at most one player is left in it: that one loses.

    While the avstickshög lasts, a player who runs out mid-trick is not safe
    until the trick is over (pagat.com, 'Two Player Game').
    """
    if state.phase == OVER:
        return
    if state.reserve and state.trick:
        return
    if state.holders_in_game() <= 1:
        holders = [
            i for i, hand in enumerate(state.hands) if hand or state.hidden[i] or state.pending[i]
        ]
        over(state, holders)


def over(state: State, losers: list[int]) -> None:
    """The game is over; ``losers`` lose (usually one)."""
    state.phase = OVER
    state.losers = losers
    state.loser = losers[0] if len(losers) == 1 else None
    state.turn = None
    if losers:
        note(state, ev.GameOver, tuple(losers))


def start_phase_two(state: State, leader: int) -> None:
    """Phase two begins with ``leader`` to lead (or the next player who holds cards)."""
    state.phase = PHASE_TWO
    state.trick.clear()
    rule = state.options.empty_hand_at_phase_two
    empty = [i for i in range(state.n) if not state.holds(i)]
    if empty and rule == "out":
        state.out_order.append(empty)
    if len(empty) == state.n:
        end_if_over(state)
        return
    if rule == "lose" and empty:
        note(state, ev.WithoutCards, tuple(empty))
        over(state, empty)
        return
    if rule == "blamattis":
        for i in empty:
            state.pending[i] = True
    first = leader if state.holds(leader) else state.next_with_cards(leader)
    lead_next(state, first)
    end_if_over(state)
    if state.phase == PHASE_TWO and state.stopped is None:
        note(state, ev.Leads, state.leader, "phase_two")


def describe(state: State, action: Action) -> ev.Act:
    """The action where it is made (a lead, or what it beats); before applying it."""
    p = action.player
    if action.act == "pick":
        return ev.Picked(p, attempted(action, pick_cards(state, p) if state.trick else None), 2)
    if action.act == "play":
        cards = tuple(sorted(action.cards))
        if not state.trick:
            return ev.Played(p, cards, "lead")
        return ev.Played(p, cards, "beat", tuple(state.trick[-1][1]))
    return ev.OtherAct(p, action.act, tuple(action.cards), 2)
