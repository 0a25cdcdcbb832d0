"""``adjudicator serve`` against slow clients in both directions (issue 39): bodies held
one byte short, headers trickled on a kept-alive connection, answers never read.

Smaller counts than ``benchmarks/load_server.py`` (a few hundred connections, with
``--max-connections`` below them), the same properties: a new client is answered
within 2 s while they hold on, and the server's memory comes back to within 1.5x of
its idle size once they are cut.
"""

from __future__ import annotations

import json
import resource
import socket
import time
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path

import pytest
from test_server_service import Server, heavy, serving

from adjudicator.web.running import WRITE_TIMEOUT
from adjudicator.web.server import BODY_GRACE

HELD = 300
"""Connections each holding a body one byte short: more than the server's cap below."""


@pytest.fixture(scope="module", autouse=True)
def descriptors() -> None:
    """Room for the test's own sockets: the soft open-file limit raised to the hard one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = HELD + 200
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, wanted * 4), hard))


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def healthz_within(s: Server, seconds: float) -> float:
    """A new connection's /healthz answered 200 within ``seconds``; how long it took."""
    began = time.monotonic()
    with socket.create_connection(("127.0.0.1", s.port), timeout=seconds) as c:
        c.sendall(b"GET /healthz HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n")
        answer = b""
        while chunk := c.recv(4096):
            answer += chunk
    took = time.monotonic() - began
    assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
    assert took < seconds
    return took


def hold(s: Server, count: int) -> list[socket.socket]:
    held = []
    for _ in range(count):
        c = socket.create_connection(("127.0.0.1", s.port), timeout=30)
        c.sendall(
            b"POST /api/check HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
            b"content-length: 100\r\n\r\n" + b" " * 99
        )
        held.append(c)
    return held


@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server that keeps 200 connections open at most; bodies may take 60 s in all."""
    with serving(
        tmp_path_factory.mktemp("slow"),
        "--workers",
        "1",
        "--max-connections",
        "200",
        "--body-timeout",
        "60",
        "--header-timeout",
        "3",
        "--keep-alive",
        "30",
    ) as s:
        yield s


def test_bodies_held_one_byte_short_leave_room_for_a_new_client(capped: Server) -> None:
    held = hold(capped, HELD)
    try:
        for _ in range(3):  # again and again while they hold on: never the newcomer cut
            healthz_within(capped, 2.0)
        held += hold(capped, 50)  # a second wave
        healthz_within(capped, 2.0)
    finally:
        for c in held:
            c.close()


def test_a_body_slower_than_the_floor_is_408_before_the_body_timeout(capped: Server) -> None:
    (c,) = hold(capped, 1)
    began = time.monotonic()
    c.settimeout(BODY_GRACE + 10)
    answer = b""
    with suppress(ConnectionResetError):
        while chunk := c.recv(4096):
            answer += chunk
    c.close()
    took = time.monotonic() - began
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408"), answer[:200]
    assert json.loads(body) == {
        "error": "the request body arrived slower than 1,024 bytes a second"
    }
    assert took < BODY_GRACE + 5  # the body timeout (60 s) would have taken far longer


def test_the_header_timeout_holds_for_every_request_of_a_kept_alive_connection(
    capped: Server,
) -> None:
    c = socket.create_connection(("127.0.0.1", capped.port), timeout=20)
    c.sendall(b"GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n")
    assert c.recv(4096).startswith(b"HTTP/1.1 200")
    began = time.monotonic()
    closed = None
    try:
        for byte in b"GET /healthz HTTP/1.1\r\nhost: x\r\nx-slow: " + b"a" * 40:
            c.sendall(bytes([byte]))  # a header byte every 0.2 s: 10 s in all
            time.sleep(0.2)
            c.setblocking(False)
            try:
                if c.recv(1) == b"":
                    closed = time.monotonic() - began
                    break
            except BlockingIOError:
                pass
            finally:
                c.setblocking(True)
    except OSError:  # reset: cut too
        closed = time.monotonic() - began
    finally:
        c.close()
    assert closed is not None, "the second request's headers trickled on unhindered"
    assert closed < 3 + 2  # the 3 s header timeout, not the 10 s of trickling


@pytest.fixture(scope="module")
def answering(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving(tmp_path_factory.mktemp("unread"), "--workers", "2", "--time-limit", "60") as s:
        yield s


def test_answers_never_read_are_dropped_and_the_memory_comes_back(answering: Server) -> None:
    pid = answering.process.pid
    healthz_within(answering, 2.0)
    idle = rss_mb(pid)
    record = heavy(30_000)  # 0.7 MB: its answer 6.9 MB
    readers = []
    for _ in range(6):
        c = socket.create_connection(("127.0.0.1", answering.port), timeout=120)
        c.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        c.sendall(
            b"POST /api/check HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
            + f"content-length: {len(record)}\r\n\r\n".encode()
            + record
        )
        readers.append(c)  # and never read
    for _ in range(600):  # every record checked, every answer handed to its connection
        if answering.get("/readyz")[1]["running"] == 0:
            break
        time.sleep(0.2)
    healthz_within(answering, 1.0)
    time.sleep(WRITE_TIMEOUT + 2)  # the last answer unread for longer than the write timeout
    after = rss_mb(pid)
    for c in readers:  # each was cut: its answer dropped, not kept for a reader that never comes
        c.settimeout(5)
        got = b""
        with suppress(OSError):
            while chunk := c.recv(1 << 20):
                got += chunk
        c.close()
        head, _, body = got.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200"), head[:100]
        length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
        assert len(body) < length, "the whole answer was kept for a client that read nothing"
    healthz_within(answering, 1.0)
    assert after < 1.5 * idle, (idle, after)


def test_answers_past_what_the_server_holds_are_503_with_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An answer that would take the answers held past the budget is refused (503,
    ``Retry-After``); an answer sent gives its bytes back."""
    from conftest import DISPUTE
    from fastapi.testclient import TestClient

    from adjudicator.web import server

    client = TestClient(server.app, headers={"content-type": "application/json"})
    roomy = server._Answers(budget=1 << 20)
    monkeypatch.setattr(server, "_answers", roomy)
    assert client.post("/api/check", json=DISPUTE).status_code == 200
    assert roomy.held == 0  # given back once sent
    monkeypatch.setattr(server, "_answers", server._Answers(budget=100))
    refused = client.post("/api/check", json=DISPUTE)
    assert refused.status_code == 503 and refused.headers["retry-after"] == "1"
    assert refused.json() == {
        "error": "the server holds too many answers not yet read by their clients; "
        "try again shortly"
    }
    sv = client.post("/api/check?lang=sv", json=DISPUTE)
    assert sv.json()["error"].startswith("servern håller för många svar")
