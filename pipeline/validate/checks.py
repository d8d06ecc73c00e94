"""Cross-row checks of one event's frames (schemas.ingest): the consistency a row-level
schema cannot see.

Every check returns `Problem`s located at the source line (and TRF column range or header)
of the offending row. The work is done with polars joins and group-bys; Python only loops
over the rows already found to be wrong, to word their messages.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import polars as pl

from pipeline.errors import Location, Problem, Severity
from pipeline.formats.model import player_column
from schemas.columns import E, G, P
from schemas.ingest import PENDING_CODE

# Column names, taken from the schema models.

# FIDE B.02 §6 (from 1 March 2024): ratings below 1400 are not published; 1000 before.
FLOOR_CHANGE = date(2024, 3, 1)
FLOOR_FROM_2024 = 1400
FLOOR_BEFORE_2024 = 1000

# TRF16/TRF26 result codes and their mirror on the opponent's line (fide-rules.md §8),
# plus a pending game (paired, no result yet) on both lines. A forfeit loss may also be
# mirrored by a forfeit loss: a double forfeit, where neither player came (`DOUBLE_FORFEIT`).
MIRROR = {
    "1": "0", "0": "1", "=": "=", "+": "-", "-": "+", "W": "L", "L": "W", "D": "D",
    PENDING_CODE: PENDING_CODE,
}  # fmt: skip
DOUBLE_FORFEIT = "-"
OPPOSITE_COLOUR = {"w": "b", "b": "w"}


@dataclass(frozen=True)
class EventContext:
    """The facts of the event row that the checks need."""

    file: str
    source: str
    list: str | None
    start_date: date | None
    end_date: date | None
    rounds: int | None
    time_control: str | None
    scoring: str | None = None  # record 162 / XXS point values, JSON (the TRF reader's)

    @classmethod
    def from_events(cls, events: pl.DataFrame) -> EventContext:
        row = events.row(0, named=True)
        return cls(
            file=str(row.get(E.FILE) or ""),
            source=str(row.get(E.SOURCE) or ""),
            list=row.get(E.LIST),
            start_date=row.get(E.START),
            end_date=row.get(E.END),
            rounds=row.get(E.ROUNDS),
            time_control=row.get(E.TIME),
            scoring=row.get("scoring"),
        )

    def player_column(self, field: str) -> str:
        """The column label of a player field in this event's source format."""
        return player_column(self.source, field)

    def problem(
        self,
        line: int | None,
        column: str | None,
        code: str,
        message: str,
        severity: Severity = Severity.ERROR,
    ) -> Problem:
        return Problem(Location(self.file, line, column), code, message, severity)


def with_columns_present(df: pl.DataFrame, columns: dict[str, pl.DataType]) -> pl.DataFrame:
    """Add the optional columns a reader left out, as nulls of the schema's type."""
    missing = [pl.lit(None, dtype=dt).alias(name) for name, dt in columns.items() if name not in df]
    return df.with_columns(missing) if missing else df


def fmt_points(value: float) -> str:
    return f"{value:g}"


def plural(n: float, noun: str) -> str:
    return f"{n:g} {noun}{'' if n == 1 else 's'}"


# --- event-level checks ---------------------------------------------------------------


