"""bench/engine.py on a small sample: both paths agree (keeps the benchmark honest)."""

from __future__ import annotations

from bench.engine import RULESETS, generate, rate_loop, rate_vectorized


def test_bench_paths_agree_on_a_sample() -> None:
    games = generate(games=20_000, players=4_000, seed=5)
    assert games["rs_index"].n_unique() == len(RULESETS)
    vec = rate_vectorized(games)
    loop, seconds = rate_loop(games)
    assert seconds >= 0
    assert {row[0]: tuple(row[1:]) for row in vec.iter_rows()} == loop
    assert max(v[0] for v in loop.values()) > 35  # the 700 rule is exercised
