"""Pre-flight of an XLSX archive before any spreadsheet reader sees its bytes.

Why: calamine-based readers (fastexcel, polars) allocate the whole used area of a sheet up
front, so a 5 KB file declaring one cell at XFD1048576 makes them ask for hundreds of GiB
and abort the process; a zip bomb keeps openpyxl busy until it is killed. `check_xlsx`
looks at the archive without inflating more than the limits allow and raises
`InputError` (code ``xlsx-unsafe``, or ``xlsx-unreadable`` for a file that is not a
usable zip archive) naming the part and the limit.

What is checked, in order:

1. the archive size and that it is a zip archive at all;
2. the entry count, every entry's compression method (stored or deflate, as Excel and
   every common writer use) and encryption flag, each entry's declared uncompressed size,
   the declared total and the declared compression ratio;
3. every entry is inflated by this module (raw deflate, in ``chunk_bytes`` steps, never
   trusting the declared sizes): it must not inflate beyond its declared size or the
   total budget, and its CRC must match;
4. every XML part (``.xml``, ``.rels``, ``.vml``) must be UTF-8 (no UTF-16, which would
   hide markup from this scan) and must not contain ``<!DOCTYPE`` or ``<!ENTITY``;
5. in every XML part the ``<dimension ref=..>`` and every ``<row r=..>`` / ``<c r=..>``
   position (or the implied position of rows and cells without ``r``, counted the way
   readers do) must lie within ``max_rows`` x ``max_columns``, and the area they span
   within ``max_cells``. The dimension is checked as well as the cells because readers
   reserve memory from it and it can lie either way.

Defaults of `XlsxLimits` (a chess-results crosstable of a 2,000-player open is about
2,000 rows x 40 columns and well under 1 MB):

=========================  ===============  ==================================================
limit                      default          meaning
=========================  ===============  ==================================================
max_file_bytes             50,000,000       size of the .xlsx file itself
max_entries                10,000           entries in the archive
max_uncompressed_bytes     200,000,000      inflated size of all entries together
max_part_bytes             100,000,000      inflated size of any one entry
max_ratio                  200              inflated / compressed size of an entry ...
ratio_min_bytes            1,048,576        ... checked for entries inflating past this size
max_rows                   100,000          highest row number of any cell
max_columns                1,000            highest column number of any cell (ALL)
max_cells                  2,000,000        max row x max column (the area a reader allocates)
chunk_bytes                65,536           inflate step; memory used by the scan is O(this)
=========================  ===============  ==================================================

A small crosstable workbook is checked in well under a millisecond (see the tests).
"""

from __future__ import annotations

import io
import re
import struct
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass

from pipeline.errors import InputError

UNSAFE = "xlsx-unsafe"
UNREADABLE = "xlsx-unreadable"

_XML_SUFFIXES = (".xml", ".rels", ".vml")
_LOCAL_HEADER = struct.Struct("<4s22xHH")  # signature, ..., name length, extra length
_LOCAL_SIGNATURE = b"PK\x03\x04"
_MAX_TAG_BYTES = 1 << 20  # a start tag longer than this is not a spreadsheet's markup

