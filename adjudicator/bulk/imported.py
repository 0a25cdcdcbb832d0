"""Records read from a foreign log (``check --from FORMAT``) or a page link, as sources.

An importer turns each game of a source into a record (or the one line saying why it
cannot); here each becomes a :class:`~adjudicator.bulk.Source` holding the record's
JSON text, named ``FILE#gameId``, so that the rest of a check (``--jobs``, ``--dask``,
``--write-*``, the summary) runs on it as on any record read from a file.  A folder of
logs is walked as a folder of records is (:func:`~adjudicator.bulk.record_files`: every
``*.json`` below it, in path order), for ``check --from`` and ``import`` alike.
"""

from __future__ import annotations

import dataclasses
import os
from collections import Counter
from collections.abc import Iterable, Iterator

from adjudicator import importers
from adjudicator.bulk import (
    STDIN,
    Found,
    Source,
    nothing_found,
    one_record,
    record_files,
    record_text,
)
from adjudicator.i18n import _, ngettext
from adjudicator.importers import albined_db, goat_events
from adjudicator.importers.base import ImportOptions
from adjudicator.importers.link import looks_like_link
from adjudicator.invalid import RecordError, cut
from adjudicator.limits import MAX_RECORD_SIZE, printable


def games(
    format_name: str, path: str, options: ImportOptions, skipped: Counter[str]
) -> Iterator[importers.Imported]:
    """Every game of ``path`` read as ``format_name``: a file (or ``-``), or every
    ``*.json`` below a folder, in the order and with the skips of a folder of records
    (counted in ``skipped``); a folder that cannot be read is one game's error."""
    parts = split_name(path)
    if parts is not None:  # one game of a file: FILE#gameId, FILE:LINE
        yield one_game(format_name, *parts, options)
        return
    if path == STDIN or not os.path.isdir(path):
        yield from importers.read(format_name, path, options)
        return
    for file in record_files(path, skipped):
        if file.error is not None:
            yield importers.Imported(printable(file.file), error=file.error)
        else:
            yield from importers.read(format_name, file.file, options)


def no_game(path: str, skipped: Counter[str]) -> str:
    """The line for a source that held no game: a folder says what it skipped."""
    if path != STDIN and os.path.isdir(path):
        return nothing_found(path, skipped)
    return f"{printable(path)}: " + _("no game found")


def imported_sources(
    format_name: str,
    paths: Iterable[str],
    options: ImportOptions,
    found: Found | None = None,
    replayed: bool = False,
) -> Iterator[Source]:
    """Every game of ``paths`` read as ``format_name``, in order; a game that cannot be
    converted is a source holding its error.  A path that yields no game is noted in
    ``found.empty``.  With ``replayed``, a source keeps the table the importer replayed
    its actions on, where it has one, for the check here to read its verdict off (in
    this process only: a worker is sent the record's text)."""
    for path in paths:
        skipped: Counter[str] = Counter()
        yielded = False
        for source in as_sources(games(format_name, path, options, skipped), replayed):
            yielded = True
            yield source
        if not yielded and found is not None:
            found.empty.append(no_game(path, skipped))


def record_line(file: str, line: int, max_size: int = MAX_RECORD_SIZE) -> Source:
    """The record on line ``line`` of ``file`` (``FILE:LINE``, as ``check`` names it)."""
    try:
        _label, text = one_record(f"{file}:{line}", max_size)
    except RecordError as exc:
        return Source(file, line, error=str(exc))
    return Source(file, line, text)


def as_sources(read: Iterable[importers.Imported], replayed: bool = False) -> Iterator[Source]:
    """Each game read as the source a check takes: its record's text, or its error."""
    for game in read:
        if game.record is not None and replayed:  # checked here: the record itself
            yield Source(game.name, replayed=game.replayed, record=game.record, places=game.places)
        elif game.record is not None:
            yield Source(game.name, text=record_text(game.record), places=game.places)
        else:
            yield Source(game.name, error=game.error or _("not converted"))


