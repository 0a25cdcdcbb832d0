"""Named variants: each one a RuleOptions value, with where its rules are written.

A preset may change options by the number of players where its text says so
(the Goat treatise: "for three players, use the High Trump variant; for more
than six players, use the Double Deck variant"); a record's own ``options``
still override everything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.i18n import N_, _
from adjudicator.invalid import UnknownVariant, shown
from adjudicator.rules.options import RuleOptions

PACK_LIMIT = 17
"""Three cards each and a stock of at least one card: the most players one pack seats."""


@dataclass(frozen=True)
class Preset:
    """A named variant and where its rules are written down."""

    name: str
    title: str
    source: str
    options: RuleOptions
    by_players: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)
    """Option changes for player counts ``(low, high)``, both included."""
    cites: dict[str, str] = field(default_factory=dict)
    """Where the preset's own text states each option's value (``variants NAME`` shows it)."""
    loser_word: str | None = None
    """The game's own word for its loser (docs/glossary.md): ``skitgubbe``, ``koira``,
    ``mattis``; a table speaking that game's language names the loser by it."""
    _made: dict[int, RuleOptions] = field(default_factory=dict, repr=False, compare=False)
    """options_for's answers: RuleOptions are frozen, and a bulk check asks for the same few
    thousands of times (validating a changed set of options is a pydantic model's work)."""

    @property
    def said(self) -> str:
        """The title in the language speaking now."""
        return _(self.title)

    def options_for(self, players: int) -> RuleOptions:
        """The preset's options at a table of ``players``."""
        made = self._made.get(players)
        if made is not None:
            return made
        changes: dict[str, Any] = {}
        for (low, high), values in self.by_players.items():
            if low <= players <= high:
                changes.update(values)
        made = self.options
        if changes:
            made = RuleOptions.model_validate({**self.options.model_dump(), **changes})
        if len(self._made) < 64:
            self._made[players] = made
        return made


GOAT_LIMIT = 34
"""Three cards each, the trump card and a stock from two packs: the most the Goat seats."""

_GOAT = RuleOptions(
    min_players=2,
    max_players=GOAT_LIMIT,
    first_lead="previous_loser",
    trump_card="set_aside",
    phase_one="all",
    compulsory_ties=True,
    sluffing="unlimited",
    sluff_top_first=True,
    sluff_final=True,
    phase_one_end="all_hold",
    low_cards=6,
    low_cards_six_of_trumps=True,
    low_cards_shares="even",
    low_cards_shuffler="first_leader",
    phase_two_leader="last_trick_winner",
    sequences="two",
    pick_from="bottom",
    pick_takes="joined",
)

