"""Replay a record through the engine: steps, violations, outcome; sessions and scores."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from adjudicator import engine
from adjudicator.actions import Action
from adjudicator.engine.state import State, TableView
from adjudicator.engine.violations import Violation
from adjudicator.i18n import _, ngettext
from adjudicator.play.table import Replay, Step, Table, replay
from adjudicator.record import Game, RecordError, Scoring, Session, build, loads, parse_document


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
    notes: list[Violation] = field(default_factory=list)
    """Legal actions the table took back anyway ("taken back, though legal")."""
    comments: dict[int, str] = field(default_factory=dict)
    """The record's comments by action index (:attr:`Game.comments`): shown, never judged."""

    @property
    def status(self) -> str:
        """``legal`` or ``illegal``."""
        return "illegal" if self.violations else "legal"

    @property
    def followed(self) -> bool:
        """The replay went past every irregularity (each taken back or standing as played):
        ``finished`` and the loser are the game's as played."""
        return all(v.table is not None and v.unplayable is None for v in self.violations)


def adjudicate(
    game: Game, *, steps: bool = False, stop: int | None = None, go_on: str | None = None
) -> Report:
    """Replay ``game``; stop at the first violation (or after action ``stop``).

    An action the record marks as taken back, or as standing, is reported and the
    replay goes on past it (:func:`table.replay`); ``go_on`` ('taken back' or
    'stands') reads every unmarked illegal action that way.

    With ``steps`` the report keeps the table after every action, for replay
    rendering; without it nothing is copied and the replay runs in place.
    Raises :class:`RecordError` when the record lacks what the table saw (a
    dare on an unknown stock that names no card), or when ``game`` is no Game.  ``game``
    is not changed.
    """
    if not isinstance(game, Game):
        raise RecordError(
            "",
            _("adjudicate takes a Game (see load_record), not {kind}").format(
                kind=type(game).__name__
            ),
        )
    table = Table.from_game(game)
    start = table.state.view() if steps else None
    actions = game.actions if stop is None else game.actions[: stop + 1]
    done = replay(table, actions, steps=steps, marks=game.marks, go_on=go_on)
    return _concluded(game, table.state, done, start, stop)


@dataclass(frozen=True)
class Replayed:
    """A game's actions already replayed on a table by whoever wrote its record (an
    importer replays a log to learn who made each act): every action checked legal as
    it came, with no word from the check, and applied.  The verdict is then read off
    the table (:func:`adjudicate_replayed`) instead of replaying a second time."""

    table: Table
    """The table the record's set-up made, after the actions."""
    actions: list[Action]
    """The actions applied on it, in order."""


def adjudicate_replayed(game: Game, replayed: Replayed) -> Report | None:
    """What :func:`adjudicate` finds for ``game``, read off a table its actions were
    already replayed on (see :class:`Replayed`); None when that table is not such a
    replay of ``game`` (another set-up, other actions or cards, a course stopped or a
    rule found late), and the caller adjudicates.  The table is concluded in place."""
    table = replayed.table
    state = table.state
    first = table.game
    if (
        not isinstance(game, Game)
        or game.marks
        or state.late is not None
        or state.stopped is not None
        or replayed.actions != game.actions
        or (game.variant, game.players, game.options)
        != (first.variant, first.players, first.options)
        or (game.dealer, game.first_leader, game.first_leader_given)
        != (first.dealer, first.first_leader, first.first_leader_given)
        or (game.start, game.trump_hint) != (first.start, first.trump_hint)
        or game.deck is None
        or first.deck is None
        or sorted(game.deck) != sorted(first.deck)
    ):
        return None
    return _concluded(game, state, Replay(applied=len(game.actions)), None, None)


