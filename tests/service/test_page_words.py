"""The words the Python builds for the page and the HTML export are in the page's language,
cards in the page's symbols (a stranger's Swedish page at 390 px, issue 40): the table's head
says where the trump card lies as ``replay`` and ``legal`` say it, once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from adjudicator.cli import main
from adjudicator.i18n import speaking
from adjudicator.service import page
from adjudicator.web import app

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
client = TestClient(app)


def _indicators(name: str, lang: str) -> set[str]:
    answer = client.post(
        f"/api/replay?lang={lang}",
        content=(SAMPLES / name).read_bytes(),
        headers={"content-type": "application/json"},
    )
    assert answer.status_code == 200, answer.text
    return {s["table"]["indicator"] for s in answer.json()["steps"]} - {None}


@pytest.mark.parametrize(
    ("name", "lang", "said"),
    [
        ("goat_3p_full.json", "sv", "trumfkortet lagt åt sidan med baksidan upp"),
        ("goat_3p_full.json", "en", "trump card set aside face down"),
        ("mas_3p_full.json", "sv", "uppvänd trumf 2♠"),
        ("mas_3p_full.json", "en", "turned-up trump 2♠"),
        ("atlanta_receiver_shuffles.json", "fi", "valttikortti kuvapuoli alaspäin pelaajalla Cai"),
    ],
)
def test_where_the_trump_card_lies_in_the_pages_language(name: str, lang: str, said: str) -> None:
    found = _indicators(name, lang)
    assert any(said in s for s in found), found


def test_the_terminal_and_the_page_say_the_trump_card_alike() -> None:
    """One phrase: what ``replay --lang sv`` prints in its table head is the page's."""
    result = CliRunner().invoke(
        main,
        ["replay", "--lang", "sv", str(SAMPLES / "goat_3p_full.json")],
        env={"ADJUDICATOR_LANG": "", "COLUMNS": "200"},
    )
    (said,) = _indicators("goat_3p_full.json", "sv")
    assert f"· {said}" in result.output


def test_a_deal_the_table_waits_for_is_said_in_the_pages_language() -> None:
    text = (SAMPLES / "helmfrid_3p_full.json").read_text(encoding="utf-8")
    with speaking("sv"):
        steps = page.replay(text)["steps"]
    dealt = {s["table"]["deal"]["what"] for s in steps if s["table"]["deal"]}
    assert dealt == {"de låga korten"}


def test_the_html_export_in_swedish_has_no_english_trump_words(tmp_path: Path) -> None:
    target = tmp_path / "goat.html"
    result = CliRunner().invoke(
        main,
        ["replay", "--lang", "sv", "--html", str(target), str(SAMPLES / "goat_3p_full.json")],
        env={"ADJUDICATOR_LANG": ""},
    )
    assert result.exit_code == 0, result.output
    html = target.read_text(encoding="utf-8")
    assert "trump card set aside" not in html and "face down" not in html
    assert (
        json.dumps("trumfkortet lagt åt sidan med baksidan upp", ensure_ascii=False)[1:-1] in html
    )


def test_the_samples_titles_are_in_the_pages_language() -> None:
    """The Samples list (``/api/samples``) and ``adjudicator samples`` say each title in
    the language asked: the titles are the project's words, in the catalogues."""
    english = {s["name"]: s["title"] for s in client.get("/api/samples?lang=en").json()}
    swedish = {s["name"]: s["title"] for s in client.get("/api/samples?lang=sv").json()}
    assert english["helmfrid_dispute_known"] == (
        "A table dispute, hand shown: Bo held a king and did not tie"
    )
    assert swedish["helmfrid_dispute_known"] == (
        "En tvist vid bordet, handen visad: Bo hade en kung och lade inte lika"
    )
    assert all(swedish[name] != title for name, title in english.items()), [
        name for name, title in english.items() if swedish[name] == title
    ]
    listed = CliRunner().invoke(
        main, ["--lang", "fi", "samples"], env={"ADJUDICATOR_LANG": "", "COLUMNS": "300"}
    )
    assert "Sama riita, kättä ei näytetty" in listed.output, listed.output[:300]


def test_the_apis_own_errors_are_in_the_language_asked() -> None:
    """What the service says for an unknown sample, topic or page: in Swedish when asked,
    the English as before otherwise."""
    missing = client.get("/api/samples/no_such_game?lang=sv")
    assert missing.status_code == 404
    assert missing.json()["error"] == (
        "samples: inget exempel 'no_such_game' ('adjudicator samples' listar dem, liksom "
        "/api/samples)"
    )
    topic = client.get("/api/explain/phase2.beet?lang=sv").json()["error"]
    assert topic.startswith("explain: 'phase2.beet' är varken ett regel-id"), topic
    result = CliRunner().invoke(
        main, ["--lang", "fi", "explain", "phase2.beet"], env={"ADJUDICATOR_LANG": ""}
    )
    assert "tarkoititko phase2.beat" in result.output, result.output
    english = CliRunner().invoke(main, ["explain", "phase2.beet"], env={"ADJUDICATOR_LANG": ""})
    assert "is neither a rule id nor a rule option; did you mean phase2.beat or" in english.output


def test_legal_names_a_sessions_last_game_as_legal_json_does() -> None:
    """``/api/legal`` on a session: its last game named as ``legal --json`` names it, counted
    from 1 and the same in every language (a key a program reads, not a sentence)."""
    session = (SAMPLES / "goat_session_3_games.json").read_text(encoding="utf-8")
    with speaking("sv"):
        said = page.legal_at(session)
    assert said["file"] == "- game 3", said["file"]
