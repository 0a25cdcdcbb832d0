"""Every escape the fuzzer (``tests/fuzz/fuzz_records.py``) found, as a regression test.

An escape is bad input that does not end as one verdict: a traceback, an
error of several lines, output that cannot be printed, or memory kept after
the record is done.  Each test below holds the smallest input found, and
each passes since its fix in the record reader.

``KNOWN`` lists the fuzzer's signatures of the escapes marked here, so that
the smoke run in ``tests/fuzz/test_fuzz_smoke.py`` fails on any other.
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
from adjudicator.cli.commands import main
from adjudicator.play.simulate import simulate

KNOWN: set[str] = set()
"""Fuzzer signatures of escapes known and not yet fixed: none."""


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


@pytest.mark.parametrize(
    "text",
    [LONG_INTEGER, '{"format": "skitgubbe-record/1", "x": ' + LONG_INTEGER + "}"],
    ids=["bare", "in-a-record"],
)
def test_an_integer_of_4301_digits_is_invalid(text: str) -> None:
    checked = check_source(Source("r.jsonl", 1, text))
    assert checked.status == "invalid" and one_line(checked.error or "")


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


@pytest.mark.parametrize("key", BREAKS, ids=["LF", "CR", "LS", "NEL"])
@pytest.mark.parametrize("place", PLACES)
def test_a_line_break_in_a_key_keeps_the_error_on_one_line(place: str, key: str) -> None:
    checked = check_source(Source("r.jsonl", 1, json.dumps(with_key(place, key))))
    assert checked.status == "invalid"
    assert one_line(checked.error or "") and not any(c in (checked.error or "") for c in key[1:-1])


# --- lone surrogates -------------------------------------------------------------------------


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


def test_a_deal_of_200000_strings_that_are_no_cards_names_the_first() -> None:
    """Fuzz input #37899 of seed 20261124 (1 MB): pydantic used to build an error for each
    of the 200,000 strings before the first was reported (3 s of CPU); now the reader
    stops at the first one."""
    deal = {"player": "A", "act": "deal", "to": {"A": ["Anna"] * 200_000}}
    text = json.dumps(start_record(actions=[deal]))
    checked = check_source(Source("r.jsonl", 1, text))
    assert checked.status == "invalid"
    assert checked.error == "actions[0].to.A[0]: 'Anna' is not a card"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"a": 1, "a": 2} {"b": 1}', "not JSON: Extra data at line 1 column 18"),
        ('{"a": 1, "a": 2}\n{"b": [1,', "not JSON: Extra data at line 2 column 1"),
        (
            '{"a": {"x": 1, "x": 2}, "b": [1',
            "not JSON: the text ends early (cut short?): "
            "Expecting ',' delimiter at line 1 column 32",
        ),
    ],
)
def test_a_key_twice_in_text_that_is_no_json_is_not_json(text: str, said: str) -> None:
    """Seed 23, #510 and #3539 (jsonl): a key twice, then more than one value: the decoder's
    hook saw the key before the decoder saw the extra data, and reading again to say where
    the key was raised json's own error (JSONDecodeError at build.py:_key_twice)."""
    from adjudicator.record import RecordError, loads

    with pytest.raises(RecordError) as caught:
        loads(text)
    assert str(caught.value) == said
    source = Source("x.json", text=text)
    checked = check_source(source)
    assert checked.status == "invalid" and checked.error == said


@pytest.mark.parametrize("go_on", ["stands", "taken back"])
def test_a_deal_nothing_calls_for_in_a_sluffing_window_cannot_stand(go_on: str) -> None:
    """Seed 2612, #2717: a deal to nobody while the sluffing window of phase one's last
    trick was open, let stand: ending the window first, it went on into phase two as a
    play of no cards, and the next illegal action's alternatives failed on that empty
    play (IndexError at phase_two.py:generate).  It is judged where it would be made."""
    from adjudicator import adjudicate, load_record

    record = json.loads(
        (Path(__file__).parents[2] / "sample_games/helmfrid_sluff_last_trick.json").read_text()
    )
    record["actions"] = [
        "Anna play AH",
        "Bo play 9C",
        "Cai play KD",
        {"player": "Bo", "act": "deal", "to": {}},
        "Anna play 9S",
    ]
    report = adjudicate(load_record(record), go_on=go_on)
    first = report.violations[0]
    assert (first.index, first.rule) == (3, "deal.none")
    if go_on == "stands":
        assert first.unplayable == "It cannot stand as played: nothing is to be dealt now"
        assert report.applied == 3 and len(report.violations) == 1
    else:  # taken back: the game goes on from the window, where Anna holds no 9♠
        assert [v.rule for v in report.violations] == ["deal.none", "play.held"]


