"""Open record takes an app's log (issue 40): a Goat app log pasted or picked, the albined
app's SQLite file picked, in both engines (the served page and the static site).

One function tells a log from its content (``importers.detect``), for the command line
without ``--from`` and for the page; the service converts it (``page.imported``, behind
``POST /api/import`` and the in-browser worker alike) and the page opens the game with a
line saying what it read.  The logs are the project's own (tests/importers/import_logs); the SQLite
files are written here, in the app's schema, a game of two players.
"""

from __future__ import annotations

import base64
import json
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, Page, expect
from test_page import VIEWPORTS, phone_tab
from web_browser import LAYOUT

from adjudicator import bulk, i18n, importers
from adjudicator.cli.commands import main
from adjudicator.service import page as calls
from adjudicator.service import routes
from adjudicator.web import app

LOGS = Path(__file__).resolve().parents[1] / "importers" / "import_logs"
GOAT = LOGS / "goat_3p.json"
BATCH = LOGS / "goat_batch.jsonl"
SAMPLE = Path(__file__).resolve().parents[2] / "sample_games" / "two_player_full.json"
TEXT_ONLY = LOGS / "goat_2p_text_only.json"  # legal by the app's rules, not by the treatise's
APP_RULES = " · checked by the app's own rules, as far as the options say them"
WAL_ALONE = (
    " · a database in write-ahead-log mode: moves not yet written into it are in its -wal "
    "file, picked with it"
)
SUITS = "SHDC"
RANKS = "23456789TJQKA"


def code(card: str) -> int:
    return SUITS.index(card[-1]) * 13 + RANKS.index(card[0])


def app_db(path: Path, *, wal: bool = False, games: int = 1, pending: int = 0) -> Path:
    """A database of albined/skitgubbe with ``games`` games of Anna and Bo: each started,
    and Anna (the host, turn 0) plays the first card she was dealt.  ``pending`` more
    games (WAL mode) are committed to the log only: the file and its ``-wal`` are copied
    to ``running-`` + the name while the app still holds them, and that copy returned."""
    conn = sqlite3.connect(path)
    if wal or pending:
        conn.execute("PRAGMA journal_mode=WAL")
    conn.executescript(
        """
        CREATE TABLE profiles (id TEXT PRIMARY KEY, name TEXT);
        CREATE TABLE games (id TEXT PRIMARY KEY, initial_deck TEXT, name TEXT, created_at TEXT);
        CREATE TABLE game_players (game_id TEXT, profile_id TEXT, turn_order INTEGER);
        CREATE TABLE game_moves (id INTEGER PRIMARY KEY, game_id TEXT, seq INTEGER,
            player_id TEXT, move_type TEXT, cards TEXT, created_at TEXT);
        INSERT INTO profiles VALUES ('p-anna', 'Anna'), ('p-bo', 'Bo');
        """
    )
    for k in range(games + pending):
        if k == games:
            conn.commit()
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            conn.execute("PRAGMA wal_autocheckpoint=0")
        deck = list(range(52))
        random.Random(k).shuffle(deck)
        gid = f"g{k + 1}"
        conn.execute(
            "INSERT INTO games VALUES (?, ?, ?, ?)",
            (gid, ",".join(map(str, deck)), f"Game {k + 1}", "2026-11-28"),
        )
        conn.execute("INSERT INTO game_players VALUES (?, 'p-anna', 0), (?, 'p-bo', 1)", (gid, gid))
        conn.execute(
            "INSERT INTO game_moves VALUES (NULL, ?, 1, 'p-anna', 'S', NULL, NULL)", (gid,)
        )
        conn.execute(
            "INSERT INTO game_moves VALUES (NULL, ?, 2, 'p-anna', 'P', ?, NULL)",
            (gid, str(deck[-1])),
        )
    conn.commit()
    if pending:
        running = path.with_name("running-" + path.name)
        running.write_bytes(path.read_bytes())
        Path(f"{running}-wal").write_bytes(Path(f"{path}-wal").read_bytes())
        conn.close()
        return running
    conn.close()
    return path


