"""The conformance kit (issue 25): vectors, perft and the conform harness.

The vectors are checked by a second path: each line's record is loaded and
adjudicated again, its ``legal`` list recomputed through ``legal_by_check``,
and each ``refused`` action appended to the record must make it illegal with
that rule id.  The harness is driven by tests/conformance/conformance_adapter.py, an
outside engine built on the adjudicator, faithful or broken on purpose.
"""

from __future__ import annotations

import functools
import json
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator import engine, record
from adjudicator.cli.commands import main
from adjudicator.conformance import harness, perft, vectors
from adjudicator.engine.state import FIELDS
from adjudicator.play import legal, listing
from adjudicator.play.adjudicate import adjudicate, adjudicate_session
from adjudicator.record import Game
from adjudicator.rules.presets import PRESETS

ROOT = Path(__file__).resolve().parents[2]
ADAPTER = f"{sys.executable} {Path(__file__).with_name('conformance_adapter.py')}"
COUNT = 150
"""Positions per preset: enough to reach game 1 of a run (the next game of a session)."""


@functools.cache
def lines(variant: str, hide: float = 0.0, count: int = COUNT) -> tuple[str, ...]:
    players = vectors.default_players(variant)
    return tuple(vectors.write(variant, players, 7, count, hide))


def _game_of(document: Game | record.Session) -> Game:
    return document if isinstance(document, Game) else document.games[-1]


def _verdict(data: dict) -> tuple[list, list]:
    """(violations, undetermined) of a record or session."""
    document = record.load(data)
    if isinstance(document, Game):
        report = adjudicate(document)
        return report.violations, report.undetermined
    session = adjudicate_session(document)
    return session.violations, session.undetermined


def _with_actions(data: dict, actions: list) -> dict:
    data = json.loads(json.dumps(data))
    target = data["games"][-1] if "games" in data else data
    target["actions"].extend(actions)
    return data


def _check_lines(texts: tuple[str, ...]) -> None:
    """Each line's record replays legally to its end (``legal.position`` checks every action;
    a session is adjudicated whole), its ``legal`` list is ``legal_by_check`` there, and
    its ``refused`` actions, read back through the record layer, are refused by ``check``
    with the rule id given."""
    for text in texts:
        row = json.loads(text)
        if "games" in row["record"]:
            violations, _ = _verdict(row["record"])
            assert violations == [], row["id"]
        game = _game_of(record.load(row["record"]))
        state = legal.position(game).state  # raises on an illegal action
        assert len(game.actions) == row["at"]
        every = vectors.legal_forms(engine.legal_by_check(state), game.players)
        shown, more = listing.summary(every)
        assert row["legal"] == shown, row["id"]
        assert row.get("more_deals", 0) == (len(every) - len(shown) if more else 0)
        assert row["legal"], row["id"]
        misses = [m["action"] for m in row["refused"]]
        read = _game_of(record.load(_with_actions(row["record"], misses))).actions[row["at"] :]
        for miss, action in zip(row["refused"], read, strict=True):
            bad = engine.check(state, action)
            assert bad is not None and not bad.undetermined, (row["id"], miss)
            assert bad.rule == miss["rule"], (row["id"], miss)


@pytest.mark.parametrize("variant", list(PRESETS))
def test_vectors_are_legal_records_with_the_rules_lists(variant: str) -> None:
    texts = lines(variant)
    assert len(texts) == COUNT
    _check_lines(texts)
    rows = [json.loads(t) for t in texts]
    phases = {r["phase"] for r in rows}
    assert {"phase one", "intermission", "phase two"} <= phases
    assert any(r["game"] == 1 and r["record"]["format"] == "skitgubbe-session/1" for r in rows)
    assert sum(len(r["refused"]) for r in rows) >= COUNT  # near misses everywhere
    rules = {m["rule"] for r in rows for m in r["refused"]}
    assert {"turn.order", "play.held"} <= rules


def test_vectors_reach_the_low_card_deal() -> None:
    rows = [json.loads(t) for t in lines("goat", count=400)]
    deals = [r for r in rows if r["phase"] == "deal"]
    assert deals
    for row in deals:
        assert all(isinstance(f, dict) and f["act"] == "deal" for f in row["legal"])
        assert {m["rule"] for m in row["refused"]} >= {"deal.shuffler"}


@pytest.mark.parametrize("variant", ["pagat", "goat", "helmfrid"])
def test_vectors_with_hidden_cards(variant: str) -> None:
    texts = lines(variant, 0.4, 60)
    _check_lines(texts)
    rows = [json.loads(t) for t in texts]
    assert any("??" in r["record"].get("deck", "") for r in rows)
    assert any(r.get("with_unseen") for r in rows)


def test_same_seed_same_bytes_other_seed_other_bytes() -> None:
    first = "".join(vectors.write("mas", 3, 11, 40))
    assert first == "".join(vectors.write("mas", 3, 11, 40))
    assert first != "".join(vectors.write("mas", 3, 12, 40))


