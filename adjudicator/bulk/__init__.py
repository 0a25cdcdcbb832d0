"""Checking many records: files, folders and JSON Lines, in input order, in flat memory.

Records are streamed: :func:`sources` walks the arguments lazily and a JSON
Lines file is read one line at a time, so a run over 100,000 records holds a
handful of them at once, not the lot.  :func:`check_all` spreads them over
worker processes in batches, a few batches out at a time, and yields the oldest
first: results come back in input order, and the reader never runs far ahead
of the workers (a test pulls records from an endless source to show it).

Nothing read is trusted: a record is read only from a regular file, never more
than the size limit of :mod:`adjudicator.limits`, and file names are printed
escaped.  A worker that dies, Ctrl-C or SIGTERM end the run with every worker
gone (:class:`WorkersLost`, or the interrupt raised on to the caller).
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import sys
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from adjudicator import service
from adjudicator.exceptions import AdjudicatorError
from adjudicator.exits import EXIT_ORPHANED
from adjudicator.i18n import _, ngettext
from adjudicator.importers import albined_db
from adjudicator.importers.link import decode as decode_link
from adjudicator.importers.link import holds_no_record, is_address, link_label, looks_like_link
from adjudicator.invalid import cut
from adjudicator.limits import (
    MAX_RECORD_SIZE,
    InputError,
    checked_size,
    open_regular,
    printable,
    too_big,
)
from adjudicator.play.adjudicate import (
    Replayed,
    Report,
    SessionReport,
    adjudicate_replayed,
    document_from_text,
    document_from_value,
    judge,
)
from adjudicator.record import Game, RecordError
from adjudicator.record.build import read_text

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
    """``game.json``, or ``games.jsonl:17`` for a line of a JSON Lines file.

    A file name holding control characters (a folder walk finds whatever is
    there) is quoted with escapes, so it cannot forge a line or drive a terminal.
    """
    file = printable(file)
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
    replayed: Replayed | None = None
    """For a record an importer wrote: the table it replayed the actions on, which the
    check reads its verdict off instead of replaying them again (never sent to a worker:
    see :func:`check_paths`)."""
    places: tuple[str, ...] | None = None
    """For a record an importer wrote: each action's place in the app's log, named beside
    a violation (``events[41]``)."""
    record: dict[str, Any] | None = None
    """For a record an importer wrote, checked here: the record itself, instead of its
    ``text``.  It is read as its text would be (:func:`record_text`: json gives back what
    it wrote of a value decoded from JSON), without writing and decoding that text; the
    text is written only for a verdict that keeps it."""

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
        return service.verdict(self.file, self.report, self.error, self.line).model_dump(
            mode="json"
        )


def result_json(file: str, report: AnyReport | None, error: str | None) -> dict[str, Any]:
    """The contract's ``check --json`` object for one record (or session)."""
    return service.verdict(file, report, error).model_dump(mode="json")


# --- reading one record -------------------------------------------------------


# --- walking the arguments ----------------------------------------------------


@dataclass
class Found:
    """What a walk over the arguments saw, for saying why an argument held no record.

    ``empty`` gets one line per argument that yielded no record at all.
    """

    empty: list[str] = field(default_factory=list)
    records: bool = False
    """Whether a path (or a file below one) was read as records, not told for an app's
    log: ``check --names`` says it was not used for them."""


def record_files(folder: str, skipped: Counter[str]) -> Iterator[Source]:
    """Every ``*.json`` below ``folder`` in path order, one directory listing at a time.

    Symbolic links to folders are not followed (no cycles); an unreadable
    folder is one invalid entry rather than a silent gap.  Files that are not
    records are counted in ``skipped`` by kind, to explain an empty folder.
    """
    try:
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda entry: entry.name)
    except OSError as exc:
        said = _("cannot read folder {name}: {why}").format(
            name=printable(folder), why=exc.strerror
        )
        yield Source(folder, error=said)
        return
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            yield from record_files(entry.path, skipped)
        elif is_record_file(entry.name):
            yield Source(entry.path)
        else:
            skipped["JSON Lines file" if is_jsonl(entry.name) else "other file"] += 1


