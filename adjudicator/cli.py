"""The command line: check, replay, variants, schema, simulate.

Thin by design: parse arguments, call the library, print.  Every input problem
ends as one line and exit status 2, never a traceback.
"""

from __future__ import annotations

import json
import os
import sys
import textwrap
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import click
from rich import box
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from adjudicator import bulk, render
from adjudicator import simulate as simulation
from adjudicator.adjudicate import adjudicate
from adjudicator.record import RecordError, json_schema, load_record
from adjudicator.rules.options import RuleOptions
from adjudicator.rules.presets import PRESETS, find_variant

EXIT_LEGAL, EXIT_ILLEGAL, EXIT_INVALID = 0, 1, 2


def _console(stderr: bool = False) -> Console:
    """A console: colour on a terminal, plain 100-column text otherwise.

    On a terminal the stream is looked up at each write (``file`` left unset),
    so output printed while a progress bar runs goes through rich's redirect.
    """
    stream = sys.stderr if stderr else sys.stdout
    if stream.isatty():
        return Console(stderr=stderr, highlight=False)
    return Console(file=stream, width=100, color_system=None, highlight=False, soft_wrap=True)


PROGRESS_MIN = 10
"""A progress bar appears (on a terminal) when more records than this are checked."""
FULL_OUTPUT_MAX = 20
"""Up to this many records every verdict is printed; beyond, only the non-legal ones."""
TOP_RULES = 5


@contextmanager
def _progress(err: Console, total: int | None, what: str) -> Iterator[Callable[[], None]]:
    """A rich progress bar on stderr when it is a terminal; yields "one more done"."""
    if total is None or total <= PROGRESS_MIN or not err.is_terminal:
        yield lambda: None
        return
    bar = Progress(
        TextColumn(what),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        redirect_stdout=sys.stdout.isatty(),
        redirect_stderr=False,
    )
    with bar:
        task = bar.add_task(what, total=total)
        yield lambda: bar.advance(task)


def _summary(tally: bulk.Tally) -> Table:
    """The closing table of a bulk check: verdict counts and the most frequent rule ids."""
    grid = Table(title=f"Checked {tally.total} records", title_justify="left")
    grid.add_column("")
    grid.add_column("records", justify="right")
    for status, style in (("legal", "green"), ("illegal", "red"), ("invalid", "yellow")):
        grid.add_row(Text(status, style=style), str(tally.statuses[status]))
    if tally.rules:
        grid.add_section()
        grid.add_row(Text("most frequent rule ids", style="dim"), "")
        for rule, times in tally.rules.most_common(TOP_RULES):
            grid.add_row(f"  {rule}", str(times))
    return grid


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="adjudicator")
def main() -> None:
    """Check and replay Skitgubbe game records against the rules."""


@main.command()
@click.argument("paths", metavar="PATH...", nargs=-1, required=True, type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="One JSON object per record (the contract).")
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=0),
    default=1,
    show_default=True,
    help="Worker processes (0: one per core). Results stay in input order.",
)
@click.option("--all", "show_all", is_flag=True, help="Print every verdict, however many records.")
@click.option(
    "--dask",
    "dask_address",
    metavar="ADDRESS",
    default=None,
    help="Check on a Dask cluster instead of --jobs: a scheduler address "
    "(tcp://host:8786), or 'local' ('local:N') to start 2 (N) worker processes here. "
    "Same output, same order. Needs adjudicator[dask].",
)
def check(
    paths: tuple[str, ...], as_json: bool, jobs: int, show_all: bool, dask_address: str | None
) -> None:
    """Check every action of each record; stop at each record's first violation.

    \b
    PATH is a record file, a folder (every *.json below it, recursively) or
    a JSON Lines file (*.jsonl: one record per line, named FILE:LINE).

    Up to 20 records every verdict is printed; beyond that only illegal and
    invalid records are (--all prints every one), then a summary table:
    verdict counts and the most frequent rule ids.  With --json, stdout holds
    exactly one object per record, in input order; a JSON Lines record's
    object adds "line" (1-based).  On a terminal a progress bar runs on
    stderr while more than 10 records are checked.

    Exit status: 0 all legal, 1 any illegal, 2 any invalid or unreadable.
    """
    out = _console()
    err = _console(stderr=True)
    total = bulk.count(paths) if not as_json or err.is_terminal else None
    every = show_all or (total is not None and total <= FULL_OUTPUT_MAX)
    tally = bulk.Tally()
    if dask_address is not None:
        from adjudicator import cluster

        results = cluster.check_at(dask_address, bulk.sources(paths))
    else:
        results = bulk.check_all(bulk.sources(paths), jobs or os.cpu_count() or 1)
    with _progress(err, total, "checking") as advance:
        for checked in results:
            tally.add(checked)
            if as_json:
                click.echo(json.dumps(checked.as_json(), ensure_ascii=False))
            elif checked.report is None:
                out.print(render.invalid(checked.label, checked.error or ""))
            elif every or checked.report.violations:
                out.print(render.verdict(checked.label, checked.report))
            advance()
    if tally.total > 1:
        if not as_json:
            out.print(_summary(tally))
        elif err.is_terminal:
            err.print(_summary(tally))
    if tally.statuses["invalid"]:
        sys.exit(EXIT_INVALID)
    sys.exit(EXIT_ILLEGAL if tally.statuses["illegal"] else EXIT_LEGAL)


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
        if value is not None and not 0 <= value < len(game.actions):
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
            out.print(render.step(report.steps[-1]) if report.steps else render.start(report))
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
    """List the variants and their option values, or show one variant in full.

    Without NAME: every preset, then a grid of every option's value in each
    preset.  With NAME: each option of that variant with its value, the values
    it may take, and the rule and source it stands for.  Any option can be
    overridden in a record's "options".
    """
    out = _console()
    if name is None:
        out.print(_variant_list())
        out.print(_option_grid())
        out.print(
            "Run 'adjudicator variants NAME' for each option's rule and source. "
            'A record may override any option in its "options".'
        )
        return
    try:
        preset = find_variant(name)
    except KeyError as exc:
        _console(stderr=True).print(f"variant: {exc.args[0]}", highlight=False, markup=False)
        sys.exit(EXIT_INVALID)
    out.print(Text.assemble((preset.name, "bold"), f": {preset.title}"))
    out.print(Text(f"Source: {preset.source}"))
    values = preset.options.model_dump()
    for option, allowed, description in RuleOptions.describe():
        out.print()
        out.print(
            Text.assemble(
                (option, "bold"),
                " = ",
                (json.dumps(values[option]), "bold cyan"),
                (f"   (one of: {allowed})" if " | " in allowed else f"   ({allowed})", "dim"),
            )
        )
        indent = "    "
        out.print(
            textwrap.fill(description, out.width, initial_indent=indent, subsequent_indent=indent),
            markup=False,
            highlight=False,
        )


