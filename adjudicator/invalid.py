""":class:`RecordError`, what every public function raises for input it cannot take,
and how an error quotes what it was given (:func:`shown`, :func:`cut`).

Among the values at the bottom of the layers, so that the cards, the presets and the
record layer raise one error class without importing one another.  Not a leaf: it
imports the error base (:mod:`adjudicator.exceptions`) and :mod:`adjudicator.i18n`, to
say its words in the language speaking.
"""

from __future__ import annotations

from itertools import islice
from typing import Any

from adjudicator.exceptions import AdjudicatorError
from adjudicator.i18n import _, number

MESSAGE_MAX = 300
"""Characters an error message may hold, whatever it quotes (a path, a key, a topic):
every error of the library, the command line and the web API is cut to this."""


def cut(text: str, limit: int = MESSAGE_MAX) -> str:
    """``text``, or its start and ``...`` when it is longer than ``limit`` characters."""
    return text if len(text) <= limit else text[: max(0, limit - 3)] + "..."


class RecordError(AdjudicatorError, ValueError):
    """A record that cannot be read as the format: ``path: message``, at most
    :data:`MESSAGE_MAX` characters.

    Raised inside a pydantic validator, its ``path`` is taken as relative to
    the field (``[3]`` or ``.to.Anna[0]``), so the whole path names the place.
    """

    def __init__(self, path: str, message: str) -> None:
        if path and len(path) + 2 + len(message) > MESSAGE_MAX:
            path = cut(path, MESSAGE_MAX // 2)
            message = cut(message, MESSAGE_MAX - len(path) - 2)
        elif not path:
            message = cut(message)
        self.path = path
        self.message = message
        super().__init__(f"{path}: {message}" if path else message)


class UnknownVariant(RecordError, KeyError):
    """A variant name no preset has.  A :class:`KeyError` too, as a failed lookup by name."""

    __str__ = ValueError.__str__  # the message as it is, not quoted as KeyError quotes keys


def shown(value: Any, depth: int = 0) -> str:
    """A value from the record, for a message: its repr, cut short, on one line.

    Built from a piece of the value only, so a megabyte string or a list of a
    million cards costs no more than a short one; an integer too long to write
    out (Python refuses more than 4,300 digits) is described, not written.
    """
    if isinstance(value, str):
        text = repr(value[:60])
    elif isinstance(value, bool) or value is None or isinstance(value, float):
        text = repr(value)
    elif isinstance(value, int):
        if value.bit_length() > 200:
            digits = int(value.bit_length() * 0.30103) + 1
            return _("an integer of about {count} digits").format(count=number(digits))
        text = repr(value)
    elif isinstance(value, (list, tuple)):
        if depth > 2:
            return "[...]"
        text = "[" + ", ".join(shown(item, depth + 1) for item in value[:8])
        text += ", ...]" if len(value) > 8 else "]"
    elif isinstance(value, dict):
        if depth > 2:
            return "{...}"
        pairs = islice(value.items(), 8)
        text = "{" + ", ".join(f"{shown(k, depth + 1)}: {shown(v, depth + 1)}" for k, v in pairs)
        text += ", ...}" if len(value) > 8 else "}"
    else:
        text = f"a {type(value).__name__}"
    return text if len(text) <= 60 else text[:57] + "..."
