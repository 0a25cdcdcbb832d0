"""Property tests over records of real tables: simulated games with cards written as ``??``.

``simulate.hide`` writes a share of each deck as ``??``, keeping what the
actions show (every dare names its card; a hidden trump card is replaced by the
suit it showed).  The full record and the hidden one describe the same game, so:

- the hidden record is never illegal (it may be undetermined where hidden cards
  keep a check from being made), and when no check was undetermined it gets the
  same verdict as the full record;
- the engine always knows how many cards each place holds (the same counts as
  the full replay), every known card is in exactly one place, and the copies
  nobody knows are exactly as many as the places holding unknown cards;
- one wrong action is still caught, by the same rule, whenever the cards it
  names are known and the rule it breaks does not read a hidden hand;
- ``legal_actions`` lists exactly what ``check`` passes after every step, also
  when the record does not say the trump suit (a hidden trump card, no ``trump``).

Every preset is drawn, at every player count up to six (and the Goat's double
deck at seven and eight).
"""

from __future__ import annotations

import random
from collections import Counter

from conftest import unlisted
from hypothesis import given
from hypothesis import strategies as st
from test_properties import PROPERTY, assert_generated_is_checked

from adjudicator import engine
from adjudicator.cards import UNKNOWN
from adjudicator.engine.state import State
from adjudicator.play.adjudicate import adjudicate
from adjudicator.play.simulate import hide, random_game
from adjudicator.record import load_record
from adjudicator.rules.presets import PRESETS

TABLES = [
    (name, players)
    for name, preset in sorted(PRESETS.items())
    for players in range(preset.options.min_players, min(preset.options.max_players, 6) + 1)
] + [("goat", 7), ("goat", 8)]

READS_HIDDEN = {
    "phase1.tie.compulsory",
    "phase1.pick.follow",
    "phase2.high_trump",
    "deal.cards",
    "game.stopped",
}
"""Rules whose check reads a hand (or all hands): with hidden cards they may be undetermined."""

tables = st.sampled_from(TABLES)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
shares = st.sampled_from([0.25, 0.6, 1.0])


def both(table: tuple[str, int], seed: int, share: float):
    """The full and the hidden record of one simulated game, loaded."""
    variant, players = table
    rng = random.Random(seed)
    record, game = random_game(variant, players, rng)
    hidden = hide(record, game, share, rng)
    return load_record(record), load_record(hidden)


def counts(state: State) -> tuple[list[int], list[int], int, int]:
    """How many cards each hand and pile holds, the stock, the trick."""
    hands = [state.count(p) for p in range(state.n)]
    piles = [len(pile) + state.pile_hidden[p] for p, pile in enumerate(state.piles)]
    trick = sum(len(c) for _, c in state.trick) + sum(len(c) for _, c in state.sluffs)
    return hands, piles, len(state.stock), trick


def assert_conserved(state: State) -> None:
    """Every known card in exactly one place; unknown copies as many as unknown places."""
    known = Counter(state.all_cards())
    decks = state.options.decks
    for card in range(52):
        assert known[card] + state.unseen[card] == decks, (card, known[card], state.unseen[card])
    assert sum(state.unseen) == state.unknown_places()


@PROPERTY
@given(tables, seeds, shares)
def test_a_hidden_record_is_never_illegal_and_agrees_when_nothing_was_undetermined(
    table: tuple[str, int], seed: int, share: float
) -> None:
    full, hidden = both(table, seed, share)
    told = adjudicate(full)
    seen = adjudicate(hidden)
    assert told.status == "legal"
    assert seen.status == "legal", seen.violations[:1]
    if not seen.undetermined:
        assert (seen.finished, seen.losers, seen.applied) == (
            told.finished,
            told.losers,
            told.applied,
        )
    else:
        assert all(note.undetermined for note in seen.undetermined)
        if not seen.stopped:
            assert (seen.finished, seen.losers) == (told.finished, told.losers)


@PROPERTY
@given(tables, seeds, shares)
def test_the_engine_knows_how_many_cards_each_place_holds(
    table: tuple[str, int], seed: int, share: float
) -> None:
    full, hidden = both(table, seed, share)
    whole = engine.new_state(full)
    part = engine.new_state(hidden)
    for action, written in zip(full.actions, hidden.actions, strict=True):
        if part.stopped is not None:
            break
        assert counts(part) == counts(whole)
        assert_conserved(part)
        assert part.turn == whole.turn and part.phase == whole.phase
        engine.apply(whole, action)
        engine.apply(part, written)
    if part.stopped is None:
        assert counts(part) == counts(whole)
        assert_conserved(part)


def known_everywhere(state: State, cards: tuple[int, ...]) -> bool:
    """Whether every card named is known to be somewhere (none could be behind a ``??``)."""
    return all(state.unseen[c] == 0 for c in cards) and UNKNOWN not in cards


@PROPERTY
@given(tables, seeds, shares)
def test_a_wrong_action_with_known_cards_is_still_caught(
    table: tuple[str, int], seed: int, share: float
) -> None:
    full, hidden = both(table, seed, share)
    rng = random.Random(seed)
    target = rng.randrange(len(full.actions))
    whole = engine.new_state(full)
    part = engine.new_state(hidden)
    for action, written in zip(full.actions[:target], hidden.actions[:target], strict=True):
        if part.stopped is not None:
            return  # the game's course depends on hidden cards from here on
        engine.apply(whole, action)
        engine.apply(part, written)
    if part.stopped is not None:
        return
    listed = engine.legal_actions(whole)
    keys = {(a.player, a.act, tuple(sorted(a.cards)), a.to) for a in listed}
    for wrong in unlisted(whole, listed, keys, rng, 6):
        told = engine.check(whole, wrong)
        if told is None or told.rule in READS_HIDDEN:
            continue
        named = wrong.cards + tuple(c for _, cards in wrong.to for c in cards)
        if not known_everywhere(part, named):
            continue
        seen = engine.check(part, wrong)
        assert seen is not None and not seen.undetermined, (wrong, told, seen)
        assert seen.rule == told.rule, (wrong, told, seen)


@PROPERTY
@given(tables, seeds, shares, st.booleans())
def test_legal_actions_and_check_agree_with_hidden_cards(
    table: tuple[str, int], seed: int, share: float, forget_trump: bool
) -> None:
    variant, players = table
    rng = random.Random(seed)
    record, game = random_game(variant, players, rng)
    hidden = hide(record, game, share, rng)
    if forget_trump:
        hidden.pop("trump", None)  # the trump card is hidden and nobody wrote its suit
    state = engine.new_state(load_record(hidden))
    for action in load_record(hidden).actions:
        if state.stopped is not None or state.finished:
            break
        assert_generated_is_checked(state)
        engine.apply(state, action)
    assert_generated_is_checked(state)
