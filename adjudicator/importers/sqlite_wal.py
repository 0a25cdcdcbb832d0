"""A database file's bytes with its write-ahead log laid over them, in memory.

While an app runs in SQLite's WAL mode, its newest transactions sit in ``FILE-wal``
beside the database until a checkpoint copies them in.  SQLite reads that log only
through files, and a file picked on the page is bytes, never written anywhere: so
the log's committed pages are laid over the database's bytes here, as a checkpoint
would, and the result is read like any other database.  The log's layout is
SQLite's documented file format ("The WAL File Format", sqlite.org/fileformat2.html,
section 4): a 32-byte header, then frames of a 24-byte header and one page.  A frame
counts only when its salts are the header's and its running checksum holds; the
pages of the frames up to the last commit among them are taken, later ones
(a transaction still being written) are not.
"""

from __future__ import annotations

import struct

from adjudicator.exceptions import AdjudicatorError
from adjudicator.i18n import _

MAGIC = (0x377F0682, 0x377F0683)
"""The log's first four bytes, big-endian: the last bit says in which byte order the
checksums read the page's words (1: big-endian)."""

HEADER = 32
FRAME_HEADER = 24


class BadLog(AdjudicatorError, ValueError):
    """Bytes that are no write-ahead log of this database (one line says why)."""


def checksum(data: bytes, big_endian: bool, s0: int = 0, s1: int = 0) -> tuple[int, int]:
    """SQLite's running checksum of ``data`` (a multiple of 8 bytes), from ``s0, s1``."""
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    for first, second in zip(words[0::2], words[1::2], strict=True):
        s0 = (s0 + first + s1) & 0xFFFFFFFF
        s1 = (s1 + second + s0) & 0xFFFFFFFF
    return s0, s1


def committed_pages(log: bytes) -> tuple[int, dict[int, bytes]]:
    """The database's size in pages after the log's last commit, and each page the
    committed frames hold (the last frame of a page wins); ``(0, {})`` for a log with no
    commit.  BadLog when ``log`` is no write-ahead log at all."""
    if len(log) < HEADER:
        raise BadLog(_("too short for a write-ahead log"))
    magic, _version, page_size, _sequence, salt1, salt2, sum1, sum2 = struct.unpack(
        ">8I", log[:HEADER]
    )
    if magic not in MAGIC:
        raise BadLog(_("not a write-ahead log"))
    big_endian = bool(magic & 1)
    if checksum(log[:24], big_endian) != (sum1, sum2):
        raise BadLog(_("its header is damaged"))
    running = (sum1, sum2)
    size, pages, pending = 0, {}, {}
    frame = FRAME_HEADER + page_size
    for at in range(HEADER, len(log) - frame + 1, frame):
        number, commit, frame_salt1, frame_salt2, frame_sum1, frame_sum2 = struct.unpack(
            ">6I", log[at : at + FRAME_HEADER]
        )
        if (frame_salt1, frame_salt2) != (salt1, salt2):
            break  # a frame left from before the log was last restarted
        page = log[at + FRAME_HEADER : at + frame]
        running = checksum(page, big_endian, *checksum(log[at : at + 8], big_endian, *running))
        if running != (frame_sum1, frame_sum2):
            break  # torn or stale: nothing from here on was committed
        pending[number] = page
        if commit:
            pages.update(pending)
            pending.clear()
            size = commit
    return size, pages


def laid_over(database: bytes, log: bytes) -> bytes:
    """``database`` as it reads with ``log`` checkpointed into it, its header saying the
    rollback journal's mode (no log beside it any more).  BadLog as :func:`committed_pages`."""
    size, pages = committed_pages(log)
    data = bytearray(database)
    if pages:
        page_size = len(next(iter(pages.values())))
        data.extend(bytes(max(0, size * page_size - len(data))))
        for number, page in pages.items():
            if number <= size:
                data[(number - 1) * page_size : number * page_size] = page
        del data[size * page_size :]
    data[18:20] = b"\x01\x01"
    return bytes(data)
