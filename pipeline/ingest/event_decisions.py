"""The rating officer's decisions about events (`--events FILE`), applied right after the
files are read and before they are validated.

A CSV (`,` `;` or tab; header in any order and case) with the columns

    file, event, period, list, start_date, end_date, time_control

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
- `time_control`: the event's time control in any form `pipeline.ingest.timecontrol`
  reads; it decides the list unless `list` is given, and a `list` that says otherwise is
  a conflict.

At least one of the last five must be a column. A blank cell leaves that field as the file
has it. Every decision applied is an `Adjustment`, reported (console, Checks sheet,
summary.json ``adjustments``) as an ``event-decision`` warning at the event's file; a row
that names no event read is an ``event-decision-unused`` warning; a malformed row
(``bad-event-decision``) or two rows, or a row and the file, that cannot both hold
(``event-decision-conflict``) are errors at their line and column, like `--identities`.

A decision replaces what the reader or `settle_list` decided: a list chosen by the
schedule is chosen again from decided dates; the reader's ``ambiguous-date`` and
``dates-disagree`` warnings (which validation makes errors) go when the decision gives
both dates; the schedule's warnings go when it gives the list or
the time control.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from pipeline.errors import InputError, Location, Problem, ProblemList, Severity
from pipeline.ingest.dates import read_date
from pipeline.ingest.games_csv_players import CsvTable, read_table
from pipeline.ingest.model import EventData
from pipeline.ingest.names import fold
from pipeline.ingest.text import decode_bytes
from pipeline.ingest.timecontrol import read_time_control
from schemas.columns import E
from schemas.ingest import LISTS

COLUMNS = ("file", "event", "period", "list", "start_date", "end_date", "time_control")
FIELDS = ("period", "list", "start_date", "end_date", "time_control")
# the warnings of a list chosen without the file naming one (detect.settle_list), and
# of a crosstable whose words name two lists: a decided list or time control replaces them
LIST_WARNINGS = frozenset(
    {"list-inferred", "list-assumed", "time-control-unread", "list-ambiguous"}
)
DATE_WARNINGS = frozenset({"ambiguous-date", "dates-disagree"})
_BY_SCHEDULE = ("schedule", "assumed")


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
    headers: dict[str, str] = field(default_factory=dict)  # field -> header as written

    def decided(self) -> dict[str, object]:
        """The fields the row fills."""
        return {name: getattr(self, name) for name in FIELDS if getattr(self, name) is not None}

    def names(self, event_file: str) -> bool:
        """Whether the row's `file` is `event_file` (or its trailing components)."""
        path = event_file.replace("\\", "/")
        return path == self.file or path.endswith("/" + self.file)


@dataclass(frozen=True)
class Adjustment:
    """One field of one event set by a decision: `before` is what the file (or the run's
    own choice) had, as shown to the user."""

    file: str  # the event's file
    event: str  # the event's name
    field: str
    value: str
    before: str | None
    decisions_file: str
    line: int

    def as_dict(self) -> dict[str, object]:
        return dataclasses.asdict(self)


@dataclass
class AppliedDecisions:
    """The events with the decisions applied, what changed, and the decision file's own
    problems (unused rows, conflicts)."""

    events: list[EventData]
    adjustments: list[Adjustment] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


# --- reading ---------------------------------------------------------------------------


def read_event_decisions(path: Path) -> list[EventDecision]:
    """The rows of an events file; `InputError` with every problem of the file."""
    file = str(path)
    try:
        text = decode_bytes(path.read_bytes())
    except OSError as exc:
        raise InputError.single(
            file, None, None, "unreadable-file", f"expected a readable file, got {exc.strerror}"
        ) from None
    return parse_event_decisions(text, file)


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


# --- applying --------------------------------------------------------------------------


