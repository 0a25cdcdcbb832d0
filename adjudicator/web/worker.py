"""One checking process of the server's pool: reads jobs on stdin, answers on stdout.

The server's event loop never runs the engine: it hands each record to one of
these processes (:mod:`adjudicator.web.pool`) and awaits the answer, so one
heavy record holds one process, never the table.  A job names a call of
:mod:`adjudicator.service.page` (the core) and its arguments; the answer is the HTTP status and
the JSON text, made here so the server only forwards bytes.

Framing, both ways: one line of JSON (``{"job": ..., "args": ..., "size": N}``
in, ``{"status": S, "size": N}`` out) then ``N`` bytes of body.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import resource
import sys
from typing import Any, BinaryIO

from adjudicator.i18n import N_

BUSY = N_("this record takes longer than {limit} s to check here; use adjudicator check")
"""The one line of a request past the time limit (HTTP 503)."""

MEMORY = N_("this record needs more than {limit} MB of memory to check here; use adjudicator check")
"""The one line of a request past one worker's memory limit (HTTP 503)."""


def _text(raw: bytes) -> str:
    from adjudicator.service.page import BadInput

    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput("body: not UTF-8 text", 400) from None
    if not text.strip():
        raise BadInput("body: empty; send one record as JSON", 400)
    return text


def run(job: str, args: dict[str, Any], body: bytes) -> tuple[int, bytes]:
    """One job's HTTP status and JSON text; a person's mistake is ``{"error": line}``."""
    from adjudicator import i18n
    from adjudicator.service import page

    with i18n.speaking(args.get("lang") or i18n.SOURCE):  # the request's language
        return _run(page, job, args, body)


def _run(page: Any, job: str, args: dict[str, Any], body: bytes) -> tuple[int, bytes]:
    from adjudicator import service

    try:
        if job == "check":
            result = page.check_one(_text(body))
            status = 422 if result["status"] == "invalid" else 200
            return status, service.dumps(result).encode()
        if job == "line":
            return 200, service.dumps(page.check_raw_line(body, args["number"])).encode()
        if job == "legal":
            return 200, service.dumps(page.legal_at(_text(body), args.get("at"))).encode()
        if job == "replay":
            answer = page.replay_answer(_text(body), args.get("viewer"), args.get("start") or 0)
            return 200, answer.encode()
        if job == "session":
            return 200, service.dumps(page.session(_text(body))).encode()
        if job == "qr":
            from adjudicator.service import qr

            return 200, service.dumps(qr.answer(body.decode("utf-8", "replace"))).encode()
        if job == "import":
            return 200, service.dumps(page.imported(_text(body))).encode()
    except page.BadInput as exc:
        return exc.status, service.dumps({"error": exc.message, **(exc.body or {})}).encode()
    raise ValueError(f"no such job: {job}")


M_MMAP_THRESHOLD = -3
"""glibc's ``mallopt`` parameter: blocks at least this large are mapped, and unmapped
when freed."""


def give_back_large_blocks(threshold: int = 1 << 20) -> None:
    """Keep glibc's mmap threshold at ``threshold`` bytes, in the server and in each
    worker: a record's or an answer's megabytes go back to the system once dropped.
    Left to itself glibc raises the threshold to the largest block freed, and then keeps
    the next ones in its heaps: four answers of 7 MB left the server 31 MB larger after
    they were dropped, for good."""
    with contextlib.suppress(OSError, AttributeError):  # not glibc: its own allocator
        ctypes.CDLL(None).mallopt(M_MMAP_THRESHOLD, threshold)


def _said(message: str, lang: str | None) -> str:
    """``message`` in the request's language."""
    from adjudicator import i18n

    with i18n.speaking(lang or i18n.SOURCE):
        return i18n._(message)


def _read_exactly(stream: BinaryIO, size: int) -> bytes:
    data = stream.read(size)
    if len(data) != size:
        raise EOFError
    return data


def serve(inp: BinaryIO, out: BinaryIO, memory_mb: int) -> None:
    """Answer jobs until the server closes the pipe; past the memory limit, answer and exit."""
    while True:
        line = inp.readline()
        if not line:
            return
        job = json.loads(line)
        body = _read_exactly(inp, job["size"])
        died = False
        status, answer = 500, b""
        try:
            status, answer = run(job["job"], job.get("args") or {}, body)
        except MemoryError:
            died = True  # a process that ran out may hold broken state: the pool starts another
        except Exception as exc:  # the server answers 500
            answer = json.dumps({"error": f"internal error: {type(exc).__name__}"}).encode()
        del body
        if died:  # said only now: the failed check's frames went with the exception, so
            # the words have the memory back (said inside the handler, they could fail too)
            said = _said(MEMORY, (job.get("args") or {}).get("lang"))
            status, answer = 503, json.dumps({"error": said.format(limit=memory_mb)}).encode()
        head = {"status": status, "size": len(answer), "ending": died}
        out.write(json.dumps(head).encode() + b"\n")
        out.write(answer)
        out.flush()
        if died:
            return


def main() -> None:
    """``python -m adjudicator.web.worker MEMORY_MB``: the pool starts it, nobody else."""
    memory_mb = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    give_back_large_blocks()
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing printed by accident may corrupt the answers
    from adjudicator.service import page  # noqa: F401 - loaded before 'ready': the engine is up

    if memory_mb:
        limit = memory_mb * 1024 * 1024
        with contextlib.suppress(ValueError, OSError):  # a system without the limit: none
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    with contextlib.suppress(EOFError, BrokenPipeError, KeyboardInterrupt):
        out.write(b"ready\n")  # the server may be gone already: it stopped while we loaded
        out.flush()
        serve(inp, out, memory_mb)
    os._exit(0)


if __name__ == "__main__":
    main()
