"""What happens as a consequence of an act, in table language, for the replay.

The engine calls :func:`say` where a rule moves the game on by itself ("bounce",
"Cai takes the trick", "phase one ends: Bo has no card to lead").  Nothing is
kept unless a replay asked for it (``state.log`` is None during a plain check),
so the hot path pays one attribute test.
"""

from __future__ import annotations

from adjudicator.engine.state import State


def say(state: State, text: str) -> None:
    """Note a consequence of the act being applied, when a replay is listening."""
    log = state.log
    if log is not None:
        log.append(text)
