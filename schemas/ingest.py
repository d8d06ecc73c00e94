"""Normalized frames produced by every reader (TRF, crosstable, games CSV).

Every reader returns an `EventData` (pipeline.formats.model) whose three frames follow these
models. Column names are taken from the models (`Games.opponent_no`), never retyped.
Values keep their source position (`line`, `column`) for error messages.
"""

from __future__ import annotations

from typing import Final

import pandera.polars as pa
import polars as pl

RESULT_CODES = ["1", "=", "0", "+", "-", "W", "D", "L", "H", "F", "U", "Z"]  # TRF's codes
# A game paired but without a result yet (an event in progress). Not a TRF code: TRF
# leaves the result blank; the sign is PGN's for a game in progress.
PENDING_CODE = "*"
GAME_CODES = [*RESULT_CODES, PENDING_CODE]
PLAYED_CODES = ["1", "=", "0"]
# How a crosstable's table is laid out: the order of its rows (and of the opponent
# numbers) and its kind. Null for the other formats.
LAYOUTS = [
    "final-ranking swiss",
    "final-ranking round-robin",
    "starting-rank swiss",
    "starting-rank round-robin",
]
LISTS = ["standard", "rapid", "blitz"]
# The event types the title-norm checks know (FIDE Handbook B.01; `pipeline.norms.titles`
# and its `NormOptions.event_types`): `Events.event_type` holds one, as the officer decided
# it (--events `event_type`).
EVENT_TYPES: Final = (
    "swiss",
    "round-robin",
    "double-round-robin",
    "knockout",
    "national-championship",  # 1.4.3a: final of a national (women's) championship
    "national-team-championship",  # 1.4.3b
    "zonal",  # 1.4.3c: zonal and sub-zonal tournaments
    "team-championship",  # 1.4.1b: World/Continental Team or Club Championship: 7 games
    "world-cup",  # 1.4.1b: (Women's) World Cup: 8 games
)
# Why an event is on its list, by `Events.list_source`: the file declares it (words of the
# event type, title or a list column), its time control gives it, the schedule (rounds a
# day) suggests it, the run's --list says it, or the officer decided it (--events).
LIST_BASIS = {
    "092": "declared",
    "title": "declared",
    "column": "declared",
    "222": "time control",
    "122": "time control",
    "time-control": "time control",
    "schedule": "schedule",
    "assumed": "schedule",
    "option": "--list",
    "decision": "decision",
}


class Events(pa.DataFrameModel):
    """One row per event (tournament)."""

    event_id: str = pa.Field(unique=True)  # unique within a run: the file path, '#n' if several
    file: str  # path as given by the user
    name: str
    source: str = pa.Field(
        isin=["trf16", "trf26", "crosstable-xlsx", "crosstable-csv", "games-csv"]
    )
    list: str | None = pa.Field(nullable=True, isin=LISTS)
    # where the list came from: '222' / '122' (a TRF time control), '092' (TRF event type
    # words), 'time-control' (a crosstable's time-control line), 'title' (a crosstable's
    # name or title words), 'column' (games CSV), 'schedule' / 'assumed' (the rounds a day,
    # pipeline.ingest.detect.settle_list), 'option' (--list), 'decision' (--events)
    list_source: str | None = pa.Field(nullable=True)
    # why, in words, for validate, the Events sheet and summary.json ("time control '90 min +
    # 30 s a move' (TRF 122): 120 min for 60 moves, standard")
    list_reason: str | None = pa.Field(nullable=True)
    start_date: pl.Date | None = pa.Field(nullable=True)
    end_date: pl.Date | None = pa.Field(nullable=True)
    rounds: pl.Int64 | None = pa.Field(nullable=True, ge=0)
    city: str | None = pa.Field(nullable=True)
    federation: str | None = pa.Field(nullable=True)
    time_control: str | None = pa.Field(nullable=True)  # 222 encoded, else 122 free text
    opponent_ref: str | None = pa.Field(nullable=True)  # crosstables: 'rank' or 'start-number'
    layout: str | None = pa.Field(nullable=True, isin=LAYOUTS)  # crosstables only
    scoring: str | None = pa.Field(nullable=True)  # 162 / XXS point values, JSON {"W":1.0,...}
    # TRF 102 / 112, a crosstable's "Chief Arbiter :" / "Deputy Chief Arbiter :" lines, as
    # written ("IA Surname, Name (FIDE ID)"); one deputy a line
    chief_arbiter: str | None = pa.Field(nullable=True)
    deputy_arbiters: str | None = pa.Field(nullable=True)
    # the rating period the officer decided (--events `period`, YYYY-MM, checked where the
    # decision is read: a late report); null: the period of the event's end date
    # (pipeline.period.select)
    period: str | None = pa.Field(nullable=True)
    # the event's type for the title-norm checks, as the officer decided it (--events
    # `event_type`); null: not stated (no file format carries it)
    event_type: str | None = pa.Field(nullable=True, isin=EVENT_TYPES)

    class Config:
        strict = False