def apply_event_decisions(
    events: Sequence[EventData], decisions: Sequence[EventDecision], file: str
) -> AppliedDecisions:
    """Apply every row to the events it names (module docstring). `file` is the decision
    file as given, for locations and messages."""
    out = AppliedDecisions(list(events))
    used: set[int] = set()
    for index, ev in enumerate(events):
        row = ev.events.row(0, named=True)
        mine = [d for d in decisions if d.names(str(row[E.FILE])) and _same_event(d, row)]
        if not mine:
            continue
        used.update(d.line for d in mine)
        merged, lines, problems = _merge(mine, file, str(row[E.FILE]))
        out.problems += problems
        if problems:
            continue
        checked = _check_against_file(merged, lines, row, file)
        if checked:
            out.problems += checked
            continue
        out.events[index], changes = _apply(ev, row, merged, lines, file)
        out.adjustments += changes
    for d in decisions:
        if d.line not in used:
            event = f", event {d.event!r}" if d.event else ""
            out.problems.append(
                Problem(
                    Location(file, d.line),
                    "event-decision-unused",
                    f"expected the row to name an event of these files, got none: file "
                    f"{d.file!r}{event}",
                    Severity.WARNING,
                )
            )
    return out


def adjustment_problems(adjustments: Sequence[Adjustment]) -> list[Problem]:
    """One ``event-decision`` warning per event and decision row, at the event's file."""
    grouped: dict[tuple[str, str, str, int], list[Adjustment]] = {}
    for a in adjustments:
        grouped.setdefault((a.file, a.event, a.decisions_file, a.line), []).append(a)
    problems = []
    for (event_file, _event, decisions_file, line), changes in grouped.items():
        said = "; ".join(
            f"{a.field} {a.value}" + (f" (the file's: {a.before})" if a.before else "")
            for a in changes
        )
        problems.append(
            Problem(
                Location(event_file),
                "event-decision",
                f"{said}, as decided in {decisions_file} line {line}",
                Severity.WARNING,
            )
        )
    return problems


def _same_event(decision: EventDecision, row: dict[str, object]) -> bool:
    if decision.event is None:
        return True
    return fold(" ".join(decision.event.split())) == fold(" ".join(str(row[E.NAME]).split()))


def _merge(
    rows: list[EventDecision], file: str, event_file: str
) -> tuple[dict[str, object], dict[str, int], list[Problem]]:
    """Every field decided for one event, the line that decided it; two rows that decide
    one field two ways are a conflict."""
    merged: dict[str, object] = {}
    lines: dict[str, int] = {}
    problems: list[Problem] = []
    for d in sorted(rows, key=lambda r: r.line):
        for name, value in d.decided().items():
            if name in merged and merged[name] != value:
                problems.append(
                    Problem(
                        Location(file, d.line, d.headers.get(name)),
                        "event-decision-conflict",
                        f"expected one {name} for {event_file}, got {_shown(merged[name])} on "
                        f"line {lines[name]} and {_shown(value)} here",
                    )
                )
                continue
            merged[name] = value
            lines.setdefault(name, d.line)
    if not problems and "list" in merged and "time_control" in merged:
        by_time = read_time_control(str(merged["time_control"])).list
        if by_time is not None and by_time != merged["list"]:
            problems.append(
                Problem(
                    Location(file, lines["list"]),
                    "event-decision-conflict",
                    f"expected a list that agrees with the time control of line "
                    f"{lines['time_control']} for {event_file}, got {merged['list']} while "
                    f"it reads {by_time}",
                )
            )
    return merged, lines, problems


