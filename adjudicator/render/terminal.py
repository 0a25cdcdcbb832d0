"""rich renderables for cards, hands, the table, replay steps, verdicts, a position's legal
actions (``legal``) and the variants.

Nothing here prints; the CLI decides where output goes.  Without a terminal
rich writes plain text, which is what the snapshot tests record.
"""

from __future__ import annotations

import json
import shlex
import textwrap
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from adjudicator import service
from adjudicator.cards import PARSE, SUIT_SYMBOLS, Card, card_text, sorted_hand
from adjudicator.engine.state import OVER, PHASE_ONE, TableView
from adjudicator.engine.violations import Violation
from adjudicator.i18n import N_, _, ngettext, pgettext
from adjudicator.i18n import number as grouped
from adjudicator.play import legal, listing
from adjudicator.play.adjudicate import Report, SessionReport
from adjudicator.play.table import Step
from adjudicator.play.words import attempt, indicator_said, irregular_words
from adjudicator.record.notation import listed_form
from adjudicator.rules.presets import PRESETS
from adjudicator.speech import dealt_said, table_said

AnyReport = Report | SessionReport
RED_SUITS = {1, 2}
PHASE_HEADS = {
    PHASE_ONE: lambda: _("Phase one"),
    2: lambda: _("Phase two"),
    OVER: lambda: _("Game over"),
}
"""The table view's head line, said in the language speaking."""


def card(c: Card, trump: int | None = None) -> Text:
    """One card, red for hearts and diamonds, bold for trumps."""
    style = "red" if c // 13 in RED_SUITS else ""
    if trump is not None and c // 13 == trump:
        style += " bold"
    return Text(card_text(c), style=style.strip())


def cards(cs: Iterable[Card], trump: int | None = None) -> Text:
    """Cards separated by spaces."""
    out = Text()
    for i, c in enumerate(cs):
        if i:
            out.append(" ")
        out.append_text(card(c, trump))
    return out


def _trick_text(view: TableView) -> Text:
    if not view.trick and not view.sluffs:
        return Text(_("(empty)"), style="dim")
    out = Text()
    for i, (player, played) in enumerate(view.trick):
        if i:
            out.append(" · ")
        out.append(f"{view.names[player]} ")
        out.append_text(cards(played, view.trump))
    if view.sluffs:
        out.append(" · " + _("sluffed:") + " ", style="dim")
        for i, (player, sluffed) in enumerate(view.sluffs):
            if i:
                out.append(", ")
            out.append(f"{view.names[player]} ")
            out.append_text(cards(sluffed, view.trump))
    return out


def table(view: TableView, viewer: str | None = None) -> RenderableType:
    """The table after a step: phase, trump, stock, trick, hands, piles, turn.

    With ``viewer`` (a player's name) only that player's hand is shown; the
    others are counts, as that player sees the table.
    """
    said = PHASE_HEADS.get(view.phase)
    head = Text(said() if said is not None else "?", style="bold")
    if view.phase == PHASE_ONE:
        head.append(" · " + _("stock {count}").format(count=view.stock))
        lies = indicator_said(view)
        if lies is not None:
            words, turned = lies
            head.append(" · " + words)
            if turned is not None:
                head.append(" ").append_text(card(turned, view.trump))
    else:
        trump = SUIT_SYMBOLS[view.trump] if view.trump is not None else _("unknown")
        head.append(
            " · "
            + _("trump {suit} · out of play {count}").format(suit=trump, count=view.out_of_play)
        )
        if view.reserve:
            head.append(f" · avstickshög {view.reserve}")
        if view.trick:
            head.append(" · " + _("trick needs {count} plays").format(count=view.trick_target))
    if view.deal is not None:
        shufflers = _(" or ").join(view.names[p] for p in sorted(view.deal.shufflers))
        head.append(
            " · "
            + _("{what} to be dealt by {names}").format(
                what=dealt_said(view.deal.what), names=shufflers
            )
        )
    trick_line = Text(_("Table:") + " ").append_text(_trick_text(view))

    header = ["", _("player"), _("hand")] + ([_("pile")] if view.phase == PHASE_ONE else [])
    rows: list[list[Text]] = []
    for i, name in enumerate(view.names):
        marker = "▶" if view.turn == i else ""
        if view.phase == OVER and i in view.losers:
            marker = "✗"
        hand = view.hands[i]
        hidden = view.hidden[i] if view.hidden else 0
        count = len(hand) + hidden
        if count and viewer is not None and name != viewer:
            shown = Text(
                ngettext("{count} card", "{count} cards", count).format(count=count), style="dim"
            )
        elif count:
            shown = cards(sorted_hand(hand, view.trump), view.trump)
            if hidden:
                unseen = _("+{count} unseen").format(count=hidden)
                shown.append(f"{' ' if hand else ''}{unseen}", style="dim")
        else:
            shown = Text(_("out") if view.phase != PHASE_ONE else _("(none)"), style="dim")
        if view.stored and view.stored[i]:
            shown.append(" " + _("(3 trumps set aside)"), style="dim")
        row = [Text(marker), Text(name), shown]  # a name is never markup
        if view.phase == PHASE_ONE:
            row.append(Text(str(view.piles[i])))
        rows.append(row)
    grid = Grid(header, rows, right=3)
    parts: list[RenderableType] = [head, trick_line, grid]
    if view.phase == OVER:
        parts.append(
            Text(
                _("Game over: {losers}.").format(losers=losers_text(view.names, view.losers)),
                style="bold",
            )
        )
    return Group(*parts)


