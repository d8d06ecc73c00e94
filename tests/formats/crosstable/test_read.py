"""Swiss-Manager / chess-results crosstable readers (CSV and XLSX).

The format facts come from reference/fide-rules.md §8 "Swiss-Manager / chess-results
crosstable exports" and the real export in shared/data/crosstables. Every sample below is
one invented 6-player, 3-round Swiss (or a small round-robin) written the way the exports
write it in English, German and Spanish.
"""

from __future__ import annotations

import io
import zipfile
from datetime import date
from pathlib import Path
from typing import Any

import openpyxl
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.errors import InputError
from pipeline.formats.crosstable.cells import (
    Header,
    classify_header,
    normalize_cell,
    parse_decimal,
)
from pipeline.formats.crosstable.read import (
    looks_like_crosstable,
    read_crosstable_csv,
    read_crosstable_xlsx,
)
from pipeline.formats.model import EventData
from schemas.ingest import Events, Games, Players
from tests.conftest import FIXTURES
from tests.formats.test_xlsx_safety import inline_cell, minimal_xlsx

# --- one Swiss, four ways --------------------------------------------------------------
# Start numbers 1..6; final ranks: SNo 1, 2, 3, 6, 4, 5. Round 2: 3 wins 5 by forfeit.
# Round 3: SNo 5 absent (-0), SNo 6 gets the pairing bye (-1 / spielfrei).

SWISS_EN_BY_RANK = """\
Chess-Tournament-Results-Server Chess-Results.com
Spring Rapid Open 2024
Last update 10.03.2024 18:01:44
Date: 2024/03/02 - 2024/03/03
Final Ranking crosstable after 3 Rounds

Rk.;SNo;;Name;FED;Rtg;FideID;1.Rd;2.Rd;3.Rd;Pts.;TB1;K;rtg+/-
1;1;FM;Berg Ana;GER;2100;4100011;5w1;2b½;3w1;2,5;4,5;20;5,6
2;2;;Costa Ben;POR;2000;4100020;6b1;1w½;5b1;2,5;4;20;7,2
3;3;;Dorn Cai;AUT;1900;;4w½;6w+;1b0;1,5;5;40;-4,4
4;6;;Gill Fay;ENG;0;;3b½;5w0;-1;1,5;3,5;;
5;4;;Eck Dia;GER;1800;4100049;1b0;4b1;2w0;1;6;20;-2
6;5;;Falk Eli;SUI;1700;4100057;2w0;3b-;-0;0;5,5;20;-6,4

Annotation:
Tie Break1: Buchholz
"""

SWISS_EN_BY_SNO = """\
Spring Rapid Open 2024
Rk.;SNo;;Name;FED;Rtg;FideID;1.Rd;2.Rd;3.Rd;Pts.;TB1;K;rtg+/-
1;1;FM;Berg Ana;GER;2100;4100011;4w1;2b½;3w1;2,5;4,5;20;5,6
2;2;;Costa Ben;POR;2000;4100020;5b1;1w½;4b1;2,5;4;20;7,2
3;3;;Dorn Cai;AUT;1900;;6w½;5w+;1b0;1,5;5;40;-4,4
4;6;;Gill Fay;ENG;0;;3b½;4w0;-1;1,5;3,5;;
5;4;;Eck Dia;GER;1800;4100049;1b0;6b1;2w0;1;6;20;-2
6;5;;Falk Eli;SUI;1700;4100057;2w0;3b-;-0;0;5,5;20;-6,4
"""

SWISS_DE = """\
Schach-Turnier-Ergebnis-Server Chess-Results.com
Frühjahrs-Schnellschach 2024
Letzte Aktualisierung 10.03.2024 18:01:44
Endtabelle nach 3 Runden

Rg.;Snr;;Name;Land;Elo;1.Rd;2.Rd;3.Rd;Pkt.;Wtg1
1;1;FM;Berg Ana;GER;2100;5w1;2s½;3w1;2,5;4,5
2;2;;Costa Ben;POR;2000;6s1;1w½;5s1;2,5;4
3;3;;Dorn Cai;AUT;1900;4w½;6w+;1s0;1,5;5
4;6;;Gill Fay;ENG;0;3s½;5w0;spielfrei;1,5;3,5
5;4;;Eck Dia;GER;1800;1s0;4s1;2w0;1;6
6;5;;Falk Eli;SUI;1700;2w0;3s-;-0;0;5,5
# Anmerkung:
# Feinwertung1: Buchholz
"""

