"""The table's language (issue 36): the catalogues, choosing a language, rulings in each.

The catalogues are checked against a fresh ``pybabel extract`` of the code, so a string
marked for translation but missing from a catalogue fails here, as does an untranslated
or fuzzy entry and a translation that drops or invents a ``{placeholder}``.
"""

from __future__ import annotations

import json
import re
import string
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from click.testing import CliRunner
from conftest import DISPUTE

from adjudicator import i18n
from adjudicator.cli import main

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "adjudicator" / "locale"
TRANSLATED = [code for code in i18n.LANGUAGES if code != i18n.SOURCE]
DOMAINS = {
    i18n.DOMAIN: LOCALE / "python.cfg",
    i18n.PAGE_DOMAIN: LOCALE / "page.cfg",
}
KEYWORDS: dict[str, dict[str, Any]] = {
    i18n.DOMAIN: {
        "_": None,
        "ngettext": (1, 2),
        "pgettext": ((1, "c"), 2),
        "npgettext": ((1, "c"), 2, 3),
        "N_": None,
    },
    i18n.PAGE_DOMAIN: {"tr": None, "trn": (1, 2)},
}


def _mapping(cfg: Path) -> list[tuple[str, str]]:
    """The (pattern, method) lines of a Babel mapping file, patterns relative to the root."""
    out = []
    for line in cfg.read_text().splitlines():
        found = re.fullmatch(r"\[([\w.]+): (\S+)\]", line.strip())
        if found:
            out.append((found.group(2), found.group(1)))
    return out


def _extracted(domain: str) -> set[str]:
    """Every msgid the code marks for ``domain`` (a plural by its singular)."""
    found = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), _mapping(DOMAINS[domain]), keywords=KEYWORDS[domain], strip_comment_tags=True
    ):
        found.add(message if isinstance(message, str) else message[0])
    return found


def _catalogue(code: str, domain: str) -> Any:
    with (LOCALE / code / "LC_MESSAGES" / f"{domain}.po").open("rb") as stream:
        return read_po(stream, locale=code)


