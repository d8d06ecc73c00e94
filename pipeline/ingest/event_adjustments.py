"""The rating officer's decisions about events (`pipeline.ingest.event_decisions`, the
`--events` file) applied to the events read, before they are validated.

Each field decided is an `Adjustment`, reported (console, Checks sheet, summary.json
``adjustments``) as an ``event-decision`` warning at the event's file; a row that names no
event read is an ``event-decision-unused`` warning; two rows that decide one field two
ways, or a decision the file's other fields cannot hold with (an end before the start, a
period before the one the event ended in), an ``event-decision-conflict`` error at the
decision's line and column.

A decision replaces what the reader or `schedule.settle_list` decided: a list chosen by the
schedule is chosen again from decided dates; the reader's ``ambiguous-date`` and
``dates-disagree`` warnings (which validation makes errors) go when the decision gives
both dates; the schedule's warnings go when it gives the list or the time control. A
decided ``event_type`` fills the events' `Events.event_type` column (null where nothing
was decided: no file format states it) for the title-norm checks; it changes nothing in
the rating.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field

import polars as pl

from pipeline.errors import Location, Problem, Severity
from pipeline.formats.model import EventData
from pipeline.formats.names import fold
from pipeline.formats.timecontrol import read_time_control
from pipeline.ingest.event_decisions import EventDecision
from schemas.columns import E

# the warnings of a list chosen without the file naming one (schedule.settle_list), and
# of a crosstable whose words name two lists: a decided list or time control replaces them
LIST_WARNINGS = frozenset(
    {"list-inferred", "list-assumed", "time-control-unread", "list-ambiguous"}
)
DATE_WARNINGS = frozenset({"ambiguous-date", "dates-disagree"})
_BY_SCHEDULE = ("schedule", "assumed")


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
    from pipeline.formats.schedule import settle_list
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
    if "event_type" in merged:
        change("event_type", E.TYPE, merged["event_type"], row.get(E.TYPE))
    problems = list(ev.problems)
    if reason is not None:
        columns[E.LIST_SOURCE] = "decision"
        columns[E.LIST_REASON] = reason
        problems = [p for p in problems if p.code not in LIST_WARNINGS]
    if "start_date" in merged and "end_date" in merged:
        problems = [p for p in problems if p.code not in DATE_WARNINGS]
    events = ev.events.with_columns(
        pl.lit(value, dtype=ev.events.schema.get(column, pl.String)).alias(column)
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
    "adjustment_problems",
    "apply_event_decisions",
]
