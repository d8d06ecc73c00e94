"""Unrated players' games toward an initial rating, carried from period to period
(fide-rules.md §6, FIDE B.02 §7.1.4; `pending.csv` of design "Periods and lists").

An unrated player's games against rated opponents are pooled over consecutive periods of
at most 26 months. `pending.csv` holds one row per such game of a player still unrated
after the period: the list, the player, the period and event, the opponent's rating, the
score and whether the event is the player's first one with a zero score (disregarded).
The next period reads it back (`--pending FILE`, automatic in a chain); rows of periods
26 or more months before the one rated drop out.

Rows are keyed by `player_key` (``fide:<id>`` or the person key of a player without an
ID) so that a chain carries a player without a FIDE ID exactly; a file without that
column is keyed by its FIDE IDs.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from pipeline.errors import InputError, ProblemList
from pipeline.formats.text import decode_bytes
from pipeline.period.calendar import POOL_MONTHS, parse_period
from pipeline.rate.lists import person_key_expr
from schemas.output import PENDING_COLUMNS, PENDING_EXTRA_COLUMNS

KEY = "player_key"
ALL_COLUMNS = [*PENDING_COLUMNS, *PENDING_EXTRA_COLUMNS]
SCHEMA: dict[str, pl.DataType] = {
    "list": pl.String(),
    "fide_id": pl.Int64(),
    "name": pl.String(),
    "period": pl.String(),
    "event": pl.String(),
    "opponent_rating": pl.Int64(),
    "score": pl.Float64(),
    "first_event_zero": pl.Boolean(),
    "federation": pl.String(),
    KEY: pl.String(),
}
_LISTS = ("standard", "rapid", "blitz")
_SCORES = (0.0, 0.5, 1.0)


def empty() -> pl.DataFrame:
    return pl.DataFrame(schema=SCHEMA)


def in_window(pending: pl.DataFrame, period: str) -> pl.DataFrame:
    """The rows still pooled when `period` is rated: earlier periods, fewer than 26 months
    before it (the pool spans at most 26 consecutive periods)."""
    if pending.is_empty():
        return pending
    year, month = parse_period(period)
    months = year * 12 + month - _month_index(pl.col("period"))
    return pending.filter((months > 0) & (months < POOL_MONTHS))


def _month_index(period: pl.Expr) -> pl.Expr:
    year = period.str.slice(0, 4).cast(pl.Int64)
    return year * 12 + period.str.slice(5, 2).cast(pl.Int64)


def prior_rows(window: pl.DataFrame, period: str) -> pl.DataFrame:
    """The pool's earlier games as rows of `initial.initial_ratings`' `prior`: each
    (period, event) an event ``pending:<period>|<event>`` ordered before the period's."""
    year, month = parse_period(period)
    now = year * 12 + month
    rank = pl.col("event").rank("dense").over("period").cast(pl.Int64)
    return window.select(
        pl.col(KEY).alias("player_key"),
        pl.col("list"),
        pl.format("pending:{}|{}", pl.col("period"), pl.col("event")).alias("event_id"),
        ((_month_index(pl.col("period")) - now) * 100_000 + rank).alias("event_order"),
        (pl.col("score") * 100).round(0).cast(pl.Int64).alias("score_h"),
        pl.col("opponent_rating").alias("opponent_ro"),
    )


def pending_after(
    window: pl.DataFrame,
    games: pl.DataFrame,
    ratings: pl.DataFrame,
    dropped: pl.DataFrame,
    period: str,
) -> pl.DataFrame:
    """pending.csv after the period: the pool's rows and the period's games toward an
    initial rating (reason player-unrated), for every player and list still unrated;
    `first_event_zero` marks the disregarded first event. `games` and `ratings` are the
    rate stage's frames, `dropped` the disregarded (player_key, list, event_id)."""
    fed = ratings.select("player_key", "list", "federation").unique(["player_key", "list"])
    current = (
        games.filter(pl.col("reason") == "player-unrated")
        .join(fed, on=["player_key", "list"], how="left")
        .select(
            pl.col("list"),
            pl.col("fide_id").cast(pl.Int64),
            pl.col("name"),
            pl.lit(period).alias("period"),
            pl.col("tournament").cast(pl.String).alias("event"),
            pl.col("opponent_rating").cast(pl.Int64),
            pl.col("score").cast(pl.Float64),
            (~pl.col("counts_initial")).alias("first_event_zero"),
            pl.col("federation").cast(pl.String),
            pl.col("player_key").alias(KEY),
        )
    )
    flagged = dropped.select(
        pl.col("player_key").alias(KEY), "list", pl.col("event_id"), pl.lit(True).alias("_zero")
    )
    earlier = (
        window.with_columns(
            pl.format("pending:{}|{}", pl.col("period"), pl.col("event")).alias("event_id")
        )
        .join(flagged, on=[KEY, "list", "event_id"], how="left")
        .with_columns(pl.col("_zero").fill_null(False).alias("first_event_zero"))
        .select(ALL_COLUMNS)
    )
    settled = ratings.filter(pl.col("status") != "unrated").select(
        pl.col("player_key").alias(KEY), "list"
    )
    rows = pl.concat([earlier.cast(SCHEMA), current.cast(SCHEMA)], how="vertical")  # type: ignore[arg-type]
    return rows.join(settled, on=[KEY, "list"], how="anti")


