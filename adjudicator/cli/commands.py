"""The command line: check, replay, variants, schema, simulate.

Thin by design: parse arguments, call the library, print.  Every input problem
ends as one line and exit status 2, never a traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import closing, suppress
from typing import Any, NoReturn

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from adjudicator import _native, bulk, importers, limits, service
from adjudicator._version import __version__
from adjudicator.bulk import run
from adjudicator.bulk.imported import split_name, told_game
from adjudicator.bulk.outputs import (
    STANDARD_OUTPUT,
    Output,
    OutputError,
    refuse_clashes,
    writes_standard_output,
)
from adjudicator.cli.conformance import register as register_conformance
from adjudicator.cli.group import Adjudicator, mistake
from adjudicator.cli.group import console as _console
from adjudicator.cli.group import progress as _progress
from adjudicator.cli.importing import (
    NotConverted,
    converted,
    from_options,
    known_format,
    one_imported,
    only_game,
    options_of,
)
from adjudicator.cli.importing import register as register_importing
from adjudicator.cli.lang import everywhere, speak_for_click
from adjudicator.cli.numbers import POSITION, RecordSize, Whole
from adjudicator.cli.records import register as register_records
from adjudicator.cli.terminal import json_text
from adjudicator.cli.web import register as register_web
from adjudicator.exits import EXIT_ILLEGAL, EXIT_INVALID, EXIT_LEGAL
from adjudicator.i18n import _, ngettext
from adjudicator.i18n import number as written
from adjudicator.importers import ImportOptions
from adjudicator.play import legal
from adjudicator.play.adjudicate import adjudicate, adjudicate_session, document_from_text
from adjudicator.record import Game, RecordError, Session
from adjudicator.render import explain as explaining
from adjudicator.render import export
from adjudicator.render import terminal as render
from adjudicator.rules import catalog
from adjudicator.rules.options import RuleOptions
from adjudicator.rules.presets import PRESETS

JSON_ERRORS = "adjudicator.json_errors"
"""The key in the click context's ``meta`` set by a command run with ``--json``: its errors
are JSON objects on standard output (``{"error": ..., "status": ...}``), the same words as
the plain line, so a program that asked for JSON never has to parse prose."""


def _errors_as_json() -> bool:
    ctx = click.get_current_context(silent=True)
    return ctx is not None and bool(ctx.meta.get(JSON_ERRORS))


def _json_error(
    line: str,
    status: str,
    code: int,
    file: str | None = None,
    violation: service.ViolationOut | None = None,
) -> NoReturn:
    """An error under ``--json``: one object on standard output, the exit status as ever."""
    error = service.ErrorOut(error=line, status=status, file=file, violation=violation)
    click.echo(service.dumps(error))
    sys.exit(code)


def _mistake(message: str) -> NoReturn:
    """A command-line mistake: one line on stderr (a JSON object on stdout under --json)."""
    if _errors_as_json():
        _json_error(message, "error", EXIT_INVALID)
    mistake(message)


FULL_OUTPUT_MAX = 20
"""Up to this many records every verdict is printed; beyond, only the non-legal ones."""
TOP_RULES = 5


def _summary(tally: bulk.Tally, empty: int = 0) -> Table:
    """The closing table of a bulk check: verdict counts, the paths that held no record
    (``empty``: they fail the run, so they are counted too) and the most frequent rule ids.
    Counts are written as the language writes numbers (English as it always has)."""

    def counted(n: int) -> str:
        return written(n, grouped_in_english=False)

    title = ngettext("Checked {count} record", "Checked {count} records", tally.total).format(
        count=counted(tally.total)
    )
    if empty:
        title += ngettext("; {count} path held none", "; {count} paths held none", empty).format(
            count=counted(empty)
        )
    grid = Table(title=title, title_justify="left")
    grid.add_column("")
    grid.add_column(_("records"), justify="right")
    said = {"legal": _("legal"), "illegal": _("illegal"), "invalid": _("invalid")}
    for status, style in (("legal", "green"), ("illegal", "red"), ("invalid", "yellow")):
        grid.add_row(Text(said[status], style=style), counted(tally.statuses[status]))
    if empty:
        grid.add_row(Text(_("paths with no record"), style="yellow"), counted(empty))
    if tally.rules:
        grid.add_section()
        grid.add_row(Text(_("most frequent rule ids"), style="dim"), "")
        for rule, times in tally.rules.most_common(TOP_RULES):
            grid.add_row(f"  {rule}", counted(times))
    return grid


@click.group(cls=Adjudicator, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(
    version=__version__,
    prog_name="adjudicator",
    message=f"%(prog)s, version %(version)s\nengine: {_native.build}",
)
def main() -> None:
    """Check and replay Skitgubbe game records against the rules.

    Actions are counted from 1, as players count them: "illegal action 3" is
    a record's third action, "replay --step 3" shows it and "legal --at 3"
    lists what could have been done instead.  Only JSON counts from 0 (its
    "index" is 2 for that action).
    """


max_record_size = click.option(
    limits.SIZE_FLAG,
    "max_size",
    type=RecordSize(),
    default=limits.MAX_RECORD_SIZE,
    show_default=True,
    metavar="BYTES",
    help="Refuse a record (a file, or a line of JSON Lines) larger than this.",
)


GO_ON = ("taken-back", "stands")


def go_on_option(f: Callable[..., Any]) -> Callable[..., Any]:
    """``--go-on``: how to read every illegal action a record does not mark."""
    return click.option(
        "--go-on",
        "go_on",
        type=click.Choice(GO_ON),
        default=None,
        help="Read every unmarked illegal action as taken back (not applied) or as standing "
        "(applied as played), and follow the game past it, as a table would.",
    )(f)


def _go_on(value: str | None) -> str | None:
    """The option's value as the record writes the mark ('taken back', 'stands')."""
    return None if value is None else value.replace("-", " ")


