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
    "int": "a whole number",
    "float": "a number",
    "finite_number": "a number",
    "string": "a string",
    "bool": "true or false",
    "list": "a list",
    "tuple": "a list",
    "set": "a list",
    "dict": "an object",
    "model": "an object",
    "model_attributes": "an object",
    "dataclass": "an object",
    "none_required": "null",
}
"""What a value must be, by the start of pydantic's error type (``int_parsing``,
``dict_type``): the record's words, never the library's ("Input should be ...")."""


def _must(kind: str, ctx: dict[str, Any]) -> str:
    """What pydantic's error ``kind`` (with its ``ctx``) asks for, in the format's words."""
    if kind == "literal_error":
        return str(ctx.get("expected", ""))  # pydantic's "'a', 'b' or 'c'" reads as English
    for bound, word in (
        ("ge", "at least"),
        ("gt", "more than"),
        ("le", "at most"),
        ("lt", "less than"),
    ):
        if bound in ctx:
            return f"{word} {ctx[bound]}"
    if kind in ("too_short", "too_long", "string_too_short", "string_too_long"):
        many = ctx.get("min_length") if kind.endswith("short") else ctx.get("max_length")
        what = "characters" if kind.startswith("string") else "items"
        return f"{'at least' if kind.endswith('short') else 'at most'} {many} {what} long"
    for start, must in _MUST.items():
        if kind.startswith(start):
            return must
    return "of another type (see docs/record-format.md)"


def _message(err: Mapping[str, Any]) -> str:
    kind = err["type"]
    given = err.get("input")
    if kind == "missing":
        return "is required"
    if kind == "extra_forbidden":
        return "is not a field of this place in the record format"
    if kind == "literal_error" and err["loc"][-1:] == ("phase",):
        return f"must be 1 or 2 (phase one or phase two), not {shown(given)}"
    if kind == "string_pattern_mismatch":
        return f"{shown(given)} is not a player name (1-40 printable characters, no spaces)"
    if kind in ("value_error", "assertion_error"):
        error = err.get("ctx", {}).get("error")
        if isinstance(error, RecordError):
            return error.message
        text = " ".join(str(error).split())  # one line, whatever a value held
        return text if len(text) <= 200 else text[:197] + "..."
    return f"must be {_must(kind, err.get('ctx') or {})}, not {shown(given)}"


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
        raise RecordError("", "not a record: nested too deeply to read") from None


def _validate_at(model: type[BaseModel], data: Any, prefix: str) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        raise RecordError(join(prefix, _where(err)), _message(err)) from None
