"""Bad input in the table's language (issue 36): the one line for an invalid record, the
rest of a ruling's words, the ``legal`` listing, numbers and an unknown language.

The place (a JSON path, a field name) and the value as written stay as they are; the
sentence around them is the language's.  English is pinned elsewhere
(tests/cli/test_bad_input.py, tests/values/test_invalid.py and the conformance vectors);
here it is the yardstick the others differ from.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import DISPUTE
from fastapi.testclient import TestClient

from adjudicator import i18n
from adjudicator.cli import main
from adjudicator.web import app

CLEAN = {"ADJUDICATOR_LANG": "", "LANG": "C.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
TRANSLATED = ["sv", "fi", "nb"]


def _record(**changes: Any) -> dict[str, Any]:
    record = copy.deepcopy(DISPUTE)
    for name, value in changes.items():
        if value is None:
            del record[name]
        else:
            record[name] = value
    return record


BAD_CARD = _record(actions=["Anna play 6D", "Bo play 7D ZZ"])
MISSING = _record(actions=None)
NO_SUCH_PLAYER = _record(actions=["Anna play 6D", "Dan play 7D"])

CASES = {
    "bad card": (BAD_CARD, "actions[1].cards[1]: 'ZZ' ", "'ZZ' is not a card"),
    "missing field": (MISSING, "actions: ", "actions: is required"),
    "unknown player": (NO_SUCH_PLAYER, "actions[1].player: 'Dan' ", "is not one of the players"),
}
"""A record, the place and value as written (kept in every language), and the English."""

SAID = {
    ("bad card", "sv"): "'ZZ' är inget kort",
    ("bad card", "fi"): "'ZZ' ei ole kortti",
    ("bad card", "nb"): "'ZZ' er ikke et kort",
    ("missing field", "sv"): "actions: krävs",
    ("missing field", "fi"): "actions: on pakollinen",
    ("missing field", "nb"): "actions: er påkrevd",
    ("unknown player", "sv"): "'Dan' är inte en av spelarna",
    ("unknown player", "fi"): "'Dan' ei ole pelaajien joukossa",
    ("unknown player", "nb"): "'Dan' er ikke en av spillerne",
}


def _check(record: dict[str, Any], *words: str) -> Any:
    return CliRunner().invoke(main, ["check", *words, "-"], input=json.dumps(record), env=CLEAN)


@pytest.mark.parametrize("code", TRANSLATED)
@pytest.mark.parametrize("case", list(CASES))
def test_an_invalid_record_is_one_line_in_the_language(case: str, code: str) -> None:
    record, place, english_words = CASES[case]
    english = _check(record)
    said = _check(record, "--lang", code)
    assert english.exit_code == said.exit_code == 2
    assert english_words in english.output
    lines = said.output.strip().splitlines()
    assert len(lines) == 1, said.output
    assert place in lines[0]  # the place and the value as written
    assert SAID[case, code] in lines[0]
    assert english_words not in lines[0]
    assert "Input should" not in lines[0] and "Field required" not in lines[0]  # never pydantic


@pytest.mark.parametrize("code", TRANSLATED)
def test_json_keeps_its_keys_and_carries_the_translated_error(code: str) -> None:
    english = json.loads(_check(BAD_CARD, "--json").output)
    said = json.loads(_check(BAD_CARD, "--json", "--lang", code).output)
    assert set(said) == set(english) and said["status"] == "invalid"
    assert said["error"] == "actions[1].cards[1]: " + SAID["bad card", code]


def test_the_api_answers_an_invalid_record_in_the_accept_language() -> None:
    client = TestClient(app)
    for case, (record, place, _english) in CASES.items():
        answer = client.post("/api/check", json=record, headers={"Accept-Language": "nb"})
        assert answer.status_code in (400, 422)
        assert answer.headers["content-language"] == "nb"
        error = answer.json()["error"]
        assert "\n" not in error and place in error
        assert SAID[case, "nb"] in error


@pytest.mark.parametrize("code", TRANSLATED)
def test_invalid_records_in_each_language(code: str, snapshot: Any) -> None:
    """Read by eye before accepted: the three records above, and a player name written to
    look like another (a Cyrillic А), each its one line."""
    lookalike = _record(players=["Anna", "Bo", "Cai", "\u0410nna"])
    lines = []
    for record in (*(case[0] for case in CASES.values()), lookalike):
        said = _check(record, "--lang", code)
        assert said.exit_code == 2 and said.output.count("\n") == 1
        lines.append(said.output)
    assert "players[3]" in lines[-1] and "U+0410" in lines[-1]
    assert "".join(lines) == snapshot


# --- the rest of a ruling ----------------------------------------------------------------


def _session(scores: dict[str, int]) -> dict[str, Any]:
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "sample_games" / "goat_session_3_games.json"
    session: dict[str, Any] = json.loads(path.read_text("utf-8"))
    session["result"] = {"scores": scores}
    return session


LEGAL = ["Anna play 6D", "Bo play 7D 8D 9D", "Cai play 3S"]


def test_a_wrong_claim_is_said_in_the_language() -> None:
    claim = _record(actions=LEGAL, result={"loser": "Anna"})
    english = _check(claim)
    assert "The record claims Anna lost, but the game is not over" in english.output
    assert "Protokollet påstår att Anna förlorade, men partiet är inte slut" in (
        _check(claim, "--lang", "sv").output
    )
    assert "Pöytäkirjan mukaan Anna hävisi, mutta peli ei ole päättynyt" in (
        _check(claim, "--lang", "fi").output
    )
    both = _check(_record(actions=LEGAL, result={"losers": ["Anna", "Bo"]}), "--lang", "nb")
    assert "Protokollen sier at Anna og Bo alle tapte, men partiet er ikke over" in both.output


def test_a_wrong_scores_claim_is_said_in_the_language() -> None:
    session = _session({"Anna": 99})
    english = CliRunner().invoke(main, ["check", "-"], input=json.dumps(session), env=CLEAN)
    assert "session.scores" in english.output, "the scores rule no longer fires on the sample"
    assert "The scores claimed are wrong: Anna 99 (the rules give" in english.output
    said = CliRunner().invoke(
        main, ["check", "--lang", "sv", "-"], input=json.dumps(session), env=CLEAN
    )
    assert "De påstådda poängen är fel: Anna 99 (reglerna ger" in said.output
    assert "claimed are wrong" not in said.output


def test_taken_back_though_legal_is_said_in_the_language() -> None:
    record = _record(actions=["Anna play 6D -- taken back", "Anna play 6D"])
    english = json.loads(_check(record, "--json").output)
    said = json.loads(_check(record, "--json", "--lang", "fi").output)
    notes = [n for n in english["taken_back"] if n["rule"] == "table.taken_back"]
    assert notes and notes[0]["message"] == "Taken back, though legal"
    mine = [n for n in said["taken_back"] if n["rule"] == "table.taken_back"]
    assert mine[0]["message"] == "Peruttu, vaikka se oli sallittu"


@pytest.mark.parametrize(
    ("code", "why"),
    [
        ("sv", "Draget kan inte stå kvar som det spelades: Cai har inte A♠; uppspelningen"),
        ("fi", "Se ei voi jäädä voimaan pelattuna: pelaajalla Cai ei ole korttia A♠; toisto"),
        ("nb", "Trekket kan ikke bli stående som spilt: Cai har ikke A♠; avspillingen"),
    ],
)
def test_why_an_irregularity_cannot_stand_is_said_in_the_language(code: str, why: str) -> None:
    record = _record(actions=["Anna play 6D", "Bo play 7D 8D 9D", "Cai play AS -- stands"])
    english = _check(record)
    assert "It cannot stand as played: Cai does not hold A♠; the replay stops here" in (
        english.output
    )
    said = _check(record, "--lang", code)
    assert why in said.output and "cannot stand" not in said.output


@pytest.mark.parametrize(
    ("code", "none"),
    [
        ("sv", "tillåtet i stället: inget, Eva fick inte lägga något där"),
        ("fi", "sallittua sen sijaan: ei mitään, Eva ei saanut lyödä siinä mitään"),
        ("nb", "lovlig i stedet: ingenting, Eva fikk ikke spille noe der"),
    ],
)
def test_nothing_legal_instead_names_the_act_in_the_language(code: str, none: str) -> None:
    """English says "had no legal play there"; a translation says the same in its own
    words, not the English act in parentheses."""
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "sample_games" / "illegal_mattis_all_tied.json"
    text = path.read_text("utf-8")
    english = CliRunner().invoke(main, ["check", "-"], input=text, env=CLEAN)
    assert "legal instead: none, Eva had no legal play there" in english.output
    said = CliRunner().invoke(main, ["check", "--lang", code, "-"], input=text, env=CLEAN)
    assert none in said.output
    assert "(play)" not in said.output


NEEDS_TRUMP = {
    "low_cards_six_of_trumps": (
        True,
        "the six of trumps is a low card",
        {
            "sv": "trumfsexan är ett lågt kort",
            "fi": "valttikuutonen on pieni kortti",
            "nb": "trumfseksen er et lavt kort",
        },
    ),
    "anti_trump": (
        "same_colour",
        "anti-trumps",
        {"sv": "antitrumf", "fi": "antivaltit", "nb": "antitrumf"},
    ),
    "high_trump": (
        "kill_only",
        "the high trump",
        {"sv": "den högsta trumfen", "fi": "suurin valtti", "nb": "den høyeste trumfen"},
    ),
    "trump_ends_trick": (
        True,
        "a trump ends the trick",
        {
            "sv": "en trumf avslutar sticket",
            "fi": "valtti päättää tikin",
            "nb": "en trumf avslutter stikket",
        },
    ),
}
"""Each option that needs the trump suit between the phases: its value that does, the rule
as English names it in the stop's sentence, and as each translation does."""


