"""Validation of many events at once: one pass over the concatenated frames finds the
events that certainly have nothing to report; only the others go through the per-event
checks (`files.validate_event`), which word every problem. Clean events, nearly all of a
federation's month, so cost a handful of polars queries in all instead of some fifty each.

The batch pass is conservative by construction: for each check of `validate_event` it
tests a condition under which that check reports nothing (the schema's column checks, the
event facts, unique start numbers and FIDE IDs, the pairings mirrored, the declared
points equal to the results); an event failing any condition, or a frame the pass cannot
judge (an unexpected dtype), is checked one by one as before. An event whose only
findings are ratings below the floor (warnings, common in open events) gets just those,
worded by the same function as the per-event check. The
problems are therefore exactly those of `check_event` (tested on every fixture and on the
fuzzed real files).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import polars as pl

from pipeline.errors import Problem
from pipeline.validate.checks import (
    FLOOR_BEFORE_2024,
    FLOOR_CHANGE,
    FLOOR_FROM_2024,
    MIRROR,
    EventContext,
    floor_warnings,
    with_columns_present,
)
from pipeline.validate.schema import failure_row_expr, normalized, optional_types, schema_of
from schemas.columns import E, G, P
from schemas.ingest import PENDING_CODE, Events, Games, Players

if TYPE_CHECKING:
    import pandera.polars as pa

    from pipeline.formats.model import EventData

EV = "_ev"  # the event's index in the batch


def _concat(frames: list[pl.DataFrame]) -> pl.DataFrame:
    tagged = [f.with_columns(pl.lit(i, dtype=pl.Int64).alias(EV)) for i, f in enumerate(frames)]
    return pl.concat(tagged, how="diagonal_relaxed") if tagged else pl.DataFrame()


def _schema_flags(frame: pl.DataFrame, model: type[pa.DataFrameModel]) -> pl.DataFrame | None:
    """One row per event with a row failing a column check of `model` (`EV`); None when
    the pass cannot judge the frame (the per-event checks must look at every event)."""
    schema: Any = schema_of(model)
    if schema.checks or schema.unique:
        return None
    frame = normalized(frame, schema)
    bad: list[pl.Expr] = []
    for name, col in schema.columns.items():
        if name not in frame.columns:
            if col.required:
                return None
            continue
        if col.dtype is None or frame.schema[name] != col.dtype.type:
            return None
        if not col.nullable:
            bad.append(pl.col(name).is_null())
        if col.unique:
            bad.append(pl.col(name).is_not_null() & pl.col(name).is_duplicated().over(EV))
        for check in col.checks:
            expr = failure_row_expr(name, check)
            if expr is None:
                return None
            bad.append(expr)
    if not bad:
        return frame.select(EV).head(0)
    return frame.filter(pl.any_horizontal(bad).fill_null(False)).select(EV).unique()


def _fact_flags(events: pl.DataFrame, games: pl.DataFrame) -> pl.DataFrame:
    """Events an event-level fact check would speak of: no rating list, dates reversed,
    games pending, rounds used other than declared."""
    used = games.group_by(EV).agg(
        pl.col(G.ROUND).max().alias("_used"),
        (pl.col(G.CODE) == PENDING_CODE).any().alias("_pending"),
        pl.len().alias("_rows"),
    )
    frame = events.join(used, on=EV, how="left")
    loud = (
        pl.col(E.LIST).is_null()
        | (pl.col(E.END) < pl.col(E.START)).fill_null(False)
        | pl.col("_pending").fill_null(False)
        | (
            pl.col(E.ROUNDS).is_not_null()
            & (pl.col("_rows").fill_null(0) > 0)
            & (pl.col("_used") != pl.col(E.ROUNDS)).fill_null(True)
        )
    )
    return frame.filter(loud).select(EV)


def _player_flags(events: pl.DataFrame, players: pl.DataFrame) -> tuple[pl.DataFrame, ...]:
    """Events with a start number or FIDE ID twice; events with a rating below the floor
    (a warning the batch words itself, `checks.floor_warnings`)."""
    starts = events.select(EV, E.START)
    floor = (
        pl.when(pl.col(E.START).is_null() | (pl.col(E.START) >= pl.lit(FLOOR_CHANGE)))
        .then(FLOOR_FROM_2024)
        .otherwise(FLOOR_BEFORE_2024)
    )
    frame = players.join(starts, on=EV, how="left")
    twice = pl.col(P.NO).is_duplicated().over(EV) | (
        pl.col(P.FIDE).is_not_null() & pl.col(P.FIDE).is_duplicated().over(EV)
    )
    low = (
        pl.col(P.RATING).is_not_null()
        & (pl.col(P.RATING) >= FLOOR_BEFORE_2024)
        & (pl.col(P.RATING) < floor)
    )
    return (
        frame.filter(twice.fill_null(True)).select(EV),
        frame.filter(low.fill_null(False)).select(EV),
    )


def _pairing_flags(players: pl.DataFrame, games: pl.DataFrame) -> pl.DataFrame:
    """Events whose pairings a pairing check would speak of: an entry of no listed player,
    a player paired with themselves or with nobody listed, two entries in a round, or a
    game that is not mirrored (colours and results) on the opponent's line."""
    known = players.select(EV, pl.col(P.NO).alias(G.NO), pl.lit(True).alias("_known"))
    rows = games.join(known, on=[EV, G.NO], how="left")
    opp_known = known.rename({G.NO: G.OPP, "_known": "_opp_known"})
    rows = rows.join(opp_known, on=[EV, G.OPP], how="left")
    partner = games.select(
        EV,
        pl.col(G.ROUND),
        pl.col(G.NO).alias(G.OPP),
        pl.col(G.OPP).alias("_p_opp"),
        pl.col(G.COLOUR).alias("_p_colour"),
        pl.col(G.CODE).alias("_p_code"),
    )
    claim = pl.col(G.OPP).is_not_null() & pl.col(G.CODE).is_in(list(MIRROR))
    rows = rows.with_columns(pl.len().over(EV, G.NO, G.ROUND).alias("_entries")).join(
        partner, on=[EV, G.ROUND, G.OPP], how="left"
    )
    mirrored = (
        pl.col("_p_opp").eq_missing(pl.col(G.NO))
        & pl.col("_p_code").is_in(list(MIRROR)).fill_null(False)
        & (
            (pl.col("_p_code") == pl.col(G.CODE).replace_strict(MIRROR, default=None))
            | ((pl.col(G.CODE) == "-") & (pl.col("_p_code") == "-"))
        ).fill_null(False)
        & ~(
            pl.col(G.COLOUR).is_in(["w", "b"])
            & pl.col("_p_colour").is_in(["w", "b"])
            & (pl.col(G.COLOUR) == pl.col("_p_colour"))
        ).fill_null(False)
    )
    loud = (
        pl.col("_known").is_null()
        | (pl.col("_entries") > 1)
        | (pl.col(G.OPP).is_not_null() & (pl.col(G.OPP) == pl.col(G.NO)))
        | (pl.col(G.OPP).is_not_null() & pl.col("_opp_known").is_null())
        | (claim & ~mirrored)
    )
    # a partner row joined twice means two entries of the opponent in that round
    return rows.filter(loud.fill_null(True)).select(EV)


