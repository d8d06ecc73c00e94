"""Dates as real files write them: one reader for TRF records, crosstable preambles and
games CSVs.

Accepted forms (`read_date` for a whole field, `find_dates` for the dates inside a line):

- year first, digits: ``2020/05/29``, ``2020-05-29``, ``2020.05.29`` (the standard form:
  no note needed);
- day first with dots, as Europe writes it: ``29.05.2020``, ``28. 07. 2005``;
- two-digit years: ``29.05.20`` is day first or year first (``10.09.13`` for 2010-09-13,
  as some national programs write it), ``29/05/20`` day first, month first or year first;
- slashes or dashes with the year last: ``29/05/2020`` (day first) or ``05/29/2020``
  (month first) when only one order gives a date;
- month names in English, German, Spanish, French, Italian, Portuguese and Dutch
  (`pipeline.formats.months`): ``May 29, 2020``, ``29 May 2020``,
  ``29. Mai 2020``, ``29 de mayo de 2020``, ``29-May-20``.

Two-digit years follow the POSIX ``%y`` pivot: 00-68 are 2000-2068, 69-99 are 1969-1999.
A form that two orders read as two different dates (``05/06/2020``: 5 June or 6 May) is
ambiguous: `DateRead.value` is None and `readings` holds every reading. The rule set
depends on the date, so the readers never guess: `settle_event` tries every reading
against the file's other dates.

- One order per form: the dates of a file written the same way (same separator, each part
  of 1-2 digits or of 4) are read in one order, chosen for all of them together (a file
  does not write 042 day first and 052 year first). A date that reads one way fixes the
  order of its form.
- A reading fits when the event's dates stay in order (the reader gives them as chains:
  start <= each round date, the round dates non-decreasing, the last <= the end). The
  one joint reading that fits is taken (`DateRead.why` says why, for the ``date-read``
  note); none fitting is a disagreement the reader reports, naming the dates.
- Only when more than one reading keeps the dates in order: a reading the label's
  language prefers (``Datum``: day first), then the plausible span of an event. FIDE's
  rating regulations (Handbook B.02, on the duration of a tournament) have a tournament
  completed within 90 days, leagues excepted: a league may be longer, so the span only
  breaks a tie and never refuses a reading. What still reads two ways stays ambiguous.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import date

from pipeline.formats.months import month_number

_ORDER_WORDS = {
    "ymd": "year first",
    "dmy": "day first",
    "mdy": "month first",
    "name": "month name",
}
_PIVOT = 69  # %y: 69-99 -> 19xx, 00-68 -> 20xx
LONGEST_EVENT_DAYS = 90  # B.02: a tournament completed within 90 days (leagues excepted)
_MAX_CANDIDATES = 729  # joint readings tried at most (3 orders for 6 forms); beyond: unsettled

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
    widths: tuple[int, ...] = ()  # digits of each part, for digits-only forms
    why: str = ""  # why `settle_event` kept this reading (or these readings)

    @property
    def value(self) -> date | None:
        return self.readings[0] if len(set(self.readings)) == 1 else None

    @property
    def ambiguous(self) -> bool:
        return len(set(self.readings)) > 1

    @property
    def standard(self) -> bool:
        """Written year first in digits with a four-digit year: nothing to explain."""
        return self.value is not None and self.orders[0] == "ymd" and self.widths[:1] == (4,)

    def words(self, order: str) -> str:
        """``day first``, ``year first, two-digit year``: how a reading reads the text."""
        if order == "name" or not self.widths:
            return _ORDER_WORDS[order]
        year = self.widths[0] if order == "ymd" else self.widths[2]
        return _ORDER_WORDS[order] + (", two-digit year" if year <= 2 else "")

    def note(self) -> str:
        """``read '29/05/2020' as 2020-05-29 (day first)`` for a warning, with the reason
        when the file's other dates chose it."""
        assert self.value is not None
        read = f"read {self.text!r} as {self.value.isoformat()} ({self.words(self.orders[0])})"
        return f"{read}: {self.why}" if self.why else read

    def ambiguity(self) -> str:
        """What the readings are, for the message that asks the user to settle it."""
        seen: dict[date, str] = {}
        for value, order in zip(self.readings, self.orders, strict=True):
            seen.setdefault(value, order)
        readings = " or ".join(f"{v.isoformat()} ({self.words(o)})" for v, o in seen.items())
        found = f"{self.text!r} reads as {readings}"
        return f"{found}, {self.why}" if self.why else found


@dataclass(frozen=True)
class Point:
    """One date of an event as one reading gives it; `label` names it for a message
    (``042 '10.09.13' (line 4, columns 5-12)``), `ref` is the reader's own index of it."""

    value: date
    label: str
    ref: int


# The dates of a file under one joint reading (a value for each date given to
# `settle_event`, in its order) -> the chains of the event(s) that must each be in order.
Chains = Callable[[Sequence[date]], list[list[Point]]]


@dataclass(frozen=True)
class Settled:
    """The dates as `settle_event` leaves them, and (ref, message) when no reading fits."""

    reads: list[DateRead]
    conflict: tuple[int, str] | None = None


@dataclass(frozen=True)
class _Joint:
    """One joint reading: a value and an order per date, and how to say which it is."""

    values: tuple[date, ...]
    orders: tuple[str, ...]
    how: str


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
    """Resolve ambiguous orders by the file's other dates alone: the dates written the
    same way are read in one order, so one that reads one way settles the others."""
    return settle_event(reads, lambda values: [], "").reads