def sent(content: bytes, name: str) -> str:
    return json.dumps({"data": base64.b64encode(content).decode(), "name": name})


# --- one detection, for the command line and the page -------------------------------------


def test_detect_tells_each_log_and_no_record(tmp_path: Path) -> None:
    assert importers.detect(GOAT.read_bytes()) == "goat-events"
    assert importers.detect(BATCH.read_text()) == "goat-events"  # JSON Lines
    events = json.loads(GOAT.read_text())["events"]
    assert importers.detect(json.dumps(events)) == "goat-events"  # a bare event array
    assert importers.detect(app_db(tmp_path / "app.db").read_bytes()) == "albined-db"
    assert importers.detect(SAMPLE.read_bytes()) is None  # a record is no log
    # a replay message whose events are wrong is still a Goat log: the importer says why
    assert importers.detect('{"type": "replay", "events": "none"}') == "goat-events"
    assert importers.detect(b"\xff\xfe not text") is None
    assert importers.detect("https://x.org/#record=abc") == "link"
    assert importers.detect_file(str(GOAT)) == "goat-events"
    assert importers.detect_file(str(BATCH)) == "goat-events"  # its first line only
    assert importers.detect_file(str(SAMPLE)) is None
    assert importers.detect_file(str(tmp_path)) is None  # a folder: records, as before
    assert importers.detect_file(str(GOAT), max_size=100) is None  # too big: the reader says


def test_check_replay_and_legal_read_a_log_without_from(tmp_path: Path) -> None:
    runner = CliRunner()
    plain = runner.invoke(main, ["check", str(GOAT)])
    given = runner.invoke(main, ["check", "--from", "goat-events", str(GOAT)])
    assert plain.exit_code == given.exit_code == 0, plain.output
    assert plain.output == given.output and "legal" in plain.output
    batch = runner.invoke(main, ["check", str(BATCH), str(SAMPLE)])
    assert batch.exit_code == 2  # two games of the batch cannot be converted
    assert f"{BATCH}#g-badcard: invalid · events[9].card: 'ZZ'" in batch.output
    assert f"{SAMPLE}: legal" in batch.output  # a record beside it, read as a record
    db = app_db(tmp_path / "app.db", games=2)
    both = runner.invoke(main, ["check", str(db)])
    assert f"{db}#g1: " in both.output and f"{db}#g2: " in both.output, both.output
    assert ": invalid" not in both.output
    # its games are counted as they are read: no count caps --jobs at one record
    assert bulk.count([str(db)]) is None and bulk.count([str(GOAT)]) == 1
    jobs = runner.invoke(main, ["check", "--jobs", "2", str(db)])
    assert jobs.output.count(f"{db}#g") == 2, jobs.output
    one = runner.invoke(main, ["replay", f"{BATCH}#g-legal"])
    assert one.exit_code == 0 and "finished, loser u-anna" in one.output
    legal = runner.invoke(main, ["legal", str(GOAT), "--names", "A,B,C"])
    assert legal.exit_code == 0 and "C is the loser" in legal.output, legal.output


# --- the service: what both engines answer ----------------------------------------------


def test_a_goat_log_pasted_is_its_game_and_a_line_saying_what_was_read() -> None:
    answer = calls.imported(json.dumps({"text": GOAT.read_text()}))
    assert answer["format"] == "goat-events"
    (game,) = answer["games"]
    events = len(json.loads(GOAT.read_text())["events"])
    assert game["name"] == "g-legal"
    assert game["about"] == f"Read a Goat app log: 3 players, {events} events{APP_RULES}"
    assert game["record"]["players"] == ["u-anna", "u-bo", "u-cai"]
    assert calls.check_one(json.dumps(game["record"]))["status"] == "legal"
    with i18n.speaking("sv"):
        swedish = calls.imported(json.dumps({"text": GOAT.read_text()}))["games"][0]["about"]
    assert swedish != game["about"] and "3" in swedish and str(events) in swedish


