"""The table's page in a real browser (Chromium driven by Playwright), at phone and desktop size.

The server runs in the test on 127.0.0.1 at a free port; the browser is found
as ``web_browser.launch`` says (never skipped).  Every screen is held to the
layout bars: no horizontal scroll, touch targets of 44 px, text of 16 px,
every control named.  Screenshots go to a temporary folder, or to the folder
``ADJUDICATOR_SHOTS`` names (``benchmarks/readme_screenshots.py`` points it at
docs/ to redraw the README's pictures): the test run never writes into the checkout.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import pytest
from conftest import qr_decoded, qr_drawn
from playwright.sync_api import Browser, Page, expect
from web_browser import LAYOUT, link, unlink

from adjudicator.bulk import document_from_text
from adjudicator.cards import card_code
from adjudicator.play import legal, listing
from adjudicator.play.adjudicate import adjudicate
from adjudicator.render.terminal import attempt
from adjudicator.service import page as calls
from adjudicator.service.qr import qr as qr_of

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_games"
SHOTS_ENV = "ADJUDICATOR_SHOTS"
VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
HOSTILE = "<img/src=x/onerror=alert(1)>"


def shots_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go: a temporary folder unless ADJUDICATOR_SHOTS names one."""
    named = os.environ.get(SHOTS_ENV)
    return Path(named) if named else tmp_path_factory.mktemp("shots")


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return shots_folder(tmp_path_factory)


@pytest.fixture(params=list(VIEWPORTS))
def size(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def page(browser: Browser, size: str) -> Iterator[Page]:
    context = browser.new_context(viewport=VIEWPORTS[size])
    tab = context.new_page()
    tab.dialogs = []  # type: ignore[attr-defined]
    tab.on("dialog", lambda d: (tab.dialogs.append(d.message), d.dismiss()))  # type: ignore[attr-defined]
    tab.errors = []  # type: ignore[attr-defined]
    tab.on("pageerror", lambda e: tab.errors.append(str(e)))  # type: ignore[attr-defined]
    outside: list[str] = []
    tab.on(
        "request",
        lambda r: (
            None
            if r.url.startswith(("http://127.0.0.1", "data:", "blob:", "file:"))
            else outside.append(r.url)
        ),
    )
    yield tab
    assert not outside, f"requests left the machine: {outside}"
    assert not tab.errors, tab.errors  # type: ignore[attr-defined]
    context.close()


def layout_ok(page: Page, screen: str) -> None:
    problems = page.evaluate(LAYOUT)
    assert isinstance(problems, list), "the layout check did not run"
    assert not problems, f"{screen}: {problems[:8]}"


def ready(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")


def sample(name: str) -> dict[str, Any]:
    return json.loads((SAMPLES / name).read_text(encoding="utf-8"))


def buttons(page: Page, where: str) -> list[str]:
    return page.locator(f"{where} button").evaluate_all(
        "bs => bs.map(b => b.getAttribute('aria-label') || b.textContent.trim())"
    )


def shot(page: Page, size: str, name: str, folder: Path) -> None:
    if size == "phone":
        page.screenshot(path=str(folder / name), full_page=True)


def alternatives(page: Page) -> list[str]:
    """The ruling's "What could have been played", each in record notation."""
    return page.locator("#ruling .alternatives .form").evaluate_all(
        "fs => fs.map(f => f.getAttribute('aria-label') || f.textContent.trim())"
    )


def pretty(text: str) -> str:
    """As app.js shows an action: its card codes after the player and act as symbols."""
    words = text.split(" ")
    cards = [
        ("10" if w[0] == "T" else w[0]) + "♠♥♦♣"["SHDC".index(w[1])]
        if re.fullmatch("[2-9TJQKA][SHDC]", w)
        else w
        for w in words[2:]
    ]
    return " ".join(words[:2] + cards)


def address_record(page: Page) -> Any:
    """The record the address's ``#record=`` holds."""
    return unlink(page.evaluate("location.hash"))


def test_the_readme_dispute_by_taps_alone(page: Page, base: str, size: str, shots: Path) -> None:
    ready(page, base + "/")
    layout_ok(page, "new dispute")
    page.select_option("#variant", "helmfrid")
    assert "Helmfrid" in page.locator("#variant-about").inner_text()
    page.fill("#players", "Anna Bo Cai")
    page.get_by_label("A position in phase two").check()
    page.select_option("#trump", "S")
    page.select_option("#leader", "Anna")
    for who, cards in (("Anna", "6D KH 4C"), ("Bo", "7D 8D 9D 2H"), ("Cai", "8C 9C 3S QD")):
        page.select_option("#target", f"hand:{who}")
        for card in cards.split():
            page.get_by_role("button", name=card, exact=True).click()
    layout_ok(page, "position")
    shot(page, size, "page-new-dispute.png", shots)
    page.get_by_role("button", name="Start", exact=True).click()
    page.get_by_role("button", name="Anna play 6D", exact=True).click()
    page.get_by_role("button", name="Bo play 7D 8D 9D", exact=True).click()
    page.wait_for_selector("#steps li:nth-child(2)")
    layout_ok(page, "table")
    assert buttons(page, "#legal") == ["Cai play 3S", "Cai play QD", "Cai pick"]
    page.locator("#else summary").click()
    page.select_option("#else-player", "Cai")
    page.get_by_role("button", name="8C", exact=True).click()
    page.get_by_role("button", name="9C", exact=True).click()
    page.get_by_role("button", name="Enter this action").click()
    page.wait_for_selector(".violation")
    ruling = page.locator("#ruling").inner_text()
    assert "rule phase2.beat" in ruling
    assert "8♣ 9♣ does not beat 7♦ 8♦ 9♦: a diamond above 9♦ or a trump (♠) is needed" in ruling
    assert "pagat.com, 'Play in the second phase'" in ruling
    assert "https://www.pagat.com/beating/skitgubbe.html" in ruling
    assert alternatives(page) == ["Cai play 3S", "Cai play QD", "Cai pick"]
    assert page.locator("#ruling .alternatives button").count() == 0  # cards, not plays
    assert buttons(page, "#ruling .decide") == [
        "Take it back",
        "Let it stand",
        "Take it back; Cai plays 3♠ instead",
        "Take it back; Cai plays Q♦ instead",
        "Take it back; Cai picks up instead",
    ]
    assert "Cai tries to beat 7♦ 8♦ 9♦ with 8♣ 9♣" in page.locator("#steps").inner_text()
    layout_ok(page, "ruling")
    shot(page, size, "page-ruling.png", shots)
    assert float(page.evaluate("document.body.dataset.rulingMs")) > 0
    # the downloaded record gets the same verdict from the command line
    with page.expect_download() as caught:
        page.get_by_role("button", name="Download").click()
    saved = Path(caught.value.path()).read_text(encoding="utf-8")
    (v,) = calls.check_one(saved)["violations"]
    assert (v["index"], v["rule"]) == (2, "phase2.beat")
    # take it back (the record keeps it, marked), and tap a legal alternative instead
    page.get_by_role("button", name="Take it back", exact=True).click()
    page.wait_for_selector("text=The table took it back. Play goes on.")
    assert "illegal (phase2.beat), taken back" in page.locator("#steps").inner_text()
    page.locator("#legal").get_by_role("button", name="Cai play QD", exact=True).click()
    page.wait_for_selector("#steps li:nth-child(4)")
    ruling = page.locator("#ruling").inner_text()
    assert "✗ illegal" in ruling and "4 of 4 actions applied" in ruling


def test_a_shared_link_of_a_goat_sample_gives_the_clis_ruling(
    page: Page, base: str, size: str
) -> None:
    record = sample("illegal_goat_sluff_final.json")
    text = json.dumps(record)
    expected = calls.check_one(text)
    (v,) = expected["violations"]
    ready(page, base + "/" + link(record))
    page.wait_for_selector(".violation")
    ruling = page.locator("#ruling").inner_text()
    assert f"Illegal: action {v['index'] + 1} of {len(record['actions'])}" in ruling
    assert f"rule {v['rule']}" in ruling and v["message"] in ruling
    assert "✗ illegal" in ruling
    # the rule's own sources cite the treatise already: its cite is not said twice
    assert ruling.count("the Goat treatise, II.E.3 (sluffing restriction #2)") == 1
    layout_ok(page, "shared link")
    # the page's own link carries the same record back
    page.get_by_role("button", name="Copy link").click()
    expect(page.locator("#link")).to_have_value(re.compile("#record="))
    assert unlink(page.locator("#link").input_value()) == record


def test_replay_steps_forward_back_and_to_the_first_violation(
    page: Page, base: str, size: str
) -> None:
    name = "illegal_phase2_act.json"
    record = sample(name)
    report = adjudicate(document_from_text(json.dumps(record)), steps=True)
    ready(page, base + "/")
    page.get_by_role("button", name="Open record").click()
    layout_ok(page, "open")
    page.fill("#paste", json.dumps(record))
    page.get_by_role("button", name="Open", exact=True).click()
    page.wait_for_selector(".violation")
    first_bad = report.violations[0].index
    total = len(record["actions"])
    words = [
        attempt(s.words, s.violation.player or "", s.action) if s.violation else s.words
        for s in report.steps
    ]
    assert page.locator("#where").inner_text().startswith(f"Action {first_bad + 1} of {total}: ")
    expected = [
        f"{s.index + 1}. "
        + (attempt(s.words, s.violation.player or "", s.action) if s.violation else s.words)
        for s in report.steps
    ]
    assert [t.strip() for t in page.locator("#steps button").all_inner_texts()] == expected
    page.get_by_role("button", name="Start", exact=True).click()
    assert page.locator("#where").inner_text() == f"At the start · {total} actions recorded"
    assert page.locator(".violation").count() == 0
    page.get_by_role("button", name="Forward").click()
    page.get_by_role("button", name="Forward").click()
    assert page.locator("#where").inner_text() == f"Action 2 of {total}: {pretty(words[1])}"
    seats = page.locator(".seat").all_inner_texts()
    table = report.steps[1].table
    assert len(seats) == len(table.names)
    page.get_by_role("button", name="Back").click()
    assert page.locator("#where").inner_text() == f"Action 1 of {total}: {pretty(words[0])}"
    layout_ok(page, "replay")
    page.get_by_role("button", name="First violation").click()
    assert page.locator("#where").inner_text().startswith(f"Action {first_bad + 1} of {total}: ")
    assert f"rule {report.violations[0].rule}" in page.locator("#ruling").inner_text()


CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])(10|[2-9TJQKA])([SHDC♠♥♦♣])(?![A-Za-z0-9])")


