"""write_trf: exact columns, and read_trf(write_trf(event)) == event (fide-rules.md §8).

The round trip is checked on the inline sample, on every real file, and on generated
events (hypothesis): random players (rated and unrated, titles, FIDE IDs or none),
mirrored games, byes of every code, forfeits with and without colours, absences. A last
property feeds random mutations of a valid file to read_trf: it returns or raises
InputError, nothing else.
"""

from __future__ import annotations

import string
from dataclasses import replace
from datetime import date, timedelta

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.errors import InputError, Problem
from pipeline.formats.model import EventData
from pipeline.formats.trf.fields import result_score
from pipeline.formats.trf.read import read_trf, write_trf
from pipeline.formats.trf.write import time_control_record
from schemas.ingest import EVENT_DTYPES as EVENT_SCHEMA
from schemas.ingest import GAME_DTYPES as GAME_SCHEMA
from schemas.ingest import PLAYED_CODES, Events, Games, Players
from schemas.ingest import PLAYER_DTYPES as PLAYER_SCHEMA
from tests.formats.trf.test_read import FILE, SAMPLE, c, p001

# --- the writer ----------------------------------------------------------------------------


def test_write_trf_exact_columns() -> None:
    text = write_trf(read_trf(SAMPLE, FILE))
    assert "\r" not in text
    assert text.endswith("\n")
    lines = text.splitlines()
    assert lines[:11] == [
        "012 Lakeside Spring Open",
        "022 Lakeside",
        "032 NOR",
        "042 2025/03/01",
        "052 2025/03/02",
        "062 4",
        "072 3",
        "092 Standard",
        "122 90 min + 30 sec",
        "142 3",
        "XXR 3",
    ]
    assert lines[11].startswith("### SSSS")
    assert lines[12:] == [
        p001(1, "m", "GM", "Alder, Brynja", 2405, "NOR", 1503014, "1990/00/00", "2.5", 1,
             "   3 w 1", "   2 b =", "0000 - U"),
        p001(2, "w", "WFM", "Birch, Carla", 2210, "SWE", 1700123, "2001/00/00", "1.5", 3,
             "   4 b 1", "   1 w =", "   3 w 0"),
        p001(3, "m", "", "Cedar, Dag", 1985, "", "", "1969/00/00", "2.0", 2,
             "   1 b 0", "   4 - +", "   2 b 1"),
        p001(4, "w", "WIM", "Dogwood, Eira", "", "NOR", "", "", "0.0", "",
             "   2 w 0", "   3 - -", "0000 - Z"),
    ]  # fmt: skip


def test_arbiters_written_as_records_102_and_112() -> None:
    event = read_trf(SAMPLE, FILE)
    events = event.events.with_columns(
        pl.lit("IA Mikel Larreategi Arana (22232540)").alias(c(Events.chief_arbiter)),
        pl.lit("FA Ana Ruiz\nNA Bo Li").alias(c(Events.deputy_arbiters)),
    )
    lines = write_trf(replace(event, events=events)).splitlines()
    at = lines.index("092 Standard")
    assert lines[at + 1 : at + 4] == [
        "102 IA Mikel Larreategi Arana (22232540)",
        "112 FA Ana Ruiz",
        "112 NA Bo Li",
    ]


@pytest.mark.parametrize(
    ("source", "value", "expected"),
    [
        ("crosstable-xlsx", "Time control (Rapid) : 10 minutes + 3 secs per move",
         ("122", "10 minutes + 3 secs per move")),
        ("crosstable-csv", "Bedenkzeit: 90 Min. + 30 Sek.", ("122", "90 Min. + 30 Sek.")),
        ("crosstable-csv", "Time control (Standard) :", ("122", "Time control (Standard) :")),
        ("crosstable-csv", "10 min + 5 sec", ("122", "10 min + 5 sec")),
        # free text under its label, as the crosstable was read: never 222's seconds
        ("crosstable-csv", "Time control : 900+10", ("122", "900+10")),
        ("trf26", "Time control: 90 min", ("122", "Time control: 90 min")),
    ],
)  # fmt: skip
def test_a_crosstables_time_control_is_written_without_its_label(
    source: str, value: str, expected: tuple[str, str]
) -> None:
    row = {c(Events.source): source, c(Events.time_control): value}
    assert time_control_record(row) == expected


def frames_equal(a: pl.DataFrame, b: pl.DataFrame, skip: tuple[str, ...]) -> bool:
    columns = [c for c in a.columns if c not in skip]
    return a.columns == b.columns and a.select(columns).equals(b.select(columns))