class Grid:
    """Rows under a bold header, laid out as rich's ``Table(box=None, pad_edge=False)``
    lays them out: columns two spaces apart, each as wide as its widest cell.

    The lines are made here when they fit the width: a 20-player replay prints
    5,000 tables, and rich's general table layout took about 12 ms each.  When they
    do not fit, rich's table wraps the cells, as it always did.
    """

    def __init__(self, header: list[str], rows: list[list[Text]], right: int | None = None):
        self.header = header
        self.rows = rows
        self.right = right  # the column justified right, if any

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        lines = [[Text(title) for title in self.header], *self.rows]
        widths = [max(cell.cell_len for cell in column) for column in zip(*lines, strict=True)]
        if sum(widths) + 2 * (len(widths) - 1) > options.max_width:
            yield self.table()
            return
        for number, cells in enumerate(lines):
            line = Text(style="bold" if number == 0 else "", justify="default", no_wrap=True)
            for column, (cell, width) in enumerate(zip(cells, widths, strict=True)):
                if column:
                    line.append("  ")
                fill = " " * (width - cell.cell_len)
                if column == self.right:
                    line.append(fill).append_text(cell)
                else:
                    line.append_text(cell).append(fill)
            yield line

    def table(self) -> Table:
        """The same rows as a rich table, which wraps cells to fit."""
        grid = Table(box=None, show_header=True, pad_edge=False, header_style="bold")
        for column, title in enumerate(self.header):
            grid.add_column(title, justify="right" if column == self.right else "left")
        for row in self.rows:
            grid.add_row(*row)
        return grid


def losers_text(names: Iterable[str], losers: list[int]) -> str:
    """``Cai is the loser``, ``Anna and Bo are the losers``, ``nobody is the loser``."""
    named = [list(names)[p] for p in losers]
    if len(named) > 1:
        return _("{names} and {last} are the losers").format(
            names=", ".join(named[:-1]), last=named[-1]
        )
    return _("{name} is the loser").format(name=named[0] if named else _("nobody"))


def _shows_a_hand(form: listing.Form) -> bool:
    """Whether an action names cards from a hand (a play, a sluff; any deal)."""
    if isinstance(form, dict):
        return True
    return any(word.upper() in PARSE for word in form.split()[2:])


Source = str | tuple[str, int]
"""A record as the user named it (``games.jsonl:3``), or a session and one of its games
(from 0, as a violation's ``game``; said from 1)."""


_LOG_FLAGS: ContextVar[str] = ContextVar("log_flags", default="")
"""The options an app's log was read with (``--rules text``, ``--names``), which the
``legal`` hint repeats: without them the same log reads by the app's rules."""


def read_logs_with(rules: str, names: str | None) -> None:
    """Have the ``legal`` hints repeat how the command line read an app's log."""
    flags = " --rules text" if rules == "text" else ""
    if names:
        flags += f" --names {_shell_word(names)}"
    _LOG_FLAGS.set(flags)


