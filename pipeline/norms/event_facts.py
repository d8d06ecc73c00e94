"""What the file shows about each event that the title-norm checks need, computed once
per event and shown on every player's checks (reference §7): its type, rounds, days,
the time for 60 moves, whether it lasts over 30 days, the host federation and the counts
of B.01 1.4.3d (every round: at least 20 FIDE-rated players not from the host federation,
from at least 3 federations, at least 10 of them GM, IM, WGM or WIM; a player counted
only if they miss at most one round, pairing-allocated byes excepted).

The type is the one given (`NormOptions.event_types`, then `default_event_type`), else
read from the pairings: a round-robin when every two players met exactly once, a double
round-robin when exactly twice (at least 3 players); else unknown (null). The time for
60 moves is read from the event's time-control text by `pipeline.formats.timecontrol`:
one Python call per distinct text (a text parser), the only Python loop.
"""

from __future__ import annotations

from typing import Final

import polars as pl

from pipeline.formats.timecontrol import seconds_for_time_control
from pipeline.norms.performance import OVER_THE_BOARD
from pipeline.norms.titles import EVENT_TYPES, FOREIGN_TITLES, NormOptions
from schemas.columns import E, G, P

HOST: Final = "federation"  # the events frame's host federation (TRF 032)
PAB: Final = "U"  # TRF: pairing-allocated bye
FORFEIT_WIN: Final = "+"
# event_facts' columns
FACT_COLUMNS: Final = (
    E.ID,
    "event_type",
    "type_source",
    E.LIST,
    "host",
    "rounds",
    "days",
    "minutes_60",
    "players",
    "d_foreign_rated",
    "d_federations",
    "d_titled",
)


def title_expr(column: str) -> pl.Expr:
    """A title as the checks compare it: upper case, blank -> null."""
    t = pl.col(column).str.strip_chars().str.to_uppercase()
    return pl.when(t != "").then(t)


def _round_robins(games: pl.DataFrame) -> pl.LazyFrame:
    """event_id -> "round-robin" / "double-round-robin" when the pairings say so."""
    paired = games.lazy().filter(pl.col(G.OPP).is_not_null())
    a, b = pl.col(G.NO), pl.col(G.OPP)
    per_pair = paired.group_by(
        E.ID, pl.min_horizontal(a, b).alias("_a"), pl.max_horizontal(a, b).alias("_b")
    ).agg(pl.len().alias("_rows"))
    n = paired.group_by(E.ID).agg(pl.col(G.NO).n_unique().cast(pl.Int64).alias("_n"))
    shape = per_pair.group_by(E.ID).agg(
        pl.len().alias("_pairs"), pl.col("_rows").min().alias("_lo"), pl.col("_rows").max()
    )
    full = pl.col("_pairs") == pl.col("_n") * (pl.col("_n") - 1) // 2
    same = (pl.col("_lo") == pl.col("_rows")) & (pl.col("_n") >= 3) & full
    return (
        shape.join(n, on=E.ID)
        .select(
            E.ID,
            pl.when(same & (pl.col("_rows") == 2))
            .then(pl.lit("round-robin"))
            .when(same & (pl.col("_rows") == 4))
            .then(pl.lit("double-round-robin"))
            .alias("_read"),
        )
        .filter(pl.col("_read").is_not_null())
    )


