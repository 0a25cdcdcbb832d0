"""The record format (docs/record-format.md): pydantic models and loading.

Loading has two stages.  pydantic checks the shape (fields, types, card
spellings); :func:`build_game` then resolves names against ``players``, checks
the pack, and turns everything into the small index-based :class:`Game` the
engine replays.  Either stage raises :class:`RecordError`, one line naming the
place: ``actions[12].cards[0]: 'ZZ' is not a card``.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    SkipValidation,
    Tag,
    ValidationError,
)

from adjudicator.actions import ACTS, Action
from adjudicator.cards import (
    FULL_PACK,
    PARSE,
    UNKNOWN,
    UNKNOWN_TEXT,
    Card,
    card_code,
    parse_card,
    parse_suit,
)
from adjudicator.rules.options import RuleOptions
from adjudicator.rules.presets import PRESETS, find_variant

FORMAT = "skitgubbe-record/1"
SESSION_FORMAT = "skitgubbe-session/1"


class RecordError(ValueError):
    """A record that cannot be read as the format: ``path: message``."""

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        self.message = message
        super().__init__(f"{path}: {message}" if path else message)


def _cards_list(value: Any) -> Any:
    """Accept a list of card strings or one string of cards separated by spaces."""
    if isinstance(value, str):
        return value.split()
    return value


def _card(value: Any) -> Any:
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not a card")
    if value.strip() == UNKNOWN_TEXT:
        raise ValueError("'??' is not allowed here: an action names the cards it uses")
    return card_code(parse_card(value))


def _slot(value: Any) -> Any:
    if isinstance(value, str) and value.strip() == UNKNOWN_TEXT:
        return UNKNOWN_TEXT
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not a card (or '??' for an unknown card)")
    return card_code(parse_card(value))


CardStr = Annotated[
    str,
    BeforeValidator(_card),
    Field(
        description="A card: rank (2-9, T or 10, J, Q, K, A) then suit (S H D C or ♠ ♥ ♦ ♣), "
        "case-insensitive.",
        examples=["TH", "10h", "Q♠"],
    ),
]
CardList = Annotated[list[CardStr], BeforeValidator(_cards_list)]
SlotStr = Annotated[
    str,
    BeforeValidator(_slot),
    Field(
        description="A card as in actions, or '??' for a card nobody knows.",
        examples=["TH", "??"],
    ),
]
SlotList = Annotated[list[SlotStr], BeforeValidator(_cards_list)]


def _printable_name(name: str) -> str:
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in name):
        raise ValueError(f"{name!r} is not a player name (1-40 printable characters, no spaces)")
    return name


PlayerName = Annotated[
    str,
    Field(
        pattern=r"^[^\s\x00-\x1f\x7f]{1,40}$",
        description="1-40 printable characters, no spaces",
    ),
    AfterValidator(_printable_name),
]


class ActionObject(BaseModel):
    """An action in object form."""

    model_config = ConfigDict(extra="forbid")

    player: str
    act: str = Field(description="play, dare, sluff, pick, deal, take, exchange or set_aside")
    # The cards are read by _card_list, which stops at the first that is no card
    # (pydantic would report every one of a million bad cards).
    cards: SkipValidation[CardList] = Field(default_factory=list)
    to: SkipValidation[dict[str, CardList] | None] = Field(
        default=None, description="deal only: the cards each receiver got"
    )


def _action_kind(value: Any) -> str:
    return "text" if isinstance(value, str) else "object"


ActionEntry = Annotated[
    Annotated[str, Tag("text")] | Annotated[ActionObject, Tag("object")],
    Discriminator(_action_kind),
]


class StartPhaseTwo(BaseModel):
    """A position in phase two to start from instead of a deal."""

    model_config = ConfigDict(extra="forbid", title="StartPhaseTwo")

    phase: Literal[2]
    trump: str = Field(description="the trump suit: S, H, D, C or a suit symbol")
    leader: str = Field(description="who leads the first trick")
    hands: dict[str, SlotList] = Field(
        description="each player's hand ('??' for a card nobody knows); a player not listed, "
        "or with no cards, is out"
    )


class StartPhaseOne(BaseModel):
    """A position in phase one, at the start of a trick."""

    model_config = ConfigDict(extra="forbid", title="StartPhaseOne")

    phase: Literal[1]
    leader: str = Field(description="who leads the trick about to begin")
    dealer: str | None = Field(default=None, description="who dealt, where the rules need it")
    hands: dict[str, SlotList] = Field(description="each player's hand ('??' for unknown cards)")
    stock: SlotList = Field(default_factory=list, description="the stock, top card first")
    piles: dict[str, SlotList] = Field(
        default_factory=dict, description="the cards each player has won so far"
    )
    trump_card: SlotStr | None = Field(
        default=None,
        description="the trump card: set aside before the deal (Goat), turned up under the "
        "stock (Mas), or drawn as the stock's last card (then with trump_holder)",
    )
    trump_holder: str | None = Field(
        default=None, description="who drew the stock's last card and keeps it face down"
    )
    stored: dict[str, CardList] = Field(
        default_factory=dict, description="Mas: the three trumps each player stored"
    )
    reserve: SlotList = Field(
        default_factory=list, description="the two-player avstickshög, top card first"
    )


def _start_kind(value: Any) -> str:
    if isinstance(value, dict) and value.get("phase") == 1:
        return "one"
    return "two"


StartPosition = Annotated[
    Annotated[StartPhaseOne, Tag("one")] | Annotated[StartPhaseTwo, Tag("two")],
    Discriminator(_start_kind),
]


class Result(BaseModel):
    """What the table claims happened."""

    model_config = ConfigDict(extra="forbid")

    loser: str | None = None
    losers: list[str] | None = Field(
        default=None, description="where the rules make several lose at once"
    )


class Record(BaseModel):
    """A game record, format ``skitgubbe-record/1``."""

    model_config = ConfigDict(extra="forbid", title="Skitgubbe game record")

    format: Literal["skitgubbe-record/1"]
    variant: str = Field(description="a preset name: " + ", ".join(PRESETS))
    options: dict[str, Any] = Field(
        default_factory=dict, description="overrides of the preset's rule options"
    )
    players: list[PlayerName] = Field(description="unique names in clockwise seating order")
    dealer: str | None = None
    first_leader: str | None = None
    deck: SkipValidation[SlotList | None] = Field(
        default=None, description="the shuffled pack(s), first card dealt first; '??' unknown"
    )
    start: StartPosition | None = None
    trump: str | None = Field(
        default=None, description="the trump suit an unknown trump card showed between the phases"
    )
    actions: SkipValidation[list[ActionEntry]]
    result: Result | None = None
    meta: dict[str, Any] | None = None


class SessionGame(BaseModel):
    """One game of a session: a record without format, variant, options and players."""

    model_config = ConfigDict(extra="forbid")

    dealer: str | None = None
    first_leader: str | None = None
    deck: SkipValidation[SlotList | None] = None
    start: StartPosition | None = None
    trump: str | None = None
    actions: SkipValidation[list[ActionEntry]]
    result: Result | None = None
    meta: dict[str, Any] | None = None


class Scoring(BaseModel):
    """Points per game: by the order of going out, for the loser, for everyone else."""

    model_config = ConfigDict(extra="forbid")

    places: list[int] = Field(
        default_factory=list, description="points of the first, second, ... player to go out"
    )
    loser: int = 0
    others: int = 0


class SessionResult(BaseModel):
    """What the table claims about the whole session."""

    model_config = ConfigDict(extra="forbid")

    scores: dict[str, int]


class SessionRecord(BaseModel):
    """Several games in a row, format ``skitgubbe-session/1``."""

    model_config = ConfigDict(extra="forbid", title="Skitgubbe session")

    format: Literal["skitgubbe-session/1"]
    variant: str
    options: dict[str, Any] = Field(default_factory=dict)
    players: list[PlayerName]
    scoring: Scoring | None = None
    games: list[SessionGame]
    result: SessionResult | None = None
    meta: dict[str, Any] | None = None


@dataclass
class Start:
    """A start position resolved to seats; card lists may hold UNKNOWN."""

    phase: int
    leader: int
    hands: list[list[Card]]
    trump: int | None = None
    stock: list[Card] = field(default_factory=list)
    """Top card first."""
    piles: list[list[Card]] = field(default_factory=list)
    trump_card: Card | None = None
    trump_holder: int | None = None
    stored: list[list[Card]] = field(default_factory=list)
    reserve: list[Card] = field(default_factory=list)
    """Top card first."""
    written: int = 0
    """How many cards the position names or hides with ``??``."""


@dataclass
class Game:
    """A validated record, resolved to indices: what the engine replays."""

    variant: str
    options: RuleOptions
    players: tuple[str, ...]
    actions: list[Action]
    dealer: int | None = None
    first_leader: int | None = None
    first_leader_given: bool = False
    deck: tuple[Card, ...] | None = None
    start: Start | None = None
    trump_hint: int | None = None
    """The suit the top-level ``trump`` gives for an unknown trump card."""
    claimed_losers: tuple[int, ...] | None = None
    claim_several: bool = False
    """The claim was written as ``losers`` (a list) rather than ``loser``."""
    record: Record | None = field(default=None, repr=False)


@dataclass
class Session:
    """A validated session: its games in order, and the scoring."""

    variant: str
    options: RuleOptions
    players: tuple[str, ...]
    games: list[Game]
    scoring: Scoring | None = None
    claimed_scores: dict[int, int] | None = None
    record: SessionRecord | None = field(default=None, repr=False)


# --- error messages ---------------------------------------------------------

_TAGS = {"text", "object", "one", "two"}


PLAIN_KEY = re.compile(r"^[A-Za-z0-9_\-]{1,40}$")


def key(prefix: str, name: Any) -> str:
    """``prefix.name``, the key quoted as JSON unless it is plain: an error stays one printable
    line whatever a key holds (line breaks, lone surrogates, megabytes)."""
    text = str(name)
    if not PLAIN_KEY.match(text):
        shown = text if len(text) <= 40 else text[:40] + "..."
        text = json.dumps(shown)  # escapes what cannot be printed
    return f"{prefix}.{text}" if prefix else text


def _path(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in _TAGS or (isinstance(part, str) and part.startswith("function-")):
            continue
        else:
            out = key(out, part)
    return out


def _message(err: dict[str, Any]) -> str:
    kind = err["type"]
    given = err.get("input")
    if kind == "missing":
        return "is required"
    if kind == "extra_forbidden":
        return "is not a field of this place in the record format"
    if kind == "literal_error":
        return f"must be {err['ctx']['expected']}, not {_shown(given)}"
    if kind == "string_pattern_mismatch":
        return f"{_shown(given)} is not a player name (1-40 printable characters, no spaces)"
    if kind == "value_error":
        return str(err["ctx"]["error"])
    text = err["msg"]
    return text[0].lower() + text[1:] + (f", not {_shown(given)}" if given is not None else "")


def _shown(value: Any) -> str:
    """A value from the record, for a message: its repr, cut short."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _validate(model: type[BaseModel], data: Any) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        raise RecordError(_path(err["loc"]), _message(err)) from None
    except RecursionError:
        raise RecordError("", "not a record: nested too deeply to read") from None


