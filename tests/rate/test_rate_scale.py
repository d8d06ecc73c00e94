"""rate_period at the size of a federation's month: 1,000,000 game rows, 100,000 player
entries and a 1.64 M-row registry (the size of FIDE's full list, fide-rules.md §8)."""

from __future__ import annotations

import datetime as dt
import time

import polars as pl
import pytest

from pipeline.rate import RateOptions, rate_period


def _rand(expr: pl.Expr, seed: int, modulo: int) -> pl.Expr:
    """A reproducible pseudo-random Int64 in 0..modulo-1 from a column's hash."""
    return (expr.hash(seed) % modulo).cast(pl.Int64)


def synthetic_period(
    events: int, players: int, rounds: int, registry_size: int, blocks: int = 400
) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """`events` standard events of `players` (even) players and `rounds` rounds each.

    Event e takes its players from block e % `blocks` of FIDE IDs, so a player meets
    others over about events / blocks events; the registry holds `registry_size`
    players, a fifth unrated, and disagrees with the files for about 1 % of them."""
    ev = pl.DataFrame({"i": pl.int_range(events, eager=True)}).select(
        pl.format("ev{}", pl.col("i")).alias("event_id"),
        pl.format("ev{}.trf", pl.col("i")).alias("file"),
        pl.format("Open {}", pl.col("i")).alias("name"),
        pl.lit("trf16").alias("source"),
        pl.lit("standard").alias("list"),
        (pl.lit(dt.date(2025, 3, 1)) + pl.duration(days=pl.col("i") % 28)).alias("start_date"),
    )
    rating = pl.lit(1400) + _rand(pl.col("fide_id"), 1, 1300)
    idx = pl.DataFrame({"i": pl.int_range(events * players, eager=True)})
    entries = idx.select(
        pl.format("ev{}", pl.col("i") // players).alias("event_id"),
        (pl.col("i") % players + 1).alias("start_no"),
        pl.format("Player {}", pl.col("i")).alias("name"),
        ((pl.col("i") // players % blocks) * players + pl.col("i") % players + 1).alias("fide_id"),
    ).with_columns(
        pl.when(_rand(pl.col("fide_id"), 2, 100) == 0)
        .then(rating + 5)
        .otherwise(rating)
        .alias("rating"),
        (pl.lit(1950) + _rand(pl.col("fide_id"), 3, 65)).alias("birth_year"),
        (pl.col("start_no") + 10).alias("line"),
    )
    # each round: a random order of the event's players, paired adjacently
    slots = (
        entries.select("event_id", "start_no")
        .join(pl.DataFrame({"round": pl.int_range(1, rounds + 1, eager=True)}), how="cross")
        .with_columns(
            pl.struct("event_id", "round", "start_no")
            .hash(4)
            .rank("ordinal")
            .over("event_id", "round")
            .cast(pl.Int64)
            .alias("pos")
        )
        .with_columns((pl.col("pos") - 1) // 2)
    )
    pairs = slots.group_by("event_id", "round", "pos").agg(
        pl.col("start_no").min().alias("white"), pl.col("start_no").max().alias("black")
    )
    pairs = pairs.with_columns(_rand(pl.struct("event_id", "round", "pos"), 5, 3).alias("r"))
    codes = pl.Series(["1", "=", "0"])
    mirror = pl.Series(["0", "=", "1"])

    def side(me: str, opp: str, code: pl.Expr, colour: str) -> pl.DataFrame:
        return pairs.select(
            "event_id",
            "round",
            pl.col(me).alias("start_no"),
            pl.col(opp).alias("opponent_no"),
            pl.lit(colour).alias("colour"),
            code.alias("code"),
        )

    games = (
        pl.concat(
            [
                side("white", "black", pl.lit(codes).gather(pl.col("r")), "w"),
                side("black", "white", pl.lit(mirror).gather(pl.col("r")), "b"),
            ]
        )
        .with_columns(
            pl.col("code").replace_strict({"1": 1.0, "=": 0.5, "0": 0.0}).alias("score"),
            pl.lit(True).alias("played"),
            (pl.col("start_no") + 10).alias("line"),
            pl.format("{}-{}", 82 + 10 * pl.col("round"), 91 + 10 * pl.col("round")).alias(
                "column"
            ),
        )
        .sort("event_id", "round", "start_no")
    )
    registry = pl.DataFrame(
        {"fideid": pl.int_range(1, registry_size + 1, eager=True)}
    ).with_columns(
        pl.when(_rand(pl.col("fideid"), 6, 5) == 0)
        .then(None)
        .otherwise(pl.lit(1400) + _rand(pl.col("fideid"), 1, 1300))
        .alias("rating"),
        pl.lit([0, 10, 20, 40]).list.get(_rand(pl.col("fideid"), 7, 4)).alias("k"),
        (pl.lit(1950) + _rand(pl.col("fideid"), 3, 65)).alias("birthday"),
        pl.lit(None, dtype=pl.String()).alias("name"),
    )
    return ev, entries, games, registry


@pytest.mark.slow
def test_one_million_game_rows() -> None:
    ev, players, games, registry = synthetic_period(1000, 100, 10, 1_640_000)
    assert (games.height, players.height, registry.height) == (1_000_000, 100_000, 1_640_000)
    start = time.perf_counter()
    result = rate_period(ev, players, games, registry, RateOptions(today=dt.date(2025, 6, 1)))
    elapsed = time.perf_counter() - start
    print(f"\nrate_period: {elapsed:.2f} s for 1,000,000 game rows")
    assert result.games.height == 1_000_000
    assert result.ratings.height == players["fide_id"].n_unique()
    assert elapsed < 60


def test_small_synthetic_period() -> None:
    """The generator itself, at a size fit for the default run."""
    ev, players, games, registry = synthetic_period(5, 10, 3, 2000)
    result = rate_period(ev, players, games, registry, RateOptions(today=dt.date(2025, 6, 1)))
    assert result.games.height == games.height == 5 * 10 * 3
    rated = result.games.filter(pl.col("rated")).height
    excluded = result.games.filter(pl.col("reason") != "").height
    assert rated + excluded == games.height
