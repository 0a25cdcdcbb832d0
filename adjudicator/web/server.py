"""The HTTP edge: the table's page and a JSON API, beside the CLI, never a second engine.

Every ruling and every list of legal actions comes from :mod:`adjudicator.service.page`,
through the dispatcher the in-browser engine runs too (:mod:`adjudicator.service.routes`);
the page only draws what the API returns.  Errors are JSON (``{"error": ...}``),
never a traceback or an HTML page; nothing is loaded from outside the package.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractContextManager, asynccontextmanager
from importlib import resources
from typing import Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from adjudicator import service
from adjudicator.exceptions import AdjudicatorError
from adjudicator.i18n import _
from adjudicator.i18n import number as grouped
from adjudicator.invalid import cut
from adjudicator.service import page as calls
from adjudicator.service import routes
from adjudicator.web import language, site
from adjudicator.web.pool import Limits, Pool, Refused

STATIC = resources.files("adjudicator.web") / "static"
MAX_BODY = 16 * 1024 * 1024
"""Default largest request body, in bytes (``serve --max-body``)."""
MAX_BODY_ENV = "ADJUDICATOR_MAX_BODY"
BODY_TIMEOUT = 30.0
"""Default seconds a request's body may take to arrive (``serve --body-timeout``); then 408."""
DRAIN = 64 * 1024 * 1024
"""Bytes of a refused body read and dropped before the answer, so that a client that
sends its whole body before reading (Python's urllib) reads the 413, not a reset."""
BODY_BUDGET = 256 * 1024 * 1024
"""Bytes of request bodies all requests together may hold; past it 429 (40 uploads
held one byte short of their 16 MB took 580 MB)."""
BODY_RATE = 1024
"""Bytes a second a request's body must keep up once :data:`BODY_GRACE` has passed;
slower, 408 (1,001 bodies held one byte short each held a connection for the whole
body timeout)."""
BODY_GRACE = 5.0
"""Seconds a body may take before :data:`BODY_RATE` applies (a phone's first bytes)."""
ANSWER_BUDGET = 64 * 1024 * 1024
"""Bytes of answers all connections together may hold while their clients read them;
past it 503 with ``Retry-After`` (clients that never read their 25 MB answers took the
server from 284 MB to 1,973 MB)."""
CHUNK = 64 * 1024
"""An answer is handed to the connection in pieces of this size, each waiting for the
client to read the one before (uvicorn's flow control): what one connection buffers
stays about 128 KB, however large the answer."""

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'"
)
"""No inline script, nothing from another origin."""

SECURITY = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]
"""Headers on every answer, refusals included."""

JSONL_TYPES = ("application/x-ndjson", "application/jsonl", "application/x-jsonlines")
RECORD_TYPES = ("application/json", *JSONL_TYPES)
"""What a record may be sent as.  Not text/plain nor a form: those another site's page
may post without asking (no CORS preflight), and the server refuses the preflight."""

ACCESS = logging.getLogger("adjudicator.access")
"""One line per request: JSON when the log is not a terminal (``serve`` sets it up)."""
GONE = logging.getLogger("adjudicator.web")


def _number(name: str, default: float) -> float:
    value = os.environ.get(name)
    return float(value) if value else default


def limits() -> Limits:
    """The pool's limits from the ``ADJUDICATOR_*`` variables ``serve`` sets."""
    base = Limits()
    return Limits(
        workers=int(_number("ADJUDICATOR_WORKERS", base.workers)),
        queue=int(_number("ADJUDICATOR_QUEUE", base.queue)),
        time_limit=_number("ADJUDICATOR_TIME_LIMIT", base.time_limit),
        memory_mb=int(_number("ADJUDICATOR_WORKER_MEMORY", base.memory_mb)),
    )


_pool: Pool | None = None


def pool() -> Pool:
    """The process's pool of checking workers, made on first use."""
    global _pool
    if _pool is None:
        _pool = Pool(limits())
    return _pool


def _error(status: int, message: str, **more: Any) -> JSONResponse:
    return JSONResponse({"error": cut(message), **more}, status_code=status)


class _Refusal(AdjudicatorError):
    """A request the guard answers itself, before or while its body arrives."""

    def __init__(self, status: int, message: str, drain: bool = True) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.drain = drain


class _Gone(AdjudicatorError):
    """The client closed the connection before its body arrived."""


class _Budget:
    """Bytes of bodies held by all requests together."""

    def __init__(self) -> None:
        self.held = 0


