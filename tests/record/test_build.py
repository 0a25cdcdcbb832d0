"""The record reader against hostile and mistaken input (issue 23's record points, issue 24's
points 4, 5, 10 and 12): one line naming the place, in the format's words, for anything.

Every message is a :class:`RecordError`, never another exception; it quotes values cut
short, keeps to one line, and says what the place takes, with the close name when a name
is misspelled.
"""

from __future__ import annotations

import copy
import json
import typing
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from adjudicator import RecordError, adjudicate, load_record
from adjudicator.cli.commands import main
from adjudicator.record import (
    ActionObject,
    Record,
    Result,
    Scoring,
    SessionGame,
    SessionRecord,
    SessionResult,
    StartPhaseOne,
    StartPhaseTwo,
    load,
    loads,
    parse_action,
)
from adjudicator.rules.options import RuleOptions

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
PYDANTIC_WORDS = (
    "input should",
    "unable to parse",
    "exceeded maximum size",
    "field required",
    "extra inputs",
    "value error",
    "valid integer",
    "valid string",
    "valid dictionary",
    "valid list",
    "validation error",
    "input tag",
    "union",
    "[type=",
    "pydantic",
)
"""pydantic's own phrasing: none of it may reach a person."""


def sample(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SAMPLES / name).read_text(encoding="utf-8"))
    return data


@pytest.fixture
def record() -> dict[str, Any]:
    """A whole legal game: Anna, Bo and Cai, pagat."""
    return sample("pagat_3p_full.json")


def error(source: Any) -> str:
    """The one line load_record says about ``source`` (which it must refuse)."""
    with pytest.raises(RecordError) as caught:
        load_record(source)
    text = str(caught.value)
    assert len(text.splitlines()) == 1 and text.strip() == text, text
    return text


# --- names ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "char",
    ["\u009b", "\u202e", "\u2066", "\u200b", "\u200d", "\ufeff", "\u0085", "\x1b", "\u00ad"],
    ids=["C1 CSI", "RLO", "LRI", "ZWSP", "ZWJ", "BOM", "NEL", "ESC", "soft hyphen"],
)
def test_a_name_with_a_control_or_format_character_is_refused(
    record: dict[str, Any], char: str
) -> None:
    record["players"][1] = f"Bo{char}txt"
    text = error(record)
    assert text.startswith("players[1]: "), text
    assert "is not a player name" in text
    assert char not in text  # the character is written as an escape, never itself


def test_names_in_any_script_and_symbols_stay_valid(record: dict[str, Any]) -> None:
    names = {"Anna": "Åsa", "Bo": "Дмитрий", "Cai": "李★"}
    text = json.dumps(record, ensure_ascii=False)
    for old, new in names.items():
        text = text.replace(f'"{old}', f'"{new}').replace(f" {old}:", f" {new}:")
    assert load_record(text).players == ("Åsa", "Дмитрий", "李★")


# --- keys written twice --------------------------------------------------------------


def test_a_key_written_twice_is_invalid_naming_the_key(record: dict[str, Any]) -> None:
    text = json.dumps(record)
    twice = text.replace('"variant": "pagat"', '"variant": "pagat", "variant": "goat"', 1)
    assert error(twice) == "variant: is written twice in one object: give each key once"


def test_a_key_written_twice_inside_names_the_place(record: dict[str, Any]) -> None:
    record["meta"] = {"notes": [{"by": "Anna", "by ": "x"}, {"by": "Bo"}]}
    text = json.dumps(record).replace('{"by": "Bo"}', '{"by": "Bo", "by": "Cai"}')
    assert error(text) == "meta.notes[1].by: is written twice in one object: give each key once"


def test_check_says_a_key_twice_is_invalid(tmp_path: Path, record: dict[str, Any]) -> None:
    path = tmp_path / "r.json"
    record["options"] = {"dare": True}
    text = json.dumps(record).replace('"dare": true', '"dare": true, "dare": false', 1)
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 2
    assert result.output.strip() == (
        f"{path}: invalid · options.dare: is written twice in one object: give each key once"
    )


def loads_said(text: str, read: Any) -> Any:
    """What ``read`` makes of ``text``: its value, or its error's line."""
    try:
        return read(text)
    except RecordError as exc:
        return f"error: {exc}"


EVENTS = {
    "type": "replay",
    "gameId": "g:1",
    "events": [{"type": "join", "userId": f"u{i}"} for i in range(3)]
    + [{"type": "draw", "player": 0, "card": "TS"}, {"type": "x", "keep": {"a": 1, "b": [2]}}],
}


