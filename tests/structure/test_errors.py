"""One error family, and a public face that teaches no deep import.

Every exception class the package defines derives from :class:`AdjudicatorError`, except
the signals that are not errors (a stop requested by Ctrl-C or SIGTERM, which derive from
``BaseException`` so that no ``except Exception`` swallows them) and click's own kind of
usage error; every name docs/library.md imports comes from ``adjudicator`` itself.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import click

import adjudicator
from adjudicator import AdjudicatorError, IllegalActionError, RecordError

ROOT = Path(__file__).resolve().parents[2]


def _modules() -> list[str]:
    return [
        m.name
        for m in pkgutil.walk_packages(adjudicator.__path__, "adjudicator.")
        if not m.name.endswith("__main__")
    ]


def test_every_error_class_derives_from_one_base() -> None:
    strays = []
    for name in _modules():
        module = importlib.import_module(name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != name or not issubclass(cls, BaseException):
                continue
            if not issubclass(cls, Exception):  # a stop signal, not an error
                continue
            if issubclass(cls, click.ClickException):  # click's usage errors, said by click
                continue
            if not issubclass(cls, AdjudicatorError):
                strays.append(f"{name}.{cls.__name__}")
    assert strays == []


def test_the_errors_a_caller_catches_are_one_family_and_pythons_own_kind() -> None:
    assert issubclass(RecordError, AdjudicatorError) and issubclass(RecordError, ValueError)
    assert issubclass(IllegalActionError, AdjudicatorError)
    assert issubclass(IllegalActionError, ValueError)
    assert not hasattr(adjudicator.engine, "IllegalAction")  # one illegal-action type


def test_docs_library_imports_only_what_the_package_exports() -> None:
    text = (ROOT / "docs" / "library.md").read_text(encoding="utf-8")
    imports = re.findall(r"^>>> (from adjudicator[\w.]* import .+)$", text, re.M)
    assert imports, "docs/library.md shows no import"
    for line in imports:
        node = ast.parse(line).body[0]
        assert isinstance(node, ast.ImportFrom) and node.module is not None
        for alias in node.names:
            target = importlib.import_module(node.module)
            value = getattr(target, alias.name)
            if inspect.ismodule(value):
                continue  # a module of the package (service, service.page)
            assert node.module == "adjudicator", f"{line}: a deep import"
            assert alias.name in adjudicator.__all__, alias.name
