"""Every file the tool writes, written whole or not at all: one helper, :class:`Output`.

A file is written to a temporary file beside its target, flushed to the disk (``fsync``)
and renamed over the target at the end, so that the target is always the old file or a
whole new one: a full disk, a crash or Ctrl-C halfway leaves the old file.  A symbolic
link as the target writes the file it points to and stays a link.

Nothing else is ever truncated or replaced.  A target that is standard output or standard
error (``/dev/stdout``, or the file the shell sent it to), a pipe, a process substitution
(``>(wc -l)``), a FIFO or a terminal is written as the stream it is, with no temporary
file beside it.  A target that is standard input (``/dev/stdin``, or the file it reads),
one of the inputs (the same device and inode, links followed), named twice, a loop of
symbolic links or a disk is refused with one line before anything is read.

The temporary file is named ``.NAME.PID-XXXXXXXX.part`` (hidden, the writer's process id
in it): a run killed with ``kill -9`` cannot remove its own, so the next run writing the
same target removes those whose process is gone.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
from collections.abc import Mapping, Sequence
from contextlib import suppress
from pathlib import Path
from typing import NoReturn

from adjudicator import limits
from adjudicator.exceptions import AdjudicatorError
from adjudicator.i18n import _
from adjudicator.invalid import cut

STDIN = "-"
PART = ".part"
"""How every temporary file of an output ends."""
STANDARD_OUTPUT = 1

_DESCRIPTOR_NAME = re.compile(r"/dev/std(in|out|err)|/dev/fd/(\d+)|/proc/(?:self|\d+)/fd/(\d+)")
"""A name the system gives an open descriptor: /dev/stdout, /dev/fd/63, /proc/self/fd/1."""
_STANDARD = {"in": 0, "out": 1, "err": 2}
_LINKS_MAX = 40
"""Symbolic links followed to find a descriptor's name, as the system follows at most."""


class OutputError(AdjudicatorError, ValueError):
    """An output that cannot be made or written: the message is one line for a person."""

    def __init__(self, message: str) -> None:
        super().__init__(cut(message))


def refuse_clashes(paths: Sequence[str], targets: Mapping[str, str | None]) -> None:
    """Refuse an output (``targets``: option -> target) that is standard input, one of the
    inputs (``paths``; ``-`` is standard input), or named by two options: it would be
    emptied before it is read, or written twice at once.  Called before anything is read."""
    named = [(option, t) for option, t in targets.items() if t is not None]
    reads_stdin = any(_input_file(path) == STDIN for path in paths)
    for option, target in named:
        _refuse_standard_input(option, target, reads_stdin)
        for path in paths:
            file = _input_file(path)
            if file != STDIN and _same_file(target, file):
                raise OutputError(
                    _(
                        "{option} {target}: that is an input of the run; write to another file"
                    ).format(option=option, target=limits.printable(target))
                )
    for at, (option, target) in enumerate(named):
        for other, again in named[at + 1 :]:
            if _same_file(target, again):
                raise OutputError(
                    _("{option} and {other} both name {target}: give two files").format(
                        option=option, other=other, target=limits.printable(target)
                    )
                )


def _refuse_standard_input(option: str, target: str, reads_stdin: bool) -> None:
    """Refuse ``/dev/stdin`` (any name of descriptor 0), and the file standard input reads
    when it is a regular file (``< record.json``): writing it would empty the input."""
    same = _descriptor_named(target) == 0
    if not same and reads_stdin:
        with suppress(OSError, ValueError):
            held = os.fstat(0)
            same = stat.S_ISREG(held.st_mode) and _same_inode(os.stat(target), held)
    if same:
        raise OutputError(
            _(
                "{option} {target}: that is standard input, which would be emptied; "
                "write to another file"
            ).format(option=option, target=limits.printable(target))
        )


JSON_LINES_EXAMPLE = {
    "--write-illegal": "illegal.jsonl",
    "--write-legal": "legal.jsonl",
    "-o": "games.jsonl",
}
"""The file each option that writes JSON Lines suggests inside a folder it was given."""


def _refuse_folder(option: str, target: str) -> None:
    """Refuse a folder (one that exists, or a name ending in ``/``) where a file is
    written: the name would be made a file of that name, the slash dropped."""
    ends = target.endswith("/") or target.endswith(os.sep)
    if not (ends or os.path.isdir(target)):
        return
    example = JSON_LINES_EXAMPLE.get(option)
    if example is None:
        said = _("{option} {target}: that is a folder; {option} writes one file: name it")
        raise OutputError(said.format(option=option, target=limits.printable(target)))
    said = _(
        "{option} {target}: that is a folder; {option} takes a file, written as JSON Lines "
        "(such as {example})"
    )
    raise OutputError(
        said.format(
            option=option,
            target=limits.printable(target),
            example=limits.printable(os.path.join(target, example)),
        )
    )


def _input_file(path: str) -> str:
    """The file an input argument reads: itself, or FILE of ``FILE:LINE`` (``-`` of ``-:3``)
    and of ``FILE#gameId``, the names ``check`` gives what it read."""
    if path == STDIN or os.path.lexists(path):
        return path
    head, sep, game = path.rpartition("#")
    if sep and head and game and os.path.lexists(head):
        return head
    head, sep, tail = path.rpartition(":")
    return head if sep and head and tail.isdigit() else path


