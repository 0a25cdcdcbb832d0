"""Property tests over random rule-option combinations.

The preset games of ``test_properties`` cover the options each preset uses;
these draw every phase-two option at random instead, and play random legal
games from two kinds of table: random ``start`` positions in phase two (cards
out of play, players starting without cards) and full deals with two players,
where the avstickshög (``reserve``) lives, and deals for two to eight players
with everybody playing each trick and every phase-one option drawn too.  The
same invariants hold:
conservation, ``legal_actions``/``check`` agreement, every game checks legal
and the loser agrees, and one unlisted action is caught at its index.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from conftest import listed, unlisted
from hypothesis import given
from hypothesis import strategies as st
from test_properties import (
    PROPERTY,
    assert_generated_is_checked,
    assert_one_wrong_action_is_caught,
    assert_rule,
)

from adjudicator import engine
from adjudicator.actions import Action
from adjudicator.cards import FULL_PACK, card_code
from adjudicator.engine.state import State
from adjudicator.play import simulate as simulation
from adjudicator.play.adjudicate import adjudicate
from adjudicator.play.simulate import NAMES
from adjudicator.record import FORMAT, Game, load_record
from adjudicator.rules.options import RuleOptions

MAX_ACTIONS = 20_000
"""Random play under ``high_trump: only_killer`` may circle for ever (only one card kills);
other games end, though random picking at an eight-player table can take thousands of actions."""

PHASE_TWO_CHOICES: dict[str, tuple[Any, ...]] = {
    "sequences": ("off", "two", "three", "from_two"),
    "pick_from": ("top", "bottom"),
    "pick_takes": ("card", "play", "joined"),
    "forced_pick": (False, True),
    "complete_suit": (False, True),
    "anti_trump": ("none", "same_colour", "electric_clubs"),
    "trump_ends_trick": (False, True),
    "high_trump": ("none", "kill_only", "only_killer"),
    "empty_hand_at_phase_two": ("out", "blamattis", "lose"),
}


PHASE_ONE_CHOICES: dict[str, tuple[Any, ...]] = {
    "dare": (True, False),
    "phase_two_leader": ("trump_drawer", "last_trick_winner"),
    "multi_card_plays": (False, True),
    "tie_rule": ("highest", "tied_beat_unique", "all_tied"),
    "compulsory_ties": (False, True),
    "tie_resolution": ("replay", "deal_ascending"),
    "sluffing": ("none", "once", "unlimited", "own_rank", "atlanta"),
    "sluff_top_first": (False, True),
    "sluff_final": (False, True),
    "phase_one_end": (
        "no_card",
        "talon_empty",
        "two_cards",
        "all_hold",
        "still_to_play",
        "skip_empty",
    ),
    "unfinished_trick": ("take_back", "deal_out"),
    "draw_back": ("automatic", "any_time", "without_delay"),
    "low_cards": (0, 5, 6, 7, 10),
    "low_cards_by_indicator": (False, True),
    "low_cards_six_of_trumps": (False, True),
    "low_cards_shares": ("deal_order", "even"),
    "low_cards_shuffler": ("not_receiving", "anyone", "first_leader"),
    "aces_low": (False, True),
    "trump_card": ("stock_last", "set_aside"),
    "first_lead": ("dealer_left", "previous_loser"),
    "decks": (1, 2),
}
PAIRS_CHOICES: dict[str, tuple[Any, ...]] = {
    "dare": (True, False),
    "pair_winner": ("rank", "suit"),
    "pair_reply": ("any", "beat_or_pick", "follow_or_pick"),
    "set_aside_trumps": (False, True),
    "exchange_two": (False, True),
    "trump_card": ("stock_last", "turned_up"),
    "phase_one_end": ("no_card", "talon_empty", "skip_empty"),
    "aces_low": (False, True),
    "decks": (1, 2),
    "low_cards": (0, 5, 7),
    "pick_leads": ("left", "picker"),
    "specials_turn": ("any_time", "own_turn"),
    "dare_by": ("any", "leader"),
    "failed_dare": ("played", "pick_up"),
}
FIXED = {"min_players", "max_players", "hand_size", "phase_one", "reserve"}
"""Options not drawn at random: the table size, the kind of phase one, the avstickshög."""


def test_every_option_is_drawn_here() -> None:
    """A new option must be added to a draw, or it goes untested."""
    drawn = set(PHASE_TWO_CHOICES) | set(PHASE_ONE_CHOICES) | set(PAIRS_CHOICES) | FIXED
    assert set(RuleOptions.model_fields) == drawn


def lawful(options: dict[str, Any]) -> dict[str, Any]:
    """Mend a random draw into a combination the options allow (the draw stays random)."""
    out = dict(options)
    if out.get("sluffing") != "unlimited":
        out["sluff_top_first"] = False
    if out.get("sluffing", "none") == "none":
        out["sluff_final"] = False
    if out.get("trump_card") == "set_aside":
        out["phase_two_leader"] = "last_trick_winner"
    if out.get("phase_one") != "all":
        if out.get("trump_card") != "turned_up":
            out.update(pair_winner="rank", set_aside_trumps=False, exchange_two=False)
        if out.get("pair_winner") != "suit":
            out["pair_reply"] = "any"
        if out.get("pair_reply", "any") == "any":
            out.update(pick_leads="left", failed_dare="played")
    RuleOptions(**out)  # raises if a combination is still refused
    return out


def random_options(rng: random.Random) -> dict[str, Any]:
    """Each phase-two option at a random value."""
    return {name: rng.choice(values) for name, values in PHASE_TWO_CHOICES.items()}


def start_record(rng: random.Random) -> dict[str, Any]:
    """A random phase-two position: some cards out of play, maybe a player without cards."""
    n = rng.randint(2, 4)
    names = list(NAMES[:n])
    pack = list(FULL_PACK)
    rng.shuffle(pack)
    in_play = pack[: rng.randint(2 * n, 52)]
    hands: dict[str, list[str]] = {name: [] for name in names}
    empty = rng.choice([None, *names]) if n > 2 and rng.random() < 0.3 else None
    holders = [name for name in names if name != empty]
    for i, card in enumerate(in_play):
        who = holders[i % len(holders)] if i < len(holders) else rng.choice(holders)
        hands[who].append(card_code(card))
    return {
        "format": FORMAT,
        "variant": "pagat",
        "options": random_options(rng),
        "players": names,
        "start": {
            "phase": 2,
            "trump": rng.choice("SHDC"),
            "leader": rng.choice(holders),
            "hands": hands,
        },
        "actions": [],
    }


def reserve_record(rng: random.Random) -> dict[str, Any]:
    """A two-player deal with an avstickshög of random size and random phase-two options."""
    pack = list(FULL_PACK)
    rng.shuffle(pack)
    return {
        "format": FORMAT,
        "variant": "pagat",
        "options": {**random_options(rng), "reserve": rng.choice((2, 6, 12, 20))},
        "players": list(NAMES[:2]),
        "dealer": NAMES[rng.randrange(2)],
        "deck": " ".join(card_code(c) for c in pack),
        "actions": [],
    }


def all_players_record(rng: random.Random) -> dict[str, Any]:
    """A deal for two to ten players, everybody playing each trick, every option at random."""
    n = rng.randint(2, 10)
    options = {name: rng.choice(values) for name, values in PHASE_ONE_CHOICES.items()}
    options.update(random_options(rng))
    options.update(phase_one="all", min_players=2, max_players=10)
    if n > 8:
        options["decks"] = 2
    return deal_record(rng, n, lawful(options))


def pairs_record(rng: random.Random) -> dict[str, Any]:
    """A deal for two to six players with two-card tricks, every option at random."""
    n = rng.randint(2, 6)
    options = {name: rng.choice(values) for name, values in PAIRS_CHOICES.items()}
    options.update(random_options(rng))
    options.update(phase_one="pairs", min_players=2, max_players=6)
    return deal_record(rng, n, lawful(options))


def deal_record(rng: random.Random, n: int, options: dict[str, Any]) -> dict[str, Any]:
    """A shuffled pack (or two) for ``n`` players under ``options``."""
    cards = list(FULL_PACK) * options.get("decks", 1)
    rng.shuffle(cards)
    record = {
        "format": FORMAT,
        "variant": "pagat",
        "options": options,
        "players": list(NAMES[:n]),
        "dealer": NAMES[rng.randrange(n)],
        "deck": " ".join(card_code(c) for c in cards),
        "actions": [],
    }
    if options.get("first_lead") == "previous_loser":
        record["first_leader"] = NAMES[rng.randrange(n)]
    return record


def play_out(record: dict[str, Any], rng: random.Random) -> tuple[Game, bool]:
    """Random legal actions until the end (or the cap), checking the invariants at each step."""
    game = load_record(record)
    pack = Counter(engine.new_state(game).all_cards())

    def observe(state: State, actions: list[Action], _: Action) -> None:
        assert Counter(state.all_cards()) == pack, f"cards lost or made by {game.actions[-1:]}"
        _, keys = listed(state)
        assert_generated_is_checked(state)
        assert actions, f"stuck after {len(game.actions)} actions with {record['options']}"
        for action in actions:
            assert engine.check(state, action) is None, action
        for action in unlisted(state, actions, keys, rng, 2):
            assert_rule(engine.check(state, action), action)

    state = simulation.play_out(game, rng, rng.uniform(0.05, 0.4), observe, MAX_ACTIONS)
    if not state.finished:
        # Picking one card at a time, ten players with two packs can walk for long
        # past the cap (seed 241); from here on nobody picks while a play is legal,
        # so a game that still does not end is the engine's fault, not the dice's.
        state = simulation.play_out(game, rng, 0.0, observe, 2 * MAX_ACTIONS)
    assert Counter(state.all_cards()) == pack
    return game, state.finished


def as_record(record: dict[str, Any], game: Game) -> dict[str, Any]:
    """``record`` with the actions played."""
    return {**record, "actions": [a.record_form(game.players) for a in game.actions]}


tables = st.sampled_from([start_record, reserve_record, all_players_record, pairs_record])
seeds = st.integers(min_value=0, max_value=2**32 - 1)


@PROPERTY
@given(tables, seeds)
def test_random_options_play_legal_games_that_check_legal(table: Any, seed: int) -> None:
    rng = random.Random(seed)
    record = table(rng)
    game, finished = play_out(record, rng)
    if record["options"]["high_trump"] != "only_killer":
        assert finished, f"no end after {2 * MAX_ACTIONS} actions with {record['options']}"
    report = adjudicate(load_record(json.dumps(as_record(record, game))))
    assert report.status == "legal", report.violations[:1]
    assert report.applied == len(game.actions)
    assert report.finished == finished


@PROPERTY
@given(tables, seeds)
def test_random_options_one_unlisted_action_is_caught_at_its_index(table: Any, seed: int) -> None:
    rng = random.Random(seed)
    record = table(rng)
    game, _ = play_out(record, rng)
    assert_one_wrong_action_is_caught(game, rng)
