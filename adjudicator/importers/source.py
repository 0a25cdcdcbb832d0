"""Reading a source's text for an importer: a file or standard input, held to the size cap.

Every importer reads what it is given through here, so that a foreign log is held to
the same limits as a record (a regular file only, never more than ``max_size`` bytes,
UTF-8), and says why in the same words when it is not.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

from adjudicator.i18n import _
from adjudicator.invalid import RecordError
from adjudicator.limits import printable, too_big
from adjudicator.record.build import loads_objects, read_text

STDIN = "-"


def read_source(source: str, max_size: int) -> str:
    """The text of ``source`` (a path, or ``-`` for standard input); RecordError when it
    cannot be read, is too large or is not UTF-8."""
    if source != STDIN:
        return read_text(source, max_size)
    data = sys.stdin.buffer.read(max_size + 1)
    if len(data) > max_size:
        raise RecordError("", too_big(_("standard input"), max_size))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError("", _("standard input is not UTF-8 text")) from None


def label(source: str) -> str:
    """How a source is named to people (escaped: a file name cannot drive a terminal)."""
    return printable(source)


def json_values(text: str, jsonl: bool = False) -> Iterator[tuple[int | None, Any, str | None]]:
    """The JSON values of a text: one value (line None), or JSON Lines, one a line with
    content (1-based line numbers).  A value that is no JSON comes as its error line
    (the record reader's words: the line and column, a key written twice).  With
    ``jsonl`` (a ``*.jsonl`` file) a text that is no one value is JSON Lines whatever its
    first line, so a broken line is named by its number, as ``check`` names it.

    A text whose first line with content is a whole value, with more lines after it,
    cannot be one value: it is read a line at a time at once, not first tried whole
    (which costs a pass over the whole text for its depth)."""
    lines = [
        (n, line)
        for n, line in enumerate(text.splitlines(keepends=True), start=1)
        if not line.isspace()  # a line with content (splitlines gives no empty one)
    ]
    if len(lines) >= 2:
        try:
            first = loads_objects(lines[0][1])
        except RecordError:
            pass  # perhaps one value written over several lines
        else:
            yield lines[0][0], first, None
            yield from _each_line(lines[1:])
            return
    try:
        yield None, loads_objects(text), None
        return
    except RecordError as exc:
        whole = str(exc)
    if not lines or (not jsonl and (len(lines) < 2 or not _one_value(lines[0][1]))):
        yield None, None, whole
        return
    yield from _each_line(lines)


def _each_line(lines: list[tuple[int, str]]) -> Iterator[tuple[int | None, Any, str | None]]:
    for number, line in lines:
        try:
            yield number, loads_objects(line), None
        except RecordError as exc:
            yield number, None, str(exc)


def _one_value(line: str) -> bool:
    try:
        loads_objects(line)
    except RecordError:
        return False
    return True
