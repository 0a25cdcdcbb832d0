"""rich renderables for cards, hands, the table, replay steps and verdicts.

Nothing here prints; the CLI decides where output goes.  Without a terminal
rich writes plain text, which is what the snapshot tests record.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from adjudicator.adjudicate import Report, Step
from adjudicator.cards import SUIT_SYMBOLS, Card, card_text, sorted_hand
from adjudicator.engine.state import OVER, PHASE_ONE, TableView
from adjudicator.engine.violations import Violation

RED_SUITS = {1, 2}
PHASE_NAMES = {PHASE_ONE: "phase one", 2: "phase two", OVER: "game over"}


def card(c: Card, trump: int | None = None) -> Text:
    """One card, red for hearts and diamonds, bold for trumps."""
    style = "red" if c // 13 in RED_SUITS else ""
    if trump is not None and c // 13 == trump:
        style += " bold"
    return Text(card_text(c), style=style.strip())


def cards(cs: Iterable[Card], trump: int | None = None) -> Text:
    """Cards separated by spaces."""
    out = Text()
    for i, c in enumerate(cs):
        if i:
            out.append(" ")
        out.append_text(card(c, trump))
    return out


def _trick_text(view: TableView) -> Text:
    if not view.trick and not view.sluffs:
        return Text("(empty)", style="dim")
    out = Text()
    for i, (player, played) in enumerate(view.trick):
        if i:
            out.append(" · ")
        out.append(f"{view.names[player]} ")
        out.append_text(cards(played, view.trump))
    if view.sluffs:
        out.append(" · sluffed: ", style="dim")
        for i, (player, sluffed) in enumerate(view.sluffs):
            if i:
                out.append(", ")
            out.append(f"{view.names[player]} ")
            out.append_text(cards(sluffed, view.trump))
    return out


def table(view: TableView) -> RenderableType:
    """The table after a step: phase, trump, stock, trick, hands, piles, turn."""
    head = Text(PHASE_NAMES.get(view.phase, "?").capitalize(), style="bold")
    if view.phase == PHASE_ONE:
        head.append(f" · stock {view.stock}")
        if view.indicator_holder is not None:
            head.append(f" · trump indicator held face down by {view.names[view.indicator_holder]}")
    else:
        trump = SUIT_SYMBOLS[view.trump] if view.trump is not None else "-"
        head.append(f" · trump {trump} · out of play {view.discard}")
        if view.trick:
            head.append(f" · trick needs {view.trick_target} plays")
    if view.deal is not None:
        shufflers = " or ".join(view.names[p] for p in sorted(view.deal.shufflers))
        head.append(f" · {view.deal.what} to be dealt by {shufflers}")
    trick_line = Text("Table: ").append_text(_trick_text(view))

    grid = Table(box=None, show_header=True, pad_edge=False, header_style="bold")
    grid.add_column("")
    grid.add_column("player")
    grid.add_column("hand")
    if view.phase == PHASE_ONE:
        grid.add_column("pile", justify="right")
    for i, name in enumerate(view.names):
        marker = "▶" if view.turn == i else ""
        if view.phase == OVER and view.loser == i:
            marker = "✗"
        hand = view.hands[i]
        if hand:
            shown = cards(sorted_hand(hand, view.trump), view.trump)
        else:
            shown = Text("out" if view.phase != PHASE_ONE else "(none)", style="dim")
        row: list[RenderableType] = [marker, name, shown]
        if view.phase == PHASE_ONE:
            row.append(str(view.piles[i]))
        grid.add_row(*row)
    parts: list[RenderableType] = [head, trick_line, grid]
    if view.phase == OVER:
        loser = view.names[view.loser] if view.loser is not None else "nobody"
        parts.append(Text(f"Game over: {loser} is the loser.", style="bold"))
    return Group(*parts)


def violation(v: Violation) -> RenderableType:
    """An illegal action in red: rule, reason, and what was legal instead."""
    lines = Text()
    where = f"action {v.index}" if v.index is not None else "result"
    lines.append(f"✗ illegal {where}", style="bold red")
    if v.action:
        lines.append(f": {v.action}", style="red")
    lines.append(f"\n  rule {v.rule}: ", style="red")
    lines.append(v.message, style="red")
    if v.index is not None:
        legal = ", ".join(v.alternatives) if v.alternatives else "nothing"
        lines.append(f"\n  legal instead: {legal}")
    return lines


def step(s: Step) -> RenderableType:
    """One replay step: the action in words, then the table."""
    title = Text(f"[{s.index}] ", style="bold cyan")
    if s.violation is not None:
        title.append(s.words, style="bold red")
        return Group(title, violation(s.violation), table(s.table))
    title.append(s.words, style="bold")
    title.append(f"   ({s.action})", style="dim")
    return Group(title, table(s.table))


def start(report: Report) -> RenderableType:
    """The table before the first action."""
    assert report.start is not None
    title = Text(
        f"Start · {report.variant} · {len(report.players)} players: " + ", ".join(report.players),
        style="bold cyan",
    )
    return Group(title, table(report.start))


def verdict_line(file: str, report: Report) -> Text:
    """One line: file, status, and the outcome."""
    out = Text(f"{file}: ")
    if report.violations:
        out.append("illegal", style="bold red")
    else:
        out.append("legal", style="bold green")
    out.append(
        f" · {report.variant}, {len(report.players)} players, "
        f"{report.applied} of {report.actions} actions applied"
    )
    if report.finished:
        out.append(f" · finished, loser {report.loser or 'nobody'}")
    else:
        out.append(" · not finished")
    return out


def verdict(file: str, report: Report) -> RenderableType:
    """The readable verdict on one record."""
    parts: list[RenderableType] = [verdict_line(file, report)]
    parts.extend(violation(v) for v in report.violations)
    return Group(*parts)


def invalid(file: str, error: str) -> Text:
    """The one line for a record that cannot be read."""
    out = Text(f"{file}: ")
    out.append("invalid", style="bold yellow")
    out.append(f" · {error}")
    return out