def test_an_action_naming_a_card_300000_times_is_quoted_cut_short() -> None:
    """Seed 2613, #28163: one action naming 2♠ 349,525 times made a violation message of
    a megabyte (play.count quoted every card), and the verdict line quoted the action
    whole.  Both are cut; check --json keeps the action as the record wrote it."""
    record = next(iter(simulate("koira", 4, 1, 2613)))
    leader = record["actions"][0].split()[0]
    record["actions"] = [f"{leader} play " + " ".join(["2S"] * 300_000)]
    text = json.dumps(record)
    checked = check_source(Source("r.json", text=text))
    assert checked.status == "illegal"
    message = checked.as_json()["violations"][0]["message"]
    assert len(message) < 400 and message.endswith("… and 299,940 more)"), message
    assert "300,000" in message
    assert len(checked.as_json()["violations"][0]["action"]) == len(record["actions"][0])
    path = Path(__file__).parent / "__fuzz_tmp__.json"
    try:
        path.write_text(text, encoding="utf-8")
        code, out, exc = run("check", str(path))
    finally:
        path.unlink(missing_ok=True)
    assert exc is None and code == 1
    assert max(len(line) for line in out.splitlines()) < 400
    assert f"… ({len(record['actions'][0]):,} characters)" in out


def test_a_lone_surrogate_in_meta_still_makes_the_page(tmp_path: Path) -> None:
    """Seed 2614, #212800: a record whose meta holds the escape "\\udfff" (a lone
    surrogate) made replay --html raise UnicodeEncodeError as it wrote the page.  The
    page's embedded JSON keeps it escaped, as check --json does."""
    from adjudicator.render import export

    sample = Path(__file__).parents[2] / "sample_games/goat_pickup_touching.json"
    record = json.loads(sample.read_text(encoding="utf-8"))
    record["meta"]["expect"]["rule"] = "\udfff"
    record["actions"] = ["P1 play 3C 4C 5C", "P2 play 6C 7C 8C 9C", "P3 play QC KC", "P4 pick 3C"]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record), encoding="utf-8")  # ASCII: written "\udfff"
    page = tmp_path / "page.html"
    code, _, exc = run("replay", str(path), "--html", str(page))
    assert exc is None and code == 1  # the record's verdict: illegal at the pick
    embedded = json.loads(export.embedded(page.read_text(encoding="utf-8")))
    assert embedded["record"]["meta"]["expect"]["rule"] == "\udfff"


def test_thousands_of_irregularities_list_their_alternatives_without_json(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Fuzz input #206859 of seed 2615 (a 7,533-action Goat game for 22 players, 7,508
    irregularities taken back): each violation's hundred alternatives were deduplicated
    by writing every one out as JSON (750,000 json.dumps, 2.2 s of CPU).  Strings are
    their own keys now; only a deal's object form is written out to be compared."""
    from adjudicator.play import listing

    record = next(simulate("pagat", 3, seed=4, count=1))
    wrong = f"{record['players'][1]} take"  # the basic game has no 'take': never legal
    record["actions"] = [a for action in record["actions"] for a in (wrong, action)]
    source = Source("r.json", None, json.dumps(record))
    calls = []
    real = listing.json.dumps
    monkeypatch.setattr(listing.json, "dumps", lambda *a, **k: calls.append(1) or real(*a, **k))
    checked = check_source(source, go_on="taken back")
    report = checked.report
    assert report is not None
    assert len(report.violations) >= 200 and {v.rule for v in report.violations} == {"act.variant"}
    assert report.finished and all(v.alternatives for v in report.violations)
    assert calls == []


def test_unique_forms_keep_the_first_of_each_and_tell_text_from_objects() -> None:
    from adjudicator.play.listing import unique

    deal = {"player": "Anna", "act": "deal", "to": {"Bo": ["2H"]}}
    same = {"act": "deal", "to": {"Bo": ["2H"]}, "player": "Anna"}  # another key order
    text = json.dumps(deal, sort_keys=True, ensure_ascii=False)  # a string, not the deal
    forms = ["Anna play 7H", deal, "Anna play 7H", same, text, "Bo pick", text]
    assert unique(forms) == ["Anna play 7H", deal, text, "Bo pick"]
