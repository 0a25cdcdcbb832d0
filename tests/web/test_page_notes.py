"""The page's notes (issue 40, item 2) in Chromium at phone width (390 px).

A comment from the record shows under the step it is written beside, as text (never as
markup); "Add a note" types one onto the action shown, and the address's link carries it
back with every key of the user's.  The page and its browser run as tests/web/test_page.py
runs them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import DISPUTE
from playwright.sync_api import Browser, Page, expect
from web_browser import LAYOUT, link, unlink

from adjudicator.record import load_record

PHONE = {"width": 390, "height": 844}
HOSTILE = "<img/src=x/onerror=alert(1)> [bold]no markup[/]"


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport=PHONE)
    tab = context.new_page()
    dialogs: list[str] = []
    errors: list[str] = []
    tab.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    tab.on("pageerror", lambda e: errors.append(str(e)))
    yield tab
    assert not dialogs and not errors, (dialogs, errors)
    context.close()


def noted_dispute() -> dict[str, Any]:
    record: dict[str, Any] = json.loads(json.dumps(DISPUTE))
    record["_club"] = {"table": 3}
    record["start"]["_dealt"] = "by hand"
    record["actions"][2] = "Cai play 8C 9C {" + HOSTILE + "}"
    return record


def test_a_comment_shows_under_its_step_as_text(page: Page, base: str) -> None:
    page.goto(base + "/" + link(noted_dispute()))
    page.wait_for_selector(".violation")  # the ruling opens at the disputed action, #2
    shown = page.locator("#ruling .comment")
    assert shown.count() == 1 and HOSTILE in shown.inner_text()
    listed = page.locator("#steps .comment")
    assert listed.count() == 1 and HOSTILE in listed.inner_text()
    assert page.evaluate("document.querySelectorAll('img').length") == 0
    problems = page.evaluate(LAYOUT)
    assert problems == [], problems[:8]
    page.locator("#steps button.step").first.click()  # action 1: no comment beside it
    assert page.locator("#ruling .comment").count() == 0


def test_add_a_note_types_one_onto_the_action_shown(page: Page, base: str) -> None:
    record = noted_dispute()
    record["actions"][2] = "Cai play 8C 9C"
    page.goto(base + "/" + link(record))
    page.wait_for_selector(".violation")
    page.locator("#steps button.step").nth(1).click()  # Bo's run, action 2 of 3
    page.get_by_role("button", name="Add a note").click()
    note = "Bo: is it {a run}? C:\\cards"
    page.get_by_label("Note on action 2").fill(note)
    page.get_by_role("button", name="Save the note").click()
    expect(page.locator("#ruling .comment")).to_have_count(1)
    assert note in page.locator("#ruling .comment").inner_text()
    assert "Action 2 of 3" in page.locator("#where").inner_text()  # still the step noted
    problems = page.evaluate(LAYOUT)
    assert problems == [], problems[:8]
    kept = unlink(page.url)
    assert kept["actions"][1] == "Bo play 7D 8D 9D {Bo: is it {a run\\}? C:\\\\cards}"
    assert load_record(kept).comments == {1: note}
    assert kept["_club"] == {"table": 3} and kept["start"]["_dealt"] == "by hand"
    # the note is undone like any change, and the ruling never moved
    assert "illegal" in page.locator("#ruling .verdict").inner_text()
    page.locator("#undo").click()
    expect(page.locator("#ruling .comment")).to_have_count(0)
    assert unlink(page.url)["actions"][1] == "Bo play 7D 8D 9D"


def test_the_replay_html_page_shows_the_comment_as_text(page: Page, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from adjudicator.cli.commands import main

    source = tmp_path / "noted.json"
    source.write_text(json.dumps(noted_dispute()), encoding="utf-8")
    target = tmp_path / "ruling.html"
    assert CliRunner().invoke(main, ["replay", str(source), "--html", str(target)]).exit_code == 1
    page.goto(target.as_uri())  # no server: the replay is in the file
    page.wait_for_selector(".violation")
    assert HOSTILE in page.locator("#ruling .comment").inner_text()
    assert page.locator("#note-open").count() == 0  # a saved page adds no note
    assert page.evaluate("document.querySelectorAll('img').length") == 0
    problems = page.evaluate(LAYOUT)
    assert problems == [], problems[:8]