NOT_IN_TREATISE = "not in the treatise: the default, which forbids nothing it allows"
GOAT_CITES: dict[str, str] = {
    "min_players": "the Goat treatise, 0 ('any number can play'; fewer than three is "
    "'dumb', not forbidden)",
    "max_players": "the Goat treatise, 0 ('any number can play'; more than ten is "
    "'absurd', not forbidden: two packs seat 34)",
    "decks": "the Goat treatise, 0 and variations II (the double deck for more than six players)",
    "hand_size": "the Goat treatise, II.B (three cards)",
    "first_lead": "the Goat treatise, II.D (the Goat of the previous game leads)",
    "trump_card": "the Goat treatise, II.A and III.B (drawn off the deck, set aside, turned at "
    "the intermission)",
    "dare": "the Goat treatise, II.E.1 (tapping the deck)",
    "phase_one": "the Goat treatise, II.C (each player makes exactly one play a round)",
    "aces_low": "the Goat treatise, variations III (off unless the table plays it)",
    "pair_winner": "not in the treatise (everybody plays)",
    "pair_reply": "not in the treatise (everybody plays)",
    "set_aside_trumps": "not in the treatise",
    "exchange_two": "not in the treatise",
    "pick_leads": "not in the treatise (everybody plays)",
    "specials_turn": "not in the treatise",
    "dare_by": "not in the treatise (everybody plays)",
    "failed_dare": "not in the treatise (everybody plays)",
    "multi_card_plays": "the Goat treatise, II.C and II.E.2 (one play; 'one will do')",
    "tie_rule": "the Goat treatise, II.E.4 (wars between the players of the highest rank)",
    "compulsory_ties": "the Goat treatise, II.E.2 (the Important Restriction)",
    "tie_resolution": "the Goat treatise, II.E.4 (further ties, further wars)",
    "sluffing": "the Goat treatise, II.E.3 (at any time during the round) and II.E.4 (the winner "
    "collects)",
    "sluff_top_first": "the Goat treatise, II.E.3 (sluffing restriction #1)",
    "sluff_final": "the Goat treatise, II.E.3 (sluffing restriction #2)",
    "phase_one_end": "the Goat treatise, II.C and II.F",
    "unfinished_trick": "the Goat treatise, II.F (everyone takes back the cards they played)",
    "draw_back": "the Goat treatise, II.B and II.G (a three-card hand kept at all times: 'DO NOT "
    "wait')",
    "low_cards": "the Goat treatise, III.C (six cards), variations II.A (twelve with the double "
    "deck)",
    "low_cards_by_indicator": NOT_IN_TREATISE,
    "low_cards_six_of_trumps": "the Goat treatise, III.C (the 2-6 of trump)",
    "low_cards_shares": "the Goat treatise, III.C (as evenly as possible; the players choose the "
    "piles)",
    "low_cards_shuffler": "the Goat treatise, III.C ('Goat, the Dreck, please')",
    "phase_two_leader": "the Goat treatise, IV.F.1 and II.H (the winner of the final trick)",
    "sequences": "the Goat treatise, IV.E (touching cards of a suit are one 'card')",
    "pick_from": "the Goat treatise, IV.F.2.b (the lowest card)",
    "pick_takes": "the Goat treatise, IV.F.2.b (and all cards of its suit touching it)",
    "forced_pick": NOT_IN_TREATISE,
    "complete_suit": NOT_IN_TREATISE,
    "anti_trump": NOT_IN_TREATISE,
    "trump_ends_trick": "the Goat treatise, IV.F.4 (only the count kills a trick)",
    "high_trump": "the Goat treatise, variations I (for three players, 0) and IV (high trump #2)",
    "empty_hand_at_phase_two": "the Goat treatise, IV.A (the virtuoso with no cards is out, not "
    "the Goat)",
    "reserve": NOT_IN_TREATISE,
}
"""The Goat treatise's section for each option of the ``goat`` preset."""

_MAS = RuleOptions(
    trump_card="turned_up",
    pair_winner="suit",
    pair_reply="beat_or_pick",
    set_aside_trumps=True,
    exchange_two=True,
    phase_one_end="talon_empty",
)

PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset(
            name="pagat",
            loser_word="skitgubbe",
            title=N_("Basic Skitgubbe: two-card tricks, then beat or pick up single cards"),
            source="pagat.com, 'Skitgubbe' (the main description); the summary",
            options=RuleOptions(),
        ),
        Preset(
            name="helmfrid",
            loser_word="skitgubbe",
            title=N_(
                "Skitgubbe with everyone playing to each trick (Helmfrid): one to three "
                "cards of a rank, sluffing once, low cards to short hands; runs in phase two, "
                "the joined run picked up from the top"
            ),
            source="pagat.com, 'All Players play to Each Trick in Phase One', 'Playing "
            "sequences in phase two', 'Variants: playing and picking up sequences' (the usual "
            "rule); Wikipedia, 'All-player tricks', 'Phase 2'",
            options=RuleOptions(
                min_players=2,
                max_players=6,
                phase_one="all",
                multi_card_plays=True,
                sluffing="once",
                low_cards=5,
                sequences="two",
                pick_from="top",
                pick_takes="joined",
            ),
        ),
        Preset(
            name="mattis",
            loser_word="mattis",
            title=N_(
                "Norwegian Mattis: everyone plays, ties played off from hand or stock, no "
                "sluffing; runs in phase two, the lowest play picked up; Blåmattis. No player "
                "limit in its text: one pack seats 17"
            ),
            source="pagat.com, 'Mattis'",
            options=RuleOptions(
                min_players=2,
                max_players=PACK_LIMIT,
                phase_one="all",
                sequences="two",
                pick_from="bottom",
                pick_takes="play",
                empty_hand_at_phase_two="blamattis",
            ),
        ),
        Preset(
            name="koira",
            loser_word="koira",
            title=N_(
                "Finnish Koira: everyone plays, players without cards skipped until all "
                "are played, an unplayable tie shared out; runs in phase two, the lowest play "
                "picked up. From three players ('to around eight': no firm limit)"
            ),
            source="pagat.com, 'Koira'",
            options=RuleOptions(
                min_players=3,
                max_players=PACK_LIMIT,
                phase_one="all",
                phase_one_end="skip_empty",
                sequences="two",
                pick_from="bottom",
                pick_takes="play",
            ),
        ),
        Preset(
            name="atlanta",
            loser_word="mattis",
            title=N_(
                "The Atlanta variation of Mattis: three players, compulsory ties, one sluff "
                "of losing ranks, the dreck to hands under six; joined runs picked up from the "
                "bottom"
            ),
            source="pagat.com, 'Atlanta Variation'",
            options=RuleOptions(
                min_players=3,
                max_players=3,
                phase_one="all",
                compulsory_ties=True,
                sluffing="atlanta",
                low_cards=6,
                low_cards_six_of_trumps=True,
                low_cards_shares="even",
                low_cards_shuffler="anyone",
                sequences="two",
                pick_from="bottom",
                pick_takes="joined",
            ),
        ),
        Preset(
            name="goat",
            title=N_(
                "The American Goat game (Duke/UCLA): trump card set aside, everyone plays "
                "one card a round with the Important Restriction, sluffing at any time with two "
                "restrictions, wars, the dreck; touching runs, the lowest run eaten. High trump at "
                "three players, a double deck from seven. 'Any number can play' (ten and more is "
                "'absurd', two 'dumb', neither forbidden): two packs seat 34"
            ),
            source="the Goat treatise ('Skitgubbe: a general treatise'), 0-IV and variations I-II",
            options=_GOAT,
            by_players={
                (3, 3): {"high_trump": "kill_only"},
                (7, GOAT_LIMIT): {"decks": 2, "low_cards": 12},
            },
            cites=GOAT_CITES,
        ),
        Preset(
            name="mas",
            title=N_(
                "Mas with turned-up trump: two-card tricks won by a higher card of the suit "
                "led or a trump, or the led card picked up; three trumps set aside, the two of "
                "trumps exchanged; phase one ends with the stock"
            ),
            source="pagat.com, 'Mas with turned up trump'; Wikipedia, 'Phase 1'",
            options=_MAS,
        ),
        Preset(
            name="melniki",
            title=N_(
                "Russian Melniki: Mas, except that a player holding the suit led must play "
                "rather than pick up; no three-trump or two-of-trumps rules"
            ),
            source="Wikipedia, 'Related games' (Melniki), with pagat.com, 'Mas with turned up "
            "trump'",
            options=RuleOptions.model_validate(
                {
                    **_MAS.model_dump(),
                    "pair_reply": "follow_or_pick",
                    "set_aside_trumps": False,
                    "exchange_two": False,
                }
            ),
        ),
        Preset(
            name="myllymatti",
            title=N_(
                "Finnish Myllymatti: plays exactly as the basic game (pagat): two-card "
                "tricks, the winner playing on with the next player, single cards in phase two. "
                "No player limit in its text: one pack seats 17"
            ),
            source="pagat.com, 'Myllymatti'",
            options=RuleOptions(max_players=PACK_LIMIT),
        ),
    )
}


def find_variant(name: str) -> Preset:
    """The preset called ``name``; :class:`UnknownVariant` (a RecordError and a KeyError)
    with the known names otherwise."""
    try:
        return PRESETS[name]
    except (KeyError, TypeError):  # TypeError: a name that is no string nor hashable
        known = ", ".join(PRESETS)
        raise UnknownVariant("", f"{shown(name)} is not a variant ({known})") from None
