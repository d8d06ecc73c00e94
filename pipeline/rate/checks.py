"""Cross-checks of the rating against what an event file declares itself.

chess-results / Swiss-Manager crosstables may carry a `K` column and an `rtg+/-` column
(the event's K×ΣΔR of each player). When they do, each player's K and K×ΣΔR computed here
are compared with them, and a difference is a warning: the file was made with another
rating list, another K, or other rules, and the rating officer should know.
"""

from __future__ import annotations

from decimal import Decimal

import polars as pl

from pipeline.errors import Location, Problem, Severity
from schemas.ingest import Events, Players

_K_COLUMN = "K"
_CHANGE_COLUMN = "rtg+/-"


def _tolerance(declared: float) -> Decimal:
    """Half a unit of the last decimal the file shows (rtg+/- is shown with 0 or 1)."""
    shown = Decimal(str(declared))
    return Decimal("0.05") if shown != shown.to_integral_value() else Decimal("0.5")


def declared_rows(
    games: pl.LazyFrame, players: pl.DataFrame, events: pl.DataFrame
) -> pl.LazyFrame | None:
    """The players that declare a K or rtg+/-, beside the K and K×ΣΔR computed for them
    (`declared_problems` turns them into warnings); None when no player declares one.

    `games` is the rated games frame (event_id, start_no, rated, k, k_delta), `players`
    and `events` the ingest frames.
    """
    k_decl, change_decl = str(Players.k_declared), str(Players.change_declared)
    if k_decl not in players.columns or change_decl not in players.columns:
        return None
    ev, no = str(Players.event_id), str(Players.start_no)
    declared = players.filter(pl.col(k_decl).is_not_null() | pl.col(change_decl).is_not_null())
    if declared.is_empty():
        return None
    ours = (
        games.filter(pl.col("rated"))
        .group_by(ev, no)
        .agg(
            pl.col("k").first().alias("_k"),
            # k_delta holds two-decimal values: back to exact hundredths before adding
            (pl.col("k_delta") * 100).round(0).cast(pl.Int64).sum().alias("_kd"),
        )
    )
    return (
        declared.lazy()
        .join(ours, on=[ev, no], how="left")
        .join(events.lazy().select(str(Events.event_id), str(Events.file)), on=ev, how="left")
        .sort(str(Events.file), str(Players.line))
    )


def declared_problems(rows: pl.DataFrame) -> list[Problem]:
    """Warnings where a declared K or rtg+/- disagrees with the rating of the event
    (`rows` from `declared_rows`)."""
    k_decl, change_decl = str(Players.k_declared), str(Players.change_declared)
    problems: list[Problem] = []
    for r in rows.iter_rows(named=True):
        where = (r[str(Events.file)], r[str(Players.line)])
        name = r[str(Players.name)]
        k, k_file = r["_k"], r[k_decl]
        if k is not None and k_file is not None and Decimal(str(k_file)) != k:
            problems.append(
                Problem(
                    Location(*where, _K_COLUMN),
                    "declared-k-differs",
                    f"expected K {k} for {name} (the rules and the rating list), got K "
                    f"{Decimal(str(k_file)).normalize():f} in the file",
                    Severity.WARNING,
                )
            )
        change_file = r[change_decl]
        if change_file is None:
            continue
        computed = Decimal(r["_kd"] or 0).scaleb(-2)
        if abs(computed - Decimal(str(change_file))) > _tolerance(change_file):
            problems.append(
                Problem(
                    Location(*where, _CHANGE_COLUMN),
                    "declared-change-differs",
                    f"expected K×ΣΔR {computed:+} for {name}, got {change_file:+} in the file",
                    Severity.WARNING,
                )
            )
    return problems
