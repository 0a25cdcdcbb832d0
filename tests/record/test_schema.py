"""The JSON Schema in ``schemas/`` is the one the code prints, and it describes the samples."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from adjudicator.cli.commands import main
from adjudicator.record import json_schema, session_schema

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "schemas" / "record-1.schema.json"
SESSION_SCHEMA = ROOT / "schemas" / "session-1.schema.json"


def test_the_committed_schema_is_not_stale() -> None:
    committed = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert committed == json_schema(), (
        "schemas/record-1.schema.json is stale: "
        "run 'adjudicator schema > schemas/record-1.schema.json'"
    )


def test_the_committed_session_schema_is_not_stale() -> None:
    committed = json.loads(SESSION_SCHEMA.read_text(encoding="utf-8"))
    assert committed == session_schema(), "schemas/session-1.schema.json is stale"


def test_the_schema_command_prints_it() -> None:
    result = CliRunner().invoke(main, ["schema"])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == json_schema()


def test_the_schema_names_every_top_level_field_of_the_contract() -> None:
    fields = set(json_schema()["properties"])
    assert {
        "format",
        "variant",
        "options",
        "players",
        "dealer",
        "first_leader",
        "deck",
        "start",
        "actions",
        "result",
        "trump",
        "meta",
    } <= fields
    assert set(json_schema()["required"]) == {"format", "variant", "players", "actions"}
