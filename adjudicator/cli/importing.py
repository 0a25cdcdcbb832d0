"""``import``: records from the logs of the apps games are played on; ``--from`` for
``check``, ``replay`` and ``legal``, which read such a log directly.

Lenient by default: a game that cannot be converted is one line naming the game and the
place, the run goes on, and the exit status (2) says some were not; ``--strict`` stops
at the first.  docs/importers.md has each format's mapping.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NoReturn

import click
from rich.text import Text

from adjudicator import importers, limits
from adjudicator.bulk import STDIN, database_on_stdin, record_text
from adjudicator.bulk.imported import games, no_game, one_game, split_name, the_only
from adjudicator.bulk.outputs import Output, OutputError, write_file
from adjudicator.cli.group import Helped
from adjudicator.cli.group import console as _console
from adjudicator.cli.group import mistake as _mistake
from adjudicator.cli.numbers import RecordSize
from adjudicator.exits import EXIT_INVALID
from adjudicator.i18n import _, ngettext
from adjudicator.importers import ImportOptions, UnknownFormat, albined_db
from adjudicator.record import RecordError
from adjudicator.render.terminal import read_logs_with

RULES = ("app", "text")


def register(main: click.Group) -> None:
    """Add ``import`` to the command group."""
    main.add_command(import_command)


def options_of(
    names: str | None, rules: str, game: str | None, max_size: int = limits.MAX_RECORD_SIZE
) -> ImportOptions:
    """The command line's words as an importer reads them."""
    seats = tuple(n.strip() for n in names.split(",")) if names else ()
    if any(not seat for seat in seats):
        _mistake(_("--names: a name is empty ({names})").format(names=names))
    read_logs_with(rules, names)  # the hints to run 'legal' repeat these
    return ImportOptions(names=seats, rules=rules, game=game, max_size=max_size)


def from_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """``--from FORMAT``, ``--names`` and ``--rules``: read a foreign log directly."""
    f = click.option(
        "--rules",
        "rules",
        type=click.Choice(RULES),
        default="app",
        show_default=True,
        help="For a log (--from, or one told by its content): the app's own rules, or the "
        "rule text's letter (see 'adjudicator import --explain FORMAT').",
    )(f)
    f = click.option(
        "--names",
        "names",
        default=None,
        metavar="A,B,C",
        help="For a log (--from, or one told by its content): the players' names in seat "
        "order, instead of the log's ids.",
    )(f)
    return click.option(
        "--from",
        "from_format",
        default=None,
        metavar="FORMAT",
        help="Read each PATH (FILE, FILE#gameId, or a folder: every *.json below it) as a log "
        "of FORMAT, each game named FILE#gameId ('adjudicator import --list' shows the "
        "formats). A page link ('https://...#record=...'), a Goat app log and the albined "
        "app's database need no --from: a file is told by its content.",
    )(f)


def known_format(name: str, paths: Iterable[str] = ()) -> None:
    """A one-line mistake (exit 2) for a format nothing installed reads, or for a database
    asked of standard input (``paths`` holding ``-``): it is read from a file only."""
    try:
        importers.find(name)
    except UnknownFormat as exc:
        _mistake(str(exc))
    if name == albined_db.NAME and any(_stdin(path) for path in paths):
        _mistake(f"{STDIN}: " + database_on_stdin())


def _stdin(path: str) -> bool:
    return path == STDIN or path.startswith(STDIN + ":")


