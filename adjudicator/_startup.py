"""Ctrl-C while the command line is still starting: one line and status 130, as later.

Importing the program takes a second or so (more on a busy machine), and until the
command group runs (:mod:`adjudicator.cli_group`) nothing is there to catch Ctrl-C:
Python would print a KeyboardInterrupt traceback from somewhere inside an import.
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

EXIT_INTERRUPTED = 130
"""Ctrl-C (SIGINT): 128 plus the signal's number, as a shell reports it."""
INTERRUPTED = "interrupted (Ctrl-C): the run is incomplete"
"""The one line a run cut short by Ctrl-C ends with."""


def _is_the_command() -> bool:
    argv = getattr(sys, "orig_argv", [])
    if argv[1:3] == ["-m", "adjudicator"]:
        return True
    return bool(sys.argv) and os.path.basename(sys.argv[0]) == "adjudicator"


def _interrupted_early(signum: int, frame: FrameType | None) -> None:
    try:
        os.write(2, (INTERRUPTED + "\n").encode())
    finally:
        os._exit(EXIT_INTERRUPTED)


def hold() -> None:
    """In the ``adjudicator`` command, Ctrl-C from now until :func:`release` ends the
    process with one line and status 130 (a handler set by someone else is kept)."""
    if not _is_the_command():
        return
    try:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _interrupted_early)
    except ValueError:  # not the main thread: Python's own handling stays
        pass


def release() -> None:
    """Ctrl-C is KeyboardInterrupt again (the command group catches it from here)."""
    try:
        if signal.getsignal(signal.SIGINT) is _interrupted_early:
            signal.signal(signal.SIGINT, signal.default_int_handler)
    except ValueError:
        pass
