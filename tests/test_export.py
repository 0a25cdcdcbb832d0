"""replay --svg / --html: a ruling to share, the same bytes for the same record.

The snapshots hold the whole documents; they were read when written: the
table before the disputed action, the refused action framed in red with the
rule and what was legal instead, hearts and diamonds in red, and the verdict.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from adjudicator.cli import main

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("kind", ["svg", "html"])
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
    if kind == "html":
        words = html.unescape(document).replace("\u00a0", " ")
        assert "B tries to beat 9♥ with 7♥" in words
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
    assert "Before&#160;action&#160;0:" in page or "Before action 0:" in page


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
