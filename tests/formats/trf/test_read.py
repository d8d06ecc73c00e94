"""The TRF reader and writer (fide-rules.md §8 "TRF"; FIDE TRF16 2015 and TRF26 2025).

Column numbers are the specification's: 1-based, inclusive. Names are invented.
"""

from __future__ import annotations

import json
from datetime import date

import polars as pl
import pytest

from pipeline.errors import InputError, Location, Problem, Severity
from pipeline.formats.trf.read import looks_like_trf, read_trf, scoring_from_trf
from schemas.ingest import Events, Games, Players

FILE = "spring.trf"


def c(column: object) -> str:
    """A column name from a schema model attribute (`Games.round` -> "round")."""
    return str(column)


def p001(
    no: object,
    sex: str,
    title: str,
    name: str,
    rating: object,
    fed: str,
    fide: object,
    birth: str,
    points: str,
    rank: object,
    *slots: str,
) -> str:
    """A 001 line built from the specification's columns (independent of the writer):
    5-8 start, 10 sex, 11-13 title, 15-47 name, 49-52 rating, 54-56 federation,
    58-68 FIDE ID, 70-79 birth date, 81-84 points, 86-89 rank, rounds from 92, 10 apart."""
    head = (
        f"001 {no!s:>4} {sex:1}{title:>3} {name:<33} {rating!s:>4} {fed:<3} {fide!s:>11} "
        f"{birth:<10} {points:>4} {rank!s:>4}  "
    )
    assert len(head) == 91
    return head + "  ".join(slots)


HEADER = [
    "012 Lakeside Spring Open",
    "022 Lakeside",
    "032 NOR",
    "042 2025/03/01",
    "052 2025/03/02",
    "092 Individual: Swiss-System",
    "122 90 min + 30 sec",
    "XXR 3",
]
# R1: 1-3 1-0, 2-4 (2 black) 1-0; R2: 2-1 draw, 3-4 forfeit (colour '-');
# R3: 2-3 0-1, 1 pairing-allocated bye, 4 absent (blank slot).
PLAYERS = [
    p001(1, "m", "g", "Alder, Brynja", 2405, "NOR", 1503014, "1990/04/12", "2.5", 1,
         "   3 w 1", "   2 b =", "0000 - U"),
    p001(2, "f", "wf", "Birch, Carla", 2210, "SWE", 1700123, "2001", "1,5", 3,
         "   4 b 1", "   1 w =", "   3 w 0"),
    p001(3, "m", "", "Cedar, Dag", 1985, "", 0, "1969.12.06", "2.0", 2,
         "   1 b 0", "   4 - +", "   2 b 1"),
    p001(4, "w", "WIM", "Dogwood, Eira", 0, "NOR", "", "", "0.0", 0,
         "   2 w 0", "   3 - -"),
]  # fmt: skip
SAMPLE = "\n".join(HEADER + PLAYERS) + "\n"
FIRST_PLAYER_LINE = len(HEADER) + 1


def with_line(index: int, replacement: str) -> str:
    """SAMPLE with player line `index` (0-based) replaced."""
    players = list(PLAYERS)
    players[index] = replacement
    return "\n".join(HEADER + players) + "\n"


def patch(line: str, first: int, text: str) -> str:
    """`line` with `text` written from 1-based column `first`."""
    line = line.ljust(first - 1 + len(text))
    return line[: first - 1] + text + line[first - 1 + len(text) :]


def problems_of(text: str) -> list[Problem]:
    with pytest.raises(InputError) as caught:
        read_trf(text, FILE)
    return caught.value.problems


# --- the inline sample --------------------------------------------------------------------


def test_sample_frames_follow_the_schemas() -> None:
    event = read_trf(SAMPLE, FILE)
    Events.validate(event.events)
    Players.validate(event.players)
    Games.validate(event.games)
    assert event.problems == []


