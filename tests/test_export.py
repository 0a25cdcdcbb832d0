"""replay --svg / --html: a ruling to share, the same bytes for the same record.

The SVG snapshot holds the whole document; it was read when written: the
table before the disputed action, the refused action framed in red with the
rule and what was legal instead, hearts and diamonds in red, and the verdict.
The HTML file is the table's page with the replay embedded (its browser test
is in test_web_page.py); here, what it holds and what it must not.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import DISPUTE

from adjudicator.cli import main

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("kind", ["svg"])
def test_ruling_export(
    kind: str, snapshot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    target = tmp_path / f"ruling.{kind}"
    result = CliRunner().invoke(
        main, ["replay", f"--{kind}", str(target), "sample_games/illegal_phase2_beat.json"]
    )
    assert result.exit_code == 1  # the record's verdict, export or not
    document = target.read_text(encoding="utf-8")
    assert "phase2.beat" in document
    assert 'url("http' not in document and "@font-face" not in document  # no remote fonts
    assert document == snapshot
    again = tmp_path / f"again.{kind}"
    CliRunner().invoke(
        main, ["replay", f"--{kind}", str(again), "sample_games/illegal_phase2_beat.json"]
    )
    assert again.read_text(encoding="utf-8") == document


def test_the_ruling_frames_the_violation_in_red() -> None:
    from adjudicator import export
    from adjudicator.adjudicate import adjudicate
    from adjudicator.bulk import document_from_text

    text = (ROOT / "sample_games" / "illegal_phase2_beat.json").read_text(encoding="utf-8")
    report = adjudicate(document_from_text(text), steps=True)
    console = export.draw(export.ruling("x.json", report))
    plain = console.export_text(clear=False)
    assert "Before action 1:" in plain
    assert "the action in question" in plain
    assert "✗ illegal action 1: B play 7H" in plain
    styled = console.export_text(styles=True)
    assert "\x1b[" in styled  # in colour
    page = console.export_html(clear=False)
    assert "color: #" in page


def test_step_chooses_the_action_in_question(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    target = tmp_path / "r.html"
    result = CliRunner().invoke(
        main,
        ["replay", "--step", "0", "--html", str(target), "sample_games/illegal_phase2_beat.json"],
    )
    assert result.exit_code == 1
    page = target.read_text(encoding="utf-8")
    assert json.loads(_embedded(page))["at"] == 0


def test_an_unwritable_target_is_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        [
            "replay",
            "--svg",
            str(tmp_path / "no" / "r.svg"),
            str(ROOT / "sample_games" / "pagat_3p_full.json"),
        ],
    )
    assert result.exit_code == 2
    assert "--svg: cannot write" in result.stderr


def _embedded(page: str) -> str:
    found = re.search(r'<script type="application/json" id="embedded">(.*?)</script>', page, re.S)
    assert found is not None
    return found.group(1)


def test_the_html_page_embeds_the_replay_and_loads_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    target = tmp_path / "r.html"
    result = CliRunner().invoke(
        main, ["replay", "--html", str(target), "sample_games/illegal_phase2_beat.json"]
    )
    assert result.exit_code == 1
    page = target.read_text(encoding="utf-8")
    data = json.loads(_embedded(page))
    record = json.loads((ROOT / "sample_games" / "illegal_phase2_beat.json").read_text())
    assert data["record"]["actions"] == record["actions"]
    assert set(data["views"]) == {"", *record["players"]}
    (v,) = data["views"][""]["check"]["violations"]
    assert v["rule"] == "phase2.beat"
    assert 'src="' not in page and 'href="/' not in page  # everything inline
    assert "script-src 'sha256-" in page  # a policy: only the page's own script runs
    again = tmp_path / "again.html"
    CliRunner().invoke(
        main, ["replay", "--html", str(again), "sample_games/illegal_phase2_beat.json"]
    )
    assert again.read_text(encoding="utf-8") == page


def test_the_html_page_of_one_players_view_holds_no_other_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = DISPUTE
    source = tmp_path / "dispute.json"
    source.write_text(json.dumps(record), encoding="utf-8")
    target = tmp_path / "anna.html"
    result = CliRunner().invoke(
        main, ["replay", "--as", "Anna", "--html", str(target), str(source)]
    )
    assert result.exit_code == 1
    data = json.loads(_embedded(target.read_text(encoding="utf-8")))
    assert list(data["views"]) == ["Anna"]
    assert data["record"] is None  # it names every hand
    views = json.dumps(data["views"])
    for secret in ("2H", "3S", "QD"):
        assert secret not in views
