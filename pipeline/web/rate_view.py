"""What the result page of a rating shows beside the players' table, from the files `elo
run` wrote: the rated-event checks (summary.json's warnings of
`pipeline.validate.rated`, with their regulation sections), the identities to review
(identities.csv's ambiguous and unmatched entries, with their candidates) and the
histogram of the changes (an inline SVG's bars)."""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from pipeline.validate.rated import RATED_EVENT_CODES, SECTION

REVIEW: Final = ("ambiguous", "unmatched")  # identities.csv's statuses to look at
BIN: Final = 5  # the histogram's bar width in rating points
WIDTH: Final = 480
HEIGHT: Final = 180
MARGIN: Final = 28


def rated_event_checks(summary: Mapping[str, object]) -> list[dict[str, object]]:
    """summary.json's rated-event warnings, each with its regulation section."""
    warnings = summary.get("warnings")
    found = warnings if isinstance(warnings, list) else []
    return [
        {**p, "section": SECTION[str(p["code"])]}
        for p in found
        if isinstance(p, dict) and p.get("code") in RATED_EVENT_CODES
    ]


def identities_to_review(out: Path) -> list[dict[str, str]]:
    """identities.csv's entries whose status is ambiguous or unmatched."""
    path = out / "identities.csv"
    if not path.is_file():
        return []
    with path.open(encoding="utf-8", newline="") as f:
        return [row for row in csv.DictReader(f) if row.get("status") in REVIEW]


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    low: int  # the changes low .. low + BIN - 1
    count: int


@dataclass(frozen=True)
class Histogram:
    width: int
    height: int
    bars: list[Bar]
    ticks: list[tuple[float, int]]  # position, change
    most: int  # the tallest bar's count
    baseline: float


def changes_histogram(ratings: Sequence[Mapping[str, object]]) -> Histogram | None:
    """Bars of BIN points over the players' (whole) changes; None without changes."""
    changes = [int(str(r["change"])) for r in ratings if r.get("change") not in (None, "")]
    if not changes:
        return None
    counts = Counter(c // BIN * BIN for c in changes)
    low, high = min(counts), max(counts) + BIN
    span = max(high - low, BIN)
    most = max(counts.values())
    inner_w, inner_h = WIDTH - 2 * MARGIN, HEIGHT - 2 * MARGIN

    def x(value: int) -> float:
        return round(MARGIN + (value - low) / span * inner_w, 1)

    bars = [
        Bar(
            x(start),
            round(HEIGHT - MARGIN - n / most * inner_h, 1),
            round(max(x(start + BIN) - x(start) - 1, 1), 1),
            round(n / most * inner_h, 1),
            start,
            n,
        )
        for start, n in sorted(counts.items())
    ]
    step = max(BIN, (span // 6 + BIN - 1) // BIN * BIN)
    ticks = [(x(t), t) for t in range(low, high + 1, step)]
    return Histogram(WIDTH, HEIGHT, bars, ticks, most, HEIGHT - MARGIN)
