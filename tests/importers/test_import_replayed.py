"""``check --from goat-events`` reads a game's verdict off the importer's own replay (issue 40).

The importer replays every event through the engine to learn who made it; where every
action was legal as it came, that replay is the check's, and the verdict is concluded
on its table instead of replaying the converted record again.  It must be the verdict
of checking the record from scratch, word for word, on every kind of game: finished,
unfinished, illegal, under the app's rules and the text's, with one pack or two.
The games are the engine's own, written as the app's spectator stream by
benchmarks/import_speed.py's writer.
"""

from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from adjudicator import bulk
from adjudicator.bulk import record_text
from adjudicator.cli.commands import main
from adjudicator.importers import ImportOptions, goat_replay
from adjudicator.importers.goat_events import Broken, convert_replayed
from adjudicator.play.adjudicate import (
    Replayed,
    adjudicate,
    adjudicate_replayed,
    document_from_text,
)
from adjudicator.record import load_record

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import import_speed

BATCH = Path(__file__).parent / "import_logs" / "goat_batch.jsonl"


def logs(players: int, decks: int, count: int) -> list[dict[str, Any]]:
    """``count`` legal games under the app's rules as spectator streams, and for each a
    copy cut short (unfinished) and one with two events swapped (often illegal)."""
    rng = random.Random(players * 10 + decks)
    out = []
    for record in import_speed.app_games(players, 40 + players, count, decks):
        log = import_speed.events_of(record)
        events = log["events"]
        at = rng.randrange(players + 2, len(events) - 1)
        swapped = list(events)
        swapped[at], swapped[at + 1] = swapped[at + 1], swapped[at]
        out += [log, {**log, "events": events[:at]}, {**log, "events": swapped}]
    return out


def verdicts(log: dict[str, Any], rules: str) -> tuple[str, str, bool] | None:
    """The check --json line from scratch and off the import's replay, and whether the
    replay was used; None for a log that cannot be converted."""
    try:
        record, replayed, _places = convert_replayed(copy.deepcopy(log), ImportOptions(rules=rules))
    except Broken:
        return None
    text = record_text(record)
    scratch = bulk.check_source(bulk.Source("g.json", text=text), as_json=True)
    used = replayed is not None and adjudicate_replayed(document_from_text(text), replayed)
    again, replayed, _places = convert_replayed(copy.deepcopy(log), ImportOptions(rules=rules))
    # as check --from hands it on in one process: the record itself, not its text
    off = bulk.Source("g.json", replayed=replayed, record=again)
    read_off = bulk.check_source(off, as_json=True, keep_text=True)
    assert read_off.text == text  # what --write-* writes: the text check read from scratch
    assert scratch.json_line is not None and read_off.json_line is not None
    return scratch.json_line, read_off.json_line, bool(used)


@pytest.mark.parametrize(("players", "decks"), [(2, 1), (3, 2), (4, 1), (6, 2)])
def test_the_verdict_off_the_import_is_the_check_from_scratch(players: int, decks: int) -> None:
    used = {"legal": 0, "illegal": 0, "unfinished": 0}
    for log in logs(players, decks, 6):
        for rules in ("app", "text"):
            got = verdicts(log, rules)
            if got is None:
                continue
            scratch, read_off, was_used = got
            assert read_off == scratch
            if was_used:
                verdict = json.loads(read_off)
                assert rules == "app", "a replay under the app's rules judged a --rules text record"
                used[verdict["status"]] += 1
                used["unfinished"] += not verdict["finished"]
    assert used["legal"] > 0 and used["unfinished"] > 0  # the shortcut is taken
    assert used["illegal"] == 0  # a game the check objects to is checked from scratch


