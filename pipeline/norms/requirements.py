"""The requirements of B.01 as polars expressions over the norm checks' per-norm rows
(`pipeline.norms.checks`): one struct per rule, each giving its `counted`,
`required`, `ok` (null: cannot tell), `missing` (a key of `titles.SUPPLY`) and `note`
for every player, event and norm at once. The table of rules is in checks' docstring."""

from __future__ import annotations

from typing import Final

import polars as pl

from pipeline.norms.titles import NormOptions
from pipeline.rules.tables import DP_BY_P

CHECK_FIELDS: Final = (
    "rule", "article", "counted", "required", "comparison", "ok", "missing", "note",
)  # fmt: skip
RULES: Final = (
    "standard", "time-control", "rounds-per-day", "ratings-date", "games", "title-holders",
    "target-titles", "drr-players", "other-federations", "own-federation", "one-federation",
    "floor", "average-rating", "performance", "minimum-score", "sex",
)  # fmt: skip
GE: Final = ">="
LE: Final = "<="
REACH: Final = 50  # "within reach": Rp at most this far below the norm's (issue 22)
# the smallest whole percentage whose dp (table 8.1.1) is at least `need`, for every
# need from -800 to 800 (a need above 800 cannot be met)
_NEEDS: Final = list(range(-800, 801))
_P_FOR_NEED: Final = [next(p for p, dp in enumerate(DP_BY_P) if dp >= need) for need in _NEEDS]
_NONE_S: Final = pl.lit(None, dtype=pl.String)
_NONE_B: Final = pl.lit(None, dtype=pl.Boolean)


def _row(
    rule: str,
    article: str | pl.Expr,
    counted: pl.Expr,
    required: pl.Expr,
    comparison: str,
    ok: pl.Expr,
    missing: pl.Expr = _NONE_S,
    note: pl.Expr = _NONE_S,
    when: pl.Expr | None = None,
) -> pl.Expr:
    """One rule's check as a struct of `CHECK_FIELDS` (null where the rule does not
    apply: `when` false)."""
    check = pl.struct(
        pl.lit(rule).alias("rule"),
        (pl.lit(article) if isinstance(article, str) else article).alias("article"),
        counted.cast(pl.Float64).alias("counted"),
        required.cast(pl.Float64).alias("required"),
        pl.lit(comparison).alias("comparison"),
        ok.cast(pl.Boolean).alias("ok"),
        pl.when(ok.is_null()).then(missing).alias("missing"),
        note.cast(pl.String).alias("note"),
    )
    return check if when is None else pl.when(when).then(check)


def _unknowns(held: pl.Expr, unknown: pl.Expr, key: str) -> tuple[pl.Expr, pl.Expr]:
    """ok and missing of a check that holds (`held`), else cannot tell when `unknown`."""
    ok = pl.when(held).then(True).when(unknown).then(_NONE_B).otherwise(False)
    return ok, pl.when(unknown).then(pl.lit(key))


def _eight() -> pl.Expr:
    """1.4.1c: 9 rounds, 8 games counted and one forfeit win or pairing-allocated bye."""
    col = pl.col
    return (
        (col("rounds") == 9)
        & (col("games") == 8)
        & (col("excluded") == 0)
        & (col("_aside") == 1)
        & (col("_rows") == 9)
    ).fill_null(False)


def _n_eff(o: NormOptions) -> pl.Expr:
    """The games the thresholds are taken on (Q6: 8 or 9 in the 1.4.1c case)."""
    return pl.when(_eight() & pl.lit(o.eight_games == "nine")).then(9).otherwise(pl.col("games"))


def _halves_35(o: NormOptions) -> pl.Expr:
    """1.4.8b's 35 % in half points (Q3): exact S2 >= 0.7 n, or the rounded percentage
    (100 S2 + n) // (2n) >= 35."""
    n_eff = _n_eff(o)
    return (7 * n_eff + 9) // 10 if o.min_score == "exact" else (69 * n_eff + 99) // 100


