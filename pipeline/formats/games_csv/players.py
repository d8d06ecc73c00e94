"""The companion players CSV of a games CSV, and how it is found.

Header (any order, any case, `,` or `;` or tab): `id, name, fide_id, rating, federation,
title, sex, birth_year`; only `id` and `name` are required. `id` is any text the games CSV
uses in `white` / `black` (a club number, a FIDE ID, initials); it must be unique. Blank
`fide_id` / `rating` / `birth_year`, or 0, mean none (unrated). `sex` is `m` or `w` (`f`
accepted as `w`). Other columns are ignored.

Discovery beside `games.csv`: `games.players.csv`, then `games_players.csv`, then
`players.csv` in the same folder (file names compared without regard to case).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pipeline.errors import ProblemList

PLAYER_COLUMNS = ("id", "name", "fide_id", "rating", "federation", "title", "sex", "birth_year")
REQUIRED_PLAYER_COLUMNS = ("id", "name")
_DELIMITERS = (",", ";", "\t")


@dataclass(frozen=True)
class PlayerRecord:
    """One row of the players CSV; `order` is its position (0-based) in the file."""

    id: str
    name: str
    fide_id: int | None
    rating: int | None
    federation: str | None
    title: str | None
    sex: str | None
    birth_year: int | None
    line: int
    order: int


@dataclass
class CsvTable:
    """A CSV file's header (as written and lower-cased) and its non-blank rows."""

    written: list[str]
    names: list[str]
    rows: list[list[str]]
    lines: list[int]  # 1-based line where each row starts

    def column(self, name: str) -> str:
        """The header text of a column, as written (for problem locations)."""
        return self.written[self.names.index(name)]


def header_names(text: str) -> list[str]:
    """Lower-cased, stripped column names of the first non-blank line of `text`."""
    for line in text.lstrip("\ufeff").splitlines():
        if line.strip():
            delimiter = max(_DELIMITERS, key=line.count)
            return [n.strip().strip('"').strip().lower() for n in line.split(delimiter)]
    return []


def read_table(text: str, file: str, problems: ProblemList) -> CsvTable:
    """Parse a small CSV with exact line numbers; ragged rows are problems."""
    text = text.lstrip("\ufeff")
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    delimiter = max(_DELIMITERS, key=first.count)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    written: list[str] = []
    rows: list[list[str]] = []
    lines: list[int] = []
    start = 1
    for record in reader:
        line, start = start, reader.line_num + 1
        if not any(cell.strip() for cell in record):
            continue
        if not written:
            written = [cell.strip() for cell in record]
            continue
        if len(record) > len(written) and any(c.strip() for c in record[len(written) :]):
            problems.add(
                file,
                line,
                None,
                "ragged-row",
                f"expected at most {len(written)} cells like the header, got {len(record)}",
            )
            continue
        rows.append([c.strip() for c in record] + [""] * (len(written) - len(record)))
        lines.append(line)
    names = [name.lower() for name in written]
    for index, name in enumerate(names):
        if name and names.index(name) != index:
            problems.add(
                file, 1, written[index], "duplicate-column", f"expected {name!r} once, got it twice"
            )
    return CsvTable(written, names, rows, lines)


def looks_like_players_csv(text: str) -> bool:
    names = header_names(text[:4096])
    return all(name in names for name in REQUIRED_PLAYER_COLUMNS) and "white" not in names


def find_players_file(games_path: Path) -> Path | None:
    """The companion players CSV beside `games_path`, or None."""
    folder = games_path.parent
    stem = games_path.stem.lower()
    wanted = [f"{stem}.players.csv", f"{stem}_players.csv", "players.csv"]
    try:
        entries = {p.name.lower(): p for p in folder.iterdir() if p.is_file()}
    except OSError:
        return None
    for name in wanted:
        found = entries.get(name)
        if found is not None and found.name != games_path.name:
            return found
    return None


MAX_NUMBER = 99_999_999_999  # 11 digits: the widest number a field holds (a FIDE ID)


def _whole_number(
    value: str, line: int, column: str, file: str, problems: ProblemList
) -> int | None:
    """A blank or 0 is None; anything not a whole number >= 0 is a problem."""
    if not value:
        return None
    if not (value.isascii() and value.isdigit()) or int(value) > MAX_NUMBER:
        problems.add(
            file,
            line,
            column,
            "bad-number",
            f"expected a whole number of at most 11 digits, got {value!r}",
        )
        return None
    return int(value) or None


def missing_columns(
    table: CsvTable, required: Sequence[str], file: str, problems: ProblemList
) -> list[str]:
    """The required columns the header lacks, each reported as a problem on line 1."""
    missing = [name for name in required if name not in table.names]
    for name in missing:
        problems.add(
            file,
            1,
            None,
            "missing-column",
            f"expected a column {name!r}, got {', '.join(table.written) or 'no header'}",
        )
    return missing


def read_players_csv(text: str, file: str, problems: ProblemList) -> dict[str, PlayerRecord]:
    """Players by id, in file order."""
    table = read_table(text, file, problems)
    if missing_columns(table, REQUIRED_PLAYER_COLUMNS, file, problems):
        return {}
    at = {name: table.names.index(name) for name in PLAYER_COLUMNS if name in table.names}

    def cell(row: list[str], name: str) -> str:
        return row[at[name]] if name in at else ""

    players: dict[str, PlayerRecord] = {}
    for row, line in zip(table.rows, table.lines, strict=True):
        player_id, name = cell(row, "id"), cell(row, "name")
        if not player_id:
            problems.add(
                file, line, table.column("id"), "missing-id", "expected an id, got a blank"
            )
            continue
        if player_id in players:
            problems.add(
                file,
                line,
                table.column("id"),
                "duplicate-player-id",
                f"expected each id once, got {player_id!r} again "
                f"(first on line {players[player_id].line})",
            )
            continue
        if not name:
            problems.add(
                file, line, table.column("name"), "missing-name", "expected a name, got a blank"
            )
        numbers = {
            key: _whole_number(cell(row, key), line, table.column(key), file, problems)
            for key in ("fide_id", "rating", "birth_year")
            if key in at
        }
        sex = cell(row, "sex").lower() or None
        if sex == "f":
            sex = "w"
        if sex not in (None, "m", "w"):
            problems.add(
                file, line, table.column("sex"), "bad-sex", f"expected m or w, got {sex!r}"
            )
            sex = None
        players[player_id] = PlayerRecord(
            id=player_id,
            name=name,
            fide_id=numbers.get("fide_id"),
            rating=numbers.get("rating"),
            federation=cell(row, "federation").upper() or None,
            title=cell(row, "title") or None,
            sex=sex,
            birth_year=numbers.get("birth_year"),
            line=line,
            order=len(players),
        )
    return players
