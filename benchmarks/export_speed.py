"""``replay --html`` on a big game: the page's data for every viewer, its time and size.

Simulates one game (default: the Goat at 15 players, seed 1: 9,514 actions), then
times, in CPU time of this one process (the machine is shared), the best of
``--repeat`` runs of:

  * ``export.html`` with every view (everyone's and each player's), as
    ``replay FILE --html OUT`` writes it, and the file's size;
  * the same for one player (``--as``);
  * with ``--compare``, what the export did before it packed its views: one
    ``web.calls.replay`` per viewer (an adjudication and every whole table each),
    and the size of that JSON.

It does not time ``replay``'s printing of the game on standard output (rich's
tables: most of the command's time on such a game).  A bounded loop, no timed test.

    python benchmarks/export_speed.py [--variant goat --players 15 --seed 1] [--compare]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from timing import best_of

from adjudicator.play.adjudicate import adjudicate, document_from_text
from adjudicator.play.simulate import simulate
from adjudicator.render import export
from adjudicator.service import page as calls


def best(repeat: int, work: Callable[[], Any]) -> tuple[float, Any]:
    """The least CPU seconds ``work`` took over ``repeat`` runs, and what it gave."""
    kept: list[Any] = []
    seconds = best_of(repeat, lambda: kept.append(work()))
    return seconds, kept[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="goat")
    parser.add_argument("--players", type=int, default=15)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--compare", action="store_true", help="also the per-viewer replays")
    args = parser.parse_args()
    (record,) = simulate(args.variant, args.players, args.seed, 1)
    text = json.dumps(record, ensure_ascii=False)
    game = document_from_text(text)
    report = adjudicate(game, steps=True)
    players = list(game.players)
    print(
        f"{args.variant}, {len(players)} players, seed {args.seed}: "
        f"{len(game.actions)} actions, record {len(text):,} bytes"
    )

    def page(viewer: str | None) -> str:
        return export.html("game.json", report, viewer=viewer, game=game, document=game)

    seconds, everyone = best(args.repeat, lambda: page(None))
    print(f"  --html, every view:   {seconds:6.2f} s CPU, {len(everyone.encode()):>12,} bytes")
    seconds, one = best(args.repeat, lambda: page(players[0]))
    print(f"  --html --as {players[0]}:    {seconds:6.2f} s CPU, {len(one.encode()):>12,} bytes")
    if args.compare:

        def per_viewer() -> str:
            views = {v or "": calls.replay(text, v, "game.json") for v in [None, *players]}
            return json.dumps(views, ensure_ascii=False, separators=(",", ":"))

        seconds, old = best(1, per_viewer)
        print(f"  one replay per viewer: {seconds:6.2f} s CPU, {len(old.encode()):>12,} bytes")


if __name__ == "__main__":
    main()
