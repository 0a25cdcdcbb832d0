"""The command line at the table: no silent answers, legal moves, explanations, stdin.

Each test stands for one point a person could otherwise be misled by: an
empty folder that reads as "all legal", a replay footer that contradicts the
record's verdict, a rejected action narrated as if it happened, a list of
alternatives that cannot be pasted back into a record; and what a new user tripped on
(issue 24), each point as the user met it.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import start_record

from adjudicator.bulk import document_from_text
from adjudicator.cli.commands import main
from adjudicator.play.adjudicate import adjudicate
from adjudicator.rules import catalog
from adjudicator.rules.options import RuleOptions
from adjudicator.rules.presets import PRESETS

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_games"
GOOD = start_record({"Anna": "2C 3C", "Bo": "7C 8C 9C", "Cai": "AH"}, ["Anna play 2C"])
BAD = start_record(
    {"Anna": "9H KD", "Bo": "7H 2C KC", "Cai": "3D 7C"}, ["Anna play 9H", "Bo play 7H"]
)


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def sample(name: str) -> str:
    return str(SAMPLES / name)


def text(name: str) -> str:
    return (SAMPLES / name).read_text(encoding="utf-8")


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


# --- 2. wrong or silent answers ----------------------------------------------------


def test_an_empty_folder_is_an_error_not_all_legal(tmp_path: Path) -> None:
    code, out, err = run("check", str(tmp_path))
    assert code == 2 and out == ""
    assert "no record found" in one_line(err)


def test_record_files_are_found_whatever_the_case_of_the_extension(tmp_path: Path) -> None:
    (tmp_path / "GAME.JSON").write_text(json.dumps(GOOD), encoding="utf-8")
    (tmp_path / "other.Json").write_text(json.dumps(BAD), encoding="utf-8")
    code, out, _ = run("check", str(tmp_path))
    assert code == 1
    assert f"{tmp_path / 'GAME.JSON'}: legal" in out
    assert f"{tmp_path / 'other.Json'}: illegal" in out


def test_a_folder_of_json_lines_only_says_what_it_skipped(tmp_path: Path) -> None:
    (tmp_path / "runs.jsonl").write_text(json.dumps(BAD) + "\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("hello", encoding="utf-8")
    code, out, err = run("check", str(tmp_path))
    assert code == 2 and out == ""
    line = one_line(err)
    assert "no record found" in line
    assert "1 JSON Lines file" in line and "1 other file" in line
    assert "name a .jsonl file itself" in line


def test_a_json_lines_file_is_recognised_in_any_case(tmp_path: Path) -> None:
    path = tmp_path / "RUNS.JSONL"
    path.write_text(json.dumps(GOOD) + "\n" + json.dumps(BAD) + "\n", encoding="utf-8")
    code, out, _ = run("check", str(path))
    assert code == 1
    assert f"{path}:1: legal" in out and f"{path}:2: illegal" in out


def test_an_empty_json_lines_file_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "none.jsonl"
    path.write_text("\n\n", encoding="utf-8")
    code, _, err = run("check", str(path))
    assert code == 2
    assert "no record found" in one_line(err)


def test_one_empty_argument_fails_the_run_but_the_others_are_checked(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    good = tmp_path / "good.json"
    good.write_text(json.dumps(GOOD), encoding="utf-8")
    code, out, err = run("check", str(good), str(empty))
    assert code == 2
    assert f"{good}: legal" in out
    assert one_line(err).startswith(f"{empty}: no record found")


def test_a_step_before_an_illegal_action_ends_with_the_records_verdict() -> None:
    code, out, _ = run("replay", "--step", "1", sample("illegal_phase2_beat.json"))
    assert code == 1
    tail = out[out.index("Stopped before the end") :]
    assert "Stopped before the end (shown up to action 1 of 2)" in tail
    assert "the record is illegal at action 2" in tail
    assert ": illegal · pagat, 3 players, 1 of 2 actions applied" in tail
    assert ": legal" not in out


def test_to_on_a_finished_game_says_finished() -> None:
    code, out, _ = run("replay", "--to", "3", sample("pagat_3p_full.json"))
    assert code == 0
    assert "not finished" not in out
    assert out.rstrip().endswith(
        "legal · pagat, 3 players, 313 of 313 actions applied · finished, loser Cai"
    )


def test_a_rejected_action_reads_as_an_attempt() -> None:
    _, out, _ = run("replay", sample("illegal_phase2_beat.json"))
    assert "[2] B tries to beat 9♥ with 7♥" in out
    assert "B beats 9♥" not in out


@pytest.mark.parametrize(
    ("words", "reads"),
    [
        ("Bo beats 9♥ with 7♥", "Bo tries to beat 9♥ with 7♥"),
        ("Bo dares and turns A♣", "Bo tries to dare and turn A♣"),
        ("Bo picks up 8♥", "Bo tries to pick up 8♥"),
        ("Bo passes", "Bo tries to pass"),
        ("Bo deals the low cards: Anna 2♥", "Bo tries to deal the low cards: Anna 2♥"),
        ("The trick goes to Bo", "Bo tries: Bo play 7H"),
    ],
)
def test_attempt_wording(words: str, reads: str) -> None:
    from adjudicator.render.terminal import attempt

    assert attempt(words, "Bo", "Bo play 7H") == reads


def test_step_and_to_together_are_refused() -> None:
    code, out, err = run("replay", "--step", "3", "--to", "1", sample("pagat_3p_full.json"))
    assert code == 2 and out == ""
    assert "--step and --to cannot be used together" in one_line(err)


def test_json_errors_do_not_say_at_twice(tmp_path: Path) -> None:
    path = tmp_path / "cut.json"
    path.write_text('{"format": "skitgubbe-rec', encoding="utf-8")
    for command in ("check", "replay"):
        code, out, _ = run(command, str(path))
        assert code == 2
        assert "at at" not in out
        assert "Unterminated string starting at line 1 column 12" in out


def test_a_json_array_of_records_points_to_json_lines(tmp_path: Path) -> None:
    path = tmp_path / "many.json"
    path.write_text(json.dumps([GOOD, GOOD]), encoding="utf-8")
    code, out, _ = run("check", str(path))
    assert code == 2
    assert "a record must be a JSON object" in out
    assert "(one record per line: use a .jsonl file)" in out


@pytest.mark.parametrize("command", ["check", "replay", "legal"])
def test_help_says_actions_count_from_one(command: str) -> None:
    _, out, _ = run(command, "--help")
    assert "from 1" in " ".join(out.split())
    assert "count from 0" not in " ".join(out.split())


# --- 3. legal -----------------------------------------------------------------------


def test_legal_after_the_last_action_by_default(tmp_path: Path) -> None:
    path = tmp_path / "good.json"
    path.write_text(json.dumps(GOOD), encoding="utf-8")
    code, out, _ = run("legal", str(path))
    assert code == 0
    assert "after the last action (1 applied)" in out
    listed = out[out.index("Legal actions") :].splitlines()[1:]
    assert [line.strip() for line in listed] == [
        "Bo play 7C",
        "Bo play 8C",
        "Bo play 9C",
        "Bo pick",
    ]


def test_legal_at_n_is_what_could_replace_action_n() -> None:
    code, out, _ = run("legal", "--at", "2", "--json", sample("illegal_phase2_beat.json"))
    assert code == 0
    listing = json.loads(out)
    assert listing["at"] == 1 and listing["to_move"] == ["B"]  # JSON counts from 0
    assert listing["legal"] == ["B pick"]
    assert listing["with_unseen"] == []
    # the same list as the violation's "legal instead"
    _, checked, _ = run("check", "--json", sample("illegal_phase2_beat.json"))
    assert json.loads(checked)["violations"][0]["legal"] == listing["legal"]


def paste(record: dict[str, Any], at: int, action: Any) -> dict[str, Any]:
    return {**record, "actions": [*record["actions"][:at], action], "result": None}


@pytest.mark.parametrize(
    ("name", "at"),
    [
        ("illegal_phase2_beat.json", 2),
        ("illegal_deal_shares.json", 46),
        ("illegal_phase1_sluff_rank.json", None),
        ("helmfrid_3p_full.json", 31),
        ("koira_pagat_seven_player_tie.json", None),
    ],
)
def test_every_listed_action_pastes_back_as_legal(name: str, at: int | None) -> None:
    record = json.loads(text(name))
    record.pop("result", None)
    args = ["legal", "--json", sample(name)] + (["--at", str(at)] if at is not None else [])
    code, out, _ = run(*args)
    if code == 1:  # the record is illegal before the end: list at its violation instead
        _, checked, _ = run("check", "--json", sample(name))
        at = json.loads(checked)["violations"][0]["index"] + 1  # --at counts from 1
        code, out, _ = run("legal", "--json", "--at", str(at), sample(name))
    assert code == 0
    listing = json.loads(out)
    assert listing["legal"], "nothing is legal"
    keys = [json.dumps(f, sort_keys=True) for f in listing["legal"]]
    assert len(keys) == len(set(keys)), "duplicates"
    for form in listing["legal"]:
        pasted = {k: v for k, v in paste(record, listing["at"], form).items() if v is not None}
        report = adjudicate(document_from_text(json.dumps(pasted)))
        assert report.status == "legal", (form, report.violations)


def test_many_deals_are_summed_up_with_their_count() -> None:
    code, out, _ = run("legal", "--at", "46", sample("illegal_deal_shares.json"))
    assert code == 0
    deals = [line for line in out.splitlines() if line.strip().startswith('{"player"')]
    assert len(deals) == 3
    assert "… and 3 more ways to deal the low cards" in out
    assert "these deals are examples" in " ".join(out.split())
    _, listed, _ = run("legal", "--json", "--at", "46", sample("illegal_deal_shares.json"))
    assert len(json.loads(listed)["legal"]) == 6


def test_legal_instead_prints_deals_in_record_form() -> None:
    _, out, _ = run("check", sample("illegal_deal_due.json"))
    assert "Anna deal Bo:" not in out
    deal = next(line for line in out.splitlines() if line.strip().startswith("{"))
    assert json.loads(deal)["act"] == "deal"


def test_legal_past_an_illegal_action_says_where_it_stopped() -> None:
    code, out, _ = run("legal", sample("illegal_phase2_beat.json"))
    assert code == 1
    path = sample("illegal_phase2_beat.json")
    assert "action 2 is illegal, so the game never got past it" in out
    assert f"'adjudicator legal {path} --at 2' lists what was legal there" in out


def test_legal_json_errors_are_json() -> None:
    """Under --json every error is one JSON object on stdout, the plain line's words."""
    path = sample("illegal_phase2_beat.json")
    code, out, _ = run("legal", "--json", path)
    error = json.loads(out)
    assert code == 1 and error["status"] == "illegal"
    assert error["error"] == f"{path}: action 2 is illegal, so the game never got past it"
    assert error["violation"]["index"] == 1 and error["violation"]["rule"] == "phase2.beat"
    code, out, err = run("legal", "--json", "--at", "9", path)
    assert code == 2 and err == ""
    assert json.loads(out) == {
        "error": "--at 9: the record has 2 actions: --at 1 is before the first, --at 3 after "
        "the last",
        "status": "error",
    }
    code, out, _ = run("legal", "--json", "-", stdin="{")
    error = json.loads(out)
    assert code == 2 and error["status"] == "invalid" and error["file"] == "-"
    assert error["error"].startswith("-: ")