def test_sample_event_row() -> None:
    row = read_trf(SAMPLE, FILE).events.row(0, named=True)
    assert row == {
        c(Events.event_id): FILE,
        c(Events.file): FILE,
        c(Events.name): "Lakeside Spring Open",
        c(Events.source): "trf26",  # 042 written YYYY/MM/DD
        c(Events.list): "standard",  # 122: 90 min + 60 x 30 s = 120 min
        c(Events.list_source): "122",
        c(Events.list_reason): "'90 min + 30 sec' is 90 min + 30 s a move: 120 min for 60 "
        "moves, standard (TRF 122)",
        c(Events.start_date): date(2025, 3, 1),
        c(Events.end_date): date(2025, 3, 2),
        c(Events.rounds): 3,
        c(Events.city): "Lakeside",
        c(Events.federation): "NOR",
        c(Events.time_control): "90 min + 30 sec",
        c(Events.opponent_ref): None,
        c(Events.layout): None,
        "scoring": None,
        c(Events.chief_arbiter): None,
        c(Events.deputy_arbiters): None,
        c(Events.period): None,  # an officer's decision only (--events)
        c(Events.event_type): None,  # likewise
    }


def test_arbiters_read_from_records_102_and_112() -> None:
    lines = SAMPLE.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("122"))
    arbiters = [
        "102 IA Mikel Larreategi Arana (22232540)",
        "112 FA Ana Ruiz (123)",
        "112",
        "112  NA Bo Li ",
    ]
    text = "\n".join([*lines[:at], *arbiters, *lines[at:]]) + "\n"
    row = read_trf(text, FILE).events.row(0, named=True)
    assert row[c(Events.chief_arbiter)] == "IA Mikel Larreategi Arana (22232540)"
    assert row[c(Events.deputy_arbiters)] == "FA Ana Ruiz (123)\nNA Bo Li"  # a blank 112 left out


def test_sample_players() -> None:
    players = read_trf(SAMPLE, FILE).players
    columns = [
        c(Players.start_no), c(Players.name), c(Players.sex), c(Players.title), c(Players.rating),
        c(Players.federation), c(Players.fide_id), c(Players.birth_year), c(Players.points),
        c(Players.rank), c(Players.line),
    ]  # fmt: skip
    assert players.select(columns).rows() == [
        (1, "Alder, Brynja", "m", "GM", 2405, "NOR", 1503014, 1990, 2.5, 1, 9),
        (2, "Birch, Carla", "w", "WFM", 2210, "SWE", 1700123, 2001, 1.5, 3, 10),
        (3, "Cedar, Dag", "m", None, 1985, None, None, 1969, 2.0, 2, 11),
        (4, "Dogwood, Eira", "w", "WIM", None, "NOR", None, None, 0.0, None, 12),
    ]


def test_sample_games() -> None:
    games = read_trf(SAMPLE, FILE).games
    columns = [
        c(Games.start_no), c(Games.round), c(Games.opponent_no), c(Games.colour), c(Games.code),
        c(Games.score), c(Games.played), c(Games.line), c(Games.column),
    ]  # fmt: skip
    assert games.select(columns).rows() == [
        (1, 1, 3, "w", "1", 1.0, True, 9, "92-101"),
        (1, 2, 2, "b", "=", 0.5, True, 9, "102-111"),
        (1, 3, None, None, "U", 1.0, False, 9, "112-121"),
        (2, 1, 4, "b", "1", 1.0, True, 10, "92-101"),
        (2, 2, 1, "w", "=", 0.5, True, 10, "102-111"),
        (2, 3, 3, "w", "0", 0.0, True, 10, "112-121"),
        (3, 1, 1, "b", "0", 0.0, True, 11, "92-101"),
        (3, 2, 4, None, "+", 1.0, False, 11, "102-111"),  # forfeit, colour '-'
        (3, 3, 2, "b", "1", 1.0, True, 11, "112-121"),
        (4, 1, 2, "w", "0", 0.0, True, 12, "92-101"),
        (4, 2, 3, None, "-", 0.0, False, 12, "102-111"),
        (4, 3, None, None, "Z", 0.0, False, 12, "112-121"),  # slot beyond the line: absent
    ]


