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
from test_web_import import APP_RULES, GOAT, PHONE, SAMPLE, app_db, open_screen, paste_and_open
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
