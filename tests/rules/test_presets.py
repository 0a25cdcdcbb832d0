"""``adjudicator variants``: every preset, every option, each with its source."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from adjudicator.cli.commands import main
from adjudicator.rules.options import RuleOptions
from adjudicator.rules.presets import PRESETS

SOURCE = re.compile(r"pagat\.com|Wikipedia|the Goat treatise|the summary")


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout + result.stderr


def test_every_option_cites_a_source_text() -> None:
    for option, _, description in RuleOptions.describe():
        assert SOURCE.search(description), f"{option}: the description cites no source"


def test_the_list_names_every_preset_and_every_option() -> None:
    code, out = run("variants")
    assert code == 0
    for name in PRESETS:
        assert name in out
    for option in RuleOptions.model_fields:
        assert option in out


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_one_variant_shows_each_option_with_its_value_and_source(name: str) -> None:
    code, out = run("variants", name)
    assert code == 0
    values = PRESETS[name].options.model_dump()
    flat = " ".join(out.split())
    for option, _, description in RuleOptions.describe():
        assert f"{option} = {json.dumps(values[option])}" in out
        assert " ".join(description.split()) in flat


def test_an_unknown_variant_is_one_line_and_exit_2() -> None:
    code, out = run("variants", "bridge")
    assert code == 2
    assert out.strip() == "variant: 'bridge' is not a variant (" + ", ".join(PRESETS) + ")"


def test_the_goat_shows_each_options_section_of_the_treatise_and_the_player_counts() -> None:
    code, out = run("variants", "goat")
    assert code == 0
    flat = " ".join(out.split())
    for option in RuleOptions.model_fields:
        cite = PRESETS["goat"].cites[option]
        assert f"In goat: {cite}" in flat, option
    assert 'With 3 players: high_trump = "kill_only"' in out
    assert "With 7-34 players: decks = 2, low_cards = 12" in out
