"""Swiss-Manager / chess-results crosstable exports (CSV and XLSX) -> `EventData`.

Both formats become a list of ``(line, cells)`` rows (CSV line / spreadsheet row, 1-based)
and are read by the same code: preamble rows (database line, tournament name, ``Last
update``, details, title), the header row, player rows up to the first blank or
non-player row, then whatever follows (``Annotation``, ``Tie Break``, ``You find all
details ...``), which is not read. Both layouts chess-results writes are read, each
Swiss or round-robin (header `crosstable.layout`, rows `crosstable.players`, opponents
`crosstable.games`): the final ranking (header ``Rk.``, opponents by rank) and the
starting rank (header ``No.``, opponents by start number, the rank in a column after the
points); the layout is recorded in `Events.layout`. Header words of
every language come from `pipeline.formats.crosstable.vocabulary`, the cell grammar from
`crosstable.cells`.

XLSX bytes go through `check_xlsx` before fastexcel sees them; the first sheet is read
with every cell as text (formulas as their cached values, never evaluated).

Frames follow `schemas.ingest`. Problems (all of a file, one `InputError`):
``crosstable-no-header``, ``crosstable-no-name-column``, ``crosstable-no-rounds``,
``crosstable-duplicate-column``, ``crosstable-no-players``, ``round-cell``, ``bad-rank``,
``bad-start-number``, ``duplicate-start-number``, ``missing-name``, ``bad-rating``,
``bad-fide-id``, ``bad-points``, ``bad-k``, ``bad-rating-change``,
``opponent-out-of-range``, ``csv-unreadable``, ``xlsx-unreadable``, ``xlsx-unsafe``;
warnings ``list-ambiguous``, ``date-read``, ``ambiguous-date`` and ``dates-disagree`` (the
last two made errors by validation unless ``--rules`` / an ``--events`` decision settles
them).

Byes: ``-1`` -> ``U`` (1 point), ``-½`` -> ``H``, ``-0``/``-``/``*``/empty/``not paired``
-> ``Z``; a bye written as a word (``bye``, ``spielfrei``) is ``U`` unless the declared
points show it was worth ½ (``H``) or 0 (``Z``). ``12w`` without a result is a game
paired but not played yet (pending); ``12w-`` on both sides a double forfeit.
"""

from __future__ import annotations

import csv
import io
from pathlib import PurePath

import polars as pl

from pipeline.errors import InputError, ProblemList, Severity
from pipeline.formats.crosstable.cells import normalize_cell
from pipeline.formats.crosstable.games import GameRow, resolve_games
from pipeline.formats.crosstable.layout import Layout, Row, find_header, is_header_row, read_layout
from pipeline.formats.crosstable.players import (
    PlayerRow,
    assign_start_numbers,
    is_player_row,
    read_player,
)
from pipeline.formats.crosstable.preamble import Preamble, list_of, read_preamble
from pipeline.formats.model import EventData
from pipeline.formats.xlsx_safety import XlsxLimits, check_xlsx
from schemas.ingest import (
    EVENT_DTYPES,
    GAME_DTYPES,
    PLAYED_CODES,
    PLAYER_DTYPES,
    Events,
    Games,
    Players,
)

SOURCE_CSV = "crosstable-csv"
SOURCE_XLSX = "crosstable-xlsx"
_DELIMITERS = (";", ",", "\t")
_SNIFF_LINES = 200


def read_crosstable_csv(text: str, file: str) -> EventData:
    """Read a chess-results / Swiss-Manager CSV export (``;`` or ``,`` separated)."""
    return _read_rows(_csv_rows(text, file), file, SOURCE_CSV)


def read_crosstable_xlsx(data: bytes, file: str, limits: XlsxLimits | None = None) -> EventData:
    """Read the first sheet of a crosstable workbook, after the safety pre-flight."""
    check_xlsx(data, file, limits)
    return _read_rows(_xlsx_rows(data, file), file, SOURCE_XLSX)


def looks_like_crosstable(text: str) -> bool:
    """True when one of the first lines is a crosstable header (``Rk.`` / ``No.`` ...
    ``Name`` ..., in any language of the vocabulary)."""
    for line in text.lstrip("\ufeff").splitlines()[:_SNIFF_LINES]:
        if _header_delimiter(line) is not None:
            return True
    return False


# --- rows ------------------------------------------------------------------------------


def _header_delimiter(line: str) -> str | None:
    for delimiter in _DELIMITERS:
        if delimiter not in line:
            continue
        cells = [normalize_cell(cell.strip().strip('"')) for cell in line.split(delimiter)]
        if is_header_row(cells):
            return delimiter
    return None


