"""The package is installed by its own name and carries what a user of it needs.

The distribution is ``skitgubbe-adjudicator`` ("adjudicator" on the package index is
another project's); every install line in README and docs must name this project.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from importlib import metadata
from pathlib import Path

import pytest
from click.testing import CliRunner

import adjudicator
from adjudicator import samples
from adjudicator.cli.commands import main

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
NAME = "skitgubbe-adjudicator"
PAGES = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((ROOT / "adjudicator").rglob("*.py")),  # hints the tool prints
]
INSTALL = re.compile(r"pip install ([^\n`#]*)")
QUOTED_INSTALL = re.compile(r"pip install ('[^'\n]+')")
"""In code, where prose mentions pip too, the quoted install lines a hint prints."""


def test_the_distribution_has_a_name_of_its_own() -> None:
    assert PYPROJECT["project"]["name"] == NAME
    assert PYPROJECT["project"]["scripts"] == {"adjudicator": "adjudicator.cli:main"}


def _targets(line: str) -> list[str]:
    """The requirements a ``pip install`` line names (options and their values left out)."""
    words = [w.strip("'\"") for w in line.split()]
    out, skip = [], False
    for word in words:
        if skip:
            skip = False
        elif word in ("-r", "-c", "--requirement", "--constraint", "-w", "-d"):
            skip = True
        elif word and not word.startswith("-") and not word.startswith("&"):
            out.append(word)
        if word in ("&&", "||", ";", "|"):
            break
    return out


def test_every_install_line_names_this_project() -> None:
    allowed = re.compile(
        rf"^(\.|\.\[[a-z,]+\]|{NAME}(\[[a-z,]+\])?|dist/skitgubbe_adjudicator-\*\.whl)$"
    )
    others = {"chess", "mypy", "playwright"}  # named on purpose: benchmarks and tools
    seen = 0
    for page in PAGES:
        lines = (QUOTED_INSTALL if page.suffix == ".py" else INSTALL).findall(
            page.read_text(encoding="utf-8")
        )
        for line in lines:
            for target in _targets(line):
                seen += 1
                assert allowed.match(target) or target in others, (
                    f"{page.relative_to(ROOT)}: 'pip install {line.strip()}' names {target!r}, "
                    f"not this project ({NAME})"
                )
    assert seen >= 3


def test_the_install_line_check_catches_the_other_project() -> None:
    assert _targets("'adjudicator[dask]'") == ["adjudicator[dask]"]
    assert _targets("-e '.[test]' && pytest") == [".[test]"]


def test_the_test_extra_includes_the_dask_extra_by_reference() -> None:
    extras = PYPROJECT["project"]["optional-dependencies"]
    assert f"{NAME}[dask]" in extras["test"]
    assert not set(extras["dask"]) & set(extras["test"])


RELEASE = re.compile(r"\d+\.\d+\.\d+")
BETWEEN = re.compile(r"\d+\.\d+\.\d+\.dev\d+(\+g[0-9a-f]+(\.d\d{8})?)?")
"""A tag's version (0.3.0), or setuptools-scm's between tags (0.3.1.dev4+g1a2b3c4.d20261128)."""


def test_one_version_everywhere() -> None:
    # --version, the installed distribution's metadata (what pip and the wheel's name say)
    # and the package agree; a release has its CHANGELOG section, a build between tags
    # gathers under "Unreleased"
    assert RELEASE.fullmatch(adjudicator.__version__) or BETWEEN.fullmatch(adjudicator.__version__)
    assert metadata.version(NAME) == adjudicator.__version__
    result = CliRunner().invoke(main, ["--version"])
    version, engine = result.stdout.strip().split("\n")
    assert version == f"adjudicator, version {adjudicator.__version__}"
    assert engine in ("engine: compiled (mypyc)", "engine: pure Python") or engine.startswith(
        "engine: pure Python ("
    )
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    if RELEASE.fullmatch(adjudicator.__version__):
        assert f"## {adjudicator.__version__} " in changelog
    else:
        assert "\n## Unreleased\n" in changelog


def test_the_samples_are_package_data_and_the_command_shows_them() -> None:
    on_disk = sorted(p.name for p in (ROOT / "sample_games").glob("*.json"))
    assert samples.names() == on_disk
    listing = CliRunner().invoke(main, ["samples"])
    assert listing.exit_code == 0
    assert len(listing.stdout.splitlines()) == len(on_disk)
    one = CliRunner().invoke(main, ["samples", "illegal_phase2_beat"])
    assert json.loads(one.stdout)["variant"] == "pagat"
    missing = CliRunner().invoke(main, ["samples", "no_such_game"])
    assert missing.exit_code == 2
    assert "no sample called 'no_such_game'" in missing.stderr


def test_explain_names_samples_a_wheel_has() -> None:
    out = CliRunner().invoke(main, ["explain", "phase2.beat"]).stdout
    assert "adjudicator samples illegal_phase2_beat" in out
    assert "sample_games/" not in out


def test_no_file_the_project_did_not_write_is_tracked() -> None:
    listed = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    if listed.returncode != 0:
        pytest.fail("git ls-files failed: run the suite from a clone of the repository")
    bad = [f for f in listed.stdout.splitlines() if re.search(r"\.(whl|tar\.gz|egg|so|pyc)$", f)]
    assert bad == []


def _working_copy(into: Path) -> Path:
    """The checkout's files as they are (tracked, and new ones git does not ignore), links
    as links: a build writes its build/ and .egg-info there, never into the checkout."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout.decode()  # fmt: skip
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.exists() or source.is_symlink():  # not one deleted since
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, into / name, follow_symlinks=False)
    return into


def test_a_wheel_carries_the_samples_the_licence_and_the_type_marker(tmp_path: Path) -> None:
    # Pure Python: what a wheel carries besides the compiled engine is the point here, and
    # the suite's own install has already compiled it (.ci/run checks that it did).
    source = _working_copy(tmp_path / "source")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", str(source), "-w", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
        # the copy has no git history: the version is given (setuptools-scm)
        env={**os.environ, "ADJUDICATOR_PURE": "1", "SETUPTOOLS_SCM_PRETEND_VERSION": "1.2.3"},
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp_path.glob("skitgubbe_adjudicator-1.2.3-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    shipped = sorted(Path(n).name for n in names if n.startswith("adjudicator/sample_games/"))
    assert shipped == samples.names()
    assert "adjudicator/py.typed" in names
    assert "adjudicator/record/confusables_table.txt" in names  # a data table, not source
    # what 'adjudicator site' builds from, from an installed wheel too
    for built_from in (
        "adjudicator/web/pins/package.json",
        "adjudicator/web/pins/package-lock.json",
        "adjudicator/web/pins/requirements-pyodide.txt",
        "adjudicator/web/precompile.mjs",
        "adjudicator/web/static/worker.js",
        "adjudicator/web/static/engine.js",
        "adjudicator/web/static/sw.js",
    ):
        assert built_from in names, built_from
    assert any(n.endswith("licenses/LICENSE") for n in names)
    meta = (
        zipfile.ZipFile(wheel)
        .read(next(n for n in names if n.endswith(".dist-info/METADATA")))
        .decode()
    )
    assert f"Name: {NAME}" in meta and "Classifier: Typing :: Typed" in meta