def test_legal_at_out_of_range_is_refused() -> None:
    code, _, err = run("legal", "--at", "4", sample("illegal_phase2_beat.json"))
    assert code == 2
    assert "--at 4: the record has 2 actions: --at 1 is before the first, --at 3 after" in (
        one_line(err)
    )
    assert run("legal", "--at", "0", sample("illegal_phase2_beat.json"))[0] == 2


def test_legal_at_the_end_of_a_finished_game() -> None:
    code, out, _ = run("legal", "--json", sample("pagat_3p_full.json"))
    listing = json.loads(out)
    assert code == 0 and listing["finished"] and listing["legal"] == []
    assert listing["loser"] == "Cai"
    _, words, _ = run("legal", sample("pagat_3p_full.json"))
    assert "The game is over (Cai is the loser): no action may follow." in words


# --- 3. explain -----------------------------------------------------------------------


@pytest.mark.parametrize("rule", sorted(catalog.RULES))
def test_explain_every_rule_id(rule: str) -> None:
    code, out, _ = run("explain", rule)
    entry = catalog.RULES[rule]
    flat = " ".join(out.split())
    assert code == 0
    assert " ".join(entry.checks.replace("`", "").split()) in flat
    assert str(entry.sources[0]) in flat
    assert f"adjudicator samples {entry.samples[0].removesuffix('.json')}" in out
    for option in entry.options:
        assert option in out