def _point_flags(players: pl.DataFrame, games: pl.DataFrame) -> pl.DataFrame:
    """Events where a player's declared points differ from the sum of the results."""
    sums = games.group_by(EV, G.NO).agg(pl.col(G.SCORE).sum().alias("_results"))
    declared = players.filter(pl.col(P.POINTS).is_not_null()).join(
        sums, left_on=[EV, P.NO], right_on=[EV, G.NO], how="left"
    )
    differs = (pl.col(P.POINTS) * 100).round(0).cast(pl.Int64) != (
        pl.col("_results").fill_null(0.0) * 100
    ).round(0).cast(pl.Int64)
    return declared.filter(differs.fill_null(True)).select(EV)


QUIET = "quiet"  # nothing to report
FLOOR = "floor"  # only ratings below the floor (warnings the batch words itself)
LOUD = "loud"  # the per-event checks must look


CHUNK = 250  # events per pass: a few queries each, and a bounded copy of their frames


def triage(events: Sequence[EventData]) -> list[str]:
    """For each event: QUIET when `files.validate_event` certainly reports nothing, FLOOR
    when it reports only below-floor ratings, LOUD otherwise. The events are looked at
    CHUNK at a time (every check is within one event)."""
    out: list[str] = []
    for start in range(0, len(events), CHUNK):
        out += _triage(events[start : start + CHUNK])
    return out


def _triage(events: Sequence[EventData]) -> list[str]:
    if not events:
        return []
    ev = _concat([with_columns_present(e.events, optional_types(Events)) for e in events])
    players = _concat([with_columns_present(e.players, optional_types(Players)) for e in events])
    games = _concat([with_columns_present(e.games, optional_types(Games)) for e in events])
    loud: set[int] = set()
    for frame, model in ((ev, Events), (players, Players), (games, Games)):
        flags = _schema_flags(frame, model)
        if flags is None:
            return [LOUD] * len(events)
        loud.update(flags[EV].to_list())
    try:
        twice, low = _player_flags(ev, players)
        for flags in (
            _fact_flags(ev, games),
            twice,
            _pairing_flags(players, games),
            _point_flags(players, games),
        ):
            loud.update(flags[EV].to_list())
    except (pl.exceptions.PolarsError, TypeError, ValueError):
        return [LOUD] * len(events)  # a frame the pass cannot judge: every event looked at
    floor = set(low[EV].to_list())
    return [LOUD if i in loud else FLOOR if i in floor else QUIET for i in range(len(events))]


def quiet_events(events: Sequence[EventData]) -> list[bool]:
    """For each event: True when `files.validate_event` certainly reports nothing."""
    return [kind == QUIET for kind in triage(events)]


def check_events(events: Sequence[EventData], rules_given: bool = False) -> list[list[Problem]]:
    """`files.check_event` of every event, the clean ones found in one batch pass."""
    from pipeline.validate.event import reader_problems, validate_event
    from pipeline.validate.player_fields import federation_warnings
    from pipeline.validate.rated import rated_event_warnings

    out: list[list[Problem]] = []
    rated = rated_event_warnings(events)
    feds = federation_warnings(events)
    for ev, kind, rated_, fed in zip(events, triage(events), rated, feds, strict=True):
        warnings = rated_ + fed
        reader = reader_problems(ev, rules_given)
        if kind == QUIET:
            found = list(warnings)
        elif kind == FLOOR:
            ctx = EventContext.from_events(with_columns_present(ev.events, optional_types(Events)))
            players = with_columns_present(ev.players, optional_types(Players))
            found = floor_warnings(ctx, players) + warnings
        else:
            found = validate_event(ev) + warnings
        out.append(reader + sorted(found, key=Problem.sort_key))
    return out


__all__ = ["FLOOR", "LOUD", "QUIET", "check_events", "quiet_events", "triage"]
