"""One service for every edge: plain functions returning typed results.

The command line, the terminal renderers and the HTTP API call these and only
format what comes back; :func:`dumps` is the one JSON serializer, so ``check
--json``, ``legal --json`` and the API print the same objects (the contract in
``docs/record-format.md``).

>>> from adjudicator import service
>>> from adjudicator.record import load_record
>>> game = load_record("sample_games/illegal_phase2_beat.json")
>>> verdict = service.check_game(game, "illegal_phase2_beat.json")
>>> verdict.status, verdict.violations[0].rule
('illegal', 'phase2.beat')
>>> service.position(game, 1).legal
['B pick']
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable
from typing import Any, ClassVar, get_args, get_origin

from pydantic import BaseModel, ConfigDict, model_serializer

from adjudicator.cards import SUIT_LETTERS, card_code, card_text, sorted_hand
from adjudicator.engine.state import OVER, PHASE_ONE, TableView
from adjudicator.engine.violations import Violation
from adjudicator.exceptions import AdjudicatorError
from adjudicator.i18n import _, ngettext, pgettext
from adjudicator.play import legal as legal_module
from adjudicator.play.adjudicate import (
    Report,
    SessionReport,
    adjudicate,
    adjudicate_session,
    document_from_text,
    judge,
)
from adjudicator.play.words import indicator_said
from adjudicator.record import Game, RecordError, Session
from adjudicator.rules import catalog
from adjudicator.rules.options import RuleOptions, described
from adjudicator.rules.presets import PRESETS, Preset, find_variant
from adjudicator.speech import dealt_said

Form = str | dict[str, Any]
"""An action as a record writes it: a string, or the object form of a deal."""


class Out(BaseModel):
    """An output model: frozen, dumped as pydantic dumps it."""

    model_config = ConfigDict(frozen=True)


class Sparse(Out):
    """An output model whose keys in ``_optional`` are left out while None.  Only the models
    that have such keys pass through it: the pass costs a table, dumped at every step of a
    replay, half its dumping time."""

    _optional: ClassVar[frozenset[str]] = frozenset()

    @model_serializer(mode="wrap")
    def _leave_out(self, handler: Any) -> dict[str, Any]:
        out: dict[str, Any] = handler(self)
        for key in self._optional:
            if out.get(key) is None:
                out.pop(key, None)
        return out


def dumps(result: Any, indent: int | None = None) -> str:
    """The one JSON form of a service result (a model, a list of them, or the page's
    JSON-ready dicts): non-ASCII kept (names and suits), escaped where a text cannot be
    encoded at all (a file name with undecodable bytes holds lone surrogates)."""
    if isinstance(result, BaseModel):
        data: Any = result.model_dump(mode="json")
    elif isinstance(result, list) and result and isinstance(result[0], BaseModel):
        data = [r.model_dump(mode="json") for r in result]
    else:
        data = result
    line = json.dumps(data, ensure_ascii=False, indent=indent)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        line = json.dumps(data, indent=indent)
    return line


# --- verdicts -----------------------------------------------------------------------


class ViolationOut(Sparse):
    """A rule broken: where, by whom, which rule, why, and what was legal instead."""

    _optional: ClassVar[frozenset[str]] = frozenset(
        ("with_unseen", "game", "table", "unplayable", "comment", "to_act", "place")
    )
    index: int | None
    player: str | None
    action: str | None
    rule: str
    message: str
    legal: list[Form]
    with_unseen: int | None = None
    game: int | None = None
    table: str | None = None
    """What the table did: 'taken back' or 'stands' (left out: the replay stopped there)."""
    unplayable: str | None = None
    """Why an action let stand could not be carried out (the replay stopped there)."""
    comment: str | None = None
    """The note written beside the action in the record (left out: none)."""
    to_act: list[str] | None = None
    """Whose actions ``legal`` lists when they are not the violator's (the names, in seat
    order): the violator had no legal action there (an illegal sluff) and these players
    are to act next (left out: the violator's own)."""
    place: str | None = None
    """Where the action stands in the app's log the game was read from (``events[41]``;
    left out: a record, or a format that does not say)."""

    @classmethod
    def of(cls, v: Violation) -> ViolationOut:
        return cls(
            index=v.index,
            player=v.player,
            action=v.action,
            rule=v.rule,
            message=v.message,
            legal=v.alternatives,
            with_unseen=v.with_unseen or None,
            game=v.game,
            table=v.table,
            unplayable=v.unplayable,
            comment=v.comment,
            to_act=list(v.to_act) if v.to_act else None,
            place=v.place,
        )


class ErrorOut(Sparse):
    """An error where JSON was asked for (``legal --json``): the same words as the plain
    line; ``status`` is ``invalid`` (the record), ``illegal`` (an earlier action stops the
    replay: ``violation`` says which) or ``error`` (the command's own arguments)."""

    _optional: ClassVar[frozenset[str]] = frozenset(("file", "violation"))
    error: str
    status: str
    file: str | None = None
    violation: ViolationOut | None = None


def never_reached(label: str, index: int) -> str:
    """Why no position after the illegal action at ``index`` (from 0) can be listed; people
    read the action counted from 1."""
    return _("{label}: action {number} is illegal, so the game never got past it").format(
        label=label, number=index + 1
    )


class NoteOut(Sparse):
    """A check that could not be made (cards nobody knows): the action stood."""

    _optional: ClassVar[frozenset[str]] = frozenset(("game",))
    index: int | None
    player: str | None
    rule: str
    message: str
    game: int | None = None

    @classmethod
    def of(cls, v: Violation) -> NoteOut:
        return cls(index=v.index, player=v.player, rule=v.rule, message=v.message, game=v.game)


class Verdict(Sparse):
    """``check --json`` for one record (also an invalid one: ``status`` "invalid")."""

    _optional: ClassVar[frozenset[str]] = frozenset(("line", "taken_back"))
    file: str
    status: str
    variant: str | None
    actions: int | None
    applied: int
    finished: bool
    loser: str | None
    losers: list[str]
    violations: list[ViolationOut]
    undetermined: list[NoteOut]
    error: str | None
    line: int | None = None
    taken_back: list[ViolationOut] | None = None
    """Legal actions the table took back anyway: notes, not violations (left out if none)."""

    @classmethod
    def of(cls, file: str, report: Report, line: int | None = None) -> Verdict:
        return cls(
            file=file,
            status=report.status,
            variant=report.variant,
            actions=report.actions,
            applied=report.applied,
            finished=report.finished,
            loser=report.loser,
            losers=report.losers,
            violations=[ViolationOut.of(v) for v in report.violations],
            undetermined=[NoteOut.of(v) for v in report.undetermined],
            error=None,
            line=line,
            taken_back=[ViolationOut.of(v) for v in report.notes] or None,
        )

    @classmethod
    def invalid(cls, file: str, error: str | None, line: int | None = None) -> Verdict:
        return cls(
            file=file,
            status="invalid",
            variant=None,
            actions=None,
            applied=0,
            finished=False,
            loser=None,
            losers=[],
            violations=[],
            undetermined=[],
            error=error,
            line=line,
        )


class SessionVerdict(Sparse):
    """``check --json`` for a session: each game's verdict, the scores when counted."""

    _optional: ClassVar[frozenset[str]] = frozenset(("scores", "line"))
    file: str
    status: str
    variant: str
    games: list[Verdict]
    violations: list[ViolationOut]
    undetermined: list[NoteOut]
    error: str | None
    scores: dict[str, int] | None = None
    line: int | None = None

    @classmethod
    def of(cls, file: str, report: SessionReport, line: int | None = None) -> SessionVerdict:
        return cls(
            file=file,
            status=report.status,
            variant=report.variant,
            games=[Verdict.of(file, g) for g in report.games],
            violations=[ViolationOut.of(v) for v in report.violations],
            undetermined=[NoteOut.of(v) for v in report.undetermined],
            error=None,
            scores=report.scores,
            line=line,
        )


def verdict(
    file: str,
    report: Report | SessionReport | None,
    error: str | None = None,
    line: int | None = None,
) -> Verdict | SessionVerdict:
    """The verdict on a record already judged (``report`` None: it was invalid)."""
    if report is None:
        return Verdict.invalid(file, error, line)
    if isinstance(report, SessionReport):
        return SessionVerdict.of(file, report, line)
    return Verdict.of(file, report, line)


def check_game(game: Game | Session, file: str = "") -> Verdict | SessionVerdict:
    """Adjudicate a record (or session) and return its verdict."""
    if isinstance(game, Session):
        return SessionVerdict.of(file, adjudicate_session(game))
    return Verdict.of(file, adjudicate(game))


def check_text(
    text: str, file: str = "-", line: int | None = None, go_on: str | None = None
) -> Verdict | SessionVerdict:
    """The verdict on one record's (or session's) JSON text: ``invalid`` with the one line
    of a :class:`RecordError` when it is no record.  What the page and the API check."""
    try:
        report = judge(document_from_text(text), go_on)
    except RecordError as exc:
        return Verdict.invalid(file, str(exc), line)
    return verdict(file, report, None, line)


# --- positions ----------------------------------------------------------------------


def positions_said(actions: int) -> str:
    """The positions a record of ``actions`` actions has, for an ``--at`` / ``at`` out of
    range: ``the record has positions 0-3 (before each of its 3 actions, and after the
    last)``."""
    return ngettext(
        "the record has positions 0-{last} (before each of its {count} actions, and after the "
        "last)",
        "the record has positions 0-{last} (before each of its {count} actions, and after the "
        "last)",
        actions,
    ).format(last=actions, count=actions)


class UnseenNote(Out):
    """An action legal with an unseen card unless the hidden cards rule it out."""

    action: Form
    rule: str
    message: str


class PositionOut(Sparse):
    """``legal --json``: the table before action ``at`` and what is legal there."""

    _optional: ClassVar[frozenset[str]] = frozenset(("file",))
    file: str | None = None
    at: int
    actions: int
    finished: bool
    loser: str | None
    to_move: list[str]
    legal: list[Form]
    with_unseen: list[Form]
    with_unseen_undetermined: list[UnseenNote]
    stopped: str | None

    @classmethod
    def of(cls, where: legal_module.Position, file: str | None = None) -> PositionOut:
        state = where.state
        return cls(
            file=file,
            at=where.at,
            actions=where.actions,
            finished=state.finished,
            loser=state.names[state.loser] if state.loser is not None else None,
            to_move=where.movers,
            legal=where.legal,
            with_unseen=where.with_unseen,
            with_unseen_undetermined=[
                UnseenNote(action=form, rule=v.rule, message=v.message)
                for form, v in where.with_unseen_unless
            ],
            stopped=state.stopped,
        )


def position(game: Game, at: int | None = None, file: str | None = None) -> PositionOut:
    """The legal actions before action ``at`` (default: what may come next).

    Raises :class:`legal.Unreachable` when an earlier action is illegal.
    """
    return PositionOut.of(legal_module.position(game, at), file)


# --- the table ------------------------------------------------------------------------


class SeatOut(Out):
    """One player at the table: the cards (``None`` where the viewer may not see them, and
    ``unseen`` then counts them all), the won pile, stored trumps, the turn, the loss."""

    model_config = ConfigDict(frozen=True, extra="forbid")  # built from a dict: no stray key

    name: str
    count: int
    cards: list[str] | None
    unseen: int
    pile: int
    stored: int
    turn: bool
    loser: bool

    def hidden(self) -> SeatOut:
        """The seat as another player sees it: how many cards, never which."""
        return SeatOut.model_validate(SeatOut.hide(self.model_dump()))

    @staticmethod
    def hide(seat: dict[str, Any]) -> dict[str, Any]:
        """:meth:`hidden` on a seat as JSON (:meth:`TableOut.made`'s): a replay's tables
        and patches are made as JSON."""
        return {**seat, "cards": None, "unseen": seat["count"]}


class PlayOut(Out):
    """Cards one player has put on the table: a play to the trick, or a sluff."""

    model_config = ConfigDict(frozen=True, extra="forbid")  # built from a dict: no stray key

    player: str
    cards: list[str]


class DealOut(Out):
    """A deal the table waits for: what is dealt, and who shuffles it."""

    model_config = ConfigDict(frozen=True, extra="forbid")  # built from a dict: no stray key

    what: str
    by: list[str]


class TableOut(Out):
    """The table after a step, as the page draws it and ``/api/replay`` gives it.

    ``phase`` is 1 or 2, 0 once the game is over; cards are in record notation (``TH``),
    each hand sorted as a player holds it; ``trump`` a suit letter; ``indicator`` says
    where a trump card not yet shown lies."""

    model_config = ConfigDict(frozen=True, extra="forbid")  # built from a dict: no stray key

    phase: int
    seats: list[SeatOut]
    stock: int
    trump: str | None
    indicator: str | None
    turned_up: str | None
    trick: list[PlayOut]
    sluffs: list[PlayOut]
    trick_target: int
    out_of_play: int
    reserve: int
    deal: DealOut | None
    losers: list[str]

    @classmethod
    def of(cls, view: TableView) -> TableOut:
        """The whole table (every hand) as a model: :meth:`made` validated."""
        return cls.model_validate(cls.made(view))

    def seen_by(self, viewer: str | None) -> TableOut:
        """The table as ``viewer`` sees it: the other hands are counts only, never cards
        (``None``: everyone's view, the whole table)."""
        return TableOut.model_validate(TableOut.seen(self.model_dump(), viewer))

    @staticmethod
    def made(view: TableView, held: dict[Any, list[str]] | None = None) -> dict[str, Any]:
        """The whole table as this model's JSON, made directly: a replay makes one a step,
        and a model validated and dumped each time took a tenth of an export's time and a
        fifth of one player's (tests/test_export.py holds every sample's steps to the
        model).  ``held`` keeps each hand's cards as shown across the steps of a replay (a
        hand changes at one seat a step: the others are not sorted again)."""
        names = view.names
        seats = []
        for i, name in enumerate(names):
            hand = view.hands[i]
            hidden = view.hidden[i] if view.hidden else 0
            key = (view.trump, *hand)
            cards = held.get(key) if held is not None else None
            if cards is None:
                cards = [card_code(c) for c in sorted_hand(hand, view.trump)]
                if held is not None:
                    held[key] = cards
            seats.append(
                {
                    "name": name,
                    "count": len(hand) + hidden,
                    "cards": cards,
                    "unseen": hidden,
                    "pile": view.piles[i],
                    "stored": view.stored[i] if view.stored else 0,
                    "turn": view.turn == i,
                    "loser": view.phase == OVER and i in view.losers,
                }
            )
        deal = None
        if view.deal is not None:
            deal = {
                "what": dealt_said(view.deal.what),
                "by": [names[p] for p in sorted(view.deal.shufflers)],
            }
        indicator = None
        said = indicator_said(view) if view.phase == PHASE_ONE else None
        if said is not None:  # in the language speaking, the card as the page shows cards
            words, shown = said
            indicator = words if shown is None else f"{words} {card_text(shown)}"
        return {
            "phase": {PHASE_ONE: 1, OVER: 0}.get(view.phase, 2),
            "seats": seats,
            "stock": view.stock,
            "trump": SUIT_LETTERS[view.trump] if view.trump is not None else None,
            "indicator": indicator,
            "turned_up": card_code(view.turned_up) if view.turned_up is not None else None,
            "trick": [{"player": names[p], "cards": _codes(cs)} for p, cs in view.trick],
            "sluffs": [{"player": names[p], "cards": _codes(cs)} for p, cs in view.sluffs],
            "trick_target": view.trick_target,
            "out_of_play": view.out_of_play,
            "reserve": view.reserve,
            "deal": deal,
            "losers": [names[p] for p in view.losers] if view.phase == OVER else [],
        }

    @staticmethod
    def seen(table: dict[str, Any], viewer: str | None) -> dict[str, Any]:
        """:meth:`seen_by` on a table as JSON (:meth:`made`'s)."""
        if viewer is None:
            return table
        hide = SeatOut.hide
        return {**table, "seats": [s if s["name"] == viewer else hide(s) for s in table["seats"]]}


def _codes(cards: Iterable[int]) -> list[str]:
    return [card_code(c) for c in cards]


# --- variants and rules -------------------------------------------------------------


class OptionValue(Out):
    """One option of a variant: its value, what it may take, what it means, the text."""

    name: str
    value: Any
    allowed: str
    description: str
    cited: str | None
    """Where the variant's text says it (None: the variant does not say)."""


class PlayerChange(Out):
    """Options a variant changes at some table sizes: ``players`` is ``[low, high]``, both
    counted (``[4, 4]`` at four players only)."""

    players: tuple[int, int]
    changes: dict[str, Any]

    def said(self) -> str:
        """The table sizes as people write them: ``4``, ``4-6``."""
        low, high = self.players
        return f"{low}" if low == high else f"{low}-{high}"


class VariantInfo(Out):
    """A preset: what it is, where its rules are written, every option's value."""

    name: str
    title: str
    source: str
    by_players: list[PlayerChange]
    options: list[OptionValue]


def _variant(preset: Preset) -> VariantInfo:
    values = preset.options.model_dump()
    return VariantInfo(
        name=preset.name,
        title=preset.said,
        source=preset.source,
        by_players=[
            PlayerChange(players=(low, high), changes=changes)
            for (low, high), changes in preset.by_players.items()
        ],
        options=[
            OptionValue(
                name=option,
                value=values[option],
                allowed=allowed,
                description=description,
                cited=preset.cites.get(option),
            )
            for option, allowed, description in RuleOptions.describe()
        ],
    )


def variants() -> list[VariantInfo]:
    """Every preset, in the order they are listed."""
    return [_variant(preset) for preset in PRESETS.values()]


def variant(name: str) -> VariantInfo:
    """One preset by name; :class:`UnknownTopic` with the message when there is none."""
    try:
        return _variant(find_variant(name))
    except KeyError as exc:
        raise UnknownTopic(str(exc.args[0])) from None


def allowed(option: str) -> str:
    """The values an option may take: ``top | bottom``, or ``a whole number from 0 to 52`` (in
    the language speaking now; the names of values stay as a record writes them)."""
    field = RuleOptions.model_fields[option]
    ann = field.annotation
    if (
        get_origin(ann) is not None
        and get_args(ann)
        and all(isinstance(a, str) for a in get_args(ann))
    ):
        return " | ".join(get_args(ann))
    if ann is bool:
        return "true | false"
    if ann is int:
        low = high = None
        for item in field.metadata:
            low = getattr(item, "ge", low)
            high = getattr(item, "le", high)
        if low is not None and high is not None:
            return pgettext("option values", "a whole number from {low} to {high}").format(
                low=low, high=high
            )
        return pgettext("option values", "a whole number")
    return getattr(ann, "__name__", str(ann))


class UnknownTopic(AdjudicatorError, ValueError):
    """A name the service does not know (a variant, a rule id, an option); the message
    says so in one line, with the nearest names."""


class SourceOut(Out):
    """Where a rule is written: the citation (``pagat.com, 'Koira'``), and the text it
    cites with the section and the address."""

    cite: str
    text: str
    title: str
    section: str
    address: str


class RuleExplanation(Out):
    """A rule id: what it checks, where it is written, the options that change it."""

    id: str
    group: str
    group_title: str
    checks: str
    sources: list[SourceOut]
    """Each citation, and the text it cites."""
    texts: list[str]
    """Each rule text cited, once: ``pagat.com: 'title', address``."""
    options: list[str]
    samples: list[str]
    """Sample games (in ``sample_games/``); the first one breaks this rule."""
    kind: str


class VariantValue(Out):
    """An option's value in one variant, and its changes at some table sizes."""

    variant: str
    value: Any
    by_players: dict[str, Any]


class OptionExplanation(Out):
    """A rule option: meaning, default, value in each variant, rules it changes."""

    name: str
    allowed: str
    description: str
    default: Any
    by_variant: list[VariantValue]
    rules: list[str]


def variant_cites(variant: str, options: RuleOptions, players: int) -> dict[str, str]:
    """Where the record's own variant text states each option it keeps at the preset's
    value (``variants NAME`` shows the same): a ruling cites it beside the rule's general
    sources, so a Goat table reads the Goat treatise's section, not only pagat.com's.  An
    option the record changed is its house rule: no text of the variant says it; nor one
    the text is silent on (its cite says "not in the treatise")."""
    preset = PRESETS.get(variant)
    if preset is None or not preset.cites:
        return {}
    at_table = preset.options_for(players)
    return {
        option: cite
        for option, cite in preset.cites.items()
        if not cite.startswith("not in ") and getattr(options, option) == getattr(at_table, option)
    }


def explain(topic: str) -> RuleExplanation | OptionExplanation:
    """A rule id or an option, as data; :class:`UnknownTopic` for anything else."""
    if topic in catalog.RULES:
        entry = catalog.RULES[topic]
        group = next((g for g in catalog.GROUPS if g.key == entry.group), None)
        texts = []
        for key in dict.fromkeys(c.source for c in entry.sources):
            if key != "contract":
                source = catalog.SOURCES[key]
                texts.append(f"{source.cite}: '{source.title}', {source.address}")
        return RuleExplanation(
            id=entry.id,
            group=entry.group,
            group_title=group.said if group is not None else entry.group,
            checks=entry.said,
            sources=[
                SourceOut(
                    cite=str(c),
                    text=catalog.SOURCES[c.source].cite,
                    title=catalog.SOURCES[c.source].title,
                    section=c.section,
                    address=catalog.SOURCES[c.source].address,
                )
                for c in entry.sources
            ],
            texts=texts,
            options=list(entry.options),
            samples=list(entry.samples),
            kind=entry.kind,
        )
    if topic in RuleOptions.model_fields:
        field = RuleOptions.model_fields[topic]
        return OptionExplanation(
            name=topic,
            allowed=allowed(topic),
            description=described(field.description),
            default=field.default,
            by_variant=[
                VariantValue(
                    variant=p.name,
                    value=getattr(p.options, topic),
                    by_players={
                        f"{low}" if low == high else f"{low}-{high}": changes[topic]
                        for (low, high), changes in p.by_players.items()
                        if topic in changes
                    },
                )
                for p in PRESETS.values()
            ],
            rules=[r.id for r in catalog.RULES.values() if topic in r.options],
        )
    near = difflib.get_close_matches(
        topic, [*catalog.RULES, *RuleOptions.model_fields], n=3, cutoff=0.6
    )
    if near:
        said = _(
            "{topic} is neither a rule id nor a rule option; did you mean {close}? "
            "('adjudicator explain' lists the rule ids, 'adjudicator variants' the options)"
        ).format(topic=repr(topic), close=_(" or ").join(near))
    else:
        said = _(
            "{topic} is neither a rule id nor a rule option "
            "('adjudicator explain' lists the rule ids, 'adjudicator variants' the options)"
        ).format(topic=repr(topic))
    raise UnknownTopic(f"explain: {said}")
