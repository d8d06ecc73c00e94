"""What the file shows about each event that the title-norm checks need, computed once
per event and shown on every player's checks (reference §7): its type, rounds, days,
the time for 60 moves, whether it lasts over 30 days, the host federation and the counts
of B.01 1.4.3d (every round: at least 20 FIDE-rated players not from the host federation,
from at least 3 federations, at least 10 of them GM, IM, WGM or WIM; a player counted
only if they miss at most one round, pairing-allocated byes excepted).

The type (`type_source` says where it came from) is the one given
(`NormOptions.event_types`: ``given``), else the officer's decision in the events frame's
`event_type` column (``decision``, when the column is there), else
`NormOptions.default_event_type` (``default``), else read from the pairings
(``pairings``): a round-robin when every two players met exactly once, a double
round-robin when exactly twice (at least 3 players); else unknown (null). The time for
60 moves is read from the event's time-control text by `pipeline.formats.timecontrol`:
one Python call per distinct text (a text parser), the only Python loop.

The checks join per-game rows to players many times: `coded_games` and `coded_players`
give every event an integer code (`EV`, its place in the games' order of events) and
every player entry one integer key (`KEY`: the event code and the start number), so that
the joins and groupings are on integers, not on the event id's text.
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
FORFEIT_LOSS: Final = "-"
EV: Final = "_ev"  # an event's code: its place in the games' order of events
KEY: Final = "_key"  # a player entry: the event's code and the start number
OKEY: Final = "_okey"  # the opponent's entry
LAST: Final = "_last"  # the facts' internal column: the last round in the games
SPAN: Final = 2**32  # KEY = EV x SPAN + start number (start numbers are far below it)
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


def event_codes(games: pl.DataFrame) -> pl.DataFrame:
    """`event_id` and its code `EV` (0, 1, ...) in the games' order of events."""
    return games.select(pl.col(E.ID).unique(maintain_order=True)).with_row_index(EV)


def _key(ev: pl.Expr, no: pl.Expr) -> pl.Expr:
    return ev.cast(pl.Int64) * SPAN + no.cast(pl.Int64)


def _code(column: str, codes: pl.DataFrame) -> pl.Expr:
    return pl.col(column).replace_strict(codes[E.ID], codes[EV], default=None)


def coded_games(games: pl.DataFrame, codes: pl.DataFrame, *columns: str) -> pl.DataFrame:
    """The games' `columns` with `EV`, `KEY`, `OKEY` (null for a bye), `_otb` (played
    over the board) and `_s2` (the score in half points)."""
    halves = (pl.col("score").cast(pl.Float64) * 2).round(0).cast(pl.Int64)
    return (
        games.lazy()
        .select(
            _code(E.ID, codes).alias(EV),
            *columns,
            pl.col("reason").fill_null("").is_in(OVER_THE_BOARD).alias("_otb"),
            halves.alias("_s2"),
        )
        .with_columns(
            _key(pl.col(EV), pl.col(G.NO)).alias(KEY), _key(pl.col(EV), pl.col(G.OPP)).alias(OKEY)
        )
        .collect(engine="in-memory")
    )


def coded_players(players: pl.DataFrame, codes: pl.DataFrame) -> pl.DataFrame:
    """The players of the games' events by `KEY`: `fed` (upper case), `own_title`
    (`title_expr`) and `sex` (lower case)."""
    return (
        players.lazy()
        .select(
            _code(P.EVENT, codes).alias(EV),
            pl.col(P.NO),
            pl.col(P.FED).str.strip_chars().str.to_uppercase().alias("fed"),
            title_expr(P.TITLE).alias("own_title"),
            pl.col(P.SEX).str.strip_chars().str.to_lowercase().alias("sex"),
        )
        .filter(pl.col(EV).is_not_null())
        .select(EV, _key(pl.col(EV), pl.col(P.NO)).alias(KEY), "fed", "own_title", "sex")
        .collect(engine="in-memory")
    )


