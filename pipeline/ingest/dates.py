"""Dates as real files write them: one reader for TRF records, crosstable preambles and
games CSVs.

Accepted forms (`read_date` for a whole field, `find_dates` for the dates inside a line):

- year first, digits: ``2020/05/29``, ``2020-05-29``, ``2020.05.29`` (the standard form:
  no note needed);
- day first with dots, as Europe writes it: ``29.05.2020``, ``28. 07. 2005``, ``29.05.20``;
- slashes or dashes with the year last: ``29/05/2020`` (day first) or ``05/29/2020``
  (month first) when only one order gives a date;
- month names in English, German, Spanish, French, Italian, Portuguese and Dutch
  (`pipeline.ingest.vocabulary.MONTHS`): ``May 29, 2020``, ``29 May 2020``,
  ``29. Mai 2020``, ``29 de mayo de 2020``, ``29-May-20``.

Two-digit years follow the POSIX ``%y`` pivot: 00-68 are 2000-2068, 69-99 are 1969-1999.
A form that two orders read as two different dates (``05/06/2020``: 5 June or 6 May) is
ambiguous: `DateRead.value` is None and `readings` holds both. `settle` resolves such a
date when the other dates of the same file, written with the same separator, show which
order the file uses. The rule set depends on the date, so the readers never guess.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from datetime import date

from pipeline.ingest.vocabulary import MONTHS

_ORDER_WORDS = {
    "ymd": "year first",
    "dmy": "day first",
    "mdy": "month first",
    "name": "month name",
}
_PIVOT = 69  # %y: 69-99 -> 19xx, 00-68 -> 20xx

_NUMERIC = (
    r"(?<![0-9])(?P<a>[0-9]{1,4})\s*(?P<sep>[./-])\s*(?P<b>[0-9]{1,2})\s*(?P=sep)\s*"
    r"(?P<c>[0-9]{1,4})(?![0-9])"
)
_WORD = r"[^\W\d_]{3,12}"
_DAY_FIRST = (
    r"(?<![0-9])(?P<d1>[0-9]{1,2})(?:st|nd|rd|th|º|\.)?[\s/-]*(?:de\s+)?"
    rf"(?P<m1>{_WORD})\.?[\s/,-]*(?:de\s+)?(?P<y1>[0-9]{{4}}|[0-9]{{2}})(?![0-9])"
)
_MONTH_FIRST = (
    rf"(?P<m2>{_WORD})\.?\s+(?P<d2>[0-9]{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y2>[0-9]{{4}})(?![0-9])"
)
_ANY = re.compile(f"{_NUMERIC}|{_DAY_FIRST}|{_MONTH_FIRST}", re.IGNORECASE)


@dataclass(frozen=True)
class DateRead:
    """One date as written. `value` is the date when exactly one reading exists."""

    text: str
    readings: tuple[date, ...]  # every valid reading, in the order of `orders`
    orders: tuple[str, ...]  # 'ymd', 'dmy', 'mdy' or 'name', one per reading
    separator: str = ""  # '.', '/' or '-' for digits-only forms

    @property
    def value(self) -> date | None:
        return self.readings[0] if len(set(self.readings)) == 1 else None

    @property
    def ambiguous(self) -> bool:
        return len(set(self.readings)) > 1

    @property
    def standard(self) -> bool:
        """Written year first in digits: nothing to explain."""
        return self.value is not None and self.orders[0] == "ymd"

    def note(self) -> str:
        """``read '29/05/2020' as 2020-05-29 (day first)`` for a warning."""
        assert self.value is not None
        return f"read {self.text!r} as {self.value.isoformat()} ({_ORDER_WORDS[self.orders[0]]})"

    def ambiguity(self) -> str:
        """What the two readings are, for the error that asks the user to settle it."""
        seen: dict[date, str] = {}
        for value, order in zip(self.readings, self.orders, strict=True):
            seen.setdefault(value, order)
        readings = " or ".join(f"{v.isoformat()} ({_ORDER_WORDS[o]})" for v, o in seen.items())
        return f"{self.text!r} reads as {readings}"


def read_date(text: str) -> DateRead | None:
    """The date a whole field holds, or None when it is not one date."""
    stripped = " ".join(text.split())
    found = _ANY.fullmatch(stripped)
    return _reading(found) if found else None


def find_dates(text: str) -> list[DateRead]:
    """Every date inside a line (``Date : 2024/03/02 - 2024/03/03``), in order."""
    found: list[DateRead] = []
    for match in _ANY.finditer(" ".join(text.split())):
        reading = _reading(match)
        if reading is not None:
            found.append(reading)
    return found


def settle(reads: list[DateRead]) -> list[DateRead]:
    """Resolve ambiguous day/month orders by the file's other dates: when the clear dates
    written with the same separator all use one order, an ambiguous one follows it."""
    used: dict[str, set[str]] = {}
    for r in reads:
        if r.value is not None and r.orders[0] in ("dmy", "mdy") and len(r.orders) == 1:
            used.setdefault(r.separator, set()).add(r.orders[0])
    settled: list[DateRead] = []
    for r in reads:
        orders = used.get(r.separator, set())
        if r.ambiguous and len(orders) == 1:
            (order,) = orders
            keep = [(v, o) for v, o in zip(r.readings, r.orders, strict=True) if o == order]
            if keep:
                r = replace(r, readings=(keep[0][0],), orders=(keep[0][1],))
        settled.append(r)
    return settled


def in_order(reading: DateRead, order: str) -> DateRead:
    """An ambiguous reading resolved to one order (``'dmy'`` for a page in a language that
    writes the day first); unchanged when that order is not among its readings."""
    for value, found in zip(reading.readings, reading.orders, strict=True):
        if found == order:
            return replace(reading, readings=(value,), orders=(found,))
    return reading


def month_number(word: str) -> int | None:
    """``'Mai'`` -> 5, ``'févr'`` -> 2, ``'setembro'`` -> 9; None for other words."""
    return MONTHS.get(_fold(word).rstrip("."))


# --- internals -------------------------------------------------------------------------


def _fold(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _year(text: str) -> int:
    value = int(text)
    if len(text) > 2:
        return value
    return value + (1900 if value >= _PIVOT else 2000)


def _valid(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day) if year >= 1000 else None
    except ValueError:
        return None


def _reading(match: re.Match[str]) -> DateRead | None:
    text = match.group(0).strip()
    if match.group("a") is not None:
        return _numeric(text, match.group("a"), match.group("b"), match.group("c"), match["sep"])
    if match.group("d1") is not None:
        day, word, year = match.group("d1"), match.group("m1"), match.group("y1")
    else:
        day, word, year = match.group("d2"), match.group("m2"), match.group("y2")
    month = month_number(word)
    if month is None:
        return None
    value = _valid(_year(year), month, int(day))
    return DateRead(text, (value,), ("name",)) if value else None


def _numeric(text: str, a: str, b: str, c: str, sep: str) -> DateRead | None:
    candidates: list[tuple[str, int, int, int]] = []  # (order, year, month, day)
    if len(a) > 2:
        if len(a) == 4 and len(c) <= 2:
            candidates.append(("ymd", int(a), int(b), int(c)))
    elif len(c) > 2:
        if len(c) == 4:
            candidates.append(("dmy", int(c), int(b), int(a)))
            if sep != ".":
                candidates.append(("mdy", int(c), int(a), int(b)))
    else:
        candidates.append(("dmy", _year(c), int(b), int(a)))
        if sep != ".":
            candidates.append(("mdy", _year(c), int(a), int(b)))
            candidates.append(("ymd", _year(a), int(b), int(c)))
    readings: list[date] = []
    orders: list[str] = []
    for order, year, month, day in candidates:
        value = _valid(year, month, day)
        if value is not None:
            readings.append(value)
            orders.append(order)
    if not readings:
        return None
    return DateRead(text, tuple(readings), tuple(orders), sep)
