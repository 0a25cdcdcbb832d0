"""docs/record-format.md says what the code reads: its examples and field table agree with it.

The page is the project's own account of the record contract.  Its examples
are checked here: the ones marked ``record`` or ``start`` must read and be
legal, the one marked ``not-yet`` (a part of the contract this version does
not read) must still be refused, so that the page is updated when it is
read.  Its field table names exactly the top-level fields of the schema.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from adjudicator.adjudicate import adjudicate
from adjudicator.bulk import game_from_text
from adjudicator.record import RecordError, json_schema

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "record-format.md").read_text(encoding="utf-8")
EXAMPLES = re.findall(r"<!-- example: ([a-z-]+) -->\n```json\n(.*?)```", PAGE, re.S)
SCHEMA = json.loads((ROOT / "schemas" / "record-1.schema.json").read_text(encoding="utf-8"))


def test_the_page_has_its_examples() -> None:
    assert [kind for kind, _ in EXAMPLES] == ["record", "start", "not-yet"]


@pytest.mark.parametrize("text", [t for k, t in EXAMPLES if k != "not-yet"])
def test_each_example_reads_and_is_legal(text: str) -> None:
    assert adjudicate(game_from_text(text)).status == "legal"


@pytest.mark.parametrize("text", [t for k, t in EXAMPLES if k == "not-yet"])
def test_what_the_page_says_is_not_read_yet_is_refused(text: str) -> None:
    with pytest.raises(RecordError):
        game_from_text(text)


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
