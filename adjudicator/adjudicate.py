"""Replay a record through the engine: steps, violations, outcome."""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator import engine
from adjudicator.engine.state import State, TableView
from adjudicator.engine.violations import Violation
from adjudicator.record import Game


@dataclass
class Step:
    """One applied (or rejected) action and the table after it."""

    index: int
    action: str
    words: str
    table: TableView
    violation: Violation | None = None


@dataclass
class Report:
    """The verdict on one record."""

    variant: str
    players: tuple[str, ...]
    actions: int
    applied: int
    finished: bool
    loser: str | None
    violations: list[Violation] = field(default_factory=list)
    start: TableView | None = None
    steps: list[Step] = field(default_factory=list)

    @property
    def status(self) -> str:
        """``legal`` or ``illegal``."""
        return "illegal" if self.violations else "legal"


def legal_texts(state: State) -> list[str]:
    """The legal actions now, in record notation."""
    return [a.text(state.names) for a in engine.legal_actions(state)]


def adjudicate(game: Game, *, steps: bool = False, stop: int | None = None) -> Report:
    """Replay ``game``; stop at the first violation (or after action ``stop``).

    With ``steps`` the report keeps the table after every action, for replay
    rendering; without it nothing is copied and the replay runs in place.
    """
    state = engine.new_state(game)
    names = game.players
    report = Report(
        variant=game.variant,
        players=names,
        actions=len(game.actions),
        applied=0,
        finished=False,
        loser=None,
        start=state.view() if steps else None,
    )
    check = engine.check
    apply = engine.apply
    applied = 0
    for index, action in enumerate(game.actions):
        if stop is not None and index > stop:
            break
        bad = check(state, action)
        if bad is not None:
            bad.index = index
            bad.player = names[action.player]
            bad.action = action.text(names)
            bad.alternatives = legal_texts(state)
            report.violations.append(bad)
            if steps:
                report.steps.append(
                    Step(index, bad.action, engine.narrate(state, action), state.view(), bad)
                )
            break
        words = engine.narrate(state, action) if steps else ""
        apply(state, action)
        applied += 1
        if steps:
            report.steps.append(Step(index, action.text(names), words, state.view()))
    report.applied = applied
    report.finished = state.finished
    report.loser = names[state.loser] if state.loser is not None else None
    if not report.violations and stop is None and game.claimed_loser is not None:
        claimed = names[game.claimed_loser]
        if not state.finished:
            report.violations.append(
                Violation(
                    "result.unfinished",
                    f"The record claims {claimed} lost, but the game is not over",
                )
            )
        elif report.loser != claimed:
            actual = report.loser or "nobody"
            report.violations.append(
                Violation(
                    "result.loser",
                    f"The record claims {claimed} lost, but the rules make {actual} the loser",
                )
            )
    return report
