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
from adjudicator.i18n import _, language, ngettext
from adjudicator.speech import dealt_said, ranks_said, table_said

if TYPE_CHECKING:
    from adjudicator.engine.state import TableView
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


def ranks_word(r: int) -> str:
    """``7s`` or ``queens`` (in the language speaking: ``damer``, ``rouvat``)."""
    return ranks_said(r)


def names_list(names: Sequence[str], players: Iterable[int]) -> str:
    """``Anna``, ``Anna and Bo``, ``Anna, Bo and Cai``."""
    said = [names[p] for p in players]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + _(" and ") + said[-1]


def _shares(names: Sequence[str], shares: tuple[tuple[int, tuple[int, ...]], ...]) -> str:
    return ", ".join(f"{names[p]} {cards_text(cards)}" for p, cards in shares)


# --- acts ---------------------------------------------------------------------------


def _tail(how: str) -> str:
    if how in ("lead", "to_lead"):
        return _(" to lead")
    return _(" to break the tie") if how == "again" else ""


def _played(e: ev.Played, names: Sequence[str]) -> str:
    name = names[e.player]
    cards = cards_text(e.cards)
    if e.how == "lead":
        return _("{name} leads {cards}").format(name=name, cards=cards)
    if e.how == "beat":
        return _("{name} beats {top} with {cards}").format(
            name=name, top=cards_text(e.against), cards=cards
        )
    if e.how == "to":
        return _("{name} plays {cards} to {card}").format(
            name=name, cards=cards, card=card_text(e.against[0])
        )
    return _("{name} plays {cards}").format(name=name, cards=cards) + _tail(e.how)


def _dared(e: ev.Dared, names: Sequence[str]) -> str:
    name = names[e.player]
    if e.card is not None:
        what = _("{name} dares and turns {card}").format(name=name, card=card_text(e.card))
    else:
        what = _("{name} dares").format(name=name)
    if e.how == "to":
        return _("{what} to {card}").format(what=what, card=card_text(e.against[0]))
    return what + _tail(e.how)


def _picked(e: ev.Picked, names: Sequence[str]) -> str:
    if e.cards is None:
        return _("picks up") if e.phase == 1 else _("{name} picks up").format(name=names[e.player])
    return _("{name} picks up {cards}").format(name=names[e.player], cards=cards_text(e.cards))


def _exchanged(e: ev.Exchanged, names: Sequence[str]) -> str:
    under = card_text(e.under) if e.under is not None else _("the turned-up trump")
    return _("{name} exchanges {cards} for {card}").format(
        name=names[e.player], cards=cards_text(e.cards), card=under
    )


def _dealt(e: ev.Dealt, names: Sequence[str]) -> str:
    return _("{name} deals {what}: {shares}").format(
        name=names[e.player],
        what=dealt_said(e.what),
        shares=_shares(names, e.shares) or _("nothing"),
    )


# --- consequences -------------------------------------------------------------------


_ENDS = {
    "all_played": lambda n: _("phase one ends: every card has been played"),
    "stock_used": lambda n: _("phase one ends: the stock is used up"),
    "two_cards": lambda n: _("phase one ends: {who} cannot begin a trick with two cards"),
    "no_card_round": lambda n: ngettext(
        "phase one ends: {who} has no card for the next round",
        "phase one ends: {who} have no card for the next round",
        n,
    ),
    "no_lead": lambda n: _("phase one ends: {who} has no card to lead"),
    "no_play": lambda n: _("phase one ends: {who} has no card to play"),
    "stock_done": lambda n: _("the stock is used up and the trick is over: phase one ends"),
    "fewer_than_two": lambda n: _("fewer than two players hold cards: phase one ends"),
    "no_card_bounce": lambda n: _("{who} has no card to resolve the bounce: phase one ends"),
}


def _ends(e: ev.PhaseOneEnds, names: Sequence[str]) -> str:
    who = names_list(names, e.players) if e.players else ""
    return _ENDS[e.why](len(e.players)).format(who=who)