SWISS_ES = """\
Servidor de Resultados de Torneos de Ajedrez Chess-Results.com
Torneo Rápido de Primavera 2024
Última actualización 10.03.2024 18:01:44
Fecha: 02/03/2024
Clasificación final después de 3 rondas

Pos.,No.,,Nombre,Fed,Elo,1.Rd,2.Rd,3.Rd,Ptos.,Des1
1,1,FM,Berg Ana,GER,2100,4b1,2n½,3b1,"2,5","4,5"
2,2,,Costa Ben,POR,2000,5n1,1b½,4n1,"2,5",4
3,3,,Dorn Cai,AUT,1900,6b½,5b+,1n0,"1,5",5
4,6,,Gill Fay,ENG,,3n½,4b0,-1,"1,5","3,5"
5,4,,Eck Dia,GER,1800,1n0,6n1,2b0,1,6
6,5,,Falk Eli,SUI,1700,2b0,3n-,-0,0,"5,5"
"""

# (round, start_no, opponent_no, colour, code, score, played), sorted by start_no, round
SWISS_GAMES = [
    (1, 1, 4, "w", "1", 1.0, True),
    (2, 1, 2, "b", "=", 0.5, True),
    (3, 1, 3, "w", "1", 1.0, True),
    (1, 2, 5, "b", "1", 1.0, True),
    (2, 2, 1, "w", "=", 0.5, True),
    (3, 2, 4, "b", "1", 1.0, True),
    (1, 3, 6, "w", "=", 0.5, True),
    (2, 3, 5, "w", "+", 1.0, False),
    (3, 3, 1, "b", "0", 0.0, True),
    (1, 4, 1, "b", "0", 0.0, True),
    (2, 4, 6, "b", "1", 1.0, True),
    (3, 4, 2, "w", "0", 0.0, True),
    (1, 5, 2, "w", "0", 0.0, True),
    (2, 5, 3, "b", "-", 0.0, False),
    (3, 5, None, None, "Z", 0.0, False),
    (1, 6, 3, "b", "=", 0.5, True),
    (2, 6, 4, "w", "0", 0.0, True),
    (3, 6, None, None, "U", 1.0, False),
]
GAME_COLUMNS = [
    str(Games.round),
    str(Games.start_no),
    str(Games.opponent_no),
    str(Games.colour),
    str(Games.code),
    str(Games.score),
    str(Games.played),
]


def check_schemas(event: EventData) -> None:
    Events.validate(event.events)
    Players.validate(event.players)
    Games.validate(event.games)


def check_column_types(event: EventData) -> None:
    """Columns and types only: value ranges are validation's to report."""
    for model, frame in ((Events, event.events), (Players, event.players), (Games, event.games)):
        for name, column in model.to_schema().columns.items():
            if column.required or name in frame.columns:
                assert frame.schema[name] == column.dtype.type, name


def games_of(event: EventData) -> list[tuple[Any, ...]]:
    return event.games.select(GAME_COLUMNS).rows()


def event_row(event: EventData) -> dict[str, Any]:
    return event.events.row(0, named=True)


@pytest.mark.parametrize(
    ("text", "reference", "rating_list"),
    [
        (SWISS_EN_BY_RANK, "rank", "rapid"),
        (SWISS_EN_BY_SNO, "start-number", "rapid"),
        (SWISS_DE, "rank", "rapid"),
        (SWISS_ES, "start-number", "rapid"),
    ],
    ids=["english, ranks", "english, start numbers", "german w/s", "spanish b/n, commas"],
)
def test_swiss_layouts_give_the_same_games(text: str, reference: str, rating_list: str) -> None:
    event = read_crosstable_csv(text, "spring.csv")
    check_schemas(event)
    assert games_of(event) == SWISS_GAMES
    row = event_row(event)
    assert row[str(Events.opponent_ref)] == reference
    assert row[str(Events.list)] == rating_list
    assert row[str(Events.list_source)] == "title"
    assert row[str(Events.rounds)] == 3
    assert row[str(Events.source)] == "crosstable-csv"
    assert row[str(Events.event_id)] == row[str(Events.file)] == "spring.csv"
    assert event.players[str(Players.start_no)].to_list() == [1, 2, 3, 6, 4, 5]
    assert event.players[str(Players.rank)].to_list() == [1, 2, 3, 4, 5, 6]
    assert event.players[str(Players.points)].to_list() == [2.5, 2.5, 1.5, 1.5, 1.0, 0.0]
    # the Spanish page's 'Fecha: 02/03/2024' reads day first, and says so
    assert [p.code for p in event.problems] == (["date-read"] if "Fecha" in text else [])


def test_swiss_player_fields() -> None:
    event = read_crosstable_csv(SWISS_EN_BY_RANK, "spring.csv")
    columns = [
        str(Players.name),
        str(Players.title),
        str(Players.federation),
        str(Players.rating),
        str(Players.fide_id),
        str(Players.k_declared),
        str(Players.change_declared),
        str(Players.line),
    ]
    assert event.players.select(columns).rows() == [
        ("Berg Ana", "FM", "GER", 2100, 4100011, 20.0, 5.6, 8),
        ("Costa Ben", None, "POR", 2000, 4100020, 20.0, 7.2, 9),
        ("Dorn Cai", None, "AUT", 1900, None, 40.0, -4.4, 10),
        ("Gill Fay", None, "ENG", None, None, None, None, 11),  # rating 0 -> unrated
        ("Eck Dia", None, "GER", 1800, 4100049, 20.0, -2.0, 12),
        ("Falk Eli", None, "SUI", 1700, 4100057, 20.0, -6.4, 13),
    ]
    games = event.games.filter(pl.col(str(Games.start_no)) == 6)
    assert games.select(str(Games.line), str(Games.column)).rows() == [
        (11, "1.Rd"),
        (11, "2.Rd"),
        (11, "3.Rd"),
    ]


