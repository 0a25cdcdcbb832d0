"""The record format (docs/record-format.md): models, notation, building, canonical form.

Loading has two stages.  pydantic checks the shape (fields, types, card
spellings, read by the one notation); :func:`build_game` then resolves names
against ``players``, checks the pack, and turns everything into the small
index-based :class:`~adjudicator.game.Game` the engine replays.  Either stage
raises :class:`RecordError`, one line naming the place:
``actions[12].cards[0]: 'ZZ' is not a card``.

One job per module: :mod:`.schema` (the pydantic models), :mod:`.notation`
(cards and actions, text and objects, both ways), :mod:`.build` (records to
games and sessions, loading), :mod:`.canonical` (canonical form, JSON Schema),
:mod:`.errors` (the one-line errors).
"""

from adjudicator.game import Game, Session, Start
from adjudicator.record.build import (
    build,
    build_game,
    build_session,
    load,
    load_record,
    loads,
    parse_document,
    parse_record,
    read,
    trump_card_index,
)
from adjudicator.record.canonical import canonical, json_schema, session_schema
from adjudicator.record.errors import RecordError, key
from adjudicator.record.notation import format_action, parse_action, read_cards, read_deck
from adjudicator.record.schema import (
    FORMAT,
    SESSION_FORMAT,
    ActionObject,
    Record,
    Result,
    Scoring,
    SessionGame,
    SessionRecord,
    SessionResult,
    StartPhaseOne,
    StartPhaseTwo,
)

__all__ = [
    "FORMAT",
    "SESSION_FORMAT",
    "ActionObject",
    "Game",
    "Record",
    "RecordError",
    "Result",
    "Scoring",
    "Session",
    "SessionGame",
    "SessionRecord",
    "SessionResult",
    "Start",
    "StartPhaseOne",
    "StartPhaseTwo",
    "build",
    "build_game",
    "build_session",
    "canonical",
    "format_action",
    "json_schema",
    "key",
    "load",
    "load_record",
    "loads",
    "parse_action",
    "parse_document",
    "parse_record",
    "read",
    "read_cards",
    "read_deck",
    "session_schema",
    "trump_card_index",
]
