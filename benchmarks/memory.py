"""Peak memory of ``adjudicator check`` on one long record (issue 39).

Two shapes, written to a folder (default: a temporary one) and checked each in a child
process, whose peak resident set is read with ``getrusage(RUSAGE_CHILDREN)``:

  (a) irregularities: README's dispute (Helmfrid, phase two), then ``Cai play 8C 9C --
      taken back`` again and again (default 200,000 times), every one reported;
  (b) legal actions: a three-player phase-two position played on by the engine's own
      legal actions (pick whenever it may, else the first play listed), which cycles,
      repeated to the length asked (default 2,000,000 actions): a record that checks
      legal and never ends.

``check`` is run as a person runs it (its text), and with ``--json``.  The targets:
(a) under 300 MB, (b) under 1 GB (docs/limits.md).

    python benchmarks/memory.py [--taken 200000] [--legal 2000000] [--folder DIR]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from adjudicator.play.table import Table

PLAYERS = ["Anna", "Bo", "Cai"]
START: dict[str, Any] = {
    "phase": 2,
    "trump": "S",
    "leader": "Anna",
    "hands": {
        "Anna": ["6D", "KH", "4C"],
        "Bo": ["7D", "8D", "9D", "2H"],
        "Cai": ["8C", "9C", "3S", "QD"],
    },
}
TARGET_MB = {"taken back": 300, "legal": 1024}
STEPS_MAX = 10_000
"""Actions the engine plays looking for its cycle."""


def record(actions: list[str]) -> dict[str, Any]:
    return {
        "format": "skitgubbe-record/1",
        "variant": "helmfrid",
        "players": PLAYERS,
        "start": START,
        "actions": actions,
    }


def taken_back(count: int) -> dict[str, Any]:
    """README's dispute with Cai's refused play taken back ``count`` times."""
    return record(["Anna play 6D", "Bo play 7D 8D 9D"] + ["Cai play 8C 9C -- taken back"] * count)


def cycle() -> tuple[list[str], list[str]]:
    """The engine's own play from START (pick when it may, else the first play) as a
    lead-in and the cycle it falls into: the table after the lead-in and after each
    turn of the cycle is the same."""
    table = Table.new("helmfrid", PLAYERS, start=START)
    seen: dict[str, int] = {}
    played: list[str] = []
    for _ in range(STEPS_MAX):
        view = table.view()
        where = repr(
            ([sorted(hand) for hand in view.hands], view.trick, view.turn, view.out_of_play)
        )
        if where in seen:
            first = seen[where]
            return played[:first], played[first:]
        seen[where] = len(played)
        legal = [a for a in table.legal_forms() if isinstance(a, str)]
        picks = [a for a in legal if a.endswith(" pick")]
        action = picks[0] if picks else legal[0]
        table.push(action)
        played.append(action)
        if table.finished:
            break
    raise SystemExit("the engine's play found no cycle to repeat")


def legal_game(count: int) -> dict[str, Any]:
    """A legal record of ``count`` actions that never ends."""
    lead, loop = cycle()
    actions = list(lead)
    while len(actions) < count:
        actions.extend(loop)
    return record(actions[:count])


MEASURE = (
    "import resource, subprocess, sys\n"
    "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, code)\n"
)
"""Run a command and print its peak (kB) and exit status: RUSAGE_CHILDREN of a process
that has run only that one child, so each figure is that run's own."""


CHECK = (sys.executable, "-m", "adjudicator", "check")


def peak_of_check(path: Path, *flags: str) -> tuple[float, float, int]:
    """(peak MB, seconds, exit status) of ``check PATH`` in a child process."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, *CHECK, str(path), *flags],
        capture_output=True,
        text=True,
    )
    spent = time.perf_counter() - started
    peak_kb, code = (int(word) for word in done.stdout.split())
    if code not in (0, 1):
        raise SystemExit(f"check {path} failed ({code}): {done.stderr.strip()}")
    return peak_kb / 1024, spent, code


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taken", type=int, default=200_000, help="irregularities")
    parser.add_argument("--legal", type=int, default=2_000_000, help="legal actions")
    parser.add_argument("--folder", type=Path, default=None, help="keep the records here")
    parser.add_argument("--json", action="store_true", help="also run check --json")
    args = parser.parse_args()
    folder = args.folder or Path(tempfile.mkdtemp(prefix="adjudicator-memory-"))
    folder.mkdir(parents=True, exist_ok=True)
    shapes = [
        ("taken back", folder / "taken_back.json", lambda: taken_back(args.taken)),
        ("legal", folder / "legal.json", lambda: legal_game(args.legal)),
    ]
    failed = False
    for name, path, make in shapes:
        path.write_text(json.dumps(make()), encoding="utf-8")
        size = path.stat().st_size / 1e6
        for flags in [()] + ([("--json",)] if args.json else []):
            peak, spent, code = peak_of_check(path, *flags)
            verdict = "illegal" if code == 1 else "legal"
            ok = peak < TARGET_MB[name]
            failed |= not ok
            print(
                f"{name:10} {size:6.1f} MB record, check {' '.join(flags) or '(text)':8} "
                f"{verdict:7} peak {peak:7.1f} MB (target < {TARGET_MB[name]} MB: "
                f"{'ok' if ok else 'OVER'}), {spent:5.1f} s"
            )
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
