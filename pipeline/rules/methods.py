"""The calculator pages' other methods (fide-rules.md §7). None of them is FIDE's rule.

All arithmetic is `Decimal` (28 significant digits), so a decimal K such as 24.6 is kept
exactly and the logistic curve is computed to far more digits than any report shows.

- continuous: E = 1 / (1 + 10^(-D/400)) per game (or another expectation), change =
  K x Σ(score - E), decimals kept.
- sequential: the rating is updated after each game, in the order given; D uses the
  current rating; with the variable K, K is recomputed from the current rating.
- average: classic Elo against the average opponent, Rn = Ro + K x (W - n x Pe) with Pe
  from D = Ro - average opponent rating.
- expectations: ``table`` (8.1.2; a decimal D is rounded half away from zero first),
  ``logistic``, ``polynomial`` (D clamped to +-735, Pe clamped to [0, 1]).
- the variable K = (3400 - R)^2 / 100000 is of unknown origin and not a FIDE rule.

Which games count follows FIDE for every method: unrated opponents and games hit by the
600-point rule (from the ratings before the event) do not count. The rule set's cap
applies to D in every method, game by game (**choice**: the once-per-event variant is
FIDE-method only; here it caps every game), with the 2650 exemption where it exists.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, localcontext
from typing import Final, Literal

from pipeline.rules.fide import REASON_OPPONENT_UNRATED, REASON_RULE_600, game_not_rated_600
from pipeline.rules.ruleset import RuleSet
from pipeline.rules.tables import PD_TABLE_MAX_D, expected_hundredths

METHODS: Final[tuple[str, ...]] = ("continuous", "sequential", "average")
EXPECTATIONS: Final[tuple[str, ...]] = ("table", "logistic", "polynomial")

KRule = Decimal | Literal["variable"]

_POLY: Final[tuple[Decimal, ...]] = (
    Decimal("1.4217e-3"),
    Decimal("-2.4336e-7"),
    Decimal("-2.5140e-9"),
    Decimal("1.9910e-12"),
)
_HUNDRED: Final[Decimal] = Decimal(100)


def logistic_expected(d: Decimal) -> Decimal:
    """E = 1 / (1 + 10^(-D/400))."""
    with localcontext() as ctx:
        ctx.prec = 28
        return Decimal(1) / (1 + Decimal(10) ** (-d / 400))


def polynomial_expected(d: Decimal, clamp: int = PD_TABLE_MAX_D) -> Decimal:
    """Pe = 0.5 + 1.4217e-3 D - 2.4336e-7 D|D| - 2.5140e-9 D|D|^2 + 1.9910e-12 D|D|^3,
    with D clamped to +-`clamp` and Pe to [0, 1]."""
    d = max(Decimal(-clamp), min(Decimal(clamp), d))
    a = abs(d)
    c1, c2, c3, c4 = _POLY
    pe = Decimal("0.5") + d * (c1 + a * (c2 + a * (c3 + a * c4)))
    return max(Decimal(0), min(Decimal(1), pe))


def table_expected(d: Decimal) -> Decimal:
    """PD of table 8.1.2 as a Decimal; a decimal D is rounded half away from zero."""
    whole = int(d.quantize(Decimal(1), rounding=ROUND_HALF_UP))
    return Decimal(expected_hundredths(whole)) / _HUNDRED


def expectation_for(d: Decimal, kind: str) -> Decimal:
    """The expected score for D under `kind` (table, logistic, polynomial)."""
    if kind == "table":
        return table_expected(d)
    if kind == "logistic":
        return logistic_expected(d)
    if kind == "polynomial":
        return polynomial_expected(d)
    raise ValueError(f"expected an expectation {', '.join(EXPECTATIONS)}, got {kind!r}")


def variable_k(rating: Decimal | int) -> Decimal:
    """K = (3400 - R)^2 / 100000 (1400 -> 40, 2000 -> 19.6, 2400 -> 10); not FIDE's."""
    return (Decimal(3400) - Decimal(rating)) ** 2 / Decimal(100000)


def cap_difference(d: Decimal, rating: Decimal, rs: RuleSet) -> Decimal:
    """D after the rule set's cap, applied game by game (2650 exemption kept)."""
    if rs.cap is None:
        return d
    exempt = rs.cap_exempt_from
    if rs.cap_mode == "below-2650" and exempt is not None and rating >= exempt:
        return d
    return max(Decimal(-rs.cap), min(Decimal(rs.cap), d))


@dataclass(frozen=True)
class MethodRow:
    """One game; scores in points (Decimal), None where the game does not count."""

    opponent: int | None
    score: Decimal
    rating_before: Decimal  # the player's rating when this game is computed
    difference: Decimal | None
    difference_used: Decimal | None
    expected: Decimal | None
    delta: Decimal | None
    k: Decimal | None
    k_delta: Decimal | None
    rated: bool
    reason: str