def card_tokens(text: str) -> set[str]:
    """Every card named in ``text`` (``QD`` or ``Q♦``), as its code."""
    return {
        ("T" if rank == "10" else rank) + "SHDC"["SHDC♠♥♦♣".index(suit) % 4]
        for rank, suit in CARD_TOKEN.findall(text)
    }


def test_one_players_view_has_no_hidden_card_in_the_dom(page: Page, base: str) -> None:
    record = sample("two_player_full.json")
    game = document_from_text(json.dumps(record))
    report = adjudicate(game, steps=True)
    ready(page, base + "/" + link(record))
    page.wait_for_selector("#steps li")
    me, other = record["players"]
    page.select_option("#viewer", me)
    # the one-player view drawn: the other's hand as a count ("pile N" is in every view)
    counted = page.locator(".seat .dim:not(.pile)", has_text=re.compile(r"^\d+ cards?$"))
    expect(counted.first).to_be_visible()
    page.get_by_role("button", name="Start", exact=True).click()
    public: set[str] = set()  # what the whole table has seen: played, dared, announced
    for position in range(len(report.steps) + 1):
        view = report.start if position == 0 else report.steps[position - 1].table
        if position:
            step = report.steps[position - 1]
            public |= card_tokens(" ".join([step.action, step.words, *step.events]))
        mine = {card_code(c) for c in view.hands[view.names.index(me)]}
        theirs = {card_code(c) for c in view.hands[view.names.index(other)]}
        secret = theirs - mine - public
        dom = page.evaluate("document.documentElement.outerHTML")
        leaked = secret & card_tokens(dom)
        assert not leaked, f"position {position}: {other}'s {sorted(leaked)} in the DOM"
        if position < len(report.steps):
            page.get_by_role("button", name="Forward").click()


def test_a_hostile_name_shows_as_text_and_runs_nothing(page: Page, base: str) -> None:
    ready(page, base + "/")
    page.select_option("#variant", "pagat")
    page.fill("#players", f"Anna {HOSTILE} Cai")
    page.get_by_role("button", name="Deal at random").click()
    page.get_by_role("button", name="Start", exact=True).click()
    page.wait_for_selector(".seat")
    assert HOSTILE in page.locator(".seats").inner_text()
    assert page.evaluate("document.querySelectorAll('img').length") == 0
    page.wait_for_timeout(200)
    assert page.dialogs == []  # type: ignore[attr-defined]


def test_the_buttons_are_the_engines_legal_list_at_every_step(page: Page, base: str) -> None:
    record = sample("two_player_full.json")
    game = document_from_text(json.dumps(record))
    played = [a.record_form(game.players) for a in game.actions]
    ready(page, base + "/" + link({**record, "actions": []}))
    for index, action in enumerate(played):
        expect(page.locator("#steps li")).to_have_count(index)
        expected = legal.position(game, index).legal
        assert buttons(page, "#legal") == [listing.show(f) for f in expected], index
        page.get_by_role("button", name=listing.show(action), exact=True).click()
    expect(page.locator("#steps li")).to_have_count(len(played))
    assert "finished" in page.locator("#ruling").inner_text()


def test_dark_mode_keeps_red_and_black_suits_readable(
    browser: Browser, base: str, shots: Path
) -> None:
    context = browser.new_context(viewport=VIEWPORTS["phone"], color_scheme="dark")
    tab = context.new_page()
    ready(tab, base + "/" + link(sample("illegal_phase2_beat.json")))
    tab.wait_for_selector(".violation")
    colours = tab.evaluate(
        """() => ({
        body: getComputedStyle(document.body).backgroundColor,
        text: getComputedStyle(document.body).color,
        red: getComputedStyle(document.querySelector('.suit-H, .suit-D')).color,
        black: getComputedStyle(document.querySelector('.seat .suit-S, .seat .suit-C')).color})"""
    )
    assert colours["body"] == "rgb(20, 20, 20)" and colours["text"] == "rgb(236, 236, 236)"
    assert colours["red"] == "rgb(255, 116, 116)" and colours["black"] == "rgb(242, 242, 242)"
    tab.screenshot(path=str(shots / "page-ruling-dark.png"), full_page=True)
    context.close()


