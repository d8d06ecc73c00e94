"""Write an event's frames as a TRF26 (default) or TRF16 file (LF line ends).

Records written: 012 name, 022 city, 032 federation, 042 / 052 dates, 062 players, 072
rated players, 092 the rating list's name when known (``Rapid``), 102 the chief arbiter
and 112 each deputy chief arbiter when known, the time control, 132
the round dates when the event has them (``YY/MM/DD`` from column 92, one a round), XXR
rounds, the scoring when the events frame has a `scoring` column, then one 001 line per
player in start-number order with every round slot in its exact columns. The two
versions differ only where TRF16 has no record of its own:

- dates (042, 052): TRF26 ``YYYY/MM/DD``; TRF16 ``YYYY-MM-DD`` (TRF16's dates are free
  form; year first in digits reads one way);
- time control: TRF26 222 when it is in the encoded grammar (seconds), else 122; TRF16
  122 only, an encoded one as free text (``90 min + 30 sec per move``);
- rounds: TRF26 142 and XXR; TRF16 XXR (TRF(x));
- scoring: TRF26 162 (``W 1.0    D 0.5``); TRF16 XXS (``W=1.0 D=0.5``, TRF(x));
- a ``###`` column ruler in TRF26 only (TRF16 has no comment lines).

`time_control_record` says which record the time control goes to, and as what text.

A round entry without an opponent is written ``0000``, a missing colour ``-``, so an
absence reads back as ``0000 - Z``; a player with no entry for a round gets a blank slot
(read back as ``Z``); a pending game (``*``) keeps its opponent and colour with a blank
result. `read_trf(write_trf(event))` gives back the same frames apart from
`line`, `column` and `source` (always ``trf26``) for any event `read_trf` produced.

Names longer than 33 characters, federations over 3 and titles over 3 are cut to fit;
a number that cannot fit its columns (start number over 9999, ...) raises `ValueError`,
which is a programming error, not a user's (`pipeline.formats.trf.fit` finds what an
event needs before it is written faithfully).
"""

from __future__ import annotations

from datetime import date
from fractions import Fraction
from typing import Any

import polars as pl

from pipeline.formats.crosstable.preamble import detail_value
from pipeline.formats.model import EventData
from pipeline.formats.timecontrol import ENCODED_MIN_BASE, Period, parse_encoded
from pipeline.formats.trf import fields as tf
from schemas.ingest import PENDING_CODE, Events, Games, Players

E_NAME, E_CITY, E_FED = str(Events.name), str(Events.city), str(Events.federation)
E_START, E_END, E_ROUNDS = str(Events.start_date), str(Events.end_date), str(Events.rounds)
E_LIST, E_LIST_SOURCE = str(Events.list), str(Events.list_source)
E_TIME, E_SCORING = str(Events.time_control), str(Events.scoring)
E_CHIEF, E_DEPUTIES = str(Events.chief_arbiter), str(Events.deputy_arbiters)
E_SOURCE = str(Events.source)
P_NO, P_SEX, P_TITLE, P_NAME = (
    str(Players.start_no), str(Players.sex), str(Players.title), str(Players.name),
)  # fmt: skip
P_RATING, P_FED, P_FIDE = str(Players.rating), str(Players.federation), str(Players.fide_id)
P_BIRTH, P_POINTS, P_RANK = str(Players.birth_year), str(Players.points), str(Players.rank)
G_COLUMNS = [
    str(Games.start_no), str(Games.round), str(Games.opponent_no), str(Games.colour),
    str(Games.code),
]  # fmt: skip

TRF16, TRF26 = "trf16", "trf26"
VERSIONS = (TRF16, TRF26)
LIST_WORDS = {"standard": "Standard", "rapid": "Rapid", "blitz": "Blitz"}
_RULER = (
    "### SSSS sTTT NNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN RRRR FFF IIIIIIIIIII BBBB/BB/BB "
    "PPPP RRRR  1111 1 1"
)


