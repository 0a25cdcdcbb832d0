"""The canonical form of a record, and the JSON Schemas exported from the models.

The canonical form writes every card as its code (``TH``) and every action
through the notation: a string, except a deal written as an object, which
stays an object.
"""

from __future__ import annotations

from typing import Any

from adjudicator.cards import card_code
from adjudicator.record.notation import read_object, read_text
from adjudicator.record.schema import Record, SessionRecord


def _canonical_actions(record: Record) -> list[Any]:
    names = {name: seat for seat, name in enumerate(record.players)}
    players = record.players
    out: list[Any] = []
    for index, entry in enumerate(record.actions):
        path = f"actions[{index}]"
        if isinstance(entry, str):
            out.append(read_text(entry, names, path).text(players))
            continue
        action = read_object(entry, names, path)
        if action.act == "deal":
            out.append(action.record_form(players))
        else:
            out.append(action.text(players))
    return out


def canonical(record: Record) -> dict[str, Any]:
    """The record in canonical form: card codes, string actions where possible."""
    data = record.model_dump(mode="json", exclude_none=True, exclude={"deck", "actions"})
    out: dict[str, Any] = {}
    for name in Record.model_fields:  # the fields in their order, as the record has them
        if name == "deck" and record.deck is not None:
            out["deck"] = " ".join(card_code(c) for c in record.deck)
        elif name == "actions":
            out["actions"] = _canonical_actions(record)
        elif name in data:
            out[name] = data[name]
    return out


def json_schema() -> dict[str, Any]:
    """The JSON Schema of the record format, as kept in ``schemas/``."""
    schema = Record.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://github.com/adjudicator/schemas/record-1.schema.json"
    return schema


def session_schema() -> dict[str, Any]:
    """The JSON Schema of the session format, as kept in ``schemas/``."""
    schema = SessionRecord.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://github.com/adjudicator/schemas/session-1.schema.json"
    return schema
