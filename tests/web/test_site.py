"""The static site (``adjudicator site OUT``): the engine in the browser, offline.

The site is built once per run into a temporary folder (the downloads, Pyodide from
npm and the pinned wheels from the package index, are cached between runs in
``~/.cache/adjudicator/site``), served by ``python -m http.server`` on 127.0.0.1 and
opened in Chromium at 390×844.  With npm or the package index unreachable the build
fails, and so do these tests, with one line saying which; they never skip.
"""

from __future__ import annotations

import gettext
import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from conftest import qr_decoded, qr_drawn
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
from web_browser import free_port, launch, link

from adjudicator import i18n
from adjudicator.service.qr import qr as qr_of
from adjudicator.web import site

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_games"
README = ROOT / "README.md"
PHONE = {"width": 390, "height": 844}
EDGE_LIBRARIES = (
    "rich",
    "click",
    "textual",
    "fastapi",
    "starlette",
    "uvicorn",
    "dask",
    "distributed",
)
START = 240_000
"""Milliseconds the in-browser engine may take to start on a loaded machine."""


@contextmanager
def static_server(root: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``python -m http.server`` on 127.0.0.1 serving ``root``: a plain static host."""
    port = free_port()
    command = [sys.executable, "-m", "http.server", str(port), "-b", "127.0.0.1", "-d", str(root)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    address = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(address + "/manifest.webmanifest", timeout=2):
                break
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                server.kill()
                pytest.fail("python -m http.server did not start on 127.0.0.1")
            time.sleep(0.1)
    try:
        yield address, server
    finally:
        server.terminate()
        server.wait(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        found = launch(playwright)
        yield found
        found.close()


@contextmanager
def phone(
    browser: Browser, origin: str, locale: str = "en-GB"
) -> Iterator[tuple[BrowserContext, list[str]]]:
    """A phone-sized context; yields it and the requests that left ``origin``."""
    context = browser.new_context(viewport=PHONE, locale=locale)
    outside: list[str] = []
    context.on(
        "request",
        lambda r: (
            None if r.url.startswith((origin + "/", "data:", "blob:")) else outside.append(r.url)
        ),
    )
    try:
        yield context, outside
    finally:
        context.close()


def started(page: Page) -> None:
    """Wait for the embedding API and for ``adjudicator.ready``."""
    page.wait_for_function("window.adjudicator !== undefined", timeout=30_000)
    late = f"new Promise((_, no) => setTimeout(() => no(new Error('not ready')), {START}))"
    page.evaluate(f"Promise.race([adjudicator.ready, {late}])")


def readme_dispute() -> dict[str, Any]:
    text = README.read_text(encoding="utf-8")
    found = re.search(r"<!-- file: dispute.json -->\n```json\n(.*?)```", text, re.S)
    assert found, "README.md has no dispute.json"
    return json.loads(found.group(1))


def test_the_folder_holds_the_page_the_manifest_a_service_worker_and_no_edge(folder: Path) -> None:
    for name in (
        "index.html",
        "manifest.webmanifest",
        "sw.js",
        "static/app.js",
        "static/worker.js",
        "static/i18n.js",
    ):
        assert (folder / name).is_file(), name
    page = (folder / "index.html").read_text(encoding="utf-8")
    assert '<meta name="adjudicator-engine" content="worker">' in page
    assert not re.search(r'(src|href)="(https?:)?//', page), (
        "the page loads something from elsewhere"
    )
    manifest = json.loads((folder / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["display"] == "standalone" and manifest["theme_color"] and manifest["name"]
    for icon in manifest["icons"]:
        assert (folder / icon["src"]).is_file(), icon["src"]
    png = (folder / "static/icon-512.png").read_bytes()
    assert png.startswith(b"\x89PNG") and int.from_bytes(png[16:20], "big") == 512
    every = [p for p in folder.rglob("*") if p.is_file()]
    listed = json.loads(
        re.search(r"const FILES = (\[.*?\]);", (folder / "sw.js").read_text()).group(1)
    )
    assert sorted(listed) == sorted(
        ["./", *(p.relative_to(folder).as_posix() for p in every if p.name != "sw.js")]
    )
    assert sum(p.stat().st_size for p in every) <= site.MAX_SIZE
    wheels = json.loads((folder / "wheels/wheels.json").read_text())
    assert sorted(wheels) == sorted(p.name for p in (folder / "wheels").glob("*.whl"))
    assert not [w for w in wheels if w.split("-")[0].lower() in EDGE_LIBRARIES]
    assert {w.split("-")[0] for w in wheels} == {
        "skitgubbe_adjudicator", "pydantic", "pydantic_core",
        "typing_extensions", "annotated_types", "typing_inspection", "segno",
    }  # fmt: skip
    assert not (folder / "static/qrcode.mjs").exists()  # Share's QR code comes from segno
    pins = (Path(str(site.PINS)) / "requirements-pyodide.txt").read_text(encoding="utf-8")
    pinned = re.search(r"^segno==(\S+) \\\n\s+--hash=sha256:", pins, re.M)
    assert pinned and f"segno-{pinned[1]}-py3-none-any.whl" in wheels  # the pinned wheel
    own = next(folder.glob("wheels/skitgubbe_adjudicator-*.whl"))
    with zipfile.ZipFile(own) as wheel:
        for code in i18n.LANGUAGES.keys() - {i18n.SOURCE}:  # the rulings' words, compiled
            mo = wheel.read(f"adjudicator/locale/{code}/LC_MESSAGES/{i18n.DOMAIN}.mo")
            assert gettext.GNUTranslations(io.BytesIO(mo)).gettext(" and ") != " and ", code
        for name in wheel.namelist():
            if name.endswith(".py"):
                text = wheel.read(name).decode()
                for library in EDGE_LIBRARIES:
                    assert not re.search(rf"^\s*(import|from) {library}\b", text, re.M), (
                        name,
                        library,
                    )


def test_every_sample_is_checked_in_the_browser_as_check_json(
    folder: Path, browser: Browser
) -> None:
    """``adjudicator.check`` answers what ``adjudicator check --json`` prints, for every sample.

    The command line names each record by its path, the page by ``-`` (what ``check -``
    names a record from standard input): the path is replaced by ``-`` in the command's
    JSON text, and then the two objects must be equal, every field."""
    paths = sorted(SAMPLES.glob("*.json"))
    done = subprocess.run(
        [sys.executable, "-m", "adjudicator", "check", "--json", *map(str, paths)],
        capture_output=True, text=True, timeout=600, check=False, cwd=ROOT,
    )  # fmt: skip
    printed = done.stdout.splitlines()
    assert len(printed) == len(paths), done.stderr[-500:]
    expected = [
        json.loads(line.replace(json.dumps(str(p))[1:-1], "-"))
        for line, p in zip(printed, paths, strict=True)
    ]
    texts = [p.read_text(encoding="utf-8") for p in paths]
    with static_server(folder) as (origin, _), phone(browser, origin) as (context, outside):
        page = context.new_page()
        page.goto(origin + "/")
        started(page)
        got = page.evaluate("texts => Promise.all(texts.map((t) => adjudicator.check(t)))", texts)
        legal = page.evaluate("t => adjudicator.legal(t, 1)", json.dumps(readme_dispute()))
    assert not outside, f"requests left the origin: {outside}"
    for path, want, answer in zip(paths, expected, got, strict=True):
        assert answer == want, path.name
    assert [a["file"] for a in got] == ["-"] * len(paths)
    assert legal["file"] == "-" and "Bo play 7D 8D 9D" in json.dumps(legal)


def offline_dispute(context: BrowserContext, server: subprocess.Popen[bytes], origin: str) -> Page:
    """Visit once, cut the network, stop the server, then open the README's dispute link:
    the page as a table gets it with no network, its ruling drawn."""
    first = context.new_page()
    first.goto(origin + "/")
    started(first)
    first.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
    first.close()
    context.set_offline(True)
    server.terminate()
    server.wait(10)
    page = context.new_page()
    page.goto(origin + "/" + link(readme_dispute()))
    started(page)
    page.wait_for_selector("#ruling .violation", timeout=START)
    return page


def test_offline_the_readme_dispute_link_is_ruled_in_the_phone(
    folder: Path, browser: Browser
) -> None:
    """Once visited, the page opens and judges with the network cut and the server stopped."""
    with static_server(folder) as (origin, server), phone(browser, origin) as (context, outside):
        page = offline_dispute(context, server, origin)
        ruling = page.locator("#ruling").inner_text()
        legal = page.locator("#ruling ul.alternatives .form").evaluate_all(
            "fs => fs.map(f => f.getAttribute('aria-label') || f.textContent.trim())"
        )  # what could have been played, and the table's choice of each: a button
        decisions = [
            page.get_by_role("button", name=name).count()
            for name in (
                "Take it back; Cai plays 3♠ instead",
                "Take it back; Cai plays Q♦ instead",
                "Take it back; Cai picks up instead",
            )
        ]
        controlled = page.evaluate("navigator.serviceWorker.controller !== null")
    assert controlled, "no service worker controls the page"
    assert "phase2.beat" in ruling
    assert legal == ["Cai play 3S", "Cai play QD", "Cai pick"]
    assert decisions == [1, 1, 1]
    assert not outside, f"requests left the origin: {outside}"


def test_offline_share_draws_the_qr_code_of_the_link_made_in_the_phone(
    folder: Path, browser: Browser
) -> None:
    """With the network cut and the server stopped, Copy link draws the QR code of the link,
    made by the phone's own Python (segno, the pinned wheel), which reads back to the link;
    a session's link too long for a QR code says so."""
    with static_server(folder) as (origin, server), phone(browser, origin) as (context, outside):
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=origin)
        page = offline_dispute(context, server, origin)
        page.get_by_role("button", name="Copy link").click()
        qr = page.get_by_role("img", name=re.compile("^QR code of the link"))
        qr.wait_for(timeout=60_000)
        copied = page.evaluate("navigator.clipboard.readText()")
        drawn = qr_drawn(page)
        page.goto(
            origin + "/" + link(json.loads((SAMPLES / "goat_session_3_games.json").read_text()))
        )
        started(page)
        page.wait_for_selector("#steps li", timeout=START)
        page.get_by_role("button", name="Copy link").click()
        too_long = page.locator("#qr p.hint").inner_text(timeout=60_000)
        long_link = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith(origin + "/#record=") and qr_decoded(drawn) == copied
    assert drawn == qr_of(copied)["rows"]  # the phone's segno makes what the server's does
    assert too_long == (
        f"The link is too long for a QR code ({len(long_link):,} characters): send it instead."
    )
    assert not outside, f"requests left the origin: {outside}"


