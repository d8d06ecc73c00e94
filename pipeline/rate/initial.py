"""Initial ratings of the period's unrated players (fide-rules.md §6), vectorized.

An unrated player's games against rated opponents (reason ``player-unrated``) are pooled
over the period's events and the earlier periods' games still in the pool (`prior`, from
`pipeline.period.pending`: at most 26 months); the player's first event with such games
is disregarded when the score in it is zero (§6: "a zero score in the player's first
event is disregarded"; "first" is the first one known: of the pool, else of the
period). Ru comes from `pipeline.rules.vector.initial_rating_expr` with the period's rule
set of the list; it is published when it is at least the rule set's floor.

The details shown beside Ru (Ra and p to two decimals, dp) follow the same arithmetic as
`pipeline.rules.fide.initial_rating` and are tested equal to it.
"""

from __future__ import annotations

import polars as pl

from pipeline.rate import columns as c
from pipeline.rate.classify import REASONS
from pipeline.rules.tables import DP_BY_P
from pipeline.rules.vector import initial_rating_expr
from schemas.columns import E

_DP = pl.Series("dp", DP_BY_P, dtype=pl.Int64)
HYPOTHETICAL = 1800  # the two hypothetical opponents of the 2024 method


def _half_away(num: pl.Expr, den: pl.Expr) -> pl.Expr:
    """num / den (den > 0) to a whole number, 0.5 away from zero."""
    whole = (2 * num.abs() + den) // (2 * den)
    return pl.when(num >= 0).then(whole).otherwise(-whole)


def initial_ratings(
    games: pl.LazyFrame, period_rules: pl.DataFrame, prior: pl.DataFrame | None = None
) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """Ru per (player_key, list) and the events disregarded for a zero score.

    `games` is `classify_games`' frame (the reason by its number, `_reason`);
    `period_rules` has one row per list with the ``rs_`` columns of the rule set used
    for K and initial ratings. Returns two lazy
    frames (per player: player_key, list, initial_games, initial_score_h, opponent_sum,
    initial_value, initial_published, ra, p, dp; disregarded: player_key, list,
    event_id, and the player's `c.PID` and `event_order` for an event of the period,
    null for one of `prior`). `prior` has the columns player_key, list, event_id, event_order
    (below every event of the period), score_h and opponent_ro.
    """
    columns = [c.KEY, E.LIST, E.ID, c.EV_ORDER, c.SCORE_H, c.OPP_RO]
    unrated = pl.col("_reason") == REASONS.index("player-unrated")
    rows = games.filter(unrated).select(*columns, c.PID)
    if prior is not None and prior.height:
        earlier = prior.lazy().select(columns).with_columns(pl.lit(None, pl.Int64()).alias(c.PID))
        rows = pl.concat([earlier, rows], how="vertical_relaxed")
    per_event = (
        rows.group_by(c.KEY, E.LIST, E.ID)
        .agg(
            pl.len().alias("n"),
            pl.col(c.SCORE_H).sum().alias("w"),
            pl.col(c.OPP_RO).sum().alias("s"),
            pl.col(c.EV_ORDER).first(),
            pl.col(c.PID).first(),
        )
        .with_columns(
            first=pl.col(c.EV_ORDER) == pl.col(c.EV_ORDER).min().over(c.KEY, E.LIST),
        )
    )
    disregard = pl.col("first") & (pl.col("w") == 0)
    dropped = per_event.filter(disregard).select(
        c.KEY,
        E.LIST,
        E.ID,
        pl.when(pl.col(c.PID).is_not_null()).then(pl.col(c.EV_ORDER)).alias(c.EV_ORDER),
        c.PID,
    )
    pooled = (
        per_event.filter(~disregard)
        .group_by(c.KEY, E.LIST)
        .agg(
            pl.col("n").sum().cast(pl.Int64).alias(c.N_INITIAL),
            pl.col("w").sum().alias(c.SCORE_INITIAL),
            pl.col("s").sum().alias(c.OPP_SUM),
        )
        .join(period_rules.lazy(), on=E.LIST, how="left")
    )
    n = pl.col(c.N_INITIAL)
    w = pl.col(c.SCORE_INITIAL)
    s = pl.col(c.OPP_SUM)
    is_2024 = pl.col("rs_initial_method") == "2024"
    enough = n >= pl.col("rs_initial_min_games")
    # Ra and p to two decimals (hundredths, half away), p exact in hundredths as FIDE's.
    n_ra = pl.when(is_2024).then(n + 2).otherwise(n)
    s_ra = pl.when(is_2024).then(s + 2 * HYPOTHETICAL).otherwise(s)
    w_p = pl.when(is_2024).then(w + 100).otherwise(w)
    p_h = _half_away(w_p, n_ra)
    halves_over = (2 * w - 100 * n) // 100
    dp = (
        pl.when(~is_2024 & (halves_over >= 0))
        .then(20 * halves_over)
        .otherwise(pl.lit(_DP).gather(p_h.clip(0, 100)))
    )
    value = initial_rating_expr(s, n, w)
    pooled = pooled.with_columns(
        value.alias("initial_value"),
        (value >= pl.col("rs_floor")).fill_null(False).alias("initial_published"),
        pl.when(enough).then((_half_away(100 * s_ra, n_ra) / 100).round(2)).alias("ra"),
        pl.when(enough).then((p_h / 100).round(2)).alias("p"),
        pl.when(enough).then(dp).alias("dp"),
    )
    keep = [c.KEY, E.LIST, c.N_INITIAL, c.SCORE_INITIAL, c.OPP_SUM, "initial_value"]
    return pooled.select(*keep, "initial_published", "ra", "p", "dp"), dropped
