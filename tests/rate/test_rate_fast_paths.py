"""The rate stage's fast paths against their general forms: each gives the same rows as
the plain join, sort, window or expression it stands in for (the TRF grid order, the
players' integer keys, the list rows found by ID, the literal cap rules, PD from one
table, the result codes by their byte), and whole periods rate the same either way."""

from __future__ import annotations

import datetime as dt
import random

import polars as pl
import pytest

from pipeline.formats.model import EventData
from pipeline.load import Loaded, stack_frames
from pipeline.rate import RateOptions, rate_period
from pipeline.rate import columns as c
from pipeline.rate.classify import _Codes, difference_used, expected_by_table
from pipeline.rate.players import _by_id, _player_rows
from pipeline.rate.rows import _grid, _runs, order_games, spans, spread
from pipeline.rules.ruleset import LISTS, ruleset_for
from pipeline.rules.vector import difference_used_expr, expected_expr, ruleset_columns
from tests.rate.builders import Event, frames, rate

EVENTS = pl.DataFrame({"event_id": ["a", "b", "c"], c.EV_ORDER: [2, 0, 1]})


def _trf_games(sizes: dict[str, tuple[int, int]]) -> pl.DataFrame:
    """Game rows as a TRF gives them: per event (players, rounds), by start number then
    round, every slot filled."""
    rows = [
        (ev, r, no, (no % players) + 1, f"{ev}{no}.{r}")
        for ev, (players, rounds) in sizes.items()
        for no in range(1, players + 1)
        for r in range(1, rounds + 1)
    ]
    schema = ["event_id", "round", "start_no", "opponent_no", "column"]
    frame = pl.DataFrame(rows, schema=schema, orient="row")
    return frame.with_columns(
        pl.lit("1").alias("code"),
        pl.lit(1.0).alias("score"),
        pl.int_range(pl.len()).alias("line"),
    )


def _sorted_reference(games: pl.DataFrame) -> list[str]:
    joined = games.join(EVENTS, on="event_id", how="left")
    return joined.sort(c.EV_ORDER, "round", "start_no", nulls_last=False)["column"].to_list()


def _is_grid(games: pl.DataFrame) -> bool:
    ranges = spans(games, ["round", "start_no"])
    return (
        _grid(_runs(games["event_id"], EVENTS), games["round"], games["start_no"], ranges)
        is not None
    )


@pytest.mark.parametrize(
    ("change", "grid"),
    [
        ("none", True),
        ("drop a row", False),
        ("repeat a row", False),
        ("by round", False),
        ("event split", False),
        ("unknown event", False),
        ("number 0", False),
    ],
)
def test_order_games_on_trf_grids_equals_the_sort(change: str, grid: bool) -> None:
    games = _trf_games({"a": (4, 3), "b": (3, 5), "c": (1, 2)})
    if change == "drop a row":
        games = games.filter(pl.int_range(pl.len()) != 5)
    elif change == "repeat a row":
        games = pl.concat([games.head(1), games])
    elif change == "by round":
        games = games.sort("event_id", "round", "start_no")
    elif change == "event split":
        games = pl.concat([games.filter(pl.col("event_id") != "c"), games.head(1)])
    elif change == "unknown event":
        games = games.with_columns(pl.col("event_id").replace("c", "zz"))
    elif change == "number 0":
        games = games.with_columns(pl.col("start_no") - (pl.col("event_id") == "c"))
    assert _is_grid(games) == grid
    got = order_games(games, EVENTS, spans(games, ["round", "start_no", "opponent_no"]))
    assert got["column"].to_list() == _sorted_reference(games)
    if grid:
        assert got[c.EV_ORDER].to_list() == sorted(got[c.EV_ORDER].to_list())


def test_a_trf_period_rates_the_same_as_its_rows_in_another_order() -> None:
    rng = random.Random(4)
    events = []
    for name, players, rounds in (("a", 8, 5), ("b", 7, 4)):
        ev = Event(name, start=dt.date(2025, 3, 10 if name == "a" else 2))
        for no in range(1, players + 1):
            ev.player(no, rng.randrange(1400, 2700), 100 * ord(name) + no)
        for r in range(1, rounds + 1):
            order = list(range(1, players + 1))
            rng.shuffle(order)
            for w, b in zip(order[0::2], order[1::2], strict=False):
                ev.pair(r, w, b, rng.choice(["1-0", "0-1", "="]))
            if players % 2:
                ev.bye(r, order[-1])
        events.append(ev)
    ev_frame, players_frame, games = frames(*events)
    as_trf = games.sort("event_id", "start_no", "round")
    assert _grid(
        _runs(as_trf["event_id"], ev_frame.with_columns(pl.int_range(2).alias(c.EV_ORDER))),
        as_trf["round"],
        as_trf["start_no"],
        spans(as_trf, ["round", "start_no"]),
    )
    options = RateOptions(today=dt.date(2025, 6, 1))
    one = rate_period(ev_frame, players_frame, as_trf, None, options)
    other = rate_period(ev_frame, players_frame, games, None, options)
    for name in ("games", "ratings", "events"):
        assert getattr(one, name).equals(getattr(other, name)), name
    assert one.warnings == other.warnings


