"""Read FIDE Tournament Report Files (TRF16, TRF26, TRF(x)) into the ingest frames.

`read_trf(text, file)` returns an `EventData` whose frames follow `schemas.ingest`:

- events: one row, built from the tournament records by `pipeline.formats.trf.records`
  (source trf16/trf26, rounds, rating list from 222 / 122 / 092, dates, and the `scoring`
  column: record 162 or XXS as JSON, ``{"W":1.0,"D":0.5,"L":0.0}``, or null;
  `scoring_from_trf(text)` returns the same values as a dict).
- players: one row per 001 line (pseudo-players such as ``spielfrei`` included).
- games: one row per player and round from 1 to the last round used anywhere in the
  file. A blank round slot, or one shorter than the line, is an absence: code ``Z``. An
  opponent with a blank result is a game paired but not played yet (an event in
  progress): code ``*`` (`schemas.ingest.PENDING_CODE`), not rated. A double forfeit is
  ``-`` on both lines.

Every problem of the file is collected; errors end in one `InputError`, warnings
(unknown records, unreadable birth dates, ...) are returned in `EventData.problems`.
The 001 lines and their round slots are read all at once (`pipeline.formats.trf.columns`)
when they are well formed, as they nearly always are; otherwise they are read line by
line and slot by slot, which words each problem, so both ways give the same result.
Team records (013, 3x0, 801, 802, ...) and national records (``IND    1   GM ...``) are
accepted and not read; record 112 may repeat; Swiss-Manager's column rulers (lines of
digits and blanks) are passed over.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import polars as pl

from pipeline.errors import ProblemList, Severity
from pipeline.formats.model import EventData
from pipeline.formats.trf import fields as tf
from pipeline.formats.trf.columns import PlayerColumns, last_used_round
from pipeline.formats.trf.columns import games_columnwise as _games_columnwise
from pipeline.formats.trf.columns import players_columnwise as _players_columnwise
from pipeline.formats.trf.records import (
    KEPT_RECORDS,
    NATIONAL_RECORD,
    TEAM_RECORDS,
    Records,
    events_frame,
    scoring,
)
from pipeline.formats.trf.write import write_trf
from schemas.ingest import GAME_DTYPES, PENDING_CODE, Games

__all__ = ["looks_like_trf", "read_trf", "scoring_from_trf", "split_lines", "write_trf"]

_TRF_HEAD = re.compile(r"(?:0[0-9][0-9]|XX[A-Z]|###)(?: |$)")
_PLAYER_HEAD = re.compile(r"001 [ 0-9]{3}[0-9]")
# Swiss-Manager writes column rulers above the player lines ("         1         2",
# "1234567890123..."): digits and blanks only, never a record.
_RULER = re.compile(r"(?: {3}|[0-9]{4})[ 0-9]*")  # a record starts 'NNN ': never a ruler

G_EVENT = str(Games.event_id)
G_ROUND = str(Games.round)
G_NO = str(Games.start_no)
G_OPP = str(Games.opponent_no)
G_COLOUR = str(Games.colour)
G_CODE = str(Games.code)
G_SCORE = str(Games.score)
G_PLAYED = str(Games.played)
G_LINE = str(Games.line)
G_COLUMN = str(Games.column)


@dataclass
class _Player:
    line: int
    start_no: int
    name: str
    fide_id: int | None
    federation: str | None
    title: str | None
    sex: str | None
    birth_year: int | None
    rating: int | None
    points: float | None
    rank: int | None
    text: str  # the raw line, for the round slots


def split_lines(text: str) -> list[str]:
    """Lines without their ends (CRLF, LF or CR); a leading BOM is dropped."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:  # CRLF first, so that its CR is not taken for a line end of its own
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def looks_like_trf(text: str) -> bool:
    """Content sniffing: a 001 player line, or a first meaningful line that is a TRF record
    (``012 ...``, ``XXR 9``, ``###``), within the first 400 lines."""
    meaningful = [line for line in split_lines(text[:200_000])[:400] if line.strip()]
    if not meaningful:
        return False
    if any(_PLAYER_HEAD.match(line) for line in meaningful):
        return True
    return _TRF_HEAD.match(meaningful[0]) is not None and len(meaningful) > 1


def scoring_from_trf(text: str) -> dict[str, float] | None:
    """Point values declared by record 162 (else XXS), e.g. ``{"W": 1.0, "D": 0.5, ...}``."""
    records = Records()
    for line in split_lines(text):
        code = line[:3]
        if code in ("162", "XXS"):
            records.values.setdefault(code, []).append((0, line[4:]))
    return scoring(records)


def read_trf(text: str, file: str) -> EventData:
    """Parse a TRF16 / TRF26 / TRF(x) file's text; `file` is the path shown in messages."""
    lines = split_lines(text)
    event = _read_lines(lines, file, columnwise=True)
    if event is None:  # a 001 line needs a message: read them one by one, which words it
        event = _read_lines(lines, file, columnwise=False)
        assert event is not None
    return event