SKIP_CHUNK = 1 << 20


def _jsonl_lines(
    stream: BinaryIO, max_size: int = MAX_RECORD_SIZE
) -> Iterator[tuple[int, bytes | None]]:
    """(1-based line number, raw line) for every line with content.

    A line longer than ``max_size`` bytes comes as ``None`` and is skipped to
    its end a megabyte at a time: memory stays flat whatever the input holds.
    """
    number = 0
    while raw := stream.readline(max_size + 1):
        number += 1
        if len(raw) > max_size and not raw.endswith(b"\n"):
            yield number, None  # before skipping: a reader that stops here reads no more
            while (rest := stream.readline(SKIP_CHUNK)) and not rest.endswith(b"\n"):
                pass
        elif raw.strip():
            yield number, raw


def _line_sources(
    name: str, lines: Iterable[tuple[int, bytes | None]], max_size: int = MAX_RECORD_SIZE
) -> Iterator[Source]:
    for number, raw in lines:
        if raw is None:
            yield Source(
                name, number, error=too_big(_("line {number}").format(number=number), max_size)
            )
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            yield Source(
                name, number, error=_("line {number} is not UTF-8 text").format(number=number)
            )
            continue
        yield Source(name, number, text)


def _open_jsonl(path: str) -> BinaryIO:
    """A JSON Lines file open for reading; InputError if it is no regular file."""
    return os.fdopen(open_regular(path), "rb")


def _jsonl_sources(path: str, max_size: int = MAX_RECORD_SIZE) -> Iterator[Source]:
    try:
        stream = _open_jsonl(path)
    except InputError as exc:
        yield Source(path, error=str(exc))
        return
    except OSError as exc:
        said = _("cannot read {name}: {why}").format(name=printable(path), why=exc.strerror)
        yield Source(path, error=said)
        return
    with stream:
        yield from _line_sources(path, _jsonl_lines(stream, max_size), max_size)


def _complete_json(raw: bytes | None) -> bool:
    """Whether one line is a whole JSON value by itself (so the input is JSON Lines)."""
    if raw is None:
        return False
    try:
        json.loads(raw)
    except (ValueError, RecursionError):
        return False
    return True


def stdin_sources(stream: BinaryIO, max_size: int = MAX_RECORD_SIZE) -> Iterator[Source]:
    """The records on standard input: one record, or JSON Lines (named ``-:LINE``).

    The input is JSON Lines when its first line with content is a whole JSON
    value and another line with content follows; JSON Lines are then read one
    line at a time.  Anything else is one record (``-``), however many lines
    it spans.
    """
    lines = _jsonl_lines(stream, max_size)
    first = next(lines, None)
    if first is None:
        return
    if first[1] is None:  # an endless line (``< /dev/zero``) is not read to its end
        yield from _one_stdin_record(None, max_size)
        return
    second = next(lines, None)
    if second is None:
        yield from _one_stdin_record(first[1], max_size)
        return
    if _complete_json(first[1]):
        yield from _line_sources(STDIN, itertools.chain([first, second], lines), max_size)
        return
    parts: list[bytes] = []
    size = 0
    for _number, raw in itertools.chain([first, second], lines):
        if raw is None or size + len(raw) > max_size:
            yield from _one_stdin_record(None, max_size)
            return
        parts.append(raw)
        size += len(raw)
    yield from _one_stdin_record(b"".join(parts), max_size)


def _one_stdin_record(raw: bytes | None, max_size: int) -> Iterator[Source]:
    if raw is None:
        yield Source(STDIN, error=too_big(_("standard input"), max_size))
        return
    if albined_db.looks_like(raw):
        yield Source(STDIN, error=database_on_stdin())
        return
    try:
        yield Source(STDIN, text=raw.decode("utf-8"))
    except UnicodeDecodeError:
        yield Source(STDIN, error=_("standard input is not UTF-8 text"))


def database_on_stdin() -> str:
    """The line for a database piped in: SQLite opens a file (read only, never a copy)."""
    return _("a database is read from a file, not from standard input: name the file")


