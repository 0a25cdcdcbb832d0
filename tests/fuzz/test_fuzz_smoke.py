"""A few hundred inputs of the fuzzer, so the suite exercises the harness itself.

The real runs (100,000 inputs and more) are ``python tests/fuzz/fuzz_records.py``;
pytest does not collect that file.  Here: every generator's inputs are built
and judged in this process, and the only escapes allowed are the known ones,
each held by an xfail test in ``tests/fuzz/test_fuzz_regressions.py``.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from test_fuzz_regressions import KNOWN

HARNESS = Path(__file__).parent / "fuzz_records.py"


def harness() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fuzz_records", HARNESS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["fuzz_records"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_a_smoke_run_finds_only_the_known_escapes() -> None:
    fuzz = harness()
    # Generous time bound: the suite checks the harness and the verdicts, not the clock.
    limits = fuzz.Limits(max_seconds=60, cli_every=25)
    totals = fuzz.run(count=300, seed=20261123, workers=0, per_table=1, limits=limits)
    assert totals.count == 300
    assert len(totals.kinds) >= 15, totals.kinds  # most generators had a turn
    unknown = {e.signature for e in totals.escapes} - KNOWN
    assert not unknown, fuzz.summary(totals, 20261123, 0)


def test_input_n_of_a_seed_is_always_the_same_bytes() -> None:
    fuzz = harness()
    pool = fuzz.build_pool(7, 1)
    first = [fuzz.generate(7, i, pool).data for i in range(40)]
    assert first == [fuzz.generate(7, i, pool).data for i in range(40)]
    assert len(set(first)) > 30


def test_the_watchdog_records_a_hang_and_a_death_and_goes_on(monkeypatch: Any) -> None:
    """A worker stuck on an input is killed, one that dies is noticed; both are restarted."""
    fuzz = harness()
    real = fuzz.check_input

    def flaky(item: Any, folder: Any, cli: bool) -> list[tuple[str, str]]:
        index = current_index()
        if index == 1:
            time.sleep(60)
        if index == 3:
            os._exit(3)
        return real(item, folder, cli)

    def current_index() -> int:
        return int(os.environ.get("FUZZ_INDEX", "-1"))

    real_generate = fuzz.generate

    def generate(seed: int, index: int, pool: Any) -> Any:
        os.environ["FUZZ_INDEX"] = str(index)
        return real_generate(seed, index, pool)

    monkeypatch.setattr(fuzz, "check_input", flaky)
    monkeypatch.setattr(fuzz, "generate", generate)
    limits = fuzz.Limits(max_seconds=60, hang_seconds=1)
    totals = fuzz.run(count=5, seed=1, workers=1, per_table=1, limits=limits)
    assert sorted((e.index, e.signature) for e in totals.escapes) == [
        (1, "hang"),
        (3, "died (exit 3)"),
    ]
    assert totals.count == 5
