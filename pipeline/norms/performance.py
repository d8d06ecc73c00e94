"""Performance ratings per player and event, three views, over every event at once.

From the rate stage's games frame (`RateResult.games`: one row per player side and round,
with `opponent_rating` the opponent's rating on the event's list at its start, null for
an unrated opponent, and `reason` empty for a rated game), `performance_frame` computes
one row per player and event (performance.csv, `schemas.output.PERFORMANCE_COLUMNS`):

- **Norm Rp** (FIDE Handbook B.01, Title Regulations applied from 1 January 2024,
  1.4.6-1.4.9): the games played over the board; an unrated opponent counts as 1400
  (1.4.6d); Ra = the average rounded to the nearest whole number, 0.5 up (1.4.7); the
  percentage p = 100 x score / games rounded the same way, in integers
  ``(100*S2 + n) // (2*n)`` with S2 the score in half points; dp from table 8.1.1
  (= B.01 table 1.4.9); Rp = Ra + dp. `ra`/`rp` have no floor; `ra_gm`/`rp_gm` ...
  `ra_wim`/`rp_wim` apply the floor of the norm sought (1.4.6b-c: GM 2200, IM 2050,
  WGM 2000, WIM 1850), raising the one lowest opponent game (after the 1400) when below.
  Norms exist in standard chess only (B.01 0.5): the Rp columns are null for events of
  another list (`norm_lists`).
- **TPR** (C.07 Tie-break Regulations, Article 10.1-10.2): ARO = the average rating of
  the opponents played over the board, rounded half up; TPR = ARO + dp (no floor, no
  cap; 100 % -> +800, 0 % -> -800). C.07 gives no value for an unrated opponent: by
  default (`tpr_unrated=None`) ARO and TPR are void (null) for every player of an event
  in which an unrated player played over the board (`tpr_void="event"`, the reading of
  FIDE's TEC reference program), or only for the players who met one
  (`tpr_void="player"`); a value (e.g. 1400) values them instead.
- **FIDE-rated opponents only** (B.02 §1, §5.1): the same games against opponents rated on
  the event's list, unrated ones dropped: `rated_games`, `rated_score`, Rc = their
  average rounded half up, `rated_percentage`, `rated_dp`, `rated_performance` = Rc + dp
  (the project's **choice**: no FIDE-published figure for a rated player).

Games played over the board are those whose reason is empty, `opponent-unrated`,
`player-unrated` or `rule-600`: byes, forfeits, unplayed games and games of under one move
(TRF W/D/L) are never counted, in any view. Each game is one entry: an opponent met twice
(double round-robin) counts twice. Integers only: sums of ratings and half points, floor
division for the half-up rounding; no float is rounded.

Not covered here: the games B.01 1.4.2 drops for a norm (opponents outside FIDE
federations, round-robin unrated opponents who scored zero), events over 30 days whose
ratings change between games (1.1.4), and the 13-game cap of 1.7 — the norm checks'
business (pipeline.norms.checks, to come).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Final, Literal

import polars as pl

from pipeline.rules.tables import DP_BY_P
from schemas.columns import E, G
from schemas.output import GAMES_COLUMNS, PERFORMANCE_COLUMNS

# B.01 1.4.6b-c: the rating floor per norm sought
NORM_FLOORS: Final[Mapping[str, int]] = {"GM": 2200, "IM": 2050, "WGM": 2000, "WIM": 1850}
UNRATED_NORM: Final = 1400  # B.01 1.4.6d
# games.csv reasons of a game played over the board (REASONS of pipeline.rate.classify)
OVER_THE_BOARD: Final = ("", "opponent-unrated", "player-unrated", "rule-600")

(
    TOURNAMENT,
    LIST,
    _ROUND,
    FIDE_ID,
    NAME,
    *_,
) = GAMES_COLUMNS
OPP_RATING: Final = "opponent_rating"
SCORE: Final = "score"
REASON: Final = "reason"
# what `performance_frame` reads of the games frame
INPUT_COLUMNS: Final = (E.ID, G.NO, TOURNAMENT, LIST, FIDE_ID, NAME, OPP_RATING, SCORE, REASON)

_DP: Final = pl.Series("dp", DP_BY_P, dtype=pl.Int64)


@dataclass(frozen=True)
class PerformanceOptions:
    """The choices of docs/rules.md "Performance ratings", FIDE's reading by default."""

    unrated_norm: int = UNRATED_NORM  # B.01 1.4.6d: an unrated opponent's rating for Ra
    tpr_unrated: int | None = None  # C.07 Art. 10: none given -> ARO and TPR void
    tpr_void: Literal["event", "player"] = "event"  # where an unrated opponent voids TPR
    norm_lists: Sequence[str] = ("standard",)  # B.01 0.5: norms in standard chess only
    floors: Mapping[str, int] = field(default_factory=lambda: dict(NORM_FLOORS))


