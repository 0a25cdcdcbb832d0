"""Each rule once: the fast paths and the generators call the rules' own predicates.

Phase two's "a play beats the top play" is :func:`phase_two.beats`, called by
``check``, by ``check``'s fast path for one card and by ``generate``.  The fast path
is taken only while ``State.plain_play`` holds, computed once from the options in
``engine.state.PLAIN_PLAY``; every option ``check`` reads must be there or be shown
here to be harmless to it, so a new restriction cannot be skipped by the fast path
(and then by the property tests, which compare the two sides).
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from adjudicator import engine
from adjudicator.actions import Action
from adjudicator.cards import PARSE
from adjudicator.engine import phase_two
from adjudicator.engine.state import PLAIN_PLAY, State
from adjudicator.play.adjudicate import adjudicate
from adjudicator.record import load_record

ROOT = Path(__file__).resolve().parents[2]

HARMLESS = {
    "anti_trump": "read by beats itself, which the fast path calls",
    "min_run": "a run's length: the fast path takes one card, never a run",
    "sequences": "which runs count: the fast path takes one card, never a run",
    "pick_takes": "what a pick takes: the fast path takes plays only",
    "pick_from": "where a pick takes from: the fast path takes plays only",
    "forced_pick": "read through state.forced, which the fast path looks at",
    "decks": "how many copies a hand may hold: the fast path looks the card up in the hand",
}
"""Options that ``phase_two.check`` (or what it calls) reads and the fast path need not
know, each with the reason."""


def options_read(source: str, entry: str) -> set[str]:
    """The option names read (``options.X``, ``state.options.X``) by function ``entry`` of
    a module's ``source`` and by every function of that module it calls, transitively."""
    tree = ast.parse(source)
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    seen: set[str] = set()
    read: set[str] = set()
    todo = [entry]
    while todo:
        name = todo.pop()
        if name in seen or name not in functions:
            continue
        seen.add(name)
        for node in ast.walk(functions[name]):
            if isinstance(node, ast.Attribute):
                base = node.value
                if (isinstance(base, ast.Name) and base.id == "options") or (
                    isinstance(base, ast.Attribute) and base.attr == "options"
                ):
                    read.add(node.attr)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                todo.append(node.func.id)
            elif isinstance(node, ast.Name) and node.id in functions:
                todo.append(node.id)  # a function passed on (Violation.later's words)
    return read


def unguarded(source: str) -> set[str]:
    return options_read(source, "check") - set(PLAIN_PLAY) - set(HARMLESS)


def test_every_option_phase_two_checks_is_guarded_or_harmless() -> None:
    source = (Path(phase_two.__file__).parent / "phase_two.py").read_text(encoding="utf-8")
    assert options_read(source, "check") >= {"high_trump", "pick_takes"}  # the reader reads
    assert unguarded(source) == set()


def test_a_new_restriction_in_check_is_caught_by_the_guard() -> None:
    """A dummy option read by check, in neither list: the guard's test names it."""
    source = (Path(phase_two.__file__).parent / "phase_two.py").read_text(encoding="utf-8")
    dummy = source.replace(
        '    if act == "play":\n',
        '    if act == "play" and state.options.no_nines and cards[0] % 13 == 7:\n'
        '        return Violation("phase2.no_nines", "no nines at this table")\n'
        '    if act == "play":\n',
        1,
    )
    assert dummy != source
    assert unguarded(dummy) == {"no_nines"}


def test_plain_play_is_computed_from_the_options() -> None:
    options = load_record(json.dumps(_two_packs(["Anna play 9H"]))).options
    names = ("Anna", "Bo", "Cai")
    assert State(options, names).plain_play
    for value in ("kill_only", "only_killer"):
        killing = options.model_copy(update={"high_trump": value})
        assert not State(killing, names).plain_play, value


# --- phase2.beat at its boundary, two packs so that a card can meet its copy ----------