def test_round_trip_sample() -> None:
    event = read_trf(SAMPLE, FILE)
    again = read_trf(write_trf(event), FILE)
    assert frames_equal(event.events, again.events, ())
    assert frames_equal(event.players, again.players, (c(Players.line),))
    assert frames_equal(event.games, again.games, (c(Games.line),))


# --- generated events ----------------------------------------------------------------------

TEXT = string.ascii_letters + string.digits + " ,.'-()éüøñçÅ"
NAME = st.text(TEXT, min_size=1, max_size=33).map(str.strip).filter(bool)
FEDERATION = st.text(string.ascii_uppercase, min_size=3, max_size=3)
TITLES = [None, "GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM", "MF"]
# (list, list_source, time_control) as read_trf derives them
LISTS = [
    (None, None, None),
    ("standard", "222", "5400+30"),
    ("standard", "222", "40/6000+30:20/3000+30:1500+30"),
    ("rapid", "222", "900+10"),
    ("blitz", "222", "180+2"),
    ("standard", "122", "90 min + 30 sec"),
    ("rapid", "122", "15+10"),
    ("blitz", "092", None),
    ("rapid", "092", "moves/time, increment"),
    (None, None, "moves/time, increment"),
]
SCORINGS = [None, '{"W":1.0,"D":0.5,"L":0.0}', '{"W":3.0,"D":1.0,"L":0.0}']
# (code, code of the opponent) for a pairing, and whether colours are written
PAIRINGS = [
    ("1", "0", True), ("0", "1", True), ("=", "=", True),  # played
    ("+", "-", False), ("-", "+", False), ("+", "-", True), ("-", "-", False),  # forfeits
    ("W", "L", True), ("D", "D", True),  # games of less than one move
]  # fmt: skip
LONE_CODES = ["U", "F", "H", "Z", "+", "-", "0"]  # byes and absences without an opponent


@st.composite
def events(draw: st.DrawFn) -> EventData:
    count = draw(st.integers(min_value=1, max_value=10))
    numbers = sorted(
        draw(st.sets(st.integers(min_value=1, max_value=9999), min_size=count, max_size=count))
    )
    rounds = draw(st.integers(min_value=0, max_value=5))
    games: list[tuple[object, ...]] = []
    for round_no in range(1, rounds + 1):
        order = draw(st.permutations(numbers))
        absent = draw(st.integers(min_value=0, max_value=len(order)))
        paired, lone = order[: len(order) - absent], order[len(order) - absent :]
        if len(paired) % 2:
            lone = [paired[-1], *lone]
            paired = paired[:-1]
        for white, black in zip(paired[::2], paired[1::2], strict=True):
            code_w, code_b, coloured = draw(st.sampled_from(PAIRINGS))
            games.append(_game(round_no, white, black, "w" if coloured else None, code_w))
            games.append(_game(round_no, black, white, "b" if coloured else None, code_b))
        for number in lone:
            games.append(_game(round_no, number, None, None, draw(st.sampled_from(LONE_CODES))))
    games.sort(key=lambda row: (row[2], row[1]))

    players = [
        (
            FILE, number, draw(NAME), draw(st.none() | st.integers(1, 99_999_999_999)),
            draw(st.none() | FEDERATION), draw(st.sampled_from(TITLES)),
            draw(st.sampled_from([None, "m", "w"])), draw(st.none() | st.integers(1900, 2024)),
            draw(st.none() | st.integers(1000, 3500)),
            draw(st.none() | st.integers(0, 199).map(lambda halves: halves / 2)),
            draw(st.none() | st.integers(1, 9999)), None, None, 0,
        )
        for number in numbers
    ]  # fmt: skip
    list_name, list_source, time_control = draw(st.sampled_from(LISTS))
    dates = st.none() | st.dates(date(1990, 1, 1), date(2030, 12, 31))
    start = draw(dates)
    event_rounds = rounds + draw(st.integers(min_value=0, max_value=3))
    event = {
        c(Events.event_id): FILE,
        c(Events.file): FILE,
        c(Events.name): draw(st.text(TEXT, min_size=1, max_size=60).map(str.strip).filter(bool)),
        c(Events.source): "trf26",
        c(Events.list): list_name,
        c(Events.list_source): list_source,
        c(Events.start_date): start,
        c(Events.end_date): draw(dates),
        c(Events.rounds): event_rounds,
        c(Events.city): draw(st.none() | NAME),
        c(Events.federation): draw(st.none() | FEDERATION),
        c(Events.time_control): time_control,
        c(Events.opponent_ref): None,
        c(Events.layout): None,
        c(Events.scoring): draw(st.sampled_from(SCORINGS)),
        c(Events.chief_arbiter): draw(st.none() | NAME),
        c(Events.deputy_arbiters): draw(
            st.none() | st.lists(NAME, min_size=1, max_size=3).map("\n".join)
        ),
    }
    return EventData(
        events=pl.DataFrame([event], schema=EVENT_SCHEMA),
        players=pl.DataFrame(players, schema=PLAYER_SCHEMA, orient="row"),
        games=pl.DataFrame(games, schema=GAME_SCHEMA, orient="row"),
        round_dates=draw(_round_dates(start, event_rounds)),
    )


