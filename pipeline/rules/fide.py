"""FIDE's rating rules, one player at a time: the reference path.

Pure functions over whole numbers: ratings and D are integers, PD, scores and ΔR are
integer hundredths, K x ΣΔR is computed exactly (integer hundredths for a whole K,
`Decimal` for a decimal K) and rounded once, 0.5 away from zero (fide-rules.md §4).
The vectorized engine (`pipeline.rules.vector`) implements the same rules on polars
frames and is tested against this module.

Choices (documented in fide-rules.md as open):
- K precedence (`derive_k`): a given K wins; then K 10 once the rating has reached 2400;
  then junior K 40; then K 40 for fewer than 30 career games; else 20 (§5).
- `career_games=None` means "unknown": the player is taken as established (>= 30).
- Cap "once per event": see `pipeline.rules.ruleset`; `differences_used_in_event` applies
  it to one event's games in round order. It applies to every player: the 2650 exemption
  (`cap_exempt_from`) exists only from 2025-10-01 (docs/rules.md, the cap by era).
- The 2022 initial-rating method has no 2200 maximum (it came with the 2024 rules); the
  2024 method caps at `rs.initial_max`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from pipeline.rules.ruleset import RuleSet
from pipeline.rules.tables import dp_for_p, expected_hundredths

# games.csv reasons this module produces (schemas.output.REASONS)
REASON_OPPONENT_UNRATED = "opponent-unrated"
REASON_RULE_600 = "rule-600"


def difference_used(rating: int, opponent_rating: int, rs: RuleSet) -> int:
    """D after the cap, for the cap modes decided game by game.

    ``once-per-event`` needs the whole event: use `differences_used_in_event`.
    """
    d = rating - opponent_rating
    if rs.cap is None or rs.cap_mode == "every-game":
        return _clamp(d, rs.cap)
    if rs.cap_mode == "below-2650":
        exempt = rs.cap_exempt_from
        if exempt is not None and rating >= exempt:
            return d
        return _clamp(d, rs.cap)
    if rs.cap_mode == "once-per-event":
        if d <= rs.cap:  # only the higher-rated side's cap depends on the other games
            return _clamp(d, rs.cap)
        raise ValueError("the once-per-event cap needs the event: use differences_used_in_event")
    raise ValueError(f"unknown cap mode {rs.cap_mode!r}")


def differences_used_in_event(
    rating: int, opponent_ratings: Sequence[int], rs: RuleSet
) -> list[int]:
    """D used in each game of one event (games in round order), for every cap mode."""
    if rs.cap_mode != "once-per-event" or rs.cap is None:
        return [difference_used(rating, opp, rs) for opp in opponent_ratings]
    cap = rs.cap
    diffs = [rating - opp for opp in opponent_ratings]
    best: int | None = None  # index of the game where the higher-rated side is capped
    for i, d in enumerate(diffs):
        if d > cap and (best is None or d > diffs[best]):
            best = i
    return [-cap if d < -cap else cap if i == best else d for i, d in enumerate(diffs)]


def _clamp(d: int, cap: int | None) -> int:
    if cap is None:
        return d
    return max(-cap, min(cap, d))


def expected_score(d_used: int) -> int:
    """PD in hundredths (table 8.1.2) for the capped difference."""
    return expected_hundredths(d_used)


def derive_k(
    rs: RuleSet,
    *,
    rating: int | None,
    career_games: int | None,
    birth_year: int | None,
    period_year: int,
    ever_2400: bool,
    given_k: int | None = None,
) -> int:
    """K from the player's state at the start of the period (fide-rules.md §5)."""
    if given_k is not None:
        return given_k
    if rs.k_flat is not None:
        return rs.k_flat
    if ever_2400 or (rating is not None and rating >= rs.k_top_from):
        return rs.k_top
    if (
        rs.k_junior is not None
        and birth_year is not None
        and period_year - birth_year <= rs.junior_max_age
        and (rating is None or rating < rs.junior_below)
    ):
        return rs.k_junior
    if career_games is not None and career_games < rs.new_player_games:
        return rs.k_new
    return rs.k_default


def k_after_700(k: int, n: int) -> int:
    """The 700 rule: with n rated games, K x n may not exceed 700."""
    if n > 0 and k * n > 700:
        return 700 // n
    return k


def round_half_away(hundredths: int) -> int:
    """Whole points from hundredths, 0.5 away from zero (-250 -> -3, 249 -> 2)."""
    whole = (abs(hundredths) + 50) // 100
    return whole if hundredths >= 0 else -whole


def round_decimal_half_away(value: Decimal, places: int = 0) -> Decimal:
    """A Decimal rounded to `places` decimals, 0.5 away from zero."""
    return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def game_not_rated_600(rs: RuleSet, rating: int, opponent_rating: int) -> bool:
    """Rapid/blitz from 2024-12-01: a 600+ difference with a 2600+ player is not rated."""
    return (
        rs.rule_600
        and max(rating, opponent_rating) > rs.rule_600_above
        and abs(rating - opponent_rating) >= rs.rule_600_difference
    )


