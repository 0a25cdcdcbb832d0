"""Issue 21: a game followed past its irregularities, taken back or let stand.

Games come from :mod:`adjudicator.play.simulate` with hypothesis-drawn seeds (as in
``tests/engine/test_properties.py``), over every preset and player count.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import listed, play, seeds, tables, unlisted
from hypothesis import HealthCheck, given, settings

from adjudicator import engine
from adjudicator.actions import Action
from adjudicator.cli.commands import main
from adjudicator.play.adjudicate import adjudicate, game_points
from adjudicator.play.replaying import takes_the_turn
from adjudicator.play.table import STANDS, TAKEN_BACK, Table, cannot_play
from adjudicator.record import Game, RecordError, load_record
from adjudicator.record.notation import marked, split_mark
from adjudicator.record.schema import Scoring
from adjudicator.service import verdict

FEW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SCORING = Scoring(loser=-3, places=[2, 1], others=0)


def record(**changes: Any) -> dict[str, Any]:
    """A short real-table game of the basic rules (three players, a stacked deck)."""
    with open("sample_games/pagat_3p_full.json", encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    data.update(changes)
    return data


# --- the notation -------------------------------------------------------------------


@pytest.mark.parametrize("mark", [None, TAKEN_BACK, STANDS])
@pytest.mark.parametrize("text", ["Bo play 7H", "Cai deal Anna:2H,5C Bo:3D", "Bo dare"])
def test_a_mark_round_trips_through_the_string_form(text: str, mark: str | None) -> None:
    assert split_mark(marked(text, mark)) == (text, mark)


def test_the_string_and_object_forms_carry_the_same_marks() -> None:
    data = record()
    texts = dict(data, actions=[*data["actions"][:3], "Bo play 3H -- taken back"])
    objects = dict(
        data,
        actions=[
            *data["actions"][:3],
            {"player": "Bo", "act": "play", "cards": ["3H"], "table": "taken back"},
        ],
    )
    assert load_record(texts).marks == load_record(objects).marks == {3: TAKEN_BACK}
    assert load_record(texts).actions == load_record(objects).actions


@pytest.mark.parametrize(
    "entry, place",
    [
        ("Bo play 3H -- later", "actions[3]"),
        ({"player": "Bo", "act": "play", "cards": ["3H"], "table": "undone"}, "actions[3].table"),
    ],
)
def test_an_unknown_mark_is_invalid_with_its_place(entry: Any, place: str) -> None:
    data = record()
    data["actions"] = [*data["actions"][:3], entry]
    with pytest.raises(RecordError) as caught:
        load_record(data)
    assert caught.value.path.startswith(place)


# --- taken back ---------------------------------------------------------------------


def test_a_legal_action_taken_back_is_a_note_and_is_not_applied() -> None:
    data = record()
    clean = adjudicate(load_record(data))
    data["actions"] = [
        *data["actions"][:3],
        data["actions"][3] + " -- taken back",
        *data["actions"][3:],
    ]
    report = adjudicate(load_record(data))
    assert report.violations == []
    assert [(n.index, n.rule, n.table) for n in report.notes] == [
        (3, "table.taken_back", TAKEN_BACK)
    ]
    assert (report.status, report.loser, report.finished) == ("legal", clean.loser, True)
    assert report.applied == len(data["actions"])


@FEW
@given(tables, seeds)
def test_k_illegal_actions_taken_back_are_each_reported_and_change_nothing(
    table: tuple[str, int], seed: int
) -> None:
    _, game = play(table, seed)
    rng = random.Random(seed)
    clean = adjudicate(game)
    state = engine.new_state(game)
    actions: list[Action] = []
    marks: dict[int, str] = {}
    expected: list[tuple[int, str]] = []
    targets = set(rng.sample(range(len(game.actions)), min(3, len(game.actions))))
    for index, action in enumerate(game.actions):
        if index in targets:
            found, keys = listed(state)
            for bad in unlisted(state, found, keys, rng, 1):
                violation = engine.check(state, bad)
                if violation is None or violation.undetermined or violation.invalid:
                    continue
                marks[len(actions)] = TAKEN_BACK
                expected.append((len(actions), violation.rule))
                actions.append(bad)
        actions.append(action)
        engine.apply(state, action)
    report = adjudicate(replace(game, actions=actions, marks=marks))
    assert [(v.index, v.rule) for v in report.violations] == expected
    assert all(v.table == TAKEN_BACK for v in report.violations)
    assert report.status == ("illegal" if expected else "legal")
    assert (report.finished, report.losers, report.out_order) == (
        clean.finished,
        clean.losers,
        clean.out_order,
    )
    assert report.applied == len(actions)
    if clean.finished:
        assert game_points(SCORING, report, game.players) == game_points(
            SCORING, clean, game.players
        )


@FEW
@given(tables, seeds)
def test_a_legal_record_gives_the_same_report_in_every_mode(
    table: tuple[str, int], seed: int
) -> None:
    _, game = play(table, seed)
    plain = verdict("x", adjudicate(game)).model_dump(mode="json")
    for go_on in (TAKEN_BACK, STANDS):
        assert verdict("x", adjudicate(game, go_on=go_on)).model_dump(mode="json") == plain
    every = replace(game, marks=dict.fromkeys(range(len(game.actions)), STANDS))
    assert verdict("x", adjudicate(every)).model_dump(mode="json") == plain


# --- let stand ----------------------------------------------------------------------


def pack_of(game: Game) -> Counter[int]:
    assert game.deck is not None
    return Counter(game.deck)


@FEW
@given(tables, seeds)
def test_an_illegal_action_let_stand_is_played_and_the_game_goes_on_from_there(
    table: tuple[str, int], seed: int
) -> None:
    """Inject illegal-but-possible actions marked 'stands', go on with random legal play
    from the changed position; the cards are conserved after every step, and every
    action is judged from the position as played."""
    _, game = play(table, seed)
    rng = random.Random(seed)
    pack = pack_of(game)
    live = Table.from_game(game)
    actions: list[Action] = []
    marks: dict[int, str] = {}
    while not live.finished and len(actions) < 400:
        state = live.state
        found, keys = listed(state)
        if not found:
            break
        injected = None
        if rng.random() < 0.08:
            for bad in unlisted(state, found, keys, rng, 3):
                violation = engine.check(state, bad)
                if violation is None or violation.undetermined or violation.invalid:
                    continue
                if cannot_play(state, bad) is None:
                    injected = bad
                    break
        if injected is not None:
            marks[len(actions)] = STANDS
            actions.append(injected)
            trial = replace(game, actions=list(actions), marks=dict(marks))
            report = adjudicate(trial)
            if report.violations and report.violations[-1].unplayable is not None:
                actions.pop()  # the engine found no way to carry it out: the replay stops
                del marks[len(actions)]
            else:
                live = _replayed(trial)
            continue
        rng.shuffle(found)
        for action in found:  # no sluff that restriction #2 would find illegal later
            ahead = live.copy()
            ahead.push(action)
            if ahead.state.late is None:
                break
        else:
            break
        actions.append(action)
        live = ahead
        assert Counter(live.state.all_cards()) == pack
    final = replace(game, actions=actions, marks=marks)
    report = adjudicate(final, steps=True)
    assert [v.index for v in report.violations] == sorted(marks)
    assert all(v.table == STANDS and v.unplayable is None for v in report.violations)
    assert report.applied == len(actions)
    # Judged from the changed position: step a fresh state through the same acts.
    state = engine.new_state(game)
    for index, action in enumerate(actions):
        bad = engine.check(state, action)
        illegal = bad is not None and not bad.undetermined
        assert illegal == (index in marks), (index, action, bad)
        if illegal:
            takes_the_turn(state, action)  # out of turn, the player plays now
        engine.step(state, action)
        assert Counter(state.all_cards()) == pack, index
    assert (report.finished, report.losers) == (
        state.finished,
        [game.players[p] for p in state.losers],
    )


def _replayed(game: Game) -> Table:
    """A table after every action of ``game``, irregularities as the record marks them."""
    from adjudicator.play.table import replay

    table = Table.from_game(game)
    replay(table, game.actions, marks=game.marks)
    return table


def test_an_action_that_cannot_stand_stops_the_replay_there_with_why() -> None:
    data = record()
    data["actions"] = [*data["actions"][:3], "Cai play AS -- stands", *data["actions"][3:]]
    report = adjudicate(load_record(data))
    (bad,) = report.violations
    assert (bad.index, bad.table, report.applied, report.finished) == (3, STANDS, 3, False)
    assert bad.unplayable == "It cannot stand as played: Cai does not hold A♠"
    assert report.status == "illegal" and not report.followed


# --- the command line ---------------------------------------------------------------


def test_check_go_on_reads_unmarked_illegal_actions_and_lists_them_all(tmp_path: Any) -> None:
    data = record()
    a = data["actions"]
    data["actions"] = [*a[:3], a[4], *a[3:10], a[11], *a[10:]]  # two actions out of turn
    path = tmp_path / "log.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    strict = CliRunner().invoke(main, ["check", "--json", str(path)])
    assert strict.exit_code == 1
    assert len(json.loads(strict.output)["violations"]) == 1
    went = CliRunner().invoke(main, ["check", "--json", "--go-on", "taken-back", str(path)])
    out = json.loads(went.output)
    assert went.exit_code == 1
    assert [(v["index"], v["table"]) for v in out["violations"]] == [
        (3, TAKEN_BACK),
        (11, TAKEN_BACK),
    ]
    clean = adjudicate(load_record(record()))
    assert (out["finished"], out["loser"], out["applied"]) == (
        True,
        clean.loser,
        len(data["actions"]),
    )
    human = CliRunner().invoke(main, ["check", "--go-on", "taken-back", str(path)])
    assert "2 irregularities" in human.output
    assert f"loser {clean.loser} as played" in human.output
    told = CliRunner().invoke(main, ["replay", "--go-on", "taken-back", "--to", "4", str(path)])
    assert ": illegal (turn.order), taken back" in told.output
    at = CliRunner().invoke(
        main, ["legal", "--go-on", "taken-back", "--at", "12", "--json", str(path)]
    )
    assert at.exit_code == 0, at.output


# --- the samples --------------------------------------------------------------------


def test_the_app_log_followed_with_go_on_stands(snapshot: Any, monkeypatch: Any) -> None:
    """Read by eye against pagat.com, 'Play in the second phase' (see the sample's notes)."""
    from pathlib import Path

    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    path = "sample_games/app_log_two_bugs.json"
    checked = CliRunner().invoke(main, ["check", "--json", "--go-on", "stands", path])
    verdict = json.loads(checked.output)
    assert checked.exit_code == 1
    assert [(v["index"], v["rule"], v["table"]) for v in verdict["violations"]] == [
        (4, "phase2.beat", STANDS),
        (8, "phase2.beat", STANDS),
    ]
    assert (verdict["finished"], verdict["loser"], verdict["applied"]) == (True, "Bo", 9)
    told = CliRunner().invoke(main, ["replay", "--go-on", "stands", path])
    assert (verdict, told.output) == snapshot


def test_the_page_follows_the_game_past_a_mark_and_lists_what_may_come_next() -> None:
    """The page's 'Let it stand' sends the record with the last action marked."""
    from adjudicator.service import page as calls

    with open("sample_games/app_log_two_bugs.json", encoding="utf-8") as f:
        data = json.load(f)
    data["actions"] = data["actions"][:5]  # Anna's 3♦ on Cai's 4♦
    stopped = calls.replay(json.dumps(data))
    assert stopped["next"] is None
    data["actions"][4] += " -- stands"
    went = calls.replay(json.dumps(data))
    assert went["check"]["violations"][0]["table"] == STANDS
    assert went["steps"][-1]["words"] == (
        "Anna tries to beat 4♦ with 3♦: illegal (phase2.beat), stands"
    )
    assert went["next"]["legal"] == ["Bo play 6D", "Bo pick"]


def test_a_session_game_followed_past_an_irregularity_gives_its_loser_and_scores_on() -> None:
    from adjudicator.play.adjudicate import adjudicate_session
    from adjudicator.record import build, parse_document

    with open("sample_games/goat_session_3_games.json", encoding="utf-8") as f:
        data = json.load(f)
    clean = adjudicate_session(build(parse_document(data)))
    first = data["games"][0]["actions"]
    # Anna plays Dag's card out of turn, and takes it back
    first.insert(1, {"player": "Anna", "act": "play", "cards": ["9H"], "table": "taken back"})
    marked_session = adjudicate_session(build(parse_document(data)))
    assert [(v.game, v.index, v.table) for v in marked_session.violations] == [(0, 1, TAKEN_BACK)]
    assert marked_session.scores == clean.scores
    assert marked_session.points == clean.points
    assert [g.first_leader for g in marked_session.played] == [g.first_leader for g in clean.played]
    assert marked_session.status == "illegal"


def test_a_violation_found_late_names_its_action_in_the_record_past_one_taken_back() -> None:
    """The Goat treatise's restriction #2 is judged when the last trick is known; an action
    taken back before the sluff must not shift the index it is reported at."""
    with open("sample_games/illegal_goat_sluff_final.json", encoding="utf-8") as f:
        data = json.load(f)
    plain = adjudicate(load_record(data)).violations[0]
    a = data["actions"]
    data["actions"] = [
        a[0],
        {"player": "C", "act": "play", "cards": ["9S"], "table": "taken back"},
        *a[1:],
    ]
    report = adjudicate(load_record(data))
    assert [(v.index, v.rule) for v in report.violations][1:] == [
        (plain.index + 1, "phase1.sluff.final")
    ]
    assert report.violations[-1].action == plain.action
