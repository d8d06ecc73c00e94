"""The IT1 certificates (`pipeline.norms.certificate`) as files: per certificate a filled
sheet laid out like FIDE's "Certificate of Title Result" (.xlsx, one A4 portrait page)
and the same fields as JSON (`write_certificates`).

The sheet follows `pipeline.report.certificate_form.FORM`, the layout as data (sections
of rows of label -> field on a grid of columns): FIDE's current form was not found
(reference Q7), so the layout is changed there, not here.

Text cells are always text (a name such as ``=cmd|' /C calc'!A0`` never becomes a
formula); a field the files do not give is a blank cell (null in the JSON). Each file is
written atomically (`pipeline.report.atomic`) after every file has been rendered, so a
failure leaves the previous files or none, never a half-written one. The same
certificates give the same bytes: the package's entries and properties carry a fixed
date (the event's end, else its start).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import io
import json
import re
import unicodedata
import zipfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.properties import PageSetupProperties
from openpyxl.xml.functions import tostring

from pipeline.norms.certificate_model import Certificate
from pipeline.report.atomic import atomic_write_bytes
from pipeline.report.certificate_form import FORM, FORM_NAME, GRID, TITLE, Fields, Lines, Table

FONT: Final = "Calibri"  # openpyxl's default, so unstyled cells match
_THIN = Side(style="thin")
_HEAD_FILL = PatternFill(fill_type="solid", start_color="DDEBF7", end_color="DDEBF7")
_REVIEW_FILL = PatternFill(fill_type="solid", start_color="FCE4D6", end_color="FCE4D6")
_NUMBER_FORMATS: Final = {int: "0", float: "0.0", dt.date: "yyyy-mm-dd"}
_DEFAULT_STAMP: Final = dt.datetime(2000, 1, 1)
_SLUG_MAX = 48
_LINE_CHARS = 100  # characters of 11-point text across the grid, for a wrapped row's height


def _font(**style: Any) -> Font:
    return Font(name=FONT, **style)


def certificate_record(certificate: Certificate) -> dict[str, Any]:
    """The certificate's fields by stable snake_case keys, numbers as numbers, dates as
    ISO text: what the JSON file holds."""

    def plain(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [plain(v) for v in value]
        return value.isoformat() if isinstance(value, dt.date) else value

    return {"form": FORM_NAME, **plain(dataclasses.asdict(certificate))}


def _lookup(value: Any, key: str) -> Any:
    for part in key.split("."):
        if value is None:
            return None
        value = getattr(value, part)
    return value


def _put(cell: Any, value: Any) -> None:
    """A value into a cell: text stays text (never a formula), None a blank."""
    if isinstance(value, bool):
        value = "yes" if value else "no"
    elif isinstance(value, list | tuple):
        value = "; ".join(str(v) for v in value) or None
    if value is None:
        return
    if isinstance(value, str):
        cell.value = ILLEGAL_CHARACTERS_RE.sub("", value)
        cell.data_type = "s"
        return
    cell.value = value
    for kind, code in _NUMBER_FORMATS.items():
        if isinstance(value, kind):
            cell.number_format = code


def _span(ws: Any, row: int, first: int, span: int) -> Any:
    if span > 1:
        ws.merge_cells(start_row=row, start_column=first, end_row=row, end_column=first + span - 1)
    return ws.cell(row=row, column=first)


def _heading(ws: Any, row: int, text: str, fill: PatternFill = _HEAD_FILL) -> None:
    cell = _span(ws, row, 1, len(GRID))
    cell.value = text
    cell.font = _font(bold=True, size=11)
    for col in range(1, len(GRID) + 1):
        ws.cell(row=row, column=col).fill = fill
        ws.cell(row=row, column=col).border = Border(top=_THIN)


def _fields(ws: Any, row: int, section: Fields, cert: Certificate) -> int:
    review = section.when == "for_review"
    _heading(ws, row, section.heading, _REVIEW_FILL if review else _HEAD_FILL)
    for fields in section.rows:
        row += 1
        col = 1
        for f in fields:
            if f.label:
                label = _span(ws, row, col, f.label_span)
                _put(label, f.label)
                label.font = _font(size=9, color="404040")
                label.alignment = Alignment(vertical="bottom")
            col += f.label_span
            if f.value_span:
                value = _span(ws, row, col, f.value_span)
                if f.key is not None:
                    _put(value, _lookup(cert, f.key))
                value.font = _font(bold=True, color="C00000" if review else None)
                value.alignment = Alignment(horizontal="left", vertical="bottom")
                if f.label:
                    for c in range(col, col + f.value_span):
                        ws.cell(row=row, column=c).border = Border(bottom=Side(style="hair"))
            col += f.value_span
        if section.height:
            ws.row_dimensions[row].height = section.height
    return row + 1


def _lines(ws: Any, row: int, section: Lines, cert: Certificate) -> int:
    _heading(ws, row, section.heading)
    for item in _lookup(cert, section.key) or ("",):
        row += 1
        cell = _span(ws, row, 1, len(GRID))
        _put(cell, item or None)
        cell.alignment = Alignment(wrap_text=True, vertical="top")
        lines = -(-len(item) // _LINE_CHARS)
        if lines > 1:
            ws.row_dimensions[row].height = 15.0 * lines
    return row + 1


def _table(ws: Any, row: int, section: Table, cert: Certificate) -> int:
    _heading(ws, row, section.heading)
    row += 1
    col = 1
    for column in section.columns:
        cell = _span(ws, row, col, column.span)
        _put(cell, column.header)
        cell.font = _font(bold=True, size=9)
        cell.alignment = Alignment(horizontal="center", vertical="center", wrap_text=True)
        for c in range(col, col + column.span):
            ws.cell(row=row, column=c).border = Border(bottom=_THIN)
        col += column.span
    ws.row_dimensions[row].height = 36.0  # three lines of a wrapped header
    for item in _lookup(cert, section.key):
        row += 1
        col = 1
        for column in section.columns:
            cell = _span(ws, row, col, column.span)
            _put(cell, _lookup(item, column.key))
            wide = column.span > 1 or column.key == "note"
            cell.alignment = Alignment(horizontal="left" if wide else "center", shrink_to_fit=wide)
            if column.key == "note":
                cell.font = _font(italic=True, size=9)
            for c in range(col, col + column.span):
                ws.cell(row=row, column=c).border = Border(bottom=Side(style="hair"))
            col += column.span
    return row + 1


def _stamp(cert: Certificate) -> dt.datetime:
    day = cert.event.end_date or cert.event.start_date
    return dt.datetime(day.year, day.month, day.day) if day and day.year >= 1980 else _DEFAULT_STAMP


def render_xlsx(cert: Certificate) -> bytes:
    """The certificate as a one-page A4 portrait workbook laid out by `FORM`."""
    wb = Workbook()
    ws: Any = wb.active
    ws.title = f"IT1 {cert.norm}"
    for i, width in enumerate(GRID, 1):
        ws.column_dimensions[get_column_letter(i)].width = width
    title = _span(ws, 1, 1, 8)
    _put(title, TITLE)
    title.font = _font(bold=True, size=15)
    form = _span(ws, 1, 9, 3)
    _put(form, FORM_NAME)
    form.font = _font(bold=True, size=13)
    form.alignment = Alignment(horizontal="right")
    row = 3
    for section in FORM:
        if isinstance(section, Fields):
            if section.when is None or _lookup(cert, section.when):
                row = _fields(ws, row, section, cert) + 1
        elif isinstance(section, Lines):
            row = _lines(ws, row, section, cert) + 1
        elif isinstance(section, Table):
            row = _table(ws, row, section, cert)
        else:
            note = _span(ws, row, 1, len(GRID))
            _put(note, section.text)
            note.font = _font(italic=True, size=8, color="595959")
            row += 2
    last = row - 2
    ws.print_area = f"A1:{get_column_letter(len(GRID))}{last}"
    setup = ws.page_setup
    setup.orientation = "portrait"
    setup.paperSize = 9  # A4
    setup.fitToWidth = 1
    setup.fitToHeight = 1
    ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
    ws.print_options.horizontalCentered = True
    margins = ws.page_margins
    margins.left = margins.right = 0.5
    margins.top = margins.bottom = 0.6
    stamp = _stamp(cert)
    props = wb.properties
    props.creator = "elo-pipeline"
    props.title = f"{TITLE} ({FORM_NAME})"
    props.created = props.modified = stamp
    raw = io.BytesIO()
    wb.save(raw)
    props.modified = stamp  # save() stamps the current time
    return _reproducible(raw.getvalue(), tostring(props.to_tree()), stamp)


def _reproducible(package: bytes, core_xml: bytes, stamp: dt.datetime) -> bytes:
    """The package with one fixed date on every entry and the given core properties."""
    when = (stamp.year, stamp.month, stamp.day, 0, 0, 0)
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(package)) as zin,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout,
    ):
        for name in zin.namelist():
            info = zipfile.ZipInfo(name, date_time=when)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3
            info.external_attr = 0o644 << 16
            zout.writestr(info, core_xml if name == "docProps/core.xml" else zin.read(name))
    return out.getvalue()


def render_json(cert: Certificate) -> bytes:
    return (json.dumps(certificate_record(cert), ensure_ascii=False, indent=2) + "\n").encode()


def slug(text: str | None) -> str:
    """Lower-case ASCII words joined by '-' (accents dropped), at most 48 characters."""
    plain = unicodedata.normalize("NFKD", text or "").encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:_SLUG_MAX].strip("-")


def certificate_stems(certificates: Sequence[Certificate]) -> list[str]:
    """`<fide_id or name-slug>-<norm>-<event-slug>` per certificate (`-review` when for
    review), made unique by the start number, then a count."""
    stems = []
    for c in certificates:
        who = str(c.player.fide_id) if c.player.fide_id else slug(c.player.name) or "player"
        event = slug(c.event.name) or slug(c.event.event_id) or "event"
        stems.append(f"{who}-{c.norm}-{event}" + ("-review" if c.for_review else ""))
    twice = {s for s, n in Counter(s.lower() for s in stems).items() if n > 1}
    stems = [
        f"{s}-{c.player.start_no}" if s.lower() in twice else s
        for s, c in zip(stems, certificates, strict=True)
    ]
    seen: Counter[str] = Counter()
    unique = []
    for s in stems:
        seen[s.lower()] += 1
        unique.append(s if seen[s.lower()] == 1 else f"{s}-{seen[s.lower()]}")
    return unique


def write_certificates(out_dir: Path, certificates: Sequence[Certificate]) -> list[Path]:
    """Write each certificate as `<stem>.xlsx` and `<stem>.json` in `out_dir` (created
    when missing); return the paths in that order. Every file is rendered before any is
    written, each written atomically."""
    rendered: list[tuple[Path, bytes]] = []
    for stem, cert in zip(certificate_stems(certificates), certificates, strict=True):
        rendered.append((out_dir / f"{stem}.xlsx", render_xlsx(cert)))
        rendered.append((out_dir / f"{stem}.json", render_json(cert)))
    out_dir.mkdir(parents=True, exist_ok=True)
    for path, data in rendered:
        atomic_write_bytes(path, data)
    return [path for path, _ in rendered]


__all__ = [
    "certificate_record",
    "certificate_stems",
    "render_json",
    "render_xlsx",
    "slug",
    "write_certificates",
]
