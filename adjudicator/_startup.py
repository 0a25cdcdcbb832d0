"""Ctrl-C while the command line is still starting: one line and status 130, as later.

Importing the program takes a second or so (more on a busy machine), and until the
command group runs (:mod:`adjudicator.cli.group`) nothing is there to catch Ctrl-C:
Python would print a KeyboardInterrupt traceback from somewhere inside an import (and
SIGTERM would end the process without a word).
:func:`hold` is called first thing by the package, and acts only when this process
is the ``adjudicator`` command (or ``python -m adjudicator``), never for a program
that imports the library.  Nothing has been read or written yet, so ending the
process on the spot loses nothing.  Standard library only: this runs before the rest.
"""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType
from typing import Any

from adjudicator.exits import EXIT_INTERRUPTED, EXIT_TERMINATED

INTERRUPTED = "interrupted (Ctrl-C): the run is incomplete"
TERMINATED = "terminated (SIGTERM): the run is incomplete"
"""The one line a run cut short by Ctrl-C, or by SIGTERM, ends with."""
_ENDS: dict[signal.Signals, tuple[str, int, Any]] = {
    signal.SIGINT: (INTERRUPTED, EXIT_INTERRUPTED, signal.default_int_handler),
    signal.SIGTERM: (TERMINATED, EXIT_TERMINATED, signal.SIG_DFL),
}
"""Per signal held: its line, its exit status, and Python's own handling of it."""


def _is_the_command() -> bool:
    argv = getattr(sys, "orig_argv", [])
    if argv[1:3] == ["-m", "adjudicator"]:
        return True
    return bool(sys.argv) and os.path.basename(sys.argv[0]) == "adjudicator"


def _ended_early(signum: int, frame: FrameType | None) -> None:
    line, status, _ = _ENDS[signal.Signals(signum)]
    try:
        os.write(2, (line + "\n").encode())
    finally:
        os._exit(status)


def hold() -> None:
    """In the ``adjudicator`` command, Ctrl-C and SIGTERM from now until :func:`release`
    end the process with one line and status 130 or 143 (a handler set by someone else
    is kept)."""
    if not _is_the_command():
        return
    try:
        for signum, (_, _, python_s) in _ENDS.items():
            if signal.getsignal(signum) is python_s:
                signal.signal(signum, _ended_early)
    except ValueError:  # not the main thread: Python's own handling stays
        pass


def unheld(handler: Any) -> Any:
    """``handler``, or Python's own handling of the signal if it is the one held here."""
    return signal.SIG_DFL if handler is _ended_early else handler


def release() -> None:
    """Ctrl-C and SIGTERM handled as Python does again (the command group catches
    KeyboardInterrupt from here, and sets its own SIGTERM handler)."""
    try:
        for signum, (_, _, python_s) in _ENDS.items():
            if signal.getsignal(signum) is _ended_early:
                signal.signal(signum, python_s)
    except ValueError:
        pass
