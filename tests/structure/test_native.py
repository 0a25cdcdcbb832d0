"""The compiled engine (setup.py, adjudicator/_native.py): the same verdicts as pure Python.

The compiled modules are built from the same sources; what could differ is how mypyc
holds the code to its type annotations.  So every sample is checked, and seeded games
of every preset are simulated (with hidden cards too), by both builds, and the outputs
must be byte-identical.  When the installed package has no compiled modules (a build
with ADJUDICATOR_PURE=1, or one without a C compiler) both runs are pure Python, and
``.ci/run`` fails such a build itself.
"""

from __future__ import annotations

import ast
import importlib.machinery
import os
import subprocess
import sys
from pathlib import Path

import pytest

import adjudicator
from adjudicator import _native
from adjudicator.engine.options import Options
from adjudicator.rules.options import RuleOptions, engine_source
from adjudicator.rules.presets import PRESETS

ROOT = Path(__file__).resolve().parents[2]
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def _run(args: list[str], pure: bool) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ)
    env.pop(_native.PURE_VARIABLE, None)
    if pure:
        env[_native.PURE_VARIABLE] = "1"
    return subprocess.run(
        [sys.executable, "-m", "adjudicator", *args], capture_output=True, env=env, cwd=ROOT
    )


def test_pure_python_is_chosen_by_the_variable() -> None:
    code = "import adjudicator.engine.phase_two as m, adjudicator._native as n; print(m.__file__)"
    env = {**os.environ, _native.PURE_VARIABLE: "1"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, env=env, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith(os.path.join("engine", "phase_two.py"))
    version = _run(["--version"], pure=True).stdout.decode()
    assert "engine: pure Python" in version


def test_the_build_said_is_the_build_imported() -> None:
    """--version's word (decided on the package's first import) is what runs: compiled
    modules, or every one of them from its source.  (.ci/run fails a build that did not
    compile, so there this is the compiled branch.)"""
    engine_file = adjudicator.engine.__file__
    assert engine_file is not None
    if _native.build != "compiled (mypyc)":
        assert engine_file.endswith(".py")
        assert adjudicator.play.replaying.__file__.endswith(".py")
        return
    compiled = _native.compiled_modules()
    assert not engine_file.endswith(".py")
    assert {
        "adjudicator.engine",
        "adjudicator.engine.phase_two",
        "adjudicator.play.replaying",
    } <= set(compiled)


def test_every_sample_checks_the_same_in_both_builds() -> None:
    args = ["check", "--json", "sample_games"]
    compiled, pure = _run(args, pure=False), _run(args, pure=True)
    assert compiled.returncode == pure.returncode == 2  # the samples hold invalid records too
    assert compiled.stdout.count(b"\n") >= 100
    assert compiled.stdout == pure.stdout
    assert compiled.stderr == pure.stderr


def test_app_logs_import_the_same_in_both_builds(tmp_path: Path) -> None:
    """The Goat log's replay into a record is compiled too (importers/goat_replay.py): its
    records and its one-line errors, on logs broken in every way a field can be, are the
    pure build's, byte for byte."""
    logs = ROOT / "tests" / "importers" / "import_logs"
    lines = (logs / "goat_batch.jsonl").read_text().splitlines()
    broken = [lines[0].replace('"card": "', '"card": 7, "x": "', k) for k in (1, 5, 40)]
    broken += [lines[0].replace('{"type": "pickUp"', '5, {"type": "pickUp"', 1)]
    broken += [lines[0].replace('"lo": "', '"lo": ["', 1).replace('", "hi"', '"], "hi"', 1)]
    broken += [lines[0].replace('"player": ', '"player": "', 3)]
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text("\n".join([*lines, *broken]) + "\n")
    for args in (
        ["check", "--from", "goat-events", "--json", str(mixed)],
        ["check", "--from", "goat-events", "--rules", "text", "--json", str(logs)],
        ["import", "goat-events", str(mixed)],
    ):
        compiled, pure = _run(args, pure=False), _run(args, pure=True)
        assert compiled.returncode == pure.returncode, args
        assert compiled.stdout == pure.stdout, args
        assert compiled.stderr == pure.stderr, args


@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_simulated_games_are_the_same_in_both_builds(variant: str) -> None:
    """Generation (legal_actions) and apply, through every act: byte-identical records,
    which then check legal in the other build."""
    players = "5" if variant == "goat" else "3"
    args = ["simulate", "--variant", variant, "--players", players, "--seed", "3", "--count", "6"]
    compiled, pure = _run(args, pure=False), _run(args, pure=True)
    assert compiled.returncode == pure.returncode == 0, compiled.stderr
    assert compiled.stdout == pure.stdout
    hidden = [*args, "--hide", "0.3"]
    assert _run(hidden, pure=False).stdout == _run(hidden, pure=True).stdout


def _fake_package(tmp_path: Path, newer_source: bool) -> Path:
    package = tmp_path / "adjudicator"
    (package / "engine").mkdir(parents=True)
    for stem in ("engine/__init__", "engine/phase_two", "cards"):
        source, extension = package / f"{stem}.py", package / f"{stem}{SUFFIX}"
        source.write_text("")
        extension.write_text("")
        older, newer = (
            (extension, source)
            if newer_source and stem == "cards"
            else (
                source,
                extension,
            )
        )
        os.utime(older, (1_000_000, 1_000_000))
        os.utime(newer, (2_000_000, 2_000_000))
    (package / "engine" / "events.py").write_text("")  # a module left uncompiled
    return package


def test_compiled_modules_are_found_beside_their_sources(tmp_path: Path) -> None:
    package = _fake_package(tmp_path, newer_source=False)
    found = _native.compiled_modules(str(package))
    assert set(found) == {"adjudicator.engine", "adjudicator.engine.phase_two", "adjudicator.cards"}
    source, extension = found["adjudicator.engine.phase_two"]
    assert source.endswith("phase_two.py") and extension.endswith(SUFFIX)


def test_a_source_changed_since_its_build_is_stale_only_in_a_checkout(tmp_path: Path) -> None:
    fresh = _native.compiled_modules(str(_fake_package(tmp_path / "a", newer_source=False)))
    changed = _native.compiled_modules(str(_fake_package(tmp_path / "b", newer_source=True)))
    for folder in ("a", "b"):
        (tmp_path / folder / "pyproject.toml").write_text("")
    assert _native.stale(fresh, str(tmp_path / "a")) is None
    assert _native.stale(changed, str(tmp_path / "b")) == os.path.join("adjudicator", "cards.py")
    # The library holds the code: a module's own extension may be older than a rebuild.
    library = tmp_path / f"{_native.LIBRARY}{SUFFIX}"
    library.write_text("")
    os.utime(library, (3_000_000, 3_000_000))
    assert _native.stale(changed, str(tmp_path / "b"), str(library)) is None
    os.utime(library, (500_000, 500_000))
    assert _native.stale(fresh, str(tmp_path / "a"), str(library)) is not None
    (tmp_path / "b" / "pyproject.toml").unlink()  # installed: the files are as built
    assert _native.stale(changed, str(tmp_path / "b")) is None


def _annotations(path: Path, class_name: str) -> dict[str, str]:
    """A class's annotated names and their annotations, as written in its source."""
    tree = ast.parse(path.read_text())
    body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name)
    return {
        n.target.id: ast.unparse(n.annotation)
        for n in body.body
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
    }


