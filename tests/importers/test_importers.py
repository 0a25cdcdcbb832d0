"""Records from other apps' logs and from the page's link (issue 40): the registry, the
link, goat-events (each event's mapping, the inferences and their errors), lenient and
strict, ``--from`` on check, replay and legal.

The logs in tests/importers/import_logs/ are the project's own: games played by the engine under
the app's rules and written in the app's event shape (benchmarks/import_speed.py's
writer), then edited by hand: a lobby with a leave, fields the importer does not know,
a draw logged late, a card that is none, an event nobody could make.
"""

from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner

from adjudicator import importers
from adjudicator.cli.commands import main
from adjudicator.importers import ImportOptions, albined_db, base, goat_events, link
from adjudicator.importers.goat_events import convert
from adjudicator.invalid import RecordError
from adjudicator.play.adjudicate import adjudicate
from adjudicator.record import load_record

LOGS = Path(__file__).parent / "import_logs"
LEGAL = LOGS / "goat_3p.json"
TEXT_ONLY = LOGS / "goat_2p_text_only.json"
BATCH = LOGS / "goat_batch.jsonl"
MIDTRICK = LOGS / "goat_3p_end_midtrick.json"


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def message(path: Path = LEGAL) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def events_of(kind: str, log: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in log["events"] if e["type"] == kind]


# --- goat-events: each event's mapping ------------------------------------------------


def test_the_seats_follow_the_lobby_a_leave_gives_the_last_joined_the_seat() -> None:
    record = convert(message(), ImportOptions())
    # u-anna, u-gone, u-cai and u-bo joined; u-gone (seat 1) left: u-bo, the last to
    # join, sits there
    assert record["players"] == ["u-anna", "u-bo", "u-cai"]
    assert record["first_leader"] == "u-anna" and record["dealer"] == "u-cai"
    assert record["variant"] == "goat"
    assert record["options"] == {
        "decks": 1,
        "aces_low": False,
        "high_trump": "none",
        "low_cards": 6,
        "sluff_final": False,
        "phase_one_end": "still_to_play",
    }


def test_names_replace_the_user_ids_in_seat_order() -> None:
    record = convert(message(), ImportOptions(names=("Anna", "Bo", "Cai")))
    assert record["players"] == ["Anna", "Bo", "Cai"]
    assert record["meta"]["users"] == ["u-anna", "u-bo", "u-cai"]
    assert all(a.split()[0] in ("Anna", "Bo", "Cai") for a in record["actions"])


def test_a_user_id_with_spaces_is_named_as_albined_db_names_a_profile() -> None:
    log = json.loads(LEGAL.read_text().replace('"u-anna"', '"Finn  Olsson"'))
    log = json.loads(json.dumps(log).replace('"u-bo"', '"Bo\\t Ek"'))
    record = convert(log, ImportOptions())
    assert record["players"] == ["Finn_Olsson", "Bo_Ek", "u-cai"]
    assert record["meta"]["users"] == ["Finn  Olsson", "Bo\t Ek", "u-cai"]  # kept as logged
    assert load_record(record).players == ("Finn_Olsson", "Bo_Ek", "u-cai")


@pytest.mark.parametrize(
    ("name", "fallback", "said"),
    [
        ("Ann Lee", "p1", "Ann_Lee"),
        (" Ann \t\n Lee ", "p1", "Ann_Lee"),
        ("Ann_Lee", "p1", "Ann_Lee"),
        ("   ", "p1", "p1"),
        (None, "p1", "p1"),
        (7, "p1", "7"),
    ],
)
def test_one_helper_names_a_player_for_every_importer(
    name: object, fallback: str, said: str
) -> None:
    assert base.player_name(name, fallback) == said
    assert albined_db.player_name is base.player_name  # the other importer uses the same


def test_each_event_becomes_its_action() -> None:
    log = message()
    record = convert(log, ImportOptions())
    acts = [a.split() for a in record["actions"]]
    dreck_at = next(i for i, a in enumerate(acts) if a[1] == "deal")
    one, two = acts[:dreck_at], acts[dreck_at + 1 :]
    assert [a[2] for a in one if a[1] == "play"] == [e["card"] for e in events_of("playCard", log)]
    assert [a[2] for a in one if a[1] == "dare"] == [e["card"] for e in events_of("playTop", log)]
    sluffs = [(a[0], a[2]) for a in one if a[1] == "sluff"]
    seats = record["players"]
    assert sluffs == [(seats[e["player"]], e["card"]) for e in events_of("slough", log)]
    assert sum(a[1] == "pick" for a in two) == len(events_of("pickUp", log))
    runs = [(a[2], a[-1]) for a in two if a[1] == "play"]
    assert runs == [(e["lo"], e["hi"]) for e in events_of("playRun", log)]
    # a run is every card from lo to hi
    longest = max((a for a in two if a[1] == "play"), key=len)
    assert len(longest) - 2 >= 2
    # the dreck: one deal by the first leader, each receiver's cards as logged
    deal = acts[dreck_at]
    assert deal[0] == "u-anna"
    received = events_of("receiveDreck", log)
    assert deal[2:] == [f"{seats[e['player']]}:{','.join(e['dreck'])}" for e in received]
    # the trump turned is the deck's first card (set aside); the first play is seat 0's
    assert record["deck"].split()[0] == events_of("revealTrump", log)[0]["trump"]
    assert acts[0][0] == "u-anna"