def _content_type(scope: Scope) -> str:
    for key, value in scope.get("headers", []):
        if key == b"content-type":
            kind: str = value.decode("latin-1")
            return kind.split(";")[0].strip().lower()
    return ""


class Guard:
    """ASGI middleware around every request: the security headers on every answer; bodies
    over the limit (413), of the wrong type (415), too slow (408) or over the memory
    budget (429) refused, the body read and dropped first (up to :data:`DRAIN`) so every
    client reads the answer; a client that went away is one log line; the access log."""

    def __init__(
        self,
        app: ASGIApp,
        max_body: int | None = None,
        body_timeout: float | None = None,
        budget: int = BODY_BUDGET,
    ) -> None:
        self.app = app
        self.max_body = max_body
        self.body_timeout = body_timeout
        self.budget = budget
        self.bodies = _Budget()

    @property
    def limit(self) -> int:
        if self.max_body is not None:
            return self.max_body
        return int(os.environ.get(MAX_BODY_ENV, MAX_BODY))

    @property
    def seconds(self) -> float:
        if self.body_timeout is not None:
            return self.body_timeout
        return _number("ADJUDICATOR_BODY_TIMEOUT", BODY_TIMEOUT)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        began = time.monotonic()
        deadline = began + self.seconds
        limit = self.limit
        status = 0
        sent = 0
        seen = 0
        held = 0
        done = False  # the whole body arrived
        started = False

        async def counted() -> Message:
            nonlocal seen, held, done
            if done:
                return await receive()
            keep_up = began + BODY_GRACE + seen / BODY_RATE  # when what came is too little
            try:
                message = await asyncio.wait_for(
                    receive(), min(deadline, keep_up) - time.monotonic()
                )
            except TimeoutError:
                if keep_up < deadline:
                    said = _("the request body arrived slower than {rate} bytes a second")
                    raise _Refusal(408, said.format(rate=grouped(BODY_RATE)), False) from None
                raise _Refusal(
                    408, f"the request body did not arrive within {self.seconds:g} s", False
                ) from None
            if message["type"] == "http.disconnect":
                raise _Gone
            if message["type"] == "http.request":
                size = len(message.get("body", b""))
                seen += size
                done = not message.get("more_body", False)
                if seen > limit:
                    raise _Refusal(413, f"the request body is over the limit of {limit} bytes")
                if self.bodies.held + size > self.budget:
                    raise _Refusal(429, "the server holds too many request bodies; try again")
                self.bodies.held += size
                held += size
            return message

        async def headed(message: Message) -> None:
            nonlocal started, status, sent
            if message["type"] == "http.response.start":
                started = True
                status = message["status"]
                headers = list(message.get("headers", []))
                named = {key for key, _ in headers}
                headers += [(key, value) for key, value in SECURITY if key not in named]
                message = {**message, "headers": headers}
            elif message["type"] == "http.response.body":
                body = message.get("body", b"")
                sent += len(body)
                if len(body) > CHUNK:  # one piece at a time: the client reads, or is cut
                    more = message.get("more_body", False)
                    for start in range(0, len(body), CHUNK):
                        last = start + CHUNK >= len(body)
                        piece = bytes(memoryview(body)[start : start + CHUNK])
                        await send(
                            {"type": message["type"], "body": piece, "more_body": more or not last}
                        )
                    return
            await send(message)

        try:
            refusal = self._refusal(scope, limit)
            if refusal is not None:
                raise refusal
            await self.app(scope, counted, headed)
        except _Refusal as refused:
            if refused.drain and not done and not _expects_continue(scope):
                await self._drain(receive, deadline, seen)
            if not started:
                answer = _error(refused.status, refused.message)
                answer.headers["connection"] = "close"
                if refused.status == 429:
                    answer.headers["retry-after"] = "1"
                await answer(scope, receive, headed)
        except _Gone:
            GONE.warning(
                "%s %s: the client went away before its body arrived",
                scope["method"],
                scope["path"],
            )
            status = 499
        finally:
            self.bodies.held -= held
            _access(scope, status, sent, began)

    def _refusal(self, scope: Scope, limit: int) -> _Refusal | None:
        """What is refused from the headers alone: a body declared too big, a record
        sent as another type than JSON."""
        for key, value in scope.get("headers", []):
            if key == b"content-length" and value.isdigit() and int(value) > limit:
                return _Refusal(413, f"the request body is over the limit of {limit} bytes")
        if scope["method"] == "POST" and scope["path"].startswith("/api/"):
            kind = _content_type(scope)
            if kind not in RECORD_TYPES:
                return _Refusal(
                    415,
                    f"content-type {kind or '(none)'}: send a record as application/json, "
                    "or JSON Lines as application/x-ndjson",
                )
        return None

    async def _drain(self, receive: Receive, deadline: float, seen: int) -> None:
        """Read and drop what the client sends, up to :data:`DRAIN` bytes or the deadline."""
        while seen < DRAIN:
            try:
                message = await asyncio.wait_for(receive(), deadline - time.monotonic())
            except TimeoutError:
                return
            if message["type"] != "http.request":
                return
            seen += len(message.get("body", b""))
            if not message.get("more_body", False):
                return