def _stdin() -> BinaryIO:
    return sys.stdin.buffer


Teller = Callable[["Source"], Iterator["Source"] | None]
"""What tells a file (or standard input's text) for an app's log: the sources of its games,
or None for records (``check`` without ``--from``: :func:`bulk.imported.log_games`)."""


def _walk(
    path: str, skipped: Counter[str], max_size: int, tell: Teller | None = None
) -> Iterator[Source]:
    if path == STDIN:
        for source in stdin_sources(_stdin(), max_size):
            yield from _told(source, tell)
    elif looks_like_link(path):  # the page's link: the record is in its fragment
        yield _link_source(path, max_size)
    elif is_address(path) and not os.path.lexists(path):  # an address with no record in it
        yield Source(printable(cut(path.strip(), 80)), error=holds_no_record())
    elif os.path.isdir(path):
        for source in record_files(path, skipped):
            yield from _told(source, tell)
    elif (games := None if tell is None else tell(Source(path))) is not None:
        yield from games
    elif is_jsonl(path):
        yield from _jsonl_sources(path, max_size)
    else:
        yield Source(path)


def _told(source: Source, tell: Teller | None) -> Iterator[Source]:
    """A file a folder holds, or standard input's text, as ``tell`` reads it: the same
    question asked of a file named on the command line."""
    games = None if tell is None or source.error is not None else tell(source)
    if games is None:
        yield source
    else:
        yield from games


def _link_source(link: str, max_size: int) -> Source:
    """The record a page link carries, named by the link's start; nothing is fetched."""
    try:
        return Source(link_label(link), text=json.dumps(decode_link(link, max_size)))
    except RecordError as exc:
        return Source(link_label(link), error=str(exc))


def nothing_found(path: str, skipped: Counter[str]) -> str:
    """The one line for an argument that named no record."""
    if path == STDIN:
        return "-: " + _("no record found: standard input is empty")
    if not os.path.isdir(path):
        return f"{printable(path)}: " + _("no record found: the file has no line with content")
    line = f"{printable(path)}: " + _("no record found: a folder is searched for *.json files")
    if skipped:
        kinds = ", ".join(
            (
                ngettext("{count} JSON Lines file", "{count} JSON Lines files", times)
                if kind == "JSON Lines file"
                else ngettext("{count} other file", "{count} other files", times)
            ).format(count=times)
            for kind, times in sorted(skipped.items())
        )
        line += _("; skipped {kinds}").format(kinds=kinds)
        if skipped["JSON Lines file"]:
            line += _(" (name a .jsonl file itself to check it)")
    return line


def sources(
    paths: Iterable[str],
    found: Found | None = None,
    max_size: int = MAX_RECORD_SIZE,
    tell: Teller | None = None,
) -> Iterator[Source]:
    """The records named by ``paths``, lazily and in order.

    ``-`` is standard input (one record, or JSON Lines); a folder stands for
    every ``*.json`` below it (recursively, sorted; any case of the
    extension); a ``*.jsonl`` file for each of its non-blank lines; anything
    else for one record file.  JSON Lines files inside folders are not picked
    up: a folder may well hold saved ``check --json`` output, which is no
    record.  An argument that yields no record is noted in ``found.empty``.
    A JSON Lines line over ``max_size`` bytes is an invalid record.  With ``tell``,
    every file (named, or found in a folder) and standard input's text is first asked
    whether it is an app's log, and its games come instead.
    """
    max_size = checked_size(max_size)
    for path in paths:
        skipped: Counter[str] = Counter()
        yielded = False
        for source in _walk(path, skipped, max_size, tell):
            yielded = True
            yield source
        if not yielded and found is not None:
            found.empty.append(nothing_found(path, skipped))


def count(paths: Iterable[str]) -> int | None:
    """How many records :func:`sources` will yield, without decoding any: for progress.

    None when standard input is among them (it can be read only once), or a database of
    the albined app, whose games are counted only as they are read (``check`` tells it
    by its content).
    """
    total = 0
    for path in paths:
        if path == STDIN or _is_database(path):
            return None
        if os.path.isdir(path):
            total += sum(1 for _ in record_files(path, Counter()))
        elif is_jsonl(path):
            try:
                with _open_jsonl(path) as stream:
                    total += sum(1 for _ in _jsonl_lines(stream))
            except OSError:
                total += 1
        else:
            total += 1
    return total


