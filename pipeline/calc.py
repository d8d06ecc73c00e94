"""The calculator behind `elo calc`: one player's rating change from a list of games.

Pure: `calculate(CalcRequest) -> CalcResult`; the CLI parses the command line with the
`parse_*` helpers (they raise `CalcInputError`, a ValueError, with a one-line message)
and prints the result (`pipeline.report.calc_table`, or `CalcResult.to_json`).

Choices:
- Without ``--games`` the player is taken as established (30 or more career games), so
  the derived K is 20 (or 10 / 40 from ``--ever-2400`` / ``--birth-year``).
- The 700 rule applies to the FIDE method with a derived or whole K; a decimal K and the
  variable K are used as given. Other methods never apply it.
- The expectation defaults to the table for the FIDE and average methods, and to the
  logistic curve for the continuous and sequential methods (what those calculators use).
  The FIDE method accepts only the table.
- The games are one event, in the order given (this matters only for the cap "once per
  event" of 2022-01-01 .. 2024-02-29 and for the sequential method).
- Rating 0 / ``unrated``: the initial rating by FIDE's rule of the date, from the games
  against rated opponents, taken as the player's first event (a zero score there is
  disregarded, so nothing is published).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Final

from pipeline.rules.fide import (
    REASON_OPPONENT_UNRATED,
    REASON_RULE_600,
    GameRow,
    InitialRating,
    derive_k,
    initial_rating,
    rate_player,
    round_decimal_half_away,
)
from pipeline.rules.methods import EXPECTATIONS, METHODS, KRule, rate_games, variable_k
from pipeline.rules.ruleset import LISTS, RuleSet, ruleset_for

ALL_METHODS: Final[tuple[str, ...]] = ("fide", *METHODS)
MAX_RATING: Final[int] = 3500
REASON_PLAYER_UNRATED = "player-unrated"

_SCORES: Final[dict[str, int]] = {
    "1": 100, "1.0": 100, "1,0": 100,
    "0.5": 50, "0,5": 50, ".5": 50, ",5": 50, "½": 50, "=": 50,
    "0": 0, "0.0": 0, "0,0": 0,
}  # fmt: skip
_K_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
_HUNDRED = Decimal(100)


class CalcInputError(ValueError):
    """A calculator input that cannot be used; the message is one line for the user."""


@dataclass(frozen=True)
class GameInput:
    opponent: int | None  # None = unrated opponent
    score: int  # hundredths: 100, 50 or 0
    text: str = ""


KSpec = int | Decimal | str | None  # None / "fide": FIDE's K; "variable"; a number


@dataclass(frozen=True)
class CalcRequest:
    rating: int | None  # None = unrated player
    games: tuple[GameInput, ...]
    on: dt.date
    list_: str = "standard"
    method: str = "fide"
    expectation: str | None = None  # None = the method's default
    k: KSpec = None
    career_games: int | None = None
    birth_year: int | None = None
    ever_2400: bool = False


@dataclass(frozen=True)
class CalcGame:
    """One game as reported; values in points (Decimal), None where not applicable."""

    opponent: int | None
    score: Decimal
    difference: Decimal | None
    difference_used: Decimal | None
    expected: Decimal | None
    delta: Decimal | None
    k_delta: Decimal | None
    rated: bool
    reason: str
    rating_before: Decimal | None = None  # sequential method: rating before the game


@dataclass(frozen=True)
class CalcResult:
    method: str
    expectation: str
    rule_set: RuleSet
    on: dt.date
    rating_before: int | None
    k: Decimal | None  # effective K
    games: tuple[CalcGame, ...]
    n: int
    score: Decimal
    expected: Decimal | None
    sum_delta: Decimal | None
    change_unrounded: Decimal | None
    change: Decimal | None  # whole for FIDE, one decimal for the other methods
    rating_after: Decimal | None
    notes: tuple[str, ...] = ()
    initial: InitialRating | None = None
    decimals: int = 2  # decimals of PD / ΔR in reports (4 for non-table expectations)
    average_opponent: Decimal | None = None  # average method: the average opponent
    average_difference: Decimal | None = None  # average method: D used against it


def _dec(value: Fraction | None) -> Decimal | None:
    if value is None:
        return None
    return Decimal(value.numerator) / Decimal(value.denominator)


# --- parsing -------------------------------------------------------------------------


def parse_rating(text: str, what: str = "RATING") -> int | None:
    """A rating 1..3500; ``0`` or ``unrated`` means unrated (None)."""
    t = text.strip().lower()
    if t in ("unrated", "0"):
        return None
    if not t.isdigit() or not 1 <= int(t) <= MAX_RATING:
        raise CalcInputError(
            f"{what}: expected a rating 1..{MAX_RATING}, 0 or 'unrated', got {text!r}"
        )
    return int(t)


def parse_score(text: str) -> int:
    """A game score in hundredths: 1, 0.5 (½, =, 0,5), 0."""
    try:
        return _SCORES[text.strip()]
    except KeyError:
        raise CalcInputError(f"expected a score 1, 0.5 (½ or =) or 0, got {text!r}") from None


def parse_game(token: str) -> GameInput:
    """``OPP:SCORE``, e.g. ``1600:1``, ``1650:0.5``, ``1700:½``, ``unrated:0``."""
    if token.startswith("-") and not token[1:2].isdigit():
        raise CalcInputError(f"unknown option {token!r} (see elo calc --help)")
    opp, sep, score = token.partition(":")
    if not sep:
        raise CalcInputError(f"expected OPP:SCORE such as 1600:1 or 1650:½, got {token!r}")
    try:
        opponent = parse_rating(opp, "opponent")
        points = parse_score(score)
    except CalcInputError as exc:
        raise CalcInputError(f"game {token!r}: {exc}") from None
    return GameInput(opponent, points, token)


def parse_k(text: str | None) -> KSpec:
    """``--k``: a positive number (decimals allowed), ``fide`` or ``variable``."""
    if text is None:
        return None
    t = text.strip().lower()
    if t in ("fide", "variable"):
        return t
    if not _K_NUMBER.fullmatch(t):
        raise CalcInputError(f"--k: expected a positive number, 'fide' or 'variable', got {text!r}")
    value = Decimal(t.replace(",", "."))
    if value <= 0:
        raise CalcInputError(f"--k: expected a K above 0, got {text!r}")
    if value == value.to_integral_value():
        return int(value)
    return value


def parse_date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        raise CalcInputError(f"--date: expected a date YYYY-MM-DD, got {text!r}") from None


def parse_count(text: str, option: str, low: int, high: int) -> int:
    t = text.strip()
    if not t.isdigit() or not low <= int(t) <= high:
        raise CalcInputError(f"{option}: expected a whole number {low}..{high}, got {text!r}")
    return int(t)


# --- calculation ---------------------------------------------------------------------


def calculate(request: CalcRequest) -> CalcResult:
    """Compute the request; raises CalcInputError for inconsistent options."""
    if request.method not in ALL_METHODS:
        raise CalcInputError(
            f"--method: expected one of {', '.join(ALL_METHODS)}, got {request.method!r}"
        )
    if request.list_ not in LISTS:
        raise CalcInputError(f"--list: expected one of {', '.join(LISTS)}, got {request.list_!r}")
    expectation = request.expectation or ("logistic" if request.method in METHODS[:2] else "table")
    if expectation not in EXPECTATIONS:
        raise CalcInputError(
            f"--expectation: expected one of {', '.join(EXPECTATIONS)}, got {expectation!r}"
        )
    if request.method == "fide" and expectation != "table":
        raise CalcInputError(
            f"--expectation {expectation}: the FIDE method uses table 8.1.2; "
            "use --method continuous, sequential or average"
        )
    if isinstance(request.k, str) and request.k not in ("fide", "variable"):
        raise CalcInputError(f"--k: expected a number, 'fide' or 'variable', got {request.k!r}")
    if isinstance(request.k, int | Decimal) and request.k <= 0:
        raise CalcInputError(f"--k: expected a K above 0, got {request.k}")
    if not request.games:
        raise CalcInputError("expected at least one game OPP:SCORE, e.g. 1600:1")
    try:
        rs = ruleset_for(request.on, request.list_)
    except ValueError as exc:
        raise CalcInputError(f"--date: {exc}") from None
    if request.rating is None:
        return _calculate_initial(request, rs)
    if request.method == "fide":
        return _calculate_fide(request, request.rating, rs)
    return _calculate_method(request, request.rating, rs, expectation)


def _derived_k(request: CalcRequest, rating: int, rs: RuleSet) -> tuple[int, str]:
    """FIDE's K and the sentence explaining it."""
    k = derive_k(
        rs,
        rating=rating,
        career_games=request.career_games,
        birth_year=request.birth_year,
        period_year=request.on.year,
        ever_2400=request.ever_2400,
    )
    if rs.k_flat is not None:
        why = f"K {k}: every {rs.list} player before 2022-10-01"
    elif k == rs.k_top and (request.ever_2400 or rating >= rs.k_top_from):
        why = f"K {k}: rating has reached {rs.k_top_from}"
    elif (
        rs.k_junior is not None
        and k == rs.k_junior
        and request.birth_year is not None
        and request.on.year - request.birth_year <= rs.junior_max_age
        and rating < rs.junior_below
    ):
        why = f"K {k}: junior (born {request.birth_year}) rated below {rs.junior_below}"
    elif request.career_games is not None and request.career_games < rs.new_player_games:
        why = f"K {k}: fewer than {rs.new_player_games} career games ({request.career_games})"
    elif request.career_games is None:
        why = f"K {k}: established player (no --games: assumed {rs.new_player_games} or more)"
    else:
        why = f"K {k}: established player"
    return k, why


