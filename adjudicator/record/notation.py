"""The notation: cards and actions as a record writes them, read and written by one grammar.

A card is any spelling of :data:`adjudicator.cards.PARSE` (``??`` where a card
may be unknown).  An action is an object or one string::

    <player> <act> [card ...]                    Anna play 7H
    <player> deal [<receiver>:<card>,... ...]    Cai deal Anna:2H,5C Bo:3D
    <action> -- taken back | -- stands            Bo play 7H -- taken back
    <action> {<comment>}                          Cai play 8C 9C {Bo objects}

The mark is what the table did about an irregular action (the object form's
``"table"``): :func:`split_mark` reads it, :func:`marked` writes it.  A comment
is a note a person wrote beside the action (the object form's ``"comment"``),
in braces as PGN writes them, last: :func:`split_comment` reads it,
:func:`commented` writes it.  It is kept and shown, never read by the rules.

:meth:`Action.text <adjudicator.actions.Action.text>` writes that string and
:func:`parse_action` reads it back (:func:`format_action` is the same writer
for library users); a deal reads the same in either form.  Reading resolves
player names to seats; every error is a :class:`RecordError` naming the place.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from adjudicator.actions import ACTS, CARD_SEP, RECEIVER_SEP, Action
from adjudicator.cards import PARSE, UNKNOWN, UNKNOWN_TEXT, Card
from adjudicator.i18n import N_, _
from adjudicator.limits import COMMENT_MAX
from adjudicator.record.errors import RecordError, key, shown

CARDS: dict[str, Card] = {**PARSE, UNKNOWN_TEXT: UNKNOWN}
"""Every spelling of a card (upper case), and ``??``."""

_ACTS = {act: act for act in ACTS}
NO_UNKNOWN = N_("'??' is not allowed here: an action names the cards it uses")
SHAPE = "'<player> <act> [card ...]'"

TAKEN_BACK = "taken back"
STANDS = "stands"
MARKS: tuple[str, ...] = (TAKEN_BACK, STANDS)
"""What a table may have done about an action: withdrawn it, or let it stand."""
MARK_SEP = " -- "
"""Between an action's string form and its mark: ``Bo play 7H -- taken back``."""


def split_mark(text: str, path: str = "") -> tuple[str, str | None]:
    """An action's string form without its mark, and the mark (None: unmarked)."""
    body, sep, mark = text.partition(MARK_SEP)
    if not sep:
        return text, None
    mark = " ".join(mark.split())
    if mark not in MARKS:
        raise RecordError(
            path,
            _("{mark} is not what a table did ('-- taken back' or '-- stands')").format(
                mark=repr(mark[:40])
            ),
        )
    return body, mark


def marked(text: str, mark: str | None) -> str:
    """The string form of an action with what the table did (if anything)."""
    return text if mark is None else f"{text}{MARK_SEP}{mark}"


# --- comments -----------------------------------------------------------------------

COMMENT_OPEN = " {"
"""Where a comment begins in the string form: a space, then a brace (a card never
begins with one, and the player's name comes first)."""

