"""Player names that look alike: Unicode's confusables skeleton (UTS #39, section 4).

Two names with the same skeleton can be read as one ("Anna" and "Аnna", whose first
letter is Cyrillic): a ruling about one would read as if about the other, so a record
naming both is refused.  The skeleton is NFD, each character replaced by its prototype
from Unicode's ``confusables.txt``, NFD again.  Before it a name is folded (:func:`looks`):
NFKC, so that fullwidth ``Ａｎｎａ`` is ``Anna``, and without the code points shown as
nothing (default-ignorable ones, variation selectors among them), so that ``Anna`` +
U+FE0F is ``Anna`` too.  A name with nothing visible is no name (:func:`visible`).

The table is derived from that file by this module's ``main`` (no dependency: the core
also runs in the browser) and shipped as package data, :data:`TABLE_FILE`::

    python -m adjudicator.record.confusables --write confusables.txt
"""

from __future__ import annotations

import sys
import unicodedata
from functools import cache
from importlib import resources
from pathlib import Path

from adjudicator.exits import EXIT_INVALID

TABLE_FILE = "confusables_table.txt"
"""The derived table, beside this module (package data: the wheel, the sdist and the
phone's wheel carry it): ``TARGET:SOURCE,SOURCE,...`` a line, code points in hex, a target
of several characters joined by ``+``; lines starting with ``#`` say where it comes from."""


@cache
def _prototypes() -> dict[str, str]:
    """Character -> its prototype, read from :data:`TABLE_FILE` once, on first use: a start
    whose names are all plain ASCII never reads it (the table takes a few milliseconds)."""
    return _read(resources.files(__package__).joinpath(TABLE_FILE).read_text(encoding="ascii"))


def _read(text: str) -> dict[str, str]:
    """Character -> its prototype, from the text of :data:`TABLE_FILE`."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        target, _, sources = line.partition(":")
        prototype = "".join(chr(int(code, 16)) for code in target.split("+"))
        for code in sources.split(","):
            out[chr(int(code, 16))] = prototype
    return out


def skeleton(name: str) -> str:
    """UTS #39's skeleton of ``name``: equal for names that can be mistaken for each other."""
    if name.isascii() and not _ASCII_CONFUSABLE.intersection(name):
        return name  # the common case: no table needed
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(ch, ch) for ch in unicodedata.normalize("NFD", name))
    return unicodedata.normalize("NFD", mapped)


IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
"""Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt): characters
a text shows as nothing, the variation selectors (U+FE00-U+FE0F, U+E0100-U+E01EF and the
Mongolian ones, U+180B-U+180D, U+180F) and the Hangul fillers (U+115F, U+1160, U+3164,
U+FFA0) among them."""

BLANK = frozenset("\u2800")
"""Characters that print as an empty cell without being ignorable: U+2800 BRAILLE PATTERN
BLANK."""


def ignorable(char: str) -> bool:
    """Whether ``char`` is a default-ignorable code point (shown as nothing)."""
    code = ord(char)
    return any(low <= code <= high for low, high in IGNORABLE)


def folded(name: str) -> str:
    """``name`` as it looks: NFKC (fullwidth ``Ａｎｎａ`` is ``Anna``, ``ﬁ`` is ``fi``) without
    the characters shown as nothing (``Anna`` + U+FE0F is ``Anna``)."""
    if name.isascii():
        return name  # NFKC leaves ASCII as it is, and none of it is ignorable
    kept = "".join(ch for ch in unicodedata.normalize("NFKC", name) if not ignorable(ch))
    return unicodedata.normalize("NFKC", kept)


def looks(name: str) -> str:
    """What ``name`` looks like: the skeleton of its :func:`folded` form.  Two names that
    look alike have the same; a name of nothing visible has ``""``."""
    return skeleton(folded(name))


def visible(name: str) -> bool:
    """Whether ``name`` shows anything: a character that is not ignorable, blank, a space
    or a mark with nothing to sit on."""
    return any(
        not ignorable(ch)
        and ch not in BLANK
        and not ch.isspace()
        and unicodedata.category(ch) not in ("Mn", "Me", "Cf", "Zs")
        for ch in unicodedata.normalize("NFKC", name)
    )


_ASCII_CONFUSABLE = frozenset('"%01I`m|')
"""The printable ASCII characters the table maps to another (``1`` and ``I`` to ``l``,
``m`` to ``rn``...): checked against the derived table by the tests."""


def derive(text: str) -> str:
    """The text of :data:`TABLE_FILE` from the text of Unicode's ``confusables.txt``: a line
    per prototype, ``TARGET:SOURCE,SOURCE,...`` in hex (a target of several characters
    joined by ``+``), so the file is plain ASCII whatever the characters are."""
    version = "unknown"
    by_target: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.lstrip("\ufeff")
        if line.startswith("# Version:"):
            version = line.split(":", 1)[1].strip()
        body = line.split("#", 1)[0].strip()
        if not body:
            continue
        source, target, *_ = (field.strip() for field in body.split(";"))
        by_target.setdefault("+".join(target.split()), []).append(source)
    head = (
        f"# Unicode's confusables prototypes (confusables.txt, version {version}), derived by\n"
        "# python -m adjudicator.record.confusables --write confusables.txt: do not edit.\n"
    )
    return head + "".join(
        f"{target}:{','.join(sources)}\n" for target, sources in sorted(by_target.items())
    )


def main(argv: list[str]) -> int:
    """``--write confusables.txt``: derive :data:`TABLE_FILE` from Unicode's file."""
    if len(argv) != 2 or argv[0] != "--write":
        print("usage: python -m adjudicator.record.confusables --write confusables.txt")
        return EXIT_INVALID
    source = Path(argv[1]).read_text(encoding="utf-8-sig")
    Path(__file__).with_name(TABLE_FILE).write_text(derive(source), encoding="ascii")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
