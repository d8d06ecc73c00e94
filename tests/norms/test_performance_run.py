"""`elo run` writes performance.csv (pipeline.norms.performance) beside ratings.csv: a row
for every player entry with a game played over the board, on the sample period and on
every real file, and a Performance sheet in report.xlsx."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest
from openpyxl import load_workbook
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.norms.performance import OVER_THE_BOARD
from schemas.output import PERFORMANCE_COLUMNS
from tests.conftest import SAMPLES
from tests.test_real_files import real_files

REGISTRY = SAMPLES / "registry" / "players_list_foa.txt"


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def check_performance(out: Path) -> list[dict[str, str]]:
    """performance.csv's header is the contract; its players with games are those of
    games.csv with a game over the board, each with that many games and that score."""
    with (out / "performance.csv").open(encoding="utf-8") as handle:
        assert handle.readline().rstrip("\n").split(",") == PERFORMANCE_COLUMNS
    performance = rows(out / "performance.csv")
    games: Counter[tuple[str, str, str]] = Counter()
    halves: Counter[tuple[str, str, str]] = Counter()
    for g in rows(out / "games.csv"):
        if g["reason"] in OVER_THE_BOARD:
            key = (g["tournament"], g["fide_id"], g["name"])
            games[key] += 1
            halves[key] += round(float(g["score"]) * 2)
    counted = {
        (r["event"], r["fide_id"], r["name"]): (int(r["games"]), round(float(r["score"]) * 2))
        for r in performance
        if int(r["games"]) > 0
    }
    assert counted == {key: (n, halves[key]) for key, n in games.items()}
    for r in performance:
        if r["percentage"]:
            n, s2 = int(r["games"]), round(float(r["score"]) * 2)
            assert int(r["percentage"]) == (100 * s2 + n) // (2 * n)
        if r["rp"]:
            assert int(r["rp"]) == int(r["ra"]) + int(r["dp"])
        if r["tpr"]:
            assert int(r["tpr"]) == int(r["aro"]) + int(r["dp"])
    return performance


def test_the_sample_period_has_a_performance_row_per_player(tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = ["run", str(SAMPLES), "--registry", str(REGISTRY), "--out", str(out), "-q"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    performance = check_performance(out)
    assert {r["list"] for r in performance} == {"standard", "rapid", "blitz"}
    # B.01's Rp for standard events only (0.5); TPR and Rc for every list
    assert all(r["rp"] == "" for r in performance if r["list"] != "standard")
    assert any(r["rp"] for r in performance if r["list"] == "standard")
    assert any(r["rc"] for r in performance if r["list"] == "rapid")
    wb = load_workbook(out / "report.xlsx", read_only=True)
    sheet = wb["Performance"]
    header = [c.value for c in next(sheet.iter_rows(max_row=1))]
    assert header[:10] == ["Event", "Name", "FIDE ID", "List", "Games", "Score", "Ra", "%",
                           "dp", "Rp"]  # fmt: skip
    assert sum(1 for _ in sheet.iter_rows(min_row=2)) == len(performance)


@pytest.mark.parametrize("path", real_files(), ids=lambda p: p.name)
def test_every_real_file_has_a_performance_row_per_player(path: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["run", str(path), "--out", str(tmp_path), "--quiet"])
    assert result.exit_code == 0, result.stderr
    performance = check_performance(tmp_path)
    assert any(int(r["games"]) > 0 for r in performance)
