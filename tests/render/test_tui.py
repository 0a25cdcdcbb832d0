"""replay --interactive: the Textual app, driven by Textual's pilot.

The app keeps the plain text of what it shows in ``app.shown``; the tests
press keys and read it, and the app's frame number.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import MARKUP_NAMES, with_loser_named

from adjudicator.bulk import document_from_text
from adjudicator.cli.commands import main
from adjudicator.play.adjudicate import Report, adjudicate
from adjudicator.render.tui import ReplayApp

ROOT = Path(__file__).resolve().parents[2]


def report(name: str) -> Report:
    text = (ROOT / "sample_games" / name).read_text(encoding="utf-8")
    return adjudicate(document_from_text(text), steps=True)


def drive(app: ReplayApp, keys_and_checks: list) -> None:
    """Press keys in turn; after each group, call its check on the app."""

    async def go() -> None:
        async with app.run_test(size=(110, 60)) as pilot:
            await pilot.pause()
            for keys, check in keys_and_checks:
                if keys:
                    await pilot.press(*keys)
                    await pilot.pause()
                check(app)

    asyncio.run(go())


def test_step_forward_and_back_and_jump_to_the_violation() -> None:
    app = ReplayApp("beat.json", report("illegal_phase2_beat.json"))

    def at_start(a: ReplayApp) -> None:
        assert a.frame == 0
        assert "Start · pagat · 3 players" in a.shown["step"]
        assert "Before the first action" in a.shown["where"]
        assert "illegal" in a.shown["where"]  # the record's verdict is always in view

    def after_first(a: ReplayApp) -> None:
        assert a.frame == 1
        assert "[1] A leads 9♥" in a.shown["step"]
        assert "Action 1 · the record's actions are 1-2" in a.shown["where"]

    def at_violation(a: ReplayApp) -> None:
        assert a.frame == 2
        assert "B tries to beat 9♥ with 7♥" in a.shown["step"]
        assert "rule phase2.beat" in a.shown["step"]

    def back_one(a: ReplayApp) -> None:
        assert a.frame == 1

    def clamped(a: ReplayApp) -> None:
        assert a.frame == 2

    drive(
        app,
        [
            ((), at_start),
            (("right",), after_first),
            (("p",), at_start),
            (("v",), at_violation),
            (("left",), back_one),
            (("n", "n", "n", "n"), clamped),
        ],
    )


def test_the_rule_text_of_the_violation_on_a_key() -> None:
    app = ReplayApp("beat.json", report("illegal_phase2_beat.json"))

    def hidden(a: ReplayApp) -> None:
        assert a.shown["rule"] == ""

    def shown(a: ReplayApp) -> None:
        assert "phase2.beat" in a.shown["rule"]
        assert "pagat.com, 'Play in the second phase'" in a.shown["rule"]
        assert "What it checks" in a.shown["rule"]

    drive(app, [((), hidden), (("r",), shown), (("r",), hidden)])


def test_as_a_player_hides_the_other_hands() -> None:
    app = ReplayApp("beat.json", report("illegal_phase2_beat.json"), viewer="A")

    def only_mine(a: ReplayApp) -> None:
        step = a.shown["step"]
        assert "9♥ K♦" in step  # A's own hand
        assert "7♥ 2♣ K♣" not in step and "3 cards" in step  # B's, as a count
        assert "2 cards" in step  # C's

    drive(app, [((), only_mine)])


def test_a_legal_record_has_no_violation_to_jump_to() -> None:
    app = ReplayApp("ok.json", report("pagat_example_trick_completed.json"))

    def stays(a: ReplayApp) -> None:
        assert a.frame == 0

    def no_rule(a: ReplayApp) -> None:
        assert "no rule was broken, so there is no rule text to show" in a.shown["rule"]

    def at_end(a: ReplayApp) -> None:
        assert a.frame == a.frames - 1

    drive(app, [(("v",), stays), (("r",), no_rule), (("end",), at_end)])


def test_quit_ends_the_app() -> None:
    app = ReplayApp("beat.json", report("illegal_phase2_beat.json"))

    async def go() -> None:
        async with app.run_test() as pilot:
            await pilot.press("q")
            await pilot.pause()
            assert not app.is_running

    asyncio.run(go())


def test_the_command_starts_the_app_at_the_step_asked(monkeypatch) -> None:
    from adjudicator.render import tui

    started: list[ReplayApp] = []
    monkeypatch.setattr(tui.ReplayApp, "run", lambda self: started.append(self))
    monkeypatch.setattr("adjudicator.cli.commands._has_terminal", lambda: True)
    result = CliRunner().invoke(
        main,
        [
            "replay",
            "-i",
            "--as",
            "B",
            "--step",
            "1",
            str(ROOT / "sample_games" / "illegal_phase2_beat.json"),
        ],
    )
    assert result.exit_code == 1  # the record's verdict
    (app,) = started
    assert app.viewer == "B" and app.frame == 1


def test_go_to_an_action_by_number_and_keys_shown() -> None:
    app = ReplayApp("goat.json", report("goat_8p_full.json"))

    def keys_listed(a: ReplayApp) -> None:
        where = a.shown["where"]
        assert "Home start" in where and "End end" in where and "g go to action N" in where

    def at_sixty(a: ReplayApp) -> None:
        assert a.report.steps[a.frame - 1].index == 59  # the 60th action
        assert "Action 60 · the record's actions are 1-478" in a.shown["where"]

    def not_an_action(a: ReplayApp) -> None:
        assert a.report.steps[a.frame - 1].index == 59  # unchanged

    drive(
        app,
        [
            ((), keys_listed),
            (("g", "6", "0", "enter"), at_sixty),
            (("g", "9", "9", "9", "9", "enter"), not_an_action),
            (("g", "x", "escape"), not_an_action),
        ],
    )


def test_interactive_without_a_terminal_says_so_and_does_not_start(tmp_path: Path) -> None:

    out = tmp_path / "out.txt"
    with out.open("w") as sink:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "adjudicator",
                "replay",
                "--interactive",
                str(ROOT / "sample_games" / "illegal_phase2_beat.json"),
            ],
            stdin=subprocess.DEVNULL,
            stdout=sink,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            check=False,
        )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "--interactive needs a terminal (standard input and output are not one): "
        "leave it out to print the replay"
    ]
    assert out.read_text() == ""


@pytest.mark.parametrize("name", MARKUP_NAMES)
def test_a_name_is_text_in_the_interactive_replay(games: list[dict[str, Any]], name: str) -> None:
    document = document_from_text(json.dumps(with_loser_named(games[0], name)))
    app = ReplayApp("r.json", adjudicate(document, steps=True), viewer=name)

    async def go() -> None:
        async with app.run_test(size=(110, 60)) as pilot:
            await pilot.pause()
            assert name in app.shown["step"]  # the start: the players' table
            assert name in app.shown["where"]
            await pilot.press("end")
            await pilot.pause()
            assert f"{name} is the loser" in app.shown["step"]

    asyncio.run(go())
