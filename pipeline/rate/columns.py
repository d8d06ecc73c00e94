"""The rate stage's own columns (beyond the frames' `schemas.columns`), in one place:
the modules of `pipeline.rate` write `c.KEY`, `c.RO`, ... (``from pipeline.rate import
columns as c``). Ratings are Int64, scores, PD and ΔR Int64 hundredths."""

from __future__ import annotations

from typing import Final

# --- one row per player entry (players.resolve_players) -----------------------------------
KEY: Final = "player_key"  # fide:<id>, else the identity's person key, else event:<id>#<no>
OPP_KEY: Final = "opponent_key"
RO: Final = "ro"  # the rating the entry is rated with (Ro), null = unrated on that list
OPP_RO: Final = "opponent_ro"
BASE_RO: Final = "base_ro"  # the rating on the base list (the rating before the period)
FACING_RO: Final = "facing_ro"  # the rating the entry's opponents are rated against
RO_SOURCE: Final = "rating_source"  # registry | registry-standard | file | (null: unrated)
FILE_RATING: Final = "file_rating"
EV_ORDER: Final = "event_order"  # events by start date (nulls last), then input order
GIVEN_K: Final = "given_k"
EVER_2400: Final = "ever_2400"
CAREER: Final = "career_games"  # career games on that list before the period (null: unknown)
PID: Final = "_player"  # Int64, one per (player_key, list): the integer key inside the query

# --- one row per game entry (classify.classify_games) --------------------------------------
SCORE_H: Final = "score_h"
D: Final = "difference"
D_USED: Final = "difference_used"
PD_H: Final = "expected_h"
DELTA_H: Final = "delta_h"
REASON: Final = "reason"
RATED: Final = "rated"
COUNTS: Final = "counts_initial"  # a player-unrated game that counts toward Ru

# --- initial ratings (initial.initial_ratings) ---------------------------------------------
N_INITIAL: Final = "initial_games"
SCORE_INITIAL: Final = "initial_score_h"
OPP_SUM: Final = "opponent_sum"

# --- the rating lists (lists) --------------------------------------------------------------
LIST_KEY: Final = "list_key"  # fide:<id>, or name:<folded name>|<federation> without an ID
RO_MONTH: Final = "ro_month"  # the month ("YYYY-MM") of the start list an event is rated from
LIST_RATING: Final = {"standard": "rating", "rapid": "rapid_rating", "blitz": "blitz_rating"}
LIST_GAMES: Final = {"standard": "games", "rapid": "rapid_games", "blitz": "blitz_games"}
LIST_K: Final = {"standard": "k", "rapid": "rapid_k", "blitz": "blitz_k"}
LIST_CAREER: Final = {
    "standard": "career_games",
    "rapid": "rapid_career_games",
    "blitz": "blitz_career_games",
}
LIST_EVER: Final = {"standard": "ever_2400", "rapid": "rapid_ever_2400", "blitz": "blitz_ever_2400"}
