"""The static site's second pass (issues 41 and 39): what a stranger at the table still hit.

Samples, the house rules in the page's language, the table's decision in its words, the
embedding API from the first script, one download on a first visit, and an in-browser
engine that no record kills.  The site is built once per run (as tests/web/test_site.py
builds it), served by ``python -m http.server`` on 127.0.0.1 and opened in Chromium at
390×844.
"""

from __future__ import annotations

import base64
import http.server
import json
import subprocess
import sys
import threading
import zlib
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from test_site import (
    PHONE,
    START,
    link,
    phone,
    readme_dispute,
    started,
    static_server,
)
from web_browser import packed, serving

from adjudicator import i18n

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"


def words(code: str, english: str) -> str:
    """The page's words for ``english`` in ``code`` (page.po), English itself for English."""
    said = i18n.page_catalogue(code).get(english, english) if code != i18n.SOURCE else english
    assert isinstance(said, str)
    return said


def opened(page: Page, origin: str, address: str = "/") -> None:
    page.goto(origin + address)
    started(page)


# --- Samples, in the phone (issue 41, point 1) -------------------------------------------


def test_samples_list_and_open_on_the_static_site(folder: Path, browser: Browser) -> None:
    """The phone's wheel carries the samples: Samples lists them and opens one, as under serve."""
    players = json.loads((SAMPLES / "pagat_3p_full.json").read_text(encoding="utf-8"))["players"]
    with static_server(folder) as (origin, _), phone(browser, origin) as (context, outside):
        page = context.new_page()
        opened(page, origin)
        page.locator("#go-samples").click()
        sample = page.get_by_role("button", name="pagat_3p_full", exact=True)
        sample.wait_for(timeout=60_000)
        listed = page.locator("#samples li").count()
        sample.click()
        page.wait_for_selector("#screen-table:not([hidden])", timeout=60_000)
        table = page.locator("#screen-table").inner_text()
        errors = page.locator(".fault, #error:not([hidden])").all_inner_texts()
    assert listed == len(list(SAMPLES.glob("*.json")))
    assert not errors, errors
    assert all(name in table for name in players), table[:300]
    assert not outside, f"requests left the origin: {outside}"


# --- the set-up form in the page's language (issue 41, point 4) ----------------------------


@pytest.mark.parametrize("locale", ["sv-SE", "fi-FI", "nb-NO"])
def test_variant_titles_and_house_rules_in_the_pages_language(
    folder: Path, browser: Browser, locale: str
) -> None:
    """As serve shows them: each variant's title and each option's description translated."""
    code = locale.split("-")[0]
    with i18n.speaking(code):
        from adjudicator.service import page as service

        title = next(v["title"] for v in service.variants() if v["name"] == "pagat")
        decks = next(o for o in service.variant("pagat")["options"] if o["name"] == "decks")
    english = next(o for o in _english_options() if o["name"] == "decks")["description"]
    assert decks["description"] != english, "the catalogue has no translation to show"
    with static_server(folder) as (origin, _), phone(browser, origin, locale) as (context, _o):
        page = context.new_page()
        page.goto(origin + "/")
        page.wait_for_selector(f"html[lang={code}]", state="attached", timeout=60_000)
        page.wait_for_function("document.querySelectorAll('#rule-switches .hint').length > 5")
        options = page.locator("#variant option").all_inner_texts()
        page.locator("#house-rules summary").first.click()
        rules = page.locator("#rule-switches").inner_text()
    assert f"pagat — {title}" in options
    assert decks["description"].split(". ")[0] + "." in rules
    assert english.split(". ")[0] not in rules


def _english_options() -> list[dict[str, object]]:
    from adjudicator.service import page as service

    with i18n.speaking(i18n.SOURCE):
        options: list[dict[str, object]] = service.variant("pagat")["options"]
    return options


# --- the table's decision in the page's words (issue 41, point 6) --------------------------


