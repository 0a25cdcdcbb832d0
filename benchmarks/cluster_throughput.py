"""Records/s of ``adjudicator check --json`` with ``--jobs 1``, ``--jobs 2`` and ``--dask local``.

Runs the real command line on one JSON Lines corpus, each way ``--repeat``
times in turn, keeps the fastest run of each (the machine's noise only ever
adds time), checks that every way printed byte-identical output, and prints
records/s and the peak memory of the biggest process of the run.  A
``--dask local`` run includes starting its LocalCluster (2 worker processes).

    adjudicator simulate --count 20000 --seed 7 > corpus.jsonl
    python benchmarks/cluster_throughput.py corpus.jsonl [--repeat 3]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time

WAYS: dict[str, list[str]] = {
    "--jobs 1": ["--jobs", "1"],
    "--jobs 2": ["--jobs", "2"],
    "--dask local (2 workers)": ["--dask", "local"],
}


def run(command: list[str], out_path: str) -> tuple[float, int, float, float]:
    """(seconds, exit status, max RSS in MB of the largest process, CPU seconds) of one run.

    The CPU time is the command's and its worker processes' (they are its children),
    user and system: unlike the wall clock, other work on the machine does not add to it.
    """
    with open(out_path, "wb") as out:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    return seconds, process.returncode, usage.ru_maxrss / 1024, cpu


def digest(path: str) -> str:
    with open(path, "rb") as stream:
        return hashlib.file_digest(stream, "sha256").hexdigest()


def main() -> None:
    """Time each way, compare the outputs, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", help="a JSON Lines file of records")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    exe = shutil.which("adjudicator")
    if exe is None:
        sys.exit("adjudicator is not on PATH: pip install -e '.[dask]'")
    with open(args.corpus, "rb") as stream:
        records = sum(1 for line in stream if line.strip())
    print(f"corpus: {args.corpus}, {records} records, {os.cpu_count()} cores")
    best: dict[str, tuple[float, float, float]] = {}
    digests = set()
    with tempfile.TemporaryDirectory() as tmp:
        # Round after round, each way once per round: a busy spell on the machine then
        # slows one run of every way rather than every run of one way.
        for i in range(args.repeat):
            for name, extra in WAYS.items():
                out = os.path.join(tmp, "out.jsonl")
                seconds, code, rss, cpu = run([exe, "check", "--json", *extra, args.corpus], out)
                if code not in (0, 1, 2) or os.path.getsize(out) == 0:
                    sys.exit(f"{name}: exit status {code}, {os.path.getsize(out)} bytes of output")
                digests.add(digest(out))
                load = os.getloadavg()[0]
                print(
                    f"  round {i + 1}, {name}: {seconds:.2f} s, {cpu:.1f} s CPU (load {load:.1f})",
                    flush=True,
                )
                if name not in best or seconds < best[name][0]:
                    best[name] = (seconds, rss, cpu)
    rows = [(name, *best[name]) for name in WAYS]
    print(
        f"\nbest of {args.repeat} runs; output byte-identical across all runs: {len(digests) == 1}"
    )
    print(f"{'way':<26}{'seconds':>9}{'records/s':>11}{'max RSS MB':>12}{'CPU s':>8}")
    for name, seconds, rss, cpu in rows:
        print(f"{name:<26}{seconds:>9.2f}{records / seconds:>11,.0f}{rss:>12.0f}{cpu:>8.1f}")
    if len(digests) != 1:
        sys.exit("the outputs differ")


if __name__ == "__main__":
    main()
