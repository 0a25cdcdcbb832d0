"""Checking on Dask: the same verdicts, byte for byte and in input order, as a local run.

One LocalCluster of two worker processes serves the module (its scheduler
address is passed to ``check --dask``); one more test starts its own with
``--dask local``.  Skipped when dask is not installed, except the test that
a missing dask is one line and exit status 2.
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner

from adjudicator import bulk
from adjudicator.bulk import Source, cluster
from adjudicator.cli.commands import main
from adjudicator.play.simulate import simulate

SAMPLES = Path(__file__).parents[2] / "sample_games"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def test_without_dask_the_option_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    record = tmp_path / "r.json"
    record.write_text("{}", encoding="utf-8")
    code, out, err = run("check", "--dask", "local", str(record))
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "install skitgubbe-adjudicator[dask]" in lines[0], lines


@pytest.fixture(scope="module")
def dask_bag() -> Any:
    pytest.importorskip("distributed")
    return pytest.importorskip("dask.bag")


@pytest.fixture(scope="module")
def client(dask_bag: Any) -> Iterator[Any]:
    client = cluster.connect("local")
    yield client
    client.close()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Paths of every kind: a folder of samples (legal, illegal, invalid), a JSON Lines
    file mixing simulated games with bad lines, a file that is not UTF-8, a missing file."""
    tmp = tmp_path_factory.mktemp("corpus")
    games = [json.dumps(r, ensure_ascii=False) for r in simulate("pagat", 3, 5, 12)]
    wrong = json.loads(games[3])
    wrong["actions"][5], wrong["actions"][6] = wrong["actions"][6], wrong["actions"][5]
    lines = [
        *games[:6],
        "",
        json.dumps(wrong),
        "{not json",
        "[" * 5000 + "]" * 5000,
        '{"format": "skitgubbe-record/1", "players": ["Åsa"]}',
        *games[6:],
    ]
    jsonl = tmp / "games.jsonl"
    jsonl.write_bytes("\n".join(lines).encode() + b"\n\xff\xfe not utf-8\n" + games[0].encode())
    latin = tmp / "latin1.json"
    latin.write_bytes('{"players": ["Åsa"]}'.encode("latin-1"))
    return [str(SAMPLES), str(jsonl), str(latin), str(tmp / "missing.json")]


def address(client: Any) -> str:
    return client.scheduler.address


def test_check_json_on_dask_is_byte_identical_to_a_local_run(
    client: Any, corpus: list[str]
) -> None:
    local = run("check", "--json", *corpus)
    on_dask = run("check", "--json", "--dask", address(client), *corpus)
    assert on_dask == local
    code, out, _ = local
    assert code == 2
    statuses = [json.loads(line)["status"] for line in out.splitlines()]
    assert len(statuses) == len(list(bulk.sources(corpus)))
    assert {"legal", "illegal", "invalid"} <= set(statuses)


def test_human_output_on_dask_is_the_local_output(client: Any, corpus: list[str]) -> None:
    local = run("check", "--all", *corpus)
    assert run("check", "--all", "--dask", address(client), *corpus) == local
    assert "Checked" in local[1] and ": illegal" in local[1] and ": invalid" in local[1]


@pytest.mark.parametrize("go_on", ["taken-back", "stands"])
def test_go_on_on_dask_is_the_local_run(client: Any, corpus: list[str], go_on: str) -> None:
    local = run("check", "--json", "--go-on", go_on, *corpus)
    assert run("check", "--json", "--go-on", go_on, "--dask", address(client), *corpus) == local
    followed = [json.loads(line) for line in local[1].splitlines()]
    # the swapped game is followed past its first irregularity, to its end
    assert any(v["status"] == "illegal" and v["applied"] == v["actions"] for v in followed)


def test_dask_local_starts_its_own_cluster(client: Any, corpus: list[str]) -> None:
    assert run("check", "--json", "--dask", "local:1", *corpus) == run("check", "--json", *corpus)


