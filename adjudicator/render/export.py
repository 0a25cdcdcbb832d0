"""A ruling to share: the table's page as one self-contained HTML file, or an SVG image.

``--html`` writes the same page ``adjudicator serve`` shows, with its style,
its script and the record's replay embedded, so it steps forward and back
offline (the rulings were made here, by the engine: the page decides
nothing).  With ``--as`` only that player's view is embedded, and not the
record: the file holds no other hand.  ``--svg`` draws one ruling with the same rich
renderables as ``replay``, on a recording console of fixed width and
colours, without the remote fonts rich's export names.  Nothing depends on
the terminal, the clock or the machine: the same record gives the same file.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import re
from importlib import resources
from typing import Any

from rich.console import Console, RenderableType
from rich.panel import Panel
from rich.terminal_theme import SVG_EXPORT_THEME
from rich.text import Text

from adjudicator import i18n
from adjudicator.bulk.outputs import write_file
from adjudicator.i18n import _
from adjudicator.play.adjudicate import Report
from adjudicator.record import FORMAT, Game, Record, Session, canonical
from adjudicator.record.canonical import canonical_game
from adjudicator.render import terminal as render

WIDTH = 100
"""Columns of the exported picture."""


def focus(report: Report, at: int | None = None) -> int | None:
    """The action in question: ``at``, else the first illegal action, else the last one."""
    if at is not None:
        return at
    for v in report.violations:
        if v.index is not None:
            return v.index
    return report.steps[-1].index if report.steps else None


def ruling(
    label: str, report: Report, at: int | None = None, viewer: str | None = None
) -> list[RenderableType]:
    """The parts of a ruling: the table before the action in question, the action, the verdict.

    ``report`` is the whole record's (``adjudicate(game, steps=True)``).  The
    action in question is framed, in red when it was refused.
    """
    parts: list[RenderableType] = [
        Text(
            _("Ruling on {label}").format(label=label)
            + f" · {report.variant} · "
            + ", ".join(report.players),
            style="bold",
        )
    ]
    index = focus(report, at)
    steps = {s.index: s for s in report.steps}
    if index is None:
        parts.append(render.start(report, viewer))
    else:
        before = steps.get(index - 1)
        parts.append(Text(_("Before action {number}:").format(number=index + 1), style="bold cyan"))
        if before is not None:
            parts.append(render.table(before.table, viewer))
        else:
            parts.append(render.start(report, viewer))
        shown = steps.get(index)
        note = report.comments.get(index) if viewer is None else None  # none for one player
        if shown is not None:
            refused = shown.violation is not None
            parts.append(
                Panel(
                    render.step(shown, viewer, label, note),
                    title=_("the action in question"),
                    title_align="left",
                    border_style="bold red" if refused else "cyan",
                )
            )
    parts.append(render.verdict(label, report, notes=viewer is None))
    return parts


def draw(parts: list[RenderableType]) -> Console:
    """A recording console holding ``parts``, drawn at a fixed width in full colour."""
    console = Console(
        record=True,
        file=io.StringIO(),
        width=WIDTH,
        color_system="truecolor",
        force_terminal=True,
        force_jupyter=False,
        force_interactive=False,
        legacy_windows=False,
        highlight=False,
        emoji=False,
        soft_wrap=False,
        _environ={},
    )
    for part in parts:
        console.print(part)
    return console


FONTS = "font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace"
"""The machine's own monospace fonts, in place of rich's Fira Code from a CDN."""
REMOTE_FONTS = re.compile(r"@font-face\s*\{[^}]*\}\s*", re.S)


def svg(label: str, report: Report, at: int | None = None, viewer: str | None = None) -> str:
    """The ruling as an SVG document, in the machine's monospace font (nothing remote)."""
    text = draw(ruling(label, report, at, viewer)).export_svg(
        title=f"adjudicator · {label}", theme=SVG_EXPORT_THEME
    )
    text = REMOTE_FONTS.sub("", text)
    return text.replace("font-family: Fira Code, monospace", FONTS)


def record_of(
    game: Game, document: Game | Session | None = None, number: int | None = None
) -> dict[str, Any]:
    """The record a game was read from, in canonical form; a session's game as a record.

    ``number`` is the game's place in the session (from 0): a game as played (its first
    leader the previous game's loser) is a copy, not one of the session's own."""
    if isinstance(game.record, Record):
        return canonical(game.record)
    if not isinstance(document, Session) or document.record is None:
        raise ValueError("the game's record is not at hand")
    session = document.record
    if number is None:
        number = document.games.index(game)
    data = canonical_game(session, number, FORMAT)  # card codes, not the engine's numbers
    if game.first_leader is not None and game.start is None:
        data["first_leader"] = game.players[game.first_leader]  # the previous game's loser
    return data