@main.command()
@click.argument("paths", metavar="PATH...", nargs=-1, required=True, type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="One JSON object per record (the contract).")
@click.option(
    "--jobs",
    "-j",
    type=Whole(0),
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
    "Same output, same order. Needs skitgubbe-adjudicator[dask].",
)
@click.option(
    "--write-illegal",
    type=click.Path(writable=True),  # a folder is refused by Output, saying what it takes
    default=None,
    metavar="OUT.jsonl",
    help="Also write every illegal record to OUT.jsonl, one per line.",
)
@click.option(
    "--write-legal",
    type=click.Path(writable=True),  # a folder is refused by Output, saying what it takes
    default=None,
    metavar="OUT.jsonl",
    help="Also write every legal record to OUT.jsonl, one per line.",
)
@go_on_option
@from_options
@max_record_size
def check(
    paths: tuple[str, ...],
    as_json: bool,
    jobs: int,
    show_all: bool,
    write_illegal: str | None,
    write_legal: str | None,
    dask_address: str | None,
    go_on: str | None,
    from_format: str | None,
    names: str | None,
    rules: str,
    max_size: int,
) -> None:
    """Check every action of each record; stop at each record's first violation.

    An action the record marks as taken back or standing is reported and the game
    is followed past it ("3 irregularities", the loser "as played"); --go-on reads
    every unmarked illegal action so (not with --dask).

    \b
    PATH is a record file, a folder (every *.json below it, recursively, any
    case of the extension), a JSON Lines file (*.jsonl: one record per line,
    named FILE:LINE), or - for standard input (one record, or JSON Lines
    named -:LINE).  Folders do not pick up *.jsonl files (they may hold
    saved --json output): name those files.  A PATH that holds no record
    is an error (one line on stderr, exit status 2).  A name check prints
    (FILE:LINE, FILE#gameId) names that one record or game again.

    Up to 20 records every verdict is printed; beyond that only illegal and
    invalid records are, then "N legal verdicts not shown (--all)" (--all
    prints every one), the same for a file as for '-', then a summary table:
    verdict counts and the most frequent rule ids.  With --json, stdout holds
    exactly one object per record, in input order; a JSON Lines record's
    object adds "line" (1-based).  On a terminal a progress bar runs on
    stderr while more than 10 records are checked.  Actions are counted
    from 1 ("illegal action 37" is the 37th; its JSON "index" is 36).

    --write-illegal and --write-legal sort the records by verdict into JSON
    Lines files (one record per line, as read), for cleaning a log of games;
    invalid records go to neither.  Each is written beside its target and
    renamed over it at the end: a run that stops leaves the old file.  A
    symbolic link writes the file it points to.  A stream (/dev/stdout, a
    pipe, a FIFO) is written as it is; with the records on standard output
    the verdicts go to stderr (--json refuses to share it).  An output that
    is standard input or one of the inputs is refused.

    Only regular files are read (not pipes or devices, even behind a link),
    and no record larger than --max-record-size.  --jobs is capped at the
    cores and the records.

    Exit status: 0 all legal, 1 any illegal, 2 any invalid, unreadable or
    missing (or a worker lost, an output not written), 130 Ctrl-C, 143 SIGTERM.
    Standard output closed by its reader (| head -1) changes none of these: the
    run goes on quietly to its end.
    """
    importing = None
    logs = options_of(names, rules, None, max_size)  # for a log told by its content
    if from_format is not None:
        known_format(from_format, paths)
        importing = (from_format, logs)
    out = _console()
    err = _console(stderr=True)
    targets = {"illegal": write_illegal, "legal": write_legal}
    outputs: dict[str, Output] = {}
    try:
        refuse_clashes(paths, {f"--write-{status}": t for status, t in targets.items()})
        for status, target in targets.items():
            if target is not None:
                outputs[status] = Output(f"--write-{status}", target)
        out = _verdicts_beside(outputs.values(), as_json, out, err)
        _check_run(
            paths,
            as_json,
            jobs,
            show_all,
            dask_address,
            max_size,
            out,
            err,
            outputs,
            _go_on(go_on),
            importing,
            logs,
        )
    except OutputError as exc:
        for sink in outputs.values():
            sink.discard()
        _mistake(str(exc))
    except BaseException:
        for sink in outputs.values():
            sink.discard()
        raise


