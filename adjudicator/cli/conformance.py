"""The conformance kit's commands: vectors, perft, conform (registered on the main group).

Thin like the rest of the command line: parse, call
:mod:`adjudicator.conformance`, print.  Bad input is one line and exit status 2.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import NoReturn

import click

from adjudicator import bulk, engine
from adjudicator.bulk.outputs import OutputError, write_file
from adjudicator.cli.group import Helped
from adjudicator.cli.numbers import GAMES, PLAYERS, POSITION, SEED, SHARE, Whole, seconds
from adjudicator.cli.terminal import json_text
from adjudicator.conformance import harness, perft, vectors
from adjudicator.exits import EXIT_DIFFER, EXIT_INVALID, EXIT_SAME
from adjudicator.play import legal, listing
from adjudicator.play.adjudicate import document_from_text
from adjudicator.record import Game, RecordError
from adjudicator.rules.presets import find_variant

DEPTH = Whole(1, 100)
"""perft's depth: a hundred actions deep is past any count that could finish."""


def _fail(message: str) -> NoReturn:
    """A mistake in the command or its input: one line on stderr, exit status 2."""
    click.echo(message, err=True)
    sys.exit(EXIT_INVALID)


@click.command("vectors", cls=Helped)
@click.option("--variant", default="pagat", show_default=True, help="A variant (see 'variants').")
@click.option(
    "--players", type=PLAYERS, default=None, help="Number of players (default: 3 if allowed)."
)
@click.option("--count", type=GAMES, default=100, show_default=True, help="Positions.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Same seed, same file.")
@click.option(
    "--hide",
    type=SHARE,
    default=0.0,
    metavar="P",
    help="Write this share (0-1) of each deck as '??' (positions with unknown cards).",
)
def vectors_command(variant: str, players: int | None, count: int, seed: int, hide: float) -> None:
    """Write test vectors: positions from seeded games, as JSON Lines on stdout.

    \b
    Each line holds the position as a record ("record": the deck and the
    actions so far; a session record for the next game of a session), who is
    to act ("to_move"), every legal action ("legal", sorted, in record
    notation; many deals summed up as "more_deals") and near misses with the
    rule that refuses each ("refused").  See docs/conformance.md.
    """
    try:
        options = find_variant(variant).options
    except KeyError as exc:
        _fail(f"--variant: {exc.args[0]}")
    if players is None:
        players = vectors.default_players(variant)
    if not options.min_players <= players <= options.max_players:
        _fail(
            f"--players: {variant} is for {options.min_players}-{options.max_players} players, "
            f"not {players}"
        )
    out = sys.stdout
    for text in vectors.write(variant, players, seed, count, hide):
        out.write(json_text(text))


