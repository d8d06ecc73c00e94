"""Each invalid fixture yields exactly the problems listed in tests/fixtures/invalid/
EXPECTED.csv (file, line, column, code, severity): no more, no fewer."""

from __future__ import annotations

import csv
from collections import defaultdict
from pathlib import Path

import pytest

from pipeline.validate import validate_paths
from tests.conftest import FIXTURES

INVALID = FIXTURES / "invalid"
EXPECTED_CSV = INVALID / "EXPECTED.csv"

Row = tuple[str, str, str, str]


def load_expected() -> dict[str, list[Row]]:
    lines = [ln for ln in EXPECTED_CSV.read_text(encoding="utf-8").splitlines() if ln]
    rows = csv.DictReader(ln for ln in lines if not ln.startswith("#"))
    expected: dict[str, list[Row]] = defaultdict(list)
    for r in rows:
        expected[r["file"]].append((r["line"], r["column"], r["code"], r["severity"]))
    return dict(expected)


EXPECTED = load_expected()


def fixture_files() -> list[Path]:
    """The fixtures themselves: companions (`*.players.csv`) belong to their games CSV."""
    return sorted(
        p
        for p in INVALID.iterdir()
        if p.name != EXPECTED_CSV.name and not p.name.endswith(".players.csv")
    )


def test_every_fixture_is_listed_and_every_listed_file_exists() -> None:
    assert sorted(EXPECTED) == [p.name for p in fixture_files()]


@pytest.mark.parametrize("path", fixture_files(), ids=lambda p: p.name)
def test_fixture_yields_exactly_the_expected_problems(path: Path) -> None:
    report = validate_paths([path])
    got = sorted(
        (
            "" if p.location.line is None else str(p.location.line),
            p.location.column or "",
            p.code,
            p.severity.value,
        )
        for p in report.problems
    )
    assert got == sorted(EXPECTED[path.name])
    assert report.invalid
    assert all(p.message.startswith("expected ") for p in report.problems)
