"""Initial ratings of unrated players over a period (fide-rules.md §6)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from fractions import Fraction

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.rate import RateOptions
from pipeline.rules.fide import initial_rating
from pipeline.rules.ruleset import ruleset_for
from tests.rate.builders import Event, game_rows, rate, row

UNRATED = 500  # FIDE ID of the unrated player in these tests


def event_with(
    event_id: str, start: dt.date, games: Sequence[tuple[int | None, float]], lst: str = "standard"
) -> Event:
    e = Event(event_id, lst=lst, start=start)
    e.player(1, None, UNRATED, name="Una Newcomer")
    e.series(1, list(games), first_no=2)
    return e


# §6 FIDE's published example: 5 games, 3 points, opponents summing 9507
# -> Ra = 13107 / 7 = 1872.43, p = 4/7 -> .57, dp 50, Ru = 1922.
FIRST = [(1850, 1.0), (1900, 0.5), (1957, 0.0)]
SECOND = [(1800, 1.0), (2000, 0.5)]


def test_initial_rating_pooled_across_two_events() -> None:
    first = event_with("i1", dt.date(2025, 3, 1), FIRST)
    second = event_with("i2", dt.date(2025, 3, 15), SECOND)
    r = row(rate(first, second), UNRATED)
    assert (r["status"], r["games"], r["score"], r["rating_after"]) == ("initial", 5, 3.0, 1922)
    assert (r["ra"], r["p"], r["dp"]) == (1872.43, 0.57, 50)
    assert (r["rating_before"], r["change"], r["k"], r["expected"]) == (None, None, None, None)


def test_too_few_games_stay_unrated() -> None:
    result = rate(event_with("i1", dt.date(2025, 3, 1), FIRST))
    r = row(result, UNRATED)
    assert (r["status"], r["games"], r["score"], r["rating_after"]) == ("unrated", 3, 1.5, None)
    # the player's side counts toward an initial rating, the opponents' side does not count
    assert {g["reason"] for g in game_rows(result, UNRATED)} == {"player-unrated"}
    opponents = result.games.filter(pl.col("opponent_fide_id") == UNRATED)
    assert set(opponents["reason"]) == {"opponent-unrated"}
    assert set(result.ratings.filter(pl.col("fide_id").is_null())["change"]) == {0}


def test_zero_score_in_the_first_event_is_disregarded() -> None:
    zero = event_with("z", dt.date(2025, 3, 1), [(1800, 0.0), (1800, 0.0)])
    main = event_with("i", dt.date(2025, 3, 10), FIRST + SECOND)
    result = rate(main, zero)
    r = row(result, UNRATED)
    assert (r["status"], r["games"], r["rating_after"]) == ("initial", 5, 1922)
    counted = {(g["event_id"], g["counts_initial"]) for g in game_rows(result, UNRATED)}
    assert counted == {("z", False), ("i", True)}


def test_zero_score_in_a_later_event_counts() -> None:
    # 7 games, 3 points, 9507 + 3600: Ra = 16707 / 9 = 1856.33, p = 4/9 -> .44, dp -43
    # -> Ru 1813
    main = event_with("i", dt.date(2025, 3, 1), FIRST + SECOND)
    zero = event_with("z", dt.date(2025, 3, 10), [(1800, 0.0), (1800, 0.0)])
    r = row(rate(main, zero), UNRATED)
    assert (r["status"], r["games"], r["ra"], r["p"], r["dp"], r["rating_after"]) == (
        "initial",
        7,
        1856.33,
        0.44,
        -43,
        1813,
    )


def test_initial_rating_is_at_most_2200() -> None:
    # Ra = 15600/7 = 2228.57, p = 6/7 -> .86, dp 309 -> 2538 -> at most 2200
    r = row(rate(event_with("i", dt.date(2025, 3, 1), [(2400, 1.0)] * 5)), UNRATED)
    assert (r["status"], r["initial_value"], r["rating_after"]) == ("initial", 2200, 2200)


def test_zero_score_in_the_only_event_leaves_nothing() -> None:
    r = row(rate(event_with("i", dt.date(2025, 3, 1), [(1400, 0.0)] * 5)), UNRATED)
    assert (r["status"], r["games"], r["initial_value"]) == ("unrated", 0, None)


def test_below_1400_is_not_published() -> None:
    warm_up = event_with("w", dt.date(2025, 3, 1), [(1400, 0.5)])  # first event, not zero
    main = event_with("i", dt.date(2025, 3, 8), [(1400, 0.0)] * 5)
    # 6 games, .5 point vs 8400: Ra = 12000/8 = 1500, p = 1.5/8 -> .19, dp -251 -> 1249
    r = row(rate(warm_up, main), UNRATED)
    assert (r["status"], r["games"], r["initial_value"], r["rating_after"]) == (
        "unrated",
        6,
        1249,
        None,
    )


def test_two_unrated_players_count_for_neither() -> None:
    e = Event("u")
    e.player(1, None, 1)
    e.player(2, None, 2)
    e.pair(1, 1, 2, "1-0")
    result = rate(e)
    assert set(result.games["reason"]) == {"opponent-unrated"}
    assert result.ratings["games"].to_list() == [0, 0]


def test_2022_method_in_a_2023_period() -> None:
    # §6 rule of 2022 - Feb 2024: Ra = 9507 / 5 = 1901.4; 3 of 5 is one half point above
    # 50 % -> +20 -> 1921
    e = event_with("o", dt.date(2023, 5, 1), FIRST + SECOND)
    r = row(rate(e), UNRATED)
    assert (r["status"], r["ra"], r["p"], r["dp"], r["rating_after"]) == (
        "initial",
        1901.4,
        0.6,
        20,
        1921,
    )


def test_rapid_initial_rating() -> None:
    e = event_with("r", dt.date(2025, 3, 1), FIRST + SECOND, lst="rapid")
    assert row(rate(e), UNRATED, "rapid")["rating_after"] == 1922


@settings(max_examples=25, deadline=None)
@given(
    games=st.lists(
        st.tuples(st.integers(1400, 2800), st.sampled_from([0.0, 0.5, 1.0])),
        min_size=1,
        max_size=12,
    ),
    year=st.sampled_from([2023, 2025]),
)
def test_details_match_the_scalar_rules(games: list[tuple[int, float]], year: int) -> None:
    """Ru, Ra, p and dp of the batch path equal pipeline.rules.fide.initial_rating."""
    if sum(score for _, score in games) == 0:
        games = [*games, (1800, 0.5)]  # keep the only event from being disregarded
    start = dt.date(year, 5, 1)
    result = rate(
        event_with("h", start, list(games)),
        options=RateOptions(today=dt.date(2025, 6, 1)),
    )
    r = row(result, UNRATED)
    ref = initial_rating(
        [opp for opp, _ in games],
        int(sum(Fraction(score) for _, score in games) * 100),
        ruleset_for(start, "standard"),
    )
    assert r["initial_value"] == ref.value
    assert r["status"] == ("initial" if ref.published else "unrated")
    if ref.value is not None:
        assert ref.ra is not None
        assert ref.p_hundredths is not None
        assert r["dp"] == ref.dp
        assert r["p"] == ref.p_hundredths / 100
        ra_h = (ref.ra * 100).numerator * 2 + (ref.ra * 100).denominator
        assert r["ra"] == (ra_h // (2 * (ref.ra * 100).denominator)) / 100


def test_initial_rating_without_fide_id_is_flagged() -> None:
    # fide-rules.md §6: published only for a registered player; say who needs an ID.
    e = Event("new", start=dt.date(2025, 3, 10))
    e.player(1, None, None)  # unrated, no FIDE ID
    opponents: list[tuple[int | None, float]] = [
        (1700, 1.0),
        (1800, 0.5),
        (1900, 0.5),
        (1750, 1.0),
        (1850, 0.0),
    ]
    e.series(1, opponents, first_no=2)
    result = rate(e)
    [flag] = [w for w in result.warnings if w.code == "initial-without-fide-id"]
    assert flag.severity.value == "warning"
    assert "who qualifies for an initial rating of" in flag.message
