"""The spectator stream of tjwilson90/goat (the American Goat game): its events as a record.

The app's server sends a spectator ``{"type": "replay", "gameId": …, "events": […]}``,
each event tagged by ``type`` in camelCase.  The log says who joined, how many packs,
every card drawn and by whom, every card played and sluffed, the trump turned and the
dreck shared, but not who made a ``playCard``, ``playTop``, ``playRun`` or ``pickUp``,
nor who won a trick: those follow from the rules.  So every event is pushed onto a
:class:`~adjudicator.play.table.Table` under the app's own rules, and the player the
rules have to act is its actor; an event nobody could make there is one line naming it.

The deck is rebuilt from the draws: the app's hands start empty and each card drawn is
logged, so the first three draws of each player are the deal (one at a time, seat 0
first: the last seat deals) and the rest are the stock in the order the rules draw it
(a player draws back to three after each play or sluff).  The app lets a player draw
later than that; the stock is ordered so that each player gets, in turn, the cards the
log says they drew.  A card never drawn is ``??``.  docs/importers.md has the mapping.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from adjudicator import engine
from adjudicator.actions import PICK, Action, single_plays
from adjudicator.cards import UNKNOWN_TEXT, Card, card_code, card_text, make_card, rank, suit
from adjudicator.engine.state import PHASE_ONE
from adjudicator.engine.violations import Violation
from adjudicator.exceptions import AdjudicatorError
from adjudicator.i18n import N_, _, ngettext, number
from adjudicator.importers.base import Imported, ImportOptions, option_value, rules_explained
from adjudicator.importers.source import json_values, label, read_source
from adjudicator.invalid import RecordError, cut, shown
from adjudicator.play.adjudicate import Replayed
from adjudicator.play.table import Table, cannot_play
from adjudicator.record import FORMAT

NAME = "goat-events"
TITLE = N_("tjwilson90/goat: a game's spectator stream (JSON events), as the Goat rules")

VARIANT = "goat"
HAND = 3
"""The app's hands hold three cards (``CannotDrawMoreThanThreeCards``)."""
MOST_PLAYERS = 16
"""The app seats sixteen at most (``TooManyPlayers``)."""

_CARDS: dict[str, Card] = {card_code(c): c for c in range(52)}
_RUNS: dict[tuple[Any, Any], tuple[Card, ...]] = {}
"""Each run read so far, by its lo and hi as written (at most 4 × 78 of them)."""

_ACTED = frozenset(("playCard", "playRun", "pickUp"))
"""The events whose actor is the player the rules have to act, and that end no trick."""
_QUIET = frozenset(("draw", "finishTrick", "finishSloughing", "goat", "offerDreck"))
"""The events that are no action (the draws are the deck's, read in the first pass)."""
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
REDACTED = ("redactedDraw", "redactedOfferDreck", "redactedReceiveDreck")


def rule_options(decks: int, rules: str) -> dict[str, Any]:
    """The record's options: the app's rules, or the treatise's letter (``text``).

    Read from the app: the packs of ``start``; no high-trump rule; aces high; the dreck
    goes to players holding fewer than six cards whatever the packs; sluffing to the
    last trick of part one is not restricted (restriction #2); part one ends as soon as
    a player still to play in the round (or its war) has no card."""
    text = rules == "text"
    return {
        "decks": decks,
        "aces_low": False,
        "high_trump": "none",
        "low_cards": 12 if text and decks == 2 else 6,
        "sluff_final": text,
        "phase_one_end": "all_hold" if text else "still_to_play",
    }


EXPLAINED: tuple[tuple[str, str], ...] = (
    ("first_leader", N_("seat 0 leads the first trick; the last seat deals")),
    ("decks", N_("the packs of 'start' (numDecks); the record format holds one or two")),
    ("aces_low", N_("aces are high: the app ranks two to ace")),
    ("high_trump", N_("no high-trump rule: only the count of plays kills a trick")),
    (
        "low_cards",
        N_(
            "the app shares the dreck among players holding fewer than six cards, with one "
            "pack or two; the treatise says twelve with two packs (--rules text)"
        ),
    ),
    (
        "sluff_final",
        N_("the app does not enforce sluffing restriction #2; the treatise does (--rules text)"),
    ),
    (
        "phase_one_end",
        N_(
            "the app ends part one as soon as a player still to play in the round or its war "
            "has no card; the treatise when that player is due (--rules text)"
        ),
    ),
)


