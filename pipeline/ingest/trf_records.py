"""TRF tournament records (012 ... 222, XXR, XXS): the events frame of a TRF file.

Record values start in column 5. Which records exist, and the rules that turn them into
the one-row events frame (`schemas.ingest.Events`), live here; the player lines are read
by `pipeline.ingest.trf`.

- `source`: ``trf26`` when the file has ``###`` comments, any of the records 142 152 162
  172 192 202 222 352 362, or a ``YYYY/MM/DD`` date in 042; else ``trf16``.
- `rounds`: the largest of XXR, 142, the number of round dates in 132 and the last round
  used in the 001 lines.
- `list` / `list_source` / `time_control`: 222 (encoded, seconds) when it reads, else the
  122 free text, else the words of 092 (``(Standard)``); `time_control` is the 222 value
  when it reads, else the 122 text, else an unreadable 222 as written.
- `scoring`: record 162 (TRF26), else XXS (TRF(x)), as a JSON object of point values.
- An unreadable 042 date is an error; an unreadable 052, XXR, 142 or 222 is a warning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import PurePath

import polars as pl

from pipeline.errors import ProblemList, Severity
from pipeline.ingest import trf_fields as tf
from pipeline.ingest.timecontrol import classify_encoded, classify_free_text, classify_words
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
) -> pl.DataFrame:
    start = _record_date(records, "042", file, problems, Severity.ERROR)
    end = _record_date(records, "052", file, problems, Severity.WARNING)
    list_name, list_source, time_control = _rating_list(records, file, problems)
    rounds = max(
        used_rounds,
        _record_count(records, "XXR", file, problems),
        _record_count(records, "142", file, problems),
        _round_dates(records),
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
        str(Events.start_date): start,
        str(Events.end_date): end,
        str(Events.rounds): rounds,
        str(Events.city): records.text("022"),
        str(Events.federation): records.text("032"),
        str(Events.time_control): time_control,
        str(Events.opponent_ref): None,
        str(Events.scoring): tf.scoring_json(scoring(records)),
    }
    return pl.DataFrame([row], schema=EVENT_DTYPES)


def _value_columns(line_value: str) -> str:
    return f"{tf.RECORD_VALUE}-{tf.RECORD_VALUE + max(len(line_value), 1) - 1}"


def _record_date(
    records: Records, code: str, file: str, problems: ProblemList, severity: Severity
) -> date | None:
    found = records.first(code)
    if found is None or not found[1].strip():
        return None
    line_no, value = found
    parsed = tf.parse_trf_date(value)
    if parsed is None:
        tail = "" if severity is Severity.ERROR else "; ignored"
        problems.add(
            file, line_no, _value_columns(value), "bad-date",
            f"expected a date like 2025/09/01 or 01.09.2025, got '{value.strip()}'{tail}",
            severity,
        )  # fmt: skip
    return parsed


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


def _round_dates(records: Records) -> int:
    """How many round dates record 132 holds (they start in column 92, 10 apart)."""
    found = records.first("132")
    if found is None:
        return 0
    line = "132 " + found[1]
    return len(line[tf.FIRST_ROUND - 1 :].split())


def _rating_list(
    records: Records, file: str, problems: ProblemList
) -> tuple[str | None, str | None, str | None]:
    """(list, list_source, time_control): 222 encoded, else 122 free text, else 092 words."""
    encoded = records.first("222")
    encoded_text = encoded[1].strip() if encoded is not None else ""
    free_text = records.text("122")
    if encoded is not None and encoded_text:
        found = classify_encoded(encoded_text)
        if found is not None:
            return found, "222", encoded_text
        problems.add(
            file, encoded[0], _value_columns(encoded[1]), "bad-time-control",
            "expected an encoded time control such as 5400+30 or 40/6000+30:1500+30, "
            f"got '{encoded_text}'; ignored",
            Severity.WARNING,
        )  # fmt: skip
    time_control = free_text or encoded_text or None
    if free_text is not None:
        found = classify_free_text(free_text)
        if found is not None:
            return found, "122", time_control
    kind = records.text("092")
    if kind is not None:
        found = classify_words(kind)
        if found is not None:
            return found, "092", time_control
    return None, None, time_control
