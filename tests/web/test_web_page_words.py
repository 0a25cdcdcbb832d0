"""What a stranger found on the page at 390 px in Swedish and Finnish (issue 40): English
words on a Swedish page, a banner's missing full stop, a QR code drawn out of sight, a deck
field's bad card without the suggestion, a finished game still offering to go on.

In a real browser, launched as the other browser tests are (``web_browser.launch``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from test_page import README_DISPUTE, in_view, phone_tab, ready, sample
from web_browser import link


def _tab(browser: Browser, locale: str) -> Iterator[Page]:
    return phone_tab(browser, locale)


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    """A phone in English: 390×844, touch."""
    yield from _tab(browser, "en-GB")


@pytest.fixture
def swedish(browser: Browser) -> Iterator[Page]:
    """A phone whose browser asks for Swedish."""
    yield from _tab(browser, "sv-SE")


@pytest.fixture
def finnish(browser: Browser) -> Iterator[Page]:
    """A phone whose browser asks for Finnish."""
    yield from _tab(browser, "fi-FI")


def _cut(record: dict[str, Any]) -> str:
    whole = link(record)
    return whole[: len(whole) // 2]


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en-GB", "or copy all of it. Nothing was opened"), ("sv-SE", "kopiera hela. Inget öppnades")],
)
def test_a_damaged_links_banner_is_two_sentences(
    browser: Browser, base: str, lang: str, said: str
) -> None:
    for tab in _tab(browser, lang):
        ready(tab, base + "/" + link(README_DISPUTE))
        tab.wait_for_selector(".violation")
        tab.goto(base + "/" + _cut(sample("pagat_3p_full.json")))
        error = tab.locator("#error")
        expect(error).to_contain_text(said.split(". ")[1])
        assert said in error.inner_text()


def test_the_qr_code_comes_into_view_after_copy_link(phone: Page, base: str) -> None:
    ready(phone, base + "/" + link(sample("pagat_3p_full.json")))
    phone.wait_for_selector("#steps li")
    phone.locator("#copy-link").scroll_into_view_if_needed()
    phone.locator("#copy-link").tap()
    phone.locator("#qr svg").wait_for()
    phone.wait_for_timeout(100)
    assert in_view(phone, "#qr svg"), phone.locator("#qr svg").bounding_box()
    # and never under the replay bar stuck at the top
    bar = phone.locator("#replay-bar").bounding_box()
    qr = phone.locator("#qr svg").bounding_box()
    assert bar is not None and qr is not None
    assert qr["y"] >= bar["y"] + bar["height"] or qr["y"] + qr["height"] <= bar["y"]


def _something_else(tab: Page, player: str, cards: str) -> None:
    if tab.locator("#else").get_attribute("open") is None:
        tab.locator("#else summary").tap()
    tab.select_option("#else-player", player)
    tab.fill("#else-cards", cards)
    tab.locator("#else-go").tap()


def test_actions_are_said_in_the_pages_language_with_card_symbols(swedish: Page, base: str) -> None:
    """The legal actions, the ruling's action and its alternatives, and Undo: a sentence in
    Swedish with the cards as the page writes them; the record's notation is the buttons'
    accessible name, and what goes into the record."""
    ready(swedish, base + "/" + link({**README_DISPUTE, "actions": ["Anna play 6D"]}))
    legal = swedish.locator("#legal button.act")
    expect(legal.last).to_have_text("Bo tar upp")
    shown = legal.all_inner_texts()
    assert "Bo lägger 7♦ 8♦ 9♦" in shown and all(s.startswith("Bo lägger ") for s in shown[:-1])
    swedish.get_by_role("button", name="Bo play 7D 8D 9D", exact=True).tap()
    expect(swedish.locator("#undo")).to_have_text("Ångra: Bo lägger 7♦ 8♦ 9♦")
    expect(legal).to_have_text(["Cai lägger 3♠", "Cai lägger Q♦", "Cai tar upp"])
    _something_else(swedish, "Cai", "8C 9C")
    ruling = swedish.locator("#ruling .violation")
    ruling.wait_for()
    said = ruling.inner_text()
    assert "Otillåtet: drag 3 av 3, Cai lägger 8♣ 9♣" in said, said
    assert "Cai lägger 3♠" in said and "Cai tar upp" in said, said
    assert " play " not in said and " pick" not in said, said
    expect(swedish.locator("#undo")).to_have_text("Ångra: Cai lägger 8♣ 9♣")


def test_undo_names_an_action_typed_with_card_symbols(phone: Page, base: str) -> None:
    """An action typed under "Something else": Undo names it as a sentence, 8♣ 9♣ (not the
    record's 8C 9C)."""
    ready(phone, base + "/" + link({**README_DISPUTE, "actions": README_DISPUTE["actions"][:2]}))
    phone.locator("#legal button.act").first.wait_for()
    _something_else(phone, "Cai", "8C 9C")
    phone.locator("#ruling .violation").wait_for()
    expect(phone.locator("#undo")).to_have_text("Undo: Cai plays 8♣ 9♣")


def test_a_bad_card_in_the_deck_is_said_as_under_something_else(phone: Page, base: str) -> None:
    """New dispute, deck ``K0 2S 3S``: the page's one card-reading line with the nearest
    cards, as "Something else" says it, beside the deck (was the engine's line without them)."""
    ready(phone, base + "/")
    phone.fill("#players", "Dan Eva Finn")
    phone.fill("#deck", "K0 2S 3S")
    phone.get_by_role("button", name="Start", exact=True).tap()
    fault = phone.locator("#deck-fault")
    expect(fault).to_have_text(
        "deck[0]: 'K0' is not a card: a card is its rank (2-10, J, Q, K, A) then its suit "
        "(S, H, D, C), as KD or 10H; did you mean K♠ or K♥ or K♦ or K♣?"
    )
    assert phone.input_value("#deck") == "K0 2S 3S"
    assert phone.locator("#deck").get_attribute("aria-invalid") == "true"


def test_a_deck_of_every_spelling_and_unknown_cards_is_not_refused_by_the_page(
    phone: Page, base: str
) -> None:
    """What the record reads (10h, T♥, ♤ outline suits, ??) passes the page's own check: a
    refusal, if any, is the engine's about the deck as a whole, never 'is not a card'."""
    ready(phone, base + "/")
    phone.fill("#players", "Dan Eva Finn")
    phone.fill("#deck", "10h T♣ 2♤ ?? KD")
    phone.get_by_role("button", name="Start", exact=True).tap()
    phone.wait_for_timeout(500)
    fault = phone.locator("#deck-fault")
    assert fault.count() == 0 or "is not a card" not in fault.inner_text()


def test_a_finished_game_offers_no_action_to_enter(phone: Page, base: str) -> None:
    """Once the game is over nothing may follow (rule game.over, the engine lists nothing):
    the page says so and offers no "Something else"; a step before the end still may."""
    ready(phone, base + "/" + link(sample("pagat_3p_full.json")))
    expect(phone.locator("#legal")).to_contain_text("The game is over.")
    expect(phone.locator("#else")).to_be_hidden()
    assert phone.locator("#legal button.act").count() == 0
    phone.locator("#back").tap()
    expect(phone.locator("#legal")).not_to_contain_text("The game is over.")
    phone.locator("#forward").tap()
    expect(phone.locator("#else")).to_be_hidden()


def test_a_check_not_made_is_said_in_the_pages_language(finnish: Page, base: str) -> None:
    """The dispute with the hand not shown: the undetermined check's line says 'sääntö', as
    the ruling does (it said 'rule' on a Finnish page)."""
    ready(finnish, base + "/" + link(sample("helmfrid_dispute_unknown.json")))
    line = finnish.locator("#ruling .undetermined").first
    line.wait_for()
    said = line.inner_text()
    assert " · sääntö phase1.tie.compulsory: " in said and " rule " not in said, said