def settle_event(
    reads: Sequence[DateRead],
    chains: Chains,
    keeps: str,
    prefer: Sequence[str | None] | None = None,
) -> Settled:
    """Every date of a file read together (module docstring): one order per form, then the
    joint readings whose `chains` are in order, then `prefer` (an order per date, None
    for no preference), then the span of an event. `keeps` says what the chains keep in
    order (``the end after the start``), for the notes and the disagreement message."""
    joints = _joints(reads)
    if joints is None:
        return Settled(list(reads))
    stages: list[tuple[list[_Joint], str]] = [(joints, "")]  # (joints left, why a stage)
    if len(joints) < 2:
        return Settled(_keep(reads, stages, ""))
    checked = [(joint, chains(joint.values)) for joint in joints]
    fitting = [j for j, found in checked if all(_disorder(c) is None for c in found)]
    if not fitting:
        return _conflict(reads, checked, keeps)
    stages.append((fitting, f"the only reading that keeps {keeps}"))
    if prefer is not None and len(fitting) > 1:
        stages.append(([j for j in fitting if _liked(j, reads, prefer)] or fitting, ""))
    spans = {j.values: _span(found) for j, found in checked}
    left = stages[-1][0]
    within = [j for j in left if spans[j.values] <= LONGEST_EVENT_DAYS]
    if len(left) > 1 and within:
        stages.append((within, f"the only reading that keeps {_WITHIN}"))
    each = ""
    if any(len(chain) > 1 for _, found in checked for chain in found):
        each = f"each of which keeps {keeps}" + (f" and {_WITHIN}" if within == left else "")
    return Settled(_keep(reads, stages, each))


# --- internals -------------------------------------------------------------------------

_WITHIN = (
    f"the event within {LONGEST_EVENT_DAYS} days (FIDE's limit for a tournament, leagues excepted)"
)


def _joints(reads: Sequence[DateRead]) -> list[_Joint] | None:
    """Every joint reading with one order per form (distinct values only); None when
    there are too many to try. A form whose dates share no order is read date by date."""
    groups: dict[tuple[str, tuple[bool, ...]], list[int]] = {}
    for i, r in enumerate(reads):
        groups.setdefault((r.separator, tuple(w > 2 for w in r.widths)), []).append(i)
    choices: list[tuple[list[int], tuple[str, ...]]] = []
    for members in groups.values():
        common = tuple(
            o for o in reads[members[0]].orders if all(o in reads[i].orders for i in members)
        )
        if common:
            choices.append((members, common))
        else:
            choices.extend(([i], reads[i].orders) for i in members)
    if math.prod(len(orders) for _, orders in choices) > _MAX_CANDIDATES:
        return None
    joints: dict[tuple[date, ...], _Joint] = {}
    for combo in itertools.product(*(orders for _, orders in choices)):
        values: list[date] = [date.min] * len(reads)
        orders: list[str] = [""] * len(reads)
        for (members, _), order in zip(choices, combo, strict=True):
            for i in members:
                values[i] = reads[i].readings[reads[i].orders.index(order)]
                orders[i] = order
        picked = [(m[0], o) for (m, os), o in zip(choices, combo, strict=True) if len(os) > 1]
        how = " and ".join(f"{reads[i].text!r} read {reads[i].words(o)}" for i, o in picked)
        if len(picked) == 1:
            how = f"read {reads[picked[0][0]].words(picked[0][1])}"
        joints.setdefault(tuple(values), _Joint(tuple(values), tuple(orders), how))
    return list(joints.values())


def _disorder(chain: list[Point]) -> tuple[Point, Point] | None:
    """The first date of `chain` after the next one, with it; None when in order."""
    for before, after in itertools.pairwise(chain):
        if before.value > after.value:
            return before, after
    return None


def _span(chains: list[list[Point]]) -> int:
    """The days of the longest chain, both ends counted (0 without dates)."""
    days = [(max(p.value for p in c) - min(p.value for p in c)).days + 1 for c in chains if c]
    return max(days, default=0)


def _liked(joint: _Joint, reads: Sequence[DateRead], prefer: Sequence[str | None]) -> bool:
    return all(
        joint.orders[i] == order
        for i, order in enumerate(prefer)
        if order is not None and reads[i].ambiguous
    )


def _keep(
    reads: Sequence[DateRead], stages: list[tuple[list[_Joint], str]], each: str
) -> list[DateRead]:
    """Each date with the readings the last stage leaves, and why: the reason of the
    stage that left it one value, else `each` (what all its readings keep)."""
    kept: list[DateRead] = []
    for i, r in enumerate(reads):
        if not r.ambiguous:
            kept.append(r)
            continue
        why = each
        for joints, reason in stages:
            if len({j.values[i] for j in joints}) == 1:
                why = reason
                break
        pairs = dict.fromkeys((j.values[i], j.orders[i]) for j in stages[-1][0])
        kept.append(
            replace(
                r,
                readings=tuple(v for v, _ in pairs),
                orders=tuple(o for _, o in pairs),
                why=why,
            )
        )
    return kept


def _conflict(
    reads: Sequence[DateRead], checked: list[tuple[_Joint, list[list[Point]]]], keeps: str
) -> Settled:
    """No joint reading fits: each one's first two dates out of order, in one message
    placed at the first of them."""
    pairs = [next(d for d in map(_disorder, found) if d is not None) for _, found in checked]
    parts = [
        f"{joint.how}: {before.label} is {before.value.isoformat()}, after {after.label}, "
        f"{after.value.isoformat()}"
        for (joint, _), (before, after) in zip(checked, pairs, strict=True)
    ]
    message = f"expected a reading of the dates that keeps {keeps}, got none: " + "; ".join(parts)
    return Settled(list(reads), (pairs[0][0].ref, message))


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
    else:  # a two-digit year: first or last (with dots never month first)
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
    return DateRead(text, tuple(readings), tuple(orders), sep, (len(a), len(b), len(c)))
