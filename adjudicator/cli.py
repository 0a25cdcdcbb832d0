"""The command line: check, replay, variants, schema, simulate.

Thin by design: parse arguments, call the library, print.  Every input problem
ends as one line and exit status 2, never a traceback.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from adjudicator import render
from adjudicator.adjudicate import Report, adjudicate
from adjudicator.record import RecordError, json_schema, load_record
from adjudicator.rules.options import RuleOptions
from adjudicator.rules.presets import PRESETS

EXIT_LEGAL, EXIT_ILLEGAL, EXIT_INVALID = 0, 1, 2


def _console(stderr: bool = False) -> Console:
    """A console: colour on a terminal, plain 100-column text otherwise."""
    stream = sys.stderr if stderr else sys.stdout
    if stream.isatty():
        return Console(file=stream, stderr=stderr, highlight=False)
    return Console(file=stream, width=100, color_system=None, highlight=False, soft_wrap=False)


def result_json(file: str, report: Report | None, error: str | None) -> dict[str, Any]:
    """The contract's ``check --json`` object for one record."""
    if report is None:
        return {
            "file": file,
            "status": "invalid",
            "variant": None,
            "actions": None,
            "applied": 0,
            "finished": False,
            "loser": None,
            "violations": [],
            "error": error,
        }
    return {
        "file": file,
        "status": report.status,
        "variant": report.variant,
        "actions": report.actions,
        "applied": report.applied,
        "finished": report.finished,
        "loser": report.loser,
        "violations": [v.as_json() for v in report.violations],
        "error": None,
    }


def check_one(path: str) -> tuple[Report | None, str | None]:
    """Load and adjudicate one file: (report, None) or (None, error line)."""
    try:
        game = load_record(path)
    except RecordError as exc:
        return None, str(exc)
    return adjudicate(game), None


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="adjudicator")
def main() -> None:
    """Check and replay Skitgubbe game records against the rules."""


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="One JSON object per record (the contract).")
def check(files: tuple[str, ...], as_json: bool) -> None:
    """Check every action of each record FILE; stop at the first violation.

    Exit status: 0 all legal, 1 any illegal, 2 any invalid or unreadable.
    """
    out = _console()
    worst = EXIT_LEGAL
    for path in files:
        report, error = check_one(path)
        if report is None:
            worst = EXIT_INVALID
        elif report.violations:
            worst = max(worst, EXIT_ILLEGAL)
        if as_json:
            click.echo(json.dumps(result_json(path, report, error), ensure_ascii=False))
        elif report is None:
            out.print(render.invalid(path, error or ""))
        else:
            out.print(render.verdict(path, report))
    sys.exit(worst)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--step", "at", type=int, default=None, help="Show only the table after action N.")
@click.option("--to", "to", type=int, default=None, help="Stop after action N.")
def replay(file: str, at: int | None, to: int | None) -> None:
    """Replay FILE step by step: each action in words and the table after it."""
    out = _console()
    try:
        game = load_record(file)
    except RecordError as exc:
        _console(stderr=True).print(render.invalid(file, str(exc)))
        sys.exit(EXIT_INVALID)
    for name, value in (("--step", at), ("--to", to)):
        if value is not None and not 0 <= value < max(len(game.actions), 1):
            _console(stderr=True).print(
                f"{name} {value}: the record has actions 0-{len(game.actions) - 1}"
                if game.actions
                else f"{name} {value}: the record has no actions"
            )
            sys.exit(EXIT_INVALID)
    last = at if at is not None else to
    report = adjudicate(game, steps=True, stop=last)
    if at is not None:
        shown = [s for s in report.steps if s.index == at]
        if not shown:
            out.print(f"Action {at} was not reached: the replay stopped at an illegal action.")
            out.print(render.step(report.steps[-1]))
        else:
            out.print(render.step(shown[0]))
    else:
        out.print(render.start(report))
        for s in report.steps:
            out.print()
            out.print(render.step(s))
    out.print()
    out.print(render.verdict(file, report) if at is None else render.verdict_line(file, report))
    sys.exit(EXIT_ILLEGAL if report.violations else EXIT_LEGAL)


@main.command()
@click.argument("name", required=False)
def variants(name: str | None) -> None:
    """List the variants, or show one variant's full option set with sources."""
    out = _console()
    if name is None:
        grid = Table(title="Variants", show_lines=False)
        grid.add_column("name", style="bold")
        grid.add_column("what it is")
        grid.add_column("source")
        for preset in PRESETS.values():
            grid.add_row(preset.name, preset.title, preset.source)
        out.print(grid)
        out.print('Options (override any in a record\'s "options"):')
    elif name not in PRESETS:
        _console(stderr=True).print(f"variant: {name!r} is not a variant ({', '.join(PRESETS)})")
        sys.exit(EXIT_INVALID)
    else:
        preset = PRESETS[name]
        out.print(f"[bold]{preset.name}[/bold]: {preset.title}\nSource: {preset.source}")
    grid = Table(show_lines=True)
    grid.add_column("option", style="bold")
    grid.add_column("values")
    if name is not None:
        grid.add_column("value", style="bold")
    grid.add_column("rule and source")
    values = PRESETS[name].options.model_dump() if name else {}
    for option, allowed, description in RuleOptions.describe():
        row = [option, allowed]
        if name is not None:
            row.append(json.dumps(values[option]))
        row.append(description)
        grid.add_row(*row)
    out.print(grid)


@main.command()
def schema() -> None:
    """Print the JSON Schema of the record format."""
    click.echo(json.dumps(json_schema(), indent=2, ensure_ascii=False))
