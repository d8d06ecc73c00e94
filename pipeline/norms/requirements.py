"""The requirements of B.01 as polars expressions over the norm checks' per-norm rows
(`pipeline.norms.checks`): one `Check` per rule, its fields expressions giving its
`counted`, `required`, `ok` (null: cannot tell), `missing` (a key of `titles.SUPPLY`),
`note` and where it applies, for every player, event and norm at once. The table of
rules is in checks' docstring; `games_credited_expr` is 1.4.1d and 1.7's application
credit."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import polars as pl

from pipeline.norms.performance import dp_expr, half_up_mean_expr, percentage_expr
from pipeline.norms.titles import SUPPLY, NormOptions
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
# need from -800 to 800 at `need + 800`; null for a need above 800 (it cannot be met)
_P_FOR_NEED: Final = pl.Series(
    [next(p for p, dp in enumerate(DP_BY_P) if dp >= need) for need in range(-800, 801)] + [None],
    dtype=pl.Int64,
)
_NONE_S: Final = pl.lit(None, dtype=pl.String)
_NONE_B: Final = pl.lit(None, dtype=pl.Boolean)
MISSING: Final = pl.Enum(list(SUPPLY))  # a missing fact, as a key of SUPPLY
_NONE_M: Final = pl.lit(None, dtype=MISSING)
CREDIT_CAP: Final = 13  # B.01 1.7: an event of more than 13 rounds counts as 13 games
FORFEIT_NOTE: Final = (
    "last round lost by forfeit: 1.4.2c may allow the norm counting it as a played loss; "
    "judge by hand"
)


@dataclass(frozen=True)
class Check:
    """One rule's check, each field an expression over the per-norm rows (`rule` and
    `comparison` fixed): `ok` is null when the rule cannot tell (then `missing` names
    the fact, a `MISSING` key); `applies` is false where the rule has no check row."""

    rule: str
    article: pl.Expr
    counted: pl.Expr
    required: pl.Expr
    comparison: str
    ok: pl.Expr
    missing: pl.Expr
    note: pl.Expr
    applies: pl.Expr


def _row(
    rule: str,
    article: str | pl.Expr,
    counted: pl.Expr,
    required: pl.Expr,
    comparison: str,
    ok: pl.Expr,
    missing: pl.Expr = _NONE_M,
    note: pl.Expr = _NONE_S,
    when: pl.Expr | None = None,
) -> Check:
    """One rule's check (no row where `when` is false)."""
    ok = ok.cast(pl.Boolean)
    applies = pl.lit(True) if when is None else when.fill_null(False)
    return Check(
        rule=rule,
        article=pl.lit(article) if isinstance(article, str) else article,
        counted=counted.cast(pl.Float64),
        required=required.cast(pl.Float64),
        comparison=comparison,
        ok=ok if when is None else pl.when(applies).then(ok),
        missing=pl.when(ok.is_null() & applies).then(missing.cast(MISSING)),
        note=note.cast(pl.String),
        applies=applies,
    )


def _fact(key: str) -> pl.Expr:
    """A missing fact's key (of `SUPPLY`)."""
    return pl.lit(key, dtype=MISSING)


def _unknowns(held: pl.Expr, unknown: pl.Expr, key: str) -> tuple[pl.Expr, pl.Expr]:
    """ok and missing of a check that holds (`held`), else cannot tell when `unknown`."""
    ok = pl.when(held).then(True).when(unknown).then(_NONE_B).otherwise(False)
    return ok, pl.when(unknown).then(_fact(key))


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


def _halves_35(o: NormOptions, n: pl.Expr | None = None) -> pl.Expr:
    """1.4.8b's 35 % of n games (by default `_n_eff`) in half points (Q3): exact
    S2 >= 0.7 n, or the rounded percentage (100 S2 + n) // (2n) >= 35."""
    n = _n_eff(o) if n is None else n
    return (7 * n + 9) // 10 if o.min_score == "exact" else (69 * n + 99) // 100