def _verdicts_beside(
    outputs: Iterable[Output], as_json: bool, out: Console, err: Console
) -> Console:
    """Where the verdicts go: standard output, or standard error when the records are
    written there (``--write-legal /dev/stdout | wc -l`` counts records, not verdicts).
    ``--json`` promises standard output to the verdicts alone, so it refuses to share it."""
    for sink in outputs:
        if sink.descriptor == STANDARD_OUTPUT:
            if as_json:
                raise OutputError(
                    _(
                        "--json and {option} {target} would both write standard output; "
                        "write the records to a file"
                    ).format(option=sink.option, target=limits.printable(sink.target))
                )
            return err
    return out


def _check_run(
    paths: tuple[str, ...],
    as_json: bool,
    jobs: int,
    show_all: bool,
    dask_address: str | None,
    max_size: int,
    out: Console,
    err: Console,
    outputs: dict[str, Output],
    go_on: str | None = None,
    importing: tuple[str, ImportOptions] | None = None,
    logs: ImportOptions | None = None,
) -> NoReturn:
    """The body of ``check``, once the outputs are open."""
    counted = importing is None and (not as_json or err.is_terminal)
    total = bulk.count(paths) if counted else None
    # Up to FULL_OUTPUT_MAX records every verdict is printed, beyond only the problems; the
    # first verdicts wait until that is known, so that a file and the same records piped to
    # '-' (which cannot be counted ahead) print the same lines.
    pending: list[bulk.Checked] | None = None if show_all else []
    not_shown = 0

    def show(checked: bulk.Checked) -> None:
        if checked.report is None:
            out.print(render.invalid(checked.label, checked.error or ""))
        else:
            for part in render.verdict_parts(checked.label, checked.report):
                out.print(part)  # a part at a time: a long verdict is never laid out whole

    def is_problem(checked: bulk.Checked) -> bool:
        return checked.report is None or bool(checked.report.violations)

    tally = bulk.Tally()
    found = bulk.Found()
    said = 0

    def said_empty(upto: int) -> None:
        """The lines for paths that held no record, as soon as the walk has passed them."""
        nonlocal said
        if upto > said:
            with suppress(OSError):
                out.file.flush()
            for line in found.empty[said:upto]:
                err.print(line, markup=False, highlight=False)
            said = upto

    results = _cluster_errors(
        lambda: run.check_paths(
            paths,
            found,
            jobs=jobs,
            dask=dask_address,
            records=total,
            keep_text=bool(outputs),
            as_json=as_json,
            max_size=max_size,
            go_on=go_on,
            importing=importing,
            logs=logs,
        ),
        dask=dask_address is not None,
    )
    with closing(results), _progress(err, total, "checking") as advance:
        for checked in results:
            said_empty(len(found.empty))
            tally.add(checked)
            if as_json:
                line = checked.json_line
                if line is None:
                    line = service.dumps(service.verdict(*checked.verdict_args()))
                click.echo(json_text(line))
            elif pending is None:
                if show_all or is_problem(checked):
                    show(checked)
                else:
                    not_shown += 1
            else:
                pending.append(checked)
                if len(pending) > FULL_OUTPUT_MAX:
                    for held in pending:
                        if is_problem(held):
                            show(held)
                        else:
                            not_shown += 1
                    pending = None
            sink = outputs.get(checked.status)
            if sink is not None and checked.text is not None:
                sink.write(_one_line(checked.text))
            advance()
    for held in pending or ():
        show(held)
    if not_shown:
        out.print(
            f"{not_shown} legal verdict{'s' if not_shown > 1 else ''} not shown (--all)",
            markup=False,
            highlight=False,
        )
    for sink in outputs.values():
        sink.commit()
    said_empty(len(found.empty))
    if found.records and logs is not None and logs.names and importing is None:
        note = _(
            "note: --names is not used for the records checked: a record names its players "
            "itself (--names is for an app's log)"
        )
        err.print(note, markup=False, highlight=False)
    if tally.total + len(found.empty) > 1:
        if not as_json:
            out.print(_summary(tally, len(found.empty)))
        elif err.is_terminal:
            err.print(_summary(tally, len(found.empty)))
    sys.exit(run.exit_status(tally, found))


