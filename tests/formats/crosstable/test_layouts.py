"""Both crosstable orders chess-results writes, in every language of the vocabulary, with
events in progress, double forfeits and the spreadsheet's own cell types.

The forms are those of real exports (fide-rules.md §8, tests/fixtures/real, and exports
seen but not copyable): the starting-rank header ``No. | | Name | Rtg | FED | 1.Rd ... |
Pts. | Rk. | TB1``, round cells with leading blanks (`` 16w1``), a round paired but not
played yet (``  4w ``), a postponed game (`` 23b ``), a bare ``0``, ``Pts. `` with a
trailing blank, empty ranks for shared places, round-robin results typed as numbers in
XLSX with ``½`` as text. The event is the 6-player, 3-round Swiss of test_crosstable
(start numbers 1..6; final ranks: SNo 1, 2, 3, 6, 4, 5), and a 6-player round robin.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import openpyxl
import polars as pl
import pytest

from pipeline.formats.crosstable.read import (
    looks_like_crosstable,
    read_crosstable_csv,
    read_crosstable_xlsx,
)
from pipeline.ingest.detect import detect_kind
from pipeline.validate import check_event, describe_event
from schemas.ingest import Events, Games, Players
from tests.formats.crosstable.test_read import SWISS_GAMES, check_schemas, event_row, games_of

START_ORDER = """\
From the Tournament-Database of Chess-Results https://chess-results.com
Spring Rapid Open 2024
Last update 10.03.2024 18:01:44
Starting rank crosstable

No.;;Name;Rtg;FED;1.Rd;2.Rd;3.Rd;Pts. ;Rk.;TB1;TB2;TB3
1;FM;Berg Ana;2100;GER; 4w1; 2b½; 3w1;2,5;1;4,5;0;2
2;;Costa Ben;2000;POR; 5b1; 1w½; 4b1;2,5;2;4;0;2
3;;Dorn Cai;1900;AUT; 6w½; 5w+; 1b0;1,5;3;5;0;1
4;;Eck Dia;1800;GER; 1b0; 6b1; 2w0;1;5;6;0;1
5;;Falk Eli;1700;SUI; 2w0; 3b-;-0;0;6;5,5;0;0
6;WCM;Gill Fay;0;ENG; 3b½; 4w0;-1;1,5;;3,5;0;1

Annotation:
Tie Break1: Buchholz Tie-Break Variable (2023) (Gamepoints, Cut1)
You find all details to this tournament under  https://chess-results.com/tnr1.aspx?lan=1
Chess-Tournament-Results-Server: Chess-Results
"""

# The same starting-rank table in the other page languages: (first column, name,
# rating, federation, points, rank, tie-break, colour letter for black).
LANGUAGE_HEADERS = {
    "de": ("Nr.", "Name", "Elo", "Land", "Pkt.", "Rg.", "Wtg1", "s"),
    "es": ("No.", "Nombre", "Elo", "FED", "Pts.", "Rk.", "Des 1", "b"),
    "pt": ("Nº.", "Nome", "EloI", "FED", "Pts.", "Rk.", "Desp1", "b"),
    "fr": ("N°", "Nom", "Elo", "FED", "Pts.", "Rg.", "Dép1", "b"),
    "it": ("N.", "Nome", "Elo", "FED", "Punti", "Pos.", "Spar1", "b"),
    "nl": ("Nr.", "Naam", "Rtg", "FED", "Ptn.", "Pl.", "WP1", "b"),
    "ru": ("Ном.", "Имя", "Рейт.", "ФЕД.", "Очки", "Место", "Доп1", "b"),
}


def in_language(lang: str) -> str:
    first, name, rating, fed, points, rank, tb, black = LANGUAGE_HEADERS[lang]
    lines = START_ORDER.splitlines()
    head = lines.index(next(ln for ln in lines if ln.startswith("No.;")))
    header = f"{first};;{name};{rating};{fed};1.Rd;2.Rd;3.Rd;{points};{rank};{tb};TB2;TB3"
    body = [ln.replace("b", black) if black != "b" else ln for ln in lines[head + 1 : head + 7]]
    return "\n".join(["Spring Rapid Open 2024", header, *body]) + "\n"


def test_starting_rank_swiss_reads_the_same_games_as_the_final_ranking() -> None:
    event = read_crosstable_csv(START_ORDER, "start.csv")
    check_schemas(event)
    assert games_of(event) == SWISS_GAMES
    row = event_row(event)
    assert (row[str(Events.layout)], row[str(Events.opponent_ref)]) == (
        "starting-rank swiss",
        "start-number",
    )
    assert event.players[str(Players.start_no)].to_list() == [1, 2, 3, 4, 5, 6]
    # the rank column after the points; a shared place leaves it empty
    assert event.players[str(Players.rank)].to_list() == [1, 2, 3, 5, 6, None]
    assert event.players[str(Players.points)].to_list() == [2.5, 2.5, 1.5, 1.0, 0.0, 1.5]
    assert event.players[str(Players.title)].to_list() == ["FM", None, None, None, None, "WCM"]
    assert row[str(Events.rounds)] == 3
    assert check_event(event) == []  # mirrored, points agree, nothing to warn about
    assert describe_event(event) == (
        "crosstable (CSV), starting-rank Swiss, 6 players, 3 rounds, rapid list (declared: "
        "the event's name or title 'Spring Rapid Open 2024' names the rapid list)"
    )


@pytest.mark.parametrize("lang", sorted(LANGUAGE_HEADERS))
def test_starting_rank_in_every_language(lang: str) -> None:
    text = in_language(lang)
    assert looks_like_crosstable(text)
    event = read_crosstable_csv(text, f"{lang}.csv")
    assert games_of(event) == SWISS_GAMES
    assert event_row(event)[str(Events.layout)] == "starting-rank swiss"
    assert event.players[str(Players.rating)].to_list() == [2100, 2000, 1900, 1800, 1700, None]
    assert event.players[str(Players.points)].to_list() == [2.5, 2.5, 1.5, 1.0, 0.0, 1.5]


def test_semicolon_csv_is_recognised_as_a_crosstable_by_content() -> None:
    for text in (START_ORDER, in_language("it")):
        assert detect_kind(Path("event.csv"), text.encode("utf-8")) == "crosstable-csv"


# --- events in progress ------------------------------------------------------------------

IN_PROGRESS = """\
Autumn Open 2025
Time control (Standard) : 90 min + 30 sec
Last update 18.10.2025 21:02:11
Ranking crosstable after Round 2

