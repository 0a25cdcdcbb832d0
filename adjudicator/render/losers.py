"""The loser, named by the word the game has for it where the table's language has one.

docs/glossary.md: Skitgubbe's loser is the skitgubbe at a Swedish table, Koira's the koira
at a Finnish one, Mattis's the mattis at a Norwegian one; other tables say their language's
word for the loser, and English says "loser" for every game.  The words are looked up in
the catalogue under the game's word as context, so each language chooses for itself.
"""

from __future__ import annotations

from collections.abc import Callable

from adjudicator.i18n import _, pgettext
from adjudicator.rules.presets import PRESETS

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
