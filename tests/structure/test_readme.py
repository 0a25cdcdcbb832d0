"""The README's examples run: its console sessions print what they show, its Python is doctested.

A ``$ adjudicator ...`` line in a ``console`` block is run (in a folder
holding the files the page writes out: a JSON block after a line
``<!-- file: NAME -->`` is the file NAME) and its output compared line by
line with the block.  The Python blocks are doctests, run from the
repository root, and so is the package's own docstring.
"""

from __future__ import annotations

import doctest
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli.commands import main

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def sessions(page: Path) -> list[tuple[str, str]]:
    """(command line, expected output) for every ``$ adjudicator`` in a console block."""
    out = []
    for block in re.findall(r"```console\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
        parts = re.split(r"^\$ ", block, flags=re.M)
        for part in parts[1:]:
            command, _, output = part.partition("\n")
            out.append((command, output))
    return out


WALKTHROUGH = sessions(README)
FILES = re.findall(r"<!-- file: ([\w.-]+) -->\n```json\n(.*?)```", README.read_text("utf-8"), re.S)


def test_the_walkthrough_has_its_steps() -> None:
    commands = [c.split()[1] for c, _ in WALKTHROUGH]
    assert commands == [
        "check",
        "explain",
        "legal",
        "replay",
        "check",
        "check",
        "legal",
        "check",
        "explain",
    ]
    assert [name for name, _ in FILES] == ["dispute.json", "kitchen.json", "kitchen-unknown.json"]


@pytest.mark.parametrize(("command", "expected"), WALKTHROUGH, ids=[c for c, _ in WALKTHROUGH])
def test_the_walkthrough_prints_what_it_shows(
    command: str, expected: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, text in FILES:
        (tmp_path / name).write_text(text, encoding="utf-8")
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


def test_the_python_examples_are_doctests(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    assert doctest.DocTestParser().get_examples(README.read_text(encoding="utf-8"))
    result = doctest.testfile(
        str(README), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
    )
    assert result.failed == 0


def test_the_package_docstring_is_a_doctest_that_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    import adjudicator

    monkeypatch.chdir(ROOT)
    result = doctest.testmod(adjudicator, verbose=False)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_shell_completion_as_documented(shell: str) -> None:
    assert f"_ADJUDICATOR_COMPLETE={shell}_source adjudicator" in README.read_text(encoding="utf-8")
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


def test_the_library_page_examples_are_doctests(monkeypatch: pytest.MonkeyPatch) -> None:
    page = ROOT / "docs" / "library.md"
    monkeypatch.chdir(ROOT)
    assert len(doctest.DocTestParser().get_examples(page.read_text(encoding="utf-8"))) > 20
    result = doctest.testfile(str(page), module_relative=False, verbose=False)
    assert result.failed == 0


# --- the README says what the tool prints (issue 24, points 6 and 11) --------------


SAMPLES = ROOT / "sample_games"


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    """Exit status, standard output and standard error of one command."""
    result = CliRunner().invoke(main, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def _readme() -> str:
    return " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())


def test_the_readme_says_what_the_bot_walkthrough_prints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Checking a bot's games", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"^(adjudicator [^#\n]*?)\s*(?:#.*)?$", section, re.M)
    assert [c.split()[1] for c in commands] == ["simulate", "check", "replay"]
    monkeypatch.chdir(tmp_path)
    simulate = shlex.split(commands[0].split(">")[0])[1:]
    count = simulate.index("--count") + 1
    simulate[count] = "25"  # the walkthrough's 1000, fewer
    code, games, _ = run(*simulate)
    assert code == 0
    Path(commands[0].split(">")[1].strip()).write_text(games, encoding="utf-8")
    code, out, _ = run(*shlex.split(commands[1])[1:])
    assert code == 0
    assert "25 legal verdicts not shown (--all)" in out
    assert "legal verdicts not shown (--all)" in section
    assert Path("bad.jsonl").read_text(encoding="utf-8") == ""
    code, out, _ = run(*shlex.split(commands[2])[1:])
    assert code == 2
    said = re.search(r"the replay says `([^`]*)`", " ".join(section.split()))
    assert said is not None
    assert out.strip() == said.group(1)


def test_the_readme_shows_the_undetermined_check_as_printed() -> None:
    code, out, _ = run("check", str(SAMPLES / "helmfrid_dispute_unknown.json"))
    assert code == 0
    undetermined = [line for line in out.splitlines() if line.startswith(("? ", "  rule "))]
    assert len(undetermined) == 2
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for line in undetermined:
        assert f"\n{line}\n" in readme


def test_the_readme_explains_each_list_legal_prints_with_hidden_cards() -> None:
    _, out, _ = run("legal", str(SAMPLES / "helmfrid_dispute_unknown.json"), "--at", "2")
    headings = [line.split(" (")[0] for line in out.splitlines() if line.startswith("With a card")]
    assert headings == [
        "With a card nobody has seen, also legal",
        "With a card nobody has seen, legal if the hidden cards allow it",
    ]
    readme = _readme()
    assert "legal *if the hidden cards allow it*" in readme
    assert "legal with a card nobody has seen, if the hidden card is that one" in readme


def test_the_readme_says_the_svg_shows_the_table_before_the_action(tmp_path: Path) -> None:
    target = tmp_path / "ruling.svg"
    record = str(SAMPLES / "illegal_phase2_beat.json")
    run("replay", record, "--step", "2", "--svg", str(target))
    assert "Before action 2:" in target.read_text(encoding="utf-8").replace("&#160;", " ")
    assert "the table before the action, the refused play framed in red" in _readme()
    assert "before the trick" not in _readme()
