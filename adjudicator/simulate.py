"""Random legal games, played through the engine's own ``legal_actions``.

The policy only ever picks from ``legal_actions``, so nothing here knows a
rule: a new variant is simulated the moment its preset exists.  The property
tests then hold ``check`` and ``legal_actions`` against each other over these
games, and the benchmark replays them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from adjudicator import engine
from adjudicator.actions import Action
from adjudicator.cards import FULL_PACK, card_code
from adjudicator.engine.state import State
from adjudicator.record import FORMAT, Game
from adjudicator.rules.presets import find_variant

NAMES = ("Anna", "Bo", "Cai", "Dag", "Eva", "Finn", "Gun", "Hugo")

MAX_ACTIONS = 100_000
"""A game still going after this many actions means the engine never ends it."""

Observer = Callable[[State, list[Action], Action], None]
"""Called before each action is applied: the state, the legal actions, the choice."""


def game_rng(seed: int, index: int) -> random.Random:
    """The generator of game ``index`` of a run with ``seed``.

    Each game has its own generator, so game 7 of a run is the same game
    whatever ``--count`` was, and a failing game can be replayed alone.
    """
    return random.Random(f"skitgubbe/{seed}/{index}")


def random_game(
    variant: str,
    players: int,
    rng: random.Random,
    observe: Observer | None = None,
) -> tuple[dict[str, Any], Game]:
    """Deal a shuffled pack and play random legal actions to the end.

    Returns the record (a JSON-ready dict in canonical form) and the Game it
    describes.  ``observe`` sees every step before it is applied, which lets
    the property tests inspect states without replaying the game again.
    """
    preset = find_variant(variant)
    names = NAMES[:players]
    deck = list(FULL_PACK)
    rng.shuffle(deck)
    dealer = rng.randrange(players)
    game = Game(
        variant=variant,
        options=preset.options,
        players=names,
        actions=[],
        dealer=dealer,
        first_leader=(dealer + 1) % players,
        deck=tuple(deck),
    )
    # How often this game's players take a non-play act when a play is also
    # legal: varied per game so the corpus holds cautious and reckless tables.
    rate = rng.uniform(0.05, 0.4)
    state = engine.new_state(game)
    while not state.finished:
        if len(game.actions) >= MAX_ACTIONS:
            raise RuntimeError(f"{variant}, {players} players: no end after {MAX_ACTIONS} actions")
        choices = engine.legal_actions(state)
        action = choose(choices, rng, rate)
        if observe is not None:
            observe(state, choices, action)
        game.actions.append(action)
        engine.apply(state, action)
    record: dict[str, Any] = {
        "format": FORMAT,
        "variant": variant,
        "options": {},
        "players": list(names),
        "dealer": names[dealer],
        "deck": " ".join(card_code(c) for c in deck),
        "actions": [a.record_form(names) for a in game.actions],
    }
    if state.loser is not None:
        record["result"] = {"loser": names[state.loser]}
    return record, game


def choose(choices: list[Action], rng: random.Random, rate: float = 0.2) -> Action:
    """A random legal action, drawn act first so every act the variant has is seen.

    Plays are the ordinary move; with probability ``rate`` (or always, when no
    play is legal) one of the other acts available now is taken instead, each
    act equally likely, then one action of that act.
    """
    if not choices:
        raise ValueError("no legal action to choose from: the engine reports a stuck game")
    by_act: dict[str, list[Action]] = {}
    for action in choices:
        by_act.setdefault(action.act, []).append(action)
    plays = by_act.pop("play", None)
    if plays is not None and (not by_act or rng.random() >= rate):
        return rng.choice(plays)
    act = rng.choice(sorted(by_act))
    return rng.choice(by_act[act])


def simulate(variant: str, players: int, seed: int, count: int) -> Iterator[dict[str, Any]]:
    """``count`` random legal games as records; the same seed gives the same games.

    Each record's ``meta`` names the seed and game number that reproduce it.
    """
    for index in range(count):
        record, _ = random_game(variant, players, game_rng(seed, index))
        record["meta"] = {"simulated": {"seed": seed, "game": index}}
        yield record
