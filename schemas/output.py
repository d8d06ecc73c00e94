"""The contract tables written by `elo run` (see the README): column order is the contract."""

from __future__ import annotations

RATINGS_COLUMNS: list[str] = [
    "list",
    "fide_id",
    "name",
    "federation",
    "rating_before",
    "k",
    "games",
    "score",
    "expected",
    "change_unrounded",
    "change",
    "rating_after",
    "status",
]

GAMES_COLUMNS: list[str] = [
    "tournament",
    "list",
    "round",
    "fide_id",
    "name",
    "opponent_fide_id",
    "opponent_name",
    "colour",
    "rating",
    "opponent_rating",
    "result",
    "score",
    "difference",
    "difference_used",
    "expected",
    "delta",
    "rated",
    "reason",
]

# identities.csv: one row per player entry (`status` and `evidence` follow the contract)
IDENTITY_COLUMNS: list[str] = [
    "event",
    "file",
    "line",
    "start_no",
    "name",
    "federation",
    "rating",
    "fide_id",
    "method",
    "candidates",
    "status",
    "evidence",
]
IDENTITY_METHODS = ["file-id", "registry-name", "run-name", "manual"]
IDENTITY_STATUSES = ["linked", "ambiguous", "unmatched", "vetoed", "unlinked"]

STATUSES = ["rated", "initial", "unrated", "no-rated-games"]
REASONS = [
    "forfeit",
    "bye",
    "unplayed",
    "opponent-unrated",
    "player-unrated",
    "rule-600",
    "under-one-move",
]

# --- periods and lists (design "Periods and lists") -------------------------------------

PENDING_COLUMNS: list[str] = [
    "list",
    "fide_id",
    "name",
    "period",
    "event",
    "opponent_rating",
    "score",
    "first_event_zero",
]
PENDING_EXTRA_COLUMNS: list[str] = ["federation", "player_key"]

HISTORY_COLUMNS: list[str] = [
    "list",
    "period",
    "fide_id",
    "name",
    "rating_before",
    "games",
    "change",
    "rating_after",
    "status",
]

# --- performance ratings (pipeline.norms; docs/rules.md "Performance ratings") -----------

# performance.csv: one row per player and event. `games`, `score`, `percentage`, `dp` are
# over the games played over the board; `ra`/`rp` are B.01's (unrated opponents 1400, no
# floor), `aro`/`tpr` C.07's, then the per-norm Ra/Rp (the floor of the norm sought) and
# the FIDE-rated-opponents-only view (`rc`: their average).
PERFORMANCE_COLUMNS: list[str] = [
    "event",
    "name",
    "fide_id",
    "list",
    "games",
    "score",
    "ra",
    "percentage",
    "dp",
    "rp",
    "aro",
    "tpr",
    "rated_games",
    "rated_score",
    "rc",
    "rated_percentage",
    "rated_dp",
    "rated_performance",
    "ra_gm",
    "rp_gm",
    "ra_im",
    "rp_im",
    "ra_wgm",
    "rp_wgm",
    "ra_wim",
    "rp_wim",
]

# --- title norms (pipeline.norms.checks; docs/rules.md "Title norms") ----------------------

# norms.csv: one row per player, event and norm sought (GM, IM, WGM, WIM; none for a title
# held or a higher one, nor WGM/WIM for a man). `verdict` is met / not met / cannot tell;
# `failing` the rules that fail and `missing` the facts lacking (each "; "-separated).
NORMS_COLUMNS: list[str] = [
    "event",
    "name",
    "fide_id",
    "norm",
    "verdict",
    "games",
    "score",
    "score_required",
    "games_credited",
    "ra",
    "rp",
    "min_rp",
    "floor_applied",
    "title_performance",
    "in_reach",
    "failing",
    "missing",
    "excluded",
    "event_type",
]