def _not_an_object(data: Any) -> RecordError:
    if isinstance(data, list):
        records = bool(data) and isinstance(data[0], dict)
        hint = " (one record per line: use a .jsonl file)" if records else ""
        return RecordError("record", f"a record must be a JSON object, not an array{hint}")
    return RecordError("record", "a record must be a JSON object")


def parse_record(data: Any) -> Record:
    """Validate the shape of a decoded JSON record."""
    if not isinstance(data, dict):
        raise _not_an_object(data)
    return _validate(Record, data)


def parse_document(data: Any) -> Record | SessionRecord:
    """Validate a decoded record or session, telling them apart by ``format``."""
    if not isinstance(data, dict):
        raise _not_an_object(data)
    if data.get("format") == SESSION_FORMAT:
        return _validate(SessionRecord, data)
    return _validate(Record, data)


# --- resolving names, cards and the pack ------------------------------------


def _player(names: dict[str, int], name: str, path: str) -> int:
    try:
        return names[name]
    except KeyError:
        raise RecordError(path, f"{name!r} is not one of the players") from None


def _card_list(value: Any, path: str) -> tuple[Card, ...]:
    """An action's cards: a list of card strings or one string of them; no '??'."""
    if isinstance(value, str):
        value = value.split()
    if not isinstance(value, list):
        raise RecordError(path, "must be a list of cards, or one string of cards")
    out = []
    for i, code in enumerate(value):
        card = _SLOT.get(code.strip().upper()) if isinstance(code, str) else None
        if card is None or card == UNKNOWN:
            raise RecordError(
                f"{path}[{i}]",
                "'??' is not allowed here: an action names the cards it uses"
                if card == UNKNOWN
                else f"{_shown(code)} is not a card",
            )
        out.append(card)
    return tuple(out)