def test_a_swedish_phone_gets_the_ruling_in_swedish_offline(folder: Path, browser: Browser) -> None:
    """The rulings' catalogues travel in the phone's wheel: offline, a Swedish browser
    reads the README's dispute in Swedish, the rule id and the cards as they are."""
    with (
        static_server(folder) as (origin, server),
        phone(browser, origin, "sv-SE") as (context, outside),
    ):
        page = offline_dispute(context, server, origin)
        ruling = page.locator("#ruling").inner_text()
    assert "phase2.beat" in ruling
    assert "8♣ 9♣ slår inte 7♦ 8♦ 9♦: det krävs en högre ruter än 9♦ eller trumf (♠)" in ruling
    assert not outside, f"requests left the origin: {outside}"


def test_without_webassembly_one_sentence_and_a_servers_address(
    folder: Path, browser: Browser
) -> None:
    """A browser that cannot run the engine says so, and offers a laptop's server instead;
    the set-up form is still there (the variants were answered when the site was built)."""
    with static_server(folder) as (origin, _), phone(browser, origin) as (context, outside):
        context.add_init_script("delete globalThis.WebAssembly")
        page = context.new_page()
        page.goto(origin + "/")
        page.wait_for_selector("#engine-server")
        said = page.locator("#engine p").inner_text()
        assert said.startswith("This browser cannot run the adjudicator itself")
        assert "adjudicator serve" in said and said.count(".") <= 1
        assert page.get_by_label("The server's address").is_visible()
        page.wait_for_function("document.querySelectorAll('#variant option').length > 3")
        failed = page.evaluate("adjudicator.ready.then(() => 'ready', (e) => e.message)")
        assert failed == said
    assert not outside, f"requests left the origin: {outside}"