def _foreign_counts(games: pl.DataFrame, players: pl.DataFrame, ev: pl.LazyFrame) -> pl.LazyFrame:
    """B.01 1.4.3d's three counts per event, each the minimum over its rounds."""
    present = pl.col("reason").fill_null("").is_in(OVER_THE_BOARD) | (pl.col(G.CODE) == PAB)
    rows = (
        games.lazy()
        .select(E.ID, G.NO, G.ROUND, "rating", present.alias("_present"))
        .join(ev.select(E.ID, "rounds", "host"), on=E.ID, how="left")
    )
    kept = (
        rows.group_by(E.ID, G.NO)
        .agg(pl.col("_present").sum().alias("_in"), pl.col("rounds").first())
        .filter(pl.col("rounds") - pl.col("_in") <= 1)
        .select(E.ID, G.NO)
    )
    people = players.lazy().select(
        pl.col(P.EVENT).alias(E.ID), pl.col(P.NO).alias(G.NO), P.FED, title_expr(P.TITLE)
    )
    foreign = (
        rows.filter("_present")
        .join(kept, on=[E.ID, G.NO])
        .join(people, on=[E.ID, G.NO], how="left")
        .filter(
            pl.col("rating").is_not_null()
            & pl.col(P.FED).is_not_null()
            & (pl.col(P.FED) != pl.col("host"))
        )
    )
    per_round = foreign.group_by(E.ID, G.ROUND).agg(
        pl.len().cast(pl.Int64).alias("d_foreign_rated"),
        pl.col(P.FED).n_unique().cast(pl.Int64).alias("d_federations"),
        pl.col(P.TITLE).is_in(list(FOREIGN_TITLES)).sum().cast(pl.Int64).alias("d_titled"),
    )
    every_round = rows.select(E.ID, G.ROUND).unique()
    return (
        every_round.join(per_round, on=[E.ID, G.ROUND], how="left")
        .group_by(E.ID)
        .agg(
            pl.col("d_foreign_rated", "d_federations", "d_titled").fill_null(0).min(),
        )
    )


def event_facts(
    games: pl.DataFrame,
    players: pl.DataFrame,
    events: pl.DataFrame,
    options: NormOptions | None = None,
) -> pl.DataFrame:
    """One row per event of `games` (`FACT_COLUMNS`). `events` needs `event_id`; its
    `list`, `federation`, `start_date`, `end_date`, `rounds` and `time_control` are used
    when present (null when absent). Raises ValueError for an unknown event type."""
    o = options or NormOptions()
    for name, given_type in [*o.event_types.items(), ("(default)", o.default_event_type)]:
        if given_type is not None and given_type not in EVENT_TYPES:
            raise ValueError(
                f"event type of {name}: expected one of {EVENT_TYPES}, got {given_type!r}"
            )
    wanted = {E.LIST: pl.String, HOST: pl.String, E.START: pl.Date, E.END: pl.Date,
              E.ROUNDS: pl.Int64, E.TIME: pl.String}  # fmt: skip
    ev = events.select(
        E.ID,
        *(
            pl.col(c).cast(t) if c in events.columns else pl.lit(None, dtype=t).alias(c)
            for c, t in wanted.items()
        ),
    )
    texts = ev[E.TIME].to_list()
    read = {t: seconds_for_time_control(t) for t in set(texts) if t is not None}
    whole = {t: None if s is None else int(s // 60) for t, s in read.items()}
    minutes = [None if t is None else whole[t] for t in texts]
    given = pl.DataFrame(
        {E.ID: list(o.event_types), "_given": list(o.event_types.values())},
        schema={E.ID: pl.String, "_given": pl.String},
    )
    last_round = (
        games.lazy()
        .group_by(E.ID)
        .agg(
            pl.col(G.ROUND).max().cast(pl.Int64).alias("_last"),
            pl.col(G.NO).n_unique().cast(pl.Int64).alias("players"),
        )
    )
    kind = pl.coalesce("_given", pl.lit(o.default_event_type, dtype=pl.String), "_read")
    source = (
        pl.when(pl.col("_given").is_not_null())
        .then(pl.lit("given"))
        .when(pl.lit(o.default_event_type is not None))
        .then(pl.lit("default"))
        .when(pl.col("_read").is_not_null())
        .then(pl.lit("pairings"))
    )
    facts = (
        last_round.join(
            ev.lazy().with_columns(pl.Series("minutes_60", minutes, dtype=pl.Int64)),
            on=E.ID,
            how="left",
        )
        .join(given.lazy(), on=E.ID, how="left")
        .join(_round_robins(games), on=E.ID, how="left")
        .select(
            E.ID,
            kind.alias("event_type"),
            source.alias("type_source"),
            E.LIST,
            pl.col(HOST).str.strip_chars().str.to_uppercase().alias("host"),
            pl.coalesce(E.ROUNDS, "_last").alias("rounds"),
            ((pl.col(E.END) - pl.col(E.START)).dt.total_days() + 1).alias("days"),
            "minutes_60",
            "players",
        )
    )
    counts = _foreign_counts(games, players, facts)
    return facts.join(counts, on=E.ID, how="left").select(*FACT_COLUMNS).collect()


__all__ = ["FACT_COLUMNS", "FORFEIT_WIN", "PAB", "event_facts", "title_expr"]