def test_explain_shows_the_sample_breaking_the_rule() -> None:
    _, out, _ = run("explain", "phase2.beat")
    assert "action 2: B play 7H (phase2.beat): 7♥ does not beat 9♥" in out


@pytest.mark.parametrize("option", list(RuleOptions.model_fields))
def test_explain_every_option_with_each_presets_value(option: str) -> None:
    code, out, _ = run("explain", option)
    assert code == 0
    for preset in PRESETS.values():
        value = json.dumps(getattr(preset.options, option))
        assert any(preset.name in line and value in line for line in out.splitlines()), preset.name
    assert not any(c.isdigit() and f"00{c}" in out for c in "01234")


def test_explain_an_unknown_topic_suggests() -> None:
    code, _, err = run("explain", "phase2.beats")
    assert code == 2
    assert "did you mean phase2.beat" in one_line(err)


def test_explain_without_a_topic_lists_every_rule_id() -> None:
    code, out, _ = run("explain")
    assert code == 0
    for rule in catalog.RULES:
        assert rule in out


# --- 3. standard input and FILE:LINE ---------------------------------------------------


def test_check_reads_one_record_from_stdin() -> None:
    code, out, _ = run("check", "-", stdin=json.dumps(BAD, indent=2))
    assert code == 1
    assert out.startswith("-: illegal")


