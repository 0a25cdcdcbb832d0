"""Fuzz the record reader and the engine: every input must end as one verdict.

    python tests/fuzz/fuzz_records.py --count 100000 --seed 1 [--workers 2]
    python tests/fuzz/fuzz_records.py --seed 1 --only 4711        # replay one input
    python tests/fuzz/fuzz_records.py --seed 1 --dump 4711 x.json  # write it out

Input ``i`` of a seed is always the same bytes (its generator is seeded with
the seed and ``i``), built from a pool of records: the games in
``sample_games/`` and simulated games of every preset and table size.  The
generators mutate them (a value of the wrong type at a random JSON path, a
deleted or added key, odd card spellings, shuffled and edited actions,
random rule options, huge numbers, long strings, duplicate keys, deep
nesting, truncation, non-UTF-8 bytes and BOMs) or build new ones (random
phase-two positions, games simulated under random options, JSON Lines
files mixing good and bad lines).

Each input goes the way ``adjudicator check`` takes it: written to a file
(``*.json``, or ``*.jsonl`` for several records), walked with
``bulk.sources``, judged with ``bulk.check_source``, printed the way the
command prints it (the ``--json`` object and the rich verdict, both encoded
as UTF-8); one in a hundred also goes through the command itself.  An
*escape* is anything else: an exception, a status other than legal, illegal
or invalid, an invalid verdict whose error is not one line, output that
cannot be printed, a simulated game that does not check legal, an input
that takes more than ``--max-seconds`` of CPU time (reading, checking and
printing it; CPU, not wall time, so that a busy machine does not make
escapes; per 1,000 lines of a JSON Lines file; the CLI phase has 15 times as
long), an input that raises the worker's peak memory by more than
``--max-growth-ratio`` times its size (plus 32 MB; issue 35), a worker whose memory
grows by more than ``--max-growth-mb`` (from input to
input: a CLI phase's peak, which the heap keeps, starts a new baseline), a violation
whose message runs over lines or past 1,000 characters, or a worker that hangs
(killed after ``--hang-seconds``) or dies.  Escapes are grouped by a signature and
printed with the indices that reproduce them.

Not collected by pytest (the file name does not start with ``test_``);
``tests/fuzz/test_fuzz_smoke.py`` runs a few hundred inputs of it in the suite.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import multiprocessing
import os
import queue
import random
import re
import resource
import shutil
import signal
import sys
import tempfile
import time
import traceback
import typing
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adjudicator import RecordError, adjudicate, bulk, engine, load_record
from adjudicator.actions import ACTS
from adjudicator.bulk import Checked
from adjudicator.cards import FULL_PACK, card_code, parse_card
from adjudicator.play.simulate import NAMES, choose, game_rng, random_game
from adjudicator.record import FORMAT
from adjudicator.render import export
from adjudicator.render import terminal as render
from adjudicator.rules.options import RuleOptions
from adjudicator.rules.presets import PRESETS

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_games"
STATUSES = {"legal", "illegal", "invalid"}
LINE_BREAKS = re.compile("[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
"""Every character ``str.splitlines`` breaks a line at."""
PLACEHOLDER = "@@fuzz-placeholder@@"
MIB = 1 << 20
MAX_MESSAGE = 1000
"""Characters a violation's message may hold: a hand and a play of 60 cards each, quoted."""
MAX_ERROR = 400
"""Characters an error may hold: the values it quotes are cut (the record's ``shown``)."""
CLI_SECONDS = [0.0]
"""CPU time this process spent in the CLI phase: timed apart, against its own limit."""
CLI_LIMIT = 15
"""The CLI phase (three checks and a replay with its page) may take this many times
``--max-seconds``."""
BIG_RECORD = 30_000
"""Bytes from which the CLI phase replays one step in the terminal, not every step."""
SIM_MAX_ACTIONS = 3000
"""Games simulated under random options are cut here (some option sets circle for ever)."""


# --- the pool of records to mutate ------------------------------------------------


@dataclass
class Pool:
    """Base records as JSON text, by where they came from."""

    simulated: list[str] = field(default_factory=list)
    samples: list[str] = field(default_factory=list)

    @property
    def every(self) -> list[str]:
        return self.simulated + self.samples


def build_pool(seed: int, per_table: int) -> Pool:
    """``per_table`` simulated games for every preset and table size, and the samples."""
    pool = Pool()
    for name, preset in PRESETS.items():
        low, high = preset.options.min_players, preset.options.max_players
        for players in range(low, high + 1):
            for k in range(per_table):
                record, _ = random_game(name, players, game_rng(seed, 1000 * players + k))
                pool.simulated.append(json.dumps(record, ensure_ascii=False))
    for path in sorted(SAMPLES.glob("*.json")):
        pool.samples.append(path.read_text(encoding="utf-8"))
    return pool


# --- JSON paths -------------------------------------------------------------------

JsonPath = tuple[Any, ...]