REAL = FIXTURES / "real"


@pytest.mark.parametrize(
    "name",
    [
        "chessresults_keshmat_circuit_rapid_2025_04.xlsx",
        "chessresults_keshmat_circuit_rapid_2025_04_libreoffice_semicolon.csv",
    ],
)
def test_arbiters_of_a_real_export(name: str) -> None:
    path = REAL / name
    if path.suffix == ".xlsx":
        event = read_crosstable_xlsx(path.read_bytes(), name)
    else:
        event = read_crosstable_csv(path.read_text(encoding="utf-8"), name)
    row = event_row(event)
    assert row[str(Events.chief_arbiter)] == "IA Abou Jaoude, Elias (5301920)"
    # "Arbiter : FA ..." lists the other arbiters, whom a TRF does not name
    assert row[str(Events.deputy_arbiters)] == "IA Jawhar, Oussama (5302137)"


def test_arbiters_in_another_language() -> None:
    lines = SWISS_EN_BY_RANK.splitlines()
    extra = [
        "Hauptschiedsrichter : IA Muster, Hans (4600000)",
        "Stellvertretender Hauptschiedsrichter : FA Beispiel, Eva (4600001)",
        "Deputy Chief Arbiter : NA Doe, Jo",
        "Schiedsrichter : NA Someone",
    ]
    text = "\n".join([lines[0], *extra, *lines[1:]]) + "\n"
    row = event_row(read_crosstable_csv(text, "de.csv"))
    assert row[str(Events.chief_arbiter)] == "IA Muster, Hans (4600000)"
    assert row[str(Events.deputy_arbiters)] == "FA Beispiel, Eva (4600001)\nNA Doe, Jo"
    assert row[str(Events.name)] == "Spring Rapid Open 2024"


def test_preamble_gives_name_dates_and_rounds() -> None:
    row = event_row(read_crosstable_csv(SWISS_EN_BY_RANK, "dir/spring.csv"))
    assert row[str(Events.name)] == "Spring Rapid Open 2024"
    assert row[str(Events.start_date)] == date(2024, 3, 2)
    assert row[str(Events.end_date)] == date(2024, 3, 3)
    es = event_row(read_crosstable_csv(SWISS_ES, "es.csv"))
    assert es[str(Events.name)] == "Torneo Rápido de Primavera 2024"
    assert es[str(Events.start_date)] == date(2024, 3, 2)


@pytest.mark.parametrize(
    ("name_line", "expected"),
    [
        ("Spring Rapid Open 2024", "rapid"),
        ("Frühjahrs-Schnellschach 2024", "rapid"),
        ("Torneo de Partidas Rápidas", "rapid"),
        ("Berlin Blitz Championship", "blitz"),
        ("Torneo Relámpago", "blitz"),
        ("Spring Classical 2024", "standard"),
        ("Standard Open", "standard"),
        ("Spring Open 2024", None),
    ],
)
def test_rating_list_from_the_name(name_line: str, expected: str | None) -> None:
    text = SWISS_EN_BY_SNO.replace("Spring Rapid Open 2024", name_line)
    row = event_row(read_crosstable_csv(text, "e.csv"))
    assert row[str(Events.list)] == expected
    assert row[str(Events.list_source)] == ("title" if expected else None)


def test_conflicting_list_words_leave_the_list_null_with_a_warning() -> None:
    text = SWISS_EN_BY_SNO.replace("Spring Rapid Open 2024", "Rapid and Blitz Festival")
    event = read_crosstable_csv(text, "e.csv")
    assert event_row(event)[str(Events.list)] is None
    assert [p.code for p in event.problems] == ["list-ambiguous"]
    assert "pass --list" in event.problems[0].message


def test_time_control_line_decides_the_list() -> None:
    text = SWISS_EN_BY_SNO.replace(
        "Spring Rapid Open 2024", "Spring Open 2024\nTime control (Blitz): 3 min + 2 sec"
    )
    row = event_row(read_crosstable_csv(text, "e.csv"))
    assert row[str(Events.list)] == "blitz"
    assert row[str(Events.time_control)] == "Time control (Blitz): 3 min + 2 sec"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Time control (Rapid): 15 min + 10 sec", "rapid"),
        ("Time control (Standard): 90 min/40 moves + 30 min + 30 sec", "standard"),
        ("Bedenkzeit (Schnellschach): 15 Min. + 5 Sek.", "rapid"),
        ("Time control: 3 min + 2 sec", "blitz"),
    ],
)
def test_time_control_line_beats_the_name(line: str, expected: str) -> None:
    """Time for 60 moves decides (Laws of Chess, Appendices A and B; B.02 §1.1)."""
    text = SWISS_EN_BY_SNO.replace("Spring Rapid Open 2024", f"Spring Blitz 2024\n{line}")
    assert event_row(read_crosstable_csv(text, "e.csv"))[str(Events.list)] == expected