def _slots(codes: list[str]) -> list[Card]:
    return [UNKNOWN if c == UNKNOWN_TEXT else parse_card(c) for c in codes]


@lru_cache(maxsize=4096)
def _cached_text_action(player: int, rest: str) -> Action:
    """:func:`_text_action` for short strings, remembered (Actions are immutable)."""
    return _text_action(player, rest)


def _text_action(player: int, rest: str) -> Action:
    """``<act> [card ...]`` by seat ``player``; ValueError if not well-formed.

    Cached because a few hundred strings make up nearly all actions of all
    records, and Actions are immutable, so records may share them.
    """
    act, *codes = rest.split()
    if act not in ACTS or act == "deal":
        raise ValueError(act)
    return Action(player, act, tuple(parse_card(c) for c in codes))


_SLOT: dict[str, Card] = {**PARSE, UNKNOWN_TEXT: UNKNOWN}
"""Every spelling of a card (upper case), and ``??``."""

_ACTION_CACHES: dict[tuple[str, ...], dict[str, Action]] = {}
CACHE_LIMIT = 200_000
"""Action strings remembered per seating before the cache starts afresh."""


def _deck(value: Any) -> list[Card]:
    """The deck's cards: a list of card strings or one string of them ('??' allowed).

    Checked here rather than by pydantic, card by card with a dict lookup: a deck
    is read with every record, and this is the hot path of a bulk check.
    """
    if isinstance(value, str):
        tokens: Any = value.split()
    elif isinstance(value, list):
        tokens = value
    else:
        raise RecordError("deck", "must be a list of cards, or one string of cards")
    out = []
    for i, token in enumerate(tokens):
        card = _SLOT.get(token) if isinstance(token, str) else None
        if card is None:
            card = _SLOT.get(token.strip().upper()) if isinstance(token, str) else None
            if card is None:
                raise RecordError(
                    f"deck[{i}]", f"{str(token)[:40]!r} is not a card (or '??' for an unknown card)"
                )
        out.append(card)
    return out


