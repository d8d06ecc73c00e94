"""What a TRF can carry: the checks an event passes before `write_trf` writes it, and the
read-back that proves the text written is the event (`elo convert`).

`fit_event(event, version)` returns the event as it will be written and every problem
that keeps it from being written faithfully (errors), plus what had to be filled in
(warnings):

- a player field wider than its TRF columns: a name over 33 characters (15-47), a
  federation or title over 3 (54-56, 11-13), a start number, rank or opponent over 9999,
  a FIDE ID over 11 digits, points that do not fit 81-84 (``trf-field-too-long``);
- two players of the event with one FIDE ID (the identity stage linked them so;
  ``trf-duplicate-fide-id``);
- a round with two entries for one player (TRF has one slot per round), a pending game
  without an opponent (TRF leaves a result blank only beside one), a code that is not
  TRF's (``trf-result``);
- TRF26 only: no start date (042 is mandatory for rating in TRF26; ``trf-no-date``). An
  end date missing beside a start date is written as the start date (a one-day event),
  with a ``trf-end-date-assumed`` warning: the period and the rules are those of the
  start date either way.

Titles are written as TRF reads them back (``g`` -> ``GM``), record values on one line,
and the rounds as at least the last round played. `read_back(target, text, version,
list_override)` reads the text with `read_trf`, settles its rating list as `read_path`
would, and compares every field the rating uses: the event's name, list, dates, rounds,
time control, scoring, city and federation; each player's number, name, FIDE ID,
federation, title, sex, birth year, rating, points and rank; every round entry
(opponent, colour, code; an absence is the same whether the source wrote it or left the
round out). A difference is a ``trf-not-faithful`` error: a bug of the writer, but the
file is then not written.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date
from typing import Any

import polars as pl

from pipeline.errors import InputError, Location, Problem, Severity
from pipeline.formats.model import EventData, player_column
from pipeline.formats.trf import fields as tf
from pipeline.formats.trf.read import read_trf
from pipeline.formats.trf.write import TRF26, one_line, time_control_record
from schemas.columns import E, G, P
from schemas.ingest import PENDING_CODE, Events, Players

E_CITY, E_FED, E_SCORING = str(Events.city), str(Events.federation), str(Events.scoring)
E_LIST_SOURCE = str(Events.list_source)
E_CHIEF, E_DEPUTIES = str(Events.chief_arbiter), str(Events.deputy_arbiters)
P_RANK = str(Players.rank)

EVENT_FIELDS = (
    E.NAME, E.LIST, E.START, E.END, E.ROUNDS, E.TIME, E_SCORING, E_CITY, E_FED, E_CHIEF,
    E_DEPUTIES,
)  # fmt: skip
PLAYER_FIELDS = (P.NO, P.NAME, P.FIDE, P.FED, P.TITLE, P.SEX, P.BIRTH, P.RATING, P.POINTS, P_RANK)
GAME_FIELDS = (G.NO, G.ROUND, G.OPP, G.COLOUR, G.CODE)
_WRITABLE_CODES = frozenset({*tf.RESULT_CODE_SET, PENDING_CODE})
_MAX_NO = 9999


def _width(cols: tf.Columns) -> int:
    return cols.last - cols.first + 1


@dataclass(frozen=True)
class _Event:
    """Who the problems are about: the event's file, source format, name and version."""

    file: str
    source: str
    name: str
    version: str

    def problem(
        self,
        line: int | None,
        column: str | None,
        code: str,
        text: str,
        severity: Severity = Severity.ERROR,
    ) -> Problem:
        tail = "not converted" if severity is Severity.ERROR else "converted"
        message = f"{text}; event {self.name!r} {tail} to {self.version.upper()}"
        return Problem(Location(self.file, line, column), code, message, severity)

    def player(self, row: dict[str, Any], field: str, code: str, text: str) -> Problem:
        line = row.get(P.LINE)
        column = player_column(self.source, field)
        return self.problem(line if isinstance(line, int) else None, column, code, text)