def _game_rows_fide(rows: tuple[GameRow, ...], k: Decimal) -> tuple[CalcGame, ...]:
    return tuple(
        CalcGame(
            opponent=row.opponent,
            score=Decimal(row.score) / _HUNDRED,
            difference=_opt(row.difference, 1),
            difference_used=_opt(row.difference_used, 1),
            expected=_opt(row.expected, 100),
            delta=_opt(row.delta, 100),
            k_delta=None if row.delta is None else k * row.delta / _HUNDRED,
            rated=row.rated,
            reason=row.reason,
        )
        for row in rows
    )


def _opt(value: int | None, scale: int) -> Decimal | None:
    return None if value is None else Decimal(value) / scale


def _exclusion_notes(games: tuple[CalcGame, ...]) -> list[str]:
    notes: list[str] = []
    unrated = sum(1 for g in games if g.reason == REASON_OPPONENT_UNRATED)
    r600 = sum(1 for g in games if g.reason == REASON_RULE_600)
    if unrated:
        notes.append(f"{unrated} game(s) against unrated opponents do not count")
    if r600:
        notes.append(
            f"{r600} game(s) not rated by the 600-point rule "
            "(rapid/blitz from 2024-12-01: a 2600+ player and a difference of 600 or more)"
        )
    return notes


