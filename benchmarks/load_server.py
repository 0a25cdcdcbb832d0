"""``adjudicator serve`` under load, on 127.0.0.1 only, bounded in requests and time.

Starts ``python -m adjudicator serve`` (a free port, a subprocess) and measures:

  1. ``/api/check`` of ``sample_games/pagat_3p_full.json`` (313 actions) at 1, 8 and 32
     concurrent clients (keep-alive connections): p50/p99 latency, requests/s, statuses;
  2. the same at 8 clients while one more client posts a 16 MB record (640,000 actions)
     in a loop: the small requests' p99 beside it (target: under 50 ms, under 2x alone);
  3. ``--over`` requests with bodies over the limit (a server with ``--max-body 1 MB``,
     2 MB bodies sent whole, as urllib does): every one answered 413, the server's memory
     (its RSS and its workers') before and after;
  4. a client sending one byte a second: whether it holds a worker (``/readyz``), and
     what it gets at the body timeout;
  5. ``--idle`` silent connections: a new client's ``/healthz``, then how many the
     server closed by its header timeout;
  6. ``/api/replay`` of a 2.5 MB record of 100,000 actions (time limit raised): the
     answer's size and time;
  7. ``--held`` connections each declaring a 100-byte body and sending 99, twice (a
     second wave as the first is cut): a new client's ``/healthz`` meanwhile and after,
     how many the server cut, its memory before and after;
  8. ``--unread`` clients, one a second, each posting a 0.7 MB record (a 6.9 MB answer)
     and never reading the answer: a new client's ``/healthz`` meanwhile and after,
     how many were cut, the server's memory at its peak and after.

After 7 and 8 a new client must get ``/healthz`` within 1 s and the server's memory
(its own RSS; the workers' beside it) be within 1.5x of its idle size.

    python benchmarks/load_server.py [--requests 400] [--workers 2] [--over 1000] [--idle 2000]
        [--held 1001] [--unread 20] [--only 12345678]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FULL = (ROOT / "sample_games" / "pagat_3p_full.json").read_bytes()
JSON = {"content-type": "application/json"}


def heavy(actions: int) -> bytes:
    """Bo's 'take' (no act of the basic game) tried and taken back, then a whole game."""
    record = json.loads(FULL)
    wrong = ["Bo take -- taken back"] * (actions - len(record["actions"]))
    return json.dumps({**record, "actions": wrong + record["actions"]}).encode()


class Connection(http.client.HTTPConnection):
    """http.client sends a request's headers and body in two writes: without TCP_NODELAY
    the body waits for the server's delayed ack (40 ms a request), as browsers never do."""

    def connect(self) -> None:
        super().connect()
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving(*args: str) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    port = free_port()
    command = [sys.executable, "-m", "adjudicator", "serve", "--port", str(port)]
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen([*command, "--no-access-log", *args], stderr=log)
        try:
            for _ in range(1200):
                try:
                    if get(port, "/readyz")[0] == 200:
                        break
                except OSError:
                    time.sleep(0.1)
            yield port, process
        finally:
            process.terminate()
            process.wait(60)
            log.seek(0)
            tail = log.read().decode(errors="replace").strip().splitlines()[-3:]
            if tail:
                print("   server log ends:", *tail, sep="\n     ")


def get(port: int, path: str) -> tuple[int, dict[str, object]]:
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        c.request("GET", path)
        r = c.getresponse()
        return r.status, json.loads(r.read())
    finally:
        c.close()


def rss_kb(pid: int, workers: bool = True) -> int:
    """Resident memory of ``pid`` and its children (the workers), in KB."""
    total = 0
    for p in [pid, *(children(pid) if workers else [])]:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


def children(pid: int) -> list[int]:
    found = []  # each thread's children: the pool starts workers from its threads
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with suppress(OSError):
            found += [int(x) for x in (task / "children").read_text().split()]
    return found


