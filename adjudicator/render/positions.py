"""What ``legal`` prints: where in the record, the table there, and the legal actions.

Beside :mod:`~adjudicator.render.terminal`, whose table and hints it uses.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from adjudicator import service
from adjudicator.i18n import _, ngettext
from adjudicator.play import legal, listing
from adjudicator.render.terminal import legal_hint, losers_text, table

UNSEEN_SHOWN = 16
"""Actions with unseen cards listed by ``legal`` before the rest are counted."""


def never_reached(label: str, index: int, game: int | None = None) -> str:
    """``legal`` at a position beyond an illegal action (``index``, from 0): the service's
    sentence, and how to list what was legal there."""
    return service.never_reached(label, index) + "; " + legal_hint(label, index, game, there=True)


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
