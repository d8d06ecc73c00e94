"""The house's layout (style.md, "Layout shows the architecture"): dependencies point one
way, so no module imports one that imports it back, directly or around a circle; and the
pure layers stay pure. The imports are read from the source with `ast` (those inside
functions too: a lazy import is a dependency all the same)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT

PACKAGES = ("pipeline", "schemas")


def modules() -> dict[str, Path]:
    """Every module of the project's packages by dotted name (a package by its name)."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _imported(
    tree: ast.AST, module: str, is_package: bool, known: frozenset[str] = frozenset()
) -> Iterator[str]:
    """The dotted names a module's import statements name: `from X import y` names the
    module X.y when there is one (it does not run X's face for that), else X."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")
                anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
                base = ".".join([*anchor, *([base] if base else [])])
            names = [f"{base}.{alias.name}" for alias in node.names]
            submodules = [name for name in names if name in known]
            yield from submodules
            if len(submodules) < len(names):
                yield base


def import_graph() -> dict[str, set[str]]:
    """Module -> the project's modules it imports."""
    known = modules()
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        package = path.name == "__init__.py"
        found = _imported(tree, name, package, frozenset(known))
        targets = {t for t in found if t in known and t != name}
        graph[name] = targets
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm),
    each sorted; a package importing its own modules (its face) is no circle when those
    modules do not import the package back."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_no_import_circles() -> None:
    assert circles(import_graph()) == []


MAX_LINES = 450  # style.md: modules named for what they hold, of a readable size


def test_modules_of_a_readable_size() -> None:
    sizes = {
        name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in modules().items()
    }
    assert {name: n for name, n in sizes.items() if n > MAX_LINES} == {}


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(graph) == [["a", "b", "c"]]


def test_the_graph_sees_lazy_and_relative_imports(tmp_path: Path) -> None:
    source = "def f():\n    from pipeline.rate import engine\nfrom . import columns\n"
    tree = ast.parse(source)
    known = frozenset({"pipeline.rate.engine", "pipeline.rate.columns"})
    names = set(_imported(tree, "pipeline.rate.outputs", False, known))
    assert names == {"pipeline.rate.engine", "pipeline.rate.columns"}


@pytest.mark.parametrize(
    ("layer", "forbidden"),
    [
        # the rating math: pure (no files, no CLI, no workbook, no readers)
        ("pipeline.rules", ("pipeline.formats", "pipeline.ingest", "pipeline.cli",
                            "pipeline.report", "pipeline.load", "pipeline.run")),
        # the formats know nothing of the stages or jobs above them
        ("pipeline.formats", ("pipeline.ingest", "pipeline.validate", "pipeline.identity",
                              "pipeline.rate", "pipeline.period", "pipeline.report",
                              "pipeline.cli", "pipeline.load", "pipeline.run",
                              "pipeline.chain", "pipeline.convert")),
        # only the CLI prints or exits; no stage imports it
        ("pipeline", ("pipeline.cli",)),
    ],
)  # fmt: skip
def test_layers_import_downwards(layer: str, forbidden: tuple[str, ...]) -> None:
    graph = import_graph()
    wrong = sorted(
        f"{module} -> {target}"
        for module, targets in graph.items()
        if (module == layer or module.startswith(layer + "."))
        and not module.startswith(("pipeline.cli", "pipeline.__main__"))
        for target in targets
        if any(target == f or target.startswith(f + ".") for f in forbidden)
    )
    assert wrong == []


def test_only_the_cli_imports_the_web_layer() -> None:
    """`pipeline.web` (elo serve) sits beside the CLI: it calls the jobs, and nothing but
    the CLI's `elo serve` command imports it."""
    wrong = sorted(
        f"{module} -> {target}"
        for module, targets in import_graph().items()
        if not module.startswith(("pipeline.web", "pipeline.cli"))
        for target in targets
        if target == "pipeline.web" or target.startswith("pipeline.web.")
    )
    assert wrong == []


def test_the_architecture_page_names_every_module() -> None:
    """docs/architecture.md matches the tree: every module's name is on the page."""
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    missing = sorted(
        name
        for name, path in modules().items()
        if path.stem != "__init__" and path.stem not in page
    )
    assert missing == []