@pytest.mark.parametrize("bad", ["local:0", "local:x"])
def test_a_bad_local_address_is_one_line(dask_bag: Any, bad: str, corpus: list[str]) -> None:
    code, out, err = run("check", "--dask", bad, *corpus)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and bad in err


def test_many_small_batches_keep_input_order(client: Any, corpus: list[str]) -> None:
    local = [c.as_json() for c in bulk.check_all(bulk.sources(corpus))]
    remote = [c.as_json() for c in cluster.check_paths_on(client, corpus, batch=3, window=2)]
    assert remote == local


def test_records_stream_through_the_driver(client: Any) -> None:
    """Taking 30 verdicts pulls a few batches beyond them, not the endless source."""
    text = next(simulate("pagat", 2, 1, 1))
    line = json.dumps(text)
    pulled = 0

    def endless() -> Iterator[Source]:
        nonlocal pulled
        for number in itertools.count(1):
            pulled += 1
            yield Source("endless.jsonl", number, line)

    verdicts = cluster.check_on(client, endless(), batch=4, window=3)
    first = list(itertools.islice(verdicts, 30))
    verdicts.close()
    assert [c.line for c in first] == list(range(1, 31))
    assert {c.status for c in first} == {"legal"}
    assert pulled <= 30 + 4 * 4


def test_check_bag_of_sources_equals_check_json(client: Any, corpus: list[str]) -> None:
    local = [c.as_json() for c in bulk.check_all(bulk.sources(corpus))]
    bag = cluster.check_bag(cluster.sources_bag(corpus))
    assert bag.compute(scheduler=client) == local


def test_check_bag_of_json_lines_text(client: Any, dask_bag: Any, corpus: list[str]) -> None:
    jsonl = corpus[1]
    texts = [s.text for s in bulk.sources([jsonl]) if s.text is not None]
    bag = dask_bag.from_sequence([*texts, "  \n"], npartitions=3)
    got = cluster.check_bag(bag, file="lines").compute(scheduler=client)
    want = [bulk.check_source(Source("lines", None, t)).as_json() for t in texts]
    assert got == want
    read = dask_bag.read_text(jsonl, include_path=False, encoding="latin-1")
    assert len(cluster.check_bag(read).compute(scheduler=client)) == len(texts) + 1


def test_a_batch_the_cluster_lost_is_one_line_naming_its_records(dask_bag: Any) -> None:
    """A worker killed again and again (distributed gives up: KilledWorker) ends the run
    with one line naming the records of the lost batch, not a traceback."""
    import distributed

    class Lost:
        def result(self) -> None:
            worker = SimpleNamespace(address="tcp://10.0.0.9:4000")
            raise distributed.KilledWorker("check_batch-1", worker, 3)

    class Cluster:
        def nthreads(self) -> dict[str, int]:
            return {"tcp://10.0.0.9:4000": 1}

        def submit(self, *args: Any, **kwargs: Any) -> Lost:
            return Lost()

    items = (Source("r.jsonl", n, "{}") for n in range(1, 6))
    with pytest.raises(cluster.ClusterError) as caught:
        list(cluster.check_on(Cluster(), items, batch=3))  # type: ignore[arg-type]
    assert caught.value.exit_code == 2
    message = caught.value.format_message()
    assert "r.jsonl:1 to r.jsonl:3" in message and "KilledWorker" in message
    assert len(message.splitlines()) == 1


def test_an_ignored_ctrl_c_stays_ignored_while_a_cluster_starts() -> None:
    """A job started in the background ignores Ctrl-C; starting a local cluster used to
    catch it for a moment all the same (and end the run with 130)."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with cluster._ctrl_c_deferred() as caught:
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
            os.kill(os.getpid(), signal.SIGINT)
        assert caught == []
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        signal.signal(signal.SIGINT, signal.default_int_handler)
        with cluster._ctrl_c_deferred() as caught:  # and one that is not ignored is noted
            os.kill(os.getpid(), signal.SIGINT)
        assert caught == [signal.SIGINT]
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, previous)
