"""The server's checking processes: a bounded queue, a time limit, a worker recycled past it.

Why processes and not threads: the engine is Python (or mypyc code that holds the
GIL), so a thread checking a heavy record takes the interpreter from the event
loop in 5 ms slices and cannot be stopped at the time limit; a process runs on
its own core and is killed.  Each worker is ``python -m adjudicator.web.worker``
(:mod:`adjudicator.web.worker`), the engine loaded once.

The pool is plain threads and pipes, not asyncio: a request awaits
:meth:`Pool.call` from any event loop (the test client starts one per request).
Each admitted request has a thread that writes the job to an idle worker and
waits for its answer up to the time limit; past it the worker is killed and a
fresh one started in its place.
"""

from __future__ import annotations

import asyncio
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any, ClassVar

from adjudicator import i18n
from adjudicator.exceptions import AdjudicatorError
from adjudicator.i18n import N_, _
from adjudicator.web.worker import BUSY, MEMORY

STOPPED = N_("the checking process stopped on this record; use adjudicator check")
"""The one line when a worker died on a request (HTTP 503) for no reason it told."""

KILLED = N_(
    "the checking process was killed by a signal ({signal}) on this record; use adjudicator check"
)
"""The one line when a worker was killed on a request: what is known, the signal; not a
memory figure nobody measured (the kernel's out-of-memory killer sends SIGKILL, and so
does an operator's ``kill -9``)."""

OUT_OF_MEMORY = (b"fatal: out of memory", b"memory allocation of", b"MemoryError")
"""What a worker prints as it dies past its memory limit where Python cannot raise
``MemoryError``: mypyc's runtime aborts with the first, Rust code (pydantic-core) with
the second, CPython's fatal error names the third."""

TAIL_BYTES = 4096
"""How much of a worker's last words (its stderr) the pool keeps to say why it died."""

START_SECONDS = 120.0
"""How long a new worker may take to load the engine before the pool gives up on it."""

WATCH_SECONDS = 0.5
"""How often the pool looks for workers that died while idle (and reaps them)."""

FAILED_STARTS = 3
"""Starts failed in a row, with no worker alive, after which the pool is beyond repair:
``/healthz`` answers 503 so that a process manager restarts the server."""