def test_name_falls_back_to_the_file_stem() -> None:
    text = SWISS_EN_BY_SNO.split("\n", 1)[1]
    row = event_row(read_crosstable_csv(text, "some/dir/open_2024.csv"))
    assert row[str(Events.name)] == "open_2024"
    assert row[str(Events.list)] is None


def test_swiss_without_sno_uses_ranks_as_start_numbers() -> None:
    text = """\
Rk.;Name;Rtg;1.Rd;2.Rd;Pts.
1;Berg Ana;2100;2w1;3b1;2
2;Costa Ben;2000;1b0;-1;1
3;Dorn Cai;1900;-½;1w0;0,5
"""
    event = read_crosstable_csv(text, "e.csv")
    check_schemas(event)
    assert event.players[str(Players.start_no)].to_list() == [1, 2, 3]
    assert games_of(event) == [
        (1, 1, 2, "w", "1", 1.0, True),
        (2, 1, 3, "b", "1", 1.0, True),
        (1, 2, 1, "b", "0", 0.0, True),
        (2, 2, None, None, "U", 1.0, False),
        (1, 3, None, None, "H", 0.5, False),
        (2, 3, 1, "w", "0", 0.0, True),
    ]
    assert event_row(event)[str(Events.opponent_ref)] == "rank"


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ("12w1", (12, "w", "1", 1.0)),
        ("12w½", (12, "w", "=", 0.5)),
        ("12w=", (12, "w", "=", 0.5)),
        ("12w0.5", (12, "w", "=", 0.5)),
        ("12w0,5", (12, "w", "=", 0.5)),
        ("12 b 0", (12, "b", "0", 0.0)),
        ("12W1", (12, "w", "1", 1.0)),
        ("12w+", (12, "w", "+", 1.0)),
        ("12b-", (12, "b", "-", 0.0)),
        ("12b−", (12, "b", "-", 0.0)),
        ("12½", (12, None, "=", 0.5)),
        ("12 1", (12, None, "1", 1.0)),
        ("-1", (None, None, "U", 1.0)),
        ("-½", (None, None, "H", 0.5)),
        ("-0", (None, None, "Z", 0.0)),
        ("0", (None, None, "Z", 0.0)),
        ("bye", (None, None, "U", 1.0)),
        ("not paired", (None, None, "Z", 0.0)),
        ("*", (None, None, "Z", 0.0)),
        ("", (None, None, "Z", 0.0)),
        ("12w", (12, "w", "*", 0.0)),  # paired, no result yet
        ("12 b", (12, "b", "*", 0.0)),
        ("12w-", (12, "w", "-", 0.0)),  # a forfeit loss (both sides: a double forfeit)
    ],
)
def test_swiss_round_cells(cell: str, expected: tuple[Any, ...]) -> None:
    """Cell forms of fide-rules.md §8 (opponent + colour + result; byes and absences).
    Players 10 and 11 play each other, so round 1 took place."""
    text = f"Rk.;SNo;Name;1.Rd\n1;1;Berg Ana;{cell}\n" + "".join(
        f"{n};{n};Player {n};{ {10: '11w1', 11: '10b0'}.get(n, '-0') }\n" for n in range(2, 13)
    )
    event = read_crosstable_csv(text, "e.csv")
    first = event.games.filter(pl.col(str(Games.start_no)) == 1)
    columns = [str(Games.opponent_no), str(Games.colour), str(Games.code), str(Games.score)]
    assert first.select(columns).row(0) == expected


def test_bye_word_worth_half_a_point_follows_the_declared_points() -> None:
    text = """\
Rk.;SNo;Name;1.Rd;2.Rd;Pts.
1;1;Berg Ana;2b1;bye;1,5
2;2;Costa Ben;1w0;-0;0
"""
    event = read_crosstable_csv(text, "e.csv")
    assert games_of(event)[1] == (2, 1, None, None, "H", 0.5, False)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1.Rd", Header("round", 1)),
        ("12.Rd", Header("round", 12)),
        ("3.R", Header("round", 3)),
        ("Rd.4", Header("round", 4)),
        ("5", Header("opponent", 5)),
        ("Rk.", Header("rank")),
        ("Rg.", Header("rank")),
        ("Pos.", Header("rank")),
        ("SNo", Header("sno")),
        ("Snr", Header("sno")),
        ("Nº", Header("sno")),
        ("Nombre", Header("name")),
        ("Elo", Header("rating")),
        ("ELO", Header("rating")),
        ("Land", Header("federation")),
        ("Fide", Header("rating")),  # beside FED, a 'FIDE' column holds the FIDE rating
        ("FIDE-ID", Header("fide_id")),
        ("ID", Header("national_id")),  # chess-results' 'ID' is the national ID
        ("Pkt.", Header("points")),
        ("Ptos.", Header("points")),
        ("K", Header("k")),
        ("Elo+/-", Header("change")),
        ("rtg+/-", Header("change")),
        ("TB1", Header("other")),
        ("Rp", Header("other")),
        ("Club/City", Header("club")),
        ("Typ", Header("other")),
        ("", Header("blank")),
    ],
)
def test_header_texts(text: str, expected: Header) -> None:
    """English / German / Spanish headers of fide-rules.md §8."""
    assert classify_header(text) == expected


