"""Every preset's speed in one table, beside python-chess's random self-play.

For every preset (at three players, and the Goat also at five and eight, where
it plays with two packs) this times, in one run and one process:

  * simulate: random legal games played through ``simulate.random_game``
    (``legal_actions`` + ``apply`` per action), in actions/s;
  * check: the same games' records checked as ``adjudicator check`` checks
    them (JSON text in, verdict out: ``bulk.check_source``), in actions/s;
  * python-chess random self-play (``legal_moves`` + ``push`` per ply, to the
    end of the game or 400 plies), in plies/s, when python-chess is installed
    (``pip install chess``: a benchmark-only dependency, not the project's).

Each table plays seeded games until it has ``--actions`` actions (whole
games), so an eight-player Goat game of thousands of actions and a basic game
of three hundred weigh alike.  Each figure is the best of ``--repeat`` runs,
timed in CPU time of the process (the machine's noise only ever adds time).
The targets are issue 26's:
simulate >= 150k actions/s for every preset, ``pagat`` >= 10x python-chess,
check >= 600k actions/s for ``pagat`` and >= 400k for every other preset.

    python benchmarks/presets_speed.py [--actions 30000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from typing import Any

from timing import best_of

from adjudicator import _native
from adjudicator.bulk import Source, check_source
from adjudicator.play.simulate import game_rng, random_game
from adjudicator.rules.presets import PRESETS

SIMULATE_TARGET = 150_000
CHECK_TARGET = {"pagat": 600_000}
CHECK_TARGET_OTHERS = 400_000
CHESS_RATIO_TARGET = 10.0
SEED = 26


def tables() -> list[tuple[str, int]]:
    """(preset, players): each preset at three players, the Goat also at five and eight."""
    out = []
    for name, preset in PRESETS.items():
        low, high = preset.options.min_players, preset.options.max_players
        out.append((name, min(max(3, low), high)))
        if name == "goat":
            out += [(name, 5), (name, 8)]
    return out


def games_for(variant: str, players: int, actions: int) -> int:
    """How many seeded games reach ``actions`` actions."""
    count = total = 0
    while total < actions:
        _, game = random_game(variant, players, game_rng(SEED, count))
        total += len(game.actions)
        count += 1
    return count


def chess_plies(games: int, seed: int) -> int:
    """Plies of ``games`` random python-chess games (legal_moves + push per ply)."""
    import chess

    rng = random.Random(seed)
    plies = 0
    for _ in range(games):
        board = chess.Board()
        while not board.is_game_over() and board.ply() < 400:
            board.push(rng.choice(list(board.legal_moves)))
            plies += 1
    return plies


def simulate(variant: str, players: int, count: int, out: list[dict[str, Any]]) -> None:
    """Play ``count`` seeded games; their records into ``out`` (replacing what it held)."""
    out.clear()
    for index in range(count):
        record, _ = random_game(variant, players, game_rng(SEED, index))
        out.append(record)


def check(sources: list[Source]) -> None:
    """Check every record as ``adjudicator check`` does; every one must be legal."""
    for source in sources:
        if check_source(source).status != "legal":
            sys.exit(f"{source.label}: a simulated game does not check legal")


def main() -> None:
    """Time every table and print the one table of figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=30_000, help="actions per table")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--chess-games", type=int, default=40)
    parser.add_argument("--only", default=None, help="one preset only (no chess run)")
    args = parser.parse_args()

    rows: list[dict[str, Any]] = []
    for variant, players in tables():
        if args.only and variant != args.only:
            continue
        count = games_for(variant, players, args.actions)
        played: list[dict[str, Any]] = []
        sim_s = best_of(args.repeat, lambda t=(variant, players, count, played): simulate(*t))
        records = [json.dumps(record, ensure_ascii=False) for record in played]
        actions = sum(len(record["actions"]) for record in played)
        sources = [Source("bench", i + 1, text) for i, text in enumerate(records)]

        check_s = best_of(args.repeat, lambda sources=sources: check(sources))
        rows.append(
            {
                "table": f"{variant} {players}p",
                "variant": variant,
                "games": count,
                "per_game": actions / count,
                "simulate": actions / sim_s,
                "check": actions / check_s,
            }
        )

    chess_rate = None
    if not args.only:
        try:
            import chess  # noqa: F401
        except ImportError:
            pass
        else:
            plies = {"n": 0}

            def chess_run() -> None:
                plies["n"] = chess_plies(args.chess_games, SEED)

            seconds = best_of(args.repeat, chess_run)
            chess_rate = plies["n"] / seconds

    load = os.getloadavg()
    print(
        f"best of {args.repeat} runs in CPU time, one process, about {args.actions:,} actions "
        "per table; "
        f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} on {os.cpu_count()} cores; "
        f"engine {_native.build}\n"
    )
    head = (
        f"| {'preset':<13} | {'games':>5} | {'actions/game':>12} | {'simulate actions/s':>18} "
        f"| {'check actions/s':>15} | {'x python-chess':>14} |"
    )
    print(head)
    print("|" + "|".join("-" * (len(cell)) for cell in head.split("|")[1:-1]) + "|")
    missed = []
    for row in rows:
        ratio = f"{row['simulate'] / chess_rate:.1f}x" if chess_rate else ""
        print(
            f"| {row['table']:<13} | {row['games']:>5} | {row['per_game']:>12,.0f} "
            f"| {row['simulate']:>18,.0f} | {row['check']:>15,.0f} | {ratio:>14} |"
        )
        check_target = CHECK_TARGET.get(row["variant"], CHECK_TARGET_OTHERS)
        if row["simulate"] < SIMULATE_TARGET:
            missed.append(f"{row['table']} simulate < {SIMULATE_TARGET:,}")
        if row["check"] < check_target:
            missed.append(f"{row['table']} check < {check_target:,}")
        if row["variant"] == "pagat" and chess_rate and row["simulate"] / chess_rate < 10:
            missed.append(f"pagat < {CHESS_RATIO_TARGET:.0f}x python-chess")
    if chess_rate:
        print(
            f"| {'python-chess':<13} | {args.chess_games:>5} | {'(plies)':>12} "
            f"| {chess_rate:>18,.0f} | {'':>15} | {'1.0x':>14} |"
        )
    elif not args.only:
        print("\npython-chess is not installed (pip install chess): no comparison")
    print(
        f"\ntargets: simulate >= {SIMULATE_TARGET:,} actions/s every preset; pagat >= "
        f"{CHESS_RATIO_TARGET:.0f}x python-chess; check >= {CHECK_TARGET['pagat']:,} pagat, "
        f">= {CHECK_TARGET_OTHERS:,} every other preset"
    )
    print("missed: " + ("; ".join(missed) if missed else "none"))


if __name__ == "__main__":
    main()
