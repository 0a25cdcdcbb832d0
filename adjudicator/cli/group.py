"""The command group every ``adjudicator`` command runs in: how a run ends when it is cut
short.  Ctrl-C, SIGTERM, a lost worker and an output that cannot be written each end the
run with one line on stderr and their own exit status (130, 143, 2), never a traceback;
exit status 1 stays "a record is illegal".
"""

from __future__ import annotations

import inspect
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

from adjudicator import _startup, bulk, i18n
from adjudicator._startup import INTERRUPTED, TERMINATED
from adjudicator.cli import lang, terminal
from adjudicator.exits import EXIT_INTERRUPTED, EXIT_INVALID, EXIT_TERMINATED
from adjudicator.i18n import _
from adjudicator.invalid import MESSAGE_MAX, cut


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
    and the error).  The line is said now, in the language the command line is read in
    (click shows it later, when the run's language is gone); said once."""
    if "show" in vars(exc):
        return
    vars(exc)["message"] = cut(exc.message, USAGE_MESSAGE)
    if isinstance(exc, click.UsageError):
        line = _one_usage_line(exc)
        vars(exc)["show"] = lambda file=None: click.echo(line, file=file, err=True)


def _one_usage_line(exc: click.UsageError) -> str:
    """``adjudicator legal: Invalid value for '--at': 'x' is not a valid integer (see
    'adjudicator legal --help')``."""
    where = exc.ctx.command_path if exc.ctx is not None else "adjudicator"
    hint = " " + _("(see {command})").format(command=f"'{where} --help'")
    said = cut(f"{where}: {exc.format_message().rstrip('.')}", MESSAGE_MAX - len(hint))
    return said + hint


def _said(text: str) -> str:
    """A help text in the language speaking now: ours, else one of click's (``--help``)."""
    english = inspect.cleandoc(text)
    said = _(english)
    return lang.click_gettext(english) if said == english else said


@contextmanager
def _in_language(command: click.Command, ctx: click.Context | None) -> Iterator[None]:
    """The help of ``command`` (and of its parameters, given ``ctx``) in the language
    speaking now, for as long as click writes it; English again after.  The help is
    written in English in the code (docstrings, ``help=``) and extracted from there
    (:mod:`adjudicator.cli.help_words`)."""
    saved: list[tuple[Any, str, str | None]] = []

    def put(thing: Any, field: str, said: str) -> None:
        saved.append((thing, field, getattr(thing, field)))
        setattr(thing, field, said)

    for field in ("help", "short_help", "epilog"):
        text = getattr(command, field)
        if text:
            put(command, field, _said(text))
    for param in command.get_params(ctx) if ctx is not None else ():
        text = getattr(param, "help", None)
        if isinstance(param, lang.LangOption):
            put(param, "help", param.said_help())
        elif isinstance(text, str) and text:
            put(param, "help", _said(text))
    try:
        yield
    finally:
        for thing, field, text in reversed(saved):
            setattr(thing, field, text)


class Helped(click.Command):
    """A command that speaks the run's language from the moment its command line is read:
    its ``--help``, click's words ("Usage:", "Options") and its usage errors, whether
    ``--lang`` comes before ``--help`` or after it, or from the environment."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.with_resource(i18n.speaking(lang.before_parsing(args, ctx)))
        try:
            return super().parse_args(ctx, args)
        except BaseException as exc:  # --help shown, a usage error, --lang refused
            if isinstance(exc, click.ClickException):
                _cut_usage(exc)
            ctx.close()  # the language put back: click does not close a context it failed
            raise

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.ClickException as exc:  # a command's usage error quotes what was given
            _cut_usage(exc)
            raise

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        with i18n.speaking(i18n.SOURCE):  # click keeps it: made in English, said translated
            return super().get_help_option(ctx)

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with _in_language(self, ctx):
            super().format_help(ctx, formatter)

    def get_short_help_str(self, limit: int = 45) -> str:
        with _in_language(self, None):
            return super().get_short_help_str(limit)


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


class Adjudicator(Helped, click.Group):
    """The command group, plus what every command shares: Ctrl-C, SIGTERM and an output
    that cannot be written each end the run with one line and their own exit status
    (130, 143, 2), never a traceback; 1 stays "a record is illegal"; help and usage
    errors in the run's language (:class:`Helped`, the class of every command)."""

    command_class = Helped

    def main(self, *args: Any, **kwargs: Any) -> Any:
        terminal.fit_standard_streams()  # any terminal: no character is a traceback
        return super().main(*args, **kwargs)

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


def mistake(message: str) -> NoReturn:
    """A command-line mistake: one line on stderr, exit status 2."""
    console(stderr=True).print(message, markup=False, highlight=False)
    sys.exit(EXIT_INVALID)
