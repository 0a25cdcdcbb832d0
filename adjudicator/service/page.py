"""What the page and the HTTP API answer, as plain JSON-ready dicts.

The page and the HTTP API never reach into the engine themselves: they call
these functions, which do what ``check --json``, ``legal --json``,
``replay``, ``variants`` and ``explain`` do.  Part of the core: the web app calls
them behind its routes, and the static site calls the same functions in the
browser, so both answer the same JSON.

Errors a person can act on are :class:`BadInput` with the CLI's one-line
message; nothing here prints.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Iterator
from typing import Any

from adjudicator import importers, service
from adjudicator import samples as shipped
from adjudicator.cards import PARSE, SUIT_LETTERS, SUIT_SYMBOLS, card_code
from adjudicator.engine.state import TableView, variant_acts
from adjudicator.engine.violations import Violation
from adjudicator.exceptions import AdjudicatorError
from adjudicator.i18n import _, ngettext
from adjudicator.importers import albined_db, link
from adjudicator.invalid import cut
from adjudicator.play import legal, listing
from adjudicator.play import words as words_of
from adjudicator.play.adjudicate import Report, adjudicate, adjudicate_session, document_from_text
from adjudicator.play.table import Step
from adjudicator.play.words import act_and_consequences
from adjudicator.record import FORMAT, Game, RecordError, Session
from adjudicator.record.notation import listed_form
from adjudicator.rules import catalog

STDIN_LABEL = "-"
"""The ``file`` of a record sent in a request body: what ``check -`` names standard input."""


class BadInput(AdjudicatorError):
    """Input a person can fix: one line, as the CLI prints it (HTTP 400/422)."""

    def __init__(self, message: str, status: int = 422, body: dict[str, Any] | None = None):
        message = cut(message)  # a 10,000-character topic is not sent back whole
        super().__init__(message)
        self.message = message
        self.status = status
        self.body = body


def _document(text: str) -> Game | Session:
    """A record or session from its JSON text, or BadInput with the CLI's line."""
    try:
        return document_from_text(text)
    except RecordError as exc:
        raise BadInput(str(exc)) from None


def check_one(text: str, label: str = STDIN_LABEL) -> dict[str, Any]:
    """The ``check --json`` object for one record's JSON text (``status: invalid`` too)."""
    return service.check_text(text, label).model_dump(mode="json")


def check_raw_line(raw: bytes, number: int, label: str = STDIN_LABEL) -> dict[str, Any]:
    """The ``check --json`` object for line ``number`` (1-based) of JSON Lines, with ``line``."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        error = _("line {number} is not UTF-8 text").format(number=number)
        return service.Verdict.invalid(label, error, number).model_dump(mode="json")
    return service.check_text(text, label, number).model_dump(mode="json")


def legal_at(text: str, at: int | None = None, label: str = STDIN_LABEL) -> dict[str, Any]:
    """What ``legal --json`` prints for a record at position ``at`` (default: the end)."""
    document = _document(text)
    if isinstance(document, Session):  # the last game, as 'legal' without --game
        try:  # a game's first leader may follow from the last: the games as played
            played = adjudicate_session(document).played
        except RecordError as exc:
            raise BadInput(str(exc)) from None
        label = f"{label} game {len(document.games)}"  # games are said from 1
        document = played[-1]
    game = document
    if at is not None and not 0 <= at <= len(game.actions):
        raise BadInput(f"at {at}: " + service.positions_said(len(game.actions)), 400)
    try:
        where = legal.position(game, at)
    except RecordError as exc:
        raise BadInput(str(exc)) from None
    except legal.Unreachable as exc:
        v = exc.violation
        raise BadInput(
            service.never_reached(label, v.index or 0),
            409,
            {"violation": _violation_json(v)},
        ) from None
    return {"file": label, **service.PositionOut.of(where).model_dump(mode="json")}


# --- the table, as the page draws it -------------------------------------------------


def card(c: int) -> str:
    """A card in record notation (``TH``, ``??``)."""
    return card_code(c)


def table(view: TableView, viewer: str | None = None) -> dict[str, Any]:
    """The table as JSON (:class:`service.TableOut`); with ``viewer`` the other hands are
    counts only, never cards."""
    return service.TableOut.seen(service.TableOut.made(view), viewer)


def rule(rule_id: str) -> dict[str, Any] | None:
    """Where a rule is written: what it checks and its sources (title, section, address),
    from :func:`service.explain`; None for an id the catalogue does not have."""
    if rule_id not in catalog.RULES:
        return None
    return _where(service.explain(rule_id))


def _where(about: service.RuleExplanation | service.OptionExplanation) -> dict[str, Any]:
    assert isinstance(about, service.RuleExplanation)
    return {
        "id": about.id,
        "checks": about.checks,
        "kind": about.kind,
        "options": about.options,
        "samples": about.samples,
        "sources": [s.model_dump(mode="json") for s in about.sources],
    }


def _mentions_hidden(form: listing.Form, viewer: str | None) -> bool:
    """Whether an action names another player's cards, which ``viewer`` may not see."""
    if viewer is None:
        return False
    if isinstance(form, dict):
        return True  # a deal names who gets which card
    words = form.split()
    return words[0] != viewer and any(w.upper() in PARSE for w in words[2:])