def read_pending(path: Path) -> pl.DataFrame:
    """`pending.csv` as written by `write_pending` (or by hand): every problem of the file
    is reported together, at its line and column."""
    file = str(path)
    text = decode_bytes(path.read_bytes()).lstrip("\ufeff")
    problems = ProblemList()
    try:
        raw = pl.read_csv(text.encode("utf-8"), infer_schema=False, raise_if_empty=False)
    except pl.exceptions.ComputeError:
        raise InputError.single(
            file,
            None,
            None,
            "bad-csv",
            "expected a CSV table like pending.csv, got unreadable rows",
        ) from None
    missing = [name for name in PENDING_COLUMNS if name not in raw.columns]
    if missing:
        raise InputError.single(
            file, 1, None, "missing-column", f"expected the columns {', '.join(missing)}, got none"
        )
    raw = raw.with_row_index("line", offset=2).with_columns(
        pl.col(c).str.strip_chars() for c in raw.columns if c in ALL_COLUMNS
    )
    for line, row in zip(raw["line"], raw.iter_rows(named=True), strict=True):
        _check_row(problems, file, int(line), row)
    problems.raise_if_errors()
    frame = raw.select(
        pl.col("list"),
        pl.col("fide_id").cast(pl.Int64, strict=False),
        pl.col("name"),
        pl.col("period"),
        pl.col("event").fill_null(""),
        pl.col("opponent_rating").cast(pl.Int64),
        pl.col("score").str.replace("½", "0.5").cast(pl.Float64),
        pl.col("first_event_zero").is_in(["1", "true", "True"]),
        (pl.col("federation") if "federation" in raw.columns else pl.lit(None, pl.String())).alias(
            "federation"
        ),
        (pl.col(KEY) if KEY in raw.columns else pl.lit(None, pl.String())).alias(KEY),
    )
    return frame.with_columns(
        pl.coalesce(
            KEY,
            pl.when(pl.col("fide_id").is_not_null()).then(pl.format("fide:{}", pl.col("fide_id"))),
            person_key_expr(pl.col("name"), pl.col("federation")),
        ).alias(KEY)
    )


def _check_row(problems: ProblemList, file: str, line: int, row: dict[str, str | None]) -> None:
    def bad(column: str, expected: str) -> None:
        problems.add(file, line, column, "bad-value", f"expected {expected}, got {row[column]!r}")

    if row["list"] not in _LISTS:
        bad("list", "standard, rapid or blitz")
    fide_id = row["fide_id"]
    if fide_id and not (fide_id.isdigit() and int(fide_id) > 0):
        bad("fide_id", "a FIDE ID or a blank")
    if not fide_id and not row["name"]:
        bad("name", "a name for a player without a FIDE ID")
    try:
        parse_period(row["period"] or "")
    except ValueError:
        bad("period", "a period YYYY-MM")
    rating = row["opponent_rating"]
    if not (rating and rating.isdigit() and int(rating) > 0):
        bad("opponent_rating", "the rated opponent's rating")
    score = (row["score"] or "").replace("½", "0.5")
    try:
        ok = float(score) in _SCORES
    except ValueError:
        ok = False
    if not ok:
        bad("score", "1, 0.5 or 0")
    if row["first_event_zero"] not in ("0", "1", "true", "false", "True", "False"):
        bad("first_event_zero", "1 or 0")


def write_pending(path: Path, pending: pl.DataFrame) -> None:
    """pending.csv: the contract columns, then federation and player_key."""
    from pipeline.report.tables import write_csv_frame

    frame = pending.select(ALL_COLUMNS).with_columns(
        pl.col("first_event_zero").cast(pl.Int8),
        pl.col("score").replace_strict({1.0: "1", 0.5: "0.5", 0.0: "0"}, return_dtype=pl.String),
    )
    write_csv_frame(path, frame.sort("list", "period", KEY, "event", "opponent_rating", "score"))


__all__ = [
    "KEY",
    "SCHEMA",
    "empty",
    "in_window",
    "pending_after",
    "prior_rows",
    "read_pending",
    "write_pending",
]
