"""The terminal's renderers (``render/terminal.py``): the hands, the option grid, the hints.

The table of hands (``render.Grid``) prints what rich's Table printed.

The grid is laid out line by line when it fits the width, for speed; these compare it
with rich's ``Table(box=None, pad_edge=False)`` over random rows: names of every width
(wide characters included), hands of up to 40 cards, a right-justified pile column,
at a width where it fits and at one where it does not (rich's table wraps then).
"""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.table import Table
from rich.text import Text

from adjudicator.render import terminal as render

names = st.text(
    st.characters(categories=("L", "N", "P", "S"), exclude_characters="[]"), min_size=1, max_size=14
)
hands = st.lists(st.integers(0, 51), max_size=40)


def plain(renderable: object, width: int) -> str:
    out = io.StringIO()
    Console(file=out, width=width, color_system=None, highlight=False, emoji=False).print(
        renderable
    )
    return out.getvalue()


def rich_table(header: list[str], rows: list[list[Text]], right: int | None) -> Table:
    grid = Table(box=None, show_header=True, pad_edge=False, header_style="bold")
    for column, title in enumerate(header):
        grid.add_column(title, justify="right" if column == right else "left")
    for row in rows:
        grid.add_row(*row)
    return grid


@settings(max_examples=150, deadline=None)
@given(
    seats=st.lists(
        st.tuples(names, hands, st.integers(0, 60), st.booleans()), min_size=1, max_size=8
    ),
    width=st.sampled_from([100, 60, 30]),
    pile=st.booleans(),
)
def test_the_grid_prints_what_richs_table_printed(
    seats: list[tuple[str, list[int], int, bool]], width: int, pile: bool
) -> None:
    header = ["", "player", "hand"] + (["pile"] if pile else [])
    rows: list[list[Text]] = []
    for name, hand, count, turn in seats:
        row = [Text("▶" if turn else ""), Text(name), render.cards(hand) if hand else Text("out")]
        if pile:
            row.append(Text(str(count)))
        rows.append(row)
    grid = render.Grid(header, [list(r) for r in rows], right=3)
    assert plain(grid, width) == plain(rich_table(header, rows, 3 if pile else None), width)


def test_a_grid_too_wide_is_richs_table() -> None:
    rows = [[Text(""), Text("Anna"), render.cards(list(range(40))), Text("3")]]
    grid = render.Grid(["", "player", "hand", "pile"], rows, right=3)
    narrow = plain(grid, 50)
    assert narrow == plain(rich_table(["", "player", "hand", "pile"], rows, 3), 50)
    assert len(narrow.splitlines()) > 2  # the hand wrapped over lines, as rich wraps it


# --- the option grid never breaks a value (issue 24, point 13) ------------------------


@pytest.mark.parametrize("width", [80, 100, 160])
def test_the_option_grid_never_breaks_a_value(width: int) -> None:
    from adjudicator import service
    from adjudicator.render import terminal as render

    every = service.variants()
    words = {"option", "Options", "by", "variant", "of", *(e.name for e in every)}
    for each in every:
        for option in each.options:
            words.add(option.name)
            words.add(json.dumps(option.value).strip('"'))
    buffer = io.StringIO()
    Console(file=buffer, width=width, color_system=None).print(render.option_grid(every))
    lines = buffer.getvalue().splitlines()
    assert all(len(line) <= width for line in lines)
    for line in lines:
        for token in line.replace("─", " ").split():
            assert token.strip("()") in words or token.strip("()").isdigit(), (width, token, line)
    shown = " ".join(lines)
    for each in every:
        assert f" {each.name} " in shown


def test_the_hint_for_one_game_of_a_session_names_the_game() -> None:
    from adjudicator.render import terminal as render

    # index 5 is the sixth action, game 1 (from 0, as JSON's "game") the second
    assert render.legal_hint(("night.json", 1), 5) == (
        "'adjudicator legal night.json --at 6 --game 2' lists them"
    )
    assert render.legal_hint("night.json", 5, 1) == (
        "'adjudicator legal night.json --at 6 --game 2' lists them"
    )