def _actions(entries: Any, names: dict[str, int], players: tuple[str, ...]) -> list[Action]:
    """The record's actions resolved to seats and cards.

    Strings are looked up in a cache per seating (a corpus of bot games repeats
    the same few hundred strings); objects are validated by :class:`ActionObject`.
    """
    if not isinstance(entries, list):
        raise RecordError("actions", "must be a list of actions")
    cache = _ACTION_CACHES.get(players)
    if cache is None or len(cache) > CACHE_LIMIT:
        if len(_ACTION_CACHES) > 64:
            _ACTION_CACHES.clear()
        cache = _ACTION_CACHES[players] = {}
    out = []
    for index, entry in enumerate(entries):
        if type(entry) is str:
            action = cache.get(entry)
            if action is None:
                action = _action(index, entry, names)
                if len(entry) < 80:  # only ordinary strings: no megabytes kept
                    cache[entry] = action
        elif isinstance(entry, dict):
            action = _action(index, _validate_at(ActionObject, entry, f"actions[{index}]"), names)
        else:
            raise RecordError(
                f"actions[{index}]", "an action is a string ('Anna play 7H') or an object"
            )
        out.append(action)
    return out


def _validate_at(model: type[BaseModel], data: Any, prefix: str) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        where = _path(err["loc"])
        raise RecordError(f"{prefix}.{where}" if where else prefix, _message(err)) from None


def _action(index: int, entry: str | ActionObject, names: dict[str, int]) -> Action:
    if isinstance(entry, str):
        words = entry.split(None, 1)
        if len(words) == 2 and words[0] in names:
            try:
                rest = words[1]
                if len(rest) < 64:
                    return _cached_text_action(names[words[0]], rest)
                return _text_action(names[words[0]], rest)
            except ValueError:
                pass  # not well-formed: the checks below say where and why
    path = f"actions[{index}]"
    if isinstance(entry, str):
        words = entry.split()
        if len(words) < 2:
            raise RecordError(path, f"{entry[:60]!r} is not '<player> <act> [card ...]'")
        player, act, codes = words[0], words[1], words[2:]
        if act not in ACTS:
            raise RecordError(path, f"{act[:40]!r} is not an act ({', '.join(ACTS)})")
        if act == "deal":
            raise RecordError(path, "a deal needs the object form with 'to'")
        cards = []
        for i, code in enumerate(codes):
            try:
                cards.append(_action_card(code))
            except ValueError as exc:
                raise RecordError(f"{path}.cards[{i}]", str(exc)) from None
        return Action(_player(names, player, f"{path}.player"), act, tuple(cards))
    if entry.act not in ACTS:
        raise RecordError(f"{path}.act", f"{entry.act[:40]!r} is not an act ({', '.join(ACTS)})")
    who = _player(names, entry.player, f"{path}.player")
    to: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    if entry.act == "deal":
        if entry.cards:
            raise RecordError(f"{path}.cards", "a deal names its cards under 'to', not 'cards'")
        if not isinstance(entry.to, dict):
            raise RecordError(f"{path}.to", "a deal must say what each receiver got")
        to = tuple(
            (
                _player(names, name, key(f"{path}.to", name)),
                _card_list(codes, key(f"{path}.to", name)),
            )
            for name, codes in entry.to.items()
        )
    elif entry.to is not None:
        raise RecordError(f"{path}.to", "only a deal has 'to'")
    return Action(who, entry.act, _card_list(entry.cards, f"{path}.cards"), to)