def test_check_reads_json_lines_from_stdin() -> None:
    lines = "\n".join(json.dumps(r) for r in (GOOD, BAD, GOOD)) + "\n"
    code, out, _ = run("check", "--json", "-", stdin=lines)
    assert code == 1
    results = [json.loads(line) for line in out.splitlines()]
    assert [(r["file"], r["line"], r["status"]) for r in results] == [
        ("-", 1, "legal"),
        ("-", 2, "illegal"),
        ("-", 3, "legal"),
    ]


def test_empty_stdin_is_an_error() -> None:
    code, _, err = run("check", "-", stdin="")
    assert code == 2
    assert one_line(err) == "-: no record found: standard input is empty"


def test_replay_and_legal_read_stdin() -> None:
    code, out, _ = run("replay", "-", stdin=json.dumps(BAD))
    assert code == 1 and "-: illegal" in out
    code, out, _ = run("legal", "--at", "2", "-", stdin=json.dumps(BAD))
    assert code == 0 and "Bo pick" in out


def test_one_line_of_json_lines_on_stdin() -> None:
    lines = "\n".join(json.dumps(r) for r in (GOOD, BAD)) + "\n"
    code, out, _ = run("replay", "-:2", stdin=lines)
    assert code == 1 and "-:2: illegal" in out
    code, out, _ = run("replay", "-", stdin=lines)
    assert code == 2
    assert "holds several records" in out and "-:1" in out