def _tie(e: ev.Tie, names: Sequence[str]) -> str:
    ranks = _(" and ").join(ranks_word(r) for r in e.ranks)
    if e.take_back:
        text = _("{names} tie with {ranks} and take them back")
    else:
        text = _("{names} tie with {ranks} and play again")
    return text.format(names=names_list(names, e.players), ranks=ranks)


def _taken(e: ev.TrickTaken, names: Sequence[str]) -> str:
    if e.leads:
        text = _("{name} takes the trick ({count} cards) and leads")
    else:
        text = _("{name} takes the trick ({count} cards)")
    return text.format(name=names[e.winner], count=e.size)


_LEADS = {
    "": lambda: _("{name} leads"),
    "next": lambda: _("{name} leads next"),
    "again": lambda: _("{name} leads again"),
    "empty": lambda: _("the table is empty: {name} leads"),
    "phase_two": lambda: _("phase two: {name} leads"),
}

_TRUMPS = (
    lambda: _("spades are trumps"),
    lambda: _("hearts are trumps"),
    lambda: _("diamonds are trumps"),
    lambda: _("clubs are trumps"),
)


def _trump(e: ev.TrumpRevealed, names: Sequence[str]) -> str:
    if e.trump is None:
        return _("the trump card was not written down: the trump suit is unknown")
    shown = _("an unknown card") if e.card == UNKNOWN else card_text(e.card)
    return _("the trump card is {card}: {trumps}").format(card=shown, trumps=_TRUMPS[e.trump]())


def _low(e: ev.LowCardsShared, names: Sequence[str]) -> str:
    return ngettext(
        "{names} holds fewer than {count} cards: the low cards are shared out",
        "{names} hold fewer than {count} cards: the low cards are shared out",
        len(e.players),
    ).format(names=names_list(names, e.players), count=e.threshold)


def _out(e: ev.Out, names: Sequence[str]) -> str:
    if e.reserve:
        return _("{name} has no cards left, but the avstickshög lasts").format(name=names[e.player])
    return _("{name} is out").format(name=names[e.player])


def _over(e: ev.GameOver, names: Sequence[str]) -> str:
    return ngettext("game over: {names} loses", "game over: {names} lose", len(e.losers)).format(
        names=_(" and ").join(names[p] for p in e.losers)
    )


_SAY: dict[type, Callable[[Any, Sequence[str]], str]] = {
    ev.Played: _played,
    ev.Dared: _dared,
    ev.Picked: _picked,
    ev.Sluffed: lambda e, n: _("{name} sluffs {cards}").format(
        name=n[e.player], cards=cards_text(e.cards)
    ),
    ev.Took: lambda e, n: _("{name} takes the trick ({count} cards)").format(
        name=n[e.player], count=e.size
    ),
    ev.Drew: lambda e, n: _("{name} draws a card").format(name=n[e.player]),
    ev.SetAside: lambda e, n: _("{name} shows three trumps, {cards}, and sets them aside").format(
        name=n[e.player], cards=cards_text(e.cards)
    ),
    ev.Exchanged: _exchanged,
    ev.Dealt: _dealt,
    ev.OtherAct: lambda e, n: f"{n[e.player]} {e.act}s {cards_text(e.cards)}".rstrip(),
    ev.DareFailed: lambda e, n: _("{card} does not beat: {name} picks up both cards").format(
        card=card_text(e.card), name=n[e.player]
    ),
    ev.PhaseOneEnds: _ends,
    ev.Tie: _tie,
    ev.TrickWon: lambda e, n: _("{name} wins the trick").format(name=n[e.winner]),
    ev.TrickTaken: _taken,
    ev.RestDealt: lambda e, n: _("the rest is dealt lowest first: {shares}").format(
        shares=_shares(n, e.shares)
    ),
    ev.TieOut: lambda e, n: _(
        "a tied player has no card to play again: the trick is shuffled and shared out"
    ),
    ev.NoLowCards: lambda e, n: _("no low cards were shared"),
    ev.WindowClosed: lambda e, n: _("nobody sluffs more"),
    ev.Bounce: lambda e, n: _("bounce: {name} leads again").format(name=n[e.leader]),
    ev.Leads: lambda e, n: _LEADS[e.how]().format(name=n[e.player]),
    ev.LeadsInstead: lambda e, n: _(
        "{holder} holds only the highest trump: {name} leads instead"
    ).format(holder=n[e.holder], name=n[e.leader]),
    ev.UnfinishedTrick: lambda e, n: (
        _("the unfinished trick is dealt out by {name}").format(name=n[e.dealer])
        if e.dealer is not None
        else _("everyone takes back what they put into the unfinished trick")
    ),
    ev.TrumpRevealed: _trump,
    ev.LowCardsShared: _low,
    ev.Out: _out,
    ev.TrickLeaves: lambda e, n: _("the trick is complete and leaves the game"),
    ev.WithoutCards: lambda e, n: _("{names} start phase two without cards").format(
        names=_(" and ").join(n[p] for p in e.players)
    ),
    ev.GameOver: _over,
}


