"""Building: a shape-checked record resolved into the :class:`Game` the engine replays.

Names are resolved against ``players``, the pack is checked, the deal layout
(:func:`adjudicator.rules.deal.deal_layout`) says where the trump card lies.
Every error is a :class:`RecordError` naming the place.  Loading (a path, a
JSON string or a decoded dict) ends here too.
"""

from __future__ import annotations

import difflib
import json
import unicodedata
from collections import Counter
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any, Literal, NamedTuple, get_args, get_origin

from pydantic.fields import FieldInfo

from adjudicator.cards import (
    FULL_PACK,
    UNKNOWN,
    UNKNOWN_TEXT,
    Card,
    card_code,
    parse_card,
    parse_suit,
)
from adjudicator.exceptions import AdjudicatorError
from adjudicator.game import Game, Session, Start
from adjudicator.i18n import _, ngettext
from adjudicator.limits import (
    MAX_RECORD_SIZE,
    InputError,
    checked_size,
    nesting_checked,
    printable,
    read_limited,
    too_big,
)
from adjudicator.record.confusables import looks as looks_like
from adjudicator.record.errors import RecordError, _message, _path, key, must_be, shown
from adjudicator.record.notation import did_you_mean, not_a_player, read_notes, reader
from adjudicator.record.other_games import validated
from adjudicator.record.schema import (
    SESSION_FORMAT,
    Record,
    SessionGame,
    SessionRecord,
    StartPhaseOne,
    StartPhaseTwo,
)
from adjudicator.rules.deal import deal_layout
from adjudicator.rules.options import OptionsError, RuleOptions
from adjudicator.rules.presets import PRESETS, find_variant


def _not_an_object(data: Any) -> RecordError:
    if isinstance(data, list):
        records = bool(data) and isinstance(data[0], dict)
        if records:
            return RecordError(
                "record",
                _(
                    "a record must be a JSON object, not an array (one record per line: use a "
                    ".jsonl file)"
                ),
            )
        return RecordError("record", _("a record must be a JSON object, not an array"))
    return RecordError("record", _("a record must be a JSON object"))


def parse_record(data: Any) -> Record:
    """Validate the shape of a decoded JSON record."""
    if not isinstance(data, dict):
        raise _not_an_object(data)
    record: Record = validated(Record, data)
    return record


def parse_document(data: Any) -> Record | SessionRecord:
    """Validate a decoded record or session, telling them apart by ``format``."""
    if not isinstance(data, dict):
        raise _not_an_object(data)
    if data.get("format") == SESSION_FORMAT:
        session: SessionRecord = validated(SessionRecord, data)
        return session
    record: Record = validated(Record, data)
    return record


def _player(names: dict[str, int], name: str, path: str) -> int:
    try:
        return names[name]
    except KeyError:
        raise RecordError(path, not_a_player(name, names)) from None


def _slots(codes: list[str]) -> list[Card]:
    """Cards the pydantic models have checked and written as codes (``??`` allowed)."""
    return [UNKNOWN if c == UNKNOWN_TEXT else parse_card(c) for c in codes]


def _check_copies(cards: list[tuple[Card, str]], decks: int) -> Counter[Card]:
    """Every known card at most ``decks`` times; ``cards`` are (card, path) pairs."""
    seen: Counter[Card] = Counter()
    first: dict[Card, str] = {}
    for card, path in cards:
        if card == UNKNOWN:
            continue
        seen[card] += 1
        if seen[card] > decks:
            said = (
                _("{card} is already at {place} (once per pack)")
                if decks == 1
                else _("{card} is already at {place} ({count} times per pack)")
            )
            raise RecordError(
                path, said.format(card=card_code(card), place=first[card], count=decks)
            )
        first.setdefault(card, path)
    return seen


