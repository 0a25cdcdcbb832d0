"""Checking many records: files, folders and JSON Lines, in input order, in flat memory.

Records are streamed: :func:`sources` walks the arguments lazily and a JSON
Lines file is read one line at a time, so a run over 100,000 records holds a
handful of them at once, not the lot.  :func:`check_all` spreads them over
worker processes with ``imap``, whose results come back in input order; the
pool's task pipe gives back-pressure, so the reader never runs far ahead of
the workers (a test pulls records from an endless source to show it).
"""

from __future__ import annotations

import multiprocessing
import os
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adjudicator.adjudicate import Report, adjudicate
from adjudicator.record import RecordError, build_game, load_record, loads, parse_record

JSONL_SUFFIX = ".jsonl"
RECORD_SUFFIX = ".json"


def record_label(file: str, line: int | None) -> str:
    """``game.json``, or ``games.jsonl:17`` for a line of a JSON Lines file."""
    return file if line is None else f"{file}:{line}"


@dataclass(frozen=True, slots=True)
class Source:
    """Where one record comes from: a file, or one line of a JSON Lines file.

    ``text`` is set for a JSON Lines record (already read by the walker);
    a whole-file record is read by whoever checks it, so that with several
    processes the reading happens in the workers.  ``error`` is set when the
    record could not even be read (a JSON Lines file that cannot be opened).
    """

    file: str
    line: int | None = None
    text: str | None = None
    error: str | None = None

    @property
    def label(self) -> str:
        """How the record is named to people."""
        return record_label(self.file, self.line)


@dataclass(slots=True)
class Checked:
    """The verdict on one record: a report, or the reason it is invalid."""

    file: str
    line: int | None
    report: Report | None
    error: str | None = None

    @property
    def label(self) -> str:
        """How the record is named to people."""
        return record_label(self.file, self.line)

    @property
    def status(self) -> str:
        """``legal``, ``illegal`` or ``invalid``."""
        return "invalid" if self.report is None else self.report.status

    def as_json(self) -> dict[str, Any]:
        """The contract's ``check --json`` object, plus ``line`` for JSON Lines records."""
        out = result_json(self.file, self.report, self.error)
        if self.line is not None:
            out["line"] = self.line
        return out


def result_json(file: str, report: Report | None, error: str | None) -> dict[str, Any]:
    """The contract's ``check --json`` object for one record."""
    if report is None:
        return {
            "file": file,
            "status": "invalid",
            "variant": None,
            "actions": None,
            "applied": 0,
            "finished": False,
            "loser": None,
            "violations": [],
            "error": error,
        }
    return {
        "file": file,
        "status": report.status,
        "variant": report.variant,
        "actions": report.actions,
        "applied": report.applied,
        "finished": report.finished,
        "loser": report.loser,
        "violations": [v.as_json() for v in report.violations],
        "error": None,
    }


# --- walking the arguments ----------------------------------------------------


def _record_files(folder: str) -> Iterator[Source]:
    """Every ``*.json`` below ``folder`` in path order, one directory listing at a time.

    Symbolic links to folders are not followed (no cycles); an unreadable
    folder is one invalid entry rather than a silent gap.
    """
    try:
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda entry: entry.name)
    except OSError as exc:
        yield Source(folder, error=f"cannot read folder {folder}: {exc.strerror}")
        return
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            yield from _record_files(entry.path)
        elif entry.name.endswith(RECORD_SUFFIX):
            yield Source(entry.path)


def _jsonl_lines(path: str) -> Iterator[tuple[int, bytes]]:
    """(1-based line number, raw line) for every line with content; OSError if unreadable."""
    with open(path, "rb") as stream:
        for number, raw in enumerate(stream, 1):
            if raw.strip():
                yield number, raw


def _jsonl_sources(path: str) -> Iterator[Source]:
    try:
        for number, raw in _jsonl_lines(path):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                yield Source(path, number, error=f"line {number} is not UTF-8 text")
                continue
            yield Source(path, number, text)
    except OSError as exc:
        yield Source(path, error=f"cannot read {path}: {exc.strerror}")


def sources(paths: Iterable[str]) -> Iterator[Source]:
    """The records named by ``paths``, lazily and in order.

    A folder stands for every ``*.json`` below it (recursively, sorted); a
    ``*.jsonl`` file for each of its non-blank lines; anything else for one
    record file.  JSON Lines files inside folders are not picked up: a folder
    may well hold saved ``check --json`` output, which is no record.
    """
    for path in paths:
        if os.path.isdir(path):
            yield from _record_files(path)
        elif path.endswith(JSONL_SUFFIX):
            yield from _jsonl_sources(path)
        else:
            yield Source(path)


def count(paths: Iterable[str]) -> int:
    """How many records :func:`sources` will yield, without decoding any: for progress."""
    total = 0
    for path in paths:
        if os.path.isdir(path):
            total += sum(1 for _ in _record_files(path))
        elif path.endswith(JSONL_SUFFIX):
            try:
                total += sum(1 for _ in _jsonl_lines(path))
            except OSError:
                total += 1
        else:
            total += 1
    return total


# --- checking -----------------------------------------------------------------


def check_source(source: Source) -> Checked:
    """Read, validate and adjudicate one record; never raises for bad input."""
    if source.error is not None:
        return Checked(source.file, source.line, None, source.error)
    try:
        if source.text is None:
            game = load_record(Path(source.file))
        else:
            game = build_game(parse_record(loads(source.text)))
    except RecordError as exc:
        return Checked(source.file, source.line, None, str(exc))
    return Checked(source.file, source.line, adjudicate(game))


def check_all(items: Iterable[Source], jobs: int = 1, chunksize: int = 16) -> Iterator[Checked]:
    """Verdicts on ``items`` in input order, over ``jobs`` processes.

    With one job everything runs here, lazily.  With more, ``Pool.imap`` keeps
    the order; the pool is closed when the iterator is exhausted or dropped.
    """
    if jobs <= 1:
        yield from map(check_source, items)
        return
    with multiprocessing.Pool(jobs) as pool:
        yield from pool.imap(check_source, items, chunksize)


@dataclass
class Tally:
    """Running counts for the closing summary: kept small whatever the run's size."""

    statuses: Counter[str] = field(default_factory=Counter)
    rules: Counter[str] = field(default_factory=Counter)

    def add(self, checked: Checked) -> None:
        """Count one verdict and the rule ids it broke."""
        self.statuses[checked.status] += 1
        if checked.report is not None:
            for violation in checked.report.violations:
                self.rules[violation.rule] += 1

    @property
    def total(self) -> int:
        """Records counted so far."""
        return sum(self.statuses.values())
