"""The rating list (registry) frame: FIDE's XML tag names as columns."""

from __future__ import annotations

from typing import Optional

import pandera.polars as pa
import polars as pl


class Registry(pa.DataFrameModel):
    """One row per player of a FIDE rating list. Ratings of 0 are read as null (unrated)."""

    fideid: pl.Int64 = pa.Field(ge=1, unique=True)
    name: Optional[str] = pa.Field(nullable=True)
    country: Optional[str] = pa.Field(nullable=True)
    sex: Optional[str] = pa.Field(nullable=True)
    title: Optional[str] = pa.Field(nullable=True)
    w_title: Optional[str] = pa.Field(nullable=True)
    o_title: Optional[str] = pa.Field(nullable=True)
    foa_title: Optional[str] = pa.Field(nullable=True)
    rating: Optional[pl.Int64] = pa.Field(nullable=True)
    games: Optional[pl.Int64] = pa.Field(nullable=True)
    k: Optional[pl.Int64] = pa.Field(nullable=True)
    rapid_rating: Optional[pl.Int64] = pa.Field(nullable=True)
    rapid_games: Optional[pl.Int64] = pa.Field(nullable=True)
    rapid_k: Optional[pl.Int64] = pa.Field(nullable=True)
    blitz_rating: Optional[pl.Int64] = pa.Field(nullable=True)
    blitz_games: Optional[pl.Int64] = pa.Field(nullable=True)
    blitz_k: Optional[pl.Int64] = pa.Field(nullable=True)
    birthday: Optional[pl.Int64] = pa.Field(nullable=True)  # year of birth
    flag: Optional[str] = pa.Field(nullable=True)

    class Config:
        strict = False