def indicator_said(view: TableView) -> tuple[str, int | None] | None:
    """Where the trump card of phase one lies, in words, and the card to show after them
    (``turned-up trump``, 2♠): one phrase for the terminal, the page and the HTML export,
    each drawing the card its own way; None when nothing is to be said."""
    if view.turned_up is not None:
        return _("turned-up trump"), view.turned_up
    if view.trump_card == "set_aside" and view.indicator_down:
        return _("trump card set aside face down"), None
    if view.indicator_holder is not None and view.indicator_down:
        name = view.names[view.indicator_holder]
        return _("trump indicator held face down by {name}").format(name=name), None
    return None


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


def _tried(act: ev.Event, names: Sequence[str]) -> str | None:
    """A rejected act in the language speaking, as an attempt (``Bo försöker slå 9♥ med
    7♥``): one whole sentence for each act and shape, every act the engine describes (a
    translation says the act in its own grammar, never glued); None for an event that is
    no act."""
    if isinstance(act, ev.Played):
        name, cards = names[act.player], cards_text(act.cards)
        if act.how == "lead":
            return _("{name} tries to lead {cards}").format(name=name, cards=cards)
        if act.how == "beat":
            return _("{name} tries to beat {top} with {cards}").format(
                name=name, top=cards_text(act.against), cards=cards
            )
        if act.how == "to":
            return _("{name} tries to play {cards} to {card}").format(
                name=name, cards=cards, card=card_text(act.against[0])
            )
        return _("{name} tries to play {cards}").format(name=name, cards=cards) + _tail(act.how)
    if isinstance(act, ev.Dared):
        return _tried_dare(act, names)
    if isinstance(act, ev.Picked):
        if act.cards is None:
            return _("{name} tries to pick up").format(name=names[act.player])
        return _("{name} tries to pick up {cards}").format(
            name=names[act.player], cards=cards_text(act.cards)
        )
    if isinstance(act, ev.Sluffed):
        return _("{name} tries to sluff {cards}").format(
            name=names[act.player], cards=cards_text(act.cards)
        )
    if isinstance(act, ev.Took):
        return _("{name} tries to take the trick ({count} cards)").format(
            name=names[act.player], count=act.size
        )
    if isinstance(act, ev.Drew):
        return _("{name} tries to draw a card").format(name=names[act.player])
    if isinstance(act, ev.SetAside):
        return _("{name} tries to show three trumps, {cards}, and set them aside").format(
            name=names[act.player], cards=cards_text(act.cards)
        )
    if isinstance(act, ev.Exchanged):
        under = card_text(act.under) if act.under is not None else _("the turned-up trump")
        return _("{name} tries to exchange {cards} for {card}").format(
            name=names[act.player], cards=cards_text(act.cards), card=under
        )
    if isinstance(act, ev.Dealt):
        return _("{name} tries to deal {what}: {shares}").format(
            name=names[act.player],
            what=dealt_said(act.what),
            shares=_shares(names, act.shares) or _("nothing"),
        )
    if isinstance(act, ev.OtherAct):
        return _tried_other(act, names)
    return None