@pytest.mark.parametrize("locale", ["sv-SE", "fi-FI", "nb-NO", "en-GB"])
def test_after_let_it_stand_the_note_is_in_the_pages_language(
    folder: Path, browser: Browser, locale: str
) -> None:
    code = locale.split("-")[0]
    with static_server(folder) as (origin, _), phone(browser, origin, locale) as (context, _o):
        page = context.new_page()
        opened(page, origin, "/" + link(readme_dispute()))
        page.wait_for_selector("#ruling .violation", timeout=60_000)
        page.get_by_role("button", name=words(code, "Let it stand"), exact=True).click()
        note = words(code, "The table let it stand. Play goes on.")
        page.wait_for_selector(f"#ruling .hint:text-is('{note}')", timeout=60_000)
        ruling = page.locator("#ruling").inner_text()
    assert "stands" not in ruling
    assert code == "en" or note != "The table let it stand. Play goes on."


# --- the embedding API from the first script (issue 41, point 13) --------------------------

SEEN_AT_DOM_CONTENT_LOADED = """
document.addEventListener("DOMContentLoaded", () => {
  const api = window.adjudicator;
  window.seen = api === undefined ? "undefined"
    : [typeof api.ready.then, typeof api.check, typeof api.legal, api.engine].join(" ");
  window.seenApi = api;
});
"""


def test_window_adjudicator_is_there_at_dom_content_loaded_every_load(
    folder: Path, browser: Browser
) -> None:
    """An embedding script meets ``window.adjudicator`` and its ``ready`` at once, however the
    module imports race; the object it met is the one that answers once the engine is up."""
    with static_server(folder) as (origin, _), phone(browser, origin) as (context, outside):
        context.add_init_script(SEEN_AT_DOM_CONTENT_LOADED)
        page = context.new_page()
        seen = []
        for _load in range(8):
            page.goto(origin + "/")
            page.wait_for_function("window.seen !== undefined")
            seen.append(page.evaluate("window.seen"))
        assert seen == ["function function function worker"] * 8
        started(page)
        verdict = page.evaluate(
            "t => window.seenApi.ready.then(() => window.seenApi.check(t))",
            json.dumps(readme_dispute()),
        )
        same = page.evaluate("window.seenApi === window.adjudicator")
    assert verdict["status"] == "illegal" and same
    assert not outside, f"requests left the origin: {outside}"


# --- the page's engine never dies of a record (issue 39, point 9) --------------------------


