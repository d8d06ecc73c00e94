"""Worksheet rows as SpreadsheetML, built column-wise with polars (the package they go
into: `pipeline.report.workbook_package`).

openpyxl lays out the workbook (styles, column widths, panes, filters, page setup, charts),
but writing cells one by one through it costs ~20 µs a cell without lxml: a million game
rows would take minutes. So every sheet is saved by openpyxl with an empty `<sheetData>`,
and `workbook_package.write_package` copies the package while splicing in rows rendered
here as strings by polars expressions.

Rendering a column of text or fractional numbers (cleaning, escaping, formatting) costs
far more than looking it up, and such columns repeat few values (event names, players,
PD): each distinct value of a segment is rendered once, and each row gathers its cell's
XML by index. Rows are rendered 32,768 at a time by two threads, a few batches ahead of
the deflate (ISA-L's where installed), which runs in the caller's thread.

The same pass makes the file reproducible: every zip entry gets one fixed timestamp, the
entries keep openpyxl's order, and docProps/core.xml carries fixed dates.

Cells are `<c s="3"><v>1850</v></c>` for numbers and `<c s="3" t="s"><v>17</v></c>` for
text, the number of the text in the workbook's shared strings (`SharedStrings`,
xl/sharedStrings.xml, each distinct text once: a tenth less XML to render and deflate
than the text inline) -- never formulas, so a name such as `=cmd|' /C calc'!A0` stays
text. Characters XML 1.0 forbids are removed. A cell
carries its reference (`r="B7"`) only where the cell before it may be missing: the
reference is optional in SpreadsheetML (ECMA-376 §18.3.1.4; a cell without one is the
next column of its row, as Excel, LibreOffice and openpyxl read it), and leaving it out
makes the XML about a fifth smaller and its rendering about twice as fast. Rows always
carry theirs, and each sheet its used range (`<dimension>`, which openpyxl's write-only
sheets leave out and its read-only reader takes as the sheet's size).
"""

from __future__ import annotations

import io
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial

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
_MAIN_NS = b"http://schemas.openxmlformats.org/spreadsheetml/2006/main"


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


def _tail_xml(spec: CellSpec, number_type: pl.DataType, shared: pl.Expr | None = None) -> pl.Expr:
    """The cell's XML after `<c` and its reference: ` s="3"><v>1850</v></c>` and the like,
    or null when it has neither a value nor a style to show. A text cell is its number in
    the shared strings, `shared` (null for no text). Built from null-propagating
    concatenations: a branch is null where its value is."""
    style = [pl.lit(' s="'), _style_text(spec.style)]
    options: list[pl.Expr] = []
    if spec.number is not None:
        num = _number_text(spec.number, number_type)
        options.append(pl.concat_str([*style, pl.lit('"><v>'), num, pl.lit("</v></c>")]))
    if spec.text is not None:
        if shared is None:
            raise ValueError("a text cell needs its number in the shared strings")
        number = shared.cast(pl.String)
        options.append(pl.concat_str([*style, pl.lit('" t="s"><v>'), number, pl.lit("</v></c>")]))
    if isinstance(spec.styled_empty, pl.Expr):
        options.append(pl.when(spec.styled_empty).then(pl.concat_str([*style, pl.lit('"/>')])))
    elif spec.styled_empty:
        options.append(pl.concat_str([*style, pl.lit('"/>')]))
    return pl.coalesce(*options) if options else pl.lit(None, pl.String)


def cell_text(expr: pl.Expr) -> pl.Expr:
    """The text a cell shows for `expr`: cleaned (`clean_text`), null when empty."""
    cleaned = clean_text(expr)
    return pl.when(cleaned.str.len_bytes() > 0).then(cleaned)


class SharedStrings:
    """The workbook's shared strings (xl/sharedStrings.xml, ECMA-376 §18.4): each distinct
    cell text once, and each text cell its number there, which is shorter to write than
    the text inline. Numbers are given as the segments' look-ups ask for them (the sheets
    in order, each look-up's new texts sorted), so the package is the same every run."""

    def __init__(self) -> None:
        # a categorical's categories number each string once: the table itself, alive
        # while a series of its type is (`_holder`)
        self._categories = pl.Categories.random()
        self._holder = pl.Series([], dtype=pl.Categorical(self._categories))
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return self._categories.to_series().len()

    def numbers(self, texts: pl.Series) -> pl.Series:
        """The number of each of `texts` (cell texts, `cell_text`; null stays null),
        numbering the new ones."""
        strings = texts.cast(pl.String)
        kind = pl.Categorical(self._categories)
        with self._lock:
            strings.drop_nulls().unique().sort().cast(kind)  # the new ones, in order
            return strings.cast(kind).to_physical().alias("_si")

    def texts(self) -> pl.Series:
        """Every text, in the order of its number."""
        return self._categories.to_series().alias("t")

    def xml(self) -> bytes:
        """xl/sharedStrings.xml."""
        t = pl.col("t")
        space = pl.when(t.str.strip_chars() != t).then(pl.lit(' xml:space="preserve"'))
        item = [pl.lit("<si><t"), space.otherwise(pl.lit("")), pl.lit(">"), _escape(t)]
        items = self.texts().to_frame().select(pl.concat_str([*item, pl.lit("</t></si>")]))
        out = io.BytesIO()
        out.write(
            b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="'
            + _MAIN_NS
            + f'" uniqueCount="{len(self)}">'.encode()
        )
        items.write_csv(out, include_header=False, quote_style="never", line_terminator="")
        out.write(b"</sst>")
        return out.getvalue()


