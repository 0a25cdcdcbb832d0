"""How much input one record may be, and reading files without trusting them.

One place for the limit and its message, so the command line and the library
refuse the same inputs with the same words.  A record of the format is a few
kilobytes (a long game, a few tens); the default limit leaves a thousandfold
margin and still stops a 1 GB line, or a file that is really ``/dev/zero``,
before it takes the machine's memory.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from array import array
from itertools import accumulate

from adjudicator.exceptions import AdjudicatorError
from adjudicator.i18n import N_, _, number
from adjudicator.invalid import RecordError, cut

MAX_RECORD_SIZE = 64 * 1024 * 1024
"""Bytes one record (a file, or one line of JSON Lines) may hold by default: 64 MB."""

SIZE_FLAG = "--max-record-size"

COMMENT_MAX = 1000
"""Characters a comment beside an action may hold: a few sentences.  A record's other
texts are short too (a name is 40 characters, a message 300); without a limit a record
of megabyte notes would make megabyte pages of every replay and export."""


class InputError(AdjudicatorError, OSError):
    """A file that is not read: not a regular file, or larger than the limit."""

    def __init__(self, message: str) -> None:
        super().__init__(cut(message))


def memory() -> int:
    """Bytes of memory this machine has (the physical memory where the system says,
    else the largest object Python can make): no record can be larger."""
    try:
        pages = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        pages = -1
    return pages if pages > 0 else sys.maxsize


def size_problem(value: object) -> str | None:
    """Why ``value`` cannot be a limit of bytes per record, or None when it can: a whole
    number from 1 to the machine's memory (a record is read whole, so a larger limit
    could only end in a crash)."""
    if isinstance(value, bool) or not isinstance(value, int):
        return _("must be a whole number of bytes, not {value}").format(value=cut(repr(value), 40))
    if value < 1:
        return _("must be at least 1 byte, not {value}").format(value=number(value))
    most = memory()
    if value > most:
        return _("more than this machine's memory; at most {most} bytes").format(most=number(most))
    return None


def checked_size(max_size: object) -> int:
    """``max_size`` as the library takes it, or RecordError with the one line."""
    problem = size_problem(max_size)
    if problem is not None:
        raise RecordError("max_size", problem)
    return max_size  # type: ignore[return-value]  # size_problem checked it is an int


def too_big(what: str, limit: int) -> str:
    """The one line for a record over the limit: what, the limit, and how to raise it."""
    return _(
        "{what} is larger than the limit of {limit} bytes per record ({flag} raises it)"
    ).format(what=what, limit=number(limit), flag=SIZE_FLAG)


def printable(name: str) -> str:
    """A file name as it may be printed: as is, or quoted as JSON when it holds anything
    a terminal would act on (control characters, line breaks, bidi overrides, lone
    surrogates from undecodable bytes), the way record messages quote odd keys."""
    if name.isprintable():
        return name
    return json.dumps(name)


def open_regular(path: str) -> int:
    """A descriptor open for reading on ``path``, a regular file; InputError otherwise.

    Opened without blocking, so a FIFO named like a record does not wait for a
    writer; a device (``/dev/zero`` behind a symbolic link) is refused before
    a byte is read.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise InputError(
                _("{path} is not a regular file ({kind})").format(
                    path=printable(path), kind=_(_kind(mode))
                )
            )
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return N_("a named pipe")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return N_("a device")
    if stat.S_ISSOCK(mode):
        return N_("a socket")
    if stat.S_ISDIR(mode):
        return N_("a folder")
    return N_("not a file")


def read_limited(path: str, limit: int = MAX_RECORD_SIZE) -> bytes:
    """The bytes of the regular file ``path``; InputError when it is none or over ``limit``.

    At most ``limit + 1`` bytes are ever read, whatever the file claims to hold.
    """
    fd = open_regular(path)
    with os.fdopen(fd, "rb") as stream:
        # Read in pieces no larger than the file says it is (plus one, to see it grew):
        # a limit of gigabytes is never allocated up front for a file of kilobytes.
        size = os.fstat(fd).st_size
        pieces: list[bytes] = []
        got = 0
        while got <= limit:
            piece = stream.read(min(limit + 1 - got, max(size + 1 - got, READ_PIECE)))
            if not piece:
                break
            pieces.append(piece)
            got += len(piece)
    if got > limit:
        raise InputError(too_big(printable(path), limit))
    return pieces[0] if len(pieces) == 1 else b"".join(pieces)


READ_PIECE = 1 << 20
"""Bytes read at a time past the size a file had when it was opened."""


MAX_NESTING = 500
"""How deep a record's JSON may nest.  A record nests a few levels (a session's game's
action's cards: six); json's scanner recurses once a level, and CPython stops it near
1,000 levels while the browser's engine (Pyodide) runs out of the page's stack near
3,000 and dies.  One bound below both, so the command line and the phone refuse the
same texts with the same line ("not a record: JSON nested too deeply to read")."""

_NOT_SYNTAX = bytes(c for c in range(256) if c not in b'[]{}"')
_STEP = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")  # +1 and -1, as signed bytes


def nesting_checked(text: str, limit: int = MAX_NESTING) -> str:
    """``text`` itself, or RecursionError (as json's scanner raises it) when its arrays
    and objects nest deeper than ``limit``: checked before json recurses into it.

    In C-speed passes (a tenth of json's own time on a record of object actions): the
    escaped backslashes and quotes dropped, then all but brackets and quotes; a string
    left holding a bracket is dropped whole, and the running depth's peak is the answer."""
    if text.count("[") + text.count("{") <= limit:
        return text
    raw = text.encode("utf-8", "surrogatepass").replace(b"\\\\", b"").replace(b'\\"', b"")
    syntax = raw.translate(None, _NOT_SYNTAX).replace(b'""', b"")  # an empty string: none
    if b'"' in syntax:  # strings holding brackets: keep what lies between them
        syntax = b"".join(syntax.split(b'"')[::2])
    if max(accumulate(array("b", syntax.translate(_STEP))), default=0) > limit:
        raise RecursionError(f"JSON nested deeper than {limit} levels")
    return text
