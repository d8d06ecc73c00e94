"""Rendering of a calculator result: the readable table and the `--json` object.

Text: one line per game (opponent, score, D, D used, PD, ΔR, K·ΔR), then the totals and
the notes (rule set, K, 700 rule, games that do not count), in the language asked for
(`pipeline.i18n`: English, Spanish, Italian). The Spanish and Italian pages end their
totals with the answer line those federations' calculator pages give (expected score,
also as a percentage of the games, change and new rating). JSON: the design.md contract
keys plus a few more, in English whatever the language. Pure: returns a string or a dict.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Final

from pipeline.calc import CalcGame, CalcResult, Note, Term
from pipeline.i18n import DEFAULT_LANG, N_, Translator, translator
from pipeline.report.calc_rules import applied_rules
from pipeline.rules.fide import round_decimal_half_away
from pipeline.rules.ruleset import RuleSet

_ASCII: Final[dict[str, str]] = {
    "Σ": "sum ",
    "Δ": "d",
    "·": "*",
    "×": "x",
    "½": ".5",
    "→": "->",
}
METHOD_TITLES: Final[dict[str, str]] = {
    "fide": N_("FIDE (table 8.1.2, whole-number change)"),
    "continuous": N_("continuous (not FIDE)"),
    "sequential": N_("sequential, game after game (not FIDE)"),
    "average": N_("average opponent, classic Elo (not FIDE)"),
}
# words written into the texts: rating lists and expectations
WORDS: Final[tuple[str, ...]] = (
    N_("standard"),
    N_("rapid"),
    N_("blitz"),
    N_("table"),
    N_("logistic"),
    N_("polynomial"),
)
_ANSWER_LINE: Final = frozenset({"es", "it"})  # pages that end with the answer line


def _fixed(
    value: Decimal | None, places: int, *, sign: bool = False, tr: Translator | None = None
) -> str:
    """`value` rounded half away from zero to `places` decimals, "-" when None."""
    if value is None:
        return "-"
    q = value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return (tr or translator()).number(q, places, sign=sign)


def _score(value: Decimal, tr: Translator) -> str:
    if value == Decimal("0.5"):
        return "½"
    normal = value.normalize()
    return tr.number(normal, max(0, -int(normal.as_tuple().exponent)))


def _points(value: Decimal) -> str:
    whole = int(value)
    if value - whole != Decimal("0.5"):
        return str(whole)
    return f"{whole}½" if whole else "½"


def note_text(note: Note, tr: Translator) -> str:
    """A calculation note in the translator's language: its template translated, numbers
    and dates in the locale's form, the words of `Term` values translated."""
    values: dict[str, str] = {}
    for name, value in note.values:
        if isinstance(value, Term):
            values[name] = tr._(value.word)
        elif isinstance(value, Decimal):
            places = max(0, -int(value.as_tuple().exponent))
            values[name] = tr.number(value, places)
        elif isinstance(value, int):
            values[name] = tr.number(value)
        elif isinstance(value, str):
            values[name] = value
        else:
            values[name] = tr.date(value)
    return tr._(note.template).format(**values)


def describe_rule_set(rs: RuleSet, tr: Translator) -> str:
    """`RuleSet.describe()` in the translator's language (the same words in English)."""
    n = tr.number
    if rs.cap is None:
        cap = tr._("no cap")
    elif rs.cap_mode == "below-2650":
        exempt = n(rs.cap_exempt_from or 0)
        cap = tr._("cap {cap} below {rating}").format(cap=n(rs.cap), rating=exempt)
    elif rs.cap_mode == "once-per-event":
        cap = tr._("cap {cap} once per event").format(cap=n(rs.cap))
    else:
        cap = tr._("cap {cap}").format(cap=n(rs.cap))
    if rs.k_flat is not None:
        k = tr._("K {k} for all").format(k=n(rs.k_flat))
    else:
        k = f"K {n(rs.k_new)}/{n(rs.k_default)}/{n(rs.k_top)}"
        if rs.k_junior is not None:
            k += ", " + tr._("junior {k}").format(k=n(rs.k_junior))
    extras = [cap, k]
    if rs.rule_700:
        extras.append(tr._("700 rule"))
    if rs.rule_600:
        extras.append(tr._("600 rule"))
    extras.append(tr._("floor {rating}").format(rating=n(rs.floor)))
    return f"{rs.name} ({', '.join(extras)})"


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


def _game_cells(i: int, g: CalcGame, result: CalcResult, tr: Translator) -> list[str]:
    places = result.decimals
    d_places = 1 if result.method == "sequential" else 0
    if result.method == "average":
        d_places = 0
    opponent = tr._("unrated") if g.opponent is None else tr.number(g.opponent)
    cells = [str(i), opponent, _score(g.score, tr)]
    if result.method == "sequential":
        cells.append(_fixed(g.rating_before, 1, tr=tr))
    cells += [
        _fixed(g.difference, d_places, sign=True, tr=tr),
        _fixed(g.difference_used, d_places, sign=True, tr=tr),
        _fixed(g.expected, places, tr=tr),
        _fixed(g.delta, places, sign=True, tr=tr),
        _fixed(g.k_delta, 2, sign=True, tr=tr),
        g.reason,
    ]
    return cells


