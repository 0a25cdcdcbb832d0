"""Where a comment is shown and kept (issue 40, item 2): ``check --json`` on a violation,
``replay`` in the terminal, the ``replay --html`` page, ``--write-*``.  The page's own
control is tested in a browser (tests/web/test_page_notes.py)."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from conftest import DISPUTE

from adjudicator.cli.commands import main

MARKUP = "[bold red]Bo[/] objects </script><img src=x onerror=alert(1)>"


def noted(comment: str = "Bo objects") -> dict[str, Any]:
    record = copy.deepcopy(DISPUTE)
    record["_club"] = "Tuesdays"
    record["actions"][0] = {"player": "Anna", "act": "play", "cards": ["6D"], "_seat": 1}
    record["actions"][2] = "Cai play 8C 9C {" + comment + "}"
    return record


def run(*args: str, record: dict[str, Any]) -> Any:
    return CliRunner().invoke(main, list(args), input=json.dumps(record))


def test_check_json_carries_the_comment_on_the_violation() -> None:
    result = run("check", "--json", "-", record=noted())
    assert result.exit_code == 1
    (v,) = json.loads(result.output)["violations"]
    assert v["index"] == 2 and v["comment"] == "Bo objects"
    assert v["action"] == "Cai play 8C 9C"  # the action alone, as before
    plain = json.loads(run("check", "--json", "-", record=DISPUTE).output)
    assert "comment" not in plain["violations"][0]  # left out where there is none


def test_a_comment_changes_no_verdict() -> None:
    with_note = json.loads(run("check", "--json", "-", record=noted()).output)
    without = json.loads(run("check", "--json", "-", record=DISPUTE).output)
    del with_note["violations"][0]["comment"]
    assert with_note == without


def test_replay_shows_the_comment_under_its_step_as_plain_text() -> None:
    result = run("replay", "-", record=noted(MARKUP))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("[3] "))  # the third action
    assert lines[at + 1] == "  Note: " + MARKUP  # rich read no markup in it
    multi = run("replay", "-", record=noted("first\nsecond")).output.splitlines()
    at = next(i for i, line in enumerate(multi) if line.startswith("[3] "))  # the third action
    assert multi[at + 1 : at + 3] == ["  Note: first", "    second"]


def test_the_html_page_carries_the_comment_escaped(tmp_path: Path) -> None:
    source = tmp_path / "noted.json"
    source.write_text(json.dumps(noted(MARKUP)), encoding="utf-8")
    target = tmp_path / "r.html"
    assert CliRunner().invoke(main, ["replay", "--html", str(target), str(source)]).exit_code == 1
    page = target.read_text(encoding="utf-8")
    assert "</script><img" not in page  # the comment cannot close the script it rides in
    found = re.search(r'<script type="application/json" id="embedded">(.*?)</script>', page, re.S)
    assert found is not None
    data = json.loads(found.group(1))
    assert data["steps"][2]["comment"] == MARKUP
    assert "comment" not in data["steps"][1]
    assert data["record"]["_club"] == "Tuesdays"  # the record as the canonical form keeps it
    assert data["record"]["actions"][0]["_seat"] == 1
    assert data["record"]["actions"][2].endswith("{" + MARKUP + "}")
    # one player's file: a note is free text that may name any hand, so it holds none
    mine = tmp_path / "anna.html"
    CliRunner().invoke(main, ["replay", "--as", "Anna", "--html", str(mine), str(source)])
    assert "bold red" not in mine.read_text(encoding="utf-8")


def test_write_illegal_keeps_comments_and_the_users_keys(tmp_path: Path) -> None:
    source = tmp_path / "noted.json"
    source.write_text(json.dumps(noted(), indent=2), encoding="utf-8")
    target = tmp_path / "illegal.jsonl"
    result = CliRunner().invoke(main, ["check", "--write-illegal", str(target), str(source)])
    assert result.exit_code == 1
    (line,) = target.read_text(encoding="utf-8").splitlines()
    assert json.loads(line) == noted()


def test_the_pages_replay_carries_comments_only_in_everyones_view() -> None:
    from adjudicator.service import page as calls

    text = json.dumps(noted())
    everyone = calls.replay(text)
    assert [s.get("comment") for s in everyone["steps"]] == [None, None, "Bo objects"]
    assert everyone["check"]["violations"][0]["comment"] == "Bo objects"
    anna = calls.replay(text, viewer="Anna")  # one player's view: no free text of any hand
    assert "Bo objects" not in json.dumps(anna)


def test_check_prints_the_comment_under_the_violation() -> None:
    lines = run("check", "-", record=noted(MARKUP)).output.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("✗ illegal action 3"))
    assert "  Note: " + MARKUP in lines[at:]


def test_replay_as_one_player_shows_no_comment(tmp_path: Path) -> None:
    result = run("replay", "--as", "Anna", "-", record=noted(MARKUP))
    assert result.exit_code == 1 and "objects" not in result.output
    target = tmp_path / "anna.svg"
    source = tmp_path / "noted.json"
    source.write_text(json.dumps(noted(MARKUP)), encoding="utf-8")
    CliRunner().invoke(main, ["replay", "--as", "Anna", "--svg", str(target), str(source)])
    assert "objects" not in target.read_text(encoding="utf-8")
    everyone = tmp_path / "all.svg"
    CliRunner().invoke(main, ["replay", "--svg", str(everyone), str(source)])
    assert "objects" in everyone.read_text(encoding="utf-8")
