"""Which games count: the second half of `pipeline.rate`, after `pipeline.rate.players`.

`classify_games` joins both sides of every game entry (their identity, Ro and K facts from
`players.resolve_players`) and decides whether it is rated, and if not, why (the `reason`
of games.csv), with D, D used, PD and ΔR. It is a lazy query (rate.engine collects it
once); ratings are Int64, scores and PD Int64 hundredths (fide-rules.md §1-§4).

It works on integer keys (`pipeline.rate.rows`): an event is its `event_order`, a player
entry its row in the collected entries, a player on a list `c.PID` (the row of their
first entry, found by FIDE ID); a game row gathers its event's, its player's and its
opponent's columns by them. Result codes are compared by their byte, rules that every
event shares are literals (the cap's branch chosen once), and PD is one gather from
table 8.1.2 by D used.
"""

from __future__ import annotations

from collections.abc import Iterable

import polars as pl

from pipeline.rate import columns as c
from pipeline.rate.rows import (
    EntryRows,
    events_in_order,
    together,
)
from pipeline.rules.tables import PD_TABLE_MAX_D
from pipeline.rules.vector import difference_used_expr, expected_expr, rule_600_expr
from schemas.columns import E, G, P

_BYE_CODES = ("H", "F", "U", "Z")
_FORFEIT_CODES = ("+", "-")
_SHORT_CODES = ("W", "D", "L")  # under one move
# games.csv's `reason`, by the number `classify_games` computes first
REASONS = (
    "",
    "bye",
    "forfeit",
    "under-one-move",
    "unplayed",
    "opponent-unrated",
    "player-unrated",
    "rule-600",
)
_REASON = {reason: i for i, reason in enumerate(REASONS)}
_RULES = ("rs_cap", "rs_cap_mode", "rs_cap_exempt_from", "rs_rule_600")  # per game row


class _Codes:
    """The games' result codes as `classify_games` compares them (upper-cased): by
    their one byte (column `_code`) when every code is one ASCII character, else as
    strings. `upper`: some code is lower case (the code column is upper-cased);
    `compared`: some comparison was made (`_code` is needed)."""

    def __init__(self, codes: pl.Series) -> None:
        byte = codes.cast(pl.Binary).bin.reinterpret(dtype=pl.UInt8)
        self.by_byte = byte.null_count() == 0
        found = [chr(b) for b in byte.unique()] if self.by_byte else codes.unique().to_list()
        shown = pl.Series(found, dtype=pl.String).drop_nulls()
        upper = shown.str.to_uppercase()
        self.upper = bool((shown != upper).any())
        self.present = set(upper.to_list())
        self.compared = False

    def one_of(self, values: Iterable[str]) -> pl.Expr:
        """The code is one of `values`: compared only with those that occur."""
        hits = [value for value in values if value in self.present]
        if not hits:
            return pl.lit(False)
        self.compared = True
        if self.by_byte:
            return pl.col("_code").is_in([ord(value) for value in hits])
        equal = [pl.col(G.CODE) == value for value in hits]
        return pl.any_horizontal(equal) if len(equal) > 1 else equal[0]

    def column(self) -> list[pl.Expr]:
        """`_code` when the comparisons read it."""
        if not (self.by_byte and self.compared):
            return []
        return [pl.col(G.CODE).cast(pl.Binary).bin.reinterpret(dtype=pl.UInt8).alias("_code")]


# PD of every D used that the table tells apart (beyond it, PD is that of the bound)
_D_BOUND = PD_TABLE_MAX_D + 1
_PD_BY_D = pl.select(
    expected_expr(pl.int_range(-_D_BOUND, _D_BOUND + 1, dtype=pl.Int64))
).to_series()


def expected_by_table(d_used: pl.Expr) -> pl.Expr:
    """`pipeline.rules.vector.expected_expr` as one gather from its own values."""
    return pl.lit(_PD_BY_D).gather(d_used.clip(-_D_BOUND, _D_BOUND) + _D_BOUND)


def difference_used(
    d: pl.Expr,
    rating: pl.Expr,
    fixed: dict[str, object],
    columns: dict[str, pl.Expr],
    once_per_event: bool,
) -> pl.Expr:
    """`pipeline.rules.vector.difference_used_expr` over (event, start number); when the
    cap rules are one value for every row (`fixed`), only the branch they choose."""
    names = ("rs_cap", "rs_cap_mode", "rs_cap_exempt_from")
    cap, mode, exempt = (fixed.get(name) for name in names)
    if all(name in fixed for name in names) and (not once_per_event or mode != "once-per-event"):
        d = d.cast(pl.Int64)
        if cap is None:
            return d
        if not isinstance(cap, int):
            raise TypeError(f"expected a whole-number cap, got {cap!r}")
        clamped = d.clip(-cap, cap)
        if mode != "below-2650" or not isinstance(exempt, int):
            return clamped
        return pl.when(rating >= exempt).then(d).otherwise(clamped)
    return difference_used_expr(
        d,
        rating,
        columns["rs_cap"],
        columns["rs_cap_mode"],
        columns["rs_cap_exempt_from"],
        over=[c.EV_ORDER, G.NO],
        order_by=G.ROUND,
        once_per_event=once_per_event,
    )


