"""Replay a record through the engine: steps, violations, outcome; sessions and scores."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from adjudicator import engine, legal
from adjudicator.actions import Action
from adjudicator.cards import UNKNOWN
from adjudicator.engine import phase_one_all
from adjudicator.engine.state import State, TableView
from adjudicator.engine.violations import Violation
from adjudicator.record import Game, RecordError, Scoring, Session


@dataclass
class Step:
    """One applied (or rejected) action and the table after it."""

    index: int
    action: str
    words: str
    table: TableView
    violation: Violation | None = None
    events: list[str] = field(default_factory=list)
    """What followed from the act by itself: "bounce", "Cai takes the trick", ..."""
    notes: list[Violation] = field(default_factory=list)
    """Checks of this action that could not be made (cards nobody knows)."""


@dataclass
class Report:
    """The verdict on one record."""

    variant: str
    players: tuple[str, ...]
    actions: int
    applied: int
    finished: bool
    loser: str | None
    losers: list[str] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    undetermined: list[Violation] = field(default_factory=list)
    start: TableView | None = None
    steps: list[Step] = field(default_factory=list)
    out_order: list[list[str]] = field(default_factory=list)
    """Who went out, in order (players going out at once share a group)."""
    stopped: bool = False
    """The game's course depended on cards nobody knows and was not followed to its end."""

    @property
    def status(self) -> str:
        """``legal`` or ``illegal``."""
        return "illegal" if self.violations else "legal"

    def as_json(self, file: str) -> dict[str, Any]:
        """The contract's ``check --json`` object."""
        return {
            "file": file,
            "status": self.status,
            "variant": self.variant,
            "actions": self.actions,
            "applied": self.applied,
            "finished": self.finished,
            "loser": self.loser,
            "losers": self.losers,
            "violations": [v.as_json() for v in self.violations],
            "undetermined": [v.note_json() for v in self.undetermined],
            "error": None,
        }


def legal_texts(state: State) -> list[legal.Form]:
    """The legal actions now, as written in a record (deals in their object form)."""
    return legal.forms(engine.legal_actions(state), state.names)


def _state_before(game: Game, index: int) -> State:
    """The state just before action ``index`` (every earlier action applied)."""
    state = engine.new_state(game)
    for action in game.actions[:index]:
        engine.apply(state, action)
    return state


def adjudicate(game: Game, *, steps: bool = False, stop: int | None = None) -> Report:
    """Replay ``game``; stop at the first violation (or after action ``stop``).

    With ``steps`` the report keeps the table after every action, for replay
    rendering; without it nothing is copied and the replay runs in place.
    Raises :class:`RecordError` when the record lacks what the table saw (a
    dare on an unknown stock that names no card), or when ``game`` is no Game.
    """
    if not isinstance(game, Game):
        raise RecordError(
            "", f"adjudicate takes a Game (see load_record), not {type(game).__name__}"
        )
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
    if state.stopped is not None:
        _stopped(report, state, None)
    check = engine.check
    apply = engine.apply
    actions = game.actions if stop is None else game.actions[: stop + 1]
    applied = 0
    for index, action in enumerate(actions):
        if state.stopped is not None:
            break
        bad = check(state, action)
        notes: list[Violation] = []
        if bad is not None:
            if _rejects(report, state, game, index, bad, steps):
                break
            notes.append(bad)
        if steps:
            _step(report, state, index, action, notes)
        else:
            apply(state, action)
        applied += 1
        if state.late is not None:
            applied = _late(report, state, game)
            break
        if state.stopped is not None:
            _stopped(report, state, index)
    if (
        not report.violations
        and state.stopped is None
        and (stop is None or stop >= len(game.actions) - 1)
        and engine.ends_when_window_closes(state)
    ):
        _close_by_silence(state, report, steps)
    report.applied = applied
    report.finished = state.finished
    report.losers = [names[p] for p in state.losers] if state.finished else []
    report.loser = report.losers[0] if len(report.losers) == 1 else None
    report.out_order = [[names[p] for p in group] for group in state.out_order]
    report.stopped = report.stopped or state.stopped is not None
    if not report.violations and stop is None and not report.stopped:
        claim = _claim_problem(game, report)
        if claim is not None:
            report.violations.append(claim)
    return report


def _close_by_silence(state: State, report: Report, steps: bool) -> None:
    """The record ends in the last trick's sluffing window: nobody sluffed more, so the
    winner took it and the game ended (pagat.com, 'All Players play to Each Trick in
    Phase One': one more opportunity to sluff, then phase one is over)."""
    if steps:
        state.log = []
    engine.close_window(state)
    if steps and report.steps:
        last = report.steps[-1]
        last.events += ["nobody sluffs more", *(state.log or [])]
        last.table = state.view()
        state.log = None