@dataclass(frozen=True)
class _Column:
    """How one column of a segment is rendered: per row from `direct`, or by look-up:
    `tails` holds the tail XML of each distinct combination of the spec's inputs in the
    whole segment, and `codes` (one per row) says which (text and fractional numbers,
    whose cleaning, escaping and formatting cost far more than a gather). `gaps`: some
    row of the segment has no cell in this column (so the next column's cells carry
    their reference)."""

    letter: str
    direct: pl.Expr | None = None
    tails: pl.Series | None = None
    codes: pl.Series | None = None
    gaps: bool = True


def _looked_up(
    frame: pl.DataFrame, spec: CellSpec, number_type: pl.DataType, strings: SharedStrings
) -> tuple[pl.Series, pl.Series] | None:
    """The spec's (tails, codes) for a look-up, or None when it depends on nothing per
    row; its texts are numbered in `strings`."""
    inputs: dict[str, pl.Expr] = {}
    for tag, value in (
        ("s", spec.style),
        ("n", spec.number),
        ("t", spec.text),
        ("e", spec.styled_empty),
    ):
        if isinstance(value, pl.Expr):
            inputs[tag] = value.alias(tag)
    if not inputs:
        return None
    # the spec again, each expression replaced by its input column
    keyed = CellSpec(
        text=pl.col("t") if "t" in inputs else None,
        number=pl.col("n") if "n" in inputs else None,
        style=pl.col("s") if "s" in inputs else spec.style,
        styled_empty=pl.col("e") if "e" in inputs else spec.styled_empty,
    )
    if list(inputs) == ["t"]:
        distinct, codes = _text_codes(frame, inputs["t"])
    else:
        # with_columns, not select: a literal input still gives one value per row
        values = frame.with_columns(inputs.values()).select(list(inputs))
        distinct = values.unique().with_row_index("_code")
        codes = values.join(
            distinct, on=list(inputs), how="left", nulls_equal=True, maintain_order="left"
        )["_code"]
    shared = None
    if "t" in inputs:
        texts = distinct.select(cell_text(pl.col("t")))
        distinct = distinct.with_columns(strings.numbers(texts.to_series()).alias("_si"))
        shared = pl.col("_si")
    tails = distinct.select(_tail_xml(keyed, number_type, shared).alias("tail"))["tail"]
    return tails, codes


def _text_codes(frame: pl.DataFrame, text: pl.Expr) -> tuple[pl.DataFrame, pl.Series]:
    """The distinct texts (column `t`, as strings, null last if any) and each row's index
    into them, from a categorical of its own: half the time of a join on the text."""
    categories = pl.Categories.random()
    column = frame.with_columns(text.cast(pl.String).alias("t"))["t"]
    categorical = column.cast(pl.Categorical(categories))  # holds the mapping alive
    distinct = categories.to_series().alias("t")
    codes = categorical.to_physical()
    if codes.has_nulls():
        codes = codes.fill_null(distinct.len())
        distinct = distinct.extend_constant(None, 1)
    return distinct.to_frame(), codes


def _absent(spec: CellSpec) -> pl.Expr:
    """Where `_tail_xml` of a column rendered directly (no text, whole numbers) is null."""
    absent = spec.number.is_null() if spec.number is not None else pl.lit(True)
    if isinstance(spec.styled_empty, pl.Expr):
        return absent & ~spec.styled_empty.fill_null(False)
    return absent & pl.lit(not spec.styled_empty)


