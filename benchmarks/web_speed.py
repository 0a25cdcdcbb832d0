"""The web edge's speed: POST /api/check over HTTP, and a tap's ruling in the browser.

Starts ``adjudicator.web:app`` on one uvicorn worker at 127.0.0.1 (a free port,
in a subprocess: the client does not share its process), then:

  * posts ``sample_games/pagat_3p_full.json`` (313 actions) to ``/api/check``
    ``--requests`` times, one after the other on one keep-alive connection:
    p50 and p99 latency in ms, and requests/s (target: p50 <= 5 ms);
  * opens the table's page in Chromium (found as the browser tests find it),
    builds the README's dispute up to Cai's turn and times a tap on a legal
    action until its ruling is drawn, ``--taps`` times, as the page measures it
    (``performance.now()`` from the tap to the drawn ruling; target <= 100 ms).

Nothing leaves the machine.  A bounded loop, no timed test.

    python benchmarks/web_speed.py [--requests 500] [--taps 20]
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "sample_games" / "pagat_3p_full.json"
DISPUTE = {
    "format": "skitgubbe-record/1",
    "variant": "helmfrid",
    "players": ["Anna", "Bo", "Cai"],
    "start": {
        "phase": 2,
        "trump": "S",
        "leader": "Anna",
        "hands": {
            "Anna": ["6D", "KH", "4C"],
            "Bo": ["7D", "8D", "9D", "2H"],
            "Cai": ["8C", "9C", "3S", "QD"],
        },
    },
    "actions": ["Anna play 6D", "Bo play 7D 8D 9D"],
}


def start_server() -> tuple[subprocess.Popen[bytes], int]:
    sys.path.insert(0, str(ROOT / "tests"))
    from web_browser import free_port

    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "adjudicator.web:app",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--workers",
            "1",
            "--log-level",
            "warning",
        ]
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/api/variants")
            return server, port
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the server did not start")


def check_speed(port: int, requests: int) -> None:
    body = RECORD.read_bytes()
    actions = len(json.loads(body)["actions"])
    connection = http.client.HTTPConnection("127.0.0.1", port)
    times = []
    for _ in range(10):  # warm up
        connection.request("POST", "/api/check", body, {"content-type": "application/json"})
        connection.getresponse().read()
    started = time.perf_counter()
    for _ in range(requests):
        t0 = time.perf_counter()
        connection.request("POST", "/api/check", body, {"content-type": "application/json"})
        answer = connection.getresponse()
        data = answer.read()
        times.append((time.perf_counter() - t0) * 1000)
        assert answer.status == 200, data[:200]
    total = time.perf_counter() - started
    times.sort()
    p50 = statistics.median(times)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"POST /api/check, {RECORD.name} ({actions} actions), {requests} requests, 1 worker:")
    print(
        f"  p50 {p50:.2f} ms (target <= 5)   p99 {p99:.2f} ms   {requests / total:.0f} requests/s"
    )


def tap_speed(port: int, taps: int) -> None:
    from playwright.sync_api import sync_playwright
    from web_browser import launch

    base = f"http://127.0.0.1:{port}/"
    record = json.dumps(DISPUTE)
    results = []
    with sync_playwright() as playwright:
        browser = launch(playwright)
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(base)
        page.wait_for_selector("body[data-ready=true]")
        for _ in range(taps + 2):
            page.get_by_role("button", name="Open record").click()
            page.fill("#paste", record)
            page.get_by_role("button", name="Open", exact=True).click()
            page.get_by_role("button", name="Cai play QD", exact=True).click()
            page.wait_for_selector("#steps li:nth-child(3)")
            results.append(float(page.evaluate("document.body.dataset.rulingMs")))
        browser.close()
    results = sorted(results[2:])  # the first taps warm up
    print(f"A tap on a legal action until its ruling is drawn (Chromium, {taps} taps):")
    print(
        f"  median {statistics.median(results):.1f} ms, worst {results[-1]:.1f} ms (target <= 100)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--taps", type=int, default=20)
    args = parser.parse_args()
    server, port = start_server()
    try:
        check_speed(port, args.requests)
        tap_speed(port, args.taps)
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