def test_json_nested_3000_deep_is_an_invalid_record_and_the_engine_lives_on(
    folder: Path, browser: Browser, tmp_path: Path
) -> None:
    """As the command line says it, one line; the next record (a link, then a check) works."""
    deep = "[" * 3000 + "]" * 3000
    (tmp_path / "deep.json").write_text(deep)
    done = subprocess.run(
        [sys.executable, "-m", "adjudicator", "check", "--json", str(tmp_path / "deep.json")],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    said = json.loads(done.stdout)["error"]
    assert said == "not a record: JSON nested too deeply to read", done.stdout
    with static_server(folder) as (origin, _), phone(browser, origin) as (context, outside):
        page = context.new_page()
        opened(page, origin)
        checked = page.evaluate("t => adjudicator.check(t)", deep)
        page.goto(origin + "/" + packed(deep))
        page.wait_for_selector(f"text={said}", timeout=60_000)
        page.goto(origin + "/" + link(readme_dispute()))
        page.wait_for_selector("#ruling .violation", timeout=START)
        again = page.evaluate("t => adjudicator.check(t)", json.dumps(readme_dispute()))
    assert checked["status"] == "invalid" and checked["error"] == said
    assert again["status"] == "illegal"
    assert not outside, f"requests left the origin: {outside}"


def bomb(size: int) -> str:
    """A link whose record inflates to ``size`` bytes of spaces (about 1 KB a MB)."""
    pack = zlib.compressobj(9, zlib.DEFLATED, -15)
    piece = b" " * (1 << 20)
    raw = b"".join(pack.compress(piece) for _ in range(size >> 20)) + pack.flush()
    return "#record=" + base64.urlsafe_b64encode(raw).decode().rstrip("=")


TIMED = """
window.addEventListener("hashchange", () => { window.asked = performance.now(); }, true);
new MutationObserver(() => {
  const said = document.getElementById("error");
  const shown = said && !said.hidden && said.textContent;
  if (shown && window.refused === undefined) window.refused = performance.now();
}).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
"""


def test_a_link_inflating_to_a_gigabyte_is_stopped_at_the_cap_quickly(
    folder: Path, browser: Browser
) -> None:
    """Inflated a piece at a time as it is read: refused at the cap in a fraction of the
    time a whole gigabyte takes to inflate (about 3 s, and 1 GB held)."""
    address = bomb(1 << 30)
    assert 900_000 < len(address) < 1_500_000
    with static_server(folder) as (origin, _), phone(browser, origin) as (context, outside):
        context.add_init_script(TIMED)
        page = context.new_page()
        opened(page, origin)
        page.evaluate("a => { location.hash = a; }", address)
        page.wait_for_function("window.refused !== undefined", timeout=60_000)
        took = page.evaluate("window.refused - window.asked")
        said = page.locator("#error").inner_text()
    assert "inflates to more than 2 MB" in said
    assert took < 1000, f"{took:.0f} ms to refuse"
    assert not outside, f"requests left the origin: {outside}"


def test_one_bound_on_nesting_whatever_the_strings_hold() -> None:
    """MAX_NESTING levels are read; one more is the one line, brackets and escapes inside
    strings counted as text (the bound is the command line's and the phone's alike)."""
    from adjudicator.invalid import RecordError
    from adjudicator.limits import MAX_NESTING
    from adjudicator.record.build import loads

    tricky = '"]]]\\\\", "\\"[[[", "{{"'
    inside = tricky + ", " + "[" * (MAX_NESTING - 1) + "]" * (MAX_NESTING - 1)
    assert loads("[" + inside + "]")[:3] == ["]]]\\", '"[[[', "{{"]
    with pytest.raises(RecordError, match="nested too deeply"):
        loads("[[" + inside + "]]")
    closing = '"' + "]" * 600 + '", ' + "[" * 600 + "]" * 600  # no closer hides an opener
    with pytest.raises(RecordError, match="nested too deeply"):
        loads("[" + closing + "]")


# --- one download (issue 41) ---------------------------------------------------------------


@contextmanager
def counting_server(root: Path) -> Iterator[tuple[str, Counter[str], Counter[str]]]:
    """A static host on 127.0.0.1 that counts, per path, the bodies it sent and their bytes
    (a 304 sends none): what a first visit really downloads, whoever asked for it."""
    sent: Counter[str] = Counter()
    bodies: Counter[str] = Counter()

    class Counting(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(root), **kwargs)

        def copyfile(self, source: Any, outputfile: Any) -> None:
            data = source.read()
            path = self.path.split("?")[0]
            sent[path] += len(data)
            bodies[path] += 1
            outputfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Counting)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", sent, bodies
    finally:
        server.shutdown()
        server.server_close()


def test_a_first_visit_downloads_each_file_once(folder: Path, browser: Browser) -> None:
    """The engine's files and the service worker's cache come from one download: the whole
    folder is fetched once (at most 1.1× its size), no file twice; then it works offline."""
    size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    with counting_server(folder) as (origin, sent, bodies):
        context = browser.new_context(viewport=PHONE)
        page = context.new_page()
        opened(page, origin)
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=START)
        page.evaluate("navigator.serviceWorker.ready")
        total = sum(sent.values())
        twice = {path: n for path, n in bodies.items() if n > 1}
        context.set_offline(True)
        again = context.new_page()
        opened(again, origin, "/" + link(readme_dispute()))
        again.wait_for_selector("#ruling .violation", timeout=START)
        context.close()
    assert not twice, f"downloaded more than once: {twice}"
    assert total <= 1.1 * size, f"{total:,} bytes for a folder of {size:,}"


