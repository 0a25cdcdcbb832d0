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
import json
import os
import resource
import sys
from typing import Any, BinaryIO

REPLAY_BYTES = 16 * 1024 * 1024
"""Largest ``/api/replay`` answer: past it the steps are paged (``steps_from``/``steps_next``)."""

BUSY = "this record takes longer than {limit} s to check here; use adjudicator check"
"""The one line of a request past the time limit (HTTP 503)."""

MEMORY = "this record needs more than {limit} MB of memory to check here; use adjudicator check"
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


def _within(items: list[Any], budget: int) -> list[Any]:
    """The first of ``items`` whose JSON fits in ``budget`` bytes (at least one)."""
    size = 0
    for k, item in enumerate(items):
        size += len(json.dumps(item, ensure_ascii=False).encode()) + 2
        if size > budget and k:
            return items[:k]
    return items


def _replay(raw: bytes, viewer: str | None, start: int) -> bytes:
    """The replay as JSON text of at most about :data:`REPLAY_BYTES`, its steps from ``start``.

    A 100,000-action record made a 311 MB answer; the page needs the steps it
    shows.  The answer says what it holds: ``steps_from``, ``steps_total`` and
    ``steps_next`` (where the next page starts, ``?from=N``; None at the end);
    past an eighth of the bound the verdict's lists are cut, ``check.shown`` says
    how many of each it holds (each step still carries its own violation).
    """
    from adjudicator.service import page

    head, total, steps = page.replay_steps(_text(raw), viewer, start)
    nxt = head.pop("next")
    verdict = head["check"]
    shown = {}
    for key in ("violations", "undetermined"):
        every = verdict[key]
        verdict[key] = _within(every, REPLAY_BYTES // 8)
        shown[key] = {"shown": len(verdict[key]), "total": len(every)}
    verdict["shown"] = shown
    size = len(page.dumps(head).encode()) + len(page.dumps(nxt).encode()) + 200
    parts: list[str] = []
    end = start
    for step in steps:
        part = page.dumps(step)
        size += len(part.encode()) + 2
        if size > REPLAY_BYTES and parts:
            break
        parts.append(part)
        end += 1
    paging = {"steps_from": start, "steps_total": total, "steps_next": end if end < total else None}
    tail = page.dumps({**paging, "next": nxt})[1:-1]
    return f'{page.dumps(head)[:-1]}, "steps": [{", ".join(parts)}], {tail}}}'.encode()


def run(job: str, args: dict[str, Any], body: bytes) -> tuple[int, bytes]:
    """One job's HTTP status and JSON text; a person's mistake is ``{"error": line}``."""
    from adjudicator import i18n
    from adjudicator.service import page

    with i18n.speaking(args.get("lang") or i18n.SOURCE):  # the request's language
        return _run(page, job, args, body)


def _run(page: Any, job: str, args: dict[str, Any], body: bytes) -> tuple[int, bytes]:
    try:
        if job == "check":
            result = page.check_one(_text(body))
            status = 422 if result["status"] == "invalid" else 200
            return status, page.dumps(result).encode()
        if job == "line":
            return 200, page.dumps(page.check_raw_line(body, args["number"])).encode()
        if job == "legal":
            return 200, page.dumps(page.legal_at(_text(body), args.get("at"))).encode()
        if job == "replay":
            return 200, _replay(body, args.get("viewer"), args.get("start") or 0)
        if job == "session":
            return 200, page.dumps(page.session(_text(body))).encode()
    except page.BadInput as exc:
        return exc.status, page.dumps({"error": exc.message, **(exc.body or {})}).encode()
    raise ValueError(f"no such job: {job}")


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
        try:
            status, answer = run(job["job"], job.get("args") or {}, body)
        except MemoryError:
            status, answer = 503, json.dumps({"error": MEMORY.format(limit=memory_mb)}).encode()
            died = True  # a process that ran out may hold broken state: the pool starts another
        except Exception as exc:  # the server answers 500
            status = 500
            answer = json.dumps({"error": f"internal error: {type(exc).__name__}"}).encode()
        del body
        head = {"status": status, "size": len(answer), "ending": died}
        out.write(json.dumps(head).encode() + b"\n")
        out.write(answer)
        out.flush()
        if died:
            return


def main() -> None:
    """``python -m adjudicator.web.worker MEMORY_MB``: the pool starts it, nobody else."""
    memory_mb = int(sys.argv[1]) if len(sys.argv) > 1 else 0
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