def violation(v: Violation, viewer: str | None = None) -> dict[str, Any]:
    """A violation as ``check --json`` has it, plus its rule's sources; hidden for a viewer.

    A one-player view never lists another player's legal cards: they would show the hand;
    nor a comment, free text that may name any hand.
    """
    out = _violation_json(v)
    if viewer is not None:
        out.pop("comment", None)
    if viewer is not None and v.player is not None and v.player != viewer:
        kept = [f for f in v.alternatives if not _mentions_hidden(f, viewer)]
        out["legal"] = kept
        out["legal_hidden"] = len(listing.unique(v.alternatives)) - len(listing.unique(kept))
    out["where"] = rule(v.rule)
    return out


def note(v: Violation) -> dict[str, Any]:
    """A check that could not be made, with its rule's sources."""
    return {**service.NoteOut.of(v).model_dump(mode="json"), "where": rule(v.rule)}


def _violation_json(v: Violation) -> dict[str, Any]:
    """The violation as ``check --json`` has it (the service's one form)."""
    out: dict[str, Any] = service.ViolationOut.of(v).model_dump(mode="json")
    return out


def _said(s: Step, comments: dict[int, str]) -> dict[str, Any]:
    """What a step says, the same for every viewer: the action, its words, its notes, and
    the comment written beside it (only where there is one)."""
    words, events = act_and_consequences(s.happened, s.table.names)
    bad = s.violation
    if bad is not None and bad.table is not None and bad.unplayable is None:
        words = words_of.irregular_words(s, bad)  # "..., taken back", as replay says
    elif bad is not None:  # "Cai tries to beat 7♦ 8♦ 9♦ with 8♣ 9♣", as replay says
        words = words_of.attempt(words, bad.player or "", s.action, s.happened, s.table.names)
    said = {
        "index": s.index,
        "action": listed_form(s.action),
        "words": words,
        "events": events,
        "notes": [note(n) for n in s.notes],
    }
    if s.index in comments:
        said["comment"] = comments[s.index]
    return said


def _step(s: Step, viewer: str | None, comments: dict[int, str]) -> dict[str, Any]:
    return {
        **_said(s, comments if viewer is None else {}),  # a one-player view: no comment
        "violation": violation(s.violation, viewer) if s.violation is not None else None,
        "table": table(s.table, viewer),
    }