def clients(
    port: int, body: bytes, concurrency: int, requests: int, seconds: float = 60
) -> tuple[list[float], Counter[int], float]:
    """``requests`` POSTs of ``body`` from ``concurrency`` keep-alive clients."""
    times: list[float] = []
    statuses: Counter[int] = Counter()
    left = [requests]
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def client() -> None:
        c = Connection("127.0.0.1", port, timeout=60)
        while time.monotonic() < stop:
            with lock:
                if left[0] <= 0:
                    break
                left[0] -= 1
            began = time.perf_counter()
            try:
                c.request("POST", "/api/check", body, JSON)
                r = c.getresponse()
                r.read()
                status = r.status
                if r.getheader("connection") == "close":
                    c.close()
            except OSError:
                status = 0
                c.close()
            with lock:
                times.append(time.perf_counter() - began)
                statuses[status] += 1
        c.close()

    began = time.perf_counter()
    threads = [threading.Thread(target=client) for _ in range(concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return times, statuses, time.perf_counter() - began


def figures(times: list[float], statuses: Counter[int], wall: float) -> str:
    ms = sorted(t * 1000 for t in times)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return (
        f"p50 {statistics.median(ms):6.1f} ms  p99 {p99:6.1f} ms  "
        f"{len(ms) / wall:6.0f} req/s  statuses {dict(statuses)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--over", type=int, default=1000)
    parser.add_argument("--idle", type=int, default=2000)
    parser.add_argument("--held", type=int, default=1001)
    parser.add_argument("--unread", type=int, default=20)
    parser.add_argument("--only", default="12345678", help="the measures to run, e.g. 36")
    args = parser.parse_args()
    workers = ["--workers", str(args.workers)]
    print(f"{os.cpu_count()} cores, {args.workers} workers, record {len(FULL):,} bytes")

    if "1" in args.only or "2" in args.only:
        check_alone_and_beside_heavy(args.requests, workers)
    if "3" in args.only:
        over_the_limit(args.over, workers)
    if "4" in args.only:
        one_byte_a_second(workers)
    if "5" in args.only:
        idle_connections(args.idle, workers)
    if "6" in args.only:
        heavy_replay(workers)
    if "7" in args.only:
        held_bodies(args.held, workers)
    if "8" in args.only:
        unread_answers(args.unread, workers)


def check_alone_and_beside_heavy(requests: int, workers: list[str]) -> None:
    with serving(*workers) as (port, _):
        clients(port, FULL, 2, 20)  # warm up
        alone = {}
        for n in (1, 8, 32):
            times, statuses, wall = clients(port, FULL, n, requests)
            alone[n] = times
            print(f"1. {n:2d} clients:            {figures(times, statuses, wall)}")
        big = heavy(640_000)
        assert len(big) < 16 * 1024 * 1024, len(big)
        stop = threading.Event()
        heavy_statuses: Counter[int] = Counter()

        def loop() -> None:
            while not stop.is_set():
                _, statuses, _ = clients(port, big, 1, 1, 120)
                heavy_statuses.update(statuses)

        sender = threading.Thread(target=loop)
        sender.start()
        time.sleep(1.0)
        times, statuses, wall = clients(port, FULL, 8, requests)
        stop.set()
        sender.join()
        print(f"2.  8 clients + 16 MB loop: {figures(times, statuses, wall)}")
        print(f"   the {len(big) / 1e6:.1f} MB records: statuses {dict(heavy_statuses)}")


def over_the_limit(over: int, workers: list[str]) -> None:
    with serving(*workers, "--max-body", str(1 << 20)) as (port, process):
        count = int(workers[1]) + 1  # the workers and the spare
        for _ in range(600):
            if len(children(process.pid)) >= count:
                break
            time.sleep(0.1)
        time.sleep(2)  # the spare has loaded the engine
        before = rss_kb(process.pid)
        body = b" " * (2 << 20)
        times, statuses, wall = clients(port, body, 8, over, 600)
        after = rss_kb(process.pid)
        print(f"3. {over} bodies over the limit: {figures(times, statuses, wall)}")
        print(f"   server and workers RSS: {before / 1024:.0f} MB before, {after / 1024:.0f} after")


def one_byte_a_second(workers: list[str]) -> None:
    with serving(*workers, "--body-timeout", "10") as (port, _):
        slow = socket.create_connection(("127.0.0.1", port))
        slow.sendall(
            b"POST /api/check HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
            b"content-length: 100\r\n\r\n"
        )
        running = []
        began = time.monotonic()
        for _ in range(5):
            slow.sendall(b" ")
            running.append(get(port, "/readyz")[1]["running"])
            time.sleep(1)
        slow.settimeout(30)
        answer = slow.recv(4096).split(b"\r\n", 1)[0].decode()
        waited = time.monotonic() - began
        slow.close()
        print(
            f"4. one byte a second: workers running meanwhile {running}; "
            f"after {waited:.1f} s: {answer}"
        )


def idle_connections(count: int, workers: list[str]) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, count + 500)), hard))
    with serving(*workers, "--header-timeout", "10") as (port, _):
        began = time.monotonic()
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(count)]
        opened = time.monotonic() - began
        t = time.perf_counter()
        status = get(port, "/healthz")[0]
        new = (time.perf_counter() - t) * 1000
        time.sleep(12)
        closed = 0
        for s in idle:
            s.setblocking(False)
            try:
                closed += s.recv(1) == b""
            except BlockingIOError:
                pass
            except OSError:
                closed += 1
            s.close()
        print(
            f"5. {count} idle connections (opened in {opened:.1f} s): a new client "
            f"got {status} in {new:.0f} ms; {closed} closed by the server 12 s later"
        )