@pytest.mark.parametrize("option", list(NEEDS_TRUMP))
def test_the_rule_that_needs_an_unknown_trump_is_named_in_the_language(option: str) -> None:
    """The Goat with its trump card unseen: phase one ends without a trump suit, and the
    stop names the rule that needs one in the sentence's language (it was English)."""
    from pathlib import Path

    from adjudicator.play.adjudicate import adjudicate, document_from_text

    path = Path(__file__).resolve().parents[2] / "sample_games" / "goat_3p_full.json"
    record = json.loads(path.read_text("utf-8"))
    deck = record["deck"].split()
    deck[0] = "??"  # the trump card, set aside face down before the deal
    record["deck"] = " ".join(deck)
    value, english, said = NEEDS_TRUMP[option]
    off = {"low_cards_six_of_trumps": False, "anti_trump": "none", "high_trump": "none"}
    record["options"] = {**off, "trump_ends_trick": False, option: value}
    text = json.dumps(record)
    for code in ["en", *TRANSLATED]:
        with i18n.speaking(code):
            stop = adjudicate(document_from_text(text)).undetermined[-1]
        assert stop.rule == "game.stopped"
        named = english if code == "en" else said[code]
        assert stop.message.endswith(f"({named})"), (code, stop.message)


def test_legal_says_its_head_in_finnish() -> None:
    record = json.dumps(DISPUTE)
    english = CliRunner().invoke(main, ["legal", "--at", "3", "-"], input=record, env=CLEAN)
    assert "before action 3 (2 of 3 actions applied)" in english.output
    assert "Legal actions (3), Cai to act:" in english.output
    said = CliRunner().invoke(
        main, ["legal", "--lang", "fi", "--at", "3", "-"], input=record, env=CLEAN
    )
    assert said.exit_code == 0, said.output
    assert "ennen siirtoa 3 (2/3 siirtoa tehty)" in said.output
    assert "Sallitut siirrot (3), vuorossa Cai:" in said.output
    assert "Legal actions" not in said.output and "before action" not in said.output
    beyond = CliRunner().invoke(main, ["legal", "--lang", "sv", "-"], input=record, env=CLEAN)
    assert beyond.exit_code == 1
    assert beyond.output.startswith(
        "-: drag 3 är otillåtet, så partiet kom aldrig förbi det; spara protokollet som "
        "FILE: 'adjudicator legal FILE --at 3' visar vad som var tillåtet där"
    ), beyond.output


