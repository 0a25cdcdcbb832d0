"""The spectator stream of tjwilson90/goat replayed into a record: who made each event.

What :mod:`adjudicator.importers.goat_events` reads is converted here.  The log does not
say who made a ``playCard``, ``playTop``, ``playRun`` or ``pickUp``, nor who won a trick:
so every event is pushed onto a :class:`~adjudicator.play.table.Table` under the app's
own rules, and the player the rules have to act is its actor; an event nobody could make
there is one line naming it.

The deck is rebuilt from the draws: the app's hands start empty and each card drawn is
logged, so the first three draws of each player are the deal (one at a time, seat 0
first: the last seat deals) and the rest are the stock in the order the rules draw it
(a player draws back to three after each play or sluff).  The app lets a player draw
later than that (its Draw button); where the log's draws cannot be the rules' own, the
record starts as the app does, every hand empty and the stock in the order the log
takes its cards, and writes every draw (``draw_back``, the act ``draw``).  A card never
drawn is ``??``.  docs/importers.md has
the mapping.

Compiled with the engine (setup.py): every event goes through it.  Its generators and
its error class stay in modules left as Python (goat_events, base).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import compress, count, repeat
from typing import Any, NoReturn

from adjudicator.actions import DRAW, PICK, TAKE, Action, single_plays
from adjudicator.cards import UNKNOWN, UNKNOWN_TEXT, Card, card_code, card_text, rank, suit
from adjudicator.engine import apply as _apply
from adjudicator.engine import check as _check
from adjudicator.engine.state import PHASE_ONE
from adjudicator.engine.violations import Violation
from adjudicator.i18n import _, ngettext, number
from adjudicator.importers.base import Broken, ImportOptions, player_name
from adjudicator.invalid import RecordError, shown
from adjudicator.play.adjudicate import Replayed
from adjudicator.play.table import Table, cannot_play
from adjudicator.record import FORMAT

NAME = "goat-events"
"""The format's name, which the record's ``meta.source`` says."""

VARIANT = "goat"
HAND = 3
"""The app's hands hold three cards (``CannotDrawMoreThanThreeCards``)."""
MOST_PLAYERS = 16
"""The app seats sixteen at most (``TooManyPlayers``)."""

_CARDS: dict[str, Card] = {card_code(c): c for c in range(52)}


def _runs() -> dict[tuple[str, str], tuple[tuple[Card, ...], str]]:
    """Every run of one suit (a single card too) by its lo and hi as the app writes them:
    its cards and its words in an action (`` 7D 8D 9D``).  A fixed table of 4 × 91."""
    table: dict[tuple[str, str], tuple[tuple[Card, ...], str]] = {}
    for s in range(4):
        for low in range(13):
            for high in range(low, 13):
                cards = tuple(s * 13 + r for r in range(low, high + 1))
                words = "".join(" " + card_code(c) for c in cards)
                table[card_code(cards[0]), card_code(cards[-1])] = cards, words
    return table


_RUNS = _runs()
"""Each run the app can write, read once when the module loads (a fixed table, not a
memory of the games read)."""

(_RUN, _PICK_UP, _PLAY_CARD, _DRAW, _FINISH, _GOAT, _OFFER, _RECEIVE, _SLOUGH, _TOP) = range(10)
(_REVEAL, _JOIN, _LEAVE, _START) = range(10, 14)
_KIND: dict[str, int] = {
    "playRun": _RUN,
    "pickUp": _PICK_UP,
    "playCard": _PLAY_CARD,
    "draw": _DRAW,
    "finishTrick": _FINISH,
    "finishSloughing": _FINISH,
    "goat": _GOAT,
    "offerDreck": _OFFER,
    "receiveDreck": _RECEIVE,
    "slough": _SLOUGH,
    "playTop": _TOP,
    "revealTrump": _REVEAL,
    "join": _JOIN,
    "leave": _LEAVE,
    "start": _START,
}
"""Each event by a number, so the second pass tells them apart by one look-up: up to
``_PLAY_CARD`` the events whose actor is the player the rules have to act and that end
no trick; ``_DRAW`` to ``_OFFER`` the events that are no action (the draws are the
deck's, read in the first pass)."""
_SCANNED = frozenset(("draw", "playTop", "revealTrump", "join", "leave", "start"))
"""The events the first pass reads (the rest only has its shape checked)."""
_NOTHING: tuple[str, ...] = ()
_new = tuple.__new__

