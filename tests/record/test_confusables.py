"""Player names that look the same, and names that show nothing (issue 39).

``Anna`` beside ``Anna`` + U+FE0F (or another variation selector, a grapheme joiner, a
Hangul filler) rendered alike and was accepted; so was all-fullwidth ``Ａｎｎａ`` (though
``Ａnna`` was refused), and a name made only of U+3164 or U+2800.  Names are compared
after NFKC folding without default-ignorable code points, then by their confusables
skeleton; a name with no visible character is refused.  Last, the skeleton itself and the
table it is read from (issue 35).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import DISPUTE

from adjudicator.cli import main
from adjudicator.invalid import RecordError
from adjudicator.record import load
from adjudicator.record.confusables import (
    _ASCII_CONFUSABLE,
    TABLE_FILE,
    _prototypes,
    _read,
    derive,
    folded,
    looks,
    skeleton,
    visible,
)


def with_third(name: str) -> dict[str, Any]:
    """README's dispute with Cai called ``name``."""
    text = json.dumps(DISPUTE).replace('"Cai"', json.dumps(name))
    record: dict[str, Any] = json.loads(text)
    record["actions"] = [a.replace("Cai", name) for a in DISPUTE["actions"]]
    return record


def with_names(first: str, third: str) -> dict[str, Any]:
    """README's dispute with Anna called ``first`` and Cai ``third``."""
    record = with_third("Zed")
    text = json.dumps(record).replace('"Anna"', json.dumps(first))
    text = text.replace('"Zed"', json.dumps(third))
    named: dict[str, Any] = json.loads(text)
    named["actions"] = [a.replace("Anna", first).replace("Zed", third) for a in record["actions"]]
    return named


LOOK_ALIKES = [
    "Anna\ufe0f",  # VARIATION SELECTOR-16
    "Anna\ufe00",  # VARIATION SELECTOR-1
    "Anna\U000e0100",  # VARIATION SELECTOR-17
    "An\u034fna",  # COMBINING GRAPHEME JOINER
    "Anna\u180b",  # MONGOLIAN FREE VARIATION SELECTOR ONE
    "Anna\u1160",  # HANGUL JUNGSEONG FILLER
    "\uff21\uff4e\uff4e\uff41",  # all fullwidth
    "\uff21nna",  # one fullwidth letter (refused before too)
    "\u0410nna",  # a Cyrillic A (refused before too)
]


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_a_name_that_looks_like_anna_beside_anna_is_refused(name: str) -> None:
    with pytest.raises(RecordError) as caught:
        load(with_third(name))
    message = str(caught.value)
    assert message.startswith("players[2]: ")
    assert "looks like 'Anna' (players[0])" in message
    assert "(with U+" in message  # the character that differs, named


@pytest.mark.parametrize("name", ["Anna\ufe0f", "\uff21\uff4e\uff4e\uff41"])
def test_the_look_alike_first_is_refused_too(name: str) -> None:
    with pytest.raises(RecordError, match=r"players\[2\]: 'Anna'.* looks like"):
        load(with_names(name, "Anna"))


BLANKS = ["\u3164", "\u2800", "\u2800\u2800\u2800", "\uffa0", "\u115f", "\u115f\u1160", "\u0301"]


@pytest.mark.parametrize("name", BLANKS)
def test_a_name_that_shows_nothing_is_refused(name: str) -> None:
    with pytest.raises(RecordError) as caught:
        load(with_third(name))
    assert str(caught.value).startswith("players[2]: ")
    assert "is not a player name: it shows nothing" in str(caught.value)


@pytest.mark.parametrize("name", ["Åsa", "Bo\u0301", "Ilkka", "✓", "\u5c0f\u660e", "Ｋim"])
def test_names_that_show_something_different_are_kept(name: str) -> None:
    assert load(with_third(name)).players[2] == name


def test_folding_and_looks() -> None:
    assert folded("\uff21\uff4e\uff4e\uff41") == "Anna"
    assert folded("Anna\ufe0f") == "Anna" and folded("Anna") == "Anna"
    assert looks("Anna\U000e0100") == looks("Anna")
    assert looks("Anna") != looks("Anne")
    assert not visible("\u3164\u2800\ufe0f") and visible("Bo")


