"""A whole check run: records found under the arguments, checked here or on a cluster.

Above :mod:`adjudicator.bulk` (local processes) and :mod:`adjudicator.bulk.cluster`
(Dask), which it chooses between; the command line's ``check`` calls it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from adjudicator.bulk import Checked, Found, Source, Tally, check_all, sources, workers
from adjudicator.bulk.imported import imported_sources, log_games
from adjudicator.exits import EXIT_ILLEGAL, EXIT_INVALID, EXIT_LEGAL
from adjudicator.importers.base import ImportOptions
from adjudicator.importers.link import looks_like_link
from adjudicator.limits import MAX_RECORD_SIZE


def check_paths(
    paths: Sequence[str],
    found: Found,
    *,
    jobs: int = 1,
    dask: str | None = None,
    keep_text: bool = False,
    as_json: bool = False,
    max_size: int = MAX_RECORD_SIZE,
    records: int | None = None,
    go_on: str | None = None,
    importing: tuple[str, ImportOptions] | None = None,
    logs: ImportOptions | None = None,
) -> Iterator[Checked]:
    """Check every record under ``paths`` in input order: on ``jobs`` local processes (0:
    one per core; never more than the cores, nor than ``records`` when known), or on the
    Dask cluster at ``dask`` (:class:`cluster.ClusterError` when there is none).
    ``found`` collects the arguments that held no record; a record over ``max_size``
    bytes is invalid.  ``go_on`` reads every unmarked illegal action as 'taken back' or
    'stands'.  With ``importing`` (a format and its options), each path is a foreign log
    whose games are converted first (``check --from``); without it, a file whose content
    is an app's log (:func:`importers.detect_file`) is read as that log, with ``logs``."""
    processes = workers(jobs, records)
    if importing is not None:  # checked here, a game's verdict is read off the import's replay
        here = dask is None and processes == 1
        items = imported_sources(importing[0], paths, importing[1], found, replayed=here)
    else:
        items = _told(paths, found, max_size, logs or ImportOptions(max_size=max_size))
    if dask is not None:
        from adjudicator.bulk import cluster

        return cluster.check_at(dask, items, keep_text=keep_text, max_size=max_size, go_on=go_on)
    return check_all(
        items,
        processes,
        keep_text=keep_text,
        as_json=as_json,
        max_size=max_size,
        go_on=go_on,
    )


def exit_status(tally: Tally, found: Found) -> int:
    """The status a check ends with, from its verdicts and the arguments that held none."""
    if tally.statuses["invalid"] or found.empty:
        return EXIT_INVALID
    return EXIT_ILLEGAL if tally.statuses["illegal"] else EXIT_LEGAL


def _told(
    paths: Sequence[str], found: Found, max_size: int, options: ImportOptions
) -> Iterator[Source]:
    """Each path's records in order: a file the importers tell for an app's log (named, in
    a folder, or standard input) is converted (as ``--from`` its format would), anything
    else read as records."""
    if any(looks_like_link(path) for path in paths):
        found.records = True  # a link carries a record

    def tell(source: Source) -> Iterator[Source] | None:
        games = log_games(source, options, found, max_size)
        if games is None:
            found.records = True
        return games

    return sources(paths, found, max_size, tell=tell)
