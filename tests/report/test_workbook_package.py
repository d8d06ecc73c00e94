"""The report's package: the prefetching threads, the members' deflate and checksum,
the sheets' splice and the shared strings' declarations."""

from __future__ import annotations

import io
import threading
import time
import zipfile
import zlib
from collections.abc import Iterator
from datetime import datetime
from functools import partial

import polars as pl
import pytest

from pipeline.report import workbook_package as wp
from pipeline.report import workbook_xml as wx


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
    assert b"".join(wp.prefetched(lambda: _tasks(50))) == expected


def test_prefetched_raises_the_sources_error_after_its_chunks() -> None:
    seen: list[bytes] = []
    with pytest.raises(RuntimeError, match="render failed"):
        seen.extend(wp.prefetched(lambda: _tasks(10, fail_at=4)))
    assert seen == [b"<0>", b"<1>", b"<2>", b"<3>"]


def test_prefetched_raises_a_tasks_error_in_its_place() -> None:
    def source() -> Iterator[wx.RowTask]:
        yield from _tasks(3)
        yield _failing_task
        yield from _tasks(3)

    seen: list[bytes] = []
    with pytest.raises(RuntimeError, match="task failed"):
        seen.extend(wp.prefetched(source))
    assert seen == [b"<0>", b"<1>", b"<2>"]


def test_prefetched_stops_its_threads_when_the_consumer_stops() -> None:
    before = threading.active_count()
    rows = wp.prefetched(lambda: _tasks(1_000_000))
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
    wp.write_package(
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
        sst = z.read(wp.SHARED_STRINGS)
        types = z.read("[Content_Types].xml")
        rels = z.read("xl/_rels/workbook.xml.rels")
    assert sst.count(b"<si><t>Player ") == 5_000
    assert b'uniqueCount="5000"' in sst
    assert b'PartName="/xl/sharedStrings.xml"' in types
    assert rels.endswith(b'Target="sharedStrings.xml" Id="rId2"/></Relationships>')


@pytest.mark.skipif(wp._deflate is zlib, reason="ISA-L is not installed here")
def test_fast_writer_keeps_zipfiles_state_and_checksum() -> None:
    chunks = [bytes(range(256)) * 4_000, b"", b"<row/>" * 50_000, bytes(1_000_000)]
    target = io.BytesIO()
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as z:
        info = zipfile.ZipInfo("a.xml", date_time=(2026, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        with z.open(info, "w", force_zip64=True) as out:
            write = wp.fast_writer(out)
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
    write = wp.fast_writer(member)
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
    before, after = wp._splice(template, "sheet1.xml", b"<DIM/>")
    assert before == head
    assert after.startswith(b"</sheetData>")


def test_splice_refuses_a_sheet_it_does_not_expect() -> None:
    with pytest.raises(ValueError, match="one empty <sheetData>"):
        wp._splice(b"<worksheet><sheetData><row/></sheetData></worksheet>", "s.xml", b"")
    with pytest.raises(ValueError, match="no <dimension>"):
        wp._splice(b'<worksheet><dimension ref="A1"/><sheetData/></worksheet>', "s.xml", b"")


def test_a_package_without_relationships_is_refused() -> None:
    source = io.BytesIO()
    with zipfile.ZipFile(source, "w") as z:
        z.writestr("[Content_Types].xml", "<Types></Types>")
    with pytest.raises(ValueError, match=r"workbook\.xml\.rels"):
        wp.write_package(
            source, io.BytesIO(), rows={}, strings=wx.SharedStrings(), core_xml=b"",
            stamp=datetime(2026, 1, 1),
        )  # fmt: skip
