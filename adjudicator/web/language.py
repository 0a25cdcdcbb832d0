"""The HTTP API's language: ``?lang=`` or ``Accept-Language``, per request.

A pure ASGI middleware sets the language (a context variable: the request's own, however
many run at once) around the request; the answer says which it spoke (``Content-Language``)
and that it depends on the header (``Vary``).  JSON keys and rule ids stay English; the
messages in them follow.  ``?lang=`` naming no language of ours is a 400 with one line;
an ``Accept-Language`` with none of ours is English (a browser's choice is no mistake).

The page's own strings come from the same catalogues: ``GET /i18n/LANG.json``.
"""

from __future__ import annotations

from urllib.parse import parse_qs

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from adjudicator import i18n


def request_language(query_string: bytes, accept_language: str | None) -> str:
    """The language a request asks for: ``?lang=`` (refused if unknown), else the header."""
    asked = parse_qs(query_string.decode("latin-1")).get("lang")
    if asked and asked[-1].strip():
        return i18n.choose(asked[-1])
    return i18n.from_accept_language(accept_language)


class Speaking:
    """ASGI middleware: each HTTP request is answered in the language it asks for."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        header = next(
            (v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"accept-language"),
            None,
        )
        try:
            code = request_language(scope.get("query_string", b""), header)
        except i18n.UnknownLanguage as exc:
            refused = JSONResponse({"error": f"lang: {exc}"}, status_code=400)
            await refused(scope, receive, send)
            return

        async def said(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(b"content-language", code.encode()), (b"vary", b"Accept-Language")]
                message = {**message, "headers": headers}
            await send(message)

        with i18n.speaking(code):
            await self.app(scope, receive, said)


router = APIRouter()


@router.get("/i18n/{name}", include_in_schema=False)
async def page_words(name: str) -> JSONResponse:
    """The page's strings in one language, English -> translation (``{}`` for English)."""
    code, dot, kind = name.partition(".")
    if not dot or kind != "json" or i18n.known(code) != code:
        return JSONResponse({"error": f"no such catalogue: /i18n/{name}"}, status_code=404)
    return JSONResponse(i18n.page_catalogue(code), headers={"cache-control": "no-cache"})
