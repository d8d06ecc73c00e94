"""What every player entry's games count for in the title-norm checks
(`pipeline.norms.checks`), one row per player entry: the games counted and their score,
the ratings' sum and lowest (B.01 1.4.6-1.4.7), the opponents holding titles (1.4.5),
their federations (1.4.3-1.4.4), the games 1.4.2b drops and the last round lost by
forfeit (1.4.2c).

Games counted: those played over the board (as `pipeline.norms.performance`), less the
games of a round-robin against an unrated opponent who scored zero against the rated
players (1.4.2b: `excluded`). An opponent met twice counts twice. The FIDE flag is no
federation (`NormOptions.fid_is_federation`). Each row of the games is read once: a
join of the opponents' facts and one grouping by player, on integer keys
(`event_facts.KEY`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import polars as pl

from pipeline.norms.event_facts import (
    EV,
    FORFEIT_LOSS,
    FORFEIT_WIN,
    KEY,
    LAST,
    OKEY,
    PAB,
    SPAN,
)
from pipeline.norms.performance import SUM_COLUMNS, PerformanceOptions, entry_sums, performance_rows
from pipeline.norms.titles import NO_FEDERATION, ROUND_ROBINS, TARGETS, TITLE_HOLDERS, NormOptions
from schemas.columns import E, G


def _opponents(people: pl.DataFrame, o: NormOptions) -> pl.LazyFrame:
    """Per player entry, what its games as an opponent count for: its federation (`_fc`,
    a code) and whether it is one (1.4.3-1.4.4), a title-holder (1.4.5a), a target
    title (1.4.5b-e), each as 0 or 1."""
    fed, title = pl.col("fed"), pl.col("own_title")
    a_fed = fed.is_not_null() & (pl.lit(o.fid_is_federation) | (fed != NO_FEDERATION))
    return people.lazy().select(
        pl.col(KEY).alias(OKEY),
        pl.col("_fc"),
        fed.is_null().cast(pl.Int8).alias("_u"),
        a_fed.alias("_a_fed"),
        title.is_in(list(TITLE_HOLDERS)).fill_null(False).cast(pl.Int8).alias("_h"),
        *(
            title.is_in(list(TARGETS[t])).fill_null(False).cast(pl.Int8).alias(f"_t{t}")
            for t in o.titles
        ),
    )


def zero_scorers(
    rows: pl.LazyFrame, by: Sequence[str], otb: pl.Expr, halves: pl.Expr
) -> pl.LazyFrame:
    """Per player entry (`by`): `_zero`, true for an unrated player (its `rating` null)
    who met rated players over the board (`otb`, `opponent_rating` not null) and scored
    nothing against them (`halves`: the score in half points). B.01 1.4.2b drops the
    games against such a player in a round-robin; the certificate marks them."""
    rated_opp = otb & pl.col("opponent_rating").is_not_null()
    return (
        rows.group_by(*by)
        .agg(
            pl.col("rating").first().is_null().alias("_unrated"),
            rated_opp.sum().alias("_vs_rated"),
            halves.filter(rated_opp).sum().alias("_s2_rated"),
        )
        .select(
            *by,
            (pl.col("_unrated") & (pl.col("_vs_rated") > 0) & (pl.col("_s2_rated") == 0)).alias(
                "_zero"
            ),
        )
    )


def _excluded(rows: pl.LazyFrame, facts: pl.DataFrame) -> pl.LazyFrame:
    """`_excluded`: a game of a round-robin against an unrated opponent who scored zero
    against the rated players (1.4.2b: `zero_scorers`)."""
    rr = facts.filter(pl.col("event_type").is_in(list(ROUND_ROBINS))).select(EV)
    if rr.height == 0:
        return rows.with_columns(pl.lit(False).alias("_excluded"))
    played = rows.join(rr.lazy(), on=EV, how="semi")
    zero = zero_scorers(played, [KEY], pl.col("_otb"), pl.col("_s2")).rename({KEY: OKEY})
    return rows.join(zero, on=OKEY, how="left").with_columns(
        (pl.col("_otb") & pl.col("_zero").fill_null(False)).alias("_excluded")
    )


def _federations(counted: pl.DataFrame, people: pl.DataFrame) -> pl.LazyFrame:
    """Per player entry: `_top` (games against the most frequent federation), `_others`
    (federations other than the player's) and `_own` (games against the player's). The
    games of each player and opponents' federation are counted as runs of one sorted
    integer (player key x federations + federation)."""
    feds = int(people.select(pl.col("_fc").max().fill_null(0)).item()) + 1
    if int(counted.select(pl.col(KEY).max().fill_null(0)).item()) >= 2**62 // feds:
        raise ValueError(f"norm checks: too many events for {feds} federations")
    runs = (
        counted.lazy()
        .filter(pl.col("_c") & pl.col("_a_fed"))
        .select((pl.col(KEY) * feds + pl.col("_fc")).sort().rle().alias("_run"))
        .unnest("_run")
        .select(
            (pl.col("value") // feds).alias(KEY),
            (pl.col("value") % feds).alias("_fc"),
            pl.col("len").cast(pl.Int64).alias("_k"),
        )
    )
    own = people.lazy().select(KEY, pl.col("_fc").alias("_own_fc"))
    same = pl.col("_fc") == pl.col("_own_fc")
    return (
        runs.join(own, on=KEY, how="left")
        .with_columns(
            pl.when(same).then(pl.col("_k")).otherwise(0).alias("_own"),
            (~same).fill_null(True).cast(pl.Int64).alias("_others"),
        )
        .group_by(KEY)
        .agg(pl.col("_k").max().alias("_top"), pl.col("_others", "_own").sum())
    )


# the columns of the games' rows the performance sums read, and their names' prefix
PERFORMANCE_INPUTS: Final = ("_otb", "opponent_rating", "_s2")
PREFIX: Final = "_pf"


def performance_of(counts: pl.DataFrame, options: PerformanceOptions) -> pl.DataFrame:
    """performance.csv's rows (`performance.performance_rows`, event id and start number
    first) from `player_counts`' rows."""
    return performance_rows(
        counts.select(
            E.ID,
            G.NO,
            pl.col("event").alias("tournament"),
            "list",
            "fide_id",
            "name",
            pl.col("_row").alias("_first"),
            *(pl.col(PREFIX + name).alias(name) for name in SUM_COLUMNS),
        ),
        options,
        keys=True,
        in_order=True,  # by KEY: the games' order of events, then start number
    )


