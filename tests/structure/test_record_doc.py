"""docs/record-format.md says what the code reads: its examples and field table agree with it.

The page is the project's own account of the record contract.  Its examples
are checked here: each must read and check legal, and the ones with unknown
cards must report what could not be checked.  Its field table names exactly
the top-level fields of the schema.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from adjudicator.bulk import document_from_text, judge
from adjudicator.record import json_schema

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "record-format.md").read_text(encoding="utf-8")
EXAMPLES = re.findall(r"<!-- example: ([a-z-]+) -->\n```json\n(.*?)```", PAGE, re.S)
SCHEMA = json.loads((ROOT / "schemas" / "record-1.schema.json").read_text(encoding="utf-8"))


def test_the_page_has_its_examples() -> None:
    kinds = [kind for kind, _ in EXAMPLES]
    assert kinds == ["record", "start", "start-one", "unknown", "session"]


@pytest.mark.parametrize("text", [t for _, t in EXAMPLES])
def test_each_example_reads_and_is_legal(text: str) -> None:
    assert judge(document_from_text(text)).status == "legal"


def test_the_unknown_cards_example_leaves_the_compulsory_tie_undetermined() -> None:
    text = dict(EXAMPLES)["unknown"]
    report = judge(document_from_text(text))
    assert [(v.index, v.rule) for v in report.undetermined] == [(2, "phase1.tie.compulsory")]


def test_the_session_example_counts_the_scores_it_claims() -> None:
    report = judge(document_from_text(dict(EXAMPLES)["session"]))
    assert report.scores == {"Anna": 5, "Bo": 3, "Cai": -5}


def test_the_field_table_names_the_schemas_top_level_fields() -> None:
    table = PAGE[PAGE.index("| field | required |") : PAGE.index("### Cards")]
    fields = set(re.findall(r"^\| `([a-z_]+)` \|", table, re.M))
    assert fields == set(SCHEMA["properties"])
    assert json_schema()["properties"].keys() == SCHEMA["properties"].keys()


def test_the_required_fields_are_marked_required() -> None:
    table = PAGE[PAGE.index("| field | required |") : PAGE.index("### Cards")]
    rows = dict(re.findall(r"^\| `([a-z_]+)` \| ([^|]+) \|", table, re.M))
    for name in SCHEMA["required"]:
        assert rows[name].startswith("yes"), name


def test_every_act_is_in_the_act_table() -> None:
    from adjudicator.actions import ACTS

    table = PAGE[PAGE.index("| act | what it is |") : PAGE.index("A deal is written only")]
    assert set(re.findall(r"^\| `([a-z_]+)` \|", table, re.M)) == set(ACTS)


def test_the_output_keys_are_those_check_json_prints() -> None:
    from adjudicator.bulk import Checked

    table = PAGE[PAGE.index("| key | meaning |") :]
    keys = set(re.findall(r"^\| `([a-z_]+)` \|", table, re.M))
    printed = set(Checked("f.jsonl", 3, None, "x").as_json())
    assert printed == keys
