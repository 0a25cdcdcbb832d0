"""The pydantic models of the record and session formats (docs/record-format.md).

They check the shape and read every card through the notation
(:mod:`adjudicator.record.notation`), so a validated model holds cards as
ints and the JSON Schema exported from it (``schemas/``) says what is
enforced.  Player names are resolved later, by :mod:`adjudicator.record.build`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    PlainValidator,
    SerializerFunctionWrapHandler,
    Strict,
    StringConstraints,
    Tag,
    TypeAdapter,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    model_serializer,
    model_validator,
)

from adjudicator.cards import PARSE, UNKNOWN_TEXT, Card, card_code
from adjudicator.i18n import N_, _
from adjudicator.record.confusables import visible
from adjudicator.record.errors import (
    RecordError,
    _message,
    _validate_at,
    _where,
    join,
    key,
    shown,
)
from adjudicator.record.notation import (
    NO_UNKNOWN,
    checked_comment,
    not_a_card,
    not_a_slot,
    read_cards,
    read_deck,
)
from adjudicator.rules.presets import PRESETS

FORMAT = "skitgubbe-record/1"
SESSION_FORMAT = "skitgubbe-session/1"

USERS_KEY = "^_"
"""The pattern of a key of the user's own: one beginning with ``_`` (as PHH's)."""


def _users_keys_schema(schema: dict[str, Any]) -> None:
    """The JSON Schema of a part of a record: its fields, and any key beginning with
    ``_`` (the user's); nothing else."""
    schema["additionalProperties"] = False
    schema["patternProperties"] = {USERS_KEY: {"description": "the user's own: kept, never read"}}


class Part(BaseModel):
    """A part of a record (the record itself, an action object, a start, a result...):
    its own fields, and keys beginning with ``_``, the user's, kept as they are (pydantic's
    extras, so that every dump writes them) and never read.  Any other key is invalid:
    pydantic checks every extra key against :data:`USERS_KEY` (in Rust, as it checks the
    fields; pydantic 2.11 and later), and the record layer says ``is not a field of this
    place``."""

    model_config = ConfigDict(extra="allow", json_schema_extra=_users_keys_schema)
    __pydantic_extra__: dict[Annotated[str, StringConstraints(pattern=USERS_KEY)], Any]

    @model_serializer(mode="wrap")
    def _with_users_keys(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """The user's keys as they were, also a ``null`` that ``exclude_none`` would drop."""
        out: dict[str, Any] = handler(self)
        if self.__pydantic_extra__:
            out.update(self.__pydantic_extra__)
        return out


def _cards_list(value: Any) -> Any:
    """Accept a list of card strings or one string of cards separated by spaces."""
    if isinstance(value, str):
        return value.split()
    return value


def _first_bad(value: Any, read: Callable[[Any], Any]) -> Any:
    """A list's items read by ``read``, stopping at the first it refuses.

    pydantic would go on and keep an error for every bad item: a 1 MB hand of
    170,000 bad cards took 400 MB to be called invalid.
    """
    value = _cards_list(value)
    if not isinstance(value, list):
        return value  # pydantic says what it must be
    out = []
    for i, item in enumerate(value):
        try:
            out.append(read(item))
        except RecordError as exc:
            raise RecordError(f"[{i}]", exc.message) from None
    return out


FEW = 64
"""Items of a list that pydantic reads in one call (it keeps an error for each bad one:
no more than this many); a longer list is read item by item."""


def _each(item: Any) -> WrapValidator:
    """A list read item by item, stopping at the first bad one (see :func:`_first_bad`):
    for lists of names and of games, whose items pydantic would each keep an error for.
    The JSON Schema is the list's own."""
    adapter: TypeAdapter[Any] = TypeAdapter(item)

    def read(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        if not isinstance(value, list) or len(value) <= FEW:
            return handler(value)  # a few errors at most, or what it must be
        out = []
        for i, entry in enumerate(value):
            try:
                out.append(adapter.validate_python(entry))
            except ValidationError as exc:
                err = exc.errors(include_url=False)[0]
                raise RecordError(join(f"[{i}]", _where(err)), _message(err)) from None
        return out

    return WrapValidator(read)


def _first_bad_each(value: Any, read: Callable[[Any], Any]) -> Any:
    """The same for an object of lists (hands by player), stopping at the first bad list."""
    if not isinstance(value, dict):
        return value
    out = {}
    for name, cards in value.items():
        try:
            out[name] = _first_bad(cards, read)
        except RecordError as exc:
            raise RecordError(join(key("", name), exc.path), exc.message) from None
    return out


def _card(value: Any) -> Any:
    if isinstance(value, str) and value.strip() == UNKNOWN_TEXT:
        raise RecordError("", _(NO_UNKNOWN))
    card = PARSE.get(value.strip().upper()) if isinstance(value, str) else None
    if card is None:
        raise RecordError("", not_a_card(value))
    return card_code(card)


def _slot(value: Any) -> Any:
    if isinstance(value, str) and value.strip() == UNKNOWN_TEXT:
        return UNKNOWN_TEXT
    card = PARSE.get(value.strip().upper()) if isinstance(value, str) else None
    if card is None:
        raise RecordError("", not_a_slot(value))
    return card_code(card)


CardStr = Annotated[
    str,
    BeforeValidator(_card),
    Field(
        description="A card: rank (2-9, T or 10, J, Q, K, A) then suit (S H D C or ♠ ♥ ♦ ♣), "
        "case-insensitive.",
        examples=["TH", "10h", "Q♠"],
    ),
]
SlotStr = Annotated[
    str,
    BeforeValidator(_slot),
    Field(
        description="A card as in actions, or '??' for a card nobody knows.",
        examples=["TH", "??"],
    ),
]
CardsText = Annotated[
    str, Field(description="cards separated by spaces", examples=["7H 7S", "10h Q♠"])
]
SlotsText = Annotated[
    str,
    Field(description="cards ('??' for unknown ones) separated by spaces", examples=["TH ?? 2C"]),
]
CardList = Annotated[
    list[CardStr],
    BeforeValidator(
        lambda v: _first_bad(v, _card), json_schema_input_type=list[CardStr] | CardsText
    ),
]
SlotList = Annotated[
    list[SlotStr],
    BeforeValidator(
        lambda v: _first_bad(v, _slot), json_schema_input_type=list[SlotStr] | SlotsText
    ),
]
CardLists = Annotated[dict[str, CardList], BeforeValidator(lambda v: _first_bad_each(v, _card))]
"""Lists of cards by player: the first bad card ends the reading (see :func:`_first_bad`)."""
SlotLists = Annotated[dict[str, SlotList], BeforeValidator(lambda v: _first_bad_each(v, _slot))]

Cards = Annotated[
    tuple[Card, ...],
    PlainValidator(read_cards, json_schema_input_type=list[CardStr] | CardsText),
]
"""An action's cards, read by the notation: it stops at the first that is no card (pydantic
would report every one of a million bad cards)."""


def _deck(value: Any) -> tuple[Card, ...] | None:
    return None if value is None else read_deck(value)


Deck = Annotated[
    tuple[Card, ...] | None,
    PlainValidator(_deck, json_schema_input_type=list[SlotStr] | SlotsText | None),
]
"""A deck, '??' for unknown cards; read card by card with a dict lookup (the hot path)."""


def _to(value: Any) -> dict[str, tuple[Card, ...]] | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise RecordError("", _("must be an object: each receiver and the cards they got"))
    return {name: read_cards(cards, key("", name)) for name, cards in value.items()}


_HIDDEN = {
    "Cc": N_("a control character"),
    "Cf": N_("a format character"),
    "Cs": N_("a lone surrogate"),
}
"""Unicode categories a name may not hold: they print as nothing, or move or hide other
text (``Anna\u202etxt.exe`` prints as ``Annaexe.txt``), so two names could look alike."""


def _printable_name(name: str) -> str:
    if name.startswith("{"):  # after a space, " {" opens a comment in the string form
        raise RecordError(
            "",
            _(
                "{name} is not a player name: a name may not begin with '{{' (in an action's "
                "string form, ' {{' begins a comment)"
            ).format(name=shown(name)),
        )
    if name.isascii() and name.isprintable():  # the common case, in C
        return name
    for ch in name if not name.isprintable() else ():  # the categories only for the rest
        what = _HIDDEN.get(unicodedata.category(ch))
        if what is not None:
            raise RecordError(
                "",
                _(
                    "{name} is not a player name: it holds U+{code}, {what} (bidi control, "
                    "zero-width or control characters hide or reorder text)"
                ).format(name=shown(name), code=f"{ord(ch):04X}", what=_(what)),
            )
    if not visible(name):
        raise RecordError(
            "",
            _(
                "{name} is not a player name: it shows nothing (fillers, blanks and "
                "characters shown as nothing only)"
            ).format(name=shown(name)),
        )
    return name


PlayerName = Annotated[
    str,
    Field(
        pattern=r"^[^\s\x00-\x1f\x7f]{1,40}$",
        description="1-40 printable characters, no spaces",
    ),
    AfterValidator(_printable_name),
]


Comment = Annotated[
    str,
    AfterValidator(checked_comment),
    Field(
        description="a note a person wrote beside the action: kept and shown, never read by "
        "the rules (at most 1000 characters; line breaks and tabs, no other control character)",
        examples=["Bo objects"],
    ),
]


class ActionObject(Part):
    """An action in object form."""

    player: str
    act: str = Field(description="play, dare, sluff, pick, deal, take, exchange, set_aside or draw")
    cards: Cards = Field(default=())
    to: Annotated[
        dict[str, tuple[Card, ...]] | None,
        PlainValidator(_to, json_schema_input_type=dict[str, list[CardStr] | CardsText] | None),
    ] = Field(default=None, description="deal only: the cards each receiver got")
    table: Literal["taken back", "stands"] | None = Field(
        default=None,
        description="what the table did about the action: withdrew it ('taken back') or let "
        "it stand ('stands')",
    )
    comment: Comment | None = None

    @model_validator(mode="after")
    def _cards_named(self) -> ActionObject:
        """A play or a sluff without a ``cards`` field is a record missing a required field
        (invalid), as the format says; ``"cards": []`` is written, and breaks
        ``play.count`` (illegal)."""
        if "cards" not in self.model_fields_set:
            if self.act == "play":
                raise RecordError("cards", _("is required: a play names the cards played"))
            if self.act == "sluff":
                raise RecordError("cards", _("is required: a sluff names the cards added"))
        return self


ActionText = Annotated[
    str,
    Field(
        description="'<player> <act> [card ...]', or for a deal "
        "'<player> deal <receiver>:<card>,<card> ...'; ' -- taken back' or ' -- stands' after "
        "it says what the table did about it; a comment comes last, in braces ('\\}' for a "
        "'}' inside it)",
        examples=[
            "Anna play 7H",
            "Cai deal Anna:2H,5C Bo:3D",
            "Bo play 7H -- taken back",
            "Cai play 8C 9C {Bo objects}",
        ],
    ),
]


def _all_strings(value: list[Any]) -> bool:
    """Whether every item is a string: ``str.join`` asks it in C (a microsecond for a
    game's actions, where a loop in Python takes ten)."""
    try:
        "".join(value)
    except TypeError:
        return False
    return True


def _actions(value: Any, handler: ValidatorFunctionWrapHandler) -> list[str | ActionObject]:
    """Strings as they are (read with the players' names by the build), objects validated.

    pydantic checks the list (fast, in one call); only when it finds something wrong
    are the entries gone through here, to say where and why in one line.  A list with
    entries that are neither strings nor objects, or with more than :data:`FEW`
    objects, is gone through first, stopping at the first bad entry: pydantic would
    keep an error for each (62 MB for 500 KB of them).  Up to :data:`ONE_CALL` entries
    pydantic checks the list as it comes: its errors take a few megabytes at most.
    """
    if isinstance(value, list) and len(value) > ONE_CALL and not _all_strings(value):
        kinds = list(map(type, value))  # in C: a game's actions are on the hot path
        if not set(kinds) <= {str, dict}:
            for index, entry in enumerate(value):
                if not isinstance(entry, (str, dict)):
                    raise RecordError(f"[{index}]", _(NOT_AN_ACTION))
        if kinds.count(dict) > FEW:  # each validated alone: the first bad one ends it
            for index, entry in enumerate(value):
                if isinstance(entry, dict):
                    _validate_at(ActionObject, entry, f"[{index}]")
    try:
        return handler(value)  # type: ignore[no-any-return]
    except ValidationError:
        pass
    if not isinstance(value, list):
        raise RecordError("", _("must be a list of actions"))
    for index, entry in enumerate(value):
        if isinstance(entry, dict):
            _validate_at(ActionObject, entry, f"[{index}]")
        elif type(entry) is not str:
            raise RecordError(f"[{index}]", _(NOT_AN_ACTION))
    raise AssertionError(f"pydantic refused actions the notation accepts: {value!r:.200}")


ONE_CALL = 4096
"""Actions that pydantic checks in one call whatever they hold (a game as played has a
few hundred): a longer list that is not all strings is gone through first."""
NOT_AN_ACTION = N_("an action is a string ('Anna play 7H') or an object")


Actions = Annotated[list[Annotated[ActionText, Strict()] | ActionObject], WrapValidator(_actions)]


class StartPhaseTwo(Part):
    """A position in phase two to start from instead of a deal."""

    model_config = ConfigDict(title="StartPhaseTwo")

    phase: Literal[2]
    trump: str = Field(description="the trump suit: S, H, D, C or a suit symbol")
    leader: str = Field(description="who leads the first trick")
    hands: SlotLists = Field(
        description="each player's hand ('??' for a card nobody knows); a player not listed, "
        "or with no cards, is out"
    )


class StartPhaseOne(Part):
    """A position in phase one, at the start of a trick."""

    model_config = ConfigDict(title="StartPhaseOne")

    phase: Literal[1]
    leader: str = Field(description="who leads the trick about to begin")
    dealer: str | None = Field(default=None, description="who dealt, where the rules need it")
    hands: SlotLists = Field(description="each player's hand ('??' for unknown cards)")
    stock: SlotList = Field(default_factory=list, description="the stock, top card first")
    piles: SlotLists = Field(
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
    stored: CardLists = Field(
        default_factory=dict, description="Mas: the three trumps each player stored"
    )
    reserve: SlotList = Field(
        default_factory=list, description="the two-player avstickshög, top card first"
    )


def _start_kind(value: Any) -> str:
    """Which start a value is: a record's dict by its ``phase``, a built model (as it is
    written out again) by its class."""
    if isinstance(value, StartPhaseOne) or (isinstance(value, dict) and value.get("phase") == 1):
        return "one"
    return "two"


StartPosition = Annotated[
    Annotated[StartPhaseOne, Tag("one")] | Annotated[StartPhaseTwo, Tag("two")],
    Discriminator(_start_kind),
]


class Result(Part):
    """What the table claims happened."""

    loser: str | None = None
    losers: Annotated[list[str], _each(str)] | None = Field(
        default=None, description="where the rules make several lose at once"
    )


class Record(Part):
    """A game record, format ``skitgubbe-record/1``."""

    model_config = ConfigDict(title="Skitgubbe game record")

    format: Literal["skitgubbe-record/1"]
    variant: str = Field(description="a preset name: " + ", ".join(PRESETS))
    options: dict[str, Any] = Field(
        default_factory=dict, description="overrides of the preset's rule options"
    )
    players: Annotated[list[PlayerName], _each(PlayerName)] = Field(
        description="unique names in clockwise seating order"
    )
    dealer: str | None = None
    first_leader: str | None = None
    deck: Deck = Field(
        default=None, description="the shuffled pack(s), first card dealt first; '??' unknown"
    )
    start: StartPosition | None = None
    trump: str | None = Field(
        default=None, description="the trump suit an unknown trump card showed between the phases"
    )
    actions: Actions
    result: Result | None = None
    meta: dict[str, Any] | None = None


class SessionGame(Part):
    """One game of a session: a record without format, variant, options and players."""

    dealer: str | None = None
    first_leader: str | None = None
    deck: Deck = None
    start: StartPosition | None = None
    trump: str | None = None
    actions: Actions
    result: Result | None = None
    meta: dict[str, Any] | None = None


class Scoring(Part):
    """Points per game: by the order of going out, for the loser, for everyone else."""

    places: list[int] = Field(
        default_factory=list, description="points of the first, second, ... player to go out"
    )
    loser: int = 0
    others: int = 0


class SessionResult(Part):
    """What the table claims about the whole session."""

    scores: dict[str, int]


class SessionRecord(Part):
    """Several games in a row, format ``skitgubbe-session/1``."""

    model_config = ConfigDict(title="Skitgubbe session")

    format: Literal["skitgubbe-session/1"]
    variant: str
    options: dict[str, Any] = Field(default_factory=dict)
    players: Annotated[list[PlayerName], _each(PlayerName)]
    scoring: Scoring | None = None
    games: Annotated[list[SessionGame], _each(SessionGame)]
    result: SessionResult | None = None
    meta: dict[str, Any] | None = None