def _columns(
    frame: pl.DataFrame, cells: Sequence[CellSpec], strings: SharedStrings
) -> list[_Column]:
    numbers = {
        i: spec.number.alias(f"n{i}") for i, spec in enumerate(cells) if spec.number is not None
    }
    types = frame.lazy().select(numbers.values()).collect_schema() if numbers else {}
    columns: list[_Column] = []
    absent: dict[int, pl.Expr] = {}
    for i, spec in enumerate(cells):
        number_type = types[f"n{i}"] if i in numbers else pl.Float64()
        letter = get_column_letter(i + 1)
        costly = spec.text is not None or (spec.number is not None and number_type.is_float())
        found = _looked_up(frame, spec, number_type, strings) if costly else None
        if found is None:
            columns.append(_Column(letter, direct=_tail_xml(spec, number_type)))
            absent[i] = _absent(spec).any().alias(str(i))
        else:
            # every distinct combination occurs in the segment: a null tail is a gap
            tails, codes = found
            columns.append(_Column(letter, tails=tails, codes=codes, gaps=tails.has_nulls()))
    if absent and frame.height:
        found_gaps = frame.select(absent.values()).row(0)
        for i, gaps in zip(absent, found_gaps, strict=True):
            columns[i] = replace(columns[i], gaps=bool(gaps))
    return columns


def _row_xml(frame: pl.DataFrame, columns: Sequence[_Column], first_row: int, offset: int) -> bytes:
    """The `<row>` elements of the rows of `frame`, which holds the segment's rows from
    `offset` on: one flat concatenation per row, written out by polars' CSV writer
    without quotes or line ends (a third of the time of joining the rows in polars)."""
    looked_up = [
        col.tails.gather(col.codes.slice(offset, frame.height)).alias(f"_x{i}")
        for i, col in enumerate(columns)
        if col.tails is not None and col.codes is not None
    ]
    row = (pl.int_range(pl.len(), dtype=pl.Int64) + first_row).cast(pl.String)
    pieces: list[pl.Expr] = [pl.lit('<row r="'), row, pl.lit('">')]
    for i, col in enumerate(columns):
        tail = col.direct if col.direct is not None else pl.col(f"_x{i}")
        start = [pl.lit(f'<c r="{col.letter}'), row, pl.lit('"')]
        if i == 0 or not columns[i - 1].gaps:
            start = [pl.lit("<c")]
        if col.gaps:  # no cell at all where the tail is null
            start = [pl.when(tail.is_not_null()).then(piece) for piece in start]
        pieces += [*start, tail]
    pieces.append(pl.lit("</row>"))
    xml = frame.hstack(looked_up).select(pl.concat_str(pieces, ignore_nulls=True).alias("xml"))
    out = io.BytesIO()
    xml.write_csv(out, include_header=False, quote_style="never", line_terminator="")
    return out.getvalue()


RowTask = Callable[[], bytes]  # renders one batch of rows


def segment_tasks(segment: Segment, first_row: int, strings: SharedStrings) -> Iterator[RowTask]:
    """One task per batch of the segment's `<row>` elements, numbered from `first_row`,
    its texts numbered in `strings`. The look-ups of the segment are built when the first
    task is asked for; the tasks may run in any thread and in any order."""
    if segment.height == 0:
        return
    columns = _columns(segment.frame, segment.cells, strings)
    for offset in range(0, segment.height, _BATCH_ROWS):
        part = segment.frame.slice(offset, _BATCH_ROWS)
        yield partial(_row_xml, part, columns, first_row + offset, offset)


def sheet_tasks(
    segments: Iterable[Segment], strings: SharedStrings, first_row: int = 1
) -> Iterator[RowTask]:
    row = first_row
    for segment in segments:
        yield from segment_tasks(segment, row, strings)
        row += segment.height


RowSource = Callable[[], Iterator[RowTask]]


@dataclass(frozen=True)
class SheetRows:
    """What `write_package` splices into one sheet: the tasks rendering its rows (from
    row 1) and the sheet's used range, `height` rows by `width` columns, written as its
    `<dimension>` (which readers such as openpyxl's read-only mode take as the sheet's
    size). `width` may exceed the widest row, never fall short of it."""

    tasks: RowSource
    height: int
    width: int

    @property
    def dimension(self) -> bytes:
        if self.height == 0 or self.width == 0:
            return b'<dimension ref="A1"/>'
        return f'<dimension ref="A1:{get_column_letter(self.width)}{self.height}"/>'.encode()


def sheet_rows(segments: Sequence[Segment], strings: SharedStrings) -> SheetRows:
    """The `SheetRows` of a sheet made of `segments`, in order from row 1, its texts
    numbered in `strings`."""
    filled = [s for s in segments if s.height]
    return SheetRows(
        lambda: sheet_tasks(filled, strings),
        sum(s.height for s in filled),
        max((len(s.cells) for s in filled), default=0),
    )