def _is_database(path: str) -> bool:
    if not os.path.isfile(path):  # a pipe or a device is never opened here (it would block)
        return False
    try:
        with open(path, "rb") as stream:
            return albined_db.looks_like(stream.read(len(albined_db.SQLITE_HEADER)))
    except OSError:  # a folder, a file that cannot be read: the walk says which
        return False


# --- one record named on the command line ---------------------------------------


def _numbered(arg: str) -> tuple[str, int] | None:
    """``("games.jsonl", 17)`` for ``games.jsonl:17`` (or ``-:3``), else None."""
    head, sep, tail = arg.rpartition(":")
    if sep and tail.isdigit() and head and (head == STDIN or os.path.isfile(head)):
        return head, int(tail)
    return None


def _is_empty(path: str) -> bool:
    """Whether ``path`` holds nothing but white space (the reason no record was found)."""
    try:
        with open(path, "rb") as stream:
            return not stream.read(MAX_RECORD_SIZE).strip()
    except OSError:
        return False


def one_record(arg: str, max_size: int = MAX_RECORD_SIZE) -> tuple[str, str]:
    """The label and JSON text of the one record ``arg`` names; RecordError otherwise.

    ``arg`` is a record file, ``-`` (standard input holding one record), or
    ``FILE:LINE`` / ``-:LINE`` for one line of JSON Lines, as ``check``
    names them.  A JSON Lines file or input with one record may be named
    without its line.
    """
    max_size = checked_size(max_size)
    if looks_like_link(arg):
        return link_label(arg), json.dumps(decode_link(arg, max_size), ensure_ascii=False)
    if is_address(arg) and not os.path.lexists(arg):
        raise RecordError("", holds_no_record())
    numbered = None if arg == STDIN or os.path.exists(arg) else _numbered(arg)
    name, line = numbered if numbered is not None else (arg, None)
    if name == STDIN:
        records: Iterator[Source] = stdin_sources(_stdin(), max_size)
    elif is_jsonl(name) or line is not None:
        records = _jsonl_sources(name, max_size)
    else:
        return printable(name), read_text(name, max_size)
    if line == 0:
        raise RecordError(
            "", _("lines count from 1: the first record is {name}:1").format(name=printable(name))
        )
    if line is not None:
        wanted = line
        records = (
            r
            for r in records
            if r.line == wanted or (r.line is None and (wanted == 1 or r.error is not None))
        )
    first = list(itertools.islice(records, 2))
    if not first:  # the verdict line names the record already: the reason alone
        empty = name != STDIN and _is_empty(name)
        if line is not None:
            said = (
                _("no record on line {line}: the file is empty")
                if empty
                else _("no record on line {line}")
            )
            raise RecordError("", said.format(line=line))
        raise RecordError(
            "", _("no record found: the file is empty") if empty else _("no record found")
        )
    if len(first) > 1:
        raise RecordError(
            "",
            _(
                "{arg} holds several records (JSON Lines): name one as {name}:LINE, e.g. {example}"
            ).format(arg=printable(arg), name=printable(name), example=first[0].label),
        )
    record = first[0]
    if record.error is not None:
        raise RecordError("", record.error)
    assert record.text is not None
    return record.label, record.text


# --- checking -----------------------------------------------------------------


def json_line(data: dict[str, Any]) -> str:
    """One ``check --json`` line: UTF-8 as is, but escapes where a text cannot be
    encoded at all (a file name with undecodable bytes holds lone surrogates)."""
    line = json.dumps(data, ensure_ascii=False)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        line = json.dumps(data)
    return line


def record_text(record: dict[str, Any]) -> str:
    """A converted record as the JSON text a check reads (and ``--write-*`` writes)."""
    return json.dumps(record, ensure_ascii=False)


