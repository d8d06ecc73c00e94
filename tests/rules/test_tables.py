"""Tables 8.1.2 and 8.1.1 (FIDE Handbook B.02, Rating Regulations from 2024-03-01)."""

from __future__ import annotations

import csv
import itertools
from decimal import Decimal
from pathlib import Path

import pytest

from pipeline.rules.tables import (
    DP_BY_P,
    PD_HIGH_BY_ABS_D,
    PD_TABLE,
    dp_for_p,
    expected_hundredths,
)
from tests.rules.vectors import load_vectors, source_of

TABLES = Path("reference") / "tables"
BOUNDARIES = load_vectors("table_8_1_2_boundaries.csv")


def _hundredths(text: str) -> int:
    return int(Decimal(text) * 100)


def test_pd_literals_match_the_regulation_csv(shared_dir: Path) -> None:
    path = shared_dir / TABLES / "fide_table_8_1_2_D_to_PD.csv"
    with path.open(encoding="utf-8", newline="") as fh:
        rows = [
            (
                int(r["D_min"]),
                int(r["D_max"]) if r["D_max"] else None,
                _hundredths(r["PD_H"]),
                _hundredths(r["PD_L"]),
            )
            for r in csv.DictReader(fh)
        ]
    assert tuple(rows) == PD_TABLE


def test_dp_literals_match_the_regulation_csv(shared_dir: Path) -> None:
    path = shared_dir / TABLES / "fide_table_8_1_1_p_to_dp.csv"
    with path.open(encoding="utf-8", newline="") as fh:
        rows = {_hundredths(r["p"]): int(r["dp"]) for r in csv.DictReader(fh)}
    assert rows == dict(enumerate(DP_BY_P))


def test_boundary_vectors_are_cited() -> None:
    assert "table 8.1.2" in source_of("table_8_1_2_boundaries.csv")


@pytest.mark.parametrize("row", BOUNDARIES, ids=[f"8.1.2 D={r['d']}" for r in BOUNDARIES])
def test_expected_at_every_row_boundary(row: dict[str, str]) -> None:
    assert expected_hundredths(int(row["d"])) == int(row["pd_hundredths"])


def test_table_rows_are_contiguous_and_l_is_one_minus_h() -> None:
    for (_lo, hi, high, low), nxt in itertools.pairwise(PD_TABLE):
        assert hi is not None
        assert nxt[0] == hi + 1
        assert high + low == 100
        assert nxt[2] == high + 1
    assert len(PD_HIGH_BY_ABS_D) == 737


@pytest.mark.parametrize(
    ("p", "dp"),
    [(0, -800), (1, -677), (43, -50), (50, 0), (57, 50), (92, 401), (99, 677), (100, 800)],
    ids=lambda v: str(v),
)
def test_dp_for_p(p: int, dp: int) -> None:
    # Source: table 8.1.1, FIDE Handbook B.02 (2024-03-01).
    assert dp_for_p(p) == dp


@pytest.mark.parametrize("p", [-1, 101])
def test_dp_for_p_rejects_out_of_range(p: int) -> None:
    with pytest.raises(ValueError, match=r"0\.\.100"):
        dp_for_p(p)
