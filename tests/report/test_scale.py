"""Scale and rendering checks, excluded from the default run (`make test-slow`).

Measured on the 2-core development box (shared): 100,000 game rows -> ~4-10 s for the
whole workbook; 1,000,000 -> ~25-40 s, ~0.8 GB peak (Cards capped at 250,000 rows).
"""

from __future__ import annotations

import shutil
import subprocess
import time
import zipfile
from pathlib import Path

import pytest

from pipeline.report.tables import write_outputs
from pipeline.report.workbook import WorkbookOptions, write_workbook
from tests.report.sample import sample_result, synthetic_period


@pytest.mark.slow
@pytest.mark.parametrize(("n_games", "budget"), [(100_000, 60.0), (1_000_000, 400.0)])
def test_large_period_writes_in_reasonable_time(
    tmp_path: Path, n_games: int, budget: float
) -> None:
    result = synthetic_period(n_games)
    path = tmp_path / "report.xlsx"
    start = time.perf_counter()
    notes = write_workbook(path, ratings=result.ratings, games=result.games, events=result.events)
    seconds = time.perf_counter() - start
    print(f"{n_games} game rows: {seconds:.1f} s, {path.stat().st_size / 1e6:.0f} MB")
    assert seconds < budget
    assert [n.code for n in notes] == ([] if n_games <= 100_000 else ["cards-capped"])
    with zipfile.ZipFile(path) as package:
        assert package.testzip() is None
        games_xml = package.read("xl/worksheets/sheet3.xml")
    assert games_xml.count(b"<row ") == n_games + 1


@pytest.mark.slow
def test_row_limit_at_scale(tmp_path: Path) -> None:
    """More rows than a sheet holds continue on Games (2) (limit lowered for speed)."""
    result = synthetic_period(30_000)
    path = tmp_path / "report.xlsx"
    write_workbook(
        path,
        ratings=result.ratings,
        games=result.games,
        events=result.events,
        options=WorkbookOptions(row_limit=10_001, cards_row_cap=1_000),
    )
    with zipfile.ZipFile(path) as package:
        workbook = package.read("xl/workbook.xml").decode()
    for name in ("Games", "Games (2)", "Games (3)"):
        assert f'name="{name}"' in workbook


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")
def test_libreoffice_renders_the_report(tmp_path: Path) -> None:
    write_outputs(sample_result(), tmp_path, summary={"status": "ok"})
    subprocess.run(
        ["soffice", "--headless", "--convert-to", "pdf", "--outdir", str(tmp_path),
         str(tmp_path / "report.xlsx")],
        check=True,
        capture_output=True,
        timeout=240,
    )  # fmt: skip
    pdf = tmp_path / "report.pdf"
    assert pdf.stat().st_size > 10_000
    if shutil.which("pdftotext"):
        text = subprocess.run(
            ["pdftotext", str(pdf), "-"], check=True, capture_output=True, text=True
        ).stdout
        for expected in ("Individual calculations", "Fink, Eva", "Largest rating changes"):
            assert expected in text
