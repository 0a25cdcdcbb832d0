"""Random legal games, played through the engine's own ``legal_actions``.

The policy only ever picks from ``legal_actions``, so nothing here knows a
rule: a new variant is simulated the moment its preset exists.  The property
tests then hold ``check`` and ``legal_actions`` against each other over these
games, and the benchmark replays them.

One rule can only be judged after the fact: the Goat treatise's sluffing
restriction #2 (no sluff to what turns out to be the last trick of phase one
while you could still win it).  When a random sluff turns out to have broken
it, the game is taken back to that sluff and played on from there without
such sluffs.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from operator import attrgetter, countOf
from typing import Any

from adjudicator import engine
from adjudicator.actions import Action
from adjudicator.cards import UNKNOWN_TEXT, Card, card_code, pack
from adjudicator.engine import phase_one_all
from adjudicator.engine.state import OVER, State
from adjudicator.record import FORMAT, Game, trump_card_index
from adjudicator.rules.options import RuleOptions
from adjudicator.rules.presets import find_variant

_FIRST = ("Anna", "Bo", "Cai", "Dag", "Eva", "Finn", "Gun", "Hugo", "Ida", "Jon")
NAMES: tuple[str, ...] = _FIRST + tuple(f"P{i}" for i in range(len(_FIRST) + 1, 53))

_ACT = attrgetter("act")

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


def dealt_game(
    variant: str,
    options: RuleOptions,
    names: tuple[str, ...],
    dealer: int,
    leader: int,
    deck: list[Card],
) -> Game:
    """A game dealt from ``deck``, no action yet; where the rules say who leads (the
    previous loser), ``leader`` is written as the record's ``first_leader``."""
    return Game(
        variant=variant,
        options=options,
        players=names,
        actions=[],
        dealer=dealer,
        first_leader=leader,
        first_leader_given=options.first_lead == "previous_loser",
        deck=tuple(deck),
    )


def random_game(
    variant: str,
    players: int,
    rng: random.Random,
    observe: Observer | None = None,
    options: RuleOptions | None = None,
    limit: int = MAX_ACTIONS,
) -> tuple[dict[str, Any], Game]:
    """Deal a shuffled pack and play random legal actions to the end (or ``limit``).

    Returns the record (a JSON-ready dict in canonical form) and the Game it
    describes.  ``observe`` sees every step before it is applied, which lets
    the property tests inspect states without replaying the game again.
    """
    if options is None:
        options = find_variant(variant).options_for(players)
    names = NAMES[:players]
    deck = list(pack(options.decks))
    rng.shuffle(deck)
    dealer = rng.randrange(players)
    goat = options.first_lead == "previous_loser"
    first = rng.randrange(players) if goat else (dealer + 1) % players
    game = dealt_game(variant, options, names, dealer, first, deck)
    # How often this game's players take a non-play act when a play is also
    # legal: varied per game so the corpus holds cautious and reckless tables.
    rate = rng.uniform(0.05, 0.4)
    state = play_out(game, rng, rate, observe, limit)
    record: dict[str, Any] = {
        "format": FORMAT,
        "variant": variant,
        "options": {},
        "players": list(names),
        "dealer": names[dealer],
    }
    if goat:
        record["first_leader"] = names[first]
    record["deck"] = " ".join(card_code(c) for c in deck)
    record["actions"] = [
        a.text(names) if a.act != "deal" else a.record_form(names) for a in game.actions
    ]
    if len(state.losers) == 1:
        record["result"] = {"loser": names[state.losers[0]]}
    elif state.losers:
        record["result"] = {"losers": [names[p] for p in state.losers]}
    return record, game


def play_out(
    game: Game,
    rng: random.Random,
    rate: float,
    observe: Observer | None = None,
    limit: int = MAX_ACTIONS,
) -> State:
    """Append random legal actions to ``game`` until it ends (or ``limit`` actions).

    A sluff found afterwards to break the Goat treatise's restriction #2 takes
    the game back to that sluff; from there on such sluffs are avoided.
    """
    careful = False
    state = engine.new_state(game)
    state.telling = False  # nobody reads what the acts cause: no event is made
    actions = game.actions
    legal_actions, apply = engine.legal_actions, engine.apply  # looked up once: the loop is hot
    for action in actions:
        apply(state, action)
    while state.phase != OVER:
        if len(actions) >= limit:
            if limit == MAX_ACTIONS:
                raise RuntimeError(f"{game.variant}: no end after {limit} actions")
            break
        choices = legal_actions(state)
        if not choices and engine.ends_when_window_closes(state):
            engine.close_window(state)  # nobody sluffs any more: the game ends
            continue
        if careful:
            choices = [a for a in choices if a.act != "sluff" or not _risky(state, a)] or choices
        action = choose(choices, rng, rate)
        if observe is not None:
            observe(state, choices, action)
        actions.append(action)
        apply(state, action)
        if state.late is not None:
            assert state.late.index is not None
            del game.actions[state.late.index :]
            state = engine.new_state(game)
            state.telling = False
            for earlier in game.actions:
                engine.apply(state, earlier)
            careful = True
    state.telling = True  # the state handed back tells again, as any other
    return state


