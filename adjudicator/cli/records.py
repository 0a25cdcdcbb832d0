"""Commands that give records to start from: ``schema``, ``samples``, ``simulate``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.text import Text

from adjudicator import samples
from adjudicator.bulk.outputs import OutputError, write_file
from adjudicator.cli.group import Helped
from adjudicator.cli.group import console as _console
from adjudicator.cli.group import mistake as _mistake
from adjudicator.cli.group import progress as _progress
from adjudicator.cli.numbers import GAMES, PLAYERS, SEED, SHARE
from adjudicator.cli.terminal import json_text
from adjudicator.exits import EXIT_INVALID
from adjudicator.play import simulate as simulation
from adjudicator.record import json_schema
from adjudicator.rules.presets import find_variant


def register(main: click.Group) -> None:
    """Add the commands to the command group."""
    for command in (schema, samples_command, simulate_command):
        main.add_command(command)


@click.command(cls=Helped)
def schema() -> None:
    """Print the JSON Schema of the record format."""
    click.echo(json_text(json.dumps(json_schema(), indent=2, ensure_ascii=False)))


@click.command("samples", cls=Helped)
@click.argument("name", required=False)
def samples_command(name: str | None) -> None:
    """List the sample games shipped with the package, or print one (NAME) as JSON.

    The samples are the rule texts' worked examples, whole games and one record per
    broken rule: 'adjudicator samples NAME > game.json' gives a file to check or replay.
    """
    if name is None:
        out = Console(highlight=False, soft_wrap=True, emoji=False)
        for entry in samples.names():
            title = samples.title(json.loads(samples.text(entry)))
            out.print(Text.assemble((entry.removesuffix(".json"), "bold"), "  ", title))
        return
    try:
        click.echo(json_text(samples.text(name)), nl=False)
    except KeyError:
        _mistake(f"no sample called {name[:60]!r} ('adjudicator samples' lists them)")


@click.command("simulate", cls=Helped)
@click.option("--variant", default="pagat", show_default=True, help="A variant (see 'variants').")
@click.option("--players", type=PLAYERS, default=3, show_default=True, help="Number of players.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Same seed, same games.")
@click.option("--count", type=GAMES, default=1, show_default=True, help="Games to play.")
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default=None,
    help="Write one JSON file per game into this folder (created if missing) "
    "instead of JSON Lines on stdout.",
)
@click.option(
    "--hide",
    type=SHARE,
    default=0.0,
    metavar="P",
    help="Write this share (0-1) of each deck as '??', as a table that saw only what "
    "the actions show would; every dare then names its card.",
)
def simulate_command(
    variant: str, players: int, seed: int, count: int, out: str | None, hide: float
) -> None:
    """Play random legal games through the engine and write them as records.

    Every action is drawn from the engine's own legal actions (each act the
    variant has gets its turn: plays mostly, dares and picks now and then),
    and every game is played to its end; the record's result names the loser
    the engine reached and its meta the seed and game number.  Game K of a
    seed is the same whatever --count is.

    With --hide P, that share of the deck's cards is written as '??' (the
    turned-up trump of Mas, which lies face up, stays written; a hidden trump
    card is replaced by the suit it showed, as the record's "trump"): such
    records must still check legal, with the checks that hidden cards keep
    from being made listed as undetermined.
    """
    try:
        options = find_variant(variant).options
    except KeyError as exc:
        _console(stderr=True).print(f"--variant: {exc.args[0]}", markup=False, highlight=False)
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
            _console(stderr=True).print(
                f"--out: cannot create {out}: {exc.strerror}", markup=False, highlight=False
            )
            sys.exit(EXIT_INVALID)
    width = max(4, len(str(count - 1)))
    games = simulation.simulate(variant, players, seed, count, hide)
    with _progress(_console(stderr=True), count, "simulating") as advance:
        for index, record in enumerate(games):
            if folder is None:
                click.echo(json_text(json.dumps(record, ensure_ascii=False)))
            else:
                name = f"{variant}-{players}p-seed{seed}-{index:0{width}d}.json"
                text = json.dumps(record, indent=2, ensure_ascii=False) + "\n"
                try:
                    write_file("--out", folder / name, text)
                except OutputError as exc:
                    _mistake(str(exc))
            advance()
