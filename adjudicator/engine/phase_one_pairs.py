"""Phase one with two-card tricks (pagat.com, 'Play in the first phase').

The leader plays against the second player (their left neighbour, or under
'skip_empty' the next player holding cards).  How the trick is won is
``pair_winner``: by rank, equal ranks bouncing (the basic game, Myllymatti), or
by suit, the second card winning only as a higher card of the suit led or a
trump on a non-trump (Mas, Melniki).  ``pair_reply`` says whether the second
player may instead pick the led card up (Mas, Melniki).  After a play from
hand the player draws back to a full hand while the stock lasts.
"""

from __future__ import annotations

from adjudicator.actions import DARE, PICK, Action, single_plays
from adjudicator.cards import (
    SUIT_SYMBOLS,
    UNKNOWN,
    Card,
    card_text,
    cards_text,
    rank,
    suit,
)
from adjudicator.engine import events as ev
from adjudicator.engine import intermission
from adjudicator.engine.common import (
    attempted,
    can_dare,
    dare_problem,
    dared_card,
    draw_up,
    held,
    may_hold,
    one_card,
    take_from_hand,
    turn_dare,
    unique_plays,
)
from adjudicator.engine.events import note
from adjudicator.engine.state import State
from adjudicator.engine.violations import Violation
from adjudicator.i18n import _, ngettext
from adjudicator.speech import suit_word

# --- the course of a trick ------------------------------------------------------


def begin_trick(state: State, leader: int) -> None:
    """``leader`` leads a new trick, unless phase one ends first."""
    state.trick.clear()
    end = state.options.phase_one_end
    if end == "talon_empty" and state.stock_done:
        note(state, ev.PhaseOneEnds, "stock_done")
        intermission.end_phase_one(state)
        return
    if end == "skip_empty":
        if not state.holds(leader) and not can_dare(state):
            leader = state.next_with_cards(leader)
        second = state.next_with_cards(leader)
        if second == leader or not (state.holds(leader) or can_dare(state)):
            note(state, ev.PhaseOneEnds, "fewer_than_two")
            intermission.end_phase_one(state)
            return
    else:
        second = state.left_of(leader)
    state.leader = leader
    state.second = second
    state.turn = leader
    _due(state)


def _due(state: State) -> None:
    """Phase one ends when the player due to play has no card and cannot dare."""
    player = state.turn
    assert player is not None
    if state.holds(player) or can_dare(state):
        return
    if state.options.phase_one_end == "skip_empty" and state.trick:
        note(state, ev.PhaseOneEnds, "no_card_bounce", (player,))
    else:
        role = "lead" if player == state.leader and len(state.trick) % 2 == 0 else "play"
        note(state, ev.PhaseOneEnds, f"no_{role}", (player,))
    intermission.end_phase_one(state)


def beats(state: State, card: Card, led: Card) -> bool:
    """Under ``pair_winner: suit``: a higher card of the suit led, or a trump on a non-trump."""
    if card // 13 == led // 13:
        return card > led
    return card // 13 == state.trump and led // 13 != state.trump


def _settle(state: State) -> None:
    """Both cards are down: bounce, or the winner takes everything on the table and leads."""
    lead = state.trick[-2][1][0]
    reply = state.trick[-1][1][0]
    if state.options.pair_winner == "suit":
        winner = state.second if beats(state, reply, lead) else state.leader
    elif rank(lead) == rank(reply):
        if state.telling:
            note(state, ev.Bounce, state.leader)
        state.turn = state.leader
        _due(state)
        return
    else:
        winner = state.leader if rank(lead) > rank(reply) else state.second
    pile = state.piles[winner]
    count = 0
    for _seat, cards in state.trick:
        pile.extend(cards)
        count += len(cards)
    state.trick.clear()
    state.last_winner = winner
    if state.telling:
        note(state, ev.TrickTaken, winner, count, leads=True)
    begin_trick(state, winner)


# --- what may be done ---------------------------------------------------------------


def whose_turn(state: State) -> str:
    """Why it is the current player's turn, in table language."""
    name = state.names[state.turn] if state.turn is not None else _("nobody")
    if not state.trick or len(state.trick) % 2 == 0:
        return _("{name} leads this trick").format(name=name)
    lead = state.trick[-1][1][0]
    return _("{name} plays second, to {leader}'s {card}").format(
        name=name, leader=state.names[state.leader], card=card_text(lead)
    )


def _replying(state: State) -> bool:
    return len(state.trick) % 2 == 1