_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Bidi embeddings, overrides and isolates: they reorder the text after them, so a note
could make the action beside it read otherwise."""


def _too_long() -> str:
    return _("is longer than {most} characters: a comment is a short note").format(most=COMMENT_MAX)


def checked_comment(text: str) -> str:
    """A comment as a record may hold it: at most :data:`COMMENT_MAX` characters, line
    breaks and tabs allowed, no other control character, lone surrogate or bidi control
    (they would act on a terminal, or move the text around it); RecordError otherwise."""
    if len(text) > COMMENT_MAX:
        raise RecordError("", _too_long())
    if text.isprintable():
        return text
    for ch in text:
        if ch in "\n\t" or (ch.isprintable() and ch not in _BIDI):
            continue
        if unicodedata.category(ch) not in ("Cc", "Cs") and ch not in _BIDI:
            continue  # a format character that moves nothing (a zero-width joiner)
        raise RecordError(
            "",
            _(
                "a comment may not hold U+{code} (control characters, lone surrogates and "
                "bidi controls act on a terminal or reorder the text around them)"
            ).format(code=f"{ord(ch):04X}"),
        )
    return text


def split_comment(text: str, path: str = "") -> tuple[str, str | None]:
    """An action's string form without its comment, and the comment (None: none).

    The comment runs from the first ``" {"`` to the first ``}`` not written ``\\}``;
    ``\\\\`` is a backslash.  Nothing but spaces may follow it.
    """
    start = text.find(COMMENT_OPEN)
    if start < 0:
        return text, None
    where = f"{path}.comment" if path else "comment"
    body = text[start + len(COMMENT_OPEN) :]
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and body[i + 1 : i + 2] in ("\\", "}"):
            out.append(body[i + 1])
            i += 2
            continue
        if ch == "}":
            break
        out.append(ch)
        i += 1
        if len(out) > COMMENT_MAX:  # a megabyte "comment" is not gone through
            raise RecordError(where, _too_long())
    else:
        raise RecordError(
            where,
            _(
                "is not closed: a comment ends with {close} (inside it, {close} is written {kept})"
            ).format(close="'}'", kept="'\\}'"),
        )
    after = body[i + 1 :]
    if after.strip():
        raise RecordError(
            where,
            _("{text} follows it: a comment comes last, after the action").format(
                text=shown(after.strip())
            ),
        )
    try:
        comment = checked_comment("".join(out))
    except RecordError as exc:
        raise RecordError(where, exc.message) from None
    return text[:start], comment


def commented(text: str, comment: str | None) -> str:
    """The string form of an action with its comment (if any), escaped for
    :func:`split_comment`."""
    if comment is None:
        return text
    escaped = comment.replace("\\", "\\\\").replace("}", "\\}")
    return f"{text}{COMMENT_OPEN}{escaped}}}"


def read_comments(entries: Sequence[Any]) -> dict[int, str]:
    """The comment of each action of a record that has one, by index."""
    try:
        if COMMENT_OPEN not in "\n".join(entries):
            return {}  # all strings and none commented: the usual record, read at C speed
    except TypeError:  # some in object form (a deal): the strings at once, then the objects
        texts = "\n".join([e for e in entries if e.__class__ is str])
        objects = [e for e in entries if e.__class__ is not str]
        if COMMENT_OPEN not in texts and all(getattr(e, "comment", None) is None for e in objects):
            return {}
    out: dict[int, str] = {}
    for index, entry in enumerate(entries):
        if type(entry) is str:
            if COMMENT_OPEN in entry:
                comment = split_comment(entry, f"actions[{index}]")[1]
                if comment is not None:
                    out[index] = comment
        elif getattr(entry, "comment", None) is not None:
            out[index] = entry.comment
    return out


# --- cards --------------------------------------------------------------------------


def not_a_card(value: Any) -> str:
    """``'ZZ' is not a card``, in the language speaking."""
    return _("{value} is not a card").format(value=shown(value))


def not_a_slot(value: Any) -> str:
    """The same where ``??`` (a card nobody knows) may stand."""
    return _("{value} is not a card (or '??' for an unknown card)").format(value=shown(value))


def did_you_mean(said: str, close: str) -> str:
    """``said``, then the name close to a misspelled one (``...: did you mean 'pagat'?``)."""
    return _("{said}: did you mean {close}?").format(said=said, close=repr(close))


def _words(value: Any, path: str) -> Any:
    """A list of card strings, or one string of them separated by spaces, as a list."""
    if isinstance(value, str):
        return value.split()
    if not isinstance(value, list):
        raise RecordError(path, _("must be a list of cards, or one string of cards"))
    return value


def read_cards(value: Any, path: str = "") -> tuple[Card, ...]:
    """An action's cards (a list of card strings, or one string of them); no ``??``."""
    out = []
    for i, code in enumerate(_words(value, path)):
        card = CARDS.get(code.strip().upper()) if isinstance(code, str) else None
        if card is None or card == UNKNOWN:
            raise RecordError(
                f"{path}[{i}]", _(NO_UNKNOWN) if card == UNKNOWN else not_a_card(code)
            )
        out.append(card)
    return tuple(out)