def _cluster_errors(
    check: Callable[[], Iterator[bulk.Checked]], dask: bool
) -> Generator[bulk.Checked, None, None]:
    """A :class:`cluster.ClusterError` becomes one line and exit status 2, wherever it is
    raised (on connecting, or halfway through a run).

    distributed's own log lines are off meanwhile: the run says in one line why it
    ended, and a run cut short with batches still out would otherwise add the local
    scheduler's "couldn't gather keys" as the client closes.
    """
    from adjudicator.bulk import cluster

    with cluster.distributed_quiet(dask):
        try:
            yield from check()
        except cluster.ClusterError as exc:
            _mistake(exc.message)


def _one_line(text: str) -> str:
    """A record's JSON text as one line of JSON Lines, kept as read.

    A line break in JSON text is whitespace between tokens (a string cannot hold
    one raw), so replacing each by a space gives the same JSON on one line, its
    escapes (a lone surrogate written ``\\ud800``) untouched.
    """
    stripped = text.strip()
    if "\n" in stripped or "\r" in stripped:
        stripped = stripped.replace("\r", " ").replace("\n", " ")
    return stripped + "\n"


def _load(
    arg: str,
    max_size: int = limits.MAX_RECORD_SIZE,
    importing: tuple[str | None, ImportOptions] | None = None,
) -> tuple[str, Game | Session]:
    """The one record ``arg`` names (a game of a foreign log with ``importing``: of its
    format, or with None of the format its text is told to be: standard input's, or a
    line's for ``FILE:LINE``); an invalid one is its verdict line on stdout, exit 2.

    The line goes where ``check`` prints it, on standard output: a verdict
    on a record, not a mistake in the command.
    """
    label = limits.printable(arg)
    try:
        if importing is not None and importing[0] is not None:
            label, text = one_imported(importing[0], arg, importing[1])
            return label, document_from_text(text)
        parts = None if importing is None else split_name(arg)
        if importing is not None and parts is not None:
            named = told_game(*parts, importing[1])
            if named is not None:  # else a record's line of JSON Lines, read below
                label, text = converted(named)
                return label, document_from_text(text)
        label, text = bulk.one_record(arg, max_size)
        told = None
        if importing is not None and (arg == bulk.STDIN or arg.startswith(bulk.STDIN + ":")):
            told = importers.detect(text)  # read whole already: told as check tells it
        if told is not None and importing is not None:
            content = text.encode("utf-8")
            games = list(importers.read_content(told, content, label, importing[1]))
            label, text = only_game(games, label)
        elif importing is not None and importing[1].names:
            _names_unused(label)
        return label, document_from_text(text)
    except NotConverted as exc:
        _invalid(exc.name, exc)
    except RecordError as exc:
        _invalid(label, exc)