def _round_robins(rows: pl.LazyFrame) -> pl.LazyFrame:
    """EV -> "round-robin" / "double-round-robin" when the pairings say so. Only events
    whose count of paired rows is n(n - 1) or 2n(n - 1) can be: the pairs are counted
    for those only."""
    paired = rows.filter(pl.col(G.OPP).is_not_null())
    n = paired.group_by(EV).agg(
        pl.col(G.NO).n_unique().cast(pl.Int64).alias("_n"), pl.len().cast(pl.Int64).alias("_m")
    )
    full = pl.col("_n") * (pl.col("_n") - 1)
    n = n.filter((pl.col("_n") >= 3) & ((pl.col("_m") == full) | (pl.col("_m") == 2 * full)))
    a, b = pl.col(G.NO), pl.col(G.OPP)
    per_pair = (
        paired.join(n.select(EV), on=EV, how="semi")
        .group_by(EV, pl.min_horizontal(a, b).alias("_a"), pl.max_horizontal(a, b).alias("_b"))
        .agg(pl.len().alias("_rows"))
    )
    shape = per_pair.group_by(EV).agg(
        pl.len().alias("_pairs"), pl.col("_rows").min().alias("_lo"), pl.col("_rows").max()
    )
    full_pairs = pl.col("_pairs") == pl.col("_n") * (pl.col("_n") - 1) // 2
    same = (pl.col("_lo") == pl.col("_rows")) & full_pairs
    return shape.join(n, on=EV).select(
        EV,
        pl.when(same & (pl.col("_rows") == 2))
        .then(pl.lit("round-robin"))
        .when(same & (pl.col("_rows") == 4))
        .then(pl.lit("double-round-robin"))
        .alias("_read"),
    )