def read_deck(value: Any, path: str = "") -> tuple[Card, ...]:
    """A deck, stock or hand that may hide cards: card strings and ``??``.

    Card by card with a dict lookup, the exact spelling first: a deck is read
    with every record, and this is the hot path of a bulk check.
    """
    tokens = _words(value, path)
    try:
        return tuple([CARDS[token] for token in tokens])  # every card in canonical spelling
    except (KeyError, TypeError):
        pass  # another spelling, or no card: card by card below
    out = []
    for i, token in enumerate(tokens):
        card = CARDS.get(token) if isinstance(token, str) else None
        if card is None:
            card = CARDS.get(token.strip().upper()) if isinstance(token, str) else None
            if card is None:
                raise RecordError(f"{path}[{i}]", not_a_slot(token))
        out.append(card)
    return tuple(out)


# --- actions ------------------------------------------------------------------------


def not_a_player(name: Any, players: Iterable[str]) -> str:
    """``'anna' is not one of the players (did you mean 'Anna'?)``: names are exact, but a
    name that differs in case, or by a letter or two, is pointed at."""
    said = _("{name} is not one of the players").format(name=shown(name))
    if not isinstance(name, str) or len(name) > 80:
        return said
    known = list(players)
    close = [p for p in known if p.casefold() == name.casefold()]
    close = close or difflib.get_close_matches(name, known, n=1, cutoff=0.6)  # Ewa: Eva
    if not close:
        return said
    return _("{name} is not one of the players (did you mean {close}?)").format(
        name=shown(name), close=shown(close[0])
    )


def _seat(names: Mapping[str, int], name: str, path: str) -> int:
    try:
        return names[name]
    except KeyError:
        raise RecordError(path, not_a_player(name, names)) from None


def act_of(act: str, path: str) -> str:
    """The act as the engine knows it: acts are read in any case (``Play``, ``PLAY``); an
    unknown one names the acts, and the close one if there is one."""
    found = _ACTS.get(act) or _ACTS.get(act.lower())
    if found is not None:
        return found  # the one string object per act: the engine compares acts by it
    said = _("{act} is not an act ({acts})").format(act=shown(act), acts=", ".join(ACTS))
    close = difflib.get_close_matches(act.lower()[:80], ACTS, n=1, cutoff=0.7)
    raise RecordError(path, did_you_mean(said, close[0]) if close else said)


def _deal_to(words: Sequence[str], names: Mapping[str, int], path: str) -> tuple[Any, ...]:
    """``Anna:2H,5C Bo:3D`` as (seat, cards) pairs, in the order written."""
    to = []
    seen: set[str] = set()
    for word in words:
        receiver, sep, codes = word.rpartition(RECEIVER_SEP)
        if not sep or not receiver:
            raise RecordError(
                path,
                _(
                    "{word} is not '<receiver>:<card>,<card>...': a deal says what each "
                    "receiver got"
                ).format(word=shown(word)),
            )
        where = key(f"{path}.to", receiver)
        if receiver in seen:
            raise RecordError(where, _("is written twice: name each receiver once"))
        seen.add(receiver)
        cards = read_cards(codes.split(CARD_SEP) if codes else [], where)
        to.append((_seat(names, receiver, where), cards))
    return tuple(to)


def read_text(text: str, names: Mapping[str, int], path: str = "") -> Action:
    """One action in the string form, its player resolved by ``names`` (a mark, if any,
    is read by :func:`split_mark`, a comment by :func:`split_comment`)."""
    if COMMENT_OPEN in text:
        text = split_comment(text, path)[0]
    if MARK_SEP in text:
        text = split_mark(text, path)[0]
    words = text.split()
    if len(words) < 2:
        raise RecordError(path, _("{text} is not {shape}").format(text=shown(text), shape=SHAPE))
    player, act, rest = words[0], act_of(words[1], path), words[2:]
    if act == "deal":
        to = _deal_to(rest, names, path)
        return Action(_seat(names, player, f"{path}.player"), act, (), to)
    cards = read_cards(rest, f"{path}.cards")
    return Action(_seat(names, player, f"{path}.player"), act, cards)


def read_object(entry: Any, names: Mapping[str, int], path: str = "") -> Action:
    """One action in the object form (an :class:`ActionObject`, its cards already read)."""
    act = act_of(entry.act, f"{path}.act")
    who = _seat(names, entry.player, f"{path}.player")
    to: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    if act == "deal":
        if entry.cards:
            raise RecordError(f"{path}.cards", _("a deal names its cards under 'to', not 'cards'"))
        if entry.to is None:
            raise RecordError(f"{path}.to", _("a deal must say what each receiver got"))
        to = tuple(
            (_seat(names, name, key(f"{path}.to", name)), cards) for name, cards in entry.to.items()
        )
    elif entry.to is not None:
        raise RecordError(f"{path}.to", _("only a deal has 'to'"))
    return Action(who, act, entry.cards, to)


