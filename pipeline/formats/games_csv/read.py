"""Games CSV: one row per game, as federations' own systems export them.

Games CSV (header in any order and case; `,` `;` or tab; one game per row):

    event,round,white,black,result,date,list,board
    Northgate League,1,11,2,0-1,2026-11-02,standard,1

- required: `event`, `round` (1, 2, …), `white`, `black`, `result`;
  optional: `date` (YYYY-MM-DD; the other forms of `pipeline.formats.dates` with a
  warning, all the file's dates read together so that they settle each other's order:
  one order per form, each event's rounds in date order, then an event within 90 days;
  an ambiguous one an error, dates no reading puts in order a ``dates-disagree`` error),
  `list` (standard / rapid / blitz), `board` (1, 2, …).
- `white` / `black` are the `id`s of the companion players CSV (games_csv.players); without
  a players CSV they must be FIDE IDs, and the player's name is then the FIDE ID itself.
- results (spaces ignored, letters in any case; `:` may replace `-`):
  `1-0`, `0-1`; draws `½-½`, `1/2-1/2`, `0.5-0.5`, `=`; forfeits `1F-0F`, `0F-1F`,
  `+:-`, `-:+` (also `+ - -`, `- - +` as chess-results prints them); double forfeit
  `0F-0F`, `-:-`, `- - -` (no game, nobody scores); `*` or an empty result: paired, not
  played yet (an event in progress; pending, not rated).
- a bye is a row whose `black` is empty or `bye`, with `result` `1` or `+` (pairing-allocated
  bye, TRF code U, one point), `½` / `1/2` / `0.5` / `=` (half-point bye, H) or `0` / `-`
  (zero-point bye or absence, Z).

Output: one EventData per distinct `event` value, `event_id` = "<file>#<event>", source
`games-csv`; start/end date = first/last date; rounds = highest round; `list` = the one
value of the `list` column in that event (blanks ignored; two different values leave it
null with a warning). Start numbers 1..N are given to the players of the event in
players-CSV order (first appearance without one); the players frame keeps the CSV id in
`player_id`, and its `line` is the games-CSV line where the player first appears. Games:
two rows per game (white 'w', black 'b', mirrored codes: 1-0 -> 1/0, draw =/=, 1F-0F -> +/-,
0F-0F -> -/-), a bye one row; `line` is the CSV line, `column` the `result` header text.

Every problem of both files is collected and raised in one InputError.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date

import polars as pl

from pipeline.errors import Location, Problem, ProblemList, Severity
from pipeline.formats.dates import DateRead, Point, read_date, settle_event
from pipeline.formats.games_csv.players import (
    MAX_NUMBER,
    CsvTable,
    PlayerRecord,
    find_players_file,
    header_names,
    looks_like_players_csv,
    missing_columns,
    read_players_csv,
    read_table,
)
from pipeline.formats.model import EventData
from schemas.ingest import (
    EVENT_DTYPES,
    GAME_DTYPES,
    LISTS,
    PENDING_CODE,
    PLAYED_CODES,
    PLAYER_DTYPES,
    Events,
    Games,
    Players,
)

__all__ = [
    "find_players_file",
    "looks_like_games_csv",
    "looks_like_players_csv",
    "read_games_csv",
]

REQUIRED_COLUMNS = ("event", "round", "white", "black", "result")
OPTIONAL_COLUMNS = ("date", "list", "board")
PLAYER_ID = "player_id"

_DRAW = ("=", "=")
_RESULTS: dict[str, tuple[str, str]] = {
    **dict.fromkeys(("1-0", "1:0"), ("1", "0")),
    **dict.fromkeys(("0-1", "0:1"), ("0", "1")),
    **dict.fromkeys(("½-½", "½:½", "1/2-1/2", "1/2:1/2", "0.5-0.5", "0.5:0.5", "="), _DRAW),
    **dict.fromkeys(("1f-0f", "1f:0f", "+:-", "+-", "+--"), ("+", "-")),
    **dict.fromkeys(("0f-1f", "0f:1f", "-:+", "-+", "--+"), ("-", "+")),
    **dict.fromkeys(("0f-0f", "0f:0f", "-:-", "---"), ("-", "-")),
    # paired, no result yet (an event in progress): PGN's '*' or an empty cell
    **dict.fromkeys(("*", ""), (PENDING_CODE, PENDING_CODE)),
}
_BYE_RESULTS: dict[str, str] = {
    **dict.fromkeys(("1", "+"), "U"),
    **dict.fromkeys(("½", "1/2", "0.5", "="), "H"),
    **dict.fromkeys(("0", "-"), "Z"),
}
_SCORE = {
    "1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0, "U": 1.0, "H": 0.5, "Z": 0.0,
    PENDING_CODE: 0.0,
}  # fmt: skip
_RESULT_FORMS = (
    "1-0, 0-1, ½-½, 1/2-1/2, 0.5-0.5, =, 1F-0F, 0F-1F, 0F-0F, +:-, -:+, -:-, or * / empty "
    "for a game not played yet"
)
_BYE_FORMS = "1, +, ½, 1/2, 0.5, =, 0, -"

PLAYERS_SCHEMA: dict[str, type[pl.DataType]] = {**PLAYER_DTYPES, PLAYER_ID: pl.String}


@dataclass(frozen=True)
class _Game:
    event: str
    round: int
    white: str
    black: str | None  # None: a bye
    white_code: str
    black_code: str | None
    day: date | None  # filled once every date of the file is read (`settle_dates`)
    rating_list: str | None
    line: int


def looks_like_games_csv(text: str) -> bool:
    names = header_names(text[:4096])
    return all(name in names for name in REQUIRED_COLUMNS)


def _positive(value: str) -> int | None:
    """A whole number 1..MAX_NUMBER, else None."""
    if not (value.isascii() and value.isdigit()):
        return None
    number = int(value)
    return number if 1 <= number <= MAX_NUMBER else None


class _GameReader:
    """Checks one games CSV row at a time; collects problems and valid games."""

    def __init__(self, table: CsvTable, file: str, players: dict[str, PlayerRecord] | None) -> None:
        self.table = table
        self.file = file
        self.players = players
        self.problems = ProblemList()
        self.games: list[_Game] = []
        self.seen: dict[tuple[str, int, str], int] = {}  # (event, round, player) -> line
        # (line, date as written, event, round): the event and round when they read
        self.dates: list[tuple[int, DateRead, str, int | None]] = []
        self.at = {
            n: table.names.index(n) for n in REQUIRED_COLUMNS + OPTIONAL_COLUMNS if n in table.names
        }

    def add(self, line: int, name: str, code: str, message: str) -> None:
        self.problems.add(self.file, line, self.table.column(name), code, message)

    def cell(self, row: list[str], name: str) -> str:
        return row[self.at[name]] if name in self.at else ""

    def player(self, value: str, line: int, name: str) -> str | None:
        """The player id of a white/black cell, or None after a problem."""
        if not value:
            self.add(line, name, "missing-player", f"expected a player in {name!r}, got a blank")
            return None
        if self.players is None:
            if _positive(value) is None:
                self.add(
                    line,
                    name,
                    "bad-fide-id",
                    f"expected a FIDE ID (there is no players CSV), got {value!r}",
                )
                return None
            return str(int(value))
        if value not in self.players:
            self.add(
                line, name, "unknown-player", f"expected an id of the players CSV, got {value!r}"
            )
            return None
        return value

    def once_per_round(self, event: str, rnd: int, player: str, line: int, name: str) -> bool:
        first = self.seen.setdefault((event, rnd, player), line)
        if first != line:
            self.add(
                line,
                name,
                "player-twice-in-round",
                f"expected player {player!r} once in round {rnd}, got a second game "
                f"(first on line {first})",
            )
            return False
        return True

    def read(self, row: list[str], line: int) -> None:
        event = self.cell(row, "event")
        if not event:
            self.add(line, "event", "missing-event", "expected an event name, got a blank")
        raw_round = self.cell(row, "round")
        rnd = _positive(raw_round)
        if rnd is None:
            self.add(
                line, "round", "bad-round", f"expected a round number 1 or more, got {raw_round!r}"
            )
        self.optional_date(row, line, event, rnd)
        rating_list = self.optional_list(row, line)
        raw_board = self.cell(row, "board")
        if raw_board and _positive(raw_board) is None:
            self.add(
                line, "board", "bad-board", f"expected a board number 1 or more, got {raw_board!r}"
            )
        white = self.player(self.cell(row, "white"), line, "white")
        raw_black = self.cell(row, "black")
        is_bye = raw_black == "" or raw_black.lower() == "bye"
        black = None if is_bye else self.player(raw_black, line, "black")
        codes = self.result(self.cell(row, "result"), is_bye, line)
        if white is not None and white == black:
            self.add(line, "black", "same-player", f"expected two players, got {white!r} twice")
            return
        if not event or rnd is None or white is None or codes is None:
            return
        if not is_bye and black is None:
            return
        fine = self.once_per_round(event, rnd, white, line, "white")
        if black is not None:
            fine = self.once_per_round(event, rnd, black, line, "black") and fine
        if fine:
            self.games.append(
                _Game(event, rnd, white, black, codes[0], codes[1], None, rating_list, line)
            )

    def result(self, value: str, is_bye: bool, line: int) -> tuple[str, str | None] | None:
        key = value.replace(" ", "").lower()
        if is_bye:
            code = _BYE_RESULTS.get(key)
            if code is None:
                self.add(
                    line,
                    "result",
                    "bad-result",
                    f"expected a bye result (one of {_BYE_FORMS}) as black is empty, got {value!r}",
                )
                return None
            return code, None
        pair = _RESULTS.get(key)
        if pair is None:
            self.add(
                line, "result", "bad-result", f"expected one of {_RESULT_FORMS}, got {value!r}"
            )
            return None
        return pair

    def optional_date(
        self, row: list[str], line: int, event: str, rnd: int | None
    ) -> DateRead | None:
        value = self.cell(row, "date")
        if not value:
            return None
        reading = read_date(value)
        if reading is None:
            self.add(line, "date", "bad-date", f"expected a date YYYY-MM-DD, got {value!r}")
        else:
            self.dates.append((line, reading, event, rnd))
        return reading

    def date_chains(self, values: Sequence[date]) -> list[list[Point]]:
        """Each event's rounds by their first date, in round order (a game played late
        leaves its round's first date alone): the chains `settle_event` keeps in order."""
        first: dict[str, dict[int, Point]] = {}
        for i, ((line, reading, event, rnd), day) in enumerate(
            zip(self.dates, values, strict=True)
        ):
            if not event or rnd is None:
                continue
            rounds = first.setdefault(event, {})
            if rnd not in rounds or day < rounds[rnd].value:
                label = f"{reading.text!r} (line {line}, round {rnd})"
                rounds[rnd] = Point(day, label, i)
        return [[rounds[r] for r in sorted(rounds)] for rounds in first.values()]

    def settle_dates(self) -> dict[int, date | None]:
        """Every date of the file read together (`dates.settle_event`): a warning once per
        form other than year first in digits, an error per ambiguous value (first line
        only), one when no reading puts the rounds in date order. Returns line -> date."""
        by_line: dict[int, date | None] = {}
        noted: set[str] = set()
        found = settle_event(
            [reading for _, reading, *_ in self.dates], self.date_chains, "the rounds in date order"
        )
        if found.conflict is not None:
            ref, message = found.conflict
            self.add(self.dates[ref][0], "date", "dates-disagree", message)
            return by_line
        for (line, *_), reading in zip(self.dates, found.reads, strict=True):
            by_line[line] = reading.value
            if reading.text in noted:
                continue
            noted.add(reading.text)
            if reading.ambiguous:
                self.add(
                    line,
                    "date",
                    "ambiguous-date",
                    f"expected a date that reads one way, got {reading.ambiguity()}: write "
                    "it YYYY-MM-DD",
                )
            elif not reading.standard:
                self.problems.add(
                    self.file,
                    line,
                    self.table.column("date"),
                    "date-read",
                    reading.note(),
                    Severity.WARNING,
                )
        return by_line

    def optional_list(self, row: list[str], line: int) -> str | None:
        value = self.cell(row, "list").lower()
        if value and value not in LISTS:
            self.add(line, "list", "bad-list", f"expected standard, rapid or blitz, got {value!r}")
            return None
        return value or None


