"""RuleOptions: one field per rule choice, each citing the text that states it.

Sources are the files of ``shared/rule-sources`` by number: 000 is the pagat.com
page (primary), 002 the Wikipedia article, 003 the Goat treatise, 004 the
two-page summary.  Engine code reads these fields, never a variant's name.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

ALL_PLAYERS_ONLY: dict[str, object] = {
    "multi_card_plays": False,
    "tie_rule": "highest",
    "compulsory_ties": False,
    "tie_resolution": "replay",
    "sluffing": "none",
    "phase_one_end": "no_card",
    "unfinished_trick": "take_back",
}
"""Options that only mean something when everybody plays to each trick, and their defaults."""


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
    phase_one: Literal["pairs", "all"] = Field(
        "pairs",
        description="How tricks are played in phase one. 'pairs': two-card tricks, the "
        "leader against their left neighbour, higher rank wins, equal ranks bounce "
        "(000 'Play in the first phase'). 'all': every player plays to every trick, "
        "clockwise from the leader; the highest rank wins and the winner takes all; "
        "players draw back to a full hand after each play or sluff (000 'All Players "
        "play to Each Trick in Phase One'; 002 'All-player tricks'; 000 'Mattis', 'Koira').",
    )
    dare: bool = Field(
        True,
        description="A player may turn the stock's top card and play it instead of a "
        "card from hand, while the stock holds at least two cards "
        "(000 'Play in the first phase'; 004 'Play in phase 1').",
    )
    # --- phase one where everybody plays (phase_one: all) -------------------
    multi_card_plays: bool = Field(
        False,
        description="A play may be two or three cards of one rank instead of one card "
        "(000 'All Players play to Each Trick in Phase One': Helmfrid). Off: one card "
        "(000 'Mattis', 'Koira', 'Atlanta Variation').",
    )
    tie_rule: Literal["highest", "tied_beat_unique"] = Field(
        "highest",
        description="Who heads a trick. 'highest': the highest rank; players who tie "
        "for it play again, in their original order, as often as needed (000 'All "
        "Players play to Each Trick in Phase One'). 'tied_beat_unique': a rank played "
        "by two or more players beats every rank played once, the highest such rank "
        "first; its players play again (000 'Variants: trick play and sluffing', "
        "'Mattis' variants).",
    )
    compulsory_ties: bool = Field(
        False,
        description="A player who can make a tie must: under 'highest', a player holding "
        "the highest rank played so far in the round must play it; under "
        "'tied_beat_unique', a rank already played in the round, the highest one, unless "
        "a higher tie already exists; no dare instead (000 'Variants: trick play and "
        "sluffing', compulsory ties; 000 'Atlanta Variation').",
    )
    tie_resolution: Literal["replay", "deal_ascending"] = Field(
        "replay",
        description="A tie for the head of a trick. 'replay': the tied players play "
        "again (000 'All Players play to Each Trick in Phase One'). 'deal_ascending': "
        "the tied players take their tied cards back into hand; the trick's other "
        "cards, lowest first, are dealt to the tied players' piles one at a time, "
        "starting with the last tied player and going counter-clockwise; the same "
        "leader leads again (000 'Koira', variants, with its 7-player example). When "
        "the trick holds nothing but the tied cards, the tie is played off instead.",
    )
    sluffing: Literal["none", "once", "unlimited", "own_rank", "atlanta"] = Field(
        "none",
        description="Adding cards to a trick without playing to it. 'none' (000 "
        "'Mattis', 'Koira'). 'once': after the trick is decided, each player once, "
        "cards of any ranks already in the trick (000 'All Players play to Each Trick "
        "in Phase One'). 'unlimited': any time from the first card until the winner "
        "takes the trick with the act 'take', ranks already in the trick (000 'Variants: "
        "trick play and sluffing'). 'own_rank': any time after playing, only the rank "
        "of one's own latest play (000, same section). 'atlanta': once per trick, after "
        "playing, ranks of cards already played and losing, judged card by card (000 "
        "'Atlanta Variation'). Sluffers draw back to a full hand.",
    )
    phase_one_end: Literal["no_card", "talon_empty", "two_cards", "skip_empty"] = Field(
        "no_card",
        description="When phase one ends. 'no_card': the moment a player due to play has "
        "no card (000 'All Players play to Each Trick in Phase One'; 000 'Mattis'). "
        "'talon_empty': when the first trick after the talon's last card was drawn is "
        "over, no new trick begins. 'two_cards': a trick begins with an empty talon only "
        "if everyone holds two or more cards (both 000 'Variants: end of phase one'). "
        "'skip_empty': players without cards are skipped until every card is played; a "
        "tie that a tied player cannot replay is shuffled and dealt evenly to the tied "
        "players' piles with the act 'deal' (000 'Koira').",
    )
    unfinished_trick: Literal["take_back", "deal_out"] = Field(
        "take_back",
        description="The unfinished trick when phase one ends. 'take_back': everyone "
        "takes back what they put in (000 'Play in the first phase'). 'deal_out': the "
        "dealer shuffles it and deals it one card at a time clockwise from their left, "
        "recorded as the act 'deal' (000 'Variants: end of phase one'). Only with "
        "phase_one 'all'.",
    )
    low_cards: int = Field(
        0,
        ge=0,
        le=52,
        description="Between the phases, when any player holds fewer cards than this, "
        "every 2, 3, 4 and 5 is taken from all hands and dealt to those players, "
        "recorded as the act 'deal' by a player not receiving (000 'All Players play to "
        "Each Trick in Phase One': five; 000 'Variants: end of phase one': six, seven or "
        "ten; 000 'Atlanta Variation': six). 0: no redistribution. Who receives is "
        "judged before anyone gives up low cards.",
    )
    low_cards_by_indicator: bool = Field(
        False,
        description="The low-card threshold is the rank of the trump indicator (jack 11, "
        "queen 12, king 13, ace 14) instead of low_cards (000 'Variants: end of phase "
        "one').",
    )
    low_cards_six_of_trumps: bool = Field(
        False,
        description="The six of trumps is a low card too (000 'Atlanta Variation': the dreck).",
    )
    low_cards_shares: Literal["deal_order", "even"] = Field(
        "deal_order",
        description="How the low cards are shared. 'deal_order': one at a time to the "
        "receivers in the order of the first deal, so the earlier ones may get one more "
        "(000 'All Players play to Each Trick in Phase One'). 'even': as evenly as "
        "possible, any receiver may get the odd card (000 'Atlanta Variation').",
    )
    phase_two_leader: Literal["trump_drawer", "last_trick_winner"] = Field(
        "trump_drawer",
        description="Who leads phase two: the player who drew the trump indicator "
        "(000 'Play in the second phase') or the winner of phase one's last trick "
        "(003, see rule-sources README).",
    )

    # --- phase two ---------------------------------------------------------
    sequences: Literal["off", "two", "three", "from_two"] = Field(
        "off",
        description="Runs in phase two. 'off': single cards only (000 'Play in the second "
        "phase'; 000 'Myllymatti'). 'two': a run of two or more consecutive cards of one "
        "suit is one play (000 'Playing sequences in phase two'; 002 'Phase 2'; 003 IV.E). "
        "'three': runs of at least three (000 'Mattis'). 'from_two': only runs beginning "
        "with a 2 (000 'Koira', variants). A run beats the top play when its lowest card "
        "is above the top play's highest card in that suit, or when it is trumps on a "
        "non-trump (000: a 5 beaten by 7-8-9, then by Q-K; 003 IV.F.2.a and II.B).",
    )
    pick_from: Literal["top", "bottom"] = Field(
        "top",
        description="Where a pick takes from. 'top': the last play (000 'Play in the second "
        "phase'; 002 'Phase 2'). 'bottom': the oldest play (000 'Variants: playing and "
        "picking up sequences', 'Mattis', 'Koira'; 002 US rule; 003 IV.F.2.b).",
    )
    pick_takes: Literal["card", "play", "joined"] = Field(
        "card",
        description="What a pick takes. 'card': one card; a run stays in play until all "
        "its cards are gone (000 basic; 000 'Koira' variants). 'play': the whole play "
        "(002 'Phase 2' variation; 000 'Mattis', 'Koira'). 'joined': the card and every "
        "card of its suit touching it in unbroken sequence, across plays (000 'Variants: "
        "playing and picking up sequences'; 002; 003 IV.F.2.b; 000 'Atlanta Variation').",
    )
    forced_pick: bool = Field(
        False,
        description="Once someone picks, the following players must pick until the table "
        "is empty (000 'Variants: playing and picking up sequences', forced pickup).",
    )
    complete_suit: bool = Field(
        False,
        description="A play that brings all thirteen cards of a suit, 2 to A, onto the "
        "table completes the trick (000 'Variants: playing and picking up sequences').",
    )
    anti_trump: Literal["none", "same_colour", "electric_clubs"] = Field(
        "none",
        description="An anti-trump suit that trumps cannot beat (000 'Anti-trumps'). "
        "'same_colour': the other suit of the trump's colour. 'electric_clubs': clubs, "
        "or spades when clubs are trumps.",
    )
    trump_ends_trick: bool = Field(
        False,
        description="A trump played on a non-trump ends the trick at once; its player "
        "sets the cards aside and leads (000 'Koira', variants).",
    )
    high_trump: Literal["none", "kill_only", "only_killer"] = Field(
        "none",
        description="'kill_only': the highest trump still in the game may only complete a "
        "trick, and a player due to lead who holds nothing else passes the lead to the "
        "right (003 variations I). 'only_killer': no trick is complete by its number of "
        "plays; only the highest remaining trump kills it (003 variations IV).",
    )
    empty_hand_at_phase_two: Literal["out", "blamattis", "lose"] = Field(
        "out",
        description="A player with no cards when phase two begins. 'out': takes no part "
        "(000 'Play in the second phase'). 'blamattis': takes part and must pick up the "
        "lowest (oldest) cards of the trick at the first turn (000 'Mattis'). 'lose': "
        "loses at once (000 'Mattis', variants).",
    )
    reserve: int = Field(
        0,
        ge=0,
        le=30,
        description="Two players only: this many cards (000 suggests 12) are set aside "
        "face down before the deal as an avstickshög; after each completed trick in phase "
        "two the completer, then the other player, draws one; while it lasts a player "
        "who runs out is not safe unless the trick completes (000 'Two Player Game').",
    )

    @model_validator(mode="after")
    def _players_range(self) -> RuleOptions:
        if self.min_players > self.max_players:
            raise ValueError(
                f"min_players ({self.min_players}) is above max_players ({self.max_players})"
            )
        if self.phase_one != "all":
            for name, default in ALL_PLAYERS_ONLY.items():
                if getattr(self, name) != default:
                    raise ValueError(f"{name} is a rule of phase_one 'all', not '{self.phase_one}'")
        return self

    @property
    def min_run(self) -> int:
        """Shortest run allowed as one play; 0 when runs are not allowed."""
        return {"off": 0, "two": 2, "three": 3, "from_two": 2}[self.sequences]

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
