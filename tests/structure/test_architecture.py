"""The house reads one way: layers that import only those below them, and a core a browser loads.

Imports are read from the source (``ast``), lazy ones inside functions included; only
those under ``if TYPE_CHECKING:`` are free.  ``python tests/structure/test_architecture.py``
prints the graph, module by module.  docs/architecture.md draws it.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import adjudicator

PACKAGE = Path(adjudicator.__file__).resolve().parent

LAYERS = [
    [
        "_version",
        "exits",
        "_startup",
        "_native",
        "exceptions",
        "invalid",
        "limits",
        "samples",
        "i18n",
    ],
    ["cards", "speech"],
    ["actions"],
    ["rules"],
    ["game"],
    ["record"],
    ["engine"],
    ["play"],
    ["importers"],
    ["service"],
    ["bulk", "conformance"],
    ["web"],
    ["render"],
    ["cli"],
    ["__main__"],
]
"""Bottom first.  A module may import its own layer's modules and those of lower layers."""

EDGE_LIBRARIES = ("rich", "click", "textual", "fastapi", "starlette", "uvicorn", "dask")


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _type_checking_only(tree: ast.AST) -> set[int]:
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", None)
            if name == "TYPE_CHECKING":
                for inner in node.body:
                    skip.update(id(n) for n in ast.walk(inner))
    return skip


def graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports (at any depth of its code)."""
    known = modules()
    edges: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        free = _type_checking_only(tree)
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(tree):
            if id(node) in free:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here.split(".")[: len(here.split(".")) - node.level + 1]
                    origin = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    origin = node.module or ""
                for alias in node.names:  # a submodule, or a name of the module imported
                    full = f"{origin}.{alias.name}"
                    targets.append(full if full in known else origin)
            for target in targets:
                while target and target not in known:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    edges[name].add(target)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def layer(module: str) -> int:
    """The layer of ``adjudicator.X...`` by X; the package's own face has none (-1)."""
    parts = module.split(".")
    if len(parts) == 1:
        return -1
    for rank, names in enumerate(LAYERS):
        if parts[1] in names:
            return rank
    raise AssertionError(f"{module} is in no layer: add it to LAYERS")


def test_no_import_circle() -> None:
    assert cycles(graph()) == []


def test_the_graph_is_read() -> None:
    """The reader finds imports, lazy ones too: the test above could fail."""
    edges = graph()
    assert "adjudicator.play.table" in edges["adjudicator.play.legal"]
    assert "adjudicator.bulk.cluster" in edges["adjudicator.bulk.run"]  # inside a function
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [["a", "b", "c"]]


def test_every_import_goes_down() -> None:
    upward = [
        f"{source} -> {target}"
        for source, targets in graph().items()
        for target in targets
        if layer(source) >= 0 and layer(target) > layer(source)
    ]
    assert upward == []


def test_the_core_imports_no_edge_library() -> None:
    """What a page needs (check, legal, replay, explain, variants) loads in a browser:
    pydantic and the standard library, nothing of the terminal, the web server or Dask."""
    probe = (
        "import sys, adjudicator.service.page\n"
        f"edge = {EDGE_LIBRARIES!r}\n"
        "print(sorted({m.split('.')[0] for m in sys.modules if m.split('.')[0] in edge}))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_importers_are_core() -> None:
    """The importers go into the phone's wheel: pydantic and the standard library only."""
    probe = (
        "import sys, adjudicator.importers as i\n"
        "[__import__(m) for m in i.BUILT_IN]\n"
        f"edge = {EDGE_LIBRARIES!r}\n"
        "print(sorted({m.split('.')[0] for m in sys.modules if m.split('.')[0] in edge}))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_no_private_name_is_exported() -> None:
    exported = []
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
            ):
                for item in ast.literal_eval(node.value):
                    if item.startswith("_") and not item.startswith("__"):
                        exported.append(f"{name}: {item}")
    assert exported == []


def test_the_command_line_is_a_package() -> None:
    assert (PACKAGE / "cli" / "__init__.py").is_file()
    assert not list(PACKAGE.glob("cli*.py"))


EXIT_CALLS = frozenset(("exit", "_exit", "SystemExit"))
"""What ends a process with a status: ``sys.exit``, ``os._exit``, ``ctx.exit``,
``raise SystemExit``."""


def _exit_status_written_out(node: ast.AST) -> bool:
    """A status given as a number (or worked out from numbers) rather than named."""
    return isinstance(node, ast.BinOp) or (
        isinstance(node, ast.Constant) and type(node.value) is int and node.value != 0
    )


def exit_statuses_outside_exits() -> list[str]:
    """Every exit status the package writes as a number outside ``adjudicator/exits.py``:
    an argument of an exit call, or an ``exit_code``/``*EXIT*`` name set to one."""
    found = []
    for name, path in modules().items():
        if name == "adjudicator.exits":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if called in EXIT_CALLS and any(map(_exit_status_written_out, node.args)):
                    found.append(f"{name}:{node.lineno}: {ast.unparse(node)}")
            elif isinstance(node, ast.Assign) and _exit_status_written_out(node.value):
                for target in node.targets:
                    named = getattr(target, "id", getattr(target, "attr", ""))
                    if named == "exit_code" or "EXIT" in named or named == "ADDRESS_IN_USE":
                        found.append(f"{name}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_every_exit_status_is_defined_once_in_exits() -> None:
    """0 ends well anywhere; every other status is a name from adjudicator/exits.py (it was
    written out in seven places, and 2 in three more after they were gathered)."""
    assert exit_statuses_outside_exits() == []


if __name__ == "__main__":
    for source, targets in sorted(graph().items()):
        print(source, "->", ", ".join(sorted(targets)) or "(nothing of the package)")


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def test_the_library_does_not_depend_on_click() -> None:
    for path in sorted(PACKAGE.rglob("*.py")):
        if "cli" not in path.relative_to(PACKAGE).parts:  # the command line's own package
            assert "click" not in {m.split(".")[0] for m in _imports(path)}, path.name