def test_the_deck_is_the_draws_dealt_and_ordered_as_the_rules_draw() -> None:
    log = message()
    record = convert(log, ImportOptions())
    deck = record["deck"].split()
    draws: dict[int, list[str]] = {0: [], 1: [], 2: []}
    for e in events_of("draw", log):
        draws[e["player"]].append(e["card"])
    # the deal: three each, one at a time from seat 0 (the last seat deals)
    assert deck[1:10] == [draws[s][k] for k in range(3) for s in (0, 1, 2)]
    # the log has one draw late (after the other player's): the deck puts it where the
    # rules draw it, so it is not the log's order, and the game checks legal
    naive = goat_events._Game(log["events"], ImportOptions(), None)._deck()
    assert deck != naive and sorted(deck) == sorted(naive)
    assert load_record(record).deck is not None
    assert run("check", "--from", "goat-events", str(LEGAL)).exit_code == 0


def test_unknown_fields_are_kept_under_source() -> None:
    record = convert(message(), ImportOptions())
    kept = record["meta"]["_source"]
    assert kept["message"] == {"server": "goat.example"}
    assert kept["events"]["5"] == {"clientTime": 1732790000}
    assert record["meta"]["game_id"] == "g-legal"


def test_an_unfinished_log_leaves_what_was_never_drawn_unknown() -> None:
    log = message()
    start = next(i for i, e in enumerate(log["events"]) if e["type"] == "start")
    log["events"] = log["events"][: start + 20]
    record = convert(log, ImportOptions())
    deck = record["deck"].split()
    assert deck[0] == "??" and deck.count("??") > 30 and len(deck) == 52
    assert load_record(record).deck is not None  # a valid record, its unknowns '??'


# --- goat-events: what cannot be converted is one line naming the event ----------------


def broken(log: dict[str, Any]) -> str:
    with pytest.raises(goat_events.Broken) as caught:
        convert(log, ImportOptions())
    return str(caught.value)


def test_an_event_nobody_could_make_names_its_index() -> None:
    games = list(importers.read("goat-events", str(BATCH), ImportOptions()))
    nobody = next(g for g in games if g.name.endswith("#g-nobody"))
    assert nobody.record is None
    assert nobody.error == (
        "events[9]: no player could have made this pickUp here: there is no trick to pick up"
    )


def test_a_play_after_the_game_is_over_names_its_index() -> None:
    log = message()
    log["events"].append({"type": "pickUp"})
    last = len(log["events"]) - 1
    assert broken(log) == (
        f"events[{last}]: no player could have made this pickUp here: the game is already over"
    )


def test_part_one_ended_early_by_the_log_is_named() -> None:
    log = message()
    reveal = next(i for i, e in enumerate(log["events"]) if e["type"] == "revealTrump")
    log["events"].insert(12, log["events"].pop(reveal))
    assert broken(log).startswith("events[12]: the app ends part one here, the rules do not")


def test_redacted_events_and_odd_shapes_are_named() -> None:
    log = message()
    log["events"][9] = {"type": "redactedDraw", "player": 0}
    assert broken(log).startswith("events[9]: redactedDraw hides its cards")
    log = message()
    log["events"][9] = {"type": "teleport"}
    assert broken(log) == "events[9]: 'teleport' is no event of the app"
    log = message()
    log["events"].insert(7, {"type": "join", "userId": "late"})
    assert broken(log) == "events[7]: join after the game's 'start'"
    log = message()
    log["events"][5]["numDecks"] = 3
    assert broken(log) == "events[5].numDecks: 3: the record format holds one pack or two"
    log = message()
    draws = [i for i, e in enumerate(log["events"]) if e["type"] == "draw"]
    log["events"][draws[1]]["card"] = log["events"][draws[0]]["card"]
    assert "comes out more often than 1 pack(s) hold it" in broken(log)
    assert broken({"type": "replay", "events": [{"type": "join", "userId": "a"}]}) == (
        "events: no 'start': the game never began"
    )


def test_a_start_without_num_decks_says_the_field_is_missing() -> None:
    log = message()
    del log["events"][5]["numDecks"]
    # was "events[5].numDecks: None: the record format holds one pack or two"
    assert broken(log) == "events[5].numDecks: is missing: 'start' says how many packs, one or two"
    log["events"][5]["numDecks"] = None  # written as null: the value shown, as any other
    assert broken(log) == "events[5].numDecks: None: the record format holds one pack or two"


SAMPLES = LOGS.parents[2] / "sample_games"


def test_a_record_checked_as_a_goat_log_says_it_is_a_record() -> None:
    record = SAMPLES / "two_player_full.json"
    result = run("check", "--from", "goat-events", str(record))
    assert result.exit_code == 2
    # was "events: a replay message holds its events as a list"
    assert result.stdout == (
        f"{record}: invalid · a skitgubbe record, not a Goat app log: check it without --from\n"
    )
    assert run("check", str(record)).stdout.startswith(f"{record}: legal")


def test_a_replay_message_is_told_a_goat_log_even_with_its_events_wrong(tmp_path: Path) -> None:
    for events, said in (
        ({}, "events: a replay message holds its events as a list"),
        ([{"type": "join", "userId": "a"}], "events: no 'start': the game never began"),
    ):
        log = tmp_path / "replay.json"
        log.write_text(json.dumps({"type": "replay", "events": events}))
        result = run("check", str(log))  # without --from: was "format: is required"
        assert result.exit_code == 2
        assert result.stdout == f"{log}: invalid · {said}\n"
        piped = CliRunner().invoke(main, ["check", "-"], input=log.read_bytes())
        assert piped.stdout == f"-: invalid · {said}\n"


