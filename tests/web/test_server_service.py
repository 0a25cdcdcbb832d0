"""``adjudicator serve`` as a service: one heavy record never stalls the table, bodies
over the limit are answered to every client, health, limits and configuration.

Each server runs as ``python -m adjudicator serve`` in a subprocess on 127.0.0.1
(a free port).  Nothing here is a timed test: "while a heavy record runs" is
asserted as "answered before the heavy one finishes", with generous bounds for a
loaded two-core machine.
"""

from __future__ import annotations

import base64
import http.client
import json
import os
import resource
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import DISPUTE
from web_browser import free_port

from adjudicator.service import page
from adjudicator.web import pool
from adjudicator.web.pool import KILLED, STOPPED
from adjudicator.web.worker import MEMORY

ROOT = Path(__file__).resolve().parents[2]
FULL = json.loads((ROOT / "sample_games" / "pagat_3p_full.json").read_text(encoding="utf-8"))
JSON = {"content-type": "application/json"}
SMALL = json.dumps(DISPUTE).encode()


def heavy(actions: int) -> bytes:
    """A game of ``actions`` actions in all: Bo's 'take' (no act of this variant, illegal)
    tried again and again and taken back, then a whole game.  100,000 actions: 2.5 MB."""
    wrong = "Bo take -- taken back"
    record = {**FULL, "actions": [wrong] * (actions - len(FULL["actions"])) + FULL["actions"]}
    return json.dumps(record).encode()


@dataclass
class Server:
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def post(
        self, path: str, body: bytes, headers: dict[str, str] | None = None, timeout: float = 120
    ) -> tuple[int, dict[str, str], bytes]:
        """One request on a new connection: status, headers (lower-case), body."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request("POST", path, body, JSON if headers is None else headers)
            answer = connection.getresponse()
            return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
        finally:
            connection.close()

    def get(self, path: str) -> tuple[int, Any]:
        with httpx.Client(timeout=60) as client:
            answer = client.get(self.url(path))
            return answer.status_code, answer.json()

    def idle(self) -> dict[str, Any]:
        """/readyz once no worker runs and every worker is up again."""
        for _ in range(600):
            status, state = self.get("/readyz")
            if status == 200 and state["running"] == 0 and state["waiting"] == 0:
                return state  # type: ignore[no-any-return]
            time.sleep(0.1)
        raise AssertionError(f"the server never became idle: {state}")

    def wait_for(self, key: str, value: int) -> None:
        for _ in range(600):
            if self.get("/readyz")[1][key] >= value:
                return
            time.sleep(0.05)
        raise AssertionError(f"readyz never showed {key} >= {value}")

    def logged(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


@contextmanager
def serving(
    tmp: Path, *args: str, env: dict[str, str] | None = None, descriptors: int | None = None
) -> Iterator[Server]:
    """A server (``serve ARGS``) until the block ends; its stderr in a file."""
    port = free_port()
    log = tmp / f"serve-{port}.log"

    def limit() -> None:  # the server runs with this open-file limit, soft and hard
        if descriptors is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (descriptors, descriptors))

    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "adjudicator", "serve", "--port", str(port), *args],
            stdout=subprocess.DEVNULL,
            stderr=out,
            env={**os.environ, **(env or {})},
            preexec_fn=limit,
        )
        server = Server(port, process, log)
        try:
            for _ in range(1200):
                try:
                    if server.get("/readyz")[0] == 200:
                        break
                except httpx.TransportError:
                    pass
                assert process.poll() is None, server.logged()
                time.sleep(0.1)
            yield server
        finally:
            process.terminate()
            process.wait(60)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Two workers, the default limits; 1,024 descriptors, as the machine the issue measured."""
    with serving(tmp_path_factory.mktemp("serve"), "--workers", "2", descriptors=1024) as s:
        yield s