Rk.;;Name;Rtg;FED;1.Rd;2.Rd;3.Rd;Pts. ;TB1
1;;Berg Ana;2100;GER;  3w1;  2b1;  4w ;2;0
2;;Costa Ben;2000;POR;  5b1;  1w0;  6b ;1;0
3;;Dorn Cai;1900;AUT;  1b0;  5w ;  5b ;0;0
4;;Eck Dia;1800;GER;  6w½;-1;  1b ;1,5;0
5;;Falk Eli;1700;SUI;  2w0;  3b ;  3w ;0;0
6;;Gill Fay;1600;ENG;  4b½;0;  2w ;0,5;0
"""
# Round 2: 3 v 5 postponed (paired, no result); 4 has the bye, 6 a bare 0.
# Round 3: paired, not played yet (3 v 5 again, the replay).


def test_paired_rounds_without_results_are_pending() -> None:
    event = read_crosstable_csv(IN_PROGRESS, "autumn.csv")
    check_schemas(event)
    pending = event.games.filter(pl.col(str(Games.code)) == "*")
    assert sorted(pending.select(str(Games.round), str(Games.start_no)).rows()) == [
        (2, 3), (2, 5), (3, 1), (3, 2), (3, 3), (3, 4), (3, 5), (3, 6),
    ]  # fmt: skip
    assert not pending[str(Games.played)].any()
    assert set(pending[str(Games.score)].to_list()) == {0.0}
    problems = check_event(event)
    # one warning for the event, naming the rounds; the points of finished rounds agree
    assert [(p.code, p.severity.value) for p in problems] == [("results-pending", "warning")]
    assert problems[0].message == (
        "expected a result for every paired game, got rounds 2 (1 game) and 3 (3 games) "
        "without one yet: those games are not rated (an event in progress)"
    )


def test_round_not_paired_yet_is_no_round() -> None:
    # a fourth round column with nothing in it yet: empty, '0' or '-' in every row
    fourth = iter(["4.Rd", "", "0", "-", "", " ", "0"])
    lines = []
    for line in IN_PROGRESS.splitlines():
        cells = line.split(";")
        if len(cells) > 8:
            cells.insert(8, next(fourth))  # after 3.Rd
        lines.append(";".join(cells))
    event = read_crosstable_csv("\n".join(lines) + "\n", "autumn.csv")
    assert event.games[str(Games.round)].max() == 3
    assert event_row(event)[str(Events.rounds)] == 4
    codes = {p.code for p in check_event(event)}
    assert codes == {"results-pending", "rounds-missing"}


# --- double forfeits --------------------------------------------------------------------

DOUBLE_FORFEIT = """\
Club Blitz 2025
Rk.;;Name;Rtg;FED;1.Rd;2.Rd;Pts.
1;;Berg Ana;2100;GER; 4w1; 2b1;2
2;;Costa Ben;2000;POR; 3b1; 1w0;1
3;;Dorn Cai;1900;AUT; 2w0; 4b-;0
4;;Eck Dia;1800;GER; 1b0; 3w-;0
"""


def test_double_forfeit_is_a_valid_result_and_no_game() -> None:
    event = read_crosstable_csv(DOUBLE_FORFEIT, "df.csv")
    rows = event.games.filter(pl.col(str(Games.round)) == 2, pl.col(str(Games.start_no)) > 2)
    assert rows.select(str(Games.opponent_no), str(Games.code), str(Games.score)).rows() == [
        (4, "-", 0.0),
        (3, "-", 0.0),
    ]
    assert check_event(event) == []


# --- round robins -------------------------------------------------------------------------

ROBIN_NAMES = ["Amsel Tara", "Brunner Ivo", "Conti Lea", "Dahl Nils", "Ebner Mia", "Frey Otto"]
# start-number order; row i, column j: the result of player i+1 against player j+1
ROBIN: list[list[Any]] = [
    ["*", 1, "½", 1, "+", 0],
    [0, "*", 0, "½", 1, 1],
    ["½", 1, "*", None, 0, "½"],  # 3 v 4 not played yet
    [0, "½", None, "*", 1, 1],
    ["-", 0, 1, 0, "*", "½"],
    [1, 0, "½", 0, "½", "*"],
]


def robin_workbook(title: str = "Starting rank crosstable") -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["From the Tournament-Database of Chess-Results https://chess-results.com"])
    sheet.append(["Club Championship 2025"])
    sheet.append(["Time control (Standard) : 90 min + 30 sec"])
    sheet.append(["Date : 2025/01/10 to 2025/03/14"])
    sheet.append(["Last update 14.03.2025 22:10:05"])
    sheet.append([title])
    sheet.append(["No.", None, "Name", "Rtg", "FED", 1, 2, 3, 4, 5, 6, "Pts.", "Rk.", "TB1"])
    points = [3.5, 2.5, 2.0, 2.5, 1.5, 2.0]
    ranks = [1, 2, 4, 3, 6, 5]
    for i, (name, cells) in enumerate(zip(ROBIN_NAMES, ROBIN, strict=True)):
        sheet.append([i + 1, None, name, 2000 - 50 * i, "AUT", *cells, points[i], ranks[i], 0])
    sheet.append([])
    sheet.append(["Annotation:"])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_starting_rank_round_robin_xlsx_with_numbers() -> None:
    event = read_crosstable_xlsx(robin_workbook(), "club.xlsx")
    check_schemas(event)
    row = event_row(event)
    assert row[str(Events.layout)] == "starting-rank round-robin"
    assert row[str(Events.opponent_ref)] == "start-number"
    assert row[str(Events.list)] == "standard"
    assert (row[str(Events.start_date)].isoformat(), row[str(Events.end_date)].isoformat()) == (
        "2025-01-10",
        "2025-03-14",
    )
    pairs = {
        (r[str(Games.start_no)], r[str(Games.opponent_no)]): (r[str(Games.code)], r["score"])
        for r in event.games.iter_rows(named=True)
    }
    assert pairs[(1, 2)] == ("1", 1.0)
    assert pairs[(2, 1)] == ("0", 0.0)
    assert pairs[(1, 3)] == ("=", 0.5)
    assert pairs[(1, 5)] == ("+", 1.0)
    assert pairs[(5, 1)] == ("-", 0.0)
    assert (3, 4) not in pairs  # not played yet: no game
    assert len(pairs) == 6 * 5 - 2
    assert check_event(event) == []
    assert describe_event(event) == (
        "crosstable (XLSX), starting-rank round robin, 6 players, 5 rounds, standard list "
        "(time control: '90 min + 30 sec' is 90 min + 30 s a move: 120 min for 60 moves, "
        "standard (the time-control line))"
    )


def test_round_robin_rounds_never_fewer_than_the_berger_numbers() -> None:
    # "after 3 Rounds" of 5: the file does not say which game was in which round
    event = read_crosstable_xlsx(robin_workbook("Final Ranking crosstable after 3 Rounds"), "x")
    assert event_row(event)[str(Events.rounds)] == event.games[str(Games.round)].max()
    assert not [p for p in check_event(event) if p.is_error]


# --- what the table ends at ---------------------------------------------------------------


def test_table_ends_at_the_first_non_player_row() -> None:
    # no blank row before the trailer, whose link a spreadsheet copied into every cell
    link = "https://chess-results.com/tnr1.aspx?lan=1"
    trailer = f"You find all details to this tournament under  {link}" + f";{link}" * 12
    text = START_ORDER.replace("\n\nAnnotation:", f"\n{trailer}\nAnnotation:")
    event = read_crosstable_csv(text, "t.csv")
    assert event.players.height == 6
    assert games_of(event) == SWISS_GAMES


@pytest.mark.parametrize(
    ("drop", "present"),
    [("Rtg", "federation"), ("FED", "rating")],
)
def test_a_missing_column_is_no_problem(drop: str, present: str) -> None:
    lines = START_ORDER.splitlines()
    head = next(i for i, ln in enumerate(lines) if ln.startswith("No.;"))
    index = lines[head].split(";").index(drop)
    for i in range(head, head + 7):
        cells = lines[i].split(";")
        del cells[index]
        lines[i] = ";".join(cells)
    event = read_crosstable_csv("\n".join(lines) + "\n", "m.csv")
    assert games_of(event) == SWISS_GAMES
    assert event.players[getattr(Players, present)].drop_nulls().len() >= 5


def test_layout_is_null_for_other_formats() -> None:
    from pipeline.formats.trf.read import read_trf

    text = "012 T\n001    1      A, B                              2000\n"
    assert read_trf(text, "t.trf").events[str(Events.layout)].to_list() == [None]
