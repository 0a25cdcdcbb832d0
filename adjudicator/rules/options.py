"""RuleOptions: one field per rule choice, each citing the text that states it.

Texts are cited by title and section (see docs/sources.md): "pagat.com" is
John McLeod's Skitgubbe page (the primary source), "Wikipedia" the article
"Skitgubbe", "the Goat treatise" is "Skitgubbe: a general treatise" (the
Duke/UCLA Goat rules), "the summary" the two-page summary of the basic game.
Engine code reads these fields, never a variant's name.
"""

from __future__ import annotations

import json
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from adjudicator.i18n import N_, _
from adjudicator.invalid import RecordError, shown

ALL_PLAYERS_ONLY: dict[str, object] = {
    "multi_card_plays": False,
    "tie_rule": "highest",
    "compulsory_ties": False,
    "tie_resolution": "replay",
    "sluffing": "none",
    "sluff_top_first": False,
    "sluff_final": False,
    "unfinished_trick": "take_back",
    "draw_back": "automatic",
}
"""Options that only mean something when everybody plays to each trick, and their defaults."""

PAIRS_ONLY: dict[str, object] = {
    "pair_winner": "rank",
    "pair_reply": "any",
    "set_aside_trumps": False,
    "exchange_two": False,
    "pick_leads": "left",
    "specials_turn": "any_time",
    "dare_by": "any",
    "failed_dare": "played",
}
"""Options that only mean something with two-card tricks in phase one, and their defaults."""

PAIRS_ENDS = ("no_card", "talon_empty", "skip_empty")
"""The ends of phase one that the texts give for two-card tricks."""


_MIN_RUN = {"off": 0, "two": 2, "three": 3, "from_two": 2}
"""The shortest run of each ``sequences`` setting (0: no runs)."""


def described(description: str | None) -> str:
    """An option's description (marked ``N_`` on its field) in the language speaking now."""
    return _(description) if description else ""


class OptionsError(RecordError):
    """Rule options that cannot be: the project's one error for bad input (``RecordError``),
    ``options.NAME: ...``.  pydantic's own report stays as :attr:`validation`, for the
    record layer's fuller words (each option's allowed values)."""

    def __init__(self, validation: ValidationError) -> None:
        err = validation.errors(include_url=False)[0]
        where = ".".join(["options", *(str(p) for p in err["loc"])])
        if err["type"] == "extra_forbidden":
            said = _("is not a rule option")
        elif err["type"] == "value_error":
            said = str(err.get("ctx", {}).get("error", err["msg"]))
        else:
            said = _("{value} is not a value this option takes").format(
                value=shown(err.get("input"))
            )
        super().__init__(where, said)
        self.validation = validation


