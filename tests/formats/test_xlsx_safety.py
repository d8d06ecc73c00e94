"""The XLSX pre-flight: hostile archives are refused before any spreadsheet reader runs.

Inputs are built in memory or in tmp_path (no committed binaries). The limits under test
are the documented defaults of `XlsxLimits` (pipeline/formats/xlsx_safety.py), lowered
where a test would otherwise need hundreds of megabytes.
"""

from __future__ import annotations

import functools
import io
import struct
import time
import zipfile
import zlib
from pathlib import Path

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.errors import InputError
from pipeline.formats.xlsx_safety import XlsxLimits, check_xlsx, column_number

_MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
_CT_NS = "http://schemas.openxmlformats.org/package/2006/content-types"
_XML_DECL = '<?xml version="1.0" encoding="UTF-8"?>'


def minimal_parts(sheet_data: str, dimension: str | None = None) -> dict[str, str]:
    """The five parts of a one-sheet workbook; `sheet_data` is the inside of <sheetData>."""
    dim = f'<dimension ref="{dimension}"/>' if dimension else ""
    return {
        "[Content_Types].xml": (
            f'{_XML_DECL}<Types xmlns="{_CT_NS}">'
            '<Default Extension="rels" '
            'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" ContentType="application/'
            'vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
            '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/'
            'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>'
        ),
        "_rels/.rels": (
            f'{_XML_DECL}<Relationships xmlns="{_PKG_REL_NS}"><Relationship Id="rId1" '
            f'Type="{_REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>'
        ),
        "xl/workbook.xml": (
            f'{_XML_DECL}<workbook xmlns="{_MAIN_NS}" xmlns:r="{_REL_NS}"><sheets>'
            '<sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>'
        ),
        "xl/_rels/workbook.xml.rels": (
            f'{_XML_DECL}<Relationships xmlns="{_PKG_REL_NS}"><Relationship Id="rId1" '
            f'Type="{_REL_NS}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'
        ),
        "xl/worksheets/sheet1.xml": (
            f'{_XML_DECL}<worksheet xmlns="{_MAIN_NS}">{dim}<sheetData>{sheet_data}'
            "</sheetData></worksheet>"
        ),
    }


