"""Is the event valid for FIDE rating? The checks an arbiter or rating officer makes before
submitting, from what the files hold: the time control, the rounds and dates, the players'
ratings. Warnings only (`RATED_EVENT_CODES`), never blocking: a file may lack what FIDE's
registration holds, and the officer decides.

- ``standard-time-below-minimum`` (B.02 §1.1): a standard game gives each player, for 60
  moves, at least 120 minutes where a player is rated 2400 or higher, 90 where one is
  rated 1800 or higher, 60 otherwise. Counted per played game from the file's ratings
  (an unrated player counts as below 1800).
- ``rapid-time-control`` / ``blitz-time-control`` (Laws of Chess A.1 / B.1, Rapid and Blitz
  Rating Regulations §1): rapid needs more than 10 and less than 60 minutes for 60 moves,
  blitz more than 3 and at most 10 (base time plus 60 times the increment).
- ``rounds-per-day`` (Rapid and Blitz Rating Regulations): at most 15 rapid or 30 blitz
  rounds a day. Counted on each day when the file dates its rounds (TRF record 132);
  else from the event's first and last day, that the rounds fit in those days (more than
  15 x days is certainly too many on some day).
- ``unequal-times``: the time control gives the two players different times (an
  Armageddon, or a white and a black time that differ); FIDE rates games in which both
  players have the same time.
- ``match-unrated-player`` (B.02 §6.1): a match (two players only) in which a player is
  unrated.

Times come from `pipeline.formats.timecontrol` (record 222 in seconds, else the free text
of 122 or a crosstable's preamble); an unreadable time control is not guessed at.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from datetime import date
from fractions import Fraction
from typing import TYPE_CHECKING

import polars as pl

from pipeline.errors import Location, Problem, Severity
from pipeline.formats.timecontrol import seconds_for_time_control
from schemas.columns import E, G, P

if TYPE_CHECKING:
    from pipeline.formats.model import EventData

STANDARD_TIME = "standard-time-below-minimum"
RAPID_TIME = "rapid-time-control"
BLITZ_TIME = "blitz-time-control"
ROUNDS_PER_DAY = "rounds-per-day"
UNEQUAL_TIMES = "unequal-times"
MATCH_UNRATED = "match-unrated-player"
RATED_EVENT_CODES = (
    STANDARD_TIME,
    RAPID_TIME,
    BLITZ_TIME,
    ROUNDS_PER_DAY,
    UNEQUAL_TIMES,
    MATCH_UNRATED,
)

SECTION = {
    STANDARD_TIME: "B.02 §1.1",
    RAPID_TIME: "Laws of Chess A.1",
    BLITZ_TIME: "Laws of Chess B.1",
    ROUNDS_PER_DAY: "Rapid and Blitz Rating Regulations",
    UNEQUAL_TIMES: "Laws of Chess A.1 / B.1",
    MATCH_UNRATED: "B.02 §6.1",
}

# (minutes for 60 moves, the lowest rating of the higher-rated player it applies from)
STANDARD_MINIMUM = ((120, 2400), (90, 1800), (60, 0))
RAPID_WINDOW = (10, 60)  # more than 10, less than 60 minutes
BLITZ_WINDOW = (3, 10)  # more than 3, at most 10 minutes
ROUNDS_A_DAY = {"rapid": 15, "blitz": 30}

_ARMAGEDDON = re.compile(r"armage?ddon", re.IGNORECASE)
_WHITE = re.compile(r"\b(?:white|weiß|weiss|blancas?|bianco|blanc|blancs)\b", re.IGNORECASE)
_BLACK = re.compile(r"\b(?:black|schwarz|negras?|nero|noir|noirs)\b", re.IGNORECASE)


def _minutes(seconds: Fraction) -> str:
    """Minutes as a person writes them: 90, 25.5."""
    value = seconds / 60
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.1f}".rstrip("0").rstrip(".")


def _problem(file: str, code: str, message: str) -> Problem:
    return Problem(Location(file), code, f"{message} ({SECTION[code]})", Severity.WARNING)


def _unequal(text: str) -> str | None:
    """Why the time control gives the two players different times, or None."""
    if _ARMAGEDDON.search(text):
        return "an Armageddon time control"
    white, black = _WHITE.search(text), _BLACK.search(text)
    if white is None or black is None:
        return None
    cut = max(white.start(), black.start())
    first = seconds_for_time_control(text[:cut])
    second = seconds_for_time_control(text[cut:])
    if first is None or second is None or first == second:
        return None
    return f"{_minutes(first)} and {_minutes(second)} minutes for 60 moves"


def _window(file: str, lst: str, text: str, seconds: Fraction) -> Problem | None:
    low, high = RAPID_WINDOW if lst == "rapid" else BLITZ_WINDOW
    minutes = seconds / 60
    inside = low < minutes < high if lst == "rapid" else low < minutes <= high
    if inside:
        return None
    need = (
        f"more than {low} and less than {high}"
        if lst == "rapid"
        else f"more than {low} and at most {high}"
    )
    code = RAPID_TIME if lst == "rapid" else BLITZ_TIME
    return _problem(
        file,
        code,
        f"{lst} time control: expected {need} minutes for 60 moves (base time plus 60 "
        f"increments), got {_minutes(seconds)} from {text!r}",
    )


def _rounds_per_day(
    file: str, lst: str, facts: dict[str, object], dates: Sequence[date | None]
) -> Problem | None:
    limit = ROUNDS_A_DAY.get(lst)
    if limit is None:
        return None
    days = Counter(d for d in dates if d is not None)
    if days:
        day, most = max(days.items(), key=lambda item: (item[1], -item[0].toordinal()))
        if most <= limit:
            return None
        return _problem(
            file,
            ROUNDS_PER_DAY,
            f"{lst} rounds a day: expected at most {limit}, got {most} rounds on {day} "
            "(the round dates of record 132)",
        )
    start, end, rounds = facts.get(E.START), facts.get(E.END), facts.get(E.ROUNDS)
    if not isinstance(start, date) or not isinstance(rounds, int):
        return None
    last = end if isinstance(end, date) else start
    span = (last - start).days + 1
    if span < 1 or rounds <= limit * span:
        return None
    when = f"{start}" if span == 1 else f"{start} to {last}"
    return _problem(
        file,
        ROUNDS_PER_DAY,
        f"{lst} rounds a day: expected at most {limit}, got {rounds} rounds in {span} "
        f"day{'s' * (span != 1)} ({when}), more than {limit} on at least one day",
    )


def _match(file: str, players: pl.DataFrame) -> Problem | None:
    if players.height != 2 or P.RATING not in players.columns:
        return None
    unrated = players.filter(pl.col(P.RATING).is_null())
    if unrated.height == 0:
        return None
    names = " and ".join(str(n) for n in unrated[P.NAME].to_list())
    return _problem(
        file,
        MATCH_UNRATED,
        f"match (two players only): expected both players rated, got {names} unrated",
    )


def _standard_counts(events: Sequence[EventData], indices: list[int]) -> dict[int, list[int]]:
    """For each event index: its played games by the higher rating's tier (>= 2400,
    >= 1800, below), each game once; one query over all the events given."""
    if not indices:
        return {}
    games, players = [], []
    for i in indices:
        ev = events[i]
        if not {G.NO, G.OPP, G.PLAYED} <= set(ev.games.columns):
            continue
        if not {P.NO, P.RATING} <= set(ev.players.columns):
            continue
        games.append(
            ev.games.select(
                pl.lit(i, pl.Int64).alias("_ev"),
                pl.col(G.NO).cast(pl.Int64),
                pl.col(G.OPP).cast(pl.Int64),
                pl.col(G.PLAYED).cast(pl.Boolean),
            )
        )
        players.append(
            ev.players.select(
                pl.lit(i, pl.Int64).alias("_ev"),
                pl.col(P.NO).cast(pl.Int64),
                pl.col(P.RATING).cast(pl.Int64),
            )
        )
    if not games:
        return {}
    ratings = pl.concat(players).unique(["_ev", P.NO], keep="first")
    own = ratings.rename({P.RATING: "_own"})
    opp = ratings.rename({P.NO: G.OPP, P.RATING: "_opp"})
    higher = pl.max_horizontal(pl.col("_own").fill_null(0), pl.col("_opp").fill_null(0))
    tier = (
        pl.when(higher >= STANDARD_MINIMUM[0][1])
        .then(0)
        .when(higher >= STANDARD_MINIMUM[1][1])
        .then(1)
        .otherwise(2)
    )
    counted = (
        pl.concat(games)
        .filter(pl.col(G.PLAYED).fill_null(False) & (pl.col(G.NO) < pl.col(G.OPP)))
        .join(own, on=["_ev", P.NO], how="left")
        .join(opp, on=["_ev", G.OPP], how="left")
        .group_by("_ev", tier.alias("_tier"))
        .len()
    )
    out: dict[int, list[int]] = {}
    for ev, t, n in counted.iter_rows():
        out.setdefault(ev, [0, 0, 0])[t] += n
    return out


def _standard(file: str, text: str, seconds: Fraction, counts: list[int]) -> Problem | None:
    short = [
        (minutes, floor, n)
        for (minutes, floor), n in zip(STANDARD_MINIMUM, counts, strict=True)
        if n and seconds < minutes * 60
    ]
    if not short:
        return None
    parts = []
    for minutes, floor, n in short:
        who = f"with a player rated {floor} or higher" if floor else "of players below 1800"
        parts.append(f"{minutes} for {n} game{'s' * (n != 1)} {who}")
    return _problem(
        file,
        STANDARD_TIME,
        "standard games' thinking time: expected at least "
        + ", ".join(parts)
        + f" (minutes for 60 moves), got {_minutes(seconds)} minutes from {text!r}",
    )


def rated_event_warnings(events: Sequence[EventData]) -> list[list[Problem]]:
    """The rated-event warnings of each event, in the order given."""
    out: list[list[Problem]] = [[] for _ in events]
    facts: list[dict[str, object]] = []
    seconds: list[Fraction | None] = []
    for ev in events:
        row = ev.events.row(0, named=True) if ev.events.height else {}
        facts.append(row)
        text = row.get(E.TIME)
        seconds.append(seconds_for_time_control(text) if isinstance(text, str) else None)
    standard = [
        i
        for i, (row, s) in enumerate(zip(facts, seconds, strict=True))
        if row.get(E.LIST) == "standard" and s is not None and s < STANDARD_MINIMUM[0][0] * 60
    ]
    counts = _standard_counts(events, standard)
    for i, (ev, row, s) in enumerate(zip(events, facts, seconds, strict=True)):
        file = str(row.get(E.FILE) or "")
        lst = row.get(E.LIST)
        text = row.get(E.TIME)
        found: list[Problem | None] = []
        if isinstance(text, str) and s is not None:
            if lst == "standard" and i in counts:
                found.append(_standard(file, text, s, counts[i]))
            elif lst in ("rapid", "blitz"):
                found.append(_window(file, str(lst), text, s))
        if isinstance(text, str):
            why = _unequal(text)
            if why is not None:
                found.append(
                    _problem(
                        file,
                        UNEQUAL_TIMES,
                        f"playing times: expected the same time for both players, got {why} "
                        f"from {text!r}",
                    )
                )
        if isinstance(lst, str):
            found.append(_rounds_per_day(file, lst, row, ev.round_dates))
        found.append(_match(file, ev.players))
        out[i] = [p for p in found if p is not None]
    return out


__all__ = ["RATED_EVENT_CODES", "SECTION", "rated_event_warnings"]
