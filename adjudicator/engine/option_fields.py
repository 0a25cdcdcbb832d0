"""The rule options as the compiled engine reads them: GENERATED from
adjudicator/rules/options.py by its engine_source() (docs/development.md, "Adding a
house rule"); edit RuleOptions, never this file.

One slot a field of :class:`~adjudicator.rules.options.RuleOptions`, read by the
compiled engine as directly as a local (a pydantic model's attribute is a lookup
through its ``__dict__``); ``tests/structure/test_native.py`` holds this file to its
generator.
"""

from __future__ import annotations

import sys
from typing import Literal

from adjudicator.rules.options import RuleOptions


class Options:
    """One variant's rule options (see :class:`RuleOptions` for what each means)."""

    __slots__ = (
        "aces_low",
        "anti_trump",
        "complete_suit",
        "compulsory_ties",
        "dare",
        "dare_by",
        "decks",
        "draw_back",
        "empty_hand_at_phase_two",
        "exchange_two",
        "failed_dare",
        "first_lead",
        "forced_pick",
        "hand_size",
        "high_trump",
        "low_cards",
        "low_cards_by_indicator",
        "low_cards_shares",
        "low_cards_shuffler",
        "low_cards_six_of_trumps",
        "max_players",
        "min_players",
        "min_run",
        "multi_card_plays",
        "pair_reply",
        "pair_winner",
        "phase_one",
        "phase_one_end",
        "phase_two_leader",
        "pick_from",
        "pick_leads",
        "pick_takes",
        "reserve",
        "sequences",
        "set_aside_trumps",
        "sluff_final",
        "sluff_top_first",
        "sluffing",
        "specials_turn",
        "tie_resolution",
        "tie_rule",
        "trump_card",
        "trump_ends_trick",
        "unfinished_trick",
    )

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
    phase_one_end: Literal[
        "no_card", "talon_empty", "two_cards", "all_hold", "still_to_play", "skip_empty"
    ]
    draw_back: Literal["automatic", "any_time", "without_delay"]
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
        for name in RuleOptions.model_fields:
            value = getattr(options, name)
            if isinstance(value, str):
                value = sys.intern(value)  # compared with literals: equal by identity
            setattr(self, name, value)
        self.min_run = options.min_run