def _fields(text: str) -> set[str]:
    """The ``{placeholders}`` of a message, with their format specs."""
    return {f"{name}:{spec}" for _lit, name, spec, _conv in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("domain", list(DOMAINS))
@pytest.mark.parametrize("code", TRANSLATED)
def test_every_catalogue_is_complete(code: str, domain: str) -> None:
    """Each string the code marks is in the catalogue, translated, and not fuzzy."""
    catalogue = _catalogue(code, domain)
    wanted = _extracted(domain)
    assert len(wanted) > 20
    have = {m.id if isinstance(m.id, str) else m.id[0]: m for m in catalogue if m.id}
    missing = sorted(wanted - set(have))
    assert not missing, f"{code}/{domain}: not in the catalogue (pybabel update): {missing[:5]}"
    for msgid, message in have.items():
        strings = [message.string] if isinstance(message.string, str) else message.string
        assert all(strings), f"{code}/{domain}: untranslated: {msgid!r}"
        assert not message.fuzzy, f"{code}/{domain}: fuzzy: {msgid!r}"
    stale = sorted(set(have) - wanted)
    assert not stale, f"{code}/{domain}: no longer in the code: {stale[:5]}"


@pytest.mark.parametrize("domain", list(DOMAINS))
@pytest.mark.parametrize("code", TRANSLATED)
def test_every_placeholder_is_kept(code: str, domain: str) -> None:
    """A translation has exactly the ``{placeholders}`` of its English (names, cards, counts)."""
    for message in _catalogue(code, domain):
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        # sv, fi and nb count as English does: the first form is the singular's, the
        # others the plural's (click's "is not {choice}" / "is not one of {choices}")
        for form, text in enumerate(strings):
            english = _fields(ids[min(form, len(ids) - 1)])
            assert _fields(text) == english, f"{code}: {ids[0]!r} -> {text!r}"


def test_the_compiler_reads_what_babel_writes() -> None:
    """The run-time ``.po`` reader and ``.mo`` writer agree with Babel's reading of each file."""
    import gettext
    import io

    for code in TRANSLATED:
        for domain in DOMAINS:
            text = (LOCALE / code / "LC_MESSAGES" / f"{domain}.po").read_text("utf-8")
            compiled = gettext.GNUTranslations(io.BytesIO(i18n.compile_po(text)))
            for message in _catalogue(code, domain):
                if not message.id:
                    continue
                context = message.context
                if isinstance(message.id, str):
                    said = (
                        compiled.gettext(message.id)
                        if context is None
                        else compiled.pgettext(context, message.id)
                    )
                    assert said == message.string
                elif context is None:
                    assert compiled.ngettext(*message.id, 1) == message.string[0]
                    assert compiled.ngettext(*message.id, 5) == message.string[1]
                else:
                    one, many = message.id[0], message.id[1]
                    assert compiled.npgettext(context, one, many, 1) == message.string[0]
                    assert compiled.npgettext(context, one, many, 5) == message.string[1]


def test_a_fuzzy_entry_is_not_used() -> None:
    po = """msgid ""
msgstr "Content-Type: text/plain; charset=UTF-8\\n"

#, fuzzy
msgid "legal"
msgstr "guessed"

msgid "illegal"
msgstr "otillåtet"
"""
    import gettext
    import io

    compiled = gettext.GNUTranslations(io.BytesIO(i18n.compile_po(po)))
    assert compiled.gettext("legal") == "legal"
    assert compiled.gettext("illegal") == "otillåtet"


# --- choosing the language -------------------------------------------------------------


@pytest.mark.parametrize(
    ("environ", "code"),
    [
        ({}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "sv_SE.UTF-8"}, "sv"),
        ({"LANG": "sv_SE.UTF-8", "LC_ALL": "fi_FI.UTF-8"}, "fi"),
        ({"LANG": "no_NO.UTF-8"}, "nb"),
        ({"LANG": "nn_NO.UTF-8"}, "nb"),
        ({"LANG": "sv_SE.UTF-8", "ADJUDICATOR_LANG": "nb"}, "nb"),
    ],
)
def test_the_environment_chooses(environ: dict[str, str], code: str) -> None:
    assert i18n.from_environment(environ) == code


def test_an_unknown_language_is_one_line_naming_them_all() -> None:
    with pytest.raises(i18n.UnknownLanguage) as caught:
        i18n.from_environment({"ADJUDICATOR_LANG": "xx"})
    text = str(caught.value)
    assert "\n" not in text and "'xx'" in text
    for code in i18n.LANGUAGES:
        assert code in text


@pytest.mark.parametrize(
    ("header", "code"),
    [
        (None, "en"),
        ("", "en"),
        ("fi", "fi"),
        ("fi-FI,fi;q=0.9,en;q=0.8", "fi"),
        ("de-DE,de;q=0.9,sv;q=0.5", "sv"),
        ("en;q=0.4,nb;q=0.9", "nb"),
        ("de, fr", "en"),
        ("sv;q=0", "en"),
        ("*", "en"),
    ],
)
def test_accept_language_chooses(header: str | None, code: str) -> None:
    assert i18n.from_accept_language(header) == code


# --- the Bar: the README's dispute at the table ----------------------------------------


