"""Random legal games, played through the engine's own ``legal_actions``."""

from __future__ import annotations

import random
from typing import Any

from adjudicator import engine
from adjudicator.actions import Action
from adjudicator.cards import FULL_PACK, card_code
from adjudicator.record import FORMAT, Game
from adjudicator.rules.presets import find_variant

NAMES = ("Anna", "Bo", "Cai", "Dag", "Eva", "Finn", "Gun", "Hugo")


def random_game(variant: str, players: int, rng: random.Random) -> tuple[dict[str, Any], Game]:
    """Deal a shuffled pack and play random legal actions to the end.

    Returns the record (as a JSON-ready dict) and the Game it describes.
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
    state = engine.new_state(game)
    while not state.finished:
        choices = engine.legal_actions(state)
        action = _choose(choices, rng)
        game.actions.append(action)
        engine.apply(state, action)
    loser = names[state.loser] if state.loser is not None else None
    record: dict[str, Any] = {
        "format": FORMAT,
        "variant": variant,
        "players": list(names),
        "dealer": names[dealer],
        "deck": " ".join(card_code(c) for c in deck),
        "actions": [a.text(names) for a in game.actions],
    }
    if loser is not None:
        record["result"] = {"loser": loser}
    return record, game


def _choose(choices: list[Action], rng: random.Random) -> Action:
    """A random legal action; dares and picks get a fair share so every act is seen."""
    picks = [a for a in choices if a.act != "play"]
    plays = [a for a in choices if a.act == "play"]
    if picks and (not plays or rng.random() < 0.2):
        return rng.choice(picks)
    return rng.choice(plays)