@pytest.mark.parametrize(
    ("slot", "opponent", "colour", "code", "score", "played"),
    [
        ("  12 w 1", 12, "w", "1", 1.0, True),
        ("  12 B =", 12, "b", "=", 0.5, True),  # letters are case-insensitive
        ("  12 b 0", 12, "b", "0", 0.0, True),
        ("  12 - +", 12, None, "+", 1.0, False),  # forfeit with a real opponent
        ("  12 w -", 12, "w", "-", 0.0, False),
        ("  12 w w", 12, "w", "W", 1.0, False),  # game of less than one move
        ("  12 b d", 12, "b", "D", 0.5, False),
        ("  12 w L", 12, "w", "L", 0.0, False),
        ("0000 - H", None, None, "H", 0.5, False),  # half-point bye
        ("     - F", None, None, "F", 1.0, False),  # full-point bye, blank opponent
        ("       U", None, None, "U", 1.0, False),
        ("0000 - Z", None, None, "Z", 0.0, False),
        ("0000 - +", None, None, "+", 1.0, False),  # bye written as a forfeit win
        ("0000 -  ", None, None, "Z", 0.0, False),  # blank result, no opponent: absent
        ("        ", None, None, "Z", 0.0, False),
    ],
)
def test_round_slot_codes(
    slot: str, opponent: int | None, colour: str | None, code: str, score: float, played: bool
) -> None:
    """Result codes of §8: 1 = 0 played; + - forfeits; W D L under one move; H F U Z byes;
    score under the standard 1 / ½ / 0 scoring."""
    line = p001(1, "m", "", "Alder, Brynja", 2405, "NOR", 1, "", "", "", slot, "0000 - Z")
    row = read_trf(f"012 T\n{line}\n", FILE).games.row(0, named=True)
    assert (row[c(Games.opponent_no)], row[c(Games.colour)], row[c(Games.code)]) == (
        opponent,
        colour,
        code,
    )
    assert (row[c(Games.score)], row[c(Games.played)]) == (score, played)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("\ufeff" + SAMPLE, "utf-8 BOM"),
        (SAMPLE.replace("\n", "\r\n"), "CRLF"),
        (SAMPLE.replace("\n", "\r"), "CR"),
        ("\n".join(line + "      " for line in HEADER + PLAYERS), "trailing blanks"),
        ("###\n" + SAMPLE.replace("\n", "\n\n"), "comments and blank lines"),
    ],
    ids=lambda value: value if len(value) < 30 else "",
)
def test_line_ends_and_padding_do_not_matter(text: str, name: str) -> None:
    reference = read_trf(SAMPLE, FILE)
    event = read_trf(text, FILE)
    columns = [name for name in reference.games.columns if name != c(Games.line)]
    assert event.games.select(columns).equals(reference.games.select(columns)), name
    assert event.players.drop(c(Players.line)).equals(reference.players.drop(c(Players.line)))


# --- tournament records --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("records", "source"),
    [
        (["042 28. 07. 2005"], "trf16"),
        (["042 2025/03/01"], "trf26"),
        (["### ruler"], "trf26"),
        *[([f"{code} x"], "trf26") for code in ("142", "152", "162", "172", "192", "202")],
        (["222 5400+30"], "trf26"),
        (["352 WBWB"], "trf26"),
        (["362 TW 2     TD 1     TL 0"], "trf26"),
        (["XXR 9"], "trf16"),
    ],
)
def test_source_detection(records: list[str], source: str) -> None:
    text = "\n".join(["012 T", *records, PLAYERS[0]]) + "\n"
    assert read_trf(text, FILE).events[c(Events.source)][0] == source


@pytest.mark.parametrize(
    ("records", "rounds"),
    [
        ([], 3),  # the last round slot used in the 001 lines
        (["XXR 9"], 9),
        (["142 14"], 14),
        (["132" + " " * 88 + "25/03/01  25/03/02  25/03/03  25/03/04"], 4),
        (["XXR 2"], 3),  # never fewer than the rounds played
    ],
)
def test_rounds(records: list[str], rounds: int) -> None:
    text = "\n".join(["012 T", *records, *PLAYERS]) + "\n"
    assert read_trf(text, FILE).events[c(Events.rounds)][0] == rounds


