"""FIDE's fixed-width rating-list TXT files: the combined list and the single lists.

Layouts (fide-rules.md §8, "FIDE rating list downloads"):

- combined (`players_list_foa.txt`): `ID Number, Name, Fed, Sex, Tit, WTit, OTit, FOA,
  SRtng, SGm, SK, RRtng, RGm, Rk, BRtng, BGm, BK, B-day, Flag`;
- single list (`standard_rating_list.txt`, `rapid_…`, `blitz_…`): the same through `FOA`,
  then the rating headed by the month (`NOV26`), `Gms`, `K`, `B-day`, `Flag`.

Field offsets come from the header line (`rating_list.header`): a field starts where its
header token starts and ends where the next token starts (the last one runs to the end of
the line). Offsets are
counted in characters, and fields are left-aligned and blank-padded.

Overflow. A few lines of FIDE's real file are longer than the header: a value wider than
its field (in practice a long "other titles" value such as `LSI,FI,SI,SLI,NA`) pushes the
rest of the line to the right. Such a line is realigned as follows: it is longer than the
layout's width `W` (the header width, or the most common line length when that is larger)
by `s` characters; the overflowing field is the first text field, Name through FOA, whose
last character (normally the blank separating it from the next field) is not blank; that
field is widened by `s` and every later field is read `s` characters further right, i.e.
the numeric columns are anchored from the right end of the line. A longer line without such
a collision just carries trailing characters and is read as it stands. A line whose
trailing blanks were trimmed cannot be realigned by its length; it is read left-anchored,
and a misalignment then shows up as a number that does not parse, which is reported.

Reading, one straight path from file to frame: `read_txt_lines` reads every line as a
polars string (TEXT, one CSV read of the file with a separator that does not occur), and
`read_txt_fields` cuts and types the fields. Everything is vectorized over the column of
lines; only the few long lines get per-row offsets. Each field is cut and stripped once and
typed in the same query (`rating_list.fields.typed_columns`), without keeping the cut
strings. Fields that are blank together on most lines of the combined list (the four title
columns; the rating, games and K of each list) are cut only on the lines where their group
is not blank, and are null on the others. The query only flags the lines holding a
problem; those few are cut again as strings for `rating_list.fields.convert_fields`, which
reports their problems as it would have for the whole file. With `only_ids` or names to
find, `rating_list.read` filters the lines first and only the lines kept are cut.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import polars as pl

from pipeline.errors import InputError
from pipeline.formats.rating_list.fields import (
    LINE,
    ProblemBudget,
    RawFrame,
    convert_fields,
    typed_columns,
)
from pipeline.formats.rating_list.header import TxtField, TxtLayout
from pipeline.formats.text import decode_bytes
from schemas.registry import Registry

TEXT = "text"
# bytes that never occur in a text rating list; the first absent one splits nothing
_SEPARATORS = ("\x1f", "\x1e", "\x1d", "\x1c", "\x01", "\x02", "\x03")
_FIRST_SEPARATOR = _SEPARATORS[0]  # what a file is read with first

_TEXT_TAGS = (
    str(Registry.name),
    str(Registry.country),
    str(Registry.sex),
    str(Registry.title),
    str(Registry.w_title),
    str(Registry.o_title),
    str(Registry.foa_title),
)

# Fields that are blank together on most lines of the combined list (most players hold no
# title and are rated in at most one or two of the lists): they are cut only on the lines
# where the group is not blank.
_BLANK_GROUPS: tuple[frozenset[str], ...] = (
    frozenset(
        {str(Registry.title), str(Registry.w_title), str(Registry.o_title), str(Registry.foa_title)}
    ),
    frozenset({str(Registry.rating), str(Registry.games), str(Registry.k)}),
    frozenset({str(Registry.rapid_rating), str(Registry.rapid_games), str(Registry.rapid_k)}),
    frozenset({str(Registry.blitz_rating), str(Registry.blitz_games), str(Registry.blitz_k)}),
)


def _field_exprs(
    layout: TxtLayout, shift: pl.Expr | None, overflow: pl.Expr | None
) -> list[pl.Expr]:
    """One stripped string expression per field; with `shift`/`overflow` (per-row Int64
    columns: characters to move right, index of the overflowing field) for long lines."""
    line = pl.col(TEXT)
    exprs: list[pl.Expr] = []
    for index, field in enumerate(layout.fields):
        width = None if field.end is None else field.end - field.start
        if shift is None or overflow is None:
            piece = line.str.slice(field.start, width)
        else:
            start = pl.when(overflow < index).then(shift + field.start).otherwise(field.start)
            grown = None if width is None else pl.when(overflow == index).then(shift + width)
            length = None if grown is None else grown.otherwise(width)
            piece = line.str.slice(start, length)
        exprs.append(piece.str.strip_chars(" ").alias(field.tag))
    return exprs


def _overflow_index(layout: TxtLayout) -> pl.Expr:
    """Index of the first text field whose separator column is not blank (else -1)."""
    line = pl.col(TEXT)
    expr: pl.Expr = pl.lit(-1, dtype=pl.Int64)
    for index, field in reversed(list(enumerate(layout.fields))):
        if field.tag not in _TEXT_TAGS or field.end is None:
            continue
        collides = line.str.slice(field.end - 1, 1).fill_null("") != " "
        expr = pl.when(collides).then(pl.lit(index, dtype=pl.Int64)).otherwise(expr)
    return expr


def read_txt_fields(
    lines: pl.DataFrame, layout: TxtLayout, budget: ProblemBudget, width: int | None = None
) -> pl.DataFrame:
    """Typed fields (LINE plus the layout's columns) of the data lines; bad values go to
    `budget`. `lines` has TEXT (a line without its line end, null when empty) and LINE
    (1-based line number); blank lines are skipped. `width`: the layout width
    (`layout_width`) of the whole file when `lines` are some of its lines, else it is
    found from `lines`."""
    lines = drop_blank_lines(lines)
    if width is None:
        width = layout_width(lines, layout.width)
    long_rows = _long_rows(lines, width)
    if long_rows.is_empty():
        return _typed_fields(lines, layout, budget)
    # realign the long lines, then read them like the others as lines of regular width
    # (the overflowing value cut to fit) and put the full overflowing values back
    realigned = _realigned(lines[long_rows], layout, width)
    text = lines[TEXT].clone()
    text.scatter(long_rows, _regular_lines(realigned, layout))
    typed = _typed_fields(lines.with_columns(text), layout, budget)
    overflowing = realigned.frame["_overflow"].unique().to_list()
    for index in overflowing:
        if index < 0:
            continue
        tag = layout.fields[index].tag
        value = realigned.frame[tag]
        full = typed[tag].clone()
        full.scatter(
            long_rows, pl.select(pl.when(value.str.len_bytes() > 0).then(value)).to_series()
        )
        typed = typed.with_columns(full)
    return typed


def _regular_lines(realigned: RawFrame, layout: TxtLayout) -> pl.Series:
    """Lines of the layout's width rebuilt from realigned fields: every value at its
    field's offset, the overflowing one cut to leave its separating blank."""
    overflow = pl.col("_overflow")
    pieces: list[pl.Expr] = []
    for index, f in enumerate(layout.fields):
        value = pl.col(f.tag).fill_null("")
        if f.end is None:
            pieces.append(value)
            continue
        width = f.end - f.start
        cut = value.str.slice(0, width - 1)
        pieces.append(pl.when(overflow == index).then(cut).otherwise(value).str.pad_end(width))
    return realigned.frame.select(pl.concat_str(pieces).alias(TEXT)).to_series()


def _typed_fields(lines: pl.DataFrame, layout: TxtLayout, budget: ProblemBudget) -> pl.DataFrame:
    """Every field cut, stripped and typed (`typed_columns`): one query over all lines for
    the fields outside the blank groups (polars runs the fields in parallel), and one per
    group over the lines where the group is not blank (the others have nulls there). The
    lines holding a problem are cut again as strings and given to `convert_fields`, which
    reports their problems as it would have for the whole file."""
    groups = _blank_groups(layout)
    grouped = {f.tag for group in groups for f in group.fields}
    filled = [(~group.is_blank()).alias(f"{_FILLED}{i}") for i, group in enumerate(groups)]
    plain = [f for f in layout.fields if f.tag not in grouped]
    frame = _typed_query(lines.lazy(), plain, filled).collect(engine="in-memory")
    rows_of = [frame[f"{_FILLED}{i}"].arg_true() for i in range(len(groups))]
    parts = pl.collect_all(
        _typed_query(lines.lazy().select(pl.col(TEXT).gather(rows)), list(group.fields), [])
        for group, rows in zip(groups, rows_of, strict=True)
    )
    flagged = [frame[_PROBLEM].arg_true()]
    spread: list[pl.Series] = []
    for rows, part in zip(rows_of, parts, strict=True):
        flagged.append(rows.filter(part[_PROBLEM]))
        values = _own_strings(part.drop(_PROBLEM))
        spread.extend(_spread(values[tag], rows, frame.height) for tag in values.columns)
    problem_rows = pl.concat(flagged).unique().sort()
    if not problem_rows.is_empty():
        raw = lines[problem_rows].select(
            pl.col(LINE).cast(pl.Int64), *_field_exprs(layout, None, None)
        )
        convert_fields(RawFrame(raw, layout.labels()), budget)  # for its problems only
    typed = _own_strings(frame.drop(_PROBLEM, *[f"{_FILLED}{i}" for i in range(len(groups))]))
    return typed.with_columns(spread)


_PROBLEM = "_problem"
_FILLED = "_filled"


def _typed_query(lines: pl.LazyFrame, fields: list[TxtField], extra: list[pl.Expr]) -> pl.LazyFrame:
    """The typed `fields` of lines of regular width (after LINE, when `lines` has it),
    then `extra` (expressions of the lines) and _PROBLEM: whether the line holds a value
    that `convert_fields` reports. Each field is cut once, then typed."""
    kept = [LINE] if LINE in lines.collect_schema().names() else []
    values, problem = typed_columns([f.tag for f in fields])
    cut = lines.select(
        *[pl.col(name).cast(pl.Int64) for name in kept],
        *[_cut(f).alias(f.tag) for f in fields],
        *extra,
    )
    kept += [e.meta.output_name() for e in extra]
    return cut.select(*values, *kept, problem.alias(_PROBLEM))


def _cut(field: TxtField) -> pl.Expr:
    """One field of each line (of regular width), stripped."""
    width = None if field.end is None else field.end - field.start
    return pl.col(TEXT).str.slice(field.start, width).str.strip_chars(" ")


@dataclass(frozen=True)
class _BlankGroup:
    """Fields next to each other that are blank together on most lines."""

    fields: tuple[TxtField, ...]
    start: int
    end: int

    def is_blank(self) -> pl.Expr:
        """Whether a line holds nothing but blanks there (a line trimmed short of the
        group is not blank: its fields are cut as usual)."""
        width = self.end - self.start
        return pl.col(TEXT).str.slice(self.start, width) == " " * width


def _blank_groups(layout: TxtLayout) -> list[_BlankGroup]:
    """Each of _BLANK_GROUPS that the layout holds whole (its fields are next to each
    other: the header's tokens come in a fixed order), not running to the line's end."""
    groups: list[_BlankGroup] = []
    for tags in _BLANK_GROUPS:
        fields = tuple(f for f in layout.fields if f.tag in tags)
        end = fields[-1].end if len(fields) == len(tags) else None
        if end is not None:
            groups.append(_BlankGroup(fields, fields[0].start, end))
    return groups


def _spread(values: pl.Series, rows: pl.Series, height: int) -> pl.Series:
    """A column of `height` nulls with `values` at `rows`."""
    empty = pl.Series(values.name, dtype=values.dtype).extend_constant(None, height)
    return empty.scatter(rows, values)


def _own_strings(frame: pl.DataFrame) -> pl.DataFrame:
    """Copy text columns holding values longer than 12 bytes (names): polars may keep such
    strings as views into the buffer of the lines they were cut from (a slice does), which
    would keep the whole file in memory for as long as the registry lives."""
    long = [
        name
        for name, dtype in frame.schema.items()
        if dtype == pl.String and frame.select(pl.col(name).str.len_bytes().max() > 12).item()
    ]
    return frame.with_columns(pl.concat_str(pl.col(name), pl.lit("")) for name in long)


def _realigned(lines: pl.DataFrame, layout: TxtLayout, width: int) -> RawFrame:
    """Fields of over-long lines, the overflowing text field widened (module docstring)."""
    shift = pl.col(TEXT).str.len_chars().cast(pl.Int64) - width
    overflow = pl.col("_overflow")
    raw = (
        lines.with_columns(_overflow_index(layout).alias("_overflow"))
        # a long line without a separator collision only carries trailing characters
        .with_columns(pl.when(overflow < 0).then(0).otherwise(shift).alias("_shift"))
        .select(
            pl.col(LINE).cast(pl.Int64),
            overflow,
            *_field_exprs(layout, pl.col("_shift"), overflow),
        )
    )
    return RawFrame(raw, layout.labels())


def drop_blank_lines(lines: pl.DataFrame) -> pl.DataFrame:
    """Without empty lines and lines of blanks (only lines starting with a blank are
    stripped to find out)."""
    text = pl.col(TEXT)
    if lines[TEXT].null_count():
        lines = lines.filter(text.is_not_null())
    maybe = lines.select(text.str.starts_with(" ").any()).item()
    if maybe:
        blank = text.str.starts_with(" ") & (text.str.strip_chars().str.len_bytes() == 0)
        lines = lines.filter(~blank)
    return lines


def layout_width(lines: pl.DataFrame, header_width: int) -> int:
    """The header width, or the most common line length when most of three or more lines
    are longer (a file padded beyond its header)."""
    longer = lines.select((pl.col(TEXT).str.len_bytes() > header_width).sum()).item()
    if lines.height < 3 or 2 * int(longer) <= lines.height:
        return header_width
    lengths = lines.select(pl.col(TEXT).str.len_chars().alias("n").cast(pl.Int64).value_counts())
    tally = {int(n): int(c) for n, c in lengths.unnest(lengths.columns[0]).iter_rows()}
    most = max(tally.values())
    return max(header_width, max(n for n, c in tally.items() if c == most))


def _long_rows(lines: pl.DataFrame, width: int) -> pl.Series:
    """Positions of the lines longer than `width` characters (bytes first: cheap)."""
    candidates = lines.select(pl.arg_where(pl.col(TEXT).str.len_bytes() > width)).to_series()
    if candidates.is_empty():
        return candidates
    chars = lines[candidates].select(pl.col(TEXT).str.len_chars()).to_series()
    return candidates.filter(chars > width)


def _separator_for(data: bytes, file: str) -> str:
    for candidate in _SEPARATORS:
        if data.find(candidate.encode()) < 0:
            return candidate
    raise InputError.single(
        file, None, None, "not-a-registry", "expected a FIDE rating list as text, got binary data"
    )


def read_txt_lines(source: Path | bytes, file: str) -> pl.DataFrame:
    """Every line of a text file as TEXT (line end removed, null when empty) with LINE.

    One polars CSV read with a separator byte that does not occur and no quoting, so each
    line is one field. UTF-8 is read as it is; anything else is decoded like every text
    input (text.decode_bytes) and re-encoded first. A file is read with the first separator
    straight away; when that fails (not UTF-8, or the byte occurs and splits a line) its
    bytes are decoded and read with a separator that does not occur in them.
    """
    if isinstance(source, Path):
        if source.stat().st_size == 0:
            return read_txt_lines(b"", file)
        try:
            frame = read_lines_csv(source, _FIRST_SEPARATOR)
        except pl.exceptions.ComputeError:
            return read_txt_lines(decode_bytes(source.read_bytes()).encode("utf-8"), file)
    else:
        data = source
        if not data.isascii():
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                data = decode_bytes(data).encode("utf-8")
        frame = read_lines_csv(data, _separator_for(data, file))
    return frame.rechunk().with_row_index(LINE, offset=1)


def read_lines_csv(source: Path | bytes, separator: str) -> pl.DataFrame:
    return pl.read_csv(
        source,
        has_header=False,
        separator=separator,
        quote_char=None,
        schema={TEXT: pl.String},
        encoding="utf8",
        raise_if_empty=False,
    )
