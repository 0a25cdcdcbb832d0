"""The sample games, shipped inside the package so an installed wheel has them too.

In a clone they are the files of ``sample_games/`` (``adjudicator/sample_games`` links
there); in a wheel they are package data.  ``adjudicator samples`` lists and prints them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import resources
from importlib.resources.abc import Traversable
from typing import IO, Any

from adjudicator.i18n import _

FOLDER = "sample_games"


def _folder() -> Traversable:
    return resources.files("adjudicator").joinpath(FOLDER)


def names() -> list[str]:
    """Every sample's file name, sorted."""
    return sorted(p.name for p in _folder().iterdir() if p.name.endswith(".json"))


def find(name: str) -> Traversable | None:
    """The sample called ``name`` (with or without ``.json``), or None."""
    if not name.endswith(".json"):
        name += ".json"
    if name not in names():
        return None
    return _folder().joinpath(name)


def text(name: str) -> str:
    """The sample's JSON text; KeyError when there is no such sample."""
    found = find(name)
    if found is None:
        raise KeyError(name)
    return found.read_text(encoding="utf-8")


def reference(name: str) -> str:
    """How a user gets at a sample: the command that prints it."""
    return f"adjudicator samples {name.removesuffix('.json')}"


def title(data: dict[str, Any]) -> str:
    """A sample's title (its ``meta.title``, the project's words) in the language speaking:
    the titles are in the catalogues (:func:`extract_titles`)."""
    meta = data.get("meta")
    written = meta.get("title") if isinstance(meta, dict) else None
    return _(written) if isinstance(written, str) and written else ""


def extract_titles(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[Any, ...]]:
    """Babel's extraction interface for a sample's file: its title, to be translated
    (``adjudicator/locale/python.cfg`` names the samples; docs/translating.md)."""
    text = fileobj.read().decode("utf-8")
    written = (json.loads(text).get("meta") or {}).get("title")
    if isinstance(written, str) and written:
        line = next((n for n, row in enumerate(text.splitlines(), 1) if '"title"' in row), 1)
        yield line, "", written, []