def _totals(result: CalcResult, tr: Translator) -> list[tuple[str, str]]:
    places = result.decimals
    rows: list[tuple[str, str]] = [
        (tr._("Games counted"), tr.number(result.n)),
        (tr._("Score"), _points(result.score)),
    ]
    if result.initial is not None:
        value = result.rating_after
        rows.append((tr._("Initial rating"), "-" if value is None else _fixed(value, 0, tr=tr)))
        return rows
    if result.average_opponent is not None:
        rows.append((tr._("Average opponent"), _fixed(result.average_opponent, 2, tr=tr)))
        rows.append((tr._("D used"), _fixed(result.average_difference, 2, sign=True, tr=tr)))
    k = "-"
    if result.k is not None:
        normal = result.k.normalize()
        k = tr.number(normal, max(0, -int(normal.as_tuple().exponent)))
    rows += [
        ("ΣPD" if result.method == "fide" else "ΣE", _fixed(result.expected, places, tr=tr)),
        (
            "ΣΔR" if result.method == "fide" else "Σ(W-E)",
            _fixed(result.sum_delta, places, sign=True, tr=tr),
        ),
        ("K", k),
        (
            tr._("K×ΣΔR unrounded") if result.method == "fide" else tr._("Change unrounded"),
            _fixed(result.change_unrounded, 4 if places == 4 else 2, sign=True, tr=tr),
        ),
    ]
    whole = result.method == "fide"
    rows.append((tr._("Change"), _fixed(result.change, 0 if whole else 1, sign=True, tr=tr)))
    rows.append((tr._("New rating"), _fixed(result.rating_after, 0 if whole else 1, tr=tr)))
    return rows


def _answer_line(result: CalcResult, tr: Translator) -> str | None:
    """`Punteggio atteso 0,36 (35,99%); Variazione +12,8; Nuovo Elo 1512,8`: the expected
    score (two decimals, and as a percentage of the games counted), the change and the new
    rating, as the Spanish and Italian calculator pages show them."""
    if result.expected is None or result.change is None or result.rating_after is None:
        return None
    expected = _fixed(result.expected, 2, tr=tr)
    if result.n:
        share = (result.expected / result.n).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)
        expected += f" ({tr.percent(share, 2)})"
    whole = result.method == "fide"
    parts = [
        tr._("Expected score {value}").format(value=expected),
        tr._("Change {value}").format(
            value=_fixed(result.change, 0 if whole else 1, sign=True, tr=tr)
        ),
        tr._("New rating {value}").format(
            value=_fixed(result.rating_after, 0 if whole else 1, tr=tr)
        ),
    ]
    return "; ".join(parts)


@dataclass(frozen=True)
class CalcSections:
    """A calculation's texts in one language, for the text page and the web page alike."""

    heading: list[str]  # rating, list and date; method; rule set
    header: list[str]  # the games table's column titles
    rows: list[list[str]]  # one per game, the notes' reason last
    totals: list[tuple[str, str]]  # label, value
    answer: str | None  # the es/it answer line
    notes: list[str]
    result_line: str | None = None  # the answer line in every language (the web page's)
    summary: str | None = None  # "x points of n (expected y)"
    rules: tuple[str, ...] = ()  # the special rules met, with their dates (calc_rules)


def _points_of(result: CalcResult, tr: Translator) -> str | None:
    """`1½ points of 3 (expected 1.46)`: the score of the games counted."""
    if not result.n:
        return None
    expected = "-" if result.expected is None else _fixed(result.expected, 2, tr=tr)
    return tr.ngettext(
        "{score} point of {n} (expected {expected})",
        "{score} points of {n} (expected {expected})",
        1 if result.score in (Decimal(1), Decimal("0.5")) else 2,  # the points' plural
    ).format(score=_points(result.score), n=result.n, expected=expected)


def calc_sections(result: CalcResult, lang: str = DEFAULT_LANG) -> CalcSections:
    """The calculation's parts, numbers written as `lang` writes them."""
    tr = translator(lang)
    before = tr._("unrated") if result.rating_before is None else tr.number(result.rating_before)
    heading = [
        tr._("Rating {rating}, {list} list, {date}").format(
            rating=before, list=tr._(result.rule_set.list), date=tr.date(result.on)
        ),
        tr._("Method: {method}, expectation: {expectation}").format(
            method=tr._(METHOD_TITLES[result.method]), expectation=tr._(result.expectation)
        ),
        tr._("Rule set: {rules}").format(rules=describe_rule_set(result.rule_set, tr)),
    ]
    header = ["#", tr._("Opponent"), tr._("Score")]
    if result.method == "sequential":
        header.append(tr._("Rating"))
    pd = "PD" if result.method == "fide" else "E"
    header += ["D", tr._("D used"), pd, "ΔR", "K·ΔR", tr._("Note")]
    return CalcSections(
        heading=heading,
        header=header,
        rows=[_game_cells(i, g, result, tr) for i, g in enumerate(result.games, start=1)],
        totals=_totals(result, tr),
        answer=_answer_line(result, tr) if lang in _ANSWER_LINE else None,
        notes=[note_text(note, tr) for note in result.notes],
        result_line=_answer_line(result, tr),
        summary=_points_of(result, tr),
        rules=tuple(applied_rules(result, tr)),
    )


def render_calc(result: CalcResult, *, ascii_only: bool = False, lang: str = DEFAULT_LANG) -> str:
    """The readable calculation: games table, totals, rule set and notes, in `lang`."""
    tr = translator(lang)
    parts = calc_sections(result, lang)
    lines = [*parts.heading, ""]
    lines += _table(parts.header, parts.rows, left=0)
    lines.append("")
    width = max(len(label) for label, _ in parts.totals)
    lines += [f"{label.ljust(width)}  {value}" for label, value in parts.totals]
    if parts.answer is not None:
        lines += ["", parts.answer]
    if parts.notes:
        lines.append("")
        lines.append(tr._("Notes:"))
        lines += [f"  - {note}" for note in parts.notes]
    text = "\n".join(lines)
    if ascii_only:
        for uni, plain in _ASCII.items():
            text = text.replace(uni, plain)
        # accents and no-break spaces of the translations: their plain letters
        text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
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
        "notes": [str(note) for note in result.notes],
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
