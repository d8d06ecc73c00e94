"""Every real file is rated: `elo run FILE` exits 0, and the played games in games.csv are
exactly the games the file shows.

The files are those of tests/fixtures/real (see its SOURCES.md) and of the shared
reference folder (skipped when it is not beside the clone). "The games the file shows"
are counted here by a reading of the raw file that shares no code with the readers: for
TRF, every round slot with an opponent and a result 1 / = / 0; for a crosstable, every
round cell holding an opponent and 1 / ½ / 0 (Swiss) or 1 / ½ / 0 in another player's
column (round robin). Both are compared as multisets of (player, opponent, result).
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from pathlib import Path

import openpyxl
import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from tests.conftest import FIXTURES, SHARED

REAL = FIXTURES / "real"
EVENT_SUFFIXES = (".trf", ".txt", ".csv", ".xlsx")
Game = tuple[str, str, str]  # (player, opponent, result 1 / ½ / 0, as games.csv shows it)


def real_files() -> list[Path]:
    found = sorted(p for p in REAL.iterdir() if p.suffix in EVENT_SUFFIXES)
    shared = SHARED / "data"
    if shared.is_dir():
        found += sorted(
            p for p in (shared / "trf").iterdir() if p.suffix in EVENT_SUFFIXES
        ) + sorted(p for p in (shared / "crosstables").iterdir() if p.suffix in EVENT_SUFFIXES)
    return found


# --- the oracle: games as the raw file shows them ------------------------------------------


def trf_games(text: str) -> Counter[Game]:
    lines = [ln for ln in re.split(r"\r\n|\n|\r", text) if ln.startswith("001 ")]
    names = {int(ln[4:8]): " ".join(ln[14:47].split()) for ln in lines}
    games: Counter[Game] = Counter()
    for line in lines:
        for start in range(91, len(line), 10):
            slot = line[start : start + 8].ljust(8)
            opponent, result = slot[0:4].strip(), slot[7].upper()
            if opponent.isdigit() and int(opponent) and result in "1=0" and result != " ":
                games[(names[int(line[4:8])], names[int(opponent)], result.replace("=", "½"))] += 1
    return games


def table_rows(path: Path) -> list[list[str]]:
    if path.suffix == ".xlsx":
        sheet = openpyxl.load_workbook(path, read_only=True, data_only=True).worksheets[0]
        return [
            ["" if v is None else str(v).strip() for v in row]
            for row in sheet.iter_rows(values_only=True)
        ]
    text = path.read_bytes().decode("utf-8-sig")
    delimiter = ";" if text.count(";") > text.count(",") else ","
    return [[c.strip() for c in row] for row in csv.reader(io.StringIO(text), delimiter=delimiter)]


SWISS_CELL = re.compile(r"([0-9]+)\s*[wbsn]\s*(1|0|½)")
RESULT = {"1": "1", "0": "0", "½": "½", "1.0": "1", "0.0": "0"}


def crosstable_games(path: Path) -> Counter[Game]:
    rows = table_rows(path)
    head = next(i for i, r in enumerate(rows) if r and r[0] in ("Rk.", "No.") and "Name" in r)
    header = rows[head]
    body: list[list[str]] = []
    for row in rows[head + 1 :]:
        if not row or not row[0].isdigit():
            break
        body.append(row)
    name = header.index("Name")
    by_number = {int(r[0]): " ".join(r[name].split()) for r in body}
    games: Counter[Game] = Counter()
    swiss = [i for i, h in enumerate(header) if re.fullmatch(r"[0-9]+\.Rd", h)]
    robin = [i for i, h in enumerate(header) if h.isdigit()]
    for row in body:
        me = by_number[int(row[0])]
        if swiss:
            for i in swiss:
                found = SWISS_CELL.fullmatch(row[i]) if i < len(row) else None
                if found:
                    games[(me, by_number[int(found.group(1))], RESULT[found.group(2)])] += 1
        else:
            for i in robin:
                cell = row[i] if i < len(row) else ""
                if cell in RESULT and int(header[i]) != int(row[0]):
                    games[(me, by_number[int(header[i])], RESULT[cell])] += 1
    return games


def sheet_games(path: Path) -> Counter[Game]:
    if path.suffix in (".trf", ".txt"):
        return trf_games(path.read_bytes().decode("utf-8"))
    return crosstable_games(path)


def rated_file_games(out: Path) -> Counter[Game]:
    with (out / "games.csv").open(encoding="utf-8", newline="") as fh:
        return Counter(
            (row["name"], row["opponent_name"], row["result"])
            for row in csv.DictReader(fh)
            if row["result"] in ("1", "½", "0")
        )


# --- the tests ----------------------------------------------------------------------------


def test_there_are_at_least_fifteen_real_files() -> None:
    assert len([p for p in REAL.iterdir() if p.suffix in EVENT_SUFFIXES]) >= 15
    listed = (REAL / "SOURCES.md").read_text(encoding="utf-8")
    for path in REAL.iterdir():
        if path.suffix in EVENT_SUFFIXES:
            assert f"`{path.name}`" in listed, f"{path.name} has no line in SOURCES.md"


@pytest.mark.parametrize("path", real_files(), ids=lambda p: p.name)
def test_real_file_is_rated_with_the_games_it_shows(path: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["run", str(path), "--out", str(tmp_path), "--quiet"])
    assert result.exit_code == 0, result.stderr
    expected = sheet_games(path)
    assert expected, "the oracle found no games"
    assert rated_file_games(tmp_path) == expected
    assert "Traceback" not in result.stderr
