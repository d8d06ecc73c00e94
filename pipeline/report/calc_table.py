"""Rendering of a calculator result: the readable table and the `--json` object.

Text: one line per game (opponent, score, D, D used, PD, ΔR, K·ΔR), then the totals and
the notes (rule set, K, 700 rule, games that do not count). JSON: the design.md contract
keys plus a few more. Pure: returns a string or a dict.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Final

from pipeline.calc import CalcGame, CalcResult
from pipeline.rules.fide import round_decimal_half_away

_ASCII: Final[dict[str, str]] = {
    "Σ": "sum ",
    "Δ": "d",
    "·": "*",
    "×": "x",
    "½": ".5",
    "→": "->",
}
_METHOD_TITLES: Final[dict[str, str]] = {
    "fide": "FIDE (table 8.1.2, whole-number change)",
    "continuous": "continuous (not FIDE)",
    "sequential": "sequential, game after game (not FIDE)",
    "average": "average opponent, classic Elo (not FIDE)",
}


def _fixed(value: Decimal | None, places: int, *, sign: bool = False) -> str:
    if value is None:
        return "-"
    q = value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return f"{q:+f}" if sign and q != 0 else f"{abs(q) if q == 0 else q:f}"


def _score(value: Decimal) -> str:
    if value == Decimal("0.5"):
        return "½"
    return f"{value.normalize():f}"


def _points(value: Decimal) -> str:
    whole = int(value)
    if value - whole != Decimal("0.5"):
        return str(whole)
    return f"{whole}½" if whole else "½"


def _table(header: list[str], rows: list[list[str]], left: int) -> list[str]:
    """Columns right-aligned, except the first `left` columns and the last (notes)."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = []
    for r in [header, *rows]:
        cells = [
            c.ljust(w) if i < left or i == len(r) - 1 else c.rjust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    return lines


def _game_cells(i: int, g: CalcGame, result: CalcResult) -> list[str]:
    places = result.decimals
    d_places = 1 if result.method == "sequential" else 0
    if result.method == "average":
        d_places = 0
    cells = [str(i), "unrated" if g.opponent is None else str(g.opponent), _score(g.score)]
    if result.method == "sequential":
        cells.append(_fixed(g.rating_before, 1))
    cells += [
        _fixed(g.difference, d_places, sign=True),
        _fixed(g.difference_used, d_places, sign=True),
        _fixed(g.expected, places),
        _fixed(g.delta, places, sign=True),
        _fixed(g.k_delta, 2, sign=True),
        g.reason,
    ]
    return cells


def _totals(result: CalcResult) -> list[tuple[str, str]]:
    places = result.decimals
    rows: list[tuple[str, str]] = [
        ("Games counted", str(result.n)),
        ("Score", _points(result.score)),
    ]
    if result.initial is not None:
        value = result.rating_after
        rows.append(("Initial rating", "-" if value is None else _fixed(value, 0)))
        return rows
    if result.average_opponent is not None:
        rows.append(("Average opponent", _fixed(result.average_opponent, 2)))
        rows.append(("D used", _fixed(result.average_difference, 2, sign=True)))
    rows += [
        ("ΣPD" if result.method == "fide" else "ΣE", _fixed(result.expected, places)),
        (
            "ΣΔR" if result.method == "fide" else "Σ(W-E)",
            _fixed(result.sum_delta, places, sign=True),
        ),
        ("K", f"{result.k.normalize():f}" if result.k is not None else "-"),
        (
            "K×ΣΔR unrounded" if result.method == "fide" else "Change unrounded",
            _fixed(result.change_unrounded, 4 if places == 4 else 2, sign=True),
        ),
    ]
    whole = result.method == "fide"
    rows.append(("Change", _fixed(result.change, 0 if whole else 1, sign=True)))
    rows.append(("New rating", _fixed(result.rating_after, 0 if whole else 1)))
    return rows


def render_calc(result: CalcResult, *, ascii_only: bool = False) -> str:
    """The readable calculation: games table, totals, rule set and notes."""
    before = "unrated" if result.rating_before is None else str(result.rating_before)
    lines = [
        f"Rating {before}, {result.rule_set.list} list, {result.on.isoformat()}",
        f"Method: {_METHOD_TITLES[result.method]}, expectation: {result.expectation}",
        f"Rule set: {result.rule_set.describe()}",
        "",
    ]
    header = ["#", "Opponent", "Score"]
    if result.method == "sequential":
        header.append("Rating")
    pd = "PD" if result.method == "fide" else "E"
    header += ["D", "D used", pd, "ΔR", "K·ΔR", "Note"]
    rows = [_game_cells(i, g, result) for i, g in enumerate(result.games, start=1)]
    lines += _table(header, rows, left=0)
    lines.append("")
    totals = _totals(result)
    width = max(len(label) for label, _ in totals)
    lines += [f"{label.ljust(width)}  {value}" for label, value in totals]
    if result.notes:
        lines.append("")
        lines.append("Notes:")
        lines += [f"  - {note}" for note in result.notes]
    text = "\n".join(lines)
    if ascii_only:
        for uni, plain in _ASCII.items():
            text = text.replace(uni, plain)
    return text


def _num(value: Decimal | int | None, places: int | None = None) -> int | float | None:
    """A JSON number: whole values as int, others as float (rounded to `places`)."""
    if value is None:
        return None
    d = Decimal(value)
    if places is not None:
        d = round_decimal_half_away(d, places)
    if d == d.to_integral_value():
        return int(d)
    return float(d)


def _fraction(value: Fraction | None) -> Decimal | None:
    if value is None:
        return None
    return Decimal(value.numerator) / Decimal(value.denominator)


def calc_json(result: CalcResult) -> dict[str, object]:
    """The `--json` object of the CLI contract (design.md), plus a few more keys."""
    places = result.decimals
    out: dict[str, object] = {
        "rating_before": result.rating_before,
        "k": _num(result.k),
        "method": result.method,
        "expectation": result.expectation,
        "list": result.rule_set.list,
        "rule_set": result.rule_set.name,
        "date": result.on.isoformat(),
        "games": [
            {
                "opponent": g.opponent,
                "score": _num(g.score),
                "difference": _num(g.difference, places),
                "difference_used": _num(g.difference_used, places),
                "expected": _num(g.expected, places),
                "delta": _num(g.delta, places),
                "rated": g.rated,
                "reason": g.reason,
            }
            for g in result.games
        ],
        "n": result.n,
        "score": _num(result.score),
        "expected": _num(result.expected, places),
        "sum_delta": _num(result.sum_delta, places),
        "change_unrounded": _num(result.change_unrounded, 4),
        "change": _num(result.change),
        "rating_after": _num(result.rating_after),
        "notes": list(result.notes),
    }
    if result.average_opponent is not None:
        out["average_opponent"] = _num(result.average_opponent, 2)
        out["average_difference"] = _num(result.average_difference, 2)
    ini = result.initial
    if ini is not None:
        p = None if ini.p_hundredths is None else Decimal(ini.p_hundredths) / 100
        out["initial"] = {
            "method": ini.method,
            "games": ini.games,
            "ra": _num(_fraction(ini.ra), 2),
            "p": _num(p),
            "dp": ini.dp,
            "value": ini.value,
            "published": result.rating_after is not None,
        }
    return out
