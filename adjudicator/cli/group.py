"""The command group every ``adjudicator`` command runs in: how a run ends when it is cut
short.  Ctrl-C, SIGTERM, a lost worker and an output that cannot be written each end the
run with one line on stderr and their own exit status (130, 143, 2), never a traceback;
exit status 1 stays "a record is illegal".
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any, NoReturn

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from adjudicator import _startup, bulk, limits
from adjudicator._startup import EXIT_INTERRUPTED, EXIT_TERMINATED, INTERRUPTED, TERMINATED
from adjudicator.invalid import MESSAGE_MAX, cut

EXIT_INVALID = 2


class Terminated(BaseException):
    """SIGTERM, raised where the program is, so that it unwinds (workers killed, temporary
    files removed) as it does for Ctrl-C."""


def _terminated(signum: int, frame: Any) -> None:
    raise Terminated


def _stop(message: str, code: int) -> NoReturn:
    """End the run: one line on stderr, exit status ``code``."""
    with suppress(OSError):
        Console(stderr=True, highlight=False, emoji=False, soft_wrap=True).print(
            message, markup=False
        )
    raise click.exceptions.Exit(code)


def _silence_stdout() -> None:
    """Point standard output at /dev/null: what is still buffered for a full disk or a
    closed pipe would otherwise fail again, with a traceback, when Python exits."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


USAGE_MESSAGE = 240
"""Characters of a usage error's own message: with click's "Invalid value for '--step': "
before it, the line stays within the 300 every message keeps to."""


def _cut_usage(exc: click.ClickException) -> None:
    """Cut the message of click's error (typed final: it is set once, in click's own
    ``__init__``; here it is only shortened before it is shown), and show a usage error
    as one line, as every other mistake is, where click prints three (its usage, a hint
    and the error)."""
    vars(exc)["message"] = cut(exc.message, USAGE_MESSAGE)
    if isinstance(exc, click.UsageError):
        vars(exc)["show"] = lambda file=None: _one_usage_line(exc, file)


def _one_usage_line(exc: click.UsageError, file: Any = None) -> None:
    """``adjudicator legal: Invalid value for '--at': 'x' is not a valid integer (see
    'adjudicator legal --help')``."""
    where = exc.ctx.command_path if exc.ctx is not None else "adjudicator"
    hint = f" (see '{where} --help')"
    said = cut(f"{where}: {exc.format_message().rstrip('.')}", MESSAGE_MAX - len(hint))
    click.echo(said + hint, file=file, err=True)


class ReaderGone:
    """Standard output, as the commands write it, for a reader that may stop reading
    (``check folder | head -1``): once the pipe is closed, what is still written is
    dropped and the command runs on to its end, so that its exit status is still the
    one its verdicts give, never the 1 of "some record illegal" (nor a traceback).
    Any other failure to write (a full disk) is raised as it was."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.gone = False

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                return int(self.stream.write(text))
            except BrokenPipeError:
                self._went()
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self.stream.flush()
            except BrokenPipeError:
                self._went()

    def _went(self) -> None:
        self.gone = True
        _silence_stdout()  # what the stream still holds goes nowhere, at exit too

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def output_closed() -> bool:
    """Whether the reader of standard output has closed it: nothing more will be read."""
    return isinstance(sys.stdout, ReaderGone) and sys.stdout.gone


class Adjudicator(click.Group):
    """The command group, plus what every command shares: Ctrl-C, SIGTERM and an output
    that cannot be written each end the run with one line and their own exit status
    (130, 143, 2), never a traceback; 1 stays "a record is illegal"."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.ClickException as exc:  # adjudicator --no-such-option...
            _cut_usage(exc)
            raise

    def invoke(self, ctx: click.Context) -> Any:
        main_thread = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGTERM, _terminated) if main_thread else None
        previous = _startup.unheld(previous)  # put back at the end: Python's own
        stdout = sys.stdout
        sys.stdout = ReaderGone(stdout)  # writes as the stream does, gone reader aside
        try:
            _startup.release()  # Ctrl-C is KeyboardInterrupt from here, caught below
            try:
                return super().invoke(ctx)
            except click.ClickException as exc:  # a command's usage error quotes what was given
                _cut_usage(exc)
                raise
            finally:
                if previous is not None:  # as it was: the caller may be a test run
                    signal.signal(signal.SIGTERM, previous)
                sys.stdout.flush()
                sys.stdout = stdout
        except KeyboardInterrupt:
            _stop(INTERRUPTED, EXIT_INTERRUPTED)
        except Terminated:
            _stop(TERMINATED, EXIT_TERMINATED)
        except bulk.WorkersLost as exc:
            _stop(str(exc), EXIT_INVALID)
        except OSError as exc:  # standard output on a full disk, or a closed pipe
            _silence_stdout()
            _stop(f"cannot write the output: {exc.strerror or exc}", EXIT_INVALID)


