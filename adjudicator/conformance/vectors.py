"""Test vectors: positions sampled from seeded games, with what is legal there.

Each vector is one JSON object (one line of JSON Lines): the position as a
record that any engine reading the record format can load (the deck and the
actions so far; for the next game of a session, a session record whose last
game is the one in play), who is to act, ``legal`` (every legal action in record
notation, sorted, deals summed up as ``adjudicator legal`` does) and
``refused``: near misses with the rule id that refuses each.

Games come from :func:`adjudicator.play.simulate.random_game`, so the same seed gives
the same games and the same file, byte for byte.  Positions are drawn with a
per-game generator, always including the first position of every phase the game
reaches (phase one, the intermission where the trump is revealed and low cards
may be dealt, a deal, phase two), so a short file still covers them all.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from adjudicator import engine, record
from adjudicator.actions import Action
from adjudicator.cards import UNKNOWN, card_code
from adjudicator.engine.state import PHASE_ONE, State
from adjudicator.play import listing
from adjudicator.play.simulate import NAMES, dealt_game, game_rng, hide, play_out, random_game
from adjudicator.record import SESSION_FORMAT, Game
from adjudicator.rules.presets import find_variant

FORMAT = "skitgubbe-vectors/1"
"""The ``format`` of every vector line."""

SAMPLE_RATE = 0.3
"""The share of a game's other positions written as vectors (phase starts always are)."""

REFUSED_MAX = 6
"""Near misses listed per position: the first refused by each rule, up to this many."""

SESSION_EVERY = 4
"""Games 1, 5, 9, ... of a run are the second game of a two-game session."""

PHASES = ("phase one", "intermission", "deal", "phase two")
"""What a vector's ``phase`` may say (the next game of a session is told by ``game``)."""


@dataclass
class Vector:
    """One position and what the rules say there (before it is written as JSON).

    ``state`` is the game's own state, valid only until the next vector is drawn:
    use it (or write the line) before asking for the next one.
    """

    id: str
    phase: str
    at: int
    game: int
    record: dict[str, Any]
    state: State
    names: tuple[str, ...]
    legal: list[Action]
    """``engine.legal_actions`` at the position (computed once, by whoever had it)."""


def default_players(variant: str) -> int:
    """Three where the variant seats three, else its smallest table."""
    options = find_variant(variant).options
    return 3 if options.min_players <= 3 <= options.max_players else options.min_players


def phase_of(state: State, intermission: bool) -> str:
    """The phase tag of a position: what part of the rules an engine is tested on."""
    if state.deal is not None:
        return "deal"
    if state.phase == PHASE_ONE:
        return "phase one"
    return "intermission" if intermission else "phase two"


def sort_key(form: listing.Form) -> str:
    """Record forms in one order: a string by its text, a deal by its JSON text."""
    return form if isinstance(form, str) else listing.show(form)


def legal_forms(actions: list[Action], names: tuple[str, ...]) -> list[listing.Form]:
    """Every legal action as a unique record form, sorted (strings first, then deals)."""
    texts = {a.text(names) for a in actions if a.act != "deal"}
    deals = listing.forms((a for a in actions if a.act == "deal"), names)
    return sorted(texts) + sorted(deals, key=sort_key)


def line(vector: Vector) -> dict[str, Any]:
    """The vector as written: the position, who acts, the legal list and the near misses."""
    state = vector.state
    names = vector.names
    every = legal_forms(vector.legal, names)
    listed, more = listing.summary(every)
    if state.deal is not None:
        to_move = [names[p] for p in sorted(state.deal.shufflers)]
    else:
        to_move = [names[state.turn]] if state.turn is not None else []
    out: dict[str, Any] = {
        "format": FORMAT,
        "id": vector.id,
        "phase": vector.phase,
        "game": vector.game,
        "at": vector.at,
        "record": vector.record,
        "to_move": to_move,
        "legal": listed,
    }
    if more is not None:
        out["more_deals"] = len(every) - len(listed)
    if any(state.hidden) or UNKNOWN in state.stock:
        pairs = engine.unseen_actions(state)
        out["with_unseen"] = sorted(listing.forms((a for a, _ in pairs), names), key=sort_key)
    out["refused"] = [
        {"action": a.record_form(names), "rule": rule} for a, rule in refused(state, vector.legal)
    ]
    return out


# --- near misses ------------------------------------------------------------------

HELD_TRIES = 3
"""Held cards tried as plays that the rules refuse (they mostly break the same rule)."""


