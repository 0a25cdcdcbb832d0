"""Records read from a foreign log (``check --from FORMAT``) or a page link, as sources.

An importer turns each game of a source into a record (or the one line saying why it
cannot); here each becomes a :class:`~adjudicator.bulk.Source` holding the record's
JSON text, named ``FILE#gameId``, so that the rest of a check (``--jobs``, ``--dask``,
``--write-*``, the summary) runs on it as on any record read from a file.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from adjudicator import importers
from adjudicator.bulk import Found, Source
from adjudicator.i18n import _
from adjudicator.importers.base import ImportOptions
from adjudicator.limits import printable


def record_text(record: dict[str, Any]) -> str:
    """A converted record as the JSON text a check reads (and ``--write-*`` writes)."""
    return json.dumps(record, ensure_ascii=False)


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
        yielded = False
        for game in importers.read(format_name, path, options):
            yielded = True
            if game.record is not None:
                kept = game.replayed if replayed else None
                yield Source(game.name, text=record_text(game.record), replayed=kept)
            else:
                yield Source(game.name, error=game.error or _("not converted"))
        if not yielded and found is not None:
            found.empty.append(f"{printable(path)}: " + _("no game found"))
