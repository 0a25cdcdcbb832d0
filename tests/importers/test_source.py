"""The reading of an app's log text into JSON values (importers/source.py)."""

from __future__ import annotations

from adjudicator.importers.source import json_values


def test_json_lines_skip_lines_with_nothing_but_whitespace() -> None:
    """A line of spaces, tabs or a lone carriage return is no game; each value keeps the
    number of its own line."""
    text = '{"a": 1}\n\n   \n\t\r\n{"b": 2}\r\n \x0c\n[3]\n'
    got = list(json_values(text, jsonl=True))
    assert got == [(1, {"a": 1}, None), (5, {"b": 2}, None), (8, [3], None)]


def test_one_value_over_lines_is_one_value() -> None:
    text = '\n  {"a":\n   [1,\n    2]}\n\n'
    assert list(json_values(text)) == [(None, {"a": [1, 2]}, None)]
