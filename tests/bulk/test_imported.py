"""One game of a file named as ``check`` names it (issue 40): ``FILE#gameId`` and
``FILE:LINE`` read by ``check``, ``replay`` and ``legal`` alike, a broken line said as
broken and never offered as a game, a name that matches nothing answered with the games
there are.  The logs are tests/importers/import_logs/goat_batch.jsonl's games (g-legal,
g-badcard, g-nobody) and lines cut from them."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from adjudicator.cli.commands import main

LOGS = Path(__file__).parents[1] / "importers" / "import_logs"
BATCH = LOGS / "goat_batch.jsonl"
LEGAL, BADCARD, NOBODY = BATCH.read_text().splitlines()


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def cut_last(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The three games, then a fourth line cut short (the stranger's many.jsonl), named
    from its folder: the lines a person reads are then short enough to be whole."""
    monkeypatch.chdir(tmp_path)
    path = Path("many.jsonl")
    path.write_text("\n".join([LEGAL, BADCARD, NOBODY, LEGAL[:40]]) + "\n")
    return path


@pytest.fixture
def cut_second(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The broken line second: it was offered as the game to name."""
    monkeypatch.chdir(tmp_path)
    path = Path("many4.jsonl")
    path.write_text("\n".join([BADCARD, LEGAL[:40], LEGAL, NOBODY]) + "\n")
    return path


@pytest.mark.parametrize("command", [["replay"], ["replay", "--from", "goat-events"]])
def test_a_game_named_replays_past_a_broken_line(cut_last: Path, command: list[str]) -> None:
    # was: "many.jsonl#g-legal: invalid · many.jsonl holds 2 games: name one as ..."
    result = run(*command, f"{cut_last}#g-legal", "--step", "1")
    assert result.exit_code == 0, result.output
    assert "u-anna" in result.output


def test_legal_at_a_game_named_past_a_broken_line(cut_second: Path) -> None:
    result = run("legal", f"{cut_second}#g-legal", "--at", "1")
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"{cut_second}#g-legal · before action 1")


def test_a_game_that_cannot_be_converted_is_its_own_line_named_as_check_names_it(
    cut_second: Path, tmp_path: Path
) -> None:
    result = run("replay", f"{cut_second}#g-badcard")
    assert result.exit_code == 2
    assert result.output.startswith(f"{cut_second}#g-badcard: invalid · ")
    assert "'ZZ' is not a card" in result.output
    # a file of one such game: replay named it 'FILE', check 'FILE#gameId'
    one = tmp_path / "one.json"
    one.write_text(BADCARD)
    checked = run("check", str(one)).output.split(": invalid")[0]
    for command in ("replay", "legal"):
        said = run(command, str(one))
        assert said.exit_code == 2
        assert said.output.split(": invalid")[0] == checked == f"{one}#g-badcard"


def test_a_name_matching_no_game_lists_the_games_and_the_broken_line_apart(
    cut_last: Path, cut_second: Path
) -> None:
    result = run("replay", f"{cut_last}#nope")
    assert result.exit_code == 2
    line = result.output.strip()
    assert line == (
        f"{cut_last}#nope: invalid · no game 'nope' in {cut_last}; its games: "
        f"{cut_last}#g-legal, {cut_last}#g-badcard, {cut_last}#g-nobody; "
        f"{cut_last}:4 could not be read, and is no game to name"
    )
    several = run("replay", str(cut_second)).output
    assert f"name one as {cut_second}#g-badcard" in several
    assert f"name one as {cut_second}:2" not in several
    assert f"{cut_second}:2 could not be read, and is no game to name" in several


def test_check_takes_a_game_named_as_it_names_it(cut_last: Path, tmp_path: Path) -> None:
    plain = run("check", "--all", str(cut_last)).output.splitlines()
    names = [line.split(": ")[0] for line in plain if ": " in line and " · " in line]
    games = [f"{cut_last}#g-legal", f"{cut_last}#g-badcard", f"{cut_last}#g-nobody"]
    assert names == [*games, f"{cut_last}:4"]
    for name in names:
        for command in (["check"], ["check", "--from", "goat-events"]):
            pasted = run(*command, name)
            assert pasted.output.split(": ")[0] == name, (command, pasted.output)
            assert "cannot read" not in pasted.output
    legal = run("check", f"{cut_last}#g-legal")
    assert legal.exit_code == 0 and legal.output.startswith(f"{cut_last}#g-legal: legal")
    # a file whose whole name holds the '#' is read as the file it is
    odd = tmp_path / "odd#g-legal"
    odd.write_text(LEGAL)
    assert run("check", str(odd)).output.startswith(f"{odd}#g-legal: legal")


def test_a_line_of_goat_json_lines_is_its_game(cut_last: Path) -> None:
    # was: replay 'format: is required', check 'cannot read many.jsonl:2'
    for command in ("replay", "legal"):
        result = run(command, f"{cut_last}:1")
        assert result.exit_code == 0, result.output
    checked = run("check", f"{cut_last}:3")
    assert checked.output.startswith(f"{cut_last}#g-nobody: invalid · events[")
    given = run("check", "--from", "goat-events", f"{cut_last}:3")
    assert given.output == checked.output
    broken = run("replay", f"{cut_last}:4")
    assert broken.output.startswith(f"{cut_last}:4: invalid · not JSON: the text ends early")
    beyond = run("check", f"{cut_last}:9")
    assert beyond.output.startswith(f"{cut_last}:9: invalid · no record on line 9")


def test_a_line_of_records_is_checked_as_check_names_it(tmp_path: Path) -> None:
    games = tmp_path / "games.jsonl"
    games.write_text(run("simulate", "--count", "2").output)
    result = run("check", "--json", f"{games}:2")
    assert result.exit_code == 0, result.output
    verdict = json.loads(result.output)
    assert verdict["line"] == 2 and verdict["file"] == str(games)
    assert run("check", f"{games}:2").output.startswith(f"{games}:2: legal")


def a_database(path: Path) -> Path:
    """Two games of the albined app (docs/importers.md's columns), each started, the host
    playing the last card of the deck: she was dealt it."""
    conn = sqlite3.connect(path)
    conn.executescript(
        """
        CREATE TABLE profiles (id TEXT PRIMARY KEY, name TEXT);
        CREATE TABLE games (id TEXT PRIMARY KEY, initial_deck TEXT);
        CREATE TABLE game_players (game_id TEXT, profile_id TEXT, turn_order INTEGER);
        CREATE TABLE game_moves (game_id TEXT, seq INTEGER, player_id TEXT,
            move_type TEXT, cards TEXT);
        INSERT INTO profiles VALUES ('p-anna', 'Anna'), ('p-bo', 'Bo');
        """
    )
    for game in ("k1", "m2"):
        deck = list(range(52))
        random.Random(game).shuffle(deck)
        conn.execute("INSERT INTO games VALUES (?, ?)", (game, ",".join(map(str, deck))))
        conn.execute(
            "INSERT INTO game_players VALUES (?, 'p-anna', 0), (?, 'p-bo', 1)", (game,) * 2
        )
        conn.execute("INSERT INTO game_moves VALUES (?, 1, 'p-anna', 'S', NULL)", (game,))
        conn.execute("INSERT INTO game_moves VALUES (?, 2, 'p-anna', 'P', ?)", (game, deck[-1]))
    conn.commit()
    conn.close()
    return path


def test_a_game_of_the_apps_database_is_named_back_into_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    db = a_database(Path("app.db"))
    for command in (["check"], ["check", "--from", "albined-db"], ["replay"]):
        result = run(*command, f"{db}#m2")
        assert result.exit_code == 0, (command, result.output)
        assert f"{db}#m2" in result.output
    missing = run("check", f"{db}#zz")
    assert missing.exit_code == 2
    assert missing.output.strip() == (
        f"{db}#zz: invalid · no game 'zz' in {db}; its games: {db}#k1, {db}#m2"
    )


def test_a_plug_ins_game_is_read_by_its_own_reader_not_as_a_file_named_with_the_id(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from types import SimpleNamespace

    sources: list[str] = []
    record = json.loads(run("simulate").output)

    def read(source: str, options: Any) -> Any:
        from adjudicator.importers import Imported

        sources.append(source)
        for game in ("a1", "a2"):
            if options.game in (None, game):
                yield Imported(f"{source}#{game}", record=record)

    class Point:
        name, value, dist = "myapp", "fake.myapp", SimpleNamespace(name="fake")

        def load(self) -> Any:
            return SimpleNamespace(NAME="myapp", TITLE="My app", read=read)

    monkeypatch.setattr(
        "importlib.metadata.entry_points",
        lambda group: [Point()] if group == "adjudicator.importers" else [],
    )
    log = tmp_path / "my.json"
    log.write_text("{}")
    result = run("check", "--from", "myapp", f"{log}#a2")
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"{log}#a2: legal")
    assert set(sources) == {str(log)}  # was handed 'my.json#a2' as its source


def test_a_record_named_with_a_game_id_says_it_is_no_log(tmp_path: Path) -> None:
    record = tmp_path / "rec.json"
    record.write_text(run("simulate").output)
    result = run("check", f"{record}#g1")
    assert result.exit_code == 2
    assert f"{record} is no app's log but a record" in result.output


def test_an_id_the_log_repeats_is_named_by_its_line(tmp_path: Path) -> None:
    twice = tmp_path / "twice.jsonl"
    twice.write_text(LEGAL + "\n" + LEGAL + "\n")
    result = run("replay", f"{twice}#g-legal")
    assert result.exit_code == 2
    assert "names 2 games (the log repeats the id): name one by its line" in result.output
    assert run("replay", f"{twice}:2", "--step", "1").exit_code == 0


def test_a_log_whose_first_line_is_cut_short_is_still_told_a_log(tmp_path: Path) -> None:
    # the first line alone told a *.jsonl file: cut short, every game was read as a record
    # ("format: is required") and FILE#gameId as the name of a record
    log = tmp_path / "first.jsonl"
    log.write_text("\n".join([LEGAL[:40], LEGAL, BADCARD]) + "\n")
    checked = run("check", str(log)).output
    assert f"{log}:1: invalid · not JSON" in checked
    assert f"{log}#g-legal: legal" in checked and "format" not in checked
    assert run("replay", f"{log}#g-legal", "--step", "1").exit_code == 0
    records = tmp_path / "records.jsonl"  # a file of records with a line cut short stays one
    games = run("simulate", "--count", "2").output.splitlines()
    records.write_text("\n".join([games[0][:40], *games]) + "\n")
    assert f"{records}:2: legal" in run("check", str(records)).output


def test_split_name_reads_a_name_only_where_no_file_has_it(tmp_path: Path) -> None:
    from adjudicator.bulk.imported import split_name

    log = tmp_path / "games.jsonl"
    log.write_text(LEGAL)
    assert split_name(f"{log}#g1") == (str(log), "g1", None)
    assert split_name(f"{log}:3") == (str(log), None, 3)
    assert split_name(str(log)) is None and split_name("-") is None and split_name("-:3") is None
    assert split_name(f"{tmp_path}/none.jsonl#g1") is None  # no such file: read as named
    folder = tmp_path / "a#b"
    folder.mkdir()
    assert split_name(f"{tmp_path}/a#b/x.json") is None  # a '#' in a folder's name
    assert split_name(f"{tmp_path}#b/x.json") is None
