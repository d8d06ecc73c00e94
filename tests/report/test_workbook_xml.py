"""Sheet rows as SpreadsheetML: the rendering against a plain per-row reference written
here, the batches, the sheets' row counts and the shared strings (the package they go
into: test_workbook_package)."""

from __future__ import annotations

import gc
import math
import re
from xml.sax.saxutils import escape

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl.utils import get_column_letter

from pipeline.report import workbook_xml as wx

_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _number(value: object) -> str | None:
    """A number as the report writes it: integers as they are, other values exactly to
    two decimals without trailing zeros; NaN and infinities are no number."""
    if value is None:
        return None
    if isinstance(value, int):
        return str(value)
    assert isinstance(value, float)
    if not math.isfinite(value):
        return None
    units = round(value * 100)  # the reference may use float rounding: it is a test
    sign = "-" if units < 0 else ""
    whole, frac = divmod(abs(units), 100)
    text = f"{frac:02d}".rstrip("0")
    return f"{sign}{whole}" + (f".{text}" if text else "")


def _reference(frame: pl.DataFrame, specs: list[wx.CellSpec], first_row: int) -> bytes:
    """Each row rendered cell by cell in Python from the specs' evaluated values."""
    columns: list[dict[str, list[object]]] = []
    for spec in specs:
        values: dict[str, list[object]] = {}
        for tag, expr in (
            ("n", spec.number),
            ("t", spec.text),
            ("s", spec.style),
            ("e", spec.styled_empty),
        ):
            if isinstance(expr, pl.Expr):
                values[tag] = frame.with_columns(expr.alias("_v"))["_v"].to_list()
            else:
                values[tag] = [expr] * frame.height
        columns.append(values)
    # the body of each cell after `<c` and its reference, None where there is no cell
    bodies: list[list[str | None]] = []
    for r in range(frame.height):
        row_bodies: list[str | None] = []
        for spec, values in zip(specs, columns, strict=True):
            style = f' s="{values["s"][r]}"'
            number = _number(values["n"][r]) if spec.number is not None else None
            text = values["t"][r] if spec.text is not None else None
            if text is not None:
                text = _ILLEGAL.sub("", str(text))[: wx.EXCEL_MAX_TEXT] or None
            body: str | None = None
            if number is not None:
                body = f"{style}><v>{number}</v></c>"
            elif text is not None:
                space = ' xml:space="preserve"' if text.strip() != text else ""
                body = f'{style} t="inlineStr"><is><t{space}>{escape(text)}</t></is></c>'
            elif values["e"][r]:
                body = f"{style}/>"
            row_bodies.append(body)
        bodies.append(row_bodies)
    # a cell names its place when the column before it lacks a cell in some row
    gaps = [any(row[i] is None for row in bodies) for i in range(len(specs))]
    out: list[str] = []
    for r, row_bodies in enumerate(bodies):
        row = first_row + r
        cells = [
            (f'<c r="{get_column_letter(i + 1)}{row}"' if i and gaps[i - 1] else "<c") + body
            for i, body in enumerate(row_bodies)
            if body is not None
        ]
        out.append(f'<row r="{row}">{"".join(cells)}</row>')
    return "".join(out).encode("utf-8")


_SHARED = re.compile(rb' t="s"><v>(\d+)</v>')


def _inline(xml: bytes, strings: wx.SharedStrings) -> bytes:
    """`xml` with each shared-string number replaced by its text inline, as the reference
    writes it (the same cell, read either way)."""
    texts = strings.texts().to_list()

    def text(found: re.Match[bytes]) -> bytes:
        value = texts[int(found[1])]
        space = ' xml:space="preserve"' if value.strip() != value else ""
        return f' t="inlineStr"><is><t{space}>{escape(value)}</t></is>'.encode()

    return _SHARED.sub(text, xml)


def _rendered(frame: pl.DataFrame, specs: list[wx.CellSpec], first_row: int) -> bytes:
    strings = wx.SharedStrings()
    tasks = wx.segment_tasks(wx.Segment(frame, specs), first_row, strings)
    return _inline(b"".join(task() for task in tasks), strings)


_TEXTS = st.one_of(
    st.none(),
    st.sampled_from(["", " ", "Carlsen", " lead", "trail ", "a&b", "<x>", "½", "=1+2"]),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=8),
)
_FLOATS = st.one_of(
    st.none(),
    st.sampled_from([0.0, -0.0, 6.6, -1.25, 0.005, 12.345, float("nan"), float("inf")]),
    st.integers(-100_000, 100_000).map(lambda h: h / 100),
)


