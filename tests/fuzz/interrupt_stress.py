"""Ctrl-C stress: interrupt ``adjudicator check --jobs 2`` at random moments, many times.

A race between a signal and the process pool shows once in tens of runs, too rarely for a
test to catch every time: this script runs the interrupt again and again and counts the
runs that went wrong.  Each run starts ``check CORPUS --jobs 2`` in a process group of its
own (as a shell runs a job), waits a random 0.2-2 s, sends SIGINT to the whole group (as a
terminal does for Ctrl-C; ``--signal TERM`` sends SIGTERM to the main process alone) and
wants: exit status 130 (143) within 10 s, exactly one line on stderr, no traceback, no
process of the run left alive.  A run that hangs gets SIGABRT first: Python's fault
handler (PYTHONFAULTHANDLER is set) prints every thread's stack to the ``--log``.

    adjudicator simulate --count 3000 --seed 5 > /tmp/c.jsonl
    python tests/fuzz/interrupt_stress.py /tmp/c.jsonl --runs 100

Prints one line per failed run and a closing count; exit status 1 if any run failed.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

UNTESTED = "not interrupted while running"
"""The start of the reason for a run the signal did not catch running: not a failure."""
LAST_ERR = [""]
"""The last run's whole stderr, for ``--log``."""
DEADLINE = 10.0
"""Seconds from the signal to the end of the run, workers included."""


def _stat(pid: int) -> tuple[int, str, str] | None:
    """(parent pid, state, start time) of a process, or None once it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2 :].split()
    return int(fields[1]), fields[0], fields[19]


def _descendants(pid: int) -> dict[int, str]:
    """The living processes below ``pid``: pid -> start time (to tell a reused pid)."""
    table = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (stat := _stat(int(entry))) is not None:
            table[int(entry)] = stat
    found: dict[int, str] = {}
    frontier = {pid}
    while frontier:
        frontier = {
            child
            for child, (parent, state, _) in table.items()
            if parent in frontier and state != "Z" and child not in found
        }
        found.update({child: table[child][2] for child in frontier})
    return found


def _alive(pid: int, started: str) -> bool:
    stat = _stat(pid)
    return stat is not None and stat[1] != "Z" and stat[2] == started


def one_run(argv: list[str], delay: float, signum: int, expected: int) -> str | None:
    """Start, interrupt after ``delay`` seconds, judge; None if all went well, else why."""
    process = subprocess.Popen(
        argv,
        env={**os.environ, "PYTHONFAULTHANDLER": "1"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    time.sleep(delay)
    workers = _descendants(process.pid)
    if process.poll() is not None:
        process.communicate()
        return f"{UNTESTED}: ended by itself before the signal (status {process.returncode})"
    if signum == signal.SIGINT:
        os.killpg(process.pid, signum)
    else:
        process.send_signal(signum)
    sent = time.monotonic()
    try:
        _, err = process.communicate(timeout=DEADLINE)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGABRT)  # PYTHONFAULTHANDLER: every thread's stack
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(2)
        with contextlib.suppress(ProcessLookupError):  # the whole group may be gone
            os.killpg(process.pid, signal.SIGKILL)
        _, err = process.communicate()
        LAST_ERR[0] = err
        return f"still running {DEADLINE:.0f} s after the signal: {err.strip()[-300:]!r}"
    workers.update(_descendants(process.pid))
    while time.monotonic() - sent < DEADLINE and any(_alive(*w) for w in workers.items()):
        time.sleep(0.05)
    left = [pid for pid, started in workers.items() if _alive(pid, started)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    LAST_ERR[0] = err
    lines = err.strip().splitlines()
    if left:
        return f"workers left running: {left}"
    if "Traceback" in err:
        return f"traceback (status {process.returncode}): {err.strip()[-300:]!r}"
    if process.returncode == -signum and not err:
        # Before Python set its handlers, or after it put them back on its way out: the
        # signal's default action, silent, as for any program (a shell reports 130).
        return f"{UNTESTED}: ended by the signal itself, nothing printed (at start or exit)"
    if process.returncode != expected:
        return f"status {process.returncode}, not {expected}: {err.strip()[-300:]!r}"
    if len(lines) != 1:
        return f"{len(lines)} lines on stderr, not one: {err.strip()[-300:]!r}"
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", help="a JSON Lines file (or folder) a few seconds long")
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--min-delay", type=float, default=0.2)
    parser.add_argument("--max-delay", type=float, default=2.0)
    parser.add_argument("--signal", choices=["INT", "TERM"], default="INT")
    parser.add_argument("--log", help="append the whole stderr of each failed run here")
    parser.add_argument("--extra", nargs="*", default=[], help="more arguments for check")
    args = parser.parse_args()
    script = Path(sys.executable).parent / "adjudicator"
    argv = [str(script)] if script.exists() else [sys.executable, "-m", "adjudicator"]
    argv += ["check", args.corpus, "--jobs", str(args.jobs), *args.extra]
    signum = signal.SIGINT if args.signal == "INT" else signal.SIGTERM
    expected = 130 if signum == signal.SIGINT else 143
    rng = random.Random(args.seed)
    failures: Counter[str] = Counter()
    untested: Counter[str] = Counter()
    started = time.monotonic()
    for run in range(args.runs):
        delay = rng.uniform(args.min_delay, args.max_delay)
        why = one_run(argv, delay, signum, expected)
        if why is not None and why.startswith(UNTESTED):
            untested[why.split(": ")[1]] += 1
        elif why is not None:
            failures[why.split(":")[0]] += 1
            print(f"run {run} (signal at {delay:.2f} s): {why}", flush=True)
            if args.log:
                with open(args.log, "a", encoding="utf-8") as log:
                    log.write(f"--- run {run} (signal at {delay:.2f} s)\n{why}\n{LAST_ERR[0]}\n")
    failed = sum(failures.values())
    tested = args.runs - sum(untested.values())
    print(
        f"{failed} of {tested} interrupted runs failed ({100 * failed / max(tested, 1):.1f}%) "
        f"in {time.monotonic() - started:.0f} s"
        + "".join(f"\n  {times} × {why}" for why, times in failures.most_common())
        + "".join(f"\n  not counted: {times} × {why}" for why, times in untested.items())
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
