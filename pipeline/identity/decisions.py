"""The rating officer's own decisions (`--identities FILE`), kept between runs.

A CSV (`,` `;` or tab; header in any order and case) with the columns

    file or event, start_no or name, fide_id

- `file`: the tournament file, as given to `elo` or by its trailing path components
  (``open.trf`` matches ``2026-05/open.trf``); `event`: the event's name instead.
- `start_no`: the player's start number in that file; `name`: the player's name
  (compared as `pipeline.formats.names.name_key`, so ``Smith, John`` = ``John Smith``).
- `fide_id`: the player's FIDE ID; empty means "not this person": the entry is never
  linked, whatever its file or a name match says.

Both columns of a pair may be present; a row must fill one of each. Every problem of the
file is raised together (`InputError`), each at its line and column.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from pipeline.errors import Location, Problem, ProblemList, Severity
from pipeline.formats.games_csv.players import MAX_NUMBER, read_table
from pipeline.formats.names import name_key
from pipeline.formats.text import read_file_text

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
    return parse_decisions(read_file_text(path), str(path))


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


# --- applied to a run's entries --------------------------------------------------------


def apply_decisions(
    entries: pl.DataFrame, decisions: pl.DataFrame, file: str
) -> tuple[pl.DataFrame, list[Problem]]:
    d = decisions.with_columns(pl.col("d_file").str.split("/").list.last().alias("d_base"))
    cols = ["entry", "path", "event", "start_no", "key", "base"]
    e = entries.select(cols)
    parts = []
    for where, where_d in (("base", "d_base"), ("event", "d_event")):
        for who, who_d in (("start_no", "d_start_no"), ("key", "d_name_key")):
            chosen = d.filter(pl.col(where_d).is_not_null(), pl.col(who_d).is_not_null())
            if where == "event":
                chosen = chosen.filter(pl.col("d_file").is_null())
            if who == "key":
                chosen = chosen.filter(pl.col("d_start_no").is_null())
            parts.append(e.join(chosen, left_on=[where, who], right_on=[where_d, who_d]))
    matched = pl.concat(parts, how="diagonal_relaxed") if parts else pl.DataFrame()
    same_path = (pl.col("path") == pl.col("d_file")) | pl.col("path").str.ends_with(
        pl.concat_str(pl.lit("/"), pl.col("d_file"))
    )
    matched = matched.filter(
        pl.col("d_file").is_null() | same_path,
        pl.col("d_event").is_null() | (pl.col("event") == pl.col("d_event")),
        pl.col("d_start_no").is_null() | (pl.col("start_no") == pl.col("d_start_no")),
        pl.col("d_name_key").is_null() | (pl.col("key") == pl.col("d_name_key")),
    ).unique(["entry", "d_line"])
    problems: list[Problem] = []
    conflicts = matched.filter(pl.col("d_fide_id").n_unique().over("entry") > 1).sort("d_line")
    for entry, rows in conflicts.group_by("entry", maintain_order=True):
        lines = rows["d_line"].to_list()
        del entry
        problems.append(
            Problem(
                Location(file, lines[-1], "fide_id"),
                "identity-conflict",
                f"expected one decision per player, got FIDE IDs {_ids(rows['d_fide_id'])} "
                f"for the same entry on lines {', '.join(map(str, lines))}",
            )
        )
    used = set(matched["d_line"].to_list())
    for row in decisions.filter(~pl.col("d_line").is_in(list(used))).iter_rows(named=True):
        problems.append(
            Problem(
                Location(file, row["d_line"]),
                "identity-row-unused",
                "expected the row to name a player of these events, got none: "
                f"{_decision_text(row)}",
                Severity.WARNING,
            )
        )
    chosen = (
        matched.sort("d_line")
        .group_by("entry")
        .agg(pl.col("d_fide_id").first().alias("manual_id"))
        .with_columns(manual=pl.lit(True))
    )
    entries = entries.join(chosen, on="entry", how="left").with_columns(
        pl.col("manual").fill_null(False)
    )
    return entries, problems


def _ids(series: pl.Series) -> str:
    return ", ".join("empty" if v is None else str(v) for v in series.unique(maintain_order=True))


def _decision_text(row: dict[str, object]) -> str:
    where = f"file {row['d_file']!r}" if row["d_file"] else f"event {row['d_event']!r}"
    who = f"start no. {row['d_start_no']}" if row["d_start_no"] else f"name {row['d_name']!r}"
    return f"{where}, {who}"
