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
from textual.widgets import Footer, Header, Input, Static

from adjudicator import service
from adjudicator.play.adjudicate import Report
from adjudicator.render import terminal as render
from adjudicator.render.explain import rule as explain_rule
from adjudicator.rules import catalog


def plain(renderable: RenderableType, width: int = 100) -> str:
    """What ``renderable`` reads as in plain text."""
    sink = io.StringIO()
    console = Console(file=sink, width=width, color_system=None, legacy_windows=False, emoji=False)
    console.print(renderable)
    return sink.getvalue()


class ReplayApp(App[None]):
    """Forward and back through a record's actions, the violation a key away."""

    TITLE = "adjudicator replay"
    CSS = """
    #where { height: auto; padding: 0 1; }
    #step { height: auto; padding: 0 1; }
    #rule { height: auto; padding: 0 1; border: round $error; display: none; }
    #rule.shown { display: block; }
    #goto { display: none; }
    #goto.shown { display: block; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,n", "next", "next"),
        Binding("left,p", "previous", "back"),
        Binding("home", "first", "start"),
        Binding("end", "last", "end"),
        Binding("g", "goto", "go to action"),
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
        yield Input(placeholder="action number, then Enter (Esc: back)", id="goto")
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
            out.append(f"Action {index + 1}", style="bold")
            out.append(f" · the record's actions are 1-{report.actions}")
        out.append(f" · {report.variant} · {', '.join(report.players)}")
        verdict = render.verdict_line(self.label, report)
        out.append("\n")
        out.append_text(verdict)
        keys = (
            "→/n next · ←/p back · Home start · End end · g go to action N · "
            "v violation · r rule text · q quit"
        )
        out.append(f"\n{keys}", style="dim")
        return out

    def _step(self) -> RenderableType:
        if self.frame == 0:
            return render.start(self.report, self.viewer)
        shown = self.report.steps[self.frame - 1]
        return render.step(shown, self.viewer, comment=self.report.comments.get(shown.index))

    def _rule(self) -> RenderableType:
        violation = self.report.violations[0] if self.report.violations else None
        if violation is None:
            return Text(
                "The record is legal: no rule was broken, so there is no rule text to show."
            )
        if violation.rule not in catalog.RULES:
            return Text(f"{violation.rule}: {violation.message}")
        about = service.explain(violation.rule)
        assert isinstance(about, service.RuleExplanation)
        return explain_rule(about)

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
        if not self.report.violations and not self.rule_shown:
            self.notify(
                "The record is legal: no rule was broken, so there is no rule text to show."
            )
        self.rule_shown = not self.rule_shown
        self.refresh_view()

    def action_goto(self) -> None:
        """Ask for an action number: a long game is not stepped through key by key."""
        box = self.query_one("#goto", Input)
        box.value = ""
        box.add_class("shown")
        box.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        box = event.input
        text = event.value.strip()
        box.remove_class("shown")
        self.set_focus(None)
        frame = self._frame_of(text)
        if frame is None:
            last = self.report.actions
            self.notify(f"{text[:20]!r} is not an action of this record (1-{last})")
            return
        self._go(frame)

    def _frame_of(self, text: str) -> int | None:
        """The frame that shows action ``text`` (counted from 1; the table after it), or None."""
        if not text.isdigit():
            return None
        index = int(text) - 1
        for frame, step in enumerate(self.report.steps, 1):
            if step.index == index:
                return frame
        return None

    def key_escape(self) -> None:
        box = self.query_one("#goto", Input)
        if box.has_class("shown"):
            box.remove_class("shown")
            self.set_focus(None)
