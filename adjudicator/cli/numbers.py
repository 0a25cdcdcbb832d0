"""Every number the command line takes, read by one helper: :func:`read`.

A number option is a whole number (:class:`Whole`) or any number (:class:`Number`),
within a range that its help shows (``[1<=x<=100]``).  Anything else is one line naming
the option (or its ``ADJUDICATOR_*`` variable), the value as given and the range, exit
status 2: a word, ``nan`` (which compares false with every bound, so a plain range let it
through to act as 0 or to crash), ``inf``, ``1e30`` where a day of seconds is the most.
An exponent is read as the number it writes (``6.4e7`` bytes), never written out
(``1e999999999`` is simply more than the range).
"""

from __future__ import annotations

import math
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any, NoReturn

import click
from click.core import ParameterSource

from adjudicator import limits
from adjudicator.cli.group import OneLine
from adjudicator.i18n import _, number
from adjudicator.invalid import cut

if TYPE_CHECKING:
    _IntType = click.ParamType[int]  # generic from click 8.4 on; plain before
else:
    _IntType = click.ParamType

BEYOND = 10**41
"""What a whole number written with an exponent past 10**40 is read as: larger than any
range here, and never written out (``1e999999999`` would fill the memory)."""


def whole(text: str) -> int | None:
    """The whole number ``text`` writes (``64000000``, ``6.4e7``, ``5.0``), :data:`BEYOND`
    (or its negative) for a longer one, or None when it writes no whole number."""
    try:
        return int(text.strip())
    except ValueError:
        pass
    try:
        exact = Decimal(text.strip())
    except InvalidOperation:
        return None
    if not exact.is_finite():
        return None
    if exact.adjusted() > 40:
        return BEYOND if exact > 0 else -BEYOND
    if exact != exact.to_integral_value():
        return None
    return int(exact)


def finite(text: str) -> float | None:
    """The finite number ``text`` writes, or None (a word, ``nan``, ``inf``, ``1e400``)."""
    try:
        value = float(text.strip())
    except (ValueError, OverflowError):
        return None
    return value if math.isfinite(value) else None


def flag(param: click.Parameter | None, ctx: click.Context | None) -> str:
    """How the person gave the value: the option's long name, or the environment
    variable it came from."""
    if param is None:
        return _("the value")
    if ctx is not None and param.name is not None and isinstance(param, click.Option):
        source = ctx.get_parameter_source(param.name)
        if source is ParameterSource.ENVIRONMENT and isinstance(param.envvar, str):
            return param.envvar
    return max(param.opts, key=len) if param.opts else str(param.name)


def _bound(value: float) -> str:
    """A bound as a person reads it: whole ones grouped as the language groups them."""
    if isinstance(value, int) or float(value).is_integer():
        return number(int(value))
    return f"{value:g}"


def read(
    value: Any,
    *,
    is_whole: bool,
    low: float | None,
    high: float | None,
    low_open: bool = False,
) -> tuple[float | None, str]:
    """``value`` read as the number it writes and held to its range: (the number, "") or
    (None, why not, the range said)."""
    if isinstance(value, bool):
        got: float | None = None
    elif isinstance(value, int | float):
        got = value if math.isfinite(value) else None
        if is_whole and got is not None and not float(got).is_integer():
            got = None
        elif is_whole and got is not None:
            got = int(got)
    else:
        got = whole(str(value)) if is_whole else finite(str(value))
    fits = got is not None
    if got is not None and low is not None:
        fits = got > low if low_open else got >= low
    if fits and got is not None and high is not None:
        fits = got <= high
    if fits:
        return got, ""
    return None, _range_said(is_whole, low, high, low_open)


def _range_said(is_whole: bool, low: float | None, high: float | None, low_open: bool) -> str:
    if low is None or (high is None and low_open):
        return _("must be a whole number") if is_whole else _("must be a number")
    if high is None:
        said = (
            _("must be a whole number, {low} or more")
            if is_whole
            else _("must be a number, {low} or more")
        )
        return said.format(low=_bound(low))
    if low_open:
        said = _("must be a number above {low}, at most {high}")
    elif is_whole:
        said = _("must be a whole number from {low} to {high}")
    else:
        said = _("must be a number from {low} to {high}")
    return said.format(low=_bound(low), high=_bound(high))


def refuse(
    value: Any, problem: str, param: click.Parameter | None, ctx: click.Context | None
) -> NoReturn:
    """The one line for a value out of its range: the option, the value, the range."""
    raise OneLine(f"{flag(param, ctx)} {shown(value)}: {problem}")


def shown(value: Any) -> str:
    """A value as given, cut short; quoted when it is empty or has spaces at its ends."""
    text = cut(str(value), 40)
    return text if text and text.strip() == text else repr(text)


class Whole(click.IntRange):
    """A whole number from ``min`` to ``max`` (``max`` None: capped where it is used, as
    ``--jobs`` is at the cores); the range shows in the help as click's own does."""

    def __init__(self, min: int, max: int | None = None) -> None:
        super().__init__(min=min, max=max)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        got, problem = read(value, is_whole=True, low=self.min, high=self.max)
        if got is None:
            refuse(value, problem, param, ctx)
        return int(got)


class Number(click.FloatRange):
    """A finite number from ``min`` (or above it, ``min_open``) to ``max``."""

    def __init__(self, min: float, max: float, min_open: bool = False) -> None:
        super().__init__(min=min, max=max, min_open=min_open)

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> float:
        got, problem = read(
            value, is_whole=False, low=self.min, high=self.max, low_open=self.min_open
        )
        if got is None:
            refuse(value, problem, param, ctx)
        return float(got)


SEED = Whole(-(2**63), 2**63 - 1)
"""A seed: any 64-bit whole number (the same seed, the same games)."""
POSITION = Whole(1, 10**9)
"""An action or a game of a record, counted from 1 as people count them (docs/record-format.md,
Counting): the record's own range is said after, where it is known."""
PLAYERS = Whole(1, 100)
"""Players: the variant's own range is said after."""
GAMES = Whole(0, 10**9)
"""Games or positions to write."""
SHARE = Number(0.0, 1.0)
"""A share of the deck, 0 to 1."""
DAY = 86_400.0
"""The longest any time option may be: a day of seconds."""


def seconds(low: float, min_open: bool = False) -> Number:
    """A time in seconds from ``low`` (or above it) to a day."""
    return Number(low, DAY, min_open=min_open)


class RecordSize(_IntType):
    """``--max-record-size``: a whole number of bytes from 1 to the machine's memory
    (``1e30`` is read as the number it writes, and refused as more than the memory)."""

    name = "bytes"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            given: int | None = value
        else:
            given = whole(str(value))
        said = f"{limits.SIZE_FLAG} {shown(value)}"
        if given is None:
            raise OneLine(f"{said}: not a number of bytes")
        problem = limits.size_problem(given)
        if problem is not None:
            raise OneLine(f"{said}: {problem}")
        return given
