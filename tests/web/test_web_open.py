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
from click.testing import CliRunner
from conftest import NONE_LEGAL_SLUFF
from playwright.sync_api import Browser, Page, expect
from test_page import phone_tab, shots_folder
from test_web_import import (
    APP_RULES,
    GOAT,
    PHONE,
    SAMPLE,
    app_db,
    open_screen,
    paste_and_open,
    sent,
)
from web_browser import LAYOUT

from adjudicator import i18n
from adjudicator.cli.commands import main
from adjudicator.service import page as calls


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    """A phone: 390×844, touch; the page's script errors fail the test."""
    yield from phone_tab(browser)


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go (test_page's rule): a temporary folder unless
    ADJUDICATOR_SHOTS names one."""
    return shots_folder(tmp_path_factory)


def shot(page: Page, name: str, folder: Path) -> None:
    """A screenshot of what the test saw (what a 390×844 phone shows)."""
    page.screenshot(path=str(folder / f"{name}.png"))


# --- the ruling: the legal actions are the next player's ------------------------------------


def test_the_ruling_says_whose_the_legal_actions_are(phone: Page, base: str, shots: Path) -> None:
    """Anna had no legal sluff; Cai's take was "What could have been played" (issue 40)."""
    open_screen(phone, base + "/")
    paste_and_open(phone, json.dumps(NONE_LEGAL_SLUFF))
    ruling = phone.locator("#ruling .violation")
    expect(ruling).to_contain_text("Nothing was legal for Anna there", timeout=300_000)
    expect(ruling.locator(".next-to-act")).to_have_text("Next, Cai to act:")
    expect(ruling.locator(".alternatives")).to_have_text("Cai takes the trick")
    expect(ruling).not_to_contain_text("What could have been played")
    shot(phone, "ruling-next-to-act", shots)


# --- a picked file, then the Open button ----------------------------------------------------


def idle(page: Page) -> None:
    """The page's tap done: a pick made while one is judged is dropped, as a double tap."""
    expect(page.locator("body")).not_to_have_attribute("aria-busy", "true")


def in_view(page: Page, selector: str) -> bool:
    """Whether the element is on the screen whole (a phone's 844 px), not below the fold."""
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return bool(box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"])


def test_open_after_a_pick_opens_the_picked_file_and_the_list_is_in_view(
    phone: Page, base: str, tmp_path: Path, shots: Path
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
    shot(phone, "picked-db-list", shots)
    phone.get_by_role("button", name="Open", exact=True).click()
    expect(phone.locator("body")).not_to_have_attribute("aria-busy", "true")
    expect(phone.locator("#paste-fault")).to_have_count(0)
    expect(phone.locator("#log-list button")).to_have_count(2)
    assert in_view(phone, "#log-list li:first-child")
    # a database with its write-ahead log (two files): Open reads both again
    running = app_db(tmp_path / "live.db", games=1, pending=1)
    idle(phone)
    phone.set_input_files("#file", [str(running), f"{running}-wal"])
    expect(phone.locator("#log-list button")).to_have_count(2)
    idle(phone)
    phone.locator("#log-list").evaluate("list => list.replaceChildren()")
    phone.get_by_role("button", name="Open", exact=True).click()
    expect(phone.locator("#log-list button")).to_have_count(2)
    expect(phone.locator("#paste-fault")).to_have_count(0)
    idle(phone)
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


# --- the records check --write-illegal writes (JSON Lines) ----------------------------------

SAMPLES = SAMPLE.parent


def written_illegal(tmp_path: Path) -> Path:
    """What ``check A B --write-illegal FILE`` writes for two illegal records: JSON Lines."""
    mine = tmp_path / "sluff.json"
    mine.write_text(json.dumps(NONE_LEGAL_SLUFF))
    out = tmp_path / "ill.jsonl"
    beat = SAMPLES / "illegal_phase2_beat.json"
    result = CliRunner().invoke(main, ["check", str(mine), str(beat), "--write-illegal", str(out)])
    assert result.exit_code == 1, result.output
    assert len(out.read_text().splitlines()) == 2
    return out


def test_the_records_write_illegal_writes_are_listed_by_line_and_verdict(tmp_path: Path) -> None:
    out = written_illegal(tmp_path)
    answer = calls.imported(sent(out.read_bytes(), "ill.jsonl"))
    assert answer["format"] == "records"
    first, second = answer["games"]
    assert first["name"] == "line 1" and first["record"] == NONE_LEGAL_SLUFF
    assert first["about"] == "goat · Anna, Bo, Cai · illegal at action 8: phase1.sluff.rank"
    assert second["name"] == "line 2" and "illegal at action" in second["about"]
    # pasted, and with a line cut short: that line is named by its number
    text = out.read_text() + '{"format": "skitgubbe-record/1", "vari\n'
    cut = calls.imported(json.dumps({"text": text}))["games"]
    assert [g["name"] for g in cut] == ["line 1", "line 2", "line 3"]
    assert cut[2]["error"].startswith("not JSON: the text ends early")
    with i18n.speaking("sv"):
        swedish = calls.imported(json.dumps({"text": text}))["games"]
    assert swedish[0]["name"] != "line 1" and "phase1.sluff.rank" in swedish[0]["about"]
    # one record, whole JSON (even pretty), and a first line that is no record: as before
    assert calls.imported(json.dumps({"text": SAMPLE.read_text()}))["format"] is None
    assert calls.imported(json.dumps({"text": "notes\n" + text}))["format"] is None


def test_the_page_opens_the_records_write_illegal_writes(
    phone: Page, base: str, tmp_path: Path, shots: Path
) -> None:
    out = written_illegal(tmp_path)
    open_screen(phone, base + "/")
    phone.set_input_files("#file", str(out))
    expect(phone.locator("#log-about")).to_have_text(
        "This file holds 2 records: pick one to open.", timeout=300_000
    )
    expect(phone.locator("#file-fault")).to_have_count(0)
    shot(phone, "write-illegal-picked", shots)
    assert phone.evaluate(LAYOUT) == []
    phone.get_by_role("button", name="line 1: goat · Anna, Bo, Cai · illegal at action 8").click()
    expect(phone.locator("#imported")).to_have_text(
        "line 1: goat · Anna, Bo, Cai · illegal at action 8: phase1.sluff.rank"
    )
    expect(phone.locator("#ruling")).to_contain_text("phase1.sluff.rank")
    phone.go_back()
    expect(phone.locator("#log-list button")).to_have_count(2)
    # pasted, with a broken line: the broken one is its line, the others are listed
    paste_and_open(phone, out.read_text() + "{broken\n")
    expect(phone.locator("#log-list li")).to_have_count(3)
    expect(phone.locator("#log-list .log-bad")).to_contain_text("line 3: ✗ not JSON")
    expect(phone.locator("#paste-fault")).to_have_count(0)


# --- an app's database whose players share a name ------------------------------------------


def same_names(tmp_path: Path) -> Path:
    """The app's database of two games in which Anna's profile is called Bo too."""
    db = app_db(tmp_path / "same.db", games=2)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE profiles SET name = 'Bo' WHERE id = 'p-anna'")
    return db


PAGE_NAMES = (
    "two players are called Bo, and the page cannot tell them apart: check this game at the "
    "command line, where --names gives each player a name of their own"
)


def test_players_of_one_name_are_said_in_the_pages_words(tmp_path: Path) -> None:
    db = same_names(tmp_path)
    games = calls.imported(sent(db.read_bytes(), "same.db"))["games"]
    assert [g["error"] for g in games] == [f"games#g{k}: {PAGE_NAMES}" for k in (1, 2)]
    one = app_db(tmp_path / "one.db")
    with sqlite3.connect(one) as conn:
        conn.execute("UPDATE profiles SET name = 'Bo' WHERE id = 'p-anna'")
    with pytest.raises(calls.BadInput) as refused:
        calls.imported(sent(one.read_bytes(), "one.db"))
    assert str(refused.value) == f"games#g1: {PAGE_NAMES}"
    # the command line keeps its own advice
    said = CliRunner().invoke(main, ["check", str(db)]).output
    assert "two players are called Bo; give --names" in said


def test_a_log_of_which_no_game_opens_says_so_and_each_line_shows(
    phone: Page, base: str, tmp_path: Path, shots: Path
) -> None:
    open_screen(phone, base + "/")
    phone.set_input_files("#file", str(same_names(tmp_path)))
    expect(phone.locator("#log-about")).to_have_text(
        "This log holds 2 games and none can be opened: each line says why.", timeout=300_000
    )
    expect(phone.locator("#log-list .log-bad")).to_have_count(2)
    expect(phone.locator("#log-list .log-bad").first).to_have_text(f"g1: ✗ games#g1: {PAGE_NAMES}")
    assert in_view(phone, "#log-about")
    shot(phone, "same-names", shots)


# --- Vändtia, and the game a list opened ----------------------------------------------------


def test_the_vandtia_line_on_the_page_names_no_repository_path(
    phone: Page, base: str, shots: Path
) -> None:
    record = json.loads(SAMPLE.read_text())
    record["variant"] = "Vändtia"
    said = CliRunner().invoke(main, ["check", "-"], input=json.dumps(record)).output
    assert "(see docs/other-games.md)" in said  # the command line keeps it
    open_screen(phone, base + "/")
    paste_and_open(phone, json.dumps(record))
    expect(phone.locator("#paste-fault")).to_have_text(
        "variant: 'Vändtia' is Vändtia (Palace), a different game also called Skitgubbe; "
        "this tool judges the two-phase Skitgubbe family"
    )
    phone.select_option("#lang", "sv")  # the page loads again in Swedish, at Open record
    phone.wait_for_selector("html[lang=sv] body[data-ready=true]")
    phone.fill("#paste", json.dumps(record))
    phone.click("#open")
    expect(phone.locator("#paste-fault")).to_contain_text("Vändtia (Palace)")
    expect(phone.locator("#paste-fault")).not_to_contain_text("docs/")
    shot(phone, "vandtia-sv", shots)


def test_a_game_opened_from_a_list_is_named_and_the_box_is_emptied(
    phone: Page, base: str, tmp_path: Path, shots: Path
) -> None:
    open_screen(phone, base + "/")
    phone.set_input_files("#file", str(app_db(tmp_path / "app.db", games=2)))
    phone.get_by_role(
        "button", name="g2 (Game 2): Read a game of the albined/skitgubbe app"
    ).click()
    expect(phone.locator("#imported")).to_have_text(
        "g2 (Game 2): Read a game of the albined/skitgubbe app: 2 players, 2 moves" + APP_RULES
    )
    shot(phone, "db-game-named", shots)
    phone.go_back()
    paste_and_open(phone, "{ not a record")
    expect(phone.locator("#paste-fault")).to_be_visible()
    expect(phone.locator("#paste")).to_have_value("{ not a record")  # refused: it stays
    paste_and_open(phone, SAMPLE.read_text())
    expect(phone.locator("#screen-table")).to_be_visible()
    phone.go_back()
    expect(phone.locator("#screen-open")).to_be_visible()
    expect(phone.locator("#paste")).to_have_value("")  # opened: the box is empty


# --- the static site: the same page on the phone's own engine -------------------------------


def test_the_static_site_opens_a_pick_again_and_the_written_records(
    folder: Path, browser: Browser, tmp_path: Path
) -> None:
    """In the phone (Pyodide): Open after a pick lists its games again; the records
    ``--write-illegal`` wrote are listed, and one opens with its ruling's next player."""
    from test_site import phone as site_phone
    from test_site import static_server

    db = app_db(tmp_path / "app.db", games=2)
    written = written_illegal(tmp_path)
    with static_server(folder) as (origin, _), site_phone(browser, origin) as (context, outside):
        tab = context.new_page()
        errors: list[str] = []
        tab.on("pageerror", lambda e: errors.append(str(e)))
        open_screen(tab, origin + "/")
        tab.set_input_files("#file", str(db))
        expect(tab.locator("#log-list button")).to_have_count(2, timeout=300_000)
        idle(tab)
        tab.get_by_role("button", name="Open", exact=True).click()
        idle(tab)
        expect(tab.locator("#paste-fault")).to_have_count(0)
        expect(tab.locator("#log-list button")).to_have_count(2)
        tab.set_input_files("#file", str(written))
        expect(tab.locator("#log-about")).to_have_text(
            "This file holds 2 records: pick one to open."
        )
        tab.get_by_role("button", name="line 1: goat").click()
        expect(tab.locator("#ruling .next-to-act")).to_have_text("Next, Cai to act:")
        expect(tab.locator("#imported")).to_contain_text("line 1: goat · Anna, Bo, Cai")
    assert not errors, errors
    assert not outside, f"requests left the origin: {outside}"


def test_a_record_line_is_titled_by_its_apps_name_for_the_game() -> None:
    """A record converted from an app's log keeps the app's name for the game in ``meta``:
    the list names it beside the line (``line 2 (Friday)``)."""
    named = {**NONE_LEGAL_SLUFF, "meta": {"game_id": "g2"}}
    dated = {**json.loads(SAMPLE.read_text()), "meta": {"event": "Friday", "game_id": "k3"}}
    plain = json.loads(SAMPLE.read_text())
    text = "\n".join(json.dumps(r) for r in (named, dated, plain))
    games = calls.imported(json.dumps({"text": text}))["games"]
    assert [g.get("title") for g in games] == ["g2", "Friday", None]
