"""Cell styles, number formats, page setup and the Top changes chart of report.xlsx.

Styles are registered once per workbook through openpyxl (so styles.xml is openpyxl's) and
referred to by id in the rows `workbook_xml` renders. Number format codes are the same in
every language (Excel and LibreOffice show the viewer's decimal separator); only the date
format follows the report's language (`register_styles(sheet, date_format=...)`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from openpyxl.cell import WriteOnlyCell
from openpyxl.chart import BarChart, Reference
from openpyxl.chart.data_source import AxDataSource, StrRef
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.header_footer import HeaderFooterItem
from openpyxl.worksheet.pagebreak import Break
from openpyxl.worksheet.properties import PageSetupProperties

from pipeline.i18n import Translator

# Number formats (Excel codes). Changes are signed; unrounded changes keep both decimals
# because one decimal would show 10.45 as +10.5 next to a rounded change of +10.
FMT_INT = "0"
FMT_SCORE = "0.0"
FMT_PD = "0.00"
FMT_SIGNED2 = "+0.00;-0.00;0.00"
FMT_SIGNED0 = "+0;-0;0"
FMT_DATE = "yyyy-mm-dd"

BorderStyle = Literal["thin", "double"]

HEADER_FILL = "1F4E78"
BAND_FILL = "DDEBF7"
HEAD_FILL = "F2F2F2"
GAIN_COLOUR = "2E7D32"
LOSS_COLOUR = "C62828"

MIN_WIDTH = 4.0
MAX_WIDTH = 60.0


@dataclass(frozen=True)
class StyleDef:
    number_format: str = "General"
    bold: bool = False
    italic: bool = False
    size: float | None = None
    colour: str | None = None
    fill: str | None = None
    top: BorderStyle | None = None  # the top edge
    bottom: BorderStyle | None = None
    horizontal: str | None = None
    wrap: bool = False
    indent: int = 0  # text one step off a right-aligned number on its left


STYLES: dict[str, StyleDef] = {
    "text": StyleDef(horizontal="left", indent=1),
    "center": StyleDef(horizontal="center"),
    "int": StyleDef(FMT_INT),
    "score": StyleDef(FMT_SCORE),
    "pd": StyleDef(FMT_PD),
    "signed2": StyleDef(FMT_SIGNED2),
    "signed0": StyleDef(FMT_SIGNED0),
    "date": StyleDef(FMT_DATE, horizontal="left", indent=1),
    "header": StyleDef(
        bold=True,
        colour="FFFFFF",
        fill=HEADER_FILL,
        bottom="thin",
        wrap=True,
        horizontal="left",
        indent=1,
    ),
    "header_center": StyleDef(
        bold=True, colour="FFFFFF", fill=HEADER_FILL, bottom="thin", wrap=True, horizontal="center"
    ),
    "header_right": StyleDef(
        bold=True, colour="FFFFFF", fill=HEADER_FILL, bottom="thin", wrap=True, horizontal="right"
    ),
    "title": StyleDef(bold=True, size=14, colour=HEADER_FILL),
    "note": StyleDef(italic=True, colour="595959"),
    # Cards
    "band": StyleDef(bold=True, size=12, fill=BAND_FILL, top="thin"),
    "band_info": StyleDef(italic=True, colour="404040", fill=BAND_FILL, top="thin"),
    "event": StyleDef(bold=True, colour=HEADER_FILL),
    "head": StyleDef(bold=True, fill=HEAD_FILL, bottom="thin", horizontal="left", indent=1),
    "head_center": StyleDef(bold=True, fill=HEAD_FILL, bottom="thin", horizontal="center"),
    "head_right": StyleDef(bold=True, fill=HEAD_FILL, bottom="thin", horizontal="right"),
    "total_text": StyleDef(bold=True, top="thin"),
    "total_label": StyleDef(bold=True, top="thin", horizontal="left", indent=1),
    "total_score": StyleDef(FMT_SCORE, bold=True, top="thin"),
    "total_pd": StyleDef(FMT_PD, bold=True, top="thin"),
    "total_signed2": StyleDef(FMT_SIGNED2, bold=True, top="thin"),
    "period_text": StyleDef(bold=True, top="double"),
    "period_label": StyleDef(bold=True, top="double", horizontal="left", indent=1),
    "period_score": StyleDef(FMT_SCORE, bold=True, top="double"),
    "period_pd": StyleDef(FMT_PD, bold=True, top="double"),
    "period_signed2": StyleDef(FMT_SIGNED2, bold=True, top="double"),
    "result_text": StyleDef(bold=True, horizontal="left", indent=1),
    "result_signed0": StyleDef(FMT_SIGNED0, bold=True),
    "result_int": StyleDef(FMT_INT, bold=True),
}

# Body style -> header style: numbers are right-aligned, so are their headers.
HEADER_FOR = {"text": "header", "date": "header", "center": "header_center"}
TEXT_STYLES = frozenset({"text", "center"})  # table columns that hold text


def header_style(body_style: str) -> str:
    return HEADER_FOR.get(body_style, "header_right")


def _apply(cell: Any, spec: StyleDef) -> None:
    cell.number_format = spec.number_format
    cell.font = Font(
        name="Calibri",
        size=spec.size or 11,
        bold=spec.bold,
        italic=spec.italic,
        color=spec.colour,
    )
    if spec.fill:
        cell.fill = PatternFill(fill_type="solid", start_color=spec.fill, end_color=spec.fill)
    if spec.top or spec.bottom:
        cell.border = Border(
            top=Side(style=spec.top) if spec.top else Side(),
            bottom=Side(style=spec.bottom) if spec.bottom else Side(),
        )
    if spec.horizontal or spec.wrap:
        cell.alignment = Alignment(
            horizontal=spec.horizontal,
            vertical="top" if spec.wrap else None,
            wrap_text=spec.wrap,
            indent=spec.indent,
        )


def register_styles(sheet: Any, date_format: str = FMT_DATE) -> dict[str, int]:
    """Add every style to the sheet's workbook; return name -> cellXfs id. `date_format`
    is the number format of the date cells."""
    ids: dict[str, int] = {}
    for name, spec in STYLES.items():
        cell = WriteOnlyCell(sheet)
        if spec.number_format == FMT_DATE:
            spec = dataclasses.replace(spec, number_format=date_format)
        _apply(cell, spec)
        ids[name] = cell.style_id
    return ids


@dataclass(frozen=True)
class PageSetup:
    title: str  # left page header
    header_rows: int = 1  # repeated on every printed page; 0 for none
    freeze: str | None = "A2"
    autofilter: str | None = None  # "A1:S120"
    landscape: bool = True
    print_area: str | None = None  # "A1:J200": leaves text overflowing to the right out
    row_breaks: tuple[int, ...] = ()  # page breaks after these rows (1-based)
    footer: str = "Page &P of &N"  # right page footer (&P, &N: page number and count)


def setup_sheet(sheet: Any, widths: Sequence[float], page: PageSetup) -> None:
    """Column widths, panes, filter, print setup. `sheet` is an openpyxl write-only sheet
    (typed Any: the stubs omit the attributes it shares with Worksheet)."""
    for i, width in enumerate(widths, 1):
        sheet.column_dimensions[get_column_letter(i)].width = round(width, 1)
    if page.freeze:
        sheet.freeze_panes = page.freeze
    if page.autofilter:
        sheet.auto_filter.ref = page.autofilter
    if page.print_area:
        sheet.print_area = page.print_area
    if page.row_breaks:
        # one assignment: openpyxl's append copies the whole list every time
        sheet.row_breaks.brk = [Break(id=row) for row in page.row_breaks]
    if page.header_rows:
        sheet.print_title_rows = f"1:{page.header_rows}"
    setup = sheet.page_setup
    setup.orientation = "landscape" if page.landscape else "portrait"
    setup.paperSize = 9  # A4
    setup.fitToWidth = 1
    setup.fitToHeight = 0  # as many pages as needed
    sheet.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
    margins = sheet.page_margins
    margins.left = margins.right = 0.4
    margins.top = margins.bottom = 0.6
    margins.header = margins.footer = 0.3
    sheet.print_options.gridLines = False
    _header_footer(sheet.oddHeader, left=page.title, right="&A")
    _header_footer(sheet.oddFooter, left="elo-pipeline", right=page.footer)


def _header_footer(item: HeaderFooterItem, *, left: str, right: str) -> None:
    # '&' starts a control code in header/footer text: double a literal one.
    item.left.text = left.replace("&", "&&")
    item.left.size = 9
    item.right.text = right
    item.right.size = 9


def fit_width(content_chars: int | None, header: str, *, numeric: bool) -> float:
    """Column width in Excel units (the width of a digit) from the longest value and the
    header: letters run wider than digits, text cells are indented by one step, bold
    headers need room for the filter arrow; headers longer than 14 characters wrap."""
    longest_word = max((len(w) for w in header.split()), default=0)
    header_width = max(min(len(header), 14), longest_word) * 1.15 + 2.0
    chars = content_chars or 0
    content_width = chars + 1.5 if numeric else chars * 1.1 + 2.5
    return round(max(MIN_WIDTH, min(MAX_WIDTH, max(header_width, content_width))), 1)


def bar_chart(rows: int, tr: Translator) -> Callable[[Any], None]:
    """Horizontal bars of the Top changes sheet: Gain (column E) and Loss (F) per player."""

    def add(ws: Any) -> None:
        chart = BarChart()
        chart.type = "bar"
        chart.grouping = "clustered"
        chart.overlap = 100
        chart.title = tr._("Largest rating changes")
        chart.y_axis.title = tr._("Rating change")
        chart.y_axis.number_format = "+0;-0;0"
        chart.y_axis.majorGridlines = None
        chart.y_axis.crosses = "max"  # value labels below the bars (categories run down)
        chart.x_axis.scaling.orientation = "maxMin"  # first player at the top
        chart.x_axis.tickLblPos = "low"  # names left of the bars, even for losses
        chart.x_axis.delete = False
        chart.y_axis.delete = False
        chart.legend.position = "b"
        data = Reference(ws, min_col=5, max_col=6, min_row=1, max_row=rows + 1)
        chart.add_data(data, titles_from_data=True)
        names = Reference(ws, min_col=1, min_row=2, max_row=rows + 1)
        for series, colour in zip(chart.series, (GAIN_COLOUR, LOSS_COLOUR), strict=True):
            # player names are text: a string reference (set_categories makes a numeric one)
            series.cat = AxDataSource(strRef=StrRef(f=str(names)))
            series.graphicalProperties.solidFill = colour
            series.graphicalProperties.line.solidFill = colour
        chart.width = 18
        chart.height = max(7.5, 0.55 * rows + 3)
        ws.add_chart(chart, f"A{rows + 3}")

    return add
