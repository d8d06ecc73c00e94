"""A small rating period as rate.py would return it, built inline for the report tests.

Standard event "Spring Open 2025" (3 rounds, round robin of four; names invented):
    R1 Berg-Hahn 1-0, Dorn-Fink ½-½   R2 Berg-Fink 1-0, Hahn-Dorn 0-1   R3 Berg-Dorn ½-½,
    Fink-Hahn 1-0. Hahn is unrated: his games count toward an initial rating only.
Rapid event "Rapid Cup": Berg-Fink 1-0.

Every PD is table 8.1.2 of FIDE Handbook B.02 (fide-rules.md §2):
    D 385 -> .91 (375-391), D 125 -> .67 (122-129), D 260 -> .82 (257-267),
    D 250 -> .81 (246-256); change = K × ΣΔR rounded half away from zero (§4):
    Berg  std K20: ΔR +0.09 -0.17 = -0.08 -> -1.6 -> -2    (2105 -> 2103)
    Dorn  std K20: ΔR -0.32 +0.17 = -0.15 -> -3.0 -> -3    (1980 -> 1977)
    Fink  std K40: ΔR +0.32 -0.09 = +0.23 -> +9.2 -> +9    (1720 -> 1729)
    Berg  rapid K20: +0.19 -> +3.8 -> +4 (2050 -> 2054); Fink rapid K40: -0.19 -> -7.6 -> -8
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

import polars as pl

from pipeline.errors import Location, Problem, Severity
from schemas.output import GAMES_COLUMNS, RATINGS_COLUMNS

BERG, DORN, FINK = 4100011, 4100020, 4100039

GAME_EXTRAS = ["event_id", "start_no", "k", "player_key", "counts_initial"]
GAME_SCHEMA = {
    "tournament": pl.String,
    "list": pl.String,
    "round": pl.Int64,
    "fide_id": pl.Int64,
    "name": pl.String,
    "opponent_fide_id": pl.Int64,
    "opponent_name": pl.String,
    "colour": pl.String,
    "rating": pl.Int64,
    "opponent_rating": pl.Int64,
    "result": pl.String,
    "score": pl.Float64,
    "difference": pl.Int64,
    "difference_used": pl.Int64,
    "expected": pl.Float64,
    "delta": pl.Float64,
    "rated": pl.Boolean,
    "reason": pl.String,
    "event_id": pl.String,
    "start_no": pl.Int64,
    "k": pl.Int64,
    "player_key": pl.String,
    "counts_initial": pl.Boolean,
}
RATING_SCHEMA = {
    "list": pl.String,
    "fide_id": pl.Int64,
    "name": pl.String,
    "federation": pl.String,
    "rating_before": pl.Int64,
    "k": pl.Int64,
    "games": pl.Int64,
    "score": pl.Float64,
    "expected": pl.Float64,
    "change_unrounded": pl.Float64,
    "change": pl.Int64,
    "rating_after": pl.Int64,
    "status": pl.String,
    "title": pl.String,
    "player_key": pl.String,
}

S, R = "Spring Open 2025", "Rapid Cup"
SF, RF = "spring.trf", "rapid.trf"
B, D, F, H = "Berg, Anna", "Dorn, Carl", "Fink, Eva", "Hahn, Gus"

# (tournament, list, round, fide, name, opp fide, opp name, colour, rating, opp rating,
#  result, score, D, D used, PD, ΔR, rated, reason, event_id, start_no, k, key, counts)
_GAMES = [
    (S, "standard", 1, BERG, B, None, H, "w", 2105, None, "1", 1.0, None, None, None, None,
     False, "opponent-unrated", SF, 1, 20, "id:4100011", False),
    (S, "standard", 1, None, H, BERG, B, "b", None, 2105, "0", 0.0, None, None, None, None,
     False, "player-unrated", SF, 4, None, "spring.trf#4", True),
    (S, "standard", 1, DORN, D, FINK, F, "w", 1980, 1720, "½", 0.5, 260, 260, 0.82, -0.32,
     True, "", SF, 2, 20, "id:4100020", False),
    (S, "standard", 1, FINK, F, DORN, D, "b", 1720, 1980, "½", 0.5, -260, -260, 0.18, 0.32,
     True, "", SF, 3, 40, "id:4100039", False),
    (S, "standard", 2, BERG, B, FINK, F, "w", 2105, 1720, "1", 1.0, 385, 385, 0.91, 0.09,
     True, "", SF, 1, 20, "id:4100011", False),
    (S, "standard", 2, FINK, F, BERG, B, "b", 1720, 2105, "0", 0.0, -385, -385, 0.09, -0.09,
     True, "", SF, 3, 40, "id:4100039", False),
    (S, "standard", 2, None, H, DORN, D, "w", None, 1980, "0", 0.0, None, None, None, None,
     False, "player-unrated", SF, 4, None, "spring.trf#4", True),
    (S, "standard", 2, DORN, D, None, H, "b", 1980, None, "1", 1.0, None, None, None, None,
     False, "opponent-unrated", SF, 2, 20, "id:4100020", False),
    (S, "standard", 3, BERG, B, DORN, D, "b", 2105, 1980, "½", 0.5, 125, 125, 0.67, -0.17,
     True, "", SF, 1, 20, "id:4100011", False),
    (S, "standard", 3, DORN, D, BERG, B, "w", 1980, 2105, "½", 0.5, -125, -125, 0.33, 0.17,
     True, "", SF, 2, 20, "id:4100020", False),
    (S, "standard", 3, FINK, F, None, H, "w", 1720, None, "1", 1.0, None, None, None, None,
     False, "opponent-unrated", SF, 3, 40, "id:4100039", False),
    (S, "standard", 3, None, H, FINK, F, "b", None, 1720, "0", 0.0, None, None, None, None,
     False, "player-unrated", SF, 4, None, "spring.trf#4", True),
    (R, "rapid", 1, BERG, B, FINK, F, "w", 2050, 1800, "1", 1.0, 250, 250, 0.81, 0.19,
     True, "", RF, 1, 20, "id:4100011", False),
    (R, "rapid", 1, FINK, F, BERG, B, "b", 1800, 2050, "0", 0.0, -250, -250, 0.19, -0.19,
     True, "", RF, 2, 40, "id:4100039", False),
]  # fmt: skip

_RATINGS = [
    ("standard", BERG, B, "GER", 2105, 20, 2, 1.5, 1.58, -1.6, -2, 2103, "rated", "FM",
     "id:4100011"),
    ("standard", DORN, D, "AUT", 1980, 20, 2, 1.0, 1.15, -3.0, -3, 1977, "rated", None,
     "id:4100020"),
    ("standard", FINK, F, "SUI", 1720, 40, 2, 0.5, 0.27, 9.2, 9, 1729, "rated", "WCM",
     "id:4100039"),
    ("standard", None, H, None, None, None, 3, 0.0, None, None, None, None, "unrated", None,
     "spring.trf#4"),
    ("rapid", BERG, B, "GER", 2050, 20, 1, 1.0, 0.81, 3.8, 4, 2054, "rated", "FM",
     "id:4100011"),
    ("rapid", FINK, F, "SUI", 1800, 40, 1, 0.0, 0.19, -7.6, -8, 1792, "rated", "WCM",
     "id:4100039"),
]  # fmt: skip


@dataclass
class SampleResult:
    """Duck-types pipeline.rate.RateResult."""

    games: pl.DataFrame
    ratings: pl.DataFrame
    events: pl.DataFrame
    warnings: list[Problem] = field(default_factory=list)


def sample_games() -> pl.DataFrame:
    frame = pl.DataFrame(_GAMES, schema=GAME_SCHEMA, orient="row")
    assert frame.columns == [*GAMES_COLUMNS, *GAME_EXTRAS]
    return frame


def sample_ratings() -> pl.DataFrame:
    frame = pl.DataFrame(_RATINGS, schema=RATING_SCHEMA, orient="row")
    assert frame.columns[: len(RATINGS_COLUMNS)] == RATINGS_COLUMNS
    return frame


def sample_events() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "event_id": [SF, RF],
            "file": [SF, RF],
            "name": [S, R],
            "source": ["trf16", "trf26"],
            "list": ["standard", "rapid"],
            "list_source": ["092", "222"],
            "start_date": [dt.date(2025, 3, 1), dt.date(2025, 3, 15)],
            "end_date": [dt.date(2025, 3, 3), dt.date(2025, 3, 15)],
            "rounds": [3, 1],
            "rule_set": ["2024-03 standard", "2024-12 rapid"],
            "rated_games": [3, 1],  # pairings rated for at least one side
        }
    )


def sample_warnings() -> list[Problem]:
    return [
        Problem(
            Location(SF, 7, "49-52"),
            "rating-mismatch",
            "expected the registry rating 1980, got 1985",
            Severity.WARNING,
        )
    ]


def sample_result() -> SampleResult:
    return SampleResult(sample_games(), sample_ratings(), sample_events(), sample_warnings())


def with_names(result: SampleResult, renames: dict[str, str]) -> SampleResult:
    """The same period with some player names replaced (in every column that holds them)."""

    def rename(frame: pl.DataFrame, cols: list[str]) -> pl.DataFrame:
        return frame.with_columns(pl.col(col).replace(renames) for col in cols)

    return SampleResult(
        rename(result.games, ["name", "opponent_name"]),
        rename(result.ratings, ["name"]),
        result.events,
        result.warnings,
    )


def synthetic_period(n_games: int) -> SampleResult:
    """A large period for scale tests, built vectorized: players of ~300 per event, nine
    rounds, contract columns and the usual extras (values are plausible, not rated)."""
    players = max(n_games // 9, 2)
    i = pl.int_range(n_games, eager=True)
    pid = i % players + 1
    opp = (i * 7 + 3) % players + 1
    event = "Open " + (pid // 300).cast(pl.String)
    score = pl.Series([1.0, 0.5, 0.0]).gather(i % 3)
    games = pl.DataFrame(
        {
            "tournament": event,
            "list": pl.repeat("standard", n_games, eager=True),
            "round": i // players + 1,
            "fide_id": pid + 4_000_000,
            "name": "Player " + pid.cast(pl.String) + ", Anna",
            "opponent_fide_id": opp + 4_000_000,
            "opponent_name": "Player " + opp.cast(pl.String) + ", Bert",
            "colour": pl.Series(["w", "b"]).gather(i % 2),
            "rating": 1500 + pid % 900,
            "opponent_rating": 1500 + opp % 900,
            "result": pl.Series(["1", "½", "0"]).gather(i % 3),
            "score": score,
        }
    )
    diff = pl.col("rating") - pl.col("opponent_rating")
    games = games.with_columns(
        diff.alias("difference"),
        diff.clip(-400, 400).alias("difference_used"),
        pl.lit(0.57).alias("expected"),
        (pl.col("score") - 0.57).alias("delta"),
        pl.lit(True).alias("rated"),
        pl.lit("").alias("reason"),
        pl.col("tournament").alias("event_id"),
        pl.col("fide_id").alias("start_no"),
        pl.lit(20, dtype=pl.Int64).alias("k"),
        ("id:" + pl.col("fide_id").cast(pl.String)).alias("player_key"),
        pl.lit(False).alias("counts_initial"),
    )
    ratings = (
        games.group_by("list", "fide_id", "name", "player_key", maintain_order=True)
        .agg(
            pl.first("rating").alias("rating_before"),
            pl.len().cast(pl.Int64).alias("games"),
            pl.sum("score"),
            pl.sum("expected"),
        )
        .with_columns(
            pl.lit("GER").alias("federation"),
            pl.lit(20, dtype=pl.Int64).alias("k"),
            ((pl.col("score") - pl.col("expected")) * 20).round(2).alias("change_unrounded"),
            pl.lit("rated").alias("status"),
            pl.lit(None, dtype=pl.String).alias("title"),
        )
        .with_columns(pl.col("change_unrounded").round(0).cast(pl.Int64).alias("change"))
        .with_columns((pl.col("rating_before") + pl.col("change")).alias("rating_after"))
    )
    ratings = ratings.select(*RATINGS_COLUMNS, "title", "player_key")
    names = games.select(pl.col("event_id").unique(maintain_order=True))
    events = names.with_columns(
        pl.col("event_id").alias("file"),
        pl.col("event_id").alias("name"),
        pl.lit("trf16").alias("source"),
        pl.lit("standard").alias("list"),
        pl.lit(dt.date(2025, 3, 1)).alias("start_date"),
        pl.lit(dt.date(2025, 3, 9)).alias("end_date"),
        pl.lit(9, dtype=pl.Int64).alias("rounds"),
        pl.lit("standard 2025-10-01").alias("rule_set"),
    )
    return SampleResult(games, ratings, events)
