"""Compiled or pure Python: which build of the engine this process runs.

``pip install`` compiles the engine's hot modules with mypyc (setup.py), and Python
imports an extension module before the source file beside it.  In a source checkout
that is a trap: edit ``engine/phase_two.py`` and the old compiled ``phase_two`` would
still run.  So, on the package's first import (:func:`choose`):

* with ``ADJUDICATOR_PURE=1``, every module is imported from its source;
* in a checkout (``pyproject.toml`` beside the package), a compiled module older
  than its source means the sources changed since the build, and every module is
  imported from its source too: the compiled ones call each other directly, so it is
  all of them or none.  ``adjudicator --version`` says which build runs, and why.

Standard library only: this runs before the rest of the package.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(_HERE)
_PACKAGES = ("", "engine", "importers", "play")
"""The folders (under the package) that hold compiled modules."""

PURE_VARIABLE = "ADJUDICATOR_PURE"

build = "pure Python"
"""What runs: 'compiled (mypyc)', or 'pure Python' and why, when compiled modules exist."""


def compiled_modules(here: str = _HERE) -> dict[str, tuple[str, str]]:
    """Each compiled module's name: (its source, its extension module), in the package
    folder ``here``."""
    found: dict[str, tuple[str, str]] = {}
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    for package in _PACKAGES:
        folder = os.path.join(here, package)
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            suffix = next((s for s in suffixes if name.endswith(s)), None)
            if suffix is None:
                continue
            stem = name[: -len(suffix)]
            source = os.path.join(folder, stem + ".py")
            if not os.path.isfile(source):
                continue
            parts = ["adjudicator", *([package] if package else []), stem]
            if stem == "__init__":
                parts.pop()
            found[".".join(parts)] = (source, os.path.join(folder, name))
    return found


LIBRARY = "adjudicator__mypyc"
"""The compiled code itself, one library for every module (setup.py's ``group_name``);
each module's own extension only points into it, and a build that changed the code
may leave those as they were."""


def _library() -> str | None:
    """Where the compiled library lies, if it is importable here."""
    try:
        spec = importlib.util.find_spec(LIBRARY)
    except (ImportError, ValueError):
        return None
    return spec.origin if spec is not None else None


def stale(
    compiled: dict[str, tuple[str, str]], root: str = _ROOT, library: str | None = None
) -> str | None:
    """In a source checkout (``root``), the first source changed since it was compiled:
    since the compiled library was built (or, without it, its module's extension)."""
    if not os.path.isfile(os.path.join(root, "pyproject.toml")):
        return None  # an installed package: its files are as the build left them
    built = None
    if library is not None:
        try:
            built = os.path.getmtime(library)
        except OSError:
            built = None
    for source, extension in compiled.values():
        try:
            when = built if built is not None else os.path.getmtime(extension)
            if os.path.getmtime(source) > when:
                return os.path.relpath(source, root)
        except OSError:
            continue
    return None


class _FromSource:
    """A finder, first on ``sys.meta_path``, that imports compiled modules from source."""

    def __init__(self, sources: dict[str, str]) -> None:
        self.sources = sources

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        source = self.sources.get(fullname)
        if source is None:
            return None
        if os.path.basename(source) == "__init__.py":
            return importlib.util.spec_from_file_location(
                fullname, source, submodule_search_locations=[os.path.dirname(source)]
            )
        return importlib.util.spec_from_file_location(fullname, source)


def choose() -> None:
    """Import the engine compiled, or from its sources (see above); sets :data:`build`."""
    global build
    compiled = compiled_modules()
    if not compiled:
        build = "pure Python"
        return
    reason = None
    if os.environ.get(PURE_VARIABLE) == "1":
        reason = f"{PURE_VARIABLE}=1"
    else:
        changed = stale(compiled, library=_library())
        if changed is not None:
            reason = f"{changed} changed since it was compiled: pip install -e . compiles it again"
    if reason is None:
        build = "compiled (mypyc)"
        return
    build = f"pure Python ({reason})"
    sys.meta_path.insert(0, _FromSource({name: pair[0] for name, pair in compiled.items()}))
