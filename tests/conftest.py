"""Small shared helpers for the tests: record builders and an engine walker, and the two
fixtures every browser test module shares.

Test modules import the helpers with ``from conftest import ...`` (pytest puts
``tests/`` on ``sys.path``).  The fixtures are ``base`` (the served page), ``browser``
(Chromium) and ``folder`` (the static site, built once a run); a module that defines its
own of the same name uses its own.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from adjudicator import engine
from adjudicator.actions import Action
from adjudicator.cards import FULL_PACK, card_code, parse_card, rank
from adjudicator.engine.state import State
from adjudicator.play.adjudicate import Report, adjudicate
from adjudicator.record import FORMAT, load_record

DISPUTE: dict[str, Any] = {
    "format": "skitgubbe-record/1",
    "variant": "helmfrid",
    "players": ["Anna", "Bo", "Cai"],
    "start": {
        "phase": 2,
        "trump": "S",
        "leader": "Anna",
        "hands": {
            "Anna": ["6D", "KH", "4C"],
            "Bo": ["7D", "8D", "9D", "2H"],
            "Cai": ["8C", "9C", "3S", "QD"],
        },
    },
    "actions": ["Anna play 6D", "Bo play 7D 8D 9D", "Cai play 8C 9C"],
}
"""README's dispute: Cai's 8♣ 9♣ on Bo's 7♦ 8♦ 9♦ (phase2.beat at action 2)."""

NAMES = ["Anna", "Bo", "Cai"]
"""Three players, clockwise."""

PACK = [card_code(c) for c in FULL_PACK]
"""The 52 cards in canonical spelling, 2S first."""


def cards(text: str) -> list[str]:
    """``"7H 8H"`` as canonical codes; accepts every spelling."""
    return [card_code(parse_card(word)) for word in text.split()]


