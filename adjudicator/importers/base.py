"""What every importer yields: one game of a foreign log, as a record or as the reason it is none.

An importer is a module with ``NAME`` (the format's name on the command line),
``TITLE`` (one line for ``import --list``) and ``read(source, options) ->
Iterator[Imported]``: one :class:`Imported` a game, in the source's order, never
raising for a broken game (the error is the game's), so that a batch goes on past
it; ``--strict`` stops at the first error, which is the caller's choice.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from adjudicator.exceptions import AdjudicatorError
from adjudicator.i18n import _
from adjudicator.limits import MAX_RECORD_SIZE

if TYPE_CHECKING:  # the play layer is imported by the importers that replay, not here
    from adjudicator.play.adjudicate import Replayed


class Broken(AdjudicatorError):
    """A log that cannot be made a record: the place (``events[12]``) and why.

    Here, in a module left as Python, for the importers compiled with the engine
    (setup.py) to raise."""

    def __init__(self, where: str, why: str) -> None:
        super().__init__(f"{where}: {why}" if where else why)


@dataclass(frozen=True)
class ImportOptions:
    """What a person may say about a source: each importer reads the fields it needs."""

    names: tuple[str, ...] = ()
    """Player names in seat order, instead of the source's own ids (``--names``)."""
    rules: str = "app"
    """``app``: the app's own rules, as far as the options say them; ``text``: the text's."""
    game: str | None = None
    """One game of a source that holds many (``--game``); None: every game."""
    extra: Mapping[str, str] = field(default_factory=dict)
    """Options a plug-in format defines for itself."""
    max_size: int = MAX_RECORD_SIZE
    """The most bytes read of a source (a file, a line of JSON Lines, a link's record
    once inflated): the ``--max-record-size`` every record is held to."""


@dataclass(frozen=True)
class Imported:
    """One game read from a source: ``record`` (a ``skitgubbe-record/1`` document as a
    dict), or ``error``, one line naming the place in the source (``events[41]: ...``)."""

    name: str
    """Where the game is: ``FILE#gameId`` (or ``FILE`` for a source of one game)."""
    record: dict[str, Any] | None = None
    error: str | None = None
    about: str | None = None
    """What the game was read from, one line in the language speaking ("Read a Goat app
    log: 3 players, 171 events"): the page says it over the record it opens."""
    replayed: Replayed | None = None
    """The table the importer replayed the record's actions on, when a check may read
    the verdict off it instead of replaying again (optional: None, the check replays)."""
    places: tuple[str, ...] | None = None
    """Each action's place in the source (``events[41]``), which a check of the log names
    beside a violation (optional: None, the action's index only)."""


def rules_explained(
    heading: str, rows: Iterable[tuple[str, str, str]], closing: str | None = None
) -> str:
    """What ``import --explain`` prints for a format: ``heading``, then each option as
    ``option: app / text`` (its value under ``--rules app`` and ``--rules text``) with
    why on the line below (already in the language speaking), then ``closing``."""
    lines = [heading, _("  option: --rules app (the default) / --rules text")]
    for option, values, why in rows:
        lines.append(f"  {option}: {values}")
        lines.append(f"      {why}")
    if closing:
        lines.append(closing)
    return "\n".join(lines)


def option_value(value: object) -> str:
    """An option's value as a record writes it (``true``, ``own_rank``, ``6``)."""
    return "true" if value is True else "false" if value is False else str(value)


def player_name(name: object, fallback: str) -> str:
    """A player's name in the source (a user id, a profile's name) as a record's player
    name: each run of whitespace one ``_``, since the record's names have no spaces
    ("Ann Lee" is ``Ann_Lee``); ``fallback`` when that leaves nothing (no name)."""
    text = "_".join(str(name).split()) if name is not None else ""
    return text or fallback
