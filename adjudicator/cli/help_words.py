"""The command line's help for ``pybabel extract`` (a Babel extraction method).

The help is written in English where click reads it: a command's docstring and each
option's ``help="..."``; :class:`adjudicator.cli.group.Helped` looks each up in the
catalogue, as click cleans it (``inspect.cleandoc``), when the help is shown.  This finds
those texts in the command line's modules, beside what ``_()``, ``ngettext()``,
``pgettext()`` and ``N_()`` mark there (Babel's own Python extraction).
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator
from typing import IO, Any

DECORATORS = ("command", "group")
"""``@click.command(...)``, ``@main.command()``, ``@click.group(...)``: what makes a command."""


def _makes_command(decorator: ast.expr) -> bool:
    call = decorator.func if isinstance(decorator, ast.Call) else decorator
    name = call.attr if isinstance(call, ast.Attribute) else getattr(call, "id", None)
    return name in DECORATORS


def help_texts(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) of each command's docstring and each literal ``help=`` in ``source``."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and any(map(_makes_command, node.decorator_list)):
            doc = ast.get_docstring(node, clean=True)
            if doc:
                yield node.lineno, doc
        elif isinstance(node, ast.Call):
            for keyword in node.keywords:
                value = keyword.value
                if (
                    keyword.arg == "help"
                    and isinstance(value, ast.Constant)
                    and isinstance(value.value, str)
                    and value.value.strip()
                ):
                    yield value.lineno, inspect.cleandoc(value.value)


def extract(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[Any, ...]]:
    """Babel's extraction interface: the marked strings, then the help texts."""
    from babel.messages.extract import extract_python  # Babel: only to extract (a test extra)

    yield from extract_python(fileobj, keywords, comment_tags, options)
    fileobj.seek(0)
    for line, text in help_texts(fileobj.read().decode("utf-8")):
        yield line, "", text, []
