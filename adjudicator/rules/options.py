"""RuleOptions: one field per rule choice, each citing the text that states it.

Sources are the files of ``shared/rule-sources`` by number: 000 is the pagat.com
page (primary), 002 the Wikipedia article, 003 the Goat treatise, 004 the
two-page summary.  Engine code reads these fields, never a variant's name.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class RuleOptions(BaseModel):
    """The rule choices of one variant.  Every field is enforced by the engine."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    min_players: int = Field(
        2,
        ge=2,
        le=8,
        description="Fewest players. 000 'Players, cards and deal': two to four.",
    )
    max_players: int = Field(
        4,
        ge=2,
        le=8,
        description="Most players. 000 'Players, cards and deal': two to four.",
    )
    hand_size: int = Field(
        3,
        ge=1,
        le=6,
        description="Cards dealt to each player and kept while the stock lasts. "
        "000 'Players, cards and deal': three each.",
    )
    phase_one: Literal["pairs"] = Field(
        "pairs",
        description="How tricks are played in phase one. 'pairs': two-card tricks, the "
        "leader against their left neighbour, higher rank wins, equal ranks bounce "
        "(000 'Play in the first phase').",
    )
    dare: bool = Field(
        True,
        description="A player may turn the stock's top card and play it instead of a "
        "card from hand, while the stock holds at least two cards "
        "(000 'Play in the first phase'; 004 'Play in phase 1').",
    )
    phase_two_leader: Literal["trump_drawer", "last_trick_winner"] = Field(
        "trump_drawer",
        description="Who leads phase two: the player who drew the trump indicator "
        "(000 'Play in the second phase') or the winner of phase one's last trick "
        "(003, see rule-sources README).",
    )

    @model_validator(mode="after")
    def _players_range(self) -> RuleOptions:
        if self.min_players > self.max_players:
            raise ValueError(
                f"min_players ({self.min_players}) is above max_players ({self.max_players})"
            )
        return self

    @classmethod
    def describe(cls) -> list[tuple[str, str, str]]:
        """(name, allowed values, description) for every option: for ``variants``."""
        rows = []
        for name, field in cls.model_fields.items():
            ann = field.annotation
            args = getattr(ann, "__args__", None)
            if args and getattr(ann, "__origin__", None) is Literal:
                allowed = " | ".join(str(a) for a in args)
            else:
                allowed = getattr(ann, "__name__", str(ann))
            rows.append((name, allowed, field.description or ""))
        return rows
