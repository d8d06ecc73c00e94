"""Declared points against the results: equal under 1/½/0, else explained by another
scoring system (a warning: TRF26 record 162 / TRF(x) XXS, byes counted otherwise, 2/1/0 or
3/1/0), else an error."""

from __future__ import annotations

import contextlib
import itertools
import json

import polars as pl

from pipeline.errors import Problem, Severity
from pipeline.validate.checks import EventContext, fmt_points, plural
from schemas.columns import G, P

# Values of the codes under a scoring system given by (win, draw); bye codes vary.
_WIN_CODES = ["1", "+", "W"]
_DRAW_CODES = ["=", "D"]
_BYE_CODES = ["H", "F", "U", "Z"]
_BYE_STANDARD = {"H": "draw", "F": "win", "U": "win", "Z": "loss"}
_SYSTEMS = [(1.0, 0.5), (2.0, 1.0), (3.0, 1.0)]
# Keys of record 162 (TRF26) and XXS (TRF(x)), as the TRF reader's `scoring` column holds
# them (a JSON object), and the codes they price. Generic keys first; specific ones override.
_SCORING_KEYS: list[tuple[str, list[str]]] = [
    ("W", ["1", "W", "+", "F", "U"]),
    ("WW", ["1", "W", "+", "F", "U"]),
    ("D", ["=", "D", "H"]),
    ("WD", ["=", "D", "H"]),
    ("L", ["0", "L", "-", "Z"]),
    ("WL", ["0", "L", "-", "Z"]),
    ("FW", ["+"]),
    ("FL", ["-"]),
    ("PAB", ["U"]),
    ("FPB", ["F"]),
    ("HPB", ["H"]),
    ("ZPB", ["Z"]),
]


def parse_scoring(text: str | None) -> dict[str, float]:
    """Code values from the events frame's `scoring` column: a JSON object such as
    ``{"W":1.0,"D":0.5,"L":0.0}`` (or the record's own text ``W 1.0  D 0.5  L 0.0``)."""
    if not text:
        return {}
    pairs: dict[str, float] = {}
    try:
        data = json.loads(text)
    except ValueError:
        tokens = text.replace(",", ".").replace("=", " ").split()
        for name, value in itertools.pairwise(tokens):
            with contextlib.suppress(ValueError):
                pairs[name.upper()] = float(value)
    else:
        if isinstance(data, dict):
            pairs = {
                str(k).upper(): float(v)
                for k, v in data.items()
                if isinstance(v, int | float) and not isinstance(v, bool)
            }
    values: dict[str, float] = {}
    for key, codes in _SCORING_KEYS:
        if key in pairs:
            values.update(dict.fromkeys(codes, pairs[key]))
    return values


def _explain(counts: dict[str, int], declared: float, scoring: dict[str, float]) -> str | None:
    """A scoring system under which the declared points are right, described; else None."""
    if scoring:
        total = sum(scoring.get(code, 0.0) * n for code, n in counts.items())
        if total == declared:
            return "the file's own scoring (record 162)"
    for win, draw in _SYSTEMS:
        base = win * sum(counts.get(c, 0) for c in _WIN_CODES)
        base += draw * sum(counts.get(c, 0) for c in _DRAW_CODES)
        value = {"win": win, "draw": draw, "loss": 0.0}
        byes = [c for c in _BYE_CODES if counts.get(c, 0)]
        for choice in itertools.product(("win", "draw", "loss"), repeat=len(byes)):
            total = base + sum(value[k] * counts[c] for c, k in zip(byes, choice, strict=True))
            if total != declared:
                continue
            changed = [
                f"{c} counted {fmt_points(value[k])}"
                for c, k in zip(byes, choice, strict=True)
                if k != _BYE_STANDARD[c]
            ]
            parts = [] if (win, draw) == _SYSTEMS[0] else [f"wins {win:g}, draws {draw:g}"]
            return "another scoring (" + ", ".join(parts + changed) + ")"
    return None


def check_points(ctx: EventContext, games: pl.DataFrame, players: pl.DataFrame) -> list[Problem]:
    """Declared points equal the sum of the results under 1/½/0; a difference that another
    scoring system explains (record 162, byes counted differently, 3/1/0) is a warning."""
    declared = players.filter(pl.col(P.POINTS).is_not_null(), pl.len().over(P.NO) == 1)
    if declared.is_empty():
        return []
    sums = games.group_by(G.NO).agg(pl.col(G.SCORE).sum().alias("results"))
    checked = (
        declared.join(sums, left_on=P.NO, right_on=G.NO, how="left")
        .with_columns(pl.col("results").fill_null(0.0))
        .filter(
            (pl.col(P.POINTS) * 100).round(0).cast(pl.Int64)
            != (pl.col("results") * 100).round(0).cast(pl.Int64)
        )
        .sort(P.LINE)
    )
    if checked.is_empty():
        return []
    codes = (
        games.filter(pl.col(G.NO).is_in(checked[P.NO].implode()))
        .group_by(G.NO, G.CODE)
        .agg(pl.len().alias("n"))
    )
    by_player: dict[int, dict[str, int]] = {}
    for no, code, n in codes.iter_rows():
        by_player.setdefault(no, {})[code] = n
    scoring = parse_scoring(ctx.scoring)
    problems: list[Problem] = []
    for r in checked.iter_rows(named=True):
        results, points = r["results"], r[P.POINTS]
        head = (
            f"expected {plural(results, 'point')} (the sum of the results, 1/½/0), "
            f"got {fmt_points(points)} declared"
        )
        why = _explain(by_player.get(r[P.NO], {}), points, scoring)
        column = ctx.player_column(P.POINTS)
        if why is None:
            problems.append(ctx.problem(r[P.LINE], column, "points-mismatch", head))
        else:
            problems.append(
                ctx.problem(
                    r[P.LINE],
                    column,
                    "points-other-scoring",
                    f"{head}; the declared points follow {why}",
                    Severity.WARNING,
                )
            )
    return problems
