"""The fast path of the TXT rating-list reader: the regular lines read by numpy, merged
with the other lines, which the polars path reads.

For a whole read, `read_txt_lines` holds the regular lines as bytes (RAW, rating_list.raw)
and reads only the others as TEXT; `read_txt_fields` gives such lines to
`read_fast_fields`, which

- reads the fields of RAW's rows with numpy (list_fixed.read_fixed, in a few threads);
- reads the lines numpy leaves (`FixedFields.fallback`: the lines that are not regular,
  and the regular ones holding a value it does not vouch for) by the polars path with the
  file's layout width, which reads them, reports their problems and drops them when blank
  (a regular line's TEXT is read from its bytes first, `_text_of`), while rating_list.fixed's
  threads decode the short texts and join the blocks of names;
- puts those lines' values back at their places and types every column with
  `typed_columns`, in one polars query (polars types the columns in parallel): a number
  column from numpy's values, null where blank; a short text on its distinct values, then
  gathered; the long text (the name) as rating_list.fixed made it.

So the frame and the problems are the polars path's. When the regular lines would be
over-long lines of the layout (known once the other lines are), every line takes the
polars path, their TEXT read from RAW's bytes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from pipeline.formats.rating_list import fixed as list_fixed
from pipeline.formats.rating_list import raw as list_raw
from pipeline.formats.rating_list.fields import (
    FIDEID,
    INT_TAGS,
    LINE,
    ZERO_IS_NULL,
    ProblemBudget,
    typed_columns,
)
from pipeline.formats.rating_list.txt import (
    FIRST_SEPARATOR,
    RAW,
    TEXT,
    TxtField,
    TxtLayout,
    blank_groups,
    drop_blank_lines,
    layout_width,
    read_lines_csv,
    read_txt_fields_polars,
)

if TYPE_CHECKING:
    from numpy.typing import NDArray

_BLANK = "_blank_"  # a number column's blank rows
_INDEX = "_index_"  # a short text column's indexes into its distinct values


def read_fast_fields(lines: pl.DataFrame, layout: TxtLayout, budget: ProblemBudget) -> pl.DataFrame:
    """`read_txt_fields` of lines with RAW (module docstring)."""
    typed = _fast_fields(lines, layout, budget)
    if typed is not None:
        return typed
    lines = _text_of(lines, np.arange(lines.height))
    return read_txt_fields_polars(lines, layout, budget)


def _fast_fields(
    lines: pl.DataFrame, layout: TxtLayout, budget: ProblemBudget
) -> pl.DataFrame | None:
    """The fields of the lines, RAW's rows read by numpy; None when the regular lines
    would be over-long lines of the layout (or RAW holds no line)."""
    length = list_raw.raw_line_length(lines[RAW])
    if length is None:
        return None
    with list_fixed.read_fixed(lines[RAW], _fixed_plan(layout, length)) as read:
        return _merged(read, lines, layout, budget, length)


def _merged(
    read: list_fixed.FixedFields,
    lines: pl.DataFrame,
    layout: TxtLayout,
    budget: ProblemBudget,
    length: int,
) -> pl.DataFrame | None:
    """The frame of `_fast_fields`: the fallback lines read by the polars path, their
    values put in, every column typed."""
    fallback = np.flatnonzero(read.fallback)
    others = _text_of(lines, fallback)
    width = layout_width(
        drop_blank_lines(others), layout.width, (lines.height - fallback.size, length)
    )
    if length > width:
        return None
    slow = read_txt_fields_polars(others, layout, budget, width)
    at = fallback[np.searchsorted(others[LINE].to_numpy(), slow[LINE].to_numpy())]
    inputs, blanked, typed = _fast_columns(read, slow, at, [f.tag for f in layout.fields])
    query = pl.DataFrame([lines[LINE], *inputs]).lazy().with_columns(blanked)
    frame = query.select(pl.col(LINE).cast(pl.Int64), *typed).collect()
    kept = np.ones(lines.height, dtype=np.bool_)
    kept[fallback] = False
    kept[at] = True
    if not kept.all():
        frame = frame.filter(pl.Series(kept))  # blank lines among the fallback ones
    return frame


def _fast_columns(
    read: list_fixed.FixedFields, slow: pl.DataFrame, at: NDArray[np.int64], tags: list[str]
) -> tuple[list[pl.Series], list[pl.Expr], list[pl.Expr]]:
    """What `_merged` types: the input columns, the fallback lines' values (`slow`, at
    rows `at`) put in (before typing: polars copies a column to change some of its rows
    once it is typed); the expressions that make a number column null where it is blank
    (a blank number is 0, null already where `typed_columns` makes 0 null); and the typed
    columns. A number column views numpy's values; a short text is typed on its distinct
    values, then gathered."""
    typed_values, _ = typed_columns(tags)
    value_of = dict(zip(tags, typed_values, strict=True))
    inputs: list[pl.Series] = []
    blanked: list[pl.Expr] = []
    typed: list[pl.Expr] = []
    for tag, (values, blank) in read.numbers.items():
        values[at] = slow[tag].fill_null(0).to_numpy()
        blank[at] = slow[tag].is_null().to_numpy()
        inputs.append(pl.Series(tag, values))
        if tag not in ZERO_IS_NULL and blank.any():
            inputs.append(pl.Series(_BLANK + tag, blank))
            blanked.append(pl.when(~pl.col(_BLANK + tag)).then(pl.col(tag)).alias(tag))
        typed.append(value_of[tag])
    for tag, decoding in read.texts.items():
        index, strings = decoding.result()
        index[at] = len(strings) + np.arange(at.size, dtype=np.uint32)
        known = pl.Series(tag, [*strings, *slow[tag].fill_null("").to_list()], dtype=pl.String)
        inputs.append(pl.Series(_INDEX + tag, index))
        distinct = known.to_frame().select(value_of[tag]).to_series()
        typed.append(pl.lit(distinct).gather(pl.col(_INDEX + tag)).alias(tag))
    for tag, joining in read.long_texts.items():
        inputs.append(joining.result().scatter(at, slow[tag]))  # one chunk: in place
        typed.append(value_of[tag])
    return inputs, blanked, typed


def _fixed_plan(layout: TxtLayout, length: int) -> list_fixed.FixedPlan:
    """How rating_list.fixed reads a layout whose regular lines are `length` bytes long: as
    spans of bytes clipped to the line (a field past its end is blank), its numbers, the
    numbers of each blank group (where the group is not blank), its text fields of at most
    16 bytes, and the longer ones (the name)."""

    def span(f: TxtField) -> list_fixed.Span:
        end = length if f.end is None else min(f.end, length)
        return list_fixed.Span(f.tag, min(f.start, length), max(end - f.start, 0))

    groups = [
        tuple(span(f) for f in group.fields if f.tag in INT_TAGS) for group in blank_groups(layout)
    ]
    grouped = {s.tag for group in groups for s in group}
    numbers = tuple(span(f) for f in layout.fields if f.tag in INT_TAGS and f.tag not in grouped)
    texts = [span(f) for f in layout.fields if f.tag not in INT_TAGS]
    short = tuple(s for s in texts if s.width <= 16)
    long = tuple(s for s in texts if s.width > 16)
    return list_fixed.FixedPlan(length, numbers, tuple(g for g in groups if g), short, long, FIDEID)


def _text_of(lines: pl.DataFrame, rows: NDArray[np.int64]) -> pl.DataFrame:
    """LINE and TEXT of some of the lines (positions, ascending), TEXT read from the bytes
    of those RAW holds, as polars reads the whole file (they are ASCII, without the first
    separator, and each has its line end)."""
    raw = lines[RAW]
    picked = lines.select(LINE, TEXT)[rows]
    held = np.flatnonzero(list_raw.regular_rows(raw, rows))
    if not held.size:
        return picked
    read = read_lines_csv(list_raw.row_bytes(raw, rows[held]), FIRST_SEPARATOR)
    text = picked[TEXT].clone()
    text.scatter(held, read[TEXT])
    return picked.with_columns(text)
