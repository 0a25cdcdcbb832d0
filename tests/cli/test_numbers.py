"""Every number option of every command is read by one helper (issue 39).

``nan`` compares false with every bound, so click's own ranges let it through (``serve
--header-timeout nan`` acted as 0, ``simulate --hide nan`` was a traceback), and ``inf``
or ``1e30`` crashed where the number was used.  Each is one line naming the option, the
value and the range, exit status 2.
"""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from adjudicator.cli import numbers
from adjudicator.cli.commands import main

BAD = ["nan", "inf", "-inf", "1e30", "-1e30", "1e999999999", "twelve", ""]

REQUIRED: dict[str, list[str]] = {
    "perft": ["RECORD", "--depth", "1"],
    "conform": ["--engine", "true", "RECORD"],
    "serve": ["--print-systemd"],  # a value let through prints a unit: nothing listens
    "check": ["RECORD"],
    "replay": ["RECORD"],
    "legal": ["RECORD"],
}


CAPPED = {"1e30", "1e999999999"}
"""In range for an option with no upper bound (``--jobs``: capped at the cores)."""


def numeric_options() -> list[tuple[str, str, bool]]:
    """(command, option, has an upper bound) for every option that takes a number, found
    by its type."""
    found = []
    for name, command in sorted(main.commands.items()):
        for param in command.params:
            if isinstance(param, click.Option) and isinstance(
                param.type,
                click.IntRange | click.FloatRange | numbers.RecordSize,
            ):
                bounded = getattr(param.type, "max", 0) is not None
                found.append((name, max(param.opts, key=len), bounded))
            elif isinstance(param, click.Option):
                assert param.type not in (click.INT, click.FLOAT), (name, param.opts)
    return found


OPTIONS = numeric_options()


def test_every_number_option_is_read_by_the_helper() -> None:
    """No option takes click's plain int or float (checked in numeric_options), and every
    ranged one is the helper's: a new option with click's own range fails here."""
    for name, command in main.commands.items():
        for param in command.params:
            if isinstance(param.type, click.IntRange | click.FloatRange):
                assert isinstance(param.type, numbers.Whole | numbers.Number), (name, param.opts)
    assert len(OPTIONS) >= 25
    named = {(command, option) for command, option, _ in OPTIONS}
    assert ("perft", "--depth") in named and ("serve", "--time-limit") in named


def invoke(args: list[str], record: str, env: dict[str, str] | None = None) -> click.testing.Result:
    return CliRunner().invoke(main, [record if a == "RECORD" else a for a in args], env=env)


@pytest.mark.parametrize(("command", "option", "bounded"), OPTIONS)
def test_a_number_that_is_not_one_is_one_line_naming_the_option(
    command: str, option: str, bounded: bool, tmp_path: pytest.TempPathFactory
) -> None:
    record = str(tmp_path / "r.json")  # type: ignore[operator]
    for value in BAD if bounded else [v for v in BAD if v not in CAPPED]:
        result = invoke([command, *REQUIRED.get(command, []), f"{option}={value}"], record)
        assert result.exit_code == 2, (command, option, value, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, (command, option, value, result.stderr)
        assert lines[0].startswith(f"{option} {value or repr('')}:"), lines[0]
        assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ["perft", "RECORD", "--depth", "1e30"],
            "--depth 1e30: must be a whole number from 1 to 100",
        ),
        (["serve", "--time-limit", "nan"], "--time-limit nan: must be a number from 0.1 to 86,400"),
        (["serve", "--keep-alive", "inf"], "--keep-alive inf: must be a number from 1 to 86,400"),
        (["serve", "--header-timeout", "nan"], "--header-timeout nan: must be a number from 0.1"),
        (["serve", "--body-timeout", "nan"], "--body-timeout nan: must be a number from 0.1"),
        (["simulate", "--hide", "nan"], "--hide nan: must be a number from 0 to 1"),
        (["simulate", "--count", "-1"], "--count -1: must be a whole number from 0 to"),
        (["check", "RECORD", "--jobs", "1.5"], "--jobs 1.5: must be a whole number, 0 or more"),
        (
            ["conform", "--engine", "x", "RECORD", "--timeout", "0"],
            "--timeout 0: must be a number above 0",
        ),
        (["replay", "RECORD", "--step", "nan"], "--step nan: must be a whole number from 1 to"),
    ],
)
def test_the_line_says_the_range(
    args: list[str], line: str, tmp_path: pytest.TempPathFactory
) -> None:
    result = invoke(args, str(tmp_path / "r.json"))  # type: ignore[operator]
    assert result.exit_code == 2
    assert result.stderr.strip().startswith(line), result.stderr


def test_a_variable_of_the_environment_is_named_as_given() -> None:
    result = invoke(["serve", "--print-systemd"], "", env={"ADJUDICATOR_TIME_LIMIT": "nan"})
    assert result.exit_code == 2
    assert (
        result.stderr.strip() == "ADJUDICATOR_TIME_LIMIT nan: must be a number from 0.1 to 86,400"
    )


@pytest.mark.parametrize(
    ("args", "value"),
    [
        (["serve", "--print-systemd", "--time-limit", "2.5"], "ADJUDICATOR_TIME_LIMIT=2.5"),
        (["serve", "--print-systemd", "--max-body", "1e6"], "ADJUDICATOR_MAX_BODY=1000000"),
        (["serve", "--print-systemd", "--port", "8080.0"], "ADJUDICATOR_PORT=8080"),
    ],
)
def test_numbers_in_range_are_read_as_they_are_written(args: list[str], value: str) -> None:
    result = invoke(args, "")
    assert result.exit_code == 0, result.output
    assert value in result.stdout


def test_the_range_is_said_in_the_language_named_after_the_mistake() -> None:
    """A number is read while the command line is parsed: ``--lang`` after it counts too
    (``--at x`` was click's "Invalid value", in the language; it is the helper's line)."""
    result = invoke(["legal", "--at", "x", "--lang", "fi", "y"], "")
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert lines == ["--at x: on oltava kokonaisluku väliltä 1–1\u00a0000\u00a0000\u00a0000"]


def test_the_range_is_said_in_the_run_language(tmp_path: pytest.TempPathFactory) -> None:
    result = invoke(["--lang", "sv", "simulate", "--count", "1e30"], "")
    assert result.exit_code == 2
    assert (
        result.stderr.strip()
        == "--count 1e30: måste vara ett heltal från 0 till 1\u00a0000\u00a0000\u00a0000"
    )


@pytest.mark.parametrize(
    ("text", "number"),
    [("12", 12), ("6.4e7", 64_000_000), ("5.0", 5), ("1e50", numbers.BEYOND), ("1.5", None)],
)
def test_whole_reads_what_a_person_writes(text: str, number: int | None) -> None:
    assert numbers.whole(text) == number
