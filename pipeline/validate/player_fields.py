"""What the files give in their players' federation and rating fields, file by file.

- ``federation-unknown``: a federation that is not one of FIDE's codes (`FEDERATIONS_CSV`,
  the codes of FIDE's rating list, ``FID`` included). Crosstables and TRFs carry club or
  region codes in that column (``KIL``, ``GON``, ``C.C``); such a code is kept in the
  frames and outputs as written, but it tells no one apart: name matching takes it as no
  federation (`fide_federation_expr`, used by `pipeline.identity`). One warning per file,
  naming the codes and how many players carry each.
- ``no-ratings-in-file``: a file that gives no player a rating (no rating column, or one
  left empty) while the rating list rates its players: said once for the file
  (`no_ratings_problem`) instead of a rating disagreement per player.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from functools import cache
from importlib.resources import files
from typing import TYPE_CHECKING

import polars as pl

from pipeline.errors import Location, Problem, Severity
from schemas.columns import E, P

if TYPE_CHECKING:
    from pipeline.formats.model import EventData

FEDERATION_UNKNOWN = "federation-unknown"
NO_RATINGS = "no-ratings-in-file"
FEDERATIONS_CSV = "data/fide_federations.csv"  # beside this module; `code,name`, cited
SHOWN_CODES = 20  # codes named in one warning; the others are counted


@cache
def fide_federations() -> dict[str, str]:
    """FIDE's federation codes and names (`FEDERATIONS_CSV`, its ``# Source:`` line)."""
    text = files("pipeline.validate").joinpath(FEDERATIONS_CSV).read_text(encoding="utf-8")
    rows = csv.DictReader(io.StringIO("".join(_data_lines(text))))
    return {row["code"]: row["name"] for row in rows}


def _data_lines(text: str) -> list[str]:
    return [line for line in text.splitlines(keepends=True) if not line.startswith("#")]


def fide_federation_expr(federation: pl.Expr) -> pl.Expr:
    """The federation as a FIDE code (stripped, upper case); null for none and for a
    code that is not FIDE's (a club or region code tells no one apart)."""
    code = federation.str.strip_chars().str.to_uppercase()
    return pl.when(code.is_in(list(fide_federations()))).then(code)


def federation_warnings(events: Sequence[EventData]) -> list[list[Problem]]:
    """The ``federation-unknown`` warning of each event (none or one), in the order
    given: one query over the players of all the events."""
    out: list[list[Problem]] = [[] for _ in events]
    frames = [
        ev.players.select(
            pl.lit(i, dtype=pl.Int64).alias("_ev"),
            pl.col(P.FED).cast(pl.String).str.strip_chars().alias("_code"),
        )
        for i, ev in enumerate(events)
        if P.FED in ev.players.columns and ev.players.height
    ]
    if not frames:
        return out
    counts = (
        pl.concat(frames)
        .filter(
            pl.col("_code").is_not_null(),
            pl.col("_code") != "",
            fide_federation_expr(pl.col("_code")).is_null(),
        )
        .group_by("_ev", "_code")
        .len()
        .sort("_ev", "len", "_code", descending=[False, True, False])
        .group_by("_ev", maintain_order=True)
        .agg("_code", "len")
    )
    for i, codes, players in counts.iter_rows():
        ev = events[i]
        file = str(ev.events[E.FILE][0]) if ev.events.height else ""
        out[i] = [unknown_federations_problem(file, list(zip(codes, players, strict=True)))]
    return out


def unknown_federations_problem(file: str, counts: list[tuple[str, int]]) -> Problem:
    """``expected FIDE federation codes, got KIL (12 players), GON (3); ...``: the codes
    (most players first) and how many players carry each."""
    shown = [
        f"{code} ({n} player{'s' * (n != 1)})" if at == 0 else f"{code} ({n})"
        for at, (code, n) in enumerate(counts[:SHOWN_CODES])
    ]
    rest = counts[SHOWN_CODES:]
    if rest:
        shown.append(f"{len(rest)} more ({sum(n for _, n in rest)})")
    return Problem(
        Location(file),
        FEDERATION_UNKNOWN,
        f"expected FIDE federation codes, got {', '.join(shown)}; they are not used to tell "
        "players apart (club or region codes?)",
        Severity.WARNING,
    )


def no_ratings_problem(file: str, rated: int) -> Problem:
    """The file gives no ratings, and the rating list rates `rated` of its players."""
    return Problem(
        Location(file),
        NO_RATINGS,
        f"the file gives no ratings: the rating list's are used ({rated} player"
        f"{'s' * (rated != 1)} rated there)",
        Severity.WARNING,
    )


__all__ = [
    "FEDERATION_UNKNOWN",
    "NO_RATINGS",
    "federation_warnings",
    "fide_federation_expr",
    "fide_federations",
    "no_ratings_problem",
    "unknown_federations_problem",
]