def log_games(
    source: Source,
    options: ImportOptions,
    found: Found | None = None,
    max_size: int = MAX_RECORD_SIZE,
) -> Iterator[Source] | None:
    """The games of ``source`` when the importers tell it for an app's log, else None (a
    record): a file, named or found in a folder (:func:`importers.detect_file`), or
    standard input's text, read whole within the size limit (:func:`importers.detect`).
    ``check`` without ``--from`` asks this of every one (:func:`bulk.sources`' ``tell``)."""
    parts = split_name(source.file) if source.text is None and source.line is None else None
    if parts is not None:  # FILE#gameId, FILE:LINE: one game (or record) as check names it
        named = told_game(*parts, options)
        if named is None:  # a record's line of JSON Lines
            return iter([record_line(parts[0], parts[2] or 0, max_size)])
        return as_sources([named])
    if source.text is None and source.line is None:
        told = importers.detect_file(source.file, max_size)
        if told is None:
            return None
        return imported_sources(told, [source.file], options, found)
    if source.file == STDIN and source.text is not None:
        told = importers.detect(source.text)
        if told is None:
            return None
        content = source.text.encode("utf-8")
        return as_sources(importers.read_content(told, content, source.label, options))
    return None


# --- one game named: FILE#gameId, FILE:LINE -----------------------------------------

LISTED = 5
"""Games a line names when the one asked for is not there (then "and N more")."""
BROKEN_LISTED = 3
"""Entries that could not be read named in that line (then "…")."""


def split_name(arg: str) -> tuple[str, str | None, int | None] | None:
    """``(FILE, gameId, None)`` for ``FILE#gameId`` and ``(FILE, None, LINE)`` for
    ``FILE:LINE``, the names ``check`` gives the games and records of a file, when ``arg``
    is no file itself but ``FILE`` is; None for anything else (a path as it is, ``-``,
    a link), which is read as it is."""
    if arg == STDIN or os.path.lexists(arg) or looks_like_link(arg):
        return None
    head, sep, game = arg.rpartition("#")
    if sep and head and game and "/" not in game and os.sep not in game and os.path.lexists(head):
        return head, game, None  # a '#' in a folder's name is no game id
    head, sep, tail = arg.rpartition(":")
    if sep and head != STDIN and tail.isascii() and tail.isdigit() and os.path.lexists(head):
        return head, None, int(tail)
    return None


def one_game(
    format_name: str,
    file: str,
    game: str | None,
    line: int | None,
    options: ImportOptions,
) -> importers.Imported:
    """The one game of ``file`` read as ``format_name``: the game whose id is ``game``,
    the game on line ``line``, or with neither the file's only game.  Named as ``check``
    names it, holding its record or the one line saying why there is none: a name that
    matches no game says which games there are, and an entry that could not be read (a
    line cut short) is said as such, never offered as a game to name."""
    if line is not None:
        return game_on_line(format_name, file, line, options)
    if game is None:
        return the_only(list(importers.read(format_name, file, options)), file)
    wanted = _names(file, f"#{game}")
    matches = [
        one
        for one in importers.read(format_name, file, _with_game(options, game))
        if one.name in wanted
    ]
    if len(matches) > 1:
        said = _(
            "{name} names {count} games (the log repeats the id): name one by its line, {file}:LINE"
        )
        return importers.Imported(
            matches[0].name,
            error=said.format(name=matches[0].name, count=len(matches), file=printable(file)),
        )
    if matches and matches[0].record is not None:
        return matches[0]
    # Not converted, or not there: the whole file says which (an error path only).
    missing = _("no game {game} in {name}").format(game=repr(cut(game, 80)), name=printable(file))
    every = importers.read(format_name, file, _with_game(options, None))
    return _the_named(every, file, wanted, f"{printable(file)}#{game}", missing)


def game_on_line(
    format_name: str, file: str, line: int, options: ImportOptions
) -> importers.Imported:
    """The game on line ``line`` of ``file`` read as ``format_name``: a Goat app log's
    line is read alone (one message, one game); a format read whole (a file of links, a
    plug-in's) names its games by line itself, or says which games there are."""
    name = f"{printable(file)}:{line}"
    if format_name == goat_events.NAME:
        found = _line_game(format_name, file, line, options)
        assert found is not None
        return found
    missing = _("no game on line {line} of {name}").format(line=line, name=printable(file))
    every = importers.read(format_name, file, _with_game(options, None))
    return _the_named(every, file, _names(file, f":{line}"), name, missing)


def told_game(
    file: str, game: str | None, line: int | None, options: ImportOptions
) -> importers.Imported | None:
    """:func:`one_game` for a name given without ``--from``: the format told by the file's
    content (:func:`importers.detect_file`), or for ``FILE:LINE`` by that line's text.
    None when the line holds no app's log: a record, read as the line of JSON Lines it is."""
    told = importers.detect_file(file, options.max_size)
    if line is not None and told != albined_db.NAME:
        return _line_game(None, file, line, options)
    if told is None:
        said = _("{name} is no app's log but a record: name it {name}, without #{game}")
        return importers.Imported(
            f"{printable(file)}#{game}", error=said.format(name=printable(file), game=game)
        )
    return one_game(told, file, game, line, options)


