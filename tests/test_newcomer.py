"""What a new user tripped on (issue 24): each point as the user met it."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli.commands import main

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_games"


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    """Exit status, standard output and standard error of one command."""
    result = CliRunner().invoke(main, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def write(tmp_path: Path, name: str, record: dict[str, object]) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(record), encoding="utf-8")
    return str(path)


# --- 2: a refused action is narrated as it was attempted ----------------------------


def test_a_refused_pick_is_narrated_with_the_cards_attempted() -> None:
    code, out, _ = run("replay", str(SAMPLES / "illegal_phase2_pick_cards.json"), "--step", "3")
    assert code == 1
    assert "[3] C tries to pick up 5♥ 8♥\n" in out
    assert "tries to pick up 8♥\n" not in out


def test_a_refused_pick_of_one_wrong_card_names_that_card(tmp_path: Path) -> None:
    record = {
        "format": "skitgubbe-record/1",
        "variant": "pagat",
        "players": ["Anna", "Bo", "Cai"],
        "start": {
            "phase": 2,
            "trump": "S",
            "leader": "Anna",
            "hands": {"Anna": ["5D", "KH"], "Bo": ["8D", "2C"], "Cai": ["7C", "3D"]},
        },
        "actions": ["Anna play 5D", "Bo play 8D", "Cai pick 5D"],
    }
    code, out, _ = run("replay", write(tmp_path, "pick.json", record), "--step", "3")
    assert code == 1, out
    assert "[3] Cai tries to pick up 5♦\n" in out
    assert "✗ illegal action 3: Cai pick 5D" in out


# --- 3: after an illegal sluff, the next player's actions are labelled as theirs -----


def test_an_illegal_sluff_says_the_sluffer_had_none_and_whose_the_list_is() -> None:
    code, out, _ = run("check", str(SAMPLES / "illegal_phase1_sluff_once.json"))
    assert code == 1
    assert "✗ illegal action 5: Cai sluff KS" in out
    assert "legal instead: none, Cai had no legal sluff there\n" in out
    assert "  next, Anna to act: Anna play 6H, Anna play TH" in out
    assert "legal instead: Anna" not in out


def test_several_who_may_act_next_are_named_with_or() -> None:
    _, out, _ = run("check", str(SAMPLES / "illegal_deal_shuffler.json"))
    assert "legal instead: none, Bo had no legal deal there\n" in out
    assert "  next, Anna or Cai to act:\n" in out


def test_the_actors_own_alternatives_keep_their_label() -> None:
    _, out, _ = run("check", str(SAMPLES / "illegal_phase2_beat.json"))
    assert "  legal instead: B pick" in out
    assert "next," not in out


def test_the_sluffers_view_does_not_show_the_next_players_hand() -> None:
    record = str(SAMPLES / "illegal_phase1_sluff_once.json")
    _, out, _ = run("replay", record, "--step", "4", "--as", "Cai")
    assert "next, Anna to act: Anna dare\n" in out
    assert "and 5 more with Anna's cards (hidden from Cai)" in out
    assert "Anna play 6H" not in out


# --- 7: the hint to list the unseen alternatives runs as printed --------------------

KITCHEN = {
    "format": "skitgubbe-record/1",
    "variant": "helmfrid",
    "options": {"compulsory_ties": True},
    "players": ["Anna", "Bo", "Cai"],
    "start": {
        "phase": 1,
        "leader": "Anna",
        "hands": {"Anna": ["??", "??", "??"], "Bo": ["KD", "7C", "??"], "Cai": ["??"] * 3},
        "stock": ["??"] * 10,
    },
    "actions": ["Anna play KS", "Bo play 7C"],
}


def test_the_hint_names_the_file_and_runs_as_printed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "my kitchen.json", KITCHEN)
    _, out, _ = run("check", "my kitchen.json")
    hint = re.search(r"\('adjudicator (legal [^']*)' lists them\)", out)
    assert hint is not None, out
    assert hint.group(1) == 'legal "my kitchen.json" --at 2'
    code, listed, _ = run(*shlex.split(hint.group(1)))
    assert code == 0
    assert "With a card nobody has seen, also legal (2):\n  Bo play KH, Bo play KC" in listed


def test_the_hint_for_standard_input_says_to_save_the_record() -> None:
    _, out, _ = run("check", "-", stdin=json.dumps(KITCHEN))
    assert "(save the record as FILE: 'adjudicator legal FILE --at 2' lists them)" in out


def test_a_line_of_json_lines_is_named_as_check_names_it(tmp_path: Path) -> None:
    lines = tmp_path / "games.jsonl"
    lines.write_text(json.dumps(KITCHEN) + "\n" + json.dumps(KITCHEN) + "\n", encoding="utf-8")
    _, out, _ = run("check", str(lines))
    assert f"'adjudicator legal {lines}:2 --at 2' lists them" in out


# --- 13: the option grid never breaks a value -----------------------------------------


@pytest.mark.parametrize("width", [80, 100, 160])
def test_the_option_grid_never_breaks_a_value(width: int) -> None:
    import io

    from rich.console import Console

    from adjudicator import service
    from adjudicator.render import terminal as render

    every = service.variants()
    words = {"option", "Options", "by", "variant", "of", *(e.name for e in every)}
    for each in every:
        for option in each.options:
            words.add(option.name)
            words.add(json.dumps(option.value).strip('"'))
    buffer = io.StringIO()
    Console(file=buffer, width=width, color_system=None).print(render.option_grid(every))
    lines = buffer.getvalue().splitlines()
    assert all(len(line) <= width for line in lines)
    for line in lines:
        for token in line.replace("─", " ").split():
            assert token.strip("()") in words or token.strip("()").isdigit(), (width, token, line)
    shown = " ".join(lines)
    for each in every:
        assert f" {each.name} " in shown


def test_the_variants_command_at_100_columns_keeps_every_value_whole() -> None:
    code, out, _ = run("variants")
    assert code == 0
    for broken in ("helmfr\n", "not_re", "ceivin"):
        assert not any(line.rstrip().endswith(broken.strip()) for line in out.splitlines())
    assert "not_receiving" in out


# --- 8: a file and the same records piped to '-' print the same ---------------------


def _games(tmp_path: Path, count: int) -> Path:
    code, games, _ = run("simulate", "--count", str(count), "--seed", "7")
    assert code == 0
    bad = json.loads((SAMPLES / "illegal_phase2_beat.json").read_text(encoding="utf-8"))
    lines = games.splitlines()
    lines.insert(3, json.dumps(bad))
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_file_and_standard_input_print_the_same_verdicts(tmp_path: Path) -> None:
    path = _games(tmp_path, 24)
    code, from_file, _ = run("check", str(path))
    piped_code, piped, _ = run("check", "-", stdin=path.read_text(encoding="utf-8"))
    assert code == piped_code == 1
    assert from_file.replace(f"{path}:", "-:") == piped
    assert f"{path}:4: illegal" in from_file
    assert ": legal" not in from_file
    assert "24 legal verdicts not shown (--all)" in from_file
    assert "Checked 25 records" in from_file


def test_up_to_twenty_records_every_verdict_is_shown_both_ways(tmp_path: Path) -> None:
    path = _games(tmp_path, 5)
    _, from_file, _ = run("check", str(path))
    _, piped, _ = run("check", "-", stdin=path.read_text(encoding="utf-8"))
    assert from_file.replace(f"{path}:", "-:") == piped
    assert from_file.count(": legal") == 5
    assert "not shown" not in from_file


def test_all_shows_every_verdict(tmp_path: Path) -> None:
    path = _games(tmp_path, 24)
    _, out, _ = run("check", "--all", "-", stdin=path.read_text(encoding="utf-8"))
    assert out.count(": legal") == 24
    assert "not shown" not in out


# --- 9: a path with no record is counted, and said before the summary ---------------


def test_a_folder_with_no_record_is_counted_in_the_summary(tmp_path: Path) -> None:
    (tmp_path / "emptydir").mkdir()
    mine = tmp_path / "mine"
    mine.mkdir()
    for name in ("illegal_phase2_beat.json", "pagat_3p_full.json"):
        (mine / name).write_text((SAMPLES / name).read_text(encoding="utf-8"), encoding="utf-8")
    code, out, err = run("check", str(tmp_path / "emptydir"), str(mine))
    assert code == 2
    assert (
        err.strip()
        == f"{tmp_path / 'emptydir'}: no record found: a folder is searched for *.json files"
    )
    assert "Checked 2 records; 1 path held none" in out
    assert re.search(r"paths with no record\s*│\s*1 │", out), out


def test_one_record_and_an_empty_folder_still_get_the_summary(tmp_path: Path) -> None:
    (tmp_path / "emptydir").mkdir()
    code, out, _ = run("check", str(tmp_path / "emptydir"), str(SAMPLES / "pagat_3p_full.json"))
    assert code == 2
    assert "Checked 1 record; 1 path held none" in out


def test_the_empty_folder_line_comes_before_the_verdicts(tmp_path: Path) -> None:
    import subprocess
    import sys

    (tmp_path / "emptydir").mkdir()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "adjudicator",
            "check",
            "emptydir",
            str(SAMPLES / "pagat_3p_full.json"),
        ],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        check=False,
    )
    lines = done.stdout.splitlines()
    assert done.returncode == 2
    assert lines[0].startswith("emptydir: no record found"), lines
    assert lines[-1].startswith("└")


# --- 6: README's bot walkthrough, and naming one line of JSON Lines ----------------


def test_an_empty_json_lines_file_is_named_once(tmp_path: Path) -> None:
    empty = tmp_path / "bad.jsonl"
    empty.write_text("", encoding="utf-8")
    code, out, _ = run("replay", f"{empty}:1")
    assert code == 2
    assert out.strip() == f"{empty}:1: invalid · no record on line 1: the file is empty"


def test_line_zero_says_lines_count_from_one(tmp_path: Path) -> None:
    path = _games(tmp_path, 2)
    code, out, _ = run("replay", f"{path}:0")
    assert code == 2
    assert out.strip() == f"{path}:0: invalid · lines count from 1: the first record is {path}:1"


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


# --- 11: README says what the tool prints ------------------------------------------


def _readme() -> str:
    return " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())


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


def test_the_hint_for_one_game_of_a_session_names_the_game() -> None:
    from adjudicator.render import terminal as render

    # index 5 is the sixth action, game 1 (from 0, as JSON's "game") the second
    assert render.legal_hint(("night.json", 1), 5) == (
        "'adjudicator legal night.json --at 6 --game 2' lists them"
    )
    assert render.legal_hint("night.json", 5, 1) == (
        "'adjudicator legal night.json --at 6 --game 2' lists them"
    )