def _expects_continue(scope: Scope) -> bool:
    """Whether the client waits for "100 Continue" before its body: then it reads the
    refusal without sending the body, and nothing needs draining."""
    return any(k == b"expect" and v.lower() == b"100-continue" for k, v in scope["headers"])


def _access(scope: Scope, status: int, sent: int, began: float) -> None:
    if not ACCESS.isEnabledFor(logging.INFO):
        return
    client = scope.get("client")
    fields = {
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "client": client[0] if client else None,
        "method": scope["method"],
        "path": scope["path"],
        "status": status,
        "bytes": sent,
        "ms": round((time.monotonic() - began) * 1000, 1),
    }
    ACCESS.info("%s", fields)


class AccessFormat(logging.Formatter):
    """An access line as JSON (``json=True``, for a log a machine reads) or as words."""

    def __init__(self, as_json: bool) -> None:
        super().__init__()
        self.as_json = as_json

    def format(self, record: logging.LogRecord) -> str:
        fields = record.args
        if not isinstance(fields, dict):
            return record.getMessage()
        if self.as_json:
            return json.dumps(fields, ensure_ascii=False)
        return (
            f"{fields['client']} {fields['method']} {fields['path']} {fields['status']} "
            f"{fields['bytes']} B {fields['ms']} ms"
        )


