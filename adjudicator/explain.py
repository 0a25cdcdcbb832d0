"""``adjudicator explain``: a rule id or a rule option, in words, as rich renderables.

Options and presets are read when asked (``RuleOptions.model_fields``,
``PRESETS``), so a new option or variant is explained without a change here.
"""

from __future__ import annotations

import json
import textwrap
from typing import Any, get_args, get_origin

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from adjudicator import samples
from adjudicator.record import RecordError
from adjudicator.rules import catalog
from adjudicator.rules.options import RuleOptions
from adjudicator.rules.presets import PRESETS

WIDTH = 96


def _wrap(text: str, indent: str = "  ") -> Text:
    return Text(
        textwrap.fill(
            text,
            WIDTH,
            initial_indent=indent,
            subsequent_indent=indent,
            break_on_hyphens=False,
        )
    )


def allowed(option: str) -> str:
    """The values an option may take: ``top | bottom``, or ``a whole number from 0 to 52``."""
    field = RuleOptions.model_fields[option]
    ann = field.annotation
    if (
        get_origin(ann) is not None
        and get_args(ann)
        and all(isinstance(a, str) for a in get_args(ann))
    ):
        return " | ".join(get_args(ann))
    if ann is bool:
        return "true | false"
    if ann is int:
        low = high = None
        for item in field.metadata:
            low = getattr(item, "ge", low)
            high = getattr(item, "le", high)
        if low is not None and high is not None:
            return f"a whole number from {low} to {high}"
        return "a whole number"
    return getattr(ann, "__name__", str(ann))


def _value(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _sample_line(name: str) -> Text:
    """A sample game by name, with the violation it shows when the file is at hand."""
    out = Text(f"  {samples.reference(name)}")
    if samples.find(name) is None:
        return out
    from adjudicator.bulk import document_from_text, judge

    try:
        report = judge(document_from_text(samples.text(name)))
    except RecordError:
        return out
    if report.violations:
        v = report.violations[0]
        where = f"action {v.index}: {v.action}" if v.index is not None else "the result claim"
        out.append(f"\n    {where} ({v.rule}): {v.message}", style="dim")
    return out


def rule(entry: catalog.Rule) -> RenderableType:
    """A rule id: what it checks, its sources, the options that change it, a sample."""
    parts: list[RenderableType] = [
        Text.assemble((entry.id, "bold"), "  ", (_group_title(entry.group), "dim")),
        Text("What it checks:", style="bold"),
        _wrap(entry.checks.replace("`", "") + "."),
        Text("Where the rule is written:", style="bold"),
    ]
    parts.extend(_wrap(str(c)) for c in entry.sources)
    for key in dict.fromkeys(c.source for c in entry.sources):
        source = catalog.SOURCES[key]
        if key != "contract":
            line = _wrap(f"{source.cite}: '{source.title}', {source.address}", "    ")
            line.stylize("dim")
            parts.append(line)
    parts.append(Text("Options that change it:", style="bold"))
    if entry.options:
        for name in entry.options:
            parts.append(Text(f"  {name} ({allowed(name)})"))
        parts.append(Text("  'adjudicator explain OPTION' says what each does.", style="dim"))
    else:
        parts.append(Text("  none: every variant checks it the same way"))
    parts.append(Text("A sample game that breaks it:", style="bold"))
    parts.append(_sample_line(entry.samples[0]))
    for other in entry.samples[1:]:
        parts.append(Text(f"  also {samples.reference(other)}", style="dim"))
    return Group(*parts)


def _group_title(key: str) -> str:
    for group in catalog.GROUPS:
        if group.key == key:
            return group.title.replace("`", "")
    return key


def option(name: str) -> RenderableType:
    """A rule option: meaning, values, default, value in each variant, rules it changes."""
    field = RuleOptions.model_fields[name]
    parts: list[RenderableType] = [
        Text.assemble((name, "bold"), "  ", (f"({allowed(name)})", "dim")),
        _wrap(field.description or ""),
        Text.assemble(("Default: ", "bold"), _value(field.default)),
    ]
    grid = Table(box=None, show_header=True, header_style="bold", pad_edge=False)
    grid.add_column("variant")
    grid.add_column("value")
    for preset in PRESETS.values():
        shown = _value(getattr(preset.options, name))
        for (low, high), changes in preset.by_players.items():
            if name in changes:
                players = f"{low}" if low == high else f"{low}-{high}"
                shown += f"; {_value(changes[name])} with {players} players"
        grid.add_row(preset.name, shown)
    parts += [Text("In each variant:", style="bold"), grid]
    rules = [r.id for r in catalog.RULES.values() if name in r.options]
    parts.append(Text("Rules it changes:", style="bold"))
    parts.append(
        _wrap(", ".join(rules))
        if rules
        else _wrap("no single rule id: it decides how play goes on (whose turn, what is due)")
    )
    parts.append(
        Text(f'A record sets it in "options": {{"{name}": {_value(field.default)}}}', style="dim")
    )
    return Group(*parts)


def rule_list() -> RenderableType:
    """Every rule id with what it checks, by group."""
    parts: list[RenderableType] = []
    for group in catalog.GROUPS:
        parts.append(Text(group.title.replace("`", ""), style="bold cyan"))
        grid = Table(box=None, show_header=False, pad_edge=False)
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column()
        for entry in catalog.RULES.values():
            if entry.group == group.key:
                grid.add_row(f"  {entry.id}", entry.checks.replace("`", ""))
        parts.append(grid)
    parts.append(
        Text(
            "'adjudicator explain RULE_ID' tells one rule, 'adjudicator explain OPTION' an option."
        )
    )
    return Group(*parts)