def score_required_expr(o: NormOptions) -> pl.Expr:
    """The IT1's "score required", in points: the smallest half-point score s of the
    games counted with Ra + dp(p(s)) >= the norm's Rp and s >= 35 % (reference §4: not
    the percentage rounded up to a half point). Null when no score reaches it. Reads
    `ra`, `min_rp` and `games` of the per-norm rows."""
    n = pl.col("games")
    need = (pl.col("min_rp") - pl.col("ra")).clip(lower_bound=-800)
    p = need.replace_strict(_NEEDS, _P_FOR_NEED, default=None, return_dtype=pl.Int64)
    # p(s) = (100 S2 + n) // (2n) >= p  <=>  S2 >= ((2p - 1) n) / 100, rounded up
    halves = (((2 * p - 1) * n + 99) // 100).clip(lower_bound=0)
    halves = pl.max_horizontal(halves, _halves_35(o))
    return pl.when((n > 0) & p.is_not_null() & (halves <= 2 * n)).then(halves / 2)


def check_columns(o: NormOptions) -> list[tuple[str, pl.Expr]]:
    """Per norm row (`checks._per_norm`'s frame), each rule's name and check, in the
    rules' order: a struct of `CHECK_FIELDS`, null where the rule does not apply
    (drr-players outside a double round-robin, sex for GM and IM)."""
    col = pl.col
    n, kind, fed = col("games"), col("event_type"), col("fed")
    eight = _eight()
    n_eff = _n_eff(o)
    drr = (kind == "double-round-robin").fill_null(False)
    known_type = kind.is_not_null()

    # 1.4.1: the games, their exceptions
    team = ((kind == "team-championship") & col("rounds").is_between(7, 9)).fill_null(False)
    cup = (kind == "world-cup").fill_null(False)
    need = pl.when(team).then(7).when(cup).then(8).when(eight).then(8).otherwise(9)
    games_article = (
        pl.when(team | cup).then(pl.lit("1.4.1b")).when(eight).then(pl.lit("1.4.1c"))
        .otherwise(pl.lit("1.4.1a"))
    )  # fmt: skip
    games_ok, games_missing = _unknowns(n >= need, ~known_type & n.is_in([7, 8]), "event-type")
    games_note = pl.concat_str(
        pl.when(col("excluded") > 0).then(
            pl.format(
                "{} game(s) against an unrated opponent who scored 0 against the "
                "rated players not counted (1.4.2b)",
                col("excluded"),
            )
        ),
        pl.when(eight).then(
            pl.lit("9 rounds, 8 games and a forfeit win or pairing-allocated bye (1.4.1c)")
        ),
        separator="; ",
        ignore_nulls=True,
    )

    # 1.4.5: titles
    holders_need = (n_eff + 1) // 2
    unknown_titles = ~col("_titles_known")
    h_ok, h_missing = _unknowns(col("_holders") >= holders_need, unknown_titles,
                                "opponent-titles")  # fmt: skip
    third = pl.max_horizontal(pl.lit(3), (n_eff + 2) // 3)
    target_need = (
        pl.when(drr & pl.lit(o.drr_target == "half")).then((n_eff + 1) // 2).otherwise(third)
    )
    t_ok, t_missing = _unknowns(col("_target") >= target_need, unknown_titles,
                                "opponent-titles")  # fmt: skip

    # 1.4.3, 1.4.4: federations and their exemptions
    host_is_own = (fed == col("host")).fill_null(False)
    swiss_or_unknown = (kind == "swiss").fill_null(True)
    d_holds = (
        (col("d_foreign_rated") >= 20) & (col("d_federations") >= 3) & (col("d_titled") >= 10)
    ).fill_null(False)
    exemption = (
        pl.when(kind == "zonal").then(pl.lit("1.4.3c"))
        .when((kind == "national-championship") & host_is_own).then(pl.lit("1.4.3a"))
        .when((kind == "national-team-championship") & host_is_own).then(pl.lit("1.4.3b"))
        .when(swiss_or_unknown & d_holds).then(pl.lit("1.4.3d"))
    )  # fmt: skip
    d_unknown = swiss_or_unknown & col("host").is_null()
    unknown_feds = col("_fed_unknown") > 0

    def federation(
        held: pl.Expr, possible: pl.Expr, needs_own: bool
    ) -> tuple[pl.Expr, pl.Expr, pl.Expr]:
        """ok, missing, note of a federation rule: `held` for sure, `possible` when the
        unknown federations could make it hold."""
        no_own = fed.is_null() & pl.lit(needs_own)
        raw_ok = (
            pl.when(no_own).then(_NONE_B).when(held).then(True)
            .when(possible & unknown_feds).then(_NONE_B).otherwise(False)
        )  # fmt: skip
        raw_missing = (
            pl.when(no_own).then(pl.lit("federation")).otherwise(pl.lit("opponent-federations"))
        )
        sure = raw_ok.fill_null(False)
        ok = (
            pl.when(sure | exemption.is_not_null()).then(True)
            .when(no_own | ~known_type | d_unknown).then(_NONE_B)
            .otherwise(raw_ok)
        )  # fmt: skip
        missing = (
            pl.when(no_own).then(pl.lit("federation"))
            .when(~known_type).then(pl.lit("event-type"))
            .when(d_unknown).then(pl.lit("host"))
            .otherwise(raw_missing)
        )  # fmt: skip
        note = pl.when(~sure & exemption.is_not_null()).then(
            pl.format("exempt under {}", exemption)
        )
        return ok, missing, note

    unknown = col("_fed_unknown")
    others_ok = federation(col("_others") >= 2, col("_others") + unknown >= 2, True)
    own_need = (3 * n_eff) // 5
    own_ok = federation(col("_own") + unknown <= own_need, col("_own") <= own_need, True)
    one_need = (2 * n_eff) // 3
    one_ok = federation(col("_top") + unknown <= one_need, col("_top") <= one_need, False)

    halves_need = _halves_35(o)
    # 1.1: event conditions
    days = col("days")
    long_ok = (
        pl.when(days <= 30).then(True).when(days.is_null()).then(_NONE_B)
        .otherwise(pl.lit(True if o.long_events == "start-list" else None, dtype=pl.Boolean))
    )  # fmt: skip
    long_missing = pl.when(days.is_null()).then(pl.lit("dates")).otherwise(pl.lit("long-event"))
    is_standard = col("list") == "standard"
    women = col("title").is_in(["WGM", "WIM"])

    rules = [
        _row("standard", "0.5", is_standard.cast(pl.Int64), pl.lit(1), GE,
             is_standard, pl.lit("list"), col("list")),
        _row("time-control", "1.1.3", col("minutes_60"), pl.lit(120), GE,
             col("minutes_60") >= 120, pl.lit("time-control")),
        _row("rounds-per-day", "1.1.3", (col("rounds") + days - 1) // days,
             pl.lit(2), LE, (col("rounds") + days - 1) // days <= 2, pl.lit("dates"),
             pl.lit("rounds / days, rounded up: the file has no daily schedule")),
        _row("ratings-date", "1.1.4", days, pl.lit(30), LE, long_ok, long_missing,
             pl.when(days > 30).then(pl.lit("over 30 days: the list at the start used"))),
        _row("games", games_article, n, need, GE, games_ok, games_missing,
             pl.when(games_note != "").then(games_note)),
        _row("title-holders", "1.4.5a", col("_holders"), holders_need, GE, h_ok,
             h_missing),
        _row("target-titles", "1.4.5b-e", col("_target"), target_need, GE, t_ok,
             t_missing),
        _row("drr-players", "1.4.5", col("players"), pl.lit(6), GE,
             col("players") >= 6, when=drr),
        _row("other-federations", "1.4.3", col("_others"), pl.lit(2), GE, *others_ok),
        _row("own-federation", "1.4.4", col("_own"), own_need, LE, *own_ok),
        _row("one-federation", "1.4.4", col("_top"), one_need, LE, *one_ok),
        _row("floor", "1.4.6b-c", col("_min"), col("floor"), "floor", pl.lit(True),
             note=pl.when(col("floor_applied")).then(
                 pl.format("one game raised from {} to {}", col("_min"), col("floor")))),
        _row("average-rating", "1.4.8", col("ra"), col("min_ra"), GE,
             (col("ra") >= col("min_ra")).fill_null(False)),
        _row("performance", "1.4.8", col("rp"), col("min_rp"), GE,
             (col("rp") >= col("min_rp")).fill_null(False)),
        _row("minimum-score", "1.4.8b", col("score"), halves_need / 2, GE,
             (n > 0) & (col("_s2") >= halves_need)),
        _row("sex", "0.5", (col("sex") == "w").cast(pl.Int64), pl.lit(1), GE,
             col("sex") == "w", pl.lit("sex"), when=women),
    ]  # fmt: skip
    return [(RULES[i], rule) for i, rule in enumerate(rules)]


__all__ = ["CHECK_FIELDS", "GE", "LE", "REACH", "RULES", "check_columns", "score_required_expr"]