def test_names_must_match_the_seats() -> None:
    with pytest.raises(goat_events.Broken, match=r"--names: 2 names for 3 players"):
        convert(message(), ImportOptions(names=("A", "B")))


def test_a_card_not_held_is_an_event_nobody_could_make() -> None:
    log = message()
    plays = [i for i, e in enumerate(log["events"]) if e["type"] == "playCard"]
    log["events"][plays[0]]["card"] = "AS" if log["events"][plays[0]]["card"] != "AS" else "KS"
    assert f"events[{plays[0]}]: no player could have made this playCard here" in broken(log)


def test_a_rule_broken_ends_the_record_there_and_keeps_the_rest(tmp_path: Path) -> None:
    log = message()
    at = next(i for i, e in enumerate(log["events"]) if e["type"] == "slough")
    assert log["events"][at] == {"type": "slough", "player": 2, "card": "7S"}
    log["events"][at]["card"] = "KC"  # held, but no king is in the trick: sluff.rank
    record = convert(log, ImportOptions())
    assert record["actions"][-1] == "u-cai sluff KC"
    kept = record["meta"]["_source"]["unconverted"]
    assert kept["from"] == at + 1 and kept["events"] == log["events"][at + 1 :]
    assert f"events[{at}] breaks the app's rules" in record["meta"]["notes"]
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log))
    result = run("check", "--from", "goat-events", str(path))
    assert result.exit_code == 1 and "phase1.sluff" in result.output


# --- the rules: the app's, or the text's letter -----------------------------------------


def test_rules_text_names_where_the_app_departs() -> None:
    app = run("check", "--from", "goat-events", str(TEXT_ONLY))
    assert app.exit_code == 0, app.output
    text = run("check", "--from", "goat-events", "--rules", "text", str(TEXT_ONLY))
    assert text.exit_code == 1
    assert "phase1.sluff.final" in text.output
    assert convert(message(TEXT_ONLY), ImportOptions(rules="text"))["options"]["sluff_final"]


def drawn_late(log: dict[str, Any], at: int) -> tuple[dict[str, Any], int]:
    """The log with the ``draw`` at ``at`` moved to just before its player's next draw:
    that player plays on with two cards meanwhile, as the app's Draw button allows."""
    events = log["events"]
    seat = events[at]["player"]
    later = next(
        k
        for k in range(at + 1, len(events))
        if events[k]["type"] == "draw" and events[k]["player"] == seat
    )
    moved = [*events[:at], *events[at + 1 : later], events[at], *events[later:]]
    return {**log, "events": moved}, seat


def test_a_log_whose_player_draws_late_is_written_with_every_draw(tmp_path: Path) -> None:
    """Seat 0 plays 2C (event 20) and draws 7D at once (event 21); moved later, seat 0
    plays its next card holding two.  The rules' deal and draws cannot say that, so the
    record starts as the app does and writes each draw."""
    log, seat = drawn_late(message(), 21)
    record = convert(log, ImportOptions())
    names = record["players"]
    assert "deck" not in record and record["start"]["hands"] == {n: [] for n in names}
    drawn = [e["card"] for e in log["events"] if e["type"] in ("draw", "playTop")]
    assert record["start"]["stock"][: len(drawn)] == drawn  # the stock as the log took it
    assert record["options"]["draw_back"] == "any_time"
    draws = [a for a in record["actions"] if a.endswith(" draw")]
    assert len(draws) == len(events_of("draw", log))
    path = tmp_path / "late.json"
    path.write_text(json.dumps(log))
    assert run("check", "--from", "goat-events", str(path)).exit_code == 0
    text = run("check", "--from", "goat-events", "--rules", "text", str(path), "--json")
    verdict = json.loads(text.output)
    first = verdict["violations"][0]
    assert (first["rule"], first["player"]) == ("phase1.draw.owed", names[seat])
    assert first["legal"] == [f"{names[seat]} draw"]
    # the place in the log beside the action: the event the short-handed play was made from
    event = log["events"][int(first["place"].removeprefix("events[").removesuffix("]"))]
    assert first["action"] == f"{names[seat]} play {event['card']}"
    for jobs in ("1", "2"):  # read here, and in a worker process
        said = run("check", "--rules", "text", str(path), str(LEGAL), "--jobs", jobs).output
        assert f"(in the log: {first['place']})" in said
    # the log as it was, every draw in time, keeps the deck and leaves draws to the rules
    assert "deck" in convert(message(), ImportOptions(rules="text"))


def test_a_late_drawing_log_that_breaks_a_rule_is_still_written_with_every_draw() -> None:
    """Both readings stop at the same wrong sluff (9S onto a trick with no nine), but only
    writing the draws says what the hands held before it: that reading is kept."""
    log, _seat = drawn_late(message(), 21)
    events = [*log["events"][:31], {"type": "slough", "player": 0, "card": "9S"}]
    record = convert({**log, "events": events}, ImportOptions())
    assert "start" in record and record["actions"][-1] == "u-anna sluff 9S"
    verdict = adjudicate(load_record(record))
    assert verdict.status == "illegal"
    assert verdict.violations[0].index == len(record["actions"]) - 1