def _concluded(
    game: Game, state: State, done: Replay, start: TableView | None, stop: int | None
) -> Report:
    """The report once ``game``'s actions are replayed on ``state`` (``start``: the table
    before them, kept with the steps): the window closed by silence, the outcome, and
    whether the record's claimed result is the rules'."""
    steps = start is not None
    names = game.players
    report = Report(
        variant=game.variant,
        players=names,
        actions=len(game.actions),
        applied=0,
        finished=False,
        loser=None,
        start=start,
        comments=game.comments,
    )
    report.steps = done.steps
    report.undetermined = done.undetermined
    report.violations.extend(done.violations)
    report.notes = done.notes
    if (
        report.followed
        and state.stopped is None
        and (stop is None or stop >= len(game.actions) - 1)
        and engine.ends_when_window_closes(state)
    ):
        _close_by_silence(state, report, steps)
    if game.comments:  # each violation carries the note written beside its action
        for v in (*report.violations, *report.notes):
            v.comment = game.comments.get(v.index) if v.index is not None else None
    report.applied = done.applied
    report.finished = state.finished
    report.losers = [names[p] for p in state.losers] if state.finished else []
    report.loser = report.losers[0] if len(report.losers) == 1 else None
    report.out_order = [[names[p] for p in group] for group in state.out_order]
    report.stopped = done.stopped or state.stopped is not None
    if report.followed and stop is None and not report.stopped:
        claim = _claim_problem(game, report)
        if claim is not None:
            report.violations.append(claim)
    return report


def _close_by_silence(state: State, report: Report, steps: bool) -> None:
    """The record ends in the last trick's sluffing window: nobody sluffed more, so the
    winner took it and the game ended (pagat.com, 'All Players play to Each Trick in
    Phase One': one more opportunity to sluff, then phase one is over)."""
    events = engine.close_window(state)
    if steps and report.steps:
        last = report.steps[-1]
        last.happened = [*last.happened, *events]
        last.table = state.view()


def _claim_problem(game: Game, report: Report) -> Violation | None:
    """Whether the record's ``result`` says what the rules say."""
    if game.claimed_losers is None:
        return None
    names = game.players
    claimed = tuple(names[p] for p in game.claimed_losers)
    if not report.finished:
        return Violation.later("result.unfinished", _claimed_unfinished, claimed)
    actual = tuple(report.losers)
    if sorted(claimed) == sorted(actual) and (game.claim_several or len(actual) == 1):
        return None
    hint = len(actual) > 1 and not game.claim_several
    return Violation.later("result.loser", _claimed_wrong, claimed, actual, hint)


def _names(names: tuple[str, ...]) -> str:
    """``Anna and Bo``: names joined as a sentence says them."""
    return _(" and ").join(names)


def _claimed_unfinished(claimed: tuple[str, ...]) -> str:
    return ngettext(
        "The record claims {names} lost, but the game is not over",
        "The record claims {names} all lost, but the game is not over",
        len(claimed),
    ).format(names=_names(claimed))


def _claimed_wrong(claimed: tuple[str, ...], actual: tuple[str, ...], hint: bool) -> str:
    """The claim, and the loser(s) the rules make: ``nobody`` when the game ended without."""
    said = ngettext(
        "The record claims {names} lost", "The record claims {names} all lost", len(claimed)
    ).format(names=_names(claimed))
    if not actual:
        return _("{said}, but the rules make nobody the losers").format(said=said)  # (as it was)
    text = ngettext(
        "{said}, but the rules make {names} the loser",
        "{said}, but the rules make {names} the losers",
        len(actual),
    ).format(said=said, names=_names(actual))
    return text + _(" (write them as result.losers)") if hint else text


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


def adjudicate_session(
    session: Session, *, steps: bool = False, go_on: str | None = None
) -> SessionReport:
    """Check every game of a session in order; the Goat of each game leads the next.

    A game followed past its irregularities (:attr:`Report.followed`) that finished still
    gives its loser the next lead and its points to the scores."""
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
            report = adjudicate(game, steps=steps, go_on=go_on)
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
            if report.finished and report.followed:
                points = game_points(session.scoring, report, names)
                for name, got in points.items():
                    scores[name] += got
            per_game.append(points)
    if session.claimed_scores is not None and all(r.followed for r in reports):
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
        return _unknown_leader(game, number)
    if game.first_leader_given:
        assert game.first_leader is not None
        if names[game.first_leader] in previous.losers:
            return None, game
        wrong = Violation.later(
            "session.first_leader",
            _wrong_leader,
            names[game.first_leader],
            number,
            tuple(previous.losers),
        )
        return wrong, game
    if len(previous.losers) != 1:
        raise RecordError(
            f"games[{number}].first_leader",
            _("the previous game had several losers: name the one who leads"),
        )
    return None, replace(game, first_leader=names.index(previous.losers[0]))