LONG_TASKS = """
window.longest = 0;
new PerformanceObserver((list) => {
  for (const task of list.getEntries()) window.longest = Math.max(window.longest, task.duration);
}).observe({ type: "longtask", buffered: true });
"""


def test_a_heavy_record_is_judged_in_the_worker_the_page_tappable_and_saying_so(
    folder: Path, browser: Browser
) -> None:
    """70,000 actions (each taken back, each an irregularity kept): the engine works for
    seconds in its worker; meanwhile the page says it is judging, a tap changes the
    screen, and no task on the page's thread is long (PerformanceObserver 'longtask')."""
    heavy = readme_dispute()
    heavy["actions"] = [heavy["actions"][0], *["Bo play 2H -- taken back"] * 70_000]
    heavy["actions"] += readme_dispute()["actions"][1:]
    with static_server(folder) as (origin, _), phone(browser, origin) as (context, outside):
        context.add_init_script(LONG_TASKS)
        page = context.new_page()
        opened(page, origin)
        page.evaluate("() => { window.longest = 0; }")
        page.evaluate("a => { location.hash = a; }", packed(json.dumps(heavy)))
        page.wait_for_selector("#engine:has-text('Judging the record')", timeout=60_000)
        page.locator("#go-new").click(timeout=2_000)
        page.wait_for_selector("#screen-new:not([hidden])", timeout=2_000)
        page.wait_for_selector("#ruling .violation", timeout=START)
        longest = page.evaluate("window.longest")
        ruling = page.locator("#ruling").inner_text()
        line = page.locator("#engine").is_visible()
    assert "phase2.beat" in ruling and "70003" in ruling.replace(",", "").replace(" ", "")
    assert not line, "the judging line stays after the ruling"
    assert longest < 1000, f"the page's thread was held {longest:.0f} ms"
    assert not outside, f"requests left the origin: {outside}"


def test_the_served_page_has_window_adjudicator_at_dom_content_loaded(browser: Browser) -> None:
    """Under ``adjudicator serve`` too: the first script makes it, the server answers it."""
    with serving() as origin:
        context = browser.new_context(viewport=PHONE)
        context.add_init_script(SEEN_AT_DOM_CONTENT_LOADED)
        page = context.new_page()
        page.goto(origin + "/")
        page.wait_for_function("window.seen !== undefined")
        seen = page.evaluate("window.seen")
        verdict = page.evaluate(
            "t => window.seenApi.ready.then(() => window.seenApi.check(t))",
            json.dumps(readme_dispute()),
        )
        context.close()
    assert seen == "function function function server"
    assert verdict["status"] == "illegal" and verdict["file"] == "-"


DYING_WORKER = """
const Real = Worker;
window.workersMade = 0;
window.Worker = class extends Real {
  constructor(...args) { super(...args); window.workersMade += 1; }
  postMessage(message) {
    if (!message || message.body !== "die") return super.postMessage(message);
    // what worker.js says when Python itself died under a call (its stack, its memory)
    setTimeout(() => this.onmessage({ data: { id: message.id, crashed: "RangeError" } }));
  }
};
"""


def test_a_worker_whose_python_died_is_replaced_for_the_next_record(
    folder: Path, browser: Browser
) -> None:
    """The call that killed it is refused in one line; a fresh worker answers the next
    (the death is feigned: worker.js's own report of it, delivered by a wrapped Worker)."""
    with static_server(folder) as (origin, _), phone(browser, origin) as (context, outside):
        context.add_init_script(DYING_WORKER)
        page = context.new_page()
        opened(page, origin)
        said = page.evaluate(
            "Promise.race([adjudicator.check('die').then(() => 'answered', (e) => e.message),"
            " new Promise((done) => setTimeout(() => done('no answer in 60 s'), 60000))])"
        )
        verdict = page.evaluate("t => adjudicator.check(t)", json.dumps(readme_dispute()))
        made = page.evaluate("window.workersMade")
    assert said.startswith("the engine in this browser stopped on this record")
    assert verdict["status"] == "illegal" and made == 2
    assert not outside, f"requests left the origin: {outside}"
