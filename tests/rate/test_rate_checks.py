"""Cross-checks against a crosstable's own K and rtg+/- columns (pipeline.rate.checks)."""

from __future__ import annotations

import datetime as dt

import polars as pl

from pipeline.formats.crosstable.read import read_crosstable_csv
from pipeline.rate import RateOptions, rate_period

# Meier 2210 (K 20): vs 2250 won, D -40 -> PD .44, +0.56; vs 1980 won, D +230 -> .79,
# +0.21: K×ΣΔR +15.40 (table 8.1.2). Huber: -0.56 + 0.11 -> -9.00 as declared.
# Schmidt 1980: +0.39 - 0.21 -> +3.60 with K 20; the file says K 40 and 0.0.
CROSSTABLE = """Chess-Results Server Chess-results.com
Spring Rapid 2025
Date: 2025/04/12
Final Ranking crosstable after 2 Rounds
Rk.;SNo;Name;FED;Rtg;1.Rd;2.Rd;Pts.;K;rtg+/-
1;1;Meier, Hans;GER;2210;2w1;3b1;2;20;10,6
2;2;Huber, Karl;AUT;2250;1b0;4w1;1;20;-9,0
3;3;Schmidt, Eva;GER;1980;4w1;1w0;1;40;0,0
4;4;Klein, Otto;GER;1900;3b0;2b0;0;20;
"""


def test_declared_k_and_change_are_cross_checked() -> None:
    ev = read_crosstable_csv(CROSSTABLE, "spring.csv")
    result = rate_period(
        ev.events, ev.players, ev.games, None, RateOptions(today=dt.date(2025, 5, 1))
    )
    found = [
        (str(p.location), p.code, p.message)
        for p in result.warnings
        if p.code.startswith("declared-")
    ]
    assert found == [
        (
            "spring.csv:6:rtg+/-",
            "declared-change-differs",
            "expected K×ΣΔR +15.40 for Meier, Hans, got +10.6 in the file",
        ),
        (
            "spring.csv:8:K",
            "declared-k-differs",
            "expected K 20 for Schmidt, Eva (the rules and the rating list), got K 40 in the file",
        ),
        (
            "spring.csv:8:rtg+/-",
            "declared-change-differs",
            "expected K×ΣΔR +3.60 for Schmidt, Eva, got +0.0 in the file",
        ),
    ]
    huber = result.ratings.filter(pl.col("name") == "Huber, Karl")
    assert huber["change_unrounded"].to_list() == [-9.0]
