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
- games.csv's order (event order, round, start number) is found by arithmetic when the
  rows are full grids, as a TRF gives them (`Grid`), else by one sort of Int64 values
  when the numbers fit (`order_games`); `spans` and `span_bits` say whether they do.
- A frame with one row per player (by the row of their first entry) is spread over the
  entries by a scatter and a gather (`spread`), not a join.
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


def spread(per: pl.DataFrame, by: str, rows: pl.Series, size: int) -> pl.DataFrame:
    """The columns of `per` (one row per value of its column `by`, a row number below
    `size`) at each of `rows` (values of `by`; null where `per` has none): a left join
    on row numbers, by a scatter and gathers."""
    at = pl.repeat(None, size, dtype=pl.Int64, eager=True)
    at.scatter(per[by], pl.int_range(per.height, dtype=pl.Int64, eager=True))
    return per.drop(by).select(pl.all().gather(at.gather(rows)))


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


class Grid:
    """The game rows as full grids, as a TRF's player lines give them: the rows of each
    event together, every start number 1..N with every round 1..R once, by start number
    then round. games.csv's order is then a transposition of each event's block, found
    by arithmetic (`int_ranges`) rather than by a sort.

    `blocks` has one row per event with game rows, in event order: `event_order`, `_in`
    (its first row in the input), `_rounds` (R) and `_players` (N).
    """

    def __init__(self, blocks: pl.DataFrame) -> None:
        self.blocks = blocks
        # a number above every block's N (packs an event order and a start number)
        self.widest = int(blocks.select(pl.col("_players").max()).item()) + 1

    def _rounds(self) -> pl.DataFrame:
        """One row per (event, round): the block's columns and `_r`, the round - 1."""
        return self.blocks.select(
            pl.all().repeat_by(pl.col("_rounds")).explode(),
            pl.int_ranges(0, pl.col("_rounds")).explode().alias("_r"),
        )

    def order(self) -> pl.DataFrame:
        """Per row of games.csv (event order, round, start number): `_row`, its input row,
        and its `event_order`."""
        n, r = pl.col("_players"), pl.col("_rounds")
        start = pl.col("_in") + pl.col("_r")
        event = pl.col(c.EV_ORDER) * self.widest
        return self._rounds().select(
            pl.int_ranges(start, start + n * r, r).explode().alias("_row"),
            (pl.int_ranges(event, event + n).explode() // self.widest)
            .set_sorted()
            .alias(c.EV_ORDER),
        )


def _runs(ids: pl.Series, events: pl.DataFrame) -> pl.DataFrame:
    """The runs of equal event IDs of the game rows: `_in` (the first row), `_size` and
    the event's `event_order` (null for an event not in `events`)."""
    runs = ids.rle().struct.unnest()
    sizes = runs["len"].cast(pl.Int64)
    return (
        pl.DataFrame({E.ID: runs["value"], "_size": sizes, "_in": sizes.cum_sum() - sizes})
        .join(events.select(E.ID, c.EV_ORDER), on=E.ID, how="left", maintain_order="left")
        .drop(E.ID)
    )


def _grid(
    runs: pl.DataFrame, round_: pl.Series, no: pl.Series, ranges: dict[str, Span]
) -> Grid | None:
    """The `Grid` of the game rows, or None when they are not full grids (an event in two
    runs or not in the events, a missing or repeated round or start number, another order)."""
    if runs.is_empty() or runs[c.EV_ORDER].null_count() or not runs[c.EV_ORDER].is_unique().all():
        return None
    round_bits, no_bits = span_bits(ranges.get(G.ROUND)), span_bits(ranges.get(G.NO))
    if round_bits is None or no_bits is None or round_bits + no_bits > 62:
        return None
    last = runs["_in"] + runs["_size"] - 1
    blocks = runs.with_columns(
        _rounds=round_.gather(last).cast(pl.Int64), _players=no.gather(last).cast(pl.Int64)
    )
    shape = (pl.col("_rounds") >= 1) & (pl.col("_rounds") * pl.col("_players") == pl.col("_size"))
    if not blocks.select(shape.all()).item():
        return None
    # every row where the grid puts it: start number n, round r packed as n * 2**bits + r
    at = 1 << round_bits
    seen = no.cast(pl.Int64) * at + round_.cast(pl.Int64)
    start = pl.col("_n") * at + 1
    expected = (
        blocks.select(pl.int_ranges(1, pl.col("_players") + 1).alias("_n"), pl.col("_rounds"))
        .explode("_n")
        .select(pl.int_ranges(start, start + pl.col("_rounds")).explode())
    )
    if not (expected.to_series() == seen).all():
        return None
    return Grid(blocks.sort(c.EV_ORDER).select(c.EV_ORDER, "_in", "_rounds", "_players"))


def _repeated(values: pl.Series, sizes: pl.Series) -> pl.Series:
    """Each value `sizes` times, in order."""
    return pl.select(pl.lit(values).repeat_by(sizes).explode()).to_series()


def order_games(games: pl.DataFrame, events: pl.DataFrame, ranges: dict[str, Span]) -> pl.DataFrame:
    """The game rows (the columns `classify_games` reads) with `event_order`, in
    games.csv's order: event order, round, start number (an event missing from `events`
    first). `events` carries `event_order`; `ranges` are the `spans` of the games' round
    and start_no. `event_id` is left out when every row's event is in `events` and the
    numbers fit one Int64 key (the caller gathers it from `events` then).

    Full grids are put in order by arithmetic (`Grid.order`); other rows by one sort of
    Int64 values packing the event order, round, start number and row (the row in the
    lowest bits, so that the sorted values say which row goes where and the three keys
    are read back from them rather than moved), or else by the three columns."""
    columns = [
        optional(games, G.OPP, pl.Int64()).alias(G.OPP),
        optional(games, G.COLOUR, pl.String()).alias(G.COLOUR),
        pl.col(G.CODE),
        pl.col(G.SCORE),
        optional(games, G.PLAYED, pl.Boolean()).fill_null(False).alias(G.PLAYED),
        optional(games, G.LINE, pl.Int64()).alias(G.LINE),
        optional(games, G.COLUMN, pl.String()).alias(G.COLUMN),
    ]
    runs = _runs(games[E.ID], events)
    picked = games.select(*columns, G.ROUND, G.NO).rechunk()  # one copy, read by rows
    round_, no = picked[G.ROUND], picked[G.NO]
    grid = _grid(runs, round_, no, ranges)
    if grid is not None:
        order = grid.order()
        return picked[order["_row"]].with_columns(order[c.EV_ORDER])
    orders = _repeated(runs[c.EV_ORDER], runs["_size"])
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
            moved = picked.drop(G.ROUND, G.NO)[keys["_row"]]
            return moved.with_columns(keys.drop("_row"))
    frame = games.select(E.ID, G.ROUND, G.NO, *columns).rechunk()
    frame = frame.with_columns(orders.alias(c.EV_ORDER))
    return frame[frame.select(pl.arg_sort_by(c.EV_ORDER, G.ROUND, G.NO)).to_series()]
