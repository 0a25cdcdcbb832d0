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
from typing import Any, NoReturn

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

from adjudicator import _startup, bulk
from adjudicator._startup import EXIT_INTERRUPTED, EXIT_TERMINATED, INTERRUPTED, TERMINATED

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


class Adjudicator(click.Group):
    """The command group, plus what every command shares: Ctrl-C, SIGTERM and an output
    that cannot be written each end the run with one line and their own exit status
    (130, 143, 2), never a traceback; 1 stays "a record is illegal"."""

    def invoke(self, ctx: click.Context) -> Any:
        main_thread = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGTERM, _terminated) if main_thread else None
        previous = _startup.unheld(previous)  # put back at the end: Python's own
        try:
            _startup.release()  # Ctrl-C is KeyboardInterrupt from here, caught below
            try:
                return super().invoke(ctx)
            finally:
                if previous is not None:  # as it was: the caller may be a test run
                    signal.signal(signal.SIGTERM, previous)
                sys.stdout.flush()
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


def mistake(message: str) -> NoReturn:
    """A command-line mistake: one line on stderr, exit status 2."""
    console(stderr=True).print(message, markup=False, highlight=False)
    sys.exit(EXIT_INVALID)
