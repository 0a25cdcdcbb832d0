"""Records from where games are played: the importers of foreign logs, and the registry.

A format is a module with ``NAME``, ``TITLE`` and ``read(source, options)`` (see
:mod:`adjudicator.importers.base`); it may add ``explain(options) -> str``, what
``import --explain`` prints.  The built-in ones are listed in :data:`BUILT_IN`; an
installed package adds its own through the entry-point group ``adjudicator.importers``
(``myapp = "myapp.goat_log"``, the module or any object with the same three names).
A plug-in that fails to load is one line naming it, never a traceback, and the other
formats stay usable.
"""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import metadata
from typing import Any, BinaryIO

from adjudicator.exceptions import AdjudicatorError
from adjudicator.i18n import _
from adjudicator.importers import albined_db, goat_events, link, sqlite_wal
from adjudicator.importers.base import Imported, ImportOptions
from adjudicator.invalid import cut
from adjudicator.limits import MAX_RECORD_SIZE, too_big

__all__ = [
    "BUILT_IN",
    "ENTRY_POINTS",
    "Format",
    "ImportOptions",
    "Imported",
    "UnknownFormat",
    "detect",
    "detect_file",
    "find",
    "formats",
    "read",
    "read_content",
]

BUILT_IN: tuple[str, ...] = (
    "adjudicator.importers.albined_db",
    "adjudicator.importers.goat_events",
    "adjudicator.importers.link",
)
"""The formats that come with the package, by module (one line a format)."""

ENTRY_POINTS = "adjudicator.importers"
"""The entry-point group a package names its formats in."""

Reader = Callable[[str, ImportOptions], Iterator[Imported]]


@dataclass(frozen=True)
class Format:
    """One format as ``import --list`` shows it: its name, its line, where it comes from
    (``built in``, or the distribution that installed it), and why it cannot be used."""

    name: str
    title: str
    origin: str
    reader: Reader | None = None
    explain: Callable[[ImportOptions], str] | None = None
    problem: str | None = None
    built_in: bool = False


class UnknownFormat(AdjudicatorError, LookupError):
    """A format name nothing installed answers to, or a plug-in that did not load."""


def _format(thing: Any, origin: str, built_in: bool = False) -> Format:
    name, title, reader = thing.NAME, thing.TITLE, thing.read
    if not isinstance(name, str) or not isinstance(title, str) or not callable(reader):
        raise TypeError("NAME, TITLE and read are a str, a str and a function")
    explain = getattr(thing, "explain", None)
    return Format(
        name, _(title), origin, reader, explain if callable(explain) else None, built_in=built_in
    )


def _plug_ins() -> Iterator[Format]:
    try:
        found = metadata.entry_points(group=ENTRY_POINTS)
    except Exception:  # a broken installation's metadata: no plug-ins, not a traceback
        return
    for point in sorted(found, key=lambda p: p.name):
        origin = getattr(getattr(point, "dist", None), "name", None) or point.value
        try:
            loaded = _format(point.load(), origin)
        except Exception as exc:  # whatever a plug-in raises, it is one line
            why = cut(f"{type(exc).__name__}: {exc}".splitlines()[0], 160)
            problem = _("the plug-in importer {name} ({value}) did not load: {why}").format(
                name=point.name, value=point.value, why=why
            )
            yield Format(point.name, "", origin, problem=problem)
            continue
        if loaded.name != point.name:  # two names for one format: neither is guessed at
            problem = _(
                "the plug-in importer {name} ({value}) calls itself {called} (its NAME): "
                "the entry point's name and NAME must be the same"
            ).format(name=point.name, value=point.value, called=repr(cut(loaded.name, 40)))
            yield Format(point.name, "", origin, problem=problem)
            continue
        yield loaded


def formats() -> list[Format]:
    """Every format: the built-in ones, then the plug-ins by name.  A plug-in whose
    name a built-in format has is listed with its problem (the built-in one is used)."""
    listed = [_format(importlib.import_module(module), _("built in"), True) for module in BUILT_IN]
    names = {f.name for f in listed}
    for plug_in in _plug_ins():
        if plug_in.name in names and plug_in.problem is None:
            problem = _(
                "the plug-in importer {name} ({origin}) has the name of a built-in "
                "format: the built-in one is used"
            ).format(name=plug_in.name, origin=plug_in.origin)
            plug_in = Format(plug_in.name, plug_in.title, plug_in.origin, problem=problem)
        listed.append(plug_in)
    return listed


def find(name: str) -> Format:
    """The usable format called ``name``; UnknownFormat (one line) otherwise."""
    every = formats()
    for candidate in every:
        if candidate.name == name and candidate.reader is not None:
            return candidate
    for candidate in every:
        if candidate.name == name and candidate.problem is not None:
            raise UnknownFormat(candidate.problem)
    usable = ", ".join(f.name for f in every if f.reader is not None)
    raise UnknownFormat(
        _("no importer for the format {name} (installed: {names})").format(
            name=repr(cut(name, 40)), names=usable
        )
    )


def read(name: str, source: str, options: ImportOptions | None = None) -> Iterator[Imported]:
    """The games of ``source`` read as the format ``name``, one :class:`Imported` each.

    A plug-in that raises instead of yielding the game's error ends the source with one
    line naming the format; the games yielded before it stay.
    """
    found = find(name)
    assert found.reader is not None
    options = options if options is not None else ImportOptions()
    try:
        yield from found.reader(source, options)
    except Exception as exc:
        if found.built_in:
            raise
        why = cut(f"{type(exc).__name__}: {exc}".splitlines()[0], 160)
        yield Imported(
            source,
            error=_("the importer {name} failed: {why}").format(name=found.name, why=why),
        )