def _read_lines(lines: list[str], file: str, columnwise: bool) -> EventData | None:
    """The event of a file's lines. With `columnwise`, the 001 lines are read all at once
    (`trf.columns.players_columnwise`), and None is returned when one of them is not well
    formed; else each is read by `_read_player`, in file order with the other records."""
    problems = ProblemList()
    records = Records()
    players: list[_Player] = []
    seen: dict[int, int] = {}  # start number -> line
    player_lines: list[str] = []
    player_line_nos: list[int] = []

    for line_no, line in enumerate(lines, start=1):
        # a line that starts '001 ' is never blank, a comment or a column ruler
        if not line.startswith("001 "):
            if not line.strip():
                continue
            if line.startswith("###"):
                records.comments = True
                continue
            if _RULER.fullmatch(line):
                continue  # a column ruler
        code = line[:3]
        if code == "001" and columnwise:
            player_lines.append(line)
            player_line_nos.append(line_no)
        elif code == "001":
            player = _read_player(line, line_no, file, problems)
            if player is None:
                continue
            first = seen.get(player.start_no)
            if first is not None:
                problems.add(
                    file, line_no, str(tf.START_NO), "duplicate-start-number",
                    f"expected a unique start number, got {player.start_no} again "
                    f"(first on line {first})",
                )  # fmt: skip
                continue
            seen[player.start_no] = line_no
            players.append(player)
        elif code in KEPT_RECORDS:
            records.values.setdefault(code, []).append((line_no, line[4:]))
        elif code in TEAM_RECORDS or NATIONAL_RECORD.fullmatch(code):
            continue
        else:
            problems.add(
                file, line_no, "1-3", "unknown-record",
                f"expected a TRF record code (001, 012, ..., XXR), got '{code.strip()}'; "
                "line ignored",
                Severity.WARNING,
            )  # fmt: skip

    columns = (
        _players_columnwise(player_lines, player_line_nos) if columnwise else _as_columns(players)
    )
    if columns is None:
        return None
    if not columns.line and not problems.errors:
        problems.add(
            file, None, None, "no-players", "expected at least one 001 player line, got none"
        )
    games, used_rounds = _read_games(columns, file, problems)
    events, dates = events_frame(records, file, used_rounds, problems)
    problems.raise_if_errors()
    return EventData(
        events=events,
        players=columns.frame(file),
        games=games,
        problems=problems.warnings,
        round_dates=dates,
    )


# --- 001 lines ---------------------------------------------------------------------------


def _read_player(line: str, line_no: int, file: str, problems: ProblemList) -> _Player | None:
    def error(cols: tf.Columns, code: str, message: str) -> None:
        problems.add(file, line_no, str(cols), code, message)

    def warn(cols: tf.Columns, code: str, message: str) -> None:
        problems.add(file, line_no, str(cols), code, message, Severity.WARNING)

    raw_start = tf.START_NO.cut(line)
    if not raw_start.strip():
        if len(line) < tf.START_NO.first:
            error(
                tf.START_NO,
                "short-line",
                f"expected a start number in columns {tf.START_NO}, "
                f"got a line of {len(line)} characters",
            )
        else:
            error(tf.START_NO, "missing-start-number", "expected a start number, got blanks")
        return None
    start_no = tf.parse_unsigned(raw_start, max_digits=4)
    if start_no is None or start_no < 1:
        error(
            tf.START_NO,
            "bad-start-number",
            f"expected a positive whole start number, got '{raw_start.strip()}'",
        )
        return None

    sex, sex_ok = tf.normalise_sex(tf.SEX.cut(line))
    if not sex_ok:
        warn(tf.SEX, "bad-sex", f"expected sex m or w, got '{tf.SEX.cut(line)}'; ignored")

    name = tf.NAME.cut(line).strip()
    if not name:
        warn(tf.NAME, "missing-name", "expected a player name, got blanks")

    raw_rating = tf.RATING.cut(line).strip()
    rating = tf.parse_unsigned(raw_rating, max_digits=4) if raw_rating else 0
    if rating is None:
        error(tf.RATING, "bad-rating", f"expected a rating (a whole number), got '{raw_rating}'")

    raw_id = tf.FIDE_ID.cut(line).strip()
    fide_id = tf.parse_unsigned(raw_id, max_digits=11) if raw_id else 0
    if fide_id is None:
        error(tf.FIDE_ID, "bad-fide-id", f"expected a FIDE ID (digits), got '{raw_id}'")

    raw_birth = tf.BIRTH.cut(line).strip()
    birth_year = tf.parse_birth_year(raw_birth) if raw_birth else None
    if raw_birth and birth_year is None and raw_birth.strip("0/.- "):
        warn(
            tf.BIRTH,
            "bad-birth-date",
            f"expected a birth date like 1987/07/05 or a year, got '{raw_birth}'; ignored",
        )

    raw_points = tf.POINTS.cut(line).strip()
    points = tf.parse_points(raw_points) if raw_points else None
    if raw_points and points is None:
        error(tf.POINTS, "bad-points", f"expected points such as 4.5, got '{raw_points}'")

    raw_rank = tf.RANK.cut(line).strip()
    rank = tf.parse_unsigned(raw_rank, max_digits=4) if raw_rank else 0
    if rank is None:
        error(tf.RANK, "bad-rank", f"expected a rank (a whole number), got '{raw_rank}'")

    federation = tf.FEDERATION.cut(line).strip() or None
    return _Player(
        line=line_no,
        start_no=start_no,
        name=name,
        fide_id=fide_id or None,
        federation=federation,
        title=tf.normalise_title(tf.TITLE.cut(line)),
        sex=sex,
        birth_year=birth_year,
        rating=rating or None,
        points=points,
        rank=rank or None,
        text=line,
    )


