"""docs/rules.md lists every rule id the engine can raise, each with a source and a sample."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES_MD = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
ROW = re.compile(r"^\| `([a-z0-9_.]+)` \|(.*)$", re.MULTILINE)
DOCUMENTED = {m.group(1): m.group(2) for m in ROW.finditer(RULES_MD)}
LITERAL = re.compile(r"\"([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)\"")
SOURCE = re.compile(r"\b00[0-4]\b|record contract")


def raised_ids() -> set[str]:
    """Rule ids as they appear in the engine's source: dotted lower-case string literals."""
    found: set[str] = set()
    for path in [
        *(ROOT / "adjudicator" / "engine").glob("*.py"),
        ROOT / "adjudicator" / "adjudicate.py",
    ]:
        found |= set(LITERAL.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_rule_id_in_the_engine_is_documented() -> None:
    missing = raised_ids() - set(DOCUMENTED)
    assert not missing, f"rule ids missing from docs/rules.md: {sorted(missing)}"


def test_every_documented_id_cites_a_source_and_names_an_existing_sample() -> None:
    for rule, row in DOCUMENTED.items():
        assert SOURCE.search(row), f"{rule}: no source cited"
        samples = re.findall(r"`([a-z0-9_]+\.json)`", row)
        assert samples, f"{rule}: no sample named"
        for name in samples:
            assert (ROOT / "sample_games" / name).exists(), f"{rule}: {name} does not exist"


def test_the_sample_named_first_for_an_id_breaks_that_rule() -> None:
    for rule, row in DOCUMENTED.items():
        first = re.findall(r"`([a-z0-9_]+\.json)`", row)[0]
        expect = json.loads((ROOT / "sample_games" / first).read_text(encoding="utf-8"))["meta"][
            "expect"
        ]
        assert expect.get("rule") == rule, (
            f"{first} is named for {rule} but breaks {expect.get('rule')}"
        )


def test_every_rule_a_sample_breaks_is_documented() -> None:
    for path in (ROOT / "sample_games").glob("*.json"):
        rule = json.loads(path.read_text(encoding="utf-8"))["meta"]["expect"].get("rule")
        assert rule is None or rule in DOCUMENTED, f"{path.name}: {rule} is not in docs/rules.md"
