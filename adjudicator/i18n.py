"""The table's language: which one speaks, and its words from the message catalogues.

English is the source language: the code's own strings, marked with ``_()`` and
``ngettext()`` and extracted by ``pybabel extract`` (docs/translating.md).  Swedish,
Finnish and Norwegian Bokmål are catalogues in ``adjudicator/locale/LANG/LC_MESSAGES``.

The core runs in the browser too (Pyodide), so this module is the standard library
only: :mod:`gettext` reads the compiled ``.mo`` catalogues the build writes.  A
checkout that was never built (or a bundle of the sources) has only the ``.po`` files:
they are compiled here in memory on first use, by the same small compiler the build
uses (:func:`compile_po`), rather than written next to the sources, which may be
read-only (site-packages, the browser's file system).

The language is a context variable: a command sets it once, the web server per
request.  Violation messages are built when first read (``Violation.later``), so the
lookup costs nothing in the replay loop.
"""

from __future__ import annotations

import ast
import gettext
import io
import struct
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from adjudicator.exceptions import AdjudicatorError

SOURCE = "en"
LANGUAGES: dict[str, str] = {
    "en": "English",
    "sv": "svenska",
    "fi": "suomi",
    "nb": "norsk bokmål",
}
"""The languages there are, each with its own name for itself (the page's chooser)."""

ALIASES = {"no": "nb", "nn": "nb", "se": "sv", "swe": "sv", "fin": "fi", "nob": "nb"}
"""Tags that mean one of ours: Norwegian without a written form (``no``) and Nynorsk read
Bokmål better than English; ``se`` and the three-letter codes are common slips."""

DOMAIN = "adjudicator"
"""The catalogue of the Python side (rulings, narration, the command line)."""

PAGE_DOMAIN = "page"
"""The catalogue of the page's own strings (web/static), served as JSON."""

LOCALE_DIR = Path(__file__).parent / "locale"

_language: ContextVar[str] = ContextVar("adjudicator_language", default=SOURCE)
_loaded: dict[tuple[str, str], gettext.NullTranslations] = {}


class UnknownLanguage(AdjudicatorError, ValueError):
    """A language asked for by name that has no catalogue: one line listing those there are,
    and the other tags read as one of them (:data:`ALIASES`).  English: the language is
    what is being chosen."""

    def __init__(self, asked: str) -> None:
        there = ", ".join(f"{code} ({name})" for code, name in LANGUAGES.items())
        by_code: dict[str, list[str]] = {}
        for alias, code in ALIASES.items():
            by_code.setdefault(code, []).append(alias)
        also = ", ".join(
            f"{', '.join(aliases[:-1])} or {aliases[-1]} for {code}"
            if len(aliases) > 1
            else f"{aliases[0]} for {code}"
            for code, aliases in by_code.items()
        )
        super().__init__(
            f"unknown language {asked[:40]!r}: the languages are {there}; also read as one of "
            f"them: {also}, and a region or encoding after the code (sv-SE, sv_SE.UTF-8)"
        )


def known(tag: str) -> str | None:
    """Our code for a language tag (``sv``, ``sv-SE``, ``sv_SE.UTF-8``, ``no``), else None."""
    base = tag.strip().split(".")[0].split("@")[0].replace("_", "-").split("-")[0].lower()
    base = ALIASES.get(base, base)
    return base if base in LANGUAGES else None


def choose(tag: str) -> str:
    """The language asked for by name (``--lang``, ``?lang=``); unknown ones are refused."""
    code = known(tag)
    if code is None:
        raise UnknownLanguage(tag)
    return code


def from_environment(environ: Mapping[str, str]) -> str:
    """``ADJUDICATOR_LANG`` (refused if unknown), else the locale (``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``, the first set one), else English.  A locale in another language is no
    mistake: it falls back to English."""
    asked = environ.get("ADJUDICATOR_LANG", "").strip()
    if asked:
        return choose(asked)
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "").strip()
        if value:
            return known(value) or SOURCE
    return SOURCE


