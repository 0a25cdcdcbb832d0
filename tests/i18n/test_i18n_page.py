"""The page in the table's language, in a real browser (issue 36): it follows the browser's
languages, has a chooser it remembers, and shows the ruling in the language chosen.

Launched as the other browser tests are (``web_browser.launch``: never skipped)."""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from conftest import DISPUTE
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, Page, expect
from web_browser import LAYOUT, link

from adjudicator import i18n
from adjudicator.web import app


def opened(browser: Browser, locale: str, url: str) -> Any:
    context = browser.new_context(locale=locale, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))  # type: ignore[attr-defined]
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")
    return context, page


def no_errors(page: Page) -> None:
    assert not page.errors, page.errors  # type: ignore[attr-defined]


def test_a_swedish_browser_gets_a_swedish_page(browser: Browser, base: str) -> None:
    context, page = opened(browser, "sv-SE", base + "/")
    assert page.locator("html").get_attribute("lang") == "sv"
    assert page.locator("#go-new").inner_text() == "Ny tvist"
    assert page.locator("#new-title").inner_text() == "Ny tvist"
    assert page.locator("label[for=variant]").inner_text() == "Variant"
    assert page.locator("label[for=players]").inner_text().startswith("Spelare, medsols")
    assert page.locator("#lang").input_value() == "sv"
    problems = page.evaluate(LAYOUT)
    assert problems == [], problems[:8]
    no_errors(page)
    context.close()


def test_an_english_browser_gets_the_english_page(browser: Browser, base: str) -> None:
    context, page = opened(browser, "en-GB", base + "/")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.locator("#go-new").inner_text() == "New dispute"
    no_errors(page)
    context.close()


def test_the_ruling_in_the_pages_language(browser: Browser, base: str) -> None:
    """The README's dispute opened from a link in a Finnish browser: the page's words and
    the engine's message in Finnish; the rule id and the actions as written."""
    context, page = opened(browser, "fi-FI", base + "/" + link(DISPUTE))
    ruling = page.locator("#ruling .violation")
    ruling.wait_for()
    text = ruling.inner_text()
    assert "Sääntöjenvastainen: siirto 3/3," in text
    assert "sääntö phase2.beat" in text
    assert "ei kaada" in text and "valtti (♠)" in text
    assert "Mitä olisi voinut pelata" in text
    decide = page.locator("#ruling .decide").inner_text()
    assert "Mitä pöytä tekee?" in decide and "Peru siirto" in decide and "Anna olla" in decide
    assert page.locator("#ruling .verdict").inner_text().startswith("✗ sääntöjenvastainen")
    # record notation stays as it is: the acts of "Something else"
    assert page.locator("#else-act option").all_inner_texts()[:2] == ["play", "pick"]
    no_errors(page)
    context.close()


def test_the_tables_decision_and_undo_in_the_pages_language(browser: Browser, base: str) -> None:
    """Issue 33's decision, undo and narration drawn by app.js, in Norwegian (not English)."""
    context, page = opened(browser, "nb-NO", base + "/" + link(DISPUTE))
    page.locator("#ruling .decide").wait_for()
    assert page.locator("#where").inner_text().startswith("Trekk 3 av 3:")
    page.get_by_role("button", name="La det stå").click()
    undo = page.locator("#undo")
    expect(undo).to_have_text("Angre: La det stå")
    undo.click()
    expect(page.locator("#undo-about")).to_have_text("Angret: La det stå")
    expect(undo).to_have_text("Angre")
    no_errors(page)
    context.close()


def test_the_chooser_is_remembered(browser: Browser, base: str) -> None:
    context, page = opened(browser, "sv-SE", base + "/")
    with page.expect_navigation():
        page.select_option("#lang", "nb")
    page.wait_for_selector("body[data-ready=true]")
    assert page.locator("html").get_attribute("lang") == "nb"
    assert page.locator("#go-new").inner_text() == "Ny tvist"
    assert page.locator("#go-open").inner_text() == "Åpne protokoll"
    again = context.new_page()  # the same browser later: still Norwegian
    again.goto(base + "/")
    again.wait_for_selector("body[data-ready=true]")
    assert again.locator("html").get_attribute("lang") == "nb"
    with again.expect_navigation():
        again.select_option("#lang", "en")
    again.wait_for_selector("body[data-ready=true]")
    assert again.locator("#go-open").inner_text() == "Open record"
    no_errors(page)
    context.close()


