"""Build: the rules engine compiled to C with mypyc, or pure Python.

Everything else about the package is in pyproject.toml; this file only adds the
compiled modules.  mypyc (part of mypy, which the project already uses for its
type checks) turns the engine's type-annotated modules into C extensions: the
same source, the same behaviour, two to three times the speed of replay and
generation (docs/speed.md).  The engine's hot path is one Python call after
another (check, apply, generate per action), and no rearranging of Python code
removes that cost.

The build falls back to pure Python, with a warning, when no C compiler is there or
mypyc fails; ``ADJUDICATOR_PURE=1`` asks for pure Python outright (at build time: no
extension is built; at run time: compiled modules are not imported, see
adjudicator/_native.py).
"""

from __future__ import annotations

import os
import sys
import sysconfig
import tempfile
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

COMPILED = [
    "adjudicator/actions.py",
    "adjudicator/engine/__init__.py",
    "adjudicator/engine/common.py",
    "adjudicator/engine/deals.py",
    "adjudicator/engine/intermission.py",
    "adjudicator/engine/option_fields.py",
    "adjudicator/engine/options.py",
    "adjudicator/engine/phase_one_all.py",
    "adjudicator/engine/phase_one_pairs.py",
    "adjudicator/engine/phase_two.py",
    "adjudicator/engine/state.py",
    "adjudicator/importers/goat_replay.py",
    "adjudicator/play/replaying.py",
    "adjudicator/play/simulate.py",
]
"""The modules the replay and generation loops run through, action after action (and the
Goat app's log replayed into a record, event after event).

Not compiled: the engine's events and violations (their classes are made and compared
the Python way, and are built only when somebody reads them), the record reader
(pydantic does its work in Rust already), and every edge (CLI, renderers, page)."""


def _warn(text: str) -> None:
    print(f"adjudicator build: {text}; building pure Python instead", file=sys.stderr)


def _can_compile() -> bool:
    """Whether a C compiler here builds against this Python's headers."""
    try:
        from setuptools._distutils.ccompiler import new_compiler
        from setuptools._distutils.sysconfig import customize_compiler
    except ImportError:
        return False
    compiler: Any = new_compiler()
    customize_compiler(compiler)
    with tempfile.TemporaryDirectory() as folder:
        source = os.path.join(folder, "probe.c")
        with open(source, "w") as out:
            out.write("#include <Python.h>\nint probe(void) { return 0; }\n")
        try:
            compiler.compile(
                [source], output_dir=folder, include_dirs=[sysconfig.get_paths()["include"]]
            )
        except Exception:
            return False
    return True


BUILDS = {"build", "build_ext", "bdist", "bdist_wheel", "install", "develop", "editable_wheel"}
"""The setup commands that build the extension.  The others (sdist, egg_info, dist_info: an
sdist, or the metadata pip asks for before the wheel) take no compile, nor mypyc's minute."""


def _extensions() -> list[Any]:
    if os.environ.get("ADJUDICATOR_PURE") == "1":
        return []
    if not BUILDS & set(sys.argv[1:]):
        return []
    if not _can_compile():
        _warn("no C compiler that builds against this Python's headers")
        return []
    try:
        from mypyc.build import mypycify

        # The type checker's own config (pyproject.toml, with the pydantic plugin) is read;
        # the build environment holds no edge packages (rich, click), so those are Any here.
        return list(
            mypycify(
                ["--ignore-missing-imports", *COMPILED],
                opt_level="3",
                group_name="adjudicator",  # the library adjudicator__mypyc (_native.LIBRARY)
            )
        )
    except (Exception, SystemExit) as exc:  # mypyc reports a type error by SystemExit
        _warn(f"mypyc failed ({exc})")
        return []


class _BuildExt(build_ext):
    """build_ext that dates every compiled module to the build, rebuilt or not.

    An unchanged engine is not compiled again, so its files keep the first build's
    time; a source whose time moved without its text changing (a checkout back and
    forth) would then look newer than its build forever (adjudicator/_native.py)."""

    def run(self) -> None:
        super().run()
        for extension in self.extensions:
            path = self.get_ext_fullpath(extension.name)
            if os.path.exists(path):
                os.utime(path)


class _BuildPy(build_py):
    """build_py that compiles the message catalogues (``.po`` -> ``.mo``) into the build,
    and copies the sample games in.

    The compiler is adjudicator/i18n.py's own (the standard library and the package's error
    base only, both loaded by path: the package's dependencies need not be installed to
    build it), the one that reads a
    ``.po`` at run time where no ``.mo`` was built (an editable install, a checkout).

    The samples lie in ``sample_games/``; ``adjudicator/sample_games`` is a symbolic link
    there, which an sdist leaves out and a Windows checkout may hold as a one-line text
    file: the build copies the folder itself, wherever it is built from."""

    def run(self) -> None:
        super().run()
        if self.dry_run:
            return
        import importlib.util
        import shutil
        from pathlib import Path

        if not self.distribution.ext_modules:
            # a pure build: an earlier compiled build's modules left in build/ stay out
            import importlib.machinery

            for left in Path(self.build_lib).rglob("*"):
                if left.name.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
                    left.unlink()
        samples = Path(self.build_lib) / "adjudicator" / "sample_games"
        if samples.is_symlink() or samples.is_file():
            samples.unlink()
        samples.mkdir(parents=True, exist_ok=True)
        for game in sorted(Path("sample_games").glob("*.json")):
            shutil.copyfile(game, samples / game.name)

        def load(name: str, path: str) -> Any:
            spec = importlib.util.spec_from_file_location(name, path)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return module

        # i18n's one project import is the error base, a leaf: given it by path, the
        # package itself (and its dependencies) is never imported here.
        sys.modules.setdefault(
            "adjudicator.exceptions",
            load("adjudicator.exceptions", os.path.join("adjudicator", "exceptions.py")),
        )
        i18n = load("_adjudicator_i18n", os.path.join("adjudicator", "i18n.py"))
        for mo in i18n.compile_all(Path(self.build_lib) / "adjudicator" / "locale"):
            print(f"adjudicator build: compiled {mo}", file=sys.stderr)


setup(ext_modules=_extensions(), cmdclass={"build_ext": _BuildExt, "build_py": _BuildPy})
