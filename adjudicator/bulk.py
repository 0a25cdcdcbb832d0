"""Checking many records: files, folders and JSON Lines, in input order, in flat memory.

Records are streamed: :func:`sources` walks the arguments lazily and a JSON
Lines file is read one line at a time, so a run over 100,000 records holds a
handful of them at once, not the lot.  :func:`check_all` spreads them over
worker processes with ``imap``, whose results come back in input order; the
pool's task pipe gives back-pressure, so the reader never runs far ahead of
the workers (a test pulls records from an endless source to show it).
"""

from __future__ import annotations

import functools
import itertools
import json
import multiprocessing
import os
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from adjudicator.adjudicate import Report, SessionReport, adjudicate, adjudicate_session
from adjudicator.record import Game, RecordError, Session, build, loads, parse_document

AnyReport = Report | SessionReport

JSONL_SUFFIX = ".jsonl"
RECORD_SUFFIX = ".json"
STDIN = "-"
"""The argument that stands for standard input."""


def is_jsonl(path: str) -> bool:
    """Whether ``path`` names a JSON Lines file (``*.jsonl``, any case)."""
    return path.lower().endswith(JSONL_SUFFIX)


def is_record_file(name: str) -> bool:
    """Whether a file found in a folder is a record (``*.json``, any case)."""
    return name.lower().endswith(RECORD_SUFFIX)


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
    report: AnyReport | None
    error: str | None = None
    text: str | None = field(default=None, repr=False)
    """The record's JSON text, when asked for (``check_all(keep_text=True)``)."""
    json_line: str | None = field(default=None, repr=False)
    """The ``check --json`` line, made where the record was checked (``as_json=True``):
    with several processes the workers do that work, not the one that prints."""

    @property
    def label(self) -> str:
        """How the record is named to people."""
        return record_label(self.file, self.line)

    @property
    def status(self) -> str:
        """``legal``, ``illegal`` or ``invalid``."""
        return "invalid" if self.report is None else self.report.status

    def verdict_args(self) -> tuple[str, AnyReport | None, str | None, int | None]:
        """What :func:`service.verdict` needs: file, report, error, line."""
        return self.file, self.report, self.error, self.line

    def as_json(self) -> dict[str, Any]:
        """The contract's ``check --json`` object, plus ``line`` for JSON Lines records."""
        from adjudicator import service

        return service.verdict(self.file, self.report, self.error, self.line).model_dump(
            mode="json"
        )


def result_json(file: str, report: AnyReport | None, error: str | None) -> dict[str, Any]:
    """The contract's ``check --json`` object for one record (or session)."""
    from adjudicator import service

    return service.verdict(file, report, error).model_dump(mode="json")


# --- reading one record -------------------------------------------------------


def document_from_text(text: str) -> Game | Session:
    """Decode, validate and resolve one record's (or session's) JSON text, or RecordError."""
    return build(parse_document(loads(text)))


def judge(document: Game | Session) -> AnyReport:
    """The verdict on a record or a session; RecordError if it lacks what the table saw."""
    if isinstance(document, Session):
        return adjudicate_session(document)
    return adjudicate(document)


def read_text(path: str) -> str:
    """A record file's text; RecordError when it cannot be read or is not UTF-8."""
    try:
        return Path(path).read_bytes().decode("utf-8")
    except OSError as exc:
        raise RecordError("", f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError("", f"{path} is not UTF-8 text") from None


# --- walking the arguments ----------------------------------------------------


@dataclass
class Found:
    """What a walk over the arguments saw, for saying why an argument held no record.

    ``empty`` gets one line per argument that yielded no record at all.
    """

    empty: list[str] = field(default_factory=list)


def _record_files(folder: str, skipped: Counter[str]) -> Iterator[Source]:
    """Every ``*.json`` below ``folder`` in path order, one directory listing at a time.

    Symbolic links to folders are not followed (no cycles); an unreadable
    folder is one invalid entry rather than a silent gap.  Files that are not
    records are counted in ``skipped`` by kind, to explain an empty folder.
    """
    try:
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda entry: entry.name)
    except OSError as exc:
        yield Source(folder, error=f"cannot read folder {folder}: {exc.strerror}")
        return
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            yield from _record_files(entry.path, skipped)
        elif is_record_file(entry.name):
            yield Source(entry.path)
        else:
            skipped["JSON Lines file" if is_jsonl(entry.name) else "other file"] += 1