def score_required_expr(o: NormOptions) -> pl.Expr:
    """The IT1's "score required", in points: the smallest half-point score s of the
    games counted with Ra + dp(p(s)) >= the norm's Rp and s >= 35 % (reference §4: not
    the percentage rounded up to a half point). Null when no score reaches it. Reads
    `ra`, `min_rp` and `games` of the per-norm rows."""
    n = pl.col("games")
    need = (pl.col("min_rp") - pl.col("ra")).clip(lower_bound=-800, upper_bound=801)
    p = pl.lit(_P_FOR_NEED).gather(need + 800)
    # p(s) = (100 S2 + n) // (2n) >= p  <=>  S2 >= ((2p - 1) n) / 100, rounded up
    halves = (((2 * p - 1) * n + 99) // 100).clip(lower_bound=0)
    halves = pl.max_horizontal(halves, _halves_35(o))
    return pl.when((n > 0) & p.is_not_null() & (halves <= 2 * n)).then(halves / 2)


def games_credited_expr() -> pl.Expr:
    """The games a norm counts toward a title application's 27 (1.5.1): the games
    counted (9 for a World Cup norm of 8 games, 1.4.1b, and in the 1.4.1c case), plus
    one per full point scored above `score_required` (1.4.1d), the whole capped at 13
    (1.7). Reads the per-norm rows; null where `score_required` is."""
    col = pl.col
    n = col("games")
    cup = (col("event_type") == "world-cup").fill_null(False) & (n == 8)
    base = pl.when(cup | _eight()).then(9).otherwise(n)
    over = (col("_s2") - (2 * col("score_required")).cast(pl.Int64)).clip(lower_bound=0) // 2
    return (base + over).clip(upper_bound=CREDIT_CAP).cast(pl.Int64)


def _forfeit_note(o: NormOptions) -> pl.Expr:
    """1.4.2c: the player's game of the last round lost by forfeit (`_last_forfeit`):
    `FORFEIT_NOTE`, and when the row has the opponent's rating (`_fl_rating`), the
    figures with that game counted as a played loss (the norm's floor on the lowest
    game again)."""
    col = pl.col
    n1, rating = col("games") + 1, col("_fl_rating")
    raise_by = (col("floor") - pl.min_horizontal(col("_min"), rating)).clip(lower_bound=0)
    ra1 = half_up_mean_expr(col("_sum") + rating + raise_by, n1)
    rp1 = ra1 + dp_expr(percentage_expr(col("_s2"), n1))
    holds = (ra1 >= col("min_ra")) & (rp1 >= col("min_rp")) & (col("_s2") >= _halves_35(o, n1))
    verdict = pl.when(holds).then(pl.lit("a title performance"))
    played = pl.format(
        "as a played loss against {}: {} games, Ra {}, Rp {} ({})",
        rating, n1, ra1, rp1, verdict.otherwise(pl.lit("no title performance")),
    )  # fmt: skip
    return pl.when(col("_last_forfeit")).then(
        pl.concat_str(pl.lit(FORFEIT_NOTE), played, separator="; ", ignore_nulls=True)
    )


def rule_checks(o: NormOptions) -> list[Check]:
    """Per norm row (`checks._per_norm`'s frame), each rule's check, in the rules'
    order (drr-players applies in a double round-robin only, sex to WGM and WIM)."""
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
        _forfeit_note(o),
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
            pl.when(no_own).then(_fact("federation")).otherwise(_fact("opponent-federations"))
        )
        sure = raw_ok.fill_null(False)
        ok = (
            pl.when(sure | exemption.is_not_null()).then(True)
            .when(no_own | ~known_type | d_unknown).then(_NONE_B)
            .otherwise(raw_ok)
        )  # fmt: skip
        missing = (
            pl.when(no_own).then(_fact("federation"))
            .when(~known_type).then(_fact("event-type"))
            .when(d_unknown).then(_fact("host"))
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
    long_missing = pl.when(days.is_null()).then(_fact("dates")).otherwise(_fact("long-event"))
    is_standard = col("list") == "standard"
    women = col("title").is_in(["WGM", "WIM"])

    rules = [
        _row("standard", "0.5", is_standard.cast(pl.Int64), pl.lit(1), GE,
             is_standard, _fact("list"), col("list")),
        _row("time-control", "1.1.3", col("minutes_60"), pl.lit(120), GE,
             col("minutes_60") >= 120, _fact("time-control")),
        _row("rounds-per-day", "1.1.3", (col("rounds") + days - 1) // days,
             pl.lit(2), LE, (col("rounds") + days - 1) // days <= 2, _fact("dates"),
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
             col("sex") == "w", _fact("sex"), when=women),
    ]  # fmt: skip
    return rules


__all__ = [
    "CHECK_FIELDS",
    "CREDIT_CAP",
    "FORFEIT_NOTE",
    "GE",
    "LE",
    "MISSING",
    "REACH",
    "RULES",
    "Check",
    "games_credited_expr",
    "rule_checks",
    "score_required_expr",
]