DATABASE_SUFFIXES = (".db", ".sqlite", ".sqlite3")
"""The names a database file goes by: such a file that holds no JSON is taken for one, so
that what is wrong with it is said as a database's ("is not an SQLite database")."""


def detect(content: bytes | str, name: str | None = None) -> str | None:
    """The built-in format whose shape ``content`` has (a source's whole text, its bytes,
    or for a file its first line or bytes), or None: a record, or nothing known.
    ``name``, the file's, tells a database by its name when its content does not: a
    ``*.db`` (``*.sqlite``, ``*.sqlite3``) that is no JSON is no record either.

    The one place a format is told from what a source holds: ``check``, ``replay`` and
    ``legal`` without ``--from`` ask it of a file they are given, the page's Open record
    of what was pasted or picked.  A plug-in's format is named with ``--from``."""
    if isinstance(content, bytes) and albined_db.looks_like(content):
        return albined_db.NAME
    if name is not None and _named_database(name, content):
        return albined_db.NAME
    if isinstance(content, bytes):
        try:
            content = content.decode("utf-8")
        except UnicodeDecodeError:
            return None
    if link.looks_like_link(content):
        return link.NAME
    if goat_events.looks_like(content):
        return goat_events.NAME
    return None


def _named_database(name: str, content: bytes | str) -> bool:
    """Whether a file called ``name`` is taken for a database: its name says so and it
    does not begin as JSON does (a record or a log saved under such a name stays one)."""
    if not name.lower().endswith(DATABASE_SUFFIXES):
        return False
    lead = content.lstrip()[:1]
    return lead not in (b"{", b"[", "{", "[")


def detect_file(path: str, max_size: int = MAX_RECORD_SIZE) -> str | None:
    """:func:`detect` for a file named on the command line: its first bytes (an SQLite
    header), then its first line (a ``*.jsonl`` file) or its whole text, within
    ``max_size``.  None for what is no regular file (a folder, ``-``, a link), a file that
    cannot be read or is too large (the record reader says why), and any record."""
    if path == "-" or not os.path.isfile(path):
        return None
    try:
        with open(path, "rb") as stream:
            if os.fstat(stream.fileno()).st_size > max_size:
                return None  # the record reader says it is too large
            head = stream.read(len(albined_db.SQLITE_HEADER))
            if albined_db.looks_like(head) or _named_database(path, head):
                return albined_db.NAME
            lead = head.lstrip()[:1]
            if lead and lead not in (b"{", b"[", b"h", b"H"):
                return None  # neither JSON nor a link: the record reader says what it is
            # Read as far as the file goes, not 'read(max_size + 1)': a bounded read sets
            # aside the whole bound first (64 MB for every file of a folder checked).
            if path.lower().endswith(".jsonl"):
                return _told_by_lines(head + stream.readline(max_size + 1), stream, max_size)
            content = head + stream.read()
    except OSError:
        return None
    if len(content) > max_size:
        return None
    return detect(content)


TELL_LINES = 8
"""Lines of a JSON Lines file read to tell it, when the first ones are no JSON value."""


def _told_by_lines(first: bytes, stream: BinaryIO, max_size: int) -> str | None:
    """A JSON Lines file told by its first line that is a whole JSON value: a line cut
    short (or blank) before it says nothing of the file, so that one broken line does not
    make a log of games read as records.  At most :data:`TELL_LINES` lines are read."""
    line = first
    for _read in range(TELL_LINES):
        if not line or len(line) > max_size:
            return None
        if line.strip():
            told = detect(line)
            if told is not None or _whole_json(line):
                return told
        line = stream.readline(max_size + 1)
    return None


def _whole_json(line: bytes) -> bool:
    try:
        json.loads(line)
    except (ValueError, RecursionError):
        return False
    return True


def read_content(
    name: str,
    content: bytes,
    source: str,
    options: ImportOptions | None = None,
    log: tuple[str, bytes] | None = None,
) -> Iterator[Imported]:
    """The games of ``content``, a whole source's bytes (a file picked on the page, never
    written anywhere), read as the built-in format ``name``; ``source`` names them.
    ``log``, for a database, is its write-ahead log picked with it (name and bytes): its
    committed transactions are read too, as SQLite reads the file beside a database."""
    options = options if options is not None else ImportOptions()
    if name == albined_db.NAME:
        if log is not None and albined_db.looks_like(content):
            try:
                content = sqlite_wal.laid_over(content, log[1])
            except sqlite_wal.BadLog as bad:
                yield Imported(source, error=f"{log[0]}: {bad}")
                return
        yield from albined_db.read_bytes(content, source, options)
        return
    if len(content) > options.max_size:
        yield Imported(source, error=too_big(source, options.max_size))
        return
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        yield Imported(source, error=_("{name} is not UTF-8 text").format(name=source))
        return
    if name == goat_events.NAME:
        yield from goat_events.read_text(text, source, options)
    elif name == link.NAME:
        yield from link.read(text.strip(), options)
    else:
        raise UnknownFormat(
            _("no importer for the format {name} (installed: {names})").format(
                name=repr(cut(name, 40)),
                names=", ".join((albined_db.NAME, goat_events.NAME, link.NAME)),
            )
        )