def zip_parts(parts: dict[str, str | bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, content in parts.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def minimal_xlsx(sheet_data: str, dimension: str | None = None) -> bytes:
    """A hand-written workbook: lets tests put formulas with cached values, odd refs and
    anything else openpyxl would not write."""
    return zip_parts(dict(minimal_parts(sheet_data, dimension)))


def inline_cell(ref: str, text: str) -> str:
    return f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'


def openpyxl_workbook(rows: int = 12, columns: int = 16) -> bytes:
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    assert sheet is not None
    for r in range(1, rows + 1):
        for c in range(1, columns + 1):
            sheet.cell(r, c, f"{r}w1" if c > 4 else r)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def refused(data: bytes, limits: XlsxLimits | None = None) -> tuple[str, str]:
    with pytest.raises(InputError) as caught:
        check_xlsx(data, "t.xlsx", limits)
    (problem,) = caught.value.problems
    assert problem.location.file == "t.xlsx"
    return problem.code, problem.message


# --- accepted ------------------------------------------------------------------------


def test_an_openpyxl_workbook_passes() -> None:
    check_xlsx(openpyxl_workbook(), "t.xlsx")


def test_a_hand_written_workbook_passes() -> None:
    check_xlsx(minimal_xlsx('<row r="1">' + inline_cell("A1", "Rk.") + "</row>", "A1"), "t.xlsx")


def test_prefixed_tags_and_cells_without_r_are_counted_the_slow_way() -> None:
    # Readers match local names, so <x:c> is a cell; cells without r follow the previous.
    sheet = '<x:row r="3"><x:c r="B3"><x:v>1</x:v></x:c><x:c><x:v>2</x:v></x:c></x:row>'
    check_xlsx(minimal_xlsx(sheet), "t.xlsx")


@pytest.mark.parametrize(
    ("letters", "number"),
    [("A", 1), ("Z", 26), ("AA", 27), ("AZ", 52), ("ALL", 1000), ("XFD", 16384)],
    ids=["A", "Z", "AA", "AZ", "ALL", "XFD (Excel's last column)"],
)
def test_column_number(letters: str, number: int) -> None:
    assert column_number(letters) == number


def test_preflight_of_a_small_workbook_takes_about_a_millisecond() -> None:
    data = openpyxl_workbook(12, 16)
    timings = []
    for _ in range(30):
        start = time.perf_counter()
        check_xlsx(data, "t.xlsx")
        timings.append(time.perf_counter() - start)
    timings.sort()
    # Measured ~0.5 ms on the team's 2-core machine; generous bound against CI noise.
    assert timings[len(timings) // 2] < 0.02


# --- refused: cell positions ---------------------------------------------------------


def test_openpyxl_cell_at_xfd1048576_is_refused() -> None:
    # Measured: this 5 KB file makes calamine-based readers allocate hundreds of GiB.
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet["A1"] = "Rk."
    sheet["XFD1048576"] = 1
    buffer = io.BytesIO()
    workbook.save(buffer)
    code, message = refused(buffer.getvalue())
    assert code == "xlsx-unsafe"
    assert "xl/worksheets/sheet1.xml" in message
    assert "100000 rows x 1000 columns" in message


@pytest.mark.parametrize(
    ("sheet", "dimension"),
    [
        ('<row r="1"><c r="XFD1048576"><v>1</v></c></row>', "A1"),
        ('<row r="1"><c r="A1"><v>1</v></c></row>', "A1:XFD1048576"),
        ('<row r="1048576"><c><v>1</v></c></row>', None),
        ('<row r="1"><c r="ALM1"><v>1</v></c></row>', None),
        ('<row r="100001"/>', None),
        ('<row r="1">' + "<c><v>1</v></c>" * 1001 + "</row>", None),
        ('<row r="1"><c s="1" r="XFD1"><v>1</v></c></row>', None),
        ('<row r="1"><c r="A1" r="XFD1"><v>1</v></c></row>', None),
        ('<row r="1"><c  r="XFD1"><v>1</v></c></row>', None),
        ("<row><c r='XFD7'><v>1</v></c></row>", None),
        ('<x:row r="1"><x:c r="XFD1"><x:v>1</x:v></x:c></x:row>', None),
        ('<row r="1"><c r="1A"><v>1</v></c></row>', None),
        ('<row r="1"><c r="B3000"/><c r="ZZ2"/></row>', None),
    ],
    ids=[
        "cell beyond, dimension lies small",
        "dimension beyond, cells small",
        "row r=1048576",
        "column 1001",
        "row 100001",
        "1001 cells without r",
        "r not the first attribute",
        "second r attribute",
        "two spaces before r",
        "single quotes",
        "prefixed tags",
        "malformed reference",
        "area 3000 x 702 beyond max_cells",
    ],
)
def test_cell_positions_beyond_the_limits_are_refused(sheet: str, dimension: str | None) -> None:
    code, message = refused(minimal_xlsx(sheet, dimension))
    assert code == "xlsx-unsafe"
    assert "part 'xl/worksheets/sheet1.xml'" in message


# --- refused: archive ----------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [b"", b"Rk.;Name\n1;Berg Ana\n", b"PK\x03\x04garbage", b"\xd0\xcf\x11\xe0" + b"\0" * 600],
    ids=["empty", "csv text", "truncated zip", "xls (OLE2)"],
)
def test_not_a_zip_is_unreadable(data: bytes) -> None:
    code, message = refused(data)
    assert code == "xlsx-unreadable"
    assert message.startswith("expected an XLSX file (a zip archive), got")


def test_too_many_entries_are_refused() -> None:
    parts: dict[str, str | bytes] = {f"xl/media/p{i}.txt": "x" for i in range(11)}
    code, message = refused(zip_parts(parts), XlsxLimits(max_entries=10))
    assert (code, message) == ("xlsx-unsafe", "expected at most 10 archive entries, got 11")


def test_zip_bomb_is_refused_from_its_declared_size(tmp_path: Path) -> None:
    # 20 MB of zeros deflate to ~20 KB; with a 10 MB part limit it is refused before any
    # byte is inflated. (The 1 GB version is the slow test below.)
    path = tmp_path / "bomb.xlsx"
    _write_zeros_part(path, 20_000_000)
    code, message = refused(path.read_bytes(), XlsxLimits(max_part_bytes=10_000_000))
    assert code == "xlsx-unsafe"
    assert "part 'xl/worksheets/sheet1.xml': expected at most 10000000 bytes" in message


def test_compression_ratio_is_limited() -> None:
    data = zip_parts({"xl/sharedStrings.xml": b" " * 2_000_000})
    code, message = refused(data)
    assert code == "xlsx-unsafe"
    assert "expected a compression ratio of at most 200" in message


def test_lying_declared_size_is_caught_while_inflating() -> None:
    # The directory says 1,000 bytes (with the CRC of the first 1,000), the data inflates
    # to 5 MB: readers that trust the stream would inflate it all.
    data = _lying_zip(real_size=5_000_000, declared=1_000)
    code, message = refused(data)
    assert code == "xlsx-unsafe"
    assert message == (
        "part 'xl/worksheets/sheet1.xml': expected 1000 bytes as declared, got more when inflated"
    )


def test_total_budget_is_enforced_across_parts() -> None:
    parts: dict[str, str | bytes] = {f"xl/media/p{i}.bin": bytes(range(256)) * 40 for i in range(5)}
    code, message = refused(zip_parts(parts), XlsxLimits(max_uncompressed_bytes=40_000))
    assert code == "xlsx-unsafe"
    assert message.startswith("expected at most 40000 bytes uncompressed in all parts")


@pytest.mark.parametrize(
    "content",
    [
        '<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY a "aaaa">]><sst><si><t>&a;</t></si></sst>',
        '<?xml version="1.0"?><!ENTITY x SYSTEM "file:///etc/passwd"><sst/>',
        '<?xml version="1.0"?><!doctype sst><sst/>',
    ],
    ids=["entity expansion", "external entity", "lower-case doctype"],
)
def test_dtd_in_shared_strings_is_refused(content: str) -> None:
    parts: dict[str, str | bytes] = dict(minimal_parts(""))
    parts["xl/sharedStrings.xml"] = content
    code, message = refused(zip_parts(parts))
    assert code == "xlsx-unsafe"
    assert message == (
        "part 'xl/sharedStrings.xml': expected XML without DOCTYPE or ENTITY declarations, got one"
    )


def test_dtd_split_across_inflate_chunks_is_found() -> None:
    parts: dict[str, str | bytes] = dict(minimal_parts(""))
    parts["xl/sharedStrings.xml"] = " " * 65_532 + "<!DOCTYPE x><sst/>"
    code, _ = refused(zip_parts(parts))
    assert code == "xlsx-unsafe"


def test_utf16_xml_is_refused() -> None:
    parts: dict[str, str | bytes] = dict(minimal_parts(""))
    parts["xl/sharedStrings.xml"] = '<?xml version="1.0" encoding="UTF-16"?><sst/>'.encode("utf-16")
    code, message = refused(zip_parts(parts))
    assert code == "xlsx-unsafe"
    assert "expected UTF-8 XML, got UTF-16 or binary" in message


def test_other_compression_methods_are_refused() -> None:
    data = zip_parts(dict(minimal_parts("")), zipfile.ZIP_BZIP2)
    code, message = refused(data)
    assert code == "xlsx-unsafe"
    assert message.endswith("expected compression stored or deflate, got method 12")


def test_stored_entries_are_checked_too() -> None:
    sheet = '<row r="1"><c r="XFD1"><v>1</v></c></row>'
    code, _ = refused(zip_parts(dict(minimal_parts(sheet)), zipfile.ZIP_STORED))
    assert code == "xlsx-unsafe"


def test_corrupt_crc_is_unreadable() -> None:
    data = bytearray(zip_parts(dict(minimal_parts("")), zipfile.ZIP_STORED))
    spot = data.index(b"<sheetData>")
    data[spot + 1] = ord("S")
    code, message = refused(bytes(data))
    assert code == "xlsx-unreadable"
    assert "with CRC" in message


def test_file_size_limit() -> None:
    code, message = refused(b"PK" + b"\0" * 100, XlsxLimits(max_file_bytes=50))
    assert (code, message) == ("xlsx-unsafe", "expected a file of at most 50 bytes, got 102")


@functools.cache
def _small_workbook() -> bytes:
    """Built once: openpyxl stamps the current time into the archive, and hypothesis needs
    the same bytes on every replay."""
    return openpyxl_workbook(3, 3)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_archives_raise_only_input_error(data: st.DataObject) -> None:
    original = bytearray(_small_workbook())
    for _ in range(data.draw(st.integers(1, 8))):
        spot = data.draw(st.integers(0, len(original) - 1))
        original[spot] = data.draw(st.integers(0, 255))
    codes: list[str] = []
    try:
        check_xlsx(bytes(original), "t.xlsx")
    except InputError as error:
        codes = [problem.code for problem in error.problems]
    assert set(codes) <= {"xlsx-unsafe", "xlsx-unreadable"}


@pytest.mark.slow
def test_one_gigabyte_zip_bomb_is_refused_quickly(tmp_path: Path) -> None:
    path = tmp_path / "bomb.xlsx"
    _write_zeros_part(path, 1_000_000_000)  # ~1 MB on disk
    start = time.perf_counter()
    code, message = refused(path.read_bytes())
    assert time.perf_counter() - start < 0.5
    assert code == "xlsx-unsafe"
    assert "got 1000000000 declared" in message


# --- builders ------------------------------------------------------------------------


def _write_zeros_part(path: Path, size: int) -> None:
    """A workbook whose sheet part is `size` bytes of zeros, written streaming."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in minimal_parts("").items():
            if name != "xl/worksheets/sheet1.xml":
                archive.writestr(name, content)
        block = b"\0" * 1_048_576
        with archive.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as part:
            left = size
            while left > 0:
                part.write(block[: min(left, len(block))])
                left -= len(block)


def _lying_zip(real_size: int, declared: int) -> bytes:
    """One deflated entry whose local and central headers claim `declared` bytes."""
    content = b"<" + b"a" * (real_size - 1)
    name = b"xl/worksheets/sheet1.xml"
    compressor = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    raw = compressor.compress(content) + compressor.flush()
    crc = zlib.crc32(content[:declared])
    local = struct.pack(
        "<4sHHHHHIIIHH", b"PK\x03\x04", 20, 0, 8, 0, 0, crc, len(raw), declared, len(name), 0
    )
    central = struct.pack(
        "<4sHHHHHHIIIHHHHHII",
        b"PK\x01\x02", 20, 20, 0, 8, 0, 0, crc, len(raw), declared, len(name), 0, 0, 0, 0, 0, 0,
    )  # fmt: skip
    body = local + name + raw
    directory = central + name
    end = struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, 1, 1, len(directory), len(body), 0)
    return body + directory + end
