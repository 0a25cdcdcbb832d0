"""Property tests over arbitrary input, with hypothesis's shrinking: not in the default run.

    pytest -p no:cacheprovider tests/fuzz/hypothesis_records.py [--hypothesis-seed N]
    FUZZ_EXAMPLES=20000 pytest tests/fuzz/hypothesis_records.py

The same judge as ``fuzz_records.py`` (one verdict per input, one line when
invalid, printable both ways), on three kinds of input hypothesis builds and
shrinks: any JSON value, any bytes, and a simulated record with one field
replaced by any JSON value.  Escapes already known (and held as strict xfail
tests in ``tests/fuzz/test_fuzz_regressions.py``) pass here, so that a run looks
for new ones.  pytest collects this file only when it is named.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_fuzz_regressions import KNOWN

from adjudicator.play.simulate import simulate

HARNESS = Path(__file__).with_name("fuzz_records.py")
spec = importlib.util.spec_from_file_location("fuzz_records", HARNESS)
assert spec is not None and spec.loader is not None
fuzz = importlib.util.module_from_spec(spec)
sys.modules["fuzz_records"] = fuzz
spec.loader.exec_module(fuzz)

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "500"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
RECORD = next(simulate("helmfrid", 3, 5, 1))
FIELDS = [*RECORD, "start", "first_leader", "result", "meta", "options"]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=30,
)


def assert_one_verdict(data: bytes, tmp: Path, suffix: str = ".json") -> None:
    item = fuzz.Input("hypothesis", data, suffix)
    escapes = [e for e in fuzz.check_input(item, tmp, cli=False) if e[0] not in KNOWN]
    assert not escapes, escapes


@SETTINGS
@given(value=json_values)
def test_any_json_value_is_one_verdict(value: Any, tmp_path: Path) -> None:
    assert_one_verdict(json.dumps(value).encode(), tmp_path)


@SETTINGS
@given(data=st.binary(max_size=300))
def test_any_bytes_are_one_verdict_per_line(data: bytes, tmp_path: Path) -> None:
    assert_one_verdict(data, tmp_path, ".jsonl")


@SETTINGS
@given(field=st.sampled_from(FIELDS), value=json_values)
def test_a_record_with_any_value_in_a_field_is_one_verdict(
    field: str, value: Any, tmp_path: Path
) -> None:
    assert_one_verdict(json.dumps({**RECORD, field: value}).encode(), tmp_path)
