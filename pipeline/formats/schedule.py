"""The rating list of an event whose file names none, from its schedule: the rounds a day
(`settle_list`). A choice of this project, always said in a warning, never a silent
guess; `--list` and an `--events` decision override it."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from datetime import date

import polars as pl

from pipeline.errors import Location, Problem, Severity
from pipeline.formats.model import EventData
from schemas.ingest import Events

# A standard game gives each player at least 60 minutes (B.02 §1.1), so no standard event
# plays more than three rounds a day; a rapid event plays at most 15 rounds a day.
STANDARD_ROUNDS_A_DAY = 3
RAPID_ROUNDS_A_DAY = 15


def settle_list(ev: EventData) -> EventData:
    """The rating list of an event whose file names none (no time control, no list word).

    A choice of this project, always said as a warning, never a silent guess; `--list`
    overrides it. By the schedule when the file has dates and rounds: at most one round a
    day over two days or more is a standard event (``list-inferred``); more than three
    rounds on a day cannot be standard, so rapid (up to 15 a day) or blitz (more) is
    assumed (``list-assumed``). Otherwise, as for a file without dates, the event is
    taken as standard, FIDE's default list (``list-assumed``). The rounds of a day are
    counted by the round dates when every round has one (TRF record 132), else averaged
    over the event's days; a message names the busiest day only where the count by dates
    decides otherwise than the average would. A file with a time control that does not
    read gets ``time-control-unread`` instead, naming the text and the list the schedule
    chose. Events whose file names the list are unchanged.
    """
    row = ev.events.row(0, named=True)
    if row.get("list") is not None:
        return ev
    start, end, rounds = row.get("start_date"), row.get("end_date"), row.get("rounds")
    days = (end - start).days + 1 if start is not None and end is not None else None
    code, rating_list, why = _by_average(rounds, days)
    dated = _by_round_dates(ev.round_dates)
    if dated is not None and dated[:2] != (code, rating_list):
        code, rating_list, why = dated
    events = ev.events.with_columns(
        pl.lit(rating_list, dtype=pl.String).alias(str(Events.list)),
        pl.lit("schedule" if code == "list-inferred" else "assumed", dtype=pl.String).alias(
            str(Events.list_source)
        ),
        pl.lit(why, dtype=pl.String).alias(str(Events.list_reason)),
    )
    written = row.get(str(Events.time_control))
    if written:  # a time control is there, but neither its numbers nor its words read
        code = "time-control-unread"
        got = f"got {str(written)!r}, which does not read"
    else:
        got = "got none"
    warning = Problem(
        Location(str(row["file"])),
        code,
        f"expected a time control that names the rating list, {got}; {why} "
        "(pass --list, or decide it with --events, to say otherwise)",
        Severity.WARNING,
    )
    return dataclasses.replace(ev, events=events, problems=[*ev.problems, warning])


def _by_average(rounds: int | None, days: int | None) -> tuple[str, str, str]:
    """(warning code, list, why) from the rounds and the days of the event."""
    schedule = f"{rounds} rounds in {days} day{'' if days == 1 else 's'}" if days and rounds else ""
    if days is None or days < 1 or not rounds:
        return "list-assumed", "standard", "no dates to tell by: rated as standard"
    return _by_rounds_a_day(rounds / days, days, schedule)


def _by_round_dates(dates: Sequence[date | None]) -> tuple[str, str, str] | None:
    """(warning code, list, why) from the round dates, when every round has one."""
    if not dates or any(day is None for day in dates):
        return None
    per_day = Counter(day for day in dates if day is not None)
    busiest, most = max(per_day.items(), key=lambda item: (item[1], -item[0].toordinal()))
    days = len(per_day)
    schedule = (
        f"{len(dates)} rounds on {days} day{'' if days == 1 else 's'} by the round dates, "
        f"{most} on {busiest.isoformat()}"
    )
    return _by_rounds_a_day(most, days, schedule)


def _by_rounds_a_day(per_day: float, days: int, schedule: str) -> tuple[str, str, str]:
    """(warning code, list, why) from the rounds a day (`per_day`: the average or the
    busiest day's) over `days` days, said as `schedule`."""
    if days >= 2 and per_day <= 1:
        return "list-inferred", "standard", f"{schedule} is a standard event"
    if per_day > RAPID_ROUNDS_A_DAY:
        return (
            "list-assumed",
            "blitz",
            f"{schedule} is more than a rapid event plays: rated as blitz",
        )
    if per_day > STANDARD_ROUNDS_A_DAY:
        return (
            "list-assumed",
            "rapid",
            f"{schedule} is more than a standard event plays: rated as rapid",
        )
    return "list-assumed", "standard", f"{schedule}: rated as standard"


__all__ = ["RAPID_ROUNDS_A_DAY", "STANDARD_ROUNDS_A_DAY", "settle_list"]