def console(stderr: bool = False) -> Console:
    """A console: colour on a terminal, plain 100-column text otherwise.

    On a terminal the stream is looked up at each write (``file`` left unset),
    so output printed while a progress bar runs goes through rich's redirect.
    """
    stream = sys.stderr if stderr else sys.stdout
    if stream.isatty():
        return Console(stderr=stderr, highlight=False, emoji=False)
    return Console(
        file=stream, width=100, color_system=None, highlight=False, soft_wrap=True, emoji=False
    )


PROGRESS_MIN = 10
"""A progress bar appears (on a terminal) when more records than this are checked."""


@contextmanager
def progress(err: Console, total: int | None, what: str) -> Iterator[Callable[[], None]]:
    """A rich progress bar on stderr when it is a terminal; yields "one more done"."""
    if total is None or total <= PROGRESS_MIN or not err.is_terminal:
        yield lambda: None
        return
    bar = Progress(
        TextColumn(what),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        redirect_stdout=sys.stdout.isatty(),
        redirect_stderr=False,
    )
    with bar:
        task = bar.add_task(what, total=total)
        yield lambda: bar.advance(task)


class OneLine(click.ClickException):
    """A mistake found while the options are read: one line on stderr (no usage text
    before it), exit status 2."""

    exit_code = EXIT_INVALID

    def show(self, file: Any = None) -> None:
        with suppress(OSError):
            console(stderr=True).print(self.format_message(), markup=False, highlight=False)


if TYPE_CHECKING:
    _IntType = click.ParamType[int]  # generic from click 8.4 on; plain before
else:
    _IntType = click.ParamType


class RecordSize(_IntType):
    """``--max-record-size``: a whole number of bytes from 1 to the machine's memory
    (``1e30`` is read as the number it writes, and refused as more than the memory)."""

    name = "bytes"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number: int | None = value
        else:
            number = _whole_number(str(value))
        flag = f"{limits.SIZE_FLAG} {cut(str(value), 40)}"
        if number is None:
            raise OneLine(f"{flag}: not a number of bytes")
        problem = limits.size_problem(number)
        if problem is not None:
            raise OneLine(f"{flag}: {problem}")
        return number


def _whole_number(text: str) -> int | None:
    """The whole number ``text`` writes (``64000000``, ``6.4e7``), a power of ten past any
    machine's memory for a longer one, or None when it writes no whole number."""
    try:
        return int(text.strip())
    except ValueError:
        pass
    try:
        number = Decimal(text.strip())
    except InvalidOperation:
        return None
    if not number.is_finite():
        return None
    if number.adjusted() > 40:  # never written out: 1e999999999 would fill the memory
        return 10**41 if number > 0 else -(10**41)
    if number != number.to_integral_value():
        return None
    return int(number)


def mistake(message: str) -> NoReturn:
    """A command-line mistake: one line on stderr, exit status 2."""
    console(stderr=True).print(message, markup=False, highlight=False)
    sys.exit(EXIT_INVALID)