def paths(value: Any, prefix: JsonPath = ()) -> Iterator[JsonPath]:
    """Every path in a decoded JSON value, the root included."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, (*prefix, index))


def pick_path(rng: random.Random, data: Any, root: bool = True) -> JsonPath:
    """A random path, weighted so the small top-level fields are hit as often as actions."""
    every = list(paths(data))
    if not root:
        every = every[1:] or every
    if rng.random() < 0.5:
        shallow = [p for p in every if len(p) <= 3 and (root or p)]
        if shallow:
            return rng.choice(shallow)
    return rng.choice(every)


def get(data: Any, path: JsonPath) -> Any:
    for part in path:
        data = data[part]
    return data


def put(data: Any, path: JsonPath, value: Any) -> Any:
    """``data`` with the value at ``path`` replaced (in place below the root)."""
    if not path:
        return value
    get(data, path[:-1])[path[-1]] = value
    return data


def remove(data: Any, path: JsonPath) -> Any:
    if not path:
        return data
    parent = get(data, path[:-1])
    del parent[path[-1]]
    return data


def with_raw(rng: random.Random, data: Any, raw: str, root: bool = False) -> str:
    """``data`` as JSON text with raw JSON text ``raw`` at a random path."""
    data = put(data, pick_path(rng, data, root), PLACEHOLDER)
    return dumps(data).replace(json.dumps(PLACEHOLDER), raw, 1)


def dumps(data: Any) -> str:
    """JSON text, non-ASCII as is, except text UTF-8 cannot hold (lone surrogates): escaped."""
    text = json.dumps(data, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(data)
    return text


# --- values -------------------------------------------------------------------------

ODD_STRINGS = [
    "",
    " ",
    "\t",
    "x",
    "??",
    "null",
    "Anna",
    "Anna play",
    "play",
    "\u0000",
    "\n",
    "a\nb",
    "a\rb",
    "a\u2028b",
    "\ud800",
    "\udfff",
    "\x7f",
    "\u200b",
    "\ufeff",
    "ß",
    "İ",
    "🂡",
    "♤♡♢♧",
    "[bold]x[/bold]",
    "[/]",
    "%s%n",
    "{}",
    "0",
    "-1",
    "1e400",
    "skitgubbe-record/1",
    "skitgubbe-session/1",
    "pagat ",
    "PAGAT",
]
CARD_SPELLINGS = {
    "valid": ["{r}{s}", "{rl}{sl}", " {r}{s} ", "{r}{sym}", "{r}{osym}", "\t{r}{s}\n"],
    "odd": [
        "{r}",
        "{s}",
        "{r}{s}{s}",
        "1{s}",
        "11{s}",
        "0{s}",
        "{r} {s}",
        "{r}\u00a0{s}",
        "{r}{s}\u200b",
        "??",
        "?",
        "",
        "{rf}{s}",
        "{r}x",
        "10{s}0",
        "T{s}T",
    ],
}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
OPEN_SYMBOLS = {"S": "♤", "H": "♡", "D": "♢", "C": "♧"}
FULLWIDTH = str.maketrans("0123456789TJQKA", "０１２３４５６７８９ＴＪＱＫＡ")


def respell(rng: random.Random, code: str, odd: bool) -> str:
    """Card ``code`` (``TH``) spelled another way: valid, or (``odd``) probably not."""
    rank, suit = code[:-1], code[-1]
    pattern = rng.choice(CARD_SPELLINGS["odd" if odd else "valid"])
    long_rank = "10" if rank == "T" and rng.random() < 0.5 else rank
    return pattern.format(
        r=long_rank,
        rl=long_rank.lower(),
        s=suit,
        sl=suit.lower(),
        sym=SUIT_SYMBOLS[suit],
        osym=OPEN_SYMBOLS[suit],
        rf=rank.translate(FULLWIDTH),
    )


def long_string(rng: random.Random) -> str:
    size = rng.choice([1000, 10_000, 100_000, MIB]) if rng.random() < 0.9 else MIB
    unit = rng.choice(["x", "é", "2S ", "Anna ", "\u2028", " ", "🂡"])
    return (unit * (size // len(unit) + 1))[:size]


def wrong_value(rng: random.Random) -> Any:
    """A value of some type a record field does not expect (sometimes one it does)."""
    kind = rng.randrange(16)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.choice([0, 1, -1, 2, 3, 7, 8, 9, 40, 41, 52, 53, 2**31, 2**63, -(2**63)])
    if kind == 3:
        return rng.choice([10**400, -(10**400), 10**4000])
    if kind == 4:
        return rng.choice([0.5, -0.0, 1e308, 3.0, 1e-320])
    if kind == 5:
        return rng.choice(ODD_STRINGS)
    if kind == 6:
        return long_string(rng) if rng.random() < 0.2 else "y" * rng.randrange(1, 200)
    if kind == 7:
        return []
    if kind == 8:
        return {}
    if kind == 9:
        return [rng.choice(ODD_STRINGS) for _ in range(rng.randrange(1, 5))]
    if kind == 10:
        return {rng.choice(ODD_STRINGS): rng.choice(ODD_STRINGS) for _ in range(rng.randrange(4))}
    if kind == 11:
        return [card_code(c) for c in rng.sample(FULL_PACK, rng.randrange(0, 53))]
    if kind == 12:
        return " ".join(card_code(rng.choice(FULL_PACK)) for _ in range(rng.randrange(0, 70)))
    if kind == 13:
        return rng.choice(NAMES)
    if kind == 14:
        return rng.choice([*PRESETS, "bridge", "Pagat", ""])
    return {"player": rng.choice(NAMES), "act": rng.choice(ACTS), "cards": ["2S"]}


RAW_NUMBERS = [
    "1" + "0" * 400,
    "-" + "9" * 400,
    "1" * 4301,
    "1" * 5000,
    "-" + "1" * 20000,
    "1e400",
    "-1e400",
    "1E+999999999",
    "1e-999999",
    "0.1" + "0" * 5000 + "1",
    "NaN",
    "Infinity",
    "-Infinity",
    "-0",
    "18446744073709551616",
    "3.0",
    "2.5e0",
]


def nested(rng: random.Random, depth: int) -> str:
    style = rng.randrange(3)
    if style == 0:
        return "[" * depth + "]" * depth
    if style == 1:
        return '{"a":' * depth + "1" + "}" * depth
    opens, closes = [], []
    for _ in range(depth):
        if rng.random() < 0.5:
            opens.append("[")
            closes.append("]")
        else:
            opens.append('{"k":')
            closes.append("}")
    inner = '"x"' if style == 2 else "[]"
    return "".join(opens) + inner + "".join(reversed(closes))


DEPTHS = [2, 10, 100, 250, 500, 800, 900, 950, 970, 980, 985, 990, 995, 1000, 1500, 5000, 50_000]


# --- generators -------------------------------------------------------------------------


@dataclass
class Input:
    """One generated input: bytes for a file of ``suffix`` (``.json`` or ``.jsonl``)."""

    kind: str
    data: bytes
    suffix: str = ".json"
    expect_legal: bool = False


Generator = Callable[[random.Random, Pool], Input]


def _base(rng: random.Random, pool: Pool) -> Any:
    return json.loads(rng.choice(pool.every if rng.random() < 0.3 else pool.simulated))


def gen_clean(rng: random.Random, pool: Pool) -> Input:
    """A simulated game as it is (must check legal), or in other whitespace."""
    text = rng.choice(pool.simulated)
    if rng.random() < 0.3:
        text = json.dumps(json.loads(text), indent=rng.choice([None, 1, 2, "\t"]))
    return Input("clean", text.encode(), expect_legal=True)


def gen_respelled(rng: random.Random, pool: Pool) -> Input:
    """A simulated game with valid other spellings of its cards: must still check legal."""
    data = json.loads(rng.choice(pool.simulated))
    data["deck"] = [respell(rng, c, False) for c in data["deck"].split()]
    actions = []
    for action in data["actions"]:
        if isinstance(action, str):
            words = action.split()
            action = " ".join(words[:2] + [respell(rng, w, False).strip() for w in words[2:]])
        actions.append(action)
    data["actions"] = actions
    return Input("respelled", dumps(data).encode(), expect_legal=True)


def gen_wrong_type(rng: random.Random, pool: Pool) -> Input:
    data = _base(rng, pool)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        data = put(data, pick_path(rng, data), wrong_value(rng))
    return Input("wrong_type", dumps(data).encode())


def gen_delete(rng: random.Random, pool: Pool) -> Input:
    data = _base(rng, pool)
    for _ in range(rng.choice([1, 1, 2, 4])):
        if isinstance(data, dict | list) and data:
            data = remove(data, pick_path(rng, data, root=False))
    return Input("delete", dumps(data).encode())


def gen_extra_key(rng: random.Random, pool: Pool) -> Input:
    data = _base(rng, pool)
    objects = [p for p in paths(data) if isinstance(get(data, p), dict)]
    target = get(data, rng.choice(objects))
    key = rng.choice(
        [*ODD_STRINGS, "format", "deck", "start", "to", "cards", "trump", "games", "decks"]
    )
    target[key] = wrong_value(rng)
    return Input("extra_key", dumps(data).encode())


def gen_odd_cards(rng: random.Random, pool: Pool) -> Input:
    data = json.loads(rng.choice(pool.every))

    def spell(code: str) -> str:
        try:
            canonical = card_code(parse_card(code))
        except ValueError:
            return code
        if rng.random() < 0.2:
            return respell(rng, canonical, odd=rng.random() < 0.5)
        return code

    if isinstance(data.get("deck"), str):
        data["deck"] = " ".join(spell(c) for c in data["deck"].split())
    elif isinstance(data.get("deck"), list):
        data["deck"] = [spell(c) if isinstance(c, str) else c for c in data["deck"]]
    start = data.get("start")
    if isinstance(start, dict) and isinstance(start.get("hands"), dict):
        start["hands"] = {
            k: [spell(c) for c in v] if isinstance(v, list) else v
            for k, v in start["hands"].items()
        }
        if rng.random() < 0.3:
            start["trump"] = rng.choice(["s", "♤", "♡", "X", "", "SH", " D ", "♢", "♧", "10"])
    actions = []
    for action in data.get("actions", []):
        if isinstance(action, str) and rng.random() < 0.3:
            words = action.split(" ")
            action = " ".join(words[:2] + [spell(w) for w in words[2:]])
        elif isinstance(action, dict) and isinstance(action.get("cards"), list):
            action["cards"] = [spell(c) for c in action["cards"]]
        actions.append(action)
    data["actions"] = actions
    return Input("odd_cards", dumps(data).encode())


def gen_actions(rng: random.Random, pool: Pool) -> Input:
    """Edit the actions of a game the way a careless scorer would: mostly illegal records."""
    data = json.loads(rng.choice(pool.every))
    actions: list[Any] = data.get("actions", [])
    names = data.get("players", NAMES[:3])
    for _ in range(rng.choice([1, 1, 1, 2, 3, 8])):
        if not actions:
            actions.append(f"{rng.choice(names)} play 2S")
            continue
        i = rng.randrange(len(actions))
        edit = rng.randrange(11)
        if edit == 0 and len(actions) > 1:
            j = rng.randrange(len(actions))
            actions[i], actions[j] = actions[j], actions[i]
        elif edit == 1:
            del actions[i]
        elif edit == 2:
            actions.insert(i, actions[i])
        elif edit == 3:
            actions[i] = f"{rng.choice(names)} {rng.choice(ACTS)} " + " ".join(
                card_code(rng.choice(FULL_PACK)) for _ in range(rng.choice([0, 1, 1, 2, 3, 13]))
            )
        elif edit == 4 and isinstance(actions[i], str):
            words = actions[i].split()
            words[0] = rng.choice(names)
            actions[i] = " ".join(words)
        elif edit == 5:
            del actions[i:]
        elif edit == 6:
            actions.extend(actions[: rng.randrange(1, 10)])
        elif edit == 7 and isinstance(actions[i], str):
            words = actions[i].split()
            actions[i] = {"player": words[0], "act": words[1], "cards": words[2:]}
        elif edit == 8:
            actions[i] = {
                "player": rng.choice(names),
                "act": "deal",
                "to": {
                    rng.choice([*names, "Olof"]): [card_code(c) for c in rng.sample(FULL_PACK, 3)]
                    for _ in range(rng.randrange(0, 4))
                },
            }
        elif edit == 9:
            actions[i] = f"{rng.choice(names)} play " + " ".join(
                card_code(c) for c in rng.sample(FULL_PACK, rng.choice([2, 3, 4, 13, 52]))
            )
        else:
            actions.insert(i, f"{rng.choice(names)} {rng.choice(['pick', 'dare', 'take'])}")
    data["actions"] = actions
    return Input("actions", dumps(data).encode())


def gen_marked(rng: random.Random, pool: Pool) -> Input:
    """A careless scorer's edits, then marks of what the table did (issue 21): some actions
    taken back or let stand, in both forms, now and then a mark no table makes."""
    data = json.loads(gen_actions(rng, pool).data)
    actions: list[Any] = data.get("actions", [])
    marks = ["taken back", "stands", "taken back", "stands", "undone", "", "stands  "]
    for _ in range(rng.choice([1, 2, 3, 8, 40])):
        if not actions:
            break
        i = rng.randrange(len(actions))
        mark = rng.choice(marks)
        entry = actions[i]
        if isinstance(entry, str):
            if rng.random() < 0.5:
                actions[i] = f"{entry.split(' -- ')[0]} -- {mark}"
            else:
                words = entry.split(" -- ")[0].split()
                if len(words) >= 2 and words[1] != "deal":
                    actions[i] = {"player": words[0], "act": words[1], "cards": words[2:]}
                    actions[i]["table"] = mark
        elif isinstance(entry, dict):
            entry["table"] = rng.choice([mark, None, 3])
    data["actions"] = actions
    return Input("marked", dumps(data).encode())


def option_values() -> dict[str, list[Any]]:
    """Every rule option with values to draw: its choices, or its bounds and beyond."""
    out: dict[str, list[Any]] = {}
    for name, info in RuleOptions.model_fields.items():
        annotation = info.annotation
        if typing.get_origin(annotation) is typing.Literal:
            out[name] = list(typing.get_args(annotation))
        elif annotation is bool:
            out[name] = [False, True]
        elif annotation is int:
            low = next((m.ge for m in info.metadata if hasattr(m, "ge")), 0)
            high = next((m.le for m in info.metadata if hasattr(m, "le")), 52)
            out[name] = sorted({low, low + 1, (low + high) // 2, high - 1, high})
        else:
            out[name] = [info.default]
    return out


OPTION_VALUES = option_values()


def random_options(rng: random.Random, wild: bool) -> dict[str, Any]:
    chosen = rng.sample(sorted(OPTION_VALUES), rng.randrange(1, len(OPTION_VALUES) // 2))
    out = {name: rng.choice(OPTION_VALUES[name]) for name in chosen}
    if wild:
        out[rng.choice([*OPTION_VALUES, "jokers"])] = wrong_value(rng)
    return out


def gen_options(rng: random.Random, pool: Pool) -> Input:
    """A game under option overrides it was not played with: the engine meets odd rules."""
    data = json.loads(rng.choice(pool.simulated))
    data["options"] = random_options(rng, wild=rng.random() < 0.3)
    if rng.random() < 0.3:
        data["variant"] = rng.choice(list(PRESETS))
    return Input("options", dumps(data).encode())


def simulate_with(
    rng: random.Random, variant: str, options: RuleOptions, players: int
) -> dict[str, Any]:
    """A random game under ``options`` (cut after SIM_MAX_ACTIONS), as a record."""
    record, _ = random_game(variant, players, rng, options=options, limit=SIM_MAX_ACTIONS)
    defaults = PRESETS[variant].options_for(players).model_dump()
    record["options"] = {k: v for k, v in options.model_dump().items() if defaults[k] != v}
    return record


def gen_simulated_options(rng: random.Random, pool: Pool) -> Input:
    """A game played through ``legal_actions`` under random (valid) options: must be legal."""
    variant = rng.choice(list(PRESETS))
    base = PRESETS[variant].options.model_dump()
    for _ in range(20):
        merged = {**base, **random_options(rng, wild=False), "reserve": 0, "hand_size": 3}
        try:
            options = RuleOptions.model_validate(merged)
        except ValueError:
            continue
        low, high = options.min_players, min(options.max_players, 8)
        if low > high:
            continue
        players = rng.randint(low, high)
        if players * options.hand_size < 52 * options.decks - 1:
            break
    else:
        options, players = PRESETS[variant].options, PRESETS[variant].options.min_players
    record = simulate_with(rng, variant, options, players)
    return Input("simulated_options", dumps(record).encode(), expect_legal=True)


def gen_start(rng: random.Random, pool: Pool) -> Input:
    """A random phase-two position, then random actions, legal ones first."""
    players = rng.randint(2, 5)
    names = NAMES[:players]
    cards = rng.sample(FULL_PACK, rng.randrange(0, 53))
    hands: dict[str, list[str]] = {n: [] for n in names}
    for card in cards:
        hands[rng.choice(names)].append(card_code(card))
    if rng.random() < 0.2:  # a card twice, or a stranger's hand, or '??'
        victim = rng.choice(names)
        hands[victim].append(rng.choice(["2S", "??", "AH", "10c"]))
    if rng.random() < 0.1:
        hands["Olof"] = ["3D"]
    record: dict[str, Any] = {
        "format": FORMAT,
        "variant": rng.choice(list(PRESETS)),
        "players": list(names),
        "start": {
            "phase": rng.choice([2, 2, 2, 2, 1, "2"]),
            "trump": rng.choice("SHDC♠♥♦♣"),
            "leader": rng.choice(names),
            "hands": hands,
        },
        "actions": [],
    }
    if rng.random() < 0.3:
        record["options"] = random_options(rng, wild=False)
    # Play it out legally as far as the engine will say, then one random action.
    try:
        from adjudicator.record import build_game, parse_record

        game = build_game(parse_record(record))
        state = engine.new_state(game)
        for _ in range(rng.randrange(0, 300)):
            if state.finished:
                break
            action = choose(engine.legal_actions(state), rng)
            record["actions"].append(action.record_form(list(names)))
            engine.apply(state, action)
    except Exception:
        pass
    if rng.random() < 0.5:
        record["actions"].append(
            f"{rng.choice(names)} {rng.choice(['play', 'pick', 'dare'])} "
            + card_code(rng.choice(FULL_PACK))
        )
    return Input("start", dumps(record).encode())


ODD_KEYS = ["a\nb", "\r", "\u2028", "x\x85y", "\ud800", "\udc00x", "\u001b[2J", "", " ", "??"]


def gen_odd_keys(rng: random.Random, pool: Pool) -> Input:
    """A key with line breaks, lone surrogates or controls where names and fields go."""
    data = json.loads(rng.choice(pool.every))
    key = rng.choice(ODD_KEYS)
    start = data.get("start")
    places: list[dict[str, Any]] = [data]
    if isinstance(start, dict):
        places += [start, start.get("hands") or {}]
    data.setdefault("options", {})
    places.append(data["options"])
    deals = [a for a in data.get("actions", []) if isinstance(a, dict) and "to" in a]
    places += [a["to"] for a in deals if isinstance(a["to"], dict)]
    target = rng.choice(places)
    if target and rng.random() < 0.5:  # rename an existing key, keeping its value
        old = rng.choice(list(target))
        target[key] = target.pop(old)
    else:
        target[key] = rng.choice([["2C"], 1, "x", {}])
    return Input("odd_keys", dumps(data).encode())


ODD_NAMES = [
    "[bold]Bo[/bold]",
    "[/]",
    "[link=javascript:alert(1)]B[/link]",
    "[reverse]Bo",
    "A\u00b7B",  # names with control or format characters are invalid: tests/record/test_build.py
    "Cai\u0301",
    "Åsa",
    "李",
    "🂡",
    "x" * 40,
    "%s",
]


def gen_renamed(rng: random.Random, pool: Pool) -> Input:
    """A simulated game with a player renamed everywhere to an odd but valid name: legal."""
    data = json.loads(rng.choice(pool.simulated))
    old = rng.choice(data["players"])
    new = rng.choice(ODD_NAMES)
    if new in data["players"]:
        return Input("renamed", dumps(data).encode(), expect_legal=True)
    data["players"] = [new if p == old else p for p in data["players"]]
    for seat in ("dealer", "first_leader"):
        if data.get(seat) == old:
            data[seat] = new
    if old in data.get("result", {}).get("losers", []):
        data["result"]["losers"] = [new if p == old else p for p in data["result"]["losers"]]
    if data.get("result", {}).get("loser") == old:
        data["result"]["loser"] = new
    actions = []
    for action in data["actions"]:
        if isinstance(action, str):
            words = action.split(" ")
            action = " ".join([new if words[0] == old else words[0], *words[1:]])
        else:
            if action.get("player") == old:
                action["player"] = new
            if isinstance(action.get("to"), dict):
                action["to"] = {new if k == old else k: v for k, v in action["to"].items()}
        actions.append(action)
    data["actions"] = actions
    return Input("renamed", dumps(data).encode(), expect_legal=True)


def gen_numbers(rng: random.Random, pool: Pool) -> Input:
    data = _base(rng, pool)
    return Input("numbers", with_raw(rng, data, rng.choice(RAW_NUMBERS)).encode())


def gen_long(rng: random.Random, pool: Pool) -> Input:
    """A very long string where a short one belongs: names, variant, an action, the deck."""
    data = json.loads(rng.choice(pool.simulated))
    size = rng.choice([10_000, 100_000, MIB])
    where = rng.randrange(6)
    if where == 0:
        data["players"][0] = "A" * size
    elif where == 1:
        data["variant"] = "v" * size
    elif where == 2:
        name = data["players"][0]
        data["actions"][0] = f"{name} play " + " ".join(["2S"] * (size // 3))
    elif where == 3:
        data["deck"] = data["deck"] + " 2S" * (size // 3)
    elif where == 4:
        data["actions"][0] = data["actions"][0] + " " * size
    else:
        data = put(data, pick_path(rng, data), long_string(rng))
    return Input("long", dumps(data).encode())


def gen_many_bad(rng: random.Random, pool: Pool) -> Input:
    """Tens of thousands of bad values where a list or an object belongs (a hand, the
    players, the actions, the losers, the options): read to the first, in memory a few
    times the input's size (issue 35: a 694 KB hand took 285 MB)."""
    data = json.loads(rng.choice(pool.samples))
    count = rng.choice([5_000, 50_000])
    bad = rng.choice([[1], "ZZ", None, 7, {"a": [1]}, "a b"])
    where = rng.randrange(6)
    if where == 0 and isinstance(data.get("start"), dict):
        hands = data["start"].get("hands") or {}
        name = next(iter(hands), "Anna")
        data["start"]["hands"] = {**hands, name: [bad] * count}
    elif where == 1:
        data["players"] = [bad] * count
    elif where == 2:
        data["actions"] = [bad] * count
    elif where == 3:
        data["result"] = {"losers": [bad] * count}
    elif where == 4:
        data["options"] = {f"o{i}": bad for i in range(count)}
    else:
        data["deck"] = [bad] * count
    return Input("many_bad", dumps(data).encode())


