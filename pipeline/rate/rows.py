"""How the rows of the rate stage's frames find each other by integer keys: part of
`pipeline.rate`, used by `classify` and `engine` so that the million game rows of a
federation's month are joined, sorted and grouped by integers, never string by string.

- An event is its `event_order` (0 .. n-1, engine.py): a game row's or an entry's is
  found once per run of equal event IDs (`event_orders`: the rows of one event come
  together), and the event's own columns are then gathered by it (`events_in_order`).
- A player entry is its row in the collected entries (sorted by event order and start
  number); a game row finds its player's and its opponent's through a slot table, or a
  join when the start numbers do not allow one (`EntryRows`); the entry's columns are
  then gathered by that row (`gathered`, `together`).
- games.csv's order (event order, round, start number) is one sort of Int64 values
  when the numbers fit (`order_games`); `spans` and `span_bits` say whether they do.
"""

from __future__ import annotations

from collections.abc import Iterable

import polars as pl

from pipeline.rate import columns as c
from schemas.columns import E, G, P

NO_BITS = 31  # entries sort by (event_order, start_no) packed into one Int64 below this
_SLACK = 4  # a slot table holds at most this many slots per entry (else: a join)


def optional(df: pl.DataFrame, name: str, dtype: pl.DataType) -> pl.Expr:
    """A column of `df`, or nulls of `dtype` when the frame lacks it."""
    if name in df.columns:
        return pl.col(name).cast(dtype)
    return pl.lit(None, dtype=dtype)


def fits_in_bits(series: pl.Series, bits: int, nulls: bool = False) -> bool:
    """Whether every value of an integer column is within 0 .. 2**bits - 1 (and known,
    unless `nulls`): then it can be packed with others into one Int64 key."""
    if not series.dtype.is_integer() or (series.null_count() and not nulls):
        return False
    low, high = series.min(), series.max()
    if low is None or high is None:
        return True  # empty, or only nulls
    return isinstance(low, int) and isinstance(high, int) and low >= 0 and high < 1 << bits


Span = tuple[int, int | None, int | None]  # a column's nulls, lowest and highest value


def spans(frame: pl.DataFrame, names: Iterable[str]) -> dict[str, Span]:
    """Nulls, lowest and highest value of the integer columns `names` of `frame` (in one
    pass; a column that is missing or not of integers is left out)."""
    ints = [name for name in names if name in frame.columns and frame[name].dtype.is_integer()]
    row = (
        frame.select(
            *(pl.col(name).null_count().alias(f"{name}:n") for name in ints),
            *(pl.col(name).min().cast(pl.Int64).alias(f"{name}:lo") for name in ints),
            *(pl.col(name).max().cast(pl.Int64).alias(f"{name}:hi") for name in ints),
        ).row(0, named=True)
        if ints
        else {}
    )
    return {name: (row[f"{name}:n"], row[f"{name}:lo"], row[f"{name}:hi"]) for name in ints}


def span_bits(span: Span | None, nulls: bool = False) -> int | None:
    """The bits that hold every value of a column (`spans`), None when some value is
    negative, or null unless `nulls`."""
    if span is None or (span[0] and not nulls):
        return None
    _, low, high = span
    if low is not None and low < 0:
        return None
    return _bits(high)


def _bits(largest: object) -> int:
    """The bits that hold every number 0 .. `largest` (a column's max: None if empty)."""
    return max(largest if isinstance(largest, int) else 0, 1).bit_length()


def gathered(frame: pl.DataFrame, name: str, index: pl.Expr) -> pl.Expr:
    """Column `name` of `frame` at row `index` of each row (null where `index` is)."""
    return pl.lit(frame[name]).gather(index).alias(name)


def together(frame: pl.DataFrame, index: pl.Expr, name: str) -> pl.Expr:
    """Every column of `frame` at row `index` of each row, as one struct column `name`
    (one gather for them all; `unnest` it)."""
    return pl.lit(frame.select(pl.struct(pl.all()).alias(name)).to_series()).gather(index)


