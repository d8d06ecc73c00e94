"""Worksheet rows as SpreadsheetML, built column-wise with polars, and the final package.

openpyxl lays out the workbook (styles, column widths, panes, filters, page setup, charts),
but writing cells one by one through it costs ~20 µs a cell without lxml: a million game
rows would take minutes. So every sheet is saved by openpyxl with an empty `<sheetData>`,
and `write_package` copies the package while splicing in rows rendered here as strings by
polars expressions (a few seconds for a million rows).

The same pass makes the file reproducible: every zip entry gets one fixed timestamp, the
entries keep openpyxl's order, and docProps/core.xml carries fixed dates.

Cells are `<c r="B7" s="3"><v>1850</v></c>` for numbers and inline strings
`<c r="B7" s="3" t="inlineStr"><is><t>text</t></is></c>` for text -- never formulas, so a
name such as `=cmd|' /C calc'!A0` stays text. Characters XML 1.0 forbids are removed.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import BinaryIO

import polars as pl
from openpyxl.utils import get_column_letter

EXCEL_MAX_ROWS = 1_048_576
EXCEL_MAX_TEXT = 32_767  # characters in one cell
# C0 controls other than tab, LF and CR, and the two non-characters XML 1.0 forbids
# (the same set as openpyxl's ILLEGAL_CHARACTERS_RE, plus U+FFFE/U+FFFF).
ILLEGAL_XML_CHARS = r"[\x00-\x08\x0B\x0C\x0E-\x1F\x{FFFE}\x{FFFF}]"
_BATCH_ROWS = 32_768
# Every number in the report is a whole number or hundredths (PD, ΔR, K·ΣΔR): written
# exactly with at most two decimals.
NUMBER_DECIMALS = 2
_ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)
# zlib level 1: a third of the time of the default level 6, files ~25 % larger.
_COMPRESS_LEVEL = 1


@dataclass(frozen=True)
class CellSpec:
    """One column of a segment: a number if `number` is not null, else text if `text` is
    not empty, else an empty cell that still carries `style` where `styled_empty` holds
    (for the fill of a band). `style` is a style id, constant or one per row."""

    text: pl.Expr | None = None
    number: pl.Expr | None = None
    style: pl.Expr | int = 0
    styled_empty: pl.Expr | bool = False


@dataclass(frozen=True)
class Segment:
    """Consecutive rows of a sheet: `frame` evaluated through `cells` (column A first)."""

    frame: pl.DataFrame
    cells: Sequence[CellSpec]

    @property
    def height(self) -> int:
        return self.frame.height


def clean_text(expr: pl.Expr) -> pl.Expr:
    """Text as a cell can hold it: forbidden characters removed, at most 32,767 chars."""
    return expr.cast(pl.String).str.replace_all(ILLEGAL_XML_CHARS, "").str.slice(0, EXCEL_MAX_TEXT)


def _escape(expr: pl.Expr) -> pl.Expr:
    return (
        expr.str.replace_all("&", "&amp;", literal=True)
        .str.replace_all("<", "&lt;", literal=True)
        .str.replace_all(">", "&gt;", literal=True)
    )


def _number_text(expr: pl.Expr, dtype: pl.DataType) -> pl.Expr:
    """Integers as they are; floats as exact decimals with at most NUMBER_DECIMALS places
    (`6.6`, not polars' `6.6000000000000005` from dividing by 100), -0 as 0, NaN and
    infinities as null."""
    if dtype.is_integer():
        return expr.cast(pl.String)
    value = expr.cast(pl.Float64)
    scale = 10**NUMBER_DECIMALS
    scaled = (value * scale).round(0)
    units = pl.when(value.is_finite() & (scaled.abs() < 2**62)).then(scaled.cast(pl.Int64))
    whole = (units.abs() // scale).cast(pl.String)
    fraction = (
        (units.abs() % scale).cast(pl.String).str.zfill(NUMBER_DECIMALS).str.strip_chars_end("0")
    )
    return pl.concat_str(
        [
            pl.when(units < 0).then(pl.lit("-")).otherwise(pl.lit("")),
            whole,
            pl.when(fraction != "").then(pl.lit(".")).otherwise(pl.lit("")),
            fraction,
        ]
    )


def _style_text(style: pl.Expr | int) -> pl.Expr:
    if isinstance(style, int):
        return pl.lit(str(style))
    return style.cast(pl.String)


def _cell_xml(letter: str, row: pl.Expr, spec: CellSpec, number_type: pl.DataType) -> pl.Expr:
    """The cell's XML, or "" when it has neither a value nor a style to show. Built from
    null-propagating concatenations: a branch is null where its value is."""
    head = [pl.lit(f'<c r="{letter}'), row, pl.lit('" s="'), _style_text(spec.style)]
    options: list[pl.Expr] = []
    if spec.number is not None:
        num = _number_text(spec.number, number_type)
        options.append(pl.concat_str([*head, pl.lit('"><v>'), num, pl.lit("</v></c>")]))
    if spec.text is not None:
        cleaned = clean_text(spec.text)
        text = pl.when(cleaned.str.len_bytes() > 0).then(cleaned)
        space = (
            pl.when(text.str.strip_chars() != text)
            .then(pl.lit(' xml:space="preserve"'))
            .otherwise(pl.lit(""))
        )
        options.append(
            pl.concat_str(
                [
                    *head,
                    pl.lit('" t="inlineStr"><is><t'),
                    space,
                    pl.lit(">"),
                    _escape(text),
                    pl.lit("</t></is></c>"),
                ]
            )
        )
    if isinstance(spec.styled_empty, pl.Expr):
        options.append(pl.when(spec.styled_empty).then(pl.concat_str([*head, pl.lit('"/>')])))
    elif spec.styled_empty:
        options.append(pl.concat_str([*head, pl.lit('"/>')]))
    return pl.coalesce(*options, pl.lit(""))


def _row_xml(frame: pl.DataFrame, cells: Sequence[CellSpec], first_row: int) -> pl.Expr:
    row = (pl.int_range(pl.len(), dtype=pl.Int64) + first_row).cast(pl.String)
    numbers = [spec.number for spec in cells if spec.number is not None]
    schema = frame.lazy().select(n.alias(f"n{i}") for i, n in enumerate(numbers)).collect_schema()
    types = iter(schema.values())
    xml = [
        _cell_xml(
            get_column_letter(i),
            row,
            spec,
            next(types) if spec.number is not None else pl.Float64(),
        )
        for i, spec in enumerate(cells, 1)
    ]
    return pl.concat_str([pl.lit('<row r="'), row, pl.lit('">'), *xml, pl.lit("</row>")])


def segment_rows(segment: Segment, first_row: int) -> Iterator[bytes]:
    """The `<row>` elements of a segment, numbered from `first_row`, in byte chunks."""
    for offset in range(0, segment.height, _BATCH_ROWS):
        part = segment.frame.slice(offset, _BATCH_ROWS)
        xml = _row_xml(part, segment.cells, first_row + offset)
        yield str(part.select(xml.str.join("")).item()).encode("utf-8")


def sheet_rows(segments: Iterable[Segment], first_row: int = 1) -> Iterator[bytes]:
    row = first_row
    for segment in segments:
        yield from segment_rows(segment, row)
        row += segment.height


def text_column_width(expr: pl.Expr) -> pl.Expr:
    return clean_text(expr).str.len_chars().max()


# --- the package ----------------------------------------------------------------------

_SHEET_DATA = re.compile(rb"<sheetData\s*/>|<sheetData>\s*</sheetData>")

RowSource = Callable[[], Iterator[bytes]]


def _zipinfo(name: str, stamp: tuple[int, int, int, int, int, int]) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=stamp)
    info.compress_type = zipfile.ZIP_DEFLATED
    # ZipFile.open(info, "w") takes the level from the ZipInfo only; the attribute is
    # `_compresslevel` on 3.11/3.12 and an alias of `compress_level` from 3.13.
    info._compresslevel = _COMPRESS_LEVEL  # type: ignore[attr-defined]
    info.create_system = 3  # the same on every platform
    info.external_attr = 0o644 << 16
    return info


def _splice(template: bytes, member: str) -> tuple[bytes, bytes]:
    found = list(_SHEET_DATA.finditer(template))
    if len(found) != 1:
        raise ValueError(f"{member}: expected one empty <sheetData> from openpyxl")
    match = found[0]
    return template[: match.start()] + b"<sheetData>", b"</sheetData>" + template[match.end() :]


def write_package(
    source: BinaryIO,
    target: BinaryIO,
    *,
    rows: Mapping[str, RowSource],
    core_xml: bytes,
    stamp: datetime,
) -> None:
    """Copy the openpyxl package `source` into `target` with fixed entry dates, the given
    docProps/core.xml, and each sheet in `rows` (zip member name -> row source) filled."""
    when = (stamp.year, stamp.month, stamp.day, 0, 0, 0) if stamp.year >= 1980 else _ZIP_EPOCH
    with (
        zipfile.ZipFile(source) as zin,
        zipfile.ZipFile(
            target, "w", zipfile.ZIP_DEFLATED, allowZip64=True, compresslevel=_COMPRESS_LEVEL
        ) as zout,
    ):
        names = zin.namelist()
        missing = sorted(set(rows) - set(names))
        if missing:
            raise ValueError(f"sheets missing from the package: {missing}")
        for name in names:
            info = _zipinfo(name, when)
            if name == "docProps/core.xml":
                zout.writestr(info, core_xml)
            elif name in rows:
                head, tail = _splice(zin.read(name), name)
                with zout.open(info, "w", force_zip64=True) as out:
                    out.write(head)
                    for chunk in rows[name]():
                        out.write(chunk)
                    out.write(tail)
            else:
                zout.writestr(info, zin.read(name))
