"""Small TRF16 files and registry CSVs written as text, for the period and chain tests.

`trf(...)` lays out player lines by FIDE's TRF16 columns (fide-rules.md §8): start number
5-8, name 15-47, rating 49-52, federation 54-56, FIDE ID 58-68, birth date 70-79, points
81-84, rank 86-89, round r at 92+10(r-1): opponent, colour, result.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

SCORE = {"1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0}
MIRROR = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+"}


@dataclass(frozen=True)
class P:
    """A player of an event file."""

    name: str
    fide_id: int | None
    rating: int | None  # the file's rating (None: unrated)
    birth: int | None = None
    federation: str = "NED"


@dataclass
class Ev:
    """An event: players by start number (1-based list order) and games by round as
    (white_no, black_no, white_result)."""

    name: str
    start: dt.date
    end: dt.date
    players: list[P]
    rounds: list[list[tuple[int, int, str]]] = field(default_factory=list)


def _put(line: list[str], first: int, text: str) -> None:
    """Place `text` starting at 1-based column `first`."""
    for i, ch in enumerate(text):
        line[first - 1 + i] = ch


def trf(ev: Ev) -> str:
    n_rounds = len(ev.rounds)
    slots: dict[int, dict[int, tuple[int, str, str]]] = {}
    points = dict.fromkeys(range(1, len(ev.players) + 1), 0.0)
    for r, games in enumerate(ev.rounds, start=1):
        for white, black, result in games:
            slots.setdefault(white, {})[r] = (black, "w", result)
            slots.setdefault(black, {})[r] = (white, "b", MIRROR[result])
            points[white] += SCORE[result]
            points[black] += SCORE[MIRROR[result]]
    lines = [
        f"012 {ev.name}",
        "022 Testville",
        "032 NED",
        f"042 {ev.start:%Y/%m/%d}",
        f"052 {ev.end:%Y/%m/%d}",
        f"062 {len(ev.players)}",
        "092 Individual: Round-Robin",
        "102 IA Arbiter, Anna",
        "122 90 min + 30 sec per move from move 1",
        "222 5400+30",
        f"142 {n_rounds}",
    ]
    for no, p in enumerate(ev.players, start=1):
        line = [" "] * (91 + 10 * n_rounds)
        _put(line, 1, "001")
        _put(line, 5, f"{no:>4}")
        _put(line, 10, "m")
        _put(line, 15, p.name[:33])
        _put(line, 49, f"{p.rating or 0:>4}")
        _put(line, 54, p.federation)
        _put(line, 58, f"{p.fide_id or '':>11}")
        _put(line, 70, f"{p.birth}/01/01" if p.birth else "")
        _put(line, 81, f"{points[no]:>4.1f}")
        _put(line, 86, f"{0:>4}")
        for r in range(1, n_rounds + 1):
            opp, colour, result = slots.get(no, {}).get(r, (0, "-", "Z"))
            _put(line, 92 + 10 * (r - 1), f"{opp:>4} {colour} {result}")
        lines.append("".join(line).rstrip())
    return "\r\n".join(lines) + "\r\n"


def write_event(folder: Path, ev: Ev, stem: str | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{stem or ev.start.isoformat() + '-' + ev.name.replace(' ', '-')}.trf"
    path.write_bytes(trf(ev).encode("utf-8"))
    return path


REGISTRY_HEADER = [
    "fideid",
    "name",
    "country",
    "sex",
    "rating",
    "k",
    "birthday",
    "career_games",
    "ever_2400",
]


def write_registry(path: Path, rows: Sequence[Mapping[str, object]]) -> Path:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, REGISTRY_HEADER, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: ("" if v is None else v) for k, v in row.items()})
    path.write_text(buffer.getvalue(), encoding="utf-8")
    return path


def round_robin(n: int) -> list[list[tuple[int, int]]]:
    """Pairings (white, black) of a round robin of n players (n even), circle method."""
    seats = list(range(1, n + 1))
    rounds = []
    for r in range(n - 1):
        pairs = []
        for i in range(n // 2):
            a, b = seats[i], seats[n - 1 - i]
            pairs.append((a, b) if (r + i) % 2 == 0 else (b, a))
        rounds.append(pairs)
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return rounds


def read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))