def _check_deck(deck: Sequence[Card], decks: int) -> None:
    seen = Counter(deck)  # counted in C; the places are named only for a card too many
    seen.pop(UNKNOWN, None)
    if seen and max(seen.values()) > decks:
        _check_copies([(c, f"deck[{i}]") for i, c in enumerate(deck)], decks)
    size = 52 * decks
    if len(deck) != size:
        missing = [card_code(c) for c in FULL_PACK if seen[c] < decks]
        listed = " ".join(missing[:8]) + (" ..." if len(missing) > 8 else "")
        said = ngettext(
            "{count} cards, not a whole pack of {size}",
            "{count} cards, not a whole pack of {size}",  # English: "1 cards", as it said
            len(deck),
        ).format(count=len(deck), size=size)
        if len(deck) < size and missing:
            said = _("{said}: missing {cards}").format(said=said, cards=listed)
        raise RecordError("deck", said)


def _options(variant: str, overrides: dict[str, Any], players: int) -> RuleOptions:
    try:
        preset = find_variant(variant)
    except KeyError:
        raise RecordError("variant", _not_a_variant(variant)) from None
    base = preset.options_for(players) if 2 <= players <= 52 else preset.options
    overrides = {name: v for name, v in overrides.items() if not str(name).startswith("_")}
    if not overrides:
        return base
    for name in overrides:  # the first unknown name, before pydantic lists every one
        if name not in RuleOptions.model_fields:
            raise RecordError(_path(("options", name)), _not_an_option(str(name)))
    try:
        return RuleOptions(**{**base.model_dump(), **overrides})
    except OptionsError as exc:  # its words for a record: pydantic's report, kept in it
        err = exc.validation.errors(include_url=False)[0]
        where = _path(("options", *err["loc"]))
        field = RuleOptions.model_fields.get(str(err["loc"][0])) if err["loc"] else None
        if err["type"] == "extra_forbidden":
            message = _not_an_option(str(err["loc"][0]))
        elif field is not None:
            message = must_be(_allowed(field), err.get("input"))
        else:
            message = _message(err)
        raise RecordError(where, message) from None


def _more_than_the_pack(count: int) -> str:
    return ngettext(
        "{count} cards: more than the pack holds", "{count} cards: more than the pack holds", count
    ).format(count=count)


def _not_an_option(name: str) -> str:
    """An unknown option, and the close one to a misspelled name (``sequence``)."""
    said = _("is not a rule option (see 'adjudicator variants')")
    close = difflib.get_close_matches(name[:80], list(RuleOptions.model_fields), n=1, cutoff=0.75)
    return did_you_mean(said, close[0]) if close else said


def _allowed(field: FieldInfo) -> str:
    """The values a rule option takes, from its type: ``1 or 2``, ``true or false``,
    ``a whole number from 0 to 12``."""
    kind = field.annotation
    if get_origin(kind) is Literal:
        values = [json.dumps(v) for v in get_args(kind)]
        if len(values) == 1:
            return values[0]
        return _("{some} or {last}").format(some=", ".join(values[:-1]), last=values[-1])
    if kind is bool:
        return _("true or false")
    low = next((m.ge for m in field.metadata if getattr(m, "ge", None) is not None), None)
    high = next((m.le for m in field.metadata if getattr(m, "le", None) is not None), None)
    if low is not None and high is not None:
        return _("a whole number from {low} to {high}").format(low=low, high=high)
    if low is not None:
        return _("a whole number of at least {low}").format(low=low)
    return _("a whole number")


def _not_a_variant(name: str) -> str:
    """The variants, and the close one to a misspelled name (``pagta``: ``pagat``)."""
    said = _("{name} is not a variant ({variants})").format(
        name=shown(name), variants=", ".join(PRESETS)
    )
    close = difflib.get_close_matches(name[:80].lower(), list(PRESETS), n=1, cutoff=0.75)
    return did_you_mean(said, close[0]) if close else said


