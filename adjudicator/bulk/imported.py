"""Records read from a foreign log (``check --from FORMAT``) or a page link, as sources.

An importer turns each game of a source into a record (or the one line saying why it
cannot); here each becomes a :class:`~adjudicator.bulk.Source` holding the record's
JSON text, named ``FILE#gameId``, so that the rest of a check (``--jobs``, ``--dask``,
``--write-*``, the summary) runs on it as on any record read from a file.  A folder of
logs is walked as a folder of records is (:func:`~adjudicator.bulk.record_files`: every
``*.json`` below it, in path order), for ``check --from`` and ``import`` alike.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Iterator

from adjudicator import importers
from adjudicator.bulk import STDIN, Found, Source, nothing_found, record_files, record_text
from adjudicator.i18n import _
from adjudicator.importers.base import ImportOptions
from adjudicator.limits import MAX_RECORD_SIZE, printable


def games(
    format_name: str, path: str, options: ImportOptions, skipped: Counter[str]
) -> Iterator[importers.Imported]:
    """Every game of ``path`` read as ``format_name``: a file (or ``-``), or every
    ``*.json`` below a folder, in the order and with the skips of a folder of records
    (counted in ``skipped``); a folder that cannot be read is one game's error."""
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


def as_sources(read: Iterable[importers.Imported], replayed: bool = False) -> Iterator[Source]:
    """Each game read as the source a check takes: its record's text, or its error."""
    for game in read:
        if game.record is not None and replayed:  # checked here: the record itself
            yield Source(game.name, replayed=game.replayed, record=game.record)
        elif game.record is not None:
            yield Source(game.name, text=record_text(game.record))
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