def gen_duplicate_keys(rng: random.Random, pool: Pool) -> Input:
    """An object holding one key twice (raw JSON text): the reader keeps the last one."""
    data = _base(rng, pool)
    objects = [p for p in paths(data) if isinstance(get(data, p), dict) and get(data, p)]
    if not objects:
        return Input("duplicate_keys", dumps(data).encode())
    where = rng.choice(objects)
    target = get(data, where)
    key = rng.choice(list(target))
    value = rng.choice([target[key], wrong_value(rng)])
    target[PLACEHOLDER] = value
    text = dumps(data).replace(json.dumps(PLACEHOLDER), dumps(key), 1)
    return Input("duplicate_keys", text.encode())


def gen_deep(rng: random.Random, pool: Pool) -> Input:
    data = _base(rng, pool)
    depth = rng.choice(DEPTHS)
    return Input("deep", with_raw(rng, data, nested(rng, depth), root=True).encode())


def gen_truncate(rng: random.Random, pool: Pool) -> Input:
    text = rng.choice(pool.every).encode()
    edit = rng.randrange(4)
    at = rng.randrange(len(text) + 1)
    if edit == 0:
        text = text[:at]
    elif edit == 1:
        text = text[:at] + text[at + 1 :]
    elif edit == 2:
        text = text[:at] + rng.choice(b'{}[]",:0 \\ntfe-.').to_bytes(1, "big") + text[at:]
    else:
        for _ in range(rng.randrange(1, 20)):
            at = rng.randrange(len(text))
            text = text[:at] + bytes([rng.randrange(32, 127)]) + text[at + 1 :]
    return Input("truncate", text)


