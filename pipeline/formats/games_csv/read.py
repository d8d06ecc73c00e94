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
- results and byes (`games_csv.results`): `1-0`, `0-1`, draws `½-½` / `=` ..., forfeits
  `1F-0F` / `+:-` ..., double forfeit `0F-0F`, `*` or empty for a game not played yet; a
  bye is a row whose `black` is empty or `bye`, with `result` `1` (U), `½` (H) or `0`
  (Z).

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

from dataclasses import replace

import polars as pl

from pipeline.errors import Location, Problem, ProblemList, Severity
from pipeline.formats.games_csv.players import (
    PlayerRecord,
    find_players_file,
    header_names,
    looks_like_players_csv,
    missing_columns,
    read_players_csv,
    read_table,
)
from pipeline.formats.games_csv.results import result_score
from pipeline.formats.games_csv.rows import REQUIRED_COLUMNS, GameReader, GameRecord
from pipeline.formats.model import EventData
from schemas.ingest import (
    EVENT_DTYPES,
    GAME_DTYPES,
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

PLAYER_ID = "player_id"

PLAYERS_SCHEMA: dict[str, type[pl.DataType]] = {**PLAYER_DTYPES, PLAYER_ID: pl.String}


def looks_like_games_csv(text: str) -> bool:
    names = header_names(text[:4096])
    return all(name in names for name in REQUIRED_COLUMNS)


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
    reader = GameReader(table, file, players)
    for row, line in zip(table.rows, table.lines, strict=True):
        reader.read(row, line)
    days = reader.settle_dates()
    problems.extend(reader.problems.items)
    problems.raise_if_errors()
    events: dict[str, list[GameRecord]] = {}
    for game in reader.games:
        events.setdefault(game.event, []).append(replace(game, day=days.get(game.line)))
    columns = (table.column("result"), table.column("list") if "list" in table.names else "list")
    read = [_event_data(name, games, file, players, columns) for name, games in events.items()]
    return _attach_warnings(read, problems.warnings, reader.games, file)


def _attach_warnings(
    read: list[EventData], warnings: list[Problem], games: list[GameRecord], file: str
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
    games: list[GameRecord],
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
    event_id: str, games: list[GameRecord], number: dict[str, int], result_column: str
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
                    str(Games.score): result_score(code),
                    str(Games.played): code in PLAYED_CODES and opponent is not None,
                    str(Games.line): game.line,
                    str(Games.column): result_column,
                }
            )
    frame = pl.DataFrame(rows, schema=GAME_DTYPES)
    return frame.sort(str(Games.start_no), str(Games.round))