@pytest.mark.parametrize(
    "text",
    [
        json.dumps(EVENTS),
        json.dumps(EVENTS["events"]),
        json.dumps(EVENTS).replace('"player": 0,', '"player": 0, "player": 1,'),  # in an event
        json.dumps(EVENTS).replace('"gameId"', '"type": "x", "gameId"'),  # at the top
        json.dumps(EVENTS).replace('"a": 1,', '"a": 1, "a": 2,'),  # deeper down
        json.dumps(EVENTS)
        .replace('"u0"', '"u:0"')
        .replace('"player": 0,', '"player": 0, "player": 1,'),
        json.dumps(EVENTS).replace('"u0"', '"u:0"'),  # a colon in a string
        json.dumps(EVENTS)[:-20],  # cut short
        json.dumps(EVENTS).replace("}, {", "} {", 1),  # no JSON
        '{"a": [{"b": 1}, 2, {"b": 1, "b": 2}], "c": "x"}',  # among other values
        '{"a": 1, "a": 2}',
        "[]",
        "   ",
    ],
)
def test_a_log_of_many_objects_is_read_as_loads_reads_it(text: str) -> None:
    """loads_objects (an app's log, read without json's hook) gives loads' value, and its
    error where loads has one: a key written twice anywhere is refused, named alike."""
    from adjudicator.record.build import loads_objects

    assert loads_said(text, loads_objects) == loads_said(text, loads)


def test_a_key_twice_in_an_event_is_refused_naming_it() -> None:
    from adjudicator.record.build import loads_objects

    text = json.dumps(EVENTS).replace('"card": "TS"', '"card": "TS", "card": "2H"')
    assert loads_said(text, loads_objects) == (
        "error: events[3].card: is written twice in one object: give each key once"
    )


# --- a card named twice ----------------------------------------------------------------


def test_a_card_held_once_and_named_twice_is_said_so() -> None:
    game = sample("bottom_goat_example_1.json")
    game["actions"] = ["P1 play 2H 3H", "P2 play 7H 7H"]
    report = adjudicate(load_record(game))
    assert report.status == "illegal"
    (bad,) = report.violations
    assert bad.rule == "play.held"
    assert bad.message == "P2 holds one 7♥ and names it twice (holds 7♥ 8♥ 9♥ Q♣ A♠)"


def test_a_card_held_nowhere_is_still_not_held() -> None:
    game = sample("bottom_goat_example_1.json")
    game["actions"] = ["P1 play 2H 3H", "P2 play 7H 6H"]
    (bad,) = adjudicate(load_record(game)).violations
    assert bad.message.startswith("P2 does not hold 6♥ (holds 7♥")


# --- messages: short, one line -----------------------------------------------------------


