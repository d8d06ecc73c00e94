"""The calculator's command-line words read into request values: a rating, a game
``OPP:SCORE``, a score, ``--k``, ``--date`` and counts. Each `parse_*` raises
`CalcInputError` with a one-line message naming the bad value."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import Final

from pipeline.calc.model import CalcInputError, GameInput, KSpec

MAX_RATING: Final[int] = 3500

_SCORES: Final[dict[str, int]] = {
    "1": 100, "1.0": 100, "1,0": 100,
    "0.5": 50, "0,5": 50, ".5": 50, ",5": 50, "½": 50, "=": 50,
    "0": 0, "0.0": 0, "0,0": 0,
}  # fmt: skip
_K_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")


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


__all__ = [
    "MAX_RATING",
    "parse_count",
    "parse_date",
    "parse_game",
    "parse_k",
    "parse_rating",
    "parse_score",
]
