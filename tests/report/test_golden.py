"""Golden comparison of report.xlsx through a normalized dump (tests/report/dump.py):
sheet names, cell values and number formats, frozen panes, autofilters, print setup and
column widths. Regenerate after an intended change with

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest -q tests/report/test_golden.py

and review the diff of tests/golden/report_small.json like code.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pipeline.report.workbook import WorkbookOptions, write_workbook
from tests.report.dump import dump_workbook
from tests.report.sample import sample_result

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "report_small.json"


def _golden_text(dump: dict[str, Any]) -> str:
    """JSON with one line per sheet header and per row, so diffs read like the sheet."""
    sheets = []
    for sheet in dump["sheets"]:
        meta = json.dumps({k: v for k, v in sheet.items() if k != "rows"}, ensure_ascii=False)
        rows = ",\n".join("  " + json.dumps(row, ensure_ascii=False) for row in sheet["rows"])
        sheets.append(f' {meta[:-1]}, "rows": [\n{rows}\n ]}}')
    return '{"sheets": [\n' + ",\n".join(sheets) + "\n]}\n"


def test_workbook_matches_golden_dump(tmp_path: Path) -> None:
    result = sample_result()
    path = tmp_path / "report.xlsx"
    write_workbook(
        path,
        ratings=result.ratings,
        games=result.games,
        events=result.events,
        checks=result.warnings,
        options=WorkbookOptions(title="Rating report"),
    )
    dump = dump_workbook(path)
    text = _golden_text(dump)
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN.write_text(text, encoding="utf-8")
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    for got, want in zip(dump["sheets"], expected["sheets"], strict=True):
        assert got == want, f"sheet {want['name']} differs from {GOLDEN.name}"
