"""Invalid records: :class:`RecordError`, one printable line naming the place.

pydantic's errors and the notation's own are turned into the same form here:
``actions[12].cards[0]: 'ZZ' is not a card``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from adjudicator.i18n import N_, _, ngettext
from adjudicator.invalid import RecordError, shown

__all__ = ["RecordError", "shown"]  # defined in adjudicator.invalid, used from here too


_TAGS = {"text", "object", "one", "two", "[key]"}
"""Parts of pydantic's error places that are no place in the record: union tags, and the
mark of a dict's key (the key itself is already named)."""

PLAIN_KEY = re.compile(r"^[A-Za-z0-9_\-]{1,40}$")


def key(prefix: str, name: Any) -> str:
    """``prefix.name``, the key quoted as JSON unless it is plain: an error stays one printable
    line whatever a key holds (line breaks, lone surrogates, megabytes)."""
    if not isinstance(name, str):  # a key from a dict given to the library: any value
        text = shown(name)
        return f"{prefix}.{text}" if prefix else text
    text = name
    if not PLAIN_KEY.match(text):
        cut = text if len(text) <= 40 else text[:40] + "..."
        text = json.dumps(cut)  # escapes what cannot be printed
    return f"{prefix}.{text}" if prefix else text


def join(path: str, inner: str) -> str:
    """``path`` then ``inner`` (``[3]``, ``.cards``, ``cards`` or nothing)."""
    if not inner:
        return path
    if not path or inner.startswith(("[", ".")):
        return path + inner
    return f"{path}.{inner}"


def _path(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int) and part.bit_length() < 64:
            out += f"[{part}]"
        elif part in _TAGS or (isinstance(part, str) and part.startswith("function-")):
            continue
        else:
            out = key(out, part)
    return out


_MUST = {
    "int": N_("a whole number"),
    "float": N_("a number"),
    "finite_number": N_("a number"),
    "string": N_("a string"),
    "bool": N_("true or false"),
    "list": N_("a list"),
    "tuple": N_("a list"),
    "set": N_("a list"),
    "dict": N_("an object"),
    "model": N_("an object"),
    "model_attributes": N_("an object"),
    "dataclass": N_("an object"),
    "none_required": "null",
}
"""What a value must be, by the start of pydantic's error type (``int_parsing``,
``dict_type``): the record's words, never the library's ("Input should be ..."); in the
language speaking (``null`` is JSON's own word)."""

_BOUNDS = (
    ("ge", N_("at least {bound}")),
    ("gt", N_("more than {bound}")),
    ("le", N_("at most {bound}")),
    ("lt", N_("less than {bound}")),
)


def _length(kind: str, many: Any) -> str:
    """``at least 1 items long``: English keeps its plural for one, as it always said."""
    count = many if isinstance(many, int) else 0
    if kind == "string_too_short":
        words = ngettext(
            "at least {count} characters long", "at least {count} characters long", count
        )
    elif kind == "string_too_long":
        words = ngettext(
            "at most {count} characters long", "at most {count} characters long", count
        )
    elif kind == "too_short":
        words = ngettext("at least {count} items long", "at least {count} items long", count)
    else:
        words = ngettext("at most {count} items long", "at most {count} items long", count)
    return words.format(count=many)


def _must(kind: str, ctx: dict[str, Any]) -> str:
    """What pydantic's error ``kind`` (with its ``ctx``) asks for, in the format's words."""
    if kind == "literal_error":
        # pydantic's "'a', 'b' or 'c'": the values as written, the "or" in the language
        return str(ctx.get("expected", "")).replace("' or '", "'" + _(" or ") + "'")
    for bound, words in _BOUNDS:
        if bound in ctx:
            return _(words).format(bound=ctx[bound])
    if kind in ("too_short", "too_long", "string_too_short", "string_too_long"):
        return _length(
            kind, ctx.get("min_length") if kind.endswith("short") else ctx.get("max_length")
        )
    for start, must in _MUST.items():
        if kind.startswith(start):
            return _(must) if must != "null" else must
    return _("of another type (see docs/record-format.md)")


def must_be(what: str, given: Any) -> str:
    """``must be a whole number, not 'x'``: what a value must be, and the value given."""
    return _("must be {what}, not {given}").format(what=what, given=shown(given))


def _message(err: Mapping[str, Any]) -> str:
    kind = err["type"]
    given = err.get("input")
    if kind == "missing":
        return _("is required")
    if kind == "extra_forbidden" or (
        kind == "string_pattern_mismatch" and (err.get("ctx") or {}).get("pattern") == "^_"
    ):  # a key the format has not, and no key of the user's (schema.USERS_KEY)
        return _("is not a field of this place in the record format")
    if kind == "literal_error" and err["loc"][-1:] == ("phase",):
        return _("must be 1 or 2 (phase one or phase two), not {given}").format(given=shown(given))
    if kind == "string_pattern_mismatch":
        return _("{value} is not a player name (1-40 printable characters, no spaces)").format(
            value=shown(given)
        )
    if kind in ("value_error", "assertion_error"):
        error = err.get("ctx", {}).get("error")
        if isinstance(error, RecordError):
            return error.message
        text = " ".join(str(error).split())  # one line, whatever a value held
        return text if len(text) <= 200 else text[:197] + "..."
    return must_be(_must(kind, err.get("ctx") or {}), given)


def _where(err: Mapping[str, Any]) -> str:
    """The place of a pydantic error, with the notation's own path inside the field."""
    where = _path(err["loc"])
    error = err.get("ctx", {}).get("error") if err["type"] == "value_error" else None
    return join(where, error.path) if isinstance(error, RecordError) else where


def _validate(model: type[BaseModel], data: Any) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        raise RecordError(_where(err), _message(err)) from None
    except RecursionError:
        raise RecordError("", _("not a record: nested too deeply to read")) from None


def _validate_at(model: type[BaseModel], data: Any, prefix: str) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        raise RecordError(join(prefix, _where(err)), _message(err)) from None