def from_accept_language(header: str | None) -> str:
    """The best of ours in an HTTP ``Accept-Language`` header (by q-value), else English."""
    if not header:
        return SOURCE
    ranked: list[tuple[float, int, str]] = []
    for position, part in enumerate(header.split(",")):
        tag, _semi, params = part.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        code = known(tag) if tag and tag != "*" else None
        if code is not None and weight > 0:
            ranked.append((-weight, position, code))
    return min(ranked)[2] if ranked else SOURCE


def language() -> str:
    """The language speaking now."""
    return _language.get()


def use(code: str) -> None:
    """Speak ``code`` from now on, in this context (a command's whole run)."""
    _language.set(choose(code))


@contextmanager
def speaking(code: str) -> Iterator[None]:
    """Speak ``code`` inside the block (a web request), then what spoke before."""
    token = _language.set(choose(code))
    try:
        yield
    finally:
        _language.reset(token)


def translations(code: str, domain: str = DOMAIN) -> gettext.NullTranslations:
    """The catalogue of ``code`` (English: the source strings themselves), loaded once."""
    key = (code, domain)
    found = _loaded.get(key)
    if found is not None:
        return found
    out: gettext.NullTranslations = gettext.NullTranslations()
    if code != SOURCE:
        folder = LOCALE_DIR / code / "LC_MESSAGES"
        mo = folder / f"{domain}.mo"
        po = folder / f"{domain}.po"
        if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
            with mo.open("rb") as stream:
                out = gettext.GNUTranslations(stream)
        elif po.exists():
            out = gettext.GNUTranslations(io.BytesIO(compile_po(po.read_text("utf-8"))))
    _loaded[key] = out
    return out


