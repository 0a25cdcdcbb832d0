"""Memory bounded by the table, not the record (issue 39).

``check`` laid a verdict out whole (one rich Group of every violation) before printing a
line: about 3 KB for each irregularity on top of what the report keeps, 896 MB for a record
of 200,000 taken-back actions (236 MB now).  It prints a part at a time now;
``benchmarks/memory.py`` measures the whole figures (docs/limits.md), this test the
difference on a record small enough for the suite.
"""

from __future__ import annotations

import json
import sys
import tracemalloc
from pathlib import Path

from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import memory

from adjudicator.cli import main

TAKEN = 3_000


def test_check_prints_many_irregularities_without_laying_them_out_at_once(
    tmp_path: Path,
) -> None:
    path = tmp_path / "taken.json"
    path.write_text(json.dumps(memory.taken_back(TAKEN)), encoding="utf-8")
    tracemalloc.start()
    try:
        result = CliRunner().invoke(main, ["check", str(path)])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.exit_code == 1
    assert result.stdout.count("(taken back)") == TAKEN
    assert f"{TAKEN:,} irregularities" in result.stdout or f"{TAKEN} irregularities" in (
        result.stdout
    )
    # The record, its report and the captured output took 4.3 MB here (about 1.4 KB an
    # irregularity); laid out whole the verdict took 13.3 MB.
    assert peak < TAKEN * 4_000, f"{peak / 1e6:.1f} MB for {TAKEN} irregularities"


def test_the_legal_shape_is_a_legal_record_that_never_ends() -> None:
    from adjudicator.bulk import Source, check_source

    checked = check_source(Source("legal.json", text=json.dumps(memory.legal_game(600))))
    assert checked.status == "legal" and checked.report is not None
    assert checked.report.applied == 600 and not checked.report.finished