def _check(*words: str, env: dict[str, str] | None = None) -> Any:
    base = {"ADJUDICATOR_LANG": "", "LANG": "C.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
    return CliRunner().invoke(
        main, ["check", *words, "-"], input=json.dumps(DISPUTE), env={**base, **(env or {})}
    )


def test_english_stays_the_readme() -> None:
    result = _check()
    assert result.exit_code == 1
    assert "rule phase2.beat: 8♣ 9♣ does not beat 7♦ 8♦ 9♦" in result.output


@pytest.mark.parametrize(
    ("code", "words"),
    [
        (
            "sv",
            [
                "otillåtet · helmfrid, 3 spelare",
                "✗ otillåtet drag 3: Cai play 8C 9C",
                "regel phase2.beat: 8♣ 9♣ slår inte 7♦ 8♦ 9♦: det krävs en högre ruter än 9♦ eller "
                "trumf (♠)",
                "tillåtet i stället: Cai play 3S, Cai play QD, Cai pick",
            ],
        ),
        (
            "fi",
            [
                "sääntöjenvastainen · helmfrid, 3 pelaajaa",
                "✗ sääntöjenvastainen siirto 3: Cai play 8C 9C",
                "sääntö phase2.beat: 8♣ 9♣ ei kaada",
                "valtti (♠)",
                "sallittua sen sijaan: Cai play 3S, Cai play QD, Cai pick",
            ],
        ),
        (
            "nb",
            [
                "ulovlig · helmfrid, 3 spillere",
                "✗ ulovlig trekk 3: Cai play 8C 9C",
                "regel phase2.beat: 8♣ 9♣ stikker ikke 7♦ 8♦ 9♦: det trengs en høyere ruter enn 9♦ "
                "eller trumf (♠)",
                "lovlig i stedet: Cai play 3S, Cai play QD, Cai pick",
            ],
        ),
    ],
)
def test_the_ruling_in_each_language(code: str, words: list[str], snapshot: Any) -> None:
    """``check --lang`` says the ruling in the table's language: the rule id, the actions as
    written in the record and the cards as symbols stay as they are."""
    result = _check("--lang", code)
    assert result.exit_code == 1, result.output
    for text in words:
        assert text in result.output
    assert "does not beat" not in result.output and "legal instead" not in result.output
    assert result.output.count("9♦") == 2  # the beat's reason said once (issue 41)
    assert result.output == snapshot


def test_the_environment_speaks_when_no_option_does() -> None:
    assert "otillåtet drag 3" in _check(env={"LANG": "sv_SE.UTF-8"}).output
    assert "sääntöjenvastainen siirto 3" in _check(env={"ADJUDICATOR_LANG": "fi"}).output
    assert "ulovlig trekk 3" in _check("--lang", "nb", env={"ADJUDICATOR_LANG": "fi"}).output
    assert "illegal action 3" in _check(env={"LANG": "de_DE.UTF-8"}).output


@pytest.mark.parametrize("where", [["check", "--lang", "xx"], ["--lang", "xx", "check"]])
def test_an_unknown_language_exits_2_with_one_line(where: list[str]) -> None:
    result = CliRunner().invoke(main, [*where, "-"], input=json.dumps(DISPUTE))
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("--lang: unknown language 'xx'")
    assert "sv (svenska)" in lines[0] and "fi (suomi)" in lines[0]


def test_an_unknown_environment_language_exits_2() -> None:
    result = _check(env={"ADJUDICATOR_LANG": "xx"})
    assert result.exit_code == 2
    assert result.output.strip().startswith("ADJUDICATOR_LANG: unknown language 'xx'")


def test_every_command_takes_lang() -> None:
    """``--lang`` on the group and on every command under it."""
    from click import Group

    def walk(command: Any, path: str) -> None:
        assert any(p.name == "lang" for p in command.params), path
        if isinstance(command, Group):
            for name, sub in command.commands.items():
                walk(sub, f"{path} {name}")

    walk(main, "adjudicator")


def test_json_keeps_english_keys_and_rule_ids() -> None:
    result = _check("--json", "--lang", "fi")
    answer = json.loads(result.output)
    english = json.loads(_check("--json").output)
    assert set(answer) == set(english)
    assert answer["violations"][0]["rule"] == "phase2.beat"
    assert "valtti" in answer["violations"][0]["message"]
    assert answer["violations"][0]["legal"] == english["violations"][0]["legal"]
    assert answer["status"] == "illegal"


PRESET_SAMPLES = {
    "pagat": "illegal_phase1_pick.json",
    "helmfrid": "illegal_deal_cards.json",
    "mattis": "illegal_mattis_all_tied.json",
    "koira": "koira_5p_full.json",
    "atlanta": "illegal_phase1_tie_compulsory.json",
    "goat": "illegal_goat_double_card.json",
    "mas": "illegal_mas_beat.json",
    "melniki": "illegal_melniki_follow.json",
    "myllymatti": "myllymatti_3p_full.json",
}
"""One sample of every preset: a ruling where the preset has an illegal sample, else the
verdict on a whole game."""


def test_every_preset_has_its_sample() -> None:
    from adjudicator.rules.presets import PRESETS

    assert set(PRESET_SAMPLES) == set(PRESETS)
    for variant, name in PRESET_SAMPLES.items():
        record = json.loads((ROOT / "adjudicator" / "sample_games" / name).read_text("utf-8"))
        assert record["variant"] == variant, name


@pytest.mark.parametrize("code", TRANSLATED)
@pytest.mark.parametrize("variant", list(PRESET_SAMPLES))
def test_a_sample_of_every_preset_in_each_language(variant: str, code: str, snapshot: Any) -> None:
    """The verdict (and the ruling) differs from the English, keeps the rule id and the
    actions as written; the snapshots were read by eye."""
    text = (ROOT / "adjudicator" / "sample_games" / PRESET_SAMPLES[variant]).read_text("utf-8")
    env = {"ADJUDICATOR_LANG": "", "LANG": "C.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
    english = CliRunner().invoke(main, ["check", "-"], input=text, env=env)
    said = CliRunner().invoke(main, ["check", "--lang", code, "-"], input=text, env=env)
    assert said.exit_code == english.exit_code
    assert said.output != english.output
    verdict = json.loads(CliRunner().invoke(main, ["check", "--json", "-"], input=text).output)
    rules = re.findall(r"rule ([a-z0-9_.]+):", english.output)
    actions = re.findall(r"^✗ [^:]*: (.+)$", english.output, re.MULTILINE)  # the illegal one
    actions += re.findall(r": ([A-Z][a-z]+ [a-z_]+(?: [0-9TJQKA?][SHDC?])*)\n", english.output)
    if verdict["status"] == "illegal":  # the loops below must run: a ruling names both
        assert rules == [verdict["violations"][0]["rule"]] and actions, english.output
    else:  # a whole game: its loser, named in the language's sentence
        assert verdict["status"] == "legal" and not rules and verdict["loser"]
        assert verdict["loser"] in said.output
    for rule in rules:
        assert rule in said.output
    for action in actions:
        assert action in said.output
    assert said.output == snapshot


# --- the command line's help and click's own words -----------------------------------------

QUIET = {"ADJUDICATOR_LANG": "", "LANG": "C.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}


def _run(*words: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(
        main, list(words), env={**QUIET, **(env or {})}, prog_name="adjudicator"
    )


CHECK_HELP = {
    "sv": ["Användning: adjudicator check", "Kontrollera varje drag i varje protokoll", "Flaggor:"],
    "fi": ["Käyttö: adjudicator check", "Tarkista jokaisen pöytäkirjan jokainen siirto"],
    "nb": ["Bruk: adjudicator check", "Kontroller hvert trekk i hver protokoll", "Valg:"],
}


@pytest.mark.parametrize(
    ("words", "env", "code"),
    [
        (["check", "--help", "--lang", "sv"], {}, "sv"),  # --lang after --help
        (["check", "--lang", "sv", "--help"], {}, "sv"),
        (["--lang", "sv", "check", "--help"], {}, "sv"),
        (["check", "--help"], {"ADJUDICATOR_LANG": "sv"}, "sv"),
        (["check", "--help"], {"LANG": "sv_SE.UTF-8"}, "sv"),
        (["--lang", "fi", "check", "--help"], {}, "fi"),
        (["check", "--help", "--lang=nb"], {"ADJUDICATOR_LANG": "fi"}, "nb"),
    ],
)
def test_check_help_in_the_language_asked(words: list[str], env: dict[str, str], code: str) -> None:
    """``--help`` speaks the language whichever way it is chosen, ``--lang`` before or after
    it; option names, metavars and choices stay as they are typed."""
    result = _run(*words, env=env)
    assert result.exit_code == 0, result.output
    for text in CHECK_HELP[code]:
        assert text in result.output
    for name in ("--json", "--jobs", "--write-illegal OUT.jsonl", "[taken-back|stands]", "--lang"):
        assert name in result.output
    assert "Show this message and exit." not in result.output
    assert "Check every action" not in result.output


def test_english_help_is_as_written() -> None:
    result = _run("check", "--help")
    assert result.output.startswith("Usage: adjudicator check [OPTIONS] PATH...\n")
    assert "Check every action of each record" in result.output
    assert "-h, --help                   Show this message and exit." in result.output
    # a run in another language before leaves nothing behind (click keeps --help's option)
    _run("check", "--help", "--lang", "fi")
    assert _run("check", "--help").output == result.output


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_commands_help_is_translated(code: str) -> None:
    """Every command's help text and each of its options' in the language (none English)."""
    from click import Group

    from adjudicator.cli.group import Helped

    def walk(command: Any, path: list[str]) -> None:
        assert isinstance(command, Helped), path  # a command made without cls=Helped
        english = _run(*path, "--help")
        said = _run(*path, "--help", "--lang", code)
        assert said.exit_code == english.exit_code == 0, said.output
        with i18n.speaking(i18n.SOURCE):
            first = (command.help or "").strip().splitlines()[0]
        assert first[:40] not in said.output, (path, code)
        for param in command.params:
            text = getattr(param, "help", None)
            if text and param.name != "lang":
                assert " ".join(text.split()[:5]) not in " ".join(said.output.split()), (
                    path,
                    param.name,
                )
        if isinstance(command, Group):
            for name, sub in command.commands.items():
                walk(sub, [*path, name])

    walk(main, [])


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (["check", "--lang", "sv", "--jbos", "2", "x"], "Flaggan '--jbos' finns inte."),
        (["--lang", "sv", "chek"], "Kommandot 'chek' finns inte."),
        (["legal", "--go-on", "x", "--lang", "fi", "y"], "Virheellinen arvo kohdassa '--go-on'"),
        (["check", "--go-on", "x", "--lang", "nb", "y"], "er ikke noen av 'taken-back', 'stands'"),
    ],
)
def test_a_usage_error_in_the_language(words: list[str], said: str) -> None:
    """click's own words in a usage error, said in the language even when ``--lang`` comes
    after the mistake; still one line, naming the help to read."""
    result = _run(*words)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and said in lines[0], lines
    assert "--help'" in lines[0] and "(see " not in lines[0]


def test_english_usage_error_is_as_it_was() -> None:
    # (not '--nope': click now says "Did you mean '--names'?", check --from's option)
    result = _run("check", "--xyzzy", "x")
    assert result.output == (
        "adjudicator check: No such option '--xyzzy' (see 'adjudicator check --help')\n"
    )


def test_click_words_are_clicks() -> None:
    """Each of click's words the catalogue translates is one click says (click reworded
    one: its translation would never be used)."""
    import click
    from babel.messages.extract import extract_from_dir

    from adjudicator.cli import lang

    said = {
        m if isinstance(m, str) else m[0]
        for _f, _l, m, _c, _x in extract_from_dir(
            str(Path(click.__file__).parent),
            [("**.py", "python")],
            keywords={"_": None, "ngettext": (1, 2)},
        )
    }
    ours = lang.click_words()
    assert len(ours) > 20
    # "required" reaches click's _() through a variable: its literal is in click's source
    source = "".join(p.read_text("utf-8") for p in Path(click.__file__).parent.glob("*.py"))
    missing = [word for word in ours if word not in said and f'"{word}"' not in source]
    assert not missing, missing


# --- the loser, by the game's own word (docs/glossary.md) ----------------------------------


@pytest.mark.parametrize(
    ("sample", "code", "said", "elsewhere"),
    [
        (
            "helmfrid_3p_full.json",
            "sv",
            "färdigspelat, skitgubbe: ",
            {"fi": "hävisi", "nb": "taper"},
        ),
        ("koira_5p_full.json", "fi", "päättynyt, koira: ", {"sv": "förlorare", "nb": "taper"}),
        (
            "atlanta_3p_full.json",
            "nb",
            "ferdigspilt, mattis: ",
            {"sv": "förlorare", "fi": "hävisi"},
        ),
    ],
)
def test_the_loser_is_named_by_the_games_word(
    sample: str, code: str, said: str, elsewhere: dict[str, str]
) -> None:
    """Skitgubbe's loser is the skitgubbe at a Swedish table, Koira's the koira at a Finnish
    one, Mattis's the mattis at a Norwegian one; other tables say their word for the loser,
    and English stays "loser"."""
    text = (ROOT / "adjudicator" / "sample_games" / sample).read_text("utf-8")

    def verdict(*lang: str) -> str:
        result = CliRunner().invoke(main, ["check", *lang, "-"], input=text, env=QUIET)
        assert result.exit_code == 0, result.output
        return str(result.output.splitlines()[0])

    assert said in verdict("--lang", code)
    for other, word in elsewhere.items():
        assert word in verdict("--lang", other) and said not in verdict("--lang", other)
    assert ", loser " in verdict()


@pytest.mark.parametrize(
    ("code", "said"),
    [
        ("en", "Cai tries to beat 7♦ 8♦ 9♦ with 8♣ 9♣"),
        ("sv", "Cai försöker slå 7♦ 8♦ 9♦ med 8♣ 9♣"),
        ("fi", "Cai yrittää kaataa pelatun 7♦ 8♦ 9♦ kortilla 8♣ 9♣"),
        ("nb", "Cai prøver å stikke 7♦ 8♦ 9♦ med 8♣ 9♣"),
    ],
)
def test_a_refused_play_reads_as_an_attempt_in_each_language(code: str, said: str) -> None:
    """Not the action as written ("Cai försöker: Cai play 8C 9C"), found by a stranger:
    the act said as tried, in the language's own sentence."""
    result = CliRunner().invoke(
        main, ["replay", "--lang", code, "--step", "3", "-"], input=json.dumps(DISPUTE)
    )
    assert result.exit_code == 1, result.output
    assert result.output.splitlines()[0] == f"[3] {said}"
    from adjudicator.service import page

    with i18n.speaking(code):
        steps = page.replay(json.dumps(DISPUTE), None)["steps"]
    assert steps[-1]["words"] == said  # the page says it as the command line does


def test_every_presets_word_for_its_loser_has_its_lines() -> None:
    """The word is the presets' data (docs/glossary.md); each one is said in every language."""
    from adjudicator.render import terminal
    from adjudicator.rules.presets import PRESETS

    words = {p.loser_word for p in PRESETS.values()} - {None}
    assert words == {"skitgubbe", "koira", "mattis"}
    assert words <= terminal._LOSER_LINES.keys()


@pytest.mark.parametrize(("code", "head"), [("en", "Game 1"), ("sv", "Parti 1"), ("fi", "Peli 1")])
def test_a_sessions_games_are_headed_in_the_language(code: str, head: str) -> None:
    sample = Path(__file__).parents[2] / "sample_games" / "goat_session_3_games.json"
    result = CliRunner().invoke(main, ["replay", "--lang", code, str(sample)])
    assert result.output.splitlines()[0] == head