def _replayed(text: str, viewers: list[str | None], label: str) -> tuple[Game, Report]:
    """The one game a record holds, adjudicated step by step; BadInput for a session, a
    viewer who is not a player, or a record that lacks what the table saw."""
    document = _document(text)
    if isinstance(document, Session):
        raise BadInput(
            ngettext(
                "{label} is a session of {count} games: the page replays one game; "
                "'adjudicator check' checks a session",
                "{label} is a session of {count} games: the page replays one game; "
                "'adjudicator check' checks a session",
                len(document.games),
            ).format(label=label, count=len(document.games)),
            400,
        )
    game = document
    for viewer in viewers:
        if viewer is not None and viewer not in game.players:
            raise BadInput(
                _("as {viewer}: not a player of the record ({players})").format(
                    viewer=viewer, players=", ".join(game.players)
                ),
                400,
            )
    try:
        report = adjudicate(game, steps=True)
    except RecordError as exc:
        raise BadInput(str(exc)) from None
    return game, report


def _next(game: Game, report: Report) -> dict[str, Any] | None:
    """What ``legal --json`` lists after the last action, for everyone; None past a
    violation or when the game is over."""
    # A claim alone stops nothing, nor an irregularity the table took back or let stand.
    stuck = any(
        v.index is not None and (v.table is None or v.unplayable is not None)
        for v in report.violations
    )
    if stuck or report.stopped:
        return None
    return service.PositionOut.of(legal.position(game)).model_dump(mode="json")


def _head(
    game: Game, report: Report, viewer: str | None, label: str, nxt: dict[str, Any] | None
) -> dict[str, Any]:
    """A replay without its steps, as ``viewer`` sees it; ``acts`` the acts the record's
    rules have at all (what the page offers to enter by hand)."""
    verdict = service.verdict(label, report).model_dump(mode="json")
    verdict["violations"] = [violation(v, viewer) for v in report.violations]
    verdict["undetermined"] = [note(v) for v in report.undetermined]
    if viewer is not None:
        for taken in verdict.get("taken_back") or []:
            taken.pop("comment", None)
    if nxt is not None and viewer is not None:
        nxt = {
            **nxt,
            "legal": [f for f in nxt["legal"] if not _mentions_hidden(f, viewer)],
            "with_unseen": [],
            "with_unseen_undetermined": [],
        }
    return {
        "file": label,
        "variant": report.variant,
        "players": list(report.players),
        "viewer": viewer,
        "check": verdict,
        "start": table(report.start, viewer) if report.start is not None else None,
        "next": nxt,
        "acts": sorted(variant_acts(game.options)),
        "cites": service.variant_cites(game.variant, game.options, len(game.players)),
    }


def replay(text: str, viewer: str | None = None, label: str = STDIN_LABEL) -> dict[str, Any]:
    """Everything the page shows for a record: the verdict, every step, what may come next.

    ``check`` is the ``check --json`` object; ``steps`` the table after each
    action, as ``replay`` prints it (a refused action is the last step); ``next``
    what ``legal --json`` lists after the last action (None past a violation or
    when the game is over); ``acts`` the acts its rules have.  With ``viewer`` no
    other player's card appears.
    """
    game, report = _replayed(text, [viewer], label)
    head = _head(game, report, viewer, label, _next(game, report))
    nxt = head.pop("next")
    return {**head, "steps": [_step(s, viewer, report.comments) for s in report.steps], "next": nxt}


def replay_steps(
    text: str, viewer: str | None = None, start: int = 0, label: str = STDIN_LABEL
) -> tuple[dict[str, Any], int, Iterator[dict[str, Any]]]:
    """:func:`replay` with its steps made one at a time, for an answer of bounded size:
    the replay without ``steps``, how many steps there are, and the steps from ``start``.

    A 100,000-action record's steps as dicts took 1.6 GB; one at a time, the
    caller keeps only those it sends.
    """
    game, report = _replayed(text, [viewer], label)
    total = len(report.steps)
    if not 0 <= start <= total:
        raise BadInput(
            _("from {start}: the replay has steps 0-{total}").format(start=start, total=total), 400
        )
    head = _head(game, report, viewer, label, _next(game, report))
    steps = (_step(report.steps[k], viewer, report.comments) for k in range(start, total))
    return head, total, steps


