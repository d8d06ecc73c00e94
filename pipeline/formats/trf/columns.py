"""Column-wise reading of a TRF file's 001 lines: the player fields and the round slots
of all the lines at once.

`players_columnwise` cuts each field of every 001 line as a list (plain slicing, which
measures faster than polars string expressions for a file's hundred lines): numbers are
checked all at once and read with `int`, the other fields with the parsers of
`pipeline.formats.trf.fields` that the line-by-line path uses, once per distinct value.
`games_columnwise` finds every round slot of the file with one regular expression over
the slots side by side, then builds the games frame from lists (a polars query per file
costs more than the whole Python path at this size).

Both are fast paths only: they return None as soon as one line or slot is not well
formed, would draw a warning, or repeats a start number, and the reader then reads the
file line by line (`trf._read_player`, `trf._read_round`), which words every problem. A
fast path changes how long a file takes, never what it reads.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import polars as pl

from pipeline.formats.trf import fields as tf
from schemas.ingest import GAME_DTYPES, PENDING_CODE, PLAYER_DTYPES, Games, Players

__all__ = ["PlayerColumns", "games_columnwise", "last_used_round", "players_columnwise"]

T = TypeVar("T")


@dataclass
class PlayerColumns:
    """The players of a file as columns, one entry per 001 line kept, in file order."""

    line: list[int] = field(default_factory=list)
    start_no: list[int] = field(default_factory=list)
    name: list[str] = field(default_factory=list)
    fide_id: list[int | None] = field(default_factory=list)
    federation: list[str | None] = field(default_factory=list)
    title: list[str | None] = field(default_factory=list)
    sex: list[str | None] = field(default_factory=list)
    birth_year: list[int | None] = field(default_factory=list)
    rating: list[int | None] = field(default_factory=list)
    points: list[float | None] = field(default_factory=list)
    rank: list[int | None] = field(default_factory=list)
    text: list[str] = field(default_factory=list)  # the raw lines, for the round slots

    def frame(self, file: str) -> pl.DataFrame:
        """The players frame (`schemas.ingest.Players`)."""
        n = len(self.line)
        return _frame(
            PLAYER_DTYPES,
            n,
            {
                str(Players.event_id): file,
                str(Players.k_declared): None,
                str(Players.change_declared): None,
            },
            {
                str(Players.start_no): self.start_no,
                str(Players.name): self.name,
                str(Players.fide_id): self.fide_id,
                str(Players.federation): self.federation,
                str(Players.title): self.title,
                str(Players.sex): self.sex,
                str(Players.birth_year): self.birth_year,
                str(Players.rating): self.rating,
                str(Players.points): self.points,
                str(Players.rank): self.rank,
                str(Players.line): self.line,
            },
        )


def _frame(
    dtypes: dict[str, type[pl.DataType]],
    height: int,
    constants: dict[str, object],
    values: dict[str, Sequence[object]],
) -> pl.DataFrame:
    """A frame of `dtypes`' columns, each one value repeated (`constants`) or a list;
    built Series by Series, which costs less than a dict with a schema."""
    return pl.DataFrame(
        [
            pl.Series(name, [constants[name]], dtype=dtype).new_from_index(0, height)
            if name in constants
            else pl.Series(name, values[name], dtype=dtype)
            for name, dtype in dtypes.items()
        ]
    )


# --- 001 lines -----------------------------------------------------------------------------


def _cut(texts: list[str], cols: tf.Columns) -> list[str]:
    first, last = cols.first - 1, cols.last
    return [text[first:last] for text in texts]


def _stripped(texts: list[str], cols: tf.Columns) -> list[str]:
    first, last = cols.first - 1, cols.last
    return [text[first:last].strip() for text in texts]


def _each(raws: Sequence[str], read: Callable[[str], T]) -> list[T]:
    """`read` of every value, called once per distinct value (titles, sexes, birth
    dates and points repeat from line to line)."""
    known = {raw: read(raw) for raw in set(raws)}
    return [known[raw] for raw in raws]


def _numbers(texts: list[str], cols: tf.Columns, blank_ok: bool) -> list[int] | None:
    """Whole numbers in `cols` (0 for blanks when `blank_ok`), as `tf.parse_unsigned`
    reads them: ASCII digits between whitespace. None when one value is not such a number
    (the columns are never wider than the digits the field allows)."""
    raws = _stripped(texts, cols)
    joined = "".join(raws)
    if joined and not (joined.isascii() and joined.isdigit()):
        return None
    if all(raws):
        return list(map(int, raws))
    if not blank_ok:
        return None
    return [int(raw) if raw else 0 for raw in raws]


def _birth(raw: str) -> tuple[int | None, bool]:
    """(birth year, whether the line-by-line path reads it without a warning)."""
    if not raw:
        return None, True
    year = tf.parse_birth_year(raw)
    return year, year is not None or not raw.strip("0/.- ")


def _points(raw: str) -> tuple[float | None, bool]:
    if not raw:
        return None, True
    points = tf.parse_points(raw)
    return points, points is not None


def players_columnwise(texts: list[str], line_nos: list[int]) -> PlayerColumns | None:
    """The 001 lines `texts` (on lines `line_nos`) read all at once; None when one of
    them needs a message (an error or a warning), or a start number repeats."""
    if not texts:
        return PlayerColumns()
    starts = _numbers(texts, tf.START_NO, blank_ok=False)
    if starts is None or min(starts) < 1 or len(set(starts)) != len(starts):
        return None
    sexes = _each(_cut(texts, tf.SEX), tf.normalise_sex)
    names = _stripped(texts, tf.NAME)
    ratings = _numbers(texts, tf.RATING, blank_ok=True)
    fide_ids = _numbers(texts, tf.FIDE_ID, blank_ok=True)
    births = _each(_stripped(texts, tf.BIRTH), _birth)
    points = _each(_stripped(texts, tf.POINTS), _points)
    ranks = _numbers(texts, tf.RANK, blank_ok=True)
    if (
        ratings is None
        or fide_ids is None
        or ranks is None
        or not all(names)
        or not all(ok for _, ok in sexes)
        or not all(ok for _, ok in births)
        or not all(ok for _, ok in points)
    ):
        return None
    return PlayerColumns(
        line=list(line_nos),
        start_no=starts,
        name=names,
        fide_id=[number or None for number in fide_ids],
        federation=[fed or None for fed in _stripped(texts, tf.FEDERATION)],
        title=_each(_cut(texts, tf.TITLE), tf.normalise_title),
        sex=[sex for sex, _ in sexes],
        birth_year=[year for year, _ in births],
        rating=[number or None for number in ratings],
        points=[value for value, _ in points],
        rank=[number or None for number in ranks],
        text=list(texts),
    )


def last_used_round(texts: list[str]) -> int:
    """The last round slot with anything but whitespace in it, on any of the lines (0
    when none reaches the round columns)."""
    reach = max((len(text.rstrip()) for text in texts), default=0)
    if reach < tf.FIRST_ROUND:
        return 0
    return (reach - tf.FIRST_ROUND) // tf.ROUND_WIDTH + 1


# --- round slots ---------------------------------------------------------------------------

_RESULT_CHARS = sorted({*tf.RESULT_CODE_SET, *(c.lower() for c in tf.RESULT_CODE_SET)})
# The opponent field: blanks, or digits with blanks either side but none inside.
_OPPONENT_FORMS = [
    " " * (4 - digits - after) + f"[0-9]{{{digits}}}" + " " * after
    for after in range(4)
    for digits in range(4 - after, 0, -1)
]
# A slot 'NNNN c r  ': (opponent, 'c r'), the colour and the result code or blanks.
_SLOT = re.compile(
    f"({'|'.join(_OPPONENT_FORMS)}|    ) ([wWbB -] [{re.escape(''.join(_RESULT_CHARS))} ])  "
)
_Entry = tuple[str | None, str, float, bool]  # colour, code, score, played


def _entries(paired: bool) -> dict[str, _Entry]:
    """(colour, code, score, played) by 'c r', for a slot with an opponent (`paired`) or
    without one, as `trf._read_round` reads them; a colour with a blank result and no
    opponent has no entry (the line-by-line path reports it)."""
    entries: dict[str, _Entry] = {}
    for colour in "wWbB- ":
        side = colour.lower() if colour in "wWbB" else None
        for result in [*_RESULT_CHARS, " "]:
            if result != " ":
                code = result.upper()
            elif paired:
                code = PENDING_CODE
            elif side is None:
                code = "Z"
            else:
                continue
            played = code in tf.PLAYED_CODE_SET and paired
            entries[f"{colour} {result}"] = (side, code, tf.result_score(code), played)
    return entries


_PAIRED = _entries(paired=True)
_UNPAIRED = _entries(paired=False)


def _opponent(raw: str) -> int | None:
    return (int(raw) if raw.strip() else 0) or None


def games_columnwise(players: PlayerColumns, file: str, used: int) -> pl.DataFrame | None:
    """The games frame of rounds 1 to `used` of every player line, or None when a slot
    needs a message."""
    n = len(players.text)
    if n == 0 or used == 0:
        return pl.DataFrame(schema=GAME_DTYPES)
    width = tf.ROUND_WIDTH * used
    start = tf.round_start(1) - 1
    # every line's slots side by side, a short line padded with blanks
    joined = "".join(text[start : start + width].ljust(width) for text in players.text)
    # Matches of a fixed width that do not overlap and are as many as the slots tile the
    # text: each slot is one.
    found = _SLOT.findall(joined)
    if len(found) != n * used:
        return None
    raw_opponents, rests = zip(*found, strict=True)
    opponents = _each(raw_opponents, _opponent)
    entries = [
        _PAIRED[rest] if opponent is not None else _UNPAIRED.get(rest)
        for rest, opponent in zip(rests, opponents, strict=True)
    ]
    if None in entries:
        return None
    colours, codes, scores, played = zip(*entries, strict=True)
    columns = [str(tf.round_span(round_no)) for round_no in range(1, used + 1)]
    return _frame(
        GAME_DTYPES,
        n * used,
        {str(Games.event_id): file},
        {
            str(Games.round): list(range(1, used + 1)) * n,
            str(Games.start_no): [no for no in players.start_no for _ in range(used)],
            str(Games.opponent_no): opponents,
            str(Games.colour): colours,
            str(Games.code): codes,
            str(Games.score): scores,
            str(Games.played): played,
            str(Games.line): [line for line in players.line for _ in range(used)],
            str(Games.column): columns * n,
        },
    )