def _sniff(text: str) -> str:
    lines = text.splitlines()[:_SNIFF_LINES]
    for line in lines:
        delimiter = _header_delimiter(line)
        if delimiter is not None:
            return delimiter
    counts = {d: sum(line.count(d) for line in lines) for d in _DELIMITERS}
    return max(_DELIMITERS, key=lambda d: counts[d])


def _csv_rows(text: str, file: str) -> list[Row]:
    text = text.lstrip("\ufeff")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_sniff(text))
    rows: list[Row] = []
    start = 1
    try:
        for cells in reader:
            rows.append((start, [normalize_cell(cell) for cell in cells]))
            start = reader.line_num + 1
    except csv.Error as exc:
        raise InputError.single(
            file, start, None, "csv-unreadable", f"expected CSV text, got an error ({exc})"
        ) from None
    return rows


def _xlsx_rows(data: bytes, file: str) -> list[Row]:
    import fastexcel

    try:
        reader = fastexcel.read_excel(data)
        sheet = reader.load_sheet(0, header_row=None, skip_rows=0, dtypes="string")
        frame = sheet.to_polars()
    except fastexcel.FastExcelError as exc:
        raise _unreadable(file, exc) from None
    except BaseException as exc:  # a Rust panic in the reader is a bad file, not a bug here
        if type(exc).__name__ != "PanicException":
            raise
        raise _unreadable(file, exc) from None
    return [
        (index + 1, [normalize_cell(cell) for cell in cells])
        for index, cells in enumerate(frame.rows())
    ]


def _unreadable(file: str, exc: BaseException) -> InputError:
    message = " ".join(str(exc).split())[:300]
    return InputError.single(
        file, None, None, "xlsx-unreadable", f"expected a readable XLSX workbook, got {message}"
    )


# --- table -> frames -------------------------------------------------------------------


def _read_rows(rows: list[Row], file: str, source: str) -> EventData:
    problems = ProblemList()
    header = find_header(rows)
    if header is None:
        first = next(((line, cells) for line, cells in rows if any(cells)), None)
        shown = " ".join(c for c in first[1] if c)[:60] if first else "an empty file"
        problems.add(
            file,
            first[0] if first else None,
            None,
            "crosstable-no-header",
            "expected a header row starting 'Rk.' (final ranking) or 'No.' (starting "
            f"rank) with a 'Name' column, got {shown!r}",
        )
        raise InputError(problems.items)
    line, cells = rows[header]
    layout = read_layout(line, cells, file, problems)
    if layout is None:
        raise InputError(problems.items)
    players = _read_players(rows[header + 1 :], layout, file, problems)
    if not players:
        problems.add(
            file,
            line,
            None,
            "crosstable-no-players",
            "expected player rows below the header, got none",
        )
        raise InputError(problems.items)
    assign_start_numbers(players, layout, file, problems)
    games, reference = resolve_games(players, layout, file, problems)
    preamble = [(row, " ".join(c for c in cells if c)) for row, cells in rows[:header]]
    events = _events_frame(preamble, layout, games, reference, file, source, problems)
    problems.raise_if_errors()
    return EventData(
        events=events,
        players=_players_frame(players, file),
        games=_games_frame(games, file),
        problems=problems.warnings,
    )


def _read_players(
    rows: list[Row], layout: Layout, file: str, problems: ProblemList
) -> list[PlayerRow]:
    """The player rows: up to the first blank row or the first row that is not a player
    row (`is_player_row`); a repeated header row (a page break) is passed over."""
    players: list[PlayerRow] = []
    for line, cells in rows:
        if not any(cells):
            if players:
                break
            continue
        if is_header_row(cells):
            continue
        if not is_player_row(cells, layout):
            break
        players.append(read_player(line, cells, len(players) + 1, layout, file, problems))
    return players


