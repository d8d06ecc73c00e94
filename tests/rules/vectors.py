"""Load the cited test vectors of tests/vectors/*.csv (lines starting with '#' are the
source citation and are skipped)."""

from __future__ import annotations

import csv
import datetime as dt
from dataclasses import dataclass
from pathlib import Path

VECTORS = Path(__file__).resolve().parent.parent / "vectors"


def load_vectors(name: str) -> list[dict[str, str]]:
    with (VECTORS / name).open(encoding="utf-8", newline="") as fh:
        lines = [line for line in fh if not line.startswith("#")]
    return list(csv.DictReader(lines))


def source_of(name: str) -> str:
    """The `# Source:` line of a vector file."""
    with (VECTORS / name).open(encoding="utf-8") as fh:
        first = fh.readline()
    return first.removeprefix("# Source:").strip()


def opt_int(text: str) -> int | None:
    return int(text) if text.strip() else None


@dataclass(frozen=True)
class CapEvent:
    """One player's games of one event of cap_eras.csv, in round order."""

    label: str
    date: dt.date
    rating_list: str
    rating: int
    opponents: list[int]
    d_used: list[int]
    pd_hundredths: list[int]


def cap_events() -> list[CapEvent]:
    """cap_eras.csv grouped by its `event` column (rows of an event in round order)."""
    grouped: dict[str, list[dict[str, str]]] = {}
    for row in load_vectors("cap_eras.csv"):
        grouped.setdefault(row["event"], []).append(row)
    events = []
    for name, rows in grouped.items():
        first = rows[0]
        assert all(
            (r["date"], r["list"], r["rating"]) == (first["date"], first["list"], first["rating"])
            for r in rows
        ), f"cap_eras.csv: event {name!r} mixes dates, lists or players"
        opponents = [int(r["opponent"]) for r in rows]
        label = f"{name} {first['list']} {first['date']} {first['rating']} vs {opponents}"
        events.append(
            CapEvent(
                label=label,
                date=dt.date.fromisoformat(first["date"]),
                rating_list=first["list"],
                rating=int(first["rating"]),
                opponents=opponents,
                d_used=[int(r["d_used"]) for r in rows],
                pd_hundredths=[int(r["pd_hundredths"]) for r in rows],
            )
        )
    return events