class RuleOptions(BaseModel):
    """The rule choices of one variant.  Every field is enforced by the engine."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    def __init__(self, **options: object) -> None:
        """Options by name; a name or a value the rules do not have raises
        :class:`OptionsError` (a ``RecordError``), never pydantic's own error."""
        try:
            super().__init__(**options)
        except ValidationError as exc:
            raise OptionsError(exc) from None

    # --- the table -----------------------------------------------------------
    min_players: int = Field(
        2,
        ge=2,
        le=52,
        description=N_("Fewest players. pagat.com, 'Players, cards and deal': two to four."),
    )
    max_players: int = Field(
        4,
        ge=2,
        le=52,
        description=N_(
            "Most players. pagat.com, 'Players, cards and deal': two to four. A record "
            "is also refused when the pack cannot give every player a hand and leave a stock."
        ),
    )
    decks: Literal[1, 2] = Field(
        1,
        description=N_(
            "Packs shuffled together. 2: every card twice; two copies of a card are "
            "the same card, and a phase-two play holds one copy of a card at most (the Goat "
            "treatise, variations II, double deck)."
        ),
    )
    hand_size: int = Field(
        3,
        ge=1,
        le=6,
        description=N_(
            "Cards dealt to each player and kept while the stock lasts. "
            "pagat.com, 'Players, cards and deal': three each."
        ),
    )
    first_lead: Literal["dealer_left", "previous_loser"] = Field(
        "dealer_left",
        description=N_(
            "Who leads the first trick. 'dealer_left': the player to the dealer's "
            "left (pagat.com, 'Play in the first phase'). 'previous_loser': the loser (Goat) of "
            "the previous game, given as the record's first_leader; in a session the next game's "
            "first leader must be the previous game's loser; at the start of a session anyone "
            "may volunteer (the Goat treatise, II.D)."
        ),
    )
    trump_card: Literal["stock_last", "set_aside", "turned_up"] = Field(
        "stock_last",
        description=N_(
            "The card that fixes trumps. 'stock_last': the stock's last card; its "
            "drawer keeps it face down and adds it to their hand when phase one ends "
            "(pagat.com, 'Play in the first phase'). 'set_aside': the deck's first card is set "
            "aside face down before the deal, out of play for the whole game, and shown between "
            "the phases (the Goat treatise, II.A and III.B). 'turned_up': after the deal the next "
            "card is turned face up under the stock and is its last card, drawn like any other; "
            "trumps are known from the start (pagat.com, 'Mas with turned up trump')."
        ),
    )
    dare: bool = Field(
        True,
        description=N_(
            "A player may turn the stock's top card and play it instead of a "
            "card from hand: while the stock holds at least two cards when its last card is the "
            "trump card (pagat.com, 'Play in the first phase'; the summary, 'Play in phase 1'), "
            "while it holds any card when the trump card was set aside (the Goat treatise, "
            "II.E.1, the tap)."
        ),
    )
    phase_one: Literal["pairs", "all"] = Field(
        "pairs",
        description=N_(
            "How tricks are played in phase one. 'pairs': two-card tricks, the "
            "leader against their left neighbour; the winner leads the next trick against their "
            "own left neighbour (pagat.com, 'Play in the first phase'; pagat.com, 'Myllymatti'). "
            "'all': every player plays to every trick, clockwise from the leader; the winner "
            "takes all; players draw back to a full hand after each play or sluff (pagat.com, "
            "'All Players play to Each Trick in Phase One'; Wikipedia, 'All-player tricks'; "
            "pagat.com, 'Mattis', 'Koira'; the Goat treatise, II)."
        ),
    )
    aces_low: bool = Field(
        False,
        description=N_(
            "In phase one aces rank below twos (the Goat treatise, variations III). "
            "Phase two keeps aces high."
        ),
    )
    # --- two-card tricks (phase_one: pairs) -----------------------------------
    pair_winner: Literal["rank", "suit"] = Field(
        "rank",
        description=N_(
            "Who wins a two-card trick. 'rank': the higher rank, suits do not "
            "matter; equal ranks bounce and the same two play again (pagat.com, 'Play in the "
            "first phase'). 'suit': the second card wins only if it is a higher card of the suit "
            "led or a trump on a non-trump; otherwise the leader wins (pagat.com, 'Mas with "
            "turned up trump'; Wikipedia, 'Phase 1'). Needs trump_card 'turned_up'."
        ),
    )
    pair_reply: Literal["any", "beat_or_pick", "follow_or_pick"] = Field(
        "any",
        description=N_(
            "What the second player of a two-card trick may do. 'any': play any "
            "card or dare (pagat.com, 'Play in the first phase'). 'beat_or_pick': beat the led "
            "card (or dare), or else pick it up into hand, and the player after the picker "
            "leads (pagat.com, 'Mas with turned up trump'). 'follow_or_pick': a player holding "
            "the suit led may not pick up and must play a card; anyone else may play or pick up "
            "(Wikipedia, 'Related games', Melniki). Needs pair_winner 'suit'."
        ),
    )
    set_aside_trumps: bool = Field(
        False,
        description=N_(
            "At any moment of phase one, a player whose hand is exactly three trumps "
            "may show them (act 'set_aside'), keep them apart for phase two and draw three new "
            "cards (pagat.com, 'Mas with turned up trump'). Needs trump_card 'turned_up'."
        ),
    )
    exchange_two: bool = Field(
        False,
        description=N_(
            "At any moment of phase one, while the turned-up trump lies under the "
            "stock, the holder of the two of trumps may exchange it for that card (act "
            "'exchange'; pagat.com, 'Mas with turned up trump'). Needs trump_card 'turned_up'."
        ),
    )
    pick_leads: Literal["left", "picker"] = Field(
        "left",
        description=N_(
            "Who leads after the second player of a two-card trick picks up the led "
            "card. 'left': the picker's left neighbour, reading 'it is the next player's turn to "
            "lead' as the player after the picker (pagat.com, 'Mas with turned up trump'). "
            "'picker': the picker, the player whose turn comes next, leads (a reading of the same "
            "sentence). Needs pair_reply other than 'any'."
        ),
    )
    specials_turn: Literal["any_time", "own_turn"] = Field(
        "any_time",
        description=N_(
            "When the Mas specials (set_aside, exchange) may be made. 'any_time': "
            "'at any stage', whoever's turn it is (pagat.com, 'Mas with turned up trump'). "
            "'own_turn': only when it is the player's turn to play (a stricter reading of the "
            "same words)."
        ),
    )
    dare_by: Literal["any", "leader"] = Field(
        "any",
        description=N_(
            "Who may dare in two-card tricks. 'any': any player due to play, leader "
            "or second (pagat.com, 'Play in the first phase': 'when it is your turn to play'). "
            "'leader': only the leader of a trick (a reading held for pagat.com's basic game, Mas "
            "and Myllymatti)."
        ),
    )
    failed_dare: Literal["played", "pick_up"] = Field(
        "played",
        description=N_(
            "A second player's dare whose turned card does not beat the led card "
            "(pagat.com, 'Mas with turned up trump': beat it or pick it up). 'played': the turned "
            "card is played and the leader wins the trick. 'pick_up': the darer picks up the led "
            "card and the turned card, as one who cannot beat, and the lead passes as after a "
            "pick. Needs pair_reply other than 'any'."
        ),
    )
    # --- phase one where everybody plays (phase_one: all) ----------------------
    multi_card_plays: bool = Field(
        False,
        description=N_(
            "A play may be two or three cards of one rank instead of one card "
            "(pagat.com, 'All Players play to Each Trick in Phase One'). Off: one card "
            "(pagat.com, 'Mattis', 'Koira', 'Atlanta Variation'; the Goat treatise, II.C: "
            "exactly one play each)."
        ),
    )
    tie_rule: Literal["highest", "tied_beat_unique", "all_tied"] = Field(
        "highest",
        description=N_(
            "Who heads a trick. 'highest': the highest rank; players who tie for it "
            "play again, in their original order, as often as needed (pagat.com, 'All Players "
            "play to Each Trick in Phase One'; the Goat treatise, II.E.4, wars). "
            "'tied_beat_unique': a rank played by two or more players beats every rank played "
            "once; only the players of the highest such rank play again (pagat.com, 'Variants: "
            "trick play and sluffing'; Wikipedia, 'All-player tricks'). 'all_tied': whenever "
            "equal cards are played, the players of all equal cards, of whatever rank, play "
            "again; the new cards alone decide, by the same rule (pagat.com, 'Mattis', variants)."
        ),
    )
    compulsory_ties: bool = Field(
        False,
        description=N_(
            "A player who can make a tie must, and may not dare instead: under "
            "'highest', a player holding the highest rank played so far in the round plays it "
            "(pagat.com, 'Variants: trick play and sluffing'; pagat.com, 'Atlanta Variation'; the "
            "Goat treatise, II.E.2, the Important Restriction); under 'tied_beat_unique', the "
            "highest rank already played in the round that they hold, unless a tie stands on a "
            "higher rank (pagat.com, 'Variants: trick play and sluffing'); under 'all_tied', the "
            "highest rank already played in the round that they hold."
        ),
    )
    tie_resolution: Literal["replay", "deal_ascending"] = Field(
        "replay",
        description=N_(
            "A tie for the head of a trick. 'replay': the tied players play again "
            "(pagat.com, 'All Players play to Each Trick in Phase One'). 'deal_ascending': the "
            "tied players take their tied cards back into hand; the trick's other cards, lowest "
            "first, are dealt to the tied players' piles one at a time, starting with the last "
            "tied player and going counter-clockwise; the same leader leads again (pagat.com, "
            "'Koira', variants, with its 7-player example). When the trick holds nothing but the "
            "tied cards, the tie is played off instead."
        ),
    )
    sluffing: Literal["none", "once", "unlimited", "own_rank", "atlanta"] = Field(
        "none",
        description=N_(
            "Adding cards to a trick without playing to it. 'none' (pagat.com, "
            "'Mattis', 'Koira'). 'once': after the trick is decided, each player once, cards of "
            "any ranks already in the trick, until the next act that is not a sluff (pagat.com, "
            "'All Players play to Each Trick in Phase One'). 'unlimited': any time from the first "
            "card until the winner takes the trick with the act 'take', ranks already in the "
            "trick (pagat.com, 'Variants: trick play and sluffing'; the Goat treatise, II.E.3). "
            "'own_rank': any time after playing, only the rank of one's own latest play "
            "(pagat.com, same section). 'atlanta': once per trick, after playing, ranks of cards "
            "already played and losing, judged card by card (pagat.com, 'Atlanta Variation'). "
            "Sluffers draw back to a full hand."
        ),
    )
    sluff_top_first: bool = Field(
        False,
        description=N_(
            "Before their own play to the round, a player may not sluff a card of the "
            "rank of the highest card played so far in it: that card must be their play (the "
            "Goat treatise, II.E.3, sluffing restriction #1). With sluffing 'unlimited'."
        ),
    )
    sluff_final: bool = Field(
        False,
        description=N_(
            "Nobody may sluff to the trick that turns out to be the last of phase one "
            "while they could still win it (the Goat treatise, II.E.3, sluffing restriction #2). "
            "Judged as soon as the trick is known to be the last (decided with the stock empty "
            "and a hand empty, or when phase one ends): the violation names the sluff."
        ),
    )
    phase_one_end: Literal[
        "no_card", "talon_empty", "two_cards", "all_hold", "still_to_play", "skip_empty"
    ] = Field(
        "no_card",
        description=N_(
            "When phase one ends. 'no_card': the moment a player due to play has "
            "no card (pagat.com, 'Play in the first phase', 'All Players play to Each Trick "
            "in Phase One', 'Mattis'). 'talon_empty': when the trick under way as the stock's "
            "last card is drawn is over (pagat.com, 'Variants: end of phase one'; pagat.com, "
            "'Mas with turned up trump'). 'two_cards': a trick begins with an empty stock only "
            "if everyone holds two or more cards (pagat.com, 'Variants: end of phase one'). "
            "'all_hold': a trick begins only if every player holds a card, and a player due "
            "to play without a card ends it too (the Goat treatise, II.C and II.F). "
            "'still_to_play': as 'all_hold', and phase one ends the moment any player still "
            "to play in the round (or in a tie's replay) holds no card, before those ahead of "
            "them play (the tjwilson90/goat app's reading of II.F). "
            "'skip_empty': players without cards are skipped (two-card tricks: the lead and "
            "the second place pass clockwise; phase one ends when fewer than two players hold "
            "cards, and a bounce that cannot be resolved is taken back: Wikipedia, 'Two-player "
            "tricks'; everybody plays: until every card is played, and a tie that a tied player "
            "cannot replay is dealt evenly to the tied players' piles with the act 'deal': "
            "pagat.com, 'Koira'). Two-card tricks take 'no_card', 'talon_empty' or "
            "'skip_empty'."
        ),
    )
    draw_back: Literal["automatic", "any_time", "without_delay"] = Field(
        "automatic",
        description=N_(
            "How a hand is filled back from the stock in phase one. 'automatic': each "
            "player draws back to a full hand right after each play and sluff, and a record "
            "writes no draws (every text: pagat.com, 'All Players play to Each Trick in Phase "
            "One'; the Goat treatise, II.B and II.G). 'any_time': a record writes each draw "
            "(the act 'draw', one card); a player holding fewer than a full hand may draw at "
            "any moment of phase one, or wait (the tjwilson90/goat app's Draw). "
            "'without_delay': a record writes each draw, and the treatise's rule is checked "
            "on it: a player whose hand is short while the stock can fill it draws before "
            "playing, daring, sluffing or taking (the Goat treatise, II.B and II.G: 'DO NOT "
            "wait')."
        ),
    )
    unfinished_trick: Literal["take_back", "deal_out"] = Field(
        "take_back",
        description=N_(
            "The unfinished trick when phase one ends. 'take_back': everyone "
            "takes back what they put in (pagat.com, 'Play in the first phase'; the Goat "
            "treatise, II.F). 'deal_out': the dealer shuffles it and deals it one card at a time "
            "clockwise from their left, recorded as the act 'deal' (pagat.com, 'Variants: end of "
            "phase one'). 'deal_out' only with phase_one 'all'."
        ),
    )
    # --- between the phases --------------------------------------------------------
    low_cards: int = Field(
        0,
        ge=0,
        le=104,
        description=N_(
            "Between the phases, when any player holds fewer cards than this, every "
            "2, 3, 4 and 5 is taken from all hands and dealt to those players, recorded as the "
            "act 'deal' (pagat.com, 'All Players play to Each Trick in Phase One': five; "
            "pagat.com, 'Variants: end of phase one': six, seven or ten; pagat.com, 'Atlanta "
            "Variation': six; the Goat treatise, III.C: six, and variations II.A: twelve with "
            "a double deck). 0: no redistribution. Who receives is judged before anyone gives up "
            "low cards."
        ),
    )
    low_cards_by_indicator: bool = Field(
        False,
        description=N_(
            "The low-card threshold is the rank of the trump card (jack 11, queen "
            "12, king 13, ace 14) instead of low_cards (pagat.com, 'Variants: end of phase one'; "
            "Wikipedia, 'Between phases')."
        ),
    )
    low_cards_six_of_trumps: bool = Field(
        False,
        description=N_(
            "The six of trumps is a low card too (pagat.com, 'Atlanta Variation': the "
            "dreck; the Goat treatise, III.C)."
        ),
    )
    low_cards_shares: Literal["deal_order", "even"] = Field(
        "deal_order",
        description=N_(
            "How the low cards are shared. 'deal_order': one at a time to the "
            "receivers in the order of the first deal, so the earlier ones may get one more "
            "(pagat.com, 'All Players play to Each Trick in Phase One'). 'even': as evenly as "
            "possible, any receiver may get the odd card (pagat.com, 'Atlanta Variation'; the "
            "Goat treatise, III.C: piles the players choose from)."
        ),
    )
    low_cards_shuffler: Literal["not_receiving", "anyone", "first_leader"] = Field(
        "not_receiving",
        description=N_(
            "Who shuffles the low cards. 'not_receiving': a player who had enough "
            "cards, or anyone if all receive (pagat.com, 'All Players play to Each Trick in Phase "
            "One'). 'anyone': the text only says they are divided up randomly (pagat.com, "
            "'Atlanta Variation'). 'first_leader': the Goat, who led this game's first trick "
            "(the Goat treatise, III.C and II.D)."
        ),
    )
    phase_two_leader: Literal["trump_drawer", "last_trick_winner"] = Field(
        "trump_drawer",
        description=N_(
            "Who leads phase two: the player who drew the trump card (pagat.com, "
            "'Play in the second phase'; pagat.com, 'Mas with turned up trump') or the winner "
            "of phase one's last trick (the Goat treatise, IV.F.1 and II.H)."
        ),
    )

    # --- phase two ---------------------------------------------------------
    sequences: Literal["off", "two", "three", "from_two"] = Field(
        "off",
        description=N_(
            "Runs in phase two. 'off': single cards only (pagat.com, 'Play in the "
            "second phase'; pagat.com, 'Myllymatti'). 'two': a run of two or more consecutive "
            "cards of one suit is one play (pagat.com, 'Playing sequences in phase two'; "
            "Wikipedia, 'Phase 2'; the Goat treatise, IV.E). 'three': runs of at least three "
            "(pagat.com, 'Mattis'). 'from_two': only runs beginning with a 2 (pagat.com, 'Koira', "
            "variants). A run beats the top play when its lowest card is above the top play's "
            "highest card in that suit, or when it is trumps on a non-trump (pagat.com, 'Playing "
            "sequences in phase two': a 5 beaten by 7-8-9, then by Q-K; the Goat treatise, "
            "IV.F.2.a)."
        ),
    )
    pick_from: Literal["top", "bottom"] = Field(
        "top",
        description=N_(
            "Where a pick takes from. 'top': the last play (pagat.com, 'Play in the "
            "second phase'; Wikipedia, 'Phase 2'). 'bottom': the oldest play (pagat.com, "
            "'Variants: playing and picking up sequences', 'Mattis', 'Koira'; Wikipedia, 'Phase "
            "2', the US rule; the Goat treatise, IV.F.2.b)."
        ),
    )
    pick_takes: Literal["card", "play", "joined"] = Field(
        "card",
        description=N_(
            "What a pick takes. 'card': one card; a run stays in play until all its "
            "cards are gone (pagat.com, 'Play in the second phase'; pagat.com, 'Koira', "
            "variants). 'play': the whole play (Wikipedia, 'Phase 2', variation; pagat.com, "
            "'Mattis', 'Koira'). 'joined': the card and every card of its suit touching it in "
            "unbroken sequence, across plays (pagat.com, 'Variants: playing and picking up "
            "sequences'; Wikipedia, 'Phase 2'; the Goat treatise, IV.F.2.b; pagat.com, 'Atlanta "
            "Variation')."
        ),
    )
    forced_pick: bool = Field(
        False,
        description=N_(
            "Once someone picks, the following players must pick until the table "
            "is empty (pagat.com, 'Variants: playing and picking up sequences', forced pickup)."
        ),
    )
    complete_suit: bool = Field(
        False,
        description=N_(
            "A play that brings all thirteen cards of a suit, 2 to A, onto the table "
            "completes the trick (pagat.com, 'Variants: playing and picking up sequences')."
        ),
    )
    anti_trump: Literal["none", "same_colour", "electric_clubs"] = Field(
        "none",
        description=N_(
            "An anti-trump suit that trumps cannot beat (pagat.com, 'Anti-trumps'). "
            "'same_colour': the other suit of the trump's colour. 'electric_clubs': clubs, or "
            "spades when clubs are trumps."
        ),
    )
    trump_ends_trick: bool = Field(
        False,
        description=N_(
            "A trump played on a non-trump ends the trick at once; its player sets "
            "the cards aside and leads (pagat.com, 'Koira', variants)."
        ),
    )
    high_trump: Literal["none", "kill_only", "only_killer"] = Field(
        "none",
        description=N_(
            "'kill_only': the highest trump still in the game may only complete a "
            "trick, and a player due to lead who holds nothing else passes the lead to the right "
            "(the Goat treatise, variations I). 'only_killer': while any trump is in the game, "
            "only the highest one kills a trick, and nothing else completes one (no count, no "
            "trump-ends-trick, no complete suit); with no trump left, tricks end only when "
            "picked up or by a complete suit (the Goat treatise, variations IV)."
        ),
    )
    empty_hand_at_phase_two: Literal["out", "blamattis", "lose"] = Field(
        "out",
        description=N_(
            "A player with no cards when phase two begins. 'out': takes no part "
            "(pagat.com, 'Play in the second phase'; the Goat treatise, IV.A). 'blamattis': "
            "takes part and must pick up the lowest (oldest) cards of the trick at the first "
            "turn (pagat.com, 'Mattis'). 'lose': every such player loses at once (pagat.com, "
            "'Mattis', variants)."
        ),
    )
    reserve: int = Field(
        0,
        ge=0,
        le=30,
        description=N_(
            "Two players only: this many cards (pagat.com suggests 12) are set aside "
            "face down before the deal as an avstickshög; after each completed trick in phase "
            "two the completer, then the other player, draws one; while it lasts a player who "
            "runs out is not safe unless the trick completes (pagat.com, 'Two Player Game')."
        ),
    )

    @model_validator(mode="after")
    def _combinations(self) -> RuleOptions:
        if self.min_players > self.max_players:
            raise ValueError(
                f"min_players ({self.min_players}) is above max_players ({self.max_players})"
            )
        others = PAIRS_ONLY if self.phase_one == "all" else ALL_PLAYERS_ONLY
        for name, default in others.items():
            if getattr(self, name) != default:
                raise ValueError(f"{name} is not a rule of phase_one '{self.phase_one}'")
        if self.phase_one == "pairs" and self.phase_one_end not in PAIRS_ENDS:
            raise ValueError(
                f"phase_one_end '{self.phase_one_end}' is a rule of phase_one 'all'; two-card "
                f"tricks take {', '.join(PAIRS_ENDS)}"
            )
        for name, value in (("pick_leads", "left"), ("failed_dare", "played")):
            if getattr(self, name) != value and self.pair_reply == "any":
                raise ValueError(
                    f"{name} '{getattr(self, name)}' needs a pair_reply with picking up"
                )
        if self.pair_reply != "any" and self.pair_winner != "suit":
            raise ValueError(f"pair_reply '{self.pair_reply}' needs pair_winner 'suit'")
        needs_turned_up = [
            name
            for name, on in (
                ("pair_winner 'suit'", self.pair_winner == "suit"),
                ("set_aside_trumps", self.set_aside_trumps),
                ("exchange_two", self.exchange_two),
            )
            if on
        ]
        if needs_turned_up and self.trump_card != "turned_up":
            raise ValueError(
                f"{needs_turned_up[0]} needs trumps known in phase one: trump_card 'turned_up'"
            )
        if self.trump_card == "set_aside" and self.phase_two_leader == "trump_drawer":
            raise ValueError(
                "trump_card 'set_aside' is drawn by nobody: phase_two_leader must be "
                "'last_trick_winner'"
            )
        if self.sluff_top_first and self.sluffing != "unlimited":
            raise ValueError("sluff_top_first needs sluffing 'unlimited' (sluffing before playing)")
        if self.sluff_final and self.sluffing == "none":
            raise ValueError("sluff_final needs a sluffing rule")
        return self

    @property
    def min_run(self) -> int:
        """Shortest run allowed as one play; 0 when runs are not allowed."""
        return _MIN_RUN[self.sequences]

    @classmethod
    def describe(cls) -> list[tuple[str, str, str]]:
        """(name, allowed values, description) for every option: for ``variants``; the
        description in the language speaking now."""
        rows = []
        for name, field in cls.model_fields.items():
            ann = field.annotation
            args = getattr(ann, "__args__", None)
            if args and getattr(ann, "__origin__", None) is Literal:
                allowed = " | ".join(str(a) for a in args)
            else:
                allowed = getattr(ann, "__name__", str(ann))
            rows.append((name, allowed, described(field.description)))
        return rows