def _risky(state: State, action: Action) -> bool:
    """A sluff that would break restriction #2 should this trick be the last of phase one."""
    return (
        action.act == "sluff"
        and state.options.sluff_final
        and phase_one_all.could_win(state, action.player)
    )


def choose(choices: list[Action], rng: random.Random, rate: float = 0.2) -> Action:
    """A random legal action, drawn act first so every act the variant has is seen.

    Plays are the ordinary move; with probability ``rate`` (or always, when no
    play is legal) one of the other acts available now is taken instead, each
    act equally likely, then one action of that act.
    """
    if not choices:
        raise ValueError("no legal action to choose from: the engine reports a stuck game")
    # The same draws from ``rng`` as grouping the choices by act would make (seeded
    # games stay the same), counted in C: the phases list the plays first, and most
    # often nothing or one pick or dare after them.
    count = countOf(map(_ACT, choices), "play")
    if count == len(choices):
        return choices[below(rng, count)]
    if count == len(choices) - 1 and choices[-1].act != "play":
        plays, rest, acts = choices[:-1], choices[-1:], [choices[-1].act]
    else:
        plays = [a for a in choices if a.act == "play"]
        rest = [a for a in choices if a.act != "play"]
        acts = [a.act for a in rest]
    if plays and rng.random() >= rate:
        return plays[below(rng, len(plays))]
    kinds = sorted(set(acts))
    act = kinds[below(rng, len(kinds))]
    if len(kinds) == 1:
        return rest[below(rng, len(rest))]
    of_act = [a for a in rest if a.act == act]
    return of_act[below(rng, len(of_act))]


def below(rng: random.Random, n: int) -> int:
    """A random index below ``n`` (> 0), drawn exactly as ``rng.choice`` draws it (CPython's
    ``_randbelow_with_getrandbits``: ``n.bit_length()`` bits until they fall below ``n``),
    so seeded games stay the same, but without two Python-level calls per action."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def hide(record: dict[str, Any], game: Game, share: float, rng: random.Random) -> dict[str, Any]:
    """The record as a table might have written it: ``share`` of the deck replaced by ``??``.

    What the actions show stays shown: every dare names the card it turned
    (the table saw it), a deal names its cards; the turned-up trump of Mas lies
    face up, so it stays written; a hidden trump card is replaced by the suit it
    showed, as the top-level ``trump``.
    """
    deck = record["deck"].split()
    keep = set()
    at = trump_card_index(game.options, len(game.players))
    if game.options.trump_card == "turned_up":
        keep.add(at)
    places = [i for i in range(len(deck)) if i not in keep]
    hidden = set(rng.sample(places, round(share * len(places))))
    out = dict(record)
    out["deck"] = " ".join(UNKNOWN_TEXT if i in hidden else c for i, c in enumerate(deck))
    if at in hidden:
        out["trump"] = deck[at][-1]
    state = engine.new_state(game)
    actions: list[Any] = []
    for action, written in zip(game.actions, record["actions"], strict=True):
        if action.act == "dare" and not action.cards and state.stock:
            top = state.stock[-1]
            actions.append(f"{written} {card_code(top)}")
        else:
            actions.append(written)
        engine.apply(state, action)
    out["actions"] = actions
    return out


def simulate(
    variant: str, players: int, seed: int, count: int, hidden: float = 0.0
) -> Iterator[dict[str, Any]]:
    """``count`` random legal games as records; the same seed gives the same games.

    Each record's ``meta`` names the seed and game number that reproduce it.
    With ``hidden`` that share of each deck is written as ``??``.
    """
    for index in range(count):
        rng = game_rng(seed, index)
        record, game = random_game(variant, players, rng)
        if hidden:
            record = hide(record, game, hidden, rng)
        record["meta"] = {"simulated": {"seed": seed, "game": index}}
        if hidden:
            record["meta"]["simulated"]["hidden"] = hidden
        yield record
