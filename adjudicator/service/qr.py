"""The QR code of a link, for the page's Share: made here, drawn by the page.

Share draws a QR code of the page's own address for the other phones to scan.  The code
is made by segno, a pure-Python QR encoder that is a dependency like pydantic: the
server's environment installs it with the package, and the static site ships its wheel,
pinned with its hash (``web/pins/requirements-pyodide.txt``), so the engine in the phone
answers ``/api/qr`` with the same function.  The project carries no copy of an encoder.
The answer is the code's modules, row by row; the page draws them as SVG.
"""

from __future__ import annotations

import json
from typing import Any

from adjudicator.i18n import N_, _, number
from adjudicator.service.page import BadInput

MOST = 7089
"""The most characters any QR code holds (version 40, error correction L, digits only): a
longer link is refused before segno reads it (a request may carry megabytes)."""

TOO_LONG = N_("The link is too long for a QR code ({count} characters): send it instead.")
"""The one line for a link no QR code holds (HTTP 422)."""


def qr(link: str) -> dict[str, Any]:
    """The QR code of ``link``: its version (1 to 40, growing with the link), its error
    correction level (L, or higher where the same size holds it), its size in modules and
    its rows, ``"1"`` for a dark module and ``"0"`` for a light one, without the quiet zone
    (the four light modules around it are the drawer's)."""
    if len(link) > MOST:
        raise BadInput(_(TOO_LONG).format(count=number(len(link))), 422)
    import segno  # only when Share asks: neither the server's nor the phone's start pays for it

    try:
        code = segno.make_qr(link, error="l")
    except segno.DataOverflowError:
        raise BadInput(_(TOO_LONG).format(count=number(len(link))), 422) from None
    rows = ["".join("1" if dark else "0" for dark in row) for row in code.matrix]
    return {"version": code.version, "error": code.error, "size": len(rows), "rows": rows}


def answer(body: str | None) -> dict[str, Any]:
    """The answer to ``POST /api/qr`` with ``{"link": "..."}``: :func:`qr` of the link."""
    try:
        sent = json.loads(body or "")
    except ValueError:
        sent = None
    link = sent.get("link") if isinstance(sent, dict) else None
    if not isinstance(link, str) or not link:
        raise BadInput(_('body: send the link as JSON, under the key "link"'), 400)
    return qr(link)
