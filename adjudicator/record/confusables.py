"""Player names that look alike: Unicode's confusables skeleton (UTS #39, section 4).

Two names with the same skeleton can be read as one ("Anna" and "Аnna", whose first
letter is Cyrillic): a ruling about one would read as if about the other, so a record
naming both is refused.  The skeleton is NFD, each character replaced by its prototype
from Unicode's ``confusables.txt``, NFD again.

The table is derived from that file by this module's ``main`` (no dependency: the core
also runs in the browser), kept compact in :mod:`._confusables_table`::

    python -m adjudicator.record.confusables --write confusables.txt
"""

from __future__ import annotations

import sys
import unicodedata
from functools import cache
from pathlib import Path

TABLE_MODULE = Path(__file__).with_name("_confusables_table.py")


@cache
def _prototypes() -> dict[str, str]:
    """Character -> its prototype, read from the compact table on first use."""
    from adjudicator.record._confusables_table import TABLE

    out: dict[str, str] = {}
    for line in TABLE.split():
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


_ASCII_CONFUSABLE = frozenset('"%01I`m|')
"""The printable ASCII characters the table maps to another (``1`` and ``I`` to ``l``,
``m`` to ``rn``...): checked against the derived table by the tests."""


LINE_SOURCES = 14
"""Source characters per entry of the table (an entry fits on a line)."""
LINE_LENGTH = 99
"""Characters per line of the table module."""


def derive(text: str) -> str:
    """The table module's source from the text of ``confusables.txt``: an entry per
    prototype, ``TARGET:SOURCE,SOURCE,...`` in hex (a target of several characters
    joined by ``+``), separated by spaces and line breaks, so the file is plain ASCII
    whatever the characters are."""
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
    entries = []
    for target, sources in sorted(by_target.items()):
        while sources:  # a long list as several entries, each under the line length
            entries.append(f"{target}:{','.join(sources[:LINE_SOURCES])}")
            sources = sources[LINE_SOURCES:]
    lines = [""]
    for entry in entries:  # entries are split on spaces: as many on a line as fit
        if len(lines[-1]) + 1 + len(entry) > LINE_LENGTH:
            lines.append(entry)
        else:
            lines[-1] = f"{lines[-1]} {entry}".lstrip()
    return (
        '"""Unicode\'s confusables prototypes (confusables.txt, version '
        f"{version}), derived by\n"
        "``python -m adjudicator.record.confusables --write confusables.txt``: do not edit.\n"
        '"""\n\n'
        f'TABLE = """\n{chr(10).join(lines)}\n"""\n'
    )


def main(argv: list[str]) -> int:
    """``--write confusables.txt``: derive the table module from Unicode's file."""
    if len(argv) != 2 or argv[0] != "--write":
        print("usage: python -m adjudicator.record.confusables --write confusables.txt")
        return 2
    source = Path(argv[1]).read_text(encoding="utf-8-sig")
    TABLE_MODULE.write_text(derive(source), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