def heavy_replay(workers: list[str]) -> None:
    with serving(*workers, "--time-limit", "300") as (port, process):
        record = heavy(100_000)
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        peak = [0]
        done = threading.Event()

        def watch() -> None:  # the server's and its workers' memory, twice a second
            while not done.wait(0.5):
                peak[0] = max(peak[0], rss_kb(process.pid))

        watcher = threading.Thread(target=watch)
        watcher.start()
        t = time.perf_counter()
        c.request("POST", "/api/replay", record, JSON)
        r = c.getresponse()
        data = r.read()
        took = time.perf_counter() - t
        done.set()
        watcher.join()
        page = json.loads(data)
        print(
            f"6. /api/replay of {len(record) / 1e6:.1f} MB, 100,000 actions: {r.status}, "
            f"{len(data) / 1e6:.1f} MB in {took:.1f} s; steps {page['steps_from']}-"
            f"{page['steps_next']} of {page['steps_total']}, violations "
            f"{page['check']['shown']['violations']}; server and workers peak RSS "
            f"{peak[0] / 1024:.0f} MB"
        )


def healthz_ms(port: int, seconds: float = 30) -> tuple[int, float]:
    """A new connection's ``/healthz``: its status (0: none) and how long it took."""
    t = time.perf_counter()
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=seconds)
        c.request("GET", "/healthz")
        status = c.getresponse().status
        c.close()
    except OSError:
        status = 0
    return status, (time.perf_counter() - t) * 1000


def enough_descriptors(count: int) -> None:
    """This process's soft open-file limit raised for ``count`` sockets (the server's
    is its own: it raises it to the hard limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < count + 200:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, count + 500), hard))


def memory(process: subprocess.Popen[bytes]) -> str:
    own, all_ = rss_kb(process.pid, workers=False), rss_kb(process.pid)
    return f"{own / 1024:.0f} MB (with the workers {all_ / 1024:.0f} MB)"


def settled(process: subprocess.Popen[bytes], workers: list[str]) -> tuple[int, int]:
    """The server's own RSS and with its workers, in KB, once every worker has loaded."""
    count = int(workers[1]) + 1  # the workers and the spare
    for _ in range(600):
        if len(children(process.pid)) >= count:
            break
        time.sleep(0.1)
    time.sleep(2)
    return rss_kb(process.pid, workers=False), rss_kb(process.pid)