def write_trf(event: EventData, version: str = TRF26) -> str:
    """TRF26 (or TRF16) text of `event` (one events row, its players and games)."""
    if version not in VERSIONS:
        raise ValueError(f"version must be one of {VERSIONS}, got {version!r}")
    row: dict[str, Any] = event.events.row(0, named=True)
    lines: list[str] = []

    def record(code: str, value: object) -> None:
        if value is None:
            return
        text = one_line(str(value))
        lines.append(f"{code} {text}".rstrip())

    record("012", row.get(E_NAME) or "")
    record("022", row.get(E_CITY))
    record("032", row.get(E_FED))
    record("042", date_text(row.get(E_START), version))
    record("052", date_text(row.get(E_END), version))
    players = event.players.sort(P_NO)
    record("062", players.height)
    record("072", players.filter(pl.col(P_RATING).is_not_null()).height)
    list_name = row.get(E_LIST)
    if list_name in LIST_WORDS:
        record("092", LIST_WORDS[list_name])
    record("102", row.get(E_CHIEF))
    deputies = row.get(E_DEPUTIES)
    for deputy in deputies.splitlines() if isinstance(deputies, str) else []:
        record("112", deputy)
    time_control = time_control_record(row, version)
    if time_control is not None:
        record(*time_control)
    if any(day is not None for day in event.round_dates):
        lines.append(round_dates_line(event.round_dates))
    rounds = row.get(E_ROUNDS)
    if rounds:
        if version == TRF26:
            record("142", rounds)
        record("XXR", rounds)
    scoring = row.get(E_SCORING)
    if isinstance(scoring, str):
        record("162" if version == TRF26 else "XXS", _scoring_text(scoring, version))
    if version == TRF26:
        lines.append(_RULER)

    slots = _round_slots(event.games)
    for player in players.iter_rows(named=True):
        lines.append(_player_line(player, slots.get(player[P_NO], {})))
    return "\n".join(lines) + "\n"


def round_dates_line(dates: tuple[date | None, ...]) -> str:
    """Record 132: each round's date as ``YY/MM/DD`` in its slot (blank when unknown)."""
    slots = ["" if day is None else day.strftime("%y/%m/%d") for day in dates]
    line = "132".ljust(tf.FIRST_ROUND - 1) + "".join(s.ljust(tf.ROUND_WIDTH) for s in slots)
    return line.rstrip()


def one_line(text: str) -> str:
    """A value as a record holds it: its lines joined by blanks, stripped."""
    return " ".join(text.splitlines()).strip()


def date_text(value: object, version: str = TRF26) -> str | None:
    """A date as 042 / 052 write it: ``2025/03/01`` (TRF26) or ``2025-03-01`` (TRF16)."""
    if not isinstance(value, date):
        return None
    text = tf.format_trf_date(value)
    return text if version == TRF26 else text.replace("/", "-")


def time_control_record(row: dict[str, Any], version: str = TRF26) -> tuple[str, str] | None:
    """(record, text) of an events row's time control, None without one.

    A time control the file read from 222, or one in 222's grammar whose first base time
    is over 180 (seconds, as `timecontrol.classify_time_control` reads a crosstable's),
    goes to TRF26's 222; in TRF16 it goes to 122 as free text that reads the same
    (`encoded_as_free_text`). Anything else, and a 122 text, goes to 122 as it is; a
    crosstable's line goes to 122 without its label (``Time control (Rapid) :``).
    """
    value = row.get(E_TIME)
    if not value:
        return None
    text = one_line(str(value))
    if str(row.get(E_SOURCE) or "").startswith("crosstable"):
        # a crosstable's time-control line: free text under a label, read as free text
        # (its numbers, then its words) as a 122 is
        return "122", detail_value(text, "time_control") or text
    periods = parse_encoded(text)
    source = row.get(E_LIST_SOURCE)
    encoded = periods is not None and (
        source == "222" or (source != "122" and periods[0].base > ENCODED_MIN_BASE)
    )
    if not encoded or periods is None:
        return "122", text
    if version == TRF26:
        return "222", text
    return "122", encoded_as_free_text(periods)