def test_a_replay_that_is_not_the_records_is_not_read_off() -> None:
    log = import_speed.events_of(import_speed.app_games(3, 5, 1)[0])
    record, replayed, _places = convert_replayed(log, ImportOptions())
    assert replayed is not None
    text = record_text(record)
    shorter = {**record, "actions": record["actions"][:-1]}
    assert adjudicate_replayed(document_from_text(record_text(shorter)), replayed) is None
    others = {**record, "players": ["X", "Y", "Z"]}
    others["actions"] = [
        " ".join([others["players"][record["players"].index(a.split()[0])], *a.split()[1:]])
        for a in record["actions"]
    ]
    others["dealer"], others["first_leader"] = "Z", "X"
    assert adjudicate_replayed(document_from_text(record_text(others)), replayed) is None
    swapped = Replayed(replayed.table, replayed.actions[:-1])
    assert adjudicate_replayed(document_from_text(text), swapped) is None
    report = adjudicate_replayed(document_from_text(text), replayed)
    assert report is not None and report.status == "legal"


def test_check_from_gives_the_same_lines_in_one_process_as_in_workers() -> None:
    one = CliRunner().invoke(main, ["check", "--from", "goat-events", "--json", str(BATCH)])
    two = CliRunner().invoke(
        main, ["check", "--from", "goat-events", "--json", "--jobs", "2", str(BATCH)]
    )
    assert one.exit_code == two.exit_code != 0
    assert one.output == two.output
    assert '"status": "legal"' in one.output


def test_the_words_written_are_each_actions_own() -> None:
    """Each action's words in the record are ``Action.text``'s for the action the importer
    pushed: the common events' words from the seat's tables and the off-path ones (a
    sluff, a dare, a trick taken, a pick or a play made by ``_action``) written at once."""
    acts: set[str] = set()
    for players, decks in ((2, 1), (4, 1), (5, 2)):
        for log in logs(players, decks, 4):
            try:
                record, replayed, _places = convert_replayed(copy.deepcopy(log), ImportOptions())
            except Broken:
                continue
            if replayed is None:  # a game the rules object to somewhere: checked from scratch
                continue
            names = record["players"]
            assert record["actions"] == [action.text(names) for action in replayed.actions]
            acts.update(action.act for action in replayed.actions)
    assert {"play", "pick", "sluff", "dare", "take", "deal"} <= acts


def two_sloughs(log: dict[str, Any]) -> int | None:
    """The first slough right after a slough by the same seat (one sluff of two cards,
    as the app writes it), or None."""
    events = log["events"]
    for i in range(1, len(events)):
        now, before = events[i], events[i - 1]
        if now["type"] == before["type"] == "slough" and now["player"] == before["player"]:
            return i
    return None


def test_a_sluff_of_two_cards_written_as_two_sloughs_is_no_late_draw() -> None:
    """The app writes a sluff of several cards as one slough a card, then the draws: the
    second slough is not a play made short of cards.  Where the record writes its draws
    (as for a log where someone drew late), the sloughs are one sluff of two cards, and
    under the treatise's rules no short-handed act."""
    log = next(
        g
        for g in (import_speed.events_of(r) for r in import_speed.app_games(4, 7, 60))
        if two_sloughs(g)
    )
    at = two_sloughs(log)
    assert at is not None
    record, _replayed, _places = convert_replayed(copy.deepcopy(log), ImportOptions(rules="text"))
    assert "deck" in record  # the rules' own draws: nobody drew late
    seat = log["events"][at]["player"]
    cards = [log["events"][at - 1]["card"], log["events"][at]["card"]]
    game = goat_replay._Game(copy.deepcopy(log)["events"], ImportOptions(rules="text"), None, True)
    record = game.record()  # the reading that writes every draw, as for a late one
    assert "start" in record and game.clean
    name = record["players"][seat]
    assert f"{name} sluff {' '.join(cards)}" in record["actions"]
    verdict = adjudicate(load_record(record))  # every draw in time: nothing owed
    assert verdict.violations == [] or "phase1.draw.owed" not in {
        v.rule for v in verdict.violations
    }