@settings(max_examples=60, deadline=None)
@given(
    rows=st.lists(
        st.tuples(
            _TEXTS,
            _FLOATS,
            st.one_of(st.none(), st.integers(-(2**40), 2**40)),
            st.one_of(st.none(), st.integers(0, 4)),
        ),
        max_size=40,
    ),
    first_row=st.integers(1, 2_000_000),
)
def test_rendering_matches_the_reference(
    rows: list[tuple[str | None, float | None, int | None, int | None]], first_row: int
) -> None:
    frame = pl.DataFrame(
        rows,
        schema={"t": pl.String, "f": pl.Float64, "i": pl.Int64, "s": pl.Int64},
        orient="row",
    )
    specs = [
        wx.CellSpec(text=pl.col("t"), style=3),
        wx.CellSpec(number=pl.col("f"), style=4),
        wx.CellSpec(number=pl.col("i"), style=5),
        # number first, else the text: both looked up with a style per row
        wx.CellSpec(
            number=pl.col("f"),
            text=pl.col("t"),
            style=pl.col("s").fill_null(0),
            styled_empty=pl.col("s").is_not_null(),
        ),
        wx.CellSpec(text=pl.col("i"), style=6, styled_empty=True),
        wx.CellSpec(text=pl.lit("header"), style=7),
    ]
    assert _rendered(frame, specs, first_row) == _reference(frame, specs, first_row)


def test_batches_continue_the_row_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wx, "_BATCH_ROWS", 7)
    frame = pl.DataFrame({"t": [f"p{i % 5}" for i in range(30)], "f": [i / 4 for i in range(30)]})
    specs = [wx.CellSpec(text=pl.col("t"), style=1), wx.CellSpec(number=pl.col("f"), style=2)]
    strings = wx.SharedStrings()
    chunks = [task() for task in wx.segment_tasks(wx.Segment(frame, specs), 2, strings)]
    assert len(chunks) == 5
    assert _inline(b"".join(chunks), strings) == _reference(frame, specs, 2)


def test_long_text_is_cut_to_what_a_cell_holds() -> None:
    frame = pl.DataFrame({"t": ["x" * (wx.EXCEL_MAX_TEXT + 10)]})
    xml = _rendered(frame, [wx.CellSpec(text=pl.col("t"))], 1)
    assert xml.count(b"x") == wx.EXCEL_MAX_TEXT


def test_sheet_rows_span_every_segment() -> None:
    wide = wx.Segment(pl.DataFrame({"t": ["a", "b"]}), [wx.CellSpec(text=pl.col("t"))] * 28)
    narrow = wx.Segment(pl.DataFrame({"t": ["c"] * 3}), [wx.CellSpec(text=pl.col("t"))] * 2)
    empty = wx.Segment(pl.DataFrame({"t": []}, schema={"t": pl.String}), [wx.CellSpec()] * 40)
    rows = wx.sheet_rows([narrow, empty, wide], wx.SharedStrings())
    assert (rows.height, rows.width) == (5, 28)
    assert rows.dimension == b'<dimension ref="A1:AB5"/>'
    assert wx.sheet_rows([empty], wx.SharedStrings()).dimension == b'<dimension ref="A1"/>'
    rendered = b"".join(task() for task in rows.tasks())
    assert rendered.count(b"<row ") == 5
    assert rendered.startswith(b'<row r="1">')
    assert b'<row r="5">' in rendered


def test_shared_strings_number_each_text_once_in_a_stable_order() -> None:
    strings = wx.SharedStrings()
    first = strings.numbers(pl.Series(["b", None, "a", "b"]))
    assert first.to_list() == [1, None, 0, 1]  # new texts sorted
    gc.collect()  # nothing but the table holds the texts between the calls
    second = strings.numbers(pl.Series(["c", "a", " pad "]))
    assert second.to_list() == [3, 0, 2]
    assert strings.texts().to_list() == ["a", "b", " pad ", "c"]
    xml = strings.xml()
    assert xml.endswith(
        b'uniqueCount="4"><si><t>a</t></si><si><t>b</t></si>'
        b'<si><t xml:space="preserve"> pad </t></si><si><t>c</t></si></sst>'
    )


def test_shared_strings_are_escaped_xml() -> None:
    strings = wx.SharedStrings()
    strings.numbers(pl.Series(["a&b", "<x>", "½ line\nbreak"]))
    xml = strings.xml()
    assert b"<t>a&amp;b</t>" in xml
    assert b"<t>&lt;x&gt;</t>" in xml
    assert "<t>½ line\nbreak</t>".encode() in xml
    from xml.etree import ElementTree

    root = ElementTree.fromstring(xml)
    texts = [
        t.text for t in root.iter("{http://schemas.openxmlformats.org/spreadsheetml/2006/main}t")
    ]
    assert texts == strings.texts().to_list()
