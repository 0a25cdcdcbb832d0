"""A refused action is said as an attempt, one whole sentence, for every act in every
language (issue 40: a refused sluff read "dan försöker: dan sluff 8S" in Swedish)."""

from __future__ import annotations

import json

import pytest
from conftest import NONE_LEGAL_SLUFF

from adjudicator import i18n
from adjudicator.cards import parse_card
from adjudicator.engine import events as ev
from adjudicator.play.words import attempt
from adjudicator.service import page as calls

NAMES = ("Anna", "Bo", "Cai")
C7, C9, C2 = parse_card("7C"), parse_card("9H"), parse_card("2S")
LANGUAGES = ("en", "sv", "fi", "nb")

ACTS: list[ev.Event] = [
    ev.Played(1, (C7,), "lead"),
    ev.Played(1, (C7,), "beat", (C9,)),
    ev.Played(1, (C7,), "to", (C9,)),
    ev.Played(1, (C7,), ""),
    ev.Played(1, (C7,), "to_lead"),
    ev.Dared(1, C7, "lead"),
    ev.Dared(1, None, ""),
    ev.Dared(1, C7, "to", (C9,)),
    ev.Dared(1, None, "to", (C9,)),
    ev.Picked(1, (C7,), 2),
    ev.Picked(1, None, 2),
    ev.Picked(1, None, 1),
    ev.Picked(1, (C7,), 1),
    ev.Sluffed(1, (C7,)),
    ev.Took(1, 3),
    ev.SetAside(1, (C7, C9, C2)),
    ev.Exchanged(1, (C7,), C9),
    ev.Exchanged(1, (C7,), None),
    ev.Dealt(1, "low", ((0, (C7, C9)),)),
    *(
        ev.OtherAct(1, act, cards, phase)
        for act in ("play", "dare", "sluff", "pick", "take", "exchange", "set_aside", "deal")
        for cards in ((), (C7,))
        for phase in (1, 2)
    ),
]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("act", ACTS, ids=lambda a: f"{type(a).__name__}-{a}")
def test_every_refused_act_is_a_sentence_in_every_language(act: ev.Event, language: str) -> None:
    with i18n.speaking(language):
        said = attempt("", "Bo", "Bo x", [act], NAMES)
        notation = i18n._("{player} tries this: {words}").format(player="Bo", words="Bo x")
    assert said != notation and "Bo x" not in said and not said.startswith("Bo tries: ")
    assert "Bo" in said
    if getattr(act, "cards", None):
        assert "7♣" in said, said  # the cards as cards, never as notation
    if language != "en":
        with i18n.speaking("en"):
            english = attempt("", "Bo", "Bo x", [act], NAMES)
        assert said != english, (language, said)  # translated, not English left standing


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Anna tries to sluff 8♠"),
        ("sv", "Anna försöker slänga 8♠"),
        ("fi", "Anna yrittää heittää kortin 8♠"),
        ("nb", "Anna prøver å kaste 8♠"),
    ],
)
def test_a_refused_sluff_on_the_page_is_said_in_the_pages_language(
    language: str, said: str
) -> None:
    with i18n.speaking(language):
        steps = calls.replay(json.dumps(NONE_LEGAL_SLUFF))["steps"]
    assert steps[-1]["words"] == said