def read_games_csv(
    games_text: str,
    file: str,
    players_text: str | None = None,
    players_file: str | None = None,
) -> list[EventData]:
    """Read a games CSV (and its players CSV, if any) into one EventData per event."""
    problems = ProblemList()
    players = None
    if players_text is not None:
        players = read_players_csv(players_text, players_file or "players.csv", problems)
    table = read_table(games_text, file, problems)
    missing_columns(table, REQUIRED_COLUMNS, file, problems)
    if any(p.code == "missing-column" for p in problems.items):
        problems.raise_if_errors()  # without the columns no row can be checked
    reader = _GameReader(table, file, players)
    for row, line in zip(table.rows, table.lines, strict=True):
        reader.read(row, line)
    days = reader.settle_dates()
    problems.extend(reader.problems.items)
    problems.raise_if_errors()
    events: dict[str, list[_Game]] = {}
    for game in reader.games:
        events.setdefault(game.event, []).append(replace(game, day=days.get(game.line)))
    columns = (table.column("result"), table.column("list") if "list" in table.names else "list")
    read = [_event_data(name, games, file, players, columns) for name, games in events.items()]
    return _attach_warnings(read, problems.warnings, reader.games, file)


def _attach_warnings(
    read: list[EventData], warnings: list[Problem], games: list[_Game], file: str
) -> list[EventData]:
    """The file's own warnings go with the event of their line (else the first event)."""
    if not read:
        return read
    index = {name: i for i, name in enumerate(dict.fromkeys(g.event for g in games))}
    event_of_line = {g.line: index[g.event] for g in games}
    for warning in warnings:
        line = warning.location.line if warning.location.file == file else None
        read[event_of_line.get(line or 0, 0)].problems.append(warning)
    return read


