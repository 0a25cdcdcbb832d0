"""Invalid records: :class:`RecordError`, one printable line naming the place.

pydantic's errors and the notation's own are turned into the same form here:
``actions[12].cards[0]: 'ZZ' is not a card``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import BaseModel, ValidationError


class RecordError(ValueError):
    """A record that cannot be read as the format: ``path: message``.

    Raised inside a pydantic validator, its ``path`` is taken as relative to
    the field (``[3]`` or ``.to.Anna[0]``), so the whole path names the place.
    """

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        self.message = message
        super().__init__(f"{path}: {message}" if path else message)


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
        error = err["ctx"]["error"]
        return error.message if isinstance(error, RecordError) else str(error)
    text = err["msg"]
    return text[0].lower() + text[1:] + (f", not {_shown(given)}" if given is not None else "")


def _where(err: dict[str, Any]) -> str:
    """The place of a pydantic error, with the notation's own path inside the field."""
    where = _path(err["loc"])
    error = err.get("ctx", {}).get("error") if err["type"] == "value_error" else None
    return join(where, error.path) if isinstance(error, RecordError) else where


def _shown(value: Any) -> str:
    """A value from the record, for a message: its repr, cut short."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


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
