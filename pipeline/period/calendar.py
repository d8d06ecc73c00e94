"""Rating periods and their closing dates (FIDE B.02 §7.1.3), as plain date arithmetic.

The rating list of the 1st of month L takes the events that end on or before three days
before that date (its *closing date*) and after the previous list's closing date. The
*period* of an event is named by the month before that list: period ``2025-07`` holds the
games rated into the list of 1 August 2025, i.e. the events ending 29 June - 29 July
2025 (the lists of 1 July and 1 August close on 28 June and 29 July).
"""

from __future__ import annotations

import datetime as dt
import re

CLOSING_DAYS = 3  # a list closes three days before its date
POOL_MONTHS = 26  # §7.1.4: an initial rating pools periods of at most 26 months

_PERIOD = re.compile(r"(\d{4})-(0[1-9]|1[0-2])")


def parse_period(text: str) -> tuple[int, int]:
    """(year, month) of ``YYYY-MM``; ValueError otherwise."""
    match = _PERIOD.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"expected a period YYYY-MM, got {text!r}")
    return int(match.group(1)), int(match.group(2))


def format_period(year: int, month: int) -> str:
    return f"{year:04d}-{month:02d}"


def shift(period: str, months: int) -> str:
    """The period `months` later (earlier when negative)."""
    year, month = parse_period(period)
    index = year * 12 + (month - 1) + months
    return format_period(index // 12, index % 12 + 1)


def months_between(earlier: str, later: str) -> int:
    """How many months `later` is after `earlier` (0 for the same period)."""
    y1, m1 = parse_period(earlier)
    y2, m2 = parse_period(later)
    return (y2 * 12 + m2) - (y1 * 12 + m1)


def first_day(period: str) -> dt.date:
    """The first day of the period's month (the date its rules are taken from)."""
    year, month = parse_period(period)
    return dt.date(year, month, 1)


def list_date(period: str) -> dt.date:
    """The date of the list the period's games are rated into: the 1st of the next month."""
    return first_day(shift(period, 1))


def closing_date(period: str) -> dt.date:
    """The last day an event of the period may end on (its list's closing date)."""
    return list_date(period) - dt.timedelta(days=CLOSING_DAYS)


def period_of(end: dt.date) -> str:
    """The period of an event ending on `end`: the month before the first list whose
    closing date is on or after `end`."""
    later = end + dt.timedelta(days=CLOSING_DAYS)
    year, month = later.year, later.month
    if later.day > 1:  # the first list dated on or after end + 3 days is next month's
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return shift(format_period(year, month), -1)


def list_in_force(day: dt.date) -> str:
    """The period whose list was in force on `day`: the list of the 1st of day's month is
    the one period (month - 1) produced; named here by that month (``YYYY-MM``)."""
    return format_period(day.year, day.month)


__all__ = [
    "CLOSING_DAYS",
    "POOL_MONTHS",
    "closing_date",
    "first_day",
    "format_period",
    "list_date",
    "list_in_force",
    "months_between",
    "parse_period",
    "period_of",
    "shift",
]