def _event_data(
    name: str,
    games: list[_Game],
    file: str,
    players: dict[str, PlayerRecord] | None,
    columns: tuple[str, str],
) -> EventData:
    """`columns`: the header texts of `result` and `list`."""
    event_id = f"{file}#{name}"
    first_line: dict[str, int] = {}
    for game in games:
        for player in (game.white, game.black):
            if player is not None:
                first_line.setdefault(player, game.line)
    if players is None:
        ordered = list(first_line)
    else:
        ordered = sorted(first_line, key=lambda pid: players[pid].order)
    number = {pid: index for index, pid in enumerate(ordered, start=1)}
    warnings: list[Problem] = []
    lists = sorted({g.rating_list for g in games if g.rating_list is not None})
    if len(lists) > 1:
        warnings.append(
            Problem(
                Location(file, games[0].line, columns[1]),
                "list-ambiguous",
                f"expected one rating list per event, got {', '.join(lists)} in {name!r}; "
                "pass --list",
                Severity.WARNING,
            )
        )
    days = [g.day for g in games if g.day is not None]
    event_row = {
        str(Events.event_id): event_id,
        str(Events.file): file,
        str(Events.name): name,
        str(Events.source): "games-csv",
        str(Events.list): lists[0] if len(lists) == 1 else None,
        str(Events.list_source): "column" if len(lists) == 1 else None,
        str(Events.list_reason): f"the games' list column says {lists[0]}"
        if len(lists) == 1
        else None,
        str(Events.start_date): min(days, default=None),
        str(Events.end_date): max(days, default=None),
        str(Events.rounds): max(g.round for g in games),
        str(Events.city): None,
        str(Events.federation): None,
        str(Events.time_control): None,
        str(Events.opponent_ref): None,
        str(Events.layout): None,
        str(Events.scoring): None,
    }
    return EventData(
        events=pl.DataFrame([event_row], schema=EVENT_DTYPES),
        players=_players_frame(event_id, ordered, number, first_line, players),
        games=_games_frame(event_id, games, number, columns[0]),
        problems=warnings,
    )


