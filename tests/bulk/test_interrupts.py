"""A run over many records cut short (issue 23): a worker killed, Ctrl-C and SIGTERM at
any moment end it in one line with their own exit status and no worker left, on the local
pool (``bulk``) and on Dask; a signal inside the pool's code or the caller's is raised at
once; an interrupted run leaves the old output.  The process tests run the command as a
subprocess, with bounded timeouts."""

from __future__ import annotations

import itertools
import json
import multiprocessing
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from conftest import COMMAND_TIMEOUT
from conftest import adjudicator_command as command
from conftest import run_adjudicator as run

from adjudicator import bulk


def _processes() -> dict[int, tuple[int, str]]:
    """Every process: pid -> (parent pid, state)."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        table[int(entry)] = (int(fields[1]), fields[0])
    return table


def descendants(pid: int) -> set[int]:
    """The living processes below ``pid``."""
    table = _processes()
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {
            child
            for child, (parent, state) in table.items()
            if parent in frontier and state != "Z" and child not in found
        }
        found |= frontier
    return found


def alive(pid: int) -> bool:
    state = _processes().get(pid)
    return state is not None and state[1] != "Z"


def _as_at_a_terminal() -> None:
    """Ctrl-C handled as at a terminal, even where the tests run as a background job
    (which ignores it, and passes that on to every process it starts)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(*args: str) -> subprocess.Popen[str]:
    """The command in a process group of its own, as a shell runs a job."""
    return subprocess.Popen(
        [*command(), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_as_at_a_terminal,
    )


def wait_for_workers(process: subprocess.Popen[str], count: int, settle: float = 1.0) -> set[int]:
    """The worker processes once ``count`` of them run (fails if the run ends first),
    ``settle`` seconds later (to let them take records)."""
    deadline = time.monotonic() + COMMAND_TIMEOUT
    while time.monotonic() < deadline:
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        workers = descendants(process.pid)
        if len(workers) >= count:
            time.sleep(settle)
            return descendants(process.pid)
        time.sleep(0.1)
    pytest.fail("the workers never started")


def finish(process: subprocess.Popen[str], workers: set[int]) -> tuple[int, str]:
    """Exit status and stderr; fails if it hangs or leaves a worker running."""
    try:
        _, err = process.communicate(timeout=COMMAND_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        pytest.fail("the run hung")
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [pid for pid in workers if alive(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"workers left running: {left}"
    return process.returncode, err


def one_line(err: str, words: str) -> None:
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], err


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory, games: list[dict[str, Any]]) -> Path:
    """20,000 JSON Lines records: a run long enough to be interrupted."""
    path = tmp_path_factory.mktemp("corpus") / "corpus.jsonl"
    block = "".join(json.dumps(g) + "\n" for g in games)
    with path.open("w", encoding="utf-8") as out:
        for _ in range(5000):
            out.write(block)
    return path


def _mapped(pid: int, library: str) -> bool:
    """Whether process ``pid`` has loaded a shared library whose path holds ``library``."""
    try:
        return library in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


def _endless(text: str, signum: int, at: int, after: list[int]) -> Iterator[bulk.Source]:
    """Records without end; at record ``at`` this process sends itself ``signum`` (the
    pool is reading records then: its code runs, not its caller's)."""
    for number in itertools.count(1):
        if number == at:
            os.kill(os.getpid(), signum)
            after.append(number)  # not reached if the signal is raised at once
        yield bulk.Source("r.jsonl", number, text)


class Stop(Exception):
    """What a test's own SIGTERM handler raises."""


def _raise_stop(signum: int, frame: Any) -> None:
    raise Stop


# --- interrupts and dead workers -------------------------------------------------------


def test_a_killed_worker_is_one_line_and_exit_2(corpus: Path) -> None:
    process = start("check", str(corpus), "--jobs", "2")
    workers = wait_for_workers(process, 2)
    os.kill(max(workers), signal.SIGKILL)
    code, err = finish(process, workers)
    assert code == 2, err
    one_line(err, "a worker process died")


@pytest.mark.parametrize("as_json", [False, True])
def test_ctrl_c_with_two_jobs_is_one_line_and_exit_130(corpus: Path, as_json: bool) -> None:
    process = start("check", str(corpus), "--jobs", "2", *(["--json"] if as_json else []))
    workers = wait_for_workers(process, 2)
    os.killpg(process.pid, signal.SIGINT)  # as a terminal sends it: to the whole group
    code, err = finish(process, workers)
    assert code == 130, err
    one_line(err, "interrupted")


def test_sigterm_with_two_jobs_is_one_line_and_exit_143(corpus: Path) -> None:
    process = start("check", str(corpus), "--jobs", "2")
    workers = wait_for_workers(process, 2)
    process.send_signal(signal.SIGTERM)  # to the parent alone
    code, err = finish(process, workers)
    assert code == 143, err
    one_line(err, "terminated")


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_while_the_command_is_still_starting_is_one_line(
    corpus: Path, signum: int, code: int
) -> None:
    """Importing the program takes a second or so: Ctrl-C then was a KeyboardInterrupt
    traceback from inside some import (a third of the runs of the stress script, with
    Ctrl-C at a random 0.2-2 s), SIGTERM an end without a word.  Here the signal comes
    once pydantic's core is loaded, in the middle of the package's imports."""
    process = start("check", str(corpus), "--jobs", "2")
    deadline = time.monotonic() + COMMAND_TIMEOUT
    while not _mapped(process.pid, "_pydantic_core") and time.monotonic() < deadline:
        assert process.poll() is None
        time.sleep(0.002)
    if signum == signal.SIGINT:
        os.killpg(process.pid, signum)
    else:
        process.send_signal(signum)
    status, err = finish(process, descendants(process.pid))
    assert status == code, err
    one_line(err, "interrupted" if signum == signal.SIGINT else "terminated")


def test_ctrl_c_at_several_moments_of_a_run_with_two_jobs(corpus: Path) -> None:
    """Ctrl-C used to land, now and then, inside the process pool's own code: a
    traceback from its thread as the command exited (a closed pipe), or an exit that
    never came (tests/fuzz/interrupt_stress.py counts them over a hundred runs: about
    one in twenty).  A few moments here, from the workers' start on."""
    for delay in (0.0, 0.2, 0.5, 0.9):
        process = start("check", str(corpus), "--jobs", "2", "--json")
        workers = wait_for_workers(process, 2, settle=delay)
        os.killpg(process.pid, signal.SIGINT)
        code, err = finish(process, workers)
        assert code == 130, (delay, err)
        one_line(err, "interrupted")


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_in_the_pools_code_stops_it_then_is_raised(
    games: list[dict[str, Any]], signum: int
) -> None:
    """The signal is noted, the pool is stopped between its calls, the workers are
    gone, the handlers are as they were, and then the signal is raised as usual."""
    expected = KeyboardInterrupt if signum == signal.SIGINT else Stop
    previous = signal.signal(signal.SIGTERM, _raise_stop)
    try:
        handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
        after: list[int] = []
        results = bulk.check_all(_endless(json.dumps(games[0]), signum, 1000, after), jobs=2)
        verdicts = 0
        with pytest.raises(expected):
            for _ in results:
                verdicts += 1
        assert after == [1000]  # noted, not raised inside the pool's reading
        assert 0 < verdicts < 1000  # stopped at once: the batches out were not awaited
        assert multiprocessing.active_children() == []
        assert {s: signal.getsignal(s) for s in handlers} == handlers
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_a_signal_while_the_caller_holds_a_verdict_interrupts_the_caller(
    games: list[dict[str, Any]],
) -> None:
    results = bulk.check_all(_endless(json.dumps(games[0]), 0, 0, []), jobs=2)
    with closing(results):
        next(results)
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)  # interrupted here, at once
    assert multiprocessing.active_children() == []
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_signal_lost_in_the_callers_code_is_raised_at_the_next_verdict(
    games: list[dict[str, Any]],
) -> None:
    """Raised inside a finalizer or an at-fork hook, KeyboardInterrupt is swallowed
    ("Exception ignored in ...") and the run went on as if nothing had been pressed."""
    results = bulk.check_all(_endless(json.dumps(games[0]), 0, 0, []), jobs=2)
    with closing(results):
        next(results)
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)
        except KeyboardInterrupt:
            pass  # as a finalizer swallows it
        with pytest.raises(KeyboardInterrupt):
            next(results)
        assert multiprocessing.active_children() == []
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_dask_local_stops_in_one_line(corpus: Path, signum: int, code: int) -> None:
    pytest.importorskip("distributed")
    process = start("check", str(corpus), "--dask", "local")
    workers = wait_for_workers(process, 4)  # fork server, tracker, two workers
    if signum == signal.SIGINT:
        os.killpg(process.pid, signum)
    else:
        process.send_signal(signum)
    status, err = finish(process, workers)
    assert status == code, err
    one_line(err, "interrupted" if signum == signal.SIGINT else "terminated")


