"""A ruling to share: the action in question as an SVG image or an HTML page.

The ruling is drawn with the same rich renderables as ``replay``, on a
recording console of fixed width and fixed colours, then exported with
rich's ``export_svg`` / ``export_html``.  Nothing in it depends on the
terminal, the clock or the machine, so the same record gives the same file.
"""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console, RenderableType
from rich.panel import Panel
from rich.terminal_theme import SVG_EXPORT_THEME
from rich.text import Text

from adjudicator import render
from adjudicator.adjudicate import Report

WIDTH = 100
"""Columns of the exported picture."""

HTML_FORMAT = """\
<!DOCTYPE html>
<html>
<head>
<meta charset="UTF-8">
<title>{title}</title>
<style>
{{stylesheet}}
body {{{{
    color: {{foreground}};
    background-color: {{background}};
}}}}
</style>
</head>
<body>
<pre style="font-family:Menlo,'DejaVu Sans Mono',consolas,'Courier New',monospace">\
<code style="font-family:inherit">{{code}}</code></pre>
</body>
</html>
"""


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
        Text(f"Ruling on {label} · {report.variant} · " + ", ".join(report.players), style="bold")
    ]
    index = focus(report, at)
    steps = {s.index: s for s in report.steps}
    if index is None:
        parts.append(render.start(report, viewer))
    else:
        before = steps.get(index - 1)
        parts.append(Text(f"Before action {index}:", style="bold cyan"))
        if before is not None:
            parts.append(render.table(before.table, viewer))
        else:
            parts.append(render.start(report, viewer))
        shown = steps.get(index)
        if shown is not None:
            refused = shown.violation is not None
            parts.append(
                Panel(
                    render.step(shown, viewer),
                    title="the action in question",
                    title_align="left",
                    border_style="bold red" if refused else "cyan",
                )
            )
    parts.append(render.verdict(label, report))
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


def svg(label: str, report: Report, at: int | None = None, viewer: str | None = None) -> str:
    """The ruling as an SVG document."""
    return draw(ruling(label, report, at, viewer)).export_svg(
        title=f"adjudicator · {label}", theme=SVG_EXPORT_THEME
    )


def html(label: str, report: Report, at: int | None = None, viewer: str | None = None) -> str:
    """The ruling as a standalone HTML page."""
    from html import escape

    return draw(ruling(label, report, at, viewer)).export_html(
        theme=SVG_EXPORT_THEME,
        code_format=HTML_FORMAT.format(
            title=escape(f"adjudicator · {label}").replace("{", "{{").replace("}", "}}")
        ),
    )


def write(
    target: str,
    kind: str,
    label: str,
    report: Report,
    at: int | None = None,
    viewer: str | None = None,
) -> None:
    """Write the ruling to ``target`` as ``kind`` ("svg" or "html"); OSError if it cannot."""
    text = (svg if kind == "svg" else html)(label, report, at, viewer)
    Path(target).write_text(text, encoding="utf-8")