@pytest.mark.parametrize(
    ("cell", "normalized", "number"),
    [
        ("2482.0", "2482", 2482.0),
        (" 3,5 ", "3,5", 3.5),
        ("3½", "3½", 3.5),
        ("½", "½", 0.5),
        ("\u22124,4", "-4,4", -4.4),
        ("+5.6", "+5.6", 5.6),
        ("10,00", "10,00", 10.0),
        ("drei", "drei", None),
        ("", "", None),
        (None, "", None),
    ],
)
def test_number_cells(cell: str | None, normalized: str, number: float | None) -> None:
    """Decimal comma (CSV), floats from spreadsheets, typographic minus (§8)."""
    assert normalize_cell(cell) == normalized
    assert parse_decimal(normalized) == number


# --- round-robin -----------------------------------------------------------------------

RR_BY_RANK = """\
Club Championship 2024
Rk.;SNo;Name;Rtg;FED;1;2;3;4;Pts.
1;3;Alpha Ann;1900;GER;*;1;½;+;2,5
2;1;Beta Bo;1850;GER;0;*;1;1;2
3;4;Gamma Cy;1700;GER;½;0;*;;0,5
4;2;Delta Di;1600;GER;-;0;;*;0
"""

RR_BY_SNO = """\
Club Championship 2024
Rk.;SNo;Name;Rtg;FED;1;2;3;4;Pts.
1;3;Alpha Ann;1900;GER;1;+;*;½;2,5
2;1;Beta Bo;1850;GER;*;1;0;1;2
3;4;Gamma Cy;1700;GER;0;;½;*;0,5
4;2;Delta Di;1600;GER;0;*;-;;0
"""

# (start_no, opponent_no, code, score, played): Ann=3, Bo=1, Cy=4, Di=2
RR_PAIRS = {
    (3, 1, "1", 1.0, True),
    (3, 4, "=", 0.5, True),
    (3, 2, "+", 1.0, False),
    (1, 3, "0", 0.0, True),
    (1, 4, "1", 1.0, True),
    (1, 2, "1", 1.0, True),
    (4, 3, "=", 0.5, True),
    (4, 1, "0", 0.0, True),
    (2, 3, "-", 0.0, False),
    (2, 1, "0", 0.0, True),
}


def assert_rounds_are_a_schedule(games: pl.DataFrame) -> None:
    """Both sides of a game share its round; nobody plays twice in a round."""
    rows = games.select(str(Games.round), str(Games.start_no), str(Games.opponent_no)).rows()
    assert {(r, a, b) for r, a, b in rows} == {(r, b, a) for r, a, b in rows}
    assert len({(r, a) for r, a, _ in rows}) == len(rows)


@pytest.mark.parametrize(
    ("text", "reference"),
    [(RR_BY_RANK, "rank"), (RR_BY_SNO, "start-number")],
    ids=["columns by rank", "columns by start number"],
)
def test_round_robin(text: str, reference: str) -> None:
    event = read_crosstable_csv(text, "club.csv")
    check_schemas(event)
    columns = [
        str(Games.start_no),
        str(Games.opponent_no),
        str(Games.code),
        str(Games.score),
        str(Games.played),
    ]
    assert set(event.games.select(columns).rows()) == RR_PAIRS
    assert event.games[str(Games.colour)].null_count() == event.games.height
    assert_rounds_are_a_schedule(event.games)
    row = event_row(event)
    assert row[str(Events.opponent_ref)] == reference
    assert row[str(Events.rounds)] == 3


def test_double_round_robin_cells_hold_two_games() -> None:
    text = """\
Rk.;;Name;Rtg;1;2;3;Pts.
1;;Aa Ada;2000;*;1½;11;3,5
2;;Bb Bea;1900;0½;*;1;1,5
3;;Cc Cid;1800;00;0;*;0
"""
    event = read_crosstable_csv(text, "double.csv")
    check_schemas(event)
    assert event.games.height == 10
    assert_rounds_are_a_schedule(event.games)
    ada = event.games.filter(pl.col(str(Games.start_no)) == 1)
    assert ada.select(str(Games.opponent_no), str(Games.code)).sort(
        str(Games.opponent_no)
    ).rows() in (
        [(2, "1"), (2, "="), (3, "1"), (3, "1")],
        [(2, "="), (2, "1"), (3, "1"), (3, "1")],
    )