def explain(options: ImportOptions) -> str:
    """The two rule sets, option by option, with why: what ``import --explain`` prints."""
    app, text = rule_options(1, "app"), rule_options(1, "text")
    two_app, two_text = rule_options(2, "app"), rule_options(2, "text")
    rows = []
    for option, why in EXPLAINED:
        if option == "first_leader":
            values = "0 / 0"
        elif option == "decks":
            values = "1-2 / 1-2"
        elif option == "low_cards":
            values = f"{app[option]} / {text[option]} ({two_app[option]} / {two_text[option]})"
        else:
            values = f"{option_value(app[option])} / {option_value(text[option])}"
        rows.append((option, values, _(why)))
    return rules_explained(
        _("The Goat rules (variant goat) with these options:"),
        rows,
        _(
            "Where the app departs from the rules in ways no option says (a player may draw "
            "late; a cap on pick-ups), the check names the place by the rules' own words."
        ),
    )


class Broken(AdjudicatorError):
    """A log that cannot be made a record: the place (``events[12]``) and why."""

    def __init__(self, where: str, why: str) -> None:
        super().__init__(f"{where}: {why}" if where else why)


def read(source: str, options: ImportOptions) -> Iterator[Imported]:
    """Every game of ``source``: a replay message, a bare event array, or JSON Lines of
    either; each named ``FILE#gameId`` (``FILE`` or ``FILE:LINE`` without an id)."""
    shown_name = label(source)
    try:
        text = read_source(source, options.max_size)
    except RecordError as exc:
        yield Imported(shown_name, error=str(exc))
        return
    yield from read_text(text, shown_name, options)


def read_text(text: str, shown_name: str, options: ImportOptions) -> Iterator[Imported]:
    """Every game of a log's text (as :func:`read`), named after ``shown_name``: what the
    page's Open record reads, a pasted log or a picked file, with no file of its own."""
    wanted = options.game
    found = False
    for line, value, error in json_values(text, jsonl=shown_name.lower().endswith(".jsonl")):
        place = shown_name if line is None else f"{shown_name}:{line}"
        if error is not None:
            yield Imported(place, error=error)
            continue
        game_id = value.get("gameId") if isinstance(value, dict) else None
        name = f"{shown_name}#{cut(str(game_id), 80)}" if game_id is not None else place
        if wanted is not None and str(game_id) != wanted:
            continue
        found = True
        try:
            record, replayed = convert_replayed(value, options)
        except Broken as exc:
            yield Imported(name, error=str(exc))
        else:
            yield Imported(name, record=record, about=about(record, value), replayed=replayed)
    if wanted is not None and not found:
        yield Imported(
            shown_name,
            error=_("no game {game} in {name}").format(game=repr(cut(wanted, 80)), name=shown_name),
        )


def looks_like(text: str) -> bool:
    """Whether ``text`` has this format's shape: a replay message, an array of the app's
    events, or JSON Lines whose first line is one.  The first test is a scan for the
    word the shape needs, so a record (or a folder's worth) is not parsed twice."""
    start = text.lstrip()[:1]
    if start not in ("{", "[") or ('"replay"' not in text and start != "["):
        return False
    for _line, value, _error in json_values(text):
        return _shaped(value)
    return False


def _shaped(value: Any) -> bool:
    if isinstance(value, dict):
        return value.get("type") == "replay" and isinstance(value.get("events"), list)
    if isinstance(value, list) and value and isinstance(value[0], dict):
        kind = value[0].get("type")
        return isinstance(kind, str) and (kind in KNOWN_FIELDS or kind in REDACTED)
    return False


