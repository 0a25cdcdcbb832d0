"""Comments beside actions and the user's own ``_`` keys (issue 40, item 2).

A comment is kept and shown, never read by the rules; a key beginning with ``_`` is the
user's at every level of a record or session: kept by the canonical form, never read.
Every other unknown key is still invalid.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from conftest import DISPUTE
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.limits import COMMENT_MAX
from adjudicator.play.adjudicate import adjudicate, adjudicate_session
from adjudicator.record import RecordError, canonical, load, load_record, parse_record
from adjudicator.record.notation import checked_comment, commented, split_comment
from adjudicator.samples import text as sample_text


def sample(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(sample_text(name))
    return data


def verdict(record: dict[str, Any]) -> tuple[Any, ...]:
    report = adjudicate(load_record(copy.deepcopy(record)))
    return (
        report.status,
        report.applied,
        report.finished,
        tuple(report.losers),
        tuple((v.index, v.rule) for v in report.violations),
    )


def error(record: dict[str, Any]) -> str:
    with pytest.raises(RecordError) as caught:
        load(copy.deepcopy(record))
    return str(caught.value)


# --- the string form: braces, as PGN writes comments ------------------------------------


def test_a_comment_in_the_string_form_is_read_and_never_judged() -> None:
    record = copy.deepcopy(DISPUTE)
    record["actions"][2] = "Cai play 8C 9C {Bo objects}"
    game = load_record(record)
    assert game.comments == {2: "Bo objects"}
    assert verdict(record) == verdict(DISPUTE)
    assert verdict(record)[0] == "illegal"  # the README's dispute, still phase2.beat


def test_a_comment_follows_the_mark() -> None:
    record = copy.deepcopy(DISPUTE)
    record["actions"][2] = "Cai play 8C 9C -- taken back {Bo objects -- twice}"
    game = load_record(record)
    assert game.marks == {2: "taken back"}
    assert game.comments == {2: "Bo objects -- twice"}


def test_braces_and_backslashes_inside_a_comment_are_escaped() -> None:
    text = r"Cai play 8C {a \} b \\ c \d}"
    assert split_comment(text) == ("Cai play 8C", "a } b \\ c \\d")
    assert commented("Cai play 8C", "a } b \\") == r"Cai play 8C {a \} b \\}"


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60).filter(lambda t: _allowed(t)))
def test_every_comment_written_reads_back(comment: str) -> None:
    assert split_comment(commented("Bo play 7D", comment)) == ("Bo play 7D", comment)


def _allowed(text: str) -> bool:
    try:
        checked_comment(text)
    except RecordError:
        return False
    return True


@pytest.mark.parametrize(
    ("action", "said"),
    [
        ("Cai play 8C 9C {Bo objects", "actions[2].comment: is not closed"),
        (r"Cai play 8C 9C {Bo objects\}", "actions[2].comment: is not closed"),
        ("Cai play 8C 9C {Bo} 7H", "actions[2].comment: '7H' follows it"),
        ("Cai play 8C 9C {\x1b[31mred}", "actions[2].comment: a comment may not hold U+001B"),
        ("Cai play 8C 9C {a\u202eb}", "actions[2].comment: a comment may not hold U+202E"),
        ("Cai play 8C 9C {" + "x" * (COMMENT_MAX + 1) + "}", "actions[2].comment: is longer"),
    ],
)
def test_a_bad_comment_is_one_line_naming_the_place(action: str, said: str) -> None:
    record = copy.deepcopy(DISPUTE)
    record["actions"][2] = action
    text = error(record)
    assert text.startswith(said), text
    assert len(text.splitlines()) == 1 and len(text) <= 300


def test_line_breaks_and_tabs_are_allowed_in_a_comment() -> None:
    record = copy.deepcopy(DISPUTE)
    record["actions"][2] = "Cai play 8C 9C {Bo objects:\n\tit is a run}"
    assert load_record(record).comments == {2: "Bo objects:\n\tit is a run"}
    assert checked_comment("x" * COMMENT_MAX) == "x" * COMMENT_MAX


# --- the object form -------------------------------------------------------------------


def test_a_comment_in_the_object_form() -> None:
    record = copy.deepcopy(DISPUTE)
    record["actions"][2] = {
        "player": "Cai",
        "act": "play",
        "cards": ["8C", "9C"],
        "comment": "Bo objects",
    }
    assert load_record(record).comments == {2: "Bo objects"}
    assert verdict(record) == verdict(DISPUTE)
    record["actions"][2]["comment"] = "\x07"
    assert error(record).startswith("actions[2].comment: a comment may not hold U+0007")
    record["actions"][2]["comment"] = 7
    assert error(record).startswith("actions[2].comment: must be a string")


# --- the canonical form keeps comments, marks and the user's keys -----------------------


def test_canonical_form_keeps_comments_and_marks() -> None:
    record = copy.deepcopy(DISPUTE)
    record["actions"] = [
        "Anna play 6d {led low}",
        {"player": "Bo", "act": "play", "cards": "7D 8D 9D", "comment": "a } run \\"},
        {"player": "Cai", "act": "play", "cards": ["8C", "9C"], "table": "taken back"},
        "Cai play QD -- stands {Anna: fine}",
    ]
    out = canonical(parse_record(record))
    assert out["actions"] == [
        "Anna play 6D {led low}",
        r"Bo play 7D 8D 9D {a \} run \\}",
        "Cai play 8C 9C -- taken back",
        "Cai play QD -- stands {Anna: fine}",
    ]
    again = load_record(out)
    first = load_record(record)
    assert again.comments == first.comments and again.marks == first.marks
    assert canonical(parse_record(out)) == out


def test_a_deal_object_keeps_its_comment_and_mark_in_canonical_form() -> None:
    record = sample("illegal_deal_cards.json")
    index, deal = next((i, a) for i, a in enumerate(record["actions"]) if isinstance(a, dict))
    deal = {**deal, "comment": "counted twice", "_dealt_by": "hand"}
    record["actions"][index] = deal
    out = canonical(parse_record(record))["actions"][index]
    assert out["comment"] == "counted twice" and out["_dealt_by"] == "hand"
    assert load_record(out_record(record)).comments == {index: "counted twice"}


def out_record(record: dict[str, Any]) -> dict[str, Any]:
    return canonical(parse_record(copy.deepcopy(record)))


# --- the user's own keys: any key beginning with "_" ------------------------------------

USERS = st.dictionaries(
    st.text(min_size=0, max_size=8).map(lambda t: "_" + t),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=10),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
        max_leaves=5,
    ),
    min_size=1,
    max_size=3,
)


def _objects(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Every object of a record whose keys are the format's own (not players' names)."""
    found = [record, record.setdefault("options", {}), record.setdefault("result", {})]
    if not record["result"]:
        del record["result"]
        found.pop()
    if "start" in record:
        found.append(record["start"])
    for game in record.get("games", []):
        found.append(game)
        found += [a for a in game["actions"] if isinstance(a, dict)]
    if "scoring" in record:
        found.append(record["scoring"])
    found += [a for a in record.get("actions", []) if isinstance(a, dict)]
    return found