def make_deck(
    hands: dict[str, str],
    dealer: str,
    players: list[str] | None = None,
    top: str = "",
    bottom: str = "",
) -> tuple[list[str], list[str]]:
    """A whole pack that deals ``hands`` and puts ``top``/``bottom`` in the stock.

    ``hands`` maps every player to the cards dealt to them, in the order they
    receive them (one at a time, clockwise from the dealer's left).  The stock
    is ``top`` (its first card is the stock's top), then the *filler* (every
    card not named), then ``bottom`` (its last card is the trump indicator).
    The filler is ordered in pairs (high, low) of strictly different ranks, so
    that two players daring in turn see the first of them win every trick.
    Returns ``(deck, filler)``.
    """
    seats = players or NAMES
    left = (seats.index(dealer) + 1) % len(seats)
    order = seats[left:] + seats[:left]
    dealt = {name: cards(hands[name]) for name in seats}
    size = len(dealt[seats[0]])
    assert all(len(h) == size for h in dealt.values()), "every hand needs as many cards"
    deck = [dealt[name][r] for r in range(size) for name in order]
    named = deck + cards(top) + cards(bottom)
    assert len(set(named)) == len(named), "a card is named twice"
    rest = sorted((c for c in PACK if c not in named), key=lambda c: rank(parse_card(c)))
    assert len(rest) % 2 == 0, "choose top and bottom so that the filler is even"
    filler: list[str] = []
    for i in range(len(rest) // 2):
        high, low = rest[-1 - i], rest[i]
        assert rank(parse_card(high)) > rank(parse_card(low)), "filler pair ties"
        filler += [high, low]
    return deck + cards(top) + filler + cards(bottom), filler


def burn(leader: str, second: str, filler: list[str]) -> list[str]:
    """Dares that use up the filler: ``leader`` wins each pair and leads again."""
    return [f"{leader if i % 2 == 0 else second} dare {card}" for i, card in enumerate(filler)]


def deck_record(
    deck: list[str] | str,
    actions: list[Any],
    dealer: str = "Cai",
    players: list[str] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A record that deals ``deck``."""
    return {
        "format": FORMAT,
        "variant": "pagat",
        "players": list(players or NAMES),
        "dealer": dealer,
        "deck": deck,
        "actions": actions,
        **extra,
    }


def start_record(
    hands: dict[str, str],
    actions: list[Any],
    leader: str = "Anna",
    trump: str = "S",
    players: list[str] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A record that starts in phase two; players default to the keys of ``hands``."""
    return {
        "format": FORMAT,
        "variant": "pagat",
        "players": list(players or hands),
        "start": {
            "phase": 2,
            "trump": trump,
            "leader": leader,
            "hands": {name: cards(text) for name, text in hands.items()},
        },
        "actions": actions,
        **extra,
    }


def assert_agree(state: State) -> None:
    """``legal_actions`` lists exactly the one-card plays, picks and dares ``check`` passes.

    Picks and dares are listed without cards.  Every player is tried with every
    card of the pack, so an action by someone out of turn must fail too.
    """
    listed = engine.legal_actions(state)
    for action in listed:
        assert engine.check(state, action) is None, action
        if action.act in ("pick", "dare"):
            assert action.cards == (), action
    for player in range(state.n):
        tried = [Action(player, "pick"), Action(player, "dare"), Action(player, "sluff")]
        tried += [Action(player, "play", (card,)) for card in FULL_PACK]
        for action in tried:
            passes = engine.check(state, action) is None
            assert passes == (action in listed), (action, passes)


def run(record: dict[str, Any]) -> Report:
    """Adjudicate ``record``, holding ``legal_actions`` against ``check`` on every state."""
    game = load_record(record)
    state = engine.new_state(game)
    for action in game.actions:
        assert_agree(state)
        if engine.check(state, action) is not None:
            break
        engine.apply(state, action)
    else:
        assert_agree(state)
    return adjudicate(game)


def final_state(record: dict[str, Any]) -> State:
    """The state after every action of ``record``; each must be legal."""
    game = load_record(record)
    state = engine.new_state(game)
    for action in game.actions:
        assert_agree(state)
        engine.push(state, action)
    assert_agree(state)
    return state


def hand(state: State, name: str) -> list[str]:
    """A player's hand as sorted canonical codes."""
    return sorted(card_code(c) for c in state.hands[state.names.index(name)])


def codes(text: str) -> list[str]:
    """``cards(text)``, sorted: to compare with :func:`hand`."""
    return sorted(cards(text))


def qr_decoded(rows: list[str]) -> str:
    """The text a scanner reads from a QR code's rows (``"1"`` dark), drawn as a picture with
    its quiet zone and read by zxing-cpp, a decoder with no part in making it (segno makes
    it): that Share's code holds the link is checked by reading it, as a phone would."""
    import zxingcpp

    scale, quiet = 4, 4
    side = (len(rows) + 2 * quiet) * scale
    picture = bytearray(b"\xff" * side * side)
    for r, row in enumerate(rows):
        for c, dark in enumerate(row):
            if dark == "1":
                for dy in range(scale):
                    start = ((r + quiet) * scale + dy) * side + (c + quiet) * scale
                    picture[start : start + scale] = b"\x00" * scale
    found = zxingcpp.read_barcodes(memoryview(bytes(picture)).cast("B", shape=[side, side]))
    assert [f.format for f in found] == [zxingcpp.BarcodeFormat.QRCode], found
    return str(found[0].text)


def qr_drawn(page: Any) -> list[str]:
    """The rows of the QR code Share drew on ``page`` (a Playwright page), read from its SVG:
    the viewBox (the code and four modules of quiet zone each side) and one ``M x y`` square
    a dark module."""
    import re

    svg = page.get_by_role("img", name=re.compile("^QR code of the link"))
    side = int(svg.get_attribute("viewBox").split()[2])
    drawn = svg.locator("path").get_attribute("d")
    size = side - 8
    rows = [["0"] * size for _ in range(size)]
    for x, y in re.findall(r"M(\d+) (\d+)h1v1h-1z", drawn):
        rows[int(y) - 4][int(x) - 4] = "1"
    assert drawn == "".join(
        f"M{c + 4} {r + 4}h1v1h-1z" for r in range(size) for c in range(size) if rows[r][c] == "1"
    ), "the path is squares of dark modules, nothing else"
    return ["".join(row) for row in rows]


def pytest_collection_modifyitems(items: list[Any]) -> None:
    """Mark the hypothesis property runs ``slow``: ``pytest -m "not slow"`` leaves them out
    while working, and the README's plain ``pytest`` runs them all."""
    import pytest

    for item in items:
        if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    """The page served by ``adjudicator serve``'s app on a free port, for a module's tests."""
    from web_browser import serving

    with serving() as address:
        yield address


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for a module's tests (``web_browser.launch``), closed after them."""
    from playwright.sync_api import sync_playwright
    from web_browser import launch

    with sync_playwright() as playwright:
        found = launch(playwright)
        yield found
        found.close()


@pytest.fixture(scope="session")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The static site (``adjudicator site``), built once for every test that opens it."""
    from adjudicator.web import site

    out = tmp_path_factory.mktemp("site")
    try:
        site.build(out)
    except site.SiteError as exc:
        pytest.fail(f"adjudicator site: {exc}", pytrace=False)
    return out