def _near_misses(state: State, allowed: set[Action]) -> Iterator[Action]:
    """Actions a careless engine might allow here: most are illegal (``check`` decides)."""
    n = state.n
    acts = state.acts
    due = state.deal
    if due is not None:
        deals = sorted((a for a in allowed if a.act == "deal"), key=lambda a: a.to)
        for other in range(n):
            if other not in due.shufflers and deals:
                yield deals[0]._replace(player=other)  # not the one who shuffles
        if deals and deals[0].to:
            receiver, cards = deals[0].to[0]
            yield deals[0]._replace(to=((receiver, cards[:-1]), *deals[0].to[1:]))  # one short
        for p in range(n):
            if state.hands[p]:
                yield Action(p, "play", (state.hands[p][0],))  # playing before the deal
        return
    player = state.turn if state.turn is not None else 0
    hand = state.hands[player]
    tried = 0
    for card in hand:
        action = Action(player, "play", (card,))
        if action not in allowed and tried < HELD_TRIES:
            tried += 1
            yield action  # a held card that may not be played
    for other in range(n):
        if other != player and state.hands[other]:
            yield Action(player, "play", (state.hands[other][0],))  # a card not held
            yield Action(other, "play", (state.hands[other][-1],))  # out of turn
            break
    if "pick" in acts:
        yield Action(player, "pick")
        if hand:
            yield Action(player, "pick", (hand[0],))  # naming cards the rule does not take
    if "dare" in acts:
        yield Action(player, "dare")
    if "sluff" in acts and hand:
        yield Action(player, "sluff", (hand[-1],))
        for other in range(n):
            if other != player and state.hands[other]:
                yield Action(other, "sluff", (state.hands[other][0],))
                break
    if "take" in acts:
        yield Action(player, "take")
    if "draw" in acts:
        yield Action(player, "draw")  # a full hand, or an empty stock
        for other in range(n):
            if other != player:
                yield Action(other, "draw")  # out of turn: allowed whenever a hand is short
                break
    if "exchange" in acts and hand:
        yield Action(player, "exchange", (hand[-1],))  # not the two of trumps, or not now
    if "set_aside" in acts and len(hand) >= 3:
        yield Action(player, "set_aside", tuple(hand[:3]))  # not three trumps, or not now
    if len(hand) >= 2 and hand[0] % 13 != hand[1] % 13:
        yield Action(player, "play", (hand[0], hand[1]))  # two cards of different ranks


def refused(state: State, legal_now: list[Action]) -> list[tuple[Action, str]]:
    """Near misses that ``check`` refuses outright, the first for each rule, with its id."""
    allowed = set(legal_now)
    out: list[tuple[Action, str]] = []
    rules: set[str] = set()
    seen: set[Action] = set()
    for action in _near_misses(state, allowed):
        if action in seen or action in allowed:
            continue
        seen.add(action)
        bad = engine.check(state, action)
        if bad is None or bad.undetermined or bad.invalid or bad.rule in rules:
            continue
        rules.add(bad.rule)
        out.append((action, bad.rule))
        if len(out) >= REFUSED_MAX:
            break
    return out


# --- sampling ---------------------------------------------------------------------


class _Sampler:
    """Decides, position by position, which ones become vectors; keeps the written lines.

    It watches a game being played (as a :data:`~adjudicator.play.simulate.Observer`,
    which hands it ``legal_actions`` already made) or replayed (hidden cards).
    """

    def __init__(self, label: str, number: int, names: tuple[str, ...], seed: str) -> None:
        self.label = label
        self.number = number
        self.names = names
        self.pick = random.Random(seed)
        self.last = ""
        self.was_one = True
        self.rows: list[tuple[int, str, dict[str, Any]]] = []
        """(at, id, line without its record) of each position chosen."""

    def __call__(self, state: State, choices: list[Action], action: Action | None = None) -> None:
        at = state.steps
        while self.rows and self.rows[-1][0] >= at:
            self.rows.pop()  # the game was taken back (a sluff found illegal later)
        tag = phase_of(state, self.was_one and state.phase != PHASE_ONE)
        first = tag != self.last
        self.last = tag
        self.was_one = state.phase == PHASE_ONE or state.deal is not None
        chosen = self.pick.random() < SAMPLE_RATE
        if not (first or chosen):
            return
        if state.options.sluff_final:
            choices = engine.legal_actions(state)  # the simulation may have left some out
        if not choices:
            return
        vector = Vector(f"{self.label}-a{at}", tag, at, self.number, {}, state, self.names, choices)
        self.rows.append((at, vector.id, line(vector)))

    def lines(self, record_at: Callable[[int], dict[str, Any]]) -> Iterator[dict[str, Any]]:
        """The chosen lines with their records filled in."""
        for at, _, row in self.rows:
            row["record"] = record_at(at)
            yield row


