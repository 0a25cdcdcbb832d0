"""The rules and the rule options in the table's language (issue 36): ``explain``,
``variants``, ``/api/explain`` and ``/api/variants`` say them in the language chosen.

Rule ids, option names and values, the titles of the rule texts and their sections stay as
they are; ``docs/rules.md`` is generated in English (tests/structure/test_docs.py holds it
to that)."""

from __future__ import annotations

import json
import re
from typing import Any, get_args

import pytest
from click.testing import CliRunner
from conftest import DISPUTE
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, expect

from adjudicator import i18n, service
from adjudicator.cli import main
from adjudicator.rules import catalog
from adjudicator.rules.options import RuleOptions, described
from adjudicator.rules.presets import PRESETS
from adjudicator.service import routes
from adjudicator.web import app

TRANSLATED = [code for code in i18n.LANGUAGES if code != i18n.SOURCE]
ENV = {"ADJUDICATOR_LANG": "", "LANG": "C.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}


def _run(*args: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(main, list(args), env={**ENV, **(env or {})}, terminal_width=100)


def _quoted_code(text: str) -> list[str]:
    """The `code` a rule's text quotes (option names and values, acts): never translated."""
    return re.findall(r"`([^`]+)`", text)


# --- every text, in every language -----------------------------------------------------


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_rule_and_group_is_said_in_each_language(code: str) -> None:
    """Each rule id's check and each group title has its own translation, keeping the
    `code` it quotes; the rule id itself is not translated."""
    english = {rule.id: rule.said for rule in catalog.RULES.values()}
    groups = {group.key: group.said for group in catalog.GROUPS}
    with i18n.speaking(code):
        for rule in catalog.RULES.values():
            assert rule.said != english[rule.id], f"{code}: {rule.id} is not translated"
            for quoted in _quoted_code(rule.checks):
                assert f"`{quoted}`" in i18n._(rule.checks), f"{code}: {rule.id} lost `{quoted}`"
            assert service.explain(rule.id).id == rule.id
        for group in catalog.GROUPS:
            assert group.said != groups[group.key], f"{code}: group {group.key}"
            for quoted in _quoted_code(group.title):
                assert quoted in group.said


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_option_and_variant_is_said_in_each_language(code: str) -> None:
    """Each option's description and each variant's title has its own translation; the
    option's own values, quoted in the English ('dealer_left'), are quoted the same."""
    fields = RuleOptions.model_fields
    english = {name: described(field.description) for name, field in fields.items()}
    titles = {name: preset.said for name, preset in PRESETS.items()}
    with i18n.speaking(code):
        for name, field in fields.items():
            said = described(field.description)
            assert said and said != english[name], f"{code}: option {name} is not translated"
            values = [str(v) for v in get_args(field.annotation)]
            for value in values + list(fields):
                if f"'{value}'" in english[name]:
                    assert f"'{value}'" in said, f"{code}: {name} lost '{value}'"
        for name, preset in PRESETS.items():
            assert preset.said != titles[name], f"{code}: variant {name}"
        described_rows = RuleOptions.describe()
    assert [row[2] for row in described_rows] != list(english.values())


def test_the_english_source_is_unchanged_by_the_marking() -> None:
    """English is the code's own text: N_ marks, it does not change."""
    assert catalog.RULES["phase2.beat"].said.startswith("a play onto the trick beats")
    assert described(RuleOptions.model_fields["pick_from"].description).startswith(
        "Where a pick takes from."
    )
    assert "| `phase2.beat` | a play onto the trick beats the top play" in catalog.markdown()


# --- the command line ------------------------------------------------------------------


def test_explain_a_rule_in_swedish() -> None:
    english = _run("explain", "phase2.beat")
    said = _run("explain", "phase2.beat", "--lang", "sv")
    assert said.exit_code == english.exit_code == 0, said.output
    assert said.output != english.output
    assert said.output.startswith("phase2.beat  Andra fasen\n")
    for word in ("slår", "trumf", "antitrumf", "svit", "stick", "Vad den kontrollerar:"):
        assert word in said.output, word
    for kept in ("sequences (off | two | three | from_two)", "pagat.com, 'Anti-trumps'"):
        assert kept in said.output
    assert "beats the top play" not in said.output and "What it checks" not in said.output


def test_the_environment_and_the_group_option_reach_explain_and_variants() -> None:
    assert (
        "Mitä se tarkistaa:"
        in _run("explain", "phase1.pick", env={"ADJUDICATOR_LANG": "fi"}).output
    )
    assert "Hva den kontrollerer:" in _run("--lang", "nb", "explain", "phase1.pick").output
    listed = _run("explain", env={"LANG": "sv_SE.UTF-8"}).output
    assert "Andra fasen" in listed and "ingen tar upp i första fasen" in listed
    variants = _run("variants", "--lang", "fi").output
    assert "Muunnelmat" in variants and "Suomalainen Koira" in variants
    assert "Sääntövalinnat muunnelmittain" in variants


def test_an_option_in_finnish_keeps_its_values() -> None:
    said = _run("explain", "low_cards", "--lang", "fi").output
    assert said.startswith("low_cards  (kokonaisluku väliltä 0–104)\n")
    assert "Oletus: 0" in said and "6; 12, kun pelaajia on 7-34" in said
    assert 'Pöytäkirja asettaa sen kentässä "options": {"low_cards": 0}' in said


@pytest.mark.parametrize("code", TRANSLATED)
def test_explain_phase2_beat_in_each_language(code: str, snapshot: Any) -> None:
    """Read by eye before accepted (issue 36)."""
    result = _run("explain", "phase2.beat", "--lang", code)
    assert result.exit_code == 0, result.output
    said = result.output
    english = _run("explain", "phase2.beat").output
    # the rule id, its sources and options as written; its sample; every heading translated
    assert said.startswith("phase2.beat  ")
    for kept in ("pagat.com, 'Play in the second phase'", "Wikipedia, 'Phase 2'"):
        assert kept in said and kept in english
    assert "sequences (off | two | three | from_two)" in said
    assert "adjudicator samples illegal_phase2_beat" in said
    assert "B play 7H (phase2.beat)" in said
    for heading in ("What it checks:", "Where the rule is written:", "Options that change it:"):
        assert heading in english and heading not in said, heading
    assert said == snapshot


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_variant_in_each_language(code: str, snapshot: Any) -> None:
    """``variants melniki``: the title, each option's description, the words around them;
    the option names, values and citations as they are.  Read by eye before accepted."""
    result = _run("variants", "melniki", "--lang", code)
    assert result.exit_code == 0, result.output
    assert 'pair_reply = "follow_or_pick"   (' in result.output
    assert result.output == snapshot


# --- the HTTP API ----------------------------------------------------------------------

client = TestClient(app)


def test_api_explain_answers_in_the_accept_language() -> None:
    english = client.get("/api/explain/phase2.beat").json()
    answer = client.get("/api/explain/phase2.beat", headers={"Accept-Language": "fi"})
    assert answer.status_code == 200 and answer.headers["content-language"] == "fi"
    body = answer.json()
    assert set(body) == set(english)
    assert body["id"] == "phase2.beat" and body["sources"] == english["sources"]
    assert body["checks"] != english["checks"]
    assert "kaataa päällimmäisen lyönnin" in body["checks"] and "antivalttia" in body["checks"]
    option = client.get("/api/explain/pick_takes", headers={"Accept-Language": "fi-FI"}).json()
    assert option["description"].startswith("Mitä nosto ottaa. 'card': yhden kortin")
    assert option["allowed"] == "card | play | joined"
    sized = client.get("/api/explain/reserve?lang=fi", headers={"Accept-Language": "sv"}).json()
    assert sized["allowed"] == "kokonaisluku väliltä 0–30"


def test_api_variants_answer_in_the_accept_language() -> None:
    english = client.get("/api/variants/koira").json()
    answer = client.get("/api/variants/koira", headers={"Accept-Language": "fi"})
    assert answer.status_code == 200
    body = answer.json()
    assert set(body) == set(english) and body["source"] == english["source"]
    assert body["title"].startswith("Suomalainen Koira: kaikki lyövät")
    by_name = {o["name"]: o for o in body["options"]}
    assert by_name["sequences"]["description"].startswith("Suorat toisessa vaiheessa.")
    for said, source in zip(body["options"], english["options"], strict=True):
        assert said["name"] == source["name"] and said["allowed"] == source["allowed"]
        assert said["value"] == source["value"] and said["cited"] == source["cited"]
        assert said["description"] != source["description"]
    listed = client.get("/api/variants", headers={"Accept-Language": "nb"}).json()
    assert [v["name"] for v in listed] == list(PRESETS)
    assert listed[0]["title"].startswith("Grunnspillet Skitgubbe")


def test_the_page_route_carries_the_language_to_the_rule_of_a_violation() -> None:
    """The page's rule explanation under a ruling (``where.checks`` of a replay, as the page
    and its browser engine ask for it) follows the request's language."""
    record = json.dumps(DISPUTE)
    status, english = routes.answer("POST", "/api/replay", "", record)
    assert status == 200 and "beats the top play" in english
    status, said = routes.answer("POST", "/api/replay", "lang=nb", record)
    assert status == 200
    checks = re.findall(r'"checks": ?"([^"]*)"', said)
    assert checks and all("stikker det øverste utspillet" in c for c in checks), checks
    assert "beats the top play" not in said


# --- the page ----------------------------------------------------------------------------


def test_the_house_rules_speak_the_pages_language(browser: Browser, base: str) -> None:
    """A Swedish browser: the variants' titles and each switch's words are Swedish, the
    option names and values as a record writes them."""
    context = browser.new_context(locale="sv-SE", viewport={"width": 390, "height": 844})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#variant", "helmfrid")
    titles = page.locator("#variant option").all_inner_texts()
    assert "helmfrid — Skitgubbe där alla lägger till varje stick (Helmfrid)" in titles[1]
    assert "Helmfrid" in page.locator("#variant-about").inner_text()
    page.locator("#house-rules > summary").click()
    sequences = page.get_by_label("sequences", exact=True)
    expect(sequences).to_have_value("two")
    about = page.locator("#rule-anti_trump-about").inner_text()
    assert about.startswith("En antitrumffärg som trumf inte kan slå (pagat.com, 'Anti"), about
    assert page.locator("#rule-sequences-about").inner_text() == "Sviter i andra fasen."
    assert not errors, errors
    context.close()