def test_the_real_chess_results_export(shared_dir: Path) -> None:
    """shared/data/crosstables: round-robin, ';', decimal comma, '*' diagonal, '½', title
    row in the 2nd column, trailing '# Annotation' lines."""
    path = shared_dir / "data" / "crosstables" / "chessresults_tnr437642_art4_roundrobin.csv"
    text = path.read_text(encoding="utf-8")
    assert looks_like_crosstable(text)
    event = read_crosstable_csv(text, path.name)
    check_schemas(event)
    row = event_row(event)
    assert row[str(Events.name)] == "chessresults_tnr437642_art4_roundrobin"
    assert row[str(Events.rounds)] == 5  # "Final Ranking crosstable after 5 Rounds"
    assert row[str(Events.opponent_ref)] == "rank"
    assert row[str(Events.list)] is None
    players = event.players
    assert players.height == 6
    assert players.row(0, named=True) | {str(Players.event_id): ""} == {
        str(Players.event_id): "",
        str(Players.start_no): 1,
        str(Players.name): "Zaragatski Ilja",
        str(Players.fide_id): None,
        str(Players.federation): "GER",
        str(Players.title): "GM",
        str(Players.sex): None,
        str(Players.birth_year): None,
        str(Players.rating): 2482,
        str(Players.points): 5.0,
        str(Players.rank): 1,
        str(Players.k_declared): None,
        str(Players.change_declared): None,
        str(Players.line): 3,
    }
    assert players[str(Players.points)].to_list() == [5.0, 3.5, 3.0, 2.5, 1.0, 0.0]
    assert event.games.height == 30  # 15 games, both sides
    assert event.games[str(Games.played)].all()
    assert_rounds_are_a_schedule(event.games)
    scores = event.games.group_by(str(Games.start_no)).agg(pl.col(str(Games.score)).sum())
    assert dict(scores.rows()) == dict(
        zip(range(1, 7), [5.0, 3.5, 3.0, 2.5, 1.0, 0.0], strict=True)
    )


# --- problems --------------------------------------------------------------------------


def problems_of(text: str) -> list[tuple[str, int | None, str | None, str]]:
    with pytest.raises(InputError) as caught:
        read_crosstable_csv(text, "bad.csv")
    return [(p.code, p.location.line, p.location.column, p.message) for p in caught.value.problems]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Open 2024\nName;Rtg\nBerg Ana;2100\n",
            (
                "crosstable-no-header",
                1,
                None,
                "expected a header row starting 'Rk.' (final ranking) or 'No.' (starting rank) "
                "with a 'Name' column, got 'Open 2024'",
            ),
        ),
        (
            "",
            (
                "crosstable-no-header",
                None,
                None,
                "expected a header row starting 'Rk.' (final ranking) or 'No.' (starting rank) "
                "with a 'Name' column, got 'an empty file'",
            ),
        ),
        (
            "Rk.;SNo;Rtg;1.Rd\n1;1;2100;-1\n",
            (
                "crosstable-no-name-column",
                1,
                None,
                "expected a 'Name' column in the header, got ['Rk.', 'SNo', 'Rtg', '1.Rd']",
            ),
        ),
        (
            "Rk.;SNo;Name;Rtg;Pts.\n1;1;Berg Ana;2100;0\n",
            (
                "crosstable-no-rounds",
                1,
                None,
                "expected round columns ('1.Rd' ... or '1' ... 'N' for a round-robin), got none",
            ),
        ),
        (
            "Rk.;SNo;Name;1.Rd\n",
            ("crosstable-no-players", 1, None, "expected player rows below the header, got none"),
        ),
        (
            "Rk.;SNo;Name;1.Rd;2.Rd\n1;1;Berg Ana;2w1;x7\n2;2;Costa Ben;1b0;-0\n",
            ("round-cell", 2, "2.Rd", "expected a round cell like '12w1', got 'x7'"),
        ),
        (
            "Rk.;Name;1;2\n1;Berg Ana;*;w\n2;Costa Ben;0;*\n",
            (
                "round-cell",
                2,
                "2",
                "expected a round cell like '1', '½', '0', '+', '-' or '*', got 'w'",
            ),
        ),
        (
            "Rk.;SNo;Name;Rtg;1.Rd\n1;1;Berg Ana;20x0;-1\n",
            (
                "bad-rating",
                2,
                "Rtg",
                "expected a rating (a whole number, or empty), got '20x0'",
            ),
        ),
        (
            "Rk.;SNo;Name;1.Rd\n1;1;Berg Ana;-1\n2;1;Costa Ben;-0\n",
            (
                "duplicate-start-number",
                3,
                "SNo",
                "expected unique start numbers, got 1 again (first on line 2)",
            ),
        ),
        (
            "Rk.;SNo;Name;1.Rd\n1;1;Berg Ana;9w1\n2;2;Costa Ben;-0\n",
            (
                "opponent-out-of-range",
                2,
                "1.Rd",
                "expected an opponent rank in 1..2 other than the player's own, got 9",
            ),
        ),
        (
            "Rk.;Name;1;2\n1;Berg Ana;*;1\n2;Costa Ben;0;1\n",
            (
                "opponent-out-of-range",
                3,
                "2",
                "expected an opponent rank in 1..2 other than the player's own, got 2",
            ),
        ),
        (
            "Rk.;SNo;Name;FideID;1.Rd\n1;1;Berg Ana;41x;-1\n",
            ("bad-fide-id", 2, "FideID", "expected a FIDE ID (digits) or empty, got '41x'"),
        ),
        (
            "Rk.;SNo;Name;1.Rd;Pts.\n1;1;Berg Ana;-1;drei\n",
            ("bad-points", 2, "Pts.", "expected points like '3,5', got 'drei'"),
        ),
        (
            "Rk.;SNo;Name;1.Rd\n1;x;Berg Ana;-1\n",
            ("bad-start-number", 2, "SNo", "expected a start number 1 or more, got 'x'"),
        ),
        (
            "Rk.;SNo;Name;1.Rd\n1;1;;-1\n",
            ("missing-name", 2, "Name", "expected a player name, got ''"),
        ),
    ],
    ids=[
        "no header",
        "empty file",
        "no Name column",
        "no round columns",
        "no players",
        "unreadable Swiss cell",
        "unreadable round-robin cell",
        "bad rating",
        "duplicate start number",
        "opponent beyond the table",
        "round-robin result against oneself",
        "bad FIDE ID",
        "bad points",
        "bad start number",
        "missing name",
    ],
)
def test_problems(text: str, expected: tuple[str, int | None, str | None, str]) -> None:
    assert expected in problems_of(text)