class Players(pa.DataFrameModel):
    """One row per player per event."""

    event_id: str
    start_no: pl.Int64 = pa.Field(ge=1)
    name: str
    fide_id: pl.Int64 | None = pa.Field(nullable=True, ge=1)  # 0 / blank -> null
    federation: str | None = pa.Field(nullable=True)
    title: str | None = pa.Field(nullable=True)  # GM IM FM CM WGM WIM WFM WCM
    sex: str | None = pa.Field(nullable=True)  # 'm' / 'w'
    birth_year: pl.Int64 | None = pa.Field(nullable=True)
    # 0 / blank -> null (unrated); FIDE publishes nothing below 1000 (B.02 §6; the floor is
    # 1400 from 2024-03-01, checked as a warning in pipeline.validate_checks).
    rating: pl.Int64 | None = pa.Field(
        nullable=True, in_range={"min_value": 1000, "max_value": 3500}
    )
    points: pl.Float64 | None = pa.Field(nullable=True, ge=0)  # as declared by the file
    rank: pl.Int64 | None = pa.Field(nullable=True)
    k_declared: pl.Float64 | None = pa.Field(nullable=True)  # crosstable 'K' column
    change_declared: pl.Float64 | None = pa.Field(nullable=True)  # crosstable 'rtg+/-'
    line: pl.Int64  # 1-based source line / spreadsheet row of the player record

    class Config:
        strict = False


class Games(pa.DataFrameModel):
    """One row per player per round entry, from that player's side (byes included)."""

    event_id: str
    round: pl.Int64 = pa.Field(ge=1)
    start_no: pl.Int64 = pa.Field(ge=1)
    opponent_no: pl.Int64 | None = pa.Field(nullable=True, ge=1)
    colour: str | None = pa.Field(nullable=True, isin=["w", "b"])
    code: str = pa.Field(isin=GAME_CODES)  # TRF result code, upper-cased; '*' pending
    score: pl.Float64 = pa.Field(ge=0, le=1)  # points under the standard 1 / 0.5 / 0 scoring
    played: bool  # code in 1 = 0 and an opponent: a game that can be rated
    line: pl.Int64
    column: str  # '92-101' (TRF) or the header text ('3.Rd')

    class Config:
        strict = False


# The polars dtypes of the three frames, in column order: every reader builds its frames
# with these, so the frames of different formats concatenate without casts.
EVENT_DTYPES: dict[str, type[pl.DataType]] = {
    str(Events.event_id): pl.String,
    str(Events.file): pl.String,
    str(Events.name): pl.String,
    str(Events.source): pl.String,
    str(Events.list): pl.String,
    str(Events.list_source): pl.String,
    str(Events.list_reason): pl.String,
    str(Events.start_date): pl.Date,
    str(Events.end_date): pl.Date,
    str(Events.rounds): pl.Int64,
    str(Events.city): pl.String,
    str(Events.federation): pl.String,
    str(Events.time_control): pl.String,
    str(Events.opponent_ref): pl.String,
    str(Events.layout): pl.String,
    str(Events.scoring): pl.String,
    str(Events.chief_arbiter): pl.String,
    str(Events.deputy_arbiters): pl.String,
    str(Events.period): pl.String,
    str(Events.event_type): pl.String,
}
PLAYER_DTYPES: dict[str, type[pl.DataType]] = {
    str(Players.event_id): pl.String,
    str(Players.start_no): pl.Int64,
    str(Players.name): pl.String,
    str(Players.fide_id): pl.Int64,
    str(Players.federation): pl.String,
    str(Players.title): pl.String,
    str(Players.sex): pl.String,
    str(Players.birth_year): pl.Int64,
    str(Players.rating): pl.Int64,
    str(Players.points): pl.Float64,
    str(Players.rank): pl.Int64,
    str(Players.k_declared): pl.Float64,
    str(Players.change_declared): pl.Float64,
    str(Players.line): pl.Int64,
}
GAME_DTYPES: dict[str, type[pl.DataType]] = {
    str(Games.event_id): pl.String,
    str(Games.round): pl.Int64,
    str(Games.start_no): pl.Int64,
    str(Games.opponent_no): pl.Int64,
    str(Games.colour): pl.String,
    str(Games.code): pl.String,
    str(Games.score): pl.Float64,
    str(Games.played): pl.Boolean,
    str(Games.line): pl.Int64,
    str(Games.column): pl.String,
}