def classify_games(
    ordered: pl.DataFrame,
    events: pl.DataFrame,
    entries: pl.DataFrame,
    once_per_event: bool = True,
) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """Both sides of every game entry with Ro, D, D used, PD, ΔR and the reason, in the
    order of games.csv (event order, round, start number), as two queries of the same
    rows to collect together (they run side by side): the numbers and the players'
    keys and names (`hstack` them).

    `ordered` is `order_games`' frame; `events` carries the event's rule set as ``rs_``
    columns (pipeline.rules.vector) plus `event_order`; `entries` is `resolve_players`'
    frame, collected; `once_per_event` False says no event caps once per event. The
    reason is kept as its number too (`_reason`, an index of `REASONS`).
    """
    by_event = events_in_order(events)
    event = pl.col(c.EV_ORDER)
    rows = EntryRows(entries, events.height)
    codes = _Codes(ordered[G.CODE])
    code = pl.col(G.CODE)
    # An event's value of a column the games need (its list, its rules): one literal when
    # every event has the same (a period of one list and rule set), else gathered.
    known = ordered[c.EV_ORDER].null_count() == 0
    same = {name for name in (E.LIST, *_RULES) if known and by_event[name].n_unique() == 1}
    fixed = {name: by_event[name][0] for name in same}
    value = {name: pl.lit(fixed[name], dtype=by_event[name].dtype) for name in same}
    rule = {name: value.get(name, pl.col(name)) for name in _RULES}
    spread = [name for name in (E.LIST, *_RULES) if name not in same]
    if E.ID not in ordered.columns:
        spread.append(E.ID)
    per_event = by_event.select(pl.col(E.NAME).alias("tournament"), *spread, *rows.per_event())
    g = ordered.lazy().with_columns(
        *([code.str.to_uppercase()] if codes.upper else []),
        *([value[E.LIST].alias(E.LIST)] if E.LIST in same else []),
        together(per_event, event, "_event"),
    )
    g = rows.add(rows.add(g.unnest("_event"), G.NO, "_me"), G.OPP, "_opp")
    # the rows as the gathers' own index type: each gather then reads them as they are
    index = pl.col("_me", "_opp").cast(pl.get_index_type())
    slots = [s.name for s in rows.per_event()]
    found = g.drop(*slots).with_columns(index).collect(engine="in-memory")
    me, opp = pl.col("_me"), pl.col("_opp")
    names = found.lazy().select(
        together(entries.select(c.KEY, P.NAME), me, "_me"),
        together(
            entries.select(pl.col(c.KEY).alias(c.OPP_KEY), pl.col(P.NAME).alias("opponent_name")),
            opp,
            "_opp",
        ),
    )
    mine = entries.select(P.FIDE, c.RO, c.PID)
    theirs = entries.select(
        pl.col(P.FIDE).alias("opponent_fide_id"), pl.col(c.FACING_RO).alias(c.OPP_RO)
    )
    # an opponent entry found is one with a key (`_opp`: its row)
    reason = (
        pl.when(pl.col(G.OPP).is_null() | codes.one_of(_BYE_CODES))
        .then(_REASON["bye"])
        .when(codes.one_of(_FORFEIT_CODES))
        .then(_REASON["forfeit"])
        .when(codes.one_of(_SHORT_CODES))
        .then(_REASON["under-one-move"])
        .when(~pl.col(G.PLAYED) | opp.is_null())
        .then(_REASON["unplayed"])
        .when(pl.col(c.OPP_RO).is_null())
        .then(_REASON["opponent-unrated"])
        .when(pl.col(c.RO).is_null())
        .then(_REASON["player-unrated"])
    )
    if fixed.get("rs_rule_600", True) is not False:
        is_600 = rule_600_expr(pl.col(c.RO), pl.col(c.OPP_RO), rule["rs_rule_600"])
        reason = reason.when(is_600).then(_REASON["rule-600"])
    g = found.lazy().with_columns(
        *codes.column(),
        (pl.col(G.SCORE) * 100).round(0).cast(pl.Int64).alias(c.SCORE_H),
        together(mine, me, "_mine"),
        together(theirs, opp, "_theirs"),
    )
    g = g.unnest("_mine", "_theirs").with_columns(reason.otherwise(_REASON[""]).alias("_reason"))
    # D is shown for the rated games and those of the 600-point rule (ratings known)
    d = pl.col(c.RO) - pl.col(c.OPP_RO)
    reason_no = pl.col("_reason")
    rated = reason_no == _REASON[""]
    g = g.with_columns(
        pl.lit(pl.Series(REASONS)).gather(reason_no).alias(c.REASON),
        rated.alias(c.RATED),
        pl.when(reason_no.is_in([_REASON[""], _REASON["rule-600"]])).then(d).alias(c.D),
        difference_used(pl.when(rated).then(d), pl.col(c.RO), fixed, rule, once_per_event).alias(
            c.D_USED
        ),
    )
    g = g.with_columns(expected_by_table(pl.col(c.D_USED)).alias(c.PD_H)).with_columns(
        (pl.col(c.SCORE_H) - pl.col(c.PD_H)).alias(c.DELTA_H)
    )
    dropped = [name for name in spread if name in _RULES]
    numbers = g.drop(*dropped, "_me", "_opp", *(["_code"] if codes.column() else []))
    return numbers, names.unnest("_me", "_opp")
