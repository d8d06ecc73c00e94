"""The rating officer's decisions about events (`--events FILE`), applied right after the
files are read and before they are validated.

A CSV (`,` `;` or tab; header in any order and case) with the columns

    file, event, period, list, start_date, end_date, time_control, event_type

- `file` (required): the tournament file, as given to `elo` or by its trailing path
  components (``open.trf`` matches ``2026-05/open.trf``).
- `event` (optional): the event's name, for a file that holds several (a games CSV);
  without it a row is about every event of its file.
- `period` (``YYYY-MM``): rate the event in that rating period. FIDE rates an event in
  the period in which its report arrives, so a late report moves it to a later period;
  never to one before the period its end date places it in. Its Ro stays the rating of
  the list in force at its start.
- `list`: ``standard``, ``rapid`` or ``blitz``.
- `start_date`, `end_date`: the event's dates, in a form that reads one way
  (``2025-11-07`` best).
- `time_control`: the event's time control in any form `pipeline.formats.timecontrol`
  reads; it decides the list unless `list` is given, and a `list` that says otherwise is
  a conflict.
- `event_type`: the event's type for the title-norm checks, one of
  `schemas.ingest.EVENT_TYPES` (``swiss``, ``round-robin``, ``double-round-robin``,
  ``knockout``, ``national-championship``, ``national-team-championship``, ``zonal``,
  ``team-championship``, ``world-cup``), in any case and with ``_`` or a space for ``-``
  (``Round robin``). No file format states it; it changes nothing in the rating.

At least one of the last six must be a column. A blank cell leaves that field as the file
has it. A malformed row is a ``bad-event-decision`` error at its line and column (every
problem of the file at once, like `--identities`). `pipeline.ingest.event_adjustments`
applies the rows to the events read.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.errors import ProblemList
from pipeline.formats.dates import read_date
from pipeline.formats.games_csv.players import CsvTable, read_table
from pipeline.formats.text import read_file_text
from pipeline.formats.timecontrol import read_time_control
from schemas.ingest import EVENT_TYPES, LISTS

FIELDS = ("period", "list", "start_date", "end_date", "time_control", "event_type")
COLUMNS = ("file", "event", *FIELDS)


@dataclass(frozen=True)
class EventDecision:
    """One row of the file: the event it names and the fields it decides (None: blank)."""

    line: int
    file: str  # '/' separators
    event: str | None
    period: str | None = None
    list: str | None = None
    start_date: dt.date | None = None
    end_date: dt.date | None = None
    time_control: str | None = None
    event_type: str | None = None
    headers: dict[str, str] = field(default_factory=dict)  # field -> header as written

    def decided(self) -> dict[str, object]:
        """The fields the row fills."""
        return {name: getattr(self, name) for name in FIELDS if getattr(self, name) is not None}

    def names(self, event_file: str) -> bool:
        """Whether the row's `file` is `event_file` (or its trailing components)."""
        path = event_file.replace("\\", "/")
        return path == self.file or path.endswith("/" + self.file)


# --- reading ---------------------------------------------------------------------------


def read_event_decisions(path: Path) -> list[EventDecision]:
    """The rows of an events file; `InputError` with every problem of the file."""
    return parse_event_decisions(read_file_text(path), str(path))


def parse_event_decisions(text: str, file: str) -> list[EventDecision]:
    problems = ProblemList()
    table = read_table(text, file, problems)
    names = table.names
    shown = ", ".join(table.written) or "no header"
    if "file" not in names:
        problems.add(file, 1, None, "missing-column", f"expected a column file, got {shown}")
    if not any(name in names for name in FIELDS):
        problems.add(
            file,
            1,
            None,
            "missing-column",
            f"expected at least one of the columns {', '.join(FIELDS)}, got {shown}",
        )
    for written, name in zip(table.written, names, strict=True):
        if name and name not in COLUMNS:
            problems.add(
                file,
                1,
                written,
                "unknown-column",
                f"expected the columns {', '.join(COLUMNS)}, got {written!r}",
            )
    problems.raise_if_errors()
    rows = [_row(table, index, file, problems) for index in range(len(table.rows))]
    problems.raise_if_errors()
    return [row for row in rows if row is not None]


