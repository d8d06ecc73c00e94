"""Column names of the rating result, unpacked from the contract lists in schemas.output
(so a change of the contract breaks here, loudly, not in a scattered string literal), and
the optional extras the writers use with fallbacks."""

from __future__ import annotations

import polars as pl

from schemas.ingest import Events
from schemas.output import GAMES_COLUMNS, RATINGS_COLUMNS

(
    LIST,
    FIDE_ID,
    NAME,
    FEDERATION,
    RATING_BEFORE,
    K,
    GAMES,
    SCORE,
    EXPECTED,
    CHANGE_UNROUNDED,
    CHANGE,
    RATING_AFTER,
    STATUS,
) = RATINGS_COLUMNS

(
    G_TOURNAMENT,
    G_LIST,
    G_ROUND,
    G_FIDE_ID,
    G_NAME,
    G_OPPONENT_FIDE_ID,
    G_OPPONENT_NAME,
    G_COLOUR,
    G_RATING,
    G_OPPONENT_RATING,
    G_RESULT,
    G_SCORE,
    G_DIFFERENCE,
    G_DIFFERENCE_USED,
    G_EXPECTED,
    G_DELTA,
    G_RATED,
    G_REASON,
) = GAMES_COLUMNS

E_ID = str(Events.event_id)
E_FILE = str(Events.file)
E_NAME = str(Events.name)
E_SOURCE = str(Events.source)
E_LIST = str(Events.list)
E_LIST_SOURCE = str(Events.list_source)
E_LIST_REASON = str(Events.list_reason)
E_START = str(Events.start_date)
E_END = str(Events.end_date)
E_ROUNDS = str(Events.rounds)

# Extras rate.py adds (pipeline.rate); every use has a fallback.
X_TITLE = "title"  # ratings
X_PLAYER_KEY = "player_key"  # ratings and games: one player across events
X_EVENT_ID = E_ID  # games
X_START_NO = "start_no"  # games
X_K = "k"  # games: the K of that game's player (null when not rated)
X_COUNTS_INITIAL = "counts_initial"  # games: a player-unrated game counting toward Ru
X_RULE_SET = "rule_set"  # events
X_RATED_GAMES = "rated_games"  # events: pairings rated for at least one side

LIST_ORDER = {"standard": 0, "rapid": 1, "blitz": 2}


def optional(frame: pl.DataFrame, name: str, dtype: pl.DataType) -> pl.Expr:
    """`name` if the frame has it, else a null column of `dtype`."""
    if name in frame.columns:
        return pl.col(name)
    return pl.lit(None, dtype=dtype)


def hundredths(expr: pl.Expr) -> pl.Expr:
    """A two-decimal float as exact integer hundredths (0.57 -> 57)."""
    return (expr.cast(pl.Float64) * 100).round(0).cast(pl.Int64)


def list_rank(expr: pl.Expr) -> pl.Expr:
    return expr.replace_strict(LIST_ORDER, default=len(LIST_ORDER), return_dtype=pl.Int64)
