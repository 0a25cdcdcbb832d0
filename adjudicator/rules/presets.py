"""Named variants: each one a RuleOptions value, with where its rules are written."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.rules.options import RuleOptions


@dataclass(frozen=True)
class Preset:
    """A named variant and where its rules are written down."""

    name: str
    title: str
    source: str
    options: RuleOptions


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset(
            name="pagat",
            title="Basic Skitgubbe: two-card tricks, then beat or pick up single cards",
            source="000 'Skitgubbe' (main description); 004",
            options=RuleOptions(),
        ),
        Preset(
            name="helmfrid",
            title="Skitgubbe with everyone playing to each trick (Helmfrid): one to three "
            "cards of a rank, sluffing once, low cards to short hands; runs in phase two, "
            "the joined run picked up from the top",
            source="000 'All Players play to Each Trick in Phase One', 'Playing sequences in "
            "phase two', 'Variants: playing and picking up sequences' (the usual rule); "
            "002 'All-player tricks', 'Phase 2'",
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
            title="Norwegian Mattis: everyone plays, ties played off from hand or stock, no "
            "sluffing; runs in phase two, the lowest play picked up; Blåmattis",
            source="000 'Mattis'",
            options=RuleOptions(
                min_players=2,
                max_players=8,
                phase_one="all",
                sequences="two",
                pick_from="bottom",
                pick_takes="play",
                empty_hand_at_phase_two="blamattis",
            ),
        ),
        Preset(
            name="koira",
            title="Finnish Koira: everyone plays, players without cards skipped until all "
            "are played, an unplayable tie shared out; runs in phase two, the lowest play "
            "picked up",
            source="000 'Koira'",
            options=RuleOptions(
                min_players=3,
                max_players=8,
                phase_one="all",
                phase_one_end="skip_empty",
                sequences="two",
                pick_from="bottom",
                pick_takes="play",
            ),
        ),
        Preset(
            name="atlanta",
            title="The Atlanta variation of Mattis: three players, compulsory ties, one sluff "
            "of losing ranks, the dreck to hands under six; joined runs picked up from the "
            "bottom",
            source="000 'Atlanta Variation'",
            options=RuleOptions(
                min_players=3,
                max_players=3,
                phase_one="all",
                compulsory_ties=True,
                sluffing="atlanta",
                low_cards=6,
                low_cards_six_of_trumps=True,
                low_cards_shares="even",
                sequences="two",
                pick_from="bottom",
                pick_takes="joined",
            ),
        ),
    )
}


def find_variant(name: str) -> Preset:
    """The preset called ``name``; KeyError with the known names otherwise."""
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(PRESETS)
        raise KeyError(f"{name!r} is not a variant ({known})") from None
