"""Sheet rows as SpreadsheetML: the rendering against a plain per-row reference written
here, the prefetching thread, and the package's deflate."""

from __future__ import annotations

import gc
import io
import math
import re
import threading
import time
import zipfile
import zlib
from collections.abc import Iterator
from datetime import datetime
from functools import partial
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


def _chunk(i: int) -> bytes:
    if i % 7 == 3:
        time.sleep(0.002)  # some tasks take longer: the order must still hold
    return f"<{i}>".encode()


def _tasks(count: int, fail_at: int | None = None) -> Iterator[wx.RowTask]:
    for i in range(count):
        if i == fail_at:
            raise RuntimeError("render failed")
        yield partial(_chunk, i)


def _failing_task() -> bytes:
    raise RuntimeError("task failed")


def test_prefetched_keeps_the_order() -> None:
    expected = b"".join(_chunk(i) for i in range(50))
    assert b"".join(wx.prefetched(lambda: _tasks(50))) == expected


def test_prefetched_raises_the_sources_error_after_its_chunks() -> None:
    seen: list[bytes] = []
    with pytest.raises(RuntimeError, match="render failed"):
        seen.extend(wx.prefetched(lambda: _tasks(10, fail_at=4)))
    assert seen == [b"<0>", b"<1>", b"<2>", b"<3>"]


def test_prefetched_raises_a_tasks_error_in_its_place() -> None:
    def source() -> Iterator[wx.RowTask]:
        yield from _tasks(3)
        yield _failing_task
        yield from _tasks(3)

    seen: list[bytes] = []
    with pytest.raises(RuntimeError, match="task failed"):
        seen.extend(wx.prefetched(source))
    assert seen == [b"<0>", b"<1>", b"<2>"]


def test_prefetched_stops_its_threads_when_the_consumer_stops() -> None:
    before = threading.active_count()
    rows = wx.prefetched(lambda: _tasks(1_000_000))
    assert next(rows) == b"<0>"
    rows.close()  # the consumer gives up (an error while writing)
    assert threading.active_count() == before


def test_package_members_are_deflated_and_verified() -> None:
    source = io.BytesIO()
    with zipfile.ZipFile(source, "w") as z:
        z.writestr("xl/worksheets/sheet1.xml", "<worksheet><sheetData/></worksheet>")
        z.writestr("docProps/core.xml", "<core/>")
        z.writestr("[Content_Types].xml", "<Types></Types>")
        z.writestr("xl/_rels/workbook.xml.rels", '<Relationships><R Id="rId1"/></Relationships>')
    frame = pl.DataFrame({"t": [f"Player {i}" for i in range(5_000)]})
    segment = wx.Segment(frame, [wx.CellSpec(text=pl.col("t"))])
    target = io.BytesIO()
    strings = wx.SharedStrings()
    wx.write_package(
        source,
        target,
        rows={"xl/worksheets/sheet1.xml": wx.sheet_rows([segment], strings)},
        strings=strings,
        core_xml=b"<core/>",
        stamp=datetime(2026, 1, 1),
    )
    with zipfile.ZipFile(target) as z:
        assert z.testzip() is None  # every CRC checks
        info = z.getinfo("xl/worksheets/sheet1.xml")
        assert info.compress_type == zipfile.ZIP_DEFLATED
        assert info.compress_size < info.file_size / 5
        xml = z.read(info.filename)
    assert xml.startswith(b'<worksheet><dimension ref="A1:A5000"/><sheetData><row r="1">')
    assert xml.endswith(b"</sheetData></worksheet>")
    assert xml.count(b"<row ") == 5_000
    with zipfile.ZipFile(target) as z:
        sst = z.read(wx.SHARED_STRINGS)
        types = z.read("[Content_Types].xml")
        rels = z.read("xl/_rels/workbook.xml.rels")
    assert sst.count(b"<si><t>Player ") == 5_000
    assert b'uniqueCount="5000"' in sst
    assert b'PartName="/xl/sharedStrings.xml"' in types
    assert rels.endswith(b'Target="sharedStrings.xml" Id="rId2"/></Relationships>')


@pytest.mark.skipif(wx._deflate is zlib, reason="ISA-L is not installed here")
def test_fast_writer_keeps_zipfiles_state_and_checksum() -> None:
    chunks = [bytes(range(256)) * 4_000, b"", b"<row/>" * 50_000, bytes(1_000_000)]
    target = io.BytesIO()
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as z:
        info = zipfile.ZipInfo("a.xml", date_time=(2026, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        with z.open(info, "w", force_zip64=True) as out:
            write = wx.fast_writer(out)
            assert write != out.write  # this Python's writer keeps the state it updates
            for chunk in chunks:
                write(chunk)
    with zipfile.ZipFile(target) as z:
        assert z.testzip() is None
        member = z.getinfo("a.xml")
        assert member.file_size == sum(map(len, chunks))
        assert zlib.crc32(b"".join(chunks)) == member.CRC
        assert z.read("a.xml") == b"".join(chunks)


def test_fast_writer_falls_back_to_the_writers_own_write() -> None:
    class Plain(io.BytesIO):
        pass

    member = Plain()
    write = wx.fast_writer(member)
    write(b"abc")
    assert member.getvalue() == b"abc"


@pytest.mark.parametrize(
    ("template", "head"),
    [
        (b"<worksheet><sheetData/></worksheet>", b"<worksheet><DIM/><sheetData>"),
        (
            b'<worksheet><sheetPr><outlinePr summaryBelow="1"/></sheetPr><sheetViews>'
            b"<sheetView/></sheetViews><cols/><sheetData></sheetData><pageSetup/></worksheet>",
            b'<worksheet><sheetPr><outlinePr summaryBelow="1"/></sheetPr><DIM/><sheetViews>'
            b"<sheetView/></sheetViews><cols/><sheetData>",
        ),
        (
            b"<worksheet><sheetFormatPr/><sheetData /></worksheet>",
            b"<worksheet><DIM/><sheetFormatPr/><sheetData>",
        ),
    ],
)
def test_splice_puts_the_dimension_where_the_schema_wants_it(template: bytes, head: bytes) -> None:
    before, after = wx._splice(template, "sheet1.xml", b"<DIM/>")
    assert before == head
    assert after.startswith(b"</sheetData>")


def test_splice_refuses_a_sheet_it_does_not_expect() -> None:
    with pytest.raises(ValueError, match="one empty <sheetData>"):
        wx._splice(b"<worksheet><sheetData><row/></sheetData></worksheet>", "s.xml", b"")
    with pytest.raises(ValueError, match="no <dimension>"):
        wx._splice(b'<worksheet><dimension ref="A1"/><sheetData/></worksheet>', "s.xml", b"")


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


def test_a_package_without_relationships_is_refused() -> None:
    source = io.BytesIO()
    with zipfile.ZipFile(source, "w") as z:
        z.writestr("[Content_Types].xml", "<Types></Types>")
    with pytest.raises(ValueError, match=r"workbook\.xml\.rels"):
        wx.write_package(
            source, io.BytesIO(), rows={}, strings=wx.SharedStrings(), core_xml=b"",
            stamp=datetime(2026, 1, 1),
        )  # fmt: skip