def _entries(rng: random.Random, n: int) -> pl.DataFrame:
    fide = [rng.choice([None, *range(1, 12)]) for _ in range(n)]
    names = [rng.choice(["name:x|A", "name:y|B", "event:e#1"]) for _ in range(n)]
    keys = [f"fide:{f}" if f is not None else k for f, k in zip(fide, names, strict=True)]
    lists = [rng.choice([*LISTS, None]) for _ in range(n)]
    return pl.DataFrame(
        {c.KEY: keys, "list": lists, "fide_id": fide},
        schema={c.KEY: pl.String, "list": pl.String, "fide_id": pl.Int64},
    )


@pytest.mark.parametrize("seed", range(6))
def test_player_rows_equal_the_first_row_of_each_key_and_list(seed: int) -> None:
    entries = _entries(random.Random(seed), 60)
    if seed == 5:  # every entry with an ID
        entries = entries.filter(pl.col("fide_id").is_not_null())
    expected = entries.with_row_index("_r").select(
        pl.col("_r").first().over(c.KEY, "list").cast(pl.Int64)
    )
    assert _player_rows(entries).to_list() == expected.to_series().to_list()


def test_player_rows_with_ids_beyond_a_packed_key() -> None:
    entries = pl.DataFrame(
        {
            c.KEY: ["fide:a", "fide:b", "fide:a"],
            "list": ["standard"] * 3,
            "fide_id": [1 << 61, 2, 1 << 61],
        }
    )
    assert _player_rows(entries).to_list() == [0, 1, 0]


def _list_rows(ids: list[int], lists: list[str]) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "fide_id": ids,
            "list": lists,
            "reg_rating": [1500 + i for i in range(len(ids))],
            "in_registry": [True] * len(ids),
        }
    )


@pytest.mark.parametrize(
    "rows",
    [
        _list_rows([1, 2, 3], ["standard"] * 3),
        _list_rows([1, 2, 2, 3], ["standard", "standard", "rapid", "rapid"]),
        _list_rows([1, 1, 2], ["standard"] * 3),  # an ID twice: the full join
        _list_rows([], []),
    ],
)
@pytest.mark.parametrize("lists", [["standard"], ["standard", "rapid"], [None]])
def test_list_rows_by_id_equal_the_join(rows: pl.DataFrame, lists: list[str | None]) -> None:
    entries = pl.DataFrame(
        {
            "fide_id": [1, 2, None, 3, 9, 2],
            "list": [lists[i % len(lists)] for i in range(6)],
            "x": range(6),
        },
        schema={"fide_id": pl.Int64, "list": pl.String, "x": pl.Int64},
    )
    rows = rows.cast({"fide_id": pl.Int64, "list": pl.String, "reg_rating": pl.Int64})
    expected = entries.join(rows, on=["fide_id", "list"], how="left", maintain_order="left")
    assert _by_id(entries, rows).equals(expected)


def test_spread_is_a_left_join_on_row_numbers() -> None:
    per = pl.DataFrame({"pid": [4, 0, 2], "v": ["d", "a", "c"], "w": [4.0, 0.0, 2.0]})
    rows = pl.Series("pid", [0, 2, 2, 4, None, 1], dtype=pl.Int64)
    expected = rows.to_frame().join(per, on="pid", how="left", maintain_order="left")
    assert spread(per, "pid", rows, 5).equals(expected.drop("pid"))


