"""The server's pool heals: a checking worker killed at any moment (idle, checking a
record, loading the engine) is reaped and replaced, ``/readyz`` says how many are alive,
``/healthz`` fails once the pool cannot be restored (issue 39).

Workers are found as the server's child processes (``/proc``, Linux) and killed with
SIGKILL, as the kernel's out-of-memory killer does.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from test_server_service import SMALL, Server, _in_thread, heavy, serving

from adjudicator.web import pool, server

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def _stat(pid: int) -> list[str] | None:
    """Fields of /proc/PID/stat after the name (state first), None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rpartition(")")[2].split()


def children(pid: int) -> dict[int, str]:
    """The processes whose parent is ``pid``, with their state (``Z``: a zombie)."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(int(entry))) and int(fields[1]) == pid:
            found[int(entry)] = fields[0]
    return found


def cpu(pid: int) -> int:
    fields = _stat(pid)
    return int(fields[11]) + int(fields[12]) if fields else 0


def kill(pids: list[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):  # it died already
            os.kill(pid, signal.SIGKILL)


def no_zombies(s: Server) -> None:
    """Within 5 s no child of the server is a zombie (each dead worker was reaped)."""
    for _ in range(50):
        if "Z" not in children(s.process.pid).values():
            return
        time.sleep(0.1)
    raise AssertionError(f"zombies left: {children(s.process.pid)}")


def checks_within(s: Server, seconds: float) -> float:
    """A small /api/check answers 200 within ``seconds`` (a 429 while the pool is being
    restored is tried again, as its Retry-After asks); how long it took."""
    began = time.monotonic()
    last = None
    while time.monotonic() - began < seconds:
        status, _, body = s.post("/api/check", SMALL, timeout=seconds)
        if status == 200:
            assert json.loads(body)["violations"][0]["rule"] == "phase2.beat"
            return time.monotonic() - began
        last = (status, body)
        time.sleep(0.2)
    raise AssertionError(f"no 200 within {seconds} s: {last}")


def ready_within(s: Server, seconds: float) -> dict[str, object]:
    """/readyz says every wanted worker is alive again within ``seconds``."""
    state: dict[str, object] = {}
    for _ in range(int(seconds * 10)):
        status, state = s.get("/readyz")
        if status == 200 and state["status"] == "ready" and state["alive"] == state["workers"]:
            return state
        time.sleep(0.1)
    raise AssertionError(f"/readyz never said every worker is alive: {state}")


@pytest.fixture(scope="module")
def healing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving(tmp_path_factory.mktemp("heal"), "--workers", "2", "--time-limit", "30") as s:
        ready_within(s, 30)
        yield s


def test_an_idle_worker_killed_is_replaced(healing: Server) -> None:
    before = children(healing.process.pid)
    assert len(before) == 3  # two workers and the spare
    kill([min(before)])
    assert checks_within(healing, 10) < 10
    ready_within(healing, 10)
    no_zombies(healing)
    assert min(before) not in children(healing.process.pid)


def test_every_worker_killed_is_replaced(healing: Server) -> None:
    ready_within(healing, 10)
    for _ in range(2):  # twice: the replacements are replaced too
        kill(list(children(healing.process.pid)))
        checks_within(healing, 10)
        state = ready_within(healing, 10)
        assert state["alive"] == 2
    no_zombies(healing)
    assert healing.get("/healthz") == (200, {"status": "alive"})


def test_a_worker_killed_while_it_loads_is_replaced(healing: Server) -> None:
    ready_within(healing, 10)
    first = set(children(healing.process.pid))
    kill(list(first))
    killed: set[int] = set(first)
    until = time.monotonic() + 1.5
    while time.monotonic() < until:  # every new worker killed as it starts, for 1.5 s
        fresh = set(children(healing.process.pid)) - killed
        kill(list(fresh))
        killed |= fresh
        time.sleep(0.02)
    assert len(killed) > len(first), "no replacement was started to be killed"
    checks_within(healing, 15)
    ready_within(healing, 10)
    no_zombies(healing)


def test_a_worker_killed_while_checking_says_so_and_is_replaced(healing: Server) -> None:
    ready_within(healing, 10)
    workers = list(children(healing.process.pid))
    thread, out = _in_thread(lambda: healing.post("/api/check", heavy(100_000)))
    healing.wait_for("running", 1)
    time.sleep(0.5)
    spent = {pid: cpu(pid) for pid in workers}
    time.sleep(0.5)
    busy = max(workers, key=lambda pid: cpu(pid) - spent[pid])
    assert cpu(busy) > spent[busy], "no worker is checking: the test proves nothing"
    kill([busy])
    thread.join(60)
    status, _, body = out["answer"]
    assert status == 503
    assert json.loads(body) == {
        "error": "the checking process was killed by a signal (SIGKILL) on this record; "
        "use adjudicator check"
    }  # not "needs more than 2048 MB": nobody measured its memory
    checks_within(healing, 10)
    ready_within(healing, 10)
    no_zombies(healing)


def test_a_pool_that_cannot_be_restored_fails_healthz(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Once its workers die and new ones fail to start, /healthz is 503 (a liveness probe
    restarts the server); once they start again, it is 200."""
    broken = tmp_path / "broken"
    code = (
        "import os, sys\n"
        f"if os.path.exists({str(broken)!r}): sys.exit(1)\n"
        "print('ready', flush=True)\n"
        "sys.stdin.read()\n"
    )
    monkeypatch.setattr(pool._Worker, "command", [sys.executable, "-c", code])
    workers = pool.Pool(pool.Limits(workers=1, queue=0, time_limit=2, memory_mb=0))
    monkeypatch.setattr(server, "_pool", workers)
    client = TestClient(server.app)  # no lifespan: the pool above is the server's
    try:
        workers.start()
        assert client.get("/healthz").status_code == 200
        assert client.get("/readyz").json()["alive"] == 1
        broken.touch()
        kill([w.process.pid for w in [*workers._idle, *workers._spare]])
        for _ in range(100):
            if client.get("/healthz").status_code == 503:
                break
            time.sleep(0.1)
        answer = client.get("/healthz")
        assert answer.status_code == 503 and answer.json()["status"] == "failing"
        assert client.get("/readyz").status_code == 503
        broken.unlink()
        for _ in range(100):
            if client.get("/healthz").status_code == 200 and workers.live() == 1:
                break
            time.sleep(0.1)
        assert client.get("/healthz").status_code == 200
        assert client.get("/readyz").json()["status"] == "ready"
    finally:
        workers.close()