def _record_132(*slots: str) -> str:
    """Record 132 with each text in its round's slot (column 92, 10 apart)."""
    return ("132".ljust(91) + "".join(s.ljust(10) for s in slots)).rstrip()


@pytest.mark.parametrize(
    ("start", "slots", "dates"),
    [
        ("042 2025/03/01", ["25/03/01", "25/03/01", "25/03/02"],
         (date(2025, 3, 1), date(2025, 3, 1), date(2025, 3, 2))),  # two rounds a day
        ("042 2025/03/01", ["25/03/01", "", "25/03/03"],
         (date(2025, 3, 1), None, date(2025, 3, 3))),  # a round without its date
        ("042 2025/03/01", ["2025/03/01", "2025/03/02"], (date(2025, 3, 1), date(2025, 3, 2))),
        ("042 1998/12/30", ["98/12/30", "99/01/02"], (date(1998, 12, 30), date(1999, 1, 2))),
        ("042 1999/12/31", ["99/12/31", "00/01/01"], (date(1999, 12, 31), date(2000, 1, 1))),
        ("", ["31/01/05"], (date(2031, 1, 5),)),  # no start: this century
        ("042 2025/03/01", [], ()),  # a blank 132
    ],
)  # fmt: skip
def test_round_dates(start: str, slots: list[str], dates: tuple[date | None, ...]) -> None:
    text = "\n".join(["012 T", *([start] if start else []), _record_132(*slots), *PLAYERS])
    event = read_trf(text + "\n", FILE)
    assert event.round_dates == dates
    assert event.problems == []


def test_round_dates_out_of_their_columns_are_taken_in_order() -> None:
    record = "132".ljust(91) + "25/03/01 25/03/01 25/03/02 25/03/03"  # one blank apart
    event = read_trf("\n".join(["012 T", "042 2025/03/01", record, *PLAYERS]) + "\n", FILE)
    assert event.round_dates == (
        date(2025, 3, 1), date(2025, 3, 1), date(2025, 3, 2), date(2025, 3, 3),
    )  # fmt: skip
    assert event.events[c(Events.rounds)][0] == 4
    assert event.problems == []


def test_an_unreadable_round_date_is_a_warning_naming_its_slot() -> None:
    text = "\n".join(["012 T", _record_132("25/03/01", "25/13/01", "tomorrow"), *PLAYERS])
    event = read_trf(text + "\n", FILE)
    assert event.round_dates == (date(2025, 3, 1), None, None)
    assert [(p.location.line, p.location.column, p.code) for p in event.problems] == [
        (2, "102-111", "bad-round-date"),
        (2, "112-121", "bad-round-date"),
    ]
    assert event.problems[0].message == (
        "expected the date of round 2 as YY/MM/DD, got '25/13/01'; ignored"
    )
    assert all(not p.is_error for p in event.problems)


@pytest.mark.parametrize(
    ("records", "expected"),
    [
        (["222 5400+30", "122 15+10"], ("standard", "222", "5400+30")),  # 222 first
        (["222 900+10", "092 (Standard)"], ("rapid", "222", "900+10")),
        (["122 40/120, 60", "092 Individual: Swiss-System (Standard)"],
         ("standard", "122", "40/120, 60")),
        (["122 3+2"], ("blitz", "122", "3+2")),
        (["122 moves/time, increment", "092 Rapid"],
         ("rapid", "092", "moves/time, increment")),
        (["092 Individual: Swiss-System (Blitz)"], ("blitz", "092", None)),
        (["092 Individual: Swiss-System"], (None, None, None)),
        ([], (None, None, None)),
    ],
)  # fmt: skip
def test_rating_list(records: list[str], expected: tuple[str | None, ...]) -> None:
    text = "\n".join(["012 T", *records, PLAYERS[0]]) + "\n"
    event = read_trf(text, FILE)
    row = event.events.row(0, named=True)
    assert (
        row[c(Events.list)],
        row[c(Events.list_source)],
        row[c(Events.time_control)],
    ) == expected
    assert event.problems == []