def test_vectors_command() -> None:
    runner = CliRunner()
    out = runner.invoke(main, ["vectors", "--variant", "atlanta", "--count", "5", "--seed", "3"])
    assert out.exit_code == 0
    assert out.output == "".join(vectors.write("atlanta", 3, 3, 5))
    bad = runner.invoke(main, ["vectors", "--variant", "atlanta", "--players", "5"])
    assert bad.exit_code == 2
    assert bad.output.strip() == "--players: atlanta is for 3-3 players, not 5"


# --- conform -----------------------------------------------------------------------


def _vector_file(tmp_path: Path, variant: str) -> Path:
    """Every other vector of the preset's file: a run of the adapter costs time."""
    path = tmp_path / f"{variant}.jsonl"
    path.write_text("".join(lines(variant)[::2]), encoding="utf-8")
    return path


def _positions(path: Path) -> list[harness.Position]:
    return [harness.load_position(r, n, str(path)) for n, r in harness.read_vectors(str(path))]


@pytest.mark.parametrize("variant", list(PRESETS))
def test_conform_faithful_engine_agrees(tmp_path: Path, variant: str) -> None:
    path = _vector_file(tmp_path, variant)
    report = harness.run(ADAPTER, _positions(path), timeout=30)
    assert report.positions == COUNT // 2
    assert report.agreed == COUNT // 2
    assert any(p.record["format"] == "skitgubbe-session/1" for p in _positions(path))
    assert report.clean, list(harness.render(report))


@pytest.mark.parametrize("variant", ["goat", "helmfrid"])
def test_conform_with_hidden_cards(tmp_path: Path, variant: str) -> None:
    """Positions with unknown cards: the faithful engine agrees, also when it lists what
    would be legal with an unseen card; dropping picks is still found."""
    path = tmp_path / "hidden.jsonl"
    path.write_text("".join(lines(variant, 0.4, 60)), encoding="utf-8")
    positions = _positions(path)
    assert any(p.state.hidden_anywhere() for p in positions)
    assert any(engine.unseen_actions(p.state) for p in positions)  # --with-unseen adds some
    assert harness.run(ADAPTER, positions, timeout=30).clean
    assert harness.run(f"{ADAPTER} --with-unseen", positions, timeout=30).clean
    broken = harness.run(f"{ADAPTER} --break drop-picks", positions, timeout=30)
    assert list(broken.groups()) == [("too strict", "pick")]


def test_conform_engine_that_drops_picks_is_too_strict(tmp_path: Path) -> None:
    path = _vector_file(tmp_path, "pagat")
    out = tmp_path / "out"
    result = CliRunner().invoke(
        main,
        ["conform", "--engine", f"{ADAPTER} --break drop-picks", str(path), "--out", str(out)],
    )
    assert result.exit_code == 1
    assert re.search(r"^too strict: pick \(\d+ positions", result.output, re.M)
    assert "too lenient" not in result.output
    assert [p.name for p in out.iterdir()] == ["too-strict-pick.json"]
    shortest = json.loads((out / "too-strict-pick.json").read_text(encoding="utf-8"))
    assert _game_of(record.load(shortest)).actions[-1].act == "pick"
    violations, _ = _verdict(shortest)
    assert violations == []  # the rules allow what the engine refused


def test_conform_engine_allowing_any_sluff_is_too_lenient(tmp_path: Path) -> None:
    path = _vector_file(tmp_path, "helmfrid")
    report = harness.run(f"{ADAPTER} --break any-sluff", _positions(path), timeout=30)
    groups = report.groups()
    assert list(groups) == [("too lenient", "phase1.sluff.rank")]
    assert not report.failures
    written = harness.write_shortest(report, tmp_path / "out")
    shortest = json.loads(written[0].read_text(encoding="utf-8"))
    violations, _ = _verdict(shortest)
    assert [v.rule for v in violations] == ["phase1.sluff.rank"]
    length = len(_game_of(record.load(shortest)).actions) - 1
    assert violations[0].index == length
    assert length == min(d.position.length for d in groups["too lenient", "phase1.sluff.rank"])


@pytest.mark.parametrize(
    ("broken", "wait", "said"),
    [  # only the silent engine needs the short wait: the others answer or exit at once
        ("garbage", "30", "answer is not JSON: 'this is no JSON'"),
        ("silent", "1", "no answer within 1 s (engine restarted)"),
        ("exit", "30", "the engine exited with status 3 without answering: giving up (restarted)"),
    ],
)
def test_conform_engine_failures_are_one_line_each(
    tmp_path: Path, broken: str, wait: str, said: str
) -> None:
    path = tmp_path / "few.jsonl"
    path.write_text("".join(lines("pagat")[:4]), encoding="utf-8")
    result = CliRunner().invoke(
        main,
        ["conform", "--engine", f"{ADAPTER} --break {broken}", str(path), "--timeout", wait],
    )
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    failures = [line for line in result.output.splitlines() if line.startswith("  ")]
    first_id = json.loads(lines("pagat")[1])["id"]
    assert failures[0] == f"  {first_id}: {said}"


