"""Which rating period each event of a run belongs to, and which events a run rates.

An event belongs to the period of its end date (its start date when the file gives no
end, as a one-day event); `pipeline.period.calendar` has the closing dates. An officer's
decision (`--events` `period`, the events frame's `period`) places it instead: FIDE
rates an event in the period in which its report arrives. A run rates
one period: `--period` names it and the events of other periods are skipped with an
``other-period`` warning; without it, events of several periods are a usage error
(`PeriodPlan.usage`), unless the run is a chain, which rates every period in order. An
event without any date goes with the others when they are of one period; in a run of
several periods it cannot be placed and is a ``no-event-date`` error.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pipeline.errors import Location, Problem, Severity
from pipeline.period.calendar import closing_date, format_period, list_date, period_of, shift
from schemas.columns import E

if TYPE_CHECKING:
    from pipeline.formats.model import EventData


@dataclass
class PeriodPlan:
    """`periods`: each period rated (oldest first) with the indexes of its events in the
    run's event list; `skipped`: the indexes of events of other periods; `problems`: the
    other-period warnings and no-event-date errors; `usage`: set when the run must be
    told which period to rate."""

    periods: dict[str, list[int]] = field(default_factory=dict)
    skipped: list[int] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    usage: str | None = None
    found: dict[str, int] = field(default_factory=dict)  # every period seen: its events


def decided_period(ev: EventData) -> str | None:
    """The period an officer's decision puts the event in (`Events.period`), if any."""
    if E.PERIOD not in ev.events.columns:
        return None
    value = ev.events[E.PERIOD][0]
    return str(value) if value is not None else None


def event_date(ev: EventData) -> dt.date | None:
    """The date that places an event in a period: its end, else its start."""
    row = ev.events.row(0, named=True)
    for name in ("end_date", "start_date"):
        value = row.get(name)
        if isinstance(value, dt.date):
            return value
    return None


def _window(period: str) -> str:
    opened = closing_date(shift(period, -1)) + dt.timedelta(days=1)
    return f"ending {opened.isoformat()} to {closing_date(period).isoformat()}"


def plan_periods(events: list[EventData], period: str | None, chain: bool) -> PeriodPlan:
    """Place every event (module docstring)."""
    plan = PeriodPlan()
    placed: list[str | None] = []
    for ev in events:
        day = event_date(ev)
        decided = decided_period(ev)
        placed.append(decided or (period_of(day) if day is not None else None))
    plan.found = dict(sorted(Counter(p for p in placed if p is not None).items()))
    several = len(plan.found) > 1
    if period is None and several and not chain:
        shown = ", ".join(f"{p}: {n} event{'s' * (n != 1)}" for p, n in plan.found.items())
        plan.usage = (
            f"the events belong to {len(plan.found)} rating periods ({shown}); rate one "
            "with --period YYYY-MM, or every period in order with --chain"
        )
        return plan
    undated_error = several and (chain or period is None)
    only = period or (next(iter(plan.found)) if plan.found else None)
    for index, (ev, where) in enumerate(zip(events, placed, strict=True)):
        file = str(ev.events["file"][0])
        if where is None:
            if undated_error:
                plan.problems.append(
                    Problem(
                        Location(file),
                        "no-event-date",
                        "expected a start or end date to place the event in one of the "
                        f"run's rating periods ({', '.join(plan.found)}), got none",
                    )
                )
                plan.skipped.append(index)
                continue
            where = only or "undated"
        if chain or where == only or period is None:
            plan.periods.setdefault(where, []).append(index)
            continue
        plan.skipped.append(index)
        day = event_date(ev)
        assert period is not None
        got = (
            f"one decided for period {where}"
            if decided_period(ev) is not None or day is None
            else f"one ending {day.isoformat()}: it belongs to period {where}"
        )
        plan.problems.append(
            Problem(
                Location(file),
                "other-period",
                f"expected an event of period {period} ({_window(period)}), got {got} (rated "
                f"into the list of {list_date(where).isoformat()}); skipped",
                Severity.WARNING,
            )
        )
    plan.periods = dict(sorted(plan.periods.items()))
    return plan


def start_list_month(ev: EventData) -> str | None:
    """The month (YYYY-MM) whose list was in force when the event started (None without a
    start date)."""
    start = ev.events["start_date"][0] if "start_date" in ev.events.columns else None
    return format_period(start.year, start.month) if start is not None else None


def start_list_problems(
    events: list[EventData], period: str, first_known: str, registry_given: bool
) -> list[Problem]:
    """An event that started before the earliest list the run has is rated from that
    list; say so (only a registry's ratings are concerned: a file's are its own)."""
    if not registry_given:
        return []
    problems: list[Problem] = []
    for ev in events:
        month = start_list_month(ev)
        if month is None or month >= first_known or month >= period:
            continue
        problems.append(
            Problem(
                Location(str(ev.events["file"][0])),
                "start-list-missing",
                f"expected the list of {month}-01 (in force when the event started), got "
                f"only the list given, taken as that of {first_known}-01; its ratings are "
                "used as Ro (rate the earlier months in the same --chain to use theirs)",
                Severity.WARNING,
            )
        )
    return problems


__all__ = [
    "PeriodPlan",
    "decided_period",
    "event_date",
    "plan_periods",
    "start_list_month",
    "start_list_problems",
]
