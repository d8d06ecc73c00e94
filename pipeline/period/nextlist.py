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

Every player of the base list is kept, in the list's order; players new to the list
(rated from their file's rating, or newly published) follow, identified by FIDE ID, else
by name and federation, in the order of the ratings frame (list, name).
"""

from __future__ import annotations

import polars as pl

from pipeline.period.calendar import first_day, shift
from pipeline.rate import columns as c
from pipeline.rate.lists import list_key_expr
from pipeline.rules.ruleset import LISTS, ruleset_for
from pipeline.rules.vector import derive_k_expr
from schemas.registry import Registry

COLUMNS: tuple[str, ...] = tuple(Registry.to_schema().columns)
_INT = {
    *c.LIST_RATING.values(),
    *c.LIST_GAMES.values(),
    *c.LIST_K.values(),
    *c.LIST_CAREER.values(),
    "fideid",
    "birthday",
}
_FLAGS = set(c.LIST_EVER.values())
DTYPES: dict[str, pl.DataType] = {
    name: pl.Int64() if name in _INT else pl.Boolean() if name in _FLAGS else pl.String()
    for name in COLUMNS
}


def empty_list() -> pl.DataFrame:
    return pl.DataFrame(schema=DTYPES)


def as_list(frame: pl.DataFrame | None) -> pl.DataFrame:
    """A registry frame with every column of the schema, in order."""
    if frame is None:
        return empty_list()
    return frame.select(
        pl.col(name).cast(DTYPES[name])
        if name in frame.columns
        else pl.lit(None, DTYPES[name]).alias(name)
        for name in COLUMNS
    )


_IDENTITY = ("u_fideid", "u_name", "u_country", "u_title", "u_birthday")


def _updates(ratings: pl.DataFrame) -> pl.DataFrame:
    """One row per player rated in the period: the new values of each list (``u_<field>_
    <list>``; `u_settled_<list>` is false or null where the list is left as it was)."""
    rated = pl.col("status").is_in(["rated", "no-rated-games"])
    initial = pl.col("status") == "initial"
    below = pl.col("below_floor").fill_null(False)
    per_list = []
    for lst in LISTS:
        rows = ratings.filter(pl.col("list") == lst)
        per_list.append(
            rows.select(
                pl.col("player_key").alias(c.LIST_KEY),
                pl.col("fide_id").cast(pl.Int64).alias("u_fideid"),
                pl.col("name").alias("u_name"),
                pl.col("federation").alias("u_country"),
                pl.col("title").alias("u_title"),
                pl.col("birth_year").cast(pl.Int64).alias("u_birthday"),
                pl.when((rated & ~below) | initial)
                .then(pl.col("rating_after"))
                .cast(pl.Int64)
                .alias(f"u_rating_{lst}"),
                pl.when(rated | initial)
                .then(pl.col("games"))
                .otherwise(0)
                .cast(pl.Int64)
                .alias(f"u_games_{lst}"),
                # the career count a new player starts from (null: add to the list's)
                pl.when(initial).then(pl.col("games")).cast(pl.Int64).alias(f"u_start_{lst}"),
                (rated | initial).alias(f"u_settled_{lst}"),
            )
        )
    merged = per_list[0]
    for frame in per_list[1:]:
        merged = merged.join(frame, on=c.LIST_KEY, how="full", coalesce=True, suffix="_r")
        merged = merged.with_columns(
            pl.coalesce(name, f"{name}_r").alias(name) for name in _IDENTITY
        ).drop(f"{name}_r" for name in _IDENTITY)
    return merged


def _list_columns(lst: str, period: str) -> list[pl.Expr]:
    """The list's rating, games, career games, 2400 flag and next K after the period."""
    rating, games, k = c.LIST_RATING[lst], c.LIST_GAMES[lst], c.LIST_K[lst]
    career, ever = c.LIST_CAREER[lst], c.LIST_EVER[lst]
    settled = pl.col(f"u_settled_{lst}").fill_null(False)
    new_rating = pl.when(settled).then(pl.col(f"u_rating_{lst}")).otherwise(pl.col(rating))
    new_career = (
        pl.when(settled & pl.col(f"u_start_{lst}").is_not_null())
        .then(pl.col(f"u_start_{lst}"))
        .when(settled)
        .then(pl.col(career) + pl.col(f"u_games_{lst}"))
        .otherwise(pl.col(career))
    )
    new_ever = (
        pl.when(new_rating >= 2400)
        .then(pl.lit(True))
        .when(settled & pl.col(f"u_start_{lst}").is_not_null())
        .then(pl.lit(False))
        .otherwise(pl.col(ever))
    )
    played = (
        pl.when(settled)
        .then(pl.col(f"u_games_{lst}"))
        .when(pl.col(rating).is_not_null())
        .then(pl.lit(0, dtype=pl.Int64()))
    )
    next_k = k_next_expr(
        lst,
        shift(period, 1),
        rating=new_rating,
        career=new_career,
        ever=new_ever,
        listed_k=pl.col(k),
    )
    return [
        new_rating.alias(rating),
        played.alias(games),
        new_career.alias(career),
        new_ever.alias(ever),
        next_k.alias(k),
    ]


def k_next_expr(
    lst: str, period: str, *, rating: pl.Expr, career: pl.Expr, ever: pl.Expr, listed_k: pl.Expr
) -> pl.Expr:
    """K for `period` on list `lst` (module docstring): derived where career games are
    known, else the list's K carried (10 from 2400; derived when the list has none)."""
    rules = ruleset_for(first_day(period), lst)
    derived = derive_k_expr(
        rating=rating,
        career_games=career,
        birth_year=pl.col("birthday"),
        period_year=pl.lit(first_day(period).year, dtype=pl.Int64()),
        ever_2400=ever,
        given_k=pl.lit(None, dtype=pl.Int64()),
        rules=rules,
    )
    if rules.k_flat is not None:
        carried = pl.lit(rules.k_flat, dtype=pl.Int64())
    else:
        top = ever.fill_null(False) | (rating >= rules.k_top_from).fill_null(False)
        carried = pl.when(top).then(pl.lit(rules.k_top)).otherwise(pl.coalesce(listed_k, derived))
    return (
        pl.when(rating.is_null())
        .then(pl.lit(None, dtype=pl.Int64()))
        .when(career.is_not_null())
        .then(derived)
        .otherwise(carried)
        .cast(pl.Int64)
    )


def next_list(base: pl.DataFrame | None, ratings: pl.DataFrame, period: str) -> pl.DataFrame:
    """The list after `period` (module docstring). `ratings` is the rate stage's frame
    (with player_key, title, birth_year and below_floor); rows of players rated nowhere
    in it are carried as they are, with 0 games."""
    frame = as_list(base)
    updates = _updates(ratings)
    by_id = updates.filter(pl.col("u_fideid").is_not_null())
    by_name = updates.filter(pl.col("u_fideid").is_null())
    listed_id = frame.filter(pl.col("fideid").is_not_null())
    listed_name = frame.filter(pl.col("fideid").is_null())
    joined = [
        listed_id.lazy().join(
            by_id.drop(c.LIST_KEY).lazy(), left_on="fideid", right_on="u_fideid", how="full",
            coalesce=True, maintain_order="left_right",
        ).with_columns(pl.col("fideid").alias("u_fideid")),
        listed_name.lazy()
        .with_columns(list_key_expr(listed_name).alias(c.LIST_KEY))
        .join(by_name.lazy(), on=c.LIST_KEY, how="full", coalesce=True, maintain_order="left_right")
        .drop(c.LIST_KEY),
    ]  # fmt: skip
    merged = pl.concat(joined, how="diagonal_relaxed").with_columns(
        pl.coalesce("fideid", "u_fideid").alias("fideid"),
        pl.coalesce("name", "u_name").alias("name"),
        pl.coalesce("country", "u_country").alias("country"),
        pl.coalesce("title", "u_title").alias("title"),
        pl.coalesce("birthday", "u_birthday").alias("birthday"),
    )
    merged = merged.with_columns(expr for lst in LISTS for expr in _list_columns(lst, period))
    return merged.select(pl.col(name).cast(DTYPES[name]) for name in COLUMNS).collect()


def refresh_k(frame: pl.DataFrame, period: str) -> pl.DataFrame:
    """K for `period` of the players whose career games are known, under that period's
    rules (for a chain that skips months without events: the junior year may have ended
    meanwhile)."""
    return frame.with_columns(
        pl.when(pl.col(c.LIST_CAREER[lst]).is_not_null())
        .then(
            k_next_expr(
                lst,
                period,
                rating=pl.col(c.LIST_RATING[lst]),
                career=pl.col(c.LIST_CAREER[lst]),
                ever=pl.col(c.LIST_EVER[lst]),
                listed_k=pl.col(c.LIST_K[lst]),
            )
        )
        .otherwise(pl.col(c.LIST_K[lst]))
        .alias(c.LIST_K[lst])
        for lst in LISTS
    )


__all__ = ["COLUMNS", "as_list", "empty_list", "k_next_expr", "next_list", "refresh_k"]