def _action_card(code: str) -> Card:
    if code == UNKNOWN_TEXT:
        raise ValueError("'??' is not allowed here: an action names the cards it uses")
    return parse_card(code)


def _check_copies(cards: list[tuple[Card, str]], decks: int) -> Counter[Card]:
    """Every known card at most ``decks`` times; ``cards`` are (card, path) pairs."""
    seen: Counter[Card] = Counter()
    first: dict[Card, str] = {}
    for card, path in cards:
        if card == UNKNOWN:
            continue
        seen[card] += 1
        if seen[card] > decks:
            times = "once" if decks == 1 else f"{decks} times"
            raise RecordError(
                path, f"{card_code(card)} is already at {first[card]} ({times} per pack)"
            )
        first.setdefault(card, path)
    return seen


def _check_deck(deck: list[Card], decks: int) -> None:
    seen = _check_copies([(c, f"deck[{i}]") for i, c in enumerate(deck)], decks)
    size = 52 * decks
    if len(deck) != size:
        missing = [card_code(c) for c in FULL_PACK if seen[c] < decks]
        shown = " ".join(missing[:8]) + (" ..." if len(missing) > 8 else "")
        raise RecordError(
            "deck",
            f"{len(deck)} cards, not a whole pack of {size}"
            + (f": missing {shown}" if len(deck) < size and missing else ""),
        )


def _options(variant: str, overrides: dict[str, Any], players: int) -> RuleOptions:
    try:
        preset = find_variant(variant)
    except KeyError as exc:
        raise RecordError("variant", exc.args[0]) from None
    base = preset.options_for(players) if 2 <= players <= 52 else preset.options
    if not overrides:
        return base
    try:
        return RuleOptions.model_validate({**base.model_dump(), **overrides})
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        loc = _path(err["loc"])
        raise RecordError(
            key("options", loc) if loc else "options",
            "is not a rule option (see 'adjudicator variants')"
            if err["type"] == "extra_forbidden"
            else _message(err),
        ) from None


def _seats(variant: str, players: list[str], options: RuleOptions) -> dict[str, int]:
    names: dict[str, int] = {}
    for i, name in enumerate(players):
        if name in names:
            raise RecordError(f"players[{i}]", f"{name!r} is listed twice")
        names[name] = i
    n = len(players)
    if not options.min_players <= n <= options.max_players:
        raise RecordError(
            "players",
            f"{variant} is for {options.min_players}-{options.max_players} players, "
            f"the record has {n}",
        )
    dealt = n * options.hand_size + options.reserve + (options.trump_card != "stock_last")
    if dealt >= 52 * options.decks:
        raise RecordError(
            "players",
            f"{n} players cannot each be dealt {options.hand_size} cards and leave a stock "
            f"from {52 * options.decks} cards",
        )
    if options.reserve and n != 2:
        raise RecordError(
            "options.reserve",
            f"the avstickshög is a two-player rule; the record has {n} players",
        )
    return names


def _suit(text: str, path: str) -> int:
    try:
        return parse_suit(text)
    except ValueError as exc:
        raise RecordError(path, str(exc)) from None


def build_game(
    record: Record | SessionGame,
    *,
    variant: str | None = None,
    options: RuleOptions | None = None,
    players: tuple[str, ...] | None = None,
    names: dict[str, int] | None = None,
    prefix: str = "",
) -> Game:
    """Resolve a shape-checked record into a :class:`Game`, or raise RecordError.

    A session's game passes the session's variant, options and players; paths
    in errors then start with ``prefix`` (``games[2].``).
    """
    if isinstance(record, Record):
        variant = record.variant
        players = tuple(record.players)
        options = _options(variant, record.options, len(players))
        names = _seats(variant, record.players, options)
    assert variant is not None and options is not None and players is not None
    assert names is not None
    try:
        return _build(record, variant, options, players, names)
    except RecordError as exc:
        if prefix:
            where = prefix + exc.path if exc.path else prefix.rstrip(".")
            raise RecordError(where, exc.message) from None
        raise