def _as_columns(players: list[_Player]) -> PlayerColumns:
    return PlayerColumns(
        line=[p.line for p in players],
        start_no=[p.start_no for p in players],
        name=[p.name for p in players],
        fide_id=[p.fide_id for p in players],
        federation=[p.federation for p in players],
        title=[p.title for p in players],
        sex=[p.sex for p in players],
        birth_year=[p.birth_year for p in players],
        rating=[p.rating for p in players],
        points=[p.points for p in players],
        rank=[p.rank for p in players],
        text=[p.text for p in players],
    )


def _read_games(
    players: PlayerColumns, file: str, problems: ProblemList
) -> tuple[pl.DataFrame, int]:
    """Every round slot of every player line: all at once when every slot is well formed
    (nearly always, `trf.columns.games_columnwise`), else slot by slot, which words each
    problem (`_read_round`)."""
    used = last_used_round(players.text)
    fast = _games_columnwise(players, file, used)
    if fast is not None:
        return fast, used
    return _games_one_by_one(players, file, problems, used), used


def _games_one_by_one(
    players: PlayerColumns, file: str, problems: ProblemList, used: int
) -> pl.DataFrame:
    cols: dict[str, list[object]] = {name: [] for name in GAME_DTYPES}
    for text, line_no, start_no in zip(players.text, players.line, players.start_no, strict=True):
        for round_no in range(1, used + 1):
            entry = _read_round(text, line_no, round_no, file, problems)
            if entry is None:
                continue
            opponent, colour, code = entry
            cols[G_EVENT].append(file)
            cols[G_ROUND].append(round_no)
            cols[G_NO].append(start_no)
            cols[G_OPP].append(opponent)
            cols[G_COLOUR].append(colour)
            cols[G_CODE].append(code)
            cols[G_SCORE].append(tf.result_score(code))
            cols[G_PLAYED].append(code in tf.PLAYED_CODE_SET and opponent is not None)
            cols[G_LINE].append(line_no)
            cols[G_COLUMN].append(str(tf.round_span(round_no)))
    return pl.DataFrame(cols, schema=GAME_DTYPES)


def _read_round(
    line: str, line_no: int, round_no: int, file: str, problems: ProblemList
) -> tuple[int | None, str | None, str] | None:
    """(opponent, colour, code) of one round slot of `line`; None after reporting an
    error."""
    slot = tf.round_span(round_no).cut(line).ljust(tf.ROUND_WIDTH)
    if not slot.strip():
        return None, None, "Z"

    def error(cols: tf.Columns, code: str, message: str) -> None:
        problems.add(file, line_no, str(cols), code, message)

    ok = True
    for offset in (4, 6, 8, 9):  # separators: columns 96, 98, 100, 101 in round 1
        if slot[offset] != " ":
            column = tf.round_start(round_no) + offset
            error(
                tf.round_span(round_no),
                "bad-round-field",
                f"expected a blank in column {column} of round {round_no} "
                f"('NNNN c r' in columns {tf.round_field(round_no)}), got '{slot[offset]}'",
            )
            return None

    raw_opponent = slot[0:4].strip()
    opponent: int | None = None
    if raw_opponent:
        number = tf.parse_unsigned(raw_opponent, max_digits=4)
        if number is None:
            error(
                tf.opponent_columns(round_no),
                "bad-opponent",
                f"expected an opponent start number, got '{raw_opponent}'",
            )
            ok = False
        else:
            opponent = number or None

    raw_colour = slot[5]
    colour: str | None = None
    if raw_colour.lower() in ("w", "b"):
        colour = raw_colour.lower()
    elif raw_colour not in ("-", " "):
        error(
            tf.colour_columns(round_no),
            "bad-colour",
            f"expected a colour w, b, - or blank, got '{raw_colour}'",
        )
        ok = False

    raw_result = slot[7]
    code = raw_result.upper()
    if raw_result == " ":
        if opponent is not None:
            code = PENDING_CODE  # paired, result not in yet (an event in progress)
        elif colour is not None:
            error(
                tf.result_columns(round_no),
                "bad-result",
                f"expected a result code ({tf.RESULT_CODES_TEXT}) for round {round_no}, "
                "got a blank",
            )
            ok = False
        else:
            code = "Z"
    elif code not in tf.RESULT_CODE_SET:
        error(
            tf.result_columns(round_no),
            "bad-result",
            f"expected a result code ({tf.RESULT_CODES_TEXT}), got '{raw_result}'",
        )
        ok = False
    return (opponent, colour, code) if ok else None