ACTIONS = ("playCard", "playTop", "slough", "playRun", "pickUp")
KNOWN_FIELDS: dict[str, tuple[str, ...]] = {
    "join": ("userId",),
    "leave": ("player",),
    "start": ("numDecks",),
    "draw": ("player", "card"),
    "playCard": ("card",),
    "playTop": ("card",),
    "slough": ("player", "card"),
    "finishTrick": ("player",),
    "finishSloughing": ("player",),  # finishTrick's name in an earlier version of the app
    "revealTrump": ("trump",),
    "offerDreck": ("player", "dreck"),
    "receiveDreck": ("player", "dreck"),
    "playRun": ("lo", "hi"),
    "pickUp": (),
    "goat": (),
}
"""Each event the importer reads, and the fields it reads of it (others go to ``_source``)."""
_KEYS = {
    kind: frozenset((*fields, "type")) for kind, fields in KNOWN_FIELDS.items() if kind != "goat"
}
"""The keys of an event with nothing to keep, by its type (the quick way past most events)."""
_NO_KEYS: frozenset[str] = frozenset()
REDACTED = ("redactedDraw", "redactedOfferDreck", "redactedReceiveDreck")


def rule_options(decks: int, rules: str, drawn: bool = False) -> dict[str, Any]:
    """The record's options: the app's rules, or the treatise's letter (``text``).

    Read from the app: the packs of ``start``; no high-trump rule; aces high; the dreck
    goes to players holding fewer than six cards whatever the packs; sluffing to the
    last trick of part one is not restricted (restriction #2); part one ends as soon as
    a player still to play in the round (or its war) has no card.  ``drawn``: the record
    writes the log's draws, which a player may make when they choose (the app), or
    without delay (the treatise)."""
    text = rules == "text"
    options: dict[str, Any] = {
        "decks": decks,
        "aces_low": False,
        "high_trump": "none",
        "low_cards": 12 if text and decks == 2 else 6,
        "sluff_final": text,
        "phase_one_end": "all_hold" if text else "still_to_play",
    }
    if drawn:
        options["draw_back"] = "without_delay" if text else "any_time"
    return options


def convert_replayed(
    message: Any, options: ImportOptions
) -> tuple[dict[str, Any], Replayed | None, list[int]]:
    """One game's message as a record, the table its actions were replayed on to find
    who made each act when the record's check may be read off it (every action legal as
    it came, under the rules the record names), and each action's event; Broken when it
    cannot be."""
    kept: dict[str, Any] = {}
    if isinstance(message, list):
        events = message
    elif isinstance(message, dict):
        if "type" not in message and "events" not in message and "format" in message:
            raise Broken(  # a record of our own given as a log (check --from goat-events)
                "", _("a skitgubbe record, not a Goat app log: check it without --from")
            )
        kind = message.get("type", "replay")
        if kind != "replay":
            raise Broken("type", _("{kind} is no replay message").format(kind=shown(kind)))
        listed = message.get("events")
        if not isinstance(listed, list):
            raise Broken("events", _("a replay message holds its events as a list"))
        events = listed
        kept = {k: v for k, v in message.items() if k not in ("type", "gameId", "events")}
    else:
        raise Broken("", _("neither a replay message nor a list of events"))
    game_id = message.get("gameId") if isinstance(message, dict) else None
    record, game = _converted(events, options, game_id)
    if kept:
        record["meta"].setdefault("_source", {})["message"] = kept
    return record, game.replayed(), game.places


def _converted(
    events: list[Any], options: ImportOptions, game_id: Any
) -> tuple[dict[str, Any], _Game]:
    """The game as a record whose draws are the rules' own, or, where the log's cannot be
    (a player acted short of the cards the rules would have drawn them: the app lets
    one draw late), as a record that writes every draw.  The second is tried only when
    the first draws late or does not replay cleanly, and kept when the first draws late,
    or it replays cleanly, or converts where the first cannot, or follows the log
    further before the rules refuse an event; otherwise the first reading stands."""
    game = _Game(events, options, game_id)
    try:
        record = game.record()
    except Broken as exc:
        broken: Broken | None = exc
    else:
        if game.clean and not game.late:
            return record, game
        broken = None
    other = _Game(events, options, game_id, drawn=True)
    try:
        drawn = other.record()
    except Broken:
        if broken is not None:
            raise broken from None
        return record, game
    if broken is not None or other.clean or game.late or (other.stopped or 0) > (game.stopped or 0):
        return drawn, other
    return record, game


def _card(value: Any, where: str) -> Card:
    card = _CARDS.get(value) if isinstance(value, str) else None
    if card is None:
        raise Broken(
            where, _("{value} is not a card of the app ('TS', '2H')").format(value=shown(value))
        )
    return card


