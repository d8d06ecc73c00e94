"""The vectorized engine equals the scalar reference on random inputs (every cap mode)."""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.rules import fide
from pipeline.rules.ruleset import RuleSet, ruleset_for
from pipeline.rules.tables import expected_hundredths
from pipeline.rules.vector import (
    derive_k_expr,
    difference_used_expr,
    expected_expr,
    initial_rating_expr,
    k_after_700_expr,
    round_half_away_expr,
    rule_600_expr,
    ruleset_columns,
    ruleset_frame,
)
from tests.rules.vectors import cap_events

# One rule set per cap mode and list behaviour.
RULESETS: list[RuleSet] = [
    ruleset_for(dt.date(2008, 5, 1), "standard"),  # 350, every game, K 25/15/10
    ruleset_for(dt.date(2015, 5, 1), "standard"),  # 400, every game
    ruleset_for(dt.date(2023, 5, 1), "standard"),  # 400, once per event
    ruleset_for(dt.date(2024, 6, 1), "standard"),  # 400, every game, 2024 rules
    ruleset_for(dt.date(2026, 5, 1), "standard"),  # 400 below 2650
    ruleset_for(dt.date(2020, 5, 1), "rapid"),  # flat K 20
    ruleset_for(dt.date(2026, 5, 1), "blitz"),  # 600 rule
]
MODES = {rs.cap_mode for rs in RULESETS}
RS_FRAME = ruleset_frame(RULESETS).with_row_index("rs_index")

ratings = st.integers(min_value=1000, max_value=2850)
opponents = st.one_of(st.none(), ratings)


def test_all_cap_modes_are_covered() -> None:
    assert {"every-game", "once-per-event", "below-2650"} == MODES


def test_expected_expr_on_every_difference() -> None:
    d = list(range(-1200, 1201))
    out = pl.DataFrame({"d": d}).select(expected_expr(pl.col("d"))).to_series().to_list()
    assert out == [expected_hundredths(x) for x in d]


def test_ruleset_columns_are_prefixed_and_typed() -> None:
    cols = ruleset_columns(RULESETS[4])
    assert cols["rs_cap_mode"] == "below-2650"
    assert cols["rs_cap_exempt_from"] == 2650
    frame = ruleset_frame(RULESETS)
    assert frame.schema["rs_k_flat"] == pl.Int64
    assert frame.schema["rs_valid_to"] == pl.Date
    assert set(frame.columns) == set(cols)


events_strategy = st.lists(
    st.tuples(
        st.integers(0, len(RULESETS) - 1),  # rule set
        ratings,  # the player's rating
        st.lists(opponents, min_size=1, max_size=12),  # games in round order
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=150, deadline=None)
@given(events_strategy)
def test_difference_used_and_expected_equal_scalar(
    events: list[tuple[int, int, list[int | None]]],
) -> None:
    rows = []
    expected_used: list[int | None] = []
    for event_no, (rs_i, rating, opps) in enumerate(events):
        rs = RULESETS[rs_i]
        rated = [o for o in opps if o is not None]
        scalar = iter(fide.differences_used_in_event(rating, rated, rs))
        for rnd, opp in enumerate(opps, start=1):
            rows.append((event_no, 7, rnd, rs_i, rating, opp))
            expected_used.append(None if opp is None else next(scalar))
    frame = pl.DataFrame(
        rows, schema=["event", "player", "round", "rs_index", "rating", "opp"], orient="row"
    ).with_columns(pl.col("rs_index").cast(pl.UInt32))
    # shuffle the rows: the engine must not depend on the frame's order
    frame = frame.sample(fraction=1.0, shuffle=True, seed=len(rows))
    out = (
        frame.join(RS_FRAME, on="rs_index")
        .with_columns(d=pl.col("rating") - pl.col("opp"))
        .with_columns(
            used=difference_used_expr(
                pl.col("d"),
                pl.col("rating"),
                pl.col("rs_cap"),
                pl.col("rs_cap_mode"),
                pl.col("rs_cap_exempt_from"),
                over=["event", "player"],
                order_by="round",
            )
        )
        .with_columns(pd=expected_expr(pl.col("used")))
        .sort("event", "round")
    )
    assert out["used"].to_list() == expected_used
    assert out["pd"].to_list() == [
        None if u is None else fide.expected_score(u) for u in expected_used
    ]


CAP_EVENTS = cap_events()


def test_cap_eras_vectors() -> None:
    """The cited events of cap_eras.csv (every era, 2650+ and below, several games beyond the
    cap in one event) through the vector path, all in one frame."""
    rulesets = [ruleset_for(e.date, e.rating_list) for e in CAP_EVENTS]
    rows = [
        (event_no, rnd, event_no, e.rating, opp)
        for event_no, e in enumerate(CAP_EVENTS)
        for rnd, opp in enumerate(e.opponents, start=1)
    ]
    frame = pl.DataFrame(
        rows, schema=["event", "round", "rs_index", "rating", "opp"], orient="row"
    ).with_columns(pl.col("rs_index").cast(pl.UInt32))
    out = (
        frame.join(ruleset_frame(rulesets).with_row_index("rs_index"), on="rs_index")
        .with_columns(d=pl.col("rating") - pl.col("opp"))
        .with_columns(
            used=difference_used_expr(
                pl.col("d"),
                pl.col("rating"),
                pl.col("rs_cap"),
                pl.col("rs_cap_mode"),
                pl.col("rs_cap_exempt_from"),
                over=["event"],
                order_by="round",
            )
        )
        .with_columns(pd=expected_expr(pl.col("used")))
        .sort("event", "round")
    )
    assert out["used"].to_list() == [d for e in CAP_EVENTS for d in e.d_used]
    assert out["pd"].to_list() == [p for e in CAP_EVENTS for p in e.pd_hundredths]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(RULESETS) - 1), ratings, ratings), min_size=1))
