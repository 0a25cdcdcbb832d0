"""Rule options (``rules/options.py``): a bad option is refused in the project's own error."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import PACK

from adjudicator.invalid import RecordError
from adjudicator.record import load_record


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"a": 1}, "options.a: is not a rule option"),
        ({"sequences": "four"}, "options.sequences: 'four' is not a value this option takes"),
        ({"min_players": 5, "max_players": 3}, "options: min_players (5) is above max_players (3)"),
    ],
)
def test_rule_options_refuse_in_the_projects_error(options: dict[str, Any], said: str) -> None:
    """``RuleOptions(a=1)`` raised pydantic's ValidationError; a record's options keep the
    record layer's fuller words (each option's allowed values) all the same."""
    from adjudicator.rules.options import RuleOptions

    with pytest.raises(RecordError) as caught:
        RuleOptions(**options)
    assert str(caught.value) == said
    record = {
        "format": "skitgubbe-record/1",
        "variant": "pagat",
        "players": ["Anna", "Bo", "Cai"],
        "options": {"sequences": "four"},
        "deck": list(PACK),
        "actions": [],
    }
    with pytest.raises(RecordError) as whole:
        load_record(json.dumps(record))
    assert str(whole.value).startswith("options.sequences: must be ")