def fit_event(event: EventData, version: str) -> tuple[EventData, list[Problem]]:
    """The event as `write_trf` will write it, and the problems (module docstring)."""
    row = event.events.row(0, named=True)
    who = _Event(
        str(row.get(E.FILE) or ""),
        str(row.get(E.SOURCE) or ""),
        one_line(str(row.get(E.NAME) or "")),
        version,
    )
    problems = _player_problems(who, event.players) + _game_problems(who, event.games)
    events, found = _fit_events(who, event.events, event.games)
    problems += found
    players = event.players.with_columns(
        pl.Series(P.NAME, [one_line(str(n or "")) for n in event.players[P.NAME]], pl.String),
        pl.Series(P.TITLE, [_title(t) for t in event.players[P.TITLE]], pl.String),
    )
    return replace(event, events=events, players=players), problems


def _title(text: str | None) -> str | None:
    return None if text is None else tf.normalise_title(one_line(text))


def _player_problems(who: _Event, players: pl.DataFrame) -> list[Problem]:
    problems: list[Problem] = []
    for r in players.sort(P.NO).iter_rows(named=True):
        name = one_line(str(r.get(P.NAME) or ""))
        if len(name) > _width(tf.NAME):
            problems.append(
                who.player(
                    r, P.NAME, "trf-field-too-long",
                    f"expected a name of at most {_width(tf.NAME)} characters (TRF columns "
                    f"{tf.NAME}), got {name!r} ({len(name)} characters): shorten it in the "
                    "source, as FIDE's list writes it",
                )
            )  # fmt: skip
        for field, cols, what in (
            (P.FED, tf.FEDERATION, "federation"),
            (P.TITLE, tf.TITLE, "title"),
        ):
            value = r.get(field)
            if value is not None and len(one_line(str(value))) > _width(cols):
                problems.append(
                    who.player(
                        r, field, "trf-field-too-long",
                        f"expected a {what} of at most {_width(cols)} letters (TRF columns "
                        f"{cols}), got {value!r}",
                    )
                )  # fmt: skip
        for field, cols, what in (
            (P.NO, tf.START_NO, "start number"),
            (P.FIDE, tf.FIDE_ID, "FIDE ID"),
            (P_RANK, tf.RANK, "rank"),
            (P.RATING, tf.RATING, "rating"),
        ):
            value = r.get(field)
            if value is not None and not 0 < value < 10 ** _width(cols):
                problems.append(
                    who.player(
                        r, field, "trf-field-too-long",
                        f"expected a {what} of 1 to {_width(cols)} digits (TRF columns {cols}), "
                        f"got {value}",
                    )
                )  # fmt: skip
        points = r.get(P.POINTS)
        if points is not None and len(tf.format_points(points)) > _width(tf.POINTS):
            problems.append(
                who.player(
                    r, P.POINTS, "trf-field-too-long",
                    f"expected points that fit TRF columns {tf.POINTS} (4 characters), got "
                    f"{tf.format_points(points)}",
                )
            )  # fmt: skip
        year = r.get(P.BIRTH)
        if year is not None and not 0 < year <= 9999:
            problems.append(
                who.player(
                    r, P.BIRTH, "trf-field-too-long",
                    f"expected a birth year of 4 digits (TRF columns {tf.BIRTH}), got {year}",
                )
            )  # fmt: skip
    return problems + _duplicate_ids(who, players)


def _duplicate_ids(who: _Event, players: pl.DataFrame) -> list[Problem]:
    twice = players.filter(pl.col(P.FIDE).is_not_null() & (pl.len().over(P.FIDE) > 1)).sort(
        P.FIDE, P.NO
    )
    problems: list[Problem] = []
    for (fide_id,), group in twice.group_by(P.FIDE, maintain_order=True):
        rows = list(group.iter_rows(named=True))
        shown = ", ".join(f"no. {r[P.NO]} {r[P.NAME]!r}" for r in rows)
        problems.append(
            who.player(
                rows[-1], P.FIDE, "trf-duplicate-fide-id",
                f"expected each FIDE ID once in the event, got {fide_id} for {shown} (as the "
                "file gives them or linked by name to the rating list or across the events): "
                "correct the source, or pass --registry to link by the list",
            )
        )  # fmt: skip
    return problems