def legal_hint(
    source: Source | None, index: int, game: int | None = None, there: bool = False
) -> str:
    """How to list the legal actions at ``index`` of game ``game`` (both from 0; ``--at``
    and ``--game`` count from 1), as a command to run as printed
    (``there``: "... lists what was legal there", where no list of them came before).

    ``source`` is the record as the user named it (``games.jsonl:3``); standard
    input cannot be read twice, so for ``-`` the hint says to save the record first.
    """
    if isinstance(source, tuple):
        source, game = source
    where = f" --at {index + 1}" + (f" --game {game + 1}" if game is not None else "")
    where += _LOG_FLAGS.get()
    if source is None or source == "-" or source.startswith("-:"):
        command = f"'adjudicator legal FILE{where}'"
    else:
        command = f"'adjudicator legal {_shell_word(source)}{where}'"
    if source is not None and (source == "-" or source.startswith("-:")):
        said = (
            _("save the record as FILE: {command} lists what was legal there")
            if there
            else _("save the record as FILE: {command} lists them")
        )
    else:
        said = _("{command} lists what was legal there") if there else _("{command} lists them")
    return said.format(command=command)


def _shell_word(word: str) -> str:
    """``word`` as one shell word, in double quotes when it needs quoting: the hint is
    itself in single quotes."""
    if shlex.quote(word) == word:
        return word
    return '"' + "".join("\\" + c if c in '"$`\\' else c for c in word) + '"'


def violation(
    v: Violation, what: str = "", viewer: str | None = None, source: Source | None = None
) -> RenderableType:
    """An illegal action in red: rule, reason, and what was legal instead.

    Actions are shown as they are written in a record, deals in object form,
    so that an alternative can be pasted back; ``what`` names what a deal
    hands out ("the low cards"), for the line that sums up many deals.  With
    ``viewer`` (another player than the one who acted) the alternatives that
    would show the actor's hand are counted, not listed.
    """
    owners = v.to_act or ((v.player,) if v.player is not None else ())  # whose hands they show
    if viewer is not None and owners and owners != (viewer,):
        alternatives_all = listing.unique(v.alternatives)
        kept = [f for f in alternatives_all if not _shows_a_hand(f)]
        if len(kept) < len(alternatives_all):
            hidden = len(alternatives_all) - len(kept)
            out = Text()
            out.append_text(violation(_with_alternatives(v, kept), what, source=source))  # type: ignore[arg-type]
            out.append(
                "\n  "
                + ngettext(
                    "and {count} more with {owner}'s cards (hidden from {viewer})",
                    "and {count} more with {owner}'s cards (hidden from {viewer})",
                    hidden,
                ).format(count=hidden, owner=_(" or ").join(owners), viewer=viewer),
                style="dim",
            )
            return out
    lines = Text()
    if v.game is not None:
        if v.index is not None:
            what = _("action {number}").format(number=v.index + 1)
        else:
            what = _("session") if v.rule.startswith("session.") else _("result")
        where = _("illegal game {number}, {what}").format(number=v.game + 1, what=what)
    elif v.index is not None:
        where = _("illegal action {number}").format(number=v.index + 1)
    else:
        where = _("illegal session") if v.rule.startswith("session.") else _("illegal result")
    lines.append(f"✗ {where}", style="bold red")
    if v.action:
        lines.append(f": {_cut(listing.show(listed_form(v.action)))}", style="red")
    if v.table is not None:
        lines.append(f" ({table_said(v.table)})", style="bold yellow")
    if v.place is not None:
        lines.append(" (" + _("in the log: {place}").format(place=v.place) + ")", style="red")
    lines.append("\n  " + _("rule {rule}:").format(rule=v.rule) + " ", style="red")
    lines.append(v.message, style="red")
    if v.unplayable is not None:
        lines.append(
            "\n  " + _("{why}; the replay stops here").format(why=v.unplayable), style="bold red"
        )
    if v.index is not None:
        hint = legal_hint(source, v.index, v.game)
        if v.with_unseen and not v.alternatives:
            lines.append(
                "\n  "
                + _(
                    "legal instead: only actions with a card nobody has seen ({count}; {listing})"
                ).format(count=v.with_unseen, listing=hint)
            )
        elif v.to_act is not None and v.player is not None:
            lines.append("\n  " + _none_legal(v).format(name=v.player))
            lines.append_text(
                alternatives(
                    listing.unique(v.alternatives),
                    what,
                    _("next, {name} to act").format(name=_(" or ").join(v.to_act)),
                )
            )
            if v.with_unseen:
                lines.append(
                    "\n  "
                    + _("and {count} more with a card nobody has seen ({hint})").format(
                        count=v.with_unseen, hint=hint
                    ),
                    style="dim",
                )
        else:
            lines.append_text(
                alternatives(listing.unique(v.alternatives), what, _("legal instead"))
            )
            if v.with_unseen:
                lines.append(
                    "\n  "
                    + _("and {count} more with a card nobody has seen ({hint})").format(
                        count=v.with_unseen, hint=hint
                    ),
                    style="dim",
                )
    return lines