def cut(sockets: list[socket.socket]) -> int:
    """How many of ``sockets`` the server has closed or reset; each is closed here."""
    closed = 0
    for s in sockets:
        s.setblocking(False)
        try:
            while chunk := s.recv(1 << 20):
                if b"HTTP/1.1 408" in chunk:
                    closed += 1
                    break
            else:
                closed += 1
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
        s.close()
    return closed


def held_bodies(count: int, workers: list[str]) -> None:
    enough_descriptors(2 * count)
    with serving(*workers) as (port, process):
        idle, _ = settled(process, workers)
        headers = (
            b"POST /api/check HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
            b"content-length: 100\r\n\r\n"
        )
        waves = []
        meanwhile = []
        for _ in range(2):  # a second wave once the first is in
            wave = []
            for _ in range(count):
                with suppress(OSError):
                    s = socket.create_connection(("127.0.0.1", port), timeout=10)
                    s.sendall(headers + b" " * 99)
                    wave.append(s)
            waves.append(wave)
            meanwhile.append(healthz_ms(port))
        time.sleep(1)
        meanwhile.append(healthz_ms(port))
        time.sleep(10)  # past the body-rate floor (5 s and 1,024 bytes a second)
        closed = sum(cut(wave) for wave in waves)
        after = healthz_ms(port)
        own = rss_kb(process.pid, workers=False)
        print(
            f"7. 2 x {count} bodies one byte short: a new client's /healthz meanwhile "
            f"{', '.join(f'{s} in {ms:.0f} ms' for s, ms in meanwhile)}; "
            f"{closed} of {sum(map(len, waves))} cut 11 s later; after: {after[0]} in "
            f"{after[1]:.0f} ms; server RSS {idle / 1024:.0f} MB idle, {memory(process)} "
            f"after ({own / idle:.2f}x)"
        )


def unread_answers(count: int, workers: list[str]) -> None:
    with serving(*workers, "--time-limit", "120") as (port, process):
        idle, idle_all = settled(process, workers)
        record = heavy(30_000)
        peak = [0, 0]
        done = threading.Event()

        def watch() -> None:
            while not done.wait(0.25):
                peak[0] = max(peak[0], rss_kb(process.pid, workers=False))
                peak[1] = max(peak[1], rss_kb(process.pid))

        watcher = threading.Thread(target=watch)
        watcher.start()
        readers = []
        meanwhile = []
        head = (
            b"POST /api/check HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
            + f"content-length: {len(record)}\r\n\r\n".encode()
        )
        for _ in range(count):  # one a second, none ever read
            s = socket.create_connection(("127.0.0.1", port), timeout=60)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.sendall(head + record)
            readers.append(s)
            time.sleep(1)
            meanwhile.append(healthz_ms(port)[1])
        for _ in range(1200):  # every record checked (at most 10 minutes)
            if get(port, "/readyz")[1]["running"] == 0:
                break
            time.sleep(0.5)
        time.sleep(12)  # the last answers past the 10 s write timeout
        done.set()
        watcher.join()
        got = []
        for s in readers:
            s.settimeout(5)
            data = b""
            with suppress(OSError):
                while chunk := s.recv(1 << 20):
                    data += chunk
            got.append(len(data))
            s.close()
        after = healthz_ms(port)
        own = rss_kb(process.pid, workers=False)
        print(
            f"8. {count} clients posting {len(record) / 1e6:.1f} MB, reading nothing: "
            f"/healthz meanwhile worst {max(meanwhile):.0f} ms; each connection had "
            f"received at most {max(got) / 1e6:.1f} MB when cut; after: {after[0]} in "
            f"{after[1]:.0f} ms; server RSS {idle / 1024:.0f} MB idle "
            f"({idle_all / 1024:.0f} MB with the workers), peak {peak[0] / 1024:.0f} MB "
            f"({peak[1] / 1024:.0f} MB), {memory(process)} after ({own / idle:.2f}x)"
        )


if __name__ == "__main__":
    main()
