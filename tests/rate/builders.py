"""Small in-memory events for the rate tests, following schemas/ingest.py.

`Event` collects players and games; `pair` writes both sides of a game with mirrored
colours and results, `bye` a one-sided entry. `frames` concatenates events into the three
frames `rate_period` takes. Names and IDs are invented.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from pipeline.rate import RateOptions, RateResult, rate_period

# result of a pairing from white's side -> (white code, black code)
PAIR_CODES: dict[str, tuple[str, str]] = {
    "1-0": ("1", "0"),
    "0-1": ("0", "1"),
    "=": ("=", "="),
    "+-": ("+", "-"),
    "-+": ("-", "+"),
    "W-L": ("W", "L"),
    "L-W": ("L", "W"),
    "D-D": ("D", "D"),
}
SCORES = {"1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0, "W": 1.0, "D": 0.5, "L": 0.0}
BYE_SCORES = {"H": 0.5, "F": 1.0, "U": 1.0, "Z": 0.0}

EVENT_SCHEMA: dict[str, pl.DataType] = {
    "event_id": pl.String(),
    "file": pl.String(),
    "name": pl.String(),
    "source": pl.String(),
    "list": pl.String(),
    "start_date": pl.Date(),
    "end_date": pl.Date(),
    "rounds": pl.Int64(),
}
PLAYER_SCHEMA: dict[str, pl.DataType] = {
    "event_id": pl.String(),
    "start_no": pl.Int64(),
    "name": pl.String(),
    "fide_id": pl.Int64(),
    "federation": pl.String(),
    "title": pl.String(),
    "sex": pl.String(),
    "birth_year": pl.Int64(),
    "rating": pl.Int64(),
    "line": pl.Int64(),
}
GAME_SCHEMA: dict[str, pl.DataType] = {
    "event_id": pl.String(),
    "round": pl.Int64(),
    "start_no": pl.Int64(),
    "opponent_no": pl.Int64(),
    "colour": pl.String(),
    "code": pl.String(),
    "score": pl.Float64(),
    "played": pl.Boolean(),
    "line": pl.Int64(),
    "column": pl.String(),
}


@dataclass
class Event:
    event_id: str
    lst: str = "standard"
    start: dt.date | None = dt.date(2025, 3, 10)
    source: str = "trf16"
    players: list[dict[str, Any]] = field(default_factory=list)
    games: list[dict[str, Any]] = field(default_factory=list)

    def player(
        self,
        no: int,
        rating: int | None,
        fide_id: int | None = None,
        *,
        name: str | None = None,
        birth_year: int | None = None,
        title: str | None = None,
        federation: str | None = "ISL",
    ) -> int:
        self.players.append(
            {
                "event_id": self.event_id,
                "start_no": no,
                "name": name or f"Player {self.event_id}-{no}",
                "fide_id": fide_id,
                "federation": federation,
                "title": title,
                "sex": "m",
                "birth_year": birth_year,
                "rating": rating,
                "line": 10 + no,
            }
        )
        return no

    def _entry(self, rnd: int, no: int, opp: int | None, colour: str | None, code: str) -> None:
        score = SCORES.get(code, BYE_SCORES.get(code, 0.0))
        self.games.append(
            {
                "event_id": self.event_id,
                "round": rnd,
                "start_no": no,
                "opponent_no": opp,
                "colour": colour,
                "code": code,
                "score": score,
                "played": code in ("1", "=", "0") and opp is not None,
                "line": 10 + no,
                "column": f"{92 + 10 * (rnd - 1)}-{101 + 10 * (rnd - 1)}",
            }
        )

    def pair(self, rnd: int, white: int, black: int, result: str) -> None:
        w, b = PAIR_CODES[result]
        self._entry(rnd, white, black, "w", w)
        self._entry(rnd, black, white, "b", b)

    def bye(self, rnd: int, no: int, code: str = "H") -> None:
        self._entry(rnd, no, None, None, code)

    def series(self, no: int, opponents: list[tuple[int | None, float]], first_no: int) -> None:
        """Player `no` meets new opponents (rating, own score) in rounds 1, 2, ...;
        the opponents get start numbers from `first_no` and no FIDE ID."""
        result = {1.0: "1-0", 0.5: "=", 0.0: "0-1"}
        for i, (rating, score) in enumerate(opponents):
            opp = self.player(first_no + i, rating)
            self.pair(i + 1, no, opp, result[score])


def frames(*events: Event) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    ev = pl.DataFrame(
        [
            {
                "event_id": e.event_id,
                "file": f"{e.event_id}.trf",
                "name": f"Open {e.event_id}",
                "source": e.source,
                "list": e.lst,
                "start_date": e.start,
                "end_date": e.start,
                "rounds": max((g["round"] for g in e.games), default=0),
            }
            for e in events
        ],
        schema=EVENT_SCHEMA,
        orient="row",
    )
    players = pl.DataFrame(
        [p for e in events for p in e.players], schema=PLAYER_SCHEMA, orient="row"
    )
    games = pl.DataFrame([g for e in events for g in e.games], schema=GAME_SCHEMA, orient="row")
    return ev, players, games


def registry(rows: list[dict[str, Any]]) -> pl.DataFrame:
    """A registry frame (schemas/registry.py) from a few rows; missing fields are null."""
    schema: dict[str, pl.DataType] = {"fideid": pl.Int64(), "name": pl.String()}
    for lst in ("", "rapid_", "blitz_"):
        for col in ("rating", "games", "k"):
            schema[f"{lst}{col}"] = pl.Int64()
    schema["birthday"] = pl.Int64()
    schema["title"] = pl.String()
    return pl.DataFrame(
        [{name: row.get(name) for name in schema} for row in rows], schema=schema, orient="row"
    )


def rate(
    *events: Event, reg: pl.DataFrame | None = None, options: RateOptions | None = None
) -> RateResult:
    ev, players, games = frames(*events)
    return rate_period(ev, players, games, reg, options or RateOptions(today=dt.date(2025, 6, 1)))


def row(result: RateResult, fide_id: int, list_: str = "standard") -> dict[str, Any]:
    """The ratings row of one player on one list."""
    found = result.ratings.filter((pl.col("fide_id") == fide_id) & (pl.col("list") == list_))
    assert found.height == 1, found
    return found.row(0, named=True)


def game_rows(result: RateResult, fide_id: int) -> list[dict[str, Any]]:
    return result.games.filter(pl.col("fide_id") == fide_id).to_dicts()
