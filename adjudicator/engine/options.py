"""The rule options as the engine reads them, action after action.

:class:`~adjudicator.rules.options.RuleOptions` (pydantic) is where every option is
declared, described, cited and validated, once.  Reading one of its fields is a pydantic
attribute lookup, and the engine reads options at every action: each
:class:`~adjudicator.engine.state.State` holds an :class:`Options` instead, a plain class
generated from RuleOptions' fields (``engine/option_fields.py``; never written by hand),
whose slots the compiled engine (setup.py) reads as directly as a local.
"""

from __future__ import annotations

from adjudicator.engine.option_fields import Options
from adjudicator.rules.options import RuleOptions

__all__ = ["Options", "options_of"]


def options_of(options: RuleOptions) -> Options:
    """The engine's copy of ``options``, made once per RuleOptions value (a bulk check starts
    thousands of games under the same few)."""
    key = id(options)
    found = _MADE.get(key)
    if found is not None and found[0] is options:
        return found[1]
    if len(_MADE) >= _KEPT:
        _MADE.clear()
    made = Options(options)
    _MADE[key] = (options, made)  # the RuleOptions is kept: its id stays its own
    return made


_MADE: dict[int, tuple[RuleOptions, Options]] = {}
_KEPT = 256
"""Copies kept: more than a session's or a bulk run's variants ever need."""