@dataclass
class _Dreck:
    """The dreck shared so far: each receiver's cards, in the log's order."""

    to: dict[int, list[Card]] = field(default_factory=dict)
    first: int | None = None
    """The first ``receiveDreck`` (the place a disagreement is named at)."""


class _Game:
    """One game's events, read in two passes: the seats and the draws, then the actions."""

    def __init__(
        self, events: list[Any], options: ImportOptions, game_id: Any, drawn: bool = False
    ) -> None:
        self.events = events
        self.options = options
        self.game_id = game_id
        self.drawn = drawn
        """Whether the record writes the log's draws (``draw_back``) or leaves them to
        the rules."""
        self.stopped: int | None = None
        """The event the rules refused (the record's last action), if any."""
        self.extra: dict[str, Any] = {}
        self.users: list[Any] = []
        self.start = self._lobby()
        self.decks = self._decks()
        self.n = len(self.users)
        self.names = self._names()
        self.draws: list[list[Card]] = [[] for _ in range(self.n)]
        self.trump: Card | None = None
        self._scan()

    # --- the lobby: who sits where -----------------------------------------------

    def _event(self, i: int) -> dict[str, Any]:
        event: Any = self.events[i]  # anything a log holds
        kind = event.get("type") if isinstance(event, dict) else None
        if not isinstance(event, dict) or not isinstance(kind, str):
            raise Broken(f"events[{i}]", _("an event is an object with a 'type'"))
        keys = _KEYS.get(kind)
        if keys is not None and event.keys() <= keys:
            return event  # every field one the importer reads (the usual event)
        if kind in REDACTED:
            raise Broken(
                f"events[{i}]",
                _(
                    "{kind} hides its cards (a player's own stream): import the "
                    "spectator's stream, which shows every card"
                ).format(kind=kind),
            )
        if kind not in KNOWN_FIELDS:
            raise Broken(
                f"events[{i}]", _("{kind} is no event of the app").format(kind=shown(kind))
            )
        known = KNOWN_FIELDS[kind]  # a field more than the importer reads, or the Goat's
        if kind == "goat":  # the Goat's noise: nothing the rules read, all of it kept
            self.extra[str(i)] = event
        else:
            rest = {k: v for k, v in event.items() if k != "type" and k not in known}
            if rest:
                self.extra[str(i)] = rest
        return event

    def _seat(self, event: Mapping[str, Any], i: int, seats: int | None = None) -> int:
        seat = event.get("player")
        seats = self.n if seats is None else seats
        if type(seat) is not int or not 0 <= seat < seats:
            raise Broken(
                f"events[{i}].player",
                _("{value} is no seat of the game (0 to {last})").format(
                    value=shown(seat), last=seats - 1
                ),
            )
        return seat

    def _lobby(self) -> int:
        """The seats as the app keeps them until ``start``: a join sits at the end, a
        leave gives the leaver's seat to the last to have joined.  The index of start."""
        for i in range(len(self.events)):
            event = self._event(i)
            kind = event["type"]
            if kind == "join":
                user = event.get("userId")
                if user is None or user in self.users:
                    raise Broken(
                        f"events[{i}].userId",
                        _("{value} cannot join: no id, or already seated").format(
                            value=shown(user)
                        ),
                    )
                self.users.append(user)
            elif kind == "leave":
                seat = self._seat(event, i, len(self.users))
                self.users[seat] = self.users[-1]
                self.users.pop()
            elif kind == "start":
                return i
            else:
                raise Broken(
                    f"events[{i}]",
                    _("{kind} before the game's 'start'").format(kind=kind),
                )
        raise Broken("events", _("no 'start': the game never began"))

    def _decks(self) -> int:
        start = self.events[self.start]
        decks = start.get("numDecks")
        where = f"events[{self.start}].numDecks"
        if "numDecks" not in start:
            raise Broken(where, _("is missing: 'start' says how many packs, one or two"))
        if decks not in (1, 2) or type(decks) is not int:
            raise Broken(
                where,
                _("{value}: the record format holds one pack or two").format(value=shown(decks)),
            )
        if not 2 <= len(self.users) <= MOST_PLAYERS:
            raise Broken(
                f"events[{self.start}]",
                _("{count} players joined: the app seats 2 to 16").format(count=len(self.users)),
            )
        return int(decks)

    def _names(self) -> list[str]:
        given = list(self.options.names)
        if given:
            if len(given) != len(self.users):
                raise Broken(
                    "--names",
                    _("{given} names for {count} players").format(
                        given=len(given), count=len(self.users)
                    ),
                )
            return given
        return [player_name(user, str(user)) for user in self.users]  # "Finn Olsson": Finn_Olsson

    # --- the first pass: the draws and the trump --------------------------------

    def _scan(self) -> None:
        """Each player's draws in order, the cards turned off the stock, the trump; every
        card counted (no card more often than the packs hold it).

        The usual log is told at C speed first: every event an object with a ``type``,
        of a kind the importer reads, with no field it does not read.  Only the events
        this pass reads (the draws, ``playTop``, ``revealTrump``) and any other event
        (a field to keep, a kind that is none of the app's) are then looked at one by
        one, in the log's order, so a log broken in several places is named at the
        same place as by looking at every event in turn."""
        counts = [0] * 52
        self.last_draw: dict[int, int] = {}
        """Each seat's last ``draw`` event."""
        self.stock_order: list[tuple[int, Card]] = []
        """(event, card) of every card taken off the stock after the deal (from the start
        where the record writes its draws), in log order."""
        dealt = 0 if self.drawn else HAND
        events = self.events
        first = self.start + 1
        rest = events[first:]
        odd: set[int] | None = None
        indices: Iterable[int]
        self.types: list[Any] | None = None
        """Each event's type after ``start``, when every event is an object with one."""
        try:
            kinds = list(map(dict.__getitem__, rest, repeat("type")))
            plain = list(map(frozenset.issuperset, map(_KEYS.get, kinds, repeat(_NO_KEYS)), rest))
            scanned = compress(range(first, len(events)), map(_SCANNED.__contains__, kinds))
        except (TypeError, KeyError):  # an event no object, with no type or one unhashable
            indices = range(first, len(events))
        else:
            self.types = kinds
            if all(plain):
                odd = set()
                indices = scanned
            else:
                odd = {first + j for j, fine in enumerate(plain) if not fine}
                indices = sorted(odd.union(scanned))
        decks, draws, n = self.decks, self.draws, self.n
        stock_order, last_draw = self.stock_order, self.last_draw
        for i in indices:
            event = events[i]
            if odd is None or i in odd:
                event = self._event(i)
            kind = event["type"]
            if kind == "draw":
                seat = event.get("player")
                if type(seat) is not int or not 0 <= seat < n:
                    seat = self._seat(event, i)  # says why
                value = event.get("card")
                card = _CARDS.get(value) if type(value) is str else None
                if card is None:
                    card = _card(value, f"events[{i}].card")
                drawn = draws[seat]
                drawn.append(card)
                last_draw[seat] = i
                if len(drawn) > dealt:
                    stock_order.append((i, card))
            elif kind == "playTop":
                card = _card(event.get("card"), f"events[{i}].card")
                stock_order.append((i, card))
            elif kind == "revealTrump":
                card = _card(event.get("trump"), f"events[{i}].trump")
                if self.trump is not None:
                    raise Broken(f"events[{i}]", _("the trump is turned a second time"))
                self.trump = card
            elif kind in ("join", "leave", "start"):
                raise Broken(f"events[{i}]", _("{kind} after the game's 'start'").format(kind=kind))
            else:
                continue
            counts[card] += 1
            if counts[card] > decks:
                raise Broken(
                    f"events[{i}]",
                    _("{card} comes out more often than {decks} pack(s) hold it").format(
                        card=card_code(card), decks=decks
                    ),
                )

    def _deck(self) -> list[str]:
        """The deck the table is set from: the trump card, the deal, the stock as logged."""
        code = _CODE
        deck = [code[self.trump] if self.trump is not None else UNKNOWN_TEXT]
        for k in range(HAND):
            for seat in range(self.n):
                drawn = self.draws[seat]
                deck.append(code[drawn[k]] if k < len(drawn) else UNKNOWN_TEXT)
        deck += [code[card] for _i, card in self.stock_order]
        size = 52 * self.decks
        if len(deck) > size:
            short = [seat for seat in range(self.n) if len(self.draws[seat]) < HAND]
            if short:  # the deal's unknown cards made the deck too long, not the draws
                seat = short[0]
                raise Broken(
                    f"events[{self.last_draw.get(seat, self.start)}]",
                    ngettext(
                        "{name} drew {count} card in all: the rules deal three to each "
                        "player (the app lets a hand start short and fill it later)",
                        "{name} drew {count} cards in all: the rules deal three to each "
                        "player (the app lets a hand start short and fill it later)",
                        len(self.draws[seat]),
                    ).format(name=self.names[seat], count=number(len(self.draws[seat]))),
                )
            where = self.stock_order[-1][0]
            raise Broken(f"events[{where}]", _("more cards are drawn than the packs hold"))
        return deck + [UNKNOWN_TEXT] * (size - len(deck))

    # --- the second pass: each event an action, its actor the rules' ------------

    def _start(self) -> dict[str, Any]:
        """Where the record writes its draws: the table as the app starts it, every hand
        empty, the stock every card the log takes off it in order, then ``??``.  A card
        taken past the stock's last (the trump card lies under it, set aside) is left out:
        its ``draw`` or ``playTop`` is then the rules' to refuse, the stock being empty."""
        size = 52 * self.decks - 1
        stock = [_CODE[card] for _i, card in self.stock_order[:size]]
        return {
            "phase": 1,
            "leader": self.names[0],
            "hands": {name: [] for name in self.names},
            "stock": stock + [UNKNOWN_TEXT] * (size - len(stock)),
            "trump_card": _code(self.trump) if self.trump is not None else UNKNOWN_TEXT,
        }

    def record(self) -> dict[str, Any]:
        options = rule_options(self.decks, "app", self.drawn)
        self.table_options = options
        dealt: dict[str, Any] = {"start": self._start()} if self.drawn else {"deck": self._deck()}
        try:
            table = Table.new(
                VARIANT,
                self.names,
                options=options,
                dealer=self.names[-1],
                first_leader=self.names[0],
                **dealt,
            )
        except RecordError as exc:
            where = "--names" if self.options.names else f"events[0..{self.start}]"
            raise Broken(where, str(exc)) from None
        self.table = table
        self.actions: list[str] = []
        self.places: list[int] = []
        """The event each action was made from (a take: the event that ended its trick)."""
        self.next_draw = [HAND] * self.n
        self.seen = [0] * self.n
        """Each seat's ``draw`` events passed so far."""
        self.late = False
        """Whether a player acted holding fewer cards than the rules would have had them
        draw by then (a draw the app let them make later, or never)."""
        self.popped: list[str] = []
        self.dreck = _Dreck()
        self.clean = True
        """Every action pushed was legal as the rules first saw it (no check said a word)."""
        self.pushed: list[Action] = []
        self.turned = False
        """Whether the log has turned the trump (the app's end of part one) so far."""
        stopped = self.stopped = self._follow()
        if (
            stopped is None
            and not self.drawn
            and any(k < len(drawn) for k, drawn in zip(self.next_draw, self.draws, strict=True))
        ):  # a card the log has a player draw that the rules never drew for them (a fourth
            self.late = True  # card): the rules' draws cannot be the log's
        table.state.telling = True  # as any table handed on (a check may conclude on it)
        stock = table.state.stock
        if not self.drawn:  # the deck with the stock as the rules drew it
            deck = dealt["deck"]
            final = deck[: 1 + HAND * self.n] + self.popped + [_code(c) for c in reversed(stock)]
            dealt["deck"] = " ".join(final)
        meta: dict[str, Any] = {
            "source": NAME,
            "rules": self.options.rules,
            "users": self.users,
        }
        if self.game_id is not None:
            meta["game_id"] = self.game_id
        source: dict[str, Any] = {}
        if self.extra:
            source["events"] = self.extra
        if stopped is not None:
            source["unconverted"] = {"from": stopped + 1, "events": self.events[stopped + 1 :]}
            meta["notes"] = _(
                "events[{index}] breaks the app's rules as the record states them: the "
                "events after it are kept under _source, not converted"
            ).format(index=stopped)
        if source:
            meta["_source"] = source
        record: dict[str, Any] = {
            "format": FORMAT,
            "variant": VARIANT,
            "options": rule_options(self.decks, self.options.rules, self.drawn),
            "players": self.names,
            "dealer": self.names[-1],
            "first_leader": self.names[0],
            **dealt,
            "actions": self.actions,
            "meta": meta,
        }
        return record

    def _follow(self) -> int | None:
        """Push every event after ``start``; the index of one the rules refuse, or None.

        Each event's actor is read off the table the engine keeps (``state.turn``, the
        player the rules have to act), and its action and words are made at once from
        fixed tables (the run a ``lo`` and ``hi`` name, each seat's pick); any event
        off that path (a sluff, a dare, a trick taken, the dreck, nobody to act) is
        made by :meth:`_action` and pushed by :meth:`_push`."""
        events = self.events
        state = self.table.state
        state.telling = False  # nothing here reads what an act caused (as in a bulk check)
        names, written, pushed, seen = self.names, self.actions, self.pushed, self.seen
        places = self.places
        picks = [(PICK[p], f"{name} pick") for p, name in enumerate(names)]
        plays = [f"{name} play" for name in names]
        takes = [f"{name} take" for name in names]
        singles = [single_plays(p) for p in range(self.n)]
        runs, known = _RUNS, _CARDS
        first = self.start + 1
        rest = events[first:]
        # every event an object of a kind the importer reads: the first pass said so
        types = self.types
        if types is None:  # the first pass looked at each event alone
            types = list(map(dict.__getitem__, rest, repeat("type")))
        kinds = map(_KIND.__getitem__, types)
        sharing = False  # a receiveDreck read, its deal not yet pushed (self.dreck holds it)
        merged = -1  # the last slough made part of one sluff with those before it
        for i, event, kind in zip(count(first), rest, kinds):
            if sharing and kind != _OFFER and kind != _RECEIVE:
                sharing = False
                if self._push(self._deal(i), i):
                    return i
            if kind <= _PLAY_CARD:
                turn = state.turn
                if turn is not None and state.decided is None:
                    # the common events (a play or a pick by the player the rules have
                    # to act): the action and its words at once, as _action makes them
                    if kind == _RUN:
                        try:
                            run = runs[event["lo"], event["hi"]]
                        except (KeyError, TypeError):  # no run the app writes: _run says why
                            run = self._run(event, i)
                        action: Action = _new(Action, (turn, "play", run[0], ()))
                        text = plays[turn] + run[1]
                    elif kind == _PICK_UP:
                        action, text = picks[turn]
                    else:
                        value = event.get("card")
                        card = known.get(value) if type(value) is str else None
                        if card is None:
                            card = _card(value, f"events[{i}].card")
                        action = singles[turn][card]
                        text = f"{plays[turn]} {value}"
                    if state.stock or state.deal is not None:
                        if self._push(action, i, text):
                            return i
                        continue
                    # _push where nothing is taken off the stock and no deal is due
                    written.append(text)
                    places.append(i)
                    bad = _check(state, action)
                    if bad is not None and self._refused(action, bad, i):
                        return i
                    _apply(state, action)
                    if state.stock:
                        self._drawn(i, -len(state.stock))
                    pushed.append(action)
                    continue
            elif kind <= _OFFER:  # a draw, a trick finished, the Goat, the dreck offered
                if kind == _DRAW:
                    seat = event["player"]  # a seat: the first pass said so
                    seen[seat] += 1
                    if self.drawn and self._push(DRAW[seat], i, f"{names[seat]} draw"):
                        return i
                elif kind == _OFFER:
                    self._seat(event, i)
                continue
            elif kind == _RECEIVE:
                self._receive(event, i)
                sharing = True
                continue
            if kind == _SLOUGH and i <= merged:
                continue  # sluffed with the slough before it, as one act
            if kind == _SLOUGH and not self.turned and (state.phase != PHASE_ONE or state.deal):
                self._taken_back(event, i)
                continue
            if kind != _SLOUGH and state.decided is not None:
                taker = state.turn
                if taker is None:
                    self._actor(i, "take")  # says why nobody could
                elif self._push(TAKE[taker], i, takes[taker]):
                    return i
            if kind == _REVEAL:
                self._reveal(i)
                self.turned = True
                continue
            action, text = self._action(event, i)
            if kind == _SLOUGH and self.drawn:
                action, merged = self._one_sluff(action, i)
                text = action.text(names)
            if self._push(action, i, text):
                return i
        if self.dreck.first is not None:
            end = len(events) - 1
            if self._push(self._deal(end), end):
                return end
        return None

    def _actor(self, i: int, act: str, cards: tuple[Card, ...] = ()) -> Action:
        """``act`` by the player the rules have to act now; Broken when nobody is."""
        turn = self.table.state.turn
        if turn is None:
            why = (
                _("the game is already over")
                if self.table.finished
                else _("the rules have a deal to make first")
            )
            raise Broken(
                f"events[{i}]",
                _("no player could have made this {kind} here: {why}").format(
                    kind=self.events[i]["type"], why=why
                ),
            )
        return _new(Action, (turn, act, cards, ()))

    def _action(self, event: Mapping[str, Any], i: int) -> tuple[Action, str]:
        """The action of an event off the common path, and its words (as ``Action.text``
        writes them)."""
        kind = event["type"]
        if kind == "playRun":
            cards, words = self._run(event, i)
            action = self._actor(i, "play", cards)
            return action, f"{self.names[action.player]} play{words}"
        if kind == "pickUp":
            action = self._actor(i, "pick")
            return action, f"{self.names[action.player]} pick"
        card = _card(event.get("card"), f"events[{i}].card")
        if kind == "slough":
            action = _new(Action, (self._seat(event, i), "sluff", (card,), ()))
        elif kind == "playCard":
            action = self._actor(i, "play", (card,))
        else:
            assert kind == "playTop", kind
            action = self._actor(i, "dare", (card,))
        return action, f"{self.names[action.player]} {action.act} {_CODE[card]}"

    def _sloughed_just_before(self, i: int, seat: int) -> bool:
        """Whether event ``i - 1`` is a slough by ``seat``: the app writes a sluff of
        several cards as one slough a card, and draws after the last."""
        before: dict[str, Any] = self.events[i - 1]
        return bool(before.get("type") == "slough" and before.get("player") == seat)

    def _one_sluff(self, action: Action, i: int) -> tuple[Action, int]:
        """The sluff a slough at ``i`` begins, with every slough by the same player right
        after it (one act of several cards, as the treatise sluffs, then one draw back),
        and the index of its last slough; where the record writes its draws."""
        cards = list(action.cards)
        seat, events, last = action.player, self.events, i
        while last + 1 < len(events):
            event = events[last + 1]
            if event.get("type") != "slough" or event.get("player") != seat:
                break
            last += 1
            cards.append(_card(event.get("card"), f"events[{last}].card"))
        if last == i:
            return action, i
        return _new(Action, (seat, "sluff", tuple(cards), ())), last

    def _run(self, event: Mapping[str, Any], i: int) -> tuple[tuple[Card, ...], str]:
        """The run a ``playRun`` names, and its words; Broken when it names none."""
        lo = _card(event.get("lo"), f"events[{i}].lo")
        hi = _card(event.get("hi"), f"events[{i}].hi")
        if suit(lo) != suit(hi) or rank(lo) > rank(hi):
            raise Broken(
                f"events[{i}]",
                _("{lo} to {hi} is no run of one suit").format(lo=card_code(lo), hi=card_code(hi)),
            )
        return _RUNS[card_code(lo), card_code(hi)]

    def _taken_back(self, event: Mapping[str, Any], i: int) -> None:
        """A sluff after the rules ended part one in a round, before the app turns the
        trump: the app keeps the unfinished trick open until every ``finishTrick`` and
        then gives every card of it back to whoever put it there, this one too.  It
        changes no hand, so it is no action; the event is kept whole under ``_source``."""
        seat = self._seat(event, i)
        card = _card(event.get("card"), f"events[{i}].card")
        state = self.table.state
        if card not in state.hands[seat] and not (state.hidden[seat] and state.unseen[card]):
            raise Broken(
                f"events[{i}]",
                _("no player could have made this {kind} here: {why}").format(
                    kind="slough",
                    why=_("{name} does not hold {card}").format(
                        name=self.names[seat], card=card_text(card)
                    ),
                ),
            )
        self.extra[str(i)] = dict(event)

    def _reveal(self, i: int) -> None:
        state = self.table.state
        if state.phase == PHASE_ONE and state.deal is None:
            raise Broken(
                f"events[{i}]",
                _(
                    "the app ends part one here, the rules do not (the app ends it as soon as "
                    "a player still to play in the round has no card)"
                ),
            )

    def _receive(self, event: Mapping[str, Any], i: int) -> None:
        seat = self._seat(event, i)
        dreck = event.get("dreck")
        if not isinstance(dreck, list):
            raise Broken(f"events[{i}].dreck", _("the dreck is a list of cards"))
        cards = [_card(c, f"events[{i}].dreck[{k}]") for k, c in enumerate(dreck)]
        if self.dreck.first is None:
            self.dreck.first = i
        self.dreck.to.setdefault(seat, []).extend(cards)

    def _deal(self, i: int) -> Action:
        """The dreck as the record's ``deal``, by the one player the rules have shuffle it."""
        where = f"events[{self.dreck.first}]"
        due = self.table.state.deal
        if due is None:
            raise Broken(where, _("the log shares the dreck where the rules share no low cards"))
        if len(due.shufflers) != 1:
            names = ", ".join(self.names[p] for p in sorted(due.shufflers))
            raise Broken(
                where,
                _("who shuffled the dreck cannot be told: any of {names}").format(names=names),
            )
        (shuffler,) = due.shufflers
        to = tuple((seat, tuple(cards)) for seat, cards in self.dreck.to.items())
        self.dreck = _Dreck()
        return Action(shuffler, "deal", (), to)

    def _push(self, action: Action, i: int, text: str | None = None) -> bool:
        """Push ``action`` (the stock first ordered so that its player draws what the log
        says they drew), written ``text`` (its words, made here if not given); True when
        the rules refuse it (it is the record's last action)."""
        state = self.table.state
        act = action.act
        if act == "play" and state.deal is not None:
            raise Broken(
                f"events[{i}]",
                _("the rules share the dreck (the low cards) here; the log shares none"),
            )
        stock = state.stock
        before = len(stock)
        top: Sequence[str] = _NOTHING
        if before and not self.drawn and (act == "dare" or state.phase == PHASE_ONE):
            p = action.player
            k = self.next_draw[p]
            if self.seen[p] < k and not (act == "sluff" and self._sloughed_just_before(i, p)):
                self.late = True  # the app's player is short here: the log draws late
            drawn = self.draws[p]
            if (
                act == "play"
                and len(state.hands[p]) + state.hidden[p] == HAND
                and len(action.cards) == 1
                and k < len(drawn)
                and stock[-1] == drawn[k]
            ):  # the usual play of part one: one card drawn back, the one on top
                self.next_draw[p] = k + 1
                top = [_CODE[drawn[k]]]
            else:
                top = self._order_stock(action, i)
        self.actions.append(action.text(self.names) if text is None else text)
        self.places.append(i)
        bad = _check(state, action)  # Table.push's check and apply, without the
        if bad is not None and self._refused(action, bad, i):  # words of each step
            return True
        _apply(state, action)
        taken = before - len(stock)
        if taken != len(top) and not self.drawn:
            self._drawn(i, taken)
        if top:
            self.popped += top
        self.pushed.append(action)
        return False

    def _refused(self, action: Action, bad: Violation, i: int) -> bool:
        """Whether the rules refuse ``action`` (``bad`` what the check said of it): then
        it is the record's last action and its verdict names the rule broken; Broken when
        it cannot even be played (the log and the rules part here)."""
        self.clean = False
        if not bad.invalid and bad.undetermined:
            return False  # a check the cards nobody knows leave open: it is applied
        why = cannot_play(self.table.state, action)
        if why is not None:
            raise Broken(
                f"events[{i}]",
                _("no player could have made this {kind} here: {why}").format(
                    kind=self.events[i]["type"], why=why
                ),
            ) from None
        return True

    def _drawn(self, i: int, taken: int) -> NoReturn:
        raise Broken(
            f"events[{i}]",
            _("the rules draw {count} card(s) here, the log another number").format(count=taken),
        )

    def replayed(self) -> Replayed | None:
        """The table the actions were pushed on, for the record's check to read its verdict
        off (see :func:`~adjudicator.play.adjudicate.adjudicate_replayed`): only when every
        action was legal as it came and the record's rules are those it was replayed by."""
        if (
            not self.clean
            or rule_options(self.decks, self.options.rules, self.drawn) != self.table_options
        ):
            return None
        return Replayed(self.table, self.pushed)

    def _order_stock(self, action: Action, i: int) -> list[str]:
        """Put the cards the rules take off the stock now where they take them: the dared
        card on top, then the player's next draws; the codes taken, top first."""
        state = self.table.state
        stock = state.stock
        wanted: list[Card | None]
        p = action.player
        act = action.act
        if act == "dare":
            wanted = [action.cards[0]]
        elif (act == "play" or act == "sluff") and state.phase == PHASE_ONE:
            held = len(state.hands[p]) + state.hidden[p] - len(action.cards)
            many = min(len(stock), HAND - held)
            if many <= 0:
                return []
            k = self.next_draw[p]
            wanted = self.draws[p][k : k + many]  # type: ignore[assignment]
            if len(wanted) < many:  # the log has this player draw fewer than the rules
                wanted += [None] * (many - len(wanted))
            self.next_draw[p] = k + many
        else:
            return []
        taken: list[str] = []
        at = len(stock)
        for card in wanted:
            at -= 1
            if at < 0:
                break
            if card is not None and stock[at] != card:
                try:
                    other = stock.index(card, 0, at)
                except ValueError:
                    raise Broken(
                        f"events[{i}]",
                        _("{card} is not in the stock when the rules take it").format(
                            card=card_code(card)
                        ),
                    ) from None
                stock[at], stock[other] = stock[other], stock[at]
            taken.append(_CODE[stock[at]])
        return taken


_CODE: dict[Card, str] = {**{c: card_code(c) for c in range(52)}, UNKNOWN: UNKNOWN_TEXT}
"""Each card's written form, ``??`` for one nobody knows."""


def _code(card: Card) -> str:
    return card_code(card) if card >= 0 else UNKNOWN_TEXT