ECHO = (
    "import json, sys\n"
    "print('ready', flush=True)\n"
    "for line in sys.stdin.buffer:\n"
    "    head = json.loads(line)\n"
    "    body = sys.stdin.buffer.read(head['size'])\n"
    "    head = json.dumps({'status': 200, 'size': len(body)}).encode()\n"
    "    sys.stdout.buffer.write(head + b'\\n')\n"
    "    sys.stdout.buffer.write(body)\n"
    "    sys.stdout.buffer.flush()\n"
)
"""A worker that answers every job with its own body (the pool's framing, no engine)."""


@pytest.mark.parametrize("spare_dead", [False, True])
def test_a_request_that_meets_only_dead_workers_gets_a_new_one(
    monkeypatch: pytest.MonkeyPatch, spare_dead: bool
) -> None:
    """Every idle worker found dead by a request is replaced at once, not when the request
    gives up: before, the request popped them and waited its whole time limit for a worker
    nobody was starting (the watch no longer saw them), so the pool stayed empty whenever a
    request came before the watch's next look (found as a flaky test above)."""
    monkeypatch.setattr(pool._Worker, "command", [sys.executable, "-c", ECHO])
    monkeypatch.setattr(pool, "WATCH_SECONDS", 3600.0)  # the watch must not be what heals
    workers = pool.Pool(pool.Limits(workers=2, queue=0, time_limit=20, memory_mb=0))
    try:
        workers.start()
        for _ in range(100):  # the spare loads in the background
            if workers._spare:
                break
            time.sleep(0.05)
        victims = [*workers._idle, *(workers._spare if spare_dead else [])]
        kill([w.process.pid for w in victims])
        for w in victims:
            w.process.wait()
        began = time.monotonic()
        assert workers._run("check", {}, b"{}") == (200, b"{}")
        assert time.monotonic() - began < 10
        for _ in range(200):  # and the pool is whole again: two alive, a spare
            if workers.live() == 2 and len(workers._spare) == 1:
                break
            time.sleep(0.05)
        assert workers.live() == 2
        assert [w.alive() for w in workers._spare] == [True]
    finally:
        workers.close()