def read_marks(entries: Sequence[Any]) -> dict[int, str]:
    """What the table did about each marked action of a record, by index."""
    try:
        if MARK_SEP not in "\n".join(entries):
            return {}  # all strings and none marked: the usual record, read at C speed
    except TypeError:  # an action in object form: looked at one by one below
        pass
    out: dict[int, str] = {}
    for index, entry in enumerate(entries):
        if type(entry) is str:
            if MARK_SEP in entry:
                body = split_comment(entry, f"actions[{index}]")[0]
                mark = split_mark(body, f"actions[{index}]")[1]
                if mark is not None:
                    out[index] = mark
        elif getattr(entry, "table", None) is not None:
            out[index] = entry.table
    return out


def read_notes(entries: Sequence[Any]) -> tuple[dict[int, str], dict[int, str]]:
    """What the table did about each action (:func:`read_marks`) and what a person wrote
    beside it (:func:`read_comments`), by index."""
    return read_marks(entries), read_comments(entries)


def parse_action(text: str, players: Sequence[str]) -> Action:
    """``"Anna play 7H"`` (or ``"Cai deal Anna:2H,5C Bo:3D"``) at a table of ``players``.

    Raises :class:`RecordError` (a ``ValueError``) saying what is wrong.
    """
    return read_text(text, {name: seat for seat, name in enumerate(players)})


def format_action(action: Action, players: Sequence[str]) -> str:
    """The string form of ``action``, which :func:`parse_action` reads back."""
    return action.text(players)


class _AnyName(dict[str, int]):
    """Seats given to names in the order first met: reads a text without its table."""

    def __missing__(self, name: str) -> int:
        seat = self[name] = len(self)
        return seat


def listed_form(text: str) -> str | dict[str, Any]:
    """An action's string form as ``legal`` lists it: the same string, or the object form
    of a deal (:meth:`Action.record_form`)."""
    words = text.split(None, 2)
    if len(words) < 2 or words[1] != "deal":
        return text  # every other act is listed in its string form
    seats = _AnyName()
    return read_text(text, seats).record_form(list(seats))


class Reader:
    """Reads the actions of records at one table (one seating), remembering strings.

    A corpus of bot games repeats the same few hundred strings, and Actions are
    immutable, so records at the same table share them.
    """

    LIMIT = 200_000
    """Strings remembered before the reader starts afresh."""

    def __init__(self, players: Sequence[str], names: Mapping[str, int]) -> None:
        self.players = tuple(players)
        self.names = names
        self.known: dict[str, Action] = {}

    def read(self, entries: Sequence[Any]) -> list[Action]:
        """Every action of a record: strings through the memory, objects resolved."""
        known = self.known
        if len(known) > self.LIMIT:
            known.clear()
        names = self.names
        try:  # every string met before (a deal written as an object read on the spot)
            return [
                known[entry] if entry.__class__ is str else read_object(entry, names)
                for entry in entries
            ]
        except (KeyError, TypeError, RecordError):
            pass  # a new string, or a mistake: one by one below, each named by its place
        out = []
        for index, entry in enumerate(entries):
            if type(entry) is str:
                action = known.get(entry)
                if action is None:
                    action = read_text(entry, names, f"actions[{index}]")
                    if len(entry) < 80:  # only ordinary strings: no megabytes kept
                        known[entry] = action
            else:
                action = read_object(entry, names, f"actions[{index}]")
            out.append(action)
        return out


_READERS: dict[tuple[str, ...], Reader] = {}


def reader(players: Sequence[str], names: Mapping[str, int]) -> Reader:
    """The reader for a seating: one per seating, a few dozen seatings kept."""
    key_ = tuple(players)
    found = _READERS.get(key_)
    if found is None:
        if len(_READERS) > 64:
            _READERS.clear()
        found = _READERS[key_] = Reader(key_, names)
    return found
