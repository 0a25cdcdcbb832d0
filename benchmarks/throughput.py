"""Throughput of ``adjudicator check`` on one core, against the ``json.loads`` floor.

Simulates a fixed-seed corpus (by default 2,000 three-player ``pagat`` games),
holds it in memory as JSON text, and times three passes over it in one run:

  (a) ``json.loads`` of every record only: the floor no validator can beat;
  (b) record parsing only: JSON, the pydantic models, names and pack resolved;
  (c) the full check of every record, exactly as ``check`` does it per record.

Each pass runs ``--repeat`` times and the fastest counts (the machine's noise
only ever adds time).  Prints records/s, actions/s, the ratios (c)/(a) and
(c)/(b), and peak memory; ``--profile N`` adds the N hottest functions of (c).

    python benchmarks/throughput.py [--games 2000] [--players 3] [--variant pagat]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import resource
import sys
import time
import tracemalloc
from pathlib import Path

from timing import best_of

from adjudicator.bulk import Source, check_source

try:
    from adjudicator.play.simulate import simulate
except ImportError:  # a commit before the layers (ab.py runs this script on both)
    from adjudicator.simulate import simulate  # type: ignore[no-redef]
from adjudicator.record import build_game, loads, parse_record

TARGET_ACTIONS_PER_S = {"pagat": 500_000, "helmfrid": 300_000}
"""Full-check targets in actions/s, one process (other variants: the pagat figure)."""
TARGET_PARSE_RATIO = 8.0
"""Record parsing within this many times the json.loads floor."""


def corpus(args: argparse.Namespace) -> list[str]:
    """The records as JSON text: read from ``--corpus`` or simulated from the seed."""
    if args.corpus is not None:
        with open(args.corpus, encoding="utf-8") as stream:
            return [line for line in stream if line.strip()]
    return [
        json.dumps(record, ensure_ascii=False)
        for record in simulate(args.variant, args.players, args.seed, args.games)
    ]


def main() -> None:
    """Run the three passes and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--variant", default="pagat")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--corpus", type=Path, default=None, help="a JSON Lines corpus to use")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="top N of (c)")
    args = parser.parse_args()

    start = time.perf_counter()
    texts = corpus(args)
    built = time.perf_counter() - start
    sources = [Source("corpus", i + 1, text) for i, text in enumerate(texts)]
    records = len(texts)
    actions = sum(len(json.loads(text)["actions"]) for text in texts)
    size = sum(len(text.encode("utf-8")) for text in texts)
    print(
        f"corpus: {records} records, {actions} actions, {size / 1e6:.1f} MB of JSON "
        f"({'read' if args.corpus else 'simulated'} in {built:.1f} s)"
    )

    def floor() -> None:
        for text in texts:
            json.loads(text)

    def parse() -> None:
        for text in texts:
            build_game(parse_record(loads(text)))

    def full() -> None:
        for source in sources:
            checked = check_source(source)
            if checked.status != "legal":
                sys.exit(f"{checked.label}: {checked.status}: simulated games must be legal")

    passes = [
        ("(a) json.loads only", best_of(args.repeat, floor)),
        ("(b) record parsing only", best_of(args.repeat, parse)),
        ("(c) full check", best_of(args.repeat, full)),
    ]
    print(f"\nbest of {args.repeat} runs, one process:")
    print(f"{'pass':<26}{'seconds':>9}{'records/s':>12}{'actions/s':>12}{'x floor':>9}")
    floor_s = passes[0][1]
    for name, seconds in passes:
        print(
            f"{name:<26}{seconds:>9.3f}{records / seconds:>12,.0f}"
            f"{actions / seconds:>12,.0f}{seconds / floor_s:>9.1f}"
        )
    parse_s, full_s = passes[1][1], passes[2][1]
    print(f"\n(c)/(a) = {full_s / floor_s:.1f}   (c)/(b) = {full_s / parse_s:.2f}")

    tracemalloc.start()
    full()
    _, traced_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    max_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"peak memory: {max_rss:.0f} MB max RSS (corpus held in memory included); "
        f"a full check pass allocates at most {traced_peak / 1024:.0f} KB at once"
    )

    speed = actions / full_s
    target = TARGET_ACTIONS_PER_S.get(args.variant, TARGET_ACTIONS_PER_S["pagat"])
    parse_ratio = parse_s / floor_s
    print(
        f"targets: full check {speed:,.0f} actions/s "
        f"({'met' if speed >= target else 'NOT met'}: >= {target:,}); "
        f"parsing {parse_ratio:.1f}x json.loads "
        f"({'met' if parse_ratio <= TARGET_PARSE_RATIO else 'NOT met'}: "
        f"<= {TARGET_PARSE_RATIO:.0f}x)"
    )

    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(full)
        print()
        pstats.Stats(profile).sort_stats("tottime").print_stats(args.profile)


if __name__ == "__main__":
    main()