def test_a_log_is_checked_by_the_rules_asked_and_says_which() -> None:
    """As ``--rules``: the app's own rules by default, the rule text's letter on asking."""
    by_app = calls.imported(json.dumps({"text": TEXT_ONLY.read_text()}))["games"][0]
    by_text = calls.imported(json.dumps({"text": TEXT_ONLY.read_text(), "rules": "text"}))
    (game,) = by_text["games"]
    assert by_app["about"].endswith(APP_RULES)
    assert game["about"].endswith(
        " · checked by the rule text's letter (where the app departs from it, the check says so)"
    )
    assert calls.check_one(json.dumps(by_app["record"]))["status"] == "legal"
    ruled = calls.check_one(json.dumps(game["record"]))
    assert ruled["status"] == "illegal"
    assert ruled["violations"][0]["rule"] == "phase1.sluff.final"
    with pytest.raises(calls.BadInput) as wrong:
        calls.imported(json.dumps({"text": TEXT_ONLY.read_text(), "rules": "house"}))
    assert wrong.value.status == 400
    assert str(wrong.value) == (
        'rules: "app" (the app\'s own rules) or "text" (the rule text\'s letter)'
    )


def test_a_log_of_several_games_is_each_one_its_record_or_its_line() -> None:
    answer = calls.imported(json.dumps({"text": BATCH.read_text(), "name": "games.jsonl"}))
    named = {g["name"]: g for g in answer["games"]}
    assert list(named) == ["g-legal", "g-badcard", "g-nobody"]
    assert named["g-legal"]["record"]["variant"] == "goat"
    assert named["g-badcard"]["error"].startswith("events[9].card: 'ZZ' is not a card")
    assert "record" not in named["g-nobody"]


def test_a_record_is_no_log_and_a_broken_log_is_the_importers_line() -> None:
    assert calls.imported(json.dumps({"text": SAMPLE.read_text()})) == {
        "format": None,
        "games": [],
    }
    log = json.loads(GOAT.read_text())
    log["events"][8]["card"] = "ZZ"
    with pytest.raises(calls.BadInput) as refused:
        calls.imported(json.dumps({"text": json.dumps(log)}))
    assert str(refused.value) == "events[8].card: 'ZZ' is not a card of the app ('TS', '2H')"
    with pytest.raises(calls.BadInput) as wrong:
        calls.imported(json.dumps({"data": "no base64!"}))
    assert wrong.value.status == 400


@pytest.mark.parametrize("wal", [False, True], ids=["rollback", "wal"])
def test_the_apps_database_picked_is_read_in_memory(tmp_path: Path, wal: bool) -> None:
    db = app_db(tmp_path / "app.db", wal=wal, games=2)
    content = db.read_bytes()
    assert content[18:20] == (b"\x02\x02" if wal else b"\x01\x01")
    before = sorted(p.name for p in tmp_path.iterdir())
    answer = calls.imported(sent(content, "app.db"))
    assert answer["format"] == "albined-db"
    assert [g["name"] for g in answer["games"]] == ["g1", "g2"]
    first = answer["games"][0]
    assert first["about"] == (
        "Read a game of the albined/skitgubbe app: 2 players, 2 moves"
        + APP_RULES
        + (WAL_ALONE if wal else "")
    )
    assert first["record"]["players"] == ["Anna", "Bo"]
    # the same records as the command line's import of the file itself
    on_disk = [g.record for g in importers.read("albined-db", str(db))]
    assert [g["record"] for g in answer["games"]] == on_disk
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing written beside it
    assert db.read_bytes() == content


