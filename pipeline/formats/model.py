"""What a reader returns: one event's frames plus the problems found while reading; and
where a player field sits in each source format, for the problems' locations."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

import polars as pl

from pipeline.errors import Problem
from schemas.columns import P


@dataclass
class EventData:
    """Frames follow schemas.ingest: `events` has one row, `players` and `games` many."""

    events: pl.DataFrame
    players: pl.DataFrame
    games: pl.DataFrame
    problems: list[Problem] = field(default_factory=list)  # warnings; errors are raised
    # the date of each round from the first (TRF record 132; None where it gives none),
    # empty when the file gives no round dates
    round_dates: tuple[date | None, ...] = ()


# Where a player field sits in each source format (the `column` of a Location).
_TRF_COLUMNS = {
    P.NO: "5-8",
    P.NAME: "15-47",
    P.RATING: "49-52",
    P.FIDE: "58-68",
    P.POINTS: "81-84",
}
_CROSSTABLE_COLUMNS = {P.NO: "SNo", P.NAME: "Name", P.RATING: "Rtg", P.FIDE: "FideID"}
_CROSSTABLE_COLUMNS[P.POINTS] = "Pts."


def player_column(source: str, field: str) -> str:
    """The column label of a player field in a source format (`Events.source`)."""
    if source.startswith("trf"):
        return _TRF_COLUMNS.get(field, field)
    if source.startswith("crosstable"):
        return _CROSSTABLE_COLUMNS.get(field, field)
    return field
