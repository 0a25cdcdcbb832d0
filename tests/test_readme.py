"""The README's examples run: its console sessions print what they show, its Python is doctested.

A ``$ adjudicator ...`` line in a ``console`` block is run (in a folder
holding the walkthrough's ``dispute.json``, taken from the page's first JSON
block) and its output compared line by line with the block.  The Python
blocks are doctests, run from the repository root.
"""

from __future__ import annotations

import doctest
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli import main

ROOT = Path(__file__).resolve().parent.parent
PAGES = [p for p in (ROOT / "README.md", ROOT / "docs" / "README-draft-cli.md") if p.exists()]


def sessions(page: Path) -> list[tuple[str, str]]:
    """(command line, expected output) for every ``$ adjudicator`` in a console block."""
    out = []
    for block in re.findall(r"```console\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
        parts = re.split(r"^\$ ", block, flags=re.M)
        for part in parts[1:]:
            command, _, output = part.partition("\n")
            out.append((command, output))
    return out


DRAFT = ROOT / "docs" / "README-draft-cli.md"
WALKTHROUGH = sessions(DRAFT)


def test_the_walkthrough_has_its_steps() -> None:
    commands = [c.split()[1] for c, _ in WALKTHROUGH]
    assert commands == ["check", "explain", "legal", "replay"]


@pytest.mark.parametrize(("command", "expected"), WALKTHROUGH, ids=[c for c, _ in WALKTHROUGH])
def test_the_walkthrough_prints_what_it_shows(
    command: str, expected: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = re.search(r"```json\n(.*?)```", DRAFT.read_text(encoding="utf-8"), re.S)
    assert record is not None
    (tmp_path / "dispute.json").write_text(record.group(1), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    words = shlex.split(command)
    stdin = None
    if "<" in words:
        at = words.index("<")
        stdin = (tmp_path / words[at + 1]).read_text(encoding="utf-8")
        words = words[:at]
    assert words[0] == "adjudicator"
    result = CliRunner().invoke(main, words[1:], input=stdin)
    assert result.stdout.rstrip("\n") == expected.rstrip("\n")
    for option in ("--svg", "--html"):
        if option in words:
            assert (tmp_path / words[words.index(option) + 1]).read_text(encoding="utf-8")


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_the_python_examples_are_doctests(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = doctest.testfile(
        str(page), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
    )
    assert result.failed == 0


def test_the_draft_has_python_examples() -> None:
    assert doctest.DocTestParser().get_examples(DRAFT.read_text(encoding="utf-8"))


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_shell_completion_as_documented(shell: str) -> None:
    assert f"_ADJUDICATOR_COMPLETE={shell}_source adjudicator" in DRAFT.read_text(encoding="utf-8")
    result = CliRunner().invoke(
        main, [], env={"_ADJUDICATOR_COMPLETE": f"{shell}_source"}, prog_name="adjudicator"
    )
    assert result.exit_code == 0 and "adjudicator" in result.stdout


def test_explain_completes_rule_ids() -> None:
    env = {
        "_ADJUDICATOR_COMPLETE": "bash_complete",
        "COMP_WORDS": "adjudicator explain phase2.pick",
        "COMP_CWORD": "2",
    }
    result = CliRunner().invoke(main, [], env=env, prog_name="adjudicator")
    assert "plain,phase2.pick.cards" in result.stdout.splitlines()