@pytest.mark.parametrize(
    ("on", "lst"),
    [
        (dt.date(2008, 1, 1), "standard"),
        (dt.date(2015, 1, 1), "standard"),
        (dt.date(2023, 1, 1), "standard"),
        (dt.date(2024, 6, 1), "standard"),
        (dt.date(2026, 1, 1), "standard"),
        (dt.date(2023, 1, 1), "rapid"),
        (dt.date(2025, 1, 1), "blitz"),
    ],
)
@pytest.mark.parametrize("once", [True, False])
def test_difference_used_with_literal_rules_equals_the_general_expression(
    on: dt.date, lst: str, once: bool
) -> None:
    rng = random.Random(7)
    n = 400
    frame = pl.DataFrame(
        {
            c.EV_ORDER: [rng.randrange(3) for _ in range(n)],
            "start_no": [rng.randrange(5) for _ in range(n)],
            "round": list(range(n)),
            "rating": [rng.choice([None, rng.randrange(1000, 2900)]) for _ in range(n)],
            "d": [rng.choice([None, rng.randrange(-900, 900)]) for _ in range(n)],
        }
    )
    rules = {k: v for k, v in ruleset_columns(ruleset_for(on, lst)).items() if k.startswith("rs_")}
    literal = {name: pl.lit(value) for name, value in rules.items()}
    args = (pl.col("d"), pl.col("rating"))
    fast = difference_used(*args, rules, literal, once)
    full = difference_used_expr(
        *args,
        literal["rs_cap"],
        literal["rs_cap_mode"],
        literal["rs_cap_exempt_from"].cast(pl.Int64),
        over=[c.EV_ORDER, "start_no"],
        order_by="round",
        once_per_event=once,
    )
    assert frame.select(fast).to_series().to_list() == frame.select(full).to_series().to_list()


def test_pd_by_table_equals_the_expression() -> None:
    d = pl.DataFrame({"d": [None, *range(-2000, 2001)]}, schema={"d": pl.Int64})
    by_table = d.select(expected_by_table(pl.col("d"))).to_series()
    assert by_table.to_list() == d.select(expected_expr(pl.col("d"))).to_series().to_list()


@pytest.mark.parametrize(
    "codes",
    [
        ["1", "0", "=", "H", "+"],
        ["1", "h", "f", "w", "-", "Z"],  # lower case: upper-cased
        ["1", "½", "H", "+"],  # a code of two bytes: compared as strings
        ["1", None, "U"],
    ],
)
def test_codes_compare_as_their_upper_case(codes: list[str | None]) -> None:
    frame = pl.DataFrame({"code": codes}, schema={"code": pl.String})
    found = _Codes(frame["code"])
    values = ("H", "F", "U", "Z", "+", "W")
    hit = found.one_of(values)
    if found.upper:
        frame = frame.with_columns(pl.col("code").str.to_uppercase())
    got = frame.with_columns(*found.column()).select(hit).to_series().to_list()
    expected = [code is not None and code.upper() in values for code in codes]
    assert [bool(g) for g in got] == expected


def _event(name: str, extra: bool) -> EventData:
    events = pl.DataFrame({"event_id": [name], "file": [f"{name}.trf"], "list": ["standard"]})
    if extra:
        events = events.with_columns(pl.lit(None).alias("city"))
    games = pl.DataFrame({"event_id": [name, name], "round": [1, 2]})
    return EventData(events=events, players=pl.DataFrame(), games=games)


@pytest.mark.parametrize("extra", [False, True])
def test_stacked_frames_equal_the_concatenation_by_name(extra: bool) -> None:
    loaded = Loaded(events=[_event("a", False), _event("b", extra), _event("c", False)])
    for frame in ("events", "games"):
        by_name = pl.concat([getattr(e, frame) for e in loaded.events], how="diagonal_relaxed")
        assert stack_frames(loaded, frame, rechunk=False).equals(by_name)
        assert stack_frames(loaded, frame).equals(by_name)
    assert stack_frames(Loaded(), "games", rechunk=False).equals(pl.DataFrame())


def test_a_period_with_lower_case_codes_rates_as_with_upper_case() -> None:
    e = Event("a")
    for no in range(1, 5):
        e.player(no, 1800 + 50 * no, 200 + no)
    e.pair(1, 1, 2, "1-0")
    e.pair(1, 3, 4, "+-")
    e.pair(2, 1, 3, "W-L")
    e.bye(2, 2, "H")
    e.bye(2, 4, "F")
    lower = Event("a")
    lower.players, lower.games = e.players, [{**g, "code": g["code"].lower()} for g in e.games]
    upper_result, lower_result = rate(e), rate(lower)
    assert upper_result.games["reason"].to_list() == lower_result.games["reason"].to_list()
    assert upper_result.ratings.equals(lower_result.ratings)