class Refused(AdjudicatorError):
    """A request the pool does not run: HTTP ``status`` with one line, maybe ``Retry-After``."""

    def __init__(self, status: int, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after


@dataclass(frozen=True)
class Limits:
    """What one server gives its requests (each a ``serve`` option)."""

    workers: int = field(default_factory=lambda: min(8, os.cpu_count() or 1))
    """Checking processes (``--workers``): the cores, at most 8."""
    queue: int = 64
    """Requests that may wait for a worker beyond those running (``--queue``); past it 429."""
    time_limit: float = 5.0
    """Seconds one request may hold a worker (``--time-limit``); past it 503, worker recycled."""
    memory_mb: int = 2048
    """Address space of one worker in MB (``--worker-memory``); 0: no limit."""


def why_it_died(returncode: int | None, last_words: bytes, memory_mb: int) -> str:
    """The one line for a request whose worker died, in the request's language: its
    memory limit only when its own last words say it ran out; the signal when it was
    killed (SIGKILL may be the kernel's out-of-memory killer, or a person: not ours to
    guess); else :data:`STOPPED`."""
    if memory_mb and any(words in last_words for words in OUT_OF_MEMORY):
        return _(MEMORY).format(limit=memory_mb)
    if returncode is not None and returncode < 0:
        return _(KILLED).format(signal=_signal_name(-returncode))
    return _(STOPPED)


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


class _Worker:
    """One checking process and its pipes."""

    command: ClassVar[list[str]] = [sys.executable, "-m", "adjudicator.web.worker"]
    """The process started (its memory limit in MB appended); a test may start another."""

    def __init__(self, memory_mb: int) -> None:
        self.memory_mb = memory_mb
        self.process = subprocess.Popen(
            [*self.command, str(memory_mb)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            close_fds=True,
            start_new_session=True,  # a Ctrl-C at the terminal is the server's to handle
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.stdin = self.process.stdin
        self.out = self.process.stdout.fileno()
        self.buffer = b""
        self.last_words = b""
        self._stderr = threading.Thread(target=self._relay, daemon=True)
        self._stderr.start()
        if self._line(time.monotonic() + START_SECONDS) != b"ready":
            self.kill()  # died while it loaded (or never said so): reaped, not left a zombie
            raise RuntimeError("a checking process did not start")

    def _line(self, deadline: float) -> bytes | None:
        while b"\n" not in self.buffer:
            chunk = self._read(deadline)
            if chunk is None:
                return None
            self.buffer += chunk
        line, _nl, self.buffer = self.buffer.partition(b"\n")
        return line

    def _read(self, deadline: float) -> bytes | None:
        """The next bytes from the worker; None past the deadline or when it ended."""
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([self.out], [], [], left)[0]:
            return None
        chunk = os.read(self.out, 1 << 20)
        return chunk or None

    def send(self, job: str, args: dict[str, Any], body: bytes) -> None:
        """Hand the worker a job; BrokenPipeError if it had died (it never saw the job)."""
        self.last_words = b""  # why it dies is told by what it says on this request
        head = json.dumps({"job": job, "args": args, "size": len(body)}).encode()
        self.stdin.write(head + b"\n")
        self.stdin.write(body)
        self.stdin.flush()

    def answer(self, deadline: float) -> tuple[int, bytes, bool]:
        """The worker's status, JSON text and whether it ends after this answer;
        TimeoutError past ``deadline``, EOFError if it died."""
        line = self._line(deadline)
        if line is None:
            raise TimeoutError if time.monotonic() >= deadline else EOFError
        answer = json.loads(line)
        parts = [self.buffer]
        size = len(self.buffer)
        while size < answer["size"]:
            chunk = self._read(deadline)
            if chunk is None:
                raise TimeoutError if time.monotonic() >= deadline else EOFError
            parts.append(chunk)
            size += len(chunk)
        data = b"".join(parts)
        self.buffer = data[answer["size"] :]
        return int(answer["status"]), data[: answer["size"]], bool(answer.get("ending"))

    def _relay(self) -> None:
        """Pass the worker's stderr on to the server's, keeping its last words."""
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.last_words = (self.last_words + line)[-TAIL_BYTES:]
            try:
                sys.stderr.buffer.write(line)
                sys.stderr.flush()
            except (AttributeError, OSError, ValueError):  # no stderr to pass it to
                pass

    def died(self) -> str:
        """Why this worker ended on a request (see :func:`why_it_died`)."""
        with suppress(subprocess.TimeoutExpired):
            self.process.wait(2)
        self._stderr.join(2)
        return why_it_died(self.process.returncode, self.last_words, self.memory_mb)

    def alive(self) -> bool:
        """Whether the process runs; one that ended is reaped here (no zombie)."""
        return self.process.poll() is None

    def kill(self) -> None:
        """End the process and close its pipes, whatever state it is in: dead already,
        its stdin broken (closing flushes nothing into a dead pipe), half started."""
        with suppress(ProcessLookupError):
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                with suppress(OSError, ValueError):
                    stream.close()
        self._stderr.join(2)


class Pool:
    """``workers`` checking processes behind a queue of ``queue`` waiting requests.

    It heals: a worker that dies at any moment (idle, checking, loading) is reaped and
    replaced, and ``state()`` tells how many are alive of how many wanted."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._lock = threading.Lock()
        self._free = threading.Condition(self._lock)  # an idle worker was added
        self._idle: list[_Worker] = []
        self._spare: list[_Worker] = []  # loaded, to replace a killed one at once
        self._busy: set[_Worker] = set()
        self._admitted = 0
        self._loading = 0
        self._failures = 0  # starts that failed in a row
        self._started = False
        self._closed = threading.Event()
        self._threads = ThreadPoolExecutor(
            limits.workers + limits.queue, thread_name_prefix="adjudicator-pool"
        )
        self.recycled = 0

    def start(self) -> None:
        """Start the workers (the first call does; later calls return at once)."""
        with self._lock:
            if self._started:
                return
            self._started = True
        for _place in range(self.limits.workers):
            try:
                self._add(_Worker(self.limits.memory_mb))
            except (RuntimeError, OSError):
                self._failed()
                self._spawn(self._add)  # tried again in the background until it starts
        self._spawn(self._keep)
        threading.Thread(target=self._watch, name="adjudicator-watch", daemon=True).start()

    def state(self) -> dict[str, Any]:
        """What ``/readyz`` tells: workers alive of those wanted, how many check and wait,
        how many load, how many were recycled."""
        with self._lock:
            alive = self._alive()
            return {
                "workers": self.limits.workers,
                "alive": alive,
                "loading": self._loading,
                "running": len(self._busy),
                "waiting": max(0, self._admitted - len(self._busy)),
                "recycled": self.recycled,
            }

    def _alive(self) -> int:
        return sum(w.alive() for w in self._idle) + sum(w.alive() for w in self._busy)

    def live(self) -> int:
        """Workers alive, ready or checking (a recycled one counts once its replacement is up)."""
        with self._lock:
            return self._alive()

    def healthy(self) -> bool:
        """False when no worker is alive and the last :data:`FAILED_STARTS` starts failed:
        the pool cannot restore itself, the process should be restarted."""
        with self._lock:
            return not (self._failures >= FAILED_STARTS and self._alive() == 0)

    @contextmanager
    def admitted(self) -> Iterator[None]:
        """One request's place in the pool: 429 with ``Retry-After`` when the queue is full.

        A JSON Lines body holds one place for all its lines.
        """
        with self._lock:
            if self._admitted >= self.limits.workers + self.limits.queue:
                raise Refused(
                    429,
                    f"the server is busy ({self.limits.workers} records being checked, "
                    f"{self.limits.queue} waiting); try again shortly",
                    retry_after=max(1, round(self.limits.time_limit)),
                )
            self._admitted += 1
        try:
            yield
        finally:
            with self._lock:
                self._admitted -= 1

    async def call(self, job: str, args: dict[str, Any], body: bytes) -> tuple[int, bytes]:
        """Run one job on a worker; its status and JSON text, or :class:`Refused`."""
        loop = asyncio.get_running_loop()
        args = {**args, "lang": i18n.language()}  # the worker speaks the request's language
        return await loop.run_in_executor(self._threads, self._call, job, args, body)

    def _call(self, job: str, args: dict[str, Any], body: bytes) -> tuple[int, bytes]:
        with i18n.speaking(args.get("lang") or i18n.SOURCE):  # this thread's lines too
            return self._run(job, args, body)

    def _run(self, job: str, args: dict[str, Any], body: bytes) -> tuple[int, bytes]:
        self.start()
        limit = self.limits.time_limit
        deadline = time.monotonic() + limit
        while True:  # a worker found dead as the job is handed over never saw it: another
            worker = self._take(deadline)
            try:
                worker.send(job, args, body)
                break
            except OSError:
                self._recycle(worker)
        try:
            status, data, ending = worker.answer(time.monotonic() + limit)
        except (TimeoutError, EOFError, OSError) as exc:
            why = None if isinstance(exc, TimeoutError) else worker.died()
            self._recycle(worker)
            if why is None:
                raise Refused(503, _(BUSY).format(limit=f"{limit:g}")) from None
            raise Refused(503, why) from None
        if ending:  # it answered and ends (past its memory): another takes its place
            self._recycle(worker)
        else:
            with self._free:
                self._busy.discard(worker)
                self._idle.append(worker)
                self._free.notify()
        return status, data

    def _take(self, deadline: float) -> _Worker:
        """An idle worker that is alive, marked busy; a dead one met on the way is
        replaced at once (not when this request gives up: taken from the idle list, the
        watch no longer sees it, and nobody else would start its replacement); a request
        that waited a whole time limit is told to come back."""
        while True:
            dead: list[_Worker] = []
            with self._free:
                while self._idle:
                    worker = self._idle.pop()
                    if worker.alive():
                        self._busy.add(worker)
                        break
                    dead.append(worker)
                else:
                    worker = None
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise Refused(
                            429,
                            "the server is busy; try again shortly",
                            max(1, round(self.limits.time_limit)),
                        )
                    if not dead:
                        self._free.wait(left)
            for gone in dead:  # outside the lock: reaping waits for the process
                self._recycle(gone)
            if worker is not None:
                return worker

    def _recycle(self, worker: _Worker) -> None:
        """Kill ``worker`` (dead or not: reaped either way); the spare (loaded already)
        takes its place at once and another spare is started in the background.
        Without the spare, a client posting heavy records in a loop took the one
        worker left for the others while a replacement loaded (small requests' p99
        1.9 s)."""
        worker.kill()
        with self._free:
            self._busy.discard(worker)
            self.recycled += 1
            spare = None
            dead_spares: list[_Worker] = []
            while self._spare and spare is None:
                candidate = self._spare.pop()
                if candidate.alive():
                    spare = candidate
                else:
                    dead_spares.append(candidate)
            if spare is not None:
                self._idle.append(spare)
                self._free.notify()
        for gone in dead_spares:  # each dead spare is a spare to start again
            gone.kill()
        if self._closed.is_set():
            return
        self._spawn(self._keep if spare is not None else self._add)
        for _gone in dead_spares:
            self._spawn(self._keep)

    def _watch(self) -> None:
        """Find the workers (idle or spare) that died while nobody asked them anything,
        reap them and start their replacements; the checking ones are their requests'."""
        while not self._closed.wait(WATCH_SECONDS):
            with self._lock:
                dead = [w for w in self._idle if not w.alive()]
                self._idle = [w for w in self._idle if w not in dead]
                spares = [w for w in self._spare if not w.alive()]
                self._spare = [w for w in self._spare if w not in spares]
            for worker in dead:
                self._recycle(worker)
            for worker in spares:
                worker.kill()
                self._spawn(self._keep)

    def _spawn(self, then: Callable[[_Worker], None]) -> None:
        """Start a worker in the background, then ``then(worker)``; tried again each
        second while starts fail (a worker killed as it loads is one failure)."""
        with self._lock:
            self._loading += 1

        def load() -> None:
            try:
                while not self._closed.is_set():
                    try:
                        worker = _Worker(self.limits.memory_mb)
                    except (RuntimeError, OSError):
                        self._failed()
                        time.sleep(1.0)  # the machine is short of something: try again
                        continue
                    if self._closed.is_set():  # the server stopped while it loaded
                        worker.kill()
                    else:
                        then(worker)
                    return
            finally:
                with self._lock:
                    self._loading -= 1

        threading.Thread(target=load, name="adjudicator-spawn", daemon=True).start()

    def _failed(self) -> None:
        with self._lock:
            self._failures += 1

    def _keep(self, worker: _Worker) -> None:
        """Hold ``worker`` as the spare."""
        with self._lock:
            self._failures = 0
            self._spare.append(worker)

    def _add(self, worker: _Worker) -> None:
        with self._free:
            self._failures = 0
            self._idle.append(worker)
            self._free.notify()

    def close(self) -> None:
        """End every worker, idle, spare or checking (the server is stopping)."""
        self._closed.set()
        self._threads.shutdown(wait=False, cancel_futures=True)
        with self._lock:
            workers = [*self._idle, *self._spare, *self._busy]
            self._idle, self._spare, self._busy = [], [], set()
        for worker in workers:
            worker.kill()