@pytest.fixture(scope="module")
def narrow(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One worker, one waiting place, 4 s and 120 MB per request: set by variables."""
    env = {
        "ADJUDICATOR_WORKERS": "1",
        "ADJUDICATOR_QUEUE": "1",
        "ADJUDICATOR_TIME_LIMIT": "4",
        "ADJUDICATOR_WORKER_MEMORY": "120",
        "ADJUDICATOR_BODY_TIMEOUT": "3",
    }
    with serving(tmp_path_factory.mktemp("narrow"), env=env) as s:
        yield s


def _in_thread(call: Any) -> tuple[threading.Thread, dict[str, Any]]:
    out: dict[str, Any] = {}

    def run() -> None:
        out["answer"] = call()
        out["done"] = time.monotonic()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, out


# --- the bar ---------------------------------------------------------------------------


def test_a_small_check_answers_while_a_heavy_record_is_checked(server: Server) -> None:
    server.idle()
    big = heavy(100_000)
    assert len(big) > 2_400_000
    thread, out = _in_thread(lambda: server.post("/api/check", big))
    server.wait_for("running", 1)
    took = []
    for _ in range(5):
        began = time.monotonic()
        status, _, body = server.post("/api/check", SMALL)
        took.append(time.monotonic() - began)
        assert status == 200 and json.loads(body)["violations"][0]["rule"] == "phase2.beat"
    assert thread.is_alive(), "the heavy record finished first: the test proves nothing"
    assert max(took) < 3.0, took  # ~5 ms when alone; generous for a loaded machine
    thread.join(120)
    assert out["answer"][0] in (200, 503)


def test_a_record_over_the_time_limit_is_503_and_the_server_goes_on(server: Server) -> None:
    server.idle()
    before = server.get("/readyz")[1]["recycled"]
    status, headers, body = server.post("/api/check", heavy(200_000))
    assert status == 503
    assert json.loads(body) == {
        "error": "this record takes longer than 5 s to check here; use adjudicator check"
    }
    assert headers["x-content-type-options"] == "nosniff"
    assert server.post("/api/check", SMALL)[0] == 200
    assert server.idle()["recycled"] == before + 1  # killed and replaced, not left running


def test_health_and_readiness(server: Server) -> None:
    assert server.get("/healthz") == (200, {"status": "alive"})
    status, ready = server.get("/readyz")
    assert status == 200 and ready["status"] == "ready" and ready["workers"] == 2


def test_a_20_mb_body_is_413_to_urllib_httpx_and_curl(server: Server, tmp_path: Path) -> None:
    body = b" " * (20 * 1024 * 1024)
    expected = {"error": "the request body is over the limit of 16777216 bytes"}
    request = urllib.request.Request(server.url("/api/check"), data=body, headers=JSON)
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=120)
    assert refused.value.code == 413
    assert json.loads(refused.value.read()) == expected
    assert "frame-ancestors 'none'" in refused.value.headers["content-security-policy"]
    answer = httpx.post(server.url("/api/check"), content=body, headers=JSON, timeout=120)
    assert (answer.status_code, answer.json()) == (413, expected)
    assert answer.headers["x-content-type-options"] == "nosniff"
    chunks = iter([body[: 1 << 20]] * 20)  # no length given: counted as it arrives
    answer = httpx.post(server.url("/api/check"), content=chunks, headers=JSON, timeout=120)
    assert (answer.status_code, answer.json()) == (413, expected)
    path = tmp_path / "big.json"
    path.write_bytes(body)
    curl = shutil.which("curl")
    assert curl is not None, "curl is needed to show the 413 reaches it"
    for expect in ([], ["-H", "Expect:"]):  # with and without waiting for 100 Continue
        options = ["-s", "-S", "-H", "content-type: application/json", *expect]
        done = subprocess.run(
            [
                curl,
                *options,
                "--data-binary",
                f"@{path}",
                "-w",
                "\n%{http_code}",
                server.url("/api/check"),
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        text, code = done.stdout.rsplit("\n", 1)
        assert (code, json.loads(text)) == ("413", expected), done.stderr


def test_serve_on_a_taken_port_exits_2_without_announcing_an_address(server: Server) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "adjudicator", "serve", "--port", str(server.port)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"adjudicator: --port {server.port}: 127.0.0.1:{server.port} is already in use "
        "(another server?); pick another --port"
    )
    assert "http://" not in done.stderr


def test_1100_idle_connections_do_not_lock_out_a_new_client(server: Server) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert hard >= 1300, "this test needs 1,300 descriptors of its own"
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))
    silent = []
    try:
        for _ in range(1100):  # the server has 1,024 descriptors
            silent.append(socket.create_connection(("127.0.0.1", server.port), timeout=30))
        status, body = server.get("/healthz")
        assert (status, body) == (200, {"status": "alive"})
        assert server.post("/api/check", SMALL)[0] == 200
        deadline = time.monotonic() + 60  # the header timeout (10 s) closes the rest
        for sock in silent:
            sock.settimeout(max(0.1, deadline - time.monotonic()))
            assert sock.recv(1) == b""  # closed by the server
    finally:
        for sock in silent:
            sock.close()
    assert "Traceback" not in server.logged()


@pytest.mark.parametrize("kind", ["text/plain", None, "application/x-www-form-urlencoded"])
def test_a_record_not_sent_as_json_is_refused(server: Server, kind: str | None) -> None:
    headers = {} if kind is None else {"content-type": kind}
    for path in ("/api/check", "/api/legal", "/api/replay"):
        status, got, body = server.post(path, SMALL, headers)
        assert status == 415, path
        error = json.loads(body)["error"]
        assert error.startswith(f"content-type {kind or '(none)'}: send a record as")
        assert "\n" not in error and got["referrer-policy"] == "no-referrer"
    # another origin's preflight is not granted
    with httpx.Client() as client:
        answer = client.options(
            server.url("/api/check"),
            headers={
                "origin": "https://elsewhere.example",
                "access-control-request-method": "POST",
            },
        )
    assert answer.status_code >= 400 and "access-control-allow-origin" not in answer.headers


def test_replay_of_the_heavy_record_answers_in_bounded_pages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In the core's own function, which the server's workers and the in-browser engine call
    (the 100,000-action replay runs 50 s in pure Python;
    ``benchmarks/load_server.py`` times it over HTTP): a bound, said in the answer."""
    monkeypatch.setattr(page, "REPLAY_BYTES", 300_000)
    record = heavy(2_000)
    whole = page.replay(record.decode())
    answers, start = [], 0
    while start is not None:
        text = page.replay_answer(record.decode(), None, start).encode()
        assert len(text) <= 300_000
        got = json.loads(text)
        assert got["steps_from"] == start and got["steps_total"] == len(whole["steps"])
        answers.append(got)
        start = got["steps_next"]
    assert len(answers) > 3
    assert [s for p in answers for s in p["steps"]] == whole["steps"]
    last = answers[-1]
    for key, value in whole.items():
        if key not in ("steps", "check"):
            assert last[key] == value, key
    shown = last["check"].pop("shown")
    violations = whole["check"].pop("violations")
    assert shown["violations"]["total"] == len(violations) > shown["violations"]["shown"] > 0
    assert last["check"].pop("violations") == violations[: shown["violations"]["shown"]]
    assert last["check"] == whole["check"]
    monkeypatch.undo()
    one = json.loads(page.replay_answer(SMALL.decode(), "Anna", 0))
    assert (one["steps_from"], one["steps_next"]) == (0, None)
    assert one["steps"] == page.replay(SMALL.decode(), "Anna")["steps"]
    assert one["check"]["shown"]["violations"] == {"shown": 1, "total": 1}


# --- the queue, the body timeout, memory ------------------------------------------------


def test_a_burst_past_the_queue_is_429_with_retry_after(narrow: Server) -> None:
    narrow.idle()
    big = heavy(200_000)
    first, _ = _in_thread(lambda: narrow.post("/api/check", big))
    narrow.wait_for("running", 1)
    second, _ = _in_thread(lambda: narrow.post("/api/check", big))
    narrow.wait_for("waiting", 1)
    status, headers, body = narrow.post("/api/check", SMALL)
    assert status == 429 and headers["retry-after"] == "4"
    assert json.loads(body)["error"].startswith("the server is busy")
    first.join(120)
    second.join(120)
    assert narrow.post("/api/check", SMALL)[0] == 200


def test_variables_set_the_limits(narrow: Server) -> None:
    narrow.idle()
    status, _, body = narrow.post("/api/check", heavy(200_000))
    assert status == 503
    assert json.loads(body)["error"] in (
        "this record takes longer than 4 s to check here; use adjudicator check",
        "this record needs more than 120 MB of memory to check here; use adjudicator check",
    )
    assert narrow.get("/readyz")[1]["workers"] == 1


def test_a_record_that_takes_too_much_memory_costs_one_worker(narrow: Server) -> None:
    narrow.idle()
    lists = b"[" + b"[]," * 4_000_000 + b"[]]"  # 12 MB of JSON that is 5M Python lists
    status, _, body = narrow.post("/api/check", lists)
    assert status == 503
    assert json.loads(body)["error"] in (
        "this record needs more than 120 MB of memory to check here; use adjudicator check",
        "this record takes longer than 4 s to check here; use adjudicator check",
    )
    narrow.idle()
    assert narrow.post("/api/check", SMALL)[0] == 200


def test_a_slow_body_holds_no_worker_and_gets_408(narrow: Server) -> None:
    narrow.idle()
    slow = socket.create_connection(("127.0.0.1", narrow.port), timeout=30)
    try:
        slow.sendall(
            b"POST /api/check HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
            b"content-length: 1000\r\n\r\n"
        )
        for _ in range(2):  # one byte a second
            slow.sendall(b" ")
            assert narrow.post("/api/check", SMALL)[0] == 200  # the one worker is free
            assert narrow.get("/readyz")[1]["running"] == 0
            time.sleep(1)
        answer = b""
        while chunk := slow.recv(65536):
            answer += chunk
    finally:
        slow.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408")
    assert json.loads(body) == {"error": "the request body did not arrive within 3 s"}


def test_a_client_that_goes_away_is_one_line_in_the_log(narrow: Server) -> None:
    gone = socket.create_connection(("127.0.0.1", narrow.port), timeout=30)
    gone.sendall(
        b"POST /api/legal HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
        b"content-length: 1000\r\n\r\n{"
    )
    time.sleep(0.5)
    gone.close()
    for _ in range(100):
        if "went away" in narrow.logged():
            break
        time.sleep(0.1)
    log = narrow.logged()
    assert "POST /api/legal: the client went away before its body arrived" in log
    assert "Traceback" not in log


def test_json_lines_stay_streamed_beside_small_requests(narrow: Server) -> None:
    """With one worker, a small check gets it between two lines of a long JSON Lines body."""
    narrow.idle()
    line = json.dumps(json.loads(heavy(5_000)))
    body = ("\n".join([line] * 6) + "\n").encode()
    headers = {"content-type": "application/x-ndjson"}
    got: list[dict[str, Any]] = []

    def stream() -> None:
        with (
            httpx.Client(timeout=300) as client,
            client.stream("POST", narrow.url("/api/check"), content=body, headers=headers) as r,
        ):
            assert r.status_code == 200
            for text in r.iter_lines():
                got.append(json.loads(text))

    thread, _ = _in_thread(stream)
    for _ in range(1200):
        if got:
            break
        time.sleep(0.05)
    assert got, "no line came back"
    status = narrow.post("/api/check", SMALL)[0]
    assert status == 200
    assert len(got) < 6, "the stream ended before the small request was answered"
    thread.join(300)
    assert [g["line"] for g in got] == [1, 2, 3, 4, 5, 6]
    assert {g["status"] for g in got} <= {"illegal", "unchecked"}


# --- smaller points -----------------------------------------------------------------


def test_head_and_no_redirect_carrying_the_host(server: Server) -> None:
    with httpx.Client() as client:
        head = client.head(server.url("/"))
        assert head.status_code == 200 and head.content == b""
        answer = client.get(server.url("/docs/"), headers={"host": "evil.example"})
    assert "location" not in answer.headers
    assert "evil.example" not in answer.text


def test_the_access_log_is_json_lines_when_not_a_terminal(server: Server) -> None:
    server.get("/healthz")
    lines = [json.loads(x) for x in server.logged().splitlines() if x.startswith("{")]
    health = [x for x in lines if x["path"] == "/healthz"]
    assert health and health[-1]["status"] == 200 and health[-1]["method"] == "GET"
    assert set(health[-1]) == {"time", "client", "method", "path", "status", "bytes", "ms"}


def test_print_systemd_is_a_unit_with_the_options() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "adjudicator", "serve", "--print-systemd", "--workers", "3"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "ADJUDICATOR_TIME_LIMIT": "7"},
    )
    assert done.returncode == 0, done.stderr
    unit = done.stdout
    assert unit.startswith("[Unit]") and "[Install]" in unit
    assert "Environment=ADJUDICATOR_WORKERS=3\n" in unit
    assert "Environment=ADJUDICATOR_TIME_LIMIT=7.0\n" in unit
    assert "RestartPreventExitStatus=2" in unit
    (start,) = [x for x in unit.splitlines() if x.startswith("ExecStart=")]
    assert start.endswith(" serve") and start.split("=", 1)[1].startswith("/")