QUOTED_ACTION = 300
"""Characters of an illegal action the verdict line quotes before it cuts it short."""


def _cut(action: str) -> str:
    """An action as the verdict quotes it: whole, or cut short with its length said."""
    if len(action) <= QUOTED_ACTION:
        return action
    return f"{action[:QUOTED_ACTION]}… " + ngettext(
        "({count} character)", "({count} characters)", len(action)
    ).format(count=grouped(len(action)))


NONE_LEGAL = {
    "play": N_("legal instead: none, {name} had no legal play there"),
    "dare": N_("legal instead: none, {name} had no legal dare there"),
    "sluff": N_("legal instead: none, {name} had no legal sluff there"),
    "pick": N_("legal instead: none, {name} had no legal pick there"),
    "deal": N_("legal instead: none, {name} had no legal deal there"),
    "take": N_("legal instead: none, {name} had no legal take there"),
    "exchange": N_("legal instead: none, {name} had no legal exchange there"),
    "set_aside": N_("legal instead: none, {name} had no legal set aside there"),
    "draw": N_("legal instead: none, {name} could not draw there"),
}
"""``legal instead: none`` by the act of the refused action: a whole sentence for each, so
that a translation names the act in its own words (English names the act itself)."""


def _none_legal(v: Violation) -> str:
    """``legal instead: none, {name} had no legal sluff there`` for ``Bo sluff 7C`` (by its
    act), else ``... no legal action there``; in the language speaking."""
    head = f"{v.player} "
    if v.action and v.action.startswith(head):
        rest = v.action[len(head) :].split()
        said = NONE_LEGAL.get(rest[0].lower()) if rest else None
        if said is not None:
            return _(said)
    return _("legal instead: none, {name} had no legal action there")


def _with_alternatives(v: Violation, kept: list[listing.Form]) -> Violation:
    """A copy of ``v`` listing only ``kept`` as legal instead."""
    return v.replace(alternatives=list(kept))


def alternatives(forms: list[listing.Form], what: str = "", label: str = "legal") -> Text:
    """``legal instead: A, B``: plain actions on one line, each deal on a line of its own."""
    shown, more = listing.summary(forms, what)
    plain = [f for f in shown if isinstance(f, str)]
    deals = [f for f in shown if not isinstance(f, str)]
    out = Text(f"\n  {label}:")
    if plain:
        out.append(" " + ", ".join(plain))
    elif not deals:
        out.append(" " + _("nothing"))
    for deal in deals:
        out.append(f"\n    {listing.show(deal)}")
    if more:
        out.append(f"\n    {more}", style="dim")
    return out


def comment_line(comment: str) -> Text:
    """The note written beside an action, under it: the record's text as plain text (never
    read as rich markup), each of its lines indented."""
    out = Text("  " + _("Note:") + " ", style="italic dim")
    out.append(comment.replace("\n", "\n    "), style="italic")
    return out


def step(
    s: Step, viewer: str | None = None, source: Source | None = None, comment: str | None = None
) -> RenderableType:
    """One replay step: the action in words, the comment beside it (if any), the table.

    A rejected action reads as an attempt ("Bo tries to beat 9♥ with 7♥"),
    followed by the violation and the table as it stands, unchanged.
    """
    title = Text(f"[{s.index + 1}] ", style="bold cyan")
    said: list[RenderableType] = [comment_line(comment)] if comment is not None else []
    bad = s.violation
    if bad is not None and bad.table is not None and bad.unplayable is None:
        return _irregular_step(s, bad, title, viewer, said)
    if s.violation is not None:
        player = s.violation.player or ""
        title.append(
            attempt(s.words, player, s.action, s.happened, s.table.names), style="bold red"
        )
        what = s.table.deal.what if s.table.deal is not None else ""
        return Group(
            title, *said, violation(s.violation, what, viewer, source), table(s.table, viewer)
        )
    title.append(s.words, style="bold")
    title.append(f"   ({listing.show(listed_form(s.action))})", style="dim")
    parts: list[RenderableType] = [title, *said]
    if s.events:
        parts.append(Text("  → " + "; ".join(s.events), style="cyan"))
    for note in s.notes:
        parts.append(Text(f"  ? not checked ({note.rule}): {note.message}", style="yellow"))
    parts.append(table(s.table, viewer))
    return Group(*parts)


