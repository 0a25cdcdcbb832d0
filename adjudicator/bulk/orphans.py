"""Workers that die with the run: ``kill -9`` of ``check --jobs N`` leaves none checking
on (they ran on for minutes, holding the pipe of ``check ... | wc -l`` open)."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

from adjudicator.exits import EXIT_ORPHANED

PR_SET_PDEATHSIG = 1
"""Linux's ``prctl`` option: the signal this process gets when its parent dies."""
WATCH_EVERY = 0.5
"""Seconds between a worker's looks at its parent, where the system has no PDEATHSIG."""


def die_with_parent(parent: int, main_thread: bool) -> None:
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
