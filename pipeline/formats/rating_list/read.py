"""Read a FIDE rating list (the registry) into the frame of schemas/registry.py.

The format is sniffed from the content (the first 4 KB), never from the extension:

- TXT, FIDE's fixed-width downloads: the combined list `players_list_foa.txt` and the
  single lists `standard_rating_list.txt`, `rapid_…`, `blitz_…` (rating_list.txt: offsets
  from the header, realignment of over-long lines);
- XML, `players_list_xml_foa.xml`, streamed (rating_list.xml: defusedxml, DOCTYPE refused);
- CSV whose header uses FIDE's XML tag names (`fideid, name, country, …`), separated by
  `,`, `;` or tab, in any order and case; only `fideid` is required; a column that is not
  one of FIDE's tag names is a problem (a misspelt `ratng` must not silently drop ratings);
- a zip holding exactly one of these (FIDE distributes zips); the member is read from the
  archive without extracting it to disk, after checking its declared size.

Which list a single-list TXT holds: the file name if it says `standard`, `rapid` or `blitz`
(the member's name, then the zip's), else `list_hint`, else standard. Its columns then go
to `rating/games/k`, `rapid_rating/rapid_games/rapid_k` or `blitz_…`; the other lists' columns
are null. Every problem of the file is raised together in one InputError (at most
`RegistryLimits.max_problems` listed).

Speed (`make bench`, 1.64 M-line combined list, 269 MB, 2 cores): polars reads the lines
(one column) in ~0.2 s and the whole read takes ~1.4 s; with `only_ids` of 100,000 players
~0.4 s. A byte-level path (numpy over the mapped file) once made the whole read ~0.6 s
faster; it saved 1-2 % of a three-month chain and nothing of a month's `elo run` (which
reads the list filtered), so it was removed for one straight path
(docs/performance.md). The XML takes ~25 s per million players (expat calls back into
Python per element) in bounded memory.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, BinaryIO, Literal

import polars as pl

from pipeline.errors import InputError, ProblemList
from pipeline.formats.names import NameFilter
from pipeline.formats.rating_list.fields import (
    COLUMNS,
    LINE,
    ProblemBudget,
    RawFrame,
    convert_fields,
    finish_registry,
)
from pipeline.formats.rating_list.header import ListName, TxtLayout, parse_txt_header
from pipeline.formats.rating_list.txt import TEXT, read_txt_fields, read_txt_lines
from pipeline.formats.rating_list.xml import READ_BYTES, read_rating_list_xml
from pipeline.formats.text import decode_bytes
from schemas.registry import Registry

SNIFF_BYTES = 4096
LIST_NAMES: tuple[ListName, ...] = ("standard", "rapid", "blitz")
_ZIP_MAGIC = b"PK\x03\x04"
_XML_ROOT = re.compile(r"<playerslist[\s>/]")
_NOT_A_REGISTRY = "expected a FIDE rating list (TXT, XML or CSV with FIDE's tag names), got "

Kind = Literal["txt", "xml", "csv"]


@dataclass(frozen=True)
class RegistryLimits:
    """Bounds on what a registry file may cost before it is refused."""

    max_problems: int = 50
    max_unzipped_bytes: int = 4_000_000_000  # FIDE's XML is ~850 MB unzipped
    max_zip_ratio: int = 200  # uncompressed / compressed size of a member above 10 MB


def _csv_header(line: str) -> tuple[str, list[str]]:
    """Separator and column names (stripped, lower-cased) of a CSV header line."""
    separator = max((",", ";", "\t"), key=line.count)
    return separator, [name.strip().strip('"').strip().lower() for name in line.split(separator)]


def _sniff_text(text: str) -> Kind | None:
    text = text.lstrip("\ufeff")
    first = text.split("\n", 1)[0].rstrip("\r")
    if parse_txt_header(first) is not None:
        return "txt"
    if text.lstrip().startswith("<") and _XML_ROOT.search(text):
        return "xml"
    names = [name for name in _csv_header(first)[1] if name]
    known = sum(name in COLUMNS for name in names)
    if str(Registry.fideid) in names and 2 * known >= len(names):
        return "csv"  # FIDE's tag names, not a crosstable that happens to have a FideID
    return None


def looks_like_rating_list(text: str) -> bool:
    """Whether the start of a file (its first ~4 KB) is a FIDE rating list."""
    return _sniff_text(text[:SNIFF_BYTES]) is not None


def rating_list_name(names: Iterable[str], list_hint: str | None = None) -> ListName:
    """Which list a single-list file holds: the first file name that says it, else the
    hint, else standard."""
    for name in names:
        base = re.split(r"[\\/]", name)[-1].lower()
        for candidate in LIST_NAMES:
            if candidate in base:
                return candidate
    if list_hint is None:
        return "standard"
    for candidate in LIST_NAMES:
        if list_hint == candidate:
            return candidate
    raise ValueError(f"list_hint must be one of {', '.join(LIST_NAMES)}, got {list_hint!r}")


def _describe(head: bytes) -> str:
    first = decode_bytes(head[:200]).split("\n", 1)[0].strip()
    return repr(first[:60]) if first else "an empty file"


def _sniff(head: bytes, file: str) -> Kind:
    kind = _sniff_text(decode_bytes(head))
    if kind is None:
        raise InputError.single(file, 1, None, "not-a-registry", _NOT_A_REGISTRY + _describe(head))
    return kind


def read_rating_list(
    path: Path,
    limits: RegistryLimits | None = None,
    list_hint: str | None = None,
    only_ids: Collection[int] | None = None,
    names: NameFilter | None = None,
) -> pl.DataFrame:
    """Read a rating list file of any supported format (or a zip holding one).

    With `only_ids`, only the players with these FIDE IDs are kept; with `names`, also the
    players whose name a run's entry without an ID may be (`NameFilter`: first the
    surname, then the whole name). A TXT list then cuts its fields for those lines alone
    (the ID and name columns are read for every line), which is what a run needs from the
    full 1.64 M-player list. Problems are reported for the lines read.
    """
    limits = limits or RegistryLimits()
    file = str(path)
    with path.open("rb") as handle:
        head = handle.read(SNIFF_BYTES)
    if head.startswith(_ZIP_MAGIC):
        frame = _read_zip(path, file, list_hint, limits)
    else:
        kind = _sniff(head, file)
        if kind == "xml":
            with path.open("rb") as stream:
                frame = read_rating_list_xml(_pieces(b"", stream), file, limits.max_problems)
        elif kind == "txt":
            list_name = rating_list_name([path.name], list_hint)
            return _read_txt(path, file, list_name, limits, only_ids, names)
        else:
            frame = _read_csv(path.read_bytes(), file, limits)
    return _keep(frame, pl.col(str(Registry.fideid)), pl.col(str(Registry.name)), only_ids, names)


def _keep(
    frame: pl.DataFrame,
    fideid: pl.Expr,
    name: pl.Expr,
    only_ids: Collection[int] | None,
    names: NameFilter | None,
) -> pl.DataFrame:
    """The rows a read keeps: the IDs asked for, and the names asked for (first by surname,
    then, on the rows left, by the whole name). Without either, every row."""
    if only_ids is None and names is None:
        return frame
    wanted = fideid.is_in(list(only_ids or ()))
    if names is None or not names.surnames:
        return frame.filter(wanted)
    frame = frame.filter(wanted | names.first_cut(name))
    return frame.filter(wanted | names.exact(name))


def read_rating_list_bytes(
    data: bytes | BinaryIO,
    file: str,
    list_hint: str | None = None,
    limits: RegistryLimits | None = None,
) -> pl.DataFrame:
    """Read a rating list from bytes or a binary stream; `file` names it in problems (and
    may tell which single list it is). An XML stream is parsed as it is read."""
    limits = limits or RegistryLimits()
    if not isinstance(data, bytes):
        head = data.read(SNIFF_BYTES)
        if not head.startswith(_ZIP_MAGIC) and _sniff(head, file) == "xml":
            return read_rating_list_xml(_pieces(head, data), file, limits.max_problems)
        data = head + data.read()
    if data.startswith(_ZIP_MAGIC):
        return _read_zip(data, file, list_hint, limits)
    kind = _sniff(data[:SNIFF_BYTES], file)
    if kind == "xml":
        return read_rating_list_xml(_slices(data), file, limits.max_problems)
    if kind == "txt":
        return _read_txt(data, file, rating_list_name([file], list_hint), limits)
    return _read_csv(data, file, limits)


def _pieces(head: bytes, stream: IO[bytes]) -> Iterator[bytes]:
    if head:
        yield head
    while piece := stream.read(READ_BYTES):
        yield piece


def _slices(data: bytes) -> Iterator[bytes]:
    view = memoryview(data)
    for start in range(0, len(data), READ_BYTES):
        yield bytes(view[start : start + READ_BYTES])


def _read_txt(
    source: Path | bytes,
    file: str,
    list_name: ListName,
    limits: RegistryLimits,
    only_ids: Collection[int] | None = None,
    names: NameFilter | None = None,
) -> pl.DataFrame:
    lines = read_txt_lines(source, file)
    header = lines[TEXT][0] if lines.height else None
    layout = parse_txt_header(header or "", list_name)
    if layout is None:
        raise InputError.single(file, 1, None, "not-a-registry", _NOT_A_REGISTRY + repr(header))
    budget = ProblemBudget(file, limits.max_problems)
    data = lines.slice(1)
    data = _keep(data, _id_expr(layout), _field_expr(layout, str(Registry.name)), only_ids, names)
    typed = read_txt_fields(data, layout, budget)
    del lines  # as large as the file
    return finish_registry(typed, budget, layout.labels()[str(Registry.fideid)])


def _field_expr(layout: TxtLayout, tag: str) -> pl.Expr:
    """One field of each line, stripped (lines of regular width)."""
    field = next(f for f in layout.fields if f.tag == tag)
    width = None if field.end is None else field.end - field.start
    return pl.col(TEXT).str.slice(field.start, width).str.strip_chars(" ")


def _id_expr(layout: TxtLayout) -> pl.Expr:
    """The FIDE ID of each line as a number (null where it is not one)."""
    return _field_expr(layout, str(Registry.fideid)).cast(pl.Int64, strict=False)


def _read_csv(data: bytes, file: str, limits: RegistryLimits) -> pl.DataFrame:
    text = decode_bytes(data)
    header_line = text.lstrip("\ufeff").split("\n", 1)[0].rstrip("\r")
    separator, names = _csv_header(header_line)
    written = [name.strip().strip('"').strip() for name in header_line.split(separator)]
    problems = ProblemList()
    for name, shown in zip(names, written, strict=True):
        if name not in COLUMNS:
            problems.add(
                file,
                1,
                shown,
                "unknown-column",
                f"expected one of FIDE's tag names ({', '.join(COLUMNS)}), got {shown!r}",
            )
        elif names.count(name) > 1:
            problems.add(
                file, 1, shown, "duplicate-column", f"expected {shown!r} once, got it twice"
            )
    problems.raise_if_errors()
    try:
        frame = pl.read_csv(
            text.lstrip("\ufeff").encode("utf-8"),
            separator=separator,
            has_header=True,
            new_columns=names,
            infer_schema=False,
            raise_if_empty=False,
        )
    except pl.exceptions.ComputeError:
        raise InputError.single(
            file,
            None,
            None,
            "bad-csv",
            f"expected rows of at most {len(names)} cells like the header, got a row with "
            "more cells or an unclosed quote",
        ) from None
    frame = frame.with_row_index(LINE, offset=2).filter(
        ~pl.all_horizontal(pl.col(name).is_null() for name in names)
    )
    frame = frame.with_columns(pl.col(name).str.strip_chars() for name in names)
    budget = ProblemBudget(file, limits.max_problems)
    labels = dict(zip(names, written, strict=True))
    typed = convert_fields(RawFrame(frame, labels), budget, named_without_id=True)
    return finish_registry(typed, budget, labels[str(Registry.fideid)])


def _read_zip(
    source: Path | bytes, file: str, list_hint: str | None, limits: RegistryLimits
) -> pl.DataFrame:
    try:
        with zipfile.ZipFile(source if isinstance(source, Path) else io.BytesIO(source)) as archive:
            return _read_zip_member(archive, file, list_hint, limits)
    except (zipfile.BadZipFile, zlib.error, EOFError) as error:
        raise InputError.single(
            file, None, None, "bad-zip", f"expected a readable zip archive, got {error}"
        ) from None


def _read_zip_member(
    archive: zipfile.ZipFile, file: str, list_hint: str | None, limits: RegistryLimits
) -> pl.DataFrame:
    found: list[tuple[zipfile.ZipInfo, Kind]] = []
    for info in archive.infolist():
        if info.is_dir() or info.filename.startswith("__MACOSX/"):
            continue
        with archive.open(info) as member:
            kind = _sniff_text(decode_bytes(member.read(SNIFF_BYTES)))
        if kind is not None:
            found.append((info, kind))
    if len(found) != 1:
        names = ", ".join(info.filename for info, _ in found) or "none"
        raise InputError.single(
            file,
            None,
            None,
            "zip-members",
            f"expected one FIDE rating list in the zip, got {len(found)} ({names})",
        )
    info, kind = found[0]
    inner = f"{file}/{info.filename}"
    too_big = info.file_size > limits.max_unzipped_bytes or (
        info.file_size > 10_000_000
        and info.file_size > limits.max_zip_ratio * max(info.compress_size, 1)
    )
    if too_big:
        raise InputError.single(
            inner,
            None,
            None,
            "zip-too-large",
            f"expected at most {limits.max_unzipped_bytes:,} bytes unzipped and a compression "
            f"ratio of at most {limits.max_zip_ratio}, got {info.file_size:,} bytes from "
            f"{info.compress_size:,}",
        )
    with archive.open(info) as member:
        if kind == "xml":
            return read_rating_list_xml(_pieces(b"", member), inner, limits.max_problems)
        data = member.read()
    if kind == "txt":
        list_name = rating_list_name([info.filename, file], list_hint)
        return _read_txt(data, inner, list_name, limits)
    return _read_csv(data, inner, limits)
