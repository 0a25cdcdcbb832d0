"""A database's write-ahead log laid over its bytes in memory (a database picked on the
page with its ``-wal`` file): what SQLite itself reads from the two files, no more."""

from __future__ import annotations

import sqlite3
import struct
from pathlib import Path

import pytest

from adjudicator.importers import sqlite_wal
from adjudicator.importers.sqlite_wal import BadLog, committed_pages, laid_over

ROWS = 120


def copied_while_open(folder: Path) -> tuple[bytes, bytes, list[str]]:
    """A database in WAL mode with ``ROWS`` committed rows still in its log, copied (file
    and log) while the writer holds it open, as a copy taken off a running app is; and
    the rows as SQLite reads them through the log."""
    path = folder / "app.db"
    writer = sqlite3.connect(path)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")  # nothing copied into the file itself
    writer.execute("CREATE TABLE moves (text TEXT)")
    writer.commit()
    writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for k in range(ROWS):
        writer.execute("INSERT INTO moves VALUES (?)", (f"move {k} " + "x" * 200,))
        writer.commit()
    database, log = path.read_bytes(), Path(f"{path}-wal").read_bytes()
    rows = [r[0] for r in writer.execute("SELECT text FROM moves ORDER BY rowid")]
    writer.close()
    return database, log, rows


def read(data: bytes) -> list[str]:
    conn = sqlite3.connect(":memory:")
    conn.deserialize(data)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    return [r[0] for r in conn.execute("SELECT text FROM moves ORDER BY rowid")]


def test_the_committed_log_reads_as_sqlite_reads_the_two_files(tmp_path: Path) -> None:
    database, log, rows = copied_while_open(tmp_path)
    assert len(rows) == ROWS
    assert read(database[:18] + b"\x01\x01" + database[20:]) == []  # the file alone
    merged = laid_over(database, log)
    assert merged[18:20] == b"\x01\x01"  # no log beside it any more
    assert read(merged) == rows


def test_a_torn_last_frame_loses_only_its_transaction(tmp_path: Path) -> None:
    database, log, rows = copied_while_open(tmp_path)
    assert read(laid_over(database, log[:-1])) == rows[:-1]
    # a byte changed in the last frame's page: its checksum fails, the frame is not taken
    damaged = bytearray(log)
    damaged[-10] ^= 0xFF
    assert read(laid_over(database, bytes(damaged))) == rows[:-1]


def test_frames_of_an_older_log_are_not_taken(tmp_path: Path) -> None:
    """A log restarted after a checkpoint keeps old frames past its new ones: their salts
    are the old header's, so they stop the read."""
    _database, log, _rows = copied_while_open(tmp_path)
    size, pages = committed_pages(log)
    assert size and pages
    header = bytearray(log[:32])
    header[16:20] = struct.pack(">I", (struct.unpack(">I", header[16:20])[0] + 1) % 2**32)
    big_endian = bool(struct.unpack(">I", header[:4])[0] & 1)
    header[24:32] = struct.pack(">2I", *sqlite_wal.checksum(bytes(header[:24]), big_endian))
    assert committed_pages(bytes(header) + log[32:]) == (0, {})


def test_what_is_no_log_is_one_line() -> None:
    with pytest.raises(BadLog, match=r"^too short for a write-ahead log$"):
        laid_over(b"SQLite format 3\x00", b"")
    with pytest.raises(BadLog, match=r"^not a write-ahead log$"):
        laid_over(b"SQLite format 3\x00", b"\x00" * 32)
    header = struct.pack(">8I", sqlite_wal.MAGIC[1], 3007000, 4096, 0, 1, 2, 0, 0)
    with pytest.raises(BadLog, match=r"^its header is damaged$"):
        laid_over(b"SQLite format 3\x00", header)
