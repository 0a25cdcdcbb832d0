"""Perft: how many legal action sequences of each length start at a position.

As in chess, the counts are a fingerprint of the move generator: two engines
that agree on every rule agree on every count, and the first depth where they
differ, split by first action (``divide``), leads to the difference.

A deck fixes the stock, so every draw is known and the tree is exact.  With
cards nobody knows (``??``) only actions with known cards are counted.  A deal
(low cards, a trick dealt out) is chance: it counts as the deals the
adjudicator lists (one or two per shuffler), not as every possible shuffle.

A sequence is counted only when every action in it is legal, including a rule
judged after the fact (the Goat treatise's sluffing restriction #2, which the
end of phase one reveals): such a sequence, and all that extend it, are left
out.

Each child is a copy of its parent (:meth:`State.clone`) with one action
applied; at the last depth the children are only counted (``len`` of the legal
list), unless an action there could still reveal a broken restriction #2.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from adjudicator import engine
from adjudicator.actions import Action
from adjudicator.engine.state import PHASE_ONE, State

Generator = Callable[[State], list[Action]]
"""``engine.legal_actions`` or ``engine.legal_by_check``."""


@dataclass
class Divided:
    """The count of sequences of the full depth under one first action."""

    action: Action
    count: int


def _may_turn_late(state: State) -> bool:
    """Whether one more action could reveal a sluff that broke restriction #2 (only the end
    of phase one does, and only with such a sluff on record)."""
    return (
        state.options.sluff_final
        and state.phase == PHASE_ONE
        and bool(state.risky or state.taken_risky)
    )


def _child(state: State, action: Action) -> State | None:
    """``state`` after ``action`` (a copy), or None when the action turns out illegal."""
    child = state.clone()
    engine.apply(child, action)
    return None if child.late is not None else child


def _count(state: State, depth: int, counts: list[int], level: int, generate: Generator) -> None:
    actions = generate(state)
    if not actions:
        return
    if level == depth - 1 and not _may_turn_late(state):
        counts[level] += len(actions)  # bulk counting: the leaves need no state
        return
    for action in actions:
        child = _child(state, action)
        if child is None:
            continue
        counts[level] += 1
        if level + 1 < depth:
            _count(child, depth, counts, level + 1, generate)


def perft(state: State, depth: int, generate: Generator = engine.legal_actions) -> list[int]:
    """The number of legal sequences of 1, 2, ..., ``depth`` actions from ``state``."""
    if depth < 1:
        raise ValueError("depth must be at least 1")
    counts = [0] * depth
    _count(state, depth, counts, 0, generate)
    return counts


def divide(state: State, depth: int, generate: Generator = engine.legal_actions) -> list[Divided]:
    """Under each legal first action, the number of sequences of ``depth`` actions."""
    if depth < 1:
        raise ValueError("depth must be at least 1")
    out: list[Divided] = []
    for action in generate(state):
        child = _child(state, action)
        if child is None:
            continue
        if depth == 1:
            out.append(Divided(action, 1))
            continue
        counts = [0] * (depth - 1)
        _count(child, depth - 1, counts, 0, generate)
        out.append(Divided(action, counts[-1]))
    return out


def nodes(counts: list[int]) -> int:
    """Every position visited (or counted) below the root: the sum over the depths."""
    return sum(counts)