def _names_unused(label: str) -> None:
    """The note for ``--names`` given with a record: it names its players itself, so the
    name is not used; a note, not an error, as the verdict does not depend on it."""
    note = _(
        "note: --names is not used: {name} is a record, which names its players itself "
        "(--names is for an app's log)"
    ).format(name=label)
    _console(stderr=True).print(note, markup=False, highlight=False)


def _importing(
    from_format: str | None, names: str | None, rules: str, max_size: int, file: str
) -> tuple[str | None, ImportOptions]:
    """``--from FORMAT`` and its options, as ``_load`` takes them; without it, the format
    of an app's log ``file`` holds, told by its content, or None: a record, standard
    input (its text is told once read), or a game named ``FILE#gameId`` or ``FILE:LINE``
    (told by :func:`told_game`)."""
    options = options_of(names, rules, None, max_size)
    if from_format is None:
        stdin = file == bulk.STDIN or file.startswith(bulk.STDIN + ":")
        if stdin or split_name(file) is not None:
            return None, options
        from_format = importers.detect_file(file, max_size)
        if from_format is None:
            return None, options
    known_format(from_format, [file])
    return from_format, options


def _invalid(label: str, exc: RecordError) -> NoReturn:
    """An invalid record: its verdict line on standard output, exit status 2."""
    if _errors_as_json():
        _json_error(f"{label}: {exc}", "invalid", EXIT_INVALID, file=label)
    _console().print(render.invalid(label, str(exc)))
    sys.exit(EXIT_INVALID)


def _one_game(label: str, document: Game | Session, number: int | None) -> tuple[str, Game]:
    """The game to show: the record itself, or game ``number`` of a session, counted from 1
    as ``--game`` and every sentence count games (docs/record-format.md, Counting).

    A session's games are checked in order first: the first leader of a game
    may follow from the previous one (the Goat leads the next game).
    """
    if isinstance(document, Game):
        if number is not None:
            _mistake(f"--game {number}: {label} is one game, not a session")
        return label, document
    if number is None:
        _mistake(f"{label} is a session of {len(document.games)} games: choose one with --game K")
    if not 1 <= number <= len(document.games):
        _mistake(f"--game {number}: the session has games 1-{len(document.games)}")
    try:
        played = adjudicate_session(document).played
    except RecordError as exc:
        _invalid(label, exc)
    return _("{file} game {number}").format(file=label, number=number), played[number - 1]


# "-:3" (line 3 of standard input) looks like an option to click: let it through as FILE.
ONE_RECORD = {"ignore_unknown_options": True}