def _two_packs(actions: list[str], trump: str = "S") -> dict[str, object]:
    return {
        "format": "skitgubbe-record/1",
        "variant": "pagat",
        "options": {"decks": 2},
        "players": ["Anna", "Bo", "Cai"],
        "start": {
            "phase": 2,
            "trump": trump,
            "leader": "Anna",
            "hands": {
                "Anna": ["9H", "3S", "2C"],
                "Bo": ["9H", "TH", "8H", "3S", "2S", "4S"],
                "Cai": ["7C", "3D", "4S"],
            },
        },
        "actions": actions,
    }


def _verdict(actions: list[str]) -> tuple[str, str | None]:
    report = adjudicate(load_record(json.dumps(_two_packs(actions))))
    first = report.violations[0].rule if report.violations else None
    return report.status, first


def _listed(actions: list[str]) -> set[str]:
    game = load_record(json.dumps(_two_packs(actions)))
    state = engine.new_state(game)
    for action in game.actions:
        engine.apply(state, action)
    return {a.record_form(game.players) for a in engine.legal_actions(state)}  # type: ignore[misc]


def test_a_card_does_not_beat_its_identical_copy() -> None:
    assert _verdict(["Anna play 9H", "Bo play 9H"]) == ("illegal", "phase2.beat")
    assert "Bo play 9H" not in _listed(["Anna play 9H"])


def test_the_next_card_up_beats_and_the_next_down_does_not() -> None:
    assert _verdict(["Anna play 9H", "Bo play TH"]) == ("legal", None)
    assert _verdict(["Anna play 9H", "Bo play 8H"]) == ("illegal", "phase2.beat")
    listed = _listed(["Anna play 9H"])
    assert "Bo play TH" in listed and "Bo play 8H" not in listed


def test_a_trump_beats_a_plain_card_and_only_a_higher_trump_beats_a_trump() -> None:
    assert _verdict(["Anna play 9H", "Bo play 2S"]) == ("legal", None)
    assert _verdict(["Anna play 3S", "Bo play 3S"]) == ("illegal", "phase2.beat")  # its copy
    assert _verdict(["Anna play 3S", "Bo play 2S"]) == ("illegal", "phase2.beat")
    assert _verdict(["Anna play 3S", "Bo play 4S"]) == ("legal", None)
    listed = _listed(["Anna play 3S"])
    assert "Bo play 4S" in listed and not {"Bo play 3S", "Bo play 2S"} & listed


def test_the_fast_path_and_the_whole_way_agree_on_every_single_card() -> None:
    game = load_record(json.dumps(_two_packs(["Anna play 9H"])))
    state = engine.new_state(game)
    engine.apply(state, game.actions[0])
    whole_way = state.clone()
    whole_way.plain_play = False
    for card in ("9H", "TH", "8H", "3S", "2S", "4S", "7C"):
        action = Action(1, "play", (PARSE[card],))
        fast, slow = engine.check(state, action), engine.check(whole_way, action)
        assert (fast is None) == (slow is None), card
        assert fast is None or slow is None or fast.rule == slow.rule


MUTANT = textwrap.dedent(
    """
    import json, sys
    from adjudicator import _native, engine
    from adjudicator.engine import phase_two
    from adjudicator.record import load_record

    assert _native.build.startswith("pure"), _native.build
    def beats(cards, top, state):  # the comparison flipped: '>=' for '>'
        low, high = cards[0], top[-1]
        if low // 13 == high // 13:
            return low >= high
        if state.trump is None:
            return True
        return low // 13 == state.trump and high // 13 != phase_two.anti_trump_suit(state)
    phase_two.beats = beats
    game = load_record(sys.stdin.read())
    state = engine.new_state(game)
    engine.apply(state, game.actions[0])
    copy = game.actions[1]
    print(json.dumps({
        "check": engine.check(state, copy) is None,
        "generate": copy in engine.legal_actions(state),
    }))
    """
)


