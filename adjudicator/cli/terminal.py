"""Any terminal: what its encoding cannot show is replaced, never a traceback.

The rulings are written with ``✗``, ``·`` and the suits ``♠ ♥ ♦ ♣``; a terminal in
ASCII (``PYTHONIOENCODING=ascii``) or Latin-1 (``sv_SE.ISO-8859-1``) cannot show them,
and Python's strict encoder ended the run with a ``UnicodeEncodeError`` (exit status 1,
which means "illegal").  Standard output and error are given an error handler instead
(:data:`HANDLER`) that writes each such character as the nearest thing the encoding
has: ``✗`` as ``x``, ``♠`` as ``S``, ``·`` as ``-``, ``å`` as ``a`` in ASCII (its letter
without the accent), and ``?`` for the rest.  JSON stays JSON: where standard output is
not UTF-8, every character past ASCII is written as its ``\\uXXXX`` escape (the same
JSON value, read back the same), never replaced.
"""

from __future__ import annotations

import codecs
import io
import re
import sys
import unicodedata
from typing import Any

HANDLER = "adjudicator.nearest"
"""The name of the error handler, as ``str.encode(..., errors=HANDLER)`` takes it."""

NEAREST = {
    "✗": "x",
    "✓": "v",
    "♠": "S",
    "♥": "H",
    "♦": "D",
    "♣": "C",
    "♤": "S",
    "♡": "H",
    "♢": "D",
    "♧": "C",
    "·": "-",
    "•": "*",
    "▶": ">",
    "◀": "<",
    "→": "->",
    "←": "<-",
    "…": "...",
    "—": "-",
    "–": "-",
    "−": "-",
    "‘": "'",
    "’": "'",
    "‚": "'",
    "“": '"',
    "”": '"',
    "„": '"',
    "«": '"',
    "»": '"',
    "×": "x",
    "≤": "<=",
    "≥": ">=",
    "≠": "!=",
    "\u00a0": " ",
    "\u202f": " ",
    "\u2009": " ",
    "ß": "ss",
    "æ": "ae",
    "Æ": "AE",
    "ø": "o",
    "Ø": "O",
    "đ": "d",
    "Đ": "D",
    "ł": "l",
    "Ł": "L",
}
"""Characters of the tool's own output with the nearest ASCII for them; any other is its
letter without accents (NFKD), else ``?``."""


def nearest(char: str, encoding: str) -> str:
    """``char`` as ``encoding`` can write it: itself, its :data:`NEAREST`, its letters
    without accents, else ``?``."""
    for candidate in (char, NEAREST.get(char), _unaccented(char)):
        if candidate and _fits(candidate, encoding):
            return candidate
    return "?"


def _unaccented(char: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))


def _fits(text: str, encoding: str) -> bool:
    try:
        text.encode(encoding)
    except (UnicodeError, LookupError):
        return False
    return True


def _replace(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    said = "".join(nearest(c, exc.encoding) for c in exc.object[exc.start : exc.end])
    return said, exc.end


codecs.register_error(HANDLER, _replace)


def is_utf8(stream: Any) -> bool:
    """Whether ``stream`` writes UTF-8 (or cannot say: then it is taken to)."""
    encoding = getattr(stream, "encoding", None)
    if not isinstance(encoding, str):
        return True
    try:
        return codecs.lookup(encoding).name.startswith("utf")
    except LookupError:
        return True


def fit(stream: Any) -> None:
    """Give a text stream that is not UTF-8 the :data:`HANDLER`: a character it cannot
    write becomes the nearest it can, not a traceback."""
    if isinstance(stream, io.TextIOWrapper) and not is_utf8(stream):
        stream.reconfigure(errors=HANDLER)


def fit_standard_streams() -> None:
    """:func:`fit` standard output and standard error, once, before anything is written."""
    fit(sys.stdout)
    fit(sys.stderr)


_PAST_ASCII = re.compile(r"[^\x00-\x7f]")


def _escape(found: re.Match[str]) -> str:
    code = ord(found.group())
    if code > 0xFFFF:  # JSON writes a character past the BMP as its two surrogates
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def json_text(text: str, stream: Any = None) -> str:
    """JSON text as ``stream`` (standard output) can carry it: as it is in UTF-8, else
    every character past ASCII as its escape.  Outside its strings JSON is ASCII, so the
    escapes change no value."""
    if is_utf8(sys.stdout if stream is None else stream):
        return text
    return _PAST_ASCII.sub(_escape, text)