def test_a_shared_link_that_inflates_past_the_cap_is_refused_unsent(server: Server) -> None:
    """A few KB of link that inflate to 3 MB: the page says so and posts nothing."""
    from playwright.sync_api import sync_playwright
    from web_browser import launch

    record = {**DISPUTE, "meta": {"note": " " * (3 * 1024 * 1024)}}
    pack = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = pack.compress(json.dumps(record).encode()) + pack.flush()
    assert len(raw) < 10_000
    fragment = "#record=" + base64.urlsafe_b64encode(raw).decode().rstrip("=")
    posted: list[str] = []
    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            tab = browser.new_page()
            tab.on("request", lambda r: posted.append(r.url) if r.method == "POST" else None)
            tab.goto(server.url("/") + fragment)
            tab.wait_for_selector("#error:not([hidden])")
            error = tab.locator("#error").inner_text()
        finally:
            browser.close()
    assert error == "the record inflates to more than 2 MB"
    assert posted == []


def test_sigterm_stops_the_server_and_its_workers_with_one_line(tmp_path: Path) -> None:
    with serving(tmp_path, "--workers", "1") as one:
        pid = one.process.pid
        workers = [  # each thread's children: the pool starts workers from its threads
            w
            for task in Path(f"/proc/{pid}/task").iterdir()
            for w in (task / "children").read_text().split()
        ]
        assert workers
        one.process.terminate()
        assert one.process.wait(60) == 143
    assert one.logged().splitlines()[-1] == "adjudicator: the server stopped (SIGTERM)"
    assert "Traceback" not in one.logged()
    for _ in range(100):
        if not any(Path(f"/proc/{w}").exists() for w in workers):
            break
        time.sleep(0.1)
    assert not any(Path(f"/proc/{w}").exists() for w in workers), "a worker outlived the server"