def test_the_engines_options_are_generated_from_rule_options() -> None:
    """engine/option_fields.py is what RuleOptions' generator writes (no field written by
    hand): every field, with the same type, and (for every preset at every seat count) the
    same value."""
    package = Path(adjudicator.__file__).parent
    generated = package / "engine" / "option_fields.py"
    assert generated.read_text(encoding="utf-8") == engine_source(), (
        "an option changed: write engine/option_fields.py again (docs/development.md)"
    )
    theirs = _annotations(package / "rules" / "options.py", "RuleOptions")
    mine = _annotations(generated, "Options")
    assert mine.pop("min_run") == "int"
    assert {k: v.replace('"', "'") for k, v in mine.items()} == theirs
    for preset in PRESETS.values():
        low, high = preset.options.min_players, min(preset.options.max_players, 12)
        for players in range(low, high + 1):
            options = preset.options_for(players)
            copy = Options(options)
            for name in RuleOptions.model_fields:
                assert getattr(copy, name) == getattr(options, name), (preset.name, name)
            assert copy.min_run == options.min_run


def test_the_stale_check_looks_where_setup_compiles() -> None:
    """Every module setup.py compiles lies in a folder _native looks in, or an edit to it
    would go unnoticed while its old compiled code ran."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    compiled = next(
        node.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets)
    )
    paths = ast.literal_eval(compiled)
    assert len(paths) >= 10
    for path in paths:
        folder = str(Path(path).parent.relative_to("adjudicator"))
        assert (folder if folder != "." else "") in _native._PACKAGES, path
