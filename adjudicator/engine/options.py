"""The rule options as the engine reads them, action after action.

:class:`~adjudicator.rules.options.RuleOptions` (pydantic) is where every option is
declared, described, cited and validated.  Reading one of its fields is a pydantic
attribute lookup, and the engine reads options at every action: each
:class:`~adjudicator.engine.state.State` holds this plain copy instead, whose fields
the compiled engine (setup.py) reads as directly as a local.  Same names, same types,
same values: ``tests/test_native.py`` holds the two classes to each other, field by
field, as written and as valued for every preset.
"""

from __future__ import annotations

import sys
from typing import Literal

from adjudicator.rules.options import RuleOptions

NAMES: tuple[str, ...] = tuple(RuleOptions.model_fields)
"""Every option's name, in RuleOptions' order."""


class Options:
    """One variant's rule options (see :class:`RuleOptions` for what each means)."""

    __slots__ = (*NAMES, "min_run")

    min_players: int
    max_players: int
    decks: Literal[1, 2]
    hand_size: int
    first_lead: Literal["dealer_left", "previous_loser"]
    trump_card: Literal["stock_last", "set_aside", "turned_up"]
    dare: bool
    phase_one: Literal["pairs", "all"]
    aces_low: bool
    pair_winner: Literal["rank", "suit"]
    pair_reply: Literal["any", "beat_or_pick", "follow_or_pick"]
    set_aside_trumps: bool
    exchange_two: bool
    pick_leads: Literal["left", "picker"]
    specials_turn: Literal["any_time", "own_turn"]
    dare_by: Literal["any", "leader"]
    failed_dare: Literal["played", "pick_up"]
    multi_card_plays: bool
    tie_rule: Literal["highest", "tied_beat_unique", "all_tied"]
    compulsory_ties: bool
    tie_resolution: Literal["replay", "deal_ascending"]
    sluffing: Literal["none", "once", "unlimited", "own_rank", "atlanta"]
    sluff_top_first: bool
    sluff_final: bool
    phase_one_end: Literal["no_card", "talon_empty", "two_cards", "all_hold", "skip_empty"]
    unfinished_trick: Literal["take_back", "deal_out"]
    low_cards: int
    low_cards_by_indicator: bool
    low_cards_six_of_trumps: bool
    low_cards_shares: Literal["deal_order", "even"]
    low_cards_shuffler: Literal["not_receiving", "anyone", "first_leader"]
    phase_two_leader: Literal["trump_drawer", "last_trick_winner"]
    sequences: Literal["off", "two", "three", "from_two"]
    pick_from: Literal["top", "bottom"]
    pick_takes: Literal["card", "play", "joined"]
    forced_pick: bool
    complete_suit: bool
    anti_trump: Literal["none", "same_colour", "electric_clubs"]
    trump_ends_trick: bool
    high_trump: Literal["none", "kill_only", "only_killer"]
    empty_hand_at_phase_two: Literal["out", "blamattis", "lose"]
    reserve: int
    min_run: int
    """Shortest run allowed as one play; 0 when runs are not allowed."""

    def __init__(self, options: RuleOptions) -> None:
        for name in NAMES:
            value = getattr(options, name)
            if isinstance(value, str):
                value = sys.intern(value)  # compared with literals: equal by identity at once
            setattr(self, name, value)
        self.min_run = options.min_run

    @staticmethod
    def of(options: RuleOptions) -> Options:
        """The copy of ``options``, made once per RuleOptions value (a bulk check starts
        thousands of games under the same few)."""
        key = id(options)
        found = _MADE.get(key)
        if found is not None and found[0] is options:
            return found[1]
        if len(_MADE) >= _KEPT:
            _MADE.clear()
        made = Options(options)
        _MADE[key] = (options, made)  # the RuleOptions is kept: its id stays its own
        return made


_MADE: dict[int, tuple[RuleOptions, Options]] = {}
_KEPT = 256
"""Copies kept: more than a session's or a bulk run's variants ever need."""
