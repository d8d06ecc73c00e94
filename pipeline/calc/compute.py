"""The calculation: `calculate(CalcRequest) -> CalcResult`, by FIDE's method (K derived
or given, the 700 rule), by the other methods of `rules.methods`, or, for an unrated
player, FIDE's initial rating; each with the notes that explain it.

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

from decimal import Decimal
from fractions import Fraction
from typing import Final

from pipeline.calc.model import (
    CalcGame,
    CalcInputError,
    CalcRequest,
    CalcResult,
    Note,
    NoteValue,
    Term,
)
from pipeline.i18n import N_
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
from pipeline.rules.ruleset import LISTS, RAPID_K_FROM, RULE_600_FROM, RuleSet, ruleset_for

ALL_METHODS: Final[tuple[str, ...]] = ("fide", *METHODS)
REASON_PLAYER_UNRATED = "player-unrated"
_HUNDRED = Decimal(100)


def _note(template: str, **values: NoteValue) -> Note:
    return Note(template, tuple(values.items()))


_METHOD_NOTES: Final[dict[str, str]] = {
    "continuous": N_("continuous method: not FIDE's rule; decimals kept"),
    "sequential": N_("sequential method: not FIDE's rule; decimals kept"),
    "average": N_("average method: not FIDE's rule; decimals kept"),
}
_EXPECTATION_NOTES: Final[dict[str, str]] = {
    "logistic": N_("logistic expectation: not FIDE's table 8.1.2"),
    "polynomial": N_("polynomial expectation: not FIDE's table 8.1.2"),
}


def _dec(value: Fraction | None) -> Decimal | None:
    if value is None:
        return None
    return Decimal(value.numerator) / Decimal(value.denominator)


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


def _derived_k(request: CalcRequest, rating: int, rs: RuleSet) -> tuple[int, Note]:
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
        why = _note(
            N_("K {k}: every {list} player before {date}"),
            k=k,
            list=Term(rs.list),
            date=RAPID_K_FROM,
        )
    elif k == rs.k_top and (request.ever_2400 or rating >= rs.k_top_from):
        why = _note(N_("K {k}: rating has reached {top}"), k=k, top=rs.k_top_from)
    elif (
        rs.k_junior is not None
        and k == rs.k_junior
        and request.birth_year is not None
        and request.on.year - request.birth_year <= rs.junior_max_age
        and rating < rs.junior_below
    ):
        why = _note(
            N_("K {k}: junior (born {year}) rated below {below}"),
            k=k,
            year=request.birth_year,
            below=rs.junior_below,
        )
    elif request.career_games is not None and request.career_games < rs.new_player_games:
        why = _note(
            N_("K {k}: fewer than {n} career games ({games})"),
            k=k,
            n=rs.new_player_games,
            games=request.career_games,
        )
    elif request.career_games is None:
        why = _note(
            N_("K {k}: established player (no --games: assumed {n} or more)"),
            k=k,
            n=rs.new_player_games,
        )
    else:
        why = _note(N_("K {k}: established player"), k=k)
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


def _exclusion_notes(games: tuple[CalcGame, ...]) -> list[Note]:
    notes: list[Note] = []
    unrated = sum(1 for g in games if g.reason == REASON_OPPONENT_UNRATED)
    r600 = sum(1 for g in games if g.reason == REASON_RULE_600)
    if unrated:
        notes.append(_note(N_("{n} game(s) against unrated opponents do not count"), n=unrated))
    if r600:
        notes.append(
            _note(
                N_(
                    "{n} game(s) not rated by the 600-point rule (rapid/blitz from {date}: "
                    "a 2600+ player and a difference of 600 or more)"
                ),
                n=r600,
                date=RULE_600_FROM,
            )
        )
    return notes


def _calculate_fide(request: CalcRequest, rating: int, rs: RuleSet) -> CalcResult:
    notes: list[Note] = []
    pairs = [(g.opponent, g.score) for g in request.games]
    k_spec = request.k
    k: int | Decimal
    if k_spec is None or k_spec == "fide":
        k, why = _derived_k(request, rating, rs)
        notes.append(why)
    elif k_spec == "variable":
        k = variable_k(rating)
        notes.append(
            _note(
                N_("variable K = (3400 - {rating})^2 / 100000 = {k}: not a FIDE rule"),
                rating=rating,
                k=k,
            )
        )
    else:
        assert isinstance(k_spec, int | Decimal)
        k = k_spec
        notes.append(_note(N_("K {k} given"), k=k))
    result = rate_player(rating, pairs, k, rs)
    if isinstance(k, int) and result.k != k:
        notes.append(
            _note(N_("700 rule: K {k} -> {used} ({n} games)"), k=k, used=result.k, n=result.n)
        )
    elif not isinstance(k, int) and rs.rule_700:
        notes.append(_note(N_("700 rule not applied to a K that is not a whole number")))
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
    notes = [_note(_METHOD_NOTES[request.method])]
    k_spec = request.k
    k: KRule
    if k_spec is None or k_spec == "fide":
        derived, why = _derived_k(request, rating, rs)
        k = Decimal(derived)
        notes.append(why)
    elif k_spec == "variable":
        k = "variable"
        notes.append(_note(N_("variable K = (3400 - R)^2 / 100000: not a FIDE rule")))
    else:
        assert isinstance(k_spec, int | Decimal)
        k = Decimal(k_spec)
        notes.append(_note(N_("K {k} given"), k=k_spec))
    if expectation != "table":
        notes.append(_note(_EXPECTATION_NOTES[expectation]))
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


def _initial_missing(ini: InitialRating, rs: RuleSet) -> Note:
    """Why there is no initial rating (the words of `rules.fide.initial_rating`)."""
    return _note(
        N_("no initial rating: needs at least {min} games against rated opponents, has {n}"),
        min=rs.initial_min_games,
        n=ini.games,
    )


def _calculate_initial(request: CalcRequest, rs: RuleSet) -> CalcResult:
    """An unrated player: the initial rating from the games against rated opponents."""
    if request.method != "fide":
        raise CalcInputError(
            f"--method {request.method}: an unrated player's rating comes from FIDE's "
            "initial-rating rule; use --method fide"
        )
    notes: list[Note] = []
    if request.k is not None:
        notes.append(_note(N_("K does not apply to an initial rating")))
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
        notes.append(_initial_missing(ini, rs))
    else:
        ra = _dec(ini.ra)
        assert ra is not None
        extra = " + 2 x 1800" if ini.method == "2024" else ""
        notes.append(
            _note(
                N_(
                    "initial rating ({method} method): Ra = ({total}{extra}) / {n} = {ra}, "
                    "p = {p}, dp = {dp}, Ru = {value}"
                ),
                method=ini.method,
                total=sum(opponents),
                extra=extra,
                n=len(opponents) + (2 if ini.method == "2024" else 0),
                ra=round_decimal_half_away(ra, 2),
                p=Decimal(ini.p_hundredths or 0) / 100,
                dp=f"{ini.dp:+d}",
                value=ini.value,
            )
        )
        if score == 0:
            published = False
            notes.append(
                _note(N_("a zero score in the player's first event is disregarded: no rating"))
            )
        elif not published:
            notes.append(_note(N_("not published: below the rating floor {floor}"), floor=rs.floor))
        else:
            notes.append(
                _note(N_("published: {value} (at least {floor})"), value=ini.value, floor=rs.floor)
            )
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


__all__ = ["ALL_METHODS", "REASON_PLAYER_UNRATED", "calculate"]
