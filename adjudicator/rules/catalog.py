"""Every rule id the engine can report: what it checks, where it is written, what breaks it.

This is the catalogue behind ``adjudicator explain`` and the tables of
``docs/rules.md`` (generated from it: ``python -m adjudicator.rules.catalog
--write docs/rules.md``; a test fails when the page is stale).  The rule texts
are cited by title and section, as listed in :data:`SOURCES` and in
``docs/sources.md``.

Ids are stable: a new check gets a new id, and an id is never reused for a
different rule.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from adjudicator.i18n import N_, _


@dataclass(frozen=True)
class Source:
    """A published rule text: how it is cited, what it is, where to read it."""

    key: str
    cite: str
    """The short name a citation starts with: ``pagat.com``."""
    title: str
    about: str
    address: str


SOURCES: dict[str, Source] = {
    s.key: s
    for s in (
        Source(
            "pagat",
            "pagat.com",
            "Skitgubbe",
            "John McLeod's card-game site, revised in 2022 from Sten Helmfrid's articles. "
            "The primary source: the basic game and most of its variants.",
            "https://www.pagat.com/beating/skitgubbe.html",
        ),
        Source(
            "wikipedia",
            "Wikipedia",
            "Skitgubbe",
            "The English Wikipedia article, written from Helmfrid's 2021 account.",
            "https://en.wikipedia.org/wiki/Skitgubbe",
        ),
        Source(
            "goat",
            "the Goat treatise",
            "Skitgubbe: a general treatise",
            "The American 'Goat' rules from Duke and UCLA, with worked examples; "
            "pagat.com links an archived copy as 'the Swedish Goat Game page'.",
            "linked from pagat.com's Skitgubbe page, section 'Other Skitgubbe WWW Pages'",
        ),
        Source(
            "summary",
            "the two-page summary",
            "Skitgubbe (2p, 3p, 4p)",
            "A short summary of the basic game, agreeing with pagat.com's main description.",
            "no public address known",
        ),
        Source(
            "contract",
            "the record contract",
            "Game record format, version 1",
            "This project's record format: docs/record-format.md.",
            "docs/record-format.md",
        ),
    )
}


@dataclass(frozen=True)
class Cite:
    """A place in a rule text: ``pagat.com, 'Koira'``, ``the Goat treatise, IV.E``."""

    source: str
    section: str = ""
    note: str = ""
    """A few words on which part of the section: ``compulsory ties``."""

    def __str__(self) -> str:
        text = SOURCES[self.source].cite
        if self.section:
            quoted = self.source != "goat"
            text += f", '{self.section}'" if quoted else f", {self.section}"
        if self.note:
            text += f" ({self.note})"
        return text


@dataclass(frozen=True)
class Rule:
    """One rule id of the engine."""

    id: str
    group: str
    checks: str
    sources: tuple[Cite, ...]
    samples: tuple[str, ...]
    """Sample games (in ``sample_games/``); the first one breaks this rule."""
    options: tuple[str, ...] = ()
    """The rule options that change what this rule allows."""
    kind: str = "violation"
    """'violation': breaking it makes a record illegal; 'undetermined': it reports where a
    game could not be followed; 'invalid': the record lacks what the table saw."""

    @property
    def said(self) -> str:
        """What it checks, in the language speaking now, without the Markdown backticks."""
        return _(self.checks).replace("`", "")

    @property
    def cited(self) -> str:
        """The sources, one citation after the other."""
        return "; ".join(str(c) for c in self.sources)


@dataclass(frozen=True)
class Group:
    """A heading of docs/rules.md and the note that follows its table."""

    key: str
    title: str
    after: str = ""

    @property
    def said(self) -> str:
        """The title in the language speaking now, without the Markdown backticks."""
        return _(self.title).replace("`", "")


GROUPS: tuple[Group, ...] = (
    Group("any", N_("Any phase")),
    Group("pairs", N_("Phase one: two-card tricks (`phase_one: pairs`)")),
    Group(
        "all",
        N_("Phase one: everybody plays (`phase_one: all`)"),
        "Ties are played off as the options say (`tie_rule`, `tie_resolution`) and\n"
        "phase one ends as `phase_one_end` says; those are not separate checks but\n"
        "decide whose turn it is, so a wrong player is caught by `turn.order`\n"
        "(`tests/engine/test_phase_one_all.py` covers each option).",
    ),
    Group("deal", N_("Deals: shuffles the rules leave to chance")),
    Group(
        "unknown",
        N_("Records with unknown cards (`??`)"),
        "Any check that reads a hand or the stock may also be reported as undetermined\n"
        "under its own id (a compulsory tie when part of the hand is unknown, whether a\n"
        "hidden card is the highest trump, whether every low card was dealt): the\n"
        "action stands and the record is not illegal for it.",
    ),
    Group("two", N_("Phase two")),
    Group(
        "result",
        N_("The record's claims"),
        "These are reported with `index: null`: no action is wrong, the claim is.",
    ),
)

P = "pagat"
W = "wikipedia"
G = "goat"

RULES: dict[str, Rule] = {
    r.id: r
    for r in (
        Rule(
            "game.over",
            "any",
            N_(
                "nothing may follow the end of the game (the moment at most one player holds cards)"
            ),
            (Cite(P, "Play in the second phase", "the last player with cards is the loser"),),
            ("illegal_game_over.json",),
        ),
        Rule(
            "act.variant",
            "any",
            N_(
                "the act exists in this variant's rules (e.g. no `sluff` in basic Skitgubbe, no "
                "`deal` where nothing is dealt)"
            ),
            (Cite(P, "Play in the first phase"), Cite(P, "", "the variant's own section")),
            ("illegal_act_variant.json",),
            (
                "dare",
                "sluffing",
                "low_cards",
                "low_cards_by_indicator",
                "unfinished_trick",
                "phase_one_end",
            ),
        ),
        Rule(
            "turn.order",
            "any",
            N_(
                "only the player whose turn it is acts: the dealer's left leads the first trick, "
                "the leader's left neighbour plays second (two-card tricks), the winner leads "
                "next; in phase two the next player with cards"
            ),
            (Cite(P, "Play in the first phase"), Cite(P, "Play in the second phase")),
            ("illegal_turn_order.json",),
            (
                "phase_one",
                "tie_rule",
                "tie_resolution",
                "phase_one_end",
                "phase_two_leader",
                "high_trump",
                "reserve",
                "pick_leads",
                "specials_turn",
            ),
        ),
        Rule(
            "play.count",
            "any",
            N_(
                "a play has as many cards as the rules allow: one in two-card tricks and in phase "
                "two without runs; at least one"
            ),
            (Cite(P, "Play in the first phase"), Cite(P, "Play in the second phase")),
            ("illegal_play_count.json",),
            ("phase_one", "multi_card_plays", "sequences"),
        ),
        Rule(
            "play.held",
            "any",
            N_("every card played is in the player's hand"),
            (Cite(P, "Play in the first phase"),),
            ("illegal_play_held.json",),
        ),
        Rule(
            "phase1.dare.stock",
            "pairs",
            N_(
                "a dare needs two or more cards in the stock: the last card is the trump "
                "indicator, kept face down"
            ),
            (Cite(P, "Play in the first phase"), Cite("summary", "Play in phase 1")),
            ("illegal_phase1_dare_stock.json",),
            ("dare",),
        ),
        Rule(
            "phase1.dare.leader",
            "pairs",
            N_(
                "with `dare_by: leader`, only the leader of a two-card trick dares; the second "
                "player plays a card (or picks up)"
            ),
            (Cite(P, "Play in the first phase"), Cite(P, "Mas with turned up trump")),
            ("illegal_mas_dare_leader.json",),
            ("dare_by",),
        ),
        Rule(
            "phase1.dare.card",
            "pairs",
            N_("a dare that names its card names the stock's top card"),
            (Cite(P, "Play in the first phase"), Cite("contract", "", "`dare`")),
            ("illegal_phase1_dare_card.json",),
            ("dare",),
        ),
        Rule(
            "phase1.pick",
            "pairs",
            N_("nobody picks up in phase one"),
            (Cite(P, "Play in the first phase"),),
            ("illegal_phase1_pick.json",),
        ),
        Rule(
            "phase1.play.rank",
            "all",
            N_(
                "the cards of one play are all of one rank (with `multi_card_plays`, one to "
                "three cards)"
            ),
            (Cite(P, "All Players play to Each Trick in Phase One"),),
            ("illegal_phase1_play_rank.json",),
            ("multi_card_plays",),
        ),
        Rule(
            "phase1.tie.compulsory",
            "all",
            N_(
                "with `compulsory_ties`, a player who can make a tie plays that rank (under "
                "`tied_beat_unique`: the highest rank already played in the round that is at or "
                "above the highest existing tie, so joining the heading tie is compulsory too), "
                "and may not dare instead"
            ),
            (
                Cite(P, "Variants: trick play and sluffing", "compulsory ties"),
                Cite(W, "All-player tricks", "optional rule"),
                Cite(P, "Atlanta Variation"),
            ),
            ("illegal_phase1_tie_compulsory.json", "illegal_phase1all_tie_join.json"),
            ("compulsory_ties", "tie_rule"),
        ),
        Rule(
            "phase1.sluff.window",
            "all",
            N_(
                "a sluff comes when the variant allows it: after the trick is decided (`once`), "
                "after the sluffer has played to it (`own_rank`, `atlanta`), while a trick is on "
                "the table (`unlimited`)"
            ),
            (
                Cite(P, "All Players play to Each Trick in Phase One"),
                Cite(P, "Variants: trick play and sluffing"),
                Cite(P, "Atlanta Variation"),
            ),
            ("illegal_phase1_sluff_window.json",),
            ("sluffing",),
        ),
        Rule(
            "phase1.sluff.once",
            "all",
            N_("with `once` or `atlanta`, one sluff per player per trick"),
            (Cite(P, "All Players play to Each Trick in Phase One"), Cite(P, "Atlanta Variation")),
            ("illegal_phase1_sluff_once.json",),
            ("sluffing",),
        ),
        Rule(
            "phase1.sluff.rank",
            "all",
            N_(
                "sluffed cards are of ranks the variant allows: already in the trick (`once`, "
                "`unlimited`), one's own latest rank (`own_rank`), the rank of a card played and "
                "losing the trick, judged card by card (`atlanta`)"
            ),
            (
                Cite(P, "All Players play to Each Trick in Phase One"),
                Cite(P, "Variants: trick play and sluffing"),
                Cite(P, "Atlanta Variation"),
            ),
            ("illegal_phase1_sluff_rank.json", "atlanta_pagat_losing_nine.json"),
            ("sluffing",),
        ),
        Rule(
            "phase1.take",
            "all",
            N_("with unlimited sluffing, only a decided trick is taken (by its winner)"),
            (Cite(P, "Variants: trick play and sluffing", "unlimited sluffing"),),
            ("illegal_phase1_take.json",),
            ("sluffing",),
        ),
        Rule(
            "phase1.take.due",
            "all",
            N_("with unlimited sluffing, the winner takes the trick before leading again"),
            (Cite(P, "Variants: trick play and sluffing", "unlimited sluffing"),),
            ("illegal_phase1_take_due.json",),
            ("sluffing",),
        ),
        Rule(
            "deal.due",
            "deal",
            N_(
                "when a deal is due (low cards, an unfinished trick dealt out, a Koira tie shared "
                "out), nothing else happens first"
            ),
            (
                Cite(P, "All Players play to Each Trick in Phase One"),
                Cite(P, "Variants: end of phase one"),
                Cite(P, "Koira"),
            ),
            ("illegal_deal_due.json",),
            ("low_cards", "low_cards_by_indicator", "unfinished_trick", "phase_one_end"),
        ),
        Rule(
            "deal.none",
            "deal",
            N_("a `deal` only where a shuffle is due"),
            (Cite("contract", "", "`deal`"),),
            ("illegal_deal_none.json",),
        ),
        Rule(
            "deal.shuffler",
            "deal",
            N_(
                "the shuffler is entitled to shuffle: for low cards a player not receiving them; "
                "for an unfinished trick the dealer"
            ),
            (
                Cite(P, "All Players play to Each Trick in Phase One"),
                Cite(P, "Variants: end of phase one"),
            ),
            ("illegal_deal_shuffler.json",),
            ("low_cards", "unfinished_trick"),
        ),
        Rule(
            "deal.cards",
            "deal",
            N_(
                "exactly the cards due are dealt: every 2-5 (and the six of trumps under "
                "`low_cards_six_of_trumps`), or the trick's cards"
            ),
            (Cite(P, "All Players play to Each Trick in Phase One"), Cite(P, "Atlanta Variation")),
            ("illegal_deal_cards.json",),
            ("low_cards", "low_cards_six_of_trumps", "unfinished_trick", "phase_one_end"),
        ),
        Rule(
            "deal.receivers",
            "deal",
            N_(
                "only the players due receive: those short of the threshold, judged before anyone "
                "gives up low cards; the tied players; everyone for a dealt-out trick"
            ),
            (
                Cite(P, "All Players play to Each Trick in Phase One"),
                Cite(P, "Atlanta Variation"),
                Cite(P, "Koira"),
            ),
            ("illegal_deal_receivers.json",),
            ("low_cards", "low_cards_by_indicator", "unfinished_trick", "phase_one_end"),
        ),
        Rule(
            "deal.shares",
            "deal",
            N_(
                "the shares are those of dealing one at a time in order (`low_cards_shares: "
                "deal_order`, a dealt-out trick), or as even as possible (`even`, a Koira tie)"
            ),
            (
                Cite(P, "All Players play to Each Trick in Phase One"),
                Cite(P, "Atlanta Variation"),
                Cite(P, "Koira"),
            ),
            ("illegal_deal_shares.json",),
            ("low_cards_shares", "unfinished_trick", "phase_one_end"),
        ),
        Rule(
            "phase2.beat",
            "two",
            N_(
                "a play onto the trick beats the top play: higher in its suit, or trumps on a "
                "non-trump; an anti-trump is never beaten by trumps; runs compare lowest card "
                "against the top play's highest"
            ),
            (
                Cite(P, "Play in the second phase"),
                Cite(P, "Playing sequences in phase two"),
                Cite(P, "Anti-trumps"),
                Cite(W, "Phase 2"),
            ),
            ("illegal_phase2_beat.json", "seq_pagat_wrong_suit.json"),
            ("sequences", "anti_trump"),
        ),
        Rule(
            "phase2.sequence",
            "two",
            N_(
                "a play of several cards is a run the options allow: consecutive, one suit, long "
                "enough (`sequences: two / three`), beginning with a 2 (`from_two`)"
            ),
            (
                Cite(P, "Playing sequences in phase two"),
                Cite(P, "Mattis"),
                Cite(P, "Koira"),
                Cite(W, "Phase 2"),
                Cite("goat", "IV.E"),
            ),
            ("illegal_phase2_sequence.json",),
            ("sequences",),
        ),
        Rule(
            "phase2.pick.empty",
            "two",
            N_("a pick needs cards on the table"),
            (Cite(P, "Play in the second phase"),),
            ("illegal_phase2_pick_empty.json",),
        ),
        Rule(
            "phase2.pick.cards",
            "two",
            N_(
                "a pick that names its cards names exactly what the pick-up rule gives (top or "
                "bottom; card, play or joined run)"
            ),
            (
                Cite(P, "Play in the second phase"),
                Cite(P, "Variants: playing and picking up sequences"),
                Cite(W, "Phase 2"),
                Cite("goat", "IV.F.2.b"),
            ),
            ("illegal_phase2_pick_cards.json",),
            ("pick_from", "pick_takes"),
        ),
        Rule(
            "phase2.pick.forced",
            "two",
            N_(
                "with forced pick-up, once someone picks, the following players pick until the "
                "table is empty"
            ),
            (Cite(P, "Variants: playing and picking up sequences", "forced pickup"),),
            ("illegal_phase2_pick_forced.json",),
            ("forced_pick",),
        ),
        Rule(
            "phase2.high_trump",
            "two",
            N_(
                "with `high_trump: kill_only`, the highest trump still in the game only completes "
                "a trick, never leads or plays to one it does not complete"
            ),
            (Cite("goat", "variations I", "high trump"),),
            ("illegal_phase2_high_trump.json",),
            ("high_trump",),
        ),
        Rule(
            "phase2.blamattis",
            "two",
            N_(
                "with `empty_hand_at_phase_two: blamattis`, a player who started phase two "
                "without cards picks up at their first turn"
            ),
            (Cite(P, "Mattis", "Blåmattis"),),
            ("illegal_phase2_blamattis.json",),
            ("empty_hand_at_phase_two",),
        ),
        Rule(
            "phase2.dare",
            "two",
            N_("there is no daring in phase two: the stock is gone"),
            (Cite(P, "Play in the second phase"),),
            ("illegal_phase2_dare.json",),
            ("dare",),
        ),
        Rule(
            "phase2.act",
            "two",
            N_("sluffing and taking a trick belong to phase one"),
            (Cite(P, "Play in the second phase"),),
            ("illegal_phase2_act.json",),
            ("sluffing",),
        ),
        Rule(
            "phase1.beat",
            "pairs",
            N_(
                "with `pair_reply: beat_or_pick` (Mas), the second card of a trick beats the led "
                "card: a higher card of the suit led, or a trump on a non-trump; otherwise the "
                "second player picks the led card up"
            ),
            (Cite(P, "Mas with turned up trump"),),
            ("illegal_mas_beat.json",),
            ("pair_winner", "pair_reply"),
        ),
        Rule(
            "phase1.pick.cards",
            "pairs",
            N_("a pick in phase one takes the led card; if it names cards, it names that one"),
            (Cite(P, "Mas with turned up trump"), Cite("contract", "", "`pick`")),
            ("illegal_mas_pick_cards.json",),
            ("pair_reply",),
        ),
        Rule(
            "phase1.pick.follow",
            "pairs",
            N_(
                "with `pair_reply: follow_or_pick` (Melniki), a player holding a card of the suit "
                "led may not pick up but must play a card; undetermined when only a hidden card "
                "could be of that suit"
            ),
            (Cite(W, "Related games", "Melniki"),),
            ("illegal_melniki_follow.json",),
            ("pair_reply",),
        ),
        Rule(
            "phase1.reply",
            "pairs",
            N_(
                "with `pair_reply: follow_or_pick` (Melniki), a player who cannot follow the suit "
                "led plays a trump or picks up; only a player holding the suit may play a card "
                "that does not win; undetermined when only a hidden card could be of that suit"
            ),
            (Cite(W, "Related games", "Melniki"),),
            ("illegal_melniki_side_card.json",),
            ("pair_reply",),
        ),
        Rule(
            "phase1.set_aside",
            "pairs",
            N_(
                "with `set_aside_trumps` (Mas), only a hand of exactly three trumps and nothing "
                "else is shown and set aside, while the stock still has cards to draw"
            ),
            (Cite(P, "Mas with turned up trump"),),
            ("illegal_mas_set_aside.json",),
            ("set_aside_trumps",),
        ),
        Rule(
            "phase1.exchange",
            "pairs",
            N_(
                "with `exchange_two` (Mas), only the two of trumps is exchanged, and only while "
                "the turned-up trump still lies under the stock"
            ),
            (Cite(P, "Mas with turned up trump"),),
            ("illegal_mas_exchange.json",),
            ("exchange_two",),
        ),
        Rule(
            "phase1.sluff.top",
            "all",
            N_(
                "with `sluff_top_first`, a player who has not yet played to the round does not "
                "sluff a card of the rank of the highest card played so far in it: that card must "
                "be the play (sluffing restriction #1)"
            ),
            (Cite(G, "II.E.3", "sluffing restriction #1"),),
            ("illegal_goat_sluff_top.json",),
            ("sluff_top_first",),
        ),
        Rule(
            "phase1.sluff.final",
            "all",
            N_(
                "with `sluff_final`, nobody sluffs to the trick that turns out to be the last of "
                "phase one while they could still win it (sluffing restriction #2); judged as soon "
                "as the trick is known to be the last, and reported at the sluff"
            ),
            (Cite(G, "II.E.3", "sluffing restriction #2"), Cite(G, "II.F")),
            ("illegal_goat_sluff_final.json",),
            ("sluff_final",),
        ),
        Rule(
            "phase1.draw",
            "all",
            N_(
                "where the record writes its draws (`draw_back` 'any_time' or 'without_delay'), "
                "a `draw` names no card and takes the stock's top card into a hand holding "
                "fewer than a full hand; with a full hand or an empty stock there is nothing "
                "to draw"
            ),
            (Cite(G, "II.B"), Cite(G, "II.G")),
            ("illegal_goat_draw.json",),
            ("draw_back",),
        ),
        Rule(
            "phase1.draw.owed",
            "all",
            N_(
                "with `draw_back` 'without_delay', a player whose hand is short while the stock "
                "can fill it draws before playing, daring, sluffing or taking"
            ),
            (Cite(G, "II.B"), Cite(G, "II.G", "DO NOT wait for others to draw or play")),
            ("illegal_goat_draw_owed.json",),
            ("draw_back",),
        ),
        Rule(
            "phase2.one_copy",
            "two",
            N_(
                "with two packs, a play holds at most one copy of a card: the two copies are "
                "played one at a time"
            ),
            (Cite(G, "variations II.B"),),
            ("illegal_goat_double_card.json",),
            ("decks",),
        ),
        Rule(
            "game.stopped",
            "unknown",
            N_(
                "where the course of the game depends on cards nobody knows (how many low cards "
                "an unknown hand gives up, an unknown trump card's rank as the low-card limit), "
                "the game is followed no further: not finished, no loser, the claim not judged"
            ),
            (Cite("contract", "", "unknown cards"),),
            ("undetermined_low_cards.json",),
            kind="undetermined",
        ),
        Rule(
            "record.dare",
            "unknown",
            N_(
                "a dare on a stock whose top card is unknown names the card turned; without it the "
                "record lacks what the table saw and is invalid"
            ),
            (Cite("contract", "", "unknown cards"),),
            ("invalid_dare_unknown.json",),
            ("dare",),
            kind="invalid",
        ),
        Rule(
            "session.first_leader",
            "result",
            N_(
                "in a session under `first_lead: previous_loser`, each game after the first is led "
                "by the previous game's loser"
            ),
            (Cite(G, "II.D"), Cite(G, "IV.B"), Cite("contract", "", "sessions")),
            ("illegal_session_leader.json",),
            ("first_lead",),
        ),
        Rule(
            "session.scores",
            "result",
            N_("a session's claimed scores are those its scoring gives for the games played"),
            (Cite(G, "variations V", "scoring"), Cite("contract", "", "sessions")),
            ("illegal_session_scores.json",),
        ),
        Rule(
            "result.unfinished",
            "result",
            N_("a `result` names a loser only when the game is over"),
            (Cite("contract", "", "`result`"),),
            ("illegal_result_unfinished.json",),
        ),
        Rule(
            "result.loser",
            "result",
            N_(
                "the claimed loser is the player the rules make the loser (or, written as "
                "`losers`, every player the rules make lose at once)"
            ),
            (Cite("contract", "", "`result`"), Cite(P, "Play in the second phase")),
            ("illegal_result_loser.json", "illegal_mattis_blamattis_one_loser.json"),
        ),
    )
}


# --- docs/rules.md --------------------------------------------------------------

BEGIN = "<!-- rules:begin (generated by python -m adjudicator.rules.catalog --write) -->"
END = "<!-- rules:end -->"


def markdown() -> str:
    """The generated part of docs/rules.md: one table of rule ids per group."""
    out: list[str] = []
    for group in GROUPS:
        out += [f"## {group.title}", "", "| id | what it checks | source | sample |"]
        out.append("|---|---|---|---|")
        for rule in RULES.values():
            if rule.group != group.key:
                continue
            samples = ", ".join(f"`{name}`" for name in rule.samples)
            out.append(f"| `{rule.id}` | {rule.checks} | {rule.cited} | {samples} |")
        out.append("")
        if group.after:
            out += [group.after, ""]
    return "\n".join(out).rstrip("\n") + "\n"


def update(page: str) -> str:
    """``page`` with the text between the markers replaced by :func:`markdown`."""
    head, begin, rest = page.partition(BEGIN)
    _, end, tail = rest.partition(END)
    if not begin or not end:
        raise ValueError(f"the page has no {BEGIN} ... {END} markers")
    return f"{head}{BEGIN}\n\n{markdown()}\n{END}{tail}"


def main(argv: list[str]) -> int:
    """``--write PATH``: regenerate the tables of docs/rules.md; ``--check PATH``: test them."""
    if len(argv) != 2 or argv[0] not in ("--write", "--check"):
        print("usage: python -m adjudicator.rules.catalog --write|--check docs/rules.md")
        return 2
    path = Path(argv[1])
    page = path.read_text(encoding="utf-8")
    new = update(page)
    if argv[0] == "--check":
        if new != page:
            print(f"{path} is stale: run python -m adjudicator.rules.catalog --write {path}")
            return 1
        return 0
    path.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
