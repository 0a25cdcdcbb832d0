"""The canonical form of a record, and the JSON Schemas exported from the models.

The canonical form writes every card as its code (``TH``) and every action
through the notation: a string, except a deal written as an object, and an
object holding keys of the user's own (``_...``), which stay objects.  What the
table did about an action (its mark), its comment and every key of the user's
are kept where they stand.
"""

from __future__ import annotations

from typing import Any

from adjudicator.cards import card_code
from adjudicator.record.notation import (
    commented,
    marked,
    read_object,
    read_text,
    split_comment,
    split_mark,
)
from adjudicator.record.schema import ActionObject, Record, SessionRecord


def _canonical_object(entry: ActionObject, action: Any, players: list[str]) -> dict[str, Any]:
    """An action kept as an object: a deal, or one holding keys of the user's."""
    out: dict[str, Any] = {"player": players[action.player], "act": action.act}
    if action.act == "deal":
        out["to"] = {players[p]: [card_code(c) for c in cards] for p, cards in action.to}
    else:
        out["cards"] = [card_code(c) for c in action.cards]
    if entry.table is not None:
        out["table"] = entry.table
    if entry.comment is not None:
        out["comment"] = entry.comment
    out.update(entry.model_extra or {})
    return out


def _canonical_actions(players: list[str], actions: list[str | ActionObject]) -> list[Any]:
    names = {name: seat for seat, name in enumerate(players)}
    out: list[Any] = []
    for index, entry in enumerate(actions):
        path = f"actions[{index}]"
        if isinstance(entry, str):
            body, comment = split_comment(entry, path)
            mark = split_mark(body, path)[1]
            text = read_text(body, names, path).text(players)
            out.append(commented(marked(text, mark), comment))
            continue
        action = read_object(entry, names, path)
        if action.act == "deal" or entry.model_extra:
            out.append(_canonical_object(entry, action, players))
        else:
            text = marked(action.text(players), entry.table)
            out.append(commented(text, entry.comment))
    return out


def canonical(record: Record) -> dict[str, Any]:
    """The record in canonical form: card codes, string actions where possible."""
    data = record.model_dump(mode="json", exclude_none=True, exclude={"deck", "actions"})
    return _in_order({}, record, data, list(record.players))


def canonical_game(session: SessionRecord, number: int, fmt: str) -> dict[str, Any]:
    """Game ``number`` (from 0) of a session as a record of its own (format ``fmt``), in
    canonical form: the session's variant, options and players, the game's own fields."""
    game = session.games[number]
    data = game.model_dump(
        mode="json", exclude_none=True, exclude={"deck", "actions"}, warnings=False
    )
    out: dict[str, Any] = {
        "format": fmt,
        "variant": session.variant,
        "options": session.options,
        "players": list(session.players),
    }
    return _in_order(out, game, data, list(session.players))


def _in_order(
    out: dict[str, Any], model: Any, data: dict[str, Any], players: list[str]
) -> dict[str, Any]:
    """``out`` with ``model``'s fields in their order (``data``: its dump without the deck
    and actions, written here in canonical form), then the user's own keys."""
    for name in type(model).model_fields:
        if name == "deck" and model.deck is not None:
            out["deck"] = " ".join(card_code(c) for c in model.deck)
        elif name == "actions":
            out["actions"] = _canonical_actions(players, model.actions)
        elif name in data:
            out[name] = data[name]
    out.update({name: data[name] for name in model.model_extra or {}})
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