@main.command(context_settings=ONE_RECORD)
@click.argument("file", metavar="FILE")
@click.option(
    "--step",
    "at",
    type=POSITION,
    default=None,
    metavar="N",
    help="Show only action N (counting from 1) and the table after it.",
)
@click.option(
    "--to",
    "to",
    type=POSITION,
    default=None,
    metavar="N",
    help="Stop after action N (counting from 1).",
)
@click.option(
    "--game",
    "game_no",
    type=POSITION,
    default=None,
    metavar="K",
    help="In a session, the game to show (counting from 1).",
)
@click.option(
    "--as",
    "viewer",
    default=None,
    metavar="NAME",
    help="Show the table as player NAME sees it: the other hands as counts.",
)
@click.option(
    "--svg",
    "svg",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    metavar="OUT.svg",
    help="Also write the ruling as an SVG image.",
)
@click.option(
    "--html",
    "html",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    metavar="OUT.html",
    help="Also write the table's page as one file: the replay in it, steppable offline.",
)
@click.option(
    "--interactive",
    "-i",
    is_flag=True,
    help="Step through the game in a terminal app (n/p or arrows, v violation, r rule, q quit).",
)
@go_on_option
@from_options
@max_record_size
def replay(
    file: str,
    at: int | None,
    to: int | None,
    game_no: int | None,
    viewer: str | None,
    svg: str | None,
    html: str | None,
    interactive: bool,
    go_on: str | None,
    from_format: str | None,
    names: str | None,
    rules: str,
    max_size: int,
) -> None:
    """Replay FILE step by step: each action in words and the table after it.

    \b
    FILE is a record file, - for standard input, or FILE.jsonl:LINE (-:LINE)
    for one record of JSON Lines, as check names it (lines count from 1).

    Actions are counted from 1.  --step N shows action N alone (the table
    after it, or why it was refused); --to N replays up to action N.  The
    closing lines are always the verdict on the whole record, and the exit
    status is the record's: 0 legal, 1 illegal, 2 invalid.

    --svg writes the ruling to share: the table before the action in
    question (the first illegal one, --step N, or else the last), that
    action, and the verdict, in colour.  --html writes the table's page as
    one file, the whole replay in it, opened at that action.
    """
    if at is not None and to is not None:
        _mistake(
            "--step and --to cannot be used together: --step N shows one action, --to N "
            "replays up to it"
        )
    if interactive and (file == bulk.STDIN or file.startswith(bulk.STDIN + ":")):
        _mistake("--interactive reads keys from the terminal: give the record as a file, not -")
    if interactive and not _has_terminal():
        _mistake(
            "--interactive needs a terminal (standard input and output are not one): "
            "leave it out to print the replay"
        )
    try:
        refuse_clashes([file], {"--svg": svg, "--html": html})
    except OutputError as exc:
        _mistake(str(exc))
    label, document = _load(file, max_size, _importing(from_format, names, rules, max_size, file))
    if isinstance(document, Session) and game_no is None:
        if at is not None or to is not None or svg or html or interactive:
            _mistake(f"{label} is a session: choose a game with --game K for these options")
        _replay_session(label, document, viewer, _go_on(go_on))
    source: render.Source = label if game_no is None else (label, game_no - 1)
    label, game = _one_game(label, document, game_no)
    for name, value in (("--step", at), ("--to", to)):
        if value is not None and not 1 <= value <= len(game.actions):
            _mistake(
                f"{name} {value}: "
                + _("the record has actions 1-{count}").format(count=len(game.actions))
                if game.actions
                else f"{name} {value}: " + _("the record has no actions")
            )
    # People count from 1; the replay's steps are indexed from 0.
    at = None if at is None else at - 1
    to = None if to is None else to - 1
    if viewer is not None and viewer not in game.players:
        _mistake(f"--as {viewer}: not a player of the record ({', '.join(game.players)})")
    try:
        whole = adjudicate(game, steps=True, go_on=_go_on(go_on))
    except RecordError as exc:
        _invalid(label, exc)
    code = EXIT_ILLEGAL if whole.violations else EXIT_LEGAL
    if interactive:
        from adjudicator.render import tui

        tui.ReplayApp(label, whole, viewer=viewer, start=at if at is not None else to).run()
        sys.exit(code)
    # An image or page written to standard output keeps it: the replay goes to stderr.
    out = _console(stderr=writes_standard_output(svg) or writes_standard_output(html))
    for part in render.replay_parts(label, whole, at=at, to=to, viewer=viewer, source=source):
        out.print(part)
    for target, kind in ((svg, "svg"), (html, "html")):
        if target is not None:
            try:
                export.write(
                    target,
                    kind,
                    label,
                    whole,
                    at=at,
                    viewer=viewer,
                    game=game,
                    document=document,
                    number=None if game_no is None else game_no - 1,
                )
            except OutputError as exc:
                _mistake(str(exc))
    sys.exit(code)


