"""The report's package: openpyxl's workbook copied into report.xlsx with every sheet's
rows spliced in (`pipeline.report.workbook_xml` renders them), the shared strings added,
fixed entry dates and core properties, deflated and checksummed by ISA-L where it is
installed.

Rows are rendered by two threads a few batches ahead of the deflate, which runs in the
caller's thread (`prefetched`). The package is byte-identical from run to run.
"""

from __future__ import annotations

import queue
import re
import threading
import zipfile
import zlib
from collections.abc import Callable, Generator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime
from types import ModuleType
from typing import Any, BinaryIO

from pipeline.report.workbook_xml import RowSource, SharedStrings, SheetRows

_ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)
# deflate level 1: a third of zlib's time at the default level 6, files ~25 % larger.
_COMPRESS_LEVEL = 1


def _deflate_module() -> ModuleType:
    """ISA-L's deflate (about four times zlib's speed at level 1, files the same size),
    else zlib."""
    try:
        from isal import isal_zlib
    except ImportError:  # pragma: no cover - a platform without isal's wheels
        return zlib
    return isal_zlib


_deflate = _deflate_module()


SHARED_STRINGS = "xl/sharedStrings.xml"
_CONTENT_TYPES = "[Content_Types].xml"
_WORKBOOK_RELS = "xl/_rels/workbook.xml.rels"
_SST_OVERRIDE = (
    b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/'
    b'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
)
_SST_RELATIONSHIP = (
    b"http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings"
)
_SHEET_DATA = re.compile(rb"<sheetData\s*/>|<sheetData>\s*</sheetData>")
# what may follow <dimension> in a worksheet (ECMA-376 CT_Worksheet: sheetPr, dimension,
# sheetViews, sheetFormatPr, cols, sheetData)
_AFTER_DIMENSION = re.compile(rb"<(?:sheetViews|sheetFormatPr|cols|sheetData)[\s/>]")


def _zipinfo(name: str, stamp: tuple[int, int, int, int, int, int]) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=stamp)
    info.compress_type = zipfile.ZIP_DEFLATED
    # ZipFile.open(info, "w") takes the level from the ZipInfo only; the attribute is
    # `_compresslevel` on 3.11/3.12 and an alias of `compress_level` from 3.13.
    info._compresslevel = _COMPRESS_LEVEL  # type: ignore[attr-defined]
    info.create_system = 3  # the same on every platform
    info.external_attr = 0o644 << 16
    return info


def _splice(template: bytes, member: str, dimension: bytes) -> tuple[bytes, bytes]:
    """The sheet's XML before and after its rows, with its `dimension` (openpyxl's
    write-only sheets have none)."""
    found = list(_SHEET_DATA.finditer(template))
    if len(found) != 1 or b"<dimension" in template:
        raise ValueError(f"{member}: expected one empty <sheetData> and no <dimension>")
    match = found[0]
    at = _AFTER_DIMENSION.search(template)
    assert at is not None  # the <sheetData> found
    head = template[: at.start()] + dimension + template[at.start() : match.start()]
    return head + b"<sheetData>", b"</sheetData>" + template[match.end() :]


_WRITER_STATE = ("_compressor", "_crc", "_file_size", "_compress_size", "_fileobj")


def fast_writer(member: Any) -> Callable[[bytes], object]:
    """How to write the bytes of one zip member opened for writing: through ISA-L's
    deflate (raw deflate, the same stream format) and its CRC-32 (the same checksum, some
    six times zlib's speed) when zipfile's writer keeps the state its own `write` keeps;
    else that `write`. zipfile takes its compressor from a fixed table and its CRC
    function from zlib, so the writer's compressor is replaced before the first byte and
    the state updated as its `write` would; its `close` then flushes and writes the
    sizes and CRC as always."""
    if _deflate is zlib or not all(hasattr(member, name) for name in _WRITER_STATE):
        write: Callable[[bytes], object] = member.write
        return write
    compressor = _deflate.compressobj(_COMPRESS_LEVEL, _deflate.DEFLATED, -15)
    member._compressor = compressor
    crc32 = _deflate.crc32
    out = member._fileobj

    def fast(data: bytes) -> None:
        member._file_size += len(data)
        member._crc = crc32(data, member._crc)
        packed = compressor.compress(data)
        member._compress_size += len(packed)
        out.write(packed)

    return fast


