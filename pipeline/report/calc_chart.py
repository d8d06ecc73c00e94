"""The calculator page's chart: the expected score against the rating difference D (own
minus opponent's, -800..800), FIDE's table 8.1.2 as steps and the logistic curve 1 / (1
+ 10^(-D/400)), each game of the calculation a mark at its D (the D used) and its expected
score. Geometry only, in the SVG's units: the page's template draws it inline."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Final

from pipeline.calc import CalcResult
from pipeline.rules.methods import logistic_expected
from pipeline.rules.tables import expected_hundredths

WIDTH: Final = 480
HEIGHT: Final = 240
MARGIN: Final = 36  # room for the axes' labels
D_MAX: Final = 800


@dataclass(frozen=True)
class Mark:
    x: float
    y: float
    title: str  # "1600: 1 (E 0.36)"


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    table: str  # the path's d attribute: FIDE's steps
    logistic: str  # the path's d attribute: the curve
    marks: list[Mark]
    x_ticks: list[tuple[float, int]]  # position, D
    y_ticks: list[tuple[float, Decimal]]  # position, expected score
    left: int
    right: int
    top: int
    bottom: int


def _x(d: float) -> float:
    return round(MARGIN + (d + D_MAX) / (2 * D_MAX) * (WIDTH - 2 * MARGIN), 1)


def _y(e: float) -> float:
    return round(HEIGHT - MARGIN - e * (HEIGHT - 2 * MARGIN), 1)


def _table_path() -> str:
    points: list[str] = []
    last = None
    for d in range(-D_MAX, D_MAX + 1):
        e = expected_hundredths(d) / 100
        if e != last:
            if last is not None:
                points.append(f"L{_x(d)},{_y(last)}")
            points.append(f"{'M' if last is None else 'L'}{_x(d)},{_y(e)}")
            last = e
    points.append(f"L{_x(D_MAX)},{_y(last or 0)}")
    return "".join(points)


def _logistic_path() -> str:
    points = [
        f"{'M' if i == 0 else 'L'}{_x(d)},{_y(float(logistic_expected(Decimal(d))))}"
        for i, d in enumerate(range(-D_MAX, D_MAX + 1, 20))
    ]
    return "".join(points)


_TABLE, _LOGISTIC = _table_path(), _logistic_path()


def expectation_chart(result: CalcResult) -> Chart:
    """The chart with a mark for each game against a rated opponent."""
    marks = []
    for g in result.games:
        d = g.difference_used if g.difference_used is not None else g.difference
        if d is None or g.opponent is None:
            continue
        e = g.expected if g.expected is not None else Decimal(expected_hundredths(int(d))) / 100
        clamped = max(-D_MAX, min(D_MAX, float(d)))
        marks.append(Mark(_x(clamped), _y(float(e)), f"{g.opponent}: {g.score.normalize()}"))
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        table=_TABLE,
        logistic=_LOGISTIC,
        marks=marks,
        x_ticks=[(_x(d), d) for d in range(-D_MAX, D_MAX + 1, 400)],
        y_ticks=[(_y(float(e)), e) for e in (Decimal(0), Decimal("0.5"), Decimal(1))],
        left=MARGIN,
        right=WIDTH - MARGIN,
        top=MARGIN,
        bottom=HEIGHT - MARGIN,
    )