def check_source(
    source: Source,
    keep_text: bool = False,
    as_json: bool = False,
    max_size: int = MAX_RECORD_SIZE,
    go_on: str | None = None,
) -> Checked:
    """Read, validate and adjudicate one record; never raises for bad input.

    With ``keep_text`` the verdict carries the record's JSON text (to write
    records out by verdict); with ``as_json``, its ``check --json`` line.
    A whole-file record over ``max_size`` bytes is invalid.
    """
    checked = _check(source, keep_text, max_size, go_on)
    if as_json:
        checked.json_line = service.dumps(service.verdict(*checked.verdict_args()))
    return checked


def _check(
    source: Source, keep_text: bool, max_size: int = MAX_RECORD_SIZE, go_on: str | None = None
) -> Checked:
    if source.error is not None:
        return Checked(source.file, source.line, None, source.error)
    text = source.text
    if keep_text and source.record is not None:
        text = record_text(source.record)
    try:
        if source.record is not None:
            document = document_from_value(source.record)
        else:
            if text is None:
                text = read_text(source.file, max_size)
            document = document_from_text(text)
        report: AnyReport | None = None
        if source.replayed is not None and go_on is None and isinstance(document, Game):
            report = adjudicate_replayed(document, source.replayed)
        if report is None:
            report = judge(document, go_on)
        if source.places is not None and isinstance(report, Report):
            places = source.places
            for v in (*report.violations, *report.undetermined):
                if v.index is not None and v.index < len(places):
                    v.place = places[v.index]
    except RecordError as exc:
        return Checked(source.file, source.line, None, str(exc), text if keep_text else None)
    return Checked(source.file, source.line, report, None, text if keep_text else None)


class WorkersLost(AdjudicatorError, RuntimeError):
    """A worker process died (killed, out of memory) with records unchecked."""


LOST = (
    "a worker process died (killed, or out of memory) before its records were checked: "
    "the run is incomplete"
)


def workers(jobs: int, records: int | None = None) -> int:
    """How many processes to start for ``jobs`` (0: one per core): never more than the
    cores, nor than the records when their number is known, and at least one."""
    cores = os.cpu_count() or 1
    wanted = cores if jobs <= 0 else min(jobs, cores)
    if records is not None:
        wanted = min(wanted, records)
    return max(1, wanted)


STOPPING = (signal.SIGINT, signal.SIGTERM)
"""The signals that end a run: Ctrl-C (to the whole process group) and SIGTERM."""
POLL = 0.1
"""Seconds between looks at a noted signal while a batch is awaited."""


def _worker_signals() -> None:
    """In a worker: Ctrl-C is the parent's to handle (the terminal sends it to every
    process of the group), and SIGTERM ends the worker quietly, whatever handler the
    parent had when it forked.  Both were blocked from the fork until now (see
    :func:`_signals_held`): a Ctrl-C pressed meanwhile is dropped here, a SIGTERM ends
    the worker here."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, set(STOPPING))


def _worker_start(parent: int, main_thread: bool) -> None:
    """A worker's first act: its signals (see :func:`_worker_signals`), and its death
    tied to the run's, so that ``kill -9`` of the run leaves no worker checking on (and
    holding the pipe of ``check ... | wc -l`` open)."""
    _worker_signals()
    _die_with_parent(parent, main_thread)


PR_SET_PDEATHSIG = 1
"""Linux's ``prctl`` option: the signal this process gets when its parent dies."""
WATCH_EVERY = 0.5
"""Seconds between a worker's looks at its parent, where the system has no PDEATHSIG."""


def _die_with_parent(parent: int, main_thread: bool) -> None:
    """End this worker when the process that started it ends.

    On Linux the kernel sends SIGKILL (``prctl(PR_SET_PDEATHSIG)``, through ctypes: no
    dependency) when the thread that forked the worker ends, so only for a pool made in
    the main thread (which ends with the process); elsewhere, or where that call
    fails, a daemon thread looks every :data:`WATCH_EVERY` seconds whether the parent
    changed (a dead parent's children are handed to another).  ``parent`` is the run's
    process id: a parent that died before this ran is caught by the first look.
    """
    started_by = os.getppid()
    if started_by != parent and not _alive(parent):
        os._exit(EXIT_ORPHANED)
    if main_thread and sys.platform.startswith("linux") and _prctl_deathsig():
        if os.getppid() == started_by:  # the parent may have died before the prctl
            return
        os._exit(EXIT_ORPHANED)
    threading.Thread(target=_watch_parent, args=(started_by,), daemon=True).start()