def _row(table: CsvTable, index: int, file: str, problems: ProblemList) -> EventDecision | None:
    cells = table.rows[index]
    line = table.lines[index]
    headers = {name: table.column(name) for name in COLUMNS if name in table.names}

    def cell(name: str) -> str:
        return cells[table.names.index(name)] if name in table.names else ""

    def bad(name: str, message: str) -> None:
        problems.add(file, line, headers.get(name), "bad-event-decision", message)

    where = cell("file").replace("\\", "/").strip()
    if not where:
        bad("file", "expected the tournament file the row is about, got blanks")
        return None
    values: dict[str, object] = {}
    period = cell("period")
    if period:
        if _valid_period(period):
            values["period"] = period
        else:
            bad("period", f"expected a rating period YYYY-MM, got {period!r}")
    list_name = cell("list").lower()
    if list_name:
        if list_name in LISTS:
            values["list"] = list_name
        else:
            bad("list", f"expected standard, rapid or blitz, got {cell('list')!r}")
    for name in ("start_date", "end_date"):
        text = cell(name)
        if not text:
            continue
        reading = read_date(text)
        if reading is None:
            bad(name, f"expected a date YYYY-MM-DD, got {text!r}")
        elif reading.value is None:
            bad(name, f"expected a date that reads one way, got {reading.ambiguity()}")
        else:
            values[name] = reading.value
    time_control = cell("time_control")
    if time_control:
        reading_tc = read_time_control(time_control)
        if reading_tc.list is None:
            bad(
                "time_control",
                "expected a time control such as '90 min + 30 s' or '5400+30', got "
                f"{time_control!r}, which does not read",
            )
        else:
            values["time_control"] = time_control
            said = values.get("list")
            if said is not None and said != reading_tc.list:
                problems.add(
                    file,
                    line,
                    headers.get("list"),
                    "event-decision-conflict",
                    f"expected a list that agrees with the time control, got {said} while "
                    f"{reading_tc.describe()}",
                )
    event_type = cell("event_type")
    if event_type:
        read_type = read_event_type(event_type)
        if read_type is None:
            bad(
                "event_type",
                f"expected an event type ({', '.join(EVENT_TYPES)}), got {event_type!r}",
            )
        else:
            values["event_type"] = read_type
    start, end = values.get("start_date"), values.get("end_date")
    if isinstance(start, dt.date) and isinstance(end, dt.date) and end < start:
        bad("end_date", f"expected the end on or after the start {start}, got {end}")
    if not any(cell(name) for name in FIELDS):
        bad(
            "file",
            f"expected a decision ({', '.join(FIELDS)}) for {where!r}, got only blanks",
        )
        return None
    return EventDecision(
        line=line,
        file=where,
        event=cell("event") or None,
        headers=headers,
        **values,  # type: ignore[arg-type]
    )


def read_event_type(text: str) -> str | None:
    """One of `EVENT_TYPES` as written in any case, with ``_`` or spaces for ``-``
    (``Double round_robin`` -> ``double-round-robin``); None for anything else."""
    words = text.replace("_", " ").replace("-", " ").lower().split()
    name = "-".join(words)
    return name if name in EVENT_TYPES else None


def _valid_period(text: str) -> bool:
    parts = text.split("-")
    return (
        len(parts) == 2
        and len(parts[0]) == 4
        and len(parts[1]) == 2
        and text.replace("-", "").isascii()
        and text.replace("-", "").isdigit()
        and 1 <= int(parts[1]) <= 12
    )


__all__ = [
    "COLUMNS",
    "FIELDS",
    "EventDecision",
    "parse_event_decisions",
    "read_event_decisions",
    "read_event_type",
]