def _game_problems(who: _Event, games: pl.DataFrame) -> list[Problem]:
    problems: list[Problem] = []
    seen: set[tuple[int, int]] = set()
    for r in games.sort(G.NO, G.ROUND).iter_rows(named=True):
        line = r.get(G.LINE)
        where = line if isinstance(line, int) else None
        column = r.get(G.COLUMN) or None
        number, round_no, opponent, code = r[G.NO], r[G.ROUND], r[G.OPP], r[G.CODE]
        if (number, round_no) in seen:
            problems.append(
                who.problem(
                    where, column, "trf-result",
                    f"expected one entry per player and round (TRF has one slot per round), "
                    f"got a second one for no. {number} in round {round_no}",
                )
            )  # fmt: skip
        seen.add((number, round_no))
        if opponent is not None and not 0 < opponent <= _MAX_NO:
            problems.append(
                who.problem(
                    where, column, "trf-field-too-long",
                    f"expected an opponent number of 1 to 4 digits, got {opponent} "
                    f"(no. {number}, round {round_no})",
                )
            )  # fmt: skip
        if code not in _WRITABLE_CODES:
            problems.append(
                who.problem(
                    where, column, "trf-result",
                    f"expected a result TRF can write ({tf.RESULT_CODES_TEXT}, or a pending "
                    f"game), got {code!r} (no. {number}, round {round_no})",
                )
            )  # fmt: skip
        elif code == PENDING_CODE and opponent is None:
            problems.append(
                who.problem(
                    where, column, "trf-result",
                    f"expected an opponent for the pending game of no. {number} in round "
                    f"{round_no} (TRF leaves a result blank only beside an opponent), got none",
                )
            )  # fmt: skip
    return problems


def _fit_events(
    who: _Event, events: pl.DataFrame, games: pl.DataFrame
) -> tuple[pl.DataFrame, list[Problem]]:
    row = events.row(0, named=True)
    problems: list[Problem] = []
    start, end = row.get(E.START), row.get(E.END)
    if who.version == TRF26 and start is None:
        problems.append(
            who.problem(
                None, None, "trf-no-date",
                "expected a start date (record 042, mandatory in TRF26 as YYYY/MM/DD), got "
                f"none{' (only the end date ' + str(end) + ')' if end else ''}: add it to the "
                "source, or convert --to trf16",
            )
        )  # fmt: skip
    elif who.version == TRF26 and end is None:
        end = start
        problems.append(
            who.problem(
                None, None, "trf-end-date-assumed",
                f"expected an end date (record 052, mandatory in TRF26), got only the start "
                f"date; 052 written as {start} (a one-day event: the period and the rules "
                "are those of the start date either way)",
                Severity.WARNING,
            )
        )  # fmt: skip
    played = games.filter(~((pl.col(G.CODE) == "Z") & pl.col(G.OPP).is_null()))
    last = played[G.ROUND].max() if played.height else None
    rounds = max(row.get(E.ROUNDS) or 0, last if isinstance(last, int) else 0)
    texts: dict[str, str | None] = {
        name: None if (v := row.get(name)) is None else one_line(str(v))
        for name in (E.NAME, E_CITY, E_FED, E_CHIEF)
    }
    deputies = row.get(E_DEPUTIES)
    if isinstance(deputies, str):  # a 112 record each, as they read back
        texts[E_DEPUTIES] = "\n".join(filter(None, map(one_line, deputies.splitlines()))) or None
    fitted = events.with_columns(
        pl.lit(end, dtype=pl.Date).alias(E.END),
        pl.lit(rounds or None, dtype=pl.Int64).alias(E.ROUNDS),
        *[pl.lit(v, dtype=pl.String).alias(name) for name, v in texts.items()],
    )
    return fitted, problems