def _(message: str) -> str:
    """``message`` in the language speaking now."""
    return translations(_language.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for ``n`` by the language's own plural rule (Finnish is not English)."""
    return translations(_language.get()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in a context that tells two uses of one English word apart."""
    return translations(_language.get()).pgettext(context, message)


GROUPING: dict[str, str] = {"en": ",", "sv": "\u00a0", "fi": "\u00a0", "nb": "\u00a0"}
"""The thousands separator of each language (CLDR): English a comma; Swedish, Finnish and
Norwegian a no-break space, so that ``1 000`` never breaks across a line."""


def number(count: int, grouped_in_english: bool = True) -> str:
    """A whole number as the language speaking writes it for a person: ``1,000`` in
    English, ``1 000`` (with a no-break space) in Swedish, Finnish and Norwegian.
    The standard library's ``format(count, ",")`` with the separator of the language.

    ``grouped_in_english=False`` where English has always written ``1000`` (the closing
    table of a bulk check): English stays as it was, the other languages group."""
    separator = GROUPING.get(_language.get(), ",")
    if separator == ",":
        return f"{count:,}" if grouped_in_english else str(count)
    return f"{count:,}".replace(",", separator)


def N_(message: str) -> str:
    """Mark a string for the catalogue that is translated later, where it is shown."""
    return message


def page_catalogue(code: str) -> dict[str, str | list[str]]:
    """The page's strings in ``code``: English -> translation, a plural's singular -> its
    forms (``{}`` for English: the page's own text is English)."""
    choose(code)
    if code == SOURCE:
        return {}
    po = LOCALE_DIR / code / "LC_MESSAGES" / f"{PAGE_DOMAIN}.po"
    out: dict[str, str | list[str]] = {}
    for entry in read_po(po.read_text("utf-8")):
        if entry.msgid and all(entry.msgstr) and entry.msgstr and not entry.fuzzy:
            out[entry.msgid] = entry.msgstr[0] if entry.msgid_plural is None else entry.msgstr
    return out


# --- the catalogues' files ---------------------------------------------------------------


class Entry:
    """One message of a ``.po`` file."""

    __slots__ = ("context", "flags", "msgid", "msgid_plural", "msgstr")

    def __init__(self) -> None:
        self.context: str | None = None
        self.msgid = ""
        self.msgid_plural: str | None = None
        self.msgstr: list[str] = []
        self.flags: set[str] = set()

    @property
    def fuzzy(self) -> bool:
        """A translation a tool guessed and nobody checked: not used."""
        return "fuzzy" in self.flags


def read_po(text: str) -> list[Entry]:
    """The messages of a ``.po`` file (obsolete ``#~`` entries left out)."""
    entries: list[Entry] = []
    entry = Entry()
    field: str | None = None
    started = False

    def finish() -> None:
        nonlocal entry, started
        if started:
            entries.append(entry)
        entry = Entry()
        started = False

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if field is not None and started and not line.startswith("#~"):
                finish()
                field = None
            if line.startswith("#,"):
                entry.flags.update(f.strip() for f in line[2:].split(","))
            continue
        keyword, _space, rest = line.partition(" ")
        if line.startswith('"'):
            keyword, rest = "", line
        if (keyword in ("msgctxt", "msgid") and field in ("msgstr", "msgid_plural")) or (
            keyword == "msgctxt" and field == "msgid"
        ):
            finish()
        try:
            value = ast.literal_eval(rest.strip())
        except (SyntaxError, ValueError) as exc:
            raise ValueError(f"line {number}: not a quoted string: {raw!r}") from exc
        if not isinstance(value, str):
            raise ValueError(f"line {number}: not a quoted string: {raw!r}")
        if keyword == "":
            if field is None:
                raise ValueError(f"line {number}: a string with no keyword before it")
        elif keyword == "msgctxt":
            field, entry.context = "msgctxt", ""
        elif keyword == "msgid":
            field = "msgid"
        elif keyword == "msgid_plural":
            field, entry.msgid_plural = "msgid_plural", ""
        elif keyword == "msgstr" or keyword.startswith("msgstr["):
            field = "msgstr"
            entry.msgstr.append("")
        else:
            raise ValueError(f"line {number}: unknown keyword {keyword!r}")
        started = True
        if field == "msgctxt":
            entry.context = (entry.context or "") + value
        elif field == "msgid":
            entry.msgid += value
        elif field == "msgid_plural":
            entry.msgid_plural = (entry.msgid_plural or "") + value
        else:
            entry.msgstr[-1] += value
    finish()
    return entries


def compile_po(text: str) -> bytes:
    """A ``.po`` file's text as a ``.mo`` catalogue (GNU format), fuzzy entries left out."""
    pairs: dict[bytes, bytes] = {}
    for entry in read_po(text):
        if entry.fuzzy and entry.msgid:
            continue
        if not entry.msgid:  # the header: always kept, it names the plural rule
            key = b""
        else:
            key = entry.msgid.encode()
            if entry.msgid_plural is not None:
                key += b"\0" + entry.msgid_plural.encode()
            if entry.context is not None:
                key = entry.context.encode() + b"\x04" + key
        if not any(entry.msgstr):
            continue
        pairs[key] = "\0".join(entry.msgstr).encode()
    keys = sorted(pairs)
    ids = strs = b""
    offsets: list[tuple[int, int, int, int]] = []
    for key in keys:
        offsets.append((len(ids), len(key), len(strs), len(pairs[key])))
        ids += key + b"\0"
        strs += pairs[key] + b"\0"
    start = 7 * 4 + 16 * len(keys)
    key_table: list[int] = []
    value_table: list[int] = []
    for id_at, id_len, str_at, str_len in offsets:
        key_table += [id_len, start + id_at]
        value_table += [str_len, start + len(ids) + str_at]
    header = struct.pack("Iiiiiii", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + len(keys) * 8, 0, 0)
    body = struct.pack(f"{len(key_table)}i", *key_table)
    body += struct.pack(f"{len(value_table)}i", *value_table)
    return header + body + ids + strs


def compile_all(root: Path = LOCALE_DIR) -> list[Path]:
    """Write the ``.mo`` beside every ``.po`` under ``root`` (the build calls this)."""
    written: list[Path] = []
    for po in sorted(root.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        mo.write_bytes(compile_po(po.read_text("utf-8")))
        written.append(mo)
    return written