def _jsonl_lines(stream: Iterable[bytes]) -> Iterator[tuple[int, bytes]]:
    """(1-based line number, raw line) for every line with content."""
    for number, raw in enumerate(stream, 1):
        if raw.strip():
            yield number, raw


def _line_sources(name: str, lines: Iterable[tuple[int, bytes]]) -> Iterator[Source]:
    for number, raw in lines:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            yield Source(name, number, error=f"line {number} is not UTF-8 text")
            continue
        yield Source(name, number, text)


def _jsonl_sources(path: str) -> Iterator[Source]:
    try:
        with open(path, "rb") as stream:
            yield from _line_sources(path, _jsonl_lines(stream))
    except OSError as exc:
        yield Source(path, error=f"cannot read {path}: {exc.strerror}")


def _complete_json(raw: bytes) -> bool:
    """Whether one line is a whole JSON value by itself (so the input is JSON Lines)."""
    try:
        json.loads(raw)
    except (ValueError, RecursionError):
        return False
    return True


def stdin_sources(stream: BinaryIO) -> Iterator[Source]:
    """The records on standard input: one record, or JSON Lines (named ``-:LINE``).

    The input is JSON Lines when its first line with content is a whole JSON
    value and another line with content follows; JSON Lines are then read one
    line at a time.  Anything else is one record (``-``), however many lines
    it spans.
    """
    lines = _jsonl_lines(stream)
    first = next(lines, None)
    if first is None:
        return
    second = next(lines, None)
    if second is None:
        yield from _one_stdin_record(first[1])
        return
    if _complete_json(first[1]):
        yield from _line_sources(STDIN, itertools.chain([first, second], lines))
        return
    rest = b"".join(raw for _, raw in itertools.chain([first, second], lines))
    yield from _one_stdin_record(rest)


def _one_stdin_record(raw: bytes) -> Iterator[Source]:
    try:
        yield Source(STDIN, text=raw.decode("utf-8"))
    except UnicodeDecodeError:
        yield Source(STDIN, error="standard input is not UTF-8 text")


def _stdin() -> BinaryIO:
    return sys.stdin.buffer


def _walk(path: str, skipped: Counter[str]) -> Iterator[Source]:
    if path == STDIN:
        yield from stdin_sources(_stdin())
    elif os.path.isdir(path):
        yield from _record_files(path, skipped)
    elif is_jsonl(path):
        yield from _jsonl_sources(path)
    else:
        yield Source(path)


def _nothing_found(path: str, skipped: Counter[str]) -> str:
    """The one line for an argument that named no record."""
    if path == STDIN:
        return "-: no record found: standard input is empty"
    if not os.path.isdir(path):
        return f"{path}: no record found: the file has no line with content"
    line = f"{path}: no record found: a folder is searched for *.json files"
    if skipped:
        kinds = ", ".join(
            f"{times} {kind}{'s' if times > 1 else ''}" for kind, times in sorted(skipped.items())
        )
        line += f"; skipped {kinds}"
        if skipped["JSON Lines file"]:
            line += " (name a .jsonl file itself to check it)"
    return line


def sources(paths: Iterable[str], found: Found | None = None) -> Iterator[Source]:
    """The records named by ``paths``, lazily and in order.

    ``-`` is standard input (one record, or JSON Lines); a folder stands for
    every ``*.json`` below it (recursively, sorted; any case of the
    extension); a ``*.jsonl`` file for each of its non-blank lines; anything
    else for one record file.  JSON Lines files inside folders are not picked
    up: a folder may well hold saved ``check --json`` output, which is no
    record.  An argument that yields no record is noted in ``found.empty``.
    """
    for path in paths:
        skipped: Counter[str] = Counter()
        yielded = False
        for source in _walk(path, skipped):
            yielded = True
            yield source
        if not yielded and found is not None:
            found.empty.append(_nothing_found(path, skipped))


