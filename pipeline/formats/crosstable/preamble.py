"""The rows above a crosstable's header: event name, dates, rounds and rating list.

chess-results / Swiss-Manager exports start with a line naming the database, the
tournament name, ``Last update dd.mm.yyyy hh:mm:ss``, sometimes detail lines
(``Organizer(s) : ...``, ``Time control (Rapid) : ...``, ``Number of rounds : 7``,
``Date : 2025/04/30``, ``Chief Arbiter : IA Surname, Name (5301920)``) and a title such
as ``Final Ranking crosstable after 7 Rounds`` / ``Endtabelle nach 7 Runden`` /
``Starting rank crosstable``. The words of every language are those of
`pipeline.formats.crosstable.vocabulary`. Which FIDE rating list the event belongs to is
not a field of the format: it is taken from the time-control line
(`pipeline.formats.timecontrol`), else from words of the name and title, and stays null
when none or conflicting words are found.

Dates are read with `pipeline.formats.dates`, all those of the date lines together
(`dates.settle_event`): the first is the start, the second the end, and they must be in
order; a single date is a one-day event (start = end). A date that still reads two ways
under a label of a language that writes the day first (``Fecha: 02/03/2024``, ``Datum``)
is read day first; under an English label it is kept aside (`Preamble.ambiguous`) for the
reader to report, never guessed; dates no reading puts in order are kept aside too
(`Preamble.disagree`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from pipeline.formats.crosstable.vocabulary import (
    AFTER_ROUNDS_PATTERNS,
    DATABASE_WORDS,
    DAY_FIRST_DATE_LABELS,
    PREAMBLE_LABELS,
    TITLE_WORDS,
    TRAILER_WORDS,
    fold,
)
from pipeline.formats.dates import DateRead, Point, find_dates, settle_event
from pipeline.formats.timecontrol import (
    TimeControlReading,
    classify_words,
    lists_named,
    read_time_control,
)

_FED_CODE = re.compile(r"\b([A-Z]{3})\b")
_NUMBER = re.compile(r"[0-9]{1,3}")


@dataclass
class Preamble:
    """What the rows above the header tell about the event (all optional)."""

    name: str | None = None
    title: str | None = None
    rounds: int | None = None  # rounds played, from the title ("after 7 Rounds")
    rounds_planned: int | None = None  # "Number of rounds : 9"
    start_date: date | None = None
    end_date: date | None = None
    city: str | None = None
    federation: str | None = None
    time_control: str | None = None
    chief_arbiter: str | None = None  # "IA Surname, Name (FIDE ID)" as written
    deputy_arbiters: list[str] = field(default_factory=list)
    updated: date | None = None  # the "Last update" date: the standings' date
    ambiguous: list[tuple[int, DateRead]] = field(default_factory=list)  # (row, date)
    unusual: list[tuple[int, DateRead]] = field(default_factory=list)  # not year first
    disagree: list[tuple[int, str]] = field(default_factory=list)  # (row, message)
    lists_found: list[str] = field(default_factory=list)


def read_preamble(lines: list[tuple[int, str]]) -> Preamble:
    """Read the preamble rows: (row number, the row's non-empty cells joined by a space)."""
    info = Preamble()
    event_dates: list[tuple[int, DateRead, str | None]] = []  # (row, date, order preferred)
    for row, raw in lines:
        line = " ".join(raw.split())
        if not line or line.startswith("#"):
            continue
        folded = fold(line)
        if _label(folded, "last_update", dated=True):
            found = find_dates(line)
            if found and info.updated is None:
                info.updated = found[0].value
            continue
        if DATABASE_WORDS.search(folded) or TRAILER_WORDS.match(folded):
            continue
        if _label(folded, "date", dated=True):
            prefer = "dmy" if DAY_FIRST_DATE_LABELS.match(folded) is not None else None
            event_dates.extend((row, reading, prefer) for reading in find_dates(line))
            continue
        if _key_line(info, line, folded):
            continue
        if TITLE_WORDS.search(folded):
            info.title = info.title or line
            info.rounds = info.rounds or _rounds_of(folded)
            continue
        if info.name is None:
            info.name = line
    _set_dates(info, event_dates)
    return info


@dataclass(frozen=True)
class ListChoice:
    """The event's rating list as the preamble gives it: `source` ``time-control`` (the
    time-control line, `timecontrol.read_time_control`) or ``title`` (words of the name
    and title), `reason` in words, `found` every list the name and title name, `reading`
    the time-control line's (None without one)."""

    list: str | None
    source: str | None
    reason: str | None
    found: tuple[str, ...]
    reading: TimeControlReading | None


def list_of(info: Preamble, name: str) -> ListChoice:
    """The rating list of the event (`ListChoice`).

    A time-control line decides when it reads (its numbers, else its words such as the
    label's ``(Rapid)``); else the name and the title must name exactly one list.
    Conflicting words give no list with the lists found, for a warning.
    """
    reading = None
    if info.time_control:
        # its value read (``10 minutes + 3 secs per move``), the label's words kept
        # (``Time control (Rapid)``); a line that is all label is read whole
        value = detail_value(info.time_control, "time_control") or info.time_control
        reading = read_time_control(value)
        label = classify_words(info.time_control)
        if reading.words_list is None and label is not None:
            reading = dataclasses.replace(reading, words_list=label)
            if reading.list is None:
                reading = dataclasses.replace(reading, list=label, by="words")
    texts = (name, info.title or "")
    found = tuple(sorted({lst for t in texts for lst in lists_named(t)}))
    if reading is not None and reading.list is not None:
        if reading.by == "words":
            reason = f"the time-control line {info.time_control!r} names the {reading.list} list"
        else:
            reason = f"{reading.describe()} (the time-control line)"
        return ListChoice(reading.list, "time-control", reason, found, reading)
    if len(found) == 1:
        shown = " / ".join(repr(t) for t in texts if t and lists_named(t))
        reason = f"the event's name or title {shown} names the {found[0]} list"
        return ListChoice(found[0], "title", reason, found, reading)
    return ListChoice(None, None, None, found, reading)


def _label(folded: str, concept: str, dated: bool = False) -> bool:
    """The line starts with a label of `concept`, followed by ``:`` (a detail line) or, for
    dated labels, by a date (``Last update 30.04.2025``, ``Von 26.09.2026 bis ...``)."""
    found = PREAMBLE_LABELS[concept].match(folded)
    if found is None:
        return False
    rest = folded[found.end() :].lstrip()
    if rest.startswith(":") or rest.startswith("("):
        return True
    return dated and bool(find_dates(rest[:40]))


def _value(line: str) -> str:
    """The text after a detail line's ``:``."""
    return line.partition(":")[2].strip()


def detail_value(line: str, concept: str) -> str | None:
    """The value of `line` when it is a detail line of `concept` (``Time control (Rapid)
    : 10 minutes`` -> ``10 minutes``), else None (another line, or nothing after ``:``)."""
    return (_value(line) or None) if _label(fold(line), concept) else None


def _key_line(info: Preamble, line: str, folded: str) -> bool:
    """Detail lines: take what the event needs, report whether the line was one."""
    if _label(folded, "time_control"):
        info.time_control = info.time_control or line
        return True
    if _label(folded, "rounds"):
        number = _NUMBER.search(_value(line))
        if number and info.rounds_planned is None:
            info.rounds_planned = int(number.group(0))
        return True
    if _label(folded, "federation"):
        code = _FED_CODE.search(_value(line))
        if code and info.federation is None:
            info.federation = code.group(1)
        return True
    if _label(folded, "location"):
        info.city = info.city or (_value(line) or None)
        return True
    if _label(folded, "chief_arbiter"):
        info.chief_arbiter = info.chief_arbiter or (_value(line) or None)
        return True
    if _label(folded, "deputy_arbiter"):
        if _value(line):
            info.deputy_arbiters.append(_value(line))
        return True
    return _label(folded, "other")


def _rounds_of(folded: str) -> int | None:
    for pattern in AFTER_ROUNDS_PATTERNS:
        found = pattern.search(folded)
        if found:
            return int(found.group(1))
    return None


def _set_dates(info: Preamble, found: list[tuple[int, DateRead, str | None]]) -> None:
    """The first two dates of the date lines are the start and the end (one date: a
    one-day event), read together so that they settle each other's order; one that still
    reads two ways, or dates no reading puts in order, are kept aside (the reader reports
    them)."""
    labels = [f"{reading.text!r} (row {row})" for row, reading, _ in found]

    def chains(values: Sequence[date]) -> list[list[Point]]:
        return [[Point(v, labels[i], i) for i, v in enumerate(values)]]

    settled = settle_event(
        [d for _, d, _ in found], chains, "the end after the start", [p for *_, p in found]
    )
    if settled.conflict is not None:
        ref, message = settled.conflict
        info.disagree.append((found[ref][0], message))
        return
    values: list[date] = []
    for (row, _, _), reading in zip(found, settled.reads, strict=True):
        if reading.ambiguous:
            info.ambiguous.append((row, reading))
        elif reading.value is not None:
            values.append(reading.value)
            if not reading.standard:
                info.unusual.append((row, reading))
    if info.ambiguous or not values:
        return
    info.start_date = values[0]
    info.end_date = values[1] if len(values) > 1 else values[0]
