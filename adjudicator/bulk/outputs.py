"""Every file the tool writes, written whole or not at all: one helper, :class:`Output`.

A file is written to a temporary file beside its target, flushed to the disk (``fsync``)
and renamed over the target at the end, so that the target is always the old file or a
whole new one: a full disk, a crash or Ctrl-C halfway leaves the old file.  A symbolic
link as the target writes the file it points to and stays a link.  An output that is one
of the inputs, or named twice, is refused before anything is read or truncated.

The temporary file is named ``.NAME.PID-XXXXXXXX.part`` (hidden, the writer's process id
in it): a run killed with ``kill -9`` cannot remove its own, so the next run writing the
same target removes those whose process is gone.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path
from typing import IO, NoReturn

from adjudicator import limits
from adjudicator.exceptions import AdjudicatorError
from adjudicator.invalid import cut

STDIN = "-"
PART = ".part"
"""How every temporary file of an output ends."""


class OutputError(AdjudicatorError, ValueError):
    """An output that cannot be made or written: the message is one line for a person."""

    def __init__(self, message: str) -> None:
        super().__init__(cut(message))


def refuse_clashes(paths: Sequence[str], targets: dict[str, str | None]) -> None:
    """Refuse a --write-* target that is one of the inputs, or named for both verdicts:
    it would be emptied before it is read, or written twice at once."""
    named = [(status, t) for status, t in targets.items() if t is not None]
    for status, target in named:
        for path in paths:
            if path != STDIN and _same_file(target, path):
                raise OutputError(
                    f"--write-{status} {limits.printable(target)}: that is an input of the "
                    "run; write to another file"
                )
    if len(named) == 2 and _same_file(named[0][1], named[1][1]):
        raise OutputError(
            f"--write-illegal and --write-legal both name {limits.printable(named[0][1])}: "
            "give two files"
        )


def _same_file(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are one file (through links too), existing or not."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


class Output:
    """A file the tool writes: to a temporary file in the folder of the file the target
    names (through links), flushed and renamed over it at :meth:`commit`, so that it is
    the old file or a whole new one.

    A target that exists and is no regular file (``/dev/null``, a pipe, a terminal) is
    written directly.  Anything that fails (a full disk, a folder that cannot be
    written) raises :class:`OutputError`, one line naming ``option`` and the target,
    and removes the temporary file.
    """

    def __init__(self, option: str, target: str | os.PathLike[str]) -> None:
        self.option = option
        self.target = os.fspath(target)
        self.temp: str | None = None
        try:
            # A link is followed to the file it names (a dangling one too): that file is
            # replaced, the link stays.  realpath follows every link of the path.
            self.real = os.path.realpath(self.target)
            if os.path.exists(self.real) and not os.path.isfile(self.real):
                self.stream: IO[str] = open(  # noqa: SIM115
                    self.real, "w", encoding="utf-8", errors="backslashreplace"
                )
                return
            folder, name = os.path.split(self.real)
            _remove_stale_parts(folder, name)
            fd, self.temp = tempfile.mkstemp(
                prefix=f".{name}.{os.getpid()}-", suffix=PART, dir=folder
            )
            os.chmod(self.temp, _mode_for(self.real))
            # A lone surrogate left in a text (a file name's undecodable byte) is written
            # as its escape, not refused halfway through the file.
            self.stream = os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace")
        except (OSError, ValueError) as exc:
            self.fail(exc)

    def write(self, text: str) -> None:
        try:
            self.stream.write(text)
        except OSError as exc:
            self.fail(exc)

    def commit(self) -> None:
        """Flush the file to the disk and put it in place of the target."""
        try:
            self.stream.flush()
            if self.temp is not None:
                os.fsync(self.stream.fileno())
            self.stream.close()
            if self.temp is not None:
                os.replace(self.temp, self.real)
                self.temp = None
                _sync_folder(os.path.dirname(self.real))
        except OSError as exc:
            self.fail(exc)

    def discard(self) -> None:
        """Remove what was written; the target stays as it was."""
        stream = getattr(self, "stream", None)
        if stream is not None:
            with suppress(OSError, ValueError):
                stream.close()
        if self.temp is not None:
            with suppress(OSError):
                os.unlink(self.temp)
            self.temp = None

    def fail(self, exc: OSError | ValueError) -> NoReturn:
        self.discard()
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise OutputError(
            f"{self.option}: cannot write {limits.printable(self.target)}: {why}"
        ) from None


def write_file(option: str, target: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``target`` whole or not at all (see :class:`Output`);
    :class:`OutputError` with one line if it cannot be written."""
    output = Output(option, target)
    try:
        output.write(text)
        output.commit()
    except BaseException:
        output.discard()
        raise


def _mode_for(target: str) -> int:
    """The permissions the output gets: the old file's, or what ``open`` would give."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _sync_folder(folder: str) -> None:
    """Flush the folder's entry of the renamed file, where the system allows it."""
    with suppress(OSError, AttributeError):
        fd = os.open(folder or ".", os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _remove_stale_parts(folder: str, name: str) -> None:
    """Remove the temporary files of ``name`` left by runs that were killed (their
    process is gone); a run still writing keeps its own."""
    with suppress(OSError):
        for entry in Path(folder or ".").glob(f".{_glob_escape(name)}.*{PART}"):
            pid = entry.name[len(name) + 2 : -len(PART)].split("-", 1)[0]
            if pid.isdigit() and not _alive(int(pid)):
                with suppress(OSError):
                    entry.unlink()


def _glob_escape(name: str) -> str:
    return "".join(f"[{c}]" if c in "*?[" else c for c in name)


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (on this machine)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # someone else's process: not ours to judge
    return True