def check_event_facts(ctx: EventContext, games: pl.DataFrame) -> list[Problem]:
    """The rating list is known, dates are in order, rounds used match rounds declared."""
    problems: list[Problem] = []
    if ctx.list is None:
        got = f"time control {ctx.time_control!r}" if ctx.time_control else "no time control"
        problems.append(
            ctx.problem(
                None,
                None,
                "unknown-list",
                "expected a time control that names the rating list (standard, rapid or "
                f"blitz), got {got}: pass --list standard|rapid|blitz",
            )
        )
    if ctx.start_date is not None and ctx.end_date is not None and ctx.end_date < ctx.start_date:
        problems.append(
            ctx.problem(
                None,
                None,
                "dates-reversed",
                f"expected an end date on or after the start date {ctx.start_date.isoformat()}, "
                f"got {ctx.end_date.isoformat()}",
            )
        )
    pending = _pending_rounds(games)
    if pending:
        problems.append(
            ctx.problem(
                None,
                None,
                "results-pending",
                f"expected a result for every paired game, got {pending} without one yet: "
                "those games are not rated (an event in progress)",
                Severity.WARNING,
            )
        )
    if ctx.rounds is not None and games.height:
        used = games[G.ROUND].max()
        if isinstance(used, int) and used > ctx.rounds:
            first = (
                games.filter(pl.col(G.ROUND) > ctx.rounds).sort(G.LINE, G.ROUND).row(0, named=True)
            )
            problems.append(
                ctx.problem(
                    first[G.LINE],
                    first[G.COLUMN],
                    "round-count",
                    f"expected at most {plural(ctx.rounds, 'round')} as declared, got an "
                    f"entry for round {used}",
                )
            )
        elif isinstance(used, int) and used < ctx.rounds:
            problems.append(
                ctx.problem(
                    None,
                    None,
                    "rounds-missing",
                    f"expected entries for the {ctx.rounds} rounds declared, got {used}",
                    Severity.WARNING,
                )
            )
    return problems


