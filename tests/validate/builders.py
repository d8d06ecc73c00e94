"""Build small events as frames (schemas.ingest) without any reader, TRF-like: player n
sits on line 10 + n and round r in columns 92+10(r-1)..101+10(r-1) (TRF16 §001)."""

from __future__ import annotations

from datetime import date

import polars as pl

from pipeline.formats.model import EventData
from schemas.ingest import GAME_DTYPES, Events, Games, Players

# Standard scoring of the TRF codes (fide-rules.md §8): byes U and F count 1, H counts ½.
SCORES = {
    "1": 1.0,
    "=": 0.5,
    "0": 0.0,
    "+": 1.0,
    "-": 0.0,
    "W": 1.0,
    "D": 0.5,
    "L": 0.0,
    "H": 0.5,
    "F": 1.0,
    "U": 1.0,
    "Z": 0.0,
}
PLAYED = {"1", "=", "0"}
FILE = "t.trf"

# A player: (start_no, rating, fide_id, declared points or None).
Player = tuple[int, int | None, int | None, float | None]
# An entry: (start_no, round, opponent or None, colour or None, code).
Entry = tuple[int, int, int | None, str | None, str]


def round_column(rnd: int) -> str:
    return f"{92 + 10 * (rnd - 1)}-{101 + 10 * (rnd - 1)}"


def player_line(no: int) -> int:
    return 10 + no


def make_event(
    players: list[Player],
    entries: list[Entry],
    *,
    list_: str | None = "standard",
    start: date | None = date(2025, 6, 1),
    rounds: int | None = None,
    source: str = "trf16",
    line_of: dict[int, int] | None = None,
) -> EventData:
    lines = line_of or {}
    events = pl.DataFrame(
        {
            str(Events.event_id): [FILE],
            str(Events.file): [FILE],
            str(Events.name): ["Test Open"],
            str(Events.source): [source],
            str(Events.list): [list_],
            str(Events.start_date): [start],
            str(Events.rounds): [rounds],
        },
        schema_overrides={
            str(Events.list): pl.String,
            str(Events.start_date): pl.Date,
            str(Events.rounds): pl.Int64,
        },
    )
    players_df = pl.DataFrame(
        {
            str(Players.event_id): [FILE] * len(players),
            str(Players.start_no): [p[0] for p in players],
            str(Players.name): [f"Player {p[0]}" for p in players],
            str(Players.rating): [p[1] for p in players],
            str(Players.fide_id): [p[2] for p in players],
            str(Players.points): [p[3] for p in players],
            str(Players.line): [lines.get(i, player_line(p[0])) for i, p in enumerate(players)],
        },
        schema={
            str(Players.event_id): pl.String,
            str(Players.start_no): pl.Int64,
            str(Players.name): pl.String,
            str(Players.rating): pl.Int64,
            str(Players.fide_id): pl.Int64,
            str(Players.points): pl.Float64,
            str(Players.line): pl.Int64,
        },
    )
    games_df = pl.DataFrame(
        {
            str(Games.event_id): [FILE] * len(entries),
            str(Games.round): [e[1] for e in entries],
            str(Games.start_no): [e[0] for e in entries],
            str(Games.opponent_no): [e[2] for e in entries],
            str(Games.colour): [e[3] for e in entries],
            str(Games.code): [e[4] for e in entries],
            str(Games.score): [SCORES.get(e[4], 0.0) for e in entries],
            str(Games.played): [e[4] in PLAYED and e[2] is not None for e in entries],
            str(Games.line): [player_line(e[0]) for e in entries],
            str(Games.column): [round_column(e[1]) for e in entries],
        },
        schema=GAME_DTYPES,
    )
    return EventData(events, players_df, games_df)


def game(a: int, b: int, rnd: int, result: str) -> list[Entry]:
    """Both sides of a played game, `a` with white; `result` from white's side."""
    mirror = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+"}
    return [(a, rnd, b, "w", result), (b, rnd, a, "b", mirror[result])]