def _build(
    record: Record | SessionGame,
    variant: str,
    options: RuleOptions,
    players: tuple[str, ...],
    names: dict[str, int],
) -> Game:
    game = Game(
        variant=variant,
        options=options,
        players=players,
        actions=_actions(record.actions, names, players),
        record=record if isinstance(record, Record) else None,
    )
    result = record.result
    if result is not None:
        if (result.loser is None) == (result.losers is None):
            raise RecordError("result", "give either 'loser' or 'losers'")
        if result.losers is not None:
            game.claim_several = True
            game.claimed_losers = tuple(
                _player(names, name, f"result.losers[{i}]") for i, name in enumerate(result.losers)
            )
        else:
            assert result.loser is not None
            game.claimed_losers = (_player(names, result.loser, "result.loser"),)
    if record.trump is not None:
        game.trump_hint = _suit(record.trump, "trump")
    if record.deck is not None and record.start is not None:
        raise RecordError("start", "give either 'deck' (with 'dealer') or 'start', not both")
    if record.deck is None and record.start is None:
        raise RecordError("deck", "is required, or else 'start' (a position to start from)")
    if record.first_leader is not None:
        game.first_leader = _player(names, record.first_leader, "first_leader")
        game.first_leader_given = True
    if record.deck is not None:
        _build_deal(record, game, names)
    else:
        assert record.start is not None
        if options.reserve:
            raise RecordError(
                "options.reserve",
                "the avstickshög is set aside from the deck before the deal: give 'deck' or "
                "write it in start.reserve",
            )
        if record.dealer is not None:
            game.dealer = _player(names, record.dealer, "dealer")
        if isinstance(record.start, StartPhaseTwo):
            _build_start_two(record.start, game, names)
        else:
            _build_start_one(record.start, game, names)
    return game


def trump_card_index(options: RuleOptions, players: int) -> int:
    """Where the trump card lies in the deck."""
    if options.trump_card == "set_aside":
        return 0
    if options.trump_card == "turned_up":
        return options.reserve + players * options.hand_size
    return 52 * options.decks - 1


def _build_deal(record: Record | SessionGame, game: Game, names: dict[str, int]) -> None:
    options = game.options
    n = len(game.players)
    if record.dealer is None:
        raise RecordError("dealer", "is required with 'deck'")
    game.dealer = _player(names, record.dealer, "dealer")
    deck = _deck(record.deck)
    _check_deck(deck, options.decks)
    game.deck = tuple(deck)
    at = trump_card_index(options, n)
    trump_card = deck[at]
    if options.trump_card == "turned_up" and trump_card == UNKNOWN:
        raise RecordError(
            f"deck[{at}]", "the turned-up trump lies face up for everyone: write the card"
        )
    if (
        game.trump_hint is not None
        and trump_card != UNKNOWN
        and trump_card // 13 != game.trump_hint
    ):
        raise RecordError(
            "trump", f"the trump card deck[{at}] is {card_code(trump_card)}, not of that suit"
        )
    left = (game.dealer + 1) % n
    if game.first_leader is None:
        game.first_leader = left
    elif options.first_lead == "dealer_left" and game.first_leader != left:
        raise RecordError(
            "first_leader",
            f"in {game.variant} the player to the dealer's left ({game.players[left]}) leads first",
        )


def _hands(
    written: dict[str, list[str]], names: dict[str, int], path: str
) -> tuple[list[list[Card]], list[tuple[Card, str]]]:
    """Cards by seat, and (card, path) pairs for the pack check."""
    out: list[list[Card]] = [[] for _ in names]
    where: list[tuple[Card, str]] = []
    for name, codes in written.items():
        who = _player(names, name, key(path, name))
        cards = _slots(codes)
        out[who] = cards
        where += [(c, f"{key(path, name)}[{i}]") for i, c in enumerate(cards)]
    return out, where


def _build_start_two(start: StartPhaseTwo, game: Game, names: dict[str, int]) -> None:
    trump = _suit(start.trump, "start.trump")
    if game.trump_hint is not None and game.trump_hint != trump:
        raise RecordError("trump", "disagrees with start.trump")
    hands, where = _hands(start.hands, names, "start.hands")
    _check_copies(where, game.options.decks)
    if len(where) > 52 * game.options.decks:
        raise RecordError("start.hands", f"{len(where)} cards: more than the pack holds")
    game.start = Start(
        phase=2,
        leader=_player(names, start.leader, "start.leader"),
        hands=hands,
        trump=trump,
        written=len(where),
    )
    if game.first_leader_given:
        raise RecordError("first_leader", "a start position names its leader in start.leader")