def _events_frame(
    lines: list[tuple[int, str]],
    layout: Layout,
    games: list[GameRow],
    reference: str,
    file: str,
    source: str,
    problems: ProblemList,
) -> pl.DataFrame:
    info = read_preamble(lines)
    _date_problems(info, file, problems)
    name = info.name or PurePath(file).stem or file
    choice = list_of(info, name)
    rating_list = choice.list
    if rating_list is None and len(choice.found) > 1:
        problems.add(
            file,
            None,
            None,
            "list-ambiguous",
            f"expected one rating list in the event's name or title, got "
            f"{', '.join(choice.found)}; pass --list, or decide it with --events",
            Severity.WARNING,
        )
    words = choice.reading.words_list if choice.reading is not None else None
    named = sorted({*choice.found, *([words] if words is not None else [])})
    if choice.source == "time-control" and named and named != [rating_list]:
        problems.add(
            file,
            None,
            None,
            "list-words-differ",
            "expected the time control and the event's words to name one rating list, got "
            f"{choice.reason} and the words name {', '.join(named)}; rated as "
            f"{rating_list} by the time control's numbers (pass --list, or decide it with "
            "--events, to say otherwise)",
            Severity.WARNING,
        )
    played = max((g.round for g in games), default=0)
    if layout.round_robin:
        # the rounds are numbered by the Berger table here, not by the file: never fewer
        # than the numbers given to the games
        rounds = max(info.rounds_planned or info.rounds or 0, played) or None
    else:
        rounds = max(number for number, _ in layout.rounds)
    row = {
        str(Events.event_id): file,
        str(Events.file): file,
        str(Events.name): name,
        str(Events.source): source,
        str(Events.list): rating_list,
        str(Events.list_source): choice.source,
        str(Events.list_reason): choice.reason,
        str(Events.start_date): info.start_date,
        # without a date row, the final standings' "Last update" bounds the end date
        str(Events.end_date): info.end_date or (info.updated if info.start_date is None else None),
        str(Events.rounds): rounds,
        str(Events.city): info.city,
        str(Events.federation): info.federation,
        str(Events.time_control): info.time_control,
        str(Events.opponent_ref): reference,
        str(Events.layout): layout.name,
        str(Events.scoring): None,  # crosstables use the standard 1 / ½ / 0
        str(Events.chief_arbiter): info.chief_arbiter,
        str(Events.deputy_arbiters): "\n".join(info.deputy_arbiters) or None,
    }
    return pl.DataFrame([row], schema=EVENT_DTYPES)


def _date_problems(info: Preamble, file: str, problems: ProblemList) -> None:
    """Event dates no reading puts in order (an error), a date that reads two ways (left
    out; validation decides whether that blocks), and one written other than year first
    (the date understood)."""
    for row, message in info.disagree:
        # validation makes it an error, unless an --events decision gives both dates
        problems.add(file, row, None, "dates-disagree", message, Severity.WARNING)
    for row, reading in info.ambiguous:
        problems.add(
            file,
            row,
            None,
            "ambiguous-date",
            f"expected a date that reads one way, got {reading.ambiguity()}: write it "
            "year first (YYYY/MM/DD) or pass --rules YYYY-MM-DD",
            Severity.WARNING,
        )
    for row, reading in info.unusual:
        problems.add(file, row, None, "date-read", reading.note(), Severity.WARNING)


def _players_frame(players: list[PlayerRow], file: str) -> pl.DataFrame:
    data = {
        str(Players.event_id): [file] * len(players),
        str(Players.start_no): [p.start_no for p in players],
        str(Players.name): [p.name for p in players],
        str(Players.fide_id): [p.fide_id for p in players],
        str(Players.federation): [p.federation for p in players],
        str(Players.title): [p.title for p in players],
        str(Players.sex): [p.sex for p in players],
        str(Players.birth_year): [None] * len(players),
        str(Players.rating): [p.rating for p in players],
        str(Players.points): [p.points for p in players],
        str(Players.rank): [p.rank for p in players],
        str(Players.k_declared): [p.k for p in players],
        str(Players.change_declared): [p.change for p in players],
        str(Players.line): [p.line for p in players],
    }
    return pl.DataFrame(data, schema=PLAYER_DTYPES)


def _games_frame(games: list[GameRow], file: str) -> pl.DataFrame:
    ordered = sorted(games, key=lambda g: (g.start_no, g.round))
    data = {
        str(Games.event_id): [file] * len(ordered),
        str(Games.round): [g.round for g in ordered],
        str(Games.start_no): [g.start_no for g in ordered],
        str(Games.opponent_no): [g.opponent_no for g in ordered],
        str(Games.colour): [g.colour for g in ordered],
        str(Games.code): [g.code for g in ordered],
        str(Games.score): [g.score for g in ordered],
        str(Games.played): [g.code in PLAYED_CODES and g.opponent_no is not None for g in ordered],
        str(Games.line): [g.line for g in ordered],
        str(Games.column): [g.column for g in ordered],
    }
    return pl.DataFrame(data, schema=GAME_DTYPES)