def event_orders(ids: pl.Series, events: pl.DataFrame) -> pl.Series:
    """The `event_order` of each row's event ID (null for an event not in `events`),
    looked up once per run of equal IDs: the rows of one event come together."""
    run = ids.rle_id()
    runs = int(run[-1]) + 1 if len(run) else 0
    first = run.search_sorted(pl.int_range(runs, eager=True).cast(run.dtype), side="left")
    found = pl.DataFrame({E.ID: ids.gather(first)}).join(
        events.select(E.ID, c.EV_ORDER), on=E.ID, how="left", maintain_order="left"
    )
    return found[c.EV_ORDER].gather(run)


def events_in_order(events: pl.DataFrame) -> pl.DataFrame:
    """The events by `event_order` (row i is event_order i)."""
    return events.sort(c.EV_ORDER)


def entries_order(players: pl.DataFrame, events: pl.DataFrame) -> list[pl.Expr]:
    """Event order, then start number (an event missing from `events` first); packed
    into one Int64 when the start numbers allow."""
    if fits_in_bits(players[P.NO], NO_BITS) and events.height < 1 << NO_BITS:
        no = pl.col(P.NO).cast(pl.Int64)
        return [pl.col(c.EV_ORDER).fill_null(-1) * (1 << NO_BITS) + no]
    return [pl.col(c.EV_ORDER), pl.col(P.NO)]


class EntryRows:
    """Finds the row of a player entry (event_order, start_no) in `entries` (collected,
    sorted by both, row i in column `_row`) for each game row.

    With a slot table when the start numbers allow (none twice in an event, every one
    from 1, at most `_SLACK` slots per entry): event e holds slots first[e] ..
    first[e] + size[e] - 1, slot first[e] + n - 1 the row of its number n (null if no
    entry has it; with every number 1 .. size[e] taken, slot and row are the same). Else
    through a join on (event_order, start_no).
    """

    def __init__(self, entries: pl.DataFrame, n_events: int) -> None:
        self.entries = entries
        self.first: pl.Series | None = None
        self.size = pl.Series(dtype=pl.Int64)
        self.slots: pl.Series | None = None  # None with `first`: slot i is row i
        ev, no = entries[c.EV_ORDER], entries[P.NO].cast(pl.Int64)
        lowest = no.min()
        if ev.null_count() or no.null_count() or not isinstance(lowest, int) or lowest < 1:
            return
        size = pl.zeros(n_events, dtype=pl.Int64, eager=True)
        largest = entries.group_by(c.EV_ORDER).agg(pl.col(P.NO).cast(pl.Int64).max())
        size.scatter(largest[c.EV_ORDER], largest[P.NO])
        total = int(size.sum())
        if total > _SLACK * entries.height + 1024:
            return
        first = size.cum_sum() - size
        slot = first.gather(ev) + no - 1
        if (slot.diff() == 0).any():  # a start number twice in one event
            return
        self.first, self.size = first, size
        if total != entries.height:
            slots = pl.repeat(None, total, dtype=pl.Int64, eager=True)
            slots.scatter(slot, pl.int_range(entries.height, dtype=pl.Int64, eager=True))
            self.slots = slots

    def per_event(self) -> list[pl.Series]:
        """The columns by event_order that `add` needs on each game row (the caller
        gathers them as columns of these names)."""
        if self.first is None:
            return []
        return [self.first.alias("_first"), self.size.alias("_size")]

    def add(self, games: pl.LazyFrame, no: str, name: str) -> pl.LazyFrame:
        """`games` (with `event_order` and the `per_event` columns) plus column `name`:
        the row of entry `no`."""
        number = pl.col(no).cast(pl.Int64)
        if self.first is None:
            return self._join(games, number, name)
        inside = (number >= 1) & (number <= pl.col("_size"))
        slot = pl.when(inside).then(pl.col("_first") + number - 1)
        row = slot if self.slots is None else pl.lit(self.slots).gather(slot)
        return games.with_columns(row.alias(name))

    def _join(self, games: pl.LazyFrame, number: pl.Expr, name: str) -> pl.LazyFrame:
        """`add` without a slot table: a join on (event_order, start_no), packed into one
        Int64 when every start number of the entries fits in `NO_BITS` bits (a game's
        number that does not then matches no entry)."""
        event = pl.col(c.EV_ORDER)
        ours = pl.col(P.NO).cast(pl.Int64)
        if fits_in_bits(self.entries[P.NO], NO_BITS):
            fits = number.is_between(0, (1 << NO_BITS) - 1)
            left = [pl.when(fits).then(event * (1 << NO_BITS) + number).alias("_k")]
            right = [(event * (1 << NO_BITS) + ours).alias("_k")]
        else:
            left = [event.alias("_k"), number.alias("_k2")]
            right = [event.alias("_k"), ours.alias("_k2")]
        keys = [k.meta.output_name() for k in left]
        found = self.entries.lazy().select(*right, pl.col("_row").cast(pl.Int64).alias(name))
        return (
            games.with_columns(left)
            .join(found, on=keys, how="left", maintain_order="left")
            .drop(keys)
        )