def about(record: Mapping[str, Any], message: Any) -> str:
    """What a game was read from, in one line for a person (the page says it)."""
    events = message if isinstance(message, list) else message.get("events", [])
    count = len(events)
    said = ngettext(
        "Read a Goat app log: {players} players, {count} event",
        "Read a Goat app log: {players} players, {count} events",
        count,
    )
    return said.format(players=len(record["players"]), count=number(count))


def convert(message: Any, options: ImportOptions) -> dict[str, Any]:
    """One game's message (or bare event array) as a record; Broken when it cannot be."""
    return convert_replayed(message, options)[0]


def convert_replayed(
    message: Any, options: ImportOptions
) -> tuple[dict[str, Any], Replayed | None]:
    """One game's message as a record, and the table its actions were replayed on to
    find who made each act, when the record's check may be read off it (every action
    legal as it came, under the rules the record names); Broken when it cannot be."""
    kept: dict[str, Any] = {}
    if isinstance(message, list):
        events = message
    elif isinstance(message, dict):
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
    game = _Game(events, options, message.get("gameId") if isinstance(message, dict) else None)
    record = game.record()
    if kept:
        record["meta"].setdefault("_source", {})["message"] = kept
    return record, game.replayed()


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

    def __init__(self, events: list[Any], options: ImportOptions, game_id: Any) -> None:
        self.events = events
        self.options = options
        self.game_id = game_id
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
        event: dict[str, Any] = self.events[i]
        kind = event.get("type") if type(event) is dict else None
        keys = _KEYS.get(kind) if type(kind) is str else None
        if keys is not None and event.keys() <= keys:
            return event  # every field one the importer reads (the usual event)
        if not isinstance(event, dict) or not isinstance(kind, str):
            raise Broken(f"events[{i}]", _("an event is an object with a 'type'"))
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
        decks = self.events[self.start].get("numDecks")
        where = f"events[{self.start}].numDecks"
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
        return [str(user) for user in self.users]

    # --- the first pass: the draws and the trump --------------------------------

    def _scan(self) -> None:
        """Each player's draws in order, the cards turned off the stock, the trump; every
        card counted (no card more often than the packs hold it)."""
        seen: Counter[Card] = Counter()
        self.last_draw: dict[int, int] = {}
        """Each seat's last ``draw`` event."""
        self.stock_order: list[tuple[int, Card]] = []
        """(event, card) of every card taken off the stock after the deal, in log order."""
        events = self.events
        for i in range(self.start + 1, len(events)):
            event = events[i]  # _event's quick way past the usual event, without the call
            kind = event.get("type") if type(event) is dict else None
            keys = _KEYS.get(kind) if type(kind) is str else None
            if keys is None or not event.keys() <= keys:
                event = self._event(i)
                kind = event["type"]
            if kind in ("join", "leave", "start"):
                raise Broken(f"events[{i}]", _("{kind} after the game's 'start'").format(kind=kind))
            card: Card | None = None
            if kind == "draw":
                seat = self._seat(event, i)
                card = _card(event.get("card"), f"events[{i}].card")
                self.draws[seat].append(card)
                self.last_draw[seat] = i
                if len(self.draws[seat]) > HAND:
                    self.stock_order.append((i, card))
            elif kind == "playTop":
                card = _card(event.get("card"), f"events[{i}].card")
                self.stock_order.append((i, card))
            elif kind == "revealTrump":
                card = _card(event.get("trump"), f"events[{i}].trump")
                if self.trump is not None:
                    raise Broken(f"events[{i}]", _("the trump is turned a second time"))
                self.trump = card
            if card is not None:
                seen[card] += 1
                if seen[card] > self.decks:
                    raise Broken(
                        f"events[{i}]",
                        _("{card} comes out more often than {decks} pack(s) hold it").format(
                            card=card_code(card), decks=self.decks
                        ),
                    )

    def _deck(self) -> list[str]:
        """The deck the table is set from: the trump card, the deal, the stock as logged."""
        deck = [card_code(self.trump) if self.trump is not None else UNKNOWN_TEXT]
        for k in range(HAND):
            for seat in range(self.n):
                drawn = self.draws[seat]
                deck.append(card_code(drawn[k]) if k < len(drawn) else UNKNOWN_TEXT)
        deck += [card_code(card) for _i, card in self.stock_order]
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

    def record(self) -> dict[str, Any]:
        options = rule_options(self.decks, "app")
        self.table_options = options
        deck = self._deck()
        try:
            table = Table.new(
                VARIANT,
                self.names,
                deck=deck,
                options=options,
                dealer=self.names[-1],
                first_leader=self.names[0],
            )
        except RecordError as exc:
            where = "--names" if self.options.names else f"events[0..{self.start}]"
            raise Broken(where, str(exc)) from None
        self.table = table
        self.actions: list[str] = []
        self.next_draw = [HAND] * self.n
        self.popped: list[str] = []
        self.dreck = _Dreck()
        self.clean = True
        """Every action pushed was legal as the rules first saw it (no check said a word)."""
        self.pushed: list[Action] = []
        self.turned = False
        """Whether the log has turned the trump (the app's end of part one) so far."""
        stopped = self._follow()
        table.state.telling = True  # as any table handed on (a check may conclude on it)
        stock = table.state.stock
        final = deck[: 1 + HAND * self.n] + self.popped + [_code(c) for c in reversed(stock)]
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
            "options": rule_options(self.decks, self.options.rules),
            "players": self.names,
            "dealer": self.names[-1],
            "first_leader": self.names[0],
            "deck": " ".join(final),
            "actions": self.actions,
            "meta": meta,
        }
        return record

    def _follow(self) -> int | None:
        """Push every event after ``start``; the index of one the rules refuse, or None."""
        events = self.events
        state = self.table.state
        state.telling = False  # nothing here reads what an act caused (as in a bulk check)
        push = self._push
        check, apply = engine.check, engine.apply
        names, written, pushed = self.names, self.actions, self.pushed
        picks = [(PICK[p], PICK[p].text(names)) for p in range(self.n)]
        cards: list[dict[str, tuple[Action, str]]] = [{} for _ in range(self.n)]
        runs: list[dict[tuple[Any, Any], tuple[Action, str]]] = [{} for _ in range(self.n)]
        for i in range(self.start + 1, len(events)):
            event = events[i]
            kind = event["type"]
            dealt = self.dreck.first is not None and kind not in ("offerDreck", "receiveDreck")
            if dealt and push(self._deal(i), i):
                return i
            turn = state.turn
            if kind in _ACTED and turn is not None and state.decided is None:
                # the common events (a play or a pick by the player the rules have to act):
                # the actions made at once, as _action makes them
                if kind == "playCard":  # each seat's action and its words, made once a game
                    value = event.get("card")
                    made = cards[turn].get(value) if type(value) is str else None
                    if made is None:
                        action = single_plays(turn)[_card(value, f"events[{i}].card")]
                        made = cards[turn][value] = action, action.text(names)
                elif kind == "playRun":
                    written_as = event.get("lo"), event.get("hi")
                    known = type(written_as[0]) is str and type(written_as[1]) is str
                    made = runs[turn].get(written_as) if known else None
                    if made is None:  # the same lo and hi are the same run
                        action = _new(Action, (turn, "play", self._run(event, i), ()))
                        made = action, action.text(names)
                        if known:
                            runs[turn][written_as] = made
                else:
                    made = picks[turn]
                action, text = made
                if state.stock or state.deal is not None:
                    if push(action, i):
                        return i
                    continue
                # _push where nothing is taken off the stock and no deal is due (phase two)
                written.append(text)
                bad = check(state, action)
                if bad is not None and self._refused(action, bad, i):
                    return i
                apply(state, action)
                if state.stock:
                    self._drawn(i, -len(state.stock))
                pushed.append(action)
                continue
            if kind in _QUIET:
                if kind == "offerDreck":
                    self._seat(event, i)
                continue
            if kind == "receiveDreck":
                self._receive(event, i)
                continue
            if kind == "slough" and not self.turned and (state.phase != PHASE_ONE or state.deal):
                self._taken_back(event, i)
                continue
            taken = kind != "slough" and state.decided is not None
            if taken and push(self._actor(i, "take"), i):
                return i
            if kind == "revealTrump":
                self._reveal(i)
                self.turned = True
                continue
            if push(self._action(event, i), i):
                return i
        if self.dreck.first is not None:
            end = len(events) - 1
            if push(self._deal(end), end):
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
        return Action(turn, act, cards)

    def _action(self, event: Mapping[str, Any], i: int) -> Action:
        kind = event["type"]
        if kind == "playCard":
            return self._actor(i, "play", (_card(event.get("card"), f"events[{i}].card"),))
        if kind == "playTop":
            return self._actor(i, "dare", (_card(event.get("card"), f"events[{i}].card"),))
        if kind == "slough":
            card = _card(event.get("card"), f"events[{i}].card")
            return Action(self._seat(event, i), "sluff", (card,))
        if kind == "playRun":
            return self._actor(i, "play", self._run(event, i))
        assert kind == "pickUp", kind
        return self._actor(i, "pick")

    def _run(self, event: Mapping[str, Any], i: int) -> tuple[Card, ...]:
        written = event.get("lo"), event.get("hi")
        known = _RUNS.get(written) if type(written[0]) is str and type(written[1]) is str else None
        if known is not None:
            return known
        lo = _card(event.get("lo"), f"events[{i}].lo")
        hi = _card(event.get("hi"), f"events[{i}].hi")
        if suit(lo) != suit(hi) or rank(lo) > rank(hi):
            raise Broken(
                f"events[{i}]",
                _("{lo} to {hi} is no run of one suit").format(lo=card_code(lo), hi=card_code(hi)),
            )
        run = tuple(make_card(r, suit(lo)) for r in range(rank(lo), rank(hi) + 1))
        _RUNS[event["lo"], event["hi"]] = run
        return run

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

    def _push(self, action: Action, i: int) -> bool:
        """Push ``action`` (the stock first ordered so that its player draws what the log
        says they drew); True when the rules refuse it (it is the record's last action)."""
        state = self.table.state
        act = action.act
        if act == "play" and state.deal is not None:
            raise Broken(
                f"events[{i}]",
                _("the rules share the dreck (the low cards) here; the log shares none"),
            )
        before = len(state.stock)
        top: Sequence[str] = _NOTHING
        if before and (act == "dare" or state.phase == PHASE_ONE):
            top = self._order_stock(action, i)
        self.actions.append(action.text(self.names))
        bad = engine.check(state, action)  # Table.push's check and apply, without the
        if bad is not None and self._refused(action, bad, i):  # words of each step
            return True
        engine.apply(state, action)
        taken = before - len(state.stock)
        if taken != len(top):
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
        if not self.clean or rule_options(self.decks, self.options.rules) != self.table_options:
            return None
        return Replayed(self.table, self.pushed)

    def _order_stock(self, action: Action, i: int) -> list[str]:
        """Put the cards the rules take off the stock now where they take them: the dared
        card on top, then the player's next draws; the codes taken, top first."""
        state = self.table.state
        stock = state.stock
        wanted: list[Card | None] = []
        p = action.player
        if action.act == "dare":
            wanted.append(action.cards[0])
        if state.phase == PHASE_ONE and action.act in ("play", "sluff") and stock:
            held = len(state.hands[p]) + state.hidden[p] - len(action.cards)
            for _k in range(max(0, min(len(stock), HAND - held))):
                drawn = self.draws[p]
                k = self.next_draw[p]
                wanted.append(drawn[k] if k < len(drawn) else None)
                self.next_draw[p] += 1
        taken: list[str] = []
        for j, card in enumerate(wanted):
            at = len(stock) - 1 - j
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
            taken.append(_code(stock[at]))
        return taken


def _code(card: Card) -> str:
    return card_code(card) if card >= 0 else UNKNOWN_TEXT
