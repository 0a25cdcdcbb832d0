"""Conformance kit speed: ``vectors`` lines per second and ``perft`` nodes per second.

Targets (issue 25): vectors >= 2,000 positions/s for ``pagat`` (3 players);
perft >= 100,000 nodes/s.  This times, in one process:

  * ``vectors.write`` for ``--positions`` positions of pagat (and of each preset
    with ``--all``), the JSON text included: positions/s;
  * ``perft`` from the reference positions of docs/conformance.md (the deal and
    the first position of phase two of one sample game per preset) to
    ``--depth``: nodes/s, nodes being every sequence counted at every depth (the
    last depth is counted from the length of the legal list, as chess perft does);
  * the same perft through ``legal_by_check``, the definition, to show what the
    direct generation saves.

Each figure is the best of ``--repeat`` runs, in CPU time (``--wall``: wall time).

    python benchmarks/conformance_speed.py [--positions 5000] [--depth 4] [--repeat 3] [--all]
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Callable
from pathlib import Path

from adjudicator import engine, record
from adjudicator.conformance import perft, vectors
from adjudicator.play import legal
from adjudicator.rules.presets import PRESETS

ROOT = Path(__file__).resolve().parent.parent
ROW = re.compile(r"^\| (\w+) \| `([^`]+)` \| (\d+) \|")


def best_of(repeat: int, run: Callable[[], object]) -> float:
    """The least CPU time of ``repeat`` runs, in seconds.

    CPU time, not wall time: the machine is shared, and a waiting process is not a
    slow one.  ``--wall`` reports wall time instead.
    """
    clock = time.perf_counter if WALL else time.process_time
    times = []
    for _ in range(repeat):
        start = clock()
        run()
        times.append(clock() - start)
    return min(times)


WALL = False


def reference_positions() -> list[tuple[str, str, int]]:
    """(preset, record path, position) of each row of the reference table."""
    text = (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")
    return [(m[1], m[2], int(m[3])) for m in map(ROW.match, text.splitlines()) if m]


def time_vectors(variant: str, count: int, repeat: int) -> float:
    """Positions per second written by ``vectors`` (JSON text included)."""
    players = vectors.default_players(variant)
    spent = best_of(repeat, lambda: sum(len(t) for t in vectors.write(variant, players, 0, count)))
    return count / spent


def time_perft(depth: int, repeat: int, generate: perft.Generator) -> list[tuple[str, int, float]]:
    """(row name, nodes, nodes/s) for every reference position."""
    out = []
    for variant, path, at in reference_positions():
        state = legal.position(record.load(str(ROOT / path)), at).state
        counts: list[int] = []

        def run(state=state, counts=counts) -> None:
            counts[:] = perft.perft(state, depth, generate)

        spent = best_of(repeat, run)
        nodes = perft.nodes(counts)
        out.append((f"{variant} at {at}", nodes, nodes / spent))
    return out


def main() -> None:
    """Run the passes and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=5000)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--all", action="store_true", help="vectors for every preset")
    parser.add_argument("--wall", action="store_true", help="wall time instead of CPU time")
    args = parser.parse_args()
    global WALL
    WALL = args.wall
    for variant in PRESETS if args.all else ("pagat",):
        rate = time_vectors(variant, args.positions, args.repeat)
        print(f"vectors {variant:10} {rate:10,.0f} positions/s")
    for label, generate in (
        ("legal_actions", engine.legal_actions),
        ("legal_by_check", engine.legal_by_check),
    ):
        rows = time_perft(args.depth, args.repeat, generate)
        total = sum(n for _, n, _ in rows)
        seconds = sum(n / r for _, n, r in rows)
        for name, nodes, rate in rows:
            print(f"perft {label:14} {name:16} {nodes:10,} nodes {rate:10,.0f} nodes/s")
        print(
            f"perft {label:14} {'all rows':16} {total:10,} nodes {total / seconds:10,.0f} nodes/s"
        )


if __name__ == "__main__":
    main()
