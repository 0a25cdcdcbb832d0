"""The page's words in its HTML, for ``pybabel extract`` (a Babel extraction method).

The page's HTML is written in English; ``static/i18n.js`` puts each text and each
``placeholder``/``aria-label``/``title``/``alt`` in the chosen language as the page
loads, by the English text itself.  This finds those texts, as the script will: the
whitespace of a text collapsed; nothing inside ``translate="no"`` (record notation,
such as the acts ``play``/``pick``); nothing without a letter (``◀◀``); no script.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import IO, Any

ATTRIBUTES = ("placeholder", "aria-label", "title", "alt")
_SPACE = re.compile(r"\s+")


def words(text: str) -> str | None:
    """A text as the page looks it up: whitespace collapsed; None if it has no letter."""
    text = _SPACE.sub(" ", text).strip()
    return text if any(c.isalpha() for c in text) else None


class _Finder(HTMLParser):
    VOID = frozenset(("meta", "link", "input", "br", "img", "hr", "source", "wbr"))

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self.stack: list[tuple[str, bool]] = []  # (tag, says "translate=no" or inside one)

    def _quiet(self) -> bool:
        return bool(self.stack) and self.stack[-1][1]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        quiet = self._quiet() or values.get("translate") == "no" or tag in ("script", "style")
        if not quiet:
            for name in ATTRIBUTES:
                text = words(values.get(name) or "")
                if text:
                    self.found.append((self.getpos()[0], text))
        if tag not in self.VOID:
            self.stack.append((tag, quiet))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        text = words(data)
        if text and not self._quiet():
            self.found.append((self.getpos()[0], text))


def extract_html(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel's extraction interface: (line, function, message, comments) per text."""
    finder = _Finder()
    finder.feed(fileobj.read().decode("utf-8"))
    finder.close()
    for line, text in finder.found:
        yield line, "", text, []