def _minutes(seconds: Fraction) -> str:
    return _number(seconds / 60)


def _number(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.3f}".rstrip("0")


def encoded_as_free_text(periods: list[Period]) -> str:
    """An encoded time control in words 122's reader takes: ``40/6000+30:1500+30`` ->
    ``40 moves in 100 min, then 25 min + 30 sec per move``. Free text has one increment:
    the largest of the periods' (the one FIDE's time for 60 moves is measured with)."""
    parts = [
        f"{p.moves} moves in {_minutes(p.base)} min" if p.moves else f"{_minutes(p.base)} min"
        for p in periods
    ]
    text = ", then ".join(parts)
    increment = max((p.increment for p in periods), default=Fraction(0))
    if increment:
        text += f" + {_number(increment)} sec per move"
    return text


def _scoring_text(scoring: str, version: str) -> str | None:
    """The 162 value (TRF26) or the XXS value (TRF16) of a `scoring` column value."""
    text = tf.format_scoring(scoring)
    if text is None or version == TRF26:
        return text
    return " ".join(pair.replace(" ", "=") for pair in text.split("    "))


def _round_slots(games: pl.DataFrame) -> dict[int, dict[int, str]]:
    """start number -> round -> the 8-character slot text."""
    slots: dict[int, dict[int, str]] = {}
    for start_no, round_no, opponent, colour, code in games.select(G_COLUMNS).iter_rows():
        if code == PENDING_CODE:
            code = " "  # paired, no result yet: TRF leaves the result blank
        elif code not in tf.RESULT_CODE_SET:
            raise ValueError(f"result code {code!r} is not a TRF code")
        by_round = slots.setdefault(start_no, {})
        if round_no in by_round:
            raise ValueError(f"player {start_no} has two entries for round {round_no}")
        opponent_text = _fit(opponent, 4) if opponent is not None else "0000"
        by_round[round_no] = f"{opponent_text} {colour or '-'} {code}"
    return slots


def _fit(value: object, width: int) -> str:
    text = str(value)
    if len(text) > width:
        raise ValueError(f"{text!r} does not fit in {width} TRF columns")
    return text.rjust(width)


def _player_line(player: dict[str, Any], slots: dict[int, str]) -> str:
    chars = [" "] * (tf.FIRST_ROUND - 1)

    def put(cols: tf.Columns, text: str) -> None:
        chars[cols.first - 1 : cols.last] = list(text)

    def right(cols: tf.Columns, value: object) -> None:
        width = cols.last - cols.first + 1
        put(cols, _fit("" if value is None else value, width))

    def left(cols: tf.Columns, value: object) -> None:
        width = cols.last - cols.first + 1
        put(cols, ("" if value is None else one_line(str(value)))[:width].ljust(width))

    put(tf.Columns(1, 3), "001")
    right(tf.START_NO, player[P_NO])
    left(tf.SEX, player.get(P_SEX))
    title = player.get(P_TITLE)
    right(tf.TITLE, None if title is None else one_line(str(title))[:3])
    left(tf.NAME, player.get(P_NAME))
    right(tf.RATING, player.get(P_RATING))
    left(tf.FEDERATION, player.get(P_FED))
    right(tf.FIDE_ID, player.get(P_FIDE))
    year = player.get(P_BIRTH)
    if year is not None:
        if not 0 < year <= 9999:
            raise ValueError(f"birth year {year} does not fit a TRF date")
        put(tf.BIRTH, f"{year:04d}/00/00")
    points = player.get(P_POINTS)
    right(tf.POINTS, None if points is None else tf.format_points(points))
    right(tf.RANK, player.get(P_RANK))

    text = "".join(chars)
    last = max(slots, default=0)
    for round_no in range(1, last + 1):
        text += slots.get(round_no, " " * 8) + "  "
    return text.rstrip()