def _players_frame(
    event_id: str,
    ordered: list[str],
    number: dict[str, int],
    first_line: dict[str, int],
    players: dict[str, PlayerRecord] | None,
) -> pl.DataFrame:
    rows: list[dict[str, object]] = []
    for pid in ordered:
        record = players[pid] if players is not None else None
        rows.append(
            {
                str(Players.event_id): event_id,
                str(Players.start_no): number[pid],
                str(Players.name): record.name if record else pid,
                str(Players.fide_id): record.fide_id if record else int(pid),
                str(Players.federation): record.federation if record else None,
                str(Players.title): record.title if record else None,
                str(Players.sex): record.sex if record else None,
                str(Players.birth_year): record.birth_year if record else None,
                str(Players.rating): record.rating if record else None,
                str(Players.points): None,
                str(Players.rank): None,
                str(Players.k_declared): None,
                str(Players.change_declared): None,
                str(Players.line): first_line[pid],
                PLAYER_ID: pid,
            }
        )
    return pl.DataFrame(rows, schema=PLAYERS_SCHEMA)


def _games_frame(
    event_id: str, games: list[_Game], number: dict[str, int], result_column: str
) -> pl.DataFrame:
    rows: list[dict[str, object]] = []
    for game in games:
        white, black = number[game.white], None if game.black is None else number[game.black]
        sides = [(white, black, None if black is None else "w", game.white_code)]
        if game.black is not None and game.black_code is not None:
            sides.append((number[game.black], white, "b", game.black_code))
        for start_no, opponent, colour, code in sides:
            rows.append(
                {
                    str(Games.event_id): event_id,
                    str(Games.round): game.round,
                    str(Games.start_no): start_no,
                    str(Games.opponent_no): opponent,
                    str(Games.colour): colour,
                    str(Games.code): code,
                    str(Games.score): _SCORE[code],
                    str(Games.played): code in PLAYED_CODES and opponent is not None,
                    str(Games.line): game.line,
                    str(Games.column): result_column,
                }
            )
    frame = pl.DataFrame(rows, schema=GAME_DTYPES)
    return frame.sort(str(Games.start_no), str(Games.round))