def _round_dates(start: date | None, rounds: int) -> st.SearchStrategy[tuple[date | None, ...]]:
    """Record 132's dates for an event of `rounds` rounds: none, or some known and some
    not, the last known (a blank slot at the end is no slot); near the start when known
    (a two-digit year is read as the one nearest it), else of this century."""
    if not rounds:
        return st.just(())
    day = (
        st.dates(date(2000, 1, 1), date(2098, 12, 31))
        if start is None
        else st.integers(0, 40).map(lambda k: start + timedelta(days=k))
    )
    head = st.lists(st.none() | day, max_size=rounds - 1)
    known = st.tuples(head, day).map(lambda parts: (*parts[0], parts[1]))
    return st.just(()) | known


def _game(
    round_no: int, number: int, opponent: int | None, colour: str | None, code: str
) -> tuple[object, ...]:
    played = code in PLAYED_CODES and opponent is not None
    return (FILE, round_no, number, opponent, colour, code, result_score(code), played, 0, "")


def assert_round_trip(event: EventData) -> None:
    again = read_trf(write_trf(event), FILE)
    # the list's reason is the reader's words about the records written (compared below)
    assert frames_equal(event.events, again.events, (c(Events.list_reason),))
    reason = again.events[c(Events.list_reason)][0]
    assert (reason is None) == (again.events[c(Events.list)][0] is None)
    assert frames_equal(event.players, again.players, (c(Players.line),))
    assert frames_equal(event.games, again.games, (c(Games.line), c(Games.column)))
    assert again.round_dates == event.round_dates
    assert again.problems == []


@settings(max_examples=60, deadline=None)
@given(events())
def test_round_trip_generated(event: EventData) -> None:
    assert_round_trip(event)


@pytest.mark.slow
@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events())
def test_round_trip_generated_long(event: EventData) -> None:
    assert_round_trip(event)


# --- read_trf raises InputError or nothing -------------------------------------------------

MUTATION_CHARS = st.sampled_from([*"0123456789 -+=wbWBHUZFDLx.,/\t\r\n\ufeff\x00é", "001 "])


@st.composite
def mutated(draw: st.DrawFn, base: str = SAMPLE) -> str:
    text = base
    for _ in range(draw(st.integers(min_value=1, max_value=8))):
        at = draw(st.integers(min_value=0, max_value=len(text)))
        kind = draw(st.sampled_from(["replace", "insert", "delete"]))
        piece = draw(MUTATION_CHARS)
        if kind == "replace":
            text = text[:at] + piece + text[at + 1 :]
        elif kind == "insert":
            text = text[:at] + piece + text[at:]
        else:
            text = text[:at] + text[at + draw(st.integers(min_value=1, max_value=12)) :]
    return text


def check_reads_or_rejects(text: str) -> None:
    event: EventData | None = None
    problems: list[Problem] = []
    try:
        event = read_trf(text, FILE)
    except InputError as error:
        problems = error.problems
    if event is None:
        assert any(problem.is_error for problem in problems)
        return
    assert event.events.schema == pl.Schema(EVENT_SCHEMA)
    assert event.players.schema == pl.Schema(PLAYER_SCHEMA)
    assert event.games.schema == pl.Schema(GAME_SCHEMA)


@settings(max_examples=150, deadline=None)
@given(mutated())
def test_mutations_never_crash(text: str) -> None:
    check_reads_or_rejects(text)


@pytest.mark.slow
@settings(max_examples=5000, deadline=None)
@given(st.one_of(mutated(), st.text(max_size=400)))
def test_mutations_never_crash_long(text: str) -> None:
    check_reads_or_rejects(text)
