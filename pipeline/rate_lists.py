"""The rating lists an entry is rated from (part of `pipeline.rate`).

Two lists can matter for one period (fide-rules.md §4, design "Periods and lists"):

- the *base* list: the list in force at the start of the period (the registry given, or
  in a chain the list the previous period wrote). A player's rating before the period,
  K and the facts K is derived from come from it;
- the *start* lists: for an event that started in an earlier month and closed late, the
  list in force on its start date gives Ro for that event (`start_lists`, only in a
  chain, where the lists of earlier months are known).

A list row is found by its key: ``fide:<id>``, or for a list's player without a FIDE ID
(a national list, or one this project wrote) ``name:<folded name>|<federation>``, the
same key the identity stage gives a person without an ID.
"""

from __future__ import annotations

import polars as pl

from pipeline.ingest.names import name_key_expr
from schemas.registry import Registry

LIST_RATING = {"standard": "rating", "rapid": "rapid_rating", "blitz": "blitz_rating"}
LIST_GAMES = {"standard": "games", "rapid": "rapid_games", "blitz": "blitz_games"}
LIST_K = {"standard": "k", "rapid": "rapid_k", "blitz": "blitz_k"}
LIST_CAREER = {
    "standard": "career_games",
    "rapid": "rapid_career_games",
    "blitz": "blitz_career_games",
}
LIST_EVER = {"standard": "ever_2400", "rapid": "rapid_ever_2400", "blitz": "blitz_ever_2400"}

LIST_KEY = "list_key"
RO_MONTH = "ro_month"  # the month ("YYYY-MM") of the start list an event is rated from
R_ID = str(Registry.fideid)
R_NAME = str(Registry.name)
R_FED = str(Registry.country)

_LONG: dict[str, pl.DataType] = {
    LIST_KEY: pl.String(),
    "list": pl.String(),
    "reg_rating": pl.Int64(),
    "reg_standard": pl.Int64(),
    "reg_k": pl.Int64(),
    "reg_career": pl.Int64(),
    "reg_ever": pl.Boolean(),
    "reg_birth_year": pl.Int64(),
    "reg_title": pl.String(),
    "reg_federation": pl.String(),
    "in_registry": pl.Boolean(),
}


def _optional(df: pl.DataFrame | pl.LazyFrame, name: str, dtype: pl.DataType) -> pl.Expr:
    names = df.collect_schema().names() if isinstance(df, pl.LazyFrame) else df.columns
    return pl.col(name).cast(dtype) if name in names else pl.lit(None, dtype=dtype)


def person_key_expr(name: pl.Expr, federation: pl.Expr) -> pl.Expr:
    """``name:<folded name>|<FED>`` (the identity stage's key of a person without an ID)."""
    fed = federation.str.strip_chars().str.to_uppercase().fill_null("")
    return pl.concat_str(pl.lit("name:"), name_key_expr(name), pl.lit("|"), fed)


def list_key_expr(frame: pl.DataFrame | pl.LazyFrame) -> pl.Expr:
    """The key of each row of a registry frame (module docstring)."""
    return (
        pl.when(pl.col(R_ID).is_not_null())
        .then(pl.format("fide:{}", pl.col(R_ID)))
        .otherwise(
            person_key_expr(
                _optional(frame, R_NAME, pl.String()), _optional(frame, R_FED, pl.String())
            )
        )
    )


def covered_lists(registry: pl.DataFrame) -> list[str]:
    """The lists whose rating column the registry has with at least one value."""
    return [
        lst
        for lst, column in LIST_RATING.items()
        if column in registry.columns and registry[column].null_count() < registry.height
    ]