def huge(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Records each holding one enormous value in a place that is quoted back."""
    long = "Q" * 100_000
    deck = record["deck"].split() if isinstance(record["deck"], str) else record["deck"]
    out = []
    for place, value in [
        ("variant", long),
        ("dealer", long),
        ("first_leader", long),
        ("trump", long),
        ("format", "x\ny" * 50_000),
        ("players", ["Anna", "B" * 100_000, "Cai"]),
        ("players", ["Anna", "Bo", "Anna" + "\u202e" * 50_000]),
        ("deck", ["7" * 100_000, *deck[1:]]),
        ("actions", [f"Anna play {'9' * 100_000}S"]),
        ("actions", [f"{long} play 7H"]),
        ("actions", [f"Anna {long} 7H"]),
        ("actions", [long]),
        ("actions", [f"Anna deal {long}"]),
        ("actions", [{"player": "Anna", "act": long}]),
        ("actions", [{"player": "Anna", "act": "play", "cards": [long]}]),
        ("options", {"sequences": long}),
        ("options", {long: 1}),
        ("options", {"decks": "1" * 100_000}),
        ("result", {"loser": long}),
        ("start", {"phase": long}),
    ]:
        bad = copy.deepcopy(record)
        bad[place] = value
        out.append(bad)
    return out


def test_every_quoted_value_is_cut_short(record: dict[str, Any]) -> None:
    for bad in huge(record):
        for source in (bad, json.dumps(bad)):
            assert len(error(source)) < 300


def test_a_key_holding_a_line_break_stays_on_one_line(record: dict[str, Any]) -> None:
    record["options"] = {"a\nb\u2028c": 1}
    assert (
        error(record)
        == "options.\"a\\nb\\u2028c\": is not a rule option (see 'adjudicator variants')"
    )


# --- the library API: RecordError or a report, nothing else --------------------------------


@pytest.mark.parametrize(
    ("source", "said"),
    [
        ([], "record: a record must be a JSON object, not an array"),
        ("x\x00y", 'cannot read "x\\u0000y": a file name holds no NUL character'),
        (17, "a record is read from a path, JSON text or a dict, not int"),
        (None, "a record is read from a path, JSON text or a dict, not NoneType"),
        (b"\xff{", "the record is not UTF-8 text"),
        (b"", "the file is empty: there is no record in it"),
        ("/dev/zero", "/dev/zero is not a regular file (a device)"),
        ("[1, 2]", "record: a record must be a JSON object, not an array"),
    ],
)
def test_load_record_raises_record_error_for_any_input(source: Any, said: str) -> None:
    assert error(source) == said


def test_a_variant_of_5000_digits_is_a_record_error(record: dict[str, Any]) -> None:
    record["variant"] = 10**5000
    assert error(record) == "variant: must be a string, not an integer of about 5,001 digits"
    record["variant"] = "pagat"
    record["options"] = {10**5000: 1}
    said = error(record)  # pydantic names the key "<unprintable int object>"
    assert said.startswith("options.") and said.endswith("not an integer of about 5,001 digits")


def test_load_record_keeps_to_the_size_limit(tmp_path: Path, record: dict[str, Any]) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert load_record(path).players == ("Anna", "Bo", "Cai")
    with pytest.raises(RecordError, match="larger than the limit of 100 bytes"):
        load_record(path, max_size=100)
    with pytest.raises(RecordError, match="larger than the limit of 100 bytes"):
        load_record(json.dumps(record).encode(), max_size=100)


def test_adjudicate_takes_only_a_game() -> None:
    with pytest.raises(RecordError, match="adjudicate takes a Game"):
        adjudicate({"format": "skitgubbe-record/1"})  # type: ignore[arg-type]


def judged(source: Any) -> None:
    """load_record then adjudicate: a report, or RecordError in one line; nothing else."""
    try:
        report = adjudicate(load_record(source))
    except RecordError as exc:
        text = str(exc)
        assert len(text.splitlines()) == 1 and len(text) < 400, text
        return
    assert report.status in ("legal", "illegal", "undetermined", "unfinished", "incomplete")


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)
FIELDS = [*Record.model_fields, "phase", "hands", "cards", "to", "act", "player", "x"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=JSON | st.text() | st.binary())
def test_any_value_string_or_bytes_gives_a_report_or_a_record_error(value: Any) -> None:
    if isinstance(value, str) and not value.lstrip().startswith(("{", "[")):
        value = "{" + value  # text, not a path to some file on this machine
    judged(value)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    place=st.sampled_from(FIELDS),
    value=JSON,
    inner=st.sampled_from([None, "options", "start", "result", "actions"]),
)
def test_any_value_in_a_record_gives_a_report_or_a_record_error(
    place: str, value: Any, inner: str | None
) -> None:
    bad = sample("pagat_3p_full.json")
    if inner == "actions":
        bad["actions"][3] = value
    elif inner is not None:
        bad[inner] = {place: value} if not isinstance(bad.get(inner), dict) else bad[inner]
        bad[inner][place] = value
    else:
        bad[place] = value
    judged(bad)
    judged(json.dumps(bad))


# --- issue 24: the format's words ----------------------------------------------------------


@pytest.mark.parametrize("phase", [3, 0, "one", None, 1.5])
def test_start_phase_is_1_or_2(record: dict[str, Any], phase: Any) -> None:
    del record["deck"], record["dealer"]
    record["start"] = {"phase": phase, "leader": "Anna", "trump": "S", "hands": {}}
    assert error(record).startswith("start.phase: must be 1 or 2 (phase one or phase two), not ")


def test_decks_of_100000_digits_says_1_or_2(record: dict[str, Any]) -> None:
    record["options"] = {"decks": "1" * 100_000}
    assert error(record) == "options.decks: must be 1 or 2, not '" + "1" * 56 + "..."
    record["options"] = {"decks": 3}
    assert error(record) == "options.decks: must be 1 or 2, not 3"


def test_options_say_their_values(record: dict[str, Any]) -> None:
    for option, value, said in [
        ("dare", "maybe", "options.dare: must be true or false, not 'maybe'"),
        ("hand_size", 9, "options.hand_size: must be a whole number from 1 to 6, not 9"),
        ("sequences", 2, 'options.sequences: must be "off", "two", "three" or "from_two", not 2'),
    ]:
        record["options"] = {option: value}
        assert error(record) == said


WRONG = [
    "1" * 5000,
    "x",
    "",
    1.5,
    -1,
    10**5000,
    True,
    None,
    [],
    [1, "x"],
    {},
    {"a": 1},
]
MODELS: list[tuple[type[BaseModel], str]] = [
    (Record, "pagat_3p_full.json"),
    (StartPhaseOne, "atlanta_receiver_shuffles.json"),
    (StartPhaseTwo, "bottom_goat_example_1.json"),
    (Result, "pagat_3p_full.json"),
    (ActionObject, "goat_5p_full.json"),
    (SessionRecord, "goat_session_3_games.json"),
    (SessionGame, "goat_session_3_games.json"),
    (Scoring, "goat_session_3_games.json"),
    (SessionResult, "goat_session_3_games.json"),
    (RuleOptions, "pagat_3p_full.json"),
]


def places(model: type[BaseModel], data: dict[str, Any]) -> list[dict[str, Any]]:
    """Where the fields of ``model`` live in ``data`` (a sample holding that model)."""
    if model in (Record, SessionRecord):
        return [data]
    if model in (StartPhaseOne, StartPhaseTwo):
        return [data["start"]]
    if model is Result:
        return [data.setdefault("result", {"loser": "Anna"})]
    if model is ActionObject:
        return [a for a in data["actions"] if isinstance(a, dict)][:1]
    if model is SessionGame:
        return [data["games"][0]]
    if model is Scoring:
        return [data.setdefault("scoring", {})]
    if model is SessionResult:
        return [data.setdefault("result", {"scores": {}})]
    return [data.setdefault("options", {})]


@pytest.mark.parametrize(("model", "name"), MODELS, ids=[m.__name__ for m, _ in MODELS])
def test_no_message_speaks_pydantic(model: type[BaseModel], name: str) -> None:
    """Every field of every model of the format, given each wrong value: the message is the
    format's, and every field the sample holds is reached."""
    said = set()
    for field in model.model_fields:
        for value in [*WRONG, "?" + field]:
            data = sample(name)
            found = places(model, data)
            assert found, (model, name)
            found[0][field] = value
            try:
                adjudicate(load(data))  # type: ignore[arg-type]
                continue
            except RecordError as exc:
                text = str(exc)
            except Exception as exc:  # pragma: no cover - the failure it reports
                pytest.fail(f"{model.__name__}.{field} = {value!r:.40}: {exc!r:.200}")
            low = text.lower()
            leaked = [word for word in PYDANTIC_WORDS if word in low]
            assert not leaked, (model.__name__, field, text)
            assert len(text.splitlines()) == 1 and len(text) < 300, text
            said.add(field)
    assert said  # the walk reached the model


def test_an_empty_file_is_said_to_be_empty(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    for text in ("", "  \n\n"):
        path.write_text(text, encoding="utf-8")
        result = CliRunner().invoke(main, ["check", str(path)])
        assert result.exit_code == 2
        assert (
            result.output.strip()
            == f"{path}: invalid · the file is empty: there is no record in it"
        )
    with pytest.raises(RecordError, match=r"^the file is empty"):
        loads(" ")


# --- issue 24 point 12: suggestions, acts in any case ----------------------------------------


def test_a_misspelled_option_gets_the_close_one(record: dict[str, Any]) -> None:
    record["options"] = {"sequence": "two"}
    assert error(record) == (
        "options.sequence: is not a rule option (see 'adjudicator variants'): "
        "did you mean 'sequences'?"
    )
    record["options"] = {"zzzzzz": 1}
    assert "did you mean" not in error(record)


def test_a_misspelled_variant_gets_the_close_one(record: dict[str, Any]) -> None:
    record["variant"] = "Helmfird"
    assert error(record).endswith(": did you mean 'helmfrid'?")


def test_acts_are_read_in_any_case(record: dict[str, Any]) -> None:
    written = list(record["actions"])
    record["actions"] = [
        " ".join(w.upper() if i == 1 else w for i, w in enumerate(a.split())) for a in written
    ]
    assert record["actions"][0] == "Anna PLAY 3C"
    assert adjudicate(load_record(record)).status == "legal"
    assert parse_action("Anna Play 9S", ["Anna", "Bo"]) == parse_action("Anna play 9S", ["Anna"])
    obj = {"player": "Anna", "act": "Play", "cards": ["3C"]}
    record["actions"] = [obj, *written[1:]]
    assert adjudicate(load_record(record)).status == "legal"


def test_a_misspelled_act_gets_the_close_one(record: dict[str, Any]) -> None:
    record["actions"][0] = "Anna paly 3C"
    assert error(record) == (
        "actions[0]: 'paly' is not an act (play, dare, sluff, pick, deal, take, exchange, "
        "set_aside, draw): did you mean 'play'?"
    )


def test_player_names_stay_exact_but_the_close_one_is_named(record: dict[str, Any]) -> None:
    record["actions"][0] = "anna play 3C"
    assert (
        error(record)
        == "actions[0].player: 'anna' is not one of the players (did you mean 'Anna'?)"
    )
    record["actions"][0] = "Anne play 3C"
    assert error(record).endswith("(did you mean 'Anna'?)")
    record["actions"][0] = "Caj play 3C"  # a short name a letter off (a stranger's Ewa)
    assert error(record).endswith("(did you mean 'Cai'?)")
    record["actions"][0] = "Zed play 3C"
    assert error(record) == "actions[0].player: 'Zed' is not one of the players"
    record["actions"][0] = "Anna play 3C"
    record["dealer"] = "cai"
    assert error(record) == "dealer: 'cai' is not one of the players (did you mean 'Cai'?)"


def test_the_schema_models_are_all_walked() -> None:
    """A model added to the format joins the walk above."""
    import adjudicator.record.schema as schema

    models = {
        value
        for value in vars(schema).values()
        if isinstance(value, type)
        and issubclass(value, BaseModel)
        and value not in (BaseModel, schema.Part)  # Part: the base, with no field of its own
    }
    assert models <= {m for m, _ in MODELS}, models - {m for m, _ in MODELS}
    assert typing.get_type_hints(Record)  # the models resolve


# --- the library's public functions: RecordError for bad input, nothing else ---------


def _public_calls(value: Any) -> list[tuple[str, Any]]:
    """Each exported function given ``value`` where it takes input from a caller."""
    from adjudicator import Table, card_code, card_text, find_variant, parse_card

    table = Table.new("pagat", ["Anna", "Bo", "Cai"], deck=_PACK, dealer="Anna")
    return [
        ("parse_card", lambda: parse_card(value)),
        ("find_variant", lambda: find_variant(value)),
        ("card_code", lambda: card_code(value)),
        ("card_text", lambda: card_text(value)),
        ("load_record", lambda: load_record(value)),
        ("adjudicate", lambda: adjudicate(value)),
        ("Table.parse", lambda: table.parse(value)),
        ("Table.check", lambda: table.check(value)),
        ("Table.push", lambda: table.push(value)),
        ("Table.new", lambda: Table.new(value, ["Anna", "Bo"], deck=_PACK, dealer="Anna")),
        ("Table.new players", lambda: Table.new("pagat", value, deck=_PACK, dealer="Anna")),
        ("Table.new deck", lambda: Table.new("pagat", ["Anna", "Bo"], deck=value, dealer="Anna")),
    ]


_PACK = [r + s for s in "CDHS" for r in "23456789TJQKA"]


HOSTILE = [*WRONG, "x\x00y", b"x", object(), 52, 10**40, -(10**5000)]


@pytest.mark.parametrize("value", HOSTILE, ids=[type(v).__name__ for v in HOSTILE])
def test_every_public_function_raises_record_error_for_bad_input(value: Any) -> None:
    """Issue 23: a caller catching RecordError catches every refusal of a record's content;
    issue 42: a Table given what is no action at all (a number, None) is the caller's misuse,
    Python's TypeError or ValueError.  Either way the message is one line of at most a few
    hundred characters, whatever was given."""
    for name, call in _public_calls(value):
        try:
            call()
        except RecordError as exc:
            text = str(exc)
            assert "\n" not in text and len(text) < 400, (name, text)
        except (TypeError, ValueError) as exc:
            assert name.startswith("Table."), (name, exc)  # only a Table's misuse
            text = str(exc)
            assert "\n" not in text and len(text) < 400, (name, text)
        # anything else escaping fails the test with its traceback: that is the point


def test_a_phase_one_start_is_written_out_as_one_without_a_warning() -> None:
    """The start union's discriminator read only dicts: writing a built phase-one start
    out again (the canonical form, replay --html) took it for a phase-two start, and
    pydantic printed a serializer warning on the command's standard error."""
    import warnings

    from adjudicator.record import canonical, parse_record

    samples = Path(__file__).parents[2] / "sample_games"
    for name in ("atlanta_receiver_shuffles.json", "goat_virtuoso.json"):
        data = json.loads((samples / name).read_text(encoding="utf-8"))
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            written = canonical(parse_record(data))
        assert written["start"]["phase"] == 1
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            again = canonical(parse_record(written))
        assert again["start"] == written["start"]
