"""The state a period hands to the next one (the next list and the pool of unrated
players' games) and its files, `players_list.csv` and `pending.csv`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import polars as pl

from pipeline.period.nextlist import COLUMNS, next_list
from pipeline.period.pending import KEY, empty, write_pending
from pipeline.rate import columns as c
from pipeline.rate.lists import list_key_expr

if TYPE_CHECKING:
    from pipeline.rate import RateResult

PLAYERS_LIST_CSV = "players_list.csv"
PENDING_CSV = "pending.csv"
_FLAGS = ("ever_2400", "rapid_ever_2400", "blitz_ever_2400")


def next_state(
    base: pl.DataFrame | None, result: RateResult, period: str
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The list after `period` and the pool of games of the players still unrated on it
    (a player rated on the new list, however, leaves the pool)."""
    new_list = next_list(base, result.ratings, period)
    pending = result.pending if result.pending is not None else empty()
    if pending.height:
        keyed = new_list.select(list_key_expr(new_list).alias(c.LIST_KEY), *c.LIST_RATING.values())
        rated = pl.concat(
            [
                keyed.filter(pl.col(column).is_not_null()).select(
                    pl.col(c.LIST_KEY).alias(KEY), pl.lit(lst).alias("list")
                )
                for lst, column in c.LIST_RATING.items()
            ]
        )
        pending = pending.join(rated, on=[KEY, "list"], how="anti")
    return new_list, pending


def list_csv_frame(frame: pl.DataFrame) -> pl.DataFrame:
    """The list as players_list.csv holds it: the registry columns, flags as 1 / 0."""
    return frame.select(COLUMNS).with_columns(pl.col(name).cast(pl.Int8) for name in _FLAGS)


def write_list(folder: Path, new_list: pl.DataFrame, pending: pl.DataFrame) -> list[Path]:
    """players_list.csv and pending.csv into `folder`; returns their paths."""
    from pipeline.report.tables import write_csv_frame

    paths = [folder / PLAYERS_LIST_CSV, folder / PENDING_CSV]
    write_csv_frame(paths[0], list_csv_frame(new_list))
    write_pending(paths[1], pending)
    return paths


__all__ = ["PENDING_CSV", "PLAYERS_LIST_CSV", "list_csv_frame", "next_state", "write_list"]