def _has_terminal() -> bool:
    """Whether keys can be read and a screen drawn: --interactive needs both."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def _replay_session(
    label: str, session: Session, viewer: str | None, go_on: str | None = None
) -> NoReturn:
    """Every game of a session, one after the other, then the session's verdict and scores."""
    out = _console()
    try:
        whole = adjudicate_session(session, steps=True, go_on=go_on)
    except RecordError as exc:
        _invalid(label, exc)
    for number, report in enumerate(whole.games, start=1):
        out.print(Text(_("Game {number}").format(number=number), style="bold magenta"))
        game = _("{file} game {number}").format(file=label, number=number)
        if report.start is None:  # not replayed: its first leader is wrong
            out.print(render.verdict(game, report, source=label))
        else:
            parts = render.replay_parts(game, report, viewer=viewer, source=label)
            for part in parts:
                out.print(part)
        out.print()
    out.print(render.verdict(label, whole))
    sys.exit(EXIT_ILLEGAL if whole.violations else EXIT_LEGAL)


def _positions_said(actions: int) -> str:
    """The positions ``--at`` may name, counted as people count actions (from 1)."""
    return ngettext(
        "the record has {count} action: --at 1 is before it, --at {after} after it",
        "the record has {count} actions: --at 1 is before the first, --at {after} after the last",
        actions,
    ).format(count=written(actions), after=written(actions + 1))


