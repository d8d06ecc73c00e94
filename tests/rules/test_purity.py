"""pipeline.rules is pure: no I/O libraries, no CLI, no ingest (style.md, architecture)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import pipeline.rules

RULES = Path(pipeline.rules.__file__).resolve().parent
FORBIDDEN = ("openpyxl", "typer", "pandera", "pipeline.ingest", "rich", "fastexcel")


@pytest.mark.parametrize("path", sorted(RULES.glob("*.py")), ids=lambda p: p.name)
def test_rules_module_imports_nothing_forbidden(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "print":
            pytest.fail(f"{path.name} prints")
    bad = [n for n in names if any(n == f or n.startswith(f + ".") for f in FORBIDDEN)]
    assert not bad, f"{path.name} imports {bad}"


def test_importing_the_engine_loads_no_forbidden_module() -> None:
    code = (
        "import sys\n"
        "import pipeline.rules.vector, pipeline.rules.methods, pipeline.calc\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}"
        " or m.startswith('pipeline.ingest')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
