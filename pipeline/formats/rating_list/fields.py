"""From raw rating-list fields (strings) to the typed registry frame (schemas.registry).

The XML and CSV readers produce a `RawFrame`: one String column per FIDE tag they hold,
values stripped (blank = "" or null), plus `line`, the 1-based source line of the record.
`convert_fields` types it; `finish_registry` checks the FIDE IDs and puts the columns in the
schema's order. The TXT reader types its stripped fields with `typed_columns` (below) and
gives `convert_fields` a `RawFrame` of the lines holding a problem only. Rules:

- numbers are whole numbers; anything else is a `bad-number` problem naming the value;
- ratings of 0 are unrated and become null, and so does a birth year of 0 (unknown);
- blank strings become null;
- the FIDE ID is required, at least 1, and appears once (`duplicate-fide-id` names both
  lines); a CSV list may hold a player without one when the row has a name (a national
  list's player, or one the project's own list carries before FIDE registers them);
- the project's extra columns: career games are whole numbers, the ``ever_2400`` flags
  `1` or `0` (blank: unknown).

Problems are collected up to `max_problems`; a last `more-problems` entry counts the rest.

`typed_columns` gives the columns `convert_fields` returns as expressions, with a per-row
flag of the values it would report: a reader of a large file types it in one query, and
only the flagged rows need to go through `convert_fields`, for their problems.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import polars as pl

from pipeline.errors import InputError, Location, Problem, ProblemList
from schemas.registry import Registry

LINE = "line"
FIDEID = str(Registry.fideid)
NAME = str(Registry.name)

INT_TAGS: tuple[str, ...] = (
    FIDEID,
    str(Registry.rating),
    str(Registry.games),
    str(Registry.k),
    str(Registry.rapid_rating),
    str(Registry.rapid_games),
    str(Registry.rapid_k),
    str(Registry.blitz_rating),
    str(Registry.blitz_games),
    str(Registry.blitz_k),
    str(Registry.birthday),
    str(Registry.career_games),
    str(Registry.rapid_career_games),
    str(Registry.blitz_career_games),
)
BOOL_TAGS: tuple[str, ...] = (
    str(Registry.ever_2400),
    str(Registry.rapid_ever_2400),
    str(Registry.blitz_ever_2400),
)
TEXT_TAGS: tuple[str, ...] = (
    str(Registry.name),
    str(Registry.country),
    str(Registry.sex),
    str(Registry.title),
    str(Registry.w_title),
    str(Registry.o_title),
    str(Registry.foa_title),
    str(Registry.flag),
)
ZERO_IS_NULL: tuple[str, ...] = (
    str(Registry.rating),
    str(Registry.rapid_rating),
    str(Registry.blitz_rating),
    str(Registry.birthday),
)
COLUMNS: tuple[str, ...] = tuple(Registry.to_schema().columns)
DTYPES: dict[str, type[pl.DataType]] = {
    tag: (pl.Int64 if tag in INT_TAGS else pl.Boolean if tag in BOOL_TAGS else pl.String)
    for tag in COLUMNS
}


@dataclass
class RawFrame:
    """`frame` holds LINE (Int64) and stripped String columns named by FIDE tags;
    `labels` maps a tag to the column text a problem shows (TXT header token, CSV header)."""

    frame: pl.DataFrame
    labels: dict[str, str]


@dataclass
class ProblemBudget:
    """Collects problems up to `limit`; `dropped` counts the ones not kept."""

    file: str
    limit: int
    problems: ProblemList = field(default_factory=ProblemList)
    dropped: int = 0

    def room(self) -> int:
        return max(self.limit - len(self.problems.items), 0)

    def add(self, line: int | None, column: str | None, code: str, message: str) -> None:
        if self.room() > 0:
            self.problems.add(self.file, line, column, code, message)
        else:
            self.dropped += 1

    def count_dropped(self, count: int) -> None:
        self.dropped += count

    def raise_if_errors(self) -> None:
        if not self.problems.errors:
            return
        items: list[Problem] = list(self.problems.items)
        if self.dropped:
            items.append(
                Problem(
                    Location(self.file),
                    "more-problems",
                    f"expected at most {self.limit} problems to list, got "
                    f"{self.dropped} more (fix the ones above and read the file again)",
                )
            )
        raise InputError(items)


def _quote(value: str | None) -> str:
    return "''" if value is None else repr(value)


def convert_fields(
    raw: RawFrame, budget: ProblemBudget, *, named_without_id: bool = False
) -> pl.DataFrame:
    """Typed columns (LINE plus the tags present); bad numbers go to `budget`.

    `named_without_id` (CSV lists): a row with a name may leave the FIDE ID blank."""
    frame = raw.frame
    present_int = [t for t in INT_TAGS if t in frame.columns]
    present_bool = [t for t in BOOL_TAGS if t in frame.columns]
    present_text = [t for t in TEXT_TAGS if t in frame.columns]
    typed = frame.select(
        pl.col(LINE).cast(pl.Int64),
        *[_number(pl.col(t)).alias(t) for t in present_int],
        *[_flag(pl.col(t)).alias(t) for t in present_bool],
        *[_text(pl.col(t)).alias(t) for t in present_text],
    )
    if present_int:
        _report_bad_numbers(frame, typed, present_int, raw.labels, budget)
    for tag in present_bool:
        _report_bad_flags(frame, tag, raw.labels, budget)
    if FIDEID in frame.columns:
        _report_missing_ids(frame, typed, raw.labels, budget, named_without_id)
    return typed.with_columns(
        pl.when(pl.col(t) != 0).then(pl.col(t)).alias(t) for t in ZERO_IS_NULL if t in typed.columns
    )


def typed_columns(tags: Sequence[str]) -> tuple[list[pl.Expr], pl.Expr]:
    """The typed columns `convert_fields` returns for `tags` (stripped String columns of
    those names, a FIDE ID required on every row), as expressions, and an expression that is
    true on the rows holding a value it would report: a number that is not blank and not a
    whole number of 0 or more, a FIDE ID that is not a number of at least 1, a flag other
    than 1, 0 or a blank.

    For a reader that types a large file in one query: only the flagged rows need to go
    through `convert_fields`, for their problems."""
    values: list[pl.Expr] = []
    problems: list[pl.Expr] = []
    for tag in tags:
        text = pl.col(tag)
        blank = text.str.len_bytes().fill_null(0) == 0
        if tag in INT_TAGS:
            number = _number(text)
            if tag == FIDEID:
                problems.append(~(number >= 1).fill_null(False))
            else:
                problems.append(~blank & ~(number >= 0).fill_null(False))
            values.append(pl.when(number != 0).then(number) if tag in ZERO_IS_NULL else number)
        elif tag in BOOL_TAGS:
            problems.append(~blank & ~text.is_in(list(_FLAGS)))
            values.append(_flag(text))
        else:
            values.append(_text(text))
    problem = pl.any_horizontal(problems) if problems else pl.lit(False)
    return [value.alias(tag) for value, tag in zip(values, tags, strict=True)], problem


def _number(text: pl.Expr) -> pl.Expr:
    return text.cast(pl.Int64, strict=False)


def _flag(text: pl.Expr) -> pl.Expr:
    return text.replace_strict(_FLAGS, default=None, return_dtype=pl.Boolean)


def _text(text: pl.Expr) -> pl.Expr:
    return pl.when(text.str.len_bytes() > 0).then(text)


_FLAGS = {"1": True, "0": False}


def _report_bad_flags(
    raw: pl.DataFrame, tag: str, labels: dict[str, str], budget: ProblemBudget
) -> None:
    value = pl.col(tag)
    bad = raw.filter(value.str.len_bytes().fill_null(0).gt(0) & ~value.is_in(list(_FLAGS)))
    for line, shown in bad.select(LINE, tag).head(budget.room()).iter_rows():
        budget.add(
            int(line),
            labels.get(tag, tag),
            "bad-flag",
            f"expected 1, 0 or a blank, got {_quote(shown)}",
        )
    budget.count_dropped(max(bad.height - budget.room(), 0))


def _report_bad_numbers(
    raw: pl.DataFrame,
    typed: pl.DataFrame,
    tags: list[str],
    labels: dict[str, str],
    budget: ProblemBudget,
) -> None:
    # quick count first: a value is bad when it is not blank and did not become a number
    # of 0 or more; most files have none, so the rows are looked at only when there are
    quick = pl.concat(
        [raw.select(tags).select(pl.all().name.prefix("raw_")), typed], how="horizontal"
    )
    counts = quick.select(
        (
            pl.col(t).is_null().sum()
            - pl.col(f"raw_{t}").is_null().sum()
            - (pl.col(f"raw_{t}") == "").sum()
            + (pl.col(t) < 0).sum()
        ).alias(t)
        for t in tags
    ).row(0, named=True)
    both = quick
    bad = {
        t: (pl.col(f"raw_{t}").str.len_bytes().fill_null(0) > 0)
        & (pl.col(t).is_null() | (pl.col(t) < 0))
        for t in tags
    }
    for tag in tags:
        count = int(counts[tag])
        if not count:
            continue
        shown = both.filter(bad[tag]).select(LINE, f"raw_{tag}").head(budget.room())
        for line, value in shown.iter_rows():
            budget.add(
                int(line),
                labels.get(tag, tag),
                "bad-number",
                f"expected a whole number, got {_quote(value)}",
            )
        budget.count_dropped(count - shown.height)


def _report_missing_ids(
    raw: pl.DataFrame,
    typed: pl.DataFrame,
    labels: dict[str, str],
    budget: ProblemBudget,
    named_without_id: bool,
) -> None:
    """A blank FIDE ID (unless allowed on a named row), or 0 (negative IDs are already bad
    numbers)."""
    label = labels.get(FIDEID, FIDEID)
    blank = raw[FIDEID].str.len_bytes().fill_null(0) == 0
    if named_without_id and NAME in raw.columns:
        blank = blank & (raw[NAME].str.len_bytes().fill_null(0) == 0)
    ids = typed[FIDEID]
    wrong = blank | (ids == 0).fill_null(False)
    count = int(wrong.sum())
    if not count:
        return
    shown = typed.select(LINE).with_columns(ids.alias("id")).filter(wrong).head(budget.room())
    for line, value in shown.iter_rows():
        if value is None:
            budget.add(int(line), label, "missing-fide-id", "expected a FIDE ID, got a blank")
        else:
            budget.add(
                int(line), label, "bad-fide-id", f"expected a FIDE ID of at least 1, got '{value}'"
            )
    budget.count_dropped(count - shown.height)


def finish_registry(typed: pl.DataFrame, budget: ProblemBudget, id_label: str) -> pl.DataFrame:
    """Check that FIDE IDs are unique, raise every problem, and return the schema's columns
    in order (LINE dropped)."""
    if FIDEID in typed.columns:
        _report_duplicates(typed, budget, id_label)
    budget.raise_if_errors()
    return typed.select(
        pl.col(tag) if tag in typed.columns else pl.lit(None, dtype=DTYPES[tag]).alias(tag)
        for tag in COLUMNS
    )


def _report_duplicates(typed: pl.DataFrame, budget: ProblemBudget, id_label: str) -> None:
    ids = pl.col(FIDEID)
    present = typed[FIDEID].drop_nulls()
    if present.n_unique() == present.len():
        return
    duplicated = typed.filter(ids.is_not_null() & ids.is_duplicated())
    if duplicated.is_empty():
        return
    groups = (
        duplicated.select(FIDEID, LINE)
        .group_by(FIDEID)
        .agg(pl.col(LINE).sort())
        .sort(pl.col(LINE).list.first())
    )
    for fide_id, lines in groups.iter_rows():
        first = lines[0]
        for line in lines[1:]:
            budget.add(
                int(line),
                id_label,
                "duplicate-fide-id",
                f"expected each FIDE ID once, got {fide_id} again (first on line {first})",
            )