def test_file_line_names_one_record_as_check_prints_it(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_text(json.dumps(GOOD) + "\n\n" + json.dumps(BAD) + "\n", encoding="utf-8")
    _, checked, _ = run("check", str(path))
    label = f"{path}:3"
    assert f"{label}: illegal" in checked
    code, out, _ = run("replay", label)
    assert code == 1 and f"{label}: illegal" in out
    code, out, _ = run("legal", "--at", "2", label)
    assert code == 0 and "Bo pick" in out
    code, out, _ = run("replay", f"{path}:2")
    assert code == 2 and "no record on line 2" in out


# --- 3. writing records by verdict -----------------------------------------------------


def test_write_illegal_and_legal_sort_the_records(tmp_path: Path) -> None:
    runs = tmp_path / "bot.jsonl"
    runs.write_text(
        "\n".join(json.dumps(r) for r in (GOOD, BAD, GOOD)) + "\n{oops\n", encoding="utf-8"
    )
    single = tmp_path / "single.json"
    single.write_text(json.dumps(BAD, indent=2), encoding="utf-8")
    bad_out, good_out = tmp_path / "illegal.jsonl", tmp_path / "legal.jsonl"
    code, _, _ = run(
        "check",
        "--write-illegal",
        str(bad_out),
        "--write-legal",
        str(good_out),
        str(runs),
        str(single),
    )
    assert code == 2  # the line that is not JSON
    illegal = [json.loads(line) for line in bad_out.read_text(encoding="utf-8").splitlines()]
    legal = [json.loads(line) for line in good_out.read_text(encoding="utf-8").splitlines()]
    assert illegal == [BAD, BAD] and legal == [GOOD, GOOD]
    code, _, _ = run("check", str(bad_out))
    assert code == 1
    assert run("check", str(good_out))[0] == 0


def test_write_to_an_unwritable_place_is_one_line(tmp_path: Path) -> None:
    code, _, err = run(
        "check", "--write-legal", str(tmp_path / "no" / "x.jsonl"), sample("pagat_3p_full.json")
    )
    assert code == 2
    assert "--write-legal: cannot write" in one_line(err)


def test_interactive_needs_a_file_not_stdin() -> None:
    code, out, err = run("replay", "--interactive", "-", stdin=json.dumps(BAD))
    assert code == 2 and out == ""
    assert "--interactive reads keys from the terminal" in one_line(err)


def test_the_group_help_says_actions_count_from_one() -> None:
    _, out, _ = run("--help")
    assert "Actions are counted from 1" in " ".join(out.split())


def write(tmp_path: Path, name: str, record: dict[str, object]) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(record), encoding="utf-8")
    return str(path)


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


def _games(tmp_path: Path, count: int) -> Path:
    code, games, _ = run("simulate", "--count", str(count), "--seed", "7")
    assert code == 0
    bad = json.loads((SAMPLES / "illegal_phase2_beat.json").read_text(encoding="utf-8"))
    lines = games.splitlines()
    lines.insert(3, json.dumps(bad))
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# --- issue 24, point 2: a refused action is narrated as it was attempted --------------


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


# --- issue 24, point 3: after an illegal sluff, the next player's actions are theirs --


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
    _, swedish, _ = run("check", "--lang", "sv", str(SAMPLES / "illegal_deal_shuffler.json"))
    assert "  näst i tur står Anna eller Cai:\n" in swedish  # joined in the language asked


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


# --- issue 24, point 7: the hint to list the unseen alternatives runs as printed ------


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


# --- issue 24, point 13: the variants command never breaks a value --------------------


def test_the_variants_command_at_100_columns_keeps_every_value_whole() -> None:
    code, out, _ = run("variants")
    assert code == 0
    for broken in ("helmfr\n", "not_re", "ceivin"):
        assert not any(line.rstrip().endswith(broken.strip()) for line in out.splitlines())
    assert "not_receiving" in out


# --- issue 24, point 8: a file and the same records piped to '-' print the same -------


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


# --- issue 24, point 9: a path with no record is counted, and said before the summary -


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


# --- issue 24, point 6: naming one line of JSON Lines ---------------------------------


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


def test_names_given_with_a_record_is_a_note_on_stderr_and_changes_nothing() -> None:
    # --names was silently ignored for a record: a note says so, the verdict stands
    record = str(SAMPLES / "pagat_3p_full.json")
    log = ROOT / "tests" / "importers" / "import_logs" / "goat_3p.json"
    plain = run("check", record)
    named = run("check", "--names", "A,B,C", record)
    assert named[0] == plain[0] == 0 and named[1] == plain[1]
    assert named[2].strip() == (
        "note: --names is not used for the records checked: a record names its players itself "
        "(--names is for an app's log)"
    )
    for command in (["replay", "--step", "1"], ["legal", "--at", "1"]):
        code, out, err = run(*command, "--names", "A,B,C", record)
        assert code == 0 and "Anna" in out
        assert err.strip() == (
            f"note: --names is not used: {record} is a record, which names its players itself "
            "(--names is for an app's log)"
        )
    # a log takes the names, and no note is said
    code, out, err = run("check", "--names", "A,B,C", str(log))
    assert code == 0 and err == ""
    code, out, err = run("check", "--names", "A,B,C", str(log), record)
    assert "note: --names is not used for the records checked" in err
