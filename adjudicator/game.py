"""A record resolved to seats and cards: the frozen values the engine replays.

Built by :mod:`adjudicator.record` and read by the engine, which therefore
imports this module and never the record layer (no pydantic models, no words).
Frozen, so a replay cannot change the game it replays: a session that learns
who leads the next game makes a changed copy (:func:`dataclasses.replace`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from adjudicator.actions import Action
from adjudicator.cards import Card
from adjudicator.rules.options import RuleOptions

if TYPE_CHECKING:  # for the annotations only: the record layer is never imported here
    from adjudicator.record import Record, Scoring, SessionRecord


@dataclass(frozen=True)
class Start:
    """A start position resolved to seats; card lists may hold UNKNOWN."""

    phase: int
    leader: int
    hands: list[list[Card]]
    trump: int | None = None
    stock: list[Card] = field(default_factory=list)
    """Top card first."""
    piles: list[list[Card]] = field(default_factory=list)
    trump_card: Card | None = None
    trump_holder: int | None = None
    stored: list[list[Card]] = field(default_factory=list)
    reserve: list[Card] = field(default_factory=list)
    """Top card first."""
    written: int = 0
    """How many cards the position names or hides with ``??``."""


@dataclass(frozen=True)
class Game:
    """A validated record, resolved to indices: what the engine replays."""

    variant: str
    options: RuleOptions
    players: tuple[str, ...]
    actions: list[Action]
    """The one mutable part: a simulation appends to it (the attribute itself is fixed)."""
    dealer: int | None = None
    first_leader: int | None = None
    first_leader_given: bool = False
    deck: tuple[Card, ...] | None = None
    start: Start | None = None
    trump_hint: int | None = None
    """The suit the top-level ``trump`` gives for an unknown trump card."""
    claimed_losers: tuple[int, ...] | None = None
    claim_several: bool = False
    """The claim was written as ``losers`` (a list) rather than ``loser``."""
    record: Record | None = field(default=None, repr=False, compare=False)
    marks: dict[int, str] = field(default_factory=dict)
    """What the table did about an action, by index: 'taken back' or 'stands'."""
    comments: dict[int, str] = field(default_factory=dict)
    """The note a person wrote beside an action, by index: shown, never read by the rules."""


@dataclass(frozen=True)
class Session:
    """A validated session: its games in order, and the scoring."""

    variant: str
    options: RuleOptions
    players: tuple[str, ...]
    games: tuple[Game, ...]
    scoring: Scoring | None = None
    claimed_scores: dict[int, int] | None = None
    record: SessionRecord | None = field(default=None, repr=False, compare=False)
