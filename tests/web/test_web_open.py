"""What a stranger met on the page's Open record and ruling, cold (issue 40): a picked file
opened by the Open button, whose actions "What could have been played" lists, the records
``check --write-illegal`` writes (JSON Lines), an app's database whose players share a
name, the Vändtia line, and the name of a game opened from a log's list.  Chromium at
390 px, as tests/web/test_web_import.py drives it."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import NONE_LEGAL_SLUFF
from playwright.sync_api import Browser, Page, expect
from test_web_import import APP_RULES, GOAT, PHONE, SAMPLE, app_db, open_screen, paste_and_open  # noqa: F401
from web_browser import LAYOUT

from adjudicator import i18n
from adjudicator.service import page as calls

SHOTS = Path("/tmp/stranger-page-shots")


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport=PHONE, has_touch=True)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda e: errors.append(str(e)))
    yield tab
    assert not errors, errors
    context.close()


def shot(page: Page, name: str) -> None:
    """A screenshot of what the test saw, outside the checkout (docs/page.md, Screenshots)."""
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


# --- the ruling: the legal actions are the next player's ------------------------------------


def test_the_ruling_says_whose_the_legal_actions_are(phone: Page, base: str) -> None:
    """Anna had no legal sluff; Cai's take was "What could have been played" (issue 40)."""
    open_screen(phone, base + "/")
    paste_and_open(phone, json.dumps(NONE_LEGAL_SLUFF))
    ruling = phone.locator("#ruling .violation")
    expect(ruling).to_contain_text("Nothing was legal for Anna there", timeout=300_000)
    expect(ruling.locator(".next-to-act")).to_have_text("Next, Cai to act:")
    expect(ruling.locator(".alternatives")).to_have_text("Cai takes the trick")
    expect(ruling).not_to_contain_text("What could have been played")
    shot(phone, "ruling-next-to-act")


# --- a picked file, then the Open button ----------------------------------------------------


def in_view(page: Page, selector: str) -> bool:
    """Whether the element is on the screen whole (a phone's 844 px), not below the fold."""
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return bool(box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"])


def test_open_after_a_pick_opens_the_picked_file_and_the_list_is_in_view(
    phone: Page, base: str, tmp_path: Path
) -> None:
    """Pick a database, then tap Open (the obvious next tap): the list stayed, where the box
    said "the box is empty" and the games vanished (issue 40)."""
    open_screen(phone, base + "/")
    phone.set_input_files("#file", str(app_db(tmp_path / "app.db", games=2)))
    expect(phone.locator("#log-about")).to_have_text(
        "This log holds 2 games: pick one to open.", timeout=300_000
    )
    expect(phone.locator("body")).not_to_have_attribute("aria-busy", "true")
    assert in_view(phone, "#log-list li:first-child"), "the list is below the fold"
    assert in_view(phone, "#log-about")
    shot(phone, "picked-db-list")
    phone.get_by_role("button", name="Open", exact=True).click()
    expect(phone.locator("body")).not_to_have_attribute("aria-busy", "true")
    expect(phone.locator("#paste-fault")).to_have_count(0)
    expect(phone.locator("#log-list button")).to_have_count(2)
    assert in_view(phone, "#log-list li:first-child")
    # a database with its write-ahead log (two files): Open reads both again
    running = app_db(tmp_path / "live.db", games=1, pending=1)
    phone.set_input_files("#file", [str(running), f"{running}-wal"])
    expect(phone.locator("#log-list button")).to_have_count(2)
    phone.locator("#log-list").evaluate("list => list.replaceChildren()")
    phone.get_by_role("button", name="Open", exact=True).click()
    expect(phone.locator("#log-list button")).to_have_count(2)
    expect(phone.locator("#paste-fault")).to_have_count(0)
    # one game picked: Open opens it; a fault about a pick is on the screen too
    phone.set_input_files("#file", str(GOAT))
    expect(phone.locator("#screen-table")).to_be_visible()
    phone.go_back()
    expect(phone.locator("#screen-open")).to_be_visible()
    phone.get_by_role("button", name="Open", exact=True).click()
    expect(phone.locator("#screen-table")).to_be_visible()
    expect(phone.locator("#imported")).to_contain_text("Read a Goat app log")
    phone.go_back()
    expect(phone.locator("#screen-open")).to_be_visible()
    picture = tmp_path / "photo.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe")
    phone.set_input_files("#file", str(picture))
    expect(phone.locator("#file-fault")).to_be_visible()
    assert in_view(phone, "#file-fault")
    # text in the box wins over the picked file, as before
    paste_and_open(phone, SAMPLE.read_text())
    expect(phone.locator("#screen-table")).to_be_visible()
    expect(phone.locator("#imported")).to_be_hidden()