def test_a_database_picked_with_its_write_ahead_log_has_the_games_still_in_it(
    tmp_path: Path,
) -> None:
    running = app_db(tmp_path / "app.db", games=1, pending=2)
    content, log = running.read_bytes(), Path(f"{running}-wal").read_bytes()
    # the command line reads the two files through SQLite itself
    on_disk = [g.record for g in importers.read("albined-db", str(running))]
    assert len(on_disk) == 3
    alone = calls.imported(sent(content, "app.db"))
    assert [g["name"] for g in alone["games"]] == ["g1"]
    assert alone["games"][0]["about"].endswith(WAL_ALONE)
    body = json.loads(sent(content, "app.db"))
    body.update(wal=base64.b64encode(log).decode(), wal_name="app.db-wal")
    both = calls.imported(json.dumps(body))
    assert [g["record"] for g in both["games"]] == on_disk
    assert not both["games"][0]["about"].endswith(WAL_ALONE)
    body["wal"] = base64.b64encode(b"not a log at all, but long enough: 32+ bytes").decode()
    with pytest.raises(calls.BadInput) as refused:
        calls.imported(json.dumps(body))
    assert str(refused.value) == "app.db-wal: not a write-ahead log"
    body["wal"] = "no base64!"
    with pytest.raises(calls.BadInput) as wrong:
        calls.imported(json.dumps(body))
    assert (wrong.value.status, str(wrong.value)) == (400, "wal: not base64")


