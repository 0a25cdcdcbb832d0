"""Table language: what the replay says for each event, for the terminal, the HTML and the page.

The engine says what happened as values (:mod:`adjudicator.engine.events`);
this module alone turns them into the words a player at the table would use:
``Bo beats 9♥ with 10♥``, ``bounce: Anna leads again``, ``phase one ends: Cai
has no card to lead``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from adjudicator.cards import RANK_WORDS, UNKNOWN, card_text, cards_text, rank_word
from adjudicator.engine import events as ev

if TYPE_CHECKING:
    from adjudicator.engine.violations import Violation
    from adjudicator.play.table import Step

__all__ = [
    "RANK_WORDS",
    "SUIT_WORDS",
    "act_and_consequences",
    "names_list",
    "rank_word",
    "ranks_word",
    "say",
]

SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs")
"""A suit as trumps are named: ``hearts are trumps``."""

PLURALS = {"ace": "aces", "jack": "jacks", "queen": "queens", "king": "kings", "6": "sixes"}


def ranks_word(r: int) -> str:
    """``7s`` or ``queens``."""
    word = rank_word(r)
    return PLURALS.get(word, word + "s")


def names_list(names: Sequence[str], players: Iterable[int]) -> str:
    """``Anna``, ``Anna and Bo``, ``Anna, Bo and Cai``."""
    said = [names[p] for p in players]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


def _shares(names: Sequence[str], shares: tuple[tuple[int, tuple[int, ...]], ...]) -> str:
    return ", ".join(f"{names[p]} {cards_text(cards)}" for p, cards in shares)


# --- acts ---------------------------------------------------------------------------


_TAILS = {"lead": " to lead", "to_lead": " to lead", "again": " to break the tie", "": ""}


def _played(e: ev.Played, names: Sequence[str]) -> str:
    name = names[e.player]
    cards = cards_text(e.cards)
    if e.how == "lead":
        return f"{name} leads {cards}"
    if e.how == "beat":
        return f"{name} beats {cards_text(e.against)} with {cards}"
    if e.how == "to":
        return f"{name} plays {cards} to {card_text(e.against[0])}"
    return f"{name} plays {cards}{_TAILS[e.how]}"


def _dared(e: ev.Dared, names: Sequence[str]) -> str:
    name = names[e.player]
    what = f"{name} dares and turns {card_text(e.card)}" if e.card is not None else f"{name} dares"
    if e.how == "to":
        return f"{what} to {card_text(e.against[0])}"
    return what + _TAILS[e.how]


def _picked(e: ev.Picked, names: Sequence[str]) -> str:
    if e.cards is None:
        return "picks up" if e.phase == 1 else f"{names[e.player]} picks up"
    return f"{names[e.player]} picks up {cards_text(e.cards)}"


def _exchanged(e: ev.Exchanged, names: Sequence[str]) -> str:
    under = card_text(e.under) if e.under is not None else "the turned-up trump"
    return f"{names[e.player]} exchanges {cards_text(e.cards)} for {under}"


def _dealt(e: ev.Dealt, names: Sequence[str]) -> str:
    return f"{names[e.player]} deals {e.what}: {_shares(names, e.shares) or 'nothing'}"


# --- consequences -------------------------------------------------------------------


_ENDS = {
    "all_played": "phase one ends: every card has been played",
    "stock_used": "phase one ends: the stock is used up",
    "two_cards": "phase one ends: {who} cannot begin a trick with two cards",
    "no_card_round": "phase one ends: {who} {has} no card for the next round",
    "no_lead": "phase one ends: {who} has no card to lead",
    "no_play": "phase one ends: {who} has no card to play",
    "stock_done": "the stock is used up and the trick is over: phase one ends",
    "fewer_than_two": "fewer than two players hold cards: phase one ends",
    "no_card_bounce": "{who} has no card to resolve the bounce: phase one ends",
}


def _ends(e: ev.PhaseOneEnds, names: Sequence[str]) -> str:
    who = names_list(names, e.players) if e.players else ""
    return _ENDS[e.why].format(who=who, has="has" if len(e.players) == 1 else "have")


def _tie(e: ev.Tie, names: Sequence[str]) -> str:
    ranks = " and ".join(ranks_word(r) for r in e.ranks)
    then = "take them back" if e.take_back else "play again"
    return f"{names_list(names, e.players)} tie with {ranks} and {then}"


def _taken(e: ev.TrickTaken, names: Sequence[str]) -> str:
    said = f"{names[e.winner]} takes the trick ({e.size} cards)"
    return said + " and leads" if e.leads else said


_LEADS = {
    "": "{name} leads",
    "next": "{name} leads next",
    "again": "{name} leads again",
    "empty": "the table is empty: {name} leads",
    "phase_two": "phase two: {name} leads",
}


def _trump(e: ev.TrumpRevealed, names: Sequence[str]) -> str:
    if e.trump is None:
        return "the trump card was not written down: the trump suit is unknown"
    shown = "an unknown card" if e.card == UNKNOWN else card_text(e.card)
    return f"the trump card is {shown}: {SUIT_WORDS[e.trump]} are trumps"


def _low(e: ev.LowCardsShared, names: Sequence[str]) -> str:
    verb = "holds" if len(e.players) == 1 else "hold"
    return (
        f"{names_list(names, e.players)} {verb} fewer than {e.threshold} cards: "
        "the low cards are shared out"
    )


def _out(e: ev.Out, names: Sequence[str]) -> str:
    if e.reserve:
        return f"{names[e.player]} has no cards left, but the avstickshög lasts"
    return f"{names[e.player]} is out"


def _over(e: ev.GameOver, names: Sequence[str]) -> str:
    verb = "loses" if len(e.losers) == 1 else "lose"
    return f"game over: {' and '.join(names[p] for p in e.losers)} {verb}"


_SAY: dict[type, Callable[[Any, Sequence[str]], str]] = {
    ev.Played: _played,
    ev.Dared: _dared,
    ev.Picked: _picked,
    ev.Sluffed: lambda e, n: f"{n[e.player]} sluffs {cards_text(e.cards)}",
    ev.Took: lambda e, n: f"{n[e.player]} takes the trick ({e.size} cards)",
    ev.SetAside: lambda e, n: (
        f"{n[e.player]} shows three trumps, {cards_text(e.cards)}, and sets them aside"
    ),
    ev.Exchanged: _exchanged,
    ev.Dealt: _dealt,
    ev.OtherAct: lambda e, n: f"{n[e.player]} {e.act}s {cards_text(e.cards)}".rstrip(),
    ev.DareFailed: lambda e, n: (
        f"{card_text(e.card)} does not beat: {n[e.player]} picks up both cards"
    ),
    ev.PhaseOneEnds: _ends,
    ev.Tie: _tie,
    ev.TrickWon: lambda e, n: f"{n[e.winner]} wins the trick",
    ev.TrickTaken: _taken,
    ev.RestDealt: lambda e, n: "the rest is dealt lowest first: " + _shares(n, e.shares),
    ev.TieOut: lambda e, n: (
        "a tied player has no card to play again: the trick is shuffled and shared out"
    ),
    ev.NoLowCards: lambda e, n: "no low cards were shared",
    ev.WindowClosed: lambda e, n: "nobody sluffs more",
    ev.Bounce: lambda e, n: f"bounce: {n[e.leader]} leads again",
    ev.Leads: lambda e, n: _LEADS[e.how].format(name=n[e.player]),
    ev.LeadsInstead: lambda e, n: (
        f"{n[e.holder]} holds only the highest trump: {n[e.leader]} leads instead"
    ),
    ev.UnfinishedTrick: lambda e, n: (
        f"the unfinished trick is dealt out by {n[e.dealer]}"
        if e.dealer is not None
        else "everyone takes back what they put into the unfinished trick"
    ),
    ev.TrumpRevealed: _trump,
    ev.LowCardsShared: _low,
    ev.Out: _out,
    ev.TrickLeaves: lambda e, n: "the trick is complete and leaves the game",
    ev.WithoutCards: lambda e, n: (
        f"{' and '.join(n[p] for p in e.players)} start phase two without cards"
    ),
    ev.GameOver: _over,
}


def say(event: ev.Event, names: Sequence[str]) -> str:
    """One event in table words."""
    return _SAY[type(event)](event, names)


def act_and_consequences(events: Sequence[ev.Event], names: Sequence[str]) -> tuple[str, list[str]]:
    """A step's words (what the act first ended, then the act: ``Anna takes the trick (3
    cards); Anna leads 7♥``) and the words of what followed from it, one each."""
    at = next((i for i, e in enumerate(events) if isinstance(e, ev.Act)), len(events) - 1)
    words = "; ".join(say(e, names) for e in events[: at + 1])
    return words, [say(e, names) for e in events[at + 1 :]]


THIRD_PERSON_ENDINGS = ("sses", "shes", "ches", "xes", "zes")


def _base_form(verb: str) -> str:
    """``beats`` -> ``beat``, ``picks`` -> ``pick``, ``passes`` -> ``pass``."""
    if verb.endswith("ies") and len(verb) > 3:
        return verb[:-3] + "y"
    if verb.endswith(THIRD_PERSON_ENDINGS):
        return verb[:-2]
    if verb.endswith("s") and not verb.endswith("ss"):
        return verb[:-1]
    return verb


def attempt(words: str, player: str, action: str) -> str:
    """The narration of a rejected action as an attempt: ``Bo tries to beat 9♥ with 7♥``.

    The narration says what the action would do, in the present tense
    ("Bo beats 9♥ with 7♥"), which reads as if it happened; the verbs become
    "tries to beat", "tries to dare and turn".  Narration of another shape
    falls back to the action as written: ``Bo tries: Bo play 7H``.
    """
    head = f"{player} "
    rest = words[len(head) :].split(" ") if words.startswith(head) else []
    if not rest or not rest[0].isalpha() or not rest[0].endswith("s"):
        return f"{player} tries: {action}"
    rest[0] = _base_form(rest[0])
    for i in range(1, len(rest) - 1):
        follows = rest[i + 1]
        if rest[i] == "and" and follows.isalpha() and follows.islower() and follows.endswith("s"):
            rest[i + 1] = _base_form(follows)
    return f"{player} tries to " + " ".join(rest)


def irregular_words(s: Step, bad: Violation) -> str:
    """An irregular action and what the table did: "Bo tries to beat 9♥ with 7♥: illegal
    (phase2.beat), taken back" (or "..., stands": the attempt was let stand)."""
    if bad.rule == "table.taken_back":
        return f"{s.words or s.action}: taken back, though legal"
    said = attempt(s.words, bad.player or "", s.action)
    return f"{said}: illegal ({bad.rule}), {bad.table}"