def _keyed(registry: pl.DataFrame, fide_ids: pl.Series, name_keys: pl.Series) -> pl.LazyFrame:
    """The registry rows wanted, with their LIST_KEY: by FIDE ID, and (rows without an ID)
    by person key; a person key held by two rows without an ID is ambiguous and dropped."""
    reg = registry.lazy()
    by_id = reg.join(
        pl.LazyFrame({R_ID: fide_ids.unique().drop_nulls().cast(pl.Int64)}), on=R_ID, how="semi"
    ).with_columns(pl.format("fide:{}", pl.col(R_ID)).alias(LIST_KEY))
    if registry[R_ID].null_count() == 0 or name_keys.len() == 0:
        return by_id
    no_id = (
        reg.filter(pl.col(R_ID).is_null())
        .with_columns(list_key_expr(registry).alias(LIST_KEY))
        .filter(pl.len().over(LIST_KEY) == 1)
        .join(pl.LazyFrame({LIST_KEY: name_keys.unique()}), on=LIST_KEY, how="semi")
    )
    return pl.concat([by_id, no_id], how="vertical_relaxed")


def registry_long(
    registry: pl.DataFrame | None, fide_ids: pl.Series, name_keys: pl.Series
) -> pl.DataFrame:
    """One row per (list_key, list) the registry covers, for the FIDE IDs and person keys
    asked for: that list's rating, K, career games and 2400 flag, the standard rating
    (rapid/blitz fallback), birth year, title and federation. Empty without a registry."""
    covered = covered_lists(registry) if registry is not None else []
    if registry is None or not covered:
        return pl.DataFrame(schema=_LONG)
    reg = _keyed(registry, fide_ids, name_keys)
    standard = pl.lit(None, dtype=pl.Int64())
    if "standard" in covered:
        standard = pl.col(LIST_RATING["standard"]).cast(pl.Int64)
    parts = [
        reg.select(
            pl.col(LIST_KEY),
            pl.lit(lst).alias("list"),
            pl.col(LIST_RATING[lst]).cast(pl.Int64).alias("reg_rating"),
            standard.alias("reg_standard"),
            _optional(registry, LIST_K[lst], pl.Int64()).alias("reg_k"),
            _optional(registry, LIST_CAREER[lst], pl.Int64()).alias("reg_career"),
            _optional(registry, LIST_EVER[lst], pl.Boolean()).alias("reg_ever"),
            _optional(registry, "birthday", pl.Int64()).alias("reg_birth_year"),
            _optional(registry, "title", pl.String()).alias("reg_title"),
            _optional(registry, "country", pl.String()).alias("reg_federation"),
            pl.lit(True).alias("in_registry"),
        )
        for lst in covered
    ]
    return pl.concat(parts).collect()


_START: dict[str, pl.DataType] = {
    LIST_KEY: pl.String(),
    "list": pl.String(),
    RO_MONTH: pl.String(),
    "start_ro": pl.Int64(),
    "in_start": pl.Boolean(),
}


def start_long(start_lists: pl.DataFrame | None) -> pl.DataFrame:
    """The start lists (registry rows plus RO_MONTH) as one row per (key, list, month):
    the rating an entry of an event started in that month is rated with (the standard
    rating for an unrated rapid or blitz player, as in the base list)."""
    if start_lists is None or start_lists.is_empty():
        return pl.DataFrame(schema=_START)
    frame = start_lists.lazy().with_columns(list_key_expr(start_lists).alias(LIST_KEY))
    standard = _optional(start_lists, LIST_RATING["standard"], pl.Int64())
    parts = [
        frame.select(
            pl.col(LIST_KEY),
            pl.lit(lst).alias("list"),
            pl.col(RO_MONTH),
            pl.coalesce(
                _optional(start_lists, column, pl.Int64()),
                standard if lst != "standard" else pl.lit(None, dtype=pl.Int64()),
            ).alias("start_ro"),
            pl.lit(True).alias("in_start"),
        )
        for lst, column in LIST_RATING.items()
    ]
    return pl.concat(parts).unique([LIST_KEY, "list", RO_MONTH], keep="first").collect()


__all__ = [
    "LIST_CAREER",
    "LIST_EVER",
    "LIST_GAMES",
    "LIST_K",
    "LIST_KEY",
    "LIST_RATING",
    "RO_MONTH",
    "covered_lists",
    "list_key_expr",
    "person_key_expr",
    "registry_long",
    "start_long",
]