def _pending_rounds(games: pl.DataFrame) -> str:
    """``'round 9 (12 games)'``, ``'rounds 8 (1 game) and 9 (30 games)'``, or ``''``."""
    counts = (
        games.filter(pl.col(G.CODE) == PENDING_CODE, pl.col(G.OPP).is_not_null())
        .group_by(G.ROUND)
        .agg(games=(pl.len() + 1) // 2)  # both sides of a game, or one of a one-sided entry
        .sort(G.ROUND)
    )
    parts = [f"{r} ({plural(n, 'game')})" for r, n in counts.iter_rows()]
    if not parts:
        return ""
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"round{'' if len(parts) == 1 else 's'} {listed}"


# --- player-level checks --------------------------------------------------------------


def _duplicates(
    ctx: EventContext, players: pl.DataFrame, field: str, code: str, noun: str
) -> list[Problem]:
    dup = (
        players.filter(pl.col(field).is_not_null())
        .with_columns(first_line=pl.col(P.LINE).min().over(field))
        .filter(pl.len().over(field) > 1, pl.col(P.LINE) != pl.col("first_line"))
        .sort(P.LINE)
    )
    return [
        ctx.problem(
            row[P.LINE],
            ctx.player_column(field),
            code,
            f"expected a {noun} used once, got {row[field]} again (first on line "
            f"{row['first_line']})",
        )
        for row in dup.iter_rows(named=True)
    ]


def check_players(ctx: EventContext, players: pl.DataFrame) -> list[Problem]:
    """Start numbers and FIDE IDs unique; ratings not below the floor of the event date."""
    problems = _duplicates(ctx, players, P.NO, "duplicate-start-number", "start number")
    problems += _duplicates(ctx, players, P.FIDE, "duplicate-fide-id", "FIDE ID")
    return problems + floor_warnings(ctx, players)


def floor_warnings(ctx: EventContext, players: pl.DataFrame) -> list[Problem]:
    """A published rating below the rating floor of the event's date (a warning)."""
    since_2024 = ctx.start_date is None or ctx.start_date >= FLOOR_CHANGE
    floor = FLOOR_FROM_2024 if since_2024 else FLOOR_BEFORE_2024
    low = players.filter(
        pl.col(P.RATING).is_not_null(),
        pl.col(P.RATING) >= FLOOR_BEFORE_2024,
        pl.col(P.RATING) < floor,
    ).sort(P.LINE)
    when = f"from {FLOOR_CHANGE.isoformat()}" if since_2024 else f"before {FLOOR_CHANGE}"
    if ctx.start_date is None:
        when += ", taken as the event has no date"
    return [
        ctx.problem(
            row[P.LINE],
            ctx.player_column(P.RATING),
            "below-rating-floor",
            f"expected a rating of at least {floor} (the rating floor {when}), "
            f"got {row[P.RATING]}: below the rating floor",
            Severity.WARNING,
        )
        for row in low.iter_rows(named=True)
    ]


# --- pairing checks ---------------------------------------------------------------------


def _labels(players: pl.DataFrame) -> dict[int, str]:
    """How messages name a player: `no. 12` (start number), or `id 7` when the reader kept
    the file's own player id (games CSV: start numbers are the reader's)."""
    if "player_id" not in players.columns:
        return {}
    return {
        int(no): f"id {pid}"
        for no, pid in players.select(P.NO, "player_id").iter_rows()
        if no is not None and pid is not None
    }


def _entry_text(
    opponent: int | None, colour: str | None, code: str | None, name: dict[int, str]
) -> str:
    opp = (
        f"opponent {name.get(opponent, f'no. {opponent}')}"
        if opponent is not None
        else "no opponent"
    )
    return f"{opp}, colour {colour or '-'}, result {code or '-'}"


def check_pairings(ctx: EventContext, games: pl.DataFrame, players: pl.DataFrame) -> list[Problem]:
    """Every entry belongs to a player; every game has an existing opponent other than the
    player, one entry per player per round, and is mirrored on the opponent's line."""
    problems: list[Problem] = []
    names = _labels(players)

    def lab(no: int) -> str:
        return names.get(no, f"no. {no}")

    ambiguous = players.filter(pl.len().over(P.NO) > 1)[P.NO].unique()
    player_lines = players.filter(~pl.col(P.NO).is_in(ambiguous.implode())).select(
        pl.col(P.NO), pl.col(P.LINE).alias("player_line")
    )
    known = players[P.NO].unique().implode()
    rows = games.with_row_index("_row")

    stray = rows.filter(~pl.col(G.NO).is_in(known)).sort(G.LINE, G.ROUND)
    problems += [
        ctx.problem(
            r[G.LINE],
            r[G.COLUMN],
            "unknown-player",
            f"expected a player listed in the file, got start number {r[G.NO]}",
        )
        for r in stray.iter_rows(named=True)
    ]
    rows = rows.filter(pl.col(G.NO).is_in(known), ~pl.col(G.NO).is_in(ambiguous.implode()))

    with_opp = rows.filter(pl.col(G.OPP).is_not_null())
    selfish = with_opp.filter(pl.col(G.OPP) == pl.col(G.NO)).sort(G.LINE, G.ROUND)
    problems += [
        ctx.problem(
            r[G.LINE],
            r[G.COLUMN],
            "paired-with-self",
            f"expected an opponent other than the player, got start number {r[G.OPP]} "
            f"in round {r[G.ROUND]}",
        )
        for r in selfish.iter_rows(named=True)
    ]
    missing = with_opp.filter(~pl.col(G.OPP).is_in(known)).sort(G.LINE, G.ROUND)
    problems += [
        ctx.problem(
            r[G.LINE],
            r[G.COLUMN],
            "opponent-missing",
            f"expected an opponent start number listed in the file, got {r[G.OPP]} "
            f"in round {r[G.ROUND]}",
        )
        for r in missing.iter_rows(named=True)
    ]

    # One entry per player per round (the player's own entries).
    twice_own = (
        rows.with_columns(first_line=pl.col(G.LINE).min().over(G.NO, G.ROUND))
        .filter(pl.len().over(G.NO, G.ROUND) > 1)
        .with_columns(rank=pl.col("_row").rank("ordinal").over(G.NO, G.ROUND))
        .filter(pl.col("rank") > 1)
        .sort(G.LINE, G.ROUND)
    )
    problems += [
        ctx.problem(
            r[G.LINE],
            r[G.COLUMN],
            "twice-in-round",
            f"expected one entry for {lab(r[G.NO])} in round {r[G.ROUND]}, got another "
            f"(first on line {r['first_line']})",
        )
        for r in twice_own.iter_rows(named=True)
    ]
    single = rows.filter(pl.len().over(G.NO, G.ROUND) == 1)

    # Games to mirror: an opponent who exists, is not the player, and a game result code.
    claims = single.filter(
        pl.col(G.OPP).is_not_null(),
        pl.col(G.OPP) != pl.col(G.NO),
        pl.col(G.OPP).is_in(player_lines[P.NO].implode()),
        pl.col(G.CODE).is_in(list(MIRROR)),
    )
    partner = single.select(
        pl.col(G.ROUND),
        pl.col(G.NO).alias("p_no"),
        pl.col(G.OPP).alias("p_opp"),
        pl.col(G.COLOUR).alias("p_colour"),
        pl.col(G.CODE).alias("p_code"),
        pl.col(G.LINE).alias("p_line"),
    )
    joined = (
        claims.join(partner, left_on=[G.ROUND, G.OPP], right_on=[G.ROUND, "p_no"], how="left")
        .join(player_lines, left_on=G.OPP, right_on=P.NO, how="left")
        .with_columns(
            claimants=pl.len().over(G.ROUND, G.OPP),
            mutual=pl.col("p_opp").eq_missing(pl.col(G.NO)),
        )
        .sort(G.LINE, G.ROUND)
    )

    # Somebody claimed by two or more players in one round.
    crowded = joined.filter(pl.col("claimants") > 1, ~pl.col("mutual"))
    for r in crowded.iter_rows(named=True):
        others = joined.filter(
            pl.col(G.ROUND) == r[G.ROUND], pl.col(G.OPP) == r[G.OPP], pl.col("_row") != r["_row"]
        )
        listed = " and ".join(
            f"{lab(o[G.NO])} (line {o[G.LINE]})" for o in others.iter_rows(named=True)
        )
        problems.append(
            ctx.problem(
                r[G.LINE],
                r[G.COLUMN],
                "twice-in-round",
                f"expected {lab(r[G.OPP])} to play once in round {r[G.ROUND]}, got a game "
                f"against {lab(r[G.NO])} here and against {listed}",
            )
        )

    # One-sided claims: the opponent's entry for that round is missing or points elsewhere.
    lonely = joined.filter(pl.col("claimants") == 1, ~pl.col("mutual"))
    for r in lonely.iter_rows(named=True):
        if r["p_line"] is None:
            got = f"no round-{r[G.ROUND]} entry on line {r['player_line']}"
        else:
            got = (
                f"{_entry_text(r['p_opp'], r['p_colour'], r['p_code'], names)} (line {r['p_line']})"
            )
        problems.append(
            ctx.problem(
                r[G.LINE],
                r[G.COLUMN],
                "unmirrored-game",
                f"expected {lab(r[G.OPP])} to show round {r[G.ROUND]} against {lab(r[G.NO])}, "
                f"got {got}",
            )
        )

    # Mutual pairs whose colours or results do not mirror: reported once, on the lower
    # number (or on the only side whose code is a game result).
    mismatched = joined.filter(
        pl.col("mutual"),
        (pl.col(G.NO) < pl.col(G.OPP)) | ~pl.col("p_code").is_in(list(MIRROR)),
        (
            (pl.col("p_code") != pl.col(G.CODE).replace_strict(MIRROR, default=None))
            & ~((pl.col(G.CODE) == DOUBLE_FORFEIT) & (pl.col("p_code") == DOUBLE_FORFEIT))
        )
        | (
            pl.col(G.COLOUR).is_in(["w", "b"])
            & pl.col("p_colour").is_in(["w", "b"])
            & (pl.col(G.COLOUR) == pl.col("p_colour"))
        ),
    )
    for r in mismatched.iter_rows(named=True):
        want_colour = OPPOSITE_COLOUR.get(r[G.COLOUR] or "", r["p_colour"])
        want = _entry_text(r[G.NO], want_colour, MIRROR[r[G.CODE]], names)
        got = _entry_text(r["p_opp"], r["p_colour"], r["p_code"], names)
        problems.append(
            ctx.problem(
                r[G.LINE],
                r[G.COLUMN],
                "unmirrored-game",
                f"expected line {r['p_line']} ({lab(r[G.OPP])}, round {r[G.ROUND]}) to mirror "
                f"this game with {want}, got {got}",
            )
        )
    return problems
