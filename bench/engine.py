"""Engine benchmark: the vectorized rules (polars) against a per-game Python loop over the
scalar rules, on the same >= 1,000,000 random games, in one run; both must give identical
per-player results.

Run: `python -m bench engine` (or `make bench`). Data: seeded hashes (reproducible for a
given polars version); ratings 1000..2850, a skewed number of games per player (so the
700 rule bites), 5 % unrated opponents, every cap mode and the 600-point rule present.
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import polars as pl

from pipeline.rules import fide
from pipeline.rules.ruleset import RuleSet, ruleset_for
from pipeline.rules.vector import (
    derive_k_expr,
    player_totals_frame,
    rate_games_frame,
    ruleset_frame,
)

GAMES = 1_000_000
PLAYERS = 300_000
ROUNDS_PER_EVENT = 11
SEED = 20261130
RULESETS: list[RuleSet] = [
    ruleset_for(dt.date(2008, 6, 1), "standard"),  # 350, every game
    ruleset_for(dt.date(2016, 6, 1), "standard"),  # 400, every game
    ruleset_for(dt.date(2023, 6, 1), "standard"),  # 400, once per event
    ruleset_for(dt.date(2025, 6, 1), "standard"),  # 400, every game (2024 rules)
    ruleset_for(dt.date(2026, 6, 1), "standard"),  # 400 below 2650
    ruleset_for(dt.date(2020, 6, 1), "rapid"),  # K 20 for all
    ruleset_for(dt.date(2026, 6, 1), "blitz"),  # 600-point rule
]
RS_NEEDED = ["rs_index", "rs_valid_from", "rs_cap", "rs_cap_mode", "rs_cap_exempt_from"] + [
    f"rs_{name}"
    for name in (
        "rule_600",
        "rule_700",
        "k_flat",
        "k_top",
        "k_junior",
        "k_new",
        "k_default",
        "k_top_from",
        "junior_below",
        "junior_max_age",
        "new_player_games",
    )
]  # the rule-set columns the rating needs (names, lists and dates are not joined)
REPEATS = 3  # the vectorized path is timed best of 3, the loop best of 2
Totals = dict[int, tuple[int, int, int, int, int]]  # player -> n, ΣΔR, K, change, after


def _uniform(i: pl.Expr, seed: int, size: int) -> pl.Expr:
    return (i.hash(seed=seed) % size).cast(pl.Int64)


def generate(games: int = GAMES, players: int = PLAYERS, seed: int = SEED) -> pl.DataFrame:
    """One row per player per game, with the player's state and rule set index."""
    i = pl.int_range(games, dtype=pl.Int64)
    u = (i.hash(seed=seed) % 1_000_003).cast(pl.Float64) / 1_000_003
    frame = pl.select(
        player=(u * u * players).cast(pl.Int64),  # skewed: low ids play a lot
        opponent_rating=pl.when(_uniform(i, seed + 1, 100) < 5)
        .then(None)
        .otherwise(1000 + _uniform(i, seed + 2, 1851)),
        score=_uniform(i, seed + 3, 3) * 50,
        order=_uniform(i, seed + 4, 1 << 40),
    )
    p = pl.col("player")
    frame = frame.sort("player", "order").with_columns(seq=pl.int_range(pl.len()).over("player"))
    return frame.select(
        "player",
        event=p * 1000 + pl.col("seq") // ROUNDS_PER_EVENT,
        round=pl.col("seq") % ROUNDS_PER_EVENT + 1,
        rating=1000 + _uniform(p, seed + 5, 1851),
        career_games=_uniform(p, seed + 6, 60),
        birth_year=1950 + _uniform(p, seed + 7, 70),
        ever_2400=_uniform(p, seed + 8, 10) == 0,
        rs_index=(p % len(RULESETS)).cast(pl.UInt32),
        opponent_rating=pl.col("opponent_rating"),
        score=pl.col("score"),
    )


def rate_vectorized(games: pl.DataFrame) -> pl.DataFrame:
    """K, expectation, ΔR, per-player sums, the 700 rule and rounding, all in polars."""
    rs = ruleset_frame(RULESETS).with_row_index("rs_index").select(RS_NEEDED).lazy()
    lazy = (
        games.lazy()
        .join(rs, on="rs_index")
        .with_columns(
            k=derive_k_expr(
                rating=pl.col("rating"),
                career_games=pl.col("career_games"),
                birth_year=pl.col("birth_year"),
                period_year=pl.col("rs_valid_from").dt.year().cast(pl.Int64),
                ever_2400=pl.col("ever_2400"),
                given_k=pl.lit(None, dtype=pl.Int64),
            )
        )
    )
    totals = player_totals_frame(rate_games_frame(lazy))
    return totals.select("player", "n", "sum_delta", "k", "change", "rating_after").collect()