def _variant_list() -> Table:
    """The presets: name, what it is, where its rules are written."""
    grid = Table(title="Variants", title_justify="left")
    grid.add_column("name", style="bold", no_wrap=True)
    grid.add_column("what it is")
    grid.add_column("source")
    for preset in PRESETS.values():
        grid.add_row(preset.name, preset.title, preset.source)
    return grid


def _option_grid() -> Table:
    """Every option (rows) against every preset (columns): the values side by side."""
    grid = Table(
        title="Options by variant", title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1, 0, 0)
    )
    grid.add_column("option", style="bold", no_wrap=True)
    for preset in PRESETS.values():
        grid.add_column(preset.name, overflow="fold")
    dumps = [preset.options.model_dump() for preset in PRESETS.values()]
    for option, _, _ in RuleOptions.describe():
        grid.add_row(option, *(_plain(values[option]) for values in dumps))
    return grid


def _plain(value: object) -> str:
    """An option value as in a record, without the quotes: ``deal_order``, ``true``, ``5``."""
    return json.dumps(value).strip('"')


@main.command()
def schema() -> None:
    """Print the JSON Schema of the record format."""
    click.echo(json.dumps(json_schema(), indent=2, ensure_ascii=False))


@main.command("simulate")
@click.option("--variant", default="pagat", show_default=True, help="A variant (see 'variants').")
@click.option("--players", type=int, default=3, show_default=True, help="Number of players.")
@click.option("--seed", type=int, default=0, show_default=True, help="Same seed, same games.")
@click.option(
    "--count", type=click.IntRange(min=0), default=1, show_default=True, help="Games to play."
)
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default=None,
    help="Write one JSON file per game into this folder (created if missing) "
    "instead of JSON Lines on stdout.",
)
def simulate_command(variant: str, players: int, seed: int, count: int, out: str | None) -> None:
    """Play random legal games through the engine and write them as records.

    Every action is drawn from the engine's own legal actions (each act the
    variant has gets its turn: plays mostly, dares and picks now and then),
    and every game is played to its end; the record's result names the loser
    the engine reached and its meta the seed and game number.  Game K of a
    seed is the same whatever --count is.
    """
    try:
        options = find_variant(variant).options
    except KeyError as exc:
        _console(stderr=True).print(f"--variant: {exc.args[0]}")
        sys.exit(EXIT_INVALID)
    if not options.min_players <= players <= options.max_players:
        _console(stderr=True).print(
            f"--players: {variant} is for {options.min_players}-{options.max_players} players, "
            f"not {players}"
        )
        sys.exit(EXIT_INVALID)
    folder = Path(out) if out is not None else None
    if folder is not None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            _console(stderr=True).print(f"--out: cannot create {out}: {exc.strerror}")
            sys.exit(EXIT_INVALID)
    width = max(4, len(str(count - 1)))
    games = simulation.simulate(variant, players, seed, count)
    with _progress(_console(stderr=True), count, "simulating") as advance:
        for index, record in enumerate(games):
            if folder is None:
                click.echo(json.dumps(record, ensure_ascii=False))
            else:
                name = f"{variant}-{players}p-seed{seed}-{index:0{width}d}.json"
                text = json.dumps(record, indent=2, ensure_ascii=False) + "\n"
                (folder / name).write_text(text, encoding="utf-8")
            advance()