@main.command("legal", context_settings=ONE_RECORD)
@click.argument("file", metavar="FILE")
@click.option(
    "--at",
    "at",
    type=POSITION,
    default=None,
    metavar="N",
    help="Before action N (counting from 1): what could have been done instead of it. "
    "Default: after the last action, what may come next.",
)
@click.option(
    "--game",
    "game_no",
    type=POSITION,
    default=None,
    metavar="K",
    help="In a session, the game (counting from 1; default: the last).",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object: the position and the list.")
@go_on_option
@from_options
@max_record_size
def legal_command(
    file: str,
    at: int | None,
    game_no: int | None,
    as_json: bool,
    go_on: str | None,
    from_format: str | None,
    names: str | None,
    rules: str,
    max_size: int,
) -> None:
    """List the legal actions at a point of FILE, ready to paste into a record.

    \b
    FILE is a record file, - for standard input, or FILE.jsonl:LINE (lines
    count from 1).
    --at N is the moment before action N (actions count from 1), so
    "legal --at 37" lists what the player could have done instead of
    action 37, as "legal instead" does for an illegal action; --at 1 is the
    start, one more than the record's actions is after the last.  Without
    --at: after the last action.

    Each action is printed as it is written in a record: a string such as
    "Bo play QH", a deal as a JSON object.  Many deals are summed up as a
    count (the shuffle decides who gets which card); --json lists them all,
    in "legal".  With unknown cards ("??"), "legal" holds the actions with
    known cards; "with_unseen" those naming a card nobody has seen that are
    legal if a hidden card is that one, and "with_unseen_undetermined" those
    that are legal unless the hidden cards hold what a rule would force
    (each with the rule and why it cannot be checked).  The text prints
    them as "With a card nobody has seen, also legal" and "... legal if the
    hidden cards allow it".

    Exit status: 0 listed; 1 the record is illegal before that point; 2 the
    record is invalid or N is out of range.
    """
    click.get_current_context().meta[JSON_ERRORS] = as_json
    label, document = _load(file, max_size, _importing(from_format, names, rules, max_size, file))
    if isinstance(document, Session) and game_no is None:
        game_no = len(document.games)
    # The hint names the file as given and the game apart: "FILE --game 2", not "FILE game 2".
    source: render.Source = label if game_no is None else (label, game_no - 1)
    # JSON's "file" is one form in every language (a key a program reads); the lines a
    # person reads say the game in theirs ("- parti 3").
    filed = label if game_no is None else f"{label} game {game_no}"
    label, game = _one_game(label, document, game_no)
    if at is not None and not 1 <= at <= len(game.actions) + 1:
        _mistake(f"--at {at}: " + _positions_said(len(game.actions)))
    # --at N is before action N, counted from 1: after N - 1 actions.
    at = None if at is None else at - 1
    try:
        where = legal.position(game, at, _go_on(go_on))
    except RecordError as exc:
        _invalid(label, exc)
    except legal.Unreachable as exc:
        out = _console()
        v = exc.violation
        if as_json:
            _json_error(
                service.never_reached(label, v.index or 0),
                "illegal",
                EXIT_ILLEGAL,
                file=filed,
                violation=service.ViolationOut.of(v),
            )
        out.print(Text(render.never_reached(label, v.index or 0, source)))
        out.print(render.violation(v, source=label))
        sys.exit(EXIT_ILLEGAL)
    if as_json:
        click.echo(json_text(service.dumps(service.PositionOut.of(where, filed))))
        return
    _console().print(render.position(label, where))


def _complete_topic(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion for explain: rule ids and option names."""
    return [t for t in (*catalog.RULES, *RuleOptions.model_fields) if t.startswith(incomplete)]


def _complete_variant(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion for variant names."""
    return [name for name in PRESETS if name.startswith(incomplete)]


@main.command()
@click.argument("topic", metavar="RULE_ID|OPTION", required=False, shell_complete=_complete_topic)
def explain(topic: str | None) -> None:
    """Explain a rule id (phase2.beat) or a rule option (pick_from).

    \b
    For a rule id: what it checks, the rule texts it comes from (title and
    section: docs/sources.md lists them), the options that change it, and a
    sample game that breaks it.  For an option: what it means, the values it
    may take, its default and its value in each variant, and the rules it
    changes.  Without an argument: every rule id with what it checks.
    """
    out = _console()
    if topic is None:
        out.print(explaining.rule_list())
        return
    try:
        about = service.explain(topic)
    except service.UnknownTopic as exc:
        _mistake(str(exc))
    if isinstance(about, service.RuleExplanation):
        out.print(explaining.rule(about))
    else:
        out.print(explaining.option(about))


@main.command()
@click.argument("name", required=False, shell_complete=_complete_variant)
def variants(name: str | None) -> None:
    """List the variants and their option values, or show one variant in full.

    Without NAME: every preset, then a grid of every option's value in each
    preset.  With NAME: each option of that variant with its value, the values
    it may take, and the rule and source it stands for.  Any option can be
    overridden in a record's "options".
    """
    out = _console()
    if name is None:
        every = service.variants()
        out.print(render.variant_list(every))
        out.print(render.option_grid(every))
        out.print(
            _(
                "Run 'adjudicator variants NAME' for each option's rule and source. "
                'A record may override any option in its "options".'
            )
        )
        return
    try:
        about = service.variant(name)
    except service.UnknownTopic as exc:
        _console(stderr=True).print(f"variant: {exc}", highlight=False, markup=False)
        sys.exit(EXIT_INVALID)
    out.print(render.variant(about, out.width))


register_conformance(main)  # vectors, perft, conform: the conformance kit
register_web(main)  # serve: the table's page and the HTTP API
register_records(main)  # schema, samples, simulate: records to start from
register_importing(main)  # import: records from other apps' logs
everywhere(main)  # --lang on every command: the language the run speaks
speak_for_click()  # click's own words ("Usage:", "No such option") in that language
