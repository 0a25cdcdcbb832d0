"""Game generation speed: ``simulate`` and ``legal_actions``, beside python-chess's self-play.

Bots and self-play pipelines live on legal-move generation.  This times, in one
run and one process:

  * random legal games of ``pagat`` (3 players) and ``helmfrid`` (4 players) played
    through ``adjudicator.play.simulate.random_game``: games/s and ms per game;
  * ``engine.legal_actions`` alone, called on every position of those games:
    generations/s;
  * the same generation by filtering every candidate through ``check`` (the
    definition ``legal_actions`` is tested against), to show what direct
    generation saves;
  * python-chess random self-play (``legal_moves`` + ``push`` per ply, to the end of
    the game or 400 plies), when python-chess is installed (``pip install chess``;
    it is no dependency of the project).

Each figure is the best of ``--repeat`` runs.

    python benchmarks/simulate_speed.py [--games 200] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random

from throughput import best_of  # this folder's other script (on sys.path when run)

from adjudicator import engine

try:
    from adjudicator.play.simulate import game_rng, random_game
except ImportError:  # a commit before the layers (ab.py runs this script on both)
    from adjudicator.simulate import game_rng, random_game  # type: ignore[no-redef]

TABLES = (("pagat", 3, 2.0), ("helmfrid", 4, 6.0))
"""(variant, players, target ms per game)."""


def positions(variant: str, players: int, games: int) -> list:
    """Every position of ``games`` simulated games, as states (each a copy)."""
    out = []
    for index in range(games):
        _, game = random_game(variant, players, game_rng(7, index))
        state = engine.new_state(game)
        for action in game.actions:
            out.append(state.clone())
            engine.apply(state, action)
    return out


def chess_self_play(games: int, seed: int) -> tuple[int, int] | None:
    """(plies, legal_moves generations) of ``games`` random chess games, or None."""
    try:
        import chess
    except ImportError:
        return None
    rng = random.Random(seed)
    plies = 0
    for _ in range(games):
        board = chess.Board()
        while not board.is_game_over() and board.ply() < 400:
            moves = list(board.legal_moves)
            board.push(rng.choice(moves))
            plies += 1
    return plies, plies


def main() -> None:
    """Run the timings and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    print(f"best of {args.repeat} runs, one process, {args.games} games per table\n")
    print(f"{'what':<44}{'games/s':>10}{'ms/game':>9}{'generations/s':>15}")
    for variant, players, target in TABLES:
        count = {"actions": 0}

        def play(
            variant: str = variant, players: int = players, count: dict[str, int] = count
        ) -> None:
            count["actions"] = 0
            for index in range(args.games):
                _, game = random_game(variant, players, game_rng(7, index))
                count["actions"] += len(game.actions)

        seconds = best_of(args.repeat, play)
        per_game = seconds / args.games * 1000
        label = f"simulate {variant} {players}p"
        verdict = "met" if per_game <= target else "NOT met"
        print(
            f"{label:<44}{args.games / seconds:>10,.0f}{per_game:>9.2f}"
            f"{count['actions'] / seconds:>15,.0f}   target <= {target} ms: {verdict}"
        )
        states = positions(variant, players, min(args.games, 50))
        direct = best_of(args.repeat, lambda s=states: [engine.legal_actions(x) for x in s])
        checked = best_of(args.repeat, lambda s=states: [engine.legal_by_check(x) for x in s])
        print(f"{'  legal_actions (generated)':<44}{'':>10}{'':>9}{len(states) / direct:>15,.0f}")
        print(
            f"{'  legal_by_check (candidates x check)':<44}{'':>10}{'':>9}"
            f"{len(states) / checked:>15,.0f}"
        )

    plies: dict[str, int] = {}

    def chess_run() -> None:
        result = chess_self_play(args.games // 4 or 1, 7)
        plies["n"] = result[0] if result else 0

    if chess_self_play(1, 0) is None:
        print("\npython-chess is not installed (pip install chess): no comparison")
        return
    seconds = best_of(args.repeat, chess_run)
    games = args.games // 4 or 1
    print(
        f"{'python-chess random self-play':<44}{games / seconds:>10,.0f}"
        f"{seconds / games * 1000:>9.2f}{plies['n'] / seconds:>15,.0f}"
        f"   ({plies['n'] / games:.0f} plies a game)"
    )


if __name__ == "__main__":
    main()
