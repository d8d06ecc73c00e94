"""The games CSV reader (pipeline.formats.games_csv.read) and its companion players CSV.

Result codes follow the TRF conventions of fide-rules.md §8 (`1` `=` `0` played, `+` `-`
forfeits, `U` pairing-allocated bye worth a win, `H` half-point bye, `Z` zero-point bye);
the accepted spellings are the module's documented contract. People are invented.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import polars as pl
import pytest

from pipeline.errors import InputError, Severity
from pipeline.formats.games_csv.read import (
    find_players_file,
    looks_like_games_csv,
    looks_like_players_csv,
    read_games_csv,
)
from pipeline.formats.model import EventData
from schemas.ingest import Events, Games, Players
from tests.conftest import ROOT

PLAYERS = """id,name,fide_id,rating,federation,title,sex,birth_year
a1,"Brenner, Ilse",4100018,2105,aut,WFM,w,1994
b2,"Osei, Kwame",,0,GHA,,m,
c3,"Lindqvist, Per",700123,1890,SWE,,M,1971
d4,"Varga, Eszter",13300412,1650,HUN,,f,2008
"""


def read(games: str, players: str | None = PLAYERS) -> list[EventData]:
    return read_games_csv(games, "games.csv", players, None if players is None else "p.csv")


def one(games: str, players: str | None = PLAYERS) -> EventData:
    (event,) = read(games, players)
    return event


def sides(event: EventData) -> list[tuple[int, int, int | None, str | None, str, float, bool]]:
    """(round, start_no, opponent_no, colour, code, score, played) in frame order."""
    g = event.games
    return list(
        zip(
            g[str(Games.round)].to_list(),
            g[str(Games.start_no)].to_list(),
            g[str(Games.opponent_no)].to_list(),
            g[str(Games.colour)].to_list(),
            g[str(Games.code)].to_list(),
            g[str(Games.score)].to_list(),
            g[str(Games.played)].to_list(),
            strict=True,
        )
    )


def problems_of(
    error: pytest.ExceptionInfo[InputError],
) -> list[tuple[str, int | None, str | None, str]]:
    return [
        (p.location.file, p.location.line, p.location.column, p.code) for p in error.value.problems
    ]


# --- results ----------------------------------------------------------------------------

GAME_RESULTS = [
    # (written, white code, black code, white score, black score, rated)
    ("1-0", "1", "0", 1.0, 0.0, True),
    ("0-1", "0", "1", 0.0, 1.0, True),
    ("1:0", "1", "0", 1.0, 0.0, True),
    ("½-½", "=", "=", 0.5, 0.5, True),
    ("1/2-1/2", "=", "=", 0.5, 0.5, True),
    ("0.5-0.5", "=", "=", 0.5, 0.5, True),
    ("=", "=", "=", 0.5, 0.5, True),
    ("½:½", "=", "=", 0.5, 0.5, True),
    ("1F-0F", "+", "-", 1.0, 0.0, False),
    ("1f-0f", "+", "-", 1.0, 0.0, False),
    ("0F-1F", "-", "+", 0.0, 1.0, False),
    ("+:-", "+", "-", 1.0, 0.0, False),
    ("-:+", "-", "+", 0.0, 1.0, False),
    ("+ - -", "+", "-", 1.0, 0.0, False),
    ("- - +", "-", "+", 0.0, 1.0, False),
    ("0F-0F", "-", "-", 0.0, 0.0, False),
    ("-:-", "-", "-", 0.0, 0.0, False),
    ("- - -", "-", "-", 0.0, 0.0, False),
]


@pytest.mark.parametrize(
    ("written", "white", "black", "white_score", "black_score", "played"),
    GAME_RESULTS,
    ids=[r[0] for r in GAME_RESULTS],
)
def test_game_results_are_mirrored(
    written: str, white: str, black: str, white_score: float, black_score: float, played: bool
) -> None:
    event = one(f"event,round,white,black,result\nLeague,1,c3,a1,{written}\n")
    # start numbers follow the players CSV: a1 -> 1, c3 -> 2
    assert sides(event) == [
        (1, 1, 2, "b", black, black_score, played),
        (1, 2, 1, "w", white, white_score, played),
    ]
    assert event.games[str(Games.line)].to_list() == [2, 2]
    assert event.games[str(Games.column)].to_list() == ["result", "result"]


BYES = [("1", "U", 1.0), ("+", "U", 1.0), ("½", "H", 0.5), ("1/2", "H", 0.5), ("0.5", "H", 0.5)]
BYES += [("=", "H", 0.5), ("0", "Z", 0.0), ("-", "Z", 0.0)]


@pytest.mark.parametrize(("written", "code", "score"), BYES, ids=[b[0] for b in BYES])
@pytest.mark.parametrize("black", ["", "bye", "BYE"])
def test_bye_rows(written: str, code: str, score: float, black: str) -> None:
    event = one(f"event,round,white,black,result\nLeague,2,b2,{black},{written}\n")
    assert sides(event) == [(2, 1, None, None, code, score, False)]


def test_unknown_results() -> None:
    games = "event,round,white,black,result\nL,1,a1,b2,2-0\nL,1,c3,,1-0\nL,2,a1,b2,1-1\n"
    with pytest.raises(InputError) as error:
        read(games)
    assert problems_of(error) == [
        ("games.csv", 2, "result", "bad-result"),
        ("games.csv", 3, "result", "bad-result"),
        ("games.csv", 4, "result", "bad-result"),
    ]
    first, bye, _ = error.value.problems
    assert first.message.startswith("expected one of 1-0, 0-1, ½-½, 1/2-1/2,")
    assert first.message.endswith(", got '2-0'")
    assert (
        bye.message
        == "expected a bye result (one of 1, +, ½, 1/2, 0.5, =, 0, -) as black is empty, got '1-0'"
    )


# --- events, players, start numbers -----------------------------------------------------

LEAGUE = """Event;Round;White;Black;Result;Date;List;Board
Spring League;1;d4;b2;1-0;2026-03-02;Standard;1
Spring League;1;c3;a1;½-½;2026-03-02;standard;2
Spring Rapid;1;a1;d4;0-1;2026-03-07;rapid;1
Spring League;2;a1;d4;1-0;2026-03-16;;1
Spring League;2;b2;;1;2026-03-16;;
"""


def test_one_event_per_event_value() -> None:
    league, rapid = read(LEAGUE)
    ev = league.events.row(0, named=True)
    assert ev[str(Events.event_id)] == "games.csv#Spring League"
    assert (ev[str(Events.name)], ev[str(Events.source)], ev[str(Events.file)]) == (
        "Spring League",
        "games-csv",
        "games.csv",
    )
    assert (ev[str(Events.list)], ev[str(Events.list_source)]) == ("standard", "column")
    assert (ev[str(Events.start_date)], ev[str(Events.end_date)]) == (
        date(2026, 3, 2),
        date(2026, 3, 16),
    )
    assert ev[str(Events.rounds)] == 2
    assert rapid.events[str(Events.list)].to_list() == ["rapid"]
    assert rapid.events[str(Events.event_id)].to_list() == ["games.csv#Spring Rapid"]
    assert league.problems == []


def test_start_numbers_follow_the_players_csv_and_keep_the_ids() -> None:
    league, rapid = read(LEAGUE)
    players = league.players
    assert players["player_id"].to_list() == ["a1", "b2", "c3", "d4"]
    assert players[str(Players.start_no)].to_list() == [1, 2, 3, 4]
    assert players[str(Players.name)].to_list()[0] == "Brenner, Ilse"
    assert players[str(Players.fide_id)].to_list() == [4100018, None, 700123, 13300412]
    assert players[str(Players.rating)].to_list() == [2105, None, 1890, 1650]  # 0 = unrated
    assert players[str(Players.federation)].to_list() == ["AUT", "GHA", "SWE", "HUN"]
    assert players[str(Players.sex)].to_list() == ["w", "m", "m", "w"]
    assert players[str(Players.birth_year)].to_list() == [1994, None, 1971, 2008]
    assert players[str(Players.line)].to_list() == [3, 2, 3, 2]  # first games-CSV line
    assert rapid.players["player_id"].to_list() == ["a1", "d4"]
    assert rapid.players[str(Players.start_no)].to_list() == [1, 2]


def test_games_frame_of_the_league() -> None:
    league, _ = read(LEAGUE)
    assert sides(league) == [
        (1, 1, 3, "b", "=", 0.5, True),
        (2, 1, 4, "w", "1", 1.0, True),
        (1, 2, 4, "b", "0", 0.0, True),
        (2, 2, None, None, "U", 1.0, False),
        (1, 3, 1, "w", "=", 0.5, True),
        (1, 4, 2, "w", "1", 1.0, True),
        (2, 4, 1, "b", "0", 0.0, True),
    ]
    assert league.games[str(Games.column)].unique().to_list() == ["Result"]


def test_mixed_lists_leave_the_list_open_with_a_warning() -> None:
    games = "event,round,white,black,result,list\nL,1,a1,b2,1-0,standard\nL,2,b2,a1,1-0,rapid\n"
    event = one(games)
    assert event.events[str(Events.list)].to_list() == [None]
    (warning,) = event.problems
    assert (warning.code, warning.severity, warning.location.line) == (
        "list-ambiguous",
        Severity.WARNING,
        2,
    )


def test_without_players_csv_the_ids_are_fide_ids() -> None:
    games = "event,round,white,black,result\nL,1,700123,4100018,0-1\nL,2,4100018,,1\n"
    event = one(games, players=None)
    assert event.players[str(Players.fide_id)].to_list() == [700123, 4100018]
    assert event.players[str(Players.name)].to_list() == ["700123", "4100018"]
    assert event.players[str(Players.start_no)].to_list() == [1, 2]  # first appearance
    with pytest.raises(InputError) as error:
        read("event,round,white,black,result\nL,1,a1,4100018,0-1\n", players=None)
    assert problems_of(error) == [("games.csv", 2, "white", "bad-fide-id")]


# --- problems ---------------------------------------------------------------------------


def test_missing_required_columns() -> None:
    with pytest.raises(InputError) as error:
        read("event,round,white,result\nL,1,a1,1-0\n")
    assert problems_of(error) == [("games.csv", 1, None, "missing-column")]
    assert error.value.problems[0].message == (
        "expected a column 'black', got event, round, white, result"
    )


ROW_PROBLEMS = [
    ("L,0,a1,b2,1-0", "Round", "bad-round"),
    ("L,x,a1,b2,1-0", "Round", "bad-round"),
    ("L,1,zz,b2,1-0", "White", "unknown-player"),
    ("L,1,a1,zz,1-0", "Black", "unknown-player"),
    ("L,1,,b2,1-0", "White", "missing-player"),
    (",1,a1,b2,1-0", "Event", "missing-event"),
    ("L,1,a1,a1,1-0", "Black", "same-player"),
    ("L,1,a1,b2,1-0,someday", "Date", "bad-date"),
    ("L,1,a1,b2,1-0,03/04/2026", "Date", "ambiguous-date"),  # 3 April or 4 March
    ("L,1,a1,b2,1-0,2026-02-30", "Date", "bad-date"),
    ("L,1,a1,b2,1-0,,classical", "List", "bad-list"),
    ("L,1,a1,b2,1-0,,,first", "Board", "bad-board"),
    ("L,1,a1,b2,1-0,,,,extra", None, "ragged-row"),
]


@pytest.mark.parametrize(
    ("cells", "column", "code"), ROW_PROBLEMS, ids=[p[2] + ":" + p[0] for p in ROW_PROBLEMS]
)
def test_row_problems(cells: str, column: str | None, code: str) -> None:
    with pytest.raises(InputError) as error:
        read(f"Event,Round,White,Black,Result,Date,List,Board\nL,1,c3,d4,1-0\n{cells}\n")
    assert problems_of(error) == [("games.csv", 3, column, code)]


def test_player_twice_in_a_round_names_the_first_line() -> None:
    games = "event,round,white,black,result\nL,1,a1,b2,1-0\nL,1,c3,d4,1-0\nL,1,b2,c3,0-1\n"
    with pytest.raises(InputError) as error:
        read(games)
    assert problems_of(error) == [
        ("games.csv", 4, "black", "player-twice-in-round"),
        ("games.csv", 4, "white", "player-twice-in-round"),
    ]
    assert error.value.problems[1].message == (
        "expected player 'b2' once in round 1, got a second game (first on line 2)"
    )


def test_all_problems_of_both_files_are_collected() -> None:
    players = "id,name,rating\na1,Alpha,2000\na1,Again,1900\nb2,,19x0\n"
    games = "event,round,white,black,result\nL,1,a1,b2,9-9\nL,0,a1,b2,1-0\n"
    with pytest.raises(InputError) as error:
        read(games, players)
    assert problems_of(error) == [
        ("games.csv", 2, "result", "bad-result"),
        ("games.csv", 3, "round", "bad-round"),
        ("p.csv", 3, "id", "duplicate-player-id"),
        ("p.csv", 4, "name", "missing-name"),
        ("p.csv", 4, "rating", "bad-number"),
    ]


def test_players_csv_needs_id_and_name() -> None:
    with pytest.raises(InputError) as error:
        read("event,round,white,black,result\nL,1,a1,b2,1-0\n", "id,rating\na1,2000\n")
    assert problems_of(error) == [("p.csv", 1, None, "missing-column")]


def test_quoted_cells_and_line_numbers_with_blank_lines() -> None:
    games = 'event,round,white,black,result\n\n"League, North",1,a1,b2,"1-0"\n\nL2,1,a1,b2,x\n'
    with pytest.raises(InputError) as error:
        read(games)
    assert problems_of(error) == [("games.csv", 5, "result", "bad-result")]


# --- discovery and sniffing -------------------------------------------------------------


@pytest.mark.parametrize(
    ("present", "expected"),
    [
        (["league.players.csv", "league_players.csv", "players.csv"], "league.players.csv"),
        (["league_players.csv", "players.csv"], "league_players.csv"),
        (["players.csv"], "players.csv"),
        (["League.Players.CSV"], "League.Players.CSV"),
        (["other.players.csv"], None),
        ([], None),
    ],
)
def test_find_players_file(tmp_path: Path, present: list[str], expected: str | None) -> None:
    games = tmp_path / "league.csv"
    games.write_text("event,round,white,black,result\n")
    for name in present:
        (tmp_path / name).write_text("id,name\n")
    found = find_players_file(games)
    assert (found.name if found else None) == expected


def test_games_file_named_players_is_not_its_own_companion(tmp_path: Path) -> None:
    games = tmp_path / "players.csv"
    games.write_text("event,round,white,black,result\n")
    assert find_players_file(games) is None


@pytest.mark.parametrize(
    ("text", "games", "players"),
    [
        ("event,round,white,black,result\n", True, False),
        ("\ufeffEVENT;ROUND;WHITE;BLACK;RESULT;DATE\n", True, False),
        ("id,name,fide_id,rating\n", False, True),
        ("id;Name\n", False, True),
        ("fideid,name,rating\n", False, False),
        ("Rk.;SNo;Name;FED;Rtg;1.Rd\n", False, False),
    ],
)
def test_sniffing(text: str, games: bool, players: bool) -> None:
    assert looks_like_games_csv(text) is games
    assert looks_like_players_csv(text) is players


def test_sample_league(tmp_path: Path) -> None:
    root = ROOT / "samples" / "events"
    games_path = root / "2026-11-club-league.csv"
    if not games_path.exists():
        pytest.skip("no samples in this clone")
    players_path = find_players_file(games_path)
    assert players_path is not None
    (event,) = read_games_csv(
        games_path.read_text(), str(games_path), players_path.read_text(), str(players_path)
    )
    assert event.events[str(Events.rounds)].to_list() == [6]
    assert event.events[str(Events.list)].to_list() == ["standard"]
    played = event.games.filter(pl.col(str(Games.played)))
    assert played.height % 2 == 0


def test_frames_follow_the_ingest_schemas() -> None:
    for event in read(LEAGUE):
        Events.validate(event.events)
        Players.validate(event.players)
        Games.validate(event.games)


def test_numbers_too_large_for_a_field_are_problems_not_crashes() -> None:
    # Found by the fuzz test: a 20-digit round or a 24-digit FIDE ID.
    games = "event,round,white,black,result\nE,99999999999999999999,1,2,1-0\n"
    players = "id,name,fide_id\n1,A,200399999999999999999999\n2,B,\n"
    with pytest.raises(InputError) as caught:
        read_games_csv(games, "g.csv", players, "p.csv")
    codes = {(p.location.file, p.location.line, p.code) for p in caught.value.problems}
    assert ("p.csv", 2, "bad-number") in codes
    assert ("g.csv", 2, "bad-round") in codes
