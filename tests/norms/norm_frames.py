"""Frames for the norm checks' tests: one event as the rate stage's games frame, the
players and the events frames carry it, built from the applicant's rounds."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from pipeline.norms.checks import NormChecks, norm_checks
from pipeline.norms.titles import NormOptions

CODES = {1.0: "1", 0.5: "=", 0.0: "0"}
REASONS = {"+": "forfeit", "-": "forfeit", "U": "bye", "H": "bye", "F": "bye", "Z": "bye"}


@dataclass(frozen=True)
class Opp:
    """One round of the applicant: the opponent (None: a bye) and the result."""

    title: str | None
    fed: str | None
    rating: int | None
    score: float
    code: str = ""  # TRF code when not a played game: '+', '-', 'U', 'H'...


def opp(title: str | None, fed: str | None, rating: int | None, score: float) -> Opp:
    return Opp(title or None, fed, rating, score)


def bye(code: str = "U", score: float = 1.0) -> Opp:
    return Opp(None, None, None, score, code)


GAME_SCHEMA = {
    "event_id": pl.String, "start_no": pl.Int64, "opponent_no": pl.Int64,
    "round": pl.Int64, "code": pl.String, "tournament": pl.String, "list": pl.String,
    "fide_id": pl.Int64, "name": pl.String, "rating": pl.Int64,
    "opponent_rating": pl.Int64, "score": pl.Float64, "reason": pl.String,
}  # fmt: skip
PLAYER_SCHEMA = {"event_id": pl.String, "start_no": pl.Int64, "federation": pl.String,
                 "title": pl.String, "sex": pl.String}  # fmt: skip


def _reason(code: str, rated: bool, opp_rated: bool) -> str:
    if code in REASONS:
        return REASONS[code]
    if not opp_rated:
        return "opponent-unrated"
    return "" if rated else "player-unrated"


def frames(
    rounds: Sequence[Opp],
    *,
    fed: str | None = "GER",
    title: str | None = None,
    sex: str | None = "m",
    rating: int | None = 2300,
    event: str = "E",
    list_: str | None = "standard",
    host: str | None = "GER",
    time_control: str | None = "90 min + 30 s",
    start: dt.date | None = dt.date(2026, 5, 1),
    end: dt.date | None = dt.date(2026, 5, 9),
) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """The applicant is start number 1; the opponent of round r is start number r + 1
    (each met once, so the pairings read as a Swiss)."""
    games: list[dict[str, Any]] = []
    people: list[dict[str, Any]] = [
        {"event_id": event, "start_no": 1, "federation": fed, "title": title, "sex": sex}
    ]
    for r, o in enumerate(rounds, start=1):
        base = {"event_id": event, "round": r, "tournament": f"{event} open", "list": list_}
        if o.rating is None and o.fed is None and o.code in ("U", "H", "F", "Z"):
            games.append(
                {
                    **base,
                    "start_no": 1,
                    "opponent_no": None,
                    "code": o.code,
                    "fide_id": 1,
                    "name": "Applicant",
                    "rating": rating,
                    "opponent_rating": None,
                    "score": o.score,
                    "reason": "bye",
                }
            )
            continue
        code = o.code or CODES[o.score]
        back = {"+": "-", "-": "+"}.get(code) or CODES[1 - o.score]
        no = r + 1
        people.append(
            {"event_id": event, "start_no": no, "federation": o.fed, "title": o.title, "sex": "m"}
        )
        games.append(
            {
                **base,
                "start_no": 1,
                "opponent_no": no,
                "code": code,
                "fide_id": 1,
                "name": "Applicant",
                "rating": rating,
                "opponent_rating": o.rating,
                "score": o.score,
                "reason": _reason(code, rating is not None, o.rating is not None),
            }
        )
        games.append(
            {
                **base,
                "start_no": no,
                "opponent_no": 1,
                "code": back,
                "fide_id": 100 + no,
                "name": f"Opponent {no}",
                "rating": o.rating,
                "opponent_rating": rating,
                "score": 1 - o.score,
                "reason": _reason(back, o.rating is not None, rating is not None),
            }
        )
    events = pl.DataFrame(
        [{"event_id": event, "list": list_, "federation": host, "start_date": start,
          "end_date": end, "rounds": len(rounds), "time_control": time_control}],
        schema={"event_id": pl.String, "list": pl.String, "federation": pl.String,
                "start_date": pl.Date, "end_date": pl.Date, "rounds": pl.Int64,
                "time_control": pl.String},
    )  # fmt: skip
    return (
        pl.DataFrame(games, schema=GAME_SCHEMA),
        pl.DataFrame(people, schema=PLAYER_SCHEMA),
        events,
    )


def check(rounds: Sequence[Opp], options: NormOptions | None = None, **kwargs: Any) -> NormChecks:
    return norm_checks(*frames(rounds, **kwargs), options)


def applicant(result: NormChecks, title: str) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The applicant's norms row for `title` and its checks by rule."""
    norm = result.norms.filter((pl.col("start_no") == 1) & (pl.col("title") == title))
    assert norm.height == 1, result.norms
    rules = result.checks.filter((pl.col("start_no") == 1) & (pl.col("title") == title))
    return norm.row(0, named=True), {r["rule"]: r for r in rules.iter_rows(named=True)}
