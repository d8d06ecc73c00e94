"""The scalar FIDE rules (pipeline.rules.fide) against cited vectors."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from fractions import Fraction

import pytest

from pipeline.rules.fide import (
    derive_k,
    difference_used,
    differences_used_in_event,
    expected_score,
    game_not_rated_600,
    initial_rating,
    k_after_700,
    rate_player,
    round_half_away,
)
from pipeline.rules.ruleset import ruleset_for
from tests.rules.vectors import CapEvent, cap_events, load_vectors, opt_int

CAPS = cap_events()
KS = load_vectors("k_factor.csv")
K700 = load_vectors("rule_700.csv")
ROUNDING = load_vectors("rounding.csv")
R600 = load_vectors("rule_600.csv")
TODAY_RULES = ruleset_for(dt.date(2026, 11, 30), "standard")


def _rs(row: dict[str, str]):  # type: ignore[no-untyped-def]
    return ruleset_for(dt.date.fromisoformat(row["date"]), row["list"])


@pytest.mark.parametrize("event", CAPS, ids=[e.label for e in CAPS])
def test_cap_eras(event: CapEvent) -> None:
    rs = ruleset_for(event.date, event.rating_list)
    used = differences_used_in_event(event.rating, event.opponents, rs)
    assert used == event.d_used
    assert [expected_score(d) for d in used] == event.pd_hundredths
    if rs.cap_mode != "once-per-event":
        assert [difference_used(event.rating, opp, rs) for opp in event.opponents] == used


def test_no_2650_exemption_before_october_2025() -> None:
    # Source: docs/rules.md "The rating-difference cap by era": the 2650 sentence of §8.3.1
    # is "Effective from 1 October 2025"; no earlier edition has it.
    for day in (dt.date(2009, 7, 1), dt.date(2021, 12, 31), dt.date(2023, 5, 1)):
        assert ruleset_for(day, "standard").cap_exempt_from is None
    assert differences_used_in_event(
        2700, [2200, 2100], ruleset_for(dt.date(2023, 5, 1), "standard")
    ) == [500, 400]
    assert difference_used(2700, 2200, ruleset_for(dt.date(2025, 9, 30), "standard")) == 400
    assert difference_used(2700, 2200, ruleset_for(dt.date(2025, 10, 1), "standard")) == 500


def test_once_per_event_needs_the_event() -> None:
    rs = ruleset_for(dt.date(2023, 1, 1), "standard")
    assert difference_used(2400, 2100, rs) == 300  # below the cap: no choice involved
    assert difference_used(1800, 2400, rs) == -400  # the lower-rated side: always capped
    with pytest.raises(ValueError, match="differences_used_in_event"):
        difference_used(2400, 1900, rs)


@pytest.mark.parametrize(
    ("rating", "opponents", "expected"),
    [
        # the largest D > 400 is capped, the others use the real D
        (2500, [2000, 1900, 1900, 2800], [500, 400, 600, -300]),
        # ties: the earliest round
        (2500, [1900, 1900], [400, 600]),
        # no D above the cap: nothing to choose
        (2300, [2000, 2100, 2400], [300, 200, -100]),
        # the lower-rated side is capped in every game
        (1800, [2300, 2400, 2250], [-400, -400, -400]),
        (2400, [1800, 2900, 1990], [400, -400, 410]),
    ],
    ids=["largest-capped", "tie-earliest", "none", "lower-always", "mixed"],
)
def test_once_per_event_choice(rating: int, opponents: list[int], expected: list[int]) -> None:
    # Source: fide-rules.md §3 (2022 .. Feb 2024: the cap benefits a player once per event).
    rs = ruleset_for(dt.date(2023, 1, 1), "standard")
    assert differences_used_in_event(rating, opponents, rs) == expected


@pytest.mark.parametrize(
    "row",
    KS,
    ids=[
        f"{r['list']} {r['date']} R{r['rating']} g{r['career_games']} b{r['birth_year']}"
        for r in KS
    ],
)
def test_derive_k(row: dict[str, str]) -> None:
    rs = _rs(row)
    k = derive_k(
        rs,
        rating=int(row["rating"]),
        career_games=opt_int(row["career_games"]),
        birth_year=opt_int(row["birth_year"]),
        period_year=int(row["date"][:4]),
        ever_2400=row["ever_2400"] == "1",
        given_k=opt_int(row["given_k"]),
    )
    assert k == int(row["k"])


def test_derive_k_unrated_player_is_new() -> None:
    k = derive_k(
        TODAY_RULES, rating=None, career_games=0, birth_year=None, period_year=2026, ever_2400=False
    )
    assert k == 40


@pytest.mark.parametrize("row", K700, ids=[f"700 rule K{r['k']} n{r['n']}" for r in K700])
def test_k_after_700(row: dict[str, str]) -> None:
    assert k_after_700(int(row["k"]), int(row["n"])) == int(row["k_after"])


@pytest.mark.parametrize(
    "row", ROUNDING, ids=[f"B.02 8.3 round {r['hundredths']}" for r in ROUNDING]
)
def test_round_half_away(row: dict[str, str]) -> None:
    assert round_half_away(int(row["hundredths"])) == int(row["whole"])


@pytest.mark.parametrize(
    "row", R600, ids=[f"{r['list']} {r['date']} {r['rating']}-{r['opponent']}" for r in R600]
)
def test_rule_600(row: dict[str, str]) -> None:
    rs = _rs(row)
    assert game_not_rated_600(rs, int(row["rating"]), int(row["opponent"])) is (
        row["not_rated"] == "1"
    )


# --- initial ratings (fide-rules.md §6; B.02 §7 from 2024-03-01) -----------------------

RULES_2024 = ruleset_for(dt.date(2025, 1, 1), "standard")
RULES_2022 = ruleset_for(dt.date(2023, 1, 1), "standard")


def test_initial_rating_published_example() -> None:
    # Source: FIDE's published example: 5 games, 3 points, opponents summing 9507 -> 1922.
    ini = initial_rating([1901, 1901, 1901, 1901, 1903], 300, RULES_2024)
    assert ini.ra == Fraction(13107, 7)
    assert ini.p == Fraction(4, 7)
    assert (ini.p_hundredths, ini.dp, ini.value, ini.published) == (57, 50, 1922, True)
    assert ini.games == 5


@pytest.mark.parametrize(
    ("opponents", "score", "value", "published"),
    [
        ([1800] * 14, 100, 1478, True),  # p = 2/16 = .125 -> .13 (half up): dp -322
        ([1800] * 5 + [1804], 300, 1801, True),  # Ra + dp = 1800.5 -> 1801
        ([2400] * 5, 500, 2200, True),  # 2537.57 capped at 2200
        ([1400] * 5, 50, 1284, False),  # below the floor 1400
        ([1900] * 4, 300, None, False),  # fewer than 5 games
    ],
    ids=["p-half-up", "ru-half-up", "max-2200", "below-floor", "four-games"],
)
def test_initial_rating_2024(
    opponents: list[int], score: int, value: int | None, published: bool
) -> None:
    ini = initial_rating(opponents, score, RULES_2024)
    assert (ini.value, ini.published) == (value, published)
    assert bool(ini.reason) is not published


@pytest.mark.parametrize(
    ("opponents", "score", "value"),
    [
        ([2000] * 5, 350, 2040),  # 2 half points above 50 % -> +40
        ([2000] * 6, 300, 2000),  # 50 % -> Ra
        ([2000] * 5, 200, 1928),  # 40 % -> dp -72
        ([1901, 1901, 1901, 1901, 1903], 300, 1921),  # Ra 1901.4 + 20
    ],
    ids=["above-50", "at-50", "below-50", "ra-fraction"],
)
def test_initial_rating_2022(opponents: list[int], score: int, value: int) -> None:
    # Source: fide-rules.md §6, rule of 2022 - Feb 2024.
    ini = initial_rating(opponents, score, RULES_2022)
    assert ini.method == "2022"
    assert ini.value == value
    assert ini.published


# --- a player's change ------------------------------------------------------------------


def test_rate_player_example() -> None:
    # Source: fide-rules.md §2/§4 with today's rules: ΣΔR 0.99 x 20 = 19.8 -> 20.
    games = [(2100, 100), (1950, 50), (2400, 0), (1500, 100), (2500, 50)]
    res = rate_player(2000, games, 20, TODAY_RULES)
    assert [g.difference_used for g in res.games] == [-100, 50, -400, 400, -400]
    assert [g.expected for g in res.games] == [36, 57, 8, 92, 8]
    assert (res.n, res.score, res.expected, res.sum_delta) == (5, 300, 201, 99)
    assert res.change_unrounded == Decimal("19.80")
    assert res.change_hundredths == 1980
    assert (res.change, res.rating_after) == (20, 2020)


def test_rate_player_exclusions_and_700() -> None:
    rs = ruleset_for(dt.date(2025, 1, 1), "rapid")
    games = [(None, 100), (2000, 100)] + [(2650, 50)] * 36
    res = rate_player(2650, games, 20, rs)
    assert [g.reason for g in res.games[:2]] == ["opponent-unrated", "rule-600"]
    assert res.games[1].delta is None
    assert res.n == 36
    assert res.k == 19  # Source: B.02 §8.3.3 700 rule, 20 x 36 > 700
    assert res.k_given == 20


def test_rate_player_decimal_k_is_exact_and_not_700() -> None:
    res = rate_player(1830, [(1980, 50)] * 40, Decimal("24.6"), TODAY_RULES)
    assert res.k == Decimal("24.6")
    assert res.change_unrounded == Decimal("24.6") * 40 * Decimal("0.20")
    assert res.change == 197  # 196.8 -> 197


def test_rate_player_negative_half_rounds_away() -> None:
    # Source: B.02 §8.3 rounding: K 5 x ΣΔR -0.50 = -2.5 -> -3 (away from zero).
    games = [(2000, 0), (2000, 50), (2000, 50), (2000, 50), (2000, 50)]
    res = rate_player(2000, games, 5, TODAY_RULES)
    assert res.sum_delta == -50
    assert res.change_unrounded == Decimal("-2.5")
    assert (res.change, res.rating_after) == (-3, 1997)
