"""Mutation run over the engine's rule predicates: flip one comparison, run the fast tests.

Each mutant changes one comparison operator in one rule predicate to its neighbour at
the boundary (``<`` and ``<=``, ``>`` and ``>=``, ``==`` and ``!=``, ``in`` and
``not in``), in a copy of the package, and runs the tests named (pure Python, ``-x``,
the slow ones left out).  A mutant no test fails "survives": either the suite misses a
rule's boundary, or the two operators cannot differ there (say which in
docs/development.md).

    python benchmarks/mutate_rules.py                 # every target, the default tests
    python benchmarks/mutate_rules.py --only beats    # functions whose name matches
    python benchmarks/mutate_rules.py --list          # the mutants, not run

Slow by nature (one pytest run per mutant): run it after changing a rule, not in CI.
"""

from __future__ import annotations

import argparse
import ast
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TARGETS: dict[str, tuple[str, ...]] = {
    "adjudicator/engine/phase_two.py": (
        "beats",
        "surely_beats",
        "run_problem",
        "pick_plan",
        "high_trump",
        "completes",
    ),
    "adjudicator/engine/common.py": ("dare_floor", "can_dare", "dare_problem"),
    "adjudicator/engine/phase_one_pairs.py": (
        "beats",
        "_check_follow",
        "_check_pick",
        "_check_set_aside",
        "_check_exchange",
    ),
    "adjudicator/engine/phase_one_all.py": (
        "head",
        "tie_ranks",
        "_tie_problem",
        "heading_plays",
        "losing_ranks",
        "could_win",
        "sluffable",
        "_check_sluff",
    ),
}
"""The rule predicates: module -> functions.  A name a module lacks is reported, not
skipped silently."""

TESTS = (
    "tests/engine/test_fast_paths.py",
    "tests/cli/test_samples.py",
    "tests/engine/test_violations.py",
    "tests/engine/test_phase_two.py",
    "tests/engine/test_phase_one_all.py",
    "tests/engine/test_new_rules.py",
    "tests/engine/test_intermission.py",
)

PYTEST = (
    sys.executable,
    "-P",
    "-m",
    "pytest",
    "-x",
    "-q",
    "-p",
    "no:randomly",
    "-p",
    "no:cacheprovider",
)
PYTEST_FAST = ("-m", "not slow")

SWAP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
}


@dataclass(frozen=True)
class Mutant:
    module: str
    function: str
    line: int
    number: int
    """Which comparison operator of the function, in walk order."""
    before: str
    after: str

    def __str__(self) -> str:
        return f"{self.module}:{self.line} {self.function}: {self.before} -> {self.after}"


def _ops(function: ast.FunctionDef) -> list[tuple[ast.Compare, int]]:
    return [
        (node, i)
        for node in ast.walk(function)
        if isinstance(node, ast.Compare)
        for i, op in enumerate(node.ops)
        if type(op) in SWAP
    ]


def mutants(only: str | None = None) -> list[Mutant]:
    found: list[Mutant] = []
    for module, names in TARGETS.items():
        tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
        functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
        for name in names:
            if name not in functions:
                raise SystemExit(f"{module} has no function {name}: update TARGETS")
            if only and only not in name:
                continue
            for number, (node, i) in enumerate(_ops(functions[name])):
                op = node.ops[i]
                found.append(
                    Mutant(
                        module,
                        name,
                        node.lineno,
                        number,
                        type(op).__name__,
                        SWAP[type(op)].__name__,
                    )
                )
    return found


def mutated_source(m: Mutant) -> str:
    tree = ast.parse((ROOT / m.module).read_text(encoding="utf-8"))
    function = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == m.function)
    node, i = _ops(function)[m.number]
    node.ops[i] = SWAP[type(node.ops[i])]()
    return ast.unparse(tree)


def run(m: Mutant, package: Path, tests: tuple[str, ...], timeout: float) -> str:
    """``killed``, ``survived`` or ``timeout``."""
    target = package / m.module
    original = target.read_text(encoding="utf-8")
    target.write_text(mutated_source(m), encoding="utf-8")
    env = {**os.environ, "ADJUDICATOR_PURE": "1", "PYTHONPATH": str(package)}
    try:
        done = subprocess.run(
            [*PYTEST, *PYTEST_FAST, *tests],
            cwd=ROOT,
            env=env,
            capture_output=True,
            timeout=timeout,
        )
        return "survived" if done.returncode == 0 else "killed"
    except subprocess.TimeoutExpired:
        return "timeout"
    finally:
        target.write_text(original, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="functions whose name contains this")
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per mutant")
    parser.add_argument("tests", nargs="*", default=list(TESTS))
    args = parser.parse_args()
    found = mutants(args.only)
    if args.list:
        for m in found:
            print(m)
        print(f"{len(found)} mutants")
        return
    with tempfile.TemporaryDirectory() as folder:
        package = Path(folder)
        shutil.copytree(
            ROOT / "adjudicator",
            package / "adjudicator",
            ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"),
        )
        survivors: list[Mutant] = []
        started = time.perf_counter()
        for number, m in enumerate(found, 1):
            verdict = run(m, package, tuple(args.tests), args.timeout)
            print(f"[{number}/{len(found)}] {verdict:8} {m}", flush=True)
            if verdict != "killed":
                survivors.append(m)
        took = time.perf_counter() - started
    print(f"{len(found) - len(survivors)} of {len(found)} killed in {took:.0f} s")
    for m in survivors:
        print(f"survived: {m}")


if __name__ == "__main__":
    main()