def _irregular_step(
    s: Step, bad: Violation, title: Text, viewer: str | None, said: list[RenderableType]
) -> RenderableType:
    """A step the table took back or let stand: the narration, the violation, the table."""
    title.append(irregular_words(s, bad), style="bold yellow")
    parts: list[RenderableType] = [title, *said]
    if bad.rule != "table.taken_back":
        what = s.table.deal.what if s.table.deal is not None else ""
        parts.append(violation(bad, what, viewer))
    if bad.table == "stands" and s.events:
        parts.append(Text("  → " + "; ".join(s.events), style="cyan"))
    parts.append(table(s.table, viewer))
    return Group(*parts)


def start(report: Report, viewer: str | None = None) -> RenderableType:
    """The table before the first action."""
    assert report.start is not None
    title = Text(
        _("Start")
        + f" · {report.variant} · "
        + ngettext("{count} player", "{count} players", len(report.players)).format(
            count=len(report.players)
        )
        + ": "
        + ", ".join(report.players),
        style="bold cyan",
    )
    return Group(title, table(report.start, viewer))


# --- the loser's word (docs/glossary.md): Skitgubbe's loser is the skitgubbe at a Swedish
# table, Koira's the koira at a Finnish one, Mattis's the mattis at a Norwegian one; the
# words are looked up in the catalogue under the game's word as context.

_LOSER_LINES: dict[str, tuple[Callable[[], str], Callable[[], str]]] = {
    "skitgubbe": (
        lambda: pgettext("skitgubbe", "finished, loser {names}"),
        lambda: pgettext("skitgubbe", "finished, loser {names} as played"),
    ),
    "koira": (
        lambda: pgettext("koira", "finished, loser {names}"),
        lambda: pgettext("koira", "finished, loser {names} as played"),
    ),
    "mattis": (
        lambda: pgettext("mattis", "finished, loser {names}"),
        lambda: pgettext("mattis", "finished, loser {names} as played"),
    ),
}
"""A game's one loser named by its own word where the language has one (Skitgubbe's
skitgubbe in Swedish, Koira's koira in Finnish, Mattis's mattis in Norwegian; English and
the other languages say "loser")."""


def one_loser(variant: str, as_played: bool) -> str:
    """The outcome of a game of ``variant`` with one loser: ``finished, loser {names}``
    (``as played`` when the record's irregularities were followed), said in the language
    speaking now, by the game's word for its loser where that language has one."""
    preset = PRESETS.get(variant)
    word = preset.loser_word if preset is not None else None
    if word is not None:
        return _LOSER_LINES[word][as_played]()
    return _("finished, loser {names} as played") if as_played else _("finished, loser {names}")


def verdict_line(file: str, report: Report) -> Text:
    """One line: file, status, and the outcome."""
    out = Text(f"{file}: ")
    if report.violations:
        out.append(_("illegal"), style="bold red")
    else:
        out.append(_("legal"), style="bold green")
    players = ngettext("{count} player", "{count} players", len(report.players))
    applied = ngettext(
        "{applied} of {actions} actions applied",  # English says "actions" even for one
        "{applied} of {actions} actions applied",
        report.actions,
    )
    out.append(
        f" · {report.variant}, {players.format(count=len(report.players))}, "
        + applied.format(applied=report.applied, actions=report.actions)
    )
    marked = [v for v in report.violations if v.table is not None]
    if marked:
        count = len(report.violations)
        irregular = ngettext("{count} irregularity", "{count} irregularities", count)
        out.append(" · " + irregular.format(count=count), style="yellow")
    as_played = marked and report.followed
    if report.finished:
        if len(report.losers) > 1:
            names = _(" and ").join(report.losers)
            text = (
                _("finished, losers {names} as played")
                if as_played
                else _("finished, losers {names}")
            )
        else:
            names = report.loser or _("nobody")
            text = one_loser(report.variant, bool(as_played))
        out.append(" · " + text.format(names=names))
    elif report.stopped:
        out.append(" · " + _("not followed to the end (it depends on unseen cards)"))
    else:
        out.append(" · " + _("not finished"))
    if report.undetermined:
        count = len(report.undetermined)
        checks = ngettext("{count} check undetermined", "{count} checks undetermined", count)
        out.append(" · " + checks.format(count=count), style="yellow")
    return out


