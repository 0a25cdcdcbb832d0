"""``adjudicator simulate`` and the random policy behind it.

The policy must be reproducible and must reach every act a variant has (and
the situations that make the rules interesting), or the property tests would
only ever see the easy half of a game.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator import engine
from adjudicator.actions import Action
from adjudicator.cli.commands import main
from adjudicator.engine.state import PHASE_ONE, PHASE_TWO
from adjudicator.play.simulate import below, choose, game_rng, random_game, simulate
from adjudicator.record import canonical, load_record, parse_record
from adjudicator.rules.presets import PRESETS

MAX_PLAYERS = 6
GAMES_PER_TABLE = 25


def tables(variant: str) -> range:
    """The player counts a variant is simulated at."""
    options = PRESETS[variant].options
    return range(options.min_players, min(options.max_players, MAX_PLAYERS) + 1)


def at(variant: str, players: int):
    """The options the preset has at that table (some change by player count)."""
    return PRESETS[variant].options_for(players)


def test_the_same_seed_gives_the_same_games() -> None:
    assert list(simulate("pagat", 3, 7, 4)) == list(simulate("pagat", 3, 7, 4))


def test_game_k_does_not_depend_on_the_count() -> None:
    assert list(simulate("pagat", 3, 7, 5))[2:4] == list(simulate("pagat", 3, 7, 4))[2:4]


def test_different_seeds_give_different_games() -> None:
    decks = {record["deck"] for seed in range(5) for record in simulate("pagat", 3, seed, 2)}
    assert len(decks) == 10


def test_records_are_canonical_finished_and_name_their_seed() -> None:
    for record in simulate("pagat", 4, 3, 3):
        assert canonical(parse_record(record)) == record
        assert record["result"]["loser"] in record["players"]
        assert load_record(record).claimed_losers is not None
    assert record["meta"] == {"simulated": {"seed": 3, "game": 2}}
    again, _ = random_game("pagat", 4, game_rng(3, 2))
    assert {**again, "meta": record["meta"]} == record


@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_the_policy_reaches_every_act_and_the_awkward_moments(variant: str) -> None:
    """Every act of the variant, picks when a beat was possible, going out mid-trick, bounces."""
    options = PRESETS[variant].options
    listed: set[str] = set()
    chosen: set[str] = set()
    seen: Counter[str] = Counter()
    for players in tables(variant):
        for index in range(GAMES_PER_TABLE):
            _, game = random_game(variant, players, game_rng(0, index))
            state = engine.new_state(game)
            for action in game.actions:
                legal = engine.legal_actions(state)
                listed.update(a.act for a in legal)
                chosen.add(action.act)
                phase = state.phase
                if action.act == "pick" and any(a.act == "play" for a in legal):
                    seen["pick when a play was legal"] += 1
                    seen["phase-one pick"] += state.phase == PHASE_ONE
                hand = len(state.hands[action.player])
                engine.apply(state, action)
                if phase == PHASE_TWO and action.act == "play" and state.trick:
                    seen["out mid-trick"] += hand == len(action.cards)
                if phase == PHASE_ONE and state.trick and len(state.trick) % 2 == 0:
                    seen["bounce"] += 1
                if phase == PHASE_ONE and state.replay:
                    seen["tie played off"] += 1
    assert listed == engine.variant_acts(options), "an act of the variant never became legal"
    assert chosen == listed, "the policy never chose an act that was legal"
    assert seen["pick when a play was legal"] > 0
    assert seen["out mid-trick"] > 0
    if options.phase_one == "pairs" and options.pair_winner == "rank":
        assert seen["bounce"] > 0
    elif options.phase_one == "pairs":
        assert seen["phase-one pick"] > 0
    else:
        assert seen["tie played off"] > 0


def test_choose_draws_the_act_first() -> None:
    plays = [Action(0, "play", (c,)) for c in range(10)]
    others = [Action(0, "pick"), Action(0, "dare")]
    rng = random.Random(1)
    assert all(choose(plays + others, rng, 0.0).act == "play" for _ in range(50))
    assert all(choose(plays + others, rng, 1.0).act != "play" for _ in range(50))
    acts = Counter(choose(plays + others, rng, 1.0).act for _ in range(400))
    assert set(acts) == {"pick", "dare"} and min(acts.values()) > 100
    assert choose(others[:1], rng, 0.0) == others[0]
    with pytest.raises(ValueError, match="no legal action"):
        choose([], rng)


def test_cli_writes_json_lines_to_stdout() -> None:
    result = CliRunner().invoke(main, ["simulate", "--seed", "5", "--count", "3"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [json.loads(line) for line in lines] == list(simulate("pagat", 3, 5, 3))


def test_cli_writes_one_file_per_game_and_they_check_legal(tmp_path: Path) -> None:
    out = tmp_path / "games"
    runner = CliRunner()
    result = runner.invoke(main, ["simulate", "--players", "2", "--count", "3", "--out", str(out)])
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in out.iterdir())
    assert names == [f"pagat-2p-seed0-{i:04d}.json" for i in range(3)]
    written = [json.loads((out / name).read_text(encoding="utf-8")) for name in names]
    assert written == list(simulate("pagat", 2, 0, 3))
    checked = runner.invoke(main, ["check", "--json", str(out)])
    assert checked.exit_code == 0, checked.output
    assert [json.loads(line)["status"] for line in checked.stdout.splitlines()] == ["legal"] * 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "9"], "--players: pagat is for 2-4 players, not 9"),
        (["--variant", "nope"], "--variant: 'nope' is not a variant"),
    ],
)
def test_cli_rejects_a_bad_table_in_one_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["simulate", *args])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1


EVERY_TABLE = [
    (name, players)
    for name, preset in sorted(PRESETS.items())
    for players in range(preset.options.min_players, preset.options.max_players + 1)
]


@pytest.mark.parametrize(("variant", "players"), EVERY_TABLE)
def test_every_preset_at_every_player_count_its_text_allows_plays_legal_finished_games(
    variant: str, players: int
) -> None:
    """Every table a text allows (the Goat's 3-10 with its double deck from seven; Mattis,
    Koira and Myllymatti up to the 17 one pack seats): simulated games check legal,
    finished, with the loser they claim."""
    from adjudicator.play.adjudicate import adjudicate

    for record in simulate(variant, players, 5, 3 if players <= 10 else 1):
        report = adjudicate(load_record(record))
        assert report.status == "legal", report.violations[:1]
        assert report.finished
        claim = record["result"]
        assert report.losers == claim.get("losers", [claim.get("loser")])


def test_below_draws_as_random_choice_draws() -> None:
    """simulate.below stands in for rng.choice (seeded games must not change): the same
    index, and the generator left in the same state, for lengths 1 to 300."""
    for seed in range(40):
        mine, theirs = random.Random(seed), random.Random(seed)
        for n in [*range(1, 70), 127, 128, 129, 255, 256, 257, 300]:
            items = list(range(n))
            assert items[below(mine, n)] == theirs.choice(items)
        assert mine.getstate() == theirs.getstate()