# --- numbers ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "written"),
    [
        ("en", "1,234,567"),
        ("sv", "1\u00a0234\u00a0567"),
        ("fi", "1\u00a0234\u00a0567"),
        ("nb", "1\u00a0234\u00a0567"),
    ],
)
def test_a_number_is_written_as_the_language_writes_it(code: str, written: str) -> None:
    with i18n.speaking(code):
        assert i18n.number(1234567) == written
        assert i18n.number(999) == "999"
        assert i18n.number(-1000) == "-" + written[0] + written[1] + "000"


def test_the_bulk_summary_counts_in_the_language() -> None:
    """The closing table of a bulk check: English writes 1234 as it always has, the
    others group their thousands."""
    from collections import Counter

    from rich.console import Console

    from adjudicator.bulk import Tally
    from adjudicator.cli.commands import _summary

    tally = Tally(Counter({"legal": 1234, "illegal": 5, "invalid": 1}), Counter({"turn.order": 5}))

    def shown(code: str) -> tuple[str, str]:
        console = Console(width=100, record=True, color_system=None)
        with i18n.speaking(code):
            table = _summary(tally, 2)
            console.print(table)
        return str(table.title), console.export_text()

    title, english = shown("en")
    assert title == "Checked 1240 records; 2 paths held none" and "1234" in english
    title, swedish = shown("sv")
    assert title == "Kontrollerade 1\u00a0240 protokoll; 2 sökvägar innehöll inget"
    assert "1\u00a0234" in swedish and "vanligaste regel-id" in swedish
    assert shown("fi")[0].startswith("Tarkistettiin 1\u00a0240 pöytäkirjaa")
    with i18n.speaking("en"):
        assert i18n.number(1234, grouped_in_english=False) == "1234"
    with i18n.speaking("nb"):
        assert i18n.number(1234, grouped_in_english=False) == "1\u00a0234"