def undetermined(v: Violation) -> Text:
    """A check that could not be made, in yellow: where, which rule, and why."""
    if v.index is not None:
        head = _("undetermined at action {number}").format(number=v.index + 1)
    else:
        head = _("undetermined at before the first action")  # (English as it was)
    out = Text(f"? {head}", style="bold yellow")
    if v.player:
        out.append(f" ({v.player})", style="yellow")
    out.append("\n  " + _("rule {rule}:").format(rule=v.rule) + f" {v.message}", style="yellow")
    return out


def verdict(
    file: str,
    report: AnyReport,
    viewer: str | None = None,
    source: Source | None = None,
    notes: bool = True,
) -> RenderableType:
    """The readable verdict on one record (or session); ``viewer`` as for :func:`violation`;
    ``source`` the record as named on the command line (default ``file``), for hints;
    ``notes``: the comment beside each violation's action (never in one player's view)."""
    return Group(*verdict_parts(file, report, viewer, source, notes))


def verdict_parts(
    file: str,
    report: AnyReport,
    viewer: str | None = None,
    source: Source | None = None,
    notes: bool = True,
) -> Iterator[RenderableType]:
    """:func:`verdict` a part at a time (its line, then each violation), made as it is
    printed: a record of 200,000 irregularities is never laid out whole."""
    if isinstance(report, SessionReport):
        yield session_verdict(file, report)
        return
    source = file if source is None else source
    yield verdict_line(file, report)
    for v in report.violations:
        yield violation(v, viewer=viewer, source=source)
        if v.comment is not None and viewer is None and notes:  # no free text for one player
            yield comment_line(v.comment)
    for v in report.undetermined:
        yield undetermined(v)


def _status_said(status: str) -> str:
    """A verdict's status (``legal``, ``illegal``, ``invalid``: the JSON's word), said."""
    said = {"legal": _("legal"), "illegal": _("illegal"), "invalid": _("invalid")}
    return said.get(status, status)


def session_verdict(file: str, report: SessionReport) -> RenderableType:
    """A session: one line per game, its violations, then the score table."""
    head = Text(f"{file}: ")
    head.append(
        _status_said(report.status), style="bold red" if report.violations else "bold green"
    )
    games = len(report.games)
    head.append(
        " · "
        + ngettext("session of {count} game", "session of {count} games", games).format(count=games)
        + f" · {report.variant}"
    )
    parts: list[RenderableType] = [head]
    for number, game in enumerate(report.games, start=1):
        parts.append(verdict_line("  " + _("game {number}").format(number=number), game))
        parts.extend(violation(v, source=file) for v in game.violations)
        parts.extend(undetermined(v) for v in game.undetermined)
    for claim in report.claims:
        parts.append(violation(claim))
    if report.scores is not None:
        grid = Table(title=_("Scores"), title_justify="left", box=None, pad_edge=False)
        grid.add_column(_("player"))
        for number in range(1, len(report.games) + 1):
            grid.add_column(_("game {number}").format(number=number), justify="right")
        grid.add_column(_("total"), justify="right", style="bold")
        for name in report.players:
            row: list[RenderableType] = [Text(name)]  # a name is never markup
            for points in report.points:
                row.append(str(points[name]) if points is not None else "-")
            row.append(str(report.scores[name]))
            grid.add_row(*row)
        parts.append(grid)
    return Group(*parts)


def invalid(file: str, error: str) -> Text:
    """The one line for a record that cannot be read."""
    out = Text(f"{file}: ")
    out.append(_("invalid"), style="bold yellow")
    out.append(f" · {error}")
    return out


