"""The integer-key machinery of the rate stage (pipeline.rate.rows) against plain joins and
sorts: every path (slot table or join, packed sort or sort by columns) gives the same rows,
and the lists and cap options the engine passes agree with their general forms."""

from __future__ import annotations

import datetime as dt
import random

import polars as pl
import pytest

from pipeline.rate import columns as c
from pipeline.rate.lists import registry_long
from pipeline.rate.rows import (
    EntryRows,
    event_orders,
    fits_in_bits,
    gathered,
    order_games,
    span_bits,
    spans,
    together,
)
from pipeline.rules.ruleset import ruleset_for
from pipeline.rules.vector import difference_used_expr, ruleset_frame


def _events(ids: list[str]) -> pl.DataFrame:
    """Events whose `event_order` is the reverse of their input order."""
    return pl.DataFrame({"event_id": ids, c.EV_ORDER: list(range(len(ids)))[::-1]})


def _reference_orders(ids: list[str | None], events: pl.DataFrame) -> list[int | None]:
    orders = dict(zip(events["event_id"], events[c.EV_ORDER], strict=True))
    return [orders.get(i) if i is not None else None for i in ids]


@pytest.mark.parametrize(
    "ids",
    [
        ["a", "a", "b", "b", "b", "c"],
        ["b", "a", "b", "a", "x", "x", None, None, "c"],  # runs split, unknown, null
        ["a"],
        [],
    ],
)
def test_event_orders_match_a_lookup_per_row(ids: list[str | None]) -> None:
    events = _events(["a", "b", "c"])
    got = event_orders(pl.Series("event_id", ids, dtype=pl.String), events)
    assert got.to_list() == _reference_orders(ids, events)
    assert got.dtype == pl.Int64


def _entries(numbers: dict[int, list[int]]) -> pl.DataFrame:
    """Entries (event_order, start_no) sorted by both, with `_row` as rate.players has."""
    rows = [(ev, no) for ev in sorted(numbers) for no in sorted(numbers[ev])]
    frame = pl.DataFrame(rows, schema={c.EV_ORDER: pl.Int64, "start_no": pl.Int64}, orient="row")
    return frame.with_row_index("_row")


def _game_rows(numbers: dict[int, list[int]], extra: list[int | None]) -> pl.DataFrame:
    rng = random.Random(5)
    known: list[tuple[int, int | None]] = [(ev, no) for ev in numbers for no in numbers[ev]]
    rows = [rng.choice(known) for _ in range(200)]
    rows += [(ev, no) for ev in numbers for no in extra]
    rng.shuffle(rows)
    return pl.DataFrame(rows, schema={c.EV_ORDER: pl.Int64, "number": pl.Int64}, orient="row")


def _found(entries: pl.DataFrame, games: pl.DataFrame, n_events: int) -> list[int | None]:
    rows = EntryRows(entries, n_events)
    frame = games.lazy()
    if rows.per_event():  # the event's slots, as classify_games gathers them
        by_event = pl.DataFrame(rows.per_event())
        frame = frame.with_columns(together(by_event, pl.col(c.EV_ORDER), "e")).unnest("e")
    return rows.add(frame, "number", "row").collect()["row"].to_list()


def _joined(entries: pl.DataFrame, games: pl.DataFrame) -> list[int | None]:
    right = entries.select(c.EV_ORDER, pl.col("start_no").alias("number"), "_row")
    joined = games.join(right, on=[c.EV_ORDER, "number"], how="left", maintain_order="left")
    return joined["_row"].cast(pl.Int64).to_list()


@pytest.mark.parametrize(
    ("numbers", "slots"),
    [
        ({0: [1, 2, 3], 1: [1, 2], 2: [], 3: [1]}, "identity"),  # every number taken
        ({0: [1, 3, 7], 1: [2, 5], 2: [4], 3: [1]}, "table"),  # gaps
        ({0: [0, 1, 2], 1: [1], 2: [1], 3: [1]}, "join"),  # a number 0
        ({0: [1, 2], 1: [1, 10_000], 2: [1], 3: [1]}, "join"),  # too sparse for a table
        ({0: [1, 2], 1: [1, 1 << 40], 2: [1], 3: [1]}, "join"),  # beyond one packed key
    ],
)
def test_entry_rows_match_a_join_on_event_and_number(
    numbers: dict[int, list[int]], slots: str
) -> None:
    entries = _entries(numbers)
    rows = EntryRows(entries, n_events=4)
    kind = "join" if rows.first is None else "table" if rows.slots is not None else "identity"
    assert kind == slots
    games = _game_rows(numbers, [None, 0, -1, 999, 1 << 33])
    assert _found(entries, games, 4) == _joined(entries, games)


def test_entry_rows_join_when_a_number_is_twice_in_an_event() -> None:
    entries = pl.DataFrame(
        {c.EV_ORDER: [0, 0, 0, 1], "start_no": [1, 2, 2, 1]},
        schema_overrides={"start_no": pl.Int64},
    ).with_row_index("_row")
    rows = EntryRows(entries, n_events=2)
    assert rows.first is None
    games = pl.DataFrame({c.EV_ORDER: [0, 0, 1], "number": [2, 1, 1]})
    assert _found(entries, games, 2) == _joined(entries, games)  # both rows of number 2