def count(paths: Iterable[str]) -> int | None:
    """How many records :func:`sources` will yield, without decoding any: for progress.

    None when standard input is among them (it can be read only once).
    """
    total = 0
    for path in paths:
        if path == STDIN:
            return None
        if os.path.isdir(path):
            total += sum(1 for _ in _record_files(path, Counter()))
        elif is_jsonl(path):
            try:
                with open(path, "rb") as stream:
                    total += sum(1 for _ in _jsonl_lines(stream))
            except OSError:
                total += 1
        else:
            total += 1
    return total


# --- one record named on the command line ---------------------------------------


def _numbered(arg: str) -> tuple[str, int] | None:
    """``("games.jsonl", 17)`` for ``games.jsonl:17`` (or ``-:3``), else None."""
    head, sep, tail = arg.rpartition(":")
    if sep and tail.isdigit() and head and (head == STDIN or os.path.isfile(head)):
        return head, int(tail)
    return None


def one_record(arg: str) -> tuple[str, str]:
    """The label and JSON text of the one record ``arg`` names; RecordError otherwise.

    ``arg`` is a record file, ``-`` (standard input holding one record), or
    ``FILE:LINE`` / ``-:LINE`` for one line of JSON Lines, as ``check``
    names them.  A JSON Lines file or input with one record may be named
    without its line.
    """
    numbered = None if arg == STDIN or os.path.exists(arg) else _numbered(arg)
    name, line = numbered if numbered is not None else (arg, None)
    if name == STDIN:
        records: Iterator[Source] = stdin_sources(_stdin())
    elif is_jsonl(name) or line is not None:
        records = _jsonl_sources(name)
    else:
        return name, read_text(name)
    if line is not None:
        wanted = line
        records = (
            r
            for r in records
            if r.line == wanted or (r.line is None and (wanted == 1 or r.error is not None))
        )
    first = list(itertools.islice(records, 2))
    if not first:
        raise RecordError(
            "", f"{arg}: no record on line {line}" if line else f"{arg}: no record found"
        )
    if len(first) > 1:
        raise RecordError(
            "",
            f"{arg} holds several records (JSON Lines): name one as "
            f"{name}:LINE, e.g. {first[0].label}",
        )
    record = first[0]
    if record.error is not None:
        raise RecordError("", record.error)
    assert record.text is not None
    return record.label, record.text


# --- checking -----------------------------------------------------------------


def check_source(source: Source, keep_text: bool = False, as_json: bool = False) -> Checked:
    """Read, validate and adjudicate one record; never raises for bad input.

    With ``keep_text`` the verdict carries the record's JSON text (to write
    records out by verdict); with ``as_json``, its ``check --json`` line.
    """
    checked = _check(source, keep_text)
    if as_json:
        from adjudicator import service

        checked.json_line = service.dumps(service.verdict(*checked.verdict_args()))
    return checked


def _check(source: Source, keep_text: bool) -> Checked:
    if source.error is not None:
        return Checked(source.file, source.line, None, source.error)
    text = source.text
    try:
        if text is None:
            text = read_text(source.file)
        report = judge(document_from_text(text))
    except RecordError as exc:
        return Checked(source.file, source.line, None, str(exc), text if keep_text else None)
    return Checked(source.file, source.line, report, None, text if keep_text else None)


def check_all(
    items: Iterable[Source],
    jobs: int = 1,
    chunksize: int = 64,
    keep_text: bool = False,
    as_json: bool = False,
) -> Iterator[Checked]:
    """Verdicts on ``items`` in input order, over ``jobs`` processes.

    With one job everything runs here, lazily.  With more, ``Pool.imap`` keeps
    the order; the pool is closed when the iterator is exhausted or dropped.
    """
    work = functools.partial(check_source, keep_text=keep_text, as_json=as_json)
    if jobs <= 1:
        yield from map(work, items)
        return
    with multiprocessing.Pool(jobs) as pool:
        yield from pool.imap(work, items, chunksize)


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
