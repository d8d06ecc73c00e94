"""What a reader returns: one event's frames plus the problems found while reading."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

import polars as pl

from pipeline.errors import Problem


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