def test_the_replay_html_file_steps_offline(page: Page, size: str, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from adjudicator.cli.commands import main

    target = tmp_path / "ruling.html"
    source = str(SAMPLES / "illegal_phase2_act.json")
    result = CliRunner().invoke(main, ["replay", source, "--html", str(target)])
    assert result.exit_code == 1
    report = adjudicate(
        document_from_text((SAMPLES / "illegal_phase2_act.json").read_text()), steps=True
    )
    ready(page, target.as_uri())  # no server: the replay is in the file
    v = report.violations[0]
    total = report.actions
    assert f"rule {v.rule}" in page.locator("#ruling").inner_text()
    assert page.locator("#where").inner_text().startswith(f"Action {v.index + 1} of {total}: ")
    page.get_by_role("button", name="Start", exact=True).click()
    assert page.locator("#where").inner_text() == f"At the start · {total} actions recorded"
    page.get_by_role("button", name="Forward").click()
    assert (
        page.locator("#where").inner_text()
        == f"Action 1 of {total}: {pretty(report.steps[0].words)}"
    )
    assert page.locator("#moves").is_hidden()  # no engine at hand: nothing to play
    layout_ok(page, "replay --html")


def test_the_replay_html_file_shows_what_the_served_page_shows(
    browser: Browser, base: str, tmp_path: Path
) -> None:
    """The file packs its views (each step a patch on the one before); unpacked, every
    position of everyone's view and of one player's draws what the served page draws."""
    from click.testing import CliRunner

    from adjudicator.cli.commands import main

    name = "two_player_full.json"
    record = sample(name)
    target = tmp_path / "ruling.html"
    result = CliRunner().invoke(main, ["replay", str(SAMPLES / name), "--html", str(target)])
    assert result.exit_code == 0
    context = browser.new_context(viewport=VIEWPORTS["desktop"])
    offline, served = context.new_page(), context.new_page()
    ready(offline, target.as_uri())
    ready(served, base + "/" + link(record))
    served.wait_for_selector("#steps li")
    # From the last position back to the start, by the steps list (one player's view lists
    # the steps before the position shown); each position drawn and read in one go.
    # The served page's "Add a note" writes into its record; the file has no record to
    # write into and leaves it out: every other word of the two must be the same.
    at = """(p) => {
      if (p) document.querySelectorAll("#steps button")[p - 1].click();
      else document.getElementById("first").click();
      document.querySelectorAll("#note-open, .note-editor").forEach((e) => e.remove());
      return ["where", "table", "ruling"].map((id) => document.getElementById(id).innerText);
    }"""
    last = len(record["actions"])
    tables: dict[str, list[str]] = {}
    for viewer in ("", record["players"][1]):
        for tab in (offline, served):
            tab.evaluate("() => document.getElementById('last').click()")
            with served.expect_response("**/api/replay**") if tab is served else nullcontext():
                tab.select_option("#viewer", viewer)
            expect(tab.locator("#where")).to_contain_text(f"Action {last} of {last}: ")
        for position in range(last, -1, -1):
            shown = [tab.evaluate(at, position) for tab in (offline, served)]
            assert shown[0] == shown[1], (viewer, position)
            tables.setdefault(viewer, []).append(shown[0][1])
    context.close()
    assert tables[""] != tables[record["players"][1]]  # the views are not all the same


def test_the_kitchen_dispute_from_a_phase_one_position_with_unseen_cards(
    page: Page, base: str
) -> None:
    """The README's second dispute: a phase-one position, ``??`` counts, an option."""
    ready(page, base + "/")
    page.select_option("#variant", "helmfrid")
    page.fill("#players", "Anna Bo Cai")
    page.locator("#house-rules > summary").click()
    page.get_by_role("switch", name="compulsory_ties").check()
    page.get_by_label("A position in phase one").check()
    page.select_option("#leader", "Anna")
    page.select_option("#target", "hand:Bo")
    for card in ("KD", "7C"):
        page.get_by_role("button", name=card, exact=True).click()
    for target, unseen in (("hand:Anna", 3), ("hand:Bo", 1), ("hand:Cai", 3), ("stock", 10)):
        page.select_option("#target", target)
        page.fill("#unseen", str(unseen))
    layout_ok(page, "phase-one position")
    page.get_by_role("button", name="Start", exact=True).click()
    page.wait_for_selector(".seat")
    assert "+3 unseen" in page.locator(".seats").inner_text()
    for player, cards in (("Anna", "KS"), ("Bo", "7C")):
        if page.locator("#else").get_attribute("open") is None:
            page.locator("#else summary").click()
        page.select_option("#else-player", player)
        page.fill("#else-cards", cards)
        page.get_by_role("button", name="Enter this action").click()
        page.wait_for_selector(f"#steps li >> nth={0 if player == 'Anna' else 1}")
    page.wait_for_selector(".violation")
    ruling = page.locator("#ruling").inner_text()
    assert "rule phase1.tie.compulsory" in ruling
    assert "Bo holds a king and must play it to make a tie (compulsory ties), not 7♣" in ruling


def test_an_undetermined_check_is_shown_as_such(page: Page, base: str) -> None:
    record = sample("helmfrid_dispute_unknown.json")
    ready(page, base + "/" + link(record))
    expect(page.locator(".undetermined")).to_have_count(1)
    note = page.locator(".undetermined").inner_text()
    assert "? undetermined at action 2" in note and "phase1.tie.compulsory" in note
    assert "Whether Bo holds a king" in note
    assert "✓ legal" in page.locator("#ruling").inner_text()
    layout_ok(page, "undetermined")


# --- the page a table trusts (issue 33) --------------------------------------------------

README_DISPUTE = {
    "format": "skitgubbe-record/1",
    "variant": "helmfrid",
    "players": ["Anna", "Bo", "Cai"],
    "start": {
        "phase": 2,
        "leader": "Anna",
        "trump": "S",
        "hands": {
            "Anna": ["6D", "KH", "4C"],
            "Bo": ["7D", "8D", "9D", "2H"],
            "Cai": ["8C", "9C", "3S", "QD"],
        },
    },
    "actions": ["Anna play 6D", "Bo play 7D 8D 9D", "Cai play 8C 9C"],
}


def in_view(page: Page, selector: str) -> bool:
    """Whether the element is visible and wholly inside the viewport as it stands."""
    return bool(
        page.locator(selector).first.evaluate(
            """e => { const r = e.getBoundingClientRect();
                return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight; }"""
        )
    )


def test_the_address_is_the_record_shown_and_a_reload_keeps_it(page: Page, base: str) -> None:
    opening = {**README_DISPUTE, "actions": ["Anna play 6D"]}
    ready(page, base + "/" + link(opening))
    page.wait_for_selector("#steps li")
    page.get_by_role("button", name="Bo play 7D 8D 9D", exact=True).click()
    expect(page.locator("#steps li")).to_have_count(2)
    assert address_record(page)["actions"] == ["Anna play 6D", "Bo play 7D 8D 9D"]
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#steps li")).to_have_count(2)
    assert buttons(page, "#legal") == ["Cai play 3S", "Cai play QD", "Cai pick"]
    # the dispute is kept on the phone, under Recent
    page.get_by_role("button", name="New dispute").click()
    assert page.evaluate("location.hash") == ""
    recent = page.locator("#recent li")
    expect(recent).to_have_count(1)
    assert "helmfrid · Anna Bo Cai · 2 actions" in recent.inner_text()
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.locator("#screen-new").is_visible()  # the new dispute, not the old record
    page.locator("#recent .open-recent").click()
    expect(page.locator("#steps li")).to_have_count(2)
    assert address_record(page)["actions"] == ["Anna play 6D", "Bo play 7D 8D 9D"]
    page.get_by_role("button", name="New dispute").click()
    page.get_by_role("button", name="Delete helmfrid · Anna Bo Cai · 2 actions").click()
    expect(page.locator("#recent li")).to_have_count(0)
    assert page.evaluate("localStorage.getItem('adjudicator.recent')") == "[]"


def test_undo_takes_back_every_change_of_the_page(page: Page, base: str) -> None:
    ready(page, base + "/" + link({**README_DISPUTE, "actions": []}))
    page.get_by_role("button", name="Anna play 6D", exact=True).click()
    page.get_by_role("button", name="Bo play 7D 8D 9D", exact=True).click()
    expect(page.locator("#steps li")).to_have_count(2)
    page.get_by_role("button", name="Undo: Bo plays 7♦ 8♦ 9♦").click()
    expect(page.locator("#steps li")).to_have_count(1)
    assert address_record(page)["actions"] == ["Anna play 6D"]
    page.get_by_role("button", name="Undo: Anna plays 6♦").click()
    expect(page.locator("#steps li")).to_have_count(0)
    assert address_record(page)["actions"] == []
    expect(page.locator("#undo")).to_be_hidden()


def test_play_on_from_here_says_what_it_sets_aside_and_undo_brings_it_back(
    page: Page, base: str
) -> None:
    record = sample("two_player_full.json")
    ready(page, base + "/" + link(record))
    page.wait_for_selector("#steps li")
    total = len(record["actions"])
    page.locator("#steps button").nth(2).click()  # after the third action
    play_on = page.locator("#legal button")
    expect(play_on).to_have_text(
        f"Play on from here (sets aside {total - 3} later actions; Undo restores them)"
    )
    play_on.click()
    expect(page.locator("#steps li")).to_have_count(3)
    assert f"{total - 3} later actions set aside" in page.locator("#undo-about").inner_text()
    assert len(address_record(page)["actions"]) == 3
    page.locator("#undo").click()
    expect(page.locator("#steps li")).to_have_count(total)
    assert address_record(page)["actions"] == record["actions"]


def test_start_without_players_says_so_beside_the_field_in_view(
    page: Page, base: str, size: str
) -> None:
    ready(page, base + "/")
    page.select_option("#variant", "pagat")
    page.fill("#deck", "typed by hand")
    page.get_by_role("button", name="Start", exact=True).click()
    alert = page.locator("#players-fault")
    expect(alert).to_have_attribute("role", "alert")
    expect(alert).to_have_text("type the players' names, 2 to 4 for pagat, with spaces between")
    assert in_view(page, "#players-fault")
    assert page.get_attribute("#players", "aria-invalid") == "true"
    assert page.input_value("#deck") == "typed by hand"  # nothing typed is lost
    layout_ok(page, "error beside players")
    page.fill("#players", "Anna Bo Cai")  # typing clears the mark
    assert page.get_attribute("#players", "aria-invalid") is None
    # the server's own line about the deck stands beside the deck
    page.get_by_role("button", name="Start", exact=True).click()
    expect(page.locator("#deck-fault")).to_contain_text("is not a card")
    assert in_view(page, "#deck-fault")
    assert page.input_value("#deck") == "typed by hand"


def test_a_card_typo_says_what_a_card_looks_like_and_keeps_the_typing(
    page: Page, base: str
) -> None:
    ready(page, base + "/" + link({**README_DISPUTE, "actions": README_DISPUTE["actions"][:2]}))
    page.locator("#else summary").click()
    page.fill("#else-cards", "8C K0")
    page.get_by_role("button", name="Enter this action").click()
    fault = page.locator("#else-cards-fault")
    expect(fault).to_have_text(
        "'K0' is not a card: a card is its rank (2-10, J, Q, K, A) then its suit "
        "(S, H, D, C), as KD or 10H; did you mean K♠ or K♥ or K♦ or K♣?"
    )
    assert in_view(page, "#else-cards-fault")
    assert page.input_value("#else-cards") == "8C K0"
    page.fill("#else-cards", "QX")  # Cai holds Q♦: the hand's card is the guess
    page.get_by_role("button", name="Enter this action").click()
    expect(fault).to_contain_text("did you mean Q♦?")
    expect(page.locator("#steps li")).to_have_count(2)  # nothing was sent


def test_the_ruling_keeps_the_disputed_play_whatever_the_table_does(
    page: Page, base: str, size: str
) -> None:
    ready(page, base + "/" + link(README_DISPUTE))
    page.wait_for_selector(".violation")
    ruling = page.locator("#ruling").inner_text()
    assert "What could have been played" in ruling and "What does the table do?" in ruling
    # the rule in words, and where it is written
    assert "What the rule checks: a play onto the trick beats the top play" in ruling
    assert "pagat.com, 'Play in the second phase'" in ruling
    layout_ok(page, "ruling in two parts")
    page.get_by_role("button", name="Take it back; Cai plays Q♦ instead").click()
    expect(page.locator("#steps li")).to_have_count(4)
    assert address_record(page)["actions"] == [
        "Anna play 6D",
        "Bo play 7D 8D 9D",
        "Cai play 8C 9C -- taken back",
        "Cai play QD",
    ]
    steps = page.locator("#steps").inner_text()
    assert "Cai tries to beat 7♦ 8♦ 9♦ with 8♣ 9♣: illegal (phase2.beat), taken back" in steps
    page.get_by_role("button", name="Undo: Take it back; Cai plays Q♦ instead").click()
    page.get_by_role("button", name="Let it stand").click()
    page.wait_for_selector("text=The table let it stand. Play goes on.")
    expect(page.locator("#steps li")).to_have_count(3)
    assert address_record(page)["actions"][-1] == "Cai play 8C 9C -- stands"


def test_house_rules_are_switches_with_their_words(page: Page, base: str, size: str) -> None:
    ready(page, base + "/")
    page.select_option("#variant", "helmfrid")
    page.locator("#house-rules > summary").click()
    sequences = page.get_by_label("sequences", exact=True)
    anti = page.get_by_label("anti_trump", exact=True)
    expect(sequences).to_have_value("two")
    expect(anti).to_have_value("none")
    assert sequences.evaluate("e => [...e.options].map(o => o.value)") == [
        "off",
        "two",
        "three",
        "from_two",
    ]
    about = page.locator("#rule-anti_trump-about").inner_text()
    assert about.startswith("An anti-trump suit that trumps cannot beat (pagat.com, 'Anti")
    ties = page.get_by_role("switch", name="compulsory_ties")
    expect(ties).not_to_be_checked()
    assert page.locator("#options").is_hidden()  # the JSON box only under Advanced
    layout_ok(page, "house rules")
    ties.check()
    page.select_option("#rule-anti_trump", "same_colour")
    page.fill("#players", "Anna Bo Cai")
    page.get_by_role("button", name="Deal at random").click()
    page.get_by_role("button", name="Start", exact=True).click()
    page.wait_for_selector(".seat")
    assert address_record(page)["options"] == {
        "compulsory_ties": True,
        "anti_trump": "same_colour",
    }
    # a broken JSON box is said beside it, in table words
    page.get_by_role("button", name="New dispute").click()
    assert page.input_value("#players") == ""  # a new dispute begins with an empty form
    page.fill("#players", "Anna Bo Cai")
    page.locator("#advanced > summary").click()
    page.fill("#options", '{"compulsory_ties": yes}')
    page.get_by_role("button", name="Start", exact=True).click()
    expect(page.locator("#options-fault")).to_contain_text("the house rules box takes JSON")
    assert page.input_value("#options") == '{"compulsory_ties": yes}'


def test_the_goats_grid_holds_two_packs_from_seven_players(page: Page, base: str) -> None:
    ready(page, base + "/")
    page.select_option("#variant", "goat")
    page.get_by_label("A position in phase two").check()
    aces = page.locator("#pack button", has_text=re.compile("^A♠$"))
    expect(aces).to_have_count(1)
    page.fill("#players", "Anna Bo Cai Dag Eva Fia Gus")
    expect(aces).to_have_count(2)
    assert page.locator("#pack button").count() == 104
    page.get_by_role("button", name="AS (pack 1)", exact=True).click()
    page.get_by_role("button", name="AS (pack 2)", exact=True).click()
    assert page.locator("#placed").inner_text().startswith("Anna's hand: 2")
    layout_ok(page, "two packs")


def test_a_tapped_card_keeps_its_suits_colour(page: Page, base: str) -> None:
    ready(page, base + "/")
    page.fill("#players", "Anna Bo")
    page.get_by_label("A position in phase two").check()
    before = page.locator("#pack button[aria-label=KH] .card").evaluate(
        "e => getComputedStyle(e).color"
    )
    page.get_by_role("button", name="KH", exact=True).click()
    pressed = page.locator("#pack button[aria-label=KH]")
    expect(pressed).to_have_attribute("aria-pressed", "true")
    assert pressed.locator(".card").evaluate("e => getComputedStyle(e).color") == before
    assert before == "rgb(192, 0, 26)"  # --red


def test_samples_lists_every_shipped_sample_and_opens_one_in_one_tap(
    page: Page, base: str, size: str
) -> None:
    from adjudicator import samples

    ready(page, base + "/")
    page.get_by_role("button", name="Samples").click()
    listed = page.locator("#samples .sample-name")
    expect(listed).to_have_count(len(samples.names()))
    assert "pagat_3p_full" in listed.all_inner_texts()
    layout_ok(page, "samples")
    page.get_by_role("button", name="pagat_3p_full", exact=True).click()
    record = sample("pagat_3p_full.json")
    expect(page.locator("#steps li")).to_have_count(len(record["actions"]))
    assert "finished, Cai lost" in page.locator("#ruling").inner_text()
    assert address_record(page) == record


def test_a_session_shows_its_games_their_results_and_the_score(
    page: Page, base: str, size: str
) -> None:
    name = "goat_session_3_games.json"
    record = sample(name)
    expected = calls.check_one(json.dumps(record))
    ready(page, base + "/" + link(record))
    games = page.locator("#session-games button")
    expect(games).to_have_count(3)
    for k, game in enumerate(expected["games"]):
        assert games.nth(k).inner_text() == f"Game {k + 1}: {' and '.join(game['losers'])} lost"
    scores = ", ".join(f"{n} {p}" for n, p in expected["scores"].items())
    assert f"score: {scores}" in page.locator("#session-about").inner_text()
    first = len(record["games"][0]["actions"])
    expect(page.locator("#steps li")).to_have_count(first)
    page.select_option("#game", "1")
    expect(page.locator("#steps li")).to_have_count(len(record["games"][1]["actions"]))
    assert re.search(r"&game=2(&|$)", page.evaluate("location.hash"))
    assert unlink(page.evaluate("location.hash").split("&")[0]) == record
    layout_ok(page, "session")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#game")).to_have_value("1")


def test_sharing_says_copied_draws_a_qr_code_and_names_the_download(
    page: Page, base: str, size: str
) -> None:
    ready(page, base + "/" + link(README_DISPUTE))
    page.wait_for_selector(".violation")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.get_by_role("button", name="Copy link").click()
    expect(page.locator("#shared")).to_have_text("Copied: the link is on the clipboard.")
    qr = page.get_by_role("img", name=re.compile("^QR code of the link"))
    expect(qr).to_be_visible()
    assert qr.evaluate("e => e.tagName") == "svg"
    copied = page.evaluate("navigator.clipboard.readText()")
    assert unlink(copied) == README_DISPUTE
    drawn = qr_drawn(page)  # the code on screen: the service's (segno's), read back to the link
    assert drawn == qr_of(copied)["rows"] and qr_decoded(drawn) == copied
    layout_ok(page, "shared")
    with page.expect_download() as caught:
        page.get_by_role("button", name="Download").click()
    day = page.evaluate("new Date().toISOString().slice(0, 10)")
    assert caught.value.suggested_filename == f"helmfrid-Anna-Bo-Cai-{day}.json"


def test_stepping_a_replay_on_a_phone_keeps_the_hands_and_the_controls_on_screen(
    browser: Browser, base: str
) -> None:
    context = browser.new_context(viewport=VIEWPORTS["phone"])
    tab = context.new_page()
    record = sample("illegal_goat_sluff_final.json")
    ready(tab, base + "/" + link(record))
    tab.wait_for_selector(".violation")
    tab.evaluate("scrollTo(0, 0)")
    total = len(record["actions"])
    for button in ("Back", "Forward", "Back", "Back", "Forward"):
        before = tab.evaluate("scrollY")
        tab.get_by_role("button", name=button, exact=True).click()
        assert tab.evaluate("scrollY") == before  # the page never scrolls by itself
        assert in_view(tab, "#forward") and in_view(tab, "#back")
        assert in_view(tab, ".seats .seat")  # the first hand, with the controls
        assert re.fullmatch(rf"Action \d+ of {total}: .+", tab.locator("#where").inner_text())
    # the README's dispute: read the ruling, the legal list, the actions below: still there
    ready(tab, base + "/" + link(README_DISPUTE))
    tab.wait_for_selector(".violation")
    for down in (600, 100_000):
        tab.evaluate(f"scrollTo(0, {down})")
        assert tab.evaluate("scrollY") > 500
        assert in_view(tab, "#forward") and in_view(tab, "#back"), down
    context.close()


def test_something_else_offers_only_the_variants_acts_and_enters_a_deal(
    page: Page, base: str
) -> None:
    ready(page, base + "/" + link({**README_DISPUTE, "actions": []}))
    page.locator("#else summary").click()
    acts = page.locator("#else-act option").all_inner_texts()
    assert acts == ["play", "pick", "dare", "sluff", "deal"]  # helmfrid: no exchange, no set_aside
    assert page.locator("#else summary").evaluate("e => getComputedStyle(e).borderStyle") == "solid"
    # a deal the rules leave to chance, entered by hand as the record writes it
    record = sample("helmfrid_3p_full.json")
    game = document_from_text(json.dumps(record))
    forms = [a.record_form(game.players) for a in game.actions]
    at = next(i for i, f in enumerate(forms) if isinstance(f, dict))
    deal = forms[at]
    assert isinstance(deal, dict)
    ready(page, base + "/" + link({**record, "actions": record["actions"][:at]}))
    expect(page.locator("#steps li")).to_have_count(at)
    if page.locator("#else").get_attribute("open") is None:
        page.locator("#else summary").click()
    page.select_option("#else-player", deal["player"])
    page.select_option("#else-act", "deal")
    typed = " ".join(f"{who}:{','.join(cards)}" for who, cards in deal["to"].items())
    page.fill(
        "#else-cards",
        " ".join(f"{who}:{','.join(cards).lower()}" for who, cards in deal["to"].items()),
    )
    page.get_by_role("button", name="Enter this action").click()
    expect(page.locator("#steps li")).to_have_count(at + 1)
    assert address_record(page)["actions"][-1] == f"{deal['player']} deal {typed}"
    assert page.locator("#steps button.bad").count() == 0  # the deal was legal


def test_the_api_docs_page_shows_code_not_backticks(page: Page, base: str) -> None:
    ready(page, base + "/docs")
    text = page.locator("#endpoints").inner_text()
    assert "`" not in text
    assert page.locator("#endpoints code", has_text="check --json").count() >= 1


TAPS_DOC = ROOT / "docs" / "page.md"


def test_the_readme_dispute_takes_the_taps_the_docs_say(page: Page, base: str, size: str) -> None:
    """The fewest taps for the README's dispute, counted as a hand makes them: a choice
    list is two taps (open, choose), each typed character one character."""
    taps = typed = 0

    def tap(name: str, where: str = "") -> None:
        nonlocal taps
        taps += 1
        scope = page.locator(where) if where else page
        scope.get_by_role("button", name=name, exact=True).click()

    def choose(selector: str, value: str) -> None:
        nonlocal taps
        taps += 2
        page.select_option(selector, value)

    ready(page, base + "/")
    choose("#variant", "helmfrid")
    page.fill("#players", "Anna Bo Cai")
    typed += len("Anna Bo Cai")
    taps += 1
    page.get_by_label("A position in phase two").check()
    for who, cards in (("Anna", "6D KH 4C"), ("Bo", "7D 8D 9D 2H"), ("Cai", "8C 9C 3S QD")):
        if page.input_value("#target") != f"hand:{who}":
            choose("#target", f"hand:{who}")
        for card in cards.split():
            tap(card, "#pack")
    tap("Start")
    tap("Anna play 6D")
    tap("Bo play 7D 8D 9D")
    taps += 1
    page.locator("#else summary").click()
    assert page.input_value("#else-player") == "Cai" and page.input_value("#else-act") == "play"
    tap("8C", "#else-hand")
    tap("9C", "#else-hand")
    tap("Enter this action")
    page.wait_for_selector(".violation")
    assert "rule phase2.beat" in page.locator("#ruling").inner_text()
    said = re.search(r"\*\*(\d+) taps and (\d+) typed characters\*\*", TAPS_DOC.read_text())
    assert said, "docs/page.md gives the README dispute's tap count"
    assert (taps, typed) == (int(said[1]), int(said[2]))


def test_share_uses_the_phones_share_sheet_where_there_is_one(browser: Browser, base: str) -> None:
    context = browser.new_context(viewport=VIEWPORTS["phone"])
    # a share sheet as a phone's browser offers it (headless Chromium has none)
    context.add_init_script("navigator.share = async (data) => { window.shared = data; };")
    tab = context.new_page()
    ready(tab, base + "/" + link(README_DISPUTE))
    tab.wait_for_selector(".violation")
    tab.get_by_role("button", name="Share", exact=True).click()
    expect(tab.locator("#shared")).to_have_text("Shared.")
    shared = tab.evaluate("window.shared")
    assert unlink(shared["url"]) == README_DISPUTE
    assert shared["title"] == "Skitgubbe ruling · helmfrid · Anna Bo Cai · 3 actions"
    expect(tab.get_by_role("img", name=re.compile("^QR code of the link"))).to_be_visible()
    assert qr_decoded(qr_drawn(tab)) == shared["url"]
    context.close()


def test_a_link_too_long_for_a_qr_code_says_so_on_a_phone(browser: Browser, base: str) -> None:
    """A session of three whole games packs to a link past what a QR code holds (version 40):
    Copy link still copies it, and where the code would be a line says to send it instead."""
    context = browser.new_context(viewport=VIEWPORTS["phone"])
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    tab = context.new_page()
    ready(tab, base + "/" + link(sample("goat_session_3_games.json")))
    tab.get_by_role("button", name="Copy link").click()
    expect(tab.locator("#shared")).to_have_text("Copied: the link is on the clipboard.")
    copied = tab.evaluate("navigator.clipboard.readText()")
    assert len(copied) > 2953  # the most a QR code holds of a link (version 40, level L)
    count = f"{len(copied):,}"
    expect(tab.locator("#qr")).to_have_text(
        f"The link is too long for a QR code ({count} characters): send it instead."
    )
    expect(tab.get_by_role("img", name=re.compile("^QR code of the link"))).to_have_count(0)
    layout_ok(tab, "too long for a QR code")
    context.close()


def test_one_players_html_file_steps_back_without_a_record(page: Page, tmp_path: Path) -> None:
    """A file made with --as holds no record (it would name every hand): stepping back
    draws the steps and offers nothing to play."""
    from click.testing import CliRunner

    from adjudicator.cli.commands import main

    name = "two_player_full.json"
    me = sample(name)["players"][0]
    target = tmp_path / "mine.html"
    result = CliRunner().invoke(
        main, ["replay", str(SAMPLES / name), "--as", me, "--html", str(target)]
    )
    assert result.exit_code == 0, result.output
    ready(page, target.as_uri())
    total = len(sample(name)["actions"])
    page.get_by_role("button", name="Back", exact=True).click()
    assert page.locator("#where").inner_text().startswith(f"Action {total - 1} of {total}: ")
    assert page.locator("#moves").is_hidden()
    page.get_by_role("button", name="Start", exact=True).click()
    assert page.locator("#where").inner_text() == f"At the start · {total} actions recorded"


GONE_ON = {  # the game went on past the disputed play: Finn's action follows Eva's
    "format": "skitgubbe-record/1",
    "variant": "pagat",
    "players": ["Dag", "Eva", "Finn"],
    "start": {
        "phase": 2,
        "trump": "H",
        "leader": "Dag",
        "hands": {"Dag": ["9C", "4S"], "Eva": ["5C", "KD", "2H"], "Finn": ["JC", "3D"]},
    },
    "actions": ["Dag play 9C", "Eva play 5C", "Finn play JC"],
}


@pytest.mark.parametrize(
    ("decision", "actions"),
    [
        ("Take it back", ["Dag play 9C", "Eva play 5C -- taken back", "Finn play JC"]),
        ("Let it stand", ["Dag play 9C", "Eva play 5C -- stands", "Finn play JC"]),
        (
            "Take it back; Eva picks up instead",
            ["Dag play 9C", "Eva play 5C -- taken back", "Eva pick", "Finn play JC"],
        ),
    ],
)
def test_a_decision_marks_the_disputed_action_not_the_records_last(
    page: Page, base: str, decision: str, actions: list[str]
) -> None:
    """A stranger's record went on after the illegal play; 'Take it back' marked Finn's
    legal play after it, and Eva's stayed unresolved."""
    ready(page, base + "/" + link(GONE_ON))
    page.wait_for_selector("#ruling .decide")
    assert "Illegal: action 2 of 3" in page.locator("#ruling .violation").inner_text()
    before = page.evaluate("location.hash")
    page.get_by_role("button", name=decision, exact=True).click()
    for _ in range(200):  # the page's CSP refuses wait_for_function's eval
        if page.evaluate("location.hash") != before:
            break
        page.wait_for_timeout(50)
    assert address_record(page)["actions"] == actions


def test_the_reason_comes_into_view_when_a_play_is_ruled_illegal(page: Page, base: str) -> None:
    """After 'Enter this action' at the foot of the page, the rule and the reason stand in
    view below the sticky replay bar (a stranger's screenshot showed them under it; the
    page now scrolls them there whenever they are not)."""
    ready(
        page, base + "/" + link({**README_DISPUTE, "actions": ["Anna play 6D", "Bo play 7D 8D 9D"]})
    )
    page.wait_for_selector("#steps li >> nth=1")
    page.locator("#else summary").click()
    page.select_option("#else-player", "Cai")
    page.get_by_role("button", name="8C", exact=True).click()
    page.get_by_role("button", name="9C", exact=True).click()
    go = page.get_by_role("button", name="Enter this action")
    page.evaluate("scrollTo(0, document.body.scrollHeight)")  # the form at the foot of the page
    go.evaluate("b => b.click()")  # tapped where it is, no scrolling by the test's driver
    page.wait_for_selector("#ruling .violation")
    page.wait_for_timeout(100)  # the scroll is instant, after the drawing
    rule = page.locator("#ruling .violation .rule").first.bounding_box()
    bar = page.locator("#replay-bar").bounding_box()
    assert rule is not None and bar is not None
    height = page.evaluate("innerHeight")
    assert bar["y"] + bar["height"] <= rule["y"] and rule["y"] + rule["height"] <= height, (
        rule,
        bar,
        height,
    )


# --- the page, second pass (issue 41): at 390×844 with touch -------------------------------


def phone_tab(browser: Browser, locale: str | None = None) -> Iterator[Page]:
    """A phone (390×844, touch; every tap is a tap) whose browser asks for ``locale``; the
    page's script errors fail the test."""
    options: dict[str, Any] = {"locale": locale} if locale else {}
    context = browser.new_context(viewport=VIEWPORTS["phone"], has_touch=True, **options)
    tab = context.new_page()
    tab.errors = []  # type: ignore[attr-defined]
    tab.on("pageerror", lambda e: tab.errors.append(str(e)))  # type: ignore[attr-defined]
    yield tab
    assert not tab.errors, tab.errors  # type: ignore[attr-defined]
    context.close()


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    """A phone: 390×844, touch; every tap is a tap."""
    yield from phone_tab(browser)


def hash_changed(page: Page, before: str) -> None:
    for _ in range(200):  # the page's CSP refuses wait_for_function's eval
        if page.evaluate("location.hash") != before:
            return
        page.wait_for_timeout(50)
    pytest.fail("the address did not change")


def test_a_reload_keeps_the_step_shown_and_undo_and_back_is_undo(phone: Page, base: str) -> None:
    """After "Take it back; … instead" and a reload, the same step and Undo; Back undoes,
    Forward redoes; the link's step counts from 1, as the narration does."""
    ready(phone, base + "/" + link(README_DISPUTE))
    phone.wait_for_selector("#ruling .decide")
    phone.get_by_role("button", name="Take it back; Cai plays Q♦ instead").tap()
    expect(phone.locator("#steps li")).to_have_count(4)
    expect(phone.locator("#where")).to_contain_text("Action 4 of 4: ")
    phone.get_by_role("button", name="Back", exact=True).tap()  # one step back: action 3
    expect(phone.locator("#where")).to_contain_text("Action 3 of 4: ")
    assert re.search(r"&step=3(&|$)", phone.evaluate("location.hash"))
    phone.reload()
    phone.wait_for_selector("body[data-ready=true]")
    expect(phone.locator("#where")).to_contain_text("Action 3 of 4: ")
    undo = phone.locator("#undo")
    expect(undo).to_be_visible()
    expect(undo).to_have_text("Undo: Take it back; Cai plays Q♦ instead")
    # the view rides in the address too
    before = phone.evaluate("location.hash")
    phone.select_option("#viewer", "Bo")
    hash_changed(phone, before)
    expect(phone.locator("#where")).to_contain_text("Action 3 of 4: ")
    assert re.search(r"&as=Bo(&|$)", phone.evaluate("location.hash"))
    phone.reload()
    phone.wait_for_selector("body[data-ready=true]")
    expect(phone.locator("#viewer")).to_have_value("Bo")
    before = phone.evaluate("location.hash")
    phone.select_option("#viewer", "")
    hash_changed(phone, before)
    # Back is Undo, Forward redoes, and neither leaves the page
    before = phone.evaluate("location.hash")
    phone.go_back()
    hash_changed(phone, before)
    expect(phone.locator("#steps li")).to_have_count(3)
    assert address_record(phone)["actions"] == README_DISPUTE["actions"]
    expect(phone.locator("#undo-about")).to_have_text("Undone: Take it back; Cai plays Q♦ instead")
    expect(undo).to_be_hidden()
    phone.go_forward()
    expect(phone.locator("#steps li")).to_have_count(4)
    expect(undo).to_be_visible()
    # the Undo button is the same as Back
    undo.tap()
    expect(phone.locator("#steps li")).to_have_count(3)
    assert phone.url.startswith(base)


def test_back_after_opening_a_sample_returns_to_samples(phone: Page, base: str) -> None:
    ready(phone, base + "/")
    phone.get_by_role("button", name="Samples").tap()
    phone.get_by_role("button", name="pagat_3p_full", exact=True).tap()
    record = sample("pagat_3p_full.json")
    expect(phone.locator("#steps li")).to_have_count(len(record["actions"]))
    phone.go_back()
    expect(phone.locator("#screen-samples")).to_be_visible()
    assert phone.url == base + "/#samples"
    phone.go_back()
    expect(phone.locator("#screen-new")).to_be_visible()
    assert phone.url == base + "/"
    phone.go_forward()
    phone.go_forward()
    expect(phone.locator("#steps li")).to_have_count(len(record["actions"]))
    assert address_record(phone) == record


def test_the_new_dispute_form_survives_a_reload_until_new_dispute(phone: Page, base: str) -> None:
    """Names, variant, phase and the cards tapped into the grid come back after a reload
    (a pull-to-refresh while tapping cards); "New dispute" clears them. Names part at
    commas too; Start with no card placed says what is missing."""
    ready(phone, base + "/")
    phone.select_option("#variant", "helmfrid")
    phone.fill("#players", "Åsa, Björn, Cecilia")
    phone.get_by_label("A position in phase two").tap()
    phone.get_by_role("button", name="Start", exact=True).tap()
    fault = phone.locator("#pack-fault")
    expect(fault).to_contain_text("no card is placed yet")
    assert phone.locator("#ruling").inner_text() == ""
    expect(phone.locator("#target option")).to_have_text(
        ["Åsa's hand", "Björn's hand", "Cecilia's hand"]
    )
    phone.select_option("#target", "hand:Björn")
    phone.get_by_role("button", name="KH", exact=True).tap()
    phone.reload()
    phone.wait_for_selector("body[data-ready=true]")
    assert phone.input_value("#players") == "Åsa, Björn, Cecilia"
    expect(phone.locator("#variant")).to_have_value("helmfrid")
    expect(phone.get_by_label("A position in phase two")).to_be_checked()
    expect(phone.locator("#target")).to_have_value("hand:Björn")
    expect(phone.locator("#pack button[aria-label=KH]")).to_have_attribute("aria-pressed", "true")
    # from a deck, the names as typed: a download keeps their letters
    phone.get_by_label("From a deck").tap()
    phone.get_by_role("button", name="Deal at random").tap()
    phone.get_by_role("button", name="Start", exact=True).tap()
    expect(phone.locator(".seat .name")).to_have_text(
        [re.compile(f"^(▶ )?{n}$") for n in ("Åsa", "Björn", "Cecilia")]
    )
    with phone.expect_download() as caught:
        phone.get_by_role("button", name="Download").tap()
    day = phone.evaluate("new Date().toISOString().slice(0, 10)")
    assert caught.value.suggested_filename == f"helmfrid-Åsa-Björn-Cecilia-{day}.json"
    phone.get_by_role("button", name="New dispute").tap()
    assert phone.input_value("#players") == ""
    phone.reload()
    phone.wait_for_selector("body[data-ready=true]")
    assert phone.input_value("#players") == ""
    expect(phone.get_by_label("From a deck")).to_be_checked()


def test_a_truncated_link_says_it_is_damaged_and_changes_nothing(phone: Page, base: str) -> None:
    ready(phone, base + "/" + link(README_DISPUTE))
    phone.wait_for_selector(".violation")
    shown = phone.evaluate("location.hash")
    cut = link(sample("pagat_3p_full.json"))
    for broken in (cut[: len(cut) // 2], cut[:-1]):
        phone.goto(base + "/" + broken)
        error = phone.locator("#error")
        expect(error).to_contain_text("the link is damaged")
        said = error.inner_text()
        assert "stored block" not in said and "truncated" not in said.lower(), said
        assert "Nothing was opened: the screen is as it was." in said
        expect(phone.locator("#steps li")).to_have_count(3)  # the README's dispute, as it was
        assert phone.evaluate("location.hash") == shown  # the address is the screen again
    # a fresh page with a damaged link: the message, and the New dispute screen
    other = phone.context.new_page()
    ready(other, base + "/" + cut[: len(cut) // 2])
    expect(other.locator("#error")).to_contain_text("the link is damaged")
    expect(other.locator("#screen-new")).to_be_visible()
    assert other.evaluate("location.hash") == ""


def test_open_record_takes_a_link_a_record_a_session_and_says_what_is_wrong(
    phone: Page, base: str
) -> None:
    ready(phone, base + "/")
    phone.get_by_role("button", name="Open record").tap()
    phone.get_by_role("button", name="Open", exact=True).tap()
    expect(phone.locator("#paste-fault")).to_have_text(
        "the box is empty: paste a link to a record, a record or a session (JSON), or pick a file"
    )
    record = sample("two_player_full.json")
    whole = link(record)
    phone.fill("#paste", f"{base}/{whole[: len(whole) // 2]}")
    phone.get_by_role("button", name="Open", exact=True).tap()
    said = phone.locator("#paste-fault").inner_text()
    assert said.startswith("the link is damaged") and "stored block" not in said
    phone.fill("#paste", '{"format": "skitgubbe-record/1", "variant": ')
    phone.get_by_role("button", name="Open", exact=True).tap()
    # a log cut short is no "record": the text is what was pasted (issue 40)
    expect(phone.locator("#paste-fault")).to_contain_text("the text is not whole JSON")
    assert "Unexpected" not in phone.locator("#paste-fault").inner_text()
    phone.fill("#paste", "hello")  # neither of the three the box takes: all three named
    phone.get_by_role("button", name="Open", exact=True).tap()
    expect(phone.locator("#paste-fault")).to_contain_text("nor an app's log or database")
    # a link, as shared, at its step
    phone.fill("#paste", f"Look: {base}/{whole}&step=2")
    phone.get_by_role("button", name="Open", exact=True).tap()
    expect(phone.locator("#where")).to_contain_text(f"Action 2 of {len(record['actions'])}: ")
    assert address_record(phone) == record
    phone.go_back()  # back to Open record, as it was
    expect(phone.locator("#screen-open")).to_be_visible()
    # a session, pasted as JSON
    phone.fill("#paste", json.dumps(sample("goat_session_3_games.json")))
    phone.get_by_role("button", name="Open", exact=True).tap()
    expect(phone.locator("#session-games button")).to_have_count(3)


def test_two_taps_at_once_send_the_action_once(phone: Page, base: str) -> None:
    ready(phone, base + "/" + link({**README_DISPUTE, "actions": []}))
    phone.wait_for_selector("#legal button")
    asked: list[str] = []
    phone.on("request", lambda r: asked.append(r.url) if "/api/replay" in r.url else None)
    phone.locator("#legal button[aria-label='Anna play 6D']").evaluate(
        """b => { for (let i = 0; i < 2; i++)
            b.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true })); }"""
    )
    expect(phone.locator("#steps li")).to_have_count(1)
    phone.wait_for_timeout(300)
    assert len(asked) == 1, asked
    assert address_record(phone)["actions"] == ["Anna play 6D"]
    phone.locator("#undo").tap()
    expect(phone.locator("#steps li")).to_have_count(0)
    expect(phone.locator("#undo")).to_be_hidden()  # one tap, one change to undo


def test_the_decisions_are_sentences_in_swedish(browser: Browser, base: str) -> None:
    context = browser.new_context(viewport=VIEWPORTS["phone"], has_touch=True, locale="sv-SE")
    tab = context.new_page()
    ready(tab, base + "/" + link(README_DISPUTE))
    tab.wait_for_selector("#ruling .decide")
    assert buttons(tab, "#ruling .decide") == [
        "Ta tillbaka",
        "Låt det stå",
        "Ta tillbaka; Cai lägger 3♠ i stället",
        "Ta tillbaka; Cai lägger Q♦ i stället",
        "Ta tillbaka; Cai tar upp i stället",
    ]
    ruling = tab.locator("#ruling .violation").inner_text()
    assert "8♣ 9♣ slår inte 7♦ 8♦ 9♦: det krävs en högre ruter än 9♦ eller trumf (♠)" in ruling
    assert ruling.count("9♦ eller") == 1 and "ska vara över" not in ruling
    tab.get_by_role("button", name="Ta tillbaka", exact=True).tap()
    expect(tab.locator("#ruling")).to_contain_text("Bordet tog tillbaka det. Spelet fortsätter.")
    assert "otillåtet (phase2.beat), togs tillbaka" in tab.locator("#steps").inner_text()
    context.close()


def test_two_taps_on_undo_undo_once(phone: Page, base: str) -> None:
    ready(phone, base + "/" + link({**README_DISPUTE, "actions": []}))
    phone.get_by_role("button", name="Anna play 6D", exact=True).tap()
    phone.get_by_role("button", name="Bo play 7D 8D 9D", exact=True).tap()
    expect(phone.locator("#steps li")).to_have_count(2)
    # the second tap a moment after the first, before the entry behind is drawn
    phone.locator("#undo").evaluate(
        """b => { const tap = () => b.dispatchEvent(new MouseEvent("click", { bubbles: true }));
            tap(); setTimeout(tap, 0); }"""
    )
    expect(phone.locator("#steps li")).to_have_count(1)
    phone.wait_for_timeout(500)
    expect(phone.locator("#steps li")).to_have_count(1)
    assert address_record(phone)["actions"] == ["Anna play 6D"]


def test_a_goat_ruling_cites_the_treatise_where_it_states_the_rules_options(
    phone: Page, base: str
) -> None:
    """The dreck given to the wrong player: deal.receivers' general sources are pagat.com's,
    and the ruling names the Goat treatise's sections for the options the rule reads."""
    record = sample("illegal_goat_dreck_receiver.json")
    replayed = calls.replay(json.dumps(record))
    (v,) = replayed["check"]["violations"]
    expected = [
        f"{replayed['cites'][o]} ({o})" for o in v["where"]["options"] if o in replayed["cites"]
    ]
    assert expected and all("Goat treatise" in e for e in expected)
    ready(phone, base + "/" + link(record))
    phone.wait_for_selector(".violation")
    cited = phone.locator(".violation .variant-cite").all_inner_texts()
    assert cited == expected
    layout_ok(phone, "goat ruling")
