"""An independent second implementation (Fraction arithmetic, the regulation's CSV table,
eras written out from fide-rules.md) rates thousands of random periods; the engine's
scalar and vectorized paths must agree with it exactly."""

from __future__ import annotations

import csv
import datetime as dt
import random
from fractions import Fraction
from math import floor
from pathlib import Path

import polars as pl
import pytest

from pipeline.rules import fide
from pipeline.rules.ruleset import ruleset_for
from pipeline.rules.vector import player_totals_frame, rate_games_frame, ruleset_frame

DATES = [
    dt.date(2008, 3, 1),
    dt.date(2016, 3, 1),
    dt.date(2023, 3, 1),
    dt.date(2024, 3, 1),
    dt.date(2025, 3, 1),
    dt.date(2025, 10, 1),
    dt.date(2026, 3, 1),
]
LISTS = ["standard", "rapid", "blitz"]

Table = list[tuple[int, int | None, Fraction, Fraction]]


def _load_table(shared: Path) -> Table:
    path = shared / "reference" / "tables" / "fide_table_8_1_2_D_to_PD.csv"
    with path.open(encoding="utf-8", newline="") as fh:
        return [
            (
                int(r["D_min"]),
                int(r["D_max"]) if r["D_max"] else None,
                Fraction(r["PD_H"]),
                Fraction(r["PD_L"]),
            )
            for r in csv.DictReader(fh)
        ]


def _pd(d: int, table: Table) -> Fraction:
    a = abs(d)
    for lo, hi, high, low in table:
        if a >= lo and (hi is None or a <= hi):
            return high if d >= 0 else low
    raise AssertionError(d)


def _cap_rule(on: dt.date, list_: str) -> tuple[str, int]:
    if on < dt.date(2009, 7, 1):
        return "each", 350
    if on < dt.date(2022, 1, 1):
        return "each", 400
    if on < dt.date(2024, 3, 1):
        return "once", 400
    if list_ == "standard" and on >= dt.date(2025, 10, 1):
        return "under2650", 400
    return "each", 400


def _used(rating: int, opps: list[int], on: dt.date, list_: str) -> list[int]:
    kind, cap = _cap_rule(on, list_)
    diffs = [rating - o for o in opps]
    if kind == "under2650" and rating >= 2650:
        return diffs
    out = [min(cap, max(-cap, d)) for d in diffs]
    if kind == "once":
        over = [i for i, d in enumerate(diffs) if d > cap]
        if over:
            chosen = sorted(over, key=lambda i: (-diffs[i], i))[0]
            for i in over:
                out[i] = cap if i == chosen else diffs[i]
    return out


def _independent(
    rating: int, games: list[tuple[int | None, int]], k: int, on: dt.date, list_: str, table: Table
) -> tuple[int, int, int]:
    """(n, K used, rounded change)."""
    r600 = list_ != "standard" and on >= dt.date(2024, 12, 1)
    counted = [
        (o, Fraction(s, 100))
        for o, s in games
        if o is not None and not (r600 and max(rating, o) > 2600 and abs(rating - o) >= 600)
    ]
    used = _used(rating, [o for o, _ in counted], on, list_)
    total = sum((s - _pd(d, table) for (_, s), d in zip(counted, used, strict=True)), Fraction(0))
    n = len(counted)
    rule_700 = list_ != "standard" or on >= dt.date(2014, 7, 1)
    while rule_700 and k * n > 700:
        k -= 1
    change = k * total
    rounded = floor(abs(change) + Fraction(1, 2)) * (1 if change >= 0 else -1)
    return n, k, rounded


def test_engine_matches_independent_implementation(shared_dir: Path) -> None:
    _cross_check(_load_table(shared_dir), players=800, seed=20261130)


@pytest.mark.slow
def test_engine_matches_independent_implementation_at_scale(shared_dir: Path) -> None:
    _cross_check(_load_table(shared_dir), players=20_000, seed=7)


def _cross_check(table: Table, players: int, seed: int) -> None:
    rng = random.Random(seed)
    drawn = []
    for p in range(players):
        on, list_ = rng.choice(DATES), rng.choice(LISTS)
        rating = rng.randint(1000, 2850)
        k = rng.choice([10, 15, 20, 30, 40])
        n = rng.choice([1, 3, 5, 9, 11, 18, 36, 40, 75])
        games: list[tuple[int | None, int]] = [
            (
                None
                if rng.random() < 0.05
                else max(1000, min(2850, rating + rng.randint(-900, 900))),
                rng.choice([0, 50, 100]),
            )
            for _ in range(n)
        ]
        drawn.append((p, on, list_, rating, k, games))

    rulesets = {(on, list_): ruleset_for(on, list_) for on in DATES for list_ in LISTS}
    keys = list(rulesets)
    rows = []
    wanted = {}
    for p, on, list_, rating, k, games in drawn:
        want = wanted[p] = _independent(rating, games, k, on, list_, table)
        got = fide.rate_player(rating, games, k, rulesets[on, list_])
        assert (got.n, got.k, got.change) == want, (p, on, list_, rating, k)
        for rnd, (opp, score) in enumerate(games, start=1):
            rows.append((p, rnd, keys.index((on, list_)), rating, k, opp, score))
    frame = pl.DataFrame(
        rows,
        schema={
            "player": pl.Int64,
            "round": pl.Int64,
            "rs_index": pl.UInt32,
            "rating": pl.Int64,
            "k": pl.Int64,
            "opponent_rating": pl.Int64,
            "score": pl.Int64,
        },
        orient="row",
    ).with_columns(event=pl.col("player"))
    rs_frame = ruleset_frame(list(rulesets.values())).with_row_index("rs_index")
    totals = (
        player_totals_frame(rate_games_frame(frame.lazy().join(rs_frame.lazy(), on="rs_index")))
        .sort("player")
        .collect()
    )
    for p, _on, _list, rating, _k, _games in drawn:
        n, k_used, change = wanted[p]
        row = totals.row(p, named=True)
        assert (row["n"], row["k"], row["change"]) == (n, k_used, change), p
        assert row["rating_after"] == rating + change


@pytest.mark.parametrize("d", [-736, -735, -400, -3, 0, 3, 4, 413, 735, 736])
def test_independent_table_agrees_at_edges(shared_dir: Path, d: int) -> None:
    table = _load_table(shared_dir)
    assert _pd(d, table) * 100 == fide.expected_score(d)
