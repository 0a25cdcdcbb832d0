"""The page's samples and sessions over HTTP: what ``adjudicator samples`` and ``check`` give."""

from __future__ import annotations

import json

from click.testing import CliRunner
from fastapi.testclient import TestClient

from adjudicator import samples
from adjudicator.cli import main
from adjudicator.web import app

client = TestClient(app)


def test_the_samples_are_every_shipped_sample() -> None:
    answer = client.get("/api/samples")
    assert answer.status_code == 200
    listed = answer.json()
    assert [s["name"] for s in listed] == [n.removesuffix(".json") for n in samples.names()]
    full = next(s for s in listed if s["name"] == "pagat_3p_full")
    assert full["variant"] == "pagat" and full["players"] == ["Anna", "Bo", "Cai"]
    assert full["title"].startswith("A complete 3-player game") and not full["session"]
    assert next(s for s in listed if s["name"] == "goat_session_3_games")["session"]


def test_a_sample_is_what_the_command_line_prints() -> None:
    printed = CliRunner().invoke(main, ["samples", "pagat_3p_full"]).output
    assert client.get("/api/samples/pagat_3p_full").json() == json.loads(printed)
    missing = client.get("/api/samples/no_such_game")
    assert missing.status_code == 404
    assert missing.json() == {
        "error": "samples: no sample 'no_such_game' ('adjudicator samples' lists them, "
        "as /api/samples does)"
    }


JSON = {"content-type": "application/json"}  # as the page sends a record


def test_a_session_gives_its_check_and_each_game_as_a_record() -> None:
    text = samples.text("goat_session_3_games")
    answer = client.post("/api/session", content=text.encode(), headers=JSON)
    assert answer.status_code == 200
    body = answer.json()
    assert body["check"] == client.post("/api/check", content=text.encode(), headers=JSON).json()
    session = json.loads(text)
    assert len(body["games"]) == len(session["games"])
    for k, game in enumerate(body["games"]):
        assert game["format"] == "skitgubbe-record/1"
        assert game["deck"] == session["games"][k]["deck"]  # as written, not as card numbers
        # each game, replayed alone, gets the session's ruling on it
        verdict = client.post("/api/check", content=json.dumps(game).encode(), headers=JSON).json()
        assert verdict["losers"] == body["check"]["games"][k]["losers"]
    one_game = client.post(
        "/api/session", content=samples.text("pagat_3p_full").encode(), headers=JSON
    )
    assert one_game.status_code == 400
    assert one_game.json()["error"] == "-: one game, not a session ('/api/replay' replays it)"
