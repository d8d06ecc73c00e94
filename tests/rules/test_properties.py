"""Invariants of the rules (hypothesis), and the batch period path equal to the scalar one."""

from __future__ import annotations

import datetime as dt

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.rules import fide
from pipeline.rules.ruleset import RuleSet, ruleset_for
from pipeline.rules.tables import expected_hundredths
from pipeline.rules.vector import player_totals_frame, rate_games_frame, ruleset_frame
from tests.rules.test_vector import RULESETS

TODAY = ruleset_for(dt.date(2026, 11, 30), "standard")
ratings = st.integers(min_value=1000, max_value=2850)
differences = st.integers(min_value=-3000, max_value=3000)
scores = st.sampled_from([0, 50, 100])


@given(differences)
def test_pd_symmetry(d: int) -> None:
    # Source: table 8.1.2, L = 1 - H: PD(D) + PD(-D) = 1.00.
    assert expected_hundredths(d) + expected_hundredths(-d) == 100


@given(differences, st.integers(min_value=1, max_value=500))
def test_pd_monotone(d: int, step: int) -> None:
    assert expected_hundredths(d) <= expected_hundredths(d + step)
    assert 0 <= expected_hundredths(d) <= 100


@given(st.integers(min_value=1000, max_value=2649), ratings)
def test_cap_below_2650(rating: int, opponent: int) -> None:
    # Source: B.02 §8.3.1 (from 2025-10-01): |D| > 400 counts as 400 below 2650.
    d = rating - opponent
    used = fide.difference_used(rating, opponent, TODAY)
    assert used == (max(-400, min(400, d)))
    if abs(d) > 400:
        assert fide.expected_score(used) == fide.expected_score(400 if d > 0 else -400)


@given(st.integers(min_value=2650, max_value=2900), st.integers(min_value=1000, max_value=2900))
def test_no_cap_from_2650(rating: int, opponent: int) -> None:
    d = rating - opponent
    assert fide.difference_used(rating, opponent, TODAY) == max(-400, d)


period_games = st.lists(st.tuples(st.one_of(st.none(), ratings), scores), min_size=1, max_size=60)


@settings(max_examples=200)
@given(ratings, period_games, st.sampled_from([10, 15, 20, 30, 40]), st.sampled_from(RULESETS))
def test_change_bounded_by_k_times_n(
    rating: int,
    games: list[tuple[int | None, int]],
    k: int,
    rs: RuleSet,
) -> None:
    res = fide.rate_player(rating, games, k, rs)
    assert isinstance(res.k, int)
    assert abs(res.change) <= res.k * res.n
    assert res.k * res.n <= max(700, k) or not rs.rule_700
    assert res.rating_after - rating == res.change


players = st.lists(
    st.tuples(
        st.integers(0, len(RULESETS) - 1),
        ratings,
        st.sampled_from([10, 15, 20, 40]),
        period_games,
    ),
    min_size=1,
    max_size=8,
)


@settings(max_examples=60, deadline=None)
@given(players)
def test_period_vector_equals_scalar(
    rows: list[tuple[int, int, int, list[tuple[int | None, int]]]],
) -> None:
    """Each player plays one event; the batch totals equal `rate_player`."""
    flat = [
        (p, p, rnd, rs_i, rating, k, opp, score)
        for p, (rs_i, rating, k, games) in enumerate(rows)
        for rnd, (opp, score) in enumerate(games, start=1)
    ]
    schema = {
        "event": pl.Int64,
        "player": pl.Int64,
        "round": pl.Int64,
        "rs_index": pl.UInt32,
        "rating": pl.Int64,
        "k": pl.Int64,
        "opponent_rating": pl.Int64,
        "score": pl.Int64,
    }
    frame = pl.DataFrame(flat, schema=schema, orient="row")
    rs_frame = ruleset_frame(RULESETS).with_row_index("rs_index")
    lazy = frame.lazy().join(rs_frame.lazy(), on="rs_index")
    totals = player_totals_frame(rate_games_frame(lazy)).sort("player").collect()
    for p, (rs_i, rating, k, games) in enumerate(rows):
        want = fide.rate_player(rating, games, k, RULESETS[rs_i])
        got = totals.row(p, named=True)
        assert (got["n"], got["sum_delta"], got["k"]) == (want.n, want.sum_delta, want.k)
        assert (got["change"], got["rating_after"]) == (want.change, want.rating_after)
        assert (got["score"], got["expected"]) == (want.score, want.expected)
