"""One way to count (docs/record-format.md, Counting): every sentence a person reads and every
option a person types count a session's games from 1, as they count actions and as the page
does ("Game 1: Dag lost", ``&game=1``); JSON's ``game`` counts from 0, like ``index``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from adjudicator import record
from adjudicator.cli import numbers
from adjudicator.cli.commands import main
from adjudicator.conformance import perft
from adjudicator.play import legal
from adjudicator.play.adjudicate import adjudicate_session
from adjudicator.record import Session
from adjudicator.service import page

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
SESSION = SAMPLES / "goat_session_3_games.json"


def run(*args: str) -> click.testing.Result:
    return CliRunner().invoke(main, list(args))


def session() -> Session:
    document = record.load(str(SESSION))
    assert isinstance(document, Session)
    return document


def test_check_says_the_games_from_1() -> None:
    result = run("check", str(SESSION))
    lines = result.stdout.splitlines()
    assert lines[1].startswith("  game 1: legal")
    assert lines[1].endswith("loser Dag")  # the page's "Game 1: Dag lost"
    assert lines[3].startswith("  game 3: legal")
    assert not any("game 0" in line for line in lines)
    assert lines[5].split() == ["player", "game", "1", "game", "2", "game", "3", "total"]


def test_check_json_keeps_the_game_from_0(tmp_path: Path) -> None:
    """JSON's ``game`` is documented as counted from 0, like ``index``."""
    data = json.loads(SESSION.read_text(encoding="utf-8"))
    data["games"][1]["actions"][1] = "Bo play 5D"  # not Bo's turn: game 2, action 2
    bad = tmp_path / "night.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    verdict = json.loads(run("check", "--json", str(bad)).stdout)
    illegal = [v for v in verdict["violations"] if v["rule"] == "turn.order"]
    assert [(v["game"], v["index"]) for v in illegal] == [(1, 1)]
    text = run("check", str(bad)).stdout
    assert "✗ illegal game 2, action 2: Bo play 5D" in text
    assert "game 1: illegal" not in text
    assert "  game 2: illegal" in text


def test_replay_heads_each_game_from_1() -> None:
    lines = run("replay", str(SESSION)).stdout.splitlines()
    heads = [line for line in lines if re.fullmatch(r"Game \d+", line)]
    assert heads == ["Game 1", "Game 2", "Game 3"]


def test_game_k_is_the_kth_game() -> None:
    played = adjudicate_session(session()).played
    result = run("legal", str(SESSION), "--game", "1", "--json")
    assert result.exit_code == 0, result.output
    shown = json.loads(result.stdout)
    assert shown["file"].endswith("goat_session_3_games.json game 1")
    assert shown["actions"] == len(played[0].actions)
    assert run("replay", str(SESSION), "--game", "3").exit_code == 0
    last = json.loads(run("legal", str(SESSION), "--json").stdout)  # default: the last
    assert last["file"].endswith(" game 3") and last["actions"] == len(played[2].actions)


@pytest.mark.parametrize("command", ["replay", "legal"])
def test_a_game_past_the_session_says_its_games_from_1(command: str) -> None:
    result = run(command, str(SESSION), "--game", "4")
    assert result.exit_code == 2
    assert result.stderr.strip() == "--game 4: the session has games 1-3"
    zero = run(command, str(SESSION), "--game", "0")
    assert zero.exit_code == 2
    assert zero.stderr.strip() == "--game 0: must be a whole number from 1 to 1,000,000,000"


def test_perft_counts_game_k_from_1() -> None:
    first = legal.position(session().games[0], 0).state
    counts = perft.perft(first, 2)
    result = run("perft", str(SESSION), "--game", "1", "--at", "1", "--depth", "2")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [f"depth {d}: {c}" for d, c in enumerate(counts, 1)]
    past = run("perft", str(SESSION), "--game", "4", "--depth", "1")
    assert past.exit_code == 2
    assert past.stderr.strip() == "--game 4: the session has games 1-3"


def test_the_hint_names_the_file_and_the_game_from_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hint was "'adjudicator legal "night.json game 1" --at 2 --game 1'": a file that
    does not exist, and the game counted from 0."""
    data = json.loads(SESSION.read_text(encoding="utf-8"))
    data["games"][1]["actions"][1] = "Bo play 5D"  # not Bo's turn: game 2, action 2
    (tmp_path / "night.json").write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = run("legal", "night.json", "--game", "2", "--at", "5")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == (
        "night.json game 2: action 2 is illegal, so the game never got past it; "
        "'adjudicator legal night.json --at 2 --game 2' lists what was legal there"
    )


def test_who_leads_is_said_with_the_games_from_1() -> None:
    text = run("check", str(SAMPLES / "illegal_session_leader_unknown_after.json")).stdout
    assert "Anna leads game 2, but the previous game's loser (Dag) leads the next game" in text
    assert "Game 2 did not finish, so who leads game 3 is unknown" in text
    assert "✗ illegal game 2, session" in text


def test_the_page_library_names_a_sessions_last_game_from_1() -> None:
    shown = page.legal_at(SESSION.read_text(encoding="utf-8"), None, "night.json")
    assert shown["file"] == "night.json game 3"


def test_the_html_export_names_the_game_from_1(tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    result = run("replay", str(SESSION), "--game", "2", "--html", str(out))
    assert result.exit_code == 0, result.output
    html = out.read_text(encoding="utf-8")
    assert "goat_session_3_games.json game 2" in html
    assert "goat_session_3_games.json game 1" not in html


@pytest.mark.parametrize(
    ("command", "option"),
    [
        ("replay", "--step"),
        ("replay", "--to"),
        ("replay", "--game"),
        ("legal", "--at"),
        ("legal", "--game"),
        ("perft", "--at"),
        ("perft", "--game"),
    ],
)
def test_options_counted_from_1_say_their_range_from_1(command: str, option: str) -> None:
    """``--at 0`` was refused by the record's range while the help and the helper's line
    said 0 was allowed."""
    param = next(p for p in main.commands[command].params if option in p.opts)
    assert param.type is numbers.POSITION
    help_text = " ".join(run(command, "--help").stdout.split())
    assert "[1<=x<=1000000000]" in help_text
    assert "[0<=x<=1000000000]" not in help_text
    extra = ["--depth", "1"] if command == "perft" else []
    result = run(command, str(SESSION), *extra, option, "0")
    assert result.exit_code == 2
    assert result.stderr.strip() == f"{option} 0: must be a whole number from 1 to 1,000,000,000"


def test_legal_says_a_sessions_game_in_the_language_and_files_it_in_one_form() -> None:
    """The header a person reads names the game in their language ('- parti 3'); JSON's
    ``file`` keeps one form in every language ('- game 3'), as the API's does."""
    session = (SAMPLES / "goat_session_3_games.json").read_text(encoding="utf-8")
    said = CliRunner().invoke(main, ["legal", "--lang", "sv", "-"], input=session)
    assert said.stdout.splitlines()[0].startswith("- parti 3 · "), said.stdout
    filed = CliRunner().invoke(main, ["legal", "--json", "--lang", "sv", "-"], input=session)
    assert json.loads(filed.stdout)["file"] == "- game 3"
