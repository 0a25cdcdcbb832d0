"""``adjudicator explain``: a rule id or a rule option, in words, as rich renderables.

Options and presets are read when asked (``RuleOptions.model_fields``,
``PRESETS``), so a new option or variant is explained without a change here.
"""

from __future__ import annotations

import json
import textwrap
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from adjudicator import samples
from adjudicator.i18n import _, pgettext
from adjudicator.record import RecordError
from adjudicator.rules import catalog
from adjudicator.service import allowed

if TYPE_CHECKING:
    from adjudicator.service import OptionExplanation, RuleExplanation

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


def _value(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _sample_line(name: str) -> Text:
    """A sample game by name, with the violation it shows when the file is at hand."""
    out = Text(f"  {samples.reference(name)}")
    if samples.find(name) is None:
        return out
    from adjudicator.play.adjudicate import document_from_text, judge

    try:
        report = judge(document_from_text(samples.text(name)))
    except RecordError:
        return out
    if report.violations:
        v = report.violations[0]
        where = (
            _("action {index}: {action}").format(index=v.index + 1, action=v.action)
            if v.index is not None
            else _("the result claim")
        )
        out.append(f"\n    {where} ({v.rule}): {v.message}", style="dim")
    return out


def rule(entry: RuleExplanation) -> RenderableType:
    """A rule id: what it checks, its sources, the options that change it, a sample."""
    parts: list[RenderableType] = [
        Text.assemble((entry.id, "bold"), "  ", (entry.group_title, "dim")),
        Text(_("What it checks:"), style="bold"),
        _wrap(entry.checks + "."),
        Text(_("Where the rule is written:"), style="bold"),
    ]
    parts.extend(_wrap(c.cite) for c in entry.sources)
    for text in entry.texts:
        line = _wrap(text, "    ")
        line.stylize("dim")
        parts.append(line)
    parts.append(Text(_("Options that change it:"), style="bold"))
    if entry.options:
        for name in entry.options:
            parts.append(Text(f"  {name} ({allowed(name)})"))
        parts.append(
            Text("  " + _("'adjudicator explain OPTION' says what each does."), style="dim")
        )
    else:
        parts.append(Text("  " + _("none: every variant checks it the same way")))
    parts.append(Text(_("A sample game that breaks it:"), style="bold"))
    parts.append(_sample_line(entry.samples[0]))
    for other in entry.samples[1:]:
        parts.append(
            Text("  " + _("also {sample}").format(sample=samples.reference(other)), style="dim")
        )
    return Group(*parts)


def option(about: OptionExplanation) -> RenderableType:
    """A rule option: meaning, values, default, value in each variant, rules it changes."""
    name = about.name
    parts: list[RenderableType] = [
        Text.assemble((name, "bold"), "  ", (f"({about.allowed})", "dim")),
        _wrap(about.description),
        Text.assemble((_("Default:") + " ", "bold"), _value(about.default)),
    ]
    grid = Table(box=None, show_header=True, header_style="bold", pad_edge=False)
    grid.add_column(pgettext("column", "variant"))
    grid.add_column(pgettext("column", "value"))
    for each in about.by_variant:
        shown = _value(each.value)
        for players, value in each.by_players.items():
            shown += "; " + _("{value} with {players} players").format(
                value=_value(value), players=players
            )
        grid.add_row(each.variant, shown)
    parts += [Text(_("In each variant:"), style="bold"), grid]
    rules = about.rules
    parts.append(Text(_("Rules it changes:"), style="bold"))
    parts.append(
        _wrap(", ".join(rules))
        if rules
        else _wrap(_("no single rule id: it decides how play goes on (whose turn, what is due)"))
    )
    parts.append(
        Text(
            _('A record sets it in "options": {example}').format(
                example=f'{{"{name}": {_value(about.default)}}}'
            ),
            style="dim",
        )
    )
    return Group(*parts)


def rule_list() -> RenderableType:
    """Every rule id with what it checks, by group."""
    parts: list[RenderableType] = []
    for group in catalog.GROUPS:
        parts.append(Text(group.said, style="bold cyan"))
        grid = Table(box=None, show_header=False, pad_edge=False)
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column()
        for entry in catalog.RULES.values():
            if entry.group == group.key:
                grid.add_row(f"  {entry.id}", entry.said)
        parts.append(grid)
    parts.append(
        Text(
            _(
                "'adjudicator explain RULE_ID' tells one rule, "
                "'adjudicator explain OPTION' an option."
            )
        )
    )
    return Group(*parts)