def test_a_file_that_is_no_apps_database_is_said_in_one_line(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    with pytest.raises(calls.BadInput) as refused:
        calls.imported(sent(other.read_bytes(), "other.db"))
    assert str(refused.value) == (
        "other.db: has no table games (is it albined/skitgubbe's database?)"
    )
    cut = other.read_bytes()[:100]
    with pytest.raises(calls.BadInput) as broken:
        calls.imported(sent(cut, "cut.db"))
    assert str(broken.value).startswith("cut.db: ")
    assert calls.imported(sent(b"\x00\x01\x02 a picture", "x.png"))["format"] is None


def test_a_database_by_name_that_is_no_sqlite_says_so_not_json(tmp_path: Path) -> None:
    # a text file called notdb.db was read as a record: "not JSON: Expecting value"
    text = tmp_path / "notdb.db"
    text.write_text("my notes of the game\n")
    result = CliRunner().invoke(main, ["check", str(text)])
    assert result.exit_code == 2
    assert result.output.strip() == f"{text}: invalid · {text}: is not an SQLite database"
    for suffix in (".sqlite", ".SQLITE3"):
        assert importers.detect_file(str(text.rename(text.with_suffix(suffix)))) == "albined-db"
        text = text.with_suffix(suffix)
    with pytest.raises(calls.BadInput) as picked:  # the page's picked file: the same line
        calls.imported(sent(b"my notes of the game\n", "notdb.db"))
    assert str(picked.value) == "notdb.db: is not an SQLite database"
    # a record (or a log) saved under such a name is still read as what it holds
    record = tmp_path / "record.db"
    record.write_bytes(SAMPLE.read_bytes())
    assert importers.detect_file(str(record)) is None
    assert CliRunner().invoke(main, ["check", str(record)]).exit_code == 0
    log = tmp_path / "log.sqlite"
    log.write_bytes(GOAT.read_bytes())
    assert importers.detect_file(str(log)) == "goat-events"
    assert calls.imported(sent(b"plain text", "notes.txt"))["format"] is None


# --- the API, and the worker's dispatcher: one answer ----------------------------------------


def test_the_api_and_the_in_browser_dispatcher_answer_the_same(tmp_path: Path) -> None:
    client = TestClient(app)
    bodies = [
        json.dumps({"text": GOAT.read_text()}),
        json.dumps({"text": BATCH.read_text(), "name": "games.jsonl"}),
        sent(app_db(tmp_path / "app.db").read_bytes(), "app.db"),
        json.dumps({"text": SAMPLE.read_text()}),
        json.dumps({"text": '[{"type": "join"}]'}),  # a log that cannot be converted
        "[]",
    ]
    for body in bodies:
        served = client.post(
            "/api/import", content=body, headers={"content-type": "application/json"}
        )
        status, text = routes.answer("POST", "/api/import", "", body)
        assert served.status_code == status, (body[:60], served.text)
        assert served.json() == json.loads(text)
    assert status == 400
    refused = client.post(
        "/api/import",
        content=json.dumps({"text": '[{"type": "join"}]'}),
        headers={"content-type": "application/json", "accept-language": "sv"},
    )
    assert refused.status_code == 422
    assert refused.json()["error"] == routes.answer(
        "POST", "/api/import", "lang=sv", json.dumps({"text": '[{"type": "join"}]'})
    )[1].split('"error":"')[1].rstrip('"}')


# --- the page, served and in the phone ------------------------------------------------------

PHONE = VIEWPORTS["phone"]


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    """A phone: 390×844, touch; the page's script errors fail the test."""
    yield from phone_tab(browser)


def open_screen(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]", timeout=300_000)
    page.get_by_role("button", name="Open record").click()


def paste_and_open(page: Page, text: str) -> None:
    page.fill("#paste", text)
    page.get_by_role("button", name="Open", exact=True).click()


def opened_goat(page: Page) -> None:
    events = len(json.loads(GOAT.read_text())["events"])
    expect(page.locator("#imported")).to_have_text(
        f"Read a Goat app log: 3 players, {events} events{APP_RULES}", timeout=300_000
    )
    expect(page.locator("#screen-table")).to_be_visible()
    expect(page.locator("#ruling .verdict")).to_contain_text("finished, u-cai lost")


def checked_by_the_text(page: Page) -> None:
    """The Open screen's choice of rules: the treatise's letter finds the app's departure."""
    page.select_option("#log-rules", "text")
    paste_and_open(page, TEXT_ONLY.read_text())
    expect(page.locator("#imported")).to_contain_text(
        "checked by the rule text's letter", timeout=300_000
    )
    expect(page.locator("#ruling")).to_contain_text("phase1.sluff.final")
    page.go_back()
    page.select_option("#log-rules", "app")
    paste_and_open(page, TEXT_ONLY.read_text())
    expect(page.locator("#imported")).to_contain_text(APP_RULES.removeprefix(" · "))
    expect(page.locator("#ruling .verdict")).not_to_contain_text("illegal")


def pick_a_game_of_the_database(page: Page, db: Path, said: str = "") -> None:
    page.set_input_files("#file", str(db))
    expect(page.locator("#log-about")).to_have_text(
        "This log holds 2 games: pick one to open.", timeout=300_000
    )
    page.get_by_role("button", name="g2 (Game 2): Read a game of the albined/skitgubbe app").click()
    expect(page.locator("#imported")).to_have_text(  # which game, by its id and the app's name
        "g2 (Game 2): Read a game of the albined/skitgubbe app: 2 players, 2 moves"
        + APP_RULES
        + said
    )
    expect(page.locator("#screen-table")).to_contain_text("Anna")


def test_the_served_page_opens_a_pasted_goat_log_and_a_picked_database(
    phone: Page, base: str, tmp_path: Path
) -> None:
    open_screen(phone, base + "/")
    paste_and_open(phone, GOAT.read_text())
    opened_goat(phone)
    # a log of several games: each listed, the broken ones with their line; one picked
    phone.go_back()
    paste_and_open(phone, BATCH.read_text())
    expect(phone.locator("#log-list li")).to_have_count(3)
    expect(phone.locator("#log-list")).to_contain_text(
        "g-badcard: ✗ events[9].card: 'ZZ' is not a card of the app"
    )
    problems = phone.evaluate(LAYOUT)  # at 390 px: no overflow, targets a finger can tap
    assert problems == [], problems[:8]
    phone.get_by_role("button", name="g-legal: Read a Goat app log: 2 players").click()
    expect(phone.locator("#ruling .verdict")).to_contain_text("finished, u-anna lost")
    phone.go_back()  # Back: the list, to pick another game
    expect(phone.locator("#log-list button")).to_have_count(1)
    expect(phone.locator("#screen-open")).to_be_visible()
    # a picked database of two games
    pick_a_game_of_the_database(phone, app_db(tmp_path / "app.db", games=2))
    # the importer's line beside the box, as any record's error
    phone.go_back()
    broken = json.loads(GOAT.read_text())
    broken["events"][8]["card"] = "ZZ"
    paste_and_open(phone, json.dumps(broken))
    expect(phone.locator("#paste-fault")).to_have_text(
        "events[8].card: 'ZZ' is not a card of the app ('TS', '2H')"
    )
    # a record is still a record, and the line of what was read is gone
    paste_and_open(phone, SAMPLE.read_text())
    expect(phone.locator("#screen-table")).to_be_visible()
    expect(phone.locator("#imported")).to_be_hidden()
    # a database picked with its write-ahead log: the games still in the log are listed too
    phone.go_back()
    running = app_db(tmp_path / "live.db", games=1, pending=1)
    phone.set_input_files("#file", [str(running), f"{running}-wal"])
    expect(phone.locator("#log-about")).to_have_text("This log holds 2 games: pick one to open.")
    expect(phone.locator("body")).not_to_have_attribute("aria-busy", "true")  # a pick is taken
    phone.set_input_files("#file", [str(running), str(GOAT)])
    expect(phone.locator("#file-fault")).to_have_text(
        "pick one file, or a database with its -wal file beside it (two files)"
    )


def test_a_games_name_from_a_log_is_text_never_markup(phone: Page, base: str) -> None:
    log = json.loads(GOAT.read_text())
    hostile = '<img src=x onerror="document.title=1"> #2'
    lines = [json.dumps({**log, "gameId": hostile}), json.dumps({**log, "gameId": "second"})]
    open_screen(phone, base + "/")
    paste_and_open(phone, "\n".join(lines))
    expect(phone.locator("#log-list button")).to_have_count(2)
    expect(phone.locator("#log-list button").first).to_contain_text(hostile)
    assert phone.locator("#log-list img").count() == 0
    assert phone.title() != "1"


def test_a_picked_goat_log_opens_and_a_picture_is_refused(
    phone: Page, base: str, tmp_path: Path
) -> None:
    open_screen(phone, base + "/")
    phone.set_input_files("#file", str(GOAT))
    opened_goat(phone)
    phone.go_back()
    checked_by_the_text(phone)
    phone.go_back()
    picture = tmp_path / "photo.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe")
    phone.set_input_files("#file", str(picture))
    expect(phone.locator("#file-fault")).to_have_text(
        "this file is neither a record nor an app's log the adjudicator reads "
        "(a Goat app log, the albined app's database)"
    )