def candidates(state: State) -> list[Action]:
    """Every action worth testing now (a superset of the legal ones)."""
    out: list[Action] = []
    p = state.turn
    if p is not None:
        out += [Action(p, "play", cards) for cards in unique_plays(state.hands[p])]
        out.append(Action(p, "dare"))
        out.append(Action(p, "pick"))
    out += any_time_candidates(state)
    return out


def any_time_candidates(state: State) -> list[Action]:
    """Set-asides and exchanges anyone could make now."""
    options = state.options
    out: list[Action] = []
    for player, hand in enumerate(state.hands):
        if options.set_aside_trumps and len(hand) == 3:
            out.append(Action(player, "set_aside", tuple(sorted(hand))))
        if options.exchange_two and state.trump is not None:
            two = state.trump * 13
            if two in hand:
                out.append(Action(player, "exchange", (two,)))
    return out


def generate(state: State) -> list[Action] | None:
    """The legal actions, generated directly; None where hidden cards in a hand need
    :func:`check`.  An unknown card on top of the stock only keeps the cardless dare off
    the list (a dare must then name the card it turned)."""
    stock = state.stock
    if any(state.hidden):
        return None
    options = state.options
    p = state.turn
    assert p is not None
    hand = state.hands[p]
    trick = state.trick
    replying = len(trick) % 2 == 1
    cards = sorted(set(hand))  # the order of unique_plays
    led = trick[-1][1][0] if replying else None
    reply = options.pair_reply
    if led is not None and reply == "beat_or_pick":
        cards = [c for c in cards if beats(state, c, led)]
    elif (
        led is not None and reply == "follow_or_pick" and all(c // 13 != led // 13 for c in hand)
    ):  # cannot follow: trumps only
        cards = [c for c in cards if c // 13 == state.trump]
    singles = single_plays(p)
    out = [singles[c] for c in cards]
    if (
        can_dare(state)
        and stock[-1] != UNKNOWN  # an unknown top: the dare must name it
        and not (replying and options.dare_by == "leader")
    ):
        out.append(DARE[p])
    may_pick = reply == "beat_or_pick" or (
        reply == "follow_or_pick" and all(c // 13 != (led or 0) // 13 for c in hand)
    )
    if led is not None and may_pick:
        out.append(PICK[p])
    # Set-asides and exchanges, as _check_set_aside and _check_exchange allow them
    # (no hand holds a hidden card here, so a hand's count is its known cards).
    trump = state.trump
    own_turn = options.specials_turn == "own_turn"
    for player, held_cards in enumerate(state.hands):
        if own_turn and player != p:
            continue  # _special_off_turn: only on one's own turn at such a table
        if (
            options.set_aside_trumps
            and len(held_cards) == 3
            and stock
            and all(c // 13 == trump for c in held_cards)
            and (options.decks > 1 or len(set(held_cards)) == 3)
        ):
            out.append(Action(player, "set_aside", tuple(sorted(held_cards))))
        if (
            options.exchange_two
            and trump is not None
            and trump * 13 in held_cards
            and turned_up_lies(state)
        ):
            out.append(Action(player, "exchange", (trump * 13,)))
    return out


def check(state: State, action: Action) -> Violation | None:
    """Why ``action`` is illegal now, or None.  Turn order is checked by the caller."""
    act = action.act
    if act in ("set_aside", "exchange"):
        off_turn = _special_off_turn(state, action)
        if off_turn is not None:
            return off_turn
    if act == "set_aside":
        return _check_set_aside(state, action)
    if act == "exchange":
        return _check_exchange(state, action)
    reply = state.options.pair_reply
    replying = _replying(state)
    if act == "pick":
        return _check_pick(state, action, replying)
    if act == "dare":
        if replying and state.options.dare_by == "leader":
            text = (
                _(
                    "Only the leader of a trick dares at this table (dare_by 'leader'): "
                    "{name} plays second, so plays a card or picks up"
                )
                if reply != "any"
                else _(
                    "Only the leader of a trick dares at this table (dare_by 'leader'): "
                    "{name} plays second, so plays a card"
                )
            )
            return Violation("phase1.dare.leader", text.format(name=state.names[action.player]))
        return dare_problem(state, action)
    if act != "play":
        return None
    bad = one_card(state, action, "A play in phase one") or held(state, action)
    if bad is not None or not replying or reply == "any":
        return bad
    led = state.trick[-1][1][0]
    card = action.cards[0]
    if reply == "follow_or_pick":
        return _check_follow(state, action.player, card, led)
    if beats(state, card, led):
        return None
    trump = state.trump
    return Violation.later(
        "phase1.beat", _not_beaten, card, led, trump if trump != led // 13 else None
    )


def _not_beaten(card: Card, led: Card, trump: int | None) -> str:
    """phase1.beat's words (built when read): ``trump`` None where a trump does not help."""
    if trump is None:
        text = _(
            "{card} does not beat {led}: the second card must be a higher {suit}, "
            "or else {led} is picked up"
        )
    else:
        text = _(
            "{card} does not beat {led}: the second card must be a higher {suit} "
            "or a trump ({symbol}), or else {led} is picked up"
        )
    return text.format(
        card=card_text(card),
        led=card_text(led),
        suit=suit_word(suit(led)),
        symbol=SUIT_SYMBOLS[trump] if trump is not None else "",
    )


def _special_off_turn(state: State, action: Action) -> Violation | None:
    """specials_turn 'own_turn': a set-aside or exchange only when it is one's turn."""
    if state.options.specials_turn != "own_turn" or action.player == state.turn:
        return None
    text = (
        _(
            "It is not {name}'s turn: {why}; at this table a player makes an exchange only "
            "on their own turn"
        )
        if action.act == "exchange"
        else _(
            "It is not {name}'s turn: {why}; at this table a player makes a set-aside only "
            "on their own turn"
        )
    )
    return Violation(
        "turn.order", text.format(name=state.names[action.player], why=whose_turn(state))
    )


def _check_follow(state: State, player: int, card: Card, led: Card) -> Violation | None:
    """Wikipedia, 'Related games' (Melniki): a player who can follow suit plays a card (any:
    the text does not say which); one who cannot trumps or picks up, as in Mas."""
    led_suit = suit(led)
    if card // 13 == led_suit or card // 13 == state.trump:
        return None
    follows = may_hold(state, player, lambda c: c // 13 == led_suit)
    if follows is True:
        return None
    name = state.names[player]
    if follows is None:
        return Violation(
            "phase1.reply",
            _(
                "Whether {name} holds a {suit} is unknown: without one, only a trump "
                "may be played to {led}"
            ).format(name=name, suit=suit_word(led_suit), led=card_text(led)),
            undetermined=True,
        )
    return Violation.later("phase1.reply", _no_follow, name, led, card, state.trump)


def _no_follow(name: str, led: Card, card: Card, trump: int | None) -> str:
    """phase1.reply's words (built when read)."""
    if trump is None:
        text = _("{name} holds no {suit}, so plays a trump to {led} or picks it up, not {card}")
    else:
        text = _(
            "{name} holds no {suit}, so plays a trump ({symbol}) to {led} or picks it up, "
            "not {card}"
        )
    return text.format(
        name=name,
        suit=suit_word(suit(led)),
        symbol=SUIT_SYMBOLS[trump] if trump is not None else "",
        led=card_text(led),
        card=card_text(card),
    )


def _check_pick(state: State, action: Action, replying: bool) -> Violation | None:
    reply = state.options.pair_reply
    if reply == "any":
        return Violation(
            "phase1.pick",
            _("Nobody picks up in phase one: the player to move plays a card or dares"),
        )
    if not replying:
        return Violation(
            "phase1.pick",
            _(
                "Only the second player of a trick picks up, and only the led card: {name} leads"
            ).format(name=state.names[action.player]),
        )
    led = state.trick[-1][1][0]
    if action.cards and action.cards != (led,):
        return Violation(
            "phase1.pick.cards",
            _("A pick takes the led card, {led}, not {cards}").format(
                led=card_text(led), cards=cards_text(action.cards)
            ),
        )
    if reply == "follow_or_pick":
        led_suit = suit(led)
        follows = may_hold(state, action.player, lambda c: c // 13 == led_suit)
        if follows is not False:
            name = state.names[action.player]
            if follows is None:
                return Violation(
                    "phase1.pick.follow",
                    _(
                        "Whether {name} holds a {suit} is unknown: a player who "
                        "can follow suit may not pick up"
                    ).format(name=name, suit=suit_word(led_suit)),
                    undetermined=True,
                )
            return Violation(
                "phase1.pick.follow",
                _(
                    "{name} holds a {suit} and so may not pick up {led}: a player who can follow "
                    "suit must play a card"
                ).format(name=name, suit=suit_word(led_suit), led=card_text(led)),
            )
    return None


def _check_set_aside(state: State, action: Action) -> Violation | None:
    p = action.player
    name = state.names[p]
    cards = action.cards
    if len(cards) != 3:
        return Violation(
            "phase1.set_aside",
            _("A set-aside shows exactly three trumps; {name} named {count}").format(
                name=name, count=len(cards)
            ),
        )
    bad = held(state, action)
    if bad is not None:
        return bad
    if len(set(cards)) != 3 and state.options.decks == 1:
        return Violation("play.count", _("{name} names the same card twice").format(name=name))
    wrong = [c for c in cards if c // 13 != state.trump]
    if wrong:
        return Violation(
            "phase1.set_aside",
            ngettext(
                "{cards} is not trumps: only three trumps may be set aside",
                "{cards} are not trumps: only three trumps may be set aside",
                len(wrong),
            ).format(cards=cards_text(wrong)),
        )
    if state.count(p) != 3:
        return Violation(
            "phase1.set_aside",
            ngettext(
                "{name} holds {count} card: only a hand of three trumps and nothing else "
                "may be set aside",
                "{name} holds {count} cards: only a hand of three trumps and nothing else "
                "may be set aside",
                state.count(p),
            ).format(name=name, count=state.count(p)),
        )
    if not state.stock:
        return Violation(
            "phase1.set_aside", _("The stock is empty: there are no three new cards to draw")
        )
    return None


def turned_up_lies(state: State) -> bool:
    """Whether the turned-up trump still lies under the stock."""
    return bool(state.stock) and not state.exchanged


def _check_exchange(state: State, action: Action) -> Violation | None:
    trump = state.trump
    assert trump is not None
    two = trump * 13
    if action.cards != (two,):
        return Violation(
            "phase1.exchange",
            _(
                "Only the two of trumps ({card}) is exchanged for the turned-up trump, not {cards}"
            ).format(card=card_text(two), cards=cards_text(action.cards) or _("nothing")),
        )
    bad = held(state, action)
    if bad is not None:
        return bad
    if not turned_up_lies(state):
        return Violation(
            "phase1.exchange",
            _("The turned-up trump no longer lies under the stock: there is nothing to exchange"),
        )
    return None


# --- doing it ------------------------------------------------------------------------


def apply(state: State, action: Action) -> None:
    """Play, dare, pick, set aside or exchange; draw; settle the trick."""
    act = action.act
    p = action.player
    if act == "set_aside":
        take_from_hand(state, p, action.cards)
        state.stored[p].extend(action.cards)
        draw_up(state, p)
        return
    if act == "exchange":
        take_from_hand(state, p, action.cards)
        state.hands[p].append(state.stock[0])
        state.stock[0] = action.cards[0]
        state.exchanged = True
        return
    if act == "pick":
        led = state.trick.pop()[1]
        state.hands[p].extend(led)
        _lead_after_pick(state, p)
        return
    if act == "dare":
        card = turn_dare(state, action)
        if _dare_fails_to_pick(state, card):
            led = state.trick.pop()[1]
            state.hands[p].extend((*led, card))
            if state.telling:
                note(state, ev.DareFailed, p, card)
            _lead_after_pick(state, p)
            return
    else:
        card = action.cards[0]
        hand = state.hands[p]
        if card in hand:
            hand.remove(card)
        else:
            take_from_hand(state, p, (card,))
        if state.stock and len(hand) + state.hidden[p] < state.options.hand_size:
            draw_up(state, p)
    trick = state.trick
    trick.append((p, (card,)))
    if len(trick) % 2:
        second = state.second
        state.turn = second
        if not state.hands[second] and not state.hidden[second]:
            _due(state)  # the second player may have no card left: phase one may end
    else:
        _settle(state)


def _lead_after_pick(state: State, picker: int) -> None:
    """The lead after a pick: the picker's left neighbour, or the picker (pick_leads)."""
    after = picker if state.options.pick_leads == "picker" else state.left_of(picker)
    if state.telling:
        note(state, ev.Leads, after, "next")
    begin_trick(state, after)


def _dare_fails_to_pick(state: State, card: Card) -> bool:
    """failed_dare 'pick_up': the second player's turned card does not beat the led card."""
    if state.options.failed_dare != "pick_up" or not _replying(state):
        return False
    return not beats(state, card, state.trick[-1][1][0])


def describe(state: State, action: Action) -> ev.Act:
    """The action where it is made (a lead, or a reply to which card); before applying it."""
    p = action.player
    act = action.act
    cards = tuple(action.cards)
    if act == "set_aside":
        return ev.SetAside(p, cards)
    if act == "exchange":
        return ev.Exchanged(p, cards, state.stock[0] if state.stock else None)
    if act == "pick":
        return ev.Picked(p, attempted(action, state.trick[-1][1] if state.trick else None), 1)
    if act not in ("play", "dare"):
        return ev.OtherAct(p, act, cards, 1)
    how, against = ("to", (state.trick[-1][1][0],)) if _replying(state) else ("lead", ())
    if act == "dare":
        return ev.Dared(p, dared_card(state, action), how, against)
    return ev.Played(p, cards, how, against)
