"""The next rating list: the base list with a period's results applied
(`players_list.csv` of design "Periods and lists"). Pure polars, no I/O.

For each list (standard, rapid, blitz) and each player rated in the period:

- `rating` is the rating after the period; a rating below the floor of the period's
  rule set makes the player unrated from this list (B.02 §7.2.1); a published initial
  rating enters the list (§7.1.4);
- `games` counts the games rated in the period (0 for a rated player who played none;
  for a new player, the games their initial rating was computed from);
- `career_games` adds the period's games to the known count (unknown stays unknown: FIDE's
  list does not carry it); a new player's count starts with their initial games;
- `ever_2400` becomes 1 when the rating reaches 2400; a new player's is 0;
- `k` is the K for the next period under the rules in force then (career games reaching
  30, the first 2400, the end of the junior year). **Choice** where career games are
  unknown (a player of FIDE's list): FIDE's K is carried, and becomes the 2400 K once the
  rating reaches 2400.

Every player of the base list is kept; players new to the list (rated from their file's
rating, or newly published) are added, identified by FIDE ID, else by name and federation.
"""

from __future__ import annotations

import polars as pl

from pipeline.period.calendar import first_day, shift
from pipeline.rate_lists import (
    LIST_CAREER,
    LIST_EVER,
    LIST_GAMES,
    LIST_K,
    LIST_KEY,
    LIST_RATING,
    list_key_expr,
)
from pipeline.rules.ruleset import LISTS, ruleset_for
from pipeline.rules.vector import derive_k_expr, ruleset_frame
from schemas.registry import Registry

COLUMNS: tuple[str, ...] = tuple(Registry.to_schema().columns)
_INT = {
    *LIST_RATING.values(),
    *LIST_GAMES.values(),
    *LIST_K.values(),
    *LIST_CAREER.values(),
    "fideid",
    "birthday",
}
DTYPES: dict[str, pl.DataType] = {
    c: pl.Int64() if c in _INT else pl.Boolean() if c in LIST_EVER.values() else pl.String()
    for c in COLUMNS
}


def empty_list() -> pl.DataFrame:
    return pl.DataFrame(schema=DTYPES)


def as_list(frame: pl.DataFrame | None) -> pl.DataFrame:
    """A registry frame with every column of the schema, in order."""
    if frame is None:
        return empty_list()
    return frame.select(
        pl.col(c).cast(DTYPES[c]) if c in frame.columns else pl.lit(None, DTYPES[c]).alias(c)
        for c in COLUMNS
    )


def _updates(ratings: pl.DataFrame, lst: str) -> pl.DataFrame:
    """One row per player rated on `lst` in the period: the list's new values."""
    rows = ratings.filter(pl.col("list") == lst)
    rated = pl.col("status").is_in(["rated", "no-rated-games"])
    initial = pl.col("status") == "initial"
    below = pl.col("below_floor").fill_null(False)
    return rows.select(
        pl.col("player_key").alias(LIST_KEY),
        pl.col("fide_id").cast(pl.Int64).alias("u_fideid"),
        pl.col("name").alias("u_name"),
        pl.col("federation").alias("u_country"),
        pl.col("title").alias("u_title"),
        pl.col("birth_year").cast(pl.Int64).alias("u_birthday"),
        pl.when(rated & ~below)
        .then(pl.col("rating_after"))
        .when(initial)
        .then(pl.col("rating_after"))
        .cast(pl.Int64)
        .alias("u_rating"),
        pl.when(rated | initial).then(pl.col("games")).otherwise(0).cast(pl.Int64).alias("u_games"),
        pl.when(initial).then(pl.col("games")).when(rated).then(0).cast(pl.Int64).alias("u_base"),
        pl.when(initial).then(pl.lit(False)).alias("u_ever"),
        (rated | initial).alias("u_settled"),
    )