def order_games(games: pl.DataFrame, events: pl.DataFrame, ranges: dict[str, Span]) -> pl.DataFrame:
    """The game rows (the columns `classify_games` reads) with `event_order`, in
    games.csv's order: event order, round, start number (an event missing from `events`
    first). `events` carries `event_order`; `ranges` are the `spans` of the games' round
    and start_no. `event_id` is left out when every row's event is in `events` and the
    numbers fit one Int64 key (the caller gathers it from `events` then).

    With such a key the order is one sort of Int64 values packing the event order,
    round, start number and row (the row in the lowest bits, so that the sorted values
    say which row goes where and the three keys are read back from them rather than
    moved); else a sort by the three columns."""
    columns = [
        optional(games, G.OPP, pl.Int64()).alias(G.OPP),
        optional(games, G.COLOUR, pl.String()).alias(G.COLOUR),
        pl.col(G.CODE),
        pl.col(G.SCORE),
        optional(games, G.PLAYED, pl.Boolean()).fill_null(False).alias(G.PLAYED),
        optional(games, G.LINE, pl.Int64()).alias(G.LINE),
        optional(games, G.COLUMN, pl.String()).alias(G.COLUMN),
    ]
    orders = event_orders(games[E.ID], events)
    round_, no = games[G.ROUND], games[G.NO]
    round_bits, no_bits = span_bits(ranges.get(G.ROUND)), span_bits(ranges.get(G.NO))
    if orders.null_count() == 0 and round_bits is not None and no_bits is not None:
        row_bits = _bits(games.height)
        if _bits(events.height) + round_bits + no_bits + row_bits <= 62:
            at_no = 1 << row_bits
            at_round = at_no << no_bits
            at_event = at_round << round_bits
            row = pl.int_range(games.height, dtype=pl.Int64, eager=True)
            packed = orders * at_event + round_.cast(pl.Int64) * at_round
            packed = packed + no.cast(pl.Int64) * at_no + row
            key = pl.col("_key")
            keys = pl.DataFrame({"_key": packed.sort()}).select(
                (key & at_no - 1).alias("_row"),
                (key // at_event).set_sorted().alias(c.EV_ORDER),
                (key // at_round & (1 << round_bits) - 1).cast(round_.dtype).alias(G.ROUND),
                (key // at_no & (1 << no_bits) - 1).cast(no.dtype).alias(G.NO),
            )
            return games.select(columns).rechunk()[keys["_row"]].with_columns(keys.drop("_row"))
    frame = games.select(E.ID, G.ROUND, G.NO, *columns).with_columns(orders)
    return frame[frame.select(pl.arg_sort_by(c.EV_ORDER, G.ROUND, G.NO)).to_series()]
