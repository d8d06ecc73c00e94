"""The rows of a games CSV checked one at a time (`GameReader`): event, round, players,
result, the optional date, list and board, each player once a round; the valid rows
become `GameRecord`s and every problem is collected. The file's dates are then read
together (`GameReader.settle_dates`, by `pipeline.formats.dates`) so that they settle each
other's order: one order per form, each event's rounds in date order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from pipeline.errors import ProblemList, Severity
from pipeline.formats.dates import DateRead, Point, read_date, settle_event
from pipeline.formats.games_csv.players import MAX_NUMBER, CsvTable, PlayerRecord
from pipeline.formats.games_csv.results import (
    BYE_FORMS,
    RESULT_FORMS,
    parse_bye_result,
    parse_result,
)
from schemas.ingest import LISTS

REQUIRED_COLUMNS = ("event", "round", "white", "black", "result")
OPTIONAL_COLUMNS = ("date", "list", "board")


@dataclass(frozen=True)
class GameRecord:
    """One valid row of a games CSV: a game, or a bye (`black` None)."""

    event: str
    round: int
    white: str
    black: str | None  # None: a bye
    white_code: str
    black_code: str | None
    day: date | None  # filled once every date of the file is read (`settle_dates`)
    rating_list: str | None
    line: int


def _positive(value: str) -> int | None:
    """A whole number 1..MAX_NUMBER, else None."""
    if not (value.isascii() and value.isdigit()):
        return None
    number = int(value)
    return number if 1 <= number <= MAX_NUMBER else None


class GameReader:
    """Checks one games CSV row at a time; collects problems and valid games."""

    def __init__(self, table: CsvTable, file: str, players: dict[str, PlayerRecord] | None) -> None:
        self.table = table
        self.file = file
        self.players = players
        self.problems = ProblemList()
        self.games: list[GameRecord] = []
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
                GameRecord(event, rnd, white, black, codes[0], codes[1], None, rating_list, line)
            )

    def result(self, value: str, is_bye: bool, line: int) -> tuple[str, str | None] | None:
        if is_bye:
            code = parse_bye_result(value)
            if code is None:
                self.add(
                    line,
                    "result",
                    "bad-result",
                    f"expected a bye result (one of {BYE_FORMS}) as black is empty, got {value!r}",
                )
                return None
            return code, None
        pair = parse_result(value)
        if pair is None:
            self.add(line, "result", "bad-result", f"expected one of {RESULT_FORMS}, got {value!r}")
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


__all__ = ["OPTIONAL_COLUMNS", "REQUIRED_COLUMNS", "GameReader", "GameRecord"]
