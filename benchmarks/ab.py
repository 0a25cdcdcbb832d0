"""Run one benchmark on an older commit and on the working tree, turn about.

    python benchmarks/ab.py REV [--rounds 3] -- benchmarks/SCRIPT.py [ARGS...]

The package at ``REV`` is extracted (``git archive``) into a temporary folder;
then, ``--rounds`` times, the working tree's ``SCRIPT`` runs once with that
package first on ``sys.path`` and once with the working tree's.  Both sides run
the same measuring code, one after the other, so a machine shared with other
work loads them alike; the benchmarks time CPU time, and the best round of each
side is the one to compare.  The script must only use what both commits have.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def extract(rev: str, into: Path) -> None:
    """The tree of ``rev`` into ``into``."""
    archive = into / "tree.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "archive", rev], cwd=ROOT, stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into / "tree", filter="data")


def main() -> None:
    """Run the script on both sides, turn about, and print each run's output under its side."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rev", help="the older commit (a hash, tag or branch)")
    parser.add_argument("--rounds", type=int, default=3)
    argv = sys.argv[1:]
    if "--" not in argv or argv.index("--") == len(argv) - 1:
        parser.error("name the benchmark script after --")
    cut = argv.index("--")
    args = parser.parse_args(argv[:cut])
    command = argv[cut + 1 :]
    with tempfile.TemporaryDirectory() as tmp:
        extract(args.rev, Path(tmp))
        sides = {args.rev: str(Path(tmp) / "tree"), "working tree": str(ROOT)}
        editable = subprocess.run(  # an editable install's finder serves its tree's modules
            [
                sys.executable,
                "-c",
                "import sys; print(any('editable' in type(f).__module__ "
                "or 'editable' in type(f).__name__.lower() for f in sys.meta_path))",
            ],
            check=True,
            capture_output=True,
            text=True,
            cwd=tmp,
        ).stdout.strip()
        if editable == "True":
            sys.exit(
                "this Python has the package installed editable: its finder hands the working "
                "tree's modules (compiled ones too) to the older side; run ab.py with a venv "
                "where the package is not installed, or installed as a wheel"
            )
        for label, path in sides.items():  # each side must import its own package
            env = dict(os.environ, PYTHONPATH=path)
            where = subprocess.run(
                [sys.executable, "-c", "import adjudicator; print(adjudicator.__file__)"],
                env=env,
                check=True,
                capture_output=True,
                text=True,
                cwd=tmp,  # not the repository: "-c" puts the folder it runs in first
            ).stdout.strip()
            if not where.startswith(path):
                sys.exit(f"{label}: imports {where}, not the package under {path}")
        for round_ in range(1, args.rounds + 1):
            for label, path in sides.items():
                env = dict(os.environ, PYTHONPATH=path)
                print(f"--- round {round_}, {label}", flush=True)
                subprocess.run([sys.executable, *command], env=env, check=True, cwd=ROOT)


if __name__ == "__main__":
    main()