def _calculate_fide(request: CalcRequest, rating: int, rs: RuleSet) -> CalcResult:
    notes: list[str] = []
    pairs = [(g.opponent, g.score) for g in request.games]
    k_spec = request.k
    k: int | Decimal
    if k_spec is None or k_spec == "fide":
        k, why = _derived_k(request, rating, rs)
        notes.append(why)
    elif k_spec == "variable":
        k = variable_k(rating)
        notes.append(f"variable K = (3400 - {rating})^2 / 100000 = {k}: not a FIDE rule")
    else:
        assert isinstance(k_spec, int | Decimal)
        k = k_spec
        notes.append(f"K {k} given")
    result = rate_player(rating, pairs, k, rs)
    if isinstance(k, int) and result.k != k:
        notes.append(f"700 rule: K {k} -> {result.k} ({result.n} games)")
    elif not isinstance(k, int) and rs.rule_700:
        notes.append("700 rule not applied to a K that is not a whole number")
    k_eff = Decimal(result.k)
    games = _game_rows_fide(result.games, k_eff)
    notes.extend(_exclusion_notes(games))
    return CalcResult(
        method="fide",
        expectation="table",
        rule_set=rs,
        on=request.on,
        rating_before=rating,
        k=k_eff,
        games=games,
        n=result.n,
        score=Decimal(result.score) / _HUNDRED,
        expected=Decimal(result.expected) / _HUNDRED,
        sum_delta=Decimal(result.sum_delta) / _HUNDRED,
        change_unrounded=result.change_unrounded,
        change=Decimal(result.change),
        rating_after=Decimal(result.rating_after),
        notes=tuple(notes),
    )