def _k_next(lst: str, period: str) -> tuple[pl.DataFrame, pl.Expr]:
    """The rule set of the period after `period` and the K expression over the columns
    r (rating), c (career games), e (ever 2400), b (birth year), k0 (the list's K)."""
    nxt = shift(period, 1)
    rules = ruleset_frame([ruleset_for(first_day(nxt), lst)])
    year = first_day(nxt).year
    rating, career, ever = pl.col("_r"), pl.col("_c"), pl.col("_e")
    derived = derive_k_expr(
        rating=rating,
        career_games=career,
        birth_year=pl.col("_b"),
        period_year=pl.lit(year, dtype=pl.Int64()),
        ever_2400=ever,
        given_k=pl.lit(None, dtype=pl.Int64()),
    )
    top = ever.fill_null(False) | (rating >= pl.col("rs_k_top_from")).fill_null(False)
    flat = pl.col("rs_k_flat")
    carried = (
        pl.when(flat.is_not_null())
        .then(flat)
        .when(top)
        .then(pl.col("rs_k_top"))
        .otherwise(pl.coalesce("_k0", derived))
    )
    k = (
        pl.when(rating.is_null())
        .then(pl.lit(None, dtype=pl.Int64()))
        .when(career.is_not_null())
        .then(derived)
        .otherwise(carried)
        .cast(pl.Int64)
    )
    return rules, k


def next_list(base: pl.DataFrame | None, ratings: pl.DataFrame, period: str) -> pl.DataFrame:
    """The list after `period` (module docstring). `ratings` is the rate stage's frame
    (with player_key, title, birth_year and below_floor); rows of players rated nowhere
    in it are carried as they are, with 0 games."""
    frame = as_list(base).with_columns(list_key_expr(as_list(base)).alias(LIST_KEY))
    for lst in LISTS:
        updates = _updates(ratings, lst)
        rating, games, k = LIST_RATING[lst], LIST_GAMES[lst], LIST_K[lst]
        career, ever = LIST_CAREER[lst], LIST_EVER[lst]
        frame = frame.join(updates, on=LIST_KEY, how="full", coalesce=True)
        settled = pl.col("u_settled").fill_null(False)
        new_rating = pl.when(settled).then(pl.col("u_rating")).otherwise(pl.col(rating))
        frame = frame.with_columns(
            pl.coalesce("fideid", "u_fideid").alias("fideid"),
            pl.coalesce("name", "u_name").alias("name"),
            pl.coalesce("country", "u_country").alias("country"),
            pl.coalesce("title", "u_title").alias("title"),
            pl.coalesce("birthday", "u_birthday").alias("birthday"),
            new_rating.alias("_r"),
            pl.when(settled)
            .then(pl.col("u_games"))
            .when(pl.col(rating).is_not_null())
            .then(0)
            .alias(games),
            pl.when(settled & pl.col("u_base").eq(0))
            .then(pl.col(career) + pl.col("u_games"))
            .when(settled)
            .then(pl.col("u_base"))
            .otherwise(pl.col(career))
            .alias("_c"),
            pl.when(new_rating >= 2400)
            .then(pl.lit(True))
            .otherwise(pl.coalesce("u_ever", ever))
            .alias("_e"),
            pl.col("birthday").alias("_b"),
            pl.col(k).alias("_k0"),
        )
        rules, k_expr = _k_next(lst, period)
        frame = (
            frame.join(rules, how="cross")
            .with_columns(
                pl.col("_r").alias(rating),
                pl.col("_c").alias(career),
                pl.col("_e").alias(ever),
                k_expr.alias(k),
            )
            .select(*COLUMNS, LIST_KEY)
        )
    return frame.select(COLUMNS).sort(
        pl.col("fideid"), pl.col("name"), pl.col("country"), nulls_last=True
    )


def refresh_k(frame: pl.DataFrame, period: str) -> pl.DataFrame:
    """K for `period` of the players whose career games are known, under that period's
    rules (for a chain that skips months without events: the junior year may have ended
    meanwhile)."""
    out = frame
    for lst in LISTS:
        rules, k_expr = _k_next(lst, shift(period, -1))
        out = (
            out.with_columns(
                pl.col(LIST_RATING[lst]).alias("_r"),
                pl.col(LIST_CAREER[lst]).alias("_c"),
                pl.col(LIST_EVER[lst]).alias("_e"),
                pl.col("birthday").alias("_b"),
                pl.col(LIST_K[lst]).alias("_k0"),
            )
            .join(rules, how="cross")
            .with_columns(
                pl.when(pl.col("_c").is_not_null())
                .then(k_expr)
                .otherwise(pl.col(LIST_K[lst]))
                .alias(LIST_K[lst])
            )
            .select(frame.columns)
        )
    return out


__all__ = ["COLUMNS", "as_list", "empty_list", "next_list", "refresh_k"]
