"""The rating officer's own decisions (`--identities FILE`), kept between runs.

A CSV (`,` `;` or tab; header in any order and case) with the columns

    file or event, start_no or name, fide_id

- `file`: the tournament file, as given to `elo` or by its trailing path components
  (``open.trf`` matches ``2026-05/open.trf``); `event`: the event's name instead.
- `start_no`: the player's start number in that file; `name`: the player's name
  (compared as `pipeline.ingest.names.name_key`, so ``Smith, John`` = ``John Smith``).
- `fide_id`: the player's FIDE ID; empty means "not this person": the entry is never
  linked, whatever its file or a name match says.

Both columns of a pair may be present; a row must fill one of each. Every problem of the
file is raised together (`InputError`), each at its line and column.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from pipeline.errors import InputError, ProblemList
from pipeline.ingest.games_csv_players import MAX_NUMBER, read_table
from pipeline.ingest.names import name_key
from pipeline.ingest.text import decode_bytes

COLUMNS = ("file", "event", "start_no", "name", "fide_id")
DECISION_SCHEMA: dict[str, type[pl.DataType]] = {
    "d_line": pl.Int64,
    "d_file": pl.String,
    "d_event": pl.String,
    "d_start_no": pl.Int64,
    "d_name": pl.String,
    "d_name_key": pl.String,
    "d_fide_id": pl.Int64,
}


def read_decisions(path: Path) -> pl.DataFrame:
    """The decisions of an identities file (`DECISION_SCHEMA`, one row per CSV row)."""
    file = str(path)
    try:
        text = decode_bytes(path.read_bytes())
    except OSError as exc:
        raise InputError.single(
            file, None, None, "unreadable-file", f"expected a readable file, got {exc.strerror}"
        ) from None
    return parse_decisions(text, file)


def parse_decisions(text: str, file: str) -> pl.DataFrame:
    problems = ProblemList()
    table = read_table(text, file, problems)
    names = table.names
    shown = ", ".join(table.written) or "no header"
    for needed, alternatives in (
        ("fide_id", ("fide_id",)),
        ("file or event", ("file", "event")),
        ("start_no or name", ("start_no", "name")),
    ):
        if not any(a in names for a in alternatives):
            problems.add(
                file, 1, None, "missing-column", f"expected a column {needed}, got {shown}"
            )
    unknown = [w for w, n in zip(table.written, names, strict=True) if n and n not in COLUMNS]
    for written in unknown:
        problems.add(
            file,
            1,
            written,
            "unknown-column",
            f"expected the columns {', '.join(COLUMNS)}, got {written!r}",
        )
    problems.raise_if_errors()

    def cell(row: list[str], name: str) -> str:
        return row[names.index(name)] if name in names else ""

    rows: list[dict[str, object]] = []
    for row, line in zip(table.rows, table.lines, strict=True):
        where, who = cell(row, "file") or None, cell(row, "event") or None
        if where is None and who is None:
            column = table.column("file") if "file" in names else table.column("event")
            problems.add(
                file, line, column, "bad-identity-row", "expected a file or an event, got blanks"
            )
            continue
        start_no = _number(cell(row, "start_no"), "start_no")
        if isinstance(start_no, str):
            problems.add(file, line, table.column("start_no"), "bad-identity-row", start_no)
            continue
        name = cell(row, "name") or None
        if start_no is None and name is None:
            column = table.column("start_no") if "start_no" in names else table.column("name")
            problems.add(
                file,
                line,
                column,
                "bad-identity-row",
                "expected a start number or a name, got blanks",
            )
            continue
        fide_id = _number(cell(row, "fide_id"), "fide_id")
        if isinstance(fide_id, str):
            problems.add(file, line, table.column("fide_id"), "bad-identity-row", fide_id)
            continue
        rows.append(
            {
                "d_line": line,
                "d_file": None if where is None else where.replace("\\", "/"),
                "d_event": who,
                "d_start_no": start_no,
                "d_name": name,
                "d_name_key": None if name is None else name_key(name),
                "d_fide_id": fide_id,
            }
        )
    problems.raise_if_errors()
    return pl.DataFrame(rows, schema=DECISION_SCHEMA)


def _number(value: str, name: str) -> int | str | None:
    """A positive whole number, None when blank, or the message of a problem."""
    if not value:
        return None
    if value.isascii() and value.isdigit() and 0 < int(value) <= MAX_NUMBER:
        return int(value)
    what = "a FIDE ID (digits) or blank" if name == "fide_id" else "a start number 1 or more"
    return f"expected {what}, got {value!r}"
