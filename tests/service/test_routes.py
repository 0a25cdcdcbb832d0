"""The page's one dispatcher (what the in-browser engine runs) answers as the HTTP API does,
and the server serves the page installable: manifest, icons, service worker."""

from __future__ import annotations

import json
import re

import pytest
from conftest import DISPUTE
from fastapi.testclient import TestClient

from adjudicator.invalid import MESSAGE_MAX
from adjudicator.service import page, routes
from adjudicator.service.routes import answer
from adjudicator.web import app

client = TestClient(app)
TEXT = json.dumps(DISPUTE)

CALLS = [
    ("POST", "/api/check", "", TEXT),
    ("POST", "/api/check", "", '{"format": "skitgubbe-record/1"}'),
    ("POST", "/api/check", "", "not json"),
    ("POST", "/api/legal", "at=2", TEXT),
    ("POST", "/api/legal", "at=3", TEXT),
    ("POST", "/api/legal", "at=99", TEXT),
    ("POST", "/api/legal", "at=x", TEXT),
    ("POST", "/api/legal", "", "   "),
    ("POST", "/api/replay", "as=Bo", TEXT),
    ("POST", "/api/replay", "", TEXT),
    ("GET", "/api/variants", "", None),
    ("GET", "/api/variants/helmfrid", "", None),
    ("GET", "/api/variants/nosuch", "", None),
    ("GET", "/api/explain/phase2.beat", "", None),
    ("GET", "/api/explain/compulsory_ties", "", None),
    ("GET", "/api/explain/nosuch", "", None),
    ("GET", "/api/nosuch", "", None),
]


@pytest.mark.parametrize(("method", "path", "query", "body"), CALLS)
def test_the_dispatcher_answers_what_the_api_answers(
    method: str, path: str, query: str, body: str | None
) -> None:
    status, text = answer(method, path, query, body)
    url = path + (f"?{query}" if query else "")
    sent = {} if body is None else {"content-type": "application/json"}  # as the page sends it
    http = client.request(
        method, url, content=None if body is None else body.encode(), headers=sent
    )
    assert status == http.status_code, http.text
    assert json.loads(text) == http.json()


def test_the_dispatcher_never_raises() -> None:
    assert answer("GET", "/api/check")[0] == 405
    status, text = answer("POST", "/api/replay", "as=Nobody", TEXT)
    assert status >= 400 and json.loads(text)["error"]
    assert json.loads(answer("POST", "/api/legal", "", None)[1]) == {
        "error": "body: empty; send one record as JSON"
    }


def test_the_server_serves_the_page_installable() -> None:
    page = client.get("/").text
    assert '<meta name="adjudicator-engine" content="server">' in page
    assert '<link rel="manifest" href="manifest.webmanifest">' in page
    assert 'src="static/app.js"' in page  # relative: the same page from a sub-folder too
    manifest = client.get("/manifest.webmanifest").json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "./"
    for icon in manifest["icons"]:
        got = client.get("/" + icon["src"])
        assert got.status_code == 200 and got.headers["content-type"] == icon["type"]
    worker = client.get("/sw.js")
    assert worker.headers["content-type"].startswith("text/javascript")
    listed = json.loads(re.search(r"const FILES = (\[.*?\]);", worker.text).group(1))  # type: ignore[union-attr]
    assert {"./", "static/app.js", "static/engine.js", "static/style.css"} <= set(listed)
    assert "/api/" not in worker.text.split("const FILES", 1)[1].split(";", 1)[0]
    for path in listed:
        assert client.get("/" + path.removeprefix("./")).status_code == 200, path


def test_the_apis_errors_are_cut_too() -> None:
    with pytest.raises(page.BadInput) as caught:
        page.explain("t" * 10_000)
    assert len(caught.value.message) <= MESSAGE_MAX
    status, text = routes.answer("GET", "/api/" + "n" * 10_000)  # no such page, in the browser
    assert status == 404 and len(json.loads(text)["error"]) <= MESSAGE_MAX