def test_bad_222_warns_and_falls_back_to_122() -> None:
    text = "\n".join(["012 T", "222 ninety", "122 90 min + 30 sec", PLAYERS[0]]) + "\n"
    event = read_trf(text, FILE)
    row = event.events.row(0, named=True)
    assert (row[c(Events.list)], row[c(Events.list_source)]) == ("standard", "122")
    assert [(p.location.line, p.location.column, p.code) for p in event.problems] == [
        (2, "5-10", "bad-time-control")
    ]


def test_scoring_record() -> None:
    text = "\n".join(["012 T", "162  W 3.0    D 1,0    L 0.0", PLAYERS[0]]) + "\n"
    event = read_trf(text, FILE)
    assert json.loads(event.events["scoring"][0]) == {"W": 3.0, "D": 1.0, "L": 0.0}
    assert scoring_from_trf(text) == {"W": 3.0, "D": 1.0, "L": 0.0}
    assert scoring_from_trf(SAMPLE) is None


def test_team_and_national_records_are_accepted_silently() -> None:
    extra = [
        "013 Norway                              1    2",
        "310   1 Norway                           NOR     2405    3      4.0   1     1    2",
        "240 F   1    3\t ",
        "801 ...",
        "NOR    1   GM Alder Brynja                      2405 NO  01503014 1990/04/12",
    ]
    event = read_trf(SAMPLE + "\n".join(extra) + "\n", FILE)
    assert event.problems == []
    assert event.players.height == 4


# --- problems --------------------------------------------------------------------------------

P1 = FIRST_PLAYER_LINE  # line number of the first player


@pytest.mark.parametrize(
    ("index", "first", "text", "line", "column", "code", "message"),
    [
        (0, 5, "  x1", P1, "5-8", "bad-start-number",
         "expected a positive whole start number, got 'x1'"),
        (0, 5, "   0", P1, "5-8", "bad-start-number",
         "expected a positive whole start number, got '0'"),
        (0, 5, "    ", P1, "5-8", "missing-start-number", "expected a start number, got blanks"),
        (1, 5, "   1", P1 + 1, "5-8", "duplicate-start-number",
         f"expected a unique start number, got 1 again (first on line {P1})"),
        (0, 49, "2x00", P1, "49-52", "bad-rating",
         "expected a rating (a whole number), got '2x00'"),
        (0, 49, "-100", P1, "49-52", "bad-rating",
         "expected a rating (a whole number), got '-100'"),
        (0, 58, "    15O3014", P1, "58-68", "bad-fide-id",
         "expected a FIDE ID (digits), got '15O3014'"),
        (0, 81, " x.5", P1, "81-84", "bad-points", "expected points such as 4.5, got 'x.5'"),
        (0, 86, "  1.", P1, "86-89", "bad-rank", "expected a rank (a whole number), got '1.'"),
        (0, 92, "0x12", P1, "92-95", "bad-opponent",
         "expected an opponent start number, got '0x12'"),
        (0, 102, "  -2", P1, "102-105", "bad-opponent",
         "expected an opponent start number, got '-2'"),
        (0, 97, "x", P1, "97", "bad-colour", "expected a colour w, b, - or blank, got 'x'"),
        (0, 99, "Q", P1, "99", "bad-result",
         "expected a result code (1 = 0 + - W D L H F U Z), got 'Q'"),
        (1, 119, "5", P1 + 1, "119", "bad-result",
         "expected a result code (1 = 0 + - W D L H F U Z), got '5'"),
        (0, 92, "     w  ", P1, "99", "bad-result",  # a colour without opponent or result
         "expected a result code (1 = 0 + - W D L H F U Z) for round 1, got a blank"),
        (0, 96, "x", P1, "92-101", "bad-round-field",
         "expected a blank in column 96 of round 1 ('NNNN c r' in columns 92-99), got 'x'"),
    ],
)  # fmt: skip
def test_player_line_errors(
    index: int, first: int, text: str, line: int, column: str, code: str, message: str
) -> None:
    problems = problems_of(with_line(index, patch(PLAYERS[index], first, text)))
    assert problems == [Problem(Location(FILE, line, column), code, message)]