def test_all_problems_of_a_file_come_together() -> None:
    text = """\
Rk.;SNo;Name;Rtg;1.Rd;2.Rd
1;1;Berg Ana;abc;x7;2b1
2;1;Costa Ben;2000;1w0;9w1
"""
    found = {(code, line, column) for code, line, column, _ in problems_of(text)}
    assert found == {
        ("bad-rating", 2, "Rtg"),
        ("round-cell", 2, "1.Rd"),
        ("duplicate-start-number", 3, "SNo"),
        ("opponent-out-of-range", 3, "2.Rd"),
    }


# --- detection -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (SWISS_EN_BY_RANK, True),
        (SWISS_ES, True),
        ("\ufeffRk.;SNo;Name;1.Rd\n", True),
        ('"Rk.","Name","1"\n', True),
        ("012 Spring Open\n001    1 m    Berg Ana\n", False),
        ("event;round;white;black;result\nOpen;1;Berg;Costa;1-0\n", False),
        ("Rk.;Total\n", False),
        ("", False),
    ],
    ids=["english", "spanish commas", "BOM", "quoted", "TRF", "games CSV", "no Name", "empty"],
)
def test_looks_like_crosstable(text: str, expected: bool) -> None:
    assert looks_like_crosstable(text) is expected


# --- XLSX ------------------------------------------------------------------------------


def xlsx_of(rows: list[list[Any]], start_row: int = 1) -> bytes:
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    assert sheet is not None
    for offset, values in enumerate(rows):
        for column, value in enumerate(values, start=1):
            if value is not None and value != "":
                sheet.cell(start_row + offset, column, value)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def csv_as_cells(text: str, numbers: bool) -> list[list[Any]]:
    rows: list[list[Any]] = []
    for line in text.splitlines():
        cells: list[Any] = line.split(";")
        if numbers:
            cells = [_as_number(cell) for cell in cells]
        rows.append(cells)
    return rows


def _as_number(cell: str) -> Any:
    for kind in (int, float):
        try:
            return kind(cell.replace(",", "."))
        except ValueError:
            continue
    return {"½": 0.5}.get(cell, cell)


@pytest.mark.parametrize("numbers", [True, False], ids=["numbers as numbers", "numbers as text"])
def test_xlsx_reads_like_the_csv(numbers: bool) -> None:
    data = xlsx_of(csv_as_cells(SWISS_EN_BY_RANK, numbers))
    event = read_crosstable_xlsx(data, "spring.xlsx")
    check_schemas(event)
    assert games_of(event) == SWISS_GAMES
    csv_event = read_crosstable_csv(SWISS_EN_BY_RANK, "spring.xlsx")
    assert event.players.equals(csv_event.players)
    row = event_row(event)
    assert row[str(Events.source)] == "crosstable-xlsx"
    assert row[str(Events.name)] == "Spring Rapid Open 2024"
    assert row[str(Events.start_date)] == date(2024, 3, 2)