def _script_safe(value: Any) -> str:
    """JSON that cannot end the <script> element holding it."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate ("\\udfff" in a record): kept as escaped
        text = json.dumps(value, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


_EMBEDDED = re.compile(r'(<script type="application/json" id="embedded">)(.*?)(</script>)', re.S)
_TITLE = re.compile(r"(<title>)(.*?)(</title>)", re.S)


def embedded(page: str) -> str:
    """The JSON a page embeds (the record's replay), as written in it."""
    found = _EMBEDDED.search(page)
    return found.group(2) if found else ""


def skeleton(page: str) -> str:
    """The page without what comes from a record (the embedded JSON, the title's text): the
    same for every record, which is how tests and the fuzzer hold record text in its place."""
    return _TITLE.sub(r"\1\3", _EMBEDDED.sub(r"\1\3", page, count=1), count=1)


def _sha256(text: str) -> str:
    return base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()


def html(
    label: str,
    report: Report,
    at: int | None = None,
    viewer: str | None = None,
    game: Game | None = None,
    document: Game | Session | None = None,
    number: int | None = None,
) -> str:
    """The table's page as one file: the record's replay embedded, steppable offline.

    ``game`` is the game replayed (its record is embedded; ``document`` the
    session it belongs to, if any, and ``number`` its place there, from 0); ``viewer`` embeds
    only that player's view; ``at`` opens the page at that action (else at the
    first violation).
    """
    from adjudicator.service import page as calls  # the page's own calls; imports no web framework

    if game is None:
        raise ValueError("the HTML page needs the game to embed its record")
    record = record_of(game, document, number)
    text = json.dumps(record, ensure_ascii=False)
    # Everyone's view and each player's, or that one player's: adjudicated once, each view
    # a patch per step (calls.packed_replays; app.js unpacks each view when it is shown).
    viewers: list[str | None] = [viewer] if viewer is not None else [None, *game.players]
    packed = calls.packed_replays(text, viewers, label)
    # One player's view holds no record: the record names every hand.
    data = {
        "label": label,
        "record": record if viewer is None else None,
        "steps": packed["steps"],
        "views": packed["views"],
        "viewer": viewer or "",
        "at": at,
    }
    static = resources.files("adjudicator.web") / "static"
    page = (static / "index.html").read_text(encoding="utf-8")
    style = (static / "style.css").read_text(encoding="utf-8")
    script = (static / "app.js").read_text(encoding="utf-8")
    # The page's words in the run's language (--lang), in the file: i18n.js and the one
    # catalogue inline, as the rulings in it are; English is the page as written.
    code = i18n.language()
    words = "" if code == i18n.SOURCE else (static / "i18n.js").read_text(encoding="utf-8")
    assert all("</script" not in s.lower() for s in (script, words))
    assert "</style" not in style.lower()
    scripts = " ".join(f"'sha256-{_sha256(s)}'" for s in (words, script) if s)
    policy = (
        f"default-src 'none'; img-src data:; style-src 'sha256-{_sha256(style)}'; "
        f"script-src {scripts}"
    )
    from html import escape

    page = page.replace(
        '<meta charset="utf-8">',
        f'<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" content="{policy}">',
    )
    page = page.replace(
        "<title>Skitgubbe adjudicator</title>",
        f"<title>{escape(f'adjudicator · {label}')}</title>",
    )
    page = page.replace(
        '<link rel="stylesheet" href="/static/style.css">', f"<style>{style}</style>"
    )
    # no engine in a saved file: no embedding API either
    page = page.replace('<script src="/static/adjudicator.js"></script>\n', "")
    if words:
        page = page.replace('<html lang="en">', f'<html lang="{code}">')
        page = page.replace(
            '<script src="/static/i18n.js"></script>',
            f'<script type="application/json" id="page-words" lang="{code}">'
            f"{_script_safe(i18n.page_catalogue(code))}</script>\n<script>{words}</script>",
        )
    else:
        page = page.replace('<script src="/static/i18n.js"></script>\n', "")  # as written
    page = page.replace(
        '<script type="module" src="/static/app.js"></script>',
        f'<script type="application/json" id="embedded">{_script_safe(data)}</script>\n'
        f'<script type="module">{script}</script>',
    )
    return page


def write(
    target: str,
    kind: str,
    label: str,
    report: Report,
    at: int | None = None,
    viewer: str | None = None,
    game: Game | None = None,
    document: Game | Session | None = None,
    number: int | None = None,
) -> None:
    """Write the ruling to ``target`` as ``kind`` ("svg" or "html"), whole or not at all
    (a full disk keeps the older file); :class:`OutputError` with one line if it cannot."""
    if kind == "svg":
        text = svg(label, report, at, viewer)
    else:
        text = html(label, report, at, viewer, game, document, number)
    write_file(f"--{kind}", target, text)