def _rejects(
    report: Report, state: State, game: Game, index: int, bad: Violation, steps: bool
) -> bool:
    """Note a check that failed or could not be made; True when the replay stops here."""
    names = game.players
    action = game.actions[index]
    bad.index = index
    bad.player = names[action.player]
    if bad.invalid:
        raise RecordError(f"actions[{index}]", bad.message)
    if bad.rule == "game.stopped":  # the act would pass into a course nobody knows
        bad.index = index - 1 if index else None
        bad.player = None
        report.undetermined.append(bad)
        report.stopped = True
        return True
    if bad.undetermined:
        report.undetermined.append(bad)
        return False
    bad.action = action.text(names)
    bad.alternatives = legal_texts(state)
    if state.hidden_anywhere() or UNKNOWN in state.stock:
        bad.with_unseen = len(engine.unseen_actions(state))
    report.violations.append(bad)
    if steps:
        words = engine.narrate(state, action)
        report.steps.append(Step(index, bad.action, words, state.view(), bad))
    return True


def _step(report: Report, state: State, index: int, action: Action, notes: list[Violation]) -> None:
    """Apply one action, keeping its words, what it caused and the table after it."""
    words = engine.narrate(state, action)
    state.log = []
    engine.apply(state, action)
    events = state.log
    state.log = None
    text = action.text(state.names)
    report.steps.append(Step(index, text, words, state.view(), None, events, notes))


def _late(report: Report, state: State, game: Game) -> int:
    """A rule broken earlier found only now (restriction #2): report it at its action."""
    late = state.late
    assert late is not None and late.index is not None
    names = game.players
    before = _state_before(game, late.index)
    late.action = game.actions[late.index].text(names)
    # What was legal there, knowing now that the trick was the last: no sluff by a
    # player who could still win it.
    allowed = [
        a
        for a in engine.legal_actions(before)
        if a.act != "sluff" or not phase_one_all.could_win(before, a.player)
    ]
    late.alternatives = legal.forms(allowed, names)
    report.violations.append(late)
    return late.index


def _stopped(report: Report, state: State, index: int | None) -> None:
    """The course depends on unknown cards: say where it stopped and why."""
    report.undetermined.append(
        Violation(
            "game.stopped",
            f"The game cannot be followed further: {state.stopped}",
            index,
            undetermined=True,
        )
    )


def _claim_problem(game: Game, report: Report) -> Violation | None:
    """Whether the record's ``result`` says what the rules say."""
    if game.claimed_losers is None:
        return None
    names = game.players
    claimed = [names[p] for p in game.claimed_losers]
    said = " and ".join(claimed)
    verb = "lost" if len(claimed) == 1 else "all lost"
    if not report.finished:
        return Violation(
            "result.unfinished",
            f"The record claims {said} {verb}, but the game is not over",
        )
    actual = report.losers
    if sorted(claimed) == sorted(actual) and (game.claim_several or len(actual) == 1):
        return None
    rules = " and ".join(actual) or "nobody"
    hint = " (write them as result.losers)" if len(actual) > 1 and not game.claim_several else ""
    return Violation(
        "result.loser",
        f"The record claims {said} {verb}, but the rules make {rules} "
        f"{'the loser' if len(actual) == 1 else 'the losers'}{hint}",
    )


# --- sessions -----------------------------------------------------------------------


@dataclass
class SessionReport:
    """The verdict on a session: each game's report, the scores, a wrong scores claim."""

    variant: str
    players: tuple[str, ...]
    games: list[Report]
    scores: dict[str, int] | None
    claims: list[Violation] = field(default_factory=list)
    """Violations of the session as a whole (a wrong scores claim)."""
    points: list[dict[str, int] | None] = field(default_factory=list)
    """Each game's points (None for a game not finished or not legal)."""
    played: list[Game] = field(default_factory=list, repr=False)
    """Each game as it was replayed: its first leader filled in where the previous game's
    loser leads (the session's own games are frozen and unchanged)."""

    @property
    def status(self) -> str:
        """``legal`` or ``illegal``: legal when every game is and the claims hold."""
        return "illegal" if self.violations else "legal"

    @property
    def violations(self) -> list[Violation]:
        """Every violation, each naming its game (the session's own claims last)."""
        return [v for game in self.games for v in game.violations] + self.claims

    @property
    def undetermined(self) -> list[Violation]:
        """Every check that could not be made, each naming its game."""
        return [v for game in self.games for v in game.undetermined]

    def as_json(self, file: str) -> dict[str, Any]:
        """The contract's ``check --json`` object for a session."""
        out: dict[str, Any] = {
            "file": file,
            "status": self.status,
            "variant": self.variant,
            "games": [g.as_json(file) for g in self.games],
            "violations": [v.as_json() for v in self.violations],
            "undetermined": [v.note_json() for v in self.undetermined],
            "error": None,
        }
        if self.scores is not None:
            out["scores"] = self.scores
        return out


