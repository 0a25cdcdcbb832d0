"""The table's page in a real browser (Chromium driven by Playwright), at phone and desktop size.

The server runs in the test on 127.0.0.1 at a free port; the browser is found
as ``web_browser.launch`` says (never skipped).  Every screen is held to the
layout bars: no horizontal scroll, touch targets of 44 px, text of 16 px,
every control named.  The phone run saves the screenshots the README shows.
"""

from __future__ import annotations

import base64
import json
import re
import zlib
from collections.abc import Iterator
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright
from web_browser import launch, serving

from adjudicator.bulk import document_from_text, judge
from adjudicator.cards import card_code
from adjudicator.play import legal, listing
from adjudicator.play.adjudicate import adjudicate
from adjudicator.render.terminal import attempt
from adjudicator.service import verdict

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_games"
DOCS = ROOT / "docs"
VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
HOSTILE = "<img/src=x/onerror=alert(1)>"

LAYOUT = (Path(__file__).parent / "web_layout.js").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with serving() as address:
        yield address


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        found = launch(playwright)
        yield found
        found.close()


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


def link(record: dict[str, Any]) -> str:
    """``#record=`` + base64url (no padding) of raw-DEFLATE UTF-8 JSON, as the contract says."""
    pack = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = pack.compress(json.dumps(record, ensure_ascii=False).encode()) + pack.flush()
    return "#record=" + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def unlink(fragment: str) -> Any:
    code = fragment.split("#record=", 1)[1]
    raw = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
    return json.loads(zlib.decompress(raw, -15).decode())


def sample(name: str) -> dict[str, Any]:
    return json.loads((SAMPLES / name).read_text(encoding="utf-8"))


def buttons(page: Page, where: str) -> list[str]:
    return page.locator(f"{where} button").evaluate_all(
        "bs => bs.map(b => b.getAttribute('aria-label') || b.textContent.trim())"
    )


def shot(page: Page, size: str, name: str) -> None:
    if size == "phone":
        page.screenshot(path=str(DOCS / name), full_page=True)


def test_the_readme_dispute_by_taps_alone(page: Page, base: str, size: str) -> None:
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
    shot(page, size, "page-new-dispute.png")
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
    assert buttons(page, "#ruling [aria-label='Legal instead']") == [
        "Cai play 3S",
        "Cai play QD",
        "Cai pick",
    ]
    assert "Cai tries to beat 7♦ 8♦ 9♦ with 8♣ 9♣" in page.locator("#steps").inner_text()
    layout_ok(page, "ruling")
    shot(page, size, "page-ruling.png")
    assert float(page.evaluate("document.body.dataset.rulingMs")) > 0
    # the downloaded record gets the same verdict from the command line
    with page.expect_download() as caught:
        page.get_by_role("button", name="Download").click()
    saved = Path(caught.value.path()).read_text(encoding="utf-8")
    (v,) = verdict("-", judge(document_from_text(saved))).model_dump(mode="json")["violations"]
    assert (v["index"], v["rule"]) == (2, "phase2.beat")
    # take it back (the record keeps it, marked), and tap a legal alternative instead
    page.get_by_role("button", name="Take it back").click()
    page.wait_for_selector("text=The table: taken back. Play goes on.")
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
    expected = verdict("-", judge(document_from_text(text))).model_dump(mode="json")
    (v,) = expected["violations"]
    ready(page, base + "/" + link(record))
    page.wait_for_selector(".violation")
    ruling = page.locator("#ruling").inner_text()
    assert f"Illegal action {v['index']}" in ruling
    assert f"rule {v['rule']}" in ruling and v["message"] in ruling
    assert "✗ illegal" in ruling
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
    assert (
        page.locator("#where").inner_text()
        == f"After action {first_bad} · step {first_bad + 1} of {len(report.steps)}"
    )
    expected = [
        f"{s.index}. "
        + (attempt(s.words, s.violation.player or "", s.action) if s.violation else s.words)
        for s in report.steps
    ]
    assert [t.strip() for t in page.locator("#steps button").all_inner_texts()] == expected
    page.get_by_role("button", name="Start", exact=True).click()
    assert page.locator("#where").inner_text() == "At the start"
    assert page.locator(".violation").count() == 0
    page.get_by_role("button", name="Forward").click()
    page.get_by_role("button", name="Forward").click()
    assert page.locator("#where").inner_text() == f"After action 1 · step 2 of {len(report.steps)}"
    seats = page.locator(".seat").all_inner_texts()
    table = report.steps[1].table
    assert len(seats) == len(table.names)
    page.get_by_role("button", name="Back").click()
    assert page.locator("#where").inner_text() == f"After action 0 · step 1 of {len(report.steps)}"
    layout_ok(page, "replay")
    page.get_by_role("button", name="First violation").click()
    assert (
        page.locator("#where").inner_text()
        == f"After action {first_bad} · step {first_bad + 1} of {len(report.steps)}"
    )
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
    expect(page.locator(".seat .dim").first).to_be_visible()
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


def test_dark_mode_keeps_red_and_black_suits_readable(browser: Browser, base: str) -> None:
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
    tab.screenshot(path=str(DOCS / "page-ruling-dark.png"), full_page=True)
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
    assert f"rule {v.rule}" in page.locator("#ruling").inner_text()
    assert (
        page.locator("#where").inner_text()
        == f"After action {v.index} · step {v.index + 1} of {len(report.steps)}"
    )
    page.get_by_role("button", name="Start", exact=True).click()
    assert page.locator("#where").inner_text() == "At the start"
    page.get_by_role("button", name="Forward").click()
    assert page.locator("#where").inner_text() == f"After action 0 · step 1 of {len(report.steps)}"
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
    at = """(p) => {
      if (p) document.querySelectorAll("#steps button")[p - 1].click();
      else document.getElementById("first").click();
      return ["where", "table", "ruling"].map((id) => document.getElementById(id).innerText);
    }"""
    last = len(record["actions"])
    tables: dict[str, list[str]] = {}
    for viewer in ("", record["players"][1]):
        for tab in (offline, served):
            tab.evaluate("() => document.getElementById('last').click()")
            with served.expect_response("**/api/replay**") if tab is served else nullcontext():
                tab.select_option("#viewer", viewer)
            expect(tab.locator("#where")).to_have_text(
                f"After action {last - 1} · step {last} of {last}"
            )
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
    page.fill("#options", '{"compulsory_ties": true}')
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
    assert "? undetermined at action 1" in note and "phase1.tie.compulsory" in note
    assert "Whether Bo holds a king" in note
    assert "✓ legal" in page.locator("#ruling").inner_text()
    layout_ok(page, "undetermined")