def _build_start_one(start: StartPhaseOne, game: Game, names: dict[str, int]) -> None:
    options = game.options
    n = len(game.players)
    hands, where = _hands(start.hands, names, "start.hands")
    piles, pile_where = _hands(start.piles, names, "start.piles")
    stored_cards, stored_where = _hands(
        {name: list(cards) for name, cards in start.stored.items()}, names, "start.stored"
    )
    stock = _slots(start.stock)
    reserve = _slots(start.reserve)
    where += [(c, f"start.stock[{i}]") for i, c in enumerate(stock)]
    where += pile_where + stored_where
    where += [(c, f"start.reserve[{i}]") for i, c in enumerate(reserve)]
    trump_card = None
    if start.trump_card is not None:
        trump_card = UNKNOWN if start.trump_card == UNKNOWN_TEXT else parse_card(start.trump_card)
        if options.trump_card != "turned_up":
            where.append((trump_card, "start.trump_card"))
        # A turned-up trump is written where it lies as well: under the stock (its last
        # card) until drawn or exchanged, then in a hand or pile; it names which card it is.
    _check_copies(where, options.decks)
    if len(where) > 52 * options.decks:
        raise RecordError("start", f"{len(where)} cards: more than the pack holds")
    if start.dealer is not None:
        game.dealer = _player(names, start.dealer, "start.dealer")
    holder = None
    if start.trump_holder is not None:
        holder = _player(names, start.trump_holder, "start.trump_holder")
    kind = options.trump_card
    if kind == "stock_last":
        if stock and (trump_card is not None or holder is not None):
            raise RecordError(
                "start.trump_card",
                "under these rules the stock's last card is the trump card: give trump_card "
                "and trump_holder only once it has been drawn",
            )
        if not stock and (trump_card is None or holder is None):
            raise RecordError(
                "start.trump_card",
                "the stock is empty, so its last card has been drawn: give trump_card and "
                "trump_holder (who keeps it face down)",
            )
    else:
        if trump_card is None:
            what = "set aside before the deal" if kind == "set_aside" else "turned up"
            raise RecordError("start.trump_card", f"is required: the trump card was {what}")
        if holder is not None:
            raise RecordError("start.trump_holder", "only for a stock's last card kept face down")
        if kind == "turned_up" and trump_card == UNKNOWN:
            raise RecordError(
                "start.trump_card", "the turned-up trump was shown to everyone: write the card"
            )
        if kind == "turned_up" and stock and stock[-1] != trump_card:
            two = (trump_card // 13) * 13  # type: ignore[operator]
            if stock[-1] != two:
                raise RecordError(
                    f"start.stock[{len(stock) - 1}]",
                    f"the stock's last card lies face up under it: the turned-up trump "
                    f"({card_code(trump_card)}) or, after an exchange, the two of trumps "  # type: ignore[arg-type]
                    f"({card_code(two)})",
                )
    if stored_where and not options.set_aside_trumps:
        raise RecordError("start.stored", "these rules store no trumps for phase two")
    if reserve and n != 2:
        raise RecordError("start.reserve", "the avstickshög is a two-player rule")
    shown = trump_card not in (None, UNKNOWN)
    if game.trump_hint is not None and shown and trump_card // 13 != game.trump_hint:  # type: ignore[operator]
        raise RecordError("trump", f"the trump card is {card_code(trump_card)}")  # type: ignore[arg-type]
    _trump_agrees_with_stock(stock, game)
    game.start = Start(
        phase=1,
        leader=_player(names, start.leader, "start.leader"),
        hands=hands,
        stock=stock,
        piles=piles,
        trump_card=trump_card,
        trump_holder=holder,
        stored=stored_cards,
        reserve=reserve,
        written=len(where),
    )
    if not any(hands):
        raise RecordError("start.hands", "nobody holds a card: phase one would be over")


def _trump_agrees_with_stock(stock: list[Card], game: Game) -> None:
    """The contract: a known trump card must agree with the top-level ``trump``; where the
    stock's last card is the trump card, that card is the one to compare (issue 20)."""
    if game.options.trump_card != "stock_last" or not stock or game.trump_hint is None:
        return
    last = stock[-1]
    if last != UNKNOWN and last // 13 != game.trump_hint:
        raise RecordError(
            "trump",
            f"the trump card start.stock[{len(stock) - 1}] is {card_code(last)}, not of that suit",
        )


def build_session(session: SessionRecord) -> Session:
    """Resolve a shape-checked session into a :class:`Session`, or raise RecordError."""
    players = tuple(session.players)
    options = _options(session.variant, session.options, len(players))
    names = _seats(session.variant, session.players, options)
    if not session.games:
        raise RecordError("games", "a session holds at least one game")
    games = [
        build_game(
            game,
            variant=session.variant,
            options=options,
            players=players,
            names=names,
            prefix=f"games[{i}].",
        )
        for i, game in enumerate(session.games)
    ]
    claimed = None
    if session.result is not None:
        claimed = {
            _player(names, name, key("result.scores", name)): points
            for name, points in session.result.scores.items()
        }
    return Session(
        variant=session.variant,
        options=options,
        players=players,
        games=games,
        scoring=session.scoring,
        claimed_scores=claimed,
        record=session,
    )


def build(document: Record | SessionRecord) -> Game | Session:
    """A record or a session, resolved."""
    if isinstance(document, SessionRecord):
        return build_session(document)
    return build_game(document)


def read(source: str | Path | dict[str, Any]) -> Any:
    """Decoded JSON from a path, a JSON string or an already decoded dict."""
    if isinstance(source, dict):
        return source
    text = source
    if isinstance(source, Path) or not source.lstrip().startswith("{"):
        try:
            text = Path(source).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError("", f"cannot read {source}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise RecordError("", f"{source} is not UTF-8 text") from None
    return loads(str(text))


def load_record(source: str | Path | dict[str, Any]) -> Game:
    """Read a record from a path, a JSON string or a decoded dict."""
    return build_game(parse_record(read(source)))


def load(source: str | Path | dict[str, Any]) -> Game | Session:
    """Read a record or a session from a path, a JSON string or a decoded dict."""
    return build(parse_document(read(source)))


def loads(text: str) -> Any:
    """json.loads with a one-line error naming line and column."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        # Some of json's messages end in "starting at": do not say "at" twice.
        at = " " if exc.msg.endswith(" at") else " at "
        raise RecordError(
            "", f"not JSON: {exc.msg}{at}line {exc.lineno} column {exc.colno}"
        ) from None
    except RecursionError:
        # The C scanner gives up near the interpreter's recursion limit; no record nests
        # more than a few levels, so this is bad input, not a reason to stop a bulk run.
        raise RecordError("", "not a record: JSON nested too deeply to read") from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise RecordError("", f"not JSON: {str(exc).splitlines()[0][:80]}") from None


def _canonical_actions(entries: list[Any]) -> list[Any]:
    actions = []
    for index, entry in enumerate(entries):
        path = f"actions[{index}]"
        if isinstance(entry, dict):
            entry = _validate_at(ActionObject, entry, path)
        if isinstance(entry, str):
            actions.append(" ".join(_canonical_words(entry)))
            continue
        cards = [card_code(c) for c in _card_list(entry.cards, f"{path}.cards")]
        if entry.act != "deal" and entry.to is None:
            actions.append(" ".join([entry.player, entry.act, *cards]))
            continue
        obj: dict[str, Any] = {"player": entry.player, "act": entry.act}
        if cards:
            obj["cards"] = cards
        if isinstance(entry.to, dict):
            obj["to"] = {
                name: [card_code(c) for c in _card_list(got, key(f"{path}.to", name))]
                for name, got in entry.to.items()
            }
        actions.append(obj)
    return actions


def canonical(record: Record) -> dict[str, Any]:
    """The record in canonical form: card codes, string actions where possible."""
    data = record.model_dump(mode="json", exclude_none=True, exclude={"deck", "actions"})
    out: dict[str, Any] = {}
    for name in Record.model_fields:  # the fields in their order, as the record has them
        if name == "deck" and record.deck is not None:
            out["deck"] = " ".join(card_code(c) for c in _deck(record.deck))
        elif name == "actions":
            out["actions"] = _canonical_actions(record.actions)
        elif name in data:
            out[name] = data[name]
    return out


def _canonical_words(text: str) -> list[str]:
    words = text.split()
    return words[:2] + [card_code(parse_card(w)) for w in words[2:]]


def json_schema() -> dict[str, Any]:
    """The JSON Schema of the record format, as kept in ``schemas/``."""
    schema = Record.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://github.com/adjudicator/schemas/record-1.schema.json"
    return schema


def session_schema() -> dict[str, Any]:
    """The JSON Schema of the session format, as kept in ``schemas/``."""
    schema = SessionRecord.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://github.com/adjudicator/schemas/session-1.schema.json"
    return schema
