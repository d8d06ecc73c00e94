"""The real TRF files kept beside the project (fide-rules.md §8 "real-file quirks"):
a 2005 TRF16 open with a "spielfrei" pseudo-player and blank round slots, a JaVaFo TRF16
with XXR, one-letter titles and H/U/Z byes (CRLF), and a TRF26 team file with ``###``
comments, 132 round dates, 222 and team records. Each parses with the right counts and
survives write_trf -> read_trf.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import polars as pl
import pytest

from pipeline.formats.trf.read import looks_like_trf, read_trf, write_trf
from schemas.ingest import Events, Games, Players
from tests.formats.trf.test_read import c
from tests.formats.trf.test_write import frames_equal

REAL = {
    # file: (players, rounds, list, list_source, source, games rows, reader warnings)
    "fide_example1_karl_mala_2005.trf": (284, 7, "standard", "122", "trf16", 284 * 7,
                                         ["date-read", "date-read"]),  # 28. 07. 2005
    "javafo_sample_open_gros_2010.trf": (52, 9, None, None, "trf16", 52 * 5,
                                         ["date-read", "date-read"]),  # 24/09/2010
    "fide_tec_sample_grandmommys_cup_trf26_team.trf": (249, 14, "standard", "222", "trf26",
                                                        249 * 14, []),
}  # fmt: skip


def read_real(shared_dir: Path, name: str) -> tuple[str, str]:
    path = shared_dir / "data" / "trf" / name
    return path.read_bytes().decode("utf-8"), name


@pytest.mark.parametrize("name", sorted(REAL))
def test_real_file_counts(shared_dir: Path, name: str) -> None:
    text, file = read_real(shared_dir, name)
    assert looks_like_trf(text)
    event = read_trf(text, file)
    Events.validate(event.events)
    Players.validate(event.players)
    Games.validate(event.games)
    players, rounds, list_name, list_source, source, games, warnings = REAL[name]
    row = event.events.row(0, named=True)
    assert (event.players.height, row[c(Events.rounds)]) == (players, rounds)
    assert (row[c(Events.list)], row[c(Events.list_source)], row[c(Events.source)]) == (
        list_name, list_source, source,
    )  # fmt: skip
    assert event.games.height == games
    assert [p.code for p in event.problems] == warnings
    # declared points agree with the standard scoring of the games read
    sums = event.games.group_by(c(Games.start_no)).agg(pl.col(c(Games.score)).sum().alias("sum"))
    joined = event.players.join(sums, on=c(Players.start_no))
    assert joined.filter(pl.col(c(Players.points)) != pl.col("sum")).height == 0


def test_karl_mala_2005_details(shared_dir: Path) -> None:
    text, file = read_real(shared_dir, "fide_example1_karl_mala_2005.trf")
    event = read_trf(text, file)
    row = event.events.row(0, named=True)
    assert row[c(Events.name)] == "9. Karl-Mala-Gedenkturnier"
    assert (row[c(Events.start_date)], row[c(Events.end_date)]) == (
        date(2005, 7, 28),
        date(2005, 7, 31),
    )
    assert row[c(Events.time_control)] == "40/120, 60"
    assert row[c(Events.federation)] is None  # 032 is blank
    players = event.players
    first = players.row(0, named=True)
    assert (first[c(Players.title)], first[c(Players.rating)], first[c(Players.fide_id)]) == (
        "GM", 2558, 3400042,
    )  # fmt: skip
    assert (first[c(Players.birth_year)], first[c(Players.points)], first[c(Players.rank)]) == (
        1969,
        6.0,
        4,
    )
    bye = players.filter(pl.col(c(Players.name)) == "spielfrei").row(0, named=True)
    assert (bye[c(Players.start_no)], bye[c(Players.rating)], bye[c(Players.fide_id)]) == (
        284,
        None,
        None,
    )
    games = event.games
    forfeit = games.filter((pl.col(c(Games.start_no)) == 13) & (pl.col(c(Games.round)) == 1))
    assert forfeit.select(c(Games.opponent_no), c(Games.colour), c(Games.code)).row(0) == (
        153,
        None,
        "-",
    )
    bye_win = games.filter((pl.col(c(Games.start_no)) == 282) & (pl.col(c(Games.round)) == 5))
    assert bye_win.select(c(Games.opponent_no), c(Games.code), c(Games.score)).row(0) == (
        None,
        "+",
        1.0,
    )


def test_javafo_details(shared_dir: Path) -> None:
    text, file = read_real(shared_dir, "javafo_sample_open_gros_2010.trf")
    assert "\r\n" in text
    event = read_trf(text, file)
    titles = event.players.filter(pl.col(c(Players.start_no)) <= 3)[c(Players.title)].to_list()
    assert titles == ["GM", "IM", "FM"]  # one-letter titles g, m, f
    assert event.players.filter(pl.col(c(Players.rating)).is_null()).height == 11  # rating 0
    codes = dict(event.games[c(Games.code)].value_counts().iter_rows())
    assert (codes["H"], codes["U"]) == (16, 3)


def test_team_file_details(shared_dir: Path) -> None:
    text, file = read_real(shared_dir, "fide_tec_sample_grandmommys_cup_trf26_team.trf")
    event = read_trf(text, file)
    row = event.events.row(0, named=True)
    assert row[c(Events.time_control)] == "40/6000+30:20/3000+30:1500+30"
    assert json.loads(row["scoring"]) == {"W": 1.0, "D": 0.5, "L": 0.0}
    assert event.players[c(Players.birth_year)][0] == 1987  # written 1987/00/00


@pytest.mark.parametrize("name", sorted(REAL))
def test_real_file_round_trip(shared_dir: Path, name: str) -> None:
    text, file = read_real(shared_dir, name)
    event = read_trf(text, file)
    again = read_trf(write_trf(event), file)
    assert frames_equal(event.events, again.events, (c(Events.source),))
    assert frames_equal(event.players, again.players, (c(Players.line),))
    assert frames_equal(event.games, again.games, (c(Games.line),))
