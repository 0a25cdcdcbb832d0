"""The service (``adjudicator.service``): typed results for one record, one position,
one rule, written by its one serializer; the same objects the command line prints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator import (
    adjudicate,
    load_record,
    service,
)
from adjudicator.cli.commands import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_games"


def _cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    return result.stdout


def test_check_json_and_legal_json_are_the_service_results_through_one_serializer() -> None:
    path = str(SAMPLES / "illegal_phase2_beat.json")
    game = load_record(path)
    assert _cli("check", "--json", path).strip() == service.dumps(service.check_game(game, path))
    printed = json.loads(_cli("legal", "--json", "--at", "2", path))  # before the 2nd action
    assert printed == service.position(game, 1, path).model_dump(mode="json")
    assert printed["legal"] == ["B pick"] and printed["file"] == path


def test_a_verdict_leaves_out_the_keys_the_contract_leaves_out() -> None:
    report = adjudicate(load_record(SAMPLES / "illegal_phase2_beat.json"))
    out = service.verdict("f", report).model_dump(mode="json")
    assert "line" not in out and "with_unseen" not in out["violations"][0]
    assert list(out) == [
        *("file", "status", "variant", "actions", "applied", "finished", "loser", "losers"),
        *("violations", "undetermined", "error"),
    ]
    invalid = service.verdict("f", None, "bad", line=3).model_dump(mode="json")
    assert (invalid["status"], invalid["error"], invalid["line"]) == ("invalid", "bad", 3)


def test_variants_and_explanations_are_data() -> None:
    every = service.variants()
    assert [v.name for v in every][:2] == ["pagat", "helmfrid"]
    goat = service.variant("goat")
    assert {o.name for o in goat.options} >= {"first_lead", "pick_from"}
    with pytest.raises(service.UnknownTopic, match="'nosuch' is not a variant"):
        service.variant("nosuch")
    rule = service.explain("phase2.beat")
    assert isinstance(rule, service.RuleExplanation) and rule.samples
    option = service.explain("pick_from")
    assert isinstance(option, service.OptionExplanation)
    assert [v.variant for v in option.by_variant] == [v.name for v in every]
    with pytest.raises(service.UnknownTopic, match=r"did you mean phase2\.beat"):
        service.explain("phase2.bet")


def test_a_goat_ruling_cites_the_goat_treatise_where_it_states_the_rules_options() -> None:
    """The ruling's sources name the record's own variant text beside the rule's general
    ones (a stranger's Goat ruling cited only pagat.com); an option the record changed, or
    one the text is silent on, cites nothing of the variant."""
    from adjudicator.rules.presets import find_variant
    from adjudicator.service import page as calls
    from adjudicator.service import variant_cites

    record = json.loads((SAMPLES / "illegal_goat_dreck_receiver.json").read_text("utf-8"))
    replayed = calls.replay(json.dumps(record))
    (v,) = replayed["check"]["violations"]
    assert v["rule"] == "deal.receivers" and "low_cards" in v["where"]["options"]
    assert replayed["cites"]["low_cards"].startswith("the Goat treatise, III.C")
    assert "low_cards_by_indicator" not in replayed["cites"]  # the treatise is silent
    changed = calls.replay(json.dumps({**record, "options": {"low_cards": 4}}))
    assert "low_cards" not in changed["cites"]
    assert (
        calls.replay(json.dumps(json.loads((SAMPLES / "two_player_full.json").read_text())))[
            "cites"
        ]
        == {}
    )
    at_eight = variant_cites("goat", find_variant("goat").options_for(8), 8)
    assert at_eight["decks"].startswith("the Goat treatise") and "low_cards" in at_eight


def test_a_violation_says_whose_the_legal_actions_are_when_not_the_violators() -> None:
    """Anna's sluff had no legal alternative; ``legal`` lists Cai's take, and ``to_act`` says
    it is Cai's, as the text output's "next, Cai to act" does (issue 40)."""
    from conftest import NONE_LEGAL_SLUFF

    out = json.loads(service.dumps(service.check_text(json.dumps(NONE_LEGAL_SLUFF), "f")))
    (v,) = out["violations"]
    assert (v["player"], v["legal"], v["to_act"]) == ("Anna", ["Cai take"], ["Cai"])
    own = service.verdict("f", adjudicate(load_record(SAMPLES / "illegal_phase2_beat.json")))
    assert "to_act" not in own.model_dump(mode="json")["violations"][0]