@dataclass(frozen=True)
class MethodResult:
    method: str
    expectation: str
    rating: int
    games: tuple[MethodRow, ...]
    k: Decimal  # K used (sequential with variable K: the K of the first game)
    n: int
    score: Decimal
    expected: Decimal
    sum_delta: Decimal
    change_unrounded: Decimal
    rating_after: Decimal
    average_opponent: Decimal | None = None  # average method only
    average_difference: Decimal | None = None  # D used against the average opponent


def _k_value(k: KRule, rating: Decimal) -> Decimal:
    return variable_k(rating) if k == "variable" else Decimal(k)


def _excluded(opp: int | None, score: Decimal, rating: Decimal, reason: str) -> MethodRow:
    diff = None if opp is None else rating - opp
    return MethodRow(opp, score, rating, diff, None, None, None, None, None, False, reason)


def _reason(rating: int, opp: int | None, rs: RuleSet) -> str:
    if opp is None:
        return REASON_OPPONENT_UNRATED
    if game_not_rated_600(rs, rating, opp):
        return REASON_RULE_600
    return ""


def rate_games(
    method: str,
    rating: int,
    games: Sequence[tuple[int | None, int]],
    k: KRule,
    rs: RuleSet,
    expectation: str,
) -> MethodResult:
    """Rate (opponent rating or None, score hundredths) games with a non-FIDE method."""
    if method not in METHODS:
        raise ValueError(f"expected a method {', '.join(METHODS)}, got {method!r}")
    if method == "average":
        return _rate_average(rating, games, k, rs, expectation)
    sequential = method == "sequential"
    current = Decimal(rating)
    rows: list[MethodRow] = []
    first_k: Decimal | None = None
    for opp, score_h in games:
        score = Decimal(score_h) / _HUNDRED
        reason = _reason(rating, opp, rs)
        base = current if sequential else Decimal(rating)
        if reason or opp is None:
            rows.append(_excluded(opp, score, base, reason))
            continue
        d = base - opp
        d_used = cap_difference(d, base, rs)
        e = expectation_for(d_used, expectation)
        k_game = _k_value(k, base if sequential else Decimal(rating))
        first_k = k_game if first_k is None else first_k
        delta = score - e
        rows.append(
            MethodRow(opp, score, base, d, d_used, e, delta, k_game, k_game * delta, True, "")
        )
        if sequential:
            current += k_game * delta
    counted = [r for r in rows if r.rated]
    change = sum((r.k_delta or Decimal(0) for r in counted), Decimal(0))
    return MethodResult(
        method=method,
        expectation=expectation,
        rating=rating,
        games=tuple(rows),
        k=first_k if first_k is not None else _k_value(k, Decimal(rating)),
        n=len(counted),
        score=sum((r.score for r in counted), Decimal(0)),
        expected=sum((r.expected or Decimal(0) for r in counted), Decimal(0)),
        sum_delta=sum((r.delta or Decimal(0) for r in counted), Decimal(0)),
        change_unrounded=change,
        rating_after=Decimal(rating) + change,
    )


def _rate_average(
    rating: int,
    games: Sequence[tuple[int | None, int]],
    k: KRule,
    rs: RuleSet,
    expectation: str,
) -> MethodResult:
    ro = Decimal(rating)
    rows: list[MethodRow] = []
    for opp, score_h in games:
        score = Decimal(score_h) / _HUNDRED
        reason = _reason(rating, opp, rs)
        if reason or opp is None:
            rows.append(_excluded(opp, score, ro, reason))
        else:
            diff = ro - opp
            rows.append(MethodRow(opp, score, ro, diff, None, None, None, None, None, True, ""))
    counted = [r for r in rows if r.rated]
    n = len(counted)
    k_value = _k_value(k, ro)
    w = sum((r.score for r in counted), Decimal(0))
    if n == 0:
        return MethodResult(
            "average", expectation, rating, tuple(rows), k_value, 0, w, Decimal(0),
            Decimal(0), Decimal(0), ro,
        )  # fmt: skip
    average = sum((Decimal(r.opponent or 0) for r in counted), Decimal(0)) / n
    d_used = cap_difference(ro - average, ro, rs)
    pe = expectation_for(d_used, expectation)
    sum_delta = w - n * pe
    change = k_value * sum_delta
    return MethodResult(
        method="average",
        expectation=expectation,
        rating=rating,
        games=tuple(rows),
        k=k_value,
        n=n,
        score=w,
        expected=n * pe,
        sum_delta=sum_delta,
        change_unrounded=change,
        rating_after=ro + change,
        average_opponent=average,
        average_difference=d_used,
    )
