"""A normalized, JSON-able dump of a workbook for golden comparisons (never raw bytes):
per sheet its name, cells (value and number format), frozen pane, autofilter range,
print titles and page setup, and column widths rounded to one decimal."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Any

from openpyxl import load_workbook
from openpyxl.worksheet.header_footer import HeaderFooterItem


def _value(value: object) -> object:
    if isinstance(value, float):
        return round(value, 6)
    if isinstance(value, date | datetime):
        return value.isoformat()
    return value


def _header_footer(item: HeaderFooterItem | None) -> list[str | None]:
    assert item is not None
    return [item.left.text, item.right.text]


def dump_workbook(path: Path) -> dict[str, Any]:
    wb = load_workbook(path)
    sheets: list[dict[str, Any]] = []
    for ws in wb.worksheets:
        rows: list[list[object]] = []
        for row in ws.iter_rows():
            cells: list[object] = []
            for cell in row:
                if cell.value is None:
                    cells.append(None)
                elif cell.number_format == "General":
                    cells.append([_value(cell.value)])
                else:
                    cells.append([_value(cell.value), cell.number_format])
            while cells and cells[-1] is None:
                cells.pop()
            rows.append(cells)
        widths = {
            key: round(dim.width, 1)
            for key, dim in sorted(ws.column_dimensions.items())
            if dim.customWidth
        }
        sheets.append(
            {
                "name": ws.title,
                "freeze_panes": ws.freeze_panes,
                "autofilter": ws.auto_filter.ref,
                "print_title_rows": ws.print_title_rows,
                "print_area": ws.print_area,
                "orientation": ws.page_setup.orientation,
                "fit_to_width": ws.page_setup.fitToWidth,
                "fit_to_height": ws.page_setup.fitToHeight,
                "header": _header_footer(ws.oddHeader),
                "footer": _header_footer(ws.oddFooter),
                "row_breaks": [brk.id for brk in ws.row_breaks.brk],
                "widths": widths,
                "rows": rows,
            }
        )
    return {"sheets": sheets}