def _line_game(
    format_name: str | None, file: str, line: int, options: ImportOptions
) -> importers.Imported | None:
    """The game on one line of a text read line by line (JSON Lines of logs): the line
    read as a record's line is (the size cap, lines counted from 1), then converted by
    ``format_name`` or the format its text has.  None when it has none (a record)."""
    name = f"{printable(file)}:{line}"
    try:
        _label, text = one_record(f"{file}:{line}", options.max_size)
    except RecordError as exc:
        return importers.Imported(name, error=str(exc))
    told = format_name or importers.detect(text)
    if told is None:
        return None
    read = importers.read_content(told, text.encode("utf-8"), printable(file), options)
    return the_only([_on_line(one, file, line) for one in read], name)


def _on_line(one: importers.Imported, file: str, line: int) -> importers.Imported:
    """A game read from one line, named as ``check`` names it: ``FILE#gameId``, or
    ``FILE:LINE`` when the log gives no id."""
    if _has_id(one.name, file):
        return one
    return dataclasses.replace(one, name=f"{printable(file)}:{line}")


def the_only(games: list[importers.Imported], source: str) -> importers.Imported:
    """The one game of ``games`` (all read from ``source``), or the line saying why there
    is not one: several are named for choosing (``name one as FILE#g1``), and what could
    not be read is said apart, never offered as a game."""
    named = [one for one in games if _is_game(one, source)]
    broken = [one for one in games if not _is_game(one, source)]
    if len(named) == 1 and not broken:
        return named[0]
    if not named and len(broken) == 1:
        return broken[0]
    shown = printable(source)
    if not named and not broken:
        return importers.Imported(shown, error=_("no game found"))
    if not named:
        said = _("{name} holds no game that could be read").format(name=shown)
    elif len(named) == 1:
        said = _("{name} holds one game: name it as {example}").format(
            name=shown, example=named[0].name
        )
    else:
        said = _("{name} holds {count} games: name one as {example}").format(
            name=shown, count=len(named), example=named[0].name
        )
    return importers.Imported(shown, error=said + _not_games(broken))


def _the_named(
    every: Iterable[importers.Imported],
    file: str,
    wanted: set[str],
    name: str,
    missing: str,
) -> importers.Imported:
    """The game named ``name`` (any of ``wanted``) among ``every`` read from ``file``, or
    ``missing`` and the games there are, as they can be typed back."""
    games: list[str] = []
    broken: list[importers.Imported] = []
    for one in every:
        if one.name in wanted:
            return one
        if _is_game(one, file):
            games.append(one.name)
        else:
            broken.append(one)
    if not games and len(broken) == 1 and broken[0].name in _names(file, ""):
        return importers.Imported(name, error=broken[0].error)  # the file itself is unreadable
    if games:
        listed = ", ".join(games[:LISTED])
        if len(games) > LISTED:
            listed += ", " + _("and {count} more").format(count=len(games) - LISTED)
        said = missing + "; " + _("its games: {names}").format(names=listed)
    else:
        said = missing + "; " + _("it holds no game that could be read")
    return importers.Imported(name, error=said + _not_games(broken))


def _not_games(broken: list[importers.Imported]) -> str:
    """``; FILE:4 could not be read, and is no game to name`` for what was no game."""
    if not broken:
        return ""
    names = ", ".join(one.name for one in broken[:BROKEN_LISTED])
    if len(broken) > BROKEN_LISTED:
        names += ", …"
    return "; " + ngettext(
        "{names} could not be read, and is no game to name",
        "{names} could not be read, and are no games to name",
        len(broken),
    ).format(names=names)


def _names(file: str, suffix: str) -> set[str]:
    """The ways an importer may have named ``file`` + ``suffix`` (as given, or escaped)."""
    return {f"{file}{suffix}", f"{printable(file)}{suffix}"}


def _has_id(name: str, file: str) -> bool:
    return any(name.startswith(f"{shown}#") for shown in (file, printable(file)))


def _is_game(one: importers.Imported, file: str) -> bool:
    """Whether an entry read is a game one can name: converted, or named by its id (its
    error is then the game's); an entry without either is a line that could not be read."""
    return one.record is not None or _has_id(one.name, file)


def _with_game(options: ImportOptions, game: str | None) -> ImportOptions:
    return dataclasses.replace(options, game=game)
