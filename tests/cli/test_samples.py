"""Every sample game checks as its ``meta.expect`` says, and its output is pinned.

The expectations in the sample files were written from the rule texts, not
copied from the engine, so a failure here is a disagreement between the
engine and a worked example.  The snapshots pin what a person sees: the plain
text of ``replay`` and the contract's ``check --json`` object.  They were read
by eye when written; a snapshot that records a wrong ruling is a bug.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from adjudicator.cli.commands import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(p.name for p in (ROOT / "sample_games").glob("*.json"))
EXIT = {"legal": 0, "illegal": 1, "invalid": 2}


def run(*args: str) -> tuple[int, str]:
    """The CLI's exit status and standard output (plain text: no terminal)."""
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout


def meta(name: str) -> dict[str, Any]:
    return json.loads((ROOT / "sample_games" / name).read_text(encoding="utf-8"))["meta"]


def test_there_are_samples() -> None:
    assert len(SAMPLES) >= 20


@pytest.mark.parametrize("name", SAMPLES)
def test_sample_has_title_source_notes_and_expectation(name: str) -> None:
    about = meta(name)
    for key in ("title", "source", "notes", "expect"):
        assert about.get(key), f"{name}: meta.{key} is missing"
    known = {"status", "finished", "loser", "losers", "rule", "index", "game", "scores"}
    assert set(about["expect"]) <= known | {"undetermined", "error"}, about["expect"]
    assert about["expect"]["status"] in EXIT


@pytest.mark.parametrize("name", SAMPLES)
def test_sample_checks_as_its_file_says(
    name: str, snapshot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    expect = meta(name)["expect"]
    code, out = run("check", "--json", f"sample_games/{name}")
    verdict = json.loads(out)
    assert code == EXIT[expect["status"]]
    assert verdict["status"] == expect["status"]
    for key in ("finished", "loser", "losers", "scores"):
        if key in expect:
            assert verdict[key] == expect[key], key
    if "error" in expect:
        assert verdict["error"].startswith(expect["error"])
    if "rule" in expect:
        first = verdict["violations"][0]
        assert (first["rule"], first["index"]) == (expect["rule"], expect["index"])
        assert first.get("game") == expect.get("game"), "game"
    elif expect["status"] != "illegal":
        assert verdict["violations"] == []
    noted = [{"index": u["index"], "rule": u["rule"]} for u in verdict["undetermined"]]
    assert noted == expect.get("undetermined", []), "undetermined"
    assert verdict == snapshot


@pytest.mark.parametrize("name", SAMPLES)
def test_sample_replay(name: str, snapshot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    code, out = run("replay", f"sample_games/{name}")
    expect = meta(name)["expect"]
    assert code == EXIT[expect["status"]]
    # the verdict it ends with, as the sample's file says, before the snapshot of the steps
    said = out[out.rindex(f"sample_games/{name}: ") :]
    assert said.startswith(f"sample_games/{name}: {expect['status']} ·"), said
    if "rule" in expect:
        assert f"rule {expect['rule']}:" in said, said
    if expect.get("loser"):
        assert f"loser {expect['loser']}" in said, said
    for loser in expect.get("losers") or []:
        assert loser in said.splitlines()[0], said
    if "error" in expect:
        assert f": invalid · {expect['error']}" in said, said
    assert out == snapshot