def _prctl_deathsig() -> bool:
    """Ask Linux for SIGKILL when the parent dies; whether it took."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(started_by: int) -> None:
    """The watchdog thread: exit at once when the parent is gone."""
    while os.getppid() == started_by:
        time.sleep(WATCH_EVERY)
    os._exit(EXIT_ORPHANED)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


@contextmanager
def _signals_held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM back while workers are forked: a forked child keeps the
    mask, so neither reaches a worker before it has its own handlers.  Here they
    arrive as soon as the workers are started."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, set(STOPPING))
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, set(STOPPING))


class _Stopping(BaseException):
    """A noted Ctrl-C or SIGTERM, raised where the pool is safe to stop."""


class _SignalGuard:
    """Ctrl-C and SIGTERM while a process pool runs.

    Raised the usual way (KeyboardInterrupt at whatever bytecode runs), a signal can
    land inside the pool's own code (a submit, a queue, a lock) and leave it unable
    to stop: a traceback from one of its threads, or a process that never exits.  So
    while this process is in the pool's code a signal is only noted, and
    :meth:`stop_if_signalled`, called between the pool's calls, acts on it.  While the
    caller has a verdict in hand (:meth:`hand_out`), a signal is handled as it would
    be without a pool: the caller's code is interrupted as usual.
    """

    def __init__(self) -> None:
        self.noted: list[int] = []
        self.previous: dict[int, Any] = {}
        self.away = False
        """Whether the caller's code runs (between two verdicts), not the pool's."""

    def _handle(self, signum: int, frame: Any) -> None:
        self.noted.append(signum)
        handler = self.previous.get(signum)
        if self.away and callable(handler):
            # Noted too: raised inside a finalizer or an at-fork hook the exception is
            # swallowed ("Exception ignored in ..."), and the caller goes on.
            handler(signum, frame)

    def stop_if_signalled(self) -> None:
        """Unwind (the pool is stopped on the way out) if a signal was noted."""
        if self.noted:
            raise _Stopping

    def hand_out(self, verdicts: list[Checked]) -> Iterator[Checked]:
        """Yield ``verdicts``, the caller's code interruptible as usual meanwhile.  A
        caller that stops had the signal raised in its code; one that asks for more
        lost it somewhere, and gets it raised again once the pool is stopped."""
        for checked in verdicts:
            self.away = True
            try:
                yield checked
            except GeneratorExit:
                self.noted.clear()
                raise
            finally:
                self.away = False
            self.stop_if_signalled()

    @contextmanager
    def installed(self) -> Iterator[None]:
        """The guard's handlers, in the main thread (signals go nowhere else); once the
        pool is down, the handlers as they were and the noted signal sent again, to be
        handled as it would have been (KeyboardInterrupt, the command's SIGTERM
        handler, the default action).  An ignored signal stays ignored."""
        if threading.current_thread() is threading.main_thread():
            for signum in STOPPING:
                if signal.getsignal(signum) not in (signal.SIG_IGN, None):
                    self.previous[signum] = signal.signal(signum, self._handle)
        try:
            yield
        except _Stopping:
            pass
        finally:
            for stopping, handler in self.previous.items():
                signal.signal(stopping, handler)
            if self.noted:
                signal.raise_signal(self.noted[0])


def _check_batch(
    batch: list[Source], keep_text: bool, as_json: bool, max_size: int, go_on: str | None = None
) -> list[Checked]:
    return [check_source(source, keep_text, as_json, max_size, go_on) for source in batch]


def _batches(items: Iterable[Source], size: int) -> Iterator[list[Source]]:
    iterator = iter(items)
    while batch := list(itertools.islice(iterator, size)):
        yield batch


def check_all(
    items: Iterable[Source],
    jobs: int = 1,
    chunksize: int = 64,
    keep_text: bool = False,
    as_json: bool = False,
    max_size: int = MAX_RECORD_SIZE,
    go_on: str | None = None,
) -> Iterator[Checked]:
    """Verdicts on ``items`` in input order, over ``jobs`` processes.

    With one job everything runs here, lazily.  With more, batches of
    ``chunksize`` records go to a process pool, at most two per worker out at
    once; the oldest is always waited for first, so verdicts leave in input
    order and the reader stays a few batches ahead.  A worker that dies raises
    :class:`WorkersLost`; when the iterator stops early for any reason (closed,
    Ctrl-C, SIGTERM, an error) the workers are killed, not left running.  Ctrl-C
    and SIGTERM never interrupt the pool's own code (:class:`_SignalGuard`): they
    stop it between its calls, then are raised as usual once the workers are gone.
    """
    if jobs <= 1:
        for source in items:
            yield check_source(source, keep_text, as_json, max_size, go_on)
        return
    guard = _SignalGuard()
    with guard.installed():
        yield from _pooled(items, jobs, chunksize, guard, (keep_text, as_json, max_size, go_on))


def _pooled(
    items: Iterable[Source],
    jobs: int,
    chunksize: int,
    guard: _SignalGuard,
    args: tuple[bool, bool, int, str | None],
) -> Iterator[Checked]:
    """:func:`check_all` over a process pool, signals guarded (see there)."""
    main_thread = threading.current_thread() is threading.main_thread()
    pool = ProcessPoolExecutor(jobs, initializer=_worker_start, initargs=(os.getpid(), main_thread))
    processes = getattr(pool, "_processes", None)  # to kill them: no public way before 3.14
    window = 2 * jobs
    pending: deque[Future[list[Checked]]] = deque()
    done = False
    try:
        for batch in _batches(items, chunksize):
            guard.stop_if_signalled()
            if pending or processes:
                future = pool.submit(_check_batch, batch, *args)
            else:
                with _signals_held():  # the first submission forks the workers
                    future = pool.submit(_check_batch, batch, *args)
            pending.append(future)
            while len(pending) > window:
                yield from guard.hand_out(_result(pending.popleft(), guard))
        while pending:
            yield from guard.hand_out(_result(pending.popleft(), guard))
        done = True
    except BrokenProcessPool:  # from submit: a worker died before its batch was waited for
        raise WorkersLost(LOST) from None
    finally:
        if done:
            pool.shutdown(wait=True)
        else:
            _kill(pool, list((processes or {}).values()))


def _result(future: Future[list[Checked]], guard: _SignalGuard) -> list[Checked]:
    """A batch's verdicts, once they come; a noted signal is acted on meanwhile."""
    while True:
        guard.stop_if_signalled()
        try:
            return future.result(timeout=POLL)
        except TimeoutError:
            continue
        except BrokenProcessPool:
            raise WorkersLost(LOST) from None


def _kill(pool: ProcessPoolExecutor, processes: list[Any]) -> None:
    """Stop the pool now: queued batches cancelled, running workers killed and reaped,
    and the pool's own thread done with its cleaning up (left to run on, it races
    Python's exit: a traceback from a closed pipe, or an exit that waits forever)."""
    manager = getattr(pool, "_executor_manager_thread", None)  # no public way either
    results = getattr(pool, "_result_queue", None)  # (shutdown forgets both)
    for process in processes:
        if process.is_alive():
            process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.join(5)
        if process.is_alive():
            process.kill()
            process.join(1)
    if manager is not None:
        manager.join(1)
        if manager.is_alive():
            # A worker killed halfway through sending its verdicts leaves the pool's
            # thread waiting for the rest of the message, and Python's exit waits for
            # that thread for ever.  With this process's end of the pipe closed too (the
            # workers' ends closed as they died), the thread reads the pipe's end
            # instead, finds the pool broken, and ends.
            writer = getattr(results, "_writer", None)
            if writer is not None:
                with suppress(OSError):
                    writer.close()
            manager.join(5)


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
