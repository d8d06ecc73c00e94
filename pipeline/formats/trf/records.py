"""TRF tournament records (012 ... 222, XXR, XXS): the events frame of a TRF file.

Record values start in column 5. Which records exist, and the rules that turn them into
the one-row events frame (`schemas.ingest.Events`), live here; the player lines are read
by `pipeline.formats.trf.read`.

- `source`: ``trf26`` when the file has ``###`` comments, any of the records 142 152 162
  172 192 202 222 352 362, or a ``YYYY/MM/DD`` date in 042; else ``trf16``.
- `rounds`: the largest of XXR, 142, the rounds record 132 dates (up to its last date)
  and the last round used in the 001 lines.
- `list` / `list_source` / `list_reason` / `time_control`: 222 (encoded, seconds) when it
  reads, else 122 (free text, or the 222 grammar in seconds), else the words of 092
  (``(Standard)``); `list_reason` says how (the time control read, its minutes for 60
  moves); `time_control` is the 222 value when it reads, else the 122 text, else an
  unreadable 222 as written. Numbers and words that name two lists: the numbers, with a
  ``list-words-differ`` warning.
- `scoring`: record 162 (TRF26), else XXS (TRF(x)), as a JSON object of point values.
- Round dates (`round_dates`, kept beside the frame in `EventData.round_dates`): record
  132, ``YY/MM/DD`` from column 92, one a round, 10 columns apart (``YYYY/MM/DD`` fills
  the 10); a two-digit year is of this century unless that puts it past the event's
  start year. Dates that all read but stand out of those columns are taken in order,
  one a round. A slot that holds no such date is a ``bad-round-date`` warning and that
  round's date unknown.
- Dates (042, 052) in any form `pipeline.formats.dates` reads, settled together with the
  round dates (`dates.settle_event`: start <= each round date, the round dates in order,
  the last <= the end). A form other than year first in digits is a ``date-read`` warning
  that shows the date understood (and why, when the other dates chose the reading); one
  that still reads two ways (``05/06/2020``) an ``ambiguous-date`` warning with the date
  left out (validation makes it an error unless ``--rules`` is given); dates that no
  reading puts in order a ``dates-disagree`` warning naming them, with both dates left
  out (validation makes it an error, unless an ``--events`` decision gives both). An
  unreadable 042 date is an error; an unreadable 052, XXR, 142 or 222 is a warning.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import PurePath

import polars as pl

from pipeline.errors import ProblemList, Severity
from pipeline.formats.dates import DateRead, Point, Settled, read_date, settle_event
from pipeline.formats.timecontrol import TimeControlReading, classify_words, read_time_control
from pipeline.formats.trf import fields as tf
from schemas.ingest import EVENT_DTYPES, Events

TOURNAMENT_RECORDS = frozenset(
    {
        "012", "022", "032", "042", "052", "062", "072", "082", "092", "102", "112",
        "122", "132", "142", "152", "162", "172", "182", "192", "202", "212", "222",
    }
)  # fmt: skip
TEAM_RECORDS = frozenset(
    {"013", "240", "250", "260", "300", "310", "320", "330", "340", "352", "362", "801", "802"}
)
TRFX_RECORDS = frozenset({"XXR", "XXC", "XXS", "XXA", "XXP", "XXY", "XXZ", "XXB", "XXF"})
TRF26_MARKERS = frozenset({"142", "152", "162", "172", "192", "202", "222", "352", "362"})
KEPT_RECORDS = TOURNAMENT_RECORDS | TRFX_RECORDS | TRF26_MARKERS  # values stored in Records
NATIONAL_RECORD = re.compile(r"[A-Z]{3}")  # TRF26 national rating records: 'IND', 'GER'
_YMD_SLASH = re.compile(r"\s*[0-9]{4}/[0-9]{2}/[0-9]{2}\s*")


@dataclass
class Records:
    """Tournament records by code: (line number, value) in file order."""

    values: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    comments: bool = False

    def first(self, code: str) -> tuple[int, str] | None:
        found = self.values.get(code)
        return found[0] if found else None

    def text(self, code: str) -> str | None:
        found = self.first(code)
        if found is None:
            return None
        return found[1].strip() or None


def scoring(records: Records) -> dict[str, float] | None:
    for code in ("162", "XXS"):
        value = records.text(code)
        if value is not None:
            return tf.parse_scoring(value)
    return None


def events_frame(
    records: Records, file: str, used_rounds: int, problems: ProblemList
) -> tuple[pl.DataFrame, tuple[date | None, ...]]:
    """The events frame and the round dates (`round_dates`)."""
    start, end = _event_dates(records, file, problems)
    list_name, list_source, list_reason, time_control = _rating_list(records, file, problems)
    dates = round_dates(records, file, start, problems)
    rounds = max(
        used_rounds,
        _record_count(records, "XXR", file, problems),
        _record_count(records, "142", file, problems),
        len(dates),
    )
    is_trf26 = records.comments or any(code in records.values for code in TRF26_MARKERS)
    start_record = records.first("042")
    if start_record is not None and _YMD_SLASH.fullmatch(start_record[1]):
        is_trf26 = True
    row: dict[str, object] = {
        str(Events.event_id): file,
        str(Events.file): file,
        str(Events.name): records.text("012") or PurePath(file).name,
        str(Events.source): "trf26" if is_trf26 else "trf16",
        str(Events.list): list_name,
        str(Events.list_source): list_source,
        str(Events.list_reason): list_reason,
        str(Events.start_date): start,
        str(Events.end_date): end,
        str(Events.rounds): rounds,
        str(Events.city): records.text("022"),
        str(Events.federation): records.text("032"),
        str(Events.time_control): time_control,
        str(Events.opponent_ref): None,
        str(Events.layout): None,
        str(Events.scoring): tf.scoring_json(scoring(records)),
        str(Events.chief_arbiter): records.text("102"),
        str(Events.deputy_arbiters): _lines(records, "112"),
    }
    return pl.DataFrame([row], schema=EVENT_DTYPES), dates


def _lines(records: Records, code: str) -> str | None:
    """The non-blank values of every record `code`, one a line (None if there are none)."""
    values = [value.strip() for _, value in records.values.get(code, [])]
    return "\n".join(v for v in values if v) or None


def _value_columns(line_value: str) -> str:
    return f"{tf.RECORD_VALUE}-{tf.RECORD_VALUE + max(len(line_value), 1) - 1}"


def _event_dates(
    records: Records, file: str, problems: ProblemList
) -> tuple[date | None, date | None]:
    """Records 042 and 052, read together and with the round dates of 132, so that the
    file's dates settle each other's order (`dates.settle_event`).

    Year-first digits need no word; another readable form is a warning that shows the date
    understood; an ambiguous one is left out with an ``ambiguous-date`` warning, which
    validation turns into an error unless ``--rules`` fixes the rule set; dates no reading
    puts in order are a ``dates-disagree`` error. An unreadable 042 is an error, an
    unreadable 052 a warning.
    """
    found: list[tuple[str, int, str, DateRead]] = []
    for code in ("042", "052"):
        record = records.first(code)
        if record is None or not record[1].strip():
            continue
        line_no, value = record
        reading = read_date(value)
        if reading is not None:
            found.append((code, line_no, value, reading))
            continue
        severity = Severity.ERROR if code == "042" else Severity.WARNING
        tail = "" if severity is Severity.ERROR else "; ignored"
        problems.add(
            file, line_no, _value_columns(value), "bad-date",
            f"expected a date like 2025/09/01 or 01.09.2025, got '{value.strip()}'{tail}",
            severity,
        )  # fmt: skip
    settled, places = _settle_dates(records, found)
    if settled.conflict is not None:
        ref, message = settled.conflict
        problems.add(
            file, places[ref][0], places[ref][1], "dates-disagree", message, Severity.WARNING
        )  # validation makes it an error, unless --events decides both dates
        return None, None
    values: dict[str, date | None] = {}
    for (code, line_no, value, _), reading in zip(found, settled.reads, strict=True):
        where = _value_columns(value)
        values[code] = reading.value
        if reading.ambiguous:
            problems.add(
                file, line_no, where, "ambiguous-date",
                f"expected a date that reads one way, got {reading.ambiguity()}: write it "
                "year first (YYYY/MM/DD) or pass --rules YYYY-MM-DD",
                Severity.WARNING,
            )  # fmt: skip
        elif not reading.standard:
            problems.add(file, line_no, where, "date-read", reading.note(), Severity.WARNING)
    return values.get("042"), values.get("052")


def _settle_dates(
    records: Records, found: list[tuple[str, int, str, DateRead]]
) -> tuple[Settled, list[tuple[int, str]]]:
    """042 and 052 (`found`: code, line, value, date) settled with the round dates of 132:
    the dates as left, and the (line, columns) of each date a disagreement may name."""
    places = [(line_no, _value_columns(value)) for _, line_no, value, _ in found]
    labels = [
        f"{code} {r.text!r} (line {line_no}, columns {at})"
        for (code, _, _, r), (line_no, at) in zip(found, places, strict=True)
    ]
    codes = [code for code, *_ in found]

    def chains(values: Sequence[date]) -> list[list[Point]]:
        """042, the round dates of 132 (as that start reads them) and 052, in order."""
        given = list(zip(codes, values, strict=True))
        points = [Point(v, labels[i], i) for i, (code, v) in enumerate(given) if code == "042"]
        layout = _round_slots(records, points[0].value if points else None)
        line_no, slots, _ = layout if layout is not None else (0, [], True)
        for number, (at, text, day) in enumerate(slots, start=1):
            if day is not None:
                places.append((line_no, at))
                label = f"132 round {number} {text!r} (line {line_no}, columns {at})"
                points.append(Point(day, label, len(places) - 1))
        points += [Point(v, labels[i], i) for i, (code, v) in enumerate(given) if code == "052"]
        return [points]

    layout = _round_slots(records, None)
    rounds = layout is not None and any(day is not None for *_, day in layout[1])
    keeps = "the round dates in order" if rounds else "the end after the start"
    if rounds and codes == ["042", "052"]:
        keeps += " and the end after the start"
    return settle_event([r for *_, r in found], chains, keeps), places


def _record_count(records: Records, code: str, file: str, problems: ProblemList) -> int:
    found = records.first(code)
    if found is None or not found[1].strip():
        return 0
    line_no, value = found
    number = tf.parse_unsigned(value, max_digits=4)
    if number is None:
        problems.add(
            file, line_no, _value_columns(value), "bad-rounds",
            f"expected a number of rounds, got '{value.strip()}'; ignored",
            Severity.WARNING,
        )  # fmt: skip
        return 0
    return number


_ROUND_DATE = re.compile(r"(\d{2}|\d{4})/(\d{2})/(\d{2})")


def round_dates(
    records: Records, file: str, start: date | None, problems: ProblemList
) -> tuple[date | None, ...]:
    """The date of each round from record 132 (module docstring); () without one."""
    layout = _round_slots(records, start)
    if layout is None:
        return ()
    line_no, slots, in_columns = layout
    for number, (at, text, day) in enumerate(slots, start=1):
        if in_columns and text and day is None:
            problems.add(
                file, line_no, at, "bad-round-date",
                f"expected the date of round {number} as YY/MM/DD, got '{text}'; ignored",
                Severity.WARNING,
            )  # fmt: skip
    return tuple(day for *_, day in slots)


def _round_slots(
    records: Records, start: date | None
) -> tuple[int, list[tuple[str, str, date | None]], bool] | None:
    """Record 132 as (line, [(columns, text, date)] a round, whether in their columns);
    None without one. Dates that all read but stand out of their columns are taken in
    order, one a round."""
    found = records.first("132")
    if found is None:
        return None
    line_no, value = found
    line = "132 " + value
    slots = [
        (f"{at}-{at + tf.ROUND_WIDTH - 1}", line[at - 1 : at - 1 + tf.ROUND_WIDTH].strip())
        for at in range(tf.FIRST_ROUND, len(line) + 1, tf.ROUND_WIDTH)
    ]
    while slots and not slots[-1][1]:
        slots.pop()
    tokens = [
        (f"{tf.FIRST_ROUND + m.start()}-{tf.FIRST_ROUND + m.end() - 1}", m.group(0))
        for m in re.finditer(r"\S+", line[tf.FIRST_ROUND - 1 :])
    ]
    read = [(at, text, _round_date(text, start)) for at, text in slots]
    if any(text and day is None for _, text, day in read) and all(
        _round_date(t, start) is not None for _, t in tokens
    ):
        return line_no, [(at, t, _round_date(t, start)) for at, t in tokens], False
    return line_no, read, True


def _round_date(text: str, start: date | None) -> date | None:
    match = _ROUND_DATE.fullmatch(text)
    if match is None:
        return None
    year, month, day = (int(part) for part in match.groups())
    if len(match[1]) == 2:
        year += 2000
        if start is not None and year > start.year + 1:
            year -= 100
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _rating_list(
    records: Records, file: str, problems: ProblemList
) -> tuple[str | None, str | None, str | None, str | None]:
    """(list, list_source, list_reason, time_control): 222 encoded, else 122 (either form,
    `timecontrol.read_time_control`), else the words of 092. A time control whose numbers
    and words name two lists is read by its numbers, with a ``list-words-differ`` warning;
    one that does not read is left to `schedule.settle_list`, which says so."""
    encoded = records.first("222")
    encoded_text = encoded[1].strip() if encoded is not None else ""
    free = records.first("122")
    free_text = records.text("122")
    if encoded is not None and encoded_text:
        reading = read_time_control(encoded_text, encoded=True)
        if reading.list is not None:
            _words_differ(reading, file, encoded, problems)
            return reading.list, "222", f"{reading.describe()} (TRF 222)", encoded_text
        problems.add(
            file, encoded[0], _value_columns(encoded[1]), "bad-time-control",
            "expected an encoded time control such as 5400+30 or 40/6000+30:1500+30, "
            f"got '{encoded_text}'; ignored",
            Severity.WARNING,
        )  # fmt: skip
    time_control = free_text or encoded_text or None
    if free is not None and free_text is not None:
        reading = read_time_control(free_text)
        if reading.list is not None:
            _words_differ(reading, file, free, problems)
            return reading.list, "122", f"{reading.describe()} (TRF 122)", time_control
    kind = records.text("092")
    if kind is not None:
        found = classify_words(kind)
        if found is not None:
            reason = f"the event type {kind!r} (TRF 092) names the {found} list"
            return found, "092", reason, time_control
    return None, None, None, time_control


def _words_differ(
    reading: TimeControlReading, file: str, record: tuple[int, str], problems: ProblemList
) -> None:
    """A time control whose words name another list than its numbers give: said, never
    decided silently (the numbers are FIDE's measure)."""
    if reading.words_list is None or reading.words_list == reading.list:
        return
    problems.add(
        file, record[0], _value_columns(record[1]), "list-words-differ",
        f"expected the time control's numbers and words to name one rating list, got "
        f"{reading.describe()}; rated as {reading.list} by its numbers (pass --list, or "
        "decide it with --events, to say otherwise)",
        Severity.WARNING,
    )  # fmt: skip
