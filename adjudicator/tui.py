"""``replay --interactive``: step through a game in a Textual app.

The app is a thin view over ``Report.steps`` from ``adjudicate(game,
steps=True)``: frame 0 is the table before the first action, frame ``k`` the
table after action ``k - 1``.  It draws with the same rich renderables as
``replay`` and keeps the plain text of what it shows in :attr:`ReplayApp.shown`,
so tests (Textual's pilot) can read the screen without scraping it.
"""

from __future__ import annotations

import io
from typing import ClassVar

from rich.console import Console, RenderableType
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Header, Static

from adjudicator import render, service
from adjudicator.adjudicate import Report
from adjudicator.explain import rule as explain_rule
from adjudicator.rules import catalog


def plain(renderable: RenderableType, width: int = 100) -> str:
    """What ``renderable`` reads as in plain text."""
    console = Console(file=io.StringIO(), width=width, color_system=None, legacy_windows=False)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]


class ReplayApp(App[None]):
    """Forward and back through a record's actions, the violation a key away."""

    TITLE = "adjudicator replay"
    CSS = """
    #where { height: auto; padding: 0 1; }
    #step { height: auto; padding: 0 1; }
    #rule { height: auto; padding: 0 1; border: round $error; display: none; }
    #rule.shown { display: block; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,n", "next", "next"),
        Binding("left,p", "previous", "back"),
        Binding("home", "first", "start", show=False),
        Binding("end", "last", "end", show=False),
        Binding("v", "violation", "violation"),
        Binding("r", "rule", "rule text"),
        Binding("q", "quit", "quit"),
    ]

    def __init__(
        self,
        label: str,
        report: Report,
        viewer: str | None = None,
        start: int | None = None,
    ) -> None:
        super().__init__()
        self.label = label
        self.report = report
        self.viewer = viewer
        self.frame = 0 if start is None else min(start + 1, len(report.steps))
        self.rule_shown = False
        self.shown: dict[str, str] = {}
        """The plain text of each panel as last drawn: ``where``, ``step``, ``rule``."""
        self.sub_title = label + (f" · as {viewer}" if viewer else "")

    # --- layout ------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll():
            yield Static(id="where")
            yield Static(id="rule")
            yield Static(id="step")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_view()

    # --- what is shown -------------------------------------------------------------

    @property
    def frames(self) -> int:
        """Frames to step through: the start, then one per step of the report."""
        return len(self.report.steps) + 1

    @property
    def violation_frame(self) -> int | None:
        """The frame of the first rejected action, if any."""
        for i, s in enumerate(self.report.steps, 1):
            if s.violation is not None:
                return i
        return None

    def _where(self) -> Text:
        report = self.report
        out = Text()
        if self.frame == 0:
            out.append("Before the first action", style="bold")
        else:
            index = self.report.steps[self.frame - 1].index
            out.append(f"Action {index} of 0-{report.actions - 1}", style="bold")
        out.append(f" · {report.variant} · {', '.join(report.players)}")
        verdict = render.verdict_line(self.label, report)
        out.append("\n")
        out.append_text(verdict)
        keys = "→/n next · ←/p back · v violation · r rule text · q quit"
        out.append(f"\n{keys}", style="dim")
        return out

    def _step(self) -> RenderableType:
        if self.frame == 0:
            return render.start(self.report, self.viewer)
        return render.step(self.report.steps[self.frame - 1], self.viewer)

    def _rule(self) -> RenderableType:
        violation = self.report.violations[0] if self.report.violations else None
        if violation is None:
            return Text("The record is legal: there is no violation to explain.")
        entry = catalog.RULES.get(violation.rule)
        if entry is None:
            return Text(f"{violation.rule}: {violation.message}")
        return explain_rule(service.explain(entry.id))  # type: ignore[arg-type]

    def refresh_view(self) -> None:
        """Draw the current frame (and the rule text, when it is shown)."""
        parts = {"where": self._where(), "step": self._step(), "rule": self._rule()}
        for name, renderable in parts.items():
            self.query_one(f"#{name}", Static).update(renderable)
            self.shown[name] = plain(renderable)
        rule = self.query_one("#rule", Static)
        rule.set_class(self.rule_shown, "shown")
        if not self.rule_shown:
            self.shown["rule"] = ""

    # --- keys ---------------------------------------------------------------------

    def _go(self, frame: int) -> None:
        self.frame = max(0, min(frame, self.frames - 1))
        self.refresh_view()

    def action_next(self) -> None:
        self._go(self.frame + 1)

    def action_previous(self) -> None:
        self._go(self.frame - 1)

    def action_first(self) -> None:
        self._go(0)

    def action_last(self) -> None:
        self._go(self.frames - 1)

    def action_violation(self) -> None:
        target = self.violation_frame
        if target is None:
            self.notify("No action is illegal in this record.")
            return
        self._go(target)

    def action_rule(self) -> None:
        self.rule_shown = not self.rule_shown
        self.refresh_view()
