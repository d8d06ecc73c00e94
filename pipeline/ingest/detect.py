"""Which kind of file is this, where are the inputs, and which reader reads them.

Kinds are decided by content, not by extension: Swiss-Manager writes TRF as `.txt`, and a
FIDE rating list is a `.txt` too. Folders are searched recursively in sorted order, so a
run over the same tree always sees the same files in the same order.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from pipeline.errors import InputError
from pipeline.formats.crosstable.vocabulary import DATABASE_WORDS, TITLE_WORDS, fold
from pipeline.formats.model import EventData
from pipeline.formats.schedule import settle_list
from pipeline.formats.text import decode_bytes, read_file_bytes, read_file_text
from schemas.ingest import LISTS, Events

SUFFIXES = frozenset({".trf", ".txt", ".xlsx", ".csv"})
HEAD_BYTES = 64 * 1024

KINDS = (
    "trf",
    "crosstable-csv",
    "crosstable-xlsx",
    "games-csv",
    "players-csv",
    "registry",
    "unknown",
)
EVENT_KINDS = frozenset({"trf", "crosstable-csv", "crosstable-xlsx", "games-csv"})

_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
_OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # Excel 97-2003 .xls
# A chess-results / Swiss-Manager export whose header row is missing or damaged is still
# a crosstable: its reader then says what is wrong instead of "unknown format".
_LEADING_SEPARATORS = ";,\t\"' "
_EXPECTED = "expected a TRF file, a crosstable (XLSX/CSV), a games CSV or a rating list"


@dataclass
class Inputs:
    """What a search of the given paths found, each list in a deterministic order."""

    events: list[Path] = field(default_factory=list)
    registries: list[Path] = field(default_factory=list)  # rating lists: not events
    companions: list[Path] = field(default_factory=list)  # players CSVs of games CSVs
    skipped: list[tuple[Path, str]] = field(default_factory=list)  # (file, why)


def detect_kind(path: Path, head: bytes) -> str:
    """The kind of a file from its first bytes; `path` is not consulted (content decides).

    One of "trf", "crosstable-csv", "crosstable-xlsx", "games-csv", "players-csv",
    "registry" or "unknown". A zip is a workbook unless its first member is a plain .txt or
    .xml file (FIDE ships its rating lists zipped).
    """
    del path
    if head.startswith(_ZIP_MAGIC):
        return "registry" if _zipped_list(head) else "crosstable-xlsx"
    if not head.strip() or head.startswith(_OLE2_MAGIC) or b"\x00" in head[:4096]:
        return "unknown"
    from pipeline.formats.crosstable.read import looks_like_crosstable
    from pipeline.formats.games_csv.read import looks_like_games_csv, looks_like_players_csv
    from pipeline.formats.rating_list.read import looks_like_rating_list
    from pipeline.formats.trf.read import looks_like_trf

    text = decode_bytes(head)
    if looks_like_trf(text):
        return "trf"
    if looks_like_rating_list(text):
        return "registry"
    if looks_like_games_csv(text):
        return "games-csv"
    if looks_like_players_csv(text):
        return "players-csv"
    if looks_like_crosstable(text) or _damaged_crosstable(text[:4096]):
        return "crosstable-csv"
    return "unknown"


def _zipped_list(head: bytes) -> bool:
    """The first member of a zip (local header: name length at 26, name from 30) is a
    top-level .txt or .xml file, as in FIDE's rating-list downloads; a workbook's first
    member is `[Content_Types].xml`, `_rels/...`, `docProps/...` or `xl/...`."""
    if len(head) < 30 or not head.startswith(b"PK\x03\x04"):
        return False
    size = int.from_bytes(head[26:28], "little")
    name = head[30 : 30 + size].decode("cp437").lower()
    return "/" not in name and name.endswith((".txt", ".xml")) and not name.startswith("[")


def _damaged_crosstable(text: str) -> bool:
    """A chess-results export's database line (its first line) or a title at the start of
    one of the first lines, in a table of cells: a README or a comment that mentions
    chess-results is not one."""
    lines = text.splitlines()
    first = next((ln for ln in lines if ln.strip(_LEADING_SEPARATORS)), "")
    if not (_is_database_line(first) or any(_is_title_line(ln) for ln in lines[:12])):
        return False
    return any(max(ln.count(";"), ln.count(","), ln.count("\t")) >= 3 for ln in lines)


def _is_database_line(line: str) -> bool:
    """An export's first line, naming the database in any language of `vocabulary`
    (``From the Tournament-Database of Chess-Results ...``)."""
    folded = fold(line.lstrip(_LEADING_SEPARATORS))
    if folded.startswith("#"):
        return False  # a comment that mentions the database
    return len(folded) < 120 and DATABASE_WORDS.search(folded) is not None


def _is_title_line(line: str) -> bool:
    """A line that starts with a crosstable title (``Final Ranking crosstable ...``)."""
    return TITLE_WORDS.match(fold(line.lstrip(_LEADING_SEPARATORS))) is not None


def describe_unknown(head: bytes) -> str:
    """What an unrecognised file looks like, for the `got ...` half of a message."""
    if not head.strip():
        return "an empty file"
    if head.startswith(_OLE2_MAGIC):
        return "an Excel 97-2003 workbook (.xls): save it as .xlsx"
    if b"\x00" in head[:4096]:
        return "a binary file"
    first = next((ln.strip() for ln in decode_bytes(head[:4096]).splitlines() if ln.strip()), "")
    if len(first) > 60:
        first = first[:60] + "..."
    return f"a file starting {first!r}"


def _read_head(path: Path) -> bytes:
    with path.open("rb") as fh:
        return fh.read(HEAD_BYTES)


def detect_kind_of(path: Path) -> str:
    """`detect_kind` of a file on disk; "unknown" if it cannot be read."""
    try:
        return detect_kind(path, _read_head(path))
    except OSError:
        return "unknown"


def _walk(folder: Path) -> list[Path]:
    """Candidate files under `folder`, recursively, sorted; hidden entries and Excel lock
    files (`~$name.xlsx`) left out; symbolic links to folders not followed."""
    found: list[Path] = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.startswith((".", "~$")) or Path(name).suffix.lower() not in SUFFIXES:
                continue
            found.append(Path(root) / name)
    return found


def find_inputs(paths: Sequence[Path]) -> Inputs:
    """Sort the given files and the files of the given folders into events, rating lists,
    companions (players CSVs) and skipped files.

    A file named explicitly is an event unless it is a rating list or a players CSV, even
    when its kind is unknown or it cannot be read: `read_path` then reports why. A file found
    in a folder whose kind is unknown is skipped, with the reason.
    """
    inputs = Inputs()
    seen: set[Path] = set()
    for given in paths:
        explicit = not given.is_dir()
        for path in [given] if explicit else _walk(given):
            key = path.resolve()
            if key in seen:
                continue
            seen.add(key)
            try:
                head = _read_head(path)
            except OSError as exc:
                if explicit:
                    inputs.events.append(path)
                else:
                    inputs.skipped.append((path, f"expected a readable file, got {exc.strerror}"))
                continue
            kind = detect_kind(path, head)
            if kind == "registry":
                inputs.registries.append(path)
            elif kind == "players-csv":
                inputs.companions.append(path)
            elif kind in EVENT_KINDS or explicit:
                inputs.events.append(path)
            else:
                inputs.skipped.append((path, f"{_EXPECTED}, got {describe_unknown(head)}"))
    return inputs


def _apply_list(ev: EventData, list_override: str) -> EventData:
    row = ev.events.row(0, named=True)
    reason = f"--list {list_override}"
    before, why = row.get(str(Events.list)), row.get(str(Events.list_reason))
    if before is not None and before != list_override:
        reason += f"; the file's: {before}{f', by {why}' if why else ''}"
    events = ev.events.with_columns(
        pl.lit(list_override, dtype=pl.String).alias(str(Events.list)),
        pl.lit("option", dtype=pl.String).alias(str(Events.list_source)),
        pl.lit(reason, dtype=pl.String).alias(str(Events.list_reason)),
    )
    return dataclasses.replace(ev, events=events)


def read_path(path: Path, list_override: str | None = None) -> list[EventData]:
    """Read one tournament file with the reader its content calls for.

    `list_override` (the `--list` option) replaces the rating list each event's reader
    decided, with list source "option"; without it, an event whose file names no list
    gets one by `settle_list`, with a warning. Raises `InputError` naming the file when it cannot
    be read, is of no known kind, or is not a tournament file.
    """
    if list_override is not None and list_override not in LISTS:
        raise ValueError(f"list_override must be one of {LISTS}, got {list_override!r}")
    data = read_file_bytes(path)
    kind = detect_kind(path, data[:HEAD_BYTES])
    events = _dispatch(path, kind, data)
    if list_override is not None:
        return [_apply_list(ev, list_override) for ev in events]
    return [settle_list(ev) for ev in events]


def _dispatch(path: Path, kind: str, data: bytes) -> list[EventData]:
    file = str(path)
    if kind == "trf":
        from pipeline.formats.trf.read import read_trf

        return [read_trf(decode_bytes(data), file)]
    if kind == "crosstable-csv":
        from pipeline.formats.crosstable.read import read_crosstable_csv

        return [read_crosstable_csv(decode_bytes(data), file)]
    if kind == "crosstable-xlsx":
        from pipeline.formats.crosstable.read import read_crosstable_xlsx

        return [read_crosstable_xlsx(data, file)]
    if kind == "games-csv":
        return _read_games(path, data)
    if kind == "registry":
        raise InputError.single(
            file,
            None,
            None,
            "not-an-event",
            "expected a tournament file, got a FIDE rating list: pass it with --registry",
        )
    if kind == "players-csv":
        raise InputError.single(
            file,
            None,
            None,
            "not-an-event",
            "expected a tournament file, got a players CSV: pass the games CSV beside it",
        )
    raise InputError.single(
        file, None, None, "unknown-format", f"{_EXPECTED}, got {describe_unknown(data[:4096])}"
    )


def _read_games(path: Path, data: bytes) -> list[EventData]:
    """A games CSV with its players CSV beside it, if there is one (without one, `white`
    and `black` must be FIDE IDs)."""
    from pipeline.formats.games_csv.read import find_players_file, read_games_csv

    players_path = find_players_file(path)
    if players_path is None:
        return read_games_csv(decode_bytes(data), str(path))
    return read_games_csv(
        decode_bytes(data), str(path), read_file_text(players_path), str(players_path)
    )