def _odd_letter(name: str, other: str) -> str:
    """`` (with U+0410 CYRILLIC CAPITAL LETTER A)``: the first character of ``name`` that
    ``other`` lacks, named, since the two print alike."""
    odd = next((ch for ch in name if ch not in other), None)
    if odd is None:
        return ""
    return " " + _("(with U+{code} {name})").format(
        code=f"{ord(odd):04X}", name=unicodedata.name(odd, _("a character"))
    )


def _seats(variant: str, players: list[str], options: RuleOptions) -> dict[str, int]:
    names: dict[str, int] = {}
    looks: dict[str, int] = {}
    for i, name in enumerate(players):
        if name in names:
            raise RecordError(f"players[{i}]", _("{name} is listed twice").format(name=shown(name)))
        names[name] = i
        seen = looks.setdefault(looks_like(name), i)
        if seen != i:
            raise RecordError(
                f"players[{i}]",
                _(
                    "{name}{letter} looks like {other} ({place}): give names that cannot be "
                    "mistaken for each other"
                ).format(
                    name=shown(name),
                    letter=_odd_letter(name, players[seen]),
                    other=shown(players[seen]),
                    place=f"players[{seen}]",
                ),
            )
    n = len(players)
    if not options.min_players <= n <= options.max_players:
        raise RecordError(
            "players",
            ngettext(
                "{variant} is for {low}-{high} players, the record has {count}",
                "{variant} is for {low}-{high} players, the record has {count}",
                n,
            ).format(variant=variant, low=options.min_players, high=options.max_players, count=n),
        )
    if not deal_layout(options, n).stock:
        raise RecordError(
            "players",
            ngettext(
                "{count} players cannot each be dealt {hand} cards and leave a stock from "
                "{pack} cards",
                "{count} players cannot each be dealt {hand} cards and leave a stock from "
                "{pack} cards",
                n,
            ).format(count=n, hand=options.hand_size, pack=52 * options.decks),
        )
    if options.reserve and n != 2:
        raise RecordError(
            "options.reserve",
            ngettext(
                "the avstickshög is a two-player rule; the record has {count} players",
                "the avstickshög is a two-player rule; the record has {count} players",
                n,
            ).format(count=n),
        )
    return names


def _suit(text: str, path: str) -> int:
    try:
        return parse_suit(text)
    except ValueError:
        raise RecordError(
            path, _("{text} is not a suit (S, H, D, C or ♠ ♥ ♦ ♣)").format(text=shown(text))
        ) from None


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
    actions = reader(players, names).read(record.actions)
    marks, comments = read_notes(record.actions)
    claimed: tuple[int, ...] | None = None
    several = False
    result = record.result
    if result is not None:
        if (result.loser is None) == (result.losers is None):
            raise RecordError("result", _("give either 'loser' or 'losers'"))
        if result.losers is not None:
            several = True
            claimed = tuple(
                _player(names, name, f"result.losers[{i}]") for i, name in enumerate(result.losers)
            )
        else:
            assert result.loser is not None
            claimed = (_player(names, result.loser, "result.loser"),)
    hint = _suit(record.trump, "trump") if record.trump is not None else None
    if record.deck is not None and record.start is not None:
        raise RecordError("start", _("give either 'deck' (with 'dealer') or 'start', not both"))
    if record.deck is None and record.start is None:
        raise RecordError("deck", _("is required, or else 'start' (a position to start from)"))
    first_leader = None
    if record.first_leader is not None:
        first_leader = _player(names, record.first_leader, "first_leader")
    table = _Table(variant, options, players, names, hint, first_leader)
    dealer: int | None = None
    start: Start | None = None
    if record.deck is not None:
        dealer, first_leader = _build_deal(record, record.deck, table)
    else:
        assert record.start is not None
        if options.reserve:
            raise RecordError(
                "options.reserve",
                _(
                    "the avstickshög is set aside from the deck before the deal: give 'deck' or "
                    "write it in start.reserve"
                ),
            )
        if record.dealer is not None:
            dealer = _player(names, record.dealer, "dealer")
        if isinstance(record.start, StartPhaseTwo):
            start = _build_start_two(record.start, table)
        else:
            start, start_dealer = _build_start_one(record.start, table)
            if start_dealer is not None:
                dealer = start_dealer
    return Game(
        variant=variant,
        options=options,
        players=players,
        actions=actions,
        dealer=dealer,
        first_leader=first_leader,
        first_leader_given=record.first_leader is not None,
        deck=record.deck,
        start=start,
        trump_hint=hint,
        claimed_losers=claimed,
        marks=marks,
        comments=comments,
        claim_several=several,
        record=record if isinstance(record, Record) else None,
    )