@click.command("perft", cls=Helped, context_settings={"ignore_unknown_options": True})
@click.argument("file", metavar="FILE")
@click.option(
    "--at",
    type=POSITION,
    default=None,
    metavar="N",
    help="Before action N, counting from 1 (default: after the last).",
)
@click.option(
    "--game",
    "game_no",
    type=POSITION,
    default=None,
    metavar="K",
    help="Game K of a session (counting from 1).",
)
@click.option("--depth", type=DEPTH, required=True, metavar="D", help="Depth.")
@click.option("--divide", is_flag=True, help="Count under each first action.")
@click.option(
    "--by-check", is_flag=True, help="Generate through legal_by_check (the definition; slower)."
)
def perft_command(
    file: str, at: int | None, game_no: int | None, depth: int, divide: bool, by_check: bool
) -> None:
    """Count the legal action sequences of length 1..D from a position of FILE.

    \b
    A deck fixes the stock, so the counts are exact; a deal counts as the
    deals the adjudicator lists, and with unknown cards only actions with
    known cards are counted.  --divide prints the count at depth D under
    each first action.  The time and nodes per second go to stderr.
    """
    try:
        label, text = bulk.one_record(file)
        document = document_from_text(text)
    except RecordError as exc:
        _fail(str(exc) if not exc.path and file in exc.message else f"{file}: {exc}")
    if isinstance(document, Game):
        if game_no is not None:
            _fail(f"--game {game_no}: {label} is one game, not a session")
        game = document
    else:
        number = len(document.games) if game_no is None else game_no  # from 1, as people count
        if not 1 <= number <= len(document.games):
            _fail(f"--game {number}: the session has games 1-{len(document.games)}")
        game = document.games[number - 1]
    if at is not None and not 1 <= at <= len(game.actions) + 1:
        _fail(
            f"--at {at}: the record has {len(game.actions)} actions: --at 1 is before the "
            f"first, --at {len(game.actions) + 1} after the last"
        )
    try:  # --at N is before action N, counted from 1: after N - 1 actions
        state = legal.position(game, None if at is None else at - 1).state
    except RecordError as exc:
        _fail(f"{label}: {exc}")
    except legal.Unreachable as exc:
        click.echo(
            f"{label}: action {(exc.violation.index or 0) + 1} is illegal ({exc.violation.rule}: "
            f"{exc.violation.message}), so the game never reached that position"
        )
        sys.exit(EXIT_DIFFER)
    generate = engine.legal_by_check if by_check else engine.legal_actions
    started = time.perf_counter()
    if divide:
        parts = perft.divide(state, depth, generate)
        total = 0
        for part in parts:
            click.echo(f"{listing.show(part.action.record_form(game.players))}: {part.count}")
            total += part.count
        click.echo(f"total at depth {depth}: {total}")
        counted = total
    else:
        counts = perft.perft(state, depth, generate)
        for level, count in enumerate(counts, 1):
            click.echo(f"depth {level}: {count}")
        counted = perft.nodes(counts)
    spent = time.perf_counter() - started
    rate = counted / spent if spent > 0 else 0.0
    click.echo(f"{counted:,} nodes in {spent:.2f} s ({rate:,.0f} nodes/s)", err=True)


@click.command("conform", cls=Helped)
@click.option("--engine", "command", required=True, metavar="CMD", help="The engine to run.")
@click.argument("vectors_file", metavar="VECTORS.jsonl")
@click.option(
    "--timeout",
    type=seconds(0, min_open=True),
    default=harness.TIMEOUT,
    show_default=True,
    help="Seconds per position.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default=None,
    help="Write the shortest record of each kind of difference into this folder.",
)
def conform_command(command: str, vectors_file: str, timeout: float, out: str | None) -> None:
    """Run an outside engine over test vectors and report where it differs.

    \b
    The engine (CMD, split like a shell command line, run without a shell)
    reads one JSON position per line on stdin and writes one JSON list of
    the actions it allows per line on stdout (docs/conformance.md).
    "too strict": the rules allow it, the engine refuses; "too lenient": the
    engine allows it, the rules refuse (with the rule id).  Exit status: 0
    no difference; 1 some difference or engine failure; 2 bad input.
    """
    try:
        positions = (
            harness.load_position(row, number, vectors_file)
            for number, row in harness.read_vectors(vectors_file)
        )  # streamed: a long file is never held whole
        report = harness.run(command, positions, timeout)
    except harness.HarnessError as exc:
        _fail(str(exc))
    written: dict[tuple[str, str], Path] = {}
    if out is not None and report.differences:
        try:
            paths = harness.write_shortest(
                report, Path(out), lambda path, text: write_file("--out", path, text)
            )
        except OutputError as exc:
            _fail(str(exc))
        except OSError as exc:
            _fail(f"--out: cannot write into {out}: {exc.strerror}")
        written = dict(zip(report.groups(), paths, strict=True))
    for line in harness.render(report, written):
        click.echo(line)
    sys.exit(EXIT_SAME if report.clean else EXIT_DIFFER)


COMMANDS = (vectors_command, perft_command, conform_command)


def register(group: click.Group) -> None:
    """Add the conformance commands to the main command group."""
    for command in COMMANDS:
        group.add_command(command)