def _loop_error(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """A connection-level error as one line (out of descriptors while accepting, a
    client's reset), not a traceback per socket: 1,100 silent sockets logged 55 MB."""
    error = context.get("exception")
    if isinstance(error, OSError):
        GONE.warning("%s: %s", context.get("message", "connection error"), error.strerror)
    else:
        loop.default_exception_handler(context)


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Start the workers before the first request; end them when the server stops."""
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(_loop_error)
    await loop.run_in_executor(None, pool().start)
    yield
    global _pool
    if _pool is not None:
        _pool.close()
        _pool = None


app = FastAPI(
    title="adjudicator",
    summary="The strict rules adjudicator for Skitgubbe and its family, over HTTP.",
    description=(
        "Records in, rulings out: the same JSON as `adjudicator check --json` and "
        '`adjudicator legal --json`. Errors are `{"error": ...}` with the CLI\'s one line.'
    ),
    docs_url=None,
    redoc_url=None,
    lifespan=_lifespan,
)
app.add_middleware(language.Speaking)  # ?lang= / Accept-Language: the messages' language
app.add_middleware(Guard)  # outermost: its headers on every answer
app.include_router(language.router)  # /i18n/LANG.json: the page's strings
app.router.redirect_slashes = False  # a redirect would carry the Host header back


@app.exception_handler(Refused)
async def _refused(request: Request, exc: Refused) -> JSONResponse:
    answer = _error(exc.status, exc.message)
    if exc.retry_after is not None:
        answer.headers["retry-after"] = str(exc.retry_after)
    return answer


@app.exception_handler(calls.BadInput)
async def _bad_input(request: Request, exc: calls.BadInput) -> JSONResponse:
    return _error(exc.status, exc.message, **(exc.body or {}))


@app.exception_handler(RequestValidationError)
async def _invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
    first = exc.errors()[0] if exc.errors() else {}
    where = ".".join(str(p) for p in first.get("loc", ()) if p not in ("query", "path", "body"))
    if first.get("type") in ("int_parsing", "int_type", "int_from_float"):
        return _error(422, routes.not_a_number(where, first.get("input")))
    said = _("{where}: not a value this request takes")
    return _error(422, said.format(where=where or "request"))


@app.exception_handler(StarletteHTTPException)
async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    if exc.status_code == 404:
        return _error(404, f"no such page: {request.url.path}")
    return _error(exc.status_code, str(exc.detail))


@app.exception_handler(Exception)
async def _crash(request: Request, exc: Exception) -> JSONResponse:
    return _error(500, "internal error: the adjudicator could not answer this request")


def _is_jsonl(request: Request) -> bool:
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    return kind in JSONL_TYPES


async def _answer(job: str, args: dict[str, Any], request: Request) -> Response:
    """One record's job run in the pool: its status and JSON text, as the worker made them,
    held against :data:`ANSWER_BUDGET` until the client has read it (or was cut)."""
    body = await request.body()
    with pool().admitted():
        status, text = await pool().call(job, args, body)
    return _Answer(
        _answers.hold(len(text)), text, status_code=status, media_type="application/json"
    )


class _Answers:
    """Bytes of answers held for their clients, all connections together."""

    def __init__(self, budget: int = ANSWER_BUDGET) -> None:
        self.budget = budget
        self.held = 0

    def hold(self, size: int) -> Callable[[], None]:
        """Count ``size`` bytes in (503 past the budget); what gives them back."""
        if self.held + size > self.budget:
            said = _(
                "the server holds too many answers not yet read by their clients; try again shortly"
            )
            raise Refused(503, said, retry_after=1)
        self.held += size
        given = [False]

        def release() -> None:
            if not given[0]:
                given[0] = True
                self.held -= size

        return release


_answers = _Answers()


class _Answer(Response):
    """An answer that gives its bytes back to the budget however its sending ends."""

    def __init__(self, release: Callable[[], None], *args: Any, **kwargs: Any) -> None:
        self.release = release
        super().__init__(*args, **kwargs)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.release()


def _lines(raw: bytes) -> Iterator[tuple[int, bytes]]:
    """The non-blank lines of JSON Lines with their numbers (from 1), without a copy of all."""
    start, number = 0, 0
    while start < len(raw):
        end = raw.find(b"\n", start)
        end = len(raw) if end < 0 else end
        number += 1
        if raw[start:end].strip():
            yield number, raw[start:end]
        start = end + 1


def _json(answer: routes.Answer) -> Response:
    status, text = answer
    return Response(text, status_code=status, media_type="application/json")


def _routed(path: str) -> Response:
    return _json(routes.answer("GET", path))


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
    if not _is_jsonl(request):
        return await _answer("check", {}, request)
    raw = await request.body()
    place = pool().admitted()
    place.__enter__()  # 429 now, before the stream's 200 is sent

    async def lines() -> AsyncIterator[bytes]:
        for number, line in _lines(raw):
            try:
                _, text = await pool().call("line", {"number": number}, line)
            except Refused as exc:  # this line only; the stream goes on
                text = service.dumps(
                    {"file": "-", "line": number, "status": "unchecked", "error": exc.message}
                ).encode()
            yield text + b"\n"

    return _Held(place, lines(), media_type="application/x-ndjson")


class _Held(StreamingResponse):
    """A stream that gives its place in the pool back however it ends (a generator's own
    ``finally`` does not run when the client leaves before its first line)."""

    def __init__(self, place: AbstractContextManager[None], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.place = place

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.place.__exit__(None, None, None)


@app.post("/api/legal", openapi_extra=RECORD_BODY, response_model=None)
async def legal(
    request: Request, at: int | None = Query(None, description="before action N (from 0)")
) -> Response:
    """A record (and `at`) → what `legal --json` prints.

    A position past an illegal action is 409 with the violation.
    """
    return await _answer("legal", {"at": at}, request)


@app.post("/api/replay", openapi_extra=RECORD_BODY, response_model=None)
async def replay(
    request: Request,
    as_: str | None = Query(None, alias="as", description="one player's view"),
    from_: int = Query(0, alias="from", ge=0, description="the first step sent"),
) -> Response:
    """A record → the verdict, the table after every step, and what may come next.

    What the page draws.  With `as` no other player's card appears anywhere.
    An answer holds at most 16 MB of steps: `steps_from`, `steps_total` and
    `steps_next` (the `from` of the next page; null when none is left) say which.
    """
    return await _answer("replay", {"viewer": as_, "start": from_}, request)


@app.get("/healthz", response_model=None)
async def healthz() -> Response:
    """Alive: the server answers and its pool can still be restored (503 when every
    worker is dead and new ones fail to start: a process manager's liveness check
    restarts the server)."""
    if _pool is not None and not _pool.healthy():
        return JSONResponse({"status": "failing", **_pool.state()}, 503)
    return JSONResponse({"status": "alive"})


@app.get("/readyz", response_model=None)
async def readyz() -> Response:
    """Ready: checking workers alive of those wanted (``alive``/``workers``); 200 while at
    least one takes records ("ready", or "degraded" while dead ones are replaced), 503
    while none does ("starting")."""
    workers = pool()
    await asyncio.get_running_loop().run_in_executor(None, workers.start)
    state = workers.state()
    alive = state["alive"]
    said = "starting" if alive == 0 else "ready" if alive >= state["workers"] else "degraded"
    return JSONResponse({"status": said, **state}, 200 if alive else 503)


@app.get("/api/variants")
async def variants() -> Response:
    """Every variant: name, what it is, its source, player counts, what a start needs."""
    return _routed("/api/variants")


@app.get("/api/variants/{name}")
async def variant(name: str) -> Response:
    """One variant: every option's value with its description and citation."""
    return _routed(f"/api/variants/{name}")


@app.get("/api/explain/{topic}")
async def explain(topic: str) -> Response:
    """A rule id (what it checks, where it is written) or a rule option."""
    return _routed(f"/api/explain/{topic}")


@app.get("/api/samples")
async def samples() -> Response:
    """Every shipped sample: name, title, variant, players, whether it is a session."""
    return _routed("/api/samples")


@app.get("/api/samples/{name}")
async def sample(name: str) -> Response:
    """One shipped sample's record or session, as `adjudicator samples NAME` prints it."""
    return _routed(f"/api/samples/{name}")


@app.post("/api/session", openapi_extra=RECORD_BODY, response_model=None)
async def session(request: Request) -> Response:
    """A session → its `check --json` object and each game as a record of its own."""
    return await _answer("session", {}, request)


@app.post("/api/qr", response_model=None)
async def qr(request: Request) -> Response:
    """`{"link": "..."}` → the link's QR code (segno): version, size and rows of modules."""
    return await _answer("qr", {}, request)


@app.post("/api/import", response_model=None)
async def import_log(request: Request) -> Response:
    """An app's log, pasted or picked on the page → its format and each game as a record.

    The body is `{"text": "...", "name": "..."}` or, for a file's bytes (the SQLite
    database of albined/skitgubbe), `{"data": "base64", "name": "..."}`, with its
    write-ahead log picked beside it as `"wal": "base64"`; the bytes are read in memory,
    never written.  `"rules"` is `"app"` (the default) or `"text"`, as `--rules`.  `format`
    is `"records"` for JSON Lines of records (what `check --write-illegal` writes: each line
    a game, `line N`), and null when the text is no app's log (a record: open it as one).
    A game carries `title`, its app's name for it, where it has one.  A source of one game
    that cannot be converted is 422 with the importer's line."""
    return await _answer("import", {}, request)


def _static(name: str, media: str) -> FileResponse:
    with resources.as_file(STATIC / name) as path:
        return FileResponse(path, media_type=media)


PAGES = {
    "adjudicator.js": "text/javascript",
    "app.js": "text/javascript",
    "engine.js": "text/javascript",
    "i18n.js": "text/javascript",
    "docs.js": "text/javascript",
    "style.css": "text/css",
    "docs.html": "text/html",
    "index.html": "text/html",
}


@app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
@app.api_route("/index.html", methods=["GET", "HEAD"], include_in_schema=False)
async def index() -> Response:
    """The page, marked to answer through this server (fetch), installable from it."""
    return Response(_installable()["index.html"], media_type="text/html; charset=utf-8")


@functools.cache
def _installable() -> dict[str, bytes]:
    """The page's files as the site has them, and the service worker that keeps them."""
    files = site.page_files("server")
    return {**files, "sw.js": site.service_worker(files).encode()}


@app.get("/manifest.webmanifest", include_in_schema=False)
async def manifest() -> Response:
    return Response(_installable()["manifest.webmanifest"], media_type="application/manifest+json")


@app.get("/sw.js", include_in_schema=False)
async def service_worker() -> Response:
    """The service worker: the page opens with the network off (the API still needs this server)."""
    return Response(
        _installable()["sw.js"],
        media_type="text/javascript; charset=utf-8",
        headers={"cache-control": "no-cache"},
    )


@app.get("/docs", include_in_schema=False)
async def docs() -> FileResponse:
    """The API's endpoints, read from /openapi.json by a local script (no CDN)."""
    return _static("docs.html", "text/html; charset=utf-8")


@app.get("/static/{name}", include_in_schema=False)
async def static(name: str) -> Response:
    if f"static/{name}" in site.ICONS:
        kind = "image/svg+xml" if name.endswith(".svg") else "image/png"
        return Response(_installable()[f"static/{name}"], media_type=kind)
    media = PAGES.get(name)
    if media is None:
        return _error(404, f"no such page: /static/{name}")
    return _static(name, f"{media}; charset=utf-8")
