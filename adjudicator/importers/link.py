"""The page's shared link: ``https://…/#record=CODE``, a record carried in the address.

``CODE`` is base64url (no padding) of the record's UTF-8 JSON compressed with raw
DEFLATE, as the page writes it (docs/record-format.md, "A record in a link"); a
session's link adds ``&game=N``, the game shown.  Only the fragment is read: nothing is
fetched, whatever the address.  The record is inflated in chunks and never beyond the
size cap, so a small link cannot unfold into gigabytes.
"""

from __future__ import annotations

import base64
import binascii
import os
import re
import zlib
from collections.abc import Iterator
from typing import Any

from adjudicator.i18n import N_, _
from adjudicator.importers.base import Imported, ImportOptions
from adjudicator.importers.source import label, read_source
from adjudicator.invalid import RecordError, cut
from adjudicator.limits import too_big
from adjudicator.record.build import loads

NAME = "link"
TITLE = N_("The page's shared link (…#record=…): the record in the address, nothing fetched")

_CODE = re.compile(r"[A-Za-z0-9_-]+")
"""The record's part of a link's fragment: base64url, no padding."""
CHUNK = 64 * 1024
"""Bytes inflated at a time: the cap is checked between chunks."""


def looks_like_link(text: str) -> bool:
    """Whether ``text`` is a shared link (an address whose fragment holds a record), as a
    command-line argument is told from a file name."""
    return "#record=" in text and text.lstrip().lower().startswith(("http://", "https://", "#"))


def is_address(text: str) -> bool:
    """Whether ``text`` is a web address (``https://…``), a link with or without a record:
    an argument that names no file, so one without ``#record=`` is said to hold none."""
    return text.lstrip().lower().startswith(("http://", "https://"))


def holds_no_record() -> str:
    """The line for an address that carries no record (``#record=`` missing)."""
    return _("the link holds no record (#record=… is missing): copy the page's link with Copy link")


def decode(link: str, max_size: int) -> dict[str, Any]:
    """The record a link carries; RecordError (one line) when it is damaged or too big."""
    code = _record_code(link)
    if code is None:
        raise RecordError("", _("the link is damaged: cut short when copied?"))
    if len(code) > max_size * 2:  # base64 of a deflated record is never this long
        raise RecordError("", too_big(_("the link"), max_size))
    try:
        packed = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
    except (binascii.Error, ValueError):
        raise RecordError("", _("the link is damaged: cut short when copied?")) from None
    text = _inflate(packed, max_size)
    try:
        said = text.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError("", _("the link is damaged: cut short when copied?")) from None
    try:
        document = loads(said)
    except RecordError as exc:
        raise RecordError("", _("the link holds no record: {why}").format(why=exc)) from None
    if not isinstance(document, dict):
        raise RecordError("", _("the link holds no record: not a JSON object"))
    return document


def _record_code(link: str) -> str | None:
    """The ``record=`` value of the link's fragment, or None when it is missing or holds
    what base64url never does.  The page's other keys (``game``, ``step``, ``as``: which
    game, step and view it showed) follow it after ``&`` and change no verdict."""
    fragment = link.strip().partition("#")[2]
    for part in fragment.split("&"):
        key, _sep, value = part.partition("=")
        if key == "record":
            return value if _CODE.fullmatch(value) else None
    return None


def _inflate(packed: bytes, max_size: int) -> bytes:
    """Raw DEFLATE, at most ``max_size`` bytes out, a chunk at a time."""
    inflater = zlib.decompressobj(-zlib.MAX_WBITS)
    parts: list[bytes] = []
    size = 0
    pending = packed
    try:
        while True:
            part = inflater.decompress(pending, CHUNK)
            size += len(part)
            if size > max_size:
                raise RecordError("", too_big(_("the link's record"), max_size))
            parts.append(part)
            pending = inflater.unconsumed_tail
            if not pending:
                break
        rest = inflater.flush(CHUNK)
    except zlib.error:
        raise RecordError("", _("the link is damaged: cut short when copied?")) from None
    size += len(rest)
    if size > max_size:
        raise RecordError("", too_big(_("the link's record"), max_size))
    if not inflater.eof:
        raise RecordError("", _("the link is damaged: cut short when copied?"))
    parts.append(rest)
    return b"".join(parts)


def link_label(link: str) -> str:
    """A link as its verdict names it: the address and the start of the code."""
    head, _sep, code = link.strip().partition("#record=")
    shown = code if len(code) <= 16 else code[:12] + "…"
    return label(f"{head[:60]}#record={shown}")


def read(source: str, options: ImportOptions) -> Iterator[Imported]:
    """One record for a link; for a file, one for each line holding a link (``FILE:LINE``)."""
    if looks_like_link(source):
        yield _one(link_label(source), source, options.max_size)
        return
    if is_address(source) and not os.path.lexists(source):
        yield Imported(label(cut(source.strip(), 80)), error=holds_no_record())
        return
    try:
        text = read_source(source, options.max_size)
    except RecordError as exc:
        yield Imported(label(source), error=str(exc))
        return
    found = False
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            found = True
            yield _one(f"{label(source)}:{number}", line, options.max_size)
    if not found:
        yield Imported(label(source), error=_("no link found: the file has no line with content"))


def _one(name: str, link: str, max_size: int) -> Imported:
    try:
        return Imported(name, record=decode(link, max_size))
    except RecordError as exc:
        return Imported(name, error=str(exc))
