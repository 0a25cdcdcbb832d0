"""Drive an outside engine over test vectors and report where it differs from the rules.

The protocol (``docs/conformance.md``): the engine is started once and reads one
JSON object per line on its standard input, ``{"id": ..., "record": ...}``, the
position as a record (a session record for the next game of a session: the
position is at the end of its last game); for each it writes one line on its
standard output, a JSON list of every action it allows next, in record notation.

Its list is compared with the adjudicator's own (recomputed from the record,
not read from the vector file): an action the rules allow that the engine
leaves out is *too strict*; one the engine allows that ``check`` refuses is
*too lenient*, with the rule id.  Equal forms are compared as engine actions, so
``"Bo pick"`` and ``"Bo pick 7H 8H"`` (naming exactly what the rule takes) are one
action.  Deals are chance: each deal the engine lists must pass ``check``, and
the engine must list some deal for every player the rules let shuffle.  An
action naming a card nobody has seen (hidden cards) that ``check`` cannot
refuse outright is never counted against the engine.

A timeout, a crash, an exit or a line that is not a list of actions is a
:class:`Failure` (one line each); the engine is restarted for the next
position.
"""

from __future__ import annotations

import json
import os
import selectors
import shlex
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adjudicator import engine, record
from adjudicator.actions import Action
from adjudicator.engine.state import State
from adjudicator.exceptions import AdjudicatorError
from adjudicator.play import legal, listing
from adjudicator.record import SESSION_FORMAT, Game, RecordError

TIMEOUT = 10.0
"""Seconds an engine may take over one position (``--timeout``)."""

STARTUP = 10.0
"""Seconds a (re)started engine gets for its first answer on top of the timeout: loading
a program is no answer to a position."""

GIVE_UP_AFTER = 3
"""Positions failed in a row (no answer, exits) after which the run stops."""

TOO_STRICT, TOO_LENIENT = "too strict", "too lenient"


class HarnessError(AdjudicatorError):
    """The run cannot go on (unreadable vectors, an engine that cannot be started): one line."""


@dataclass
class Position:
    """A vector, loaded: the record, and the table at its end."""

    id: str
    line: int
    record: dict[str, Any]
    game: Game
    state: State

    @property
    def length(self) -> int:
        """Actions before the position (for 'the shortest record of each kind')."""
        return len(self.game.actions)


@dataclass
class Difference:
    """One action on which the engine and the rules disagree at one position."""

    kind: str
    """:data:`TOO_STRICT` or :data:`TOO_LENIENT`."""
    key: str
    """The rule id that refuses it (too lenient) or the act the engine refused (too strict)."""
    position: Position
    action: listing.Form
    message: str = ""
    """Why the rules refuse it (too lenient)."""


@dataclass
class Failure:
    """A position the engine gave no usable answer for."""

    id: str
    message: str


@dataclass
class Report:
    """What a run found."""

    positions: int = 0
    agreed: int = 0
    differences: list[Difference] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    stopped: str | None = None
    """Why the run ended early (the engine kept failing)."""

    @property
    def clean(self) -> bool:
        """No difference, no failure: exit status 0."""
        return not self.differences and not self.failures and self.stopped is None

    def groups(self) -> dict[tuple[str, str], list[Difference]]:
        """Differences by (kind, rule id or act), too lenient first, in key order."""
        out: dict[tuple[str, str], list[Difference]] = {}
        for d in sorted(self.differences, key=lambda d: (d.kind != TOO_LENIENT, d.key)):
            out.setdefault((d.kind, d.key), []).append(d)
        return out


# --- reading vectors ----------------------------------------------------------------


def read_vectors(path: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, vector) for each non-empty line; a bad line is a HarnessError."""
    try:
        handle = open(path, encoding="utf-8")  # noqa: SIM115 (closed below)
    except OSError as exc:
        raise HarnessError(f"{path}: cannot read: {exc.strerror}") from None
    with handle:
        try:
            for number, text in enumerate(handle, 1):
                if not text.strip():
                    continue
                try:
                    row = record.loads(text)
                except RecordError as exc:
                    raise HarnessError(f"{path}:{number}: {exc.message}") from None
                if not isinstance(row, dict) or not isinstance(row.get("record"), dict):
                    raise HarnessError(f"{path}:{number}: not a vector (no 'record' object)")
                yield number, row
        except UnicodeDecodeError:
            raise HarnessError(f"{path}: not UTF-8 text") from None


def load_position(row: dict[str, Any], number: int, label: str) -> Position:
    """The vector's record replayed to its end; a record that does not get there is an error."""
    where = f"{label}:{number}"
    try:
        document = record.load(row["record"])
    except RecordError as exc:
        raise HarnessError(f"{where}: record {exc.path or ''}: {exc.message}") from None
    game = document if isinstance(document, Game) else document.games[-1]
    try:
        state = legal.position(game).state
    except RecordError as exc:
        raise HarnessError(f"{where}: record {exc.path}: {exc.message}") from None
    except legal.Unreachable as exc:
        raise HarnessError(
            f"{where}: the record is illegal at action {exc.violation.index}: "
            f"{exc.violation.message}"
        ) from None
    return Position(str(row.get("id", f"line {number}")), number, row["record"], game, state)