def _same_file(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are one file (device and inode, through links), existing
    or not (then: the same path once every link is followed)."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return os.path.realpath(a) == os.path.realpath(b)


def _same_inode(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _descriptor_named(target: str) -> int | None:
    """The open descriptor ``target`` names (``/dev/stdout`` is 1, ``/dev/fd/63`` is 63),
    itself or through symbolic links, or None when it names a file."""
    path = target
    for _step in range(_LINKS_MAX):
        found = _DESCRIPTOR_NAME.fullmatch(os.path.normpath(path))
        if found is not None:
            word, fd, proc_fd = found.groups()
            if word is not None:
                return _STANDARD[word]
            number = int(fd or proc_fd)
            return number if "/proc/" not in path or _ours(path) else None
        try:
            link = os.readlink(path)
        except (OSError, ValueError):
            return None
        path = os.path.join(os.path.dirname(path), link)
    return None


def _ours(path: str) -> bool:
    """Whether a ``/proc/PID/fd/N`` name is this process's (``self`` or its own id)."""
    owner = path.split("/")[2]
    return owner == "self" or owner == str(os.getpid())


def _same_stream(found: os.stat_result | None, held: os.stat_result) -> bool:
    """Whether a target (``found``) is the file a held descriptor writes: the same inode,
    the null device aside (every script's ``> /dev/null`` is no stream to share)."""
    if found is None or not _same_inode(found, held):
        return False
    with suppress(OSError):
        return not _same_inode(found, os.stat(os.devnull))
    return True


def writes_standard_output(target: str | None) -> bool:
    """Whether an output named ``target`` would be written to standard output."""
    if target is None:
        return False
    named = _descriptor_named(target)
    if named is not None:
        return named == STANDARD_OUTPUT
    held = _held(STANDARD_OUTPUT)
    try:
        return held is not None and _same_stream(os.stat(target), held)
    except (OSError, ValueError):
        return False


def _held(descriptor: int) -> os.stat_result | None:
    with suppress(OSError, ValueError, OverflowError):
        return os.fstat(descriptor)
    return None


class Output:
    """A file the tool writes: to a temporary file in the folder of the file the target
    names (through links), flushed and renamed over it at :meth:`commit`, so that it is
    the old file or a whole new one.

    A target that is standard output or error, or another descriptor the process holds
    (``/dev/fd/63``), is written through a copy of that descriptor (``descriptor`` says
    which), where the stream already is: a file the shell opened with ``>>`` keeps what
    it had.  A target that exists and is no regular file (``/dev/null``, a FIFO, a
    terminal) is opened and written as it is.  Anything that fails (a full disk, a folder
    that cannot be written, a loop of links) raises :class:`OutputError`, one line naming
    ``option`` and the target, and removes the temporary file.
    """

    def __init__(self, option: str, target: str | os.PathLike[str]) -> None:
        self.option = option
        self.target = os.fspath(target)
        self.temp: str | None = None
        self.descriptor: int | None = None
        self.gone = False
        """A pipe's reader stopped reading: nothing more is written."""
        try:
            _refuse_folder(option, self.target)
            _refuse_standard_input(option, self.target, reads_stdin=False)
            found = self._stream_to()
            if found is not None:
                return
            # A link is followed to the file it names (a dangling one too): that file is
            # replaced, the link stays.  realpath follows every link of the path.
            self.real = os.path.realpath(self.target)
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

    def _stream_to(self) -> int | None:
        """Open the target as a stream when it is one (a descriptor held, a pipe, a device):
        the descriptor written (-1 for a stream opened by name), or None for a file."""
        try:
            found: os.stat_result | None = os.stat(self.target)
        except FileNotFoundError:
            found = None  # a new file, or a link to one
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise OutputError(
                    _("{option} {target}: a loop of symbolic links; name a file").format(
                        option=self.option, target=limits.printable(self.target)
                    )
                ) from None
            raise
        named = _descriptor_named(self.target)
        held = [d for d in (named, 1, 2) if d is not None]
        for descriptor in held:
            here = _held(descriptor)
            if here is not None and (descriptor == named or _same_stream(found, here)):
                self.descriptor = descriptor
                self.stream = os.fdopen(
                    os.dup(descriptor), "w", encoding="utf-8", errors="backslashreplace"
                )
                return descriptor
        if found is None or stat.S_ISREG(found.st_mode):
            return None
        if stat.S_ISBLK(found.st_mode):
            raise OutputError(
                _("{option} {target}: a disk; name a file").format(
                    option=self.option, target=limits.printable(self.target)
                )
            )
        self.stream = open(  # noqa: SIM115  (closed by commit or discard)
            self.target, "w", encoding="utf-8", errors="backslashreplace"
        )
        return -1

    def write(self, text: str) -> None:
        if self.gone:
            return
        try:
            self.stream.write(text)
        except BrokenPipeError as exc:
            self._reader_gone(exc)
        except OSError as exc:
            self.fail(exc)

    def _reader_gone(self, exc: OSError) -> None:
        """A pipe whose reader stopped reading (``| head -1``): the rest goes nowhere and
        the run goes on to its end, as standard output does; a file cannot do that."""
        if self.temp is not None:
            self.fail(exc)
        self.gone = True
        with suppress(OSError, ValueError):
            self.stream.close()

    def commit(self) -> None:
        """Flush the file to the disk and put it in place of the target."""
        if self.gone:
            return
        try:
            self.stream.flush()
            if self.temp is not None:
                os.fsync(self.stream.fileno())
            self.stream.close()
            if self.temp is not None:
                os.replace(self.temp, self.real)
                self.temp = None
                _sync_folder(os.path.dirname(self.real))
        except BrokenPipeError as exc:
            self._reader_gone(exc)
        except OSError as exc:
            self.fail(exc)

    def discard(self) -> None:
        """Remove what was written; the target stays as it was (a stream keeps what it
        was given: it cannot be taken back)."""
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
        if isinstance(exc, OutputError):
            raise exc
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise OutputError(
            _("{option}: cannot write {target}: {why}").format(
                option=self.option, target=limits.printable(self.target), why=why
            )
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