# --- the HTTP API ------------------------------------------------------------------------

client = TestClient(app)


def test_check_answers_in_the_accept_language() -> None:
    answer = client.post("/api/check", json=DISPUTE, headers={"Accept-Language": "fi-FI,fi;q=0.9"})
    assert answer.status_code == 200
    assert answer.headers["content-language"] == "fi"
    body = answer.json()
    english = client.post("/api/check", json=DISPUTE).json()
    assert set(body) == set(english)
    assert body["violations"][0]["rule"] == "phase2.beat"
    assert body["violations"][0]["legal"] == english["violations"][0]["legal"]
    message = body["violations"][0]["message"]
    assert "ei kaada" in message and "valtti (♠)" in message
    assert "does not beat" in english["violations"][0]["message"]


def test_lang_in_the_query_wins_over_the_header() -> None:
    answer = client.post("/api/check?lang=sv", json=DISPUTE, headers={"Accept-Language": "fi"})
    said = answer.json()["violations"][0]["message"]
    assert "det krävs en högre ruter än 9♦ eller trumf (♠)" in said


def test_an_unknown_lang_is_a_400_with_one_line() -> None:
    answer = client.post("/api/check?lang=xx", json=DISPUTE)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert "\n" not in error and error.startswith("lang: unknown language 'xx'")
    assert answer.headers["x-content-type-options"] == "nosniff"  # the guard's headers too


def test_json_lines_answer_in_the_language_too() -> None:
    lines = "\n".join([json.dumps(DISPUTE)] * 2)
    answer = client.post(
        "/api/check",
        content=lines,
        headers={"content-type": "application/x-ndjson", "Accept-Language": "nb"},
    )
    for line in answer.text.strip().splitlines():
        assert "stikker ikke" in json.loads(line)["violations"][0]["message"]


def test_the_replay_the_page_draws_is_in_the_language() -> None:
    answer = client.post("/api/replay?lang=sv", json=DISPUTE)
    violation = answer.json()["steps"][2]["violation"]
    assert "slår inte" in violation["message"] and violation["rule"] == "phase2.beat"


def test_the_pages_catalogues() -> None:
    sv = client.get("/i18n/sv.json")
    assert sv.status_code == 200 and sv.json()["New dispute"] == "Ny tvist"
    assert sv.json()["{count} card"] == ["{count} kort", "{count} kort"]
    assert client.get("/i18n/en.json").json() == {}
    assert client.get("/i18n/xx.json").status_code == 404
    assert client.get("/i18n/sv.txt").status_code == 404


# --- the in-browser engine's start-up line (engine.js) -------------------------------------


@contextmanager
def worker_site(tmp_path: Path, downloads_after: float = 0.0) -> Iterator[str]:
    """The static site's page (the in-browser engine) without Pyodide or wheels: the engine
    starts and fails at its first downloads (``pyodide/``, ``wheels/``: answered 404 after
    ``downloads_after`` seconds)."""
    from adjudicator.web import site

    files = site.page_files("worker")
    for path in site.SITE_FILES:  # the engine's worker, which then finds no Pyodide
        files[path] = (site.STATIC / path.removeprefix("static/")).read_bytes()
    for path, data in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_bytes(data)

    class Files(SimpleHTTPRequestHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(tmp_path), **kwargs)

        def do_GET(self) -> None:
            if "/pyodide/" in self.path or "/wheels/" in self.path:
                time.sleep(downloads_after)
            super().do_GET()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Files)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


SEEN = """
window.__seen = [];
new MutationObserver(() => {
  const said = document.querySelector("#engine p");
  if (said && window.__seen.at(-1) !== said.textContent) window.__seen.push(said.textContent);
}).observe(document, { subtree: true, childList: true, characterData: true });
"""
"""Every text the start-up line shows, in order."""