# --- the engine's copy, generated from the one declaration above ----------------------


def engine_source() -> str:
    """The source of ``adjudicator/engine/option_fields.py``: the class the compiled engine
    reads options from, one slot and one annotation a field of :class:`RuleOptions`, made
    from ``model_fields`` so that no field is written twice by hand.

    ``python -c "from adjudicator.rules.options import engine_source as s; print(s(), end='')"
    > adjudicator/engine/option_fields.py`` writes it after an option is added
    (docs/development.md); ``tests/structure/test_native.py`` fails until it is.
    """
    annotations = []
    for name, field in RuleOptions.model_fields.items():
        ann = field.annotation
        if getattr(ann, "__origin__", None) is Literal:
            shown = f"Literal[{', '.join(json.dumps(a) for a in ann.__args__)}]"  # type: ignore[union-attr]
        else:
            shown = getattr(ann, "__name__", str(ann))
        line = f"    {name}: {shown}"
        if len(line) > 100 and shown.startswith("Literal["):  # wrapped as ruff format wraps it
            line = f"    {name}: Literal[\n        {shown[len('Literal[') : -1]}\n    ]"
        annotations.append(line)
    names = sorted([*RuleOptions.model_fields, "min_run"])
    slots = "".join(f'        "{name}",\n' for name in names)
    return (
        '"""The rule options as the compiled engine reads them: GENERATED from\n'
        'adjudicator/rules/options.py by its engine_source() (docs/development.md, "Adding a\n'
        'house rule"); edit RuleOptions, never this file.\n'
        "\n"
        "One slot a field of :class:`~adjudicator.rules.options.RuleOptions`, read by the\n"
        "compiled engine as directly as a local (a pydantic model's attribute is a lookup\n"
        "through its ``__dict__``); ``tests/structure/test_native.py`` holds this file to its\n"
        "generator.\n"
        '"""\n'
        "\n"
        "from __future__ import annotations\n"
        "\n"
        "import sys\n"
        "from typing import Literal\n"
        "\n"
        "from adjudicator.rules.options import RuleOptions\n"
        "\n"
        "\n"
        "class Options:\n"
        '    """One variant\'s rule options (see :class:`RuleOptions` for what each means)."""\n'
        "\n"
        "    __slots__ = (\n"
        f"{slots}"
        "    )\n"
        "\n" + "\n".join(annotations) + "\n    min_run: int\n"
        '    """Shortest run allowed as one play; 0 when runs are not allowed."""\n'
        "\n"
        "    def __init__(self, options: RuleOptions) -> None:\n"
        "        for name in RuleOptions.model_fields:\n"
        "            value = getattr(options, name)\n"
        "            if isinstance(value, str):\n"
        "                value = sys.intern(value)  # compared with literals: equal by identity\n"
        "            setattr(self, name, value)\n"
        "        self.min_run = options.min_run\n"
    )