# --- the outside engine --------------------------------------------------------------


class Engine:
    """The outside engine as a process answering one line per line, restarted when it dies."""

    def __init__(self, command: str, timeout: float) -> None:
        try:
            self.argv = shlex.split(command)
        except ValueError as exc:
            raise HarnessError(f"--engine: {exc}") from None
        if not self.argv:
            raise HarnessError("--engine: empty command")
        self.timeout = timeout
        self.proc: subprocess.Popen[bytes] | None = None
        self.buffer = b""
        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115 (kept for the engine's life)

    def _start(self) -> subprocess.Popen[bytes]:
        try:
            proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.stderr,
            )
        except OSError as exc:
            raise HarnessError(
                f"--engine: cannot start {self.argv[0]}: {exc.strerror or exc}"
            ) from None
        self.buffer = b""
        return proc

    def stop(self) -> None:
        """End the engine process (closing its input first, then by force)."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait(timeout=1)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()

    def _last_error_line(self) -> str:
        self.stderr.seek(0)
        lines = self.stderr.read().decode("utf-8", "replace").strip().splitlines()
        self.stderr.seek(0)
        self.stderr.truncate()
        return f": {lines[-1][:120]}" if lines else ""

    def ask(self, question: str) -> str:
        """Send one line, return the answer line; raise :class:`NoAnswer` on failure."""
        grace = 0.0
        if self.proc is None:
            self.proc = self._start()
            grace = STARTUP
        proc = self.proc
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(question.encode("utf-8") + b"\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise NoAnswer(self._died()) from None
        deadline = time.monotonic() + self.timeout + grace
        fd = proc.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    self.stop()
                    raise NoAnswer(f"no answer within {self.timeout:g} s (engine restarted)")
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    raise NoAnswer(self._died())
                self.buffer += chunk
        answer, _, self.buffer = self.buffer.partition(b"\n")
        return answer.decode("utf-8", "replace")

    def _died(self) -> str:
        proc = self.proc
        assert proc is not None
        try:
            status = proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            status = None
        self.stop()
        how = f"exited with status {status}" if status is not None else "closed its output"
        return f"the engine {how} without answering{self._last_error_line()} (restarted)"


class NoAnswer(AdjudicatorError):
    """The engine gave no line for a position: timed out, crashed or exited."""


# --- comparing -----------------------------------------------------------------------


def parse_answer(position: Position, text: str) -> list[Action]:
    """The engine's line as actions; a line that is not a list of actions raises ValueError."""
    try:
        items = json.loads(text)
    except ValueError:
        raise ValueError(f"answer is not JSON: {_short(text)}") from None
    if not isinstance(items, list):
        raise ValueError(f"answer is not a JSON list: {_short(text)}")
    for i, item in enumerate(items):
        if not isinstance(item, str | dict):
            raise ValueError(f"answer item {i} is not an action: {_short(json.dumps(item))}")
    if not items:
        return []
    data = json.loads(json.dumps(position.record))
    target = data if data.get("format") != SESSION_FORMAT else data["games"][-1]
    before = len(target["actions"])
    target["actions"] = target["actions"] + items
    target.pop("result", None)
    try:
        document = record.load(data)
    except RecordError as exc:
        where = exc.path
        if where.startswith("games["):
            where = where.partition(".")[2]
        if where.startswith("actions["):
            index = int(where[len("actions[") :].partition("]")[0]) - before
            raise ValueError(f"answer item {index}: {exc.message}") from None
        raise ValueError(f"answer is not a list of actions: {exc.message}") from None
    game = document if isinstance(document, Game) else document.games[-1]
    return game.actions[before:]


def _short(text: str) -> str:
    text = text.strip()
    return repr(text[:60] + ("…" if len(text) > 60 else ""))


def _plain(state: State, action: Action) -> Action:
    """A pick or dare naming its cards as the cardless form, when the cards are right."""
    if action.act in ("pick", "dare") and action.cards:
        bare = action._replace(cards=())
        if engine.check(state, action) is None and engine.check(state, bare) is None:
            return bare
    return action


