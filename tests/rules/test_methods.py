"""The calculators' non-FIDE methods (fide-rules.md §7)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from pipeline.rules.fide import round_decimal_half_away
from pipeline.rules.methods import (
    cap_difference,
    expectation_for,
    logistic_expected,
    polynomial_expected,
    rate_games,
    table_expected,
    variable_k,
)
from pipeline.rules.ruleset import ruleset_for
from pipeline.rules.tables import expected_hundredths

RS = ruleset_for(dt.date(2026, 11, 30), "standard")


def _q(value: Decimal, places: int) -> Decimal:
    return round_decimal_half_away(value, places)


def test_logistic_seed_example() -> None:
    # Source: fide-rules.md §7 seed: 1500 vs 1600 -> E 0.3599.
    assert _q(logistic_expected(Decimal(-100)), 4) == Decimal("0.3599")


def test_logistic_misses_the_table_460_times() -> None:
    # Source: fide-rules.md §2: the formula misses table 8.1.2 at 460 of the 736 integer D
    # values in 0..735, by up to 0.018.
    misses = [
        d
        for d in range(736)
        if _q(logistic_expected(Decimal(d)), 2) * 100 != expected_hundredths(d)
    ]
    assert len(misses) == 460
    worst = max(
        abs(logistic_expected(Decimal(d)) - Decimal(expected_hundredths(d)) / 100)
        for d in range(736)
    )
    assert Decimal("0.018") <= worst < Decimal("0.019")


def test_polynomial_within_0_0071_of_the_table() -> None:
    # Source: fide-rules.md §7: within 0.0071 of the table for |D| <= 735.
    worst = max(
        abs(polynomial_expected(Decimal(d)) - Decimal(expected_hundredths(d)) / 100)
        for d in range(-735, 736)
    )
    assert worst < Decimal("0.0071")


@pytest.mark.parametrize("d", [757, 800, 2000, -900])
def test_polynomial_is_clamped(d: int) -> None:
    pe = polynomial_expected(Decimal(d))
    assert pe == polynomial_expected(Decimal(735 if d > 0 else -735))
    assert Decimal(0) <= pe <= Decimal(1)


@pytest.mark.parametrize(
    ("rating", "k"),
    [(1400, Decimal(40)), (2000, Decimal("19.6")), (2400, Decimal(10))],
    ids=["1400", "2000", "2400"],
)
def test_variable_k(rating: int, k: Decimal) -> None:
    # Source: fide-rules.md §7: K = (3400 - R)^2 / 100000 (not a FIDE rule).
    assert variable_k(rating) == k


@pytest.mark.parametrize(
    ("d", "pd"),
    [(Decimal("3.4"), "0.50"), (Decimal("3.5"), "0.51"), (Decimal("-3.5"), "0.49")],
)
def test_table_with_a_decimal_difference(d: Decimal, pd: str) -> None:
    assert table_expected(d) == Decimal(pd)


def test_expectation_kinds() -> None:
    assert expectation_for(Decimal(0), "logistic") == Decimal("0.5")
    assert expectation_for(Decimal(0), "polynomial") == Decimal("0.5")
    assert expectation_for(Decimal(0), "table") == Decimal("0.5")
    with pytest.raises(ValueError, match="expectation"):
        expectation_for(Decimal(0), "normal")


def test_cap_difference() -> None:
    assert cap_difference(Decimal(500), Decimal(2000), RS) == 400
    assert cap_difference(Decimal(500), Decimal(2700), RS) == 500
    assert cap_difference(Decimal(-500), Decimal(2000), RS) == -400


def test_continuous_seed_example() -> None:
    # Source: fide-rules.md §7: 1500 vs 1600, win, K 20 -> +12.8 (logistic and table).
    res = rate_games("continuous", 1500, [(1600, 100)], Decimal(20), RS, "logistic")
    assert _q(res.change_unrounded, 1) == Decimal("12.8")
    res = rate_games("continuous", 1500, [(1600, 100)], Decimal(20), RS, "table")
    assert res.change_unrounded == Decimal("12.80")


def test_average_seed_example() -> None:
    # Source: fide-rules.md §7: 1830 vs 1980, draw, K 24.6 -> E 0.30, +4.9.
    res = rate_games("average", 1830, [(1980, 50)], Decimal("24.6"), RS, "table")
    assert res.expected == Decimal("0.30")
    assert res.change_unrounded == Decimal("4.920")
    assert res.average_opponent == 1980


def test_average_uses_the_average_opponent() -> None:
    # Rn = Ro + K (W - n Pe) with D = 2000 - avg(1900, 2100, 2300) = -100 -> Pe .36
    games = [(1900, 100), (2100, 50), (2300, 0), (None, 100)]
    res = rate_games("average", 2000, games, Decimal(20), RS, "table")
    assert res.n == 3
    assert res.average_difference == -100
    assert res.change_unrounded == Decimal(20) * (Decimal("1.5") - 3 * Decimal("0.36"))
    assert res.games[3].reason == "opponent-unrated"


def test_sequential_updates_after_each_game() -> None:
    games = [(1600, 100), (1600, 100)]
    res = rate_games("sequential", 1500, games, Decimal(20), RS, "table")
    first, second = res.games
    assert first.k_delta == Decimal(20) * Decimal("0.64")  # D -100 -> .36
    assert second.rating_before == Decimal("1512.8")
    assert second.difference == Decimal("-87.2")  # rounded to -87 -> .38
    assert second.expected == Decimal("0.38")
    assert res.rating_after == Decimal("1500") + Decimal("12.8") + Decimal("12.4")


def test_sequential_variable_k_follows_the_rating() -> None:
    res = rate_games("sequential", 1400, [(1400, 100), (1400, 100)], "variable", RS, "table")
    assert res.games[0].k == Decimal(40)
    assert res.games[1].k == variable_k(Decimal(1420))


def test_methods_skip_the_600_rule_games() -> None:
    rapid = ruleset_for(dt.date(2025, 1, 1), "rapid")
    res = rate_games("continuous", 2650, [(2050, 100)], Decimal(20), rapid, "logistic")
    assert res.n == 0
    assert res.games[0].reason == "rule-600"
    assert res.change_unrounded == 0


def test_unknown_method() -> None:
    with pytest.raises(ValueError, match="method"):
        rate_games("glicko", 1500, [(1600, 100)], Decimal(20), RS, "table")
