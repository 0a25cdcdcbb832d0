"""The static site's speed in Chromium: the engine in the browser, cold and warm.

Builds the site (``adjudicator site``, downloads from the cache), serves it with
``python -m http.server`` on 127.0.0.1, and in one Chromium (found as the browser
tests find it), at 390×844, each at normal speed and with the CPU throttled 4×
(DevTools' ``Emulation.setCPUThrottlingRate``, a mid-range phone):

  * bare: ``loadPyodide`` alone, from the same folder (a page holding nothing else), from
    the network and then again from the browser's cache (what warm is held to);
  * cold: a new profile (empty cache) opens the README's dispute link: ms from the
    navigation's start to ``adjudicator.ready`` and to the ruling drawn (its legal
    buttons);
  * warm: the same profile again, once the service worker controls it (every file
    from the phone's cache);
  * one ``adjudicator.check`` of ``sample_games/pagat_3p_full.json`` (313 actions),
    the median of ``--checks`` runs.

Targets (issue 32): ready within 1.5× the bare start; warm start to the first ruling
<= 3 s unthrottled; a 300-action check <= 50 ms.  Issue 41: warm ready within 1.3× the
bare start from cache, the same run.  A bounded run, not a timed test.

    python benchmarks/site_speed.py [--checks 20] [--site DIR]
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import zlib
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from web_browser import free_port, launch  # noqa: E402

from adjudicator.web import site  # noqa: E402

RECORD = ROOT / "sample_games" / "pagat_3p_full.json"
BARE = """<!DOCTYPE html><meta charset="utf-8"><title>bare</title>
<script type="module">
const t0 = performance.now();
const { loadPyodide } = await import("./pyodide/pyodide.mjs");
await loadPyodide({ indexURL: new URL("pyodide/", location.href).href });
window.bare = performance.now() - t0;
</script>"""


def dispute_link() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- file: dispute.json -->\n```json\n(.*?)```", text, re.S)
    assert found
    pack = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = pack.compress(json.dumps(json.loads(found.group(1))).encode()) + pack.flush()
    return "#record=" + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def throttle(page: Page, rate: float) -> None:
    page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})


def bare(browser: Browser, origin: str, rate: float) -> tuple[float, float]:
    """loadPyodide alone, ms: from the network, then again from the browser's cache."""
    context = browser.new_context()
    took = []
    for _ in range(2):
        page = context.new_page()
        throttle(page, rate)
        page.goto(origin + "/bare.html")
        page.wait_for_function("window.bare !== undefined", timeout=600_000)
        took.append(float(page.evaluate("window.bare")))
        page.close()
    context.close()
    return took[0], took[1]


def opened(page: Page, url: str) -> dict[str, float]:
    page.goto(url)
    page.wait_for_function("window.adjudicator !== undefined", timeout=60_000)
    ready = page.evaluate("adjudicator.ready.then(() => performance.now())")
    page.wait_for_selector("#ruling .violation", timeout=600_000)
    ruled = page.evaluate("performance.now()")
    return {"ready": ready, "ruling": ruled}


def run(browser: Browser, origin: str, rate: float, checks: int) -> dict[str, Any]:
    link = origin + "/" + dispute_link()
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    throttle(page, rate)
    cold = opened(page, link)
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=600_000)
    text = RECORD.read_text(encoding="utf-8")
    times = page.evaluate(
        """async ([text, n]) => {
          const out = [];
          for (let i = 0; i < n; i++) {
            const t = performance.now();
            const r = await adjudicator.check(text);
            if (r.status !== "legal") throw new Error(r.status);
            out.push(performance.now() - t);
          }
          return out;
        }""",
        [text, checks],
    )
    page.close()
    again = context.new_page()
    throttle(again, rate)
    warm = opened(again, link)
    context.close()
    return {"cold": cold, "warm": warm, "check": statistics.median(times)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checks", type=int, default=20)
    parser.add_argument("--site", type=Path, help="a built site (default: build one now)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "site"
        if args.site:
            shutil.copytree(args.site, folder)
        else:
            site.build(folder)
        (folder / "bare.html").write_text(BARE, encoding="utf-8")
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "http.server", str(port), "-b", "127.0.0.1", "-d", str(folder)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        origin = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                urllib.request.urlopen(origin + "/bare.html", timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        try:
            with sync_playwright() as playwright:
                browser = launch(playwright)
                print(f"load average before: {os.getloadavg()[0]:.1f} (cores: {os.cpu_count()})")
                for rate in (1.0, 4.0):
                    start, cached = bare(browser, origin, rate)
                    got = run(browser, origin, rate, args.checks)
                    cold, warm = got["cold"], got["warm"]
                    print(
                        f"CPU {rate:g}x: bare loadPyodide {start / 1000:.1f} s, from cache "
                        f"{cached / 1000:.1f} s; cold ready {cold['ready'] / 1000:.1f} s "
                        f"({cold['ready'] / start:.2f}x bare), first ruling "
                        f"{cold['ruling'] / 1000:.1f} s; warm ready {warm['ready'] / 1000:.1f} s "
                        f"({warm['ready'] / cached:.2f}x bare from cache), first ruling "
                        f"{warm['ruling'] / 1000:.1f} s; check of 313 actions "
                        f"{got['check']:.0f} ms (median of {args.checks})",
                        flush=True,
                    )
                browser.close()
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
