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

from collections.abc import Collection

import polars as pl

from pipeline.formats.names import name_key_expr
from pipeline.rate import columns as c
from pipeline.rules.ruleset import LISTS
from schemas.columns import R

_LONG: dict[str, pl.DataType] = {
    c.LIST_KEY: pl.String(),
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
        pl.when(pl.col(R.ID).is_not_null())
        .then(pl.format("fide:{}", pl.col(R.ID)))
        .otherwise(
            person_key_expr(
                _optional(frame, R.NAME, pl.String()), _optional(frame, R.FED, pl.String())
            )
        )
    )


def covered_lists(registry: pl.DataFrame) -> list[str]:
    """The lists whose rating column the registry has with at least one value."""
    return [
        lst
        for lst, column in c.LIST_RATING.items()
        if column in registry.columns and registry[column].null_count() < registry.height
    ]


def _keyed(registry: pl.DataFrame, wanted: pl.LazyFrame | None, by_id: bool) -> pl.LazyFrame:
    """The registry rows wanted (all of them when `wanted` is None), keyed: by FIDE ID
    (`wanted`'s `fide_id`; the key column is `fide_id` itself when `by_id`, else the
    LIST_KEY ``fide:<id>``), and (rows without an ID) by person key (`wanted`'s
    `list_key`s that are ``name:`` keys); a person key held by two rows without an ID is
    ambiguous and dropped."""
    reg = registry.lazy()
    by_id_rows = reg.filter(pl.col(R.ID).is_not_null())
    if wanted is not None:
        ids = wanted.select(pl.col("fide_id").cast(pl.Int64).alias(R.ID))
        by_id_rows = reg.join(ids, on=R.ID, how="semi")
    if by_id:
        return by_id_rows.with_columns(pl.col(R.ID).cast(pl.Int64).alias("fide_id"))
    by_id_rows = by_id_rows.with_columns(pl.format("fide:{}", pl.col(R.ID)).alias(c.LIST_KEY))
    if registry[R.ID].null_count() == 0:
        return by_id_rows
    no_id = (
        reg.filter(pl.col(R.ID).is_null())
        .with_columns(list_key_expr(registry).alias(c.LIST_KEY))
        .filter(pl.len().over(c.LIST_KEY) == 1)
    )
    if wanted is not None:
        names = wanted.select(c.LIST_KEY).filter(pl.col(c.LIST_KEY).str.starts_with("name:"))
        no_id = no_id.join(names, on=c.LIST_KEY, how="semi")
    return pl.concat([by_id_rows, no_id], how="vertical_relaxed")


def registry_long(
    registry: pl.DataFrame | None,
    wanted: pl.LazyFrame | None,
    lists: Collection[str] = LISTS,
    by_id: bool = False,
) -> pl.LazyFrame:
    """One row per (list_key, list) the registry covers, among `lists`, for the players
    `wanted` asks for (columns `fide_id` and `list_key`: FIDE IDs and person keys; None:
    every player of the list): that list's rating, K, career games and 2400 flag, the
    standard rating (rapid/blitz fallback), birth year, title and federation. Empty
    without a registry. `by_id` (for a registry whose every row has a FIDE ID): keyed by
    `fide_id` rather than LIST_KEY."""
    key = "fide_id" if by_id else c.LIST_KEY
    covered = covered_lists(registry) if registry is not None else []
    asked = [lst for lst in covered if lst in lists]
    if registry is None or not asked:
        schema = dict(_LONG)
        del schema[c.LIST_KEY]
        return pl.LazyFrame(schema={key: pl.Int64() if by_id else pl.String(), **schema})
    reg = _keyed(registry, wanted, by_id)
    standard = pl.lit(None, dtype=pl.Int64())
    if "standard" in covered:
        standard = pl.col(c.LIST_RATING["standard"]).cast(pl.Int64)
    parts = [
        reg.select(
            pl.col(key),
            pl.lit(lst).alias("list"),
            pl.col(c.LIST_RATING[lst]).cast(pl.Int64).alias("reg_rating"),
            standard.alias("reg_standard"),
            _optional(registry, c.LIST_K[lst], pl.Int64()).alias("reg_k"),
            _optional(registry, c.LIST_CAREER[lst], pl.Int64()).alias("reg_career"),
            _optional(registry, c.LIST_EVER[lst], pl.Boolean()).alias("reg_ever"),
            _optional(registry, "birthday", pl.Int64()).alias("reg_birth_year"),
            _optional(registry, "title", pl.String()).alias("reg_title"),
            _optional(registry, "country", pl.String()).alias("reg_federation"),
            pl.lit(True).alias("in_registry"),
        )
        for lst in asked
    ]
    return pl.concat(parts)


_START: dict[str, pl.DataType] = {
    c.LIST_KEY: pl.String(),
    "list": pl.String(),
    c.RO_MONTH: pl.String(),
    "start_ro": pl.Int64(),
    "in_start": pl.Boolean(),
}


def start_long(start_lists: pl.DataFrame | None) -> pl.LazyFrame:
    """The start lists (registry rows plus RO_MONTH) as one row per (key, list, month):
    the rating an entry of an event started in that month is rated with (the standard
    rating for an unrated rapid or blitz player, as in the base list)."""
    if start_lists is None or start_lists.is_empty():
        return pl.LazyFrame(schema=_START)
    frame = start_lists.lazy().with_columns(list_key_expr(start_lists).alias(c.LIST_KEY))
    standard = _optional(start_lists, c.LIST_RATING["standard"], pl.Int64())
    parts = [
        frame.select(
            pl.col(c.LIST_KEY),
            pl.lit(lst).alias("list"),
            pl.col(c.RO_MONTH),
            pl.coalesce(
                _optional(start_lists, column, pl.Int64()),
                standard if lst != "standard" else pl.lit(None, dtype=pl.Int64()),
            ).alias("start_ro"),
            pl.lit(True).alias("in_start"),
        )
        for lst, column in c.LIST_RATING.items()
    ]
    return pl.concat(parts).unique([c.LIST_KEY, "list", c.RO_MONTH], keep="first")


__all__ = [
    "covered_lists",
    "list_key_expr",
    "person_key_expr",
    "registry_long",
    "start_long",
]