def replay_parts(
    label: str,
    report: Report,
    at: int | None = None,
    to: int | None = None,
    viewer: str | None = None,
    source: Source | None = None,
) -> list[RenderableType]:
    """What ``replay`` prints: the steps asked for, then the verdict on the whole record.

    ``report`` covers the whole record (``adjudicate(game, steps=True)``);
    ``source`` names the record in hints (default ``label``); ``at`` shows
    one action, ``to`` the actions up to it (both indexes, from 0; what a person reads
    counts from 1).  Whatever part is shown, the
    closing lines are the record's verdict, and when the part ends before the
    record does, a line says so first.
    """
    parts: list[RenderableType] = []
    comments = report.comments if viewer is None else {}  # one player's view: no free text
    last = report.steps[-1].index if report.steps else None
    first_bad = next((v.index for v in report.violations if v.index is not None), None)
    if at is not None:
        shown = [s for s in report.steps if s.index == at]
        if shown:
            parts.append(step(shown[0], viewer, source, comments.get(at)))
        else:
            parts.append(
                Text(
                    _("Action {at} was never reached: action {bad} is illegal.").format(
                        at=at + 1, bad=(first_bad or 0) + 1
                    )
                )
            )
            parts.append(
                step(report.steps[-1], viewer, source, comments.get(report.steps[-1].index))
                if report.steps
                else start(report, viewer)
            )
        end: int | None = at
    else:
        parts.append(start(report, viewer))
        for s in report.steps:
            if to is not None and s.index > to:
                break
            parts.extend(("", step(s, viewer, source, comments.get(s.index))))
        end = to
    parts.append("")
    if end is not None and last is not None and end < last:
        note = _("Stopped before the end (shown up to action {end} of {last})").format(
            end=end + 1, last=report.actions
        )
        if first_bad is not None and first_bad > end:
            note += _("; the record is illegal at action {number}").format(number=first_bad + 1)
        parts.append(Text(note + _(". The verdict on the whole record:"), style="dim"))
    parts.append(verdict(label, report, viewer, source))
    return parts


# --- a position (``adjudicator legal``): the table there and what is legal ---------------


UNSEEN_SHOWN = 16
"""Actions with unseen cards listed by ``legal`` before the rest are counted."""


def never_reached(label: str, index: int, source: Source | None = None) -> str:
    """``legal`` at a position beyond an illegal action (``index``, from 0): the service's
    sentence about ``label``, and how to list what was legal there (in ``source``, the record
    as the user named it, by default ``label``)."""
    hint = legal_hint(label if source is None else source, index, there=True)
    return service.never_reached(label, index) + "; " + hint


def _listed(listed: list[str]) -> list[Text]:
    """A long list of actions on one line, the rest counted."""
    out = [Text("  " + ", ".join(listed[:UNSEEN_SHOWN]))]
    if len(listed) > UNSEEN_SHOWN:
        more = len(listed) - UNSEEN_SHOWN
        out.append(Text("  " + _("… and {count} more").format(count=more), style="dim"))
    return out


def position(label: str, where: legal.Position) -> RenderableType:
    """``legal``: where in the record, the table there, and the legal actions one per line."""
    state = where.state
    head = Text(f"{label} · ", style="bold cyan")
    if where.at == where.actions:
        head.append(
            _("after the last action ({count} applied)").format(count=where.actions),
            style="bold cyan",
        )
    else:
        head.append(
            ngettext(
                "before action {at} ({applied} of {actions} actions applied)",
                "before action {at} ({applied} of {actions} actions applied)",  # (as it was)
                where.actions,
            ).format(at=where.at + 1, applied=where.at, actions=where.actions),
            style="bold cyan",
        )
    parts: list[RenderableType] = [head, table(state.view())]
    if state.finished:
        said = losers_text(state.names, state.losers)
        parts.append(Text(_("The game is over ({said}): no action may follow.").format(said=said)))
        return Group(*parts)
    if state.stopped is not None:
        parts.append(
            Text(
                _("The game cannot be followed here: {why}.").format(why=state.stopped),
                style="yellow",
            )
        )
        return Group(*parts)
    shown, more = listing.summary(where.legal, where.deal_what)
    movers = _(" or ").join(where.movers) or _("nobody")
    count = len(where.legal)
    parts.append(
        Text(
            ngettext(
                "Legal actions ({count}), {names} to act:",
                "Legal actions ({count}), {names} to act:",  # (as it was, for one too)
                count,
            ).format(count=count, names=movers),
            style="bold",
        )
    )
    for form in shown:
        parts.append(Text("  " + listing.show(form)))
    if more:
        parts.append(Text("  " + more, style="dim"))
    if where.with_unseen:
        parts.append(
            Text(
                _("With a card nobody has seen, also legal ({count}):").format(
                    count=len(where.with_unseen)
                ),
                style="bold",
            )
        )
        parts.extend(_listed([listing.show(f) for f in where.with_unseen]))
    if where.with_unseen_unless:
        reasons: dict[str, list[str]] = {}
        for form, note in where.with_unseen_unless:
            reasons.setdefault(note.message, []).append(listing.show(form))
        for reason, listed in reasons.items():
            why = reason[0].lower() + reason[1:]
            parts.append(
                Text(
                    _(
                        "With a card nobody has seen, legal if the hidden cards allow it "
                        "({count}) — {why}:"
                    ).format(count=len(listed), why=why),
                    style="bold yellow",
                )
            )
            parts.extend(_listed(listed))
    if any(isinstance(f, dict) for f in where.legal):
        parts.append(
            Text(
                "  "
                + _(
                    "The shuffle decides who gets which card: these deals are examples; any deal "
                    "of the same cards to the same players in the shares the rule gives is legal."
                ),
                style="dim",
            )
        )
    return Group(*parts)


