"""Property tests over random legal games of every variant and player count.

Games come from :mod:`adjudicator.play.simulate` with hypothesis-drawn seeds, so a
failure shrinks to a small seed that ``adjudicator simulate --seed`` cannot
reproduce directly but ``random_game(variant, players, Random(seed))`` can.
Nothing here names a variant: every preset in PRESETS is played at every
player count it allows (capped at six), so variants added later are covered
the day they appear; and so is each larger table where a preset's options change.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from conftest import listed, named_cards, play, seeds, tables, unlisted
from hypothesis import HealthCheck, given, settings

from adjudicator import IllegalActionError, Table, engine
from adjudicator.actions import Action
from adjudicator.bulk import result_json
from adjudicator.cards import FULL_PACK, PARSE, Card, cards_text
from adjudicator.engine.events import Act, Event
from adjudicator.engine.state import PHASE_TWO, State
from adjudicator.play import legal, listing
from adjudicator.play.adjudicate import adjudicate
from adjudicator.record import Game, build_game, canonical, load_record, parse_record

RULE_ID = re.compile(r"^[a-z0-9_]+(\.[a-z0-9_]+)*$")
PROPERTY = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def states(game: Game):
    """(index, state before action index) for every action, then (len, final state).

    The same State object is yielded each time, mutated in place between steps.
    """
    state = engine.new_state(game)
    for index, action in enumerate(game.actions):
        yield index, state
        engine.apply(state, action)
    yield len(game.actions), state


def assert_generated_is_checked(state: State) -> None:
    """``legal_actions`` generates directly; it must list exactly what ``check`` passes,
    and ``check`` must say the same with its fast path as without it (the fast path is off
    on a copy of the state: ``plain_play``), so that a rule the fast path or the generator
    skips cannot hide behind the other."""
    generated = engine.legal_actions(state)
    assert len(set(generated)) == len(generated), "legal_actions lists an action twice"
    checked = engine.legal_by_check(state)
    assert set(generated) == set(checked)
    if state.plain_play:
        whole_way = state.clone()
        whole_way.plain_play = False
        assert set(engine.legal_by_check(whole_way)) == set(checked)


def assert_rule(violation: Any, action: Action) -> None:
    """A failed check names a well-formed rule id and says why."""
    assert violation is not None, f"{action} is not listed, yet check passes it"
    assert RULE_ID.match(violation.rule), violation.rule
    assert violation.message


@PROPERTY
@given(tables, seeds)
def test_simulated_games_check_legal_finish_and_agree_on_the_loser(
    table: tuple[str, int], seed: int
) -> None:
    record, _ = play(table, seed)
    report = adjudicate(load_record(json.dumps(record)))
    assert report.status == "legal", report.violations[:1]
    assert report.finished
    assert report.applied == len(record["actions"])
    assert report.loser == record.get("result", {}).get("loser")


@PROPERTY
@given(tables, seeds)
def test_every_card_of_the_pack_is_in_exactly_one_place_after_every_step(
    table: tuple[str, int], seed: int
) -> None:
    _, game = play(table, seed)
    assert game.deck is not None
    pack = Counter(game.deck)
    for index, state in states(game):
        found = Counter(state.all_cards())
        assert found == pack, (
            f"after {index} actions: missing {sorted((pack - found).elements())}, "
            f"extra {sorted((found - pack).elements())}"
        )


@PROPERTY
@given(tables, seeds)
def test_legal_actions_and_check_agree(table: tuple[str, int], seed: int) -> None:
    _, game = play(table, seed)
    rng = random.Random(seed)
    for _, state in states(game):
        assert_generated_is_checked(state)
        actions, keys = listed(state)
        for action in actions:
            assert engine.check(state, action) is None, action
            if action.act in ("pick", "dare") and not action.cards:
                named = action._replace(cards=named_cards(state, action))
                assert engine.check(state, named) is None, named
        for action in unlisted(state, actions, keys, rng, 3):
            assert_rule(engine.check(state, action), action)


@PROPERTY
@given(tables, seeds)
def test_one_unlisted_action_makes_the_game_illegal_at_exactly_its_index(
    table: tuple[str, int], seed: int
) -> None:
    _, game = play(table, seed)
    assert_one_wrong_action_is_caught(game, random.Random(seed))


def assert_one_wrong_action_is_caught(game: Game, rng: random.Random) -> None:
    """Replace a random action of the legal ``game`` by an unlisted one: illegal right there."""
    if not game.actions:
        return
    target = rng.randrange(len(game.actions))
    state = engine.new_state(game)
    for action in game.actions[:target]:
        engine.apply(state, action)
    actions, keys = listed(state)
    (bad,) = unlisted(state, actions, keys, rng, 1)
    expected = engine.check(state, bad)
    assert expected is not None
    mutated = replace(game, actions=[*game.actions[:target], bad, *game.actions[target + 1 :]])
    report = adjudicate(mutated)
    assert report.status == "illegal"
    assert report.applied == target
    first = report.violations[0]
    assert (first.index, first.rule) == (target, expected.rule)


@PROPERTY
@given(tables, seeds)
def test_phase_two_beats_only_upwards_in_suit_or_with_a_trump(
    table: tuple[str, int], seed: int
) -> None:
    """The family's beating rule (pagat.com, Wikipedia, the Goat treatise): an oracle for ``beats``.

    A play onto a trick in phase two is a higher card (run) of the top play's
    suit, or trumps on a non-trump; variant options only ever forbid more.
    """
    _, game = play(table, seed)
    for index, state in states(game):
        if index == len(game.actions) or state.phase != PHASE_TWO or not state.trick:
            continue
        action = game.actions[index]
        if action.act != "play":
            continue
        top = state.trick[-1][1]
        suit = action.cards[0] // 13
        said = f"action {index}, {action.text(game.players)}, onto {cards_text(top)}"
        assert all(c // 13 == suit for c in action.cards), said
        if suit == top[0] // 13:
            assert min(action.cards) > max(top), said
        else:
            assert suit == state.trump != top[0] // 13, f"{said}, trump {state.trump}"


SPELLINGS: dict[Card, list[str]] = {}
for _text, _card in PARSE.items():
    SPELLINGS.setdefault(_card, []).append(_text)


def respelled(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The same record written differently: card spellings, case, deck and action forms."""

    def spell(code: str) -> str:
        text = rng.choice(SPELLINGS[PARSE[code]])
        return text.lower() if rng.random() < 0.3 else text

    out = dict(record)
    deck = [spell(c) for c in record["deck"].split()]
    out["deck"] = deck if rng.random() < 0.5 else " ".join(deck)
    actions: list[Any] = []
    for text in record["actions"]:
        if isinstance(text, dict):  # a deal: respell the cards each receiver got
            to = {name: [spell(c) for c in got] for name, got in text["to"].items()}
            actions.append({**text, "to": to})
            continue
        player, act, *codes = text.split()
        cards = [spell(c) for c in codes]
        form = rng.randrange(3)
        if form == 0:
            actions.append(" ".join([player, act, *cards]))
        else:
            entry: dict[str, Any] = {"player": player, "act": act}
            if cards or rng.random() < 0.5:
                entry["cards"] = cards if form == 1 else " ".join(cards)
            actions.append(entry)
    out["actions"] = actions
    return out