def player_counts(
    games: pl.DataFrame, rows: pl.DataFrame, people: pl.DataFrame, facts: pl.DataFrame,
    o: NormOptions,
) -> pl.DataFrame:  # fmt: skip
    """One row per player entry of `rows` (`event_facts.coded_games`), by `KEY` in the
    games' order of events, then start number: the counts the norms read, the player
    (`event`, `list`, `fide_id`, `name` of its first game row, `fed`, `own_title`,
    `sex` of `people`), its event's facts, and the sums its performance ratings are made
    of (`PREFIX`: `performance_of`)."""
    people = people.with_columns(pl.col("fed").rank("dense").alias("_fc"))
    c = pl.col("_c")
    valued = pl.col("opponent_rating").cast(pl.Int64).fill_null(o.unrated_norm)
    aside = ~pl.col("_otb") & pl.col(G.CODE).is_in([FORFEIT_WIN, PAB])
    counts = ["_h", *(f"_t{t}" for t in o.titles), "_u"]
    kept = ["games", "excluded", "_aside", "_s2c", "_v"]
    counted = (
        _excluded(rows.lazy().with_row_index("_row"), facts)
        .join(_opponents(people, o), on=OKEY, how="left")
        .with_columns((pl.col("_otb") & ~pl.col("_excluded")).alias("_c"))
        .with_columns(
            c.cast(pl.Int8).alias("games"),
            pl.when(c).then(pl.col("_s2")).otherwise(0).cast(pl.Int8).alias("_s2c"),
            pl.when(c).then(valued).cast(pl.Int32).alias("_v"),
            pl.col("_excluded").cast(pl.Int8).alias("excluded"),
            aside.cast(pl.Int8).alias("_aside"),
            # an opponent not among the players: federation unknown, no title
            *(
                pl.when(c)
                .then(pl.col(name).fill_null(1 if name == "_u" else 0))
                .otherwise(0)
                .cast(pl.Int8)
                for name in counts
            ),
        )
        .select(KEY, "_row", "_c", "_a_fed", "_fc", *kept, *counts, *PERFORMANCE_INPUTS)
        .collect(engine="in-memory")
    )
    opponent = pl.col("opponent_rating").cast(pl.Int64)
    per = (
        counted.lazy()
        .group_by(KEY)
        .agg(
            pl.col("_row").min(),
            pl.col("games", "excluded", "_aside", *counts).sum(),
            pl.col("_s2c").sum().alias("_s2"),
            pl.col("_v").sum().alias("_sum"),
            pl.col("_v").min().cast(pl.Int64).alias("_min"),
            pl.len().cast(pl.Int64).alias("_rows"),
            # the performance ratings' sums, in the same pass (`performance_of`)
            *entry_sums(pl.col("_otb"), opponent, pl.col("_s2"), o.unrated_norm, PREFIX),
        )
    )
    # 1.4.2c: the game of the last round lost by forfeit (few rows)
    last_lost = (
        rows.lazy()
        .filter(pl.col(G.CODE) == FORFEIT_LOSS)
        .join(facts.lazy().select(EV, LAST), on=EV)
        .filter(pl.col(G.ROUND) == pl.col(LAST))
        .group_by(KEY)
        .agg(pl.col("opponent_rating").first().cast(pl.Int64).alias("_fl_rating"))
        .with_columns(pl.lit(True).alias("_last_forfeit"))
    )
    known = people.group_by(EV).agg(pl.col("own_title").is_not_null().any().alias("_tk"))
    titles_known = pl.col("_tk").fill_null(False)
    frame = (
        per.join(_federations(counted, people), on=KEY, how="left")
        .join(last_lost, on=KEY, how="left")
        .join(people.lazy().select(KEY, "fed", "own_title", "sex"), on=KEY, how="left")
        .with_columns(
            (pl.col(KEY) // SPAN).cast(pl.UInt32).alias(EV),
            (pl.col(KEY) % SPAN).alias(G.NO),
        )
        .join(known.lazy(), on=EV, how="left")
        .join(facts.lazy().drop(E.LIST), on=EV, how="left")
        .sort(KEY)
        .with_columns(
            pl.col("_top", "_others", "_own").fill_null(0),
            pl.col("_last_forfeit").fill_null(False),
            titles_known.alias("_titles_known"),
            pl.col("_u").alias("_fed_unknown"),
            *(
                pl.when(titles_known).then(pl.col(f"_t{t}")).otherwise(0).alias(f"_tg_{t}")
                for t in o.titles
            ),
            pl.when(titles_known).then(pl.col("_h")).otherwise(0).alias("_holders"),
        )
        .drop("_h", "_u", *(f"_t{t}" for t in o.titles), "_tk")
        .collect(engine="in-memory")
    )
    player = games.select(pl.col("tournament").alias("event"), "list", "fide_id", "name")
    return frame.hstack(player[frame["_row"]])


__all__ = ["PERFORMANCE_INPUTS", "PREFIX", "performance_of", "player_counts", "zero_scorers"]