REPLAY_BYTES = 16 * 1024 * 1024
"""Largest ``/api/replay`` answer: past it the steps are paged (``steps_from``/``steps_next``)."""


def _within(items: list[Any], budget: int) -> list[Any]:
    """The first of ``items`` whose JSON fits in ``budget`` bytes (at least one)."""
    size = 0
    for k, item in enumerate(items):
        size += len(json.dumps(item, ensure_ascii=False).encode()) + 2
        if size > budget and k:
            return items[:k]
    return items


def replay_answer(text: str, viewer: str | None = None, start: int = 0) -> str:
    """The replay as JSON text of at most about :data:`REPLAY_BYTES`, its steps from ``start``.

    A 100,000-action record made a 311 MB answer; the page needs the steps it
    shows.  The answer says what it holds: ``steps_from``, ``steps_total`` and
    ``steps_next`` (where the next page starts, ``?from=N``; None at the end);
    past an eighth of the bound the verdict's lists are cut, ``check.shown`` says
    how many of each it holds (each step still carries its own violation).
    """
    head, total, steps = replay_steps(text, viewer, start)
    nxt = head.pop("next")
    verdict = head["check"]
    shown = {}
    for key in ("violations", "undetermined"):
        every = verdict[key]
        verdict[key] = _within(every, REPLAY_BYTES // 8)
        shown[key] = {"shown": len(verdict[key]), "total": len(every)}
    verdict["shown"] = shown
    size = len(service.dumps(head).encode()) + len(service.dumps(nxt).encode()) + 200
    parts: list[str] = []
    end = start
    for step in steps:
        part = service.dumps(step)
        size += len(part.encode()) + 2
        if size > REPLAY_BYTES and parts:
            break
        parts.append(part)
        end += 1
    paging = {"steps_from": start, "steps_total": total, "steps_next": end if end < total else None}
    tail = service.dumps({**paging, "next": nxt})[1:-1]
    return f'{service.dumps(head)[:-1]}, "steps": [{", ".join(parts)}], {tail}}}'


# --- many views of one replay, packed (the HTML export) -------------------------------

_SAME = object()


def _diff(before: Any, after: Any) -> Any:
    """How to make ``after`` from ``before`` (JSON values), or ``_SAME``.

    A scalar is itself; ``{"=": value}`` replaces; any other object patches: a
    dict's changed keys, a list's changed positions (``"3"``) and what it grew by
    (``"+"``).  ``patched`` in app.js applies it, the one applier (the tests run it in
    Node).  Values Python holds equal are the same (``1`` and ``true``): a table's field
    has one type.
    """
    if type(before) is type(after) and before == after:
        return _SAME
    if (
        isinstance(after, dict)
        and isinstance(before, dict)
        and before.keys() == after.keys()
        and "=" not in after
        and "+" not in after
    ):
        patch = {}
        for key, value in after.items():
            change = _diff(before[key], value)
            if change is not _SAME:
                patch[key] = change
        return patch
    if isinstance(after, list) and isinstance(before, list) and len(after) >= len(before):
        patch = {}
        for i, (old, new) in enumerate(zip(before, after, strict=False)):
            change = _diff(old, new)
            if change is not _SAME:
                patch[str(i)] = change
        if len(after) > len(before):
            patch["+"] = after[len(before) :]
        return patch
    if isinstance(after, dict | list):
        return {"=": after}
    return after


def _flat_diff(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """:func:`_diff` of two dicts of the same keys, their values replaced whole (a seat)."""
    patch = {}
    for key, value in after.items():
        old = before[key]
        if type(old) is not type(value) or old != value:
            patch[key] = {"=": value} if isinstance(value, dict | list) else value
    return patch


def _seat_changes(
    before: dict[str, Any], after: dict[str, Any]
) -> dict[int, tuple[str, dict[str, Any], dict[str, Any]]] | None:
    """The seats that changed from one table (as JSON) to the next: by position, the player
    and the patch as the player sees the seat, and as everyone else does
    (:meth:`service.SeatOut.hide`).  None when the tables are not of the same seats (then
    a table is given whole)."""
    old, new = before["seats"], after["seats"]
    if len(old) != len(new):
        return None
    hide = service.SeatOut.hide
    changes = {}
    for i, (a, b) in enumerate(zip(old, new, strict=True)):
        if a != b:
            changes[i] = (b["name"], _flat_diff(a, b), _flat_diff(hide(a), hide(b)))
    return changes


def packed_replays(
    text: str, viewers: list[str | None], label: str = STDIN_LABEL
) -> dict[str, Any]:
    """:func:`replay` for each of ``viewers`` (None: everyone), packed for one file.

    The record is adjudicated once.  ``steps`` holds what each step says, the
    same for every viewer; each view (keyed by viewer, ``""`` for everyone) is
    its replay without ``steps``, plus ``tables``: the table after each step as
    a patch on the one before (:func:`_diff`; the first on ``start``), and
    ``violations_at``: the refused step's violation by position.  A one-player
    view's patches are made from its own tables: it names no other hand.
    ``unpacked`` in app.js gives back :func:`replay`'s answer for each view.
    """
    game, report = _replayed(text, viewers, label)
    nxt = _next(game, report)
    held: dict[Any, list[str]] = {}
    # Per step, the patch as each view sees it: everyone; each player whose seat changed
    # (their own cards); every other player (the changed seats as counts).  Views of
    # players whose seat did not change share one patch.  Only the table before is kept
    # whole: with every table kept, a 16,915-step export peaked at 453 MB, not 374 MB.
    patches: list[tuple[dict[str | None, Any], dict[str, Any] | None]] = []
    made = service.TableOut.made
    after = made(report.start, held) if report.start is not None else None
    for step in report.steps:
        before, after = after, made(step.table, held)
        changes = None if before is None else _seat_changes(before, after)
        if before is None or changes is None:
            patches.append(({}, after))  # given whole: each view hides it for itself
            continue
        rest = {}
        for key, value in after.items():
            if key != "seats" and (change := _diff(before[key], value)) is not _SAME:
                rest[key] = change
        by_viewer: dict[str | None, Any] = {}
        for viewer in (None, "", *(name for name, _seen, _unseen in changes.values())):
            seats = {}
            for i, (name, seen, unseen) in changes.items():
                patch = seen if viewer is None or name == viewer else unseen
                if patch:
                    seats[str(i)] = patch
            by_viewer[viewer] = {**rest, "seats": seats} if seats else rest
        patches.append((by_viewer, None))
    views = {}
    for viewer in viewers:
        tables = []
        for by_viewer, whole in patches:
            if whole is not None:
                tables.append({"=": service.TableOut.seen(whole, viewer)})
            elif viewer in by_viewer:
                tables.append(by_viewer[viewer])
            else:  # a player whose seat did not change sees what any other player sees
                tables.append(by_viewer[""])
        views[viewer or ""] = {
            **_head(game, report, viewer, label, nxt),
            "tables": tables,
            "violations_at": {
                str(k): violation(s.violation, viewer)
                for k, s in enumerate(report.steps)
                if s.violation is not None
            },
        }
    # A one-player file holds no comment: a note is free text that may name any hand.
    comments = report.comments if None in viewers else {}
    return {"steps": [_said(s, comments) for s in report.steps], "views": views}


# --- variants and explanations --------------------------------------------------------


NEEDS = ("decks", "trump_card", "min_players", "max_players")
"""The options a start position needs, given with every variant for the page's form."""


def _needs(about: service.VariantInfo) -> dict[str, Any]:
    """What a start position of this variant needs, for the page's form."""
    values = {o.name: o.value for o in about.options}
    return {name: values[name] for name in NEEDS}


def variants() -> list[dict[str, Any]]:
    """Every preset: name, what it is, its source, player counts, what a start needs
    (:func:`service.variants`, shortened for the list)."""
    return [
        {"name": v.name, "title": v.title, "source": v.source, **_needs(v)}
        for v in service.variants()
    ]


def variant(name: str) -> dict[str, Any]:
    """One preset in full (:func:`service.variant`): every option's value, allowed values,
    description, citation; and what a start needs."""
    try:
        about = service.variant(name)
    except service.UnknownTopic as exc:
        raise BadInput(f"variant: {exc}", 404) from None
    data = about.model_dump(mode="json")
    return {
        "name": about.name,
        "title": about.title,
        "source": about.source,
        **_needs(about),
        "by_players": data["by_players"],
        "options": data["options"],
    }


def explain(topic: str) -> dict[str, Any]:
    """A rule id or a rule option, as ``explain`` tells it (:func:`service.explain`)."""
    try:
        about = service.explain(topic)
    except service.UnknownTopic:
        raise BadInput(
            "explain: "
            + _(
                "{topic} is neither a rule id nor a rule option ('/api/explain' topics: the "
                "rule ids of docs/rules.md and the options of /api/variants)"
            ).format(topic=repr(topic)),
            404,
        ) from None
    if isinstance(about, service.RuleExplanation):
        return {"topic": topic, "type": "rule", **_where(about)}
    return {
        "topic": topic,
        "type": "option",
        "description": about.description,
        "allowed": about.allowed,
        "default": about.default,
        "variants": {v.variant: v.value for v in about.by_variant},
        "rules": about.rules,
    }


# --- the shipped samples and sessions, for a phone that has no files ------------------


def samples() -> list[dict[str, Any]]:
    """Every shipped sample: name, title, variant, players and whether it is a session.

    What ``adjudicator samples`` lists; a phone has no sample files, so the page
    opens them from here.
    """
    out = []
    for entry in shipped.names():
        data = json.loads(shipped.text(entry))
        out.append(
            {
                "name": entry.removesuffix(".json"),
                "title": shipped.title(data),
                "variant": data.get("variant", ""),
                "players": list(data.get("players", [])),
                "session": "games" in data,
            }
        )
    return out


def sample(name: str) -> dict[str, Any]:
    """One shipped sample's record or session, as ``adjudicator samples NAME`` prints it."""
    try:
        text = shipped.text(name)
    except KeyError:
        raise BadInput(
            "samples: "
            + _("no sample {name} ('adjudicator samples' lists them, as /api/samples does)").format(
                name=repr(name)
            ),
            404,
        ) from None
    record: dict[str, Any] = json.loads(text)
    return record


def session(text: str, label: str = STDIN_LABEL) -> dict[str, Any]:
    """A session's verdict and each game as a record of its own, for the page's game picker.

    ``check`` is the ``check --json`` object for the whole session (its ``games`` and
    ``scores``); ``games`` holds each game as a ``skitgubbe-record/1`` the page replays,
    its leader as the session played it (the previous game's loser may lead).
    """
    document = _document(text)
    if not isinstance(document, Session):
        raise BadInput(
            _("{label}: one game, not a session ('/api/replay' replays it)").format(label=label),
            400,
        )
    try:
        report = adjudicate_session(document)
    except RecordError as exc:
        raise BadInput(str(exc)) from None
    whole = json.loads(text)  # each game as written (a deck stays in its own spelling)
    games = []
    for raw, played in zip(whole["games"], report.played, strict=True):
        record: dict[str, Any] = {
            "format": FORMAT,
            "variant": whole["variant"],
            "options": whole.get("options", {}),
            "players": list(whole["players"]),
            **raw,
        }
        if played.first_leader is not None and played.start is None:
            record["first_leader"] = played.players[played.first_leader]
        games.append(record)
    return {"file": label, "check": check_one(text, label), "games": games}


def imported(body: str) -> dict[str, Any]:
    """What Open record was given, told and converted by the importers: the page's paste
    or picked file, as ``{"text": ...}`` or ``{"data": base64}`` with its ``name``, and
    ``rules``: ``app`` (the default) or ``text``, as ``--rules`` on the command line.  A
    database picked with its write-ahead log has it as ``wal`` (base64) and ``wal_name``.

    ``format`` is the format :func:`importers.detect` told (None: no app's log, so a record
    or nothing known: the page reads it as a record); ``games`` each game read, its
    ``record`` and ``about`` (the line saying what was read) or its ``error``.  A source
    of one game that cannot be converted is :class:`BadInput` with the importer's line."""
    try:
        given = json.loads(body)
    except ValueError:
        given = None
    if not isinstance(given, dict) or not (
        isinstance(given.get("text"), str) or isinstance(given.get("data"), str)
    ):
        raise BadInput(_('body: send {"text": "..."} or {"data": "base64"}, and a "name"'), 400)
    name = given.get("name")
    source = cut(name, 80) if isinstance(name, str) and name.strip() else _("the pasted text")
    if isinstance(given.get("text"), str):
        content = given["text"].encode("utf-8")
    else:
        content = _decoded(given["data"], "data")
    log = None
    if isinstance(given.get("wal"), str):  # a database's write-ahead log, picked with it
        wal_name = given.get("wal_name")
        wal_name = cut(wal_name, 80) if isinstance(wal_name, str) else f"{source}-wal"
        log = (wal_name, _decoded(given["wal"], "wal"))
    rules = given.get("rules", "app")
    if rules not in ("app", "text"):
        raise BadInput(
            _('rules: "app" (the app\'s own rules) or "text" (the rule text\'s letter)'), 400
        )
    found = importers.detect(content, name if isinstance(name, str) else None)
    if found is None:
        lines = _record_lines(content, source)
        return {"format": RECORD_LINES if lines else None, "games": lines or []}
    judged = _judged(rules) if found != link.NAME else None
    if found == albined_db.NAME and log is None and content[18:20] == albined_db.WAL:
        judged = " · ".join(filter(None, (judged, _without_log())))
    games: list[dict[str, Any]] = []
    options = importers.ImportOptions(rules=rules)
    for game in importers.read_content(found, content, source, options, log):
        shown_as = game.name.removeprefix(source + "#")  # the game's id, as the log says it
        if game.record is not None:
            about = " · ".join(filter(None, (game.about, judged)))
            games.append(_titled({"name": shown_as, "record": game.record, "about": about}))
        else:
            games.append({"name": shown_as, "error": _page_said(game.error or _("not converted"))})
    if not games:
        raise BadInput(f"{source}: " + _("no game found"))
    if len(games) == 1 and "error" in games[0]:
        raise BadInput(games[0]["error"])
    return {"format": found, "games": games}


def _page_said(error: str) -> str:
    """An importer's line as the page says it.  The page has no ``--names``: where the line
    asks for it (two of an app's players share a name), it says what the page cannot do
    and where it is done, in the page's words; any other line as it is."""
    asked = _("two players are called {name}; give --names")
    head, _field, tail = asked.partition("{name}")
    found = re.search(re.escape(head) + "(.+)" + re.escape(tail) + "$", error)
    if found is None:
        return error
    return error[: found.start()] + _(
        "two players are called {name}, and the page cannot tell them apart: check this "
        "game at the command line, where --names gives each player a name of their own"
    ).format(name=found.group(1))


RECORD_LINES = "records"
"""The ``format`` :func:`imported` answers for JSON Lines of records (what ``check
--write-illegal`` writes): no app's log, but several records to pick one from."""


def _record_lines(content: bytes, source: str) -> list[dict[str, Any]] | None:
    """JSON Lines of records or sessions, one a line (``check --write-illegal``'s file), each
    named by its line and said by its verdict, or by the line saying why it is no record
    (a line broken, cut short); None for anything else: whole JSON (one record, read as
    one), text whose first line is no JSON object, or a single line."""
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        return None
    try:
        json.loads(text)
        return None  # whole JSON: one record or session, the page reads it as one
    except ValueError:
        pass  # perhaps a record a line
    numbered = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if len(numbered) < 2:
        return None
    try:
        head = json.loads(numbered[0][1])
    except ValueError:
        return None
    if not isinstance(head, dict):
        return None
    games: list[dict[str, Any]] = []
    for number, line in numbered:
        name = _("line {number}").format(number=number)
        verdict = service.check_text(line, source, number)
        if verdict.status == "invalid" or verdict.error is not None:
            games.append({"name": name, "error": verdict.error or _("not converted")})
            continue
        record = json.loads(line)
        games.append(
            _titled({"name": name, "record": record, "about": _line_said(record, verdict)})
        )
    return games


def _titled(game: dict[str, Any]) -> dict[str, Any]:
    """A game of a list with ``title``, the name its app gave it (the record's
    ``meta.event``: the albined app's "Friday"; else the log's ``meta.game_id``, a Goat
    app's game written by ``--write-illegal``), where it has one besides its id."""
    meta = game["record"].get("meta")
    meta = meta if isinstance(meta, dict) else {}
    title = meta.get("event") or meta.get("game_id")
    if isinstance(title, str) and title.strip() and title != game["name"]:
        game["title"] = cut(title, 80)
    return game


def _line_said(record: dict[str, Any], verdict: service.Verdict | service.SessionVerdict) -> str:
    """A record of JSON Lines in the list to pick from: its variant, its players, and its
    verdict (``goat · dan, eva, finn · illegal at action 8: phase1.sluff.rank``)."""
    players = record.get("players")
    named = ", ".join(map(str, players)) if isinstance(players, list) else ""
    if isinstance(verdict, service.SessionVerdict):
        said = ngettext(
            "a session of {count} game: {status}",
            "a session of {count} games: {status}",
            len(verdict.games),
        ).format(count=len(verdict.games), status=_(verdict.status))
    elif verdict.violations and verdict.violations[0].index is not None:
        first = verdict.violations[0]
        said = _("illegal at action {number}: {rule}").format(
            number=(first.index or 0) + 1, rule=first.rule
        )
    elif verdict.status == "illegal":
        said = _(verdict.status)
    elif verdict.finished:
        said = _("legal, finished: {names} lost").format(names=_(" and ").join(verdict.losers))
    else:
        said = _("legal, not finished")
    return " · ".join(filter(None, (verdict.variant, named, said)))


def _decoded(data: str, field: str) -> bytes:
    """A picked file's bytes, sent as base64 in ``field``; BadInput (400) when they are not."""
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise BadInput(_("{field}: not base64").format(field=field), 400) from None


def _without_log() -> str:
    """Said of a database in write-ahead-log mode picked alone: its newest moves may wait
    in the ``-wal`` file beside it, which the page was not given."""
    return _(
        "a database in write-ahead-log mode: moves not yet written into it are in its -wal "
        "file, picked with it"
    )


def _judged(rules: str) -> str:
    """Which rules an app's game opened on the page is checked by, said beside it."""
    if rules == "text":
        return _(
            "checked by the rule text's letter (where the app departs from it, the check says so)"
        )
    return _("checked by the app's own rules, as far as the options say them")


def suits() -> dict[str, str]:
    """Suit letters and symbols, for the page's pack grid."""
    return dict(zip(SUIT_LETTERS, SUIT_SYMBOLS, strict=True))
