"""Out of play counts every card in nobody's hand and not on the table (docs/record-format.md,
"Starting from a position": "Cards in nobody's hand are out of play"): at a phase-two start
the cards the position writes nowhere, not 0 until a trick is killed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from adjudicator.cli.commands import main
from adjudicator.service import page

START = {  # 9 cards in hands: 43 out of play; Cai's king kills the trick, 3 more
    "format": "skitgubbe-record/1",
    "variant": "pagat",
    "players": ["Anna", "Bo", "Cai"],
    "start": {
        "phase": 2,
        "trump": "S",
        "leader": "Anna",
        "hands": {"Anna": ["2C", "3C", "4D"], "Bo": ["7C", "8C", "9C"], "Cai": ["AH", "KC", "6D"]},
    },
    "actions": ["Anna play 2C", "Bo play 7C", "Cai play KC"],
}
SESSION = Path(__file__).resolve().parents[2] / "sample_games" / "goat_session_3_games.json"


def test_the_replay_says_the_cards_written_nowhere_are_out_of_play(tmp_path: Path) -> None:
    path = tmp_path / "start.json"
    path.write_text(json.dumps(START), encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    heads = [line for line in result.stdout.splitlines() if line.startswith("Phase two")]
    assert [line.split(" · ")[2] for line in heads] == [
        "out of play 43",  # the start
        "out of play 43",  # a trick on the table is still in play
        "out of play 43",
        "out of play 46",  # the trick killed
    ]


def test_the_page_says_the_same_count() -> None:
    shown = page.replay(json.dumps(START))
    tables = [shown["start"], *(step["table"] for step in shown["steps"])]
    assert [t["out_of_play"] for t in tables] == [43, 43, 43, 46]


def _somewhere(table: dict[str, Any]) -> int:
    """Every card a table shows: in hands, piles, stored, stock, reserve, the trick, the
    sluffs, and out of play."""
    seats = sum(seat["count"] + seat["pile"] + seat["stored"] for seat in table["seats"])
    played = sum(len(t["cards"]) for t in table["trick"] + table["sluffs"])
    return seats + played + table["stock"] + table["reserve"] + table["out_of_play"]


def test_in_phase_two_every_card_is_somewhere() -> None:
    """The whole pack, in a dealt game (the Goat's trump card set aside is out of play
    from the deal) and from a start position alike."""
    session = json.loads(SESSION.read_text(encoding="utf-8"))
    dealt = {
        "format": "skitgubbe-record/1",
        **{k: session[k] for k in ("variant", "options", "players")},
        **session["games"][0],
    }
    for record in (dealt, START):
        shown = page.replay(json.dumps(record))
        tables = [shown["start"], *(step["table"] for step in shown["steps"])]
        second = [t for t in tables if t["phase"] == 2]
        assert second
        assert {_somewhere(t) for t in second} == {52}
