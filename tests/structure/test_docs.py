"""The rule catalogue holds every rule id the engine can raise, each with a source and a sample.

docs/rules.md's tables are generated from the catalogue and must be current;
docs/sources.md lists every text the catalogue cites; and nothing in the
repository points at files a user who clones it does not have.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from adjudicator.rules import catalog
from adjudicator.rules.options import RuleOptions

ROOT = Path(__file__).resolve().parents[2]
RULES_MD = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
SOURCES_MD = (ROOT / "docs" / "sources.md").read_text(encoding="utf-8")
LITERAL = re.compile(r"\"([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)\"")
TITLE_CITATION = re.compile(
    r"pagat\.com|Wikipedia|the Goat treatise|the two-page summary|the record contract"
)


def raised_ids() -> set[str]:
    """Rule ids as they appear in the engine's source: dotted lower-case string literals."""
    found: set[str] = set()
    for path in [
        *(ROOT / "adjudicator" / "engine").glob("*.py"),
        ROOT / "adjudicator" / "play" / "adjudicate.py",
    ]:
        found |= set(LITERAL.findall(path.read_text(encoding="utf-8")))
    return found


def breaks(sample: str) -> str | None:
    path = ROOT / "sample_games" / sample
    return json.loads(path.read_text(encoding="utf-8"))["meta"]["expect"].get("rule")


def test_every_rule_id_in_the_engine_is_in_the_catalogue() -> None:
    missing = raised_ids() - set(catalog.RULES)
    assert not missing, f"rule ids missing from adjudicator/rules/catalog.py: {sorted(missing)}"


def test_the_generated_part_of_rules_md_is_current() -> None:
    assert catalog.update(RULES_MD) == RULES_MD, (
        "docs/rules.md is stale: run python -m adjudicator.rules.catalog --write docs/rules.md"
    )


def test_the_catalogue_module_checks_and_writes_the_page(tmp_path: Path) -> None:
    page = tmp_path / "rules.md"
    page.write_text(RULES_MD.replace("| `game.over` |", "| `game.ovr` |"), encoding="utf-8")
    run = ["python", "-m", "adjudicator.rules.catalog"]
    assert subprocess.run([*run, "--check", str(page)], capture_output=True).returncode == 1
    assert subprocess.run([*run, "--write", str(page)], capture_output=True).returncode == 0
    assert page.read_text(encoding="utf-8") == RULES_MD


def test_every_id_cites_a_source_by_title_and_names_existing_samples() -> None:
    for rule in catalog.RULES.values():
        assert rule.sources, f"{rule.id}: no source cited"
        assert TITLE_CITATION.search(rule.cited), f"{rule.id}: {rule.cited}"
        assert rule.samples, f"{rule.id}: no sample named"
        for name in rule.samples:
            assert (ROOT / "sample_games" / name).exists(), f"{rule.id}: {name} does not exist"


def expectation(sample: str) -> dict[str, object]:
    path = ROOT / "sample_games" / sample
    return json.loads(path.read_text(encoding="utf-8"))["meta"]["expect"]


def test_the_sample_named_first_for_an_id_breaks_that_rule() -> None:
    for rule in catalog.RULES.values():
        first = rule.samples[0]
        expect = expectation(first)
        if rule.kind == "undetermined":
            notes = [note["rule"] for note in expect.get("undetermined", [])]  # type: ignore[union-attr]
            assert rule.id in notes, f"{first} is named for {rule.id}, reports {notes}"
        elif rule.kind == "invalid":
            assert expect["status"] == "invalid", f"{first} is named for {rule.id}"
        else:
            assert breaks(first) == rule.id, (
                f"{first} is named for {rule.id}, breaks {breaks(first)}"
            )


def test_every_rule_a_sample_breaks_is_in_the_catalogue() -> None:
    for path in (ROOT / "sample_games").glob("*.json"):
        rule = breaks(path.name)
        assert rule is None or rule in catalog.RULES, f"{path.name}: {rule} is not catalogued"


def test_options_named_by_rules_exist() -> None:
    for rule in catalog.RULES.values():
        for option in rule.options:
            assert option in RuleOptions.model_fields, f"{rule.id}: no option {option}"


def test_every_cited_section_is_listed_in_sources_md() -> None:
    for rule in catalog.RULES.values():
        for cite in rule.sources:
            if cite.section:
                assert cite.section in SOURCES_MD, f"{rule.id}: {cite} is not in docs/sources.md"


def test_sources_md_names_every_text_by_title_and_address() -> None:
    for source in catalog.SOURCES.values():
        if source.key == "contract":
            continue
        assert source.title in SOURCES_MD, source.title
        if source.address.startswith("https://"):
            assert source.address in SOURCES_MD, source.address


# --- the repository stands on its own ------------------------------------------------

OWN_DOCS = [
    "README.md",
    "docs/rules.md",
    "docs/sources.md",
    "docs/record-format.md",
    "docs/limits.md",
    "docs/other-games.md",
]
# Spelled with character classes so that this file does not name those places itself.
OUTSIDE = re.compile(r"\.\./s[h]ared|s[h]ared/|rule-[s]ources|(?<![\d,.])\b00[0-4]\b(?![_,\d])")


@pytest.mark.parametrize("name", OWN_DOCS)
def test_the_docs_name_no_file_outside_the_repository(name: str) -> None:
    text = (ROOT / name).read_text(encoding="utf-8")
    # Sample file names such as seq_pagat_diamonds.json are files of this repository.
    text = re.sub(r"`?[a-z0-9_]+\.json`?", "", text)
    found = OUTSIDE.findall(text)
    assert not found, f"{name} points outside the repository: {found}"


def test_command_output_cites_by_title() -> None:
    from click.testing import CliRunner

    from adjudicator.cli.commands import main

    for args in (["variants"], ["variants", "koira"], ["explain", "phase2.beat"]):
        out = CliRunner().invoke(main, args).stdout
        assert not re.search(r"\b00[0-4]\b(?!_)", out), (args, out)