NAMES = [
    "pagat_3p_full.json",
    "bottom_goat_example_1.json",
    "atlanta_receiver_shuffles.json",
    "illegal_deal_cards.json",
    "goat_5p_full.json",
    "goat_session_3_games.json",
    "helmfrid_dispute_unknown.json",
]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(NAMES), st.data())
def test_the_users_keys_change_no_verdict_and_are_kept(name: str, data: st.DataObject) -> None:
    plain = sample(name)
    sprinkled = copy.deepcopy(plain)
    objects = _objects(sprinkled)
    for target in data.draw(st.lists(st.sampled_from(range(len(objects))), min_size=1)):
        objects[target].update(data.draw(USERS))
    before = adjudicate(load(plain)) if "games" not in plain else None
    document = load(sprinkled)  # accepted
    if before is not None:
        assert verdict(sprinkled) == verdict(plain)
        out = canonical(parse_record(copy.deepcopy(sprinkled)))
        assert _users(out) == _users(_round(sprinkled))
        assert verdict(out) == verdict(plain)
    else:
        assert adjudicate_session(document).status == adjudicate_session(load(plain)).status  # type: ignore[arg-type]


def _round(record: dict[str, Any]) -> dict[str, Any]:
    """The record as JSON gives it back (tuples as lists)."""
    return json.loads(json.dumps(record))


def _users(value: Any, path: str = "") -> dict[str, Any]:
    """Every key of the user's, by its path, with its value."""
    found: dict[str, Any] = {}
    if isinstance(value, dict):
        for k, v in value.items():
            if k.startswith("_"):
                found[f"{path}.{k}"] = v
            elif k != "meta":
                found.update(_users(v, f"{path}.{k}"))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found.update(_users(v, f"{path}[{i}]"))
    return found


def test_the_users_keys_in_options_are_never_read_as_options() -> None:
    record = copy.deepcopy(DISPUTE)
    record["options"] = {"_house": "we play this way", "_sequences": "none"}
    assert verdict(record) == verdict(DISPUTE)
    assert canonical(parse_record(record))["options"] == record["options"]


@pytest.mark.parametrize(
    ("place", "said"),
    [
        ((), "house: is not a field of this place in the record format"),
        (("start",), "start.house: is not a field"),
        (("actions", 0), "actions[0].house: is not a field"),
    ],
)
def test_other_unknown_keys_are_still_invalid(place: tuple[Any, ...], said: str) -> None:
    record = copy.deepcopy(DISPUTE)
    record["actions"][0] = {"player": "Anna", "act": "play", "cards": ["6D"]}
    target: Any = record
    for step in place:
        target = target[step]
    target["house"] = 1
    assert error(record).startswith(said)


def test_a_session_keeps_the_users_keys_at_every_level() -> None:
    session = sample("goat_session_3_games.json")
    session["_club"] = "Tuesdays"
    session["games"][1]["_table"] = 2
    assert load(session).record.model_extra == {"_club": "Tuesdays"}  # type: ignore[union-attr]
    assert load(session).record.games[1].model_extra == {"_table": 2}  # type: ignore[union-attr]
