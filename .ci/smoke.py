"""Smoke test of an installed adjudicator: the command answers, judges a sample, serves.

Run against an install, never a checkout: cibuildwheel's test command (each wheel, in a
fresh environment), CI's macOS and Windows job, and by hand after ``pip install``.
Standard library only, and no shell: it runs the same on Windows.

    python .ci/smoke.py [--engine compiled|pure] [--serve]

``--engine`` holds ``adjudicator --version``'s engine line to the build wanted;
``--serve`` starts ``adjudicator serve`` on a free port and asks it for ``/healthz``.
Exits 1 with one line saying what failed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

SAMPLE = "pagat_3p_full"
"""A legal game (``check`` exits 0) that every install carries (``adjudicator samples``)."""
ENGINES = {"compiled": "engine: compiled (mypyc)", "pure": "engine: pure Python"}


def fail(what: str) -> None:
    print(f"smoke: {what}", file=sys.stderr)
    raise SystemExit(1)


def run(command: list[str], given: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, input=given, capture_output=True, text=True, encoding="utf-8", timeout=300
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def serve(adjudicator: str) -> None:
    port = free_port()
    server = subprocess.Popen(
        [adjudicator, "serve", "--port", str(port), "--workers", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if server.poll() is not None:
                said = server.stderr.read() if server.stderr else ""
                fail(f"serve ended with status {server.returncode}: {said}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
                    answer = json.loads(r.read())
                if answer != {"status": "alive"}:
                    fail(f"/healthz answered {answer}")
                print(f"smoke: serve answers /healthz on port {port}")
                return
            except OSError:
                time.sleep(0.5)
        fail("serve did not answer /healthz within 120 s")
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", choices=sorted(ENGINES))
    parser.add_argument("--serve", action="store_true")
    wanted = parser.parse_args()
    adjudicator = shutil.which("adjudicator")
    if adjudicator is None:
        fail("no 'adjudicator' command on the PATH")
    assert adjudicator is not None
    version = run([adjudicator, "--version"])
    if version.returncode != 0:
        fail(f"--version exited {version.returncode}: {version.stderr.strip()}")
    print(version.stdout.strip())
    lines = version.stdout.strip().splitlines()
    if wanted.engine and (len(lines) < 2 or not lines[1].startswith(ENGINES[wanted.engine])):
        fail(f"wanted the {wanted.engine} engine; --version says {lines[1:]}")
    sample = run([adjudicator, "samples", SAMPLE])
    if sample.returncode != 0:
        fail(f"samples {SAMPLE} exited {sample.returncode}: {sample.stderr.strip()}")
    checked = run([adjudicator, "check", "-"], given=sample.stdout)
    if checked.returncode != 0:
        fail(f"check of {SAMPLE} exited {checked.returncode}: {checked.stdout}{checked.stderr}")
    print(f"smoke: check of {SAMPLE} exits 0")
    if wanted.serve:
        serve(adjudicator)


if __name__ == "__main__":
    main()
