"""Actions as a record writes them: the one form of "what could be played" every edge lists.

Below :mod:`~adjudicator.play.table` and :mod:`~adjudicator.play.legal`, which both
list actions this way.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from adjudicator.actions import Action
from adjudicator.i18n import _, ngettext
from adjudicator.speech import dealt_said

Form = str | dict[str, Any]
"""An action as written in a record: a string, or an object (deals)."""

DEALS_SHOWN = 3
"""Deals listed in full before the rest are summed up as a count."""


def unique(forms: Iterable[Form]) -> list[Form]:
    """``forms`` without repeats, in their first order.

    A string is its own key; only an object form (a deal) is written out as JSON to be
    compared, which a record with thousands of irregularities, each listing a hundred
    alternatives, would otherwise do for every one of them."""
    texts: set[str] = set()
    objects: set[str] = set()
    out: list[Form] = []
    for form in forms:
        if isinstance(form, str):
            if form in texts:
                continue
            texts.add(form)
        else:
            key = json.dumps(form, sort_keys=True, ensure_ascii=False)
            if key in objects:
                continue
            objects.add(key)
        out.append(form)
    return out


def forms(actions: Iterable[Action], names: tuple[str, ...]) -> list[Form]:
    """Engine actions as unique record forms."""
    return unique(a.record_form(names) for a in actions)


def show(form: Form) -> str:
    """One record form as it is pasted into a record: a string, or compact JSON."""
    if isinstance(form, str):
        return form
    return json.dumps(form, ensure_ascii=False)


def summary(listed: list[Form], what: str = "") -> tuple[list[Form], str | None]:
    """The forms to print and, when deals were left out, a line saying how many.

    Deals beyond the first :data:`DEALS_SHOWN` are summed up: the shuffle
    decides who gets which card, so a list of them says little.
    """
    deals = [f for f in listed if isinstance(f, dict)]
    if len(deals) <= DEALS_SHOWN + 1:
        return listed, None
    keep = {id(f) for f in deals[:DEALS_SHOWN]}
    shown = [f for f in listed if not isinstance(f, dict) or id(f) in keep]
    more = len(deals) - DEALS_SHOWN
    said = ngettext(
        "… and {count} more ways to deal {what}",
        "… and {count} more ways to deal {what}",  # (as it was, for one too)
        more,
    )
    return shown, said.format(count=more, what=dealt_said(what) if what else _("the cards"))