def verdict(data: dict[str, Any]) -> dict[str, Any]:
    """The contract's check result for a decoded record."""
    return result_json("r.json", adjudicate(build_game(parse_record(data))), None)


@PROPERTY
@given(tables, seeds)
def test_canonical_round_trip(table: tuple[str, int], seed: int) -> None:
    record, game = play(table, seed)
    rng = random.Random(seed)
    # Make about half of the records illegal, so violations round-trip too.
    if rng.random() < 0.5:
        index = rng.randrange(len(game.actions))
        names = game.players
        wrong = Action(
            (game.actions[index].player + 1) % len(names), "play", (rng.choice(FULL_PACK),)
        )
        record = {**record, "actions": list(record["actions"])}
        record["actions"][index] = wrong.text(names)

    parsed = parse_record(record)
    text = json.dumps(canonical(parsed), ensure_ascii=False)
    again = parse_record(json.loads(text))
    assert again == parsed
    assert canonical(again) == canonical(parsed) == record

    noisy = respelled(record, rng)
    assert canonical(parse_record(noisy)) == record
    assert verdict(noisy) == verdict(canonical(parse_record(noisy))) == verdict(record)


@PROPERTY
@given(tables, seeds)
def test_a_table_stepped_by_hand_agrees_with_adjudicate_and_legal_at_every_step(
    table: tuple[str, int], seed: int
) -> None:
    """Table, adjudicate and legal.position are one replay: at every step of a simulated
    game the Table's legal actions are legal.position's, each action pushes, and the end
    is adjudicate's; an action the Table refuses is the one adjudicate would reject."""
    _, game = play(table, seed)
    report = adjudicate(game)
    board = Table.from_game(game)
    rng = random.Random(seed)
    for index, action in enumerate(game.actions):
        if index % 7 == 0 or index == len(game.actions) - 1:
            where = legal.position(game, index)
            assert listing.forms(board.legal_actions, game.players) == where.legal
        assert board.check(action) is None or board.check(action).undetermined
        if rng.random() < 0.05:  # a copy steps on alone
            other = board.copy()
            other.push(action)
            assert len(other.history) == len(board.history) + 1
        happened = board.push(action)
        assert isinstance(happened[0], Event) and any(isinstance(e, Act) for e in happened)
    assert board.history == tuple(game.actions)
    outcome = board.outcome
    assert outcome is not None and list(outcome.losers) == report.losers
    assert board.legal_actions == [] and board.finished == report.finished


@PROPERTY
@given(tables, seeds)
def test_a_table_refuses_an_unlisted_action_with_adjudicates_rule(
    table: tuple[str, int], seed: int
) -> None:
    """One action the generator does not list, pushed on a Table, raises the violation
    adjudicate reports for the same record cut there (rule id and message)."""
    _, game = play(table, seed)
    rng = random.Random(seed)
    at = rng.randrange(len(game.actions))
    board = Table.from_game(game)
    for action in game.actions[:at]:
        board.push(action)
    actions, keys = listed(board.state)
    (wrong,) = unlisted(board.state, actions, keys, rng, 1)
    bad = engine.check(board.state, wrong)
    if bad is None or bad.undetermined or bad.invalid:
        return
    cut = replace(game, actions=[*game.actions[:at], wrong])
    expected = adjudicate(cut).violations[0]
    with pytest.raises(IllegalActionError) as caught:
        board.push(wrong)
    got = caught.value.violation
    assert (got.rule, got.message, got.index) == (expected.rule, expected.message, at)
    assert got.alternatives == expected.alternatives
    assert len(board.history) == at
