"""The other "Skitgubbe": records of Vändtia (Palace, Shithead), named as what they are.

In parts of Sweden *Skitgubbe* is the name of Vändtia, a different game (face-down and
face-up cards, one pile, 2 and 10 special, no tricks and no second phase); most public
programs called "skitgubbe" play it.  Such a record would be told only that its variant
is none of the presets, or that ``faceDown`` is no field of the format: true, and no
help.  Here a variant that reads as Vändtia, or a record plainly of its shape, gets one
line saying which game it is and where the difference is written (docs/other-games.md).

Conservative on purpose: a name is Vändtia only when, folded (accents, case, spaces and
punctuation dropped), it holds one of the game's names; a shape only by keys that no
record of this family has (face-down or face-up cards, table cards, blinds, burns).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from pydantic import BaseModel

from adjudicator.i18n import N_, _
from adjudicator.record.errors import RecordError, _validate, key, shown
from adjudicator.rules.presets import PRESETS

NAMED = N_(
    "{variant} is Vändtia (Palace), a different game also called Skitgubbe; this tool "
    "judges the two-phase Skitgubbe family (see docs/other-games.md)"
)
VANDTIA = N_(
    "this is Vändtia (Palace), a different game also called Skitgubbe; this tool judges "
    "the two-phase Skitgubbe family (see docs/other-games.md)"
)

NAMES = ("vandtia", "vandtian", "palace", "shithead", "shed", "karma")
"""Vändtia's names, folded: a variant is the game when its folded name is one of these,
or holds one of the longer ones (``skitgubbe (vändtia)``, ``shit-head``)."""

HELD = ("vandtia", "palace", "shithead")
"""Names that mark the game wherever they stand in a variant's name."""

SHAPE_KEYS = frozenset(
    (
        "facedown",
        "faceup",
        "facedowncards",
        "faceupcards",
        "tablecards",
        "blind",
        "blinds",
        "blindcards",
        "burn",
        "burns",
        "burned",
        "burnt",
        "burnpile",
    )
)
"""Keys, folded, that only a Vändtia record has: the three cards face down, the three
face up on them, and the pile burnt by a 10 (or four of a rank)."""

_LOOKED_AT = 200
"""Objects of a record looked through for a shape at most: a record's parts are few."""


def fold(text: str) -> str:
    """``Skitgubbe (Vändtia)`` as ``skitgubbevandtia``: accents, case and everything but
    letters and digits dropped, so every spelling of a name reads as one."""
    plain = unicodedata.normalize("NFKD", text[:200])
    return "".join(ch for ch in plain.casefold() if ch.isalnum() and not unicodedata.combining(ch))


def is_vandtia(variant: Any) -> bool:
    """Whether a record's ``variant`` names Vändtia (never a preset of this family)."""
    if not isinstance(variant, str) or variant in PRESETS:
        return False
    folded = fold(variant)
    if folded in PRESETS:
        return False
    return folded in NAMES or any(name in folded for name in HELD)


def shape_at(data: Any) -> str | None:
    """The place of the first key that only a Vändtia record has (``players[0].faceDown``),
    or None.  The user's keys (``_...``) and ``meta`` are not looked into."""
    todo: list[tuple[str, Any]] = [("", data)]
    looked = 0
    while todo and looked < _LOOKED_AT:
        path, value = todo.pop(0)
        looked += 1
        if isinstance(value, dict):
            for name, inner in value.items():
                if not isinstance(name, str) or name.startswith("_") or name == "meta":
                    continue
                where = key(path, name)
                if fold(name) in SHAPE_KEYS:
                    return where
                if isinstance(inner, (dict, list)):
                    todo.append((where, inner))
        elif isinstance(value, list):
            for i, inner in enumerate(value[:_LOOKED_AT]):
                if isinstance(inner, (dict, list)):
                    todo.append((f"{path}[{i}]", inner))
    return None


def validated(model: type[BaseModel], data: Any) -> Any:
    """``data`` validated as ``model`` (a record or a session), a record of Vändtia named as
    such: by its variant before anything else, by its shape where the format refuses it."""
    if isinstance(data, dict):
        variant = data.get("variant")
        if isinstance(variant, str) and variant not in PRESETS and is_vandtia(variant):
            raise RecordError("variant", _(NAMED).format(variant=shown(variant)))
    try:
        return _validate(model, data)
    except RecordError:
        named = other_game(data)
        if named is not None:
            raise named from None
        raise


def other_game(data: Any) -> RecordError | None:
    """The one line for a record of Vändtia (by its variant, or its shape), or None."""
    if not isinstance(data, dict):
        return None
    variant = data.get("variant")
    if is_vandtia(variant):
        return RecordError("variant", _(NAMED).format(variant=shown(variant)))
    where = shape_at(data)
    if where is not None:
        return RecordError(where, _(VANDTIA))
    return None