def _foreign_counts(rows: pl.LazyFrame, people: pl.DataFrame, ev: pl.LazyFrame) -> pl.LazyFrame:
    """B.01 1.4.3d's three counts per event, each the minimum over its rounds (events
    with a host federation only: without one nobody is foreign). The rounds are counted
    only for the events whose whole-event counts reach 20, 3 and 10: elsewhere the
    whole-event counts are given (a round's can only be fewer, so 1.4.3d fails either
    way), which spares a pass over every game of most events."""
    present = pl.col("_otb") | (pl.col(G.CODE) == PAB)
    hosts = ev.filter(pl.col("host").is_not_null()).select(EV, "rounds", "host")
    rows = rows.join(hosts, on=EV, how="semi").select(EV, KEY, G.ROUND, "rating",
                                                      present.alias("_in"))  # fmt: skip
    # the player entries counted: rated, of a federation other than the host's, missing
    # at most one round (pairing-allocated byes excepted)
    foreign = (
        rows.group_by(KEY)
        .agg(pl.col("_in").sum(), pl.col("rating").first())
        .with_columns((pl.col(KEY) // SPAN).cast(pl.UInt32).alias(EV))
        .join(hosts, on=EV)
        .filter(pl.col("rounds") - pl.col("_in") <= 1)
        .join(people.lazy().select(KEY, "fed", "own_title"), on=KEY, how="left")
        .filter(
            pl.col("rating").is_not_null()
            & pl.col("fed").is_not_null()
            & (pl.col("fed") != pl.col("host"))
        )
        .select(EV, KEY, "fed", pl.col("own_title").is_in(list(FOREIGN_TITLES)).alias("_t"))
        .collect(engine="in-memory")
    )
    counts = [
        pl.len().cast(pl.Int64).alias("d_foreign_rated"),
        pl.col("fed").n_unique().cast(pl.Int64).alias("d_federations"),
        pl.col("_t").sum().cast(pl.Int64).alias("d_titled"),
    ]
    whole = foreign.lazy().group_by(EV).agg(counts)
    reach = (
        (pl.col("d_foreign_rated") >= 20)
        & (pl.col("d_federations") >= 3)
        & (pl.col("d_titled") >= 10)
    )
    candidates = whole.filter(reach).select(EV)
    played = rows.filter("_in").join(candidates, on=EV, how="semi").select(EV, KEY, G.ROUND)
    per_round = (
        played.join(foreign.lazy().select(KEY, "fed", "_t"), on=KEY)
        .group_by(EV, G.ROUND)
        .agg(counts)
    )
    every_round = rows.join(candidates, on=EV, how="semi").select(EV, G.ROUND).unique()
    rounds = (
        every_round.join(per_round, on=[EV, G.ROUND], how="left")
        .group_by(EV)
        .agg(pl.col("d_foreign_rated", "d_federations", "d_titled").fill_null(0).min())
    )
    return pl.concat([rounds, whole.join(candidates, on=EV, how="anti")], how="vertical_relaxed")


def _check_types(o: NormOptions, events: pl.DataFrame) -> None:
    """Raise ValueError naming the first type, given or decided, not in EVENT_TYPES."""
    given = [*o.event_types.items(), ("(default)", o.default_event_type)]
    if E.TYPE in events.columns:
        decided = events.select(E.ID, E.TYPE).filter(~pl.col(E.TYPE).is_in(EVENT_TYPES))
        given += decided.drop_nulls(E.TYPE).rows()
    for name, given_type in given:
        if given_type is not None and given_type not in EVENT_TYPES:
            raise ValueError(
                f"event type of {name}: expected one of {EVENT_TYPES}, got {given_type!r}"
            )


def facts_frame(
    rows: pl.DataFrame, people: pl.DataFrame, events: pl.DataFrame, codes: pl.DataFrame,
    o: NormOptions,
) -> pl.DataFrame:  # fmt: skip
    """`event_facts` of `coded_games` rows (`G.NO`, `G.OPP`, `G.ROUND`, `G.CODE`,
    `rating`) and `coded_players`, in the games' order of events, with `EV` and `LAST`
    (the last round in the games) after `FACT_COLUMNS`."""
    _check_types(o, events)
    wanted = {E.LIST: pl.String, HOST: pl.String, E.START: pl.Date, E.END: pl.Date,
              E.ROUNDS: pl.Int64, E.TIME: pl.String, E.TYPE: pl.String}  # fmt: skip
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
    lazy = rows.lazy()
    last_round = lazy.group_by(EV).agg(
        pl.col(G.ROUND).max().cast(pl.Int64).alias(LAST),
        pl.col(G.NO).n_unique().cast(pl.Int64).alias("players"),
    )
    default = pl.lit(o.default_event_type, dtype=pl.String)
    kind = pl.coalesce("_given", E.TYPE, default, "_read")
    source = (
        pl.when(pl.col("_given").is_not_null()).then(pl.lit("given"))
        .when(pl.col(E.TYPE).is_not_null()).then(pl.lit("decision"))
        .when(default.is_not_null()).then(pl.lit("default"))
        .when(pl.col("_read").is_not_null()).then(pl.lit("pairings"))
    )  # fmt: skip
    facts = (
        codes.lazy()
        .join(last_round, on=EV, how="left")
        .join(
            ev.lazy().with_columns(pl.Series("minutes_60", minutes, dtype=pl.Int64)),
            on=E.ID,
            how="left",
        )
        .join(given.lazy(), on=E.ID, how="left")
        .join(_round_robins(lazy), on=EV, how="left")
        .select(
            E.ID,
            kind.alias("event_type"),
            source.alias("type_source"),
            E.LIST,
            pl.col(HOST).str.strip_chars().str.to_uppercase().alias("host"),
            pl.coalesce(E.ROUNDS, LAST).alias("rounds"),
            ((pl.col(E.END) - pl.col(E.START)).dt.total_days() + 1).alias("days"),
            "minutes_60",
            "players",
            EV,
            LAST,
        )
        .collect(engine="in-memory")
    )
    counts = _foreign_counts(lazy, people, facts.lazy())
    d = ["d_foreign_rated", "d_federations", "d_titled"]
    return (
        facts.lazy()
        .join(counts, on=EV, how="left")
        .with_columns(pl.col(d).fill_null(0))
        .sort(EV)
        .select(*FACT_COLUMNS, EV, LAST)
        .collect(engine="in-memory")
    )


def event_facts(
    games: pl.DataFrame,
    players: pl.DataFrame,
    events: pl.DataFrame,
    options: NormOptions | None = None,
) -> pl.DataFrame:
    """One row per event of `games` (`FACT_COLUMNS`), in the games' order of events.
    `events` needs `event_id`; its `list`, `federation`, `start_date`, `end_date`,
    `rounds`, `time_control` and `event_type` are used when present (null when absent).
    Raises ValueError for an unknown event type, given or in the events frame."""
    codes = event_codes(games)
    columns = (G.NO, G.OPP, G.ROUND, G.CODE, "rating")
    rows = coded_games(games, codes, *columns)
    facts = facts_frame(
        rows, coded_players(players, codes), events, codes, options or NormOptions()
    )
    return facts.select(*FACT_COLUMNS)


__all__ = [
    "EV",
    "FACT_COLUMNS",
    "FORFEIT_LOSS",
    "FORFEIT_WIN",
    "KEY",
    "LAST",
    "OKEY",
    "PAB",
    "SPAN",
    "coded_games",
    "coded_players",
    "event_codes",
    "event_facts",
    "facts_frame",
    "title_expr",
]