def test_jobs_are_capped_at_the_cores_and_the_records(
    tmp_path: Path, games: list[dict[str, Any]]
) -> None:
    cores = os.cpu_count() or 1
    assert bulk.workers(10**20) == cores
    assert bulk.workers(10**20, 3) == min(cores, 3)
    assert bulk.workers(0, 0) == 1
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(g) + "\n" for g in games), encoding="utf-8")
    done = run("check", str(path), "--jobs", "99999999999999999999")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count(": legal") == len(games)


def test_an_illegal_record_alone_exits_1(tmp_path: Path, games: list[dict[str, Any]]) -> None:
    record = dict(games[0])
    loser = record["result"]["loser"]
    record["result"] = {"loser": next(p for p in record["players"] if p != loser)}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert run("check", str(path), "--jobs", "2").returncode == 1


def test_an_interrupted_run_leaves_the_old_output(corpus: Path, tmp_path: Path) -> None:
    target = tmp_path / "legal.jsonl"
    target.write_text("old\n", encoding="utf-8")
    process = start("check", str(corpus), "--jobs", "2", "--write-legal", str(target))
    workers = wait_for_workers(process, 2)
    process.send_signal(signal.SIGTERM)
    code, err = finish(process, workers)
    assert code == 143, err
    assert target.read_text(encoding="utf-8") == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["legal.jsonl"]  # no temporary left