def _games(rounds: list[int], numbers: list[int], ids: list[str]) -> pl.DataFrame:
    n = len(rounds)
    return pl.DataFrame(
        {
            "event_id": ids,
            "round": rounds,
            "start_no": numbers,
            "opponent_no": [None] * n,
            "code": ["1"] * n,
            "score": [1.0] * n,
            "line": list(range(n)),
        },
        schema_overrides={"opponent_no": pl.Int64},
    )


@pytest.mark.parametrize("big_round", [3, 1 << 58])  # packed key, then a sort by columns
def test_order_games_sorts_by_event_order_round_and_number(big_round: int) -> None:
    rng = random.Random(11)
    ids = [rng.choice(["a", "b", "c"]) for _ in range(60)]
    ids.sort()  # an event's rows together, as the readers give them
    rounds = [rng.choice([1, 2, big_round]) for _ in ids]
    numbers = [rng.randrange(1, 30) for _ in ids]
    games = _games(rounds, numbers, ids).unique(["event_id", "round", "start_no"], keep="first")
    events = _events(["a", "b", "c"])
    got = order_games(games, events, spans(games, ["round", "start_no"]))
    expected = games.join(events, on="event_id").sort(c.EV_ORDER, "round", "start_no")
    assert got["line"].to_list() == expected["line"].to_list()
    assert got.select(c.EV_ORDER, "round", "start_no").equals(
        expected.select(c.EV_ORDER, "round", "start_no")
    )
    if "event_id" not in got.columns:  # the packed key: the caller gathers the ID
        assert big_round == 3
        by_order = events.sort(c.EV_ORDER)
        got = got.with_columns(gathered(by_order, "event_id", pl.col(c.EV_ORDER)))
    assert got["event_id"].to_list() == expected["event_id"].to_list()


def test_order_games_puts_unknown_events_first() -> None:
    games = _games([1, 2, 1, 1], [1, 1, 2, 1], ["b", "zz", "a", "zz"])
    got = order_games(games, _events(["a", "b"]), spans(games, ["round", "start_no"]))
    assert got.select("event_id", c.EV_ORDER, "round").rows() == [
        ("zz", None, 1),
        ("zz", None, 2),
        ("b", 0, 1),
        ("a", 1, 1),
    ]


def test_spans_and_bits() -> None:
    frame = pl.DataFrame({"a": [0, 5, None], "b": [-1, 2, 3], "s": ["x", "y", "z"]})
    found = spans(frame, ["a", "b", "s", "missing"])
    assert found == {"a": (1, 0, 5), "b": (0, -1, 3)}
    assert span_bits(found["a"]) is None  # a null
    assert span_bits(found["a"], nulls=True) == 3
    assert span_bits(found["b"]) is None  # a negative value
    assert span_bits(None) is None
    assert fits_in_bits(frame["a"].drop_nulls(), 3)
    assert not fits_in_bits(frame["a"].drop_nulls(), 2)
    assert not fits_in_bits(frame["b"], 8)
    assert not fits_in_bits(frame["s"], 8)


def test_registry_long_by_id_holds_the_rows_keyed_by_list_key() -> None:
    registry = pl.DataFrame(
        {
            "fideid": [11, 12, 13],
            "name": ["A", "B", "C"],
            "rating": [2000, None, 1800],
            "k": [20, 40, 10],
            "rapid_rating": [None, 1500, None],
        }
    )
    wanted = pl.LazyFrame({"fide_id": [11, 13, 99], c.LIST_KEY: ["fide:11", "fide:13", None]})
    by_key = registry_long(registry, wanted).collect()
    by_id = registry_long(registry, wanted, by_id=True).collect()
    whole = registry_long(registry, None, ["standard"], by_id=True).collect()
    assert (
        by_id.with_columns(pl.format("fide:{}", "fide_id").alias(c.LIST_KEY))
        .select(by_key.columns)
        .sort(c.LIST_KEY, "list")
        .equals(by_key.sort(c.LIST_KEY, "list"))
    )
    assert sorted(whole["fide_id"]) == [11, 12, 13]
    assert set(whole["list"]) == {"standard"}


def test_difference_used_without_once_per_event_is_the_same() -> None:
    rulesets = [
        ruleset_for(dt.date(2015, 5, 1), "standard"),
        ruleset_for(dt.date(2026, 5, 1), "standard"),
    ]
    rng = random.Random(3)
    rows = [
        (e, p, r, rng.randrange(1400, 2800), rng.randrange(-900, 900), e % 2)
        for e in range(3)
        for p in range(4)
        for r in range(1, 6)
    ]
    frame = pl.DataFrame(
        rows, schema=["e", "p", "r", "rating", "d", "rs_index"], orient="row"
    ).join(
        ruleset_frame(rulesets).with_row_index("rs_index").cast({"rs_index": pl.Int64}),
        on="rs_index",
    )

    def used(once: bool) -> list[int]:
        expr = difference_used_expr(
            pl.col("d"),
            pl.col("rating"),
            pl.col("rs_cap"),
            pl.col("rs_cap_mode"),
            pl.col("rs_cap_exempt_from"),
            over=["e", "p"],
            order_by="r",
            once_per_event=once,
        )
        return frame.select(expr).to_series().to_list()

    assert used(True) == used(False)
