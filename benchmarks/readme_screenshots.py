"""Redraw the README's pictures of the table's page (docs/page-*.png).

    python benchmarks/readme_screenshots.py [FOLDER]

Runs the browser tests that take them, with ``ADJUDICATOR_SHOTS`` pointing at
FOLDER (default: the checkout's docs/).  The test run itself never writes into
the checkout: without that variable its screenshots go to a temporary folder.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = [
    "tests/web/test_page.py::test_the_readme_dispute_by_taps_alone[phone]",
    "tests/web/test_page.py::test_dark_mode_keeps_red_and_black_suits_readable",
]


def main() -> int:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs"
    folder.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "ADJUDICATOR_SHOTS": str(folder.resolve())}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *TESTS],
        cwd=ROOT,
        env=env,
        check=False,
    )
    if done.returncode == 0:
        print(
            f"screenshots in {folder}: "
            + ", ".join(sorted(p.name for p in folder.glob("page-*.png")))
        )
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