def test_rule_600_equals_scalar(rows: list[tuple[int, int, int]]) -> None:
    frame = pl.DataFrame(rows, schema=["rs_index", "r", "o"], orient="row").with_columns(
        pl.col("rs_index").cast(pl.UInt32)
    )
    out = frame.join(RS_FRAME, on="rs_index", maintain_order="left").select(
        rule_600_expr(pl.col("r"), pl.col("o"), pl.col("rs_rule_600"))
    )
    want = [fide.game_not_rated_600(RULESETS[i], r, o) for i, r, o in rows]
    assert out.to_series().to_list() == want


def test_rule_600_null_opponent_is_false() -> None:
    frame = pl.DataFrame({"r": [2700], "o": [None]}, schema={"r": pl.Int64, "o": pl.Int64})
    out = frame.select(rule_600_expr(pl.col("r"), pl.col("o"), pl.lit(True)))
    assert out.to_series().to_list() == [False]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 60), st.integers(0, 200)), min_size=1))
def test_k_after_700_equals_scalar(rows: list[tuple[int, int]]) -> None:
    frame = pl.DataFrame(rows, schema=["k", "n"], orient="row")
    out = frame.select(k_after_700_expr(pl.col("k"), pl.col("n"))).to_series().to_list()
    assert out == [fide.k_after_700(k, n) for k, n in rows]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(-100_000, 100_000), min_size=1))
def test_round_half_away_equals_scalar(values: list[int]) -> None:
    frame = pl.DataFrame({"h": values}, schema={"h": pl.Int64})
    out = frame.select(round_half_away_expr(pl.col("h"))).to_series().to_list()
    assert out == [fide.round_half_away(h) for h in values]


k_states = st.tuples(
    st.integers(0, len(RULESETS) - 1),
    st.one_of(st.none(), ratings),  # rating
    st.one_of(st.none(), st.integers(0, 60)),  # career games
    st.one_of(st.none(), st.integers(1990, 2020)),  # birth year
    st.booleans(),  # ever 2400
    st.one_of(st.none(), st.sampled_from([10, 15, 20, 30, 40])),  # given K
)


@settings(max_examples=100, deadline=None)
@given(st.lists(k_states, min_size=1, max_size=30))
def test_derive_k_equals_scalar(
    rows: list[tuple[int, int | None, int | None, int | None, bool, int | None]],
) -> None:
    frame = pl.DataFrame(
        rows,
        schema={
            "rs_index": pl.UInt32,
            "rating": pl.Int64,
            "games": pl.Int64,
            "born": pl.Int64,
            "top": pl.Boolean,
            "given": pl.Int64,
        },
        orient="row",
    )
    joined = frame.join(RS_FRAME, on="rs_index", maintain_order="left").with_columns(
        year=pl.col("rs_valid_from").dt.year().cast(pl.Int64)
    )
    out = joined.select(
        derive_k_expr(
            rating=pl.col("rating"),
            career_games=pl.col("games"),
            birth_year=pl.col("born"),
            period_year=pl.col("year"),
            ever_2400=pl.col("top"),
            given_k=pl.col("given"),
        )
    )
    want = [
        fide.derive_k(
            RULESETS[i],
            rating=r,
            career_games=g,
            birth_year=b,
            period_year=RULESETS[i].valid_from.year,
            ever_2400=t,
            given_k=k,
        )
        for i, r, g, b, t, k in rows
    ]
    assert out.to_series().to_list() == want


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, len(RULESETS) - 1),
            st.lists(ratings, min_size=0, max_size=15),
            st.integers(0, 30),  # half points, clipped to the number of games
        ),
        min_size=1,
        max_size=20,
    )
)
def test_initial_rating_equals_scalar(rows: list[tuple[int, list[int], int]]) -> None:
    data = [(i, sum(opps), len(opps), min(h, 2 * len(opps)) * 50) for i, opps, h in rows]
    frame = pl.DataFrame(
        data,
        schema={"rs_index": pl.UInt32, "s": pl.Int64, "n": pl.Int64, "w": pl.Int64},
        orient="row",
    )
    out = frame.join(RS_FRAME, on="rs_index", maintain_order="left").select(
        initial_rating_expr(pl.col("s"), pl.col("n"), pl.col("w"))
    )
    want = [
        fide.initial_rating(opps, w, RULESETS[i]).value
        for (i, opps, _), (_, _, _, w) in zip(rows, data, strict=True)
    ]
    assert out.to_series().to_list() == want


@pytest.mark.parametrize("mode", sorted(MODES))
def test_null_cap_means_no_cap(mode: str) -> None:
    frame = pl.DataFrame(
        {"e": [1], "r": [2800], "d": [900], "cap": [None], "mode": [mode], "ex": [None]},
        schema={
            "e": pl.Int64,
            "r": pl.Int64,
            "d": pl.Int64,
            "cap": pl.Int64,
            "mode": pl.String,
            "ex": pl.Int64,
        },
    )
    out = frame.select(
        difference_used_expr(
            pl.col("d"), pl.col("r"), pl.col("cap"), pl.col("mode"), pl.col("ex"), ["e"], "e"
        )
    )
    assert out.to_series().to_list() == [900]