def test_the_static_site_opens_a_goat_log_and_a_database_in_the_phone(
    folder: Path, browser: Browser, tmp_path: Path
) -> None:
    from test_site import phone as site_phone
    from test_site import static_server

    db = app_db(tmp_path / "app.db", wal=True, games=2)
    with static_server(folder) as (origin, _), site_phone(browser, origin) as (context, outside):
        tab = context.new_page()
        errors: list[str] = []
        tab.on("pageerror", lambda e: errors.append(str(e)))
        open_screen(tab, origin + "/")
        paste_and_open(tab, GOAT.read_text())
        opened_goat(tab)
        tab.go_back()
        checked_by_the_text(tab)
        tab.go_back()
        pick_a_game_of_the_database(tab, db, WAL_ALONE)
    assert not errors, errors
    assert not outside, f"requests left the origin: {outside}"


def test_the_words_are_in_the_pages_languages() -> None:
    for code in ("sv", "fi", "nb"):
        catalogue: dict[str, Any] = i18n.page_catalogue(code)
        for english in (
            "this file is neither a record nor an app's log the adjudicator reads "
            "(a Goat app log, the albined app's database)",
            "Also an app's log: the Goat app's game (its events, JSON or JSON Lines) or the "
            "albined Skitgubbe app's database (.db; with its .db-wal file, when there is one "
            "beside it, picked together).",
            "pick one file, or a database with its -wal file beside it (two files)",
            "Check an app's log by",
            "the rule text's letter",
        ):
            assert catalogue.get(english), (code, english)