BOMS = [b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff"]
BAD_BYTES = [
    b"\xff",
    b"\xfe",
    b"\xc3",
    b"\xc3\x28",
    b"\xe2\x82",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
    b"\xc0\xaf",
    b"\x80",
    b"\x00",
]


def gen_bytes(rng: random.Random, pool: Pool) -> Input:
    """Not UTF-8: stray bytes, BOMs, other encodings, lone surrogates as JSON escapes."""
    text = rng.choice(pool.every)
    edit = rng.randrange(6)
    if edit == 0:
        data = text.encode()
        at = rng.randrange(len(data) + 1)
        return Input("bytes", data[:at] + rng.choice(BAD_BYTES) + data[at:])
    if edit == 1:
        return Input("bytes", rng.choice(BOMS) + text.encode())
    if edit == 2:
        encoding = rng.choice(["utf-16", "utf-16-le", "utf-32", "latin-1", "cp1252"])
        return Input("bytes", text.encode(encoding, errors="replace"))
    if edit == 3:  # valid JSON whose strings hold lone surrogates or control characters
        data = json.loads(text)
        escape = rng.choice(["\\ud800", "\\udfff", "\\u0000", "\\u001b[31m", "\\ud83c"])
        raw = '"' + rng.choice(["", "Bo", "x"]) + escape + '"'
        return Input("bytes", with_raw(rng, data, raw).encode())
    if edit == 4:  # a key holding such characters
        data = json.loads(text)
        objects = [p for p in paths(data) if isinstance(get(data, p), dict)]
        target = get(data, rng.choice(objects))
        target[PLACEHOLDER] = wrong_value(rng)
        key = rng.choice(['"\\ud800"', '"a\\nb"', '"\\u2028"', '"\\u001b[2J"', '"x\\ty"'])
        return Input("bytes", dumps(data).replace(json.dumps(PLACEHOLDER), key, 1).encode())
    return Input("bytes", text.encode() + b"\x00" * rng.randrange(1, 4))


def gen_random_json(rng: random.Random, pool: Pool) -> Input:
    def value(depth: int) -> Any:
        if depth > 4 or rng.random() < 0.4:
            return wrong_value(rng) if rng.random() < 0.7 else rng.random()
        if rng.random() < 0.5:
            return [value(depth + 1) for _ in range(rng.randrange(4))]
        return {rng.choice(ODD_STRINGS): value(depth + 1) for _ in range(rng.randrange(4))}

    if rng.random() < 0.2:
        return Input("random", bytes(rng.randrange(256) for _ in range(rng.randrange(64))))
    top = value(0)
    if rng.random() < 0.5:
        top = {"format": FORMAT, "variant": "pagat", "players": NAMES[:3], "actions": top}
    try:
        return Input("random", dumps(top).encode())
    except ValueError:  # a float json cannot write
        return Input("random", b"[]")


def gen_record_like(rng: random.Random, pool: Pool) -> Input:
    """A record built from scratch with every field drawn, valid or not."""
    count = rng.choice([0, 1, 2, 3, 4, 5, 8, 9, 41])
    names = [rng.choice([*NAMES, *ODD_STRINGS]) + str(i % 3) for i in range(count)]
    deck = [card_code(c) for c in FULL_PACK]
    rng.shuffle(deck)
    if rng.random() < 0.3:
        deck[rng.randrange(52)] = rng.choice(["??", "2S", "XX", "10H"])
    if rng.random() < 0.2:
        deck = deck * 2
    record: dict[str, Any] = {
        "format": rng.choice([FORMAT, FORMAT, "skitgubbe-session/1", 1]),
        "variant": rng.choice([*PRESETS, "goat", "mas"]),
        "players": names,
        "dealer": rng.choice([*names, "Olof", None]) if names else None,
        "deck": deck if rng.random() < 0.5 else " ".join(deck),
        "actions": [
            f"{rng.choice(names or ['Anna'])} {rng.choice(ACTS)} {card_code(rng.choice(FULL_PACK))}"
            for _ in range(rng.randrange(0, 30))
        ],
    }
    for extra in ("first_leader", "result", "meta", "options", "trump"):
        if rng.random() < 0.2:
            record[extra] = rng.choice(
                [wrong_value(rng), {"loser": rng.choice(names or ["x"])}, {"losers": names}]
            )
    return Input("record_like", dumps(record).encode())


GENERATORS: list[tuple[Generator, int]] = [
    (gen_clean, 3),
    (gen_respelled, 2),
    (gen_wrong_type, 14),
    (gen_delete, 5),
    (gen_extra_key, 3),
    (gen_odd_cards, 8),
    (gen_actions, 14),
    (gen_marked, 6),
    (gen_options, 7),
    (gen_simulated_options, 1),
    (gen_start, 5),
    (gen_numbers, 5),
    (gen_long, 1),
    (gen_many_bad, 1),
    (gen_duplicate_keys, 4),
    (gen_odd_keys, 3),
    (gen_renamed, 2),
    (gen_deep, 5),
    (gen_truncate, 5),
    (gen_bytes, 6),
    (gen_random_json, 3),
    (gen_record_like, 4),
]
GO_ON: dict[str, tuple[str, ...]] = {
    "actions": ("stands",),
    "marked": ("taken back", "stands"),
}
"""Generators whose records are also checked with ``--go-on`` (issue 21)."""
JSONL_SHARE = 0.05
"""Inputs that are JSON Lines files mixing several generated records and odd lines."""


def generate(seed: int, index: int, pool: Pool) -> Input:
    """Input ``index`` of ``seed``: always the same bytes."""
    rng = random.Random(f"fuzz/{seed}/{index}")
    if rng.random() < JSONL_SHARE:
        return jsonl_input(rng, pool)
    generators, weights = zip(*GENERATORS, strict=True)
    generator = rng.choices(generators, weights)[0]
    return generator(rng, pool)


def jsonl_input(rng: random.Random, pool: Pool) -> Input:
    """A JSON Lines file: good and bad records, blank lines, CRLF, a lone CR, no last newline."""
    lines: list[bytes] = []
    for _ in range(rng.randrange(1, 7)):
        generators, weights = zip(*GENERATORS, strict=True)
        generator = rng.choices(generators, weights)[0]
        if generator in (gen_long, gen_simulated_options):
            generator = gen_clean
        data = generator(rng, pool).data
        lines.append(data.replace(b"\n", b" ") if rng.random() < 0.9 else data)
        if rng.random() < 0.2:
            lines.append(rng.choice([b"", b"   ", b"\t", b"\r", b"\x0c", b"\xff", b"\x00"]))
    end = rng.choice([b"\n", b"\n", b"\r\n", b"\r"])
    text = end.join(lines) + (end if rng.random() < 0.7 else b"")
    return Input("jsonl", text, ".jsonl")


# --- judging one input -----------------------------------------------------------------


@dataclass
class Escape:
    """Something other than one verdict: what, where it came from, how to reproduce it."""

    signature: str
    index: int
    kind: str
    detail: str
    size: int


def signature(exc: BaseException) -> str:
    """``Type at file:function`` of the innermost frame in the adjudicator package."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if "adjudicator" in f.filename and "fuzz" not in f.filename]
    where = ours[-1] if ours else (frames[-1] if frames else None)
    place = f"{Path(where.filename).name}:{where.name}" if where else "?"
    return f"{type(exc).__name__} at {place}"


def last_lines(exc: BaseException, count: int = 6) -> str:
    text = "".join(traceback.format_exception(exc))
    return "".join(text.splitlines(keepends=True)[-count:])


def printable(checked: Checked) -> None:
    """Print the verdict as ``check`` does, in both forms, encoded as UTF-8; or raise."""
    line = json.dumps(checked.as_json(), ensure_ascii=False)
    line.encode("utf-8")
    from rich.console import Console

    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, highlight=False, soft_wrap=True)
    if checked.report is None:
        console.print(render.invalid(checked.label, checked.error or ""))
    else:
        console.print(render.verdict(checked.label, checked.report))
    out.getvalue().encode("utf-8")


def judge(checked: Any, expect_legal: bool) -> str | None:
    """Why ``checked`` is not a proper verdict, or None."""
    if not isinstance(checked, Checked):
        return f"not a verdict: {type(checked).__name__}"
    if checked.status not in STATUSES:
        return f"status {checked.status!r}"
    if checked.status == "invalid":
        error = checked.error
        if not isinstance(error, str) or not error.strip():
            return "invalid without an error"
        if LINE_BREAKS.search(error):
            return "multi-line error"
        if len(error) > MAX_ERROR:
            return f"error over {MAX_ERROR} characters"
    else:
        report = checked.report
        assert report is not None
        games = getattr(report, "games", [report])  # a session holds several
        for game in games:
            if not 0 <= game.applied <= game.actions:
                return f"applied {game.applied} of {game.actions}"
        if checked.status == "illegal" and not report.violations:
            return "illegal without a violation"
        for v in report.violations:  # a message quotes what it must, cut short
            if LINE_BREAKS.search(v.message):
                return "multi-line violation message"
            if len(v.message) > MAX_MESSAGE:
                return f"violation message over {MAX_MESSAGE} characters ({v.rule})"
    if expect_legal and checked.status != "legal":
        return f"a legal game checked {checked.status}: {checked.error or ''}"[:300]
    return None


def check_input(item: Input, folder: Path, cli: bool) -> list[tuple[str, str]]:
    """Run one input the way ``check`` does; (signature, detail) of each escape."""
    path = folder / f"input{item.suffix}"
    path.write_bytes(item.data)
    escapes: list[tuple[str, str]] = []
    verdicts = 0
    try:
        for source in bulk.sources([str(path)]):
            checked = bulk.check_source(source)
            verdicts += 1
            problem = judge(checked, item.expect_legal and item.suffix == ".json")
            if problem is not None:
                name = problem.split(":")[0] if "legal game" in problem else problem
                escapes.append((name, f"{problem}\n{checked.as_json()!a}"[:2000]))
            for go_on in GO_ON.get(item.kind, ()):  # followed past every irregularity
                checked = bulk.check_source(source, go_on=go_on)
                problem = judge(checked, item.expect_legal and item.suffix == ".json")
                if problem is not None:
                    name = problem.split(":")[0] if "legal game" in problem else problem
                    escapes.append(
                        (name, f"{problem} (go_on {go_on})\n{checked.as_json()!a}"[:2000])
                    )
                continue
            try:
                printable(checked)
            except UnicodeEncodeError as exc:
                escapes.append(("unprintable verdict", f"{exc}\n{checked.as_json()!a}"[:2000]))
    except Exception as exc:
        escapes.append((signature(exc), last_lines(exc)))
    if verdicts == 0 and not escapes and item.suffix == ".json":
        escapes.append(("no verdict", "a record file gave no verdict"))
    escapes.extend(check_library(item))
    if cli and not escapes:
        began = time.process_time()
        escapes.extend(run_cli(path))
        CLI_SECONDS[0] += time.process_time() - began
    return escapes


def check_library(item: Input) -> list[tuple[str, str]]:
    """The library on the same bytes: ``load_record`` (bytes, and the decoded dict) then
    ``adjudicate`` return a report or raise RecordError, nothing else, in one line."""
    if item.suffix != ".json":
        return []
    out: list[tuple[str, str]] = []
    sources: list[Any] = [item.data]
    with contextlib.suppress(ValueError, RecursionError):
        decoded = json.loads(item.data)
        if isinstance(decoded, dict):
            sources.append(decoded)
    for source in sources:
        try:
            adjudicate(load_record(source))
        except RecordError as exc:
            if LINE_BREAKS.search(str(exc)) or len(str(exc)) > MAX_ERROR:
                out.append(("library: long or multi-line RecordError", ascii(str(exc))[:2000]))
        except Exception as exc:
            out.append((f"library: {signature(exc)}", last_lines(exc)))
    return out


def run_cli(path: Path) -> list[tuple[str, str]]:
    """``check --json``, ``check``, ``check --write-*`` and (for one record) ``replay
    --html`` on the input: exit status 0-2, no exception; the written JSON Lines hold
    each legal (illegal) record on a line of its own; the page holds no link."""
    from click.testing import CliRunner

    from adjudicator.cli.commands import main

    out: list[tuple[str, str]] = []
    written = {status: path.with_name(f"{status}.out.jsonl") for status in ("legal", "illegal")}
    page = path.with_name("ruling.html")
    sort = ["--write-legal", str(written["legal"]), "--write-illegal", str(written["illegal"])]
    runs = [["check", "--json", str(path)], ["check", str(path)], ["check", str(path), *sort]]
    if path.suffix == ".json":
        # The page holds the whole replay either way; a big record's terminal text (its
        # every step, some 4 ms each at 20 players) is cut to one step.
        big = ["--step", "1"] if path.stat().st_size > BIG_RECORD else []
        runs.append(["replay", str(path), "--html", str(page), *big])
    statuses: list[str] = []
    for args in runs:
        result = CliRunner().invoke(main, args)
        exc = result.exception
        if exc is not None and not isinstance(exc, SystemExit):
            out.append((f"cli: {signature(exc)}", last_lines(exc)))
        elif result.exit_code not in (0, 1, 2) or "Traceback" in result.output:
            out.append(("cli: exit status", f"{args[:2]}: {result.exit_code}\n{result.output}"))
        elif args[1] == "--json":
            for line in result.stdout.splitlines():
                statuses.append(json.loads(line)["status"])
                if statuses[-1] not in STATUSES:
                    out.append(("cli: status", line[:500]))
        elif "--write-legal" in args:
            out.extend(_written(written, statuses))
        elif args[0] == "replay" and page.exists():
            html = page.read_text(encoding="utf-8")
            # Record text lives only in the embedded JSON and the escaped title: the rest
            # is the same page for every record.
            if export.skeleton(html) != _page_skeleton():
                out.append(("cli: record text outside its place in replay --html", html[:500]))
    for file in (*written.values(), page):
        file.unlink(missing_ok=True)
    return out


_SKELETON: list[str] = []


def _page_skeleton() -> str:
    """The exported page of a sample, without what comes from the record."""
    if not _SKELETON:
        from click.testing import CliRunner

        from adjudicator.cli.commands import main

        with tempfile.TemporaryDirectory() as folder:
            target = Path(folder) / "page.html"
            sample = ROOT / "sample_games" / "illegal_phase2_beat.json"
            CliRunner().invoke(main, ["replay", str(sample), "--html", str(target)])
            _SKELETON.append(export.skeleton(target.read_text(encoding="utf-8")))
    return _SKELETON[0]


def _written(files: dict[str, Path], statuses: list[str]) -> list[tuple[str, str]]:
    """What is wrong with the --write-* files, given the verdicts of ``check --json``."""
    out = []
    for status, file in files.items():
        try:
            lines = file.read_text(encoding="utf-8").splitlines()
            for line in lines:
                json.loads(line)
        except (OSError, ValueError) as exc:
            out.append((f"cli: --write-{status} unreadable", f"{type(exc).__name__}: {exc}"))
            continue
        if len(lines) != statuses.count(status):
            out.append(
                (
                    f"cli: --write-{status} count",
                    f"{len(lines)} lines for {statuses.count(status)} {status} records",
                )
            )
    return out


# --- running many ----------------------------------------------------------------------


GROWTH_SLACK = 32 * MIB
"""Peak memory any input may add whatever its size (a replay's steps, a first import)."""


def rss_mb() -> float:
    with open("/proc/self/statm") as stream:
        return int(stream.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / MIB


@dataclass
class Limits:
    max_seconds: float = 2.0
    max_growth_mb: float = 300.0
    hang_seconds: float = 30.0
    address_space_gb: float = 6.0
    cli_every: int = 100
    max_growth_ratio: float = 40.0
    """The peak memory one input may add, in times its size (plus :data:`GROWTH_SLACK`)."""


@dataclass
class Totals:
    count: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    slowest: float = 0.0
    slowest_index: int = -1
    peak_rss: float = 0.0
    escapes: list[Escape] = field(default_factory=list)
    interrupted: bool = False

    def merge(self, other: Totals) -> None:
        self.count += other.count
        self.kinds.update(other.kinds)
        if other.slowest > self.slowest:
            self.slowest, self.slowest_index = other.slowest, other.slowest_index
        self.peak_rss = max(self.peak_rss, other.peak_rss)
        self.escapes.extend(other.escapes)


def work(
    seed: int,
    indices: range,
    pool: Pool,
    limits: Limits,
    report: Callable[[Totals], None] | None = None,
    current: Any = None,
    root: str | None = None,
) -> Totals:
    """Check inputs ``indices`` in this process; ``report`` gets partial totals now and then."""
    totals = Totals()
    folder = Path(tempfile.mkdtemp(prefix="fuzz-", dir=root))
    baseline: float | None = None
    try:
        for n, index in enumerate(indices):
            if current is not None:
                current.value = index
            try:
                item = generate(seed, index, pool)
            except Exception as exc:
                totals.escapes.append(Escape(f"harness: {signature(exc)}", index, "?", "", 0))
                continue
            start = time.process_time()  # CPU time: other processes' load adds nothing
            in_cli = CLI_SECONDS[0]
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            found = check_input(item, folder, cli=index % limits.cli_every == 0)
            cli_seconds = CLI_SECONDS[0] - in_cli
            grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak) * 1024
            if not cli_seconds and grown > limits.max_growth_ratio * len(item.data) + GROWTH_SLACK:
                # a new peak only: an input under an earlier peak goes unseen, the worst not
                found.append(
                    (
                        f"memory per record: {item.kind}",
                        f"{grown / MIB:.0f} MB for {len(item.data):,} bytes",
                    )
                )
            seconds = time.process_time() - start - cli_seconds
            if cli_seconds > limits.max_seconds * CLI_LIMIT:
                found.append((f"slow in the CLI: {item.kind}", f"{cli_seconds:.2f} s of CPU"))
            totals.count += 1
            totals.kinds[item.kind] += 1
            if seconds > totals.slowest:
                totals.slowest, totals.slowest_index = seconds, index
            records = item.data.count(b"\n") + 1 if item.suffix == ".jsonl" else 1
            if seconds > limits.max_seconds * max(1, records / 1000):  # per 1,000 lines
                found.append((f"slow: {item.kind}", f"{seconds:.2f} s of CPU"))
            rss = rss_mb()
            totals.peak_rss = max(totals.peak_rss, rss)
            if n == 200 or (baseline is None and n == len(indices) - 1) or cli_seconds:
                # After the CLI phase the heap keeps the peak of a replay with its page (a
                # 17,000-action record: 370 MB), which is no leak: the baseline starts again.
                baseline = rss
            elif baseline is not None and rss > baseline + limits.max_growth_mb:
                found.append(("memory growth", f"{baseline:.0f} -> {rss:.0f} MB"))
                baseline = rss
            for sig, detail in found:
                totals.escapes.append(Escape(sig, index, item.kind, detail, len(item.data)))
            if report is not None and (found or (n + 1) % 250 == 0):
                report(totals)
                totals = Totals()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return totals


def _worker(
    seed: int, indices: range, pool: Pool, limits: Limits, out: Any, current: Any, root: str
) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the supervisor's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # and SIGTERM: it kills the workers
    gb = int(limits.address_space_gb * 1024 * MIB)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (gb, gb))
    totals = work(seed, indices, pool, limits, out.put, current, root)
    out.put(totals)
    out.put(None)


def run(
    count: int,
    seed: int,
    workers: int = 2,
    per_table: int = 3,
    limits: Limits | None = None,
    start: int = 0,
    progress: Callable[[Totals], None] | None = None,
) -> Totals:
    """Check inputs ``start .. start+count-1`` of ``seed``; in this process if ``workers`` is 0.

    With workers, each takes every ``workers``-th input; a worker silent for
    ``hang_seconds`` is killed, its input recorded as a hang, and a new
    worker goes on after it; so does one that dies.
    """
    limits = limits or Limits()
    if workers == 0:
        return work(seed, range(start, start + count), build_pool(seed, per_table), limits)
    root = tempfile.mkdtemp(prefix="fuzz-run-")  # a killed worker cannot clean up after itself
    try:
        return _supervise(count, seed, workers, per_table, limits, start, progress, root)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _supervise(
    count: int,
    seed: int,
    workers: int,
    per_table: int,
    limits: Limits,
    start: int,
    progress: Callable[[Totals], None] | None,
    root: str,
) -> Totals:
    context = multiprocessing.get_context("fork")
    results: Any = context.Queue()
    pool = build_pool(seed, per_table)  # once, shared by the forked workers (and replacements)
    totals = Totals()
    live: dict[int, tuple[Any, Any, int, float]] = {}  # slot -> process, current, last, since
    ranges: dict[int, range] = {}
    processed = 0  # counted here: a killed worker's last report may be behind it
    end = start + count

    def launch(slot: int, first: int) -> None:
        if first >= end:
            return
        current = context.Value("q", -1)
        indices = range(first, end, workers)
        process = context.Process(
            target=_worker,
            args=(seed, indices, pool, limits, results, current, root),
            daemon=True,
        )
        process.start()
        live[slot] = (process, current, -1, time.monotonic())
        ranges[slot] = indices

    for slot in range(workers):
        launch(slot, start + slot)
    early_deaths: Counter[int] = Counter()
    try:
        while live:
            try:
                message = results.get(timeout=0.5)
            except queue.Empty:
                message = ...
            if isinstance(message, Totals):
                totals.merge(message)
                if progress is not None:
                    progress(totals)
            now = time.monotonic()
            for slot, (process, current, last, since) in list(live.items()):
                index = current.value
                if index != last:
                    live[slot] = (process, current, index, now)
                    continue
                silent = now - since > limits.hang_seconds + (60 if index < 0 else 0)
                if not process.is_alive() and process.exitcode == 0:
                    del live[slot]
                    processed += len(ranges[slot])
                    continue
                if silent or not process.is_alive():
                    what = "hang" if process.is_alive() else f"died (exit {process.exitcode})"
                    process.kill()
                    process.join()
                    del live[slot]
                    if index < 0:  # before its first input: once more, then give up its range
                        totals.escapes.append(Escape(f"harness: worker {what}", -1, "?", "", 0))
                        early_deaths[slot] += 1
                        if early_deaths[slot] < 2:
                            launch(slot, ranges[slot].start)
                        continue
                    totals.escapes.append(Escape(what, index, "?", what, 0))
                    processed += ranges[slot].index(index) + 1
                    launch(slot, index + workers)
    except KeyboardInterrupt:  # Ctrl-C, or SIGTERM (see main): what is known, workers gone
        totals.interrupted = True
        for process, _, _, _ in live.values():
            process.kill()
            process.join()
        processed = totals.count
    while True:  # what the last workers sent before they ended
        try:
            message = results.get(timeout=0.2)
        except queue.Empty:
            break
        if isinstance(message, Totals):
            totals.merge(message)
    totals.count = processed
    return totals


def summary(totals: Totals, seed: int, seconds: float) -> str:
    groups: dict[str, list[Escape]] = {}
    for escape in sorted(totals.escapes, key=lambda e: (e.size, e.index)):
        groups.setdefault(escape.signature, []).append(escape)
    lines = [
        f"fuzz: {totals.count:,} inputs, seed {seed}, {seconds:.0f} s "
        f"({totals.count / max(seconds, 1e-9):,.0f}/s); slowest input {totals.slowest:.2f} s CPU "
        f"(#{totals.slowest_index}); peak RSS of a worker {totals.peak_rss:.0f} MB",
        "inputs by generator: "
        + ", ".join(f"{kind} {n}" for kind, n in sorted(totals.kinds.items())),
        f"escapes: {len(totals.escapes)} in {len(groups)} kinds",
    ]
    if totals.interrupted:
        lines.insert(0, "fuzz: interrupted; the figures below are what the workers had reported")
    for sig, escapes in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        smallest = escapes[0]
        lines.append(
            f"  {len(escapes):>6} x {sig}  [generators: "
            + ", ".join(sorted({e.kind for e in escapes}))
            + f"; smallest: --only {smallest.index} ({smallest.size} bytes)]"
        )
        for detail_line in smallest.detail.strip().splitlines()[-4:]:
            safe = detail_line[:200].encode("utf-8", "backslashreplace").decode("utf-8")
            lines.append(f"           {safe}")
    return "\n".join(lines)


def main() -> None:
    """The command line: run, replay one input, or write one out."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--start", type=int, default=0, help="first input index")
    parser.add_argument("--workers", type=int, default=2, help="0: in this process")
    parser.add_argument("--per-table", type=int, default=3, help="simulated games per table")
    parser.add_argument("--max-seconds", type=float, default=2.0)
    parser.add_argument("--max-growth-mb", type=float, default=300.0)
    parser.add_argument("--max-growth-ratio", type=float, default=40.0)
    parser.add_argument("--hang-seconds", type=float, default=30.0)
    parser.add_argument(
        "--cli-every", type=int, default=100, help="every Nth input also goes through the CLI"
    )
    parser.add_argument("--json", type=Path, default=None, help="write the escapes here")
    parser.add_argument("--only", type=int, default=None, help="replay input N, with traceback")
    parser.add_argument("--dump", nargs=2, metavar=("N", "FILE"), default=None)
    args = parser.parse_args()
    if args.only is not None or args.dump is not None:
        pool = build_pool(args.seed, args.per_table)
        index = args.only if args.only is not None else int(args.dump[0])
        item = generate(args.seed, index, pool)
        if args.dump is not None:
            Path(args.dump[1]).write_bytes(item.data)
            print(f"#{index}: {item.kind}, {len(item.data)} bytes -> {args.dump[1]}")
            return
        print(f"#{index}: {item.kind}, {len(item.data)} bytes: {item.data[:300]!r}")
        with tempfile.TemporaryDirectory(prefix="fuzz-") as folder:
            path = Path(folder) / f"input{item.suffix}"
            path.write_bytes(item.data)
            for source in bulk.sources([str(path)]):
                checked = bulk.check_source(source)  # raises here with the whole traceback
                verdict = judge(checked, item.expect_legal) or "ok"
                print(checked.status, ascii(checked.error), verdict)
                printable(checked)
        return
    limits = Limits(
        args.max_seconds,
        args.max_growth_mb,
        args.hang_seconds,
        cli_every=args.cli_every,
        max_growth_ratio=args.max_growth_ratio,
    )
    began = time.perf_counter()
    last = [0.0]

    seen: set[str] = set()

    def progress(totals: Totals) -> None:
        for escape in totals.escapes:  # each new kind at once: a run cut short still tells
            if escape.signature not in seen:
                seen.add(escape.signature)
                print(f"  new escape: {escape.signature} (--only {escape.index})", flush=True)
        if time.perf_counter() - last[0] > 15:
            last[0] = time.perf_counter()
            rate = totals.count / (last[0] - began)
            print(
                f"  {totals.count:,} inputs, {rate:,.0f}/s, {len(totals.escapes)} escapes",
                file=sys.stderr,
                flush=True,
            )

    signal.signal(signal.SIGTERM, signal.default_int_handler)  # as Ctrl-C: stop, then sum up
    totals = run(args.count, args.seed, args.workers, args.per_table, limits, args.start, progress)
    seconds = time.perf_counter() - began
    print(summary(totals, args.seed, seconds))
    if args.json is not None:
        args.json.write_text(
            json.dumps([e.__dict__ for e in totals.escapes], ensure_ascii=False, indent=1),
            encoding="utf-8",
        )
    sys.exit(1 if totals.escapes else 0)


if __name__ == "__main__":
    main()