def test_xlsx_round_robin_with_numeric_results_and_empty_top_rows() -> None:
    rows = csv_as_cells(RR_BY_RANK, numbers=True)
    event = read_crosstable_xlsx(xlsx_of(rows, start_row=4), "club.xlsx")
    columns = [
        str(Games.start_no),
        str(Games.opponent_no),
        str(Games.code),
        str(Games.score),
        str(Games.played),
    ]
    assert set(event.games.select(columns).rows()) == RR_PAIRS
    # Line numbers are spreadsheet rows even when the sheet starts lower down.
    assert event.players[str(Players.line)].to_list() == [6, 7, 8, 9]


HEADER_CELLS = ["Rk.", "SNo", "Name", "1.Rd", "Pts."]


def test_xlsx_formula_cells_are_read_as_cached_values() -> None:
    sheet = (
        '<row r="1">'
        + "".join(inline_cell(f"{c}1", t) for c, t in zip("ABCDE", HEADER_CELLS, strict=True))
        + '</row><row r="2">'
        + '<c r="A2"><v>1</v></c><c r="B2"><f>0+1</f><v>1</v></c>'
        + inline_cell("C2", "Berg Ana")
        + inline_cell("D2", "2w1")
        + '<c r="E2"><f>SUM(0.5,0.5)</f><v>1</v></c>'
        + '</row><row r="3">'
        + '<c r="A3"><v>2</v></c><c r="B3"><v>2</v></c>'
        + inline_cell("C3", "Costa Ben")
        + inline_cell("D3", "1b0")
        + '<c r="E3"><f>1-1</f></c>'  # a formula without a cached value reads as empty
        + "</row>"
    )
    event = read_crosstable_xlsx(minimal_xlsx(sheet), "f.xlsx")
    assert event.players[str(Players.start_no)].to_list() == [1, 2]
    assert event.players[str(Players.points)].to_list() == [1.0, None]


def test_xlsx_unsafe_file_never_reaches_the_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    import fastexcel

    def must_not_run(*args: object, **kwargs: object) -> None:
        raise AssertionError("fastexcel was called on an unsafe file")

    monkeypatch.setattr(fastexcel, "read_excel", must_not_run)
    sheet = '<row r="1">' + inline_cell("A1", "Rk.") + '<c r="XFD1048576"><v>1</v></c></row>'
    with pytest.raises(InputError) as caught:
        read_crosstable_xlsx(minimal_xlsx(sheet), "bomb.xlsx")
    assert [p.code for p in caught.value.problems] == ["xlsx-unsafe"]


def test_empty_xlsx_has_no_header() -> None:
    with pytest.raises(InputError) as caught:
        read_crosstable_xlsx(xlsx_of([]), "empty.xlsx")
    assert [p.code for p in caught.value.problems] == ["crosstable-no-header"]


def test_xlsx_that_is_a_zip_but_no_workbook_is_unreadable() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("hello.txt", "not a workbook")
    with pytest.raises(InputError) as caught:
        read_crosstable_xlsx(buffer.getvalue(), "zip.xlsx")
    (problem,) = caught.value.problems
    assert problem.code == "xlsx-unreadable"
    assert problem.message.startswith("expected a readable XLSX workbook, got ")


# --- robustness ------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "Rk.",
                "SNo",
                "Name",
                "Rtg",
                "1.Rd",
                "2.Rd",
                "1",
                "2",
                "Pts.",
                "*",
                "½",
                "-1",
                "2w1",
                "1b0",
                "3s½",
                "9n=",
                "",
                "x",
                "0",
                "2482.0",
                "3,5",
                "#",
                "K",
                "rtg+/-",
            ]
        ),
        max_size=8,
    )
    .map(";".join)
    .map(lambda line: line + "\n"),
)
def test_any_text_raises_only_input_error(lines: str) -> None:
    text = "Rk.;SNo;Name;1.Rd;2.Rd;1;2;Pts.\n" + lines * 3
    try:
        event = read_crosstable_csv(text, "fuzz.csv")
    except InputError as error:
        problems = error.problems
    else:
        check_column_types(event)
        return
    assert problems


def test_last_update_bounds_the_end_date_when_no_date_row() -> None:
    # chess-results exports without a date row still carry the standings' date; rating
    # uses it for the rule set rather than today (fide-rules.md §8 preamble).
    text = (
        "Chess-Results Server Chess-results.com\n"
        "Offene Stadtmeisterschaft Schnellschach 2025\n"
        "Last update 12.04.2025 18:22:10\n"
        "Final Ranking crosstable after 1 Rounds\n"
        "Rk.;SNo;Name;FED;Rtg;1.Rd;Pts.\n"
        "1;1;Meier, Hans;GER;2210;2w1;1\n"
        "2;2;Huber, Karl;AUT;2250;1b0;0\n"
    )
    ev = read_crosstable_csv(text, "e.csv").events.row(0, named=True)
    assert (ev["start_date"], ev["end_date"], ev["list"]) == (None, date(2025, 4, 12), "rapid")
