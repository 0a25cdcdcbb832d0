"""The record format (``shared/record-format.md``): pydantic models and loading.

Loading has two stages.  pydantic checks the shape (fields, types, card
spellings); :func:`build_game` then resolves names against ``players``, checks
the pack, and turns everything into the small index-based :class:`Game` the
engine replays.  Either stage raises :class:`RecordError`, one line naming the
place: ``actions[12].cards[0]: 'ZZ' is not a card``.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    ValidationError,
)

from adjudicator.actions import ACTS, Action
from adjudicator.cards import FULL_PACK, Card, card_code, parse_card, parse_suit
from adjudicator.rules.options import RuleOptions
from adjudicator.rules.presets import PRESETS, find_variant

FORMAT = "skitgubbe-record/1"


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
PlayerName = Annotated[
    str,
    Field(
        pattern=r"^[^\s\x00-\x1f\x7f]{1,40}$",
        description="1-40 printable characters, no spaces",
    ),
]


class ActionObject(BaseModel):
    """An action in object form."""

    model_config = ConfigDict(extra="forbid")

    player: str
    act: str = Field(description="play, dare, sluff, pick, deal or take")
    cards: CardList = Field(default_factory=list)
    to: dict[str, CardList] | None = Field(
        default=None, description="deal only: the cards each receiver got"
    )


def _action_kind(value: Any) -> str:
    return "text" if isinstance(value, str) else "object"


ActionEntry = Annotated[
    Annotated[str, Tag("text")] | Annotated[ActionObject, Tag("object")],
    Discriminator(_action_kind),
]


class StartPosition(BaseModel):
    """A position in phase two to start from instead of a deal."""

    model_config = ConfigDict(extra="forbid")

    phase: Literal[2]
    trump: str = Field(description="the trump suit: S, H, D, C or a suit symbol")
    leader: str = Field(description="who leads the first trick")
    hands: dict[str, CardList] = Field(
        description="each player's hand; a player not listed, or with no cards, is out"
    )


class Result(BaseModel):
    """What the table claims happened."""

    model_config = ConfigDict(extra="forbid")

    loser: str


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
    deck: CardList | None = Field(
        default=None, description="the shuffled pack, first card dealt first"
    )
    start: StartPosition | None = None
    actions: list[ActionEntry]
    result: Result | None = None
    meta: dict[str, Any] | None = None


@dataclass
class Game:
    """A validated record, resolved to indices: what the engine replays."""

    variant: str
    options: RuleOptions
    players: tuple[str, ...]
    actions: list[Action]
    dealer: int | None = None
    first_leader: int | None = None
    deck: tuple[Card, ...] | None = None
    start_trump: int | None = None
    start_leader: int | None = None
    start_hands: list[list[Card]] | None = None
    claimed_loser: int | None = None
    record: Record | None = field(default=None, repr=False)


# --- error messages ---------------------------------------------------------

_TAGS = {"text", "object"}


def _path(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in _TAGS or (isinstance(part, str) and part.startswith("function-")):
            continue
        else:
            out += ("." if out else "") + str(part)
    return out


def _message(err: dict[str, Any]) -> str:
    kind = err["type"]
    given = err.get("input")
    if kind == "missing":
        return "is required"
    if kind == "extra_forbidden":
        return "is not a field of this place in the record format"
    if kind == "literal_error":
        return f"must be {err['ctx']['expected']}, not {given!r}"
    if kind == "string_pattern_mismatch":
        return f"{given!r} is not a player name (1-40 printable characters, no spaces)"
    if kind == "value_error":
        return str(err["ctx"]["error"])
    text = err["msg"]
    return text[0].lower() + text[1:] + (f", not {given!r}" if given is not None else "")


def parse_record(data: Any) -> Record:
    """Validate the shape of a decoded JSON record."""
    if not isinstance(data, dict):
        raise RecordError("record", "a record must be a JSON object")
    try:
        return Record.model_validate(data)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        raise RecordError(_path(err["loc"]), _message(err)) from None


# --- resolving names, cards and the pack ------------------------------------


def _player(names: dict[str, int], name: str, path: str) -> int:
    try:
        return names[name]
    except KeyError:
        raise RecordError(path, f"{name!r} is not one of the players") from None


def _cards(codes: list[str]) -> tuple[Card, ...]:
    return tuple(parse_card(c) for c in codes)


@lru_cache(maxsize=4096)
def _text_action(player: int, rest: str) -> Action:
    """``<act> [card ...]`` by seat ``player``; ValueError if not well-formed.

    Cached because a few hundred strings make up nearly all actions of all
    records, and Actions are immutable, so records may share them.
    """
    act, *codes = rest.split()
    if act not in ACTS or act == "deal":
        raise ValueError(act)
    return Action(player, act, tuple(parse_card(c) for c in codes))


def _action(index: int, entry: str | ActionObject, names: dict[str, int]) -> Action:
    if isinstance(entry, str):
        words = entry.split(None, 1)
        if len(words) == 2 and words[0] in names:
            try:
                return _text_action(names[words[0]], words[1])
            except ValueError:
                pass  # not well-formed: the checks below say where and why
    path = f"actions[{index}]"
    if isinstance(entry, str):
        words = entry.split()
        if len(words) < 2:
            raise RecordError(path, f"{entry!r} is not '<player> <act> [card ...]'")
        player, act, codes = words[0], words[1], words[2:]
        if act not in ACTS:
            raise RecordError(path, f"{act!r} is not an act ({', '.join(ACTS)})")
        if act == "deal":
            raise RecordError(path, "a deal needs the object form with 'to'")
        cards = []
        for i, code in enumerate(codes):
            try:
                cards.append(parse_card(code))
            except ValueError as exc:
                raise RecordError(f"{path}.cards[{i}]", str(exc)) from None
        return Action(_player(names, player, f"{path}.player"), act, tuple(cards))
    if entry.act not in ACTS:
        raise RecordError(f"{path}.act", f"{entry.act!r} is not an act ({', '.join(ACTS)})")
    who = _player(names, entry.player, f"{path}.player")
    to: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    if entry.act == "deal":
        if entry.cards:
            raise RecordError(f"{path}.cards", "a deal names its cards under 'to', not 'cards'")
        if entry.to is None:
            raise RecordError(f"{path}.to", "a deal must say what each receiver got")
        to = tuple(
            (_player(names, name, f"{path}.to.{name}"), _cards(codes))
            for name, codes in entry.to.items()
        )
    elif entry.to is not None:
        raise RecordError(f"{path}.to", "only a deal has 'to'")
    return Action(who, entry.act, _cards(entry.cards), to)


def _check_pack(cards: tuple[Card, ...], packs: int, path: str) -> None:
    seen: Counter[Card] = Counter()
    for i, card in enumerate(cards):
        seen[card] += 1
        if seen[card] > packs:
            times = "once" if packs == 1 else f"{packs} times"
            raise RecordError(
                f"{path}[{i}]", f"{card_code(card)} is already in the deck ({times} per pack)"
            )
    counts = seen
    missing = [card_code(c) for c in FULL_PACK if counts[c] < packs]
    if missing:
        raise RecordError(
            path,
            f"{len(cards)} cards, not a whole pack of {52 * packs}: missing "
            + " ".join(missing[:8])
            + (" ..." if len(missing) > 8 else ""),
        )


def build_game(record: Record) -> Game:
    """Resolve a shape-checked record into a :class:`Game`, or raise RecordError."""
    try:
        preset = find_variant(record.variant)
    except KeyError as exc:
        raise RecordError("variant", exc.args[0]) from None
    try:
        options = RuleOptions.model_validate({**preset.options.model_dump(), **record.options})
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        loc = _path(err["loc"])
        raise RecordError(
            "options" + (f".{loc}" if loc else ""),
            "is not a rule option (see 'adjudicator variants')"
            if err["type"] == "extra_forbidden"
            else _message(err),
        ) from None

    players = tuple(record.players)
    names: dict[str, int] = {}
    for i, name in enumerate(players):
        if name in names:
            raise RecordError(f"players[{i}]", f"{name!r} is listed twice")
        names[name] = i
    if not options.min_players <= len(players) <= options.max_players:
        raise RecordError(
            "players",
            f"{record.variant} is for {options.min_players}-{options.max_players} players, "
            f"the record has {len(players)}",
        )

    if options.reserve and len(players) != 2:
        raise RecordError(
            "options.reserve",
            f"the avstickshög is a two-player rule; the record has {len(players)} players",
        )
    game = Game(
        variant=record.variant,
        options=options,
        players=players,
        actions=[_action(i, a, names) for i, a in enumerate(record.actions)],
        record=record,
    )
    if record.result is not None:
        game.claimed_loser = _player(names, record.result.loser, "result.loser")

    if options.reserve and record.start is not None:
        raise RecordError(
            "options.reserve",
            "the avstickshög is set aside from the deck before the deal: give 'deck', not 'start'",
        )
    if record.deck is not None and record.start is not None:
        raise RecordError("start", "give either 'deck' (with 'dealer') or 'start', not both")
    if record.deck is None and record.start is None:
        raise RecordError("deck", "is required, or else 'start' (a position in phase two)")
    if record.deck is not None:
        if record.dealer is None:
            raise RecordError("dealer", "is required with 'deck'")
        game.dealer = _player(names, record.dealer, "dealer")
        game.deck = _cards(record.deck)
        _check_pack(game.deck, 1, "deck")
        left = (game.dealer + 1) % len(players)
        if record.first_leader is not None:
            game.first_leader = _player(names, record.first_leader, "first_leader")
            if game.first_leader != left:
                raise RecordError(
                    "first_leader",
                    f"in {record.variant} the player to the dealer's left "
                    f"({players[left]}) leads first",
                )
        else:
            game.first_leader = left
    else:
        start = record.start
        assert start is not None
        if record.dealer is not None:
            game.dealer = _player(names, record.dealer, "dealer")
        try:
            game.start_trump = parse_suit(start.trump)
        except ValueError as exc:
            raise RecordError("start.trump", str(exc)) from None
        game.start_leader = _player(names, start.leader, "start.leader")
        hands: list[list[Card]] = [[] for _ in players]
        seen: dict[Card, str] = {}
        for name, codes in start.hands.items():
            who = _player(names, name, f"start.hands.{name}")
            for i, code in enumerate(codes):
                card = parse_card(code)
                if card in seen:
                    raise RecordError(
                        f"start.hands.{name}[{i}]", f"{code} is already in {seen[card]}'s hand"
                    )
                seen[card] = name
                hands[who].append(card)
        game.start_hands = hands
        if record.first_leader is not None:
            raise RecordError("first_leader", "a start position names its leader in start.leader")
    return game


def load_record(source: str | Path | dict[str, Any]) -> Game:
    """Read a record from a path, a JSON string or a decoded dict."""
    if isinstance(source, dict):
        data = source
    else:
        text = source
        if isinstance(source, Path) or not source.lstrip().startswith("{"):
            try:
                text = Path(source).read_text(encoding="utf-8")
            except OSError as exc:
                raise RecordError("", f"cannot read {source}: {exc.strerror}") from None
            except UnicodeDecodeError:
                raise RecordError("", f"{source} is not UTF-8 text") from None
        data = loads(str(text))
    return build_game(parse_record(data))


def loads(text: str) -> Any:
    """json.loads with a one-line error naming line and column."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(
            "", f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    except RecursionError:
        # The C scanner gives up near the interpreter's recursion limit; no record nests
        # more than a few levels, so this is bad input, not a reason to stop a bulk run.
        raise RecordError("", "not a record: JSON nested too deeply to read") from None


