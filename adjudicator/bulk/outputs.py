"""Files a run writes by verdict (``check --write-illegal/--write-legal``), safely.

Each is written to a temporary file beside its target and renamed over it at the end,
so the target is always the old file or a whole new one; an output that is one of the
inputs, or named twice, is refused before anything is read or truncated.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Sequence
from contextlib import suppress
from typing import IO, NoReturn

from adjudicator import limits

STDIN = "-"


class OutputError(ValueError):
    """An output that cannot be made or written: the message is one line for a person."""


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
    """A --write-* file: written to a temporary file in the target's folder and renamed
    over the target at the end, so that the target is the old file or a whole new one.

    A target that exists and is no regular file (``/dev/null``, a pipe) is written
    directly.  A write that fails (a full disk) raises :class:`OutputError`.
    """

    def __init__(self, option: str, target: str) -> None:
        self.option = option
        self.target = target
        self.temp: str | None = None
        try:
            if os.path.exists(target) and not os.path.isfile(target):
                self.stream: IO[str] = open(target, "w", encoding="utf-8")  # noqa: SIM115
                return
            folder = os.path.dirname(os.path.abspath(target))
            fd, self.temp = tempfile.mkstemp(
                prefix=f".{os.path.basename(target)}.", suffix=".part", dir=folder
            )
            os.chmod(self.temp, _mode_for(target))
            self.stream = os.fdopen(fd, "w", encoding="utf-8")
        except OSError as exc:
            self.fail(exc)

    def write(self, text: str) -> None:
        try:
            self.stream.write(text)
        except OSError as exc:
            self.fail(exc)

    def commit(self) -> None:
        """Close the file and put it in place of the target."""
        try:
            self.stream.close()
            if self.temp is not None:
                os.replace(self.temp, self.target)
                self.temp = None
        except OSError as exc:
            self.fail(exc)

    def discard(self) -> None:
        """Remove what was written; the target stays as it was."""
        stream = getattr(self, "stream", None)
        if stream is not None:
            with suppress(OSError):
                stream.close()
        if self.temp is not None:
            with suppress(OSError):
                os.unlink(self.temp)
            self.temp = None

    def fail(self, exc: OSError) -> NoReturn:
        self.discard()
        raise OutputError(
            f"{self.option}: cannot write {limits.printable(self.target)}: {exc.strerror}"
        ) from None


def _mode_for(target: str) -> int:
    """The permissions the output gets: the old file's, or what ``open`` would give."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