# --- variants (``adjudicator variants``) --------------------------------------------


def variant_list(every: list[service.VariantInfo]) -> Table:
    """The presets: name, what it is, where its rules are written."""
    grid = Table(title=_("Variants"), title_justify="left")
    grid.add_column(pgettext("column", "name"), style="bold", no_wrap=True)
    grid.add_column(pgettext("column", "what it is"))
    grid.add_column(pgettext("column", "source"))
    for each in every:
        grid.add_row(each.name, each.title, each.source)
    return grid


def _plain(value: object) -> str:
    """An option value as in a record, without the quotes: ``deal_order``, ``true``, ``5``."""
    return json.dumps(value).strip('"')


def option_grid(every: list[service.VariantInfo]) -> RenderableType:
    """Every option (rows) against every preset (columns): the values side by side.

    A value is never broken inside a word (``helmfr``/``id`` read as two values):
    when the presets do not fit the width side by side, they are split into
    several grids that do, each with the option names.
    """
    return _OptionGrids(every)


class _OptionGrids:
    """The option grid laid out for the width it is printed at (see :func:`option_grid`)."""

    def __init__(self, every: list[service.VariantInfo]) -> None:
        self.every = every

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        every = self.every
        rows = every[0].options if every else []
        values = [[_plain(option.value) for option in each.options] for each in every]
        # each column: its widest cell, its padding and the separator before it; two edges
        head = pgettext("column", "option")
        first = max([len(head), *(len(option.name) for option in rows)]) + 2 + 1
        widths = [
            max([len(each.name), *map(len, column)]) + 2
            for each, column in zip(every, values, strict=True)
        ]
        groups: list[list[int]] = [[]]
        used = first
        for i, width in enumerate(widths):
            if groups[-1] and used + width > options.max_width:
                groups.append([])
                used = first
            groups[-1].append(i)
            used += width
        for number, group in enumerate(groups):
            part = _("({number} of {count})").format(number=number + 1, count=len(groups))
            title = _("Options by variant") + (f" {part}" if len(groups) > 1 else "")
            grid = Table(
                title=title, title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1, 0, 0)
            )
            grid.add_column(head, style="bold", no_wrap=True)
            for i in group:
                grid.add_column(every[i].name, no_wrap=True)
            for r, option in enumerate(rows):
                grid.add_row(option.name, *(values[i][r] for i in group))
            yield grid


def variant(about: service.VariantInfo, width: int) -> RenderableType:
    """One preset in full: each option's value, the values it may take, its rule text."""
    indent = "    "

    def wrapped(text: str, style: str = "") -> Text:
        return Text(
            textwrap.fill(text, width, initial_indent=indent, subsequent_indent=indent),
            style=style,
        )

    parts: list[RenderableType] = [
        Text.assemble((about.name, "bold"), f": {about.title}"),
        Text(_("Source: {source}").format(source=about.source)),
    ]
    for change in about.by_players:
        said = ", ".join(f"{k} = {json.dumps(v)}" for k, v in change.changes.items())
        with_them = _("With {players} players: {changes}")
        parts.append(Text(with_them.format(players=change.said(), changes=said)))
    for option in about.options:
        allowed = option.allowed
        shown = _("(one of: {allowed})") if " | " in allowed else "({allowed})"
        parts.append(Text(""))
        parts.append(
            Text.assemble(
                (option.name, "bold"),
                " = ",
                (json.dumps(option.value), "bold cyan"),
                ("   " + shown.format(allowed=allowed), "dim"),
            )
        )
        parts.append(wrapped(option.description))
        if option.cited is not None:
            cited = _("In {variant}: {cite}").format(variant=about.name, cite=option.cited)
            parts.append(wrapped(cited, "cyan"))
    return Group(*parts)
