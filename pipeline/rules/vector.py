"""FIDE's rating rules as polars expressions: the batch path used by `pipeline.rate`.

Same rules and same whole-number arithmetic as `pipeline.rules.fide` (tested equal on
random inputs): ratings, D and K are Int64, PD / scores / ΔR / K x ΣΔR are Int64
hundredths. No Python per-row functions: table lookups are `gather`s from literal series.

A rule set is joined onto the games as columns (`ruleset_columns` / `ruleset_frame`,
prefix ``rs_``); the expressions take those columns so one frame may mix eras and lists.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields

import polars as pl

from pipeline.rules.ruleset import RuleSet
from pipeline.rules.tables import DP_BY_P, PD_HIGH_BY_ABS_D, PD_TABLE_MAX_D

PREFIX = "rs_"

_PD_HIGH = pl.Series("pd_high", PD_HIGH_BY_ABS_D, dtype=pl.Int64)
_DP = pl.Series("dp", DP_BY_P, dtype=pl.Int64)
_ORDER_SHIFT = 1 << 20  # rounds are < 2**20: packs (d, -round) into one sortable key

RULESET_SCHEMA: dict[str, pl.DataType] = {
    "name": pl.String(),
    "list": pl.String(),
    "valid_from": pl.Date(),
    "valid_to": pl.Date(),
    "cap": pl.Int64(),
    "cap_mode": pl.String(),
    "cap_exempt_from": pl.Int64(),
    "k_new": pl.Int64(),
    "k_junior": pl.Int64(),
    "k_default": pl.Int64(),
    "k_top": pl.Int64(),
    "k_flat": pl.Int64(),
    "rule_700": pl.Boolean(),
    "rule_600": pl.Boolean(),
    "floor": pl.Int64(),
    "initial_method": pl.String(),
    "initial_min_games": pl.Int64(),
    "initial_max": pl.Int64(),
    "k_top_from": pl.Int64(),
    "junior_below": pl.Int64(),
    "junior_max_age": pl.Int64(),
    "new_player_games": pl.Int64(),
    "rule_600_above": pl.Int64(),
    "rule_600_difference": pl.Int64(),
}


def ruleset_columns(rs: RuleSet) -> dict[str, object]:
    """The rule set as one row of columns named ``rs_<field>``, for joining onto games."""
    return {PREFIX + f.name: getattr(rs, f.name) for f in fields(rs)}


def ruleset_frame(rulesets: Sequence[RuleSet]) -> pl.DataFrame:
    """One row per rule set, typed by `RULESET_SCHEMA` (null fields keep their dtype)."""
    schema = {PREFIX + name: dtype for name, dtype in RULESET_SCHEMA.items()}
    return pl.DataFrame([ruleset_columns(rs) for rs in rulesets], schema=schema, orient="row")


def _col(name: str) -> pl.Expr:
    return pl.col(PREFIX + name)


def expected_expr(d_used: pl.Expr) -> pl.Expr:
    """PD in Int64 hundredths from table 8.1.2 (H for D >= 0, L = 100 - H for D < 0)."""
    d = d_used.cast(pl.Int64)
    high = pl.lit(_PD_HIGH).gather(d.abs().clip(upper_bound=PD_TABLE_MAX_D + 1))
    return pl.when(d >= 0).then(high).otherwise(100 - high).cast(pl.Int64)


def difference_used_expr(
    d: pl.Expr,
    rating: pl.Expr,
    cap: pl.Expr,
    cap_mode: pl.Expr,
    cap_exempt_from: pl.Expr,
    over: list[str],
    order_by: str,
    once_per_event: bool = True,
) -> pl.Expr:
    """D after the cap, per row's cap mode (see `pipeline.rules.ruleset`).

    `d` = rating - opponent_rating and must be null for games that are not rated (the
    once-per-event choice looks only at rated games); `cap` null means no cap; `over`
    names the columns identifying (event, player); `order_by` is the round (an integer
    column, unique per event and player), used for ties in once-per-event.
    `once_per_event` False promises that no row's cap mode is once-per-event: the
    window over (event, player) that mode needs is then left out of the expression.
    """
    d = d.cast(pl.Int64)
    clamped = d.clip(-cap, cap)
    below = (
        pl.when(cap_exempt_from.is_not_null() & (rating >= cap_exempt_from))
        .then(d)
        .otherwise(clamped)
    )
    capped = pl.when(cap.is_null()).then(d).when(cap_mode == "below-2650").then(below)
    if once_per_event:
        candidate = (cap_mode == "once-per-event") & (d > cap)
        key = pl.when(candidate).then(d * _ORDER_SHIFT - pl.col(order_by).cast(pl.Int64))
        capped_here = candidate & (key == key.max().over(over))
        once = pl.when(capped_here).then(cap).when(d > cap).then(d).otherwise(clamped)
        capped = capped.when(cap_mode == "once-per-event").then(once)
    return capped.otherwise(clamped).cast(pl.Int64)


def rule_600_expr(
    rating: pl.Expr,
    opponent_rating: pl.Expr,
    applies: pl.Expr,
    *,
    above: int = 2600,
    difference: int = 600,
) -> pl.Expr:
    """True where the 600-point rule makes the game not rated (null ratings -> False)."""
    hit = (
        applies
        & (pl.max_horizontal(rating, opponent_rating) > above)
        & ((rating - opponent_rating).abs() >= difference)
    )
    return hit.fill_null(False)


def k_after_700_expr(k: pl.Expr, n: pl.Expr) -> pl.Expr:
    """The 700 rule: K = floor(700 / n) where K x n > 700."""
    k = k.cast(pl.Int64)
    n = n.cast(pl.Int64)
    return pl.when((n > 0) & (k * n > 700)).then(700 // n).otherwise(k).cast(pl.Int64)


def round_half_away_expr(hundredths: pl.Expr) -> pl.Expr:
    """Whole points from Int64 hundredths, 0.5 away from zero."""
    h = hundredths.cast(pl.Int64)
    whole = (h.abs() + 50) // 100
    return pl.when(h >= 0).then(whole).otherwise(-whole).cast(pl.Int64)


def derive_k_expr(
    *,
    rating: pl.Expr,
    career_games: pl.Expr,
    birth_year: pl.Expr,
    period_year: pl.Expr,
    ever_2400: pl.Expr,
    given_k: pl.Expr,
    rules: RuleSet | None = None,
) -> pl.Expr:
    """K as `fide.derive_k`, reading the rule set from the ``rs_`` columns (or, given
    `rules`, from that one rule set as literals: no column per rule is needed).

    Nulls: `given_k` null = derive; `career_games` null = established; `birth_year` null
    = not a junior; `rating` null = unrated (below every threshold).
    """

    def rule(name: str) -> pl.Expr:
        if rules is None:
            return _col(name)
        return pl.lit(getattr(rules, name), dtype=RULESET_SCHEMA[name])

    top = ever_2400.fill_null(False) | (rating >= rule("k_top_from")).fill_null(False)
    junior = (
        rule("k_junior").is_not_null()
        & (period_year - birth_year <= rule("junior_max_age"))
        & (rating.is_null() | (rating < rule("junior_below")))
    ).fill_null(False)
    new = (career_games < rule("new_player_games")).fill_null(False)
    return (
        pl.when(given_k.is_not_null())
        .then(given_k)
        .when(rule("k_flat").is_not_null())
        .then(rule("k_flat"))
        .when(top)
        .then(rule("k_top"))
        .when(junior)
        .then(rule("k_junior"))
        .when(new)
        .then(rule("k_new"))
        .otherwise(rule("k_default"))
        .cast(pl.Int64)
    )


def _round_ratio(num: pl.Expr, den: pl.Expr) -> pl.Expr:
    """num / den (den > 0) rounded to a whole number, 0.5 away from zero."""
    whole = (2 * num.abs() + den) // (2 * den)
    return pl.when(num >= 0).then(whole).otherwise(-whole)


def initial_rating_expr(
    opponent_sum: pl.Expr,
    n: pl.Expr,
    score_hundredths: pl.Expr,
) -> pl.Expr:
    """Ru as `fide.initial_rating(...).value`: Int64, null with fewer than the minimum
    games. Reads ``rs_initial_method``, ``rs_initial_min_games`` and ``rs_initial_max``;
    publish where the value is >= ``rs_floor``."""
    s = opponent_sum.cast(pl.Int64)
    n = n.cast(pl.Int64)
    w = score_hundredths.cast(pl.Int64)
    # 2024: two hypothetical 1800 opponents, a draw against each.
    n2 = n + 2
    p_2024 = (2 * (w + 100) + n2) // (2 * n2)
    dp_2024 = pl.lit(_DP).gather(p_2024.clip(0, 100))
    ru_2024 = pl.min_horizontal(_round_ratio(s + 2 * 1800 + dp_2024 * n2, n2), _col("initial_max"))
    # 2022: rated opponents only; +20 per half point over 50 %, else dp of table 8.1.1.
    safe_n = pl.when(n > 0).then(n).otherwise(1)
    p_2022 = (2 * w + safe_n) // (2 * safe_n)
    halves_over = (2 * w - 100 * n) // 100
    dp_2022 = (
        pl.when(halves_over >= 0)
        .then(20 * halves_over)
        .otherwise(pl.lit(_DP).gather(p_2022.clip(0, 100)))
    )
    ru_2022 = _round_ratio(s + dp_2022 * safe_n, safe_n)
    return (
        pl.when(n < _col("initial_min_games"))
        .then(None)
        .when(_col("initial_method") == "2024")
        .then(ru_2024)
        .otherwise(ru_2022)
        .cast(pl.Int64)
    )


def rate_games_frame(
    games: pl.LazyFrame, *, event: str = "event", player: str = "player", round_: str = "round"
) -> pl.LazyFrame:
    """Add ``difference``, ``difference_used``, ``expected``, ``rule_600``, ``rated`` and
    ``delta`` to one row per player per game.

    Input columns: `event`, `player`, `round_`, ``rating`` (Int64), ``opponent_rating``
    (Int64, null = unrated opponent), ``score`` (Int64 hundredths) and the ``rs_``
    columns. Only games the caller has already found playable belong here (forfeits and
    byes are the classification stage's business).
    """
    rating = pl.col("rating")
    opponent = pl.col("opponent_rating")
    return (
        games.with_columns(
            rule_600=rule_600_expr(rating, opponent, _col("rule_600")),
            difference=(rating - opponent).cast(pl.Int64),
        )
        .with_columns(
            difference_used=difference_used_expr(
                pl.col("difference"),
                rating,
                _col("cap"),
                _col("cap_mode"),
                _col("cap_exempt_from"),
                over=[event, player],
                order_by=round_,
            )
        )
        .with_columns(expected=expected_expr(pl.col("difference_used")))
        .with_columns(rated=opponent.is_not_null() & ~pl.col("rule_600"))
        .with_columns(delta=pl.when(pl.col("rated")).then(pl.col("score") - pl.col("expected")))
    )


def player_totals_frame(rated_games: pl.LazyFrame, *, player: str = "player") -> pl.LazyFrame:
    """Per player (the output of `rate_games_frame` plus an Int64 ``k`` column, one
    rating and K per player): ``n``, ``score``, ``expected``, ``sum_delta`` (hundredths),
    ``k`` after the 700 rule, ``change_hundredths``, ``change``, ``rating_after``."""
    rated = pl.col("rated")
    totals = rated_games.group_by(player).agg(
        rating=pl.col("rating").first(),
        k_given=pl.col("k").first(),
        rule_700=_col("rule_700").first(),
        n=rated.sum().cast(pl.Int64),
        score=pl.col("score").filter(rated).sum().cast(pl.Int64),
        expected=pl.col("expected").filter(rated).sum().cast(pl.Int64),
        sum_delta=pl.col("delta").sum().cast(pl.Int64),
    )
    return (
        totals.with_columns(
            k=pl.when(pl.col("rule_700"))
            .then(k_after_700_expr(pl.col("k_given"), pl.col("n")))
            .otherwise(pl.col("k_given"))
        )
        .with_columns(change_hundredths=pl.col("k") * pl.col("sum_delta"))
        .with_columns(change=round_half_away_expr(pl.col("change_hundredths")))
        .with_columns(rating_after=pl.col("rating") + pl.col("change"))
        .drop("rule_700")
    )
