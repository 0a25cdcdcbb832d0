"""The spectator stream of tjwilson90/goat (the American Goat game): its events as a record.

The app's server sends a spectator ``{"type": "replay", "gameId": …, "events": […]}``,
each event tagged by ``type`` in camelCase.  The log says who joined, how many packs,
every card drawn and by whom, every card played and sluffed, the trump turned and the
dreck shared, but not who made a ``playCard``, ``playTop``, ``playRun`` or ``pickUp``,
nor who won a trick: those follow from the rules, and
:mod:`adjudicator.importers.goat_replay` finds them by replaying the events.  Here the
format's reading: its sources, their games, the rules explained.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from adjudicator.i18n import N_, _, ngettext, number
from adjudicator.importers.base import Broken as Broken
from adjudicator.importers.base import Imported, ImportOptions, option_value, rules_explained
from adjudicator.importers.goat_replay import KNOWN_FIELDS as KNOWN_FIELDS
from adjudicator.importers.goat_replay import NAME as NAME
from adjudicator.importers.goat_replay import REDACTED as REDACTED
from adjudicator.importers.goat_replay import _Game as _Game
from adjudicator.importers.goat_replay import convert_replayed as convert_replayed
from adjudicator.importers.goat_replay import rule_options as rule_options
from adjudicator.importers.source import json_values, label, read_source
from adjudicator.invalid import RecordError, cut

TITLE = N_("tjwilson90/goat: a game's spectator stream (JSON events), as the Goat rules")

EXPLAINED: tuple[tuple[str, str], ...] = (
    ("first_leader", N_("seat 0 leads the first trick; the last seat deals")),
    ("decks", N_("the packs of 'start' (numDecks); the record format holds one or two")),
    ("aces_low", N_("aces are high: the app ranks two to ace")),
    ("high_trump", N_("no high-trump rule: only the count of plays kills a trick")),
    (
        "low_cards",
        N_(
            "the app shares the dreck among players holding fewer than six cards, with one "
            "pack or two; the treatise says twelve with two packs (--rules text)"
        ),
    ),
    (
        "sluff_final",
        N_("the app does not enforce sluffing restriction #2; the treatise does (--rules text)"),
    ),
    (
        "phase_one_end",
        N_(
            "the app ends part one as soon as a player still to play in the round or its war "
            "has no card; the treatise when that player is due (--rules text)"
        ),
    ),
    (
        "draw_back",
        N_(
            "where a player draws late (the app's Draw button lets one wait), the record "
            "starts with every hand empty and writes every draw: the app lets a player wait; "
            "the treatise says to draw at once (--rules text); otherwise the rules draw"
        ),
    ),
)


def explain(options: ImportOptions) -> str:
    """The two rule sets, option by option, with why: what ``import --explain`` prints."""
    app, text = rule_options(1, "app"), rule_options(1, "text")
    two_app, two_text = rule_options(2, "app"), rule_options(2, "text")
    rows = []
    for option, why in EXPLAINED:
        if option == "first_leader":
            values = "0 / 0"
        elif option == "decks":
            values = "1-2 / 1-2"
        elif option == "low_cards":
            values = f"{app[option]} / {text[option]} ({two_app[option]} / {two_text[option]})"
        elif option == "draw_back":
            late_app, late_text = rule_options(1, "app", True), rule_options(1, "text", True)
            values = f"{option_value(late_app[option])} / {option_value(late_text[option])}"
        else:
            values = f"{option_value(app[option])} / {option_value(text[option])}"
        rows.append((option, values, _(why)))
    return rules_explained(
        _("The Goat rules (variant goat) with these options:"),
        rows,
        _(
            "Where the app departs from the rules in ways no option says (a cap on pick-ups), "
            "the check names the place by the rules' own words."
        ),
    )


def read(source: str, options: ImportOptions) -> Iterator[Imported]:
    """Every game of ``source``: a replay message, a bare event array, or JSON Lines of
    either; each named ``FILE#gameId`` (``FILE`` or ``FILE:LINE`` without an id)."""
    shown_name = label(source)
    try:
        text = read_source(source, options.max_size)
    except RecordError as exc:
        yield Imported(shown_name, error=str(exc))
        return
    yield from read_text(text, shown_name, options)


def read_text(text: str, shown_name: str, options: ImportOptions) -> Iterator[Imported]:
    """Every game of a log's text (as :func:`read`), named after ``shown_name``: what the
    page's Open record reads, a pasted log or a picked file, with no file of its own."""
    wanted = options.game
    found = False
    for line, value, error in json_values(text, jsonl=shown_name.lower().endswith(".jsonl")):
        place = shown_name if line is None else f"{shown_name}:{line}"
        if error is not None:
            yield Imported(place, error=error)
            continue
        game_id = value.get("gameId") if isinstance(value, dict) else None
        name = f"{shown_name}#{cut(str(game_id), 80)}" if game_id is not None else place
        if wanted is not None and str(game_id) != wanted:
            continue
        found = True
        try:
            record, replayed, places = convert_replayed(value, options)
        except Broken as exc:
            yield Imported(name, error=str(exc))
        else:
            yield Imported(
                name,
                record=record,
                about=about(record, value),
                replayed=replayed,
                places=tuple(f"events[{i}]" for i in places),
            )
    if wanted is not None and not found:
        yield Imported(
            shown_name,
            error=_("no game {game} in {name}").format(game=repr(cut(wanted, 80)), name=shown_name),
        )


def looks_like(text: str) -> bool:
    """Whether ``text`` has this format's shape: a replay message, an array of the app's
    events, or JSON Lines whose first line is one.  The first test is a scan for the
    word the shape needs, so a record (or a folder's worth) is not parsed twice."""
    start = text.lstrip()[:1]
    if start not in ("{", "[") or ('"replay"' not in text and start != "["):
        return False
    for _line, value, _error in json_values(text):
        return _shaped(value)
    return False


def _shaped(value: Any) -> bool:
    if isinstance(value, dict):  # a replay message, its events right or not (the importer says)
        return value.get("type") == "replay"
    if isinstance(value, list) and value and isinstance(value[0], dict):
        kind = value[0].get("type")
        return isinstance(kind, str) and (kind in KNOWN_FIELDS or kind in REDACTED)
    return False


def about(record: Mapping[str, Any], message: Any) -> str:
    """What a game was read from, in one line for a person (the page says it)."""
    events = message if isinstance(message, list) else message.get("events", [])
    count = len(events)
    said = ngettext(
        "Read a Goat app log: {players} players, {count} event",
        "Read a Goat app log: {players} players, {count} events",
        count,
    )
    return said.format(players=len(record["players"]), count=number(count))


def convert(message: Any, options: ImportOptions) -> dict[str, Any]:
    """One game's message (or bare event array) as a record; Broken when it cannot be."""
    return convert_replayed(message, options)[0]
