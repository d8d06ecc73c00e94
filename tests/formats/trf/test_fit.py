"""trf.fit: what a TRF can carry (fide-rules.md §8 "TRF": the 001 columns, one slot per
round, the result codes) and the read-back that proves a written file is its event.

A property over the generated events of test_trf_write: every event, settled as
`read_path` settles it, is fitted, written as TRF16 and TRF26 and read back with no
difference. Then the refusals, each with its exact message.
"""

from __future__ import annotations

from datetime import date

import polars as pl
import pytest
from hypothesis import given, settings

from pipeline.errors import Severity
from pipeline.formats.model import EventData
from pipeline.formats.schedule import settle_list
from pipeline.formats.trf.fit import fit_event, read_back
from pipeline.formats.trf.read import read_trf
from pipeline.formats.trf.write import write_trf
from tests.formats.trf.test_read import FILE, SAMPLE
from tests.formats.trf.test_write import events


@pytest.mark.parametrize("version", ["trf16", "trf26"])
@settings(max_examples=60, deadline=None)
@given(event=events())
def test_generated_events_read_back_as_written(version: str, event: EventData) -> None:
    event = settle_list(event)
    target, problems = fit_event(event, version)
    expected = set()
    ids = event.players["fide_id"].drop_nulls()
    if ids.n_unique() < ids.len():
        expected.add("trf-duplicate-fide-id")  # the strategy does not keep IDs apart
    if version == "trf26" and event.events["start_date"][0] is None:
        expected.add("trf-no-date")
    assert {p.code for p in problems if p.is_error} == expected
    back, differences = read_back(target, write_trf(target, version), version, None, "x.trf")
    assert differences == []
    assert back is not None
    assert back.events["source"][0] == version


def sample() -> EventData:
    return read_trf(SAMPLE, FILE)


def with_players(event: EventData, **columns: list[object]) -> EventData:
    players = event.players.with_columns(
        pl.Series(name, values, dtype=event.players.schema[name])
        for name, values in columns.items()
    )
    return EventData(event.events, players, event.games, event.problems)


def messages(event: EventData, version: str = "trf26") -> list[str]:
    return [str(p) for p in fit_event(event, version)[1]]


TAIL = "event 'Lakeside Spring Open' not converted to TRF26"


def test_the_sample_fits() -> None:
    assert messages(sample()) == []


def test_too_wide_player_fields() -> None:
    long_name = "Cedar-Lindqvist-Oxenstierna, Dagny"
    event = with_players(
        sample(),
        name=["Alder, Brynja", "Birch, Carla", long_name, "Dogwood, Eira"],
        federation=["NOR", "SWE", None, "NORGE"],
        start_no=[1, 2, 3, 4],
        fide_id=[1503014, 1700123, None, 123_456_789_012],
        points=[2.5, 1.5, 2.0, 100.5],
    )  # fmt: skip
    assert messages(event) == [
        f"{FILE}:11:15-47: expected a name of at most 33 characters (TRF columns 15-47), got "
        "'Cedar-Lindqvist-Oxenstierna, Dagny' (34 characters): shorten it in the source, as "
        f"FIDE's list writes it; {TAIL} [trf-field-too-long]",
        f"{FILE}:12:federation: expected a federation of at most 3 letters (TRF columns "
        f"54-56), got 'NORGE'; {TAIL} [trf-field-too-long]",
        f"{FILE}:12:58-68: expected a FIDE ID of 1 to 11 digits (TRF columns 58-68), got "
        f"123456789012; {TAIL} [trf-field-too-long]",
        f"{FILE}:12:81-84: expected points that fit TRF columns 81-84 (4 characters), got "
        f"100.5; {TAIL} [trf-field-too-long]",
    ]


def test_one_fide_id_twice() -> None:
    event = with_players(sample(), fide_id=[1503014, 1700123, 1503014, None])
    assert messages(event) == [
        f"{FILE}:11:58-68: expected each FIDE ID once in the event, got 1503014 for no. 1 "
        "'Alder, Brynja', no. 3 'Cedar, Dag' (as the file gives them or linked by name to the "
        "rating list or across the events): correct the source, or pass --registry to link "
        f"by the list; {TAIL} [trf-duplicate-fide-id]"
    ]


def test_two_entries_in_a_round_and_a_pending_bye() -> None:
    event = sample()
    games = event.games
    second = games.filter(pl.col("start_no") == 1, pl.col("round") == 1)
    pending = games.filter(pl.col("start_no") == 4, pl.col("round") == 3).with_columns(
        pl.lit("*").alias("code")
    )
    rest = games.filter(~((pl.col("start_no") == 4) & (pl.col("round") == 3)))
    event = EventData(event.events, event.players, pl.concat([rest, second, pending]))
    assert messages(event) == [
        f"{FILE}:9:92-101: expected one entry per player and round (TRF has one slot per "
        f"round), got a second one for no. 1 in round 1; {TAIL} [trf-result]",
        f"{FILE}:12:112-121: expected an opponent for the pending game of no. 4 in round 3 "
        "(TRF leaves a result blank only beside an opponent), got none; "
        f"{TAIL} [trf-result]",
    ]


def test_trf26_dates() -> None:
    event = sample()
    no_end = EventData(
        event.events.with_columns(pl.lit(None, dtype=pl.Date).alias("end_date")),
        event.players,
        event.games,
    )
    target, problems = fit_event(no_end, "trf26")
    assert target.events["end_date"][0] == date(2025, 3, 1)
    assert [(p.code, p.severity) for p in problems] == [("trf-end-date-assumed", Severity.WARNING)]
    assert fit_event(no_end, "trf16")[0].events["end_date"][0] is None
    undated = EventData(
        no_end.events.with_columns(pl.lit(None, dtype=pl.Date).alias("start_date")),
        event.players,
        event.games,
    )
    assert messages(undated) == [
        f"{FILE}: expected a start date (record 042, mandatory in TRF26 as YYYY/MM/DD), got "
        f"none: add it to the source, or convert --to trf16; {TAIL} [trf-no-date]"
    ]
    assert messages(undated, "trf16") == []


def test_a_difference_on_reading_back_is_reported() -> None:
    target, _ = fit_event(sample(), "trf26")
    text = write_trf(target, "trf26").replace("Birch, Carla", "Birch, Karla")
    _, problems = read_back(target, text, "trf26", None, "x.trf")
    assert [str(p) for p in problems] == [
        f"{FILE}: expected the TRF written to read back as the event, got another name for "
        f"no. 2: 'Birch, Carla' written, 'Birch, Karla' read; {TAIL} [trf-not-faithful]"
    ]