@dataclass(frozen=True)
class InitialRating:
    """An unrated player's initial rating from games against rated opponents (§6)."""

    method: str  # "2024" or "2022"
    games: int
    score_hundredths: int
    ra: Fraction | None  # average rating of the opponents (2024: with two 1800s)
    p: Fraction | None  # the fractional score, exact
    p_hundredths: int | None  # p rounded to two decimals, half away from zero
    dp: int | None  # dp of table 8.1.1, or the 2022 method's +20 per half point
    value: int | None  # Ru, rounded (and capped) — None with too few games
    published: bool
    reason: str  # why not published ("" when published)


def _half_up(x: Fraction) -> int:
    """Round a Fraction to a whole number, 0.5 away from zero."""
    whole = (abs(x.numerator) * 2 + x.denominator) // (2 * x.denominator)
    return whole if x >= 0 else -whole


def initial_rating(
    opponent_ratings: Sequence[int], score_hundredths: int, rs: RuleSet
) -> InitialRating:
    """Ru from the rated opponents and the score against them (fide-rules.md §6)."""
    n = len(opponent_ratings)
    total = sum(opponent_ratings)
    if n < rs.initial_min_games:
        return InitialRating(
            rs.initial_method, n, score_hundredths, None, None, None, None, None, False,
            f"needs at least {rs.initial_min_games} games against rated opponents, has {n}",
        )  # fmt: skip
    if rs.initial_method == "2024":
        ra = Fraction(total + 2 * 1800, n + 2)
        p = Fraction(score_hundredths + 100, 100 * (n + 2))
        p_h = _half_up(p * 100)
        dp = dp_for_p(p_h)
        value = min(_half_up(ra + dp), rs.initial_max)
    else:
        ra = Fraction(total, n)
        p = Fraction(score_hundredths, 100 * n)
        p_h = _half_up(p * 100)
        half_points_over = (2 * score_hundredths - 100 * n) // 100  # 2W - n, whole halves
        dp = 20 * half_points_over if half_points_over >= 0 else dp_for_p(p_h)
        value = _half_up(ra + dp)
    published = value >= rs.floor
    reason = "" if published else f"below the rating floor {rs.floor}"
    return InitialRating(
        rs.initial_method, n, score_hundredths, ra, p, p_h, dp, value, published, reason
    )


@dataclass(frozen=True)
class GameRow:
    """One game from the player's side; hundredths for score, expected and delta."""

    opponent: int | None
    score: int
    difference: int | None
    difference_used: int | None
    expected: int | None
    delta: int | None  # score - expected for rated games, else None
    rated: bool
    reason: str  # "" when rated


@dataclass(frozen=True)
class PlayerResult:
    """A rated player's change over a set of games (one event, or a period)."""

    rating: int
    games: tuple[GameRow, ...]
    k_given: int | Decimal
    k: int | Decimal  # effective K (after the 700 rule when it applied)
    n: int
    score: int  # hundredths, rated games only
    expected: int  # ΣPD, hundredths
    sum_delta: int  # ΣΔR, hundredths
    change_unrounded: Decimal  # K x ΣΔR, exact
    change: int
    rating_after: int

    @property
    def change_hundredths(self) -> int:
        """K x ΣΔR in hundredths (exact for a whole K)."""
        return int(self.change_unrounded * 100)


def rate_player(
    rating: int,
    games: Sequence[tuple[int | None, int]],
    k: int | Decimal,
    rs: RuleSet,
    *,
    apply_700: bool = True,
) -> PlayerResult:
    """Rate one rated player's games (opponent rating or None, score in hundredths).

    Games are one event in round order (which matters only for the once-per-event cap).
    The 700 rule is applied when the rule set has it, `apply_700` is true and K is whole.
    """
    rows: list[GameRow | None] = [None] * len(games)
    counted: list[int] = []  # indexes of games against rated opponents
    for i, (opp, score) in enumerate(games):
        if opp is None:
            rows[i] = GameRow(opp, score, None, None, None, None, False, REASON_OPPONENT_UNRATED)
        else:
            counted.append(i)
    used = differences_used_in_event(rating, [games[i][0] or 0 for i in counted], rs)
    for i, d_used in zip(counted, used, strict=True):
        opp, score = games[i]
        assert opp is not None
        pd = expected_score(d_used)
        if game_not_rated_600(rs, rating, opp):
            rows[i] = GameRow(opp, score, rating - opp, d_used, pd, None, False, REASON_RULE_600)
        else:
            rows[i] = GameRow(opp, score, rating - opp, d_used, pd, score - pd, True, "")
    done = tuple(row for row in rows if row is not None)
    rated = [row for row in done if row.rated]
    n = len(rated)
    sum_delta = sum(row.delta or 0 for row in rated)
    k_eff: int | Decimal = k
    if isinstance(k, int) and apply_700 and rs.rule_700:
        k_eff = k_after_700(k, n)
    if isinstance(k_eff, int):
        change_h = k_eff * sum_delta
        change_unrounded = Decimal(change_h) / 100
        change = round_half_away(change_h)
    else:
        change_unrounded = k_eff * sum_delta / 100
        change = int(round_decimal_half_away(change_unrounded))
    return PlayerResult(
        rating=rating,
        games=done,
        k_given=k,
        k=k_eff,
        n=n,
        score=sum(row.score for row in rated),
        expected=sum(row.expected or 0 for row in rated),
        sum_delta=sum_delta,
        change_unrounded=change_unrounded,
        change=change,
        rating_after=rating + change,
    )