def _calculate_method(
    request: CalcRequest, rating: int, rs: RuleSet, expectation: str
) -> CalcResult:
    notes = [f"{request.method} method: not FIDE's rule; decimals kept"]
    k_spec = request.k
    k: KRule
    if k_spec is None or k_spec == "fide":
        derived, why = _derived_k(request, rating, rs)
        k = Decimal(derived)
        notes.append(why)
    elif k_spec == "variable":
        k = "variable"
        notes.append("variable K = (3400 - R)^2 / 100000: not a FIDE rule")
    else:
        assert isinstance(k_spec, int | Decimal)
        k = Decimal(k_spec)
        notes.append(f"K {k_spec} given")
    if expectation != "table":
        notes.append(f"{expectation} expectation: not FIDE's table 8.1.2")
    res = rate_games(
        request.method, rating, [(g.opponent, g.score) for g in request.games], k, rs, expectation
    )
    games = tuple(
        CalcGame(
            opponent=r.opponent,
            score=r.score,
            difference=r.difference,
            difference_used=r.difference_used,
            expected=r.expected,
            delta=r.delta,
            k_delta=r.k_delta,
            rated=r.rated,
            reason=r.reason,
            rating_before=r.rating_before if request.method == "sequential" else None,
        )
        for r in res.games
    )
    notes.extend(_exclusion_notes(games))
    change = round_decimal_half_away(res.change_unrounded, 1)
    return CalcResult(
        method=request.method,
        expectation=expectation,
        rule_set=rs,
        on=request.on,
        rating_before=rating,
        k=res.k,
        games=games,
        n=res.n,
        score=res.score,
        expected=res.expected,
        sum_delta=res.sum_delta,
        change_unrounded=res.change_unrounded,
        change=change,
        rating_after=Decimal(rating) + change,
        notes=tuple(notes),
        decimals=2 if expectation == "table" else 4,
        average_opponent=res.average_opponent,
        average_difference=res.average_difference,
    )


def _calculate_initial(request: CalcRequest, rs: RuleSet) -> CalcResult:
    """An unrated player: the initial rating from the games against rated opponents."""
    if request.method != "fide":
        raise CalcInputError(
            f"--method {request.method}: an unrated player's rating comes from FIDE's "
            "initial-rating rule; use --method fide"
        )
    notes: list[str] = []
    if request.k is not None:
        notes.append("K does not apply to an initial rating")
    rows: list[CalcGame] = []
    opponents: list[int] = []
    score = 0
    for g in request.games:
        points = Decimal(g.score) / _HUNDRED
        if g.opponent is None:
            reason = REASON_OPPONENT_UNRATED
        else:
            reason = REASON_PLAYER_UNRATED
            opponents.append(g.opponent)
            score += g.score
        rows.append(CalcGame(g.opponent, points, None, None, None, None, None, False, reason))
    ini = initial_rating(opponents, score, rs)
    published = ini.published
    if ini.value is None:
        notes.append(f"no initial rating: {ini.reason}")
    else:
        ra = _dec(ini.ra)
        assert ra is not None
        extra = " + 2 x 1800" if ini.method == "2024" else ""
        notes.append(
            f"initial rating ({ini.method} method): Ra = ({sum(opponents)}{extra}) / "
            f"{len(opponents) + (2 if ini.method == '2024' else 0)} = "
            f"{round_decimal_half_away(ra, 2)}, p = {Decimal(ini.p_hundredths or 0) / 100}, "
            f"dp = {ini.dp:+d}, Ru = {ini.value}"
        )
        if score == 0:
            published = False
            notes.append("a zero score in the player's first event is disregarded: no rating")
        elif not published:
            notes.append(f"not published: {ini.reason}")
        else:
            notes.append(f"published: {ini.value} (at least {rs.floor})")
    notes.extend(_exclusion_notes(tuple(r for r in rows if r.reason != REASON_PLAYER_UNRATED)))
    return CalcResult(
        method="fide",
        expectation="table",
        rule_set=rs,
        on=request.on,
        rating_before=None,
        k=None,
        games=tuple(rows),
        n=len(opponents),
        score=Decimal(score) / _HUNDRED,
        expected=None,
        sum_delta=None,
        change_unrounded=None,
        change=None,
        rating_after=Decimal(ini.value) if published and ini.value is not None else None,
        notes=tuple(notes),
        initial=ini,
    )