_DONE = object()


def prefetched(source: RowSource, depth: int = 3, workers: int = 2) -> Generator[bytes, None, None]:
    """The chunks of the tasks of `source()`, in order, rendered by `workers` threads up
    to `depth` tasks ahead: polars renders the next batches while the caller compresses
    this one (both release the GIL). A thread of its own walks the source (building the
    look-ups of each segment) and hands the tasks to the pool. An exception in the
    source or a task is raised here, after the chunks before it; stopping early stops
    the threads."""
    tasks: queue.Queue[object] = queue.Queue(maxsize=depth)
    stop = threading.Event()
    pool = ThreadPoolExecutor(workers, thread_name_prefix="sheet-rows")

    def put(item: object) -> bool:
        while not stop.is_set():
            try:
                tasks.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        try:
            for task in source():
                if stop.is_set() or not put(pool.submit(task)):
                    return
        except BaseException as exc:  # handed to the consumer, raised there
            put(exc)
            return
        put(_DONE)

    walker = threading.Thread(target=produce, name="sheet-tasks", daemon=True)
    walker.start()
    try:
        while True:
            item = tasks.get()
            if item is _DONE:
                return
            if isinstance(item, BaseException):
                raise item
            assert isinstance(item, Future)
            chunk = item.result()
            assert isinstance(chunk, bytes)
            yield chunk
    finally:
        stop.set()
        walker.join()
        pool.shutdown(wait=True, cancel_futures=True)


def write_package(
    source: BinaryIO,
    target: BinaryIO,
    *,
    rows: Mapping[str, SheetRows],
    strings: SharedStrings,
    core_xml: bytes,
    stamp: datetime,
) -> None:
    """Copy the openpyxl package `source` into `target` with fixed entry dates, the given
    docProps/core.xml, and each sheet in `rows` (zip member name -> its rows) filled;
    then `strings`, the shared strings the rows number their texts in (declared in the
    package's content types and the workbook's relationships)."""
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
        if SHARED_STRINGS in names:
            raise ValueError(f"expected no {SHARED_STRINGS} from openpyxl")
        for needed in (_CONTENT_TYPES, _WORKBOOK_RELS):
            if needed not in names:
                raise ValueError(f"expected {needed} in the package from openpyxl")
        for name in names:
            info = _zipinfo(name, when)
            if name == "docProps/core.xml":
                zout.writestr(info, core_xml)
            elif name in rows:
                sheet = rows[name]
                head, tail = _splice(zin.read(name), name, sheet.dimension)
                with zout.open(info, "w", force_zip64=True) as out:
                    write = fast_writer(out)
                    write(head)
                    for chunk in prefetched(sheet.tasks):
                        write(chunk)
                    write(tail)
            elif name == _CONTENT_TYPES:
                zout.writestr(info, _inserted(zin.read(name), b"</Types>", _SST_OVERRIDE, name))
            elif name == _WORKBOOK_RELS:
                zout.writestr(info, _with_sst_relationship(zin.read(name)))
            else:
                zout.writestr(info, zin.read(name))
        info = _zipinfo(SHARED_STRINGS, when)
        with zout.open(info, "w", force_zip64=True) as out:
            fast_writer(out)(strings.xml())


def _inserted(xml: bytes, before: bytes, part: bytes, member: str) -> bytes:
    at = xml.rfind(before)
    if at < 0:
        raise ValueError(f"{member}: expected {before.decode()}")
    return xml[:at] + part + xml[at:]


def _with_sst_relationship(rels: bytes) -> bytes:
    """The workbook's relationships with one to the shared strings, under an Id not
    taken yet."""
    taken = set(re.findall(rb'Id="([^"]*)"', rels))
    number = 1
    while b"rId%d" % number in taken:
        number += 1
    relationship = (
        b'<Relationship Type="' + _SST_RELATIONSHIP + b'" Target="sharedStrings.xml" '
        b'Id="rId%d"/>' % number
    )
    return _inserted(rels, b"</Relationships>", relationship, _WORKBOOK_RELS)