def test_a_changed_beats_moves_check_and_generate_together() -> None:
    """With ``beats`` taking a copy as beating, check and the generated list both accept
    it (pure Python: a compiled module calls its own functions directly)."""
    record = json.dumps(_two_packs(["Anna play 9H", "Bo play 9H"]))
    env = {**os.environ, "ADJUDICATOR_PURE": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", MUTANT], input=record, capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"check": True, "generate": True}


# --- rules whose comparison only whole games used to reach ------------------------------


def _checked(record: dict[str, object]) -> tuple[str, str | None]:
    report = adjudicate(load_record(json.dumps(record)))
    first = report.violations[0].rule if report.violations else None
    return report.status, first


def _phase_one(stock: list[str], set_aside: bool = False) -> dict[str, object]:
    start: dict[str, object] = {
        "phase": 1,
        "leader": "Anna",
        "hands": {"Anna": ["5H", "2C", "9C"], "Bo": ["6H", "3C", "8C"], "Cai": ["7H", "4C"]},
        "stock": stock,
    }
    options: dict[str, object] = {}
    if set_aside:  # the Goat's way: the trump card lies apart, drawn by nobody
        options = {"trump_card": "set_aside", "phase_two_leader": "last_trick_winner"}
        start["trump_card"] = "AS"
    return {
        "format": "skitgubbe-record/1",
        "variant": "pagat",
        "options": options,
        "players": ["Anna", "Bo", "Cai"],
        "start": start,
        "actions": ["Anna dare"],
    }


def test_the_dare_floor_at_its_boundary() -> None:
    """A dare never turns the trump card lying last in the stock: two cards are the least
    (pagat.com, 'Play in the first phase'); with the trump card set aside, one."""
    assert _checked(_phase_one(["2D", "3S"])) == ("legal", None)
    assert _checked(_phase_one(["3S"])) == ("illegal", "phase1.dare.stock")
    assert _checked(_phase_one(["3S"], set_aside=True)) == ("legal", None)
    assert _checked(_phase_one([], set_aside=True)) == ("illegal", "phase1.dare.stock")


def _joined(pick: str) -> dict[str, object]:
    return {
        "format": "skitgubbe-record/1",
        "variant": "pagat",
        "options": {"pick_takes": "joined"},
        "players": ["Anna", "Bo", "Cai", "Dag"],
        "start": {
            "phase": 2,
            "trump": "S",
            "leader": "Anna",
            "hands": {
                "Anna": ["5H", "2C"],
                "Bo": ["6H", "3C"],
                "Cai": ["7H", "4C"],
                "Dag": ["2D", "3D"],
            },
        },
        "actions": ["Anna play 5H", "Bo play 6H", "Cai play 7H", pick],
    }


def test_a_joined_pick_reaches_the_tricks_first_play() -> None:
    """A joined run down to the trick's first play is taken whole, that play included."""
    assert _checked(_joined("Dag pick 5H 6H 7H")) == ("legal", None)
    assert _checked(_joined("Dag pick 6H 7H")) == ("illegal", "phase2.pick.cards")
    assert _checked(_joined("Dag pick 7H")) == ("illegal", "phase2.pick.cards")


ATLANTA_TWICE = {
    "format": "skitgubbe-record/1",
    "variant": "atlanta",
    "players": ["Anna", "Bo", "Cai"],
    "dealer": "Anna",
    "deck": "TH 3C 7C JC 7D 8C AH 4D AC 9S 2H 5H 4S 2C 2D 8D QC QH 6D 8H KS 9H AD 5C 4H 8S QD "
    "5S 2S 6H TD 9D 7S 5D 6C 4C JD 3H 3S TS AS JS 3D 9C KH JH TC QS KD 7H KC 6S",
    "actions": [
        *("Bo play TH", "Cai play 7D", "Anna play AC", "Anna play 5H", "Bo play AH", "Cai dare"),
        *("Bo play 9S", "Cai play 3C", "Anna play 8C", "Bo dare", "Cai play 2H", "Anna dare"),
        *("Anna play QH", "Bo play 2C", "Cai play QC", "Anna dare", "Cai play 4D"),
        *("Anna play 7C", "Anna sluff 4S", "Anna sluff QD"),
    ],
}
"""A seeded Atlanta game (simulate) cut where Anna, having sluffed 4♠ to the trick, sluffs
Q♦ too: a rank she may sluff, but only once a trick (pagat.com, 'Atlanta Variation')."""


def test_atlanta_sluffs_once_a_trick() -> None:
    assert _checked(ATLANTA_TWICE) == ("illegal", "phase1.sluff.once")
    once = {**ATLANTA_TWICE, "actions": ATLANTA_TWICE["actions"][:-1]}  # type: ignore[index]
    assert _checked(once) == ("legal", None)


def _mas_two_packs(reply: str) -> dict[str, object]:
    return {
        "format": "skitgubbe-record/1",
        "variant": "mas",
        "options": {"decks": 2},
        "players": ["Anna", "Bo", "Cai"],
        "start": {
            "phase": 1,
            "leader": "Anna",
            "hands": {"Anna": ["9H", "2C", "3C"], "Bo": ["9H", "TH", "8H"], "Cai": ["7C", "3D"]},
            "stock": ["5D", "6D", "7S"],
            "trump_card": "7S",
        },
        "actions": ["Anna play 9H", reply],
    }


def test_phase_one_beat_at_its_boundary_with_two_packs() -> None:
    """Mas (pair_winner 'suit'): the second card must beat the first: its copy does not."""
    assert _checked(_mas_two_packs("Bo play TH")) == ("legal", None)
    assert _checked(_mas_two_packs("Bo play 9H")) == ("illegal", "phase1.beat")
    assert _checked(_mas_two_packs("Bo play 8H")) == ("illegal", "phase1.beat")


def _message(record: dict[str, object]) -> str:
    report = adjudicate(load_record(json.dumps(record)))
    return report.violations[0].message


def test_a_dare_says_why_and_names_only_the_top_card() -> None:
    assert _message(_phase_one([], set_aside=True)) == (
        "A dare needs a card in the stock; it holds 0"
    )
    assert _message(_phase_one(["3S"])) == (
        "A dare needs two or more cards in the stock; it holds 1 (the trump card, which is "
        "never dared)"
    )
    named = {**_phase_one(["2D", "3S"]), "actions": ["Anna dare 2D"]}
    assert _checked(named) == ("legal", None)
    wrong = {**_phase_one(["2D", "3S"]), "actions": ["Anna dare 3S"]}
    assert _checked(wrong) == ("illegal", "phase1.dare.card")


def test_a_pick_in_phase_one_names_the_led_card_or_none() -> None:
    assert _checked(_mas_two_packs("Bo pick")) == ("legal", None)
    assert _checked(_mas_two_packs("Bo pick 9H")) == ("legal", None)
    assert _checked(_mas_two_packs("Bo pick TH")) == ("illegal", "phase1.pick.cards")


def test_two_copies_of_a_trump_are_set_aside_with_two_packs() -> None:
    """Mas: a hand of three trumps is set aside; with two packs two of them may be copies."""
    record = _mas_two_packs("Bo pick")
    start = dict(record["start"])  # type: ignore[call-overload]
    start["hands"] = {**start["hands"], "Cai": ["8S", "8S", "9S"]}
    aside = {**record, "start": start, "actions": ["Cai set_aside 8S 8S 9S"]}
    assert _checked(aside) == ("legal", None)
    short = {**aside, "actions": ["Cai set_aside 8S 9S 9S"]}
    assert _checked(short)[0] == "illegal"


# --- generate against check, on seeded games of every preset (the fast suite's share of
# --- the property tests: a generator that drifts from its rule fails here at once)


def _seeded_tables() -> list[tuple[str, int]]:
    from adjudicator.rules.presets import PRESETS

    return [(name, preset.options.min_players) for name, preset in sorted(PRESETS.items())]


def test_generated_actions_are_what_check_passes_on_seeded_games() -> None:
    import random

    from test_properties import assert_generated_is_checked

    from adjudicator.play.simulate import random_game

    walked = 0
    for variant, players in _seeded_tables():
        for seed in (1, 2):
            _, game = random_game(variant, players, random.Random(f"fast/{variant}/{seed}"))
            state = engine.new_state(game)
            for action in game.actions:
                assert_generated_is_checked(state)
                engine.apply(state, action)
            walked += len(game.actions)
    assert walked > 1000  # whole games, not a few steps
