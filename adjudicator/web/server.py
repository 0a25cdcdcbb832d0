"""The HTTP edge: the table's page and a JSON API, beside the CLI, never a second engine.

Every ruling and every list of legal actions comes from :mod:`adjudicator.service.page`;
the page only draws what the API returns.  Errors are JSON (``{"error": ...}``),
never a traceback or an HTML page; nothing is loaded from outside the package.
"""

from __future__ import annotations

import json
import os
from importlib import resources
from typing import Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from adjudicator.service import page as calls
from adjudicator.web import language

STATIC = resources.files("adjudicator.web") / "static"
MAX_BODY = 16 * 1024 * 1024
"""Default largest request body, in bytes (``serve --max-body``)."""
MAX_BODY_ENV = "ADJUDICATOR_MAX_BODY"

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'"
)
"""No inline script, nothing from another origin."""

JSONL_TYPES = ("application/x-ndjson", "application/jsonl", "application/x-jsonlines")


def _error(status: int, message: str, **more: Any) -> JSONResponse:
    return JSONResponse({"error": message, **more}, status_code=status)


class Guard:
    """ASGI middleware: refuse bodies over the limit (413) and set the security headers."""

    def __init__(self, app: ASGIApp, max_body: int | None = None) -> None:
        self.app = app
        self.max_body = max_body

    @property
    def limit(self) -> int:
        if self.max_body is not None:
            return self.max_body
        return int(os.environ.get(MAX_BODY_ENV, MAX_BODY))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit
        too_big = _error(413, f"the request body is over the limit of {limit} bytes")
        for key, value in scope.get("headers", []):
            if key == b"content-length" and value.isdigit() and int(value) > limit:
                await too_big(scope, receive, send)
                return
        seen = 0
        started = False

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise _TooBig
            return message

        async def headed(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers", []))
                headers += [
                    (b"content-security-policy", CSP.encode()),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                ]
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, counted, headed)
        except _TooBig:
            if not started:
                await too_big(scope, receive, headed)


class _TooBig(Exception):
    pass


app = FastAPI(
    title="adjudicator",
    summary="The strict rules adjudicator for Skitgubbe and its family, over HTTP.",
    description=(
        "Records in, rulings out: the same JSON as `adjudicator check --json` and "
        '`adjudicator legal --json`. Errors are `{"error": ...}` with the CLI\'s one line.'
    ),
    docs_url=None,
    redoc_url=None,
)
app.add_middleware(language.Speaking)  # ?lang= / Accept-Language: the messages' language
app.add_middleware(Guard)  # outermost: its headers on every answer
app.include_router(language.router)  # /i18n/LANG.json: the page's strings


@app.exception_handler(calls.BadInput)
async def _bad_input(request: Request, exc: calls.BadInput) -> JSONResponse:
    return _error(exc.status, exc.message, **(exc.body or {}))


@app.exception_handler(RequestValidationError)
async def _invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
    first = exc.errors()[0] if exc.errors() else {}
    where = ".".join(str(p) for p in first.get("loc", ()) if p not in ("query", "path", "body"))
    return _error(422, f"{where or 'request'}: {first.get('msg', 'not valid')}")


@app.exception_handler(StarletteHTTPException)
async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    if exc.status_code == 404:
        return _error(404, f"no such page: {request.url.path}")
    return _error(exc.status_code, str(exc.detail))


@app.exception_handler(Exception)
async def _crash(request: Request, exc: Exception) -> JSONResponse:
    return _error(500, "internal error: the adjudicator could not answer this request")


async def _text(request: Request) -> str:
    raw = await request.body()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise calls.BadInput("body: not UTF-8 text", 400) from None
    if not text.strip():
        raise calls.BadInput("body: empty; send one record as JSON", 400)
    return text


def _is_jsonl(request: Request) -> bool:
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    return kind in JSONL_TYPES


RECORD_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {"schema": {"type": "object", "description": "one record"}},
            "application/x-ndjson": {
                "schema": {"type": "string", "description": "JSON Lines: one record per line"}
            },
        },
    }
}


@app.post("/api/check", openapi_extra=RECORD_BODY, response_model=None)
async def check(request: Request) -> Response:
    """One record → the object `check --json` prints; JSON Lines → one line per record.

    An invalid record is answered 422 with the same object (`status: invalid`,
    `error` the CLI's line).  JSON Lines are answered line by line, streamed, in
    input order, each object with its `line`; blank lines are skipped.
    """
    if _is_jsonl(request):
        raw = await request.body()

        def lines() -> Any:
            for number, line in enumerate(raw.split(b"\n"), 1):
                if line.strip():
                    yield calls.dumps(calls.check_raw_line(line, number)) + "\n"

        return StreamingResponse(lines(), media_type="application/x-ndjson")
    result = calls.check_one(await _text(request))
    return JSONResponse(result, status_code=422 if result["status"] == "invalid" else 200)


@app.post("/api/legal", openapi_extra=RECORD_BODY)
async def legal(
    request: Request, at: int | None = Query(None, description="before action N (from 0)")
) -> dict[str, Any]:
    """A record (and `at`) → what `legal --json` prints.

    A position past an illegal action is 409 with the violation.
    """
    return calls.legal_at(await _text(request), at)


@app.post("/api/replay", openapi_extra=RECORD_BODY)
async def replay(
    request: Request,
    as_: str | None = Query(None, alias="as", description="one player's view"),
) -> dict[str, Any]:
    """A record → the verdict, the table after every step, and what may come next.

    What the page draws.  With `as` no other player's card appears anywhere.
    """
    return calls.replay(await _text(request), as_)


@app.get("/api/variants")
async def variants() -> list[dict[str, Any]]:
    """Every variant: name, what it is, its source, player counts, what a start needs."""
    return calls.variants()


@app.get("/api/variants/{name}")
async def variant(name: str) -> dict[str, Any]:
    """One variant: every option's value with its description and citation."""
    return calls.variant(name)


@app.get("/api/explain/{topic}")
async def explain(topic: str) -> dict[str, Any]:
    """A rule id (what it checks, where it is written) or a rule option."""
    return calls.explain(topic)


def _static(name: str, media: str) -> FileResponse:
    with resources.as_file(STATIC / name) as path:
        return FileResponse(path, media_type=media)


PAGES = {
    "app.js": "text/javascript",
    "i18n.js": "text/javascript",
    "docs.js": "text/javascript",
    "style.css": "text/css",
    "docs.html": "text/html",
    "index.html": "text/html",
}


@app.get("/", include_in_schema=False)
async def index() -> FileResponse:
    return _static("index.html", "text/html; charset=utf-8")


@app.get("/docs", include_in_schema=False)
async def docs() -> FileResponse:
    """The API's endpoints, read from /openapi.json by a local script (no CDN)."""
    return _static("docs.html", "text/html; charset=utf-8")


@app.get("/static/{name}", include_in_schema=False)
async def static(name: str) -> FileResponse:
    media = PAGES.get(name)
    if media is None:
        return _error(404, f"no such page: /static/{name}")  # type: ignore[return-value]
    return _static(name, f"{media}; charset=utf-8")


def jsonable(value: Any) -> str:
    """For tests and the export: JSON text as the API sends it."""
    return json.dumps(value, ensure_ascii=False)