def game_points(scoring: Scoring, report: Report, players: tuple[str, ...]) -> dict[str, int]:
    """Points of one finished game: places by going out, the loser's, everyone else's.

    Players who go out at the same moment share the better place.
    """
    points = {name: scoring.others for name in players}
    place = 0
    for group in report.out_order:
        for name in group:
            if place < len(scoring.places):
                points[name] = scoring.places[place]
        place += len(group)
    for name in report.losers:
        points[name] = scoring.loser
    return points


def adjudicate_session(session: Session, *, steps: bool = False) -> SessionReport:
    """Check every game of a session in order; the Goat of each game leads the next."""
    names = session.players
    reports: list[Report] = []
    played: list[Game] = []
    extra: list[Violation] = []
    previous: Report | None = None
    follows = session.options.first_lead == "previous_loser"
    for number, game in enumerate(session.games):
        problem = None
        if follows:  # the game as it is played: the leader may follow from the last one
            problem, game = _leader_problem(game, previous, number)
        played.append(game)
        if problem is not None and not problem.undetermined:
            report = Report(game.variant, names, len(game.actions), 0, False, None)
            problem.game = number
            report.violations.append(problem)
        else:
            report = adjudicate(game, steps=steps)
            if problem is not None:
                problem.game = number
                report.undetermined.insert(0, problem)
        for v in report.violations + report.undetermined:
            v.game = number
        reports.append(report)
        previous = report
    scores = None
    per_game: list[dict[str, int] | None] = []
    if session.scoring is not None:
        scores = {name: 0 for name in names}
        for report in reports:
            points = None
            if report.finished and not report.violations:
                points = game_points(session.scoring, report, names)
                for name, got in points.items():
                    scores[name] += got
            per_game.append(points)
    if session.claimed_scores is not None and not any(r.violations for r in reports):
        claim = _scores_problem(session, reports, scores)
        if claim is not None:
            extra.append(claim)
    return SessionReport(session.variant, names, reports, scores, extra, per_game, played)


def _leader_problem(
    game: Game, previous: Report | None, number: int
) -> tuple[Violation | None, Game]:
    """The Goat treatise, II.D and IV.B: the previous game's Goat leads the next game.

    Returns the problem, if any, and the game to play: a copy with its first leader when
    the previous game decides it (the session itself is not changed).
    """
    if previous is None or game.start is not None:
        return None, game
    names = game.players
    if not previous.finished:
        if game.first_leader_given:
            return None, game
        unknown = Violation(
            "session.first_leader",
            f"Game {number - 1} did not finish, so who leads game {number} is unknown; "
            "the record gives no first_leader",
            undetermined=True,
        )
        return unknown, game
    if game.first_leader_given:
        assert game.first_leader is not None
        if names[game.first_leader] in previous.losers:
            return None, game
        wrong = Violation(
            "session.first_leader",
            f"{names[game.first_leader]} leads game {number}, but the previous game's loser "
            f"({' or '.join(previous.losers) or 'nobody'}) leads the next game",
        )
        return wrong, game
    if len(previous.losers) != 1:
        raise RecordError(
            f"games[{number}].first_leader",
            "the previous game had several losers: name the one who leads",
        )
    return None, replace(game, first_leader=names.index(previous.losers[0]))


def _scores_problem(
    session: Session, reports: list[Report], scores: dict[str, int] | None
) -> Violation | None:
    claimed = session.claimed_scores
    assert claimed is not None
    names = session.players
    if scores is None:
        return Violation(
            "session.scores", "The session claims scores, but it has no scoring to count them by"
        )
    unfinished = [i for i, r in enumerate(reports) if not r.finished and not r.stopped]
    if unfinished:
        return Violation(
            "session.scores",
            f"The session claims scores, but game {unfinished[0]} is not finished",
        )
    if any(r.stopped for r in reports):
        return None  # not judged: a game's course depends on cards nobody knows
    said = {names[p]: points for p, points in claimed.items()}
    wrong = [name for name in names if said.get(name, 0) != scores[name]]
    if not wrong:
        return None
    return Violation(
        "session.scores",
        "The scores claimed are wrong: "
        + ", ".join(
            f"{name} {said.get(name, 0)} (the rules give {scores[name]})" for name in wrong
        ),
    )
