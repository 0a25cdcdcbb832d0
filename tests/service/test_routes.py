"""The page's one dispatcher (what the in-browser engine runs) answers as the HTTP API does,
and cuts its errors as the rest of the package does."""

from __future__ import annotations

import json

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


def test_the_apis_errors_are_cut_too() -> None:
    with pytest.raises(page.BadInput) as caught:
        page.explain("t" * 10_000)
    assert len(caught.value.message) <= MESSAGE_MAX
    status, text = routes.answer("GET", "/api/" + "n" * 10_000)  # no such page, in the browser
    assert status == 404 and len(json.loads(text)["error"]) <= MESSAGE_MAX
