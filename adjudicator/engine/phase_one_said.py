"""Phase one (all play to each trick): the words of its lazily built violations.

Built only when somebody reads the message (``Violation.later``), in the language speaking
then; apart from the checks, which generation runs for every candidate.
"""

from __future__ import annotations

from adjudicator.cards import Card, cards_text
from adjudicator.i18n import _
from adjudicator.speech import a_rank_said, rank_said


def tie(name: str, r: int, played: int | None, cards: tuple[Card, ...]) -> str:
    """phase1.tie.compulsory: the rank that would make the tie, and what was done instead."""
    if played is None:
        text = _("{name} holds {rank} and must play it to make a tie (compulsory ties), not dare")
    else:
        text = _(
            "{name} holds {rank} and must play it to make a tie (compulsory ties), not {cards}"
        )
    return text.format(name=name, rank=a_rank_said(r), cards=cards_text(cards))


def sluff_rank(
    wrong: tuple[Card, ...], mode: str, name: str, own: int | None, allowed: tuple[int, ...]
) -> str:
    """phase1.sluff.rank: the cards refused, and the ranks the sluffing rule lets through."""
    shown = " ".join(rank_said(r) for r in allowed) or _("none")
    if mode == "own_rank":
        assert own is not None
        text = _("{cards} may not be sluffed: only the rank {name} played ({rank}) may ({shown})")
    elif mode == "atlanta":
        text = _(
            "{cards} may not be sluffed: only ranks already played and not heading the trick "
            "may ({shown})"
        )
    else:
        text = _("{cards} may not be sluffed: only ranks already in the trick may ({shown})")
    return text.format(
        cards=cards_text(wrong),
        name=name,
        rank=rank_said(own) if own is not None else "",
        shown=shown,
    )


def sluff_top(name: str, matching: tuple[Card, ...], top: int) -> str:
    """phase1.sluff.top: a card of the round's top rank is owed as a play, not a sluff."""
    return _(
        "{name} has not played to this round yet, so may not sluff "
        "{cards}: a card of the highest rank so far ({rank}) must be the play"
    ).format(name=name, cards=cards_text(matching), rank=rank_said(top))
