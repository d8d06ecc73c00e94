"""The rating list (registry) frame: FIDE's XML tag names as columns."""

from __future__ import annotations

import pandera.polars as pa
import polars as pl


class Registry(pa.DataFrameModel):
    """One row per player of a FIDE rating list. Ratings of 0 are read as null (unrated).

    `fideid` is null only for a player a CSV list holds without one (a national list, or
    a list this project wrote with players not yet registered with FIDE); such rows are
    found by name and federation. The last six columns are not in FIDE's list: the
    project's own lists carry them so that K can be derived exactly when `k` is empty.
    """

    fideid: pl.Int64 | None = pa.Field(ge=1, nullable=True)
    name: str | None = pa.Field(nullable=True)
    country: str | None = pa.Field(nullable=True)
    sex: str | None = pa.Field(nullable=True)
    title: str | None = pa.Field(nullable=True)
    w_title: str | None = pa.Field(nullable=True)
    o_title: str | None = pa.Field(nullable=True)
    foa_title: str | None = pa.Field(nullable=True)
    rating: pl.Int64 | None = pa.Field(nullable=True)
    games: pl.Int64 | None = pa.Field(nullable=True)
    k: pl.Int64 | None = pa.Field(nullable=True)
    rapid_rating: pl.Int64 | None = pa.Field(nullable=True)
    rapid_games: pl.Int64 | None = pa.Field(nullable=True)
    rapid_k: pl.Int64 | None = pa.Field(nullable=True)
    blitz_rating: pl.Int64 | None = pa.Field(nullable=True)
    blitz_games: pl.Int64 | None = pa.Field(nullable=True)
    blitz_k: pl.Int64 | None = pa.Field(nullable=True)
    birthday: pl.Int64 | None = pa.Field(nullable=True)  # year of birth
    flag: str | None = pa.Field(nullable=True)
    career_games: pl.Int64 | None = pa.Field(ge=0, nullable=True)
    rapid_career_games: pl.Int64 | None = pa.Field(ge=0, nullable=True)
    blitz_career_games: pl.Int64 | None = pa.Field(ge=0, nullable=True)
    ever_2400: pl.Boolean | None = pa.Field(nullable=True)
    rapid_ever_2400: pl.Boolean | None = pa.Field(nullable=True)
    blitz_ever_2400: pl.Boolean | None = pa.Field(nullable=True)

    class Config:
        strict = False
