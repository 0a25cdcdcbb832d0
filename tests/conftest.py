"""Small shared helpers for the tests in every folder: record builders, an engine walker,
the random legal games the property tests draw, records with hostile names, and the
fixtures every browser test module shares.

Test modules import the helpers with ``from conftest import ...`` (pytest puts
``tests/`` on ``sys.path``).  The fixtures are ``base`` (the served page), ``browser``
(Chromium) and ``folder`` (the static site, built once a run); a module that defines its
own of the same name uses its own.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st

from adjudicator import engine
from adjudicator.actions import ACTS, Action
from adjudicator.cards import FULL_PACK, Card, card_code, parse_card, rank
from adjudicator.engine.state import PHASE_TWO, State
from adjudicator.play.adjudicate import Report, adjudicate
from adjudicator.play.simulate import random_game, simulate
from adjudicator.record import FORMAT, Game, load_record
from adjudicator.rules.presets import PRESETS

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


# --- random legal games, shared by the property tests (tests/engine/) and the Table's
# (tests/play/test_irregular.py)

MAX_PLAYERS = 6
TABLES = [
    (name, players)
    for name, preset in sorted(PRESETS.items())
    for players in range(
        preset.options.min_players, min(preset.options.max_players, MAX_PLAYERS) + 1
    )
] + [
    (name, low)
    for name, preset in sorted(PRESETS.items())
    for low, _ in preset.by_players
    if low > MAX_PLAYERS
]
"""Every (variant, player count) the properties are drawn over, and each larger table where a
preset's options change (the Goat's two packs from seven players)."""

tables = st.sampled_from(TABLES)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def play(table: tuple[str, int], seed: int) -> tuple[dict[str, Any], Game]:
    """The simulated game of ``table`` for ``seed``."""
    variant, players = table
    return random_game(variant, players, random.Random(seed))


def key(action: Action) -> tuple[Any, ...]:
    """What makes two actions the same action (card order aside)."""
    return (action.player, action.act, tuple(sorted(action.cards)), action.to)


def named_cards(state: State, action: Action) -> tuple[Card, ...]:
    """The cards a listed cardless dare or pick moves: what naming them must say.

    Found by applying the action to a copy where that is plain (a dare takes its
    card from the stock, a pick in phase two puts its cards into the picker's
    hand), and cross-checked with the engine's own answer.
    """
    moved = engine.moved_cards(state, action)
    if state.phase == PHASE_TWO and action.act == "pick":
        after = state.clone()
        engine.apply(after, action)
        got = Counter(after.hands[action.player]) - Counter(state.hands[action.player])
        assert sorted(got.elements()) == sorted(moved), (action, moved)
    return tuple(sorted(moved))


def listed(state: State) -> tuple[list[Action], set[tuple[Any, ...]]]:
    """``legal_actions`` and the keys of every action it stands for.

    A cardless pick or dare also stands for the same act naming exactly the
    right cards.
    """
    actions = engine.legal_actions(state)
    keys = {key(a) for a in actions}
    for a in actions:
        if a.act in ("pick", "dare") and not a.cards:
            keys.add(key(a._replace(cards=named_cards(state, a))))
    return actions, keys


def unlisted(
    state: State, actions: list[Action], keys: set[tuple[Any, ...]], rng: random.Random, k: int
) -> list[Action]:
    """Up to ``k`` random actions that ``legal_actions`` does not list.

    Three kinds: a listed action by another player; the player to move with
    other cards (none, one or two from the whole pack); and any act of the
    format, a deal included.
    """
    n = state.n
    mover = state.turn if state.turn is not None else rng.randrange(n)
    found: list[Action] = []
    for _ in range(20 * k):
        if len(found) >= k:
            break
        kind = rng.randrange(3)
        if kind == 0 and actions and n > 1:
            base = rng.choice(actions)
            other = rng.choice([p for p in range(n) if p != base.player])
            candidate = base._replace(player=other)
        else:
            act = rng.choice(ACTS if kind == 2 else ("play", "pick", "dare"))
            cards = tuple(rng.sample(FULL_PACK, rng.choice((0, 1, 1, 2))))
            if act == "deal":
                candidate = Action(mover, act, (), ((rng.randrange(n), cards),))
            else:
                candidate = Action(mover, act, cards)
        if key(candidate) not in keys:
            found.append(candidate)
    return found


# --- records whose names are hostile (issue 23), shared by the command line's, the
# renderers' and the bulk run's tests

MARKUP_NAMES = ["[link=javascript:alert(1)]B[/link]", "[reverse]Bo", "[/]"]
"""Player names that rich would read as markup: each must be shown as written."""


def renamed(value: Any, old: str, new: str) -> Any:
    """``value`` (a record) with the player ``old`` called ``new`` everywhere."""
    if isinstance(value, str):
        if value == old:
            return new
        return new + value[len(old) :] if value.startswith(old + " ") else value
    if isinstance(value, list):
        return [renamed(v, old, new) for v in value]
    if isinstance(value, dict):
        return {renamed(k, old, new): renamed(v, old, new) for k, v in value.items()}
    return value


def with_loser_named(record: dict[str, Any], name: str) -> dict[str, Any]:
    """The record with its loser called ``name``: the name shows in every verdict."""
    return renamed(record, record["result"]["loser"], name)


NONE_LEGAL_SLUFF: dict[str, Any] = {
    "format": "skitgubbe-record/1",
    "variant": "goat",
    "options": {
        "decks": 1,
        "aces_low": False,
        "high_trump": "none",
        "low_cards": 6,
        "sluff_final": False,
    },
    "players": ["Anna", "Bo", "Cai"],
    "dealer": "Cai",
    "first_leader": "Anna",
    "deck": "?? 4C TS 7H 9D 2H KC QS 5D 3S 8S 6C JD 4H 5S 7C" + " ??" * 36,
    "actions": [
        "Anna play 4C",
        "Bo play TS",
        "Cai play 7H",
        "Bo take",
        "Bo play 2H",
        "Cai play KC",
        "Anna play 9D",
        "Anna sluff 8S",
    ],
}
"""A Goat game where Anna sluffs 8♠ and no rank of the trick lets her: she had no legal
sluff there, and the legal actions are Cai's, who is to act (issue 40)."""


@pytest.fixture(scope="module")
def games() -> list[dict[str, Any]]:
    """A few simulated, legal, finished records."""
    return list(simulate("pagat", 3, 23, 4))


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


# --- the installed command, for tests that run it as a user does (signals, pipes, FIFOs)

COMMAND_TIMEOUT = 180
"""Seconds one run of the command may take before the test fails (the machine may be busy)."""


def adjudicator_command() -> list[str]:
    """The ``adjudicator`` command of this environment: its script beside the interpreter,
    or the package run as a module where no script was installed."""
    script = Path(sys.executable).parent / "adjudicator"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "adjudicator"]


def run_adjudicator(*args: str, **kw: Any) -> subprocess.CompletedProcess[str]:
    """``adjudicator ARGS`` run to its end, its output captured as text."""
    return subprocess.run(
        [*adjudicator_command(), *args],
        capture_output=True,
        text=True,
        timeout=kw.pop("timeout", COMMAND_TIMEOUT),
        **kw,
    )