def _replay(game: Game, sampler: _Sampler) -> None:
    """Replay a record with hidden cards, showing every position to ``sampler``."""
    state = engine.new_state(game)
    for action in game.actions:
        if state.stopped is not None or state.finished:
            return
        sampler(state, engine.legal_actions(state))
        bad = engine.check(state, action)
        if bad is not None and not bad.undetermined:
            return  # cannot happen for simulated games; never sample past it
        engine.apply(state, action)


def _game_part(record_dict: dict[str, Any], in_session: bool) -> dict[str, Any]:
    """The fixed part of a position's record: the game without actions, result and meta
    (a game of a session also without format, variant, options and players)."""
    drop = {"actions", "result", "meta"}
    if in_session:
        drop |= {"format", "variant", "options", "players"}
    return {k: v for k, v in record_dict.items() if k not in drop}


def _next_game(
    variant: str,
    rng: random.Random,
    first: Game,
    first_dict: dict[str, Any],
    sampler: _Sampler,
) -> tuple[dict[str, Any], Game] | None:
    """The game after ``first`` at the same table: the deal passes left; where the rules
    say so, the previous loser leads (written as ``first_leader``)."""
    options = first.options
    claim = first_dict.get("result", {})
    losers = [claim["loser"]] if "loser" in claim else claim.get("losers", [])
    if not losers:
        return None
    names = first.players
    players = len(names)
    dealer = ((first.dealer or 0) + 1) % players
    goat = options.first_lead == "previous_loser"
    leader = names.index(losers[0]) if goat else (dealer + 1) % players
    deck = list(first.deck or ())
    rng.shuffle(deck)
    game = dealt_game(variant, options, names, dealer, leader, deck)
    play_out(game, rng, rng.uniform(0.05, 0.4), sampler)
    part: dict[str, Any] = {"dealer": names[dealer]}
    if goat:
        part["first_leader"] = names[leader]
    part["deck"] = " ".join(card_code(c) for c in deck)
    part["actions"] = [a.record_form(names) for a in game.actions]
    return part, game


def _one_run(
    variant: str, players: int, seed: int, index: int, hidden: float
) -> Iterator[dict[str, Any]]:
    """The vector lines of game ``index`` of a run (the second game of a session for every
    :data:`SESSION_EVERY`-th game from game 1)."""
    rng = game_rng(seed, index)
    label = f"{variant}-{players}p-s{seed}-g{index}"
    names = NAMES[:players]
    pick_seed = f"vectors/{seed}/{index}"
    if index % SESSION_EVERY == 1:
        first_dict, first = random_game(variant, players, rng)
        sampler = _Sampler(label, 1, names, pick_seed)
        following = _next_game(variant, rng, first, first_dict, sampler)
        if following is not None:
            part, _ = following
            fixed = _game_part(part, True)
            session = {
                "format": SESSION_FORMAT,
                "variant": variant,
                "options": {},
                "players": list(names),
                "games": [
                    _game_part(first_dict, True)
                    | {"actions": first_dict["actions"], "result": first_dict["result"]}
                ],
            }

            def in_session(at: int) -> dict[str, Any]:
                game = fixed | {"actions": part["actions"][:at]}
                return session | {"games": [*session["games"], game]}

            yield from sampler.lines(in_session)
            return
    sampler = _Sampler(label, 0, names, pick_seed)
    if hidden:
        record_dict, game = random_game(variant, players, rng)
        record_dict = hide(record_dict, game, hidden, rng)
        loaded = record.load(record_dict)
        assert isinstance(loaded, Game)
        _replay(loaded, sampler)
    else:
        record_dict, game = random_game(variant, players, rng, sampler)
    fixed = _game_part(record_dict, False)
    written = record_dict["actions"]
    yield from sampler.lines(lambda at: fixed | {"actions": written[:at]})


def sample(
    variant: str, players: int, seed: int, count: int, hidden: float = 0.0
) -> Iterator[dict[str, Any]]:
    """``count`` vector lines from seeded games of ``variant``; the same seed, the same ones."""
    made = 0
    index = 0
    while made < count:
        for row in _one_run(variant, players, seed, index, hidden):
            yield row
            made += 1
            if made >= count:
                return
        index += 1


def write(variant: str, players: int, seed: int, count: int, hidden: float = 0.0) -> Iterator[str]:
    """The vectors as JSON Lines (each line ends in a newline)."""
    for row in sample(variant, players, seed, count, hidden):
        yield json.dumps(row, ensure_ascii=False) + "\n"
