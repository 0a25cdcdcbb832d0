"""Every escape the fuzzer (``tests/fuzz/fuzz_records.py``) found, as a regression test.

An escape is bad input that does not end as one verdict: a traceback, an
error of several lines, output that cannot be printed, or memory kept after
the record is done.  Each test below holds the smallest input found.  Those
whose fix belongs to the record reader are marked ``xfail(strict=True)``:
they fail today, and the day the reader is fixed they pass, strict xfail
turns that into a failure, and the mark must go.

``KNOWN`` lists the fuzzer's signatures of the escapes marked here, so that
the smoke run in ``test_fuzz_smoke.py`` fails on any other.
"""

from __future__ import annotations

import gc
import json
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from adjudicator.bulk import Source, check_source
from adjudicator.cli import main
from adjudicator.simulate import simulate

KNOWN = {
    "ValueError at record.py:loads",
    "multi-line error",
    "unprintable verdict",
}
"""Fuzzer signatures of the escapes marked xfail below (remove one when its fix lands)."""

IN_RECORD_READER = "the fix belongs in adjudicator/record.py"


def run(*args: str) -> tuple[int, str, BaseException | None]:
    result = CliRunner().invoke(main, list(args))
    exc = result.exception if not isinstance(result.exception, SystemExit) else None
    return result.exit_code, result.output, exc


def one_line(text: str) -> bool:
    return len(text.strip().splitlines()) == 1 and "\n" not in text.strip()


def start_record(**changes: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "format": "skitgubbe-record/1",
        "variant": "pagat",
        "players": ["A", "B"],
        "start": {"phase": 2, "trump": "S", "leader": "A", "hands": {"A": ["5H"], "B": ["8H"]}},
        "actions": [],
    }
    record.update(changes)
    return record


# --- integers too long for Python's int() ------------------------------------------------

LONG_INTEGER = "1" * 4301
"""json.loads raises a plain ValueError (not JSONDecodeError) beyond 4,300 digits."""


@pytest.mark.xfail(
    strict=True,
    reason="record.loads catches JSONDecodeError and RecursionError, not the ValueError "
    f"json.loads raises for an integer of more than 4,300 digits; {IN_RECORD_READER} (loads)",
)
@pytest.mark.parametrize(
    "text",
    [LONG_INTEGER, '{"format": "skitgubbe-record/1", "x": ' + LONG_INTEGER + "}"],
    ids=["bare", "in-a-record"],
)
def test_an_integer_of_4301_digits_is_invalid(text: str) -> None:
    checked = check_source(Source("r.jsonl", 1, text))
    assert checked.status == "invalid" and one_line(checked.error or "")


@pytest.mark.xfail(strict=True, reason=f"as above, and it stops the run; {IN_RECORD_READER}")
def test_a_bulk_run_goes_on_past_an_integer_of_4301_digits(tmp_path: Path) -> None:
    good = json.dumps(start_record(actions=["A play 5H"]))
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join([good, LONG_INTEGER, good]) + "\n", encoding="utf-8")
    code, out, exc = run("check", "--json", str(path))
    assert exc is None and code == 2
    assert [json.loads(line)["status"] for line in out.splitlines()] == [
        "legal",
        "invalid",
        "legal",
    ]


# --- line breaks in keys -------------------------------------------------------------------

BREAKS = ["a\nb", "a\rb", "a\u2028b", "a\x85b"]


def with_key(place: str, key: str) -> dict[str, Any]:
    """A record with ``key`` where a key is free: an extra field, an option, a hand, a deal."""
    record = start_record()
    if place == "record":
        record[key] = 1
    elif place == "start":
        record["start"][key] = 1
    elif place == "options":
        record["options"] = {key: 1}
    elif place == "start.hands":
        record["start"]["hands"][key] = ["2C"]
    else:  # a deal's receivers
        record["variant"] = "helmfrid"
        record["actions"] = [{"player": "A", "act": "deal", "to": {key: ["2C"]}}]
    return record


PLACES = ["record", "start", "options", "start.hands", "deal.to"]


@pytest.mark.xfail(
    strict=True,
    reason="the error's path quotes keys as they are (record._path, and the f-strings "
    "'start.hands.{name}', 'options.{loc}', '{path}.to.{name}' in build_game/_action), "
    f"so a key with a line break breaks the line; {IN_RECORD_READER}",
)
@pytest.mark.parametrize("key", BREAKS, ids=["LF", "CR", "LS", "NEL"])
@pytest.mark.parametrize("place", PLACES)
def test_a_line_break_in_a_key_keeps_the_error_on_one_line(place: str, key: str) -> None:
    checked = check_source(Source("r.jsonl", 1, json.dumps(with_key(place, key))))
    assert checked.status == "invalid"
    assert one_line(checked.error or "") and not any(c in (checked.error or "") for c in key[1:-1])


# --- lone surrogates -------------------------------------------------------------------------


@pytest.mark.xfail(
    strict=True,
    reason="a lone surrogate (JSON '\\ud800') in a hand's or a deal's player key reaches the "
    "error unquoted, and printing it to UTF-8 stdout raises UnicodeEncodeError (check and "
    f"check --json); pydantic rejects it in every str field, not in these keys; {IN_RECORD_READER}",
)
@pytest.mark.parametrize("json_output", [True, False], ids=["--json", "text"])
@pytest.mark.parametrize("place", ["start.hands", "deal.to"])
def test_a_lone_surrogate_in_a_key_is_printable(
    place: str, json_output: bool, tmp_path: Path
) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(with_key(place, "\ud800")), encoding="ascii")
    code, out, exc = run("check", *(["--json"] if json_output else []), str(path))
    assert exc is None and code == 2
    assert one_line(out)


# --- memory kept after a record ----------------------------------------------------------------


@pytest.mark.xfail(
    strict=True,
    reason="record._text_action caches up to 4,096 parsed action strings whatever their "
    "length, so a long action (30,000 cards: 90 KB of text, a 240 KB tuple) stays in memory "
    "after its record; 4,096 records with 1 MB actions would keep gigabytes. Cache only short "
    f"strings; {IN_RECORD_READER}",
)
def test_long_actions_are_not_kept_after_their_record() -> None:
    record = next(simulate("pagat", 3, 1, 1))
    name = record["players"][0]
    texts = [
        json.dumps({**record, "actions": [f"{name} play " + "2S " * (30_000 + i)]})
        for i in range(20)
    ]
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i, text in enumerate(texts):
            assert check_source(Source("r.jsonl", i + 1, text)).status == "illegal"
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert kept < 2 * 2**20, f"{kept / 2**20:.1f} MB kept after 20 records"