def test_the_hint_to_run_legal_repeats_the_rules_the_log_was_read_by(tmp_path: Path) -> None:
    log, _seat = drawn_late(message(), 21)
    path = tmp_path / "late.json"
    path.write_text(json.dumps(log))
    result = run("legal", "--rules", "text", str(path), "--at", "200")
    assert "--rules text' lists what was legal there" in result.output
    result = run("legal", str(path), "--at", "200")  # the app's rules: nothing to repeat
    assert "--rules" not in result.output


def test_a_hand_that_starts_short_is_the_apps_not_the_rules_deal() -> None:
    """Seat 1's third card (event 13) drawn only after seat 1 has played: dealt three at
    once, it would hold that card at its first play."""
    log, seat = drawn_late(message(), 13)
    record = convert(log, ImportOptions())
    assert record["start"]["hands"][record["players"][seat]] == []
    assert record["actions"][:3] == [f"{record['players'][s]} draw" for s in (0, 1, 2)]


def test_a_fourth_card_drawn_is_refused_not_handed_to_another_player() -> None:
    """Seat 1 draws a fourth card (KC) right after the deal, then two dares and seat 2's
    JD end the log.  Read as the rules draw, KC would be seat 2's draw after its play;
    written as the app played it, seat 1's draw is refused by either rule set."""
    log = message()
    events = log["events"]
    fourth = {"type": "draw", "player": 1, "card": "KC"}
    log["events"] = [*events[:15], fourth, *events[15:18]]
    for rules in ("app", "text"):
        record = convert(log, ImportOptions(rules=rules))
        verdict = adjudicate(load_record(record))
        first = verdict.violations[0]
        assert (first.rule, first.player, first.index) == ("phase1.draw", "u-bo", 9)


def test_a_card_drawn_past_the_stock_is_left_for_the_rules_to_refuse() -> None:
    """A log drawing all 52 cards of one pack (one is the trump card, set aside): the
    record's stock holds 51, and the last draw is the rules' to refuse, not one line."""
    ranks, suits = "23456789TJQKA", "SHDC"
    pack = [r + s for s in suits for r in ranks]
    events: list[dict[str, Any]] = [{"type": "join", "userId": u} for u in ("a", "b", "c")]
    events.append({"type": "start", "numDecks": 1})
    events += [{"type": "draw", "player": k % 3, "card": c} for k, c in enumerate(pack)]
    game = goat_events._Game(events, ImportOptions(), None, drawn=True)
    start = game._start()
    assert start["stock"] == pack[:51] and start["trump_card"] == "??"
    assert load_record({**convert({"events": events}, ImportOptions()), "actions": []})


def test_import_explain_prints_both_rule_sets() -> None:
    result = run("import", "--explain", "goat-events")
    assert result.exit_code == 0
    assert "sluff_final: false / true" in result.output
    assert "low_cards: 6 / 6 (6 / 12)" in result.output


def test_import_help_names_every_built_in_format() -> None:
    said = " ".join(run("import", "--help").output.split())
    for module in importers.BUILT_IN:
        name = __import__(module, fromlist=["NAME"]).NAME
        assert f"{name} (" in said, name


# --- lenient and strict -----------------------------------------------------------------


def test_lenient_goes_on_past_a_broken_game_and_exits_2() -> None:
    result = run("import", "goat-events", str(BATCH))
    assert result.exit_code == 2
    lines = result.stdout.splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["meta"]["game_id"] == "g-legal"
    errors = [line for line in result.stderr.splitlines() if "#g-" in line]
    assert [e.split(":")[0].rsplit("#")[-1] for e in errors] == ["g-badcard", "g-nobody"]
    assert "1 game converted; 2 games could not be converted" in result.stderr


def test_strict_stops_at_the_first_broken_game() -> None:
    result = run("import", "--strict", "goat-events", str(BATCH))
    assert result.exit_code == 2
    assert len(result.stdout.splitlines()) == 1
    assert "g-badcard" in result.stderr and "g-nobody" not in result.stderr
    # the count line, "on success too", was left out where --strict stopped
    assert result.stderr.splitlines()[-1] == "1 game converted; 1 game could not be converted"


def test_import_game_picks_one() -> None:
    result = run("import", "--game", "g-nobody", "goat-events", str(BATCH))
    assert result.exit_code == 2 and result.stdout == ""
    result = run("import", "--game", "g-none", "goat-events", str(BATCH))
    assert result.exit_code == 2 and "no game 'g-none'" in result.stderr


# --- import -o --------------------------------------------------------------------------


def test_import_writes_one_file_a_game_into_a_folder(tmp_path: Path) -> None:
    out = tmp_path / "records"
    result = run("import", "goat-events", str(LEGAL), str(BATCH), "-o", str(out))
    assert result.exit_code == 2  # two of the batch are broken
    names = sorted(p.name for p in out.iterdir())
    assert names == ["goat_3p-g-legal.json", "goat_batch-g-legal.json"]
    assert run("check", str(out)).exit_code == 0


