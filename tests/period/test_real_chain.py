"""A monthly folder as a club circuit keeps it: the real chess-results export of one
month (tests/fixtures/real, no FIDE IDs, unrated players) saved again for three months
with the month's name and date, then `elo run FOLDER --chain`: one period per month, and
each person's rating carried from month to month by name."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import openpyxl
import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from tests.conftest import FIXTURES
from tests.period.builders import read_rows

KESHMAT = FIXTURES / "real" / "chessresults_keshmat_circuit_rapid_2025_04.xlsx"
MONTHS = [("January", "2025/01/25"), ("February", "2025/02/22"), ("March", "2025/03/22")]


def month_copy(folder: Path, month: str, day: str) -> Path:
    book = openpyxl.load_workbook(KESHMAT)
    sheet = book.active
    assert sheet is not None
    sheet["A2"] = f"Keshmat Circuit - Rapid - {month} 2025 "
    sheet["A15"] = f"Date : {day}"
    sheet["A18"] = f"Last update {day[8:]}.{day[5:7]}.{day[:4]} 21:49:26"
    path = folder / f"{month.lower()}.xlsx"
    book.save(path)
    return path


@pytest.fixture(scope="module")
def chain(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("circuit")
    folder = root / "tournament_files"
    folder.mkdir()
    for month, day in MONTHS:
        month_copy(folder, month, day)
    out = root / "out"
    result = CliRunner().invoke(app, ["run", str(folder), "--chain", "--out", str(out)])
    assert result.exit_code == 0, result.stderr
    return out


def test_one_period_per_month(chain: Path) -> None:
    assert sorted(p.name for p in chain.iterdir() if p.is_dir()) == [
        "2025-01",
        "2025-02",
        "2025-03",
    ]


def test_each_person_is_carried_from_month_to_month(chain: Path) -> None:
    months = ["2025-01", "2025-02", "2025-03"]
    by_month = [{r["name"]: r for r in read_rows(chain / m / "ratings.csv")} for m in months]
    carried = 0
    for before, after in pairwise(by_month):
        for name, row in after.items():
            earlier = before[name]
            if earlier["rating_after"]:
                assert row["rating_before"] == earlier["rating_after"], name
                carried += 1
    assert carried > 80  # most of the 67 players, twice
    # an unrated player with a published rating in January is rated from February on
    initial = [n for n, r in by_month[0].items() if r["status"] == "initial"]
    assert initial
    assert all(by_month[1][n]["status"] == "rated" for n in initial)
    history = read_rows(chain / "history.csv")
    assert {r["period"] for r in history} == set(months)