@pytest.mark.parametrize(
    ("unreachable", "said"),
    [
        ({"npm_config_registry": "http://127.0.0.1:9/", "npm_config_fetch_retries": "0"},
         "npm could not fetch Pyodide (is the npm registry reachable?): "),
        ({"PIP_INDEX_URL": "http://127.0.0.1:9/simple", "PIP_NO_CACHE_DIR": "1",
          "PIP_RETRIES": "0"},
         "pip could not download the pinned wheels (is the package index reachable?): "),
    ],
    ids=["npm", "index"],
)  # fmt: skip
def test_an_unreachable_registry_is_one_line_and_status_2(
    unreachable: dict[str, str], said: str, folder: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    if "PIP_INDEX_URL" in unreachable:  # npm reachable: its install from the run's cache
        for npm in site.cache_folder().glob("npm-*"):
            shutil.copytree(npm, cache / npm.name, symlinks=True)
    env = {**os.environ, **unreachable, "ADJUDICATOR_SITE_CACHE": str(cache)}
    done = subprocess.run(
        [sys.executable, "-m", "adjudicator", "site", str(tmp_path / "out")],
        capture_output=True, text=True, timeout=600, check=False, env=env,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    last = done.stderr.splitlines()[-1]
    assert last.startswith(f"adjudicator site: {said}") and len(last) < 400, last
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()


def test_the_site_carries_each_catalogue_of_the_page_precached(folder: Path) -> None:
    """The site has no server to answer /i18n/LANG.json: the files are there, as the server
    answers them, and the service worker keeps them for offline."""
    listed = json.loads(
        re.search(r"const FILES = (\[.*?\]);", (folder / "sw.js").read_text()).group(1)
    )
    for code in ("sv", "fi", "nb"):
        path = f"i18n/{code}.json"
        words = json.loads((folder / path).read_text(encoding="utf-8"))
        assert words == i18n.page_catalogue(code) and words["Undo"] != "Undo", code
        assert path in listed, path
    assert not (folder / "i18n/en.json").exists()


def test_under_a_sub_path_the_page_reads_its_catalogue_beside_itself(
    folder: Path, browser: Browser, tmp_path: Path
) -> None:
    """GitHub Pages serves a project's site at /NAME/: a Swedish phone gets the Swedish page
    from NAME/i18n/sv.json, not from the origin's /i18n/."""
    (tmp_path / "sub").symlink_to(folder, target_is_directory=True)
    (tmp_path / "manifest.webmanifest").write_text("{}")  # static_server's sign of life
    with static_server(tmp_path) as (origin, _):
        context = browser.new_context(viewport=PHONE, locale="sv-SE")
        asked: list[str] = []
        context.on("request", lambda r: asked.append(r.url))
        page = context.new_page()
        page.goto(origin + "/sub/")
        page.wait_for_selector("html[lang=sv]", state="attached", timeout=60_000)
        go_new = page.locator("#go-new").inner_text()
        context.close()
    assert go_new == "Ny tvist"
    assert origin + "/sub/i18n/sv.json" in asked
    assert not [u for u in asked if u.startswith(origin + "/i18n/")]


def test_the_static_site_keeps_the_table_in_the_address_and_opens_anything(
    folder: Path, browser: Browser
) -> None:
    """Issue 41 on the static site, at 390×844 with touch: after "Take it back; … instead"
    a reload shows the same step with Undo; names typed survive a reload; a truncated link
    changes nothing and says so in table words; a pasted link opens in "Open record"."""
    with static_server(folder) as (origin, _):
        context = browser.new_context(viewport=PHONE, has_touch=True, locale="en-GB")
        page = context.new_page()
        page.goto(origin + "/" + link(readme_dispute()))
        started(page)
        page.wait_for_selector("#ruling .decide", timeout=START)
        page.get_by_role("button", name="Take it back; Cai plays Q♦ instead").tap()
        page.wait_for_selector("#steps li >> nth=3")
        assert page.locator("#where").inner_text().startswith("Action 4 of 4: ")
        page.reload()
        started(page)
        page.wait_for_selector("#steps li >> nth=3", timeout=START)
        assert page.locator("#where").inner_text().startswith("Action 4 of 4: ")
        assert page.locator("#undo").inner_text() == "Undo: Take it back; Cai plays Q♦ instead"
        # the New dispute form survives a reload
        page.get_by_role("button", name="New dispute").tap()
        page.fill("#players", "Anna Bo Cai")
        page.reload()
        started(page)
        page.wait_for_selector("body[data-ready=true]", timeout=START)
        assert page.input_value("#players") == "Anna Bo Cai"
        # a truncated link: the screen as it was, and the damage said in table words
        whole = link(readme_dispute())
        page.goto(origin + "/" + whole[: len(whole) // 2])
        page.wait_for_selector("#error:not([hidden])")
        said = page.locator("#error").inner_text()
        assert said.startswith("the link is damaged"), said
        assert "stored block" not in said and "truncated" not in said.lower(), said
        assert page.locator("#screen-new").is_visible()
        assert page.input_value("#players") == "Anna Bo Cai"
        # a link pasted into Open record opens
        page.get_by_role("button", name="Open record").tap()
        page.fill("#paste", origin + "/" + whole)
        page.get_by_role("button", name="Open", exact=True).tap()
        page.wait_for_selector("#ruling .violation", timeout=START)
        assert "phase2.beat" in page.locator("#ruling").inner_text()
        context.close()