def _check_against_file(
    merged: dict[str, object],
    lines: dict[str, int],
    row: dict[str, object],
    file: str,
) -> list[Problem]:
    """What the decided fields and the file's other fields cannot both be: an end before
    the start, a period before the one the event ended in."""
    from pipeline.period.calendar import period_of as of

    start = merged.get("start_date", row.get(E.START))
    end = merged.get("end_date", row.get(E.END))
    problems: list[Problem] = []
    if isinstance(start, dt.date) and isinstance(end, dt.date) and end < start:
        name = "end_date" if "end_date" in merged else "start_date"
        other = "start" if name == "end_date" else "end"
        problems.append(
            Problem(
                Location(file, lines[name]),
                "event-decision-conflict",
                f"expected {name.replace('_', ' ')} and the file's {other} date in order for "
                f"{row[E.FILE]}, got {start.isoformat()} to {end.isoformat()}",
            )
        )
    period = merged.get("period")
    last = end if isinstance(end, dt.date) else start
    if isinstance(period, str) and isinstance(last, dt.date) and period < of(last):
        problems.append(
            Problem(
                Location(file, lines["period"]),
                "event-decision-conflict",
                f"expected a period on or after {of(last)} for {row[E.FILE]}, which ends "
                f"{last.isoformat()} (an event is rated in the period it ends or later, "
                f"when its report is late), got {period}",
            )
        )
    return problems


def _apply(
    ev: EventData,
    row: dict[str, object],
    merged: dict[str, object],
    lines: dict[str, int],
    file: str,
) -> tuple[EventData, list[Adjustment]]:
    from pipeline.ingest.detect import settle_list
    from pipeline.period.calendar import period_of

    event_file, name = str(row[E.FILE]), str(row[E.NAME])
    changes: list[Adjustment] = []
    columns: dict[str, object] = {}

    def change(field_name: str, column: str, value: object, before: object) -> None:
        columns[column] = value
        changes.append(
            Adjustment(
                event_file,
                name,
                field_name,
                _shown(value),
                None if before is None else _shown(before),
                file,
                lines[field_name],
            )
        )

    start, end = row.get(E.START), row.get(E.END)
    for field_name, column in (("start_date", E.START), ("end_date", E.END)):
        if field_name in merged:
            change(field_name, column, merged[field_name], row.get(column))
    if "period" in merged:
        last = merged.get("end_date", end) or merged.get("start_date", start)
        before = period_of(last) if isinstance(last, dt.date) else None
        change("period", E.PERIOD, merged["period"], before)
    if "time_control" in merged:
        change("time_control", E.TIME, merged["time_control"], row.get(E.TIME))
    reason = None
    if "list" in merged:
        reason = f"decided in {file} line {lines['list']}"
        change("list", E.LIST, merged["list"], row.get(E.LIST))
    elif "time_control" in merged:
        reading = read_time_control(str(merged["time_control"]))
        reason = f"{reading.describe()}, as decided in {file} line {lines['time_control']}"
        if reading.list != row.get(E.LIST):
            lines.setdefault("list", lines["time_control"])
            change("list", E.LIST, reading.list, row.get(E.LIST))
        columns[E.LIST] = reading.list
    problems = list(ev.problems)
    if reason is not None:
        columns[E.LIST_SOURCE] = "decision"
        columns[E.LIST_REASON] = reason
        problems = [p for p in problems if p.code not in LIST_WARNINGS]
    if "start_date" in merged and "end_date" in merged:
        problems = [p for p in problems if p.code not in DATE_WARNINGS]
    events = ev.events.with_columns(
        pl.lit(value, dtype=ev.events.schema[column]).alias(column)
        for column, value in columns.items()
    )
    adjusted = dataclasses.replace(ev, events=events, problems=problems)
    dates_changed = "start_date" in merged or "end_date" in merged
    if reason is None and dates_changed and row.get(E.LIST_SOURCE) in _BY_SCHEDULE:
        # the list was chosen by the schedule: choose it again from the decided dates
        cleared = adjusted.events.with_columns(pl.lit(None, dtype=pl.String).alias(E.LIST))
        kept = [p for p in problems if p.code not in LIST_WARNINGS]
        adjusted = settle_list(dataclasses.replace(adjusted, events=cleared, problems=kept))
    return adjusted, changes


def _shown(value: object) -> str:
    return value.isoformat() if isinstance(value, dt.date) else str(value)


__all__ = [
    "Adjustment",
    "AppliedDecisions",
    "EventDecision",
    "adjustment_problems",
    "apply_event_decisions",
    "parse_event_decisions",
    "read_event_decisions",
]
