"""The rate stage's output frames, from the collected frames of `pipeline.rate.engine`:
ratings.csv's and games.csv's rows (with the workbook's extra columns), the events with
their rated counts, the warnings read from the ratings, and the pending pool after the
period. Numbers are Int64 hundredths until here; shown values are the nearest doubles.
"""

from __future__ import annotations

import polars as pl

from pipeline.errors import Location, Problem, Severity
from pipeline.period.pending import pending_after
from pipeline.rate import columns as c
from pipeline.rate.classify import REASONS
from pipeline.rate.rows import Span, span_bits, spread
from schemas.columns import E, G, P
from schemas.output import GAMES_COLUMNS, RATINGS_COLUMNS

RESULT_SHOWN = {"=": "½"}  # games.csv `result`: the TRF code, a draw shown as ½
PAIR_BITS = 21  # a pairing (round, both start numbers) packs into one Int64 below 2**21


def hundredths(name: str) -> pl.Expr:
    """`hundredths_expr` of a column."""
    return hundredths_expr(pl.col(name))


def hundredths_expr(value: pl.Expr) -> pl.Expr:
    """Int64 hundredths as the Float64 nearest to its two-decimal value, as `h / 100` in
    Python (polars divides by a literal through its reciprocal, which is off by an ulp:
    94 -> 0.9400000000000001; rounding to two decimals restores the nearest double)."""
    return (value.cast(pl.Float64) / 100).round(2)


def ratings_frame(
    roster: pl.DataFrame, rated: pl.DataFrame, initial: pl.DataFrame, entries: int
) -> pl.LazyFrame:
    """ratings.csv's rows (and the workbook's columns), in the roster's order: each
    player's totals (`rated`, by `c.PID`, a row of the `entries` entries) and initial
    rating (`initial`, by key and list)."""
    players = roster.hstack(spread(rated, c.PID, roster[c.PID], entries))
    if initial.height:
        players = players.join(initial, on=[c.KEY, E.LIST], how="left", maintain_order="left")
    else:  # no initial rating: its columns, empty
        players = players.hstack(initial.drop(c.KEY, E.LIST).clear(players.height))
    r = players.lazy()
    is_rated = pl.col(c.RO).is_not_null()
    published = pl.col("initial_published").fill_null(False)
    status = (
        pl.when(is_rated & (pl.col("n") > 0))
        .then(pl.lit("rated"))
        .when(is_rated)
        .then(pl.lit("no-rated-games"))
        .when(published)
        .then(pl.lit("initial"))
        .otherwise(pl.lit("unrated"))
    )
    rating_after = (
        pl.when(is_rated)
        .then(pl.col(c.RO) + pl.col("change"))
        .when(published)
        .then(pl.col("initial_value"))
        .cast(pl.Int64)
    )
    r = r.with_columns(
        status.alias("status"),
        pl.col(c.RO).alias("rating_before"),
        pl.when(is_rated)
        .then(pl.col("n"))
        .otherwise(pl.col(c.N_INITIAL).fill_null(0))
        .alias("games"),
        pl.when(is_rated)
        .then(hundredths("score_sum"))
        .otherwise(hundredths(c.SCORE_INITIAL).fill_null(0.0))
        .alias("score"),
        hundredths("expected_sum").alias("expected"),
        hundredths("change_h").alias("change_unrounded"),
        hundredths("sum_delta").alias("sum_delta"),
        rating_after.alias("rating_after"),
    ).with_columns(
        (is_rated & (pl.col("rating_after") < pl.col("floor")))
        .fill_null(False)
        .alias("below_floor"),
        pl.col("games").cast(pl.Int64),
        pl.col("change").cast(pl.Int64),
        pl.col("k").cast(pl.Int64),
    )
    extras = [
        c.KEY,
        P.TITLE,
        "sum_delta",
        "events",
        c.RO_SOURCE,
        P.BIRTH,
        "initial_value",
        "ra",
        "p",
        "dp",
        "below_floor",
        E.FILE,
        P.LINE,
    ]
    return r.select(*RATINGS_COLUMNS, *extras)


def games_frame(games: pl.DataFrame, rated: pl.DataFrame, entries: int) -> pl.LazyFrame:
    """games.csv's rows (and the workbook's columns): `games` is in games.csv's order,
    `rated` has each rated player's K by `c.PID` (a row of the `entries` entries)."""
    k = pl.repeat(None, entries, dtype=pl.Int64, eager=True).alias("k")
    k.scatter(rated[c.PID], rated["k"])
    code = pl.col(G.CODE)
    result = code
    for given, shown in RESULT_SHOWN.items():
        result = pl.when(code == given).then(pl.lit(shown)).otherwise(result)
    g = games.lazy().with_columns(
        pl.lit(k).gather(pl.col(c.PID)).alias("k"),
        result.alias("result"),
        pl.col(G.SCORE).cast(pl.Float64).alias("score"),
        pl.col(c.RO).alias("rating"),
        pl.col(c.OPP_RO).alias("opponent_rating"),
        hundredths(c.PD_H).alias("expected"),
        hundredths(c.DELTA_H).alias("delta"),
    )
    k_delta = pl.when(pl.col(c.RATED)).then(pl.col("k") * pl.col(c.DELTA_H))
    g = g.with_columns(hundredths_expr(k_delta).alias("k_delta"))
    extras = [
        E.ID,
        G.NO,
        G.OPP,
        c.KEY,
        c.OPP_KEY,
        G.CODE,
        "k",
        "k_delta",
        c.COUNTS,
        G.LINE,
        G.COLUMN,
    ]
    return g.select(*GAMES_COLUMNS, *extras)


