"""`elo explain`: one player's breakdown, laid out like FIDE's individual-calculation page.

For each rating list the player appears on: a header (name, FIDE ID, federation, Ro, K),
then per event the games (round, opponent, opponent rating, result, D, D used, PD, ΔR,
K·ΔR) with the event's subtotal, then the period total and the new rating. Excluded games
are listed with their reason so nothing is silently missing.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pipeline.rate import RateResult


def _dec(value: Any) -> Decimal:
    """Exact decimal of a two-decimal float as written (0.57 -> Decimal('0.57'))."""
    return Decimal(str(value)) if value is not None else Decimal(0)


def _signed(value: Decimal, places: int = 2) -> str:
    q = Decimal(1).scaleb(-places)
    return f"{value.quantize(q):+}"


def _plain(value: Any) -> str:
    return "" if value is None else str(value)


def render_explain(result: RateResult, fide_id: int) -> str | None:
    """The breakdown as text, or None when the player is not in the result."""
    import polars as pl

    ratings = result.ratings.filter(pl.col("fide_id") == fide_id)
    if ratings.is_empty():
        return None
    games = result.games.filter(pl.col("fide_id") == fide_id)
    out: list[str] = []
    for row in ratings.sort("list").iter_rows(named=True):
        lst = row["list"]
        title = f"{row['name']} (FIDE ID {fide_id}"
        title += f", {row['federation']})" if row.get("federation") else ")"
        out.append(title)
        out.append(f"{lst.capitalize()} rating list: {_status_line(row)}")
        out.append("")
        k = row.get("k")
        list_games = games.filter(pl.col("list") == lst).sort(["tournament", "round"])
        for (tournament,), ev in list_games.group_by(["tournament"], maintain_order=True):
            out.extend(_event_block(str(tournament), ev, k, row["rating_before"] is None))
        out.extend(_total_block(row))
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def _status_line(row: dict[str, Any]) -> str:
    ro = row.get("rating_before")
    k = row.get("k")
    parts = [f"Ro {ro if ro is not None else 'unrated'}"]
    if k is not None:
        parts.append(f"K {k}")
    parts.append(f"status {row['status']}")
    return ", ".join(parts)


def _event_block(tournament: str, ev: Any, k: int | None, unrated: bool) -> list[str]:
    lines = [tournament]
    header = (
        f"  {'Rd':>3} {'Opponent':<28} {'Rtg':>5} {'Res':>4} {'D':>5} {'Dused':>5} "
        f"{'PD':>5} {'ΔR':>6} {'K·ΔR':>7}  Note"
    )
    lines.append(header)
    lines.append("  " + "-" * (len(header) - 2))
    sum_pd = Decimal(0)
    sum_dr = Decimal(0)
    score = Decimal(0)
    n = 0
    counted = 0
    counted_score = Decimal(0)
    for g in ev.iter_rows(named=True):
        opp = _plain(g.get("opponent_name")) or "-"
        res = _plain(g.get("result"))
        lead = f"  {g['round']:>3} {opp[:28]:<28} {_plain(g.get('opponent_rating')):>5} {res:>4}"
        if g["rated"]:
            pd_ = _dec(g["expected"]).quantize(Decimal("0.01"))
            dr = _dec(g["delta"])
            sum_pd += pd_
            sum_dr += dr
            score += _dec(g["score"])
            n += 1
            kdr = _signed(dr * k, 1) if k is not None else ""
            lines.append(
                f"{lead} {_plain(g.get('difference')):>5} {_plain(g.get('difference_used')):>5} "
                f"{pd_:>5} {_signed(dr):>6} {kdr:>7}"
            )
            continue
        note = f"not rated: {g['reason']}"
        if unrated and g.get("counts_initial"):
            note = "counts toward an initial rating"
            counted += 1
            counted_score += _dec(g["score"])
        elif unrated and g["reason"] == "player-unrated":
            note = "disregarded (zero score in the first event)"
        lines.append(f"{lead} {'':>5} {'':>5} {'':>5} {'':>6} {'':>7}  {note}")
    if unrated:
        lines.append(
            f"  event: {counted} games against rated opponents, score {_score(counted_score)}"
        )
    else:
        kd = f", K×ΣΔR {_signed(sum_dr * k, 2)}" if k is not None and n else ""
        lines.append(
            f"  event: {n} rated games, score {_score(score)}, ΣPD {sum_pd}, "
            f"ΣΔR {_signed(sum_dr)}{kd}"
        )
    lines.append("")
    return lines


def _score(value: Decimal) -> str:
    return f"{value.quantize(Decimal('0.1'))}"


def _total_block(row: dict[str, Any]) -> list[str]:
    status = row["status"]
    lines = []
    if status in ("rated", "no-rated-games"):
        cu = row.get("change_unrounded")
        change = row.get("change")
        lines.append(
            f"Period: {row['games']} rated games, score {_score(_dec(row['score']))}, "
            f"ΣPD {_dec(row['expected']).quantize(Decimal('0.01'))}, K {row['k']}, "
            f"K×ΣΔR {_signed(_dec(cu)) if cu is not None else '+0.00'} -> change "
            f"{change if change is not None else 0:+d}, new rating {row['rating_after']}"
        )
        return lines
    detail = ""
    if row.get("ra") is not None:
        detail = (
            f" (Ra {_dec(row['ra']).quantize(Decimal('0.01'))} with two hypothetical 1800 "
            f"opponents, p {_dec(row['p']).quantize(Decimal('0.01'))}, dp {row['dp']})"
        )
    if status == "initial":
        lines.append(
            f"Period: {row['games']} games against rated opponents: initial rating "
            f"{row['rating_after']}{detail}, published"
        )
    else:
        value = row.get("initial_value")
        would = f"; it would be {value}{detail}" if value is not None else ""
        lines.append(
            f"Period: {row['games']} games against rated opponents counted toward an initial "
            f"rating; not published yet{would}"
        )
    return lines