def test_the_engines_start_up_line_in_swedish(browser: Browser, tmp_path: Path) -> None:
    """A Swedish phone on the static site: engine.js's loading line and its failure (the
    wheels missing) in Swedish, never a flash of English; the server's address offered."""
    with worker_site(tmp_path, downloads_after=2.0) as url:
        context = browser.new_context(locale="sv-SE", viewport={"width": 390, "height": 844})
        context.add_init_script(SEEN)
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("#engine-server")
        seen = page.evaluate("window.__seen")
        failed = page.evaluate("adjudicator.ready.then(() => 'ready', (e) => e.message)")
        label = page.locator("label[for=engine-server]").inner_text()
        button = page.locator("#engine button").inner_text()
        context.close()
    *loading, last = seen
    assert loading == ["Laddar ner motorn…"], seen  # no English before the words came
    assert last.startswith("Domaren kunde inte starta i den här webbläsaren (")
    assert "pyodide" in last and last.endswith("kör adjudicator serve:")  # why: the browser's
    assert failed == last
    assert label == "Serverns adress" and button == "Öppna"


def test_without_webassembly_the_sentence_is_finnish(browser: Browser, tmp_path: Path) -> None:
    with worker_site(tmp_path) as url:
        context = browser.new_context(locale="fi-FI", viewport={"width": 390, "height": 844})
        context.add_init_script("delete globalThis.WebAssembly")
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("#engine-server")
        said = page.locator("#engine p").inner_text()
        failed = page.evaluate("adjudicator.ready.then(() => 'ready', (e) => e.message)")
        context.close()
    assert said.startswith("Tämä selain ei pysty ajamaan tuomaria itse")
    assert failed == said


# --- replay --html: the saved page in the run's language -----------------------------------


def _export(tmp_path: Path, *lang: str) -> tuple[Path, str]:
    from click.testing import CliRunner

    from adjudicator.cli import main

    target = tmp_path / f"page{'-'.join(lang)}.html"
    sample = Path(__file__).resolve().parents[2] / "sample_games" / "illegal_phase2_beat.json"
    env = {"ADJUDICATOR_LANG": "", "LANG": "C.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
    result = CliRunner().invoke(
        main, ["replay", *lang, "--html", str(target), str(sample)], env=env
    )
    assert result.exit_code == 1, result.output
    return target, target.read_text(encoding="utf-8")


def test_the_saved_page_carries_its_language(tmp_path: Path) -> None:
    """``replay --html --lang nb``: ``<html lang="nb">``, the page's Norwegian words inline
    (no request: the file is opened offline) and allowed to run by the page's policy; the
    English page is the page as written."""
    _path, page = _export(tmp_path, "--lang", "nb")
    assert page.startswith('<!DOCTYPE html>\n<html lang="nb">')
    found = re.search(
        r'<script type="application/json" id="page-words" lang="nb">(.*?)</script>', page
    )
    assert found is not None
    words = json.loads(found.group(1))
    assert words["New dispute"] == "Ny tvist" and words == i18n.page_catalogue("nb")
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    assert len(scripts) == 1 and "pageLanguage" in scripts[0]
    policy = re.search(r"script-src ([^\"]*)\"", page).group(1)
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
    assert f"'sha256-{digest}'" in policy.split()
    assert "stikker ikke" in page  # the engine's ruling, made in Norwegian
    _path, english = _export(tmp_path)
    assert english.startswith('<!DOCTYPE html>\n<html lang="en">')
    assert 'id="page-words"' not in english and "<script>" not in english  # no i18n.js


def test_the_saved_page_opens_in_norwegian(browser: Browser, tmp_path: Path) -> None:
    """Opened from the disk in an English browser, the saved Norwegian page speaks
    Norwegian: its own words and the ruling; no chooser (only its language is in it)."""
    path, _page = _export(tmp_path, "--lang", "nb")
    context, page = opened(browser, "en-GB", path.as_uri())
    assert page.locator("html").get_attribute("lang") == "nb"
    assert page.locator("#where").inner_text().startswith("Trekk 2 av 2:")
    assert "regel phase2.beat: 7♥ stikker ikke 9♥" in page.locator("main").inner_text()
    assert page.locator("#lang").count() == 0
    no_errors(page)
    context.close()


def test_the_svg_speaks_the_language(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from adjudicator.cli import main

    sample = Path(__file__).resolve().parents[2] / "sample_games" / "illegal_phase2_beat.json"
    target = tmp_path / "r.svg"
    CliRunner().invoke(main, ["replay", "--lang", "sv", "--svg", str(target), str(sample)])
    text = html.unescape(target.read_text(encoding="utf-8")).replace("\xa0", " ")
    assert "Utslag om" in text and "Före drag 2:" in text and "draget det gäller" in text
    assert "Ruling on" not in text