def _unknown_leader(game: Game, number: int) -> tuple[Violation, Game]:
    """The previous game has no Goat, so the text names no leader: the first act's player is
    taken to lead, and turn order is not judged against anyone else (issue 20)."""
    leader = None
    if game.actions:
        leader = game.actions[0].player
        game = replace(game, first_leader=leader)
    name = game.players[leader] if leader is not None else None
    return Violation.later(
        "session.first_leader", _leader_unknown, number, name, undetermined=True
    ), game


def _wrong_leader(name: str, number: int, losers: tuple[str, ...]) -> str:
    return _(
        "{name} leads game {number}, but the previous game's loser ({losers}) leads the next game"
    ).format(name=name, number=number + 1, losers=_(" or ").join(losers) or _("nobody"))


def _leader_unknown(number: int, name: str | None) -> str:
    if name is None:
        return _(
            "Game {previous} did not finish, so who leads game {number} is unknown; the record "
            "gives no first_leader"
        ).format(previous=number, number=number + 1)
    return _(
        "Game {previous} did not finish, so who leads game {number} is unknown; the record "
        "gives no first_leader, so {name}, who acts first, is taken to lead"
    ).format(previous=number, number=number + 1, name=name)


def _scores_problem(
    session: Session, reports: list[Report], scores: dict[str, int] | None
) -> Violation | None:
    claimed = session.claimed_scores
    assert claimed is not None
    names = session.players
    if scores is None:
        return Violation.later("session.scores", _no_scoring)
    unfinished = [i for i, r in enumerate(reports) if not r.finished and not r.stopped]
    if unfinished:
        return Violation.later("session.scores", _scores_unfinished, unfinished[0])
    if any(r.stopped for r in reports):
        return None  # not judged: a game's course depends on cards nobody knows
    said = {names[p]: points for p, points in claimed.items()}
    wrong = [name for name in names if said.get(name, 0) != scores[name]]
    if not wrong:
        return None
    given = tuple((name, said.get(name, 0), scores[name]) for name in wrong)
    return Violation.later("session.scores", _scores_wrong, given)


def _no_scoring() -> str:
    return _("The session claims scores, but it has no scoring to count them by")


def _scores_unfinished(number: int) -> str:
    return _("The session claims scores, but game {number} is not finished").format(
        number=number + 1
    )


def _scores_wrong(given: tuple[tuple[str, int, int], ...]) -> str:
    each = _("{name} {claimed} (the rules give {points})")
    return _("The scores claimed are wrong: {scores}").format(
        scores=", ".join(
            each.format(name=name, claimed=claimed, points=points)
            for name, claimed, points in given
        )
    )


def document_from_text(text: str) -> Game | Session:
    """Decode, validate and resolve one record's (or session's) JSON text, or RecordError."""
    return document_from_value(loads(text))


def document_from_value(data: Any) -> Game | Session:
    """Validate and resolve one record's (or session's) decoded JSON, or RecordError: what
    :func:`document_from_text` does once the text is decoded."""
    return build(parse_document(data))


def judge(document: Game | Session, go_on: str | None = None) -> Report | SessionReport:
    """The verdict on a record or a session; RecordError if it lacks what the table saw.

    ``go_on`` reads every unmarked illegal action as 'taken back' or 'stands'."""
    if isinstance(document, Session):
        return adjudicate_session(document, go_on=go_on)
    return adjudicate(document, go_on=go_on)
