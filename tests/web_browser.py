"""Helpers for the browser tests: a server on a free port and a Chromium found on this machine.

The browser is found as the README promises: Playwright's own Chromium if it
is installed, else a system ``chromium`` on the PATH (Debian's package),
else ``playwright install chromium`` is run once; when none works the tests
fail with one line saying how to get a browser.  They never skip.
"""

from __future__ import annotations

import base64
import json
import shutil
import socket
import subprocess
import sys
import threading
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn

LAYOUT = (Path(__file__).parent / "web" / "web_layout.js").read_text(encoding="utf-8")
"""The layout checks every browser test runs on a page (``page.evaluate(LAYOUT)``)."""

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
HOW = (
    "no Chromium for the browser tests: run 'playwright install chromium', or install "
    "your system's chromium package (Debian: apt-get install -y chromium)"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving() -> Iterator[str]:
    """The web app on 127.0.0.1 at a free port, in a thread; yields its base address."""
    from adjudicator.web import app

    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the web app did not start on 127.0.0.1")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def launch(playwright):  # type: ignore[no-untyped-def]
    """A headless Chromium: Playwright's own, the system's, or one installed now."""
    problems = []
    try:
        return playwright.chromium.launch(args=ARGS)
    except Exception as exc:  # Playwright's browser is not installed
        problems.append(str(exc).splitlines()[0])
    system = shutil.which("chromium") or shutil.which("chromium-browser")
    if system:
        try:
            return playwright.chromium.launch(executable_path=system, args=ARGS)
        except Exception as exc:
            problems.append(str(exc).splitlines()[0])
    installed = subprocess.run(
        [sys.executable, "-m", "playwright", "install", "chromium"],
        capture_output=True,
        timeout=600,
        check=False,
    )
    if installed.returncode == 0:
        try:
            return playwright.chromium.launch(args=ARGS)
        except Exception as exc:
            problems.append(str(exc).splitlines()[0])
    pytest.fail(HOW, pytrace=False)


def packed(text: str) -> str:
    """``#record=`` + base64url (no padding) of raw-DEFLATE UTF-8 ``text``: what the page
    shares (record-format.md, "A record in a link"), for any text."""
    pack = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = pack.compress(text.encode()) + pack.flush()
    return "#record=" + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def link(record: dict[str, Any]) -> str:
    """The page's link fragment for ``record`` (its UTF-8 JSON, packed)."""
    return packed(json.dumps(record, ensure_ascii=False))


def unlink(address: str) -> Any:
    """The record an address's ``#record=`` holds (the step and view after it left out)."""
    code = address.split("#record=", 1)[1].split("&", 1)[0]
    raw = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
    return json.loads(zlib.decompress(raw, -15).decode())