def _tried_dare(act: ev.Dared, names: Sequence[str]) -> str:
    """A rejected dare as an attempt: with the card turned or none, onto a card or not."""
    name = names[act.player]
    if act.how == "to":
        top = card_text(act.against[0])
        if act.card is None:
            return _("{name} tries to dare to {top}").format(name=name, top=top)
        return _("{name} tries to dare and turn {card} to {top}").format(
            name=name, card=card_text(act.card), top=top
        )
    if act.card is None:
        return _("{name} tries to dare").format(name=name) + _tail(act.how)
    return _("{name} tries to dare and turn {card}").format(
        name=name, card=card_text(act.card)
    ) + _tail(act.how)


_TRIED_OTHER: dict[str, tuple[Callable[[], str], Callable[[], str]]] = {
    "play": (lambda: _("{name} tries to play"), lambda: _("{name} tries to play {cards}")),
    "dare": (lambda: _("{name} tries to dare"), lambda: _("{name} tries to dare with {cards}")),
    "sluff": (lambda: _("{name} tries to sluff"), lambda: _("{name} tries to sluff {cards}")),
    "pick": (lambda: _("{name} tries to pick up"), lambda: _("{name} tries to pick up {cards}")),
    "take": (
        lambda: _("{name} tries to take the trick"),
        lambda: _("{name} tries to take the trick with {cards}"),
    ),
    "exchange": (
        lambda: _("{name} tries to exchange a card"),
        lambda: _("{name} tries to exchange {cards}"),
    ),
    "set_aside": (
        lambda: _("{name} tries to set cards aside"),
        lambda: _("{name} tries to set {cards} aside"),
    ),
    "deal": (lambda: _("{name} tries to deal"), lambda: _("{name} tries to deal {cards}")),
    "draw": (
        lambda: _("{name} tries to draw a card"),
        lambda: _("{name} tries to draw {cards}"),
    ),
}
"""An act made where its phase has no place for it (a sluff in phase two), as an attempt:
without cards and with them, one whole sentence each."""


def _tried_other(act: ev.OtherAct, names: Sequence[str]) -> str | None:
    said = _TRIED_OTHER.get(act.act)
    if said is None:
        return None
    bare, with_cards = said
    if not act.cards:
        return bare().format(name=names[act.player])
    return with_cards().format(name=names[act.player], cards=cards_text(act.cards))


def attempt(
    words: str,
    player: str,
    action: str,
    happened: Sequence[ev.Event] = (),
    names: Sequence[str] = (),
) -> str:
    """The narration of a rejected action as an attempt: ``Bo tries to beat 9♥ with 7♥``.

    The narration says what the action would do, in the present tense
    ("Bo beats 9♥ with 7♥"), which reads as if it happened; the attempt says the
    act itself (``happened``) as one whole sentence of the language speaking, for
    every act (``dan tries to sluff 8♠``, ``dan försöker slänga 8♠``).  Without an
    act to say, English turns the narration's verbs ("tries to beat", "tries to
    dare and turn"), and any other language, whose grammar is not English's, falls
    back to the action as written: ``Bo försöker: Bo play 7H``.
    """
    act = next((e for e in happened if isinstance(e, ev.Act)), None)
    tried = _tried(act, names) if act is not None else None
    if tried is not None:
        return tried
    if language() != "en":
        return _("{player} tries this: {words}").format(player=player, words=action)
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
        return _("{words}: taken back, though legal").format(words=s.words or s.action)
    said = attempt(s.words, bad.player or "", s.action, s.happened, s.table.names)
    return _("{said}: illegal ({rule}), {what}").format(
        said=said, rule=bad.rule, what=table_said(bad.table or "")
    )


def taken_back_though_legal() -> str:
    """The note on a legal action the table took back anyway (``table.taken_back``)."""
    return _("Taken back, though legal")


def cannot_be_followed(why: str | None) -> str:
    """Why the game's course is followed no further (``game.stopped``): the engine's reason."""
    return _("The game cannot be followed further: {why}").format(why=why)