# --- the read-back -------------------------------------------------------------------------


def read_back(
    target: EventData, text: str, version: str, list_override: str | None, file: str
) -> tuple[EventData | None, list[Problem]]:
    """`text` read as `read_path` reads a TRF file (named `file`), and the fields that
    differ from `target` as ``trf-not-faithful`` errors (module docstring)."""
    from pipeline.formats.schedule import settle_list

    row = target.events.row(0, named=True)
    who = _Event(str(row.get(E.FILE) or ""), str(row.get(E.SOURCE) or ""), row[E.NAME], version)
    try:
        back = read_trf(text, file)
    except InputError as exc:
        shown = "; ".join(p.message for p in exc.problems if p.is_error)
        text = f"expected the TRF written to read, got {shown}"
        return None, [who.problem(None, None, "trf-not-faithful", text)]
    if list_override is not None:
        events = back.events.with_columns(
            pl.lit(list_override, dtype=pl.String).alias(E.LIST),
            pl.lit("option", dtype=pl.String).alias(E_LIST_SOURCE),
        )
        back = replace(back, events=events)
    else:
        back = settle_list(back)
    differences = _event_differences(row, back.events.row(0, named=True), version)
    if back.round_dates != target.round_dates:
        written, read = (
            ", ".join("-" if d is None else str(d) for d in dates) or "none"
            for dates in (target.round_dates, back.round_dates)
        )
        differences.append(f"other round dates: {written} written, {read} read")
    differences += _frame_differences(target.players, back.players, PLAYER_FIELDS, P.NO, "no.")
    differences += _frame_differences(
        _entries(target.games), _entries(back.games), GAME_FIELDS, G.NO, "no."
    )
    problems = [
        who.problem(
            None, None, "trf-not-faithful",
            f"expected the TRF written to read back as the event, got {what}",
        )
        for what in differences
    ]  # fmt: skip
    return back, problems


def _event_differences(target: dict[str, Any], back: dict[str, Any], version: str) -> list[str]:
    expected = dict(target)
    record = time_control_record(target, version)
    expected[E.TIME] = record[1] if record is not None else None
    expected[E.ROUNDS] = target.get(E.ROUNDS) or 0
    found = dict(back)
    found[E.ROUNDS] = back.get(E.ROUNDS) or 0
    return [
        f"another {name}: {_shown(expected.get(name))} written, {_shown(found.get(name))} read"
        for name in EVENT_FIELDS
        if expected.get(name) != found.get(name)
    ]


def _shown(value: object) -> str:
    return str(value) if isinstance(value, date | int | float) else repr(value)


def _entries(games: pl.DataFrame) -> pl.DataFrame:
    """The round entries, without the absences (``Z`` without an opponent): a source that
    leaves a round out and a TRF slot ``0000 - Z`` say the same."""
    return games.filter(~((pl.col(G.CODE) == "Z") & pl.col(G.OPP).is_null())).select(
        G.NO, G.ROUND, pl.col(G.OPP), pl.col(G.COLOUR), pl.col(G.CODE)
    )


def _frame_differences(
    target: pl.DataFrame, back: pl.DataFrame, fields: tuple[str, ...], key: str, label: str
) -> list[str]:
    keys = [key, G.ROUND] if G.ROUND in fields else [key]
    a = target.select(fields).sort(keys)
    b = back.select(fields).sort(keys)
    if a.equals(b):
        return []
    if a.height != b.height or not a.select(keys).equals(b.select(keys)):
        return [f"{b.height} {'round entries' if len(keys) > 1 else 'players'} for {a.height}"]
    found: list[str] = []
    for name in fields:
        differs = a[name].ne_missing(b[name])
        if differs.any():
            at = int(differs.arg_true()[0])
            where = f"{label} {a[key][at]}" + (f", round {a[G.ROUND][at]}" if len(keys) > 1 else "")
            found.append(
                f"another {name} for {where}: {_shown(a[name][at])} written, "
                f"{_shown(b[name][at])} read"
            )
    return found