def test_import_writes_the_one_game_into_a_json_file_not_a_folder(tmp_path: Path) -> None:
    out = tmp_path / "record.json"
    result = run("import", "goat-events", str(LEGAL), "-o", str(out))
    assert result.exit_code == 0 and out.is_file()
    assert json.loads(out.read_text())["meta"]["game_id"] == "g-legal"
    two = tmp_path / "two.json"
    result = run("import", "goat-events", str(LEGAL), str(TEXT_ONLY), "-o", str(two))
    assert result.exit_code == 2 and not two.exists()
    # a run that converts nothing leaves a record written before as it was
    before = out.read_bytes()
    broken_log = tmp_path / "broken.json"
    broken_log.write_text(json.dumps({"type": "replay", "events": []}))
    assert run("import", "goat-events", str(broken_log), "-o", str(out)).exit_code == 2
    assert out.read_bytes() == before
    assert result.output.splitlines()[-1].endswith(
        "holds one record, and the source has more games: give -o a folder (one file a game) "
        "or a name ending in .jsonl"
    )


def test_import_writes_json_lines(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = run("import", "goat-events", str(LEGAL), "-o", str(out))
    assert result.exit_code == 0
    (line,) = out.read_text().splitlines()
    assert json.loads(line)["format"] == "skitgubbe-record/1"


def test_import_says_how_many_games_it_converted_when_all_were(tmp_path: Path) -> None:
    # a success said nothing at all, while a partial failure gave the count (issue 40)
    result = run("import", "goat-events", str(LEGAL), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0
    assert result.stderr.strip() == "1 game converted"
    piped = run("import", "goat-events", str(LEGAL))  # the records on stdout, the count not
    assert piped.stderr.strip() == "1 game converted"
    assert json.loads(piped.stdout)["format"] == "skitgubbe-record/1"


# --- --from on check, replay and legal --------------------------------------------------


def test_check_from_names_each_game_and_says_which_failed() -> None:
    result = run("check", "--from", "goat-events", str(BATCH))
    assert result.exit_code == 2
    assert f"{BATCH}#g-legal: legal" in result.output
    assert f"{BATCH}#g-badcard: invalid · events[9].card: 'ZZ' is not a card" in result.output


def logs_folder(tmp_path: Path) -> Path:
    """A folder of Goat logs as a person keeps them: a log, a record, a batch of JSON
    Lines (skipped: a folder is read for *.json) and a log in a sub-folder."""
    folder = tmp_path / "logs"
    (folder / "older").mkdir(parents=True)
    (folder / "b_game.json").write_bytes(LEGAL.read_bytes())
    (folder / "older" / "a_game.JSON").write_bytes(TEXT_ONLY.read_bytes())
    (folder / "batch.jsonl").write_bytes(BATCH.read_bytes())
    (folder / "notes.txt").write_text("not a log\n")
    return folder


def test_check_from_reads_every_log_of_a_folder_as_a_folder_of_records(tmp_path: Path) -> None:
    # it said "logs is not a regular file (a folder)", though importers.md says to
    # name a folder of logs with --from (issue 40)
    folder = logs_folder(tmp_path)
    result = run("check", "--from", "goat-events", str(folder))
    lines = [line for line in result.stdout.splitlines() if ": " in line and "#" in line]
    assert [line.split(": ")[0] for line in lines] == [
        f"{folder / 'b_game.json'}#g-legal",  # path order, as a folder of records
        f"{folder / 'older' / 'a_game.JSON'}#g-text",
    ]
    assert result.exit_code == 0, result.output
    empty = tmp_path / "empty"
    (empty / "deeper").mkdir(parents=True)
    (empty / "batch.jsonl").write_bytes(BATCH.read_bytes())
    nothing = run("check", "--from", "goat-events", str(empty))
    assert nothing.exit_code == 2
    assert "no record found: a folder is searched for *.json files; skipped 1 JSON Lines" in (
        nothing.output
    )


def test_import_reads_every_log_of_a_folder(tmp_path: Path) -> None:
    folder = logs_folder(tmp_path)
    out = tmp_path / "records"
    result = run("import", "goat-events", str(folder), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == [
        "a_game-g-text.json",
        "b_game-g-legal.json",
    ]
    assert result.stderr.strip() == "2 games converted"
    empty = tmp_path / "empty"
    empty.mkdir()
    refused = run("import", "goat-events", str(empty), "-o", str(out))
    assert refused.exit_code == 2 and "no record found" in refused.stderr


def test_check_tells_each_file_of_a_folder_as_a_file_named(tmp_path: Path) -> None:
    # without --from a folder's logs were read as records: "format: is required"
    folder = logs_folder(tmp_path)
    record = tmp_path / "record.json"
    assert run("import", "goat-events", str(LEGAL), "-o", str(record) + "l").exit_code == 0
    (folder / "c_record.json").write_text((tmp_path / "record.jsonl").read_text())
    result = run("check", str(folder))
    assert "format: is required" not in result.output
    assert f"{folder / 'b_game.json'}#g-legal: legal" in result.output
    assert f"{folder / 'c_record.json'}: legal" in result.output
    assert f"{folder / 'older' / 'a_game.JSON'}#g-text: legal" in result.output
    assert result.exit_code == 0


def test_a_goat_log_on_standard_input_is_told_by_its_content() -> None:
    # "-: invalid · format: is required", while the same file named was read as a log
    result = CliRunner().invoke(main, ["check", "-"], input=LEGAL.read_bytes())
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("-#g-legal: legal")
    batch = CliRunner().invoke(main, ["check", "-"], input=BATCH.read_bytes())
    assert "-:1#g-legal: legal" in batch.stdout and "format: is required" not in batch.stdout
    record = CliRunner().invoke(
        main,
        ["check", "-"],
        input=(LOGS.parents[2] / "sample_games" / "two_player_full.json").read_bytes(),
    )
    assert record.stdout.startswith("-: legal")
    # replay and legal read standard input as check does
    replayed = CliRunner().invoke(main, ["replay", "-"], input=LEGAL.read_bytes())
    assert replayed.exit_code == 0 and "-#g-legal: legal" in replayed.stdout, replayed.output
    one = CliRunner().invoke(main, ["replay", "-:1"], input=BATCH.read_bytes())
    assert "-:1#g-legal: legal" in one.stdout, one.output


def test_a_log_cut_short_says_the_text_ends_early(tmp_path: Path) -> None:
    # "not JSON: Expecting property name enclosed in double quotes at line 9 column 31"
    # said nothing of the file having been cut (issue 40)
    text = LEGAL.read_text()
    cut = tmp_path / "cut.json"
    cut.write_text(text[: text.index('"card"', 2000) + 3])
    result = run("check", str(cut))
    assert result.exit_code == 2
    assert "not JSON: the text ends early (cut short?): Unterminated string" in result.output
    cut.write_text(text[: text.index('"card"', 2000) - 1] + "\n")
    assert (
        "the text ends early (cut short?): Expecting property name" in run("check", str(cut)).output
    )
    comma = tmp_path / "comma.json"  # a mistake inside the text is not a text cut short
    comma.write_text('{"format": "skitgubbe-record/1", "actions": ["Dan play 4C",]}')
    said = run("check", str(comma)).output
    assert "not JSON: Expecting value at line 1" in said and "cut short" not in said


def test_a_line_of_json_lines_cut_short_is_named_by_its_line_with_from_or_without(
    tmp_path: Path,
) -> None:
    # without --from it was goat_trunc.jsonl:1, with --from goat_trunc.jsonl
    line = BATCH.read_text().splitlines()[0]
    cut = tmp_path / "cut.jsonl"
    cut.write_text(line[:300] + "\n")
    plain = run("check", str(cut)).output
    given = run("check", "--from", "goat-events", str(cut)).output
    assert plain.startswith(f"{cut}:1: invalid · not JSON: the text ends early")
    assert given == plain
    two = tmp_path / "two.jsonl"  # a broken first line: the others still read, each named
    two.write_text(line[:300] + "\n" + line + "\n")
    both = run("check", "--from", "goat-events", str(two)).output
    assert f"{two}:1: invalid" in both and f"{two}#g-legal: legal" in both


def test_a_log_written_by_hand_as_importers_md_says_is_read() -> None:
    # importers.md did not say a draw's player is a seat from 0, nor how a card is written
    doc = (LOGS.parents[2] / "docs" / "importers.md").read_text()
    assert "counted **from 0**" in doc and "`T` (ten)" in doc
    deal = ["4C", "6C", "8C", "9S", "2H", "3D", "KD", "JS", "QS"]
    events: list[dict[str, Any]] = [{"type": "join", "userId": u} for u in ("dan", "eva", "cai")]
    events.append({"type": "start", "numDecks": 1})
    events += [{"type": "draw", "player": k % 3, "card": c} for k, c in enumerate(deal)]
    events.append({"type": "playCard", "card": "4C"})
    log = {"type": "replay", "gameId": "g1", "events": events}
    record = convert(log, ImportOptions())
    assert record["players"] == ["dan", "eva", "cai"]
    assert record["actions"] == ["dan play 4C"]  # seat 0 drew 4C and leads
    assert set(deal) <= set(record["deck"].split())
    for field, value, said in (
        ("card", "10S", "events[4].card: '10S' is not a card of the app ('TS', '2H')"),
        ("card", "ts", "events[4].card: 'ts' is not a card of the app ('TS', '2H')"),
        ("player", 3, "events[4].player: 3 is no seat of the game (0 to 2)"),
    ):
        broken = json.loads(json.dumps(log))
        broken["events"][4][field] = value
        with pytest.raises(goat_events.Broken) as refused:
            convert(broken, ImportOptions())
        assert str(refused.value) == said
        assert said.split(": ", 1)[1].split(" ", 1)[1] in " ".join(doc.split())


def test_check_from_with_jobs_and_write_illegal(tmp_path: Path) -> None:
    out = tmp_path / "illegal.jsonl"
    args = ["--from", "goat-events", "--rules", "text", "--jobs", "2", "--write-illegal"]
    result = run("check", *args, str(out), str(TEXT_ONLY), str(LEGAL))
    assert result.exit_code == 1, result.output
    (line,) = out.read_text().splitlines()
    written = json.loads(line)
    assert written["meta"]["game_id"] == "g-text"
    assert run("check", str(out)).exit_code == 1  # the converted record, ready to open


def test_check_from_an_unknown_format_is_one_line() -> None:
    result = run("check", "--from", "nope", str(LEGAL))
    assert result.exit_code == 2
    assert result.stderr.startswith(
        "no importer for the format 'nope' (installed: albined-db, goat-events"
    )


def test_replay_and_legal_from_a_game_of_a_log() -> None:
    replay = run("replay", "--from", "goat-events", f"{BATCH}#g-legal", "--step", "1")
    assert replay.exit_code == 0 and "u-anna" in replay.output
    several = run("replay", "--from", "goat-events", str(BATCH))
    assert several.exit_code == 2 and "holds 3 games: name one as" in several.output
    legal = run("legal", "--from", "goat-events", "--names", "Anna,Bo,Cai", str(LEGAL), "--at", "1")
    assert legal.exit_code == 0 and "Anna" in legal.output
    bad = run("replay", "--from", "goat-events", f"{BATCH}#g-badcard")
    assert bad.exit_code == 2 and "'ZZ' is not a card" in bad.output


# --- the link ---------------------------------------------------------------------------


def a_link(record: dict[str, Any] | bytes) -> str:
    data = record if isinstance(record, bytes) else json.dumps(record).encode()
    packer = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    packed = packer.compress(data) + packer.flush()
    return "https://table.example/#record=" + base64.urlsafe_b64encode(packed).decode().rstrip("=")


SAMPLE = Path(__file__).parents[2] / "adjudicator" / "sample_games" / "goat_3p_full.json"


def test_a_link_is_checked_without_from() -> None:
    link_text = a_link(json.loads(SAMPLE.read_text()))
    result = run("check", link_text)
    assert result.exit_code == 0, result.output
    assert "legal" in result.output and "#record=" in result.output
    assert run("replay", link_text, "--step", "1").exit_code == 0
    assert run("import", "link", link_text).stdout.strip().startswith('{"format"')


def test_a_link_copied_from_the_page_with_its_step_and_view_is_read() -> None:
    """The page's address also names the step and the view it shows (``&step=4&as=Bo``):
    copied as it is, the link checks as the record alone does (a stranger's review)."""
    record = json.loads((SAMPLE.parent / "illegal_phase2_beat.json").read_text())
    bare = a_link(record)
    plain = run("check", "--json", bare)
    for tail in ("&step=2", "&step=0", "&as=B", "&step=2&as=B", "&game=0&step=1"):
        copied = run("check", "--json", bare + tail)
        assert copied.exit_code == plain.exit_code == 1, (tail, copied.output)
        assert json.loads(copied.output)["violations"] == json.loads(plain.output)["violations"]
    assert link.decode(bare + "&step=2&as=B", 1_000_000) == record


def test_a_damaged_link_is_one_line() -> None:
    link_text = a_link(json.loads(SAMPLE.read_text()))
    result = run("check", link_text[:-40])
    assert result.exit_code == 2
    assert "the link is damaged: cut short when copied?" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("address", ["https://x.org/#foo=bar", "http://table.example/page"])
def test_an_address_without_a_record_says_the_link_holds_none(address: str) -> None:
    # was: "cannot read https://x.org/#foo=bar: No such file or directory"
    said = "the link holds no record (#record=… is missing)"
    for command in ("check", "replay", "legal"):
        result = run(command, address)
        assert result.exit_code == 2, command
        assert (
            result.output == f"{address}: invalid · {said}: copy the page's link with Copy link\n"
        )
    imported = run("import", "link", address)
    assert imported.exit_code == 2 and f"{address}: {said}" in imported.stderr


def test_a_link_inflates_no_further_than_the_cap() -> None:
    huge = a_link(b"[" + b"0," * 400_000 + b"0]")
    result = run("check", "--max-record-size", "100000", huge)
    assert result.exit_code == 2
    assert "larger than the limit of 100,000 bytes" in result.output
    with pytest.raises(RecordError, match="larger than the limit"):
        link.decode(huge, 100_000)


# --- plug-ins ---------------------------------------------------------------------------


class FakePoint:
    def __init__(self, name: str, loaded: Any) -> None:
        self.name, self.value, self._loaded = name, f"fake_pkg.{name}", loaded
        self.dist = SimpleNamespace(name="fake-pkg")

    def load(self) -> Any:
        if isinstance(self._loaded, Exception):
            raise self._loaded
        return self._loaded


def test_import_list_shows_plug_ins_and_a_broken_one_in_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def read(source: str, options: ImportOptions) -> Any:
        yield importers.Imported(f"{source}#1", record=json.loads(SAMPLE.read_text()))

    good = SimpleNamespace(NAME="myapp", TITLE="My app's own log", read=read)
    points = [
        FakePoint("myapp", good),
        FakePoint("broken", ImportError("no module named x")),
        FakePoint("goat-log", good),  # an entry point named otherwise than its NAME
    ]

    def entry_points(group: str) -> list[FakePoint]:
        return points if group == "adjudicator.importers" else []

    monkeypatch.setattr("importlib.metadata.entry_points", entry_points)
    listed = run("import", "--list")
    assert listed.exit_code == 0
    assert "myapp  My app's own log  fake-pkg" in listed.output
    (line,) = [line for line in listed.output.splitlines() if line.startswith("broken")]
    assert "the plug-in importer broken (fake_pkg.broken) did not load: ImportError" in line
    (named,) = [line for line in listed.output.splitlines() if line.startswith("goat-log")]
    assert named.endswith(
        "the plug-in importer goat-log (fake_pkg.goat-log) calls itself 'myapp' (its NAME): "
        "the entry point's name and NAME must be the same"
    )
    assert sum(line.startswith("myapp ") for line in listed.output.splitlines()) == 1
    assert "Traceback" not in listed.output
    source = tmp_path / "log.txt"
    source.write_text("anything")
    converted = run("check", "--from", "myapp", str(source))
    assert converted.exit_code == 0 and f"{source}#1: legal" in converted.output
    refused = run("import", "broken", str(source))
    assert refused.exit_code == 2 and "did not load" in refused.stderr


def test_finish_trick_events_are_read_as_the_trick_closing() -> None:
    """The app's later streams end a trick with each player's ``finishTrick``; a sluff
    before them goes to the decided trick, and the record is the same."""
    log = message()
    plain = convert(log, ImportOptions())
    at = next(i for i, e in enumerate(log["events"]) if e["type"] == "slough")
    finished = [{"type": "finishTrick", "player": p} for p in range(3)]
    log["events"][at + 1 : at + 1] = finished
    record = convert(log, ImportOptions())
    assert record["actions"] == plain["actions"]
    assert record["deck"] == plain["deck"]


def test_a_sluff_the_app_takes_back_at_the_end_of_part_one_is_kept_not_played() -> None:
    """Part one ends in a round (a player in the war holds no card): the rules take the
    trick back at once, the app only after every ``finishTrick``, and a sluff made in
    between (the app allows it) goes back to its player with the rest.  It changes
    nothing: the record is the game without it, and the event is kept whole."""
    log = message(MIDTRICK)
    at = next(i for i, e in enumerate(log["events"]) if e["type"] == "slough" and i > 90)
    assert log["events"][at] == {"type": "slough", "player": 1, "card": "3C"}
    record = convert(log, ImportOptions())
    without = dict(log, events=log["events"][:at] + log["events"][at + 1 :])
    assert record["actions"] == convert(without, ImportOptions())["actions"]
    assert record["meta"]["_source"]["events"][str(at)] == log["events"][at]
    result = run("check", "--from", "goat-events", str(MIDTRICK))
    assert result.exit_code == 0, result.output


def test_a_sluff_after_part_one_of_a_card_not_held_is_still_named() -> None:
    log = message(MIDTRICK)
    at = next(i for i, e in enumerate(log["events"]) if e["type"] == "slough" and i > 90)
    log["events"][at]["card"] = "AH"  # the third seat's card, not the second's
    assert broken(log).startswith(f"events[{at}]: no player could have made this slough here")


def test_a_player_who_never_drew_three_is_written_with_every_draw() -> None:
    """The app's hands start empty and may be filled late, so a player may draw only two
    cards in all.  The rules' deal cannot say that, so the record writes every draw, and
    the rules refuse the first fourth card in a hand (the others draw the rest of the pack
    without playing), not a count of cards the packs do hold."""
    ranks, suits = "23456789TJQKA", "SHDC"
    pack = [r + s for s in suits for r in ranks]
    events: list[dict[str, Any]] = [{"type": "join", "userId": u} for u in ("a", "b", "c")]
    events.append({"type": "start", "numDecks": 1})
    events += [{"type": "draw", "player": 0, "card": c} for c in pack[:2]]
    events += [{"type": "draw", "player": 1 + k % 2, "card": c} for k, c in enumerate(pack[2:])]
    record = convert({"type": "replay", "events": events}, ImportOptions())
    assert record["start"]["hands"] == {"a": [], "b": [], "c": []}
    first = adjudicate(load_record(record)).violations[0]
    assert (first.rule, first.player, first.index) == ("phase1.draw", "b", 8)


def test_finish_sloughing_events_of_the_apps_earlier_streams_are_read_as_finish_trick() -> None:
    """Between the streams without a trick's end and those with ``finishTrick``, the app
    named the same event ``finishSloughing``: a log of that version reads the same."""
    log = message()
    plain = convert(log, ImportOptions())
    at = next(i for i, e in enumerate(log["events"]) if e["type"] == "slough")
    log["events"][at + 1 : at + 1] = [{"type": "finishSloughing", "player": p} for p in range(3)]
    record = convert(log, ImportOptions())
    assert record["actions"] == plain["actions"]
    assert record["deck"] == plain["deck"]


def test_a_shuffler_the_rules_leave_open_is_an_error_not_a_guess() -> None:
    from adjudicator.engine.state import DealDue

    game = goat_events._Game(message()["events"], ImportOptions(), None)
    game.record()
    game.table.state.deal = DealDue("low_cards", (), (0,), False, frozenset({0, 1}), False)
    game.dreck.first = 7
    with pytest.raises(goat_events.Broken) as caught:
        game._deal(8)
    assert str(caught.value) == (
        "events[7]: who shuffled the dreck cannot be told: any of u-anna, u-bo"
    )


def test_a_run_written_oddly_is_the_events_error() -> None:
    log = message()
    at = next(i for i, e in enumerate(log["events"]) if e["type"] == "playRun")
    log["events"][at]["lo"] = ["2H"]
    assert broken(log) == f"events[{at}].lo: ['2H'] is not a card of the app ('TS', '2H')"


def test_a_file_of_links_gives_one_record_a_line(tmp_path: Path) -> None:
    good = a_link(json.loads(SAMPLE.read_text()))
    links = tmp_path / "links.txt"
    links.write_text(f"{good}\n\n{good[:-30]}\n")
    games = list(importers.read("link", str(links), ImportOptions()))
    assert [g.name for g in games] == [f"{links}:1", f"{links}:3"]
    assert games[0].record is not None and games[0].record["variant"] == "goat"
    assert games[1].error == "the link is damaged: cut short when copied?"