class NotConverted(RecordError):
    """A game that cannot be had (not converted, not there): its line, and the name the
    verdict gives it (``FILE#gameId``, as ``check`` names the game)."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__("", message)
        self.name = name


def one_imported(format_name: str, arg: str, options: ImportOptions) -> tuple[str, str]:
    """The label and JSON text of the one game ``arg`` names in a log of ``format_name``:
    ``FILE`` holding one game, ``FILE#gameId`` or ``FILE:LINE``.  NotConverted (one
    line) otherwise."""
    known_format(format_name)
    file, game, line = split_name(arg) or (arg, None, None)
    return converted(one_game(format_name, file, game, line, options))


def only_game(games: list[importers.Imported], source: str) -> tuple[str, str]:
    """The label and JSON text of the one game read from ``source``; NotConverted (one
    line) when there is none, several, or it could not be converted."""
    return converted(the_only(games, source))


def converted(one: importers.Imported) -> tuple[str, str]:
    """A game's name and its record's JSON text; NotConverted when it has no record."""
    if one.record is None:
        raise NotConverted(one.name, one.error or _("not converted"))
    return one.name, record_text(one.record)


@click.command("import", cls=Helped)
@click.argument("format_name", metavar="FORMAT", required=False)
@click.argument("sources", metavar="SOURCE...", nargs=-1)
@click.option("--list", "show_list", is_flag=True, help="List the installed formats and stop.")
@click.option(
    "--explain",
    is_flag=True,
    help="Print the rules FORMAT's records are checked by (each rule set, option by option).",
)
@click.option(
    "-o",
    "--out",
    default=None,
    metavar="OUT",
    help="Write one record file per game into this folder (created if missing), JSON Lines "
    "into OUT if it ends in .jsonl or with --jsonl, or the one game's record into OUT if it "
    "ends in .json. Default: JSON Lines on stdout.",
)
@click.option("--jsonl", is_flag=True, help="Write -o OUT as one JSON Lines file.")
@click.option(
    "--names",
    default=None,
    metavar="A,B,C",
    help="The players' names in seat order, instead of the log's ids.",
)
@click.option(
    "--rules",
    type=click.Choice(RULES),
    default="app",
    show_default=True,
    help="The app's own rules, as far as the options say them, or the rule text's letter.",
)
@click.option("--game", default=None, metavar="ID", help="Only the game ID of each source.")
@click.option("--strict", is_flag=True, help="Stop at the first game that cannot be converted.")
@click.option(
    limits.SIZE_FLAG,
    "max_size",
    type=RecordSize(),
    default=limits.MAX_RECORD_SIZE,
    show_default=True,
    metavar="BYTES",
    help="Refuse a source (a file, a line, a link's record) larger than this.",
)
def import_command(
    format_name: str | None,
    sources: tuple[str, ...],
    show_list: bool,
    explain: bool,
    out: str | None,
    jsonl: bool,
    names: str | None,
    rules: str,
    game: str | None,
    strict: bool,
    max_size: int,
) -> None:
    """Convert the logs of other apps into skitgubbe-record/1 records.

    \b
    FORMAT is one of 'adjudicator import --list': albined-db (the SQLite
    file of the albined/skitgubbe web app: every game, or --game ID),
    goat-events (the spectator stream of tjwilson90/goat: a replay message,
    an event array or JSON Lines of them), link (the page's shared link, or
    a file of links), and any format an installed package adds (entry points
    'adjudicator.importers').  SOURCE is a file, a folder (every *.json
    below it, as check reads a folder), or - for standard input.

    Each game is one record, named FILE#gameId.  A game that cannot be
    converted is one line on stderr naming it and the place, and the run
    goes on; --strict stops there.  Exit status: 0 every game converted,
    2 any not (or a mistake in the command).  docs/importers.md has each
    format's mapping and what it cannot know.
    """
    if show_list:
        _list_formats()
        return
    if format_name is None:
        _mistake(_("name a FORMAT ('adjudicator import --list' shows them)"))
    known_format(format_name, sources)
    if explain:
        _explain(format_name, options_of(names, rules, game, max_size))
        return
    if not sources:
        _mistake(_("name a SOURCE to read (a file, or - for standard input)"))
    options = options_of(names, rules, game, max_size)
    err = _console(stderr=True)
    sink = _sink(out, jsonl)
    converted = failed = 0
    try:
        for source in sources:
            skipped: Counter[str] = Counter()
            read = 0
            for one in games(format_name, source, options, skipped):
                read += 1
                if one.record is None:
                    failed += 1
                    err.print(f"{one.name}: {one.error}", markup=False, highlight=False)
                    if strict:
                        _stop(sink, converted, failed)
                    continue
                converted += 1
                sink.put(one.name, record_text(one.record))
            if not read:  # a folder with no *.json, an empty file: said, and a failure
                failed += 1
                err.print(no_game(source, skipped), markup=False, highlight=False)
                if strict:
                    _stop(sink, converted, failed)
        sink.commit()
    except OutputError as exc:
        sink.discard()
        _mistake(str(exc))
    except BaseException:
        sink.discard()
        raise
    _counted(converted, failed)
    sys.exit(EXIT_INVALID if failed else 0)


def _counted(converted: int, failed: int) -> None:
    """The count line on stderr (standard output may be the records), on success too."""
    said = ngettext("{count} game converted", "{count} games converted", converted).format(
        count=converted
    )
    if failed:
        said += "; " + ngettext(
            "{count} game could not be converted", "{count} games could not be converted", failed
        ).format(count=failed)
    _console(stderr=True).print(said, markup=False, highlight=False)


def _stop(sink: _Sink, converted: int, failed: int) -> NoReturn:
    """--strict: what was converted before the first failure is kept, its count said as
    far as the run got, then exit 2."""
    sink.commit()
    _counted(converted, failed)
    sys.exit(EXIT_INVALID)


def _list_formats() -> None:
    out = _console()
    for found in importers.formats():
        if found.problem is not None:
            out.print(Text.assemble((found.name, "bold red"), "  ", found.problem))
        else:
            origin = ("  " + found.origin, "dim")
            out.print(Text.assemble((found.name, "bold"), "  ", found.title, origin))


def _explain(format_name: str, options: ImportOptions) -> None:
    found = importers.find(format_name)
    if found.explain is None:
        _console().print(
            _("{name} says nothing more about its rules: {title}").format(
                name=found.name, title=found.title
            ),
            markup=False,
            highlight=False,
        )
        return
    click.echo(found.explain(options))


class _Sink:
    """Where the records go: JSON Lines on stdout or in a file, or one file a game."""

    def __init__(self, out: str | None, jsonl: bool) -> None:
        self.folder: Path | None = None
        self.lines: Output | None = None
        self.single: str | None = None
        """``-o GAME.json``: the one game's record in that file (not a folder named so)."""
        self.used: set[str] = set()
        self.written = 0
        if out is None:
            return
        single = out.lower().endswith(".json") and not Path(out).is_dir() and not jsonl
        if jsonl or out.lower().endswith(".jsonl") or single:
            self.lines = Output("-o", out)
            self.single = out if single else None
            return
        self.folder = Path(out)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(
                _("-o: cannot create {name}: {why}").format(
                    name=limits.printable(out), why=exc.strerror
                )
            ) from None

    def put(self, name: str, text: str) -> None:
        if self.single is not None and self.written:
            raise OutputError(
                _(
                    "-o {out} holds one record, and the source has more games: give -o "
                    "a folder (one file a game) or a name ending in .jsonl"
                ).format(out=limits.printable(self.single))
            )
        self.written += 1
        if self.lines is not None:
            self.lines.write(text + "\n")
        elif self.folder is not None:
            write_file("-o", self.folder / self._file_name(name), text + "\n")
        else:
            click.echo(text)

    def _file_name(self, name: str) -> str:
        """``games.json#g17`` as ``games-g17.json``: the source's stem, the game's id."""
        source, _sep, game = name.rpartition("#") if "#" in name else (name, "", "")
        stem = Path(source.replace(":", "-")).stem
        base = re.sub(r"[^A-Za-z0-9._-]+", "_", f"{stem}-{game}" if game else stem)[:120]
        base = base.strip("._") or "game"
        chosen, k = base, 2
        while chosen in self.used:
            chosen, k = f"{base}-{k}", k + 1
        self.used.add(chosen)
        return chosen + ".json"

    def commit(self) -> None:
        """Write the file out; with no record converted, leave OUT as it was (a file
        written before is not emptied by a run that converted nothing)."""
        if self.lines is not None:
            if self.written:
                self.lines.commit()
            else:
                self.lines.discard()

    def discard(self) -> None:
        if self.lines is not None:
            self.lines.discard()


def _sink(out: str | None, jsonl: bool) -> _Sink:
    try:
        return _Sink(out, jsonl)
    except OutputError as exc:
        _mistake(str(exc))