def canonical(record: Record) -> dict[str, Any]:
    """The record in canonical form: card codes, string actions where possible."""
    data = record.model_dump(mode="json", exclude_none=True)
    actions = []
    for entry in record.actions:
        if isinstance(entry, str):
            actions.append(" ".join(_canonical_words(entry)))
        elif entry.act != "deal" and entry.to is None:
            actions.append(" ".join([entry.player, entry.act, *entry.cards]))
        else:
            obj: dict[str, Any] = {"player": entry.player, "act": entry.act}
            if entry.cards:
                obj["cards"] = [card_code(parse_card(c)) for c in entry.cards]
            if entry.to is not None:
                obj["to"] = {
                    name: [card_code(parse_card(c)) for c in cards]
                    for name, cards in entry.to.items()
                }
            actions.append(obj)
    data["actions"] = actions
    if isinstance(data.get("deck"), list):
        data["deck"] = " ".join(data["deck"])
    return data


def _canonical_words(text: str) -> list[str]:
    words = text.split()
    return words[:2] + [card_code(parse_card(w)) for w in words[2:]]


def json_schema() -> dict[str, Any]:
    """The JSON Schema of the record format, as kept in ``schemas/``."""
    schema = Record.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://github.com/adjudicator/schemas/record-1.schema.json"
    return schema
