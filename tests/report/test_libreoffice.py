"""Cells without references: the writer leaves a cell's reference out unless the cell
before it may be missing. report.xlsx so written must read, in openpyxl and in
LibreOffice, exactly as the same report with every cell's reference written out."""

from __future__ import annotations

import csv
import math
import shutil
import subprocess
import zipfile
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import openpyxl
import pytest

from pipeline.report import workbook_xml as wx
from pipeline.report.tables import write_outputs
from tests.report.sample import sample_result

# UTF-8, comma-separated, values (not as shown), every sheet to a file of its own
_CSV_FILTER = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1"


def _same(expected: object, found: str) -> bool:
    if expected is None:
        return found == ""
    if isinstance(expected, bool):
        return found.upper() == str(expected).upper()
    if isinstance(expected, int | float):
        return found != "" and math.isclose(float(found), float(expected), abs_tol=1e-9)
    if isinstance(expected, datetime):
        return found != ""  # shown in LibreOffice's own date format
    return found == str(expected)


def _explicit_report(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The sample's report with the reference of every cell after column A written out."""
    columns = wx._columns

    def every_column_with_gaps(frame: object, cells: object, strings: object) -> list[object]:
        found = columns(frame, cells, strings)  # type: ignore[arg-type]
        return [replace(col, gaps=True) for col in found]

    with monkeypatch.context() as patched:
        patched.setattr(wx, "_columns", every_column_with_gaps)
        write_outputs(sample_result(), folder, summary={"status": "ok"})
    return folder / "report.xlsx"


def _values(path: Path) -> dict[str, list[list[object]]]:
    workbook = openpyxl.load_workbook(path, read_only=True)
    return {
        sheet.title: [list(row) for row in sheet.iter_rows(values_only=True)]
        for sheet in workbook.worksheets
    }


def test_compact_cells_read_as_explicit_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    explicit = _explicit_report(tmp_path / "explicit", monkeypatch)
    write_outputs(sample_result(), tmp_path, summary={"status": "ok"})
    compact = tmp_path / "report.xlsx"
    assert compact.stat().st_size < explicit.stat().st_size
    with zipfile.ZipFile(explicit) as package:
        assert b'<c r="B2"' in package.read("xl/worksheets/sheet3.xml")
    with zipfile.ZipFile(compact) as package:
        games = package.read("xl/worksheets/sheet3.xml")
        assert b'<c r="B2"' not in games
        assert b'<c r="I2"' in games  # after a gap
    assert _values(compact) == _values(explicit)


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")
def test_libreoffice_places_every_cell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    expected_sheets = _values(_explicit_report(tmp_path / "explicit", monkeypatch))
    write_outputs(sample_result(), tmp_path, summary={"status": "ok"})
    report = tmp_path / "report.xlsx"
    subprocess.run(
        ["soffice", f"-env:UserInstallation=file://{tmp_path / 'lo-profile'}", "--headless",
         "--convert-to", _CSV_FILTER, "--outdir", str(tmp_path), str(report)],
        check=True,
        capture_output=True,
        timeout=240,
    )  # fmt: skip
    checked = 0
    for title, expected in expected_sheets.items():
        exported = tmp_path / f"report-{title}.csv"
        with exported.open(encoding="utf-8", newline="") as handle:
            found = list(csv.reader(handle))
        while expected and all(v is None for v in expected[-1]):
            expected.pop()
        assert len(found) == len(expected), title
        for r, (want, got) in enumerate(zip(expected, found, strict=True), 1):
            width = max(len(want), len(got))
            want += [None] * (width - len(want))
            got += [""] * (width - len(got))
            for c, (value, text) in enumerate(zip(want, got, strict=True), 1):
                assert _same(value, text), (title, r, c, value, text)
                checked += value is not None
    assert checked > 500