class _Table(NamedTuple):
    """What the parts of a record are checked against while the Game is built."""

    variant: str
    options: RuleOptions
    players: tuple[str, ...]
    names: dict[str, int]
    trump_hint: int | None
    first_leader: int | None


def trump_card_index(options: RuleOptions, players: int) -> int:
    """Where the trump card lies in the deck (:func:`deal_layout`)."""
    return deal_layout(options, players).trump_card


def _build_deal(
    record: Record | SessionGame, deck: tuple[Card, ...], table: _Table
) -> tuple[int, int]:
    """The dealer and the first leader of a game dealt from ``deck``."""
    options = table.options
    n = len(table.players)
    if record.dealer is None:
        raise RecordError("dealer", _("is required with 'deck'"))
    dealer = _player(table.names, record.dealer, "dealer")
    _check_deck(deck, options.decks)
    at = deal_layout(options, n).trump_card
    trump_card = deck[at]
    if options.trump_card == "turned_up" and trump_card == UNKNOWN:
        raise RecordError(
            f"deck[{at}]", _("the turned-up trump lies face up for everyone: write the card")
        )
    hint = table.trump_hint
    if hint is not None and trump_card != UNKNOWN and trump_card // 13 != hint:
        raise RecordError(
            "trump",
            _("the trump card {place} is {card}, not of that suit").format(
                place=f"deck[{at}]", card=card_code(trump_card)
            ),
        )
    left = (dealer + 1) % n
    if table.first_leader is None:
        return dealer, left
    if options.first_lead == "dealer_left" and table.first_leader != left:
        raise RecordError(
            "first_leader",
            _("in {variant} the player to the dealer's left ({name}) leads first").format(
                variant=table.variant, name=table.players[left]
            ),
        )
    return dealer, table.first_leader


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


def _build_start_two(start: StartPhaseTwo, table: _Table) -> Start:
    names = table.names
    trump = _suit(start.trump, "start.trump")
    if table.trump_hint is not None and table.trump_hint != trump:
        raise RecordError("trump", _("disagrees with start.trump"))
    hands, where = _hands(start.hands, names, "start.hands")
    _check_copies(where, table.options.decks)
    if len(where) > 52 * table.options.decks:
        raise RecordError("start.hands", _more_than_the_pack(len(where)))
    built = Start(
        phase=2,
        leader=_player(names, start.leader, "start.leader"),
        hands=hands,
        trump=trump,
        written=len(where),
    )
    if table.first_leader is not None:
        raise RecordError("first_leader", _("a start position names its leader in start.leader"))
    return built


