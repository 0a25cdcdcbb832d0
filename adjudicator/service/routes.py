"""The page's calls as one function: a route in, a status and JSON text out.

The HTTP API (:mod:`adjudicator.web.server`) and the in-browser engine (the page's
Web Worker, running this module in Pyodide) both answer through :func:`answer`, so
the page gets the same JSON from a laptop's server and from the phone itself.
Standard library and the core only: no web framework, nothing that prints.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, unquote

from adjudicator import i18n
from adjudicator.i18n import _
from adjudicator.invalid import cut
from adjudicator.service import page, qr

Answer = tuple[int, str]
"""An HTTP status and the JSON text of the answer."""


def _json(value: Any) -> str:
    # As the server's JSONResponse writes it: compact, not ASCII-escaped.
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _error(status: int, message: str, **more: Any) -> Answer:
    return status, _json({"error": cut(message), **more})


def _text(body: str | None) -> str:
    """The record text of a POST, or BadInput as the server words it."""
    if body is None or not body.strip():
        raise page.BadInput(_("body: empty; send one record as JSON"), 400)
    return body


def _one(query: dict[str, list[str]], name: str) -> str | None:
    values = query.get(name)
    return values[-1] if values else None


def _at(query: dict[str, list[str]], name: str = "at") -> int | None:
    raw = _one(query, name)
    if raw is None:
        return None
    try:
        return int(raw)
    except ValueError:
        raise page.BadInput(not_a_number(name, raw), 422) from None


def not_a_number(name: str, given: object) -> str:
    """The one line for a query value that is no whole number (``at=two``), in the
    project's words and the request's language, not the parser's."""
    shown = repr(given) if len(repr(given)) <= 40 else repr(given)[:37] + "..."
    return _("{name}: must be a whole number, not {given}").format(name=name, given=shown)


def _check(query: dict[str, list[str]], body: str | None) -> Answer:
    result = page.check_one(_text(body))
    return (422 if result["status"] == "invalid" else 200), _json(result)


def _legal(query: dict[str, list[str]], body: str | None) -> Answer:
    return 200, _json(page.legal_at(_text(body), _at(query)))


def _replay(query: dict[str, list[str]], body: str | None) -> Answer:
    start = _at(query, "from") or 0
    return 200, page.replay_answer(_text(body), _one(query, "as"), start)


POSTS: dict[str, Callable[[dict[str, list[str]], str | None], Answer]] = {
    "/api/check": _check,
    "/api/legal": _legal,
    "/api/replay": _replay,
    "/api/session": lambda query, body: (200, _json(page.session(_text(body)))),
    "/api/qr": lambda query, body: (200, _json(qr.answer(body))),
    "/api/import": lambda query, body: (200, _json(page.imported(_text(body)))),
}
"""The routes that take a record in the body (``/api/qr``: the link to draw)."""

GETS: dict[str, Callable[[str | None], Any]] = {
    "/api/variants": lambda name: page.variants() if name is None else page.variant(name),
    "/api/explain": lambda topic: None if topic is None else page.explain(topic),
    "/api/samples": lambda name: page.samples() if name is None else page.sample(name),
}
"""The routes that read nothing but the path: ``/api/variants`` and ``/api/variants/NAME``."""


def _get(path: str) -> Answer | None:
    for prefix, call in GETS.items():
        if path == prefix or path.startswith(prefix + "/"):
            rest = path[len(prefix) + 1 :] or None
            if rest is not None and "/" in rest:
                return None
            found = call(None if rest is None else unquote(rest))
            return None if found is None else (200, _json(found))
    return None


def answer(method: str, path: str, query: str = "", body: str | None = None) -> Answer:
    """The answer to one of the page's calls: ``(status, JSON text)``, never an exception.

    ``query`` is the part of the address after ``?``; ``body`` the request's text.
    Errors are ``{"error": line}`` with the status the HTTP API gives them.  ``lang=``
    in the query chooses the messages' language, as ``?lang=`` does for the HTTP API.
    """
    asked = parse_qs(query).get("lang")
    if asked is None:
        return _answer(method, path, query, body)
    code = i18n.known(asked[-1])
    if code is None:
        return _error(400, str(i18n.UnknownLanguage(asked[-1])))
    with i18n.speaking(code):
        return _answer(method, path, query, body)


def _answer(method: str, path: str, query: str, body: str | None) -> Answer:
    method = method.upper()
    try:
        if path in POSTS:
            if method != "POST":
                return _error(405, "Method Not Allowed")
            return POSTS[path](parse_qs(query), body)
        found = _get(path) if method == "GET" else None
        if found is None:
            return _error(404, _("no such page: {path}").format(path=path))
        return found
    except page.BadInput as exc:
        return _error(exc.status, exc.message, **(exc.body or {}))
    except Exception:
        return _error(500, _("internal error: the adjudicator could not answer this request"))