def test_conform_bad_input_is_one_line_exit_2(tmp_path: Path) -> None:
    runner = CliRunner()
    missing = runner.invoke(main, ["conform", "--engine", "cat", str(tmp_path / "none.jsonl")])
    assert missing.exit_code == 2
    assert missing.output.strip().endswith("none.jsonl: cannot read: No such file or directory")
    path = tmp_path / "v.jsonl"
    path.write_text(lines("pagat")[0] + "{not json\n", encoding="utf-8")
    broken = runner.invoke(main, ["conform", "--engine", "cat", str(path)])
    assert broken.exit_code == 2
    assert broken.output.strip().startswith(f"{path}:2: not JSON")
    path.write_text(lines("pagat")[0], encoding="utf-8")
    nothing = runner.invoke(main, ["conform", "--engine", "no-such-engine-here", str(path)])
    assert nothing.exit_code == 2
    assert nothing.output.strip() == (
        "--engine: cannot start no-such-engine-here: No such file or directory"
    )


# --- perft -------------------------------------------------------------------------

TABLE_ROW = re.compile(r"^\| (\w+) \| `([^`]+)` \| (\d+) \|((?: [\d,]+ \|)+)$")
TEST_DEPTH = 3
"""Depth the suite checks of each reference row (the docs table goes deeper)."""


def _reference_rows() -> list[tuple[str, str, int, list[int]]]:
    text = (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")
    rows = []
    for line in text.splitlines():
        match = TABLE_ROW.match(line)
        if match:
            counts = [int(c.replace(",", "")) for c in match[4].split("|") if c.strip()]
            rows.append((match[1], match[2], int(match[3]), counts))
    return rows


def test_reference_table_has_every_preset() -> None:
    rows = _reference_rows()
    assert {r[0] for r in rows} == set(PRESETS)


@pytest.mark.parametrize("row", _reference_rows(), ids=lambda r: f"{r[0]}-at{r[2]}")
def test_perft_reference_counts(row: tuple[str, str, int, list[int]]) -> None:
    variant, path, at, counts = row
    game = record.load(str(ROOT / path))
    assert isinstance(game, Game) and game.variant == variant
    state = legal.position(game, at).state
    assert perft.perft(state, TEST_DEPTH) == counts[:TEST_DEPTH]
    assert perft.perft(state, TEST_DEPTH, engine.legal_by_check) == counts[:TEST_DEPTH]
    parts = perft.divide(state, TEST_DEPTH)
    assert sum(p.count for p in parts) == counts[TEST_DEPTH - 1]
    assert len(parts) == counts[0]


def test_clone_copies_every_slot() -> None:
    """Perft copies each child with State.clone: every slot equal, no list shared."""
    texts = lines("goat")[::10]
    for text in texts:
        row = json.loads(text)
        state = legal.position(_game_of(record.load(row["record"]))).state
        fast = state.clone()
        for name in FIELDS:
            mine, theirs = getattr(fast, name), getattr(state, name)
            assert mine == theirs, name
            if isinstance(mine, list):
                assert mine is not getattr(state, name), name
                for inner, original in zip(mine, getattr(state, name), strict=True):
                    assert not isinstance(inner, list) or inner is not original, name
        fast.hands[0].append(99)
        fast.stock.append(99)
        assert 99 not in state.hands[0] and 99 not in state.stock


def test_perft_command(tmp_path: Path) -> None:
    runner = CliRunner()
    game = str(ROOT / "sample_games" / "mas_3p_full.json")
    result = runner.invoke(main, ["perft", game, "--at", "1", "--depth", "3"])
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["depth 1: 5", "depth 2: 18", "depth 3: 72"]
    divided = runner.invoke(main, ["perft", game, "--at", "1", "--depth", "2", "--divide"])
    assert divided.stdout.splitlines()[-1] == "total at depth 2: 18"
    far = runner.invoke(main, ["perft", game, "--at", "999", "--depth", "2"])
    assert far.exit_code == 2
    assert far.output.strip() == (
        "--at 999: the record has 128 actions: --at 1 is before the first, --at 129 after the last"
    )


def test_perft_on_a_game_of_a_session() -> None:
    path = ROOT / "sample_games" / "goat_session_3_games.json"
    session = record.load(str(path))
    assert not isinstance(session, Game)
    state = legal.position(session.games[1], 0).state
    counts = perft.perft(state, 2)
    result = CliRunner().invoke(
        main, ["perft", str(path), "--game", "2", "--at", "1", "--depth", "2"]
    )
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [f"depth {d}: {c}" for d, c in enumerate(counts, 1)]
    assert counts[0] > 0