def _groups(games: pl.DataFrame) -> Iterator[tuple[int, int, list[tuple[int | None, int]]]]:
    """(player, rs index, games in round order); events follow each other."""
    cols = games.sort("player", "event", "round")
    player = cols["player"].to_list()
    event = cols["event"].to_list()
    opp = cols["opponent_rating"].to_list()
    score = cols["score"].to_list()
    start = 0
    for end in range(1, len(player) + 1):
        if end == len(player) or player[end] != player[start] or event[end] != event[start]:
            yield (
                player[start],
                event[start],
                list(zip(opp[start:end], score[start:end], strict=True)),
            )
            start = end


def rate_loop(games: pl.DataFrame) -> tuple[Totals, float]:
    """The per-game Python loop over the scalar functions; returns totals and seconds
    spent in the loop (column extraction to Python lists excluded)."""
    state = {
        row[0]: row[1:]
        for row in games.group_by("player")
        .agg(
            pl.col("rating").first(),
            pl.col("career_games").first(),
            pl.col("birth_year").first(),
            pl.col("ever_2400").first(),
            pl.col("rs_index").first(),
        )
        .iter_rows()
    }
    events = list(_groups(games))
    t0 = time.perf_counter()
    sums: dict[int, list[int]] = {}
    for player, _event, played in events:
        rating, _, _, _, rs_i = state[player]
        rs = RULESETS[rs_i]
        acc = sums.setdefault(player, [0, 0])
        rated = [(o, s) for o, s in played if o is not None]
        used = fide.differences_used_in_event(rating, [o for o, _ in rated], rs)
        for (opp, score), d_used in zip(rated, used, strict=True):
            if fide.game_not_rated_600(rs, rating, opp):
                continue
            acc[0] += 1
            acc[1] += score - fide.expected_score(d_used)
    totals: Totals = {}
    for player, (n, sum_delta) in sums.items():
        rating, career, born, top, rs_i = state[player]
        rs = RULESETS[rs_i]
        k = fide.derive_k(
            rs,
            rating=rating,
            career_games=career,
            birth_year=born,
            period_year=rs.valid_from.year,
            ever_2400=top,
        )
        if rs.rule_700:
            k = fide.k_after_700(k, n)
        change = fide.round_half_away(k * sum_delta)
        totals[player] = (n, sum_delta, k, change, rating + change)
    return totals, time.perf_counter() - t0


def _machine() -> str:
    cpu = platform.processor() or platform.machine()
    info = Path("/proc/cpuinfo")
    if info.is_file():
        for line in info.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def main() -> None:
    t0 = time.perf_counter()
    games = generate()
    gen = time.perf_counter() - t0
    players = games["player"].n_unique()
    modes = sorted({RULESETS[i].cap_mode for i in games["rs_index"].unique().to_list()})
    print(f"machine: {_machine()}")
    print(
        f"python {sys.version.split()[0]}, polars {pl.__version__}, threads {pl.thread_pool_size()}"
    )
    print(f"games: {games.height:,} over {players:,} players ({gen:.2f} s to generate)")
    print(f"cap modes: {', '.join(modes)}; rule sets: {len(RULESETS)}")

    rate_vectorized(games.head(10_000))  # warm-up (expression compilation)
    vec_times = []
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        vec = rate_vectorized(games)
        vec_times.append(time.perf_counter() - t0)
    vec_s = min(vec_times)
    loop, loop_s = rate_loop(games)
    loop_s = min(loop_s, rate_loop(games)[1])

    got = {row[0]: tuple(row[1:]) for row in vec.iter_rows()}
    assert got == loop, "vectorized and scalar per-player results differ"
    heavy = sum(1 for v in loop.values() if v[0] > 35)
    print(f"players with more than 35 rated games (the 700 rule can apply): {heavy:,}")
    print(f"vectorized: {vec_s:.3f} s, {games.height / vec_s:,.0f} games/s (best of {REPEATS})")
    print(f"python loop: {loop_s:.3f} s, {games.height / loop_s:,.0f} games/s (best of 2)")
    print(f"ratio: vectorized is {loop_s / vec_s:.1f}x faster; per-player results identical")


if __name__ == "__main__":
    main()