def test_a_count_in_a_ruling_follows_the_language() -> None:
    """A play of 1,200 cards is cut in the ruling: "… (3,608 characters)" in English,
    "(3 608 tecken)" with a no-break space in Swedish."""
    record = _record(actions=["Anna play 6D", "Bo play 7D 8D 9D", "Cai play " + "8C " * 1200])
    english = _check(record)
    assert "(3,608 characters)" in english.output
    assert "(3\u00a0608 tecken)" in _check(record, "--lang", "sv").output
    assert "(3\u00a0608 merkkiä)" in _check(record, "--lang", "fi").output


# --- an unknown language ------------------------------------------------------------------


def test_an_unknown_language_names_the_aliases_too() -> None:
    cli = CliRunner().invoke(main, ["check", "--lang", "xx", "-"], input="{}", env=CLEAN)
    env = CliRunner().invoke(
        main, ["check", "-"], input="{}", env={**CLEAN, "ADJUDICATOR_LANG": "xx"}
    )
    api = TestClient(app).post("/api/check?lang=xx", json=DISPUTE)
    assert cli.exit_code == env.exit_code == 2 and api.status_code == 400
    for line in (cli.output.strip(), env.output.strip(), api.json()["error"]):
        assert "\n" not in line and "unknown language 'xx'" in line
        assert "sv (svenska)" in line and "nb (norsk bokmål)" in line
        assert "no, nn or nob for nb" in line and "se or swe for sv" in line
    assert cli.output.startswith("--lang: ") and env.output.startswith("ADJUDICATOR_LANG: ")
    assert api.json()["error"].startswith("lang: ")


@pytest.mark.parametrize("alias", ["no", "NB", "nn", "nb-NO", "SE", "fin"])
def test_the_aliases_are_accepted(alias: str) -> None:
    said = _check(BAD_CARD, "--lang", alias)
    assert said.exit_code == 2 and "unknown language" not in said.output


def test_a_value_out_of_a_list_is_said_with_the_languages_or() -> None:
    """pydantic's list of allowed values keeps the values as written; its English "or"
    becomes the language's."""
    action = {"player": "Cai", "act": "play", "cards": ["3S"], "table": "maybe"}
    record = _record(actions=["Anna play 6D", "Bo play 7D 8D 9D", action])
    english = _check(record)
    assert "actions[2].table: must be 'taken back' or 'stands', not 'maybe'" in english.output
    said = _check(record, "--lang", "fi")
    assert "actions[2].table: on oltava 'taken back' tai 'stands', ei 'maybe'" in said.output