def test_the_listening_socket_is_tcp_so_answers_are_not_held_by_nagle() -> None:
    """A socket made without IPPROTO_TCP made asyncio leave TCP_NODELAY off: each answer on
    a kept-alive connection waited 40 ms for the client's delayed ack."""
    from adjudicator.web import running

    sock = running.bind("127.0.0.1", 0)
    try:
        assert sock.proto == socket.IPPROTO_TCP
    finally:
        sock.close()


# --- a worker that dies: why it died ----------------------------------------------------

_ABORTS = """
import os, sys
print("ready", flush=True)
sys.stdin.readline()
sys.stderr.write({words!r})
sys.stderr.flush()
os.{end}
"""


@pytest.mark.parametrize(
    ("words", "end", "memory_mb", "said"),
    [  # mypyc's runtime and Rust abort past the memory limit where Python cannot raise
        ("fatal: out of memory\n", "abort()", 120, MEMORY.format(limit=120)),
        ("memory allocation of 4096 bytes failed\n", "abort()", 64, MEMORY.format(limit=64)),
        # the kernel's killer or a person's kill -9: the signal is what is known
        ("", "kill(os.getpid(), 9)", 120, KILLED.format(signal="SIGKILL")),
        ("fatal: out of memory\n", "kill(os.getpid(), 9)", 120, MEMORY.format(limit=120)),
        ("Segmentation fault\n", "abort()", 120, KILLED.format(signal="SIGABRT")),
        # no limit set: not ours to name; the signal is
        ("fatal: out of memory\n", "abort()", 0, KILLED.format(signal="SIGABRT")),
        ("", "_exit(0)", 120, STOPPED),
    ],
)
def test_a_worker_that_dies_is_named_by_its_last_words(
    monkeypatch: pytest.MonkeyPatch, words: str, end: str, memory_mb: int, said: str
) -> None:
    code = _ABORTS.format(words=words, end=end)
    monkeypatch.setattr(pool._Worker, "command", [sys.executable, "-c", code])
    limits = pool.Limits(workers=1, queue=0, time_limit=20, memory_mb=memory_mb)
    workers = pool.Pool(limits)
    try:
        with pytest.raises(pool.Refused) as refused:
            workers._call("check", {}, SMALL)
        assert (refused.value.status, refused.value.message) == (503, said)
        assert workers.recycled == 1
    finally:
        workers.close()