def test_paired_round_without_a_result_is_pending() -> None:
    # an event in progress: round 1 of players 1 and 3 paired, the result not in yet
    lines = [patch(p, 99, " ") if i in (0, 2) else p for i, p in enumerate(PLAYERS)]
    event = read_trf("\n".join(HEADER + lines) + "\n", FILE)
    rows = event.games.filter(
        pl.col(c(Games.round)) == 1, pl.col(c(Games.start_no)).is_in([1, 3])
    ).sort(c(Games.start_no))
    assert rows.select(c(Games.opponent_no), c(Games.code), c(Games.played)).rows() == [
        (3, "*", False),
        (1, "*", False),
    ]
    assert event.problems == []


def test_error_message_format() -> None:
    problems = problems_of(with_line(0, patch(PLAYERS[0], 92, "0x12")))
    assert str(problems[0]) == (
        f"{FILE}:{P1}:92-95: expected an opponent start number, got '0x12' [bad-opponent]"
    )


@pytest.mark.parametrize(
    ("text", "line", "column", "code"),
    [
        ("012 T\n001\n", 2, "5-8", "short-line"),
        ("012 T\n001 \n", 2, "5-8", "short-line"),
        ("012 T\n042 someday\n" + PLAYERS[0] + "\n", 2, "5-11", "bad-date"),
        ("012 T\n022 Lakeside\n", None, None, "no-players"),
        ("", None, None, "no-players"),
    ],
)
def test_file_level_errors(text: str, line: int | None, column: str | None, code: str) -> None:
    errors = [p for p in problems_of(text) if p.is_error]
    assert [(p.location.line, p.location.column, p.code) for p in errors] == [(line, column, code)]


def test_no_players_message() -> None:
    (problem,) = problems_of("012 T\n")
    assert problem.message == "expected at least one 001 player line, got none"


def test_every_problem_of_a_file_is_reported_at_once() -> None:
    bad = patch(patch(PLAYERS[0], 49, "2x00"), 99, "Q")
    players = [bad, patch(PLAYERS[1], 5, "   1"), patch(PLAYERS[2], 92, "0x12"), PLAYERS[3]]
    text = "\n".join(["042 tomorrow", *HEADER[1:], "999 what", *players]) + "\n"
    problems = problems_of(text)
    found = {(p.location.line, p.location.column, p.code, p.severity) for p in problems}
    e, w = Severity.ERROR, Severity.WARNING
    assert found == {
        (1, "5-12", "bad-date", e),
        (9, "1-3", "unknown-record", w),
        (10, "49-52", "bad-rating", e),
        (10, "99", "bad-result", e),
        (11, "5-8", "duplicate-start-number", e),
        (12, "92-95", "bad-opponent", e),
    }


@pytest.mark.parametrize(
    ("text", "line", "column", "code"),
    [
        ("999 unknown", 1, "1-3", "unknown-record"),
        ("XXR nine", 1, "5-8", "bad-rounds"),
        ("052 someday", 1, "5-11", "bad-date"),  # only 042 is an error
        (patch(PLAYERS[0], 10, "x"), 1, "10", "bad-sex"),
        (patch(PLAYERS[0], 70, "1990/xx/12"), 1, "70-79", "bad-birth-date"),
        (patch(PLAYERS[0], 15, " " * 33), 1, "15-47", "missing-name"),
    ],
)
def test_warnings(text: str, line: int, column: str, code: str) -> None:
    players = PLAYERS[1:] if text.startswith("001") else PLAYERS
    event = read_trf("\n".join([text, *players]) + "\n", FILE)
    assert [(p.location.line, p.location.column, p.code) for p in event.problems] == [
        (line, column, code)
    ]
    assert all(not p.is_error for p in event.problems)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (SAMPLE, True),
        ("\n".join(PLAYERS), True),
        ("012 Lakeside\n022 x\n", True),
        ("\ufeff012 T\r\n001    1\r\n", True),
        ("Rk.;SNo;Name;FED;Rtg\n1;1;Alder;NOR;2405\n", False),
        ("ID Number      Name\n1503014        Alder, Brynja\n", False),
        ("", False),
        ("012\n", False),
    ],
)
def test_looks_like_trf(text: str, expected: bool) -> None:
    assert looks_like_trf(text) is expected