def compare(position: Position, theirs: list[Action]) -> list[Difference]:
    """Where the engine's actions and the rules' differ at ``position``."""
    state = position.state
    names = position.game.players
    ours = {_plain(state, a) for a in engine.legal_actions(state)}
    given = {_plain(state, a) for a in theirs}
    out: list[Difference] = []
    for action in sorted(given - ours, key=lambda a: listing.show(a.record_form(names))):
        bad = engine.check(state, action)
        if bad is None or bad.undetermined:
            continue  # legal (a deal of its own), or cannot be refused with hidden cards
        out.append(
            Difference(TOO_LENIENT, bad.rule, position, action.record_form(names), bad.message)
        )
    dealt = {a.player for a in given if a.act == "deal" and engine.check(state, a) is None}
    strict = [a for a in ours - given if a.act != "deal"]
    shufflers = {a.player for a in ours if a.act == "deal"}
    for player in sorted(shufflers - dealt):
        strict.append(
            min((a for a in ours if a.act == "deal" and a.player == player), key=lambda a: a.to)
        )
    for action in sorted(strict, key=lambda a: listing.show(a.record_form(names))):
        out.append(Difference(TOO_STRICT, action.act, position, action.record_form(names)))
    return out


# --- the run -----------------------------------------------------------------------------


def run(command: str, positions: Iterable[Position], timeout: float = TIMEOUT) -> Report:
    """Ask the engine about every position and compare its answers with the rules."""
    report = Report()
    outside = Engine(command, timeout)
    failed_in_a_row = 0
    try:
        for position in positions:
            report.positions += 1
            question = json.dumps(
                {"id": position.id, "record": position.record}, ensure_ascii=False
            )
            try:
                answer = outside.ask(question)
            except NoAnswer as exc:
                report.failures.append(Failure(position.id, str(exc)))
                failed_in_a_row += 1
                if failed_in_a_row >= GIVE_UP_AFTER:
                    report.stopped = (
                        f"the engine failed {failed_in_a_row} positions in a row; run stopped"
                    )
                    break
                continue
            failed_in_a_row = 0
            try:
                theirs = parse_answer(position, answer)
            except ValueError as exc:
                report.failures.append(Failure(position.id, str(exc)))
                continue
            found = compare(position, theirs)
            if found:
                report.differences.extend(found)
            else:
                report.agreed += 1
    finally:
        outside.stop()
    return report


def replay_record(difference: Difference) -> dict[str, Any]:
    """The position's record with the disputed action appended, for the author to replay."""
    data: dict[str, Any] = json.loads(json.dumps(difference.position.record))
    target = data if data.get("format") != SESSION_FORMAT else data["games"][-1]
    target["actions"] = [*target["actions"], difference.action]
    target.pop("result", None)
    data["meta"] = {
        "conformance": {
            "vector": difference.position.id,
            "kind": difference.kind,
            "rule" if difference.kind == TOO_LENIENT else "act": difference.key,
            "engine": "allows the last action"
            if difference.kind == TOO_LENIENT
            else "refuses the last action",
        }
    }
    return data


def write_shortest(
    report: Report, folder: Path, write: Callable[[Path, str], None] | None = None
) -> list[Path]:
    """For each kind of difference, the shortest record showing it: one JSON file each,
    written by ``write`` (the command line's, which writes each whole or not at all)."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for (kind, key), found in report.groups().items():
        shortest = min(found, key=lambda d: (d.position.length, d.position.line))
        name = f"{kind.replace(' ', '-')}-{key}.json"
        path = folder / name
        text = json.dumps(replay_record(shortest), indent=2, ensure_ascii=False) + "\n"
        if write is None:
            path.write_text(text, encoding="utf-8")
        else:
            write(path, text)
        written.append(path)
    return written


def render(report: Report, written: dict[tuple[str, str], Path] | None = None) -> Iterator[str]:
    """The report as lines of text: a summary, then each group and its positions."""
    written = written or {}
    groups = report.groups()
    differ = len({d.position.id for d in report.differences})
    yield (
        f"{report.positions} positions: {report.agreed} agree, {differ} differ, "
        f"{len(report.failures)} without a usable answer"
    )
    for (kind, key), found in groups.items():
        where = len({d.position.id for d in found})
        head = f"{kind}: {key} ({where} position{'s' if where != 1 else ''}"
        if (kind, key) in written:
            head += f"; shortest record: {written[kind, key]}"
        yield head + ")"
        verb = "allows" if kind == TOO_LENIENT else "refuses"
        for d in found:
            why = f" — {d.message}" if d.message else ""
            yield f"  {d.position.id}: the engine {verb} {listing.show(d.action)}{why}"
    if report.failures:
        yield "no usable answer:"
        for failure in report.failures:
            yield f"  {failure.id}: {failure.message}"
    if report.stopped is not None:
        yield f"stopped: {report.stopped}"
