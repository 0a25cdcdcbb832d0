"""Write what the tool prints for a fixed set of inputs, to compare two commits byte for byte.

    python benchmarks/outputs_digest.py OUT_DIR

For every shipped sample: ``check --json`` and ``replay``; for every preset: 60
conformance vectors (seed 1) and 3 simulated games (seed 5), with and without hidden
cards.  Each output is one file in OUT_DIR; ``diff -r`` of two such folders, one made
on each commit, shows any change of behaviour.  A refactoring that claims none (issue
31: the one-way house) is held to an empty diff.
"""

from __future__ import annotations

import sys
from pathlib import Path

from click.testing import CliRunner

from adjudicator.cli.commands import main as cli
from adjudicator.rules.presets import PRESETS
from adjudicator.samples import names

ROOT = Path(__file__).resolve().parent.parent


def run(args: list[str], stdin: str | None = None) -> str:
    """What the command prints, standard output then its exit status."""
    result = CliRunner().invoke(cli, args, input=stdin)
    return f"{result.stdout}\n[exit {result.exit_code}]\n"


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name in names():
        path = str(ROOT / "sample_games" / name)
        (out / f"check-{name}.txt").write_text(run(["check", "--json", path]))
        (out / f"replay-{name}.txt").write_text(run(["replay", path]))
    for variant in PRESETS:
        vectors = ["vectors", "--variant", variant, "--count", "60", "--seed", "1"]
        (out / f"vectors-{variant}.txt").write_text(run(vectors))
        (out / f"vectors-hidden-{variant}.txt").write_text(run([*vectors, "--hide", "0.3"]))
        games = ["simulate", "--variant", variant, "--seed", "5", "--count", "3"]
        (out / f"simulate-{variant}.txt").write_text(run(games))
        (out / f"simulate-hidden-{variant}.txt").write_text(run([*games, "--hide", "0.3"]))
    print(f"{len(list(out.iterdir()))} outputs in {out}")


if __name__ == "__main__":
    main()
