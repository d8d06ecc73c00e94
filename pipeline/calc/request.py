"""A calculator request from words, as a form or a query string gives them: the calculator
page and `GET /api/calc` of `elo serve` (`pipeline.web`), whose parameters are named as
`elo calc`'s options. Each value goes through the same `parse_*` helpers the command line
uses; a bad one raises `CalcInputError` naming it."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence

from pipeline.calc.compute import ALL_METHODS
from pipeline.calc.model import CalcInputError, CalcRequest
from pipeline.calc.parse import parse_count, parse_date, parse_game, parse_k, parse_rating
from pipeline.rules.methods import EXPECTATIONS
from pipeline.rules.ruleset import LISTS

_GAME_SEPARATORS = re.compile(r"[\s;]+")


def _choice(option: str, value: str | None, choices: Sequence[str]) -> str | None:
    if value is None or not value.strip():
        return None
    t = value.strip().lower()
    if t not in choices:
        raise CalcInputError(f"{option}: expected one of {', '.join(choices)}, got {value!r}")
    return t


def split_games(texts: Sequence[str]) -> list[str]:
    """The `OPP:SCORE` tokens of one or more fields, separated by spaces, new lines or `;`
    (a comma may be a decimal comma: `1650:0,5`)."""
    return [token for text in texts for token in _GAME_SEPARATORS.split(text) if token]


def parse_request(
    rating: str | None,
    games: Sequence[str],
    *,
    list_: str | None = None,
    method: str | None = None,
    expectation: str | None = None,
    k: str | None = None,
    career_games: str | None = None,
    birth_year: str | None = None,
    ever_2400: bool = False,
    on: str | None = None,
    today: dt.date | None = None,
) -> CalcRequest:
    """The request of `elo calc RATING OPP:SCORE... [options]` from its words; empty
    values are the options' defaults."""
    if rating is None or not rating.strip():
        raise CalcInputError("RATING: expected a rating 1..3500, 0 or 'unrated', got nothing")
    tokens = split_games(games)
    if not tokens:
        raise CalcInputError("expected at least one OPP:SCORE, e.g. 1600:1")
    day = parse_date(on) if on is not None and on.strip() else (today or dt.date.today())
    years = None
    if birth_year is not None and birth_year.strip():
        years = parse_count(birth_year, "--birth-year", 1850, day.year)
    count = None
    if career_games is not None and career_games.strip():
        count = parse_count(career_games, "--games", 0, 100_000)
    return CalcRequest(
        rating=parse_rating(rating),
        games=tuple(parse_game(token) for token in tokens),
        on=day,
        list_=_choice("--list", list_, LISTS) or "standard",
        method=_choice("--method", method, ALL_METHODS) or "fide",
        expectation=_choice("--expectation", expectation, EXPECTATIONS),
        k=parse_k(k) if k is not None and k.strip() else None,
        career_games=count,
        birth_year=years,
        ever_2400=ever_2400,
    )
