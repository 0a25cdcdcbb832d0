"""``Table.pop``: after ``push(a)`` then ``pop()`` the table is as it was, in every respect.

Held at every step of every shipped sample and of seeded random games of every preset
(hidden cards too): the view, the legal actions (as engine values and as record forms),
whose turn, the history, the outcome, and what the next push says happened.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from adjudicator import IllegalActionError, Table
from adjudicator.play.adjudicate import adjudicate_session, document_from_text
from adjudicator.play.simulate import game_rng, random_game
from adjudicator.play.simulate import hide as hidden
from adjudicator.record import Game, RecordError, Session
from adjudicator.rules.presets import PRESETS
from adjudicator.samples import names, text


def picture(table: Table) -> tuple[Any, ...]:
    """Everything a caller can read off a table."""
    return (
        table.view(),
        table.legal_actions,
        table.legal_forms(),
        table.turn,
        table.history,
        table.finished,
        table.outcome,
        repr(table),
    )


def round_trip(game: Game) -> int:
    """Push each action of ``game``, pop it, compare, push it again; the steps checked."""
    table = Table.from_game(game)
    checked = 0
    for action in game.actions:
        before = picture(table)
        probe = table.copy()
        try:
            said = probe.push(action)
        except (IllegalActionError, RecordError):
            break
        table.push(action)
        assert table.pop() == action
        assert picture(table) == before, f"action {checked}"
        assert table.push(action) == said  # the same events again: nothing left over
        checked += 1
    return checked


def games_of(name: str) -> list[Game]:
    try:
        document = document_from_text(text(name))
    except RecordError:
        return []  # the invalid samples: no table to set
    if isinstance(document, Session):
        try:
            return list(adjudicate_session(document).played)
        except RecordError:
            return []
    return [document]


@pytest.mark.parametrize("name", names())
def test_pop_undoes_every_step_of_every_sample(name: str) -> None:
    games = games_of(name)
    for game in games:
        round_trip(game)


def test_samples_are_walked() -> None:
    """The test above walks real games, not empty ones: most samples push many actions."""
    walked = sum(round_trip(g) for n in names() for g in games_of(n))
    assert walked > 5000


@pytest.mark.parametrize("variant", sorted(PRESETS))
@pytest.mark.parametrize("hide", [0.0, 0.3])
def test_pop_undoes_every_step_of_seeded_games(variant: str, hide: float) -> None:
    players = max(3, PRESETS[variant].options.min_players)
    for seed in range(2):
        record, game = random_game(variant, players, game_rng(seed, 0))
        if hide:
            record = hidden(record, game, hide, game_rng(seed, 1))
        game = document_from_text(json.dumps(record))
        assert isinstance(game, Game)
        assert round_trip(game) == len(game.actions) > 0


def test_pop_on_a_fresh_table_raises_index_error() -> None:
    table = Table.from_game(document_from_text(text("pagat_3p_full")))  # type: ignore[arg-type]
    with pytest.raises(IndexError):
        table.pop()