def counts_initial(games: pl.DataFrame, dropped: pl.DataFrame, events: int) -> pl.DataFrame:
    """COUNTS: a player-unrated game whose event is not disregarded (`dropped`: the
    player's `c.PID` and `event_order`, null for an event of the pool)."""
    unrated = pl.col("_reason") == REASONS.index("player-unrated")
    # (player, event) as one Int64: the player's first entry row times the events, plus
    # the event (both are row numbers: their product is far below 2**63)
    key = pl.col(c.PID) * events + pl.col(c.EV_ORDER)
    zero = dropped.filter(pl.col(c.EV_ORDER).is_not_null()).select(key).to_series()
    if zero.is_empty():
        return games.with_columns(unrated.alias(c.COUNTS))
    disregarded = key.is_in(zero.implode()).fill_null(False)
    return games.with_columns((unrated & ~disregarded).alias(c.COUNTS))


def events_frame(
    events: pl.DataFrame, games: pl.LazyFrame, ranges: dict[str, Span]
) -> pl.LazyFrame:
    """The events with `rated_games` (pairings rated for at least one side) and
    `rated_entries`; `ranges` are the `spans` of the games' round, start_no and
    opponent_no (a pairing is one Int64 when they fit in `PAIR_BITS` bits)."""
    rated = games.filter(pl.col(c.RATED))
    low = pl.min_horizontal(G.NO, G.OPP).cast(pl.Int64)
    high = pl.max_horizontal(G.NO, G.OPP).cast(pl.Int64)
    bits = [span_bits(ranges.get(name), nulls=name == G.OPP) for name in (G.ROUND, G.NO, G.OPP)]
    if all(b is not None and b <= PAIR_BITS for b in bits):
        round_ = pl.col(G.ROUND).cast(pl.Int64)
        pairing = round_ * (1 << 2 * PAIR_BITS) + low * (1 << PAIR_BITS) + high
    else:
        pairing = pl.struct(low.alias("_a"), high.alias("_b"), G.ROUND)
    counts = rated.group_by(c.EV_ORDER).agg(
        pairing.n_unique().cast(pl.Int64).alias("rated_games"),
        pl.len().cast(pl.Int64).alias("rated_entries"),
    )
    out = (
        events.lazy()
        .join(counts, on=c.EV_ORDER, how="left")
        .with_columns(pl.col("rated_games", "rated_entries").fill_null(0))
    )
    return out.sort(c.EV_ORDER).select(pl.exclude("^rs_.*$"))


def _shown(name: str) -> pl.Expr:
    """A string or integer column as an f-string shows its values (None for a null)."""
    return pl.col(name).cast(pl.String).fill_null("None")


def _about_player(template: str) -> pl.Expr:
    """`template` filled with the player's name, list and rating after the period."""
    return pl.format(template, _shown(P.NAME), _shown(E.LIST), _shown("rating_after"))


def floor_rows(ratings: pl.LazyFrame) -> pl.LazyFrame:
    """A rating after the period below the floor: FIDE lists the player as unrated."""
    message = _about_player(
        "{} ({}): rating after the period {} is below the floor; FIDE lists the player as "
        "unrated from the next list"
    )
    return ratings.filter(pl.col("below_floor")).select(E.FILE, P.LINE, message)


def no_id_rows(ratings: pl.LazyFrame) -> pl.LazyFrame:
    """An initial rating is published only for a registered player: say who needs an ID."""
    message = _about_player(
        "expected a FIDE ID for {} ({}), who qualifies for an initial rating of {}, got "
        "none: FIDE publishes it once the player is registered"
    )
    initial = (pl.col("status") == "initial") & pl.col(P.FIDE).is_null()
    return ratings.filter(initial).select(E.FILE, P.LINE, message)


def warnings_of(rows: pl.DataFrame, code: str) -> list[Problem]:
    """Warnings `code` from rows of (file, line, message)."""
    return [
        Problem(Location(file, line), code, message, Severity.WARNING)
        for file, line, message in rows.iter_rows()
    ]


def pool_after(
    window: pl.DataFrame,
    games: pl.DataFrame,
    ratings: pl.DataFrame,
    dropped: pl.DataFrame,
    period: str,
    unrated: pl.Series,
) -> pl.DataFrame:
    """`pending_after` (pipeline.period.pending), given only the rows it can use: the
    games toward an initial rating (`unrated`: their rows of `games`) and the ratings of
    their players and of the pool's."""
    current = games.filter(unrated) if unrated.any() else games.clear()
    keys = pl.concat(
        [current.select(c.KEY, E.LIST), window.select(c.KEY, E.LIST)], how="vertical_relaxed"
    )
    players = ratings.clear()
    if keys.height:
        players = ratings.join(keys, on=[c.KEY, E.LIST], how="semi", maintain_order="left")
    return pending_after(window, current, players, dropped.select(c.KEY, E.LIST, E.ID), period)


__all__ = [
    "PAIR_BITS",
    "RESULT_SHOWN",
    "counts_initial",
    "events_frame",
    "floor_rows",
    "games_frame",
    "hundredths",
    "hundredths_expr",
    "no_id_rows",
    "pool_after",
    "ratings_frame",
    "warnings_of",
]