# --- scalar forms (the definitions; the frame's expressions are tested against them) -----


def round_half_up(value: Fraction) -> int:
    """The nearest whole number, 0.5 up (B.01 1.4.7), of an exact fraction."""
    return int((2 * value.numerator + value.denominator) // (2 * value.denominator))


def percentage(score_halves: int, games: int) -> int:
    """100 x score / games as a whole percentage rounded half up (B.01 1.4.9), with the
    score in half points: ``(100*S2 + n) // (2*n)``."""
    if games <= 0 or not 0 <= score_halves <= 2 * games:
        raise ValueError(f"expected 0..{2 * games} half points of {games} > 0 games")
    return (100 * score_halves + games) // (2 * games)


def norm_average(ratings: Sequence[int | None], floor: int | None = None) -> int:
    """B.01's Ra: unrated (None) as 1400, the one lowest raised to `floor` when below it,
    the average rounded half up."""
    values = sorted(UNRATED_NORM if r is None else r for r in ratings)
    if not values:
        raise ValueError("expected at least one game")
    if floor is not None and values[0] < floor:
        values[0] = floor
    return round_half_up(Fraction(sum(values), len(values)))


# --- vectorized -----------------------------------------------------------------------------


def half_up_mean_expr(total: pl.Expr, count: pl.Expr) -> pl.Expr:
    """total / count rounded to the nearest whole number, 0.5 up, in integers (null when
    count is 0): ``(2*total + count) // (2*count)``."""
    return pl.when(count > 0).then((2 * total + count) // (2 * count))


def percentage_expr(score_halves: pl.Expr, games: pl.Expr) -> pl.Expr:
    """`percentage` of columns (null when there are no games)."""
    return pl.when(games > 0).then((100 * score_halves + games) // (2 * games))


def dp_expr(pct: pl.Expr) -> pl.Expr:
    """dp of table 8.1.1 for a whole percentage 0..100 (null for null)."""
    return pl.lit(_DP).gather(pct)


# what `entry_sums` gives per player entry, from which `performance_rows` makes its row
SUM_COLUMNS: Final = (
    "games", "_s2", "_sum", "_min", "_sum_rated", "_unrated", "rated_games", "_rated_s2",
)  # fmt: skip


def entry_sums(
    otb: pl.Expr, opponent: pl.Expr, halves: pl.Expr, unrated: int, prefix: str = ""
) -> list[pl.Expr]:
    """The aggregations of a player entry's game rows its performance row is made of
    (`SUM_COLUMNS`, each name after `prefix`): `otb` says a row is a game played over the
    board, `opponent` is the opponent's rating (null: unrated, valued `unrated` in Ra),
    `halves` the score in half points."""
    valued = opponent.fill_null(unrated)
    rated = otb & opponent.is_not_null()
    sums = (
        otb.sum().cast(pl.Int64),
        halves.filter(otb).sum(),
        valued.filter(otb).sum(),
        valued.filter(otb).min(),
        opponent.filter(otb).sum(),
        (otb & opponent.is_null()).sum().cast(pl.Int64),
        rated.sum().cast(pl.Int64),
        halves.filter(rated).sum(),
    )
    return [e.alias(prefix + name) for e, name in zip(sums, SUM_COLUMNS, strict=True)]


def performance_frame(
    games: pl.DataFrame, options: PerformanceOptions | None = None, *, keys: bool = False
) -> pl.DataFrame:
    """performance.csv's rows (`PERFORMANCE_COLUMNS`), one per player entry of an event
    (event id and start number) that has a row in `games`, in the games' order of events,
    then by start number; `keys` puts the event id and start number first. `games` needs
    `INPUT_COLUMNS`. (The norms stage makes the same rows from the norm checks' pass over
    the games: `performance_rows`.)"""
    o = options or PerformanceOptions()
    missing = [name for name in INPUT_COLUMNS if name not in games.columns]
    if missing:
        raise ValueError(f"performance: expected the games frame's columns, missing {missing}")
    otb = pl.col(REASON).fill_null("").is_in(OVER_THE_BOARD)
    opp = pl.col(OPP_RATING).cast(pl.Int64)
    halves = (pl.col(SCORE).cast(pl.Float64) * 2).round(0).cast(pl.Int64)
    # one integer key per player entry: the event's place among the games' events and
    # the start number (grouping on it, not on the event's text, is what keeps this fast)
    event_no = pl.col(E.ID).rank("dense").cast(pl.Int64)
    key = event_no * (1 << 32) + pl.col(G.NO).cast(pl.Int64)
    sums = (
        games.lazy()
        .select(key.alias("_key"), otb.alias("_otb"), opp.alias("_opp"), halves.alias("_s2"))
        .with_row_index("_row")
        .group_by("_key")
        .agg(
            pl.col("_row").min().alias("_first"),
            *entry_sums(pl.col("_otb"), pl.col("_opp"), pl.col("_s2"), o.unrated_norm),
        )
        .collect(engine="in-memory")
    )
    # the entry's texts from its first row (a gather, not a first() per group)
    firsts = games.select(E.ID, G.NO, TOURNAMENT, LIST, FIDE_ID, NAME)[sums["_first"]]
    return performance_rows(sums.hstack(firsts), o, keys=keys)


def performance_rows(
    sums: pl.DataFrame,
    options: PerformanceOptions | None = None,
    *,
    keys: bool = False,
    in_order: bool = False,
) -> pl.DataFrame:
    """`performance_frame`'s rows from one row per player entry: its event id, start
    number, `tournament`, `list`, `fide_id` and `name`, `_first` (its first game row's
    place in the games: the order of the events) and the `entry_sums`; `in_order`: the
    rows are in that order already (the games' order of events, then start number)."""
    o = options or PerformanceOptions()
    per = sums.lazy()
    n, rated_n = pl.col("games"), pl.col("rated_games")
    norm = pl.col(LIST).is_in(list(o.norm_lists))
    if o.tpr_unrated is not None:
        aro = half_up_mean_expr(pl.col("_sum_rated") + pl.col("_unrated") * o.tpr_unrated, n)
    else:
        unrated = pl.col("_unrated") > 0
        void = unrated.any().over(E.ID) if o.tpr_void == "event" else unrated
        aro = pl.when(~void).then(half_up_mean_expr(pl.col("_sum_rated"), n))
    per = per.with_columns(
        pl.col(TOURNAMENT).alias("event"),
        (pl.col("_s2") / 2).alias(SCORE),
        (pl.col("_rated_s2") / 2).alias("rated_score"),
        pl.when(norm).then(half_up_mean_expr(pl.col("_sum"), n)).alias("ra"),
        percentage_expr(pl.col("_s2"), n).alias("percentage"),
        aro.alias("aro"),
        half_up_mean_expr(pl.col("_sum_rated"), rated_n).alias("rc"),
        percentage_expr(pl.col("_rated_s2"), rated_n).alias("rated_percentage"),
        *(
            pl.when(norm)
            .then(
                half_up_mean_expr(pl.col("_sum") + (floor - pl.col("_min")).clip(lower_bound=0), n)
            )
            .alias(f"ra_{title.lower()}")
            for title, floor in o.floors.items()
        ),
    ).with_columns(
        dp_expr(pl.col("percentage")).alias("dp"),
        dp_expr(pl.col("rated_percentage")).alias("rated_dp"),
    )
    dp = pl.col("dp")
    per = per.with_columns(
        (pl.col("ra") + dp).alias("rp"),
        (pl.col("aro") + dp).alias("tpr"),
        (pl.col("rc") + pl.col("rated_dp")).alias("rated_performance"),
        *((pl.col(f"ra_{t.lower()}") + dp).alias(f"rp_{t.lower()}") for t in o.floors),
    )
    ordered = per if in_order else per.sort(pl.col("_first").min().over(E.ID), G.NO)
    shown = [name for name in PERFORMANCE_COLUMNS if name in per.collect_schema().names()]
    return ordered.select(*([E.ID, G.NO] if keys else []), *shown).collect()


__all__ = [
    "INPUT_COLUMNS",
    "NORM_FLOORS",
    "OVER_THE_BOARD",
    "SUM_COLUMNS",
    "UNRATED_NORM",
    "PerformanceOptions",
    "dp_expr",
    "entry_sums",
    "half_up_mean_expr",
    "norm_average",
    "percentage",
    "percentage_expr",
    "performance_frame",
    "performance_rows",
    "round_half_up",
]