def _build_start_one(start: StartPhaseOne, table: _Table) -> tuple[Start, int | None]:
    """The position, and the dealer it names (if any)."""
    options = table.options
    names = table.names
    n = len(table.players)
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
        raise RecordError("start", _more_than_the_pack(len(where)))
    dealer = None
    if start.dealer is not None:
        dealer = _player(names, start.dealer, "start.dealer")
    holder = None
    if start.trump_holder is not None:
        holder = _player(names, start.trump_holder, "start.trump_holder")
    kind = options.trump_card
    if kind == "stock_last":
        if stock and (trump_card is not None or holder is not None):
            raise RecordError(
                "start.trump_card",
                _(
                    "under these rules the stock's last card is the trump card: give trump_card "
                    "and trump_holder only once it has been drawn"
                ),
            )
        if not stock and (trump_card is None or holder is None):
            raise RecordError(
                "start.trump_card",
                _(
                    "the stock is empty, so its last card has been drawn: give trump_card and "
                    "trump_holder (who keeps it face down)"
                ),
            )
    else:
        if trump_card is None:
            said = (
                _("is required: the trump card was set aside before the deal")
                if kind == "set_aside"
                else _("is required: the trump card was turned up")
            )
            raise RecordError("start.trump_card", said)
        if holder is not None:
            raise RecordError(
                "start.trump_holder", _("only for a stock's last card kept face down")
            )
        if kind == "turned_up" and trump_card == UNKNOWN:
            raise RecordError(
                "start.trump_card", _("the turned-up trump was shown to everyone: write the card")
            )
        if kind == "turned_up" and stock and stock[-1] != trump_card:
            two = (trump_card // 13) * 13
            if stock[-1] != two:
                raise RecordError(
                    f"start.stock[{len(stock) - 1}]",
                    _(
                        "the stock's last card lies face up under it: the turned-up trump "
                        "({card}) or, after an exchange, the two of trumps ({two})"
                    ).format(card=card_code(trump_card), two=card_code(two)),
                )
    if stored_where and not options.set_aside_trumps:
        raise RecordError("start.stored", _("these rules store no trumps for phase two"))
    if reserve and n != 2:
        raise RecordError("start.reserve", _("the avstickshög is a two-player rule"))
    face_up = trump_card not in (None, UNKNOWN)
    hint = table.trump_hint
    if hint is not None and face_up and trump_card // 13 != hint:  # type: ignore[operator]
        said = _("the trump card is {card}").format(card=card_code(trump_card))  # type: ignore[arg-type]
        raise RecordError("trump", said)
    _trump_agrees_with_stock(stock, options.trump_card, hint)
    built = Start(
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
    if not any(hands) and not (stock and options.draw_back != "automatic"):
        # (where the record writes its draws, hands may start empty: the app's deal)
        if stock and options.phase_one == "all":
            raise RecordError(
                "start.hands",
                _(
                    "nobody holds a card: phase one would be over (a record that writes its "
                    "draws, draw_back 'any_time' or 'without_delay', may start so)"
                ),
            )
        raise RecordError("start.hands", _("nobody holds a card: phase one would be over"))
    return built, dealer


def _trump_agrees_with_stock(stock: list[Card], kind: str, hint: int | None) -> None:
    """The contract: a known trump card must agree with the top-level ``trump``; where the
    stock's last card is the trump card, that card is the one to compare."""
    if kind != "stock_last" or not stock or hint is None:
        return
    last = stock[-1]
    if last != UNKNOWN and last // 13 != hint:
        raise RecordError(
            "trump",
            _("the trump card {place} is {card}, not of that suit").format(
                place=f"start.stock[{len(stock) - 1}]", card=card_code(last)
            ),
        )


def build_session(session: SessionRecord) -> Session:
    """Resolve a shape-checked session into a :class:`Session`, or raise RecordError."""
    players = tuple(session.players)
    options = _options(session.variant, session.options, len(players))
    names = _seats(session.variant, session.players, options)
    if not session.games:
        raise RecordError("games", _("a session holds at least one game"))
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
        games=tuple(games),
        scoring=session.scoring,
        claimed_scores=claimed,
        record=session,
    )


def build(document: Record | SessionRecord) -> Game | Session:
    """A record or a session, resolved."""
    if isinstance(document, SessionRecord):
        return build_session(document)
    return build_game(document)


def read(source: str | Path | bytes | dict[str, Any], max_size: int = MAX_RECORD_SIZE) -> Any:
    """Decoded JSON from a path, JSON text (a string starting with ``{`` or ``[``, or bytes)
    or an already decoded dict; RecordError for anything else, or over ``max_size`` bytes."""
    max_size = checked_size(max_size)
    if isinstance(source, dict):
        return source
    if isinstance(source, (bytes, bytearray)):
        if len(source) > max_size:
            raise RecordError("", too_big(_("the record"), max_size))
        try:
            return loads(bytes(source).decode("utf-8"))
        except UnicodeDecodeError:
            raise RecordError("", _("the record is not UTF-8 text")) from None
    if isinstance(source, list):  # type: ignore[unreachable]  # (a caller's mistake, typed or not)
        raise _not_an_object(source)
    if isinstance(source, str) and source.lstrip().startswith(("{", "[")):
        if len(source) > max_size // 4 and len(source.encode("utf-8", "surrogatepass")) > max_size:
            raise RecordError("", too_big(_("the record"), max_size))
        return loads(source)
    if not isinstance(source, (str, Path)):
        raise RecordError(
            "",
            _("a record is read from a path, JSON text or a dict, not {kind}").format(
                kind=type(source).__name__
            ),
        )
    return loads(read_text(str(source), max_size))


def read_text(path: str, max_size: int = MAX_RECORD_SIZE) -> str:
    """A record file's text; RecordError when it cannot be read, is no regular file,
    is larger than ``max_size`` bytes or is not UTF-8.

    Newlines are kept as they are (no universal-newline translation), so the line and
    column of a JSON error are the same wherever the file is read (one process, a worker
    of ``--jobs``, a Dask worker).
    """
    name = printable(path[:100]) + ("..." if len(path) > 100 else "") if path else '""'
    if "\0" in path:
        raise RecordError(
            "", _("cannot read {name}: a file name holds no NUL character").format(name=name)
        )
    try:
        data = read_limited(path, max_size)
    except InputError as exc:
        raise RecordError("", str(exc)) from None
    except OSError as exc:
        why = exc.strerror or str(exc)  # the system's own words
        raise RecordError("", _("cannot read {name}: {why}").format(name=name, why=why)) from None
    except ValueError:  # a name the system cannot take: a lone surrogate, an odd encoding
        raise RecordError(
            "", _("cannot read {name}: not a file name this system can open").format(name=name)
        ) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError("", _("{name} is not UTF-8 text").format(name=name)) from None


def load_record(
    source: str | Path | bytes | dict[str, Any], max_size: int = MAX_RECORD_SIZE
) -> Game:
    """Read a record from a path, JSON text or a decoded dict; RecordError for bad input
    (never another exception), naming the place."""
    return build_game(parse_record(read(source, max_size)))


def load(
    source: str | Path | bytes | dict[str, Any], max_size: int = MAX_RECORD_SIZE
) -> Game | Session:
    """Read a record or a session from a path, JSON text or a decoded dict; RecordError
    for bad input."""
    return build(parse_document(read(source, max_size)))


class _KeyTwice(AdjudicatorError):
    """Raised from the decoder's hook: an object holds a key twice."""


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """The decoder's object hook: a dict, unless a key comes twice.

    json would keep the last value silently (``"variant":"pagat","variant":"goat"``
    is Goat).  A record has a few objects (the actions are strings), so this
    costs one ``dict()`` and one ``len`` per object.
    """
    out = dict(pairs)
    if len(out) != len(pairs):
        raise _KeyTwice
    return out


class _Twice(dict[str, Any]):
    """An object that held a key twice, marked with the key (only to say where)."""

    twice: str


def _marking(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) == len(pairs):
        return out
    marked = _Twice(out)
    seen: set[str] = set()
    for name, _value in pairs:
        if name in seen:
            marked.twice = name
            break
        seen.add(name)
    return marked


def _where_twice(value: Any, path: str) -> str | None:
    """The path of the first key written twice, in the order of the text."""
    if isinstance(value, _Twice):
        return key(path, value.twice)
    items: Any = ()
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    for name, inner in items:
        found = _where_twice(inner, f"{path}[{name}]" if isinstance(name, int) else key(path, name))
        if found is not None:
            return found
    return None


def _cut_short(exc: json.JSONDecodeError) -> bool:
    """Whether json stopped because the text ended (a file or a paste cut short): its
    error is at the end of the text, or a string runs to the end unclosed."""
    return exc.pos >= len(exc.doc.rstrip()) or exc.msg.startswith("Unterminated string")


def _not_json(exc: Exception) -> RecordError:
    """The one line for text json cannot read."""
    if isinstance(exc, json.JSONDecodeError):
        # Some of json's messages end in "starting at": do not say "at" twice.
        if _cut_short(exc):
            said = (
                _("not JSON: the text ends early (cut short?): {why} line {line} column {column}")
                if exc.msg.endswith(" at")
                else _(
                    "not JSON: the text ends early (cut short?): {why} at line {line} "
                    "column {column}"
                )
            )
        else:
            said = (
                _("not JSON: {why} line {line} column {column}")
                if exc.msg.endswith(" at")
                else _("not JSON: {why} at line {line} column {column}")
            )  # json's own words (English), then the place in the language speaking
        return RecordError("", said.format(why=exc.msg, line=exc.lineno, column=exc.colno))
    if isinstance(exc, RecursionError):
        # The C scanner gives up near the interpreter's recursion limit; no record nests
        # more than a few levels, so this is bad input, not a reason to stop a bulk run.
        return RecordError("", _("not a record: JSON nested too deeply to read"))
    # e.g. an integer of more than 4,300 digits
    return RecordError("", _("not JSON: {why}").format(why=str(exc).splitlines()[0][:80]))


def loads(text: str) -> Any:
    """json.loads with a one-line error naming line and column; a key twice is an error."""
    if not text.strip():
        raise RecordError("", _("the file is empty: there is no record in it"))
    try:
        return json.loads(nesting_checked(text), object_pairs_hook=_unique)
    except _KeyTwice:
        pass  # the hook runs before the text is read to its end: read it all, marking
    except (ValueError, RecursionError) as exc:
        raise _not_json(exc) from None
    try:
        marked = json.loads(text, object_pairs_hook=_marking)
    except (ValueError, RecursionError) as exc:  # the text is not JSON after all
        raise _not_json(exc) from None
    try:
        where = _where_twice(marked, "")
    except RecursionError:
        where = None
    raise RecordError(where or "record", _("is written twice in one object: give each key once"))


def loads_objects(text: str) -> Any:
    """:func:`loads` for a text of many small objects (an app's log: an array of events,
    or a message holding one), with the same value and the same errors, a key twice
    included, at the speed of json's own reading.

    json reads it without a hook; then no key was written twice if the text's colons
    are as many as the keys read in the objects at the top and in the arrays just below
    it (every key written has its colon; a key written twice is read once, and a colon
    inside a string only adds to the text's count).  Where they differ (a key twice, a
    colon in a string, objects nested deeper) the text is read again by :func:`loads`."""
    if text.count("{") <= 1:  # a record, or no object to speak of: loads' hook costs little
        return loads(text)
    try:
        value = json.loads(nesting_checked(text))
    except (ValueError, RecursionError) as exc:  # where json stops, a hook or none
        raise _not_json(exc) from None
    if _keys_read(value) == text.count(":"):
        return value
    return loads(text)


def _keys_read(value: Any) -> int:
    """The keys of the objects at the top of ``value`` and in the arrays just below it,
    counted without a Python call per object (an array of other values counts none)."""
    if type(value) is dict:
        count = len(value)
        arrays = [inner for inner in value.values() if type(inner) is list]
    elif type(value) is list:
        count, arrays = 0, [value]
    else:
        return 0
    for array in arrays:
        with suppress(TypeError):  # not every item an object: the count falls short
            count += sum(map(dict.__len__, array))
    return count