def test_the_command_line_says_it_in_one_line(tmp_path: Any) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(with_third("Anna\ufe0f")), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 2
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1 and "looks like 'Anna' (players[0])" in lines[0]
    result = CliRunner().invoke(main, ["--lang", "sv", "check", str(path)])
    assert "ser ut som 'Anna' (players[0])" in result.stdout
    path.write_text(json.dumps(with_third("\u3164")), encoding="utf-8")
    result = CliRunner().invoke(main, ["--lang", "nb", "check", str(path)])
    assert result.exit_code == 2 and "viser ingenting" in result.stdout


def test_the_phones_wheel_carries_the_look_alike_table(tmp_path: Any) -> None:
    """The table is package data, not Python source: the wheel the static site ships to the
    phone (``adjudicator site``) must carry it, and the package read it from there."""
    import os
    import subprocess
    import sys
    import zipfile

    from adjudicator.web import site

    with zipfile.ZipFile(site.project_wheel(tmp_path)) as wheel:
        assert "adjudicator/record/confusables_table.txt" in wheel.namelist()
        wheel.extractall(tmp_path / "installed")
    said = subprocess.run(
        [sys.executable, "-c", "from adjudicator.record import confusables as c; "
         "print(c.__file__); print(c.looks('\\u0410nna') == 'Anna')"],
        capture_output=True, text=True, check=False, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path / "installed"), "ADJUDICATOR_PURE": "1"},
    )  # fmt: skip
    assert said.returncode == 0, said.stderr
    where, alike = said.stdout.split()
    assert where.startswith(str(tmp_path / "installed")) and alike == "True"


# --- a Cyrillic A, the skeleton, and the table derived from Unicode's file (issue 35) ----


CYRILLIC_A = "\u0410"


def test_anna_and_anna_with_a_cyrillic_a_are_refused_naming_both() -> None:
    record = dict(DISPUTE, players=["Anna", "Bo", CYRILLIC_A + "nna"])
    with pytest.raises(RecordError) as caught:
        load(record)
    message = str(caught.value)
    assert message.startswith("players[2]: ")
    assert f"'{CYRILLIC_A}nna'" in message and "'Anna' (players[0])" in message
    assert "U+0410 CYRILLIC CAPITAL LETTER A" in message


@pytest.mark.parametrize(
    ("one", "other"),
    [("Anna", CYRILLIC_A + "nna"), ("Il", "ll"), ("Kim", "Kirn"), ("Bo", "B\u03bf")],
)
def test_confusable_names_share_a_skeleton(one: str, other: str) -> None:
    assert skeleton(one) == skeleton(other)


@pytest.mark.parametrize(("one", "other"), [("Anna", "Anne"), ("Bo", "bo"), ("Cai", "Kai")])
def test_different_names_keep_different_skeletons(one: str, other: str) -> None:
    assert skeleton(one) != skeleton(other)


def test_the_ascii_fast_path_knows_every_ascii_character_the_table_maps() -> None:
    mapped = {ch for ch in _prototypes() if ch.isascii()}
    assert mapped == set(_ASCII_CONFUSABLE)


def test_the_table_is_derived_from_unicodes_file_as_it_is_written() -> None:
    text = (
        "\ufeff# confusables.txt\n# Version: 99.0.0\n"
        "0410 ;\t0041 ;\tMA\t# ( А → A ) CYRILLIC CAPITAL LETTER A → LATIN CAPITAL LETTER A\n"
        "006D ;\t0072 006E ;\tMA\t# ( m → rn )\n"
        "\n0391 ;\t0041 ;\tMA\t# ( Α → A )\n"
    )
    table = derive(text)
    assert table.splitlines()[0].endswith("(confusables.txt, version 99.0.0), derived by")
    assert [line for line in table.splitlines() if not line.startswith("#")] == [
        "0041:0410,0391",
        "0072+006E:006D",
    ]
    assert _read(table) == {"\u0410": "A", "\u0391": "A", "m": "rn"}  # as it is read


def test_the_table_is_package_data_read_as_derived() -> None:
    """The shipped table (a data file, not Python source) reads as it was derived: every
    prototype a line, sources in Unicode's order; 6,311 characters mapped (version 13.0.0)."""
    table = resources.files("adjudicator.record").joinpath(TABLE_FILE).read_text("ascii")
    assert "version 13.0.0" in table.splitlines()[0]
    targets = [line.partition(":")[0] for line in table.splitlines() if line[:1] != "#"]
    assert targets == sorted(set(targets))  # one line a prototype
    assert _prototypes() == _read(table) and len(_prototypes()) == 6311
    assert _prototypes()["\u0410"] == "A" and _prototypes()["\uff21"] == "A"