_PREFIX = rb"(?:[A-Za-z_][\w.\-]*:)?"
_TAG = re.compile(rb"<" + _PREFIX + rb"(row|c)(?=[\s/>])([^>]*)>")
_DIMENSION = re.compile(rb"<" + _PREFIX + rb"dimension(?=[\s/>])([^>]*)>")
_ATTRIBUTE = re.compile(rb"""([\w:.\-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
# A cell or row whose `r` comes first. A second `r` on the same tag shows up in the
# count of ' r="' (other forms are refused by the readers' XML parser as duplicates).
_FAST_CELL = re.compile(rb'<c r="([A-Z]{1,3})([0-9]{1,7})"')
_FAST_ROW = re.compile(rb'<row r="([0-9]{1,7})"')
_IRREGULAR: tuple[bytes, ...] = (b":c", b":row", b"<c>", b"<c/", b"<c\t", b"<c\n", b"<c\r")
_IRREGULAR += (b"<row>", b"<row/", b"<row\t", b"<row\n", b"<row\r")
_CELL_REF = re.compile(rb"\$?([A-Za-z]{1,10})\$?([0-9]{1,15})")
_ROW_REF = re.compile(rb"[0-9]{1,15}")
_DECLARATION = re.compile(rb"<!\s*(?:DOCTYPE|ENTITY)", re.IGNORECASE)


@dataclass(frozen=True)
class XlsxLimits:
    """Bounds for `check_xlsx`; see the module docstring for what each one means."""

    max_file_bytes: int = 50_000_000
    max_entries: int = 10_000
    max_uncompressed_bytes: int = 200_000_000
    max_part_bytes: int = 100_000_000
    max_ratio: int = 200
    ratio_min_bytes: int = 1_048_576
    max_rows: int = 100_000
    max_columns: int = 1_000
    max_cells: int = 2_000_000
    chunk_bytes: int = 65_536


class _Refused(Exception):
    """Internal: stops the scan at the first limit crossed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def check_xlsx(data: bytes, file: str, limits: XlsxLimits | None = None) -> None:
    """Raise `InputError` unless `data` is an XLSX archive a reader can open safely."""
    lim = limits or XlsxLimits()
    try:
        _check(data, lim)
    except _Refused as refused:
        raise InputError.single(file, None, None, refused.code, refused.message) from None


def column_number(letters: str) -> int:
    """Spreadsheet column letters to a 1-based number: ``A`` -> 1, ``XFD`` -> 16384."""
    number = 0
    for char in letters.upper():
        number = number * 26 + (ord(char) - 64)
    return number


def _check(data: bytes, lim: XlsxLimits) -> None:
    if len(data) > lim.max_file_bytes:
        raise _Refused(
            UNSAFE, f"expected a file of at most {lim.max_file_bytes} bytes, got {len(data)}"
        )
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (
        zipfile.BadZipFile,
        NotImplementedError,
        OSError,
        ValueError,
        EOFError,
        struct.error,
    ) as exc:
        raise _Refused(
            UNREADABLE, f"expected an XLSX file (a zip archive), got something else ({exc})"
        ) from None
    with archive:
        infos = archive.infolist()
        _check_directory(infos, lim)
        view = memoryview(data)
        budget = [lim.max_uncompressed_bytes]
        for info in infos:
            if not info.is_dir():
                _scan_entry(view, info, lim, budget)


def _check_directory(infos: list[zipfile.ZipInfo], lim: XlsxLimits) -> None:
    if not infos:
        raise _Refused(UNREADABLE, "expected an XLSX archive with parts, got an empty zip")
    if len(infos) > lim.max_entries:
        raise _Refused(
            UNSAFE, f"expected at most {lim.max_entries} archive entries, got {len(infos)}"
        )
    total = 0
    for info in infos:
        name = info.filename
        if info.flag_bits & 0x1:
            raise _Refused(UNSAFE, f"part '{name}': expected an unencrypted entry, got encrypted")
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise _Refused(
                UNSAFE,
                f"part '{name}': expected compression stored or deflate, "
                f"got method {info.compress_type}",
            )
        if info.file_size > lim.max_part_bytes:
            raise _Refused(
                UNSAFE,
                f"part '{name}': expected at most {lim.max_part_bytes} bytes uncompressed, "
                f"got {info.file_size} declared",
            )
        _check_ratio(name, info.file_size, info.compress_size, lim)
        total += info.file_size
    if total > lim.max_uncompressed_bytes:
        raise _Refused(
            UNSAFE,
            f"expected at most {lim.max_uncompressed_bytes} bytes uncompressed in all parts, "
            f"got {total} declared",
        )


def _check_ratio(name: str, inflated: int, compressed: int, lim: XlsxLimits) -> None:
    if inflated >= lim.ratio_min_bytes and inflated > lim.max_ratio * max(compressed, 1):
        raise _Refused(
            UNSAFE,
            f"part '{name}': expected a compression ratio of at most {lim.max_ratio}, "
            f"got {inflated // max(compressed, 1)} ({compressed} -> {inflated} bytes)",
        )


def _raw_member(view: memoryview, info: zipfile.ZipInfo) -> memoryview:
    """The compressed bytes of one entry, located through its local header."""
    offset = info.header_offset
    header = bytes(view[offset : offset + _LOCAL_HEADER.size])
    if len(header) < _LOCAL_HEADER.size:
        raise _Refused(UNREADABLE, f"part '{info.filename}': expected a local header, got EOF")
    signature, name_len, extra_len = _LOCAL_HEADER.unpack(header)
    if signature != _LOCAL_SIGNATURE:
        raise _Refused(
            UNREADABLE, f"part '{info.filename}': expected a local header, got {signature!r}"
        )
    start = offset + _LOCAL_HEADER.size + name_len + extra_len
    end = start + info.compress_size
    if end > len(view):
        raise _Refused(
            UNREADABLE, f"part '{info.filename}': expected {info.compress_size} bytes, got EOF"
        )
    return view[start:end]


def _inflate(raw: memoryview, method: int, chunk: int, name: str) -> Iterator[bytes]:
    """Yield the entry's content in pieces of at most `chunk` bytes."""
    if method == zipfile.ZIP_STORED:
        for pos in range(0, len(raw), chunk):
            yield bytes(raw[pos : pos + chunk])
        return
    inflater = zlib.decompressobj(-zlib.MAX_WBITS)
    pos = 0
    try:
        while not inflater.eof:
            source: bytes | memoryview
            if inflater.unconsumed_tail:
                source = inflater.unconsumed_tail
            elif pos < len(raw):
                source = raw[pos : pos + chunk]
                pos += len(source)
            else:
                source = b""
            out = inflater.decompress(source, chunk)
            if out:
                yield out
            elif not source:
                break
    except zlib.error as exc:
        raise _Refused(
            UNREADABLE, f"part '{name}': expected deflate data, got an error ({exc})"
        ) from None
    if not inflater.eof:
        raise _Refused(UNREADABLE, f"part '{name}': expected complete deflate data, got EOF")


def _scan_entry(
    view: memoryview, info: zipfile.ZipInfo, lim: XlsxLimits, budget: list[int]
) -> None:
    name = info.filename
    raw = _raw_member(view, info)
    is_xml = name.lower().endswith(_XML_SUFFIXES)
    scanner = _XmlScanner(name, lim) if is_xml else None
    size = 0
    crc = 0
    for piece in _inflate(raw, info.compress_type, lim.chunk_bytes, name):
        size += len(piece)
        if size > info.file_size:
            raise _Refused(
                UNSAFE,
                f"part '{name}': expected {info.file_size} bytes as declared, "
                f"got more when inflated",
            )
        budget[0] -= len(piece)
        if budget[0] < 0:
            raise _Refused(
                UNSAFE,
                f"expected at most {lim.max_uncompressed_bytes} bytes uncompressed in all "
                f"parts, got more (at part '{name}')",
            )
        crc = zlib.crc32(piece, crc)
        if scanner is not None:
            scanner.feed(piece)
    if size != info.file_size or crc != info.CRC:
        raise _Refused(
            UNREADABLE,
            f"part '{name}': expected {info.file_size} bytes with CRC {info.CRC:08x}, "
            f"got {size} bytes with CRC {crc:08x}",
        )
    _check_ratio(name, size, info.compress_size, lim)
    if scanner is not None:
        scanner.finish()


class _XmlScanner:
    """Streams one XML part: refuses DTDs and cell positions beyond the limits.

    Most writers put ``r`` first on every ``<row>`` and ``<c>``; a chunk where that holds
    for every tag (and no other ``r=`` appears) is checked with a few C-level regex passes.
    Any other chunk goes through the tag-by-tag path, which parses attributes properly and
    counts rows and cells without ``r`` the way readers place them.
    """

    def __init__(self, name: str, lim: XlsxLimits) -> None:
        self.name = name
        self.lim = lim
        self.tail = b""
        self.started = False
        self.in_sheet = False  # cells count only inside <sheetData>, as readers see them
        self.row = 0
        self.col = 0
        self.max_row = 0
        self.max_col = 0

    def feed(self, piece: bytes) -> None:
        if not self.started:
            self.started = True
            head = piece[:4]
            if head.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in head:
                raise _Refused(
                    UNSAFE, f"part '{self.name}': expected UTF-8 XML, got UTF-16 or binary"
                )
        buffer = self.tail + piece if self.tail else piece
        if b"<!" in buffer and _DECLARATION.search(buffer):
            raise _Refused(
                UNSAFE,
                f"part '{self.name}': expected XML without DOCTYPE or ENTITY declarations, got one",
            )
        cut = buffer.rfind(b"<")
        if cut >= 0 and buffer.find(b">", cut) < 0:
            body, self.tail = buffer[:cut], buffer[cut:]
            if len(self.tail) > _MAX_TAG_BYTES:
                raise _Refused(
                    UNSAFE,
                    f"part '{self.name}': expected tags under {_MAX_TAG_BYTES} bytes, got longer",
                )
        else:
            body, self.tail = buffer, b""
        if b"dimension" in body:
            for found in _DIMENSION.finditer(body):
                self._dimension(found.group(1))
        if not self.in_sheet:
            start = body.find(b"sheetData")
            if start < 0:
                return
            self.in_sheet = True
            body = body[start:]
        if not self._fast(body):
            for found in _TAG.finditer(body):
                self._tag(found.group(1), found.group(2))

    def finish(self) -> None:
        self._check_area(self.max_row, self.max_col, "the cells")

    def _fast(self, body: bytes) -> bool:
        if any(marker in body for marker in _IRREGULAR):
            return False
        cells = _FAST_CELL.findall(body)
        rows = _FAST_ROW.findall(body)
        if (
            len(cells) != body.count(b"<c ")
            or len(rows) != body.count(b"<row ")
            or len(cells) + len(rows) != body.count(b' r="')
        ):
            return False
        if cells:
            letters = max({cell[0] for cell in cells}, key=lambda s: (len(s), s))
            self.max_col = max(self.max_col, column_number(letters.decode("ascii")))
            digits = {cell[1] for cell in cells}
            self.max_row = max(self.max_row, max(int(d) for d in digits))
        if rows:
            self.max_row = max(self.max_row, max(int(d) for d in set(rows)))
            self.row = int(rows[-1])
        if body.rfind(b"<c ") > body.rfind(b"<row "):
            self.col = column_number(cells[-1][0].decode("ascii"))
        elif rows:
            self.col = 0
        self._check_area(self.max_row, self.max_col, "the cells")
        return True

    def _dimension(self, attrs: bytes) -> None:
        for ref in _attr_values(attrs, b"ref"):
            for end in ref.split(b":"):
                row, col = self._cell(end)
                self._check_area(row, col, f"the dimension {ref[:40].decode('ascii', 'replace')}")

    def _tag(self, tag: bytes, attrs: bytes) -> None:
        values = _attr_values(attrs, b"r")
        if tag == b"row":
            if not values:
                self.row += 1
            for value in values:
                if not _ROW_REF.fullmatch(value.strip()):
                    raise _Refused(
                        UNSAFE, f"part '{self.name}': expected a row number, got {value[:20]!r}"
                    )
                self.row = int(value)
                self.max_row = max(self.max_row, self.row)
                self._check_area(self.row, 1, f"row {self.row}")
            self.max_row = max(self.max_row, self.row)
            self.col = 0
            return
        if not values:
            self.col += 1
            row = max(self.row, 1)
            self.max_row = max(self.max_row, row)
            self.max_col = max(self.max_col, self.col)
            self._check_area(row, self.col, f"a cell at row {row}, column {self.col}")
        for value in values:
            row, self.col = self._cell(value)
            self.max_row = max(self.max_row, row)
            self.max_col = max(self.max_col, self.col)
            self._check_area(row, self.col, f"a cell at {value[:20].decode('ascii', 'replace')}")

    def _cell(self, ref: bytes) -> tuple[int, int]:
        found = _CELL_REF.fullmatch(ref.strip())
        if not found:
            raise _Refused(
                UNSAFE, f"part '{self.name}': expected a cell reference like 'B7', got {ref[:20]!r}"
            )
        return int(found.group(2)), column_number(found.group(1).decode("ascii"))

    def _check_area(self, row: int, col: int, what: str) -> None:
        lim = self.lim
        if row > lim.max_rows or col > lim.max_columns or row * col > lim.max_cells:
            raise _Refused(
                UNSAFE,
                f"part '{self.name}': expected cells within {lim.max_rows} rows x "
                f"{lim.max_columns} columns and {lim.max_cells} cells in all, got {what}",
            )


def _attr_values(attrs: bytes, wanted: bytes) -> list[bytes]:
    """Values of every attribute named `wanted`, quoted values skipped as wholes."""
    return [
        found.group(2) if found.group(2) is not None else found.group(3)
        for found in _ATTRIBUTE.finditer(attrs)
        if found.group(1) == wanted
    ]
