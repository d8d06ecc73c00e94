"""The pandera models of schemas/ as user-facing problems.

`schema_problems` validates a frame lazily (all failures at once) and maps each failing
value back to its source line and column. Pandera runs one query per check and column,
which costs ~20 ms per frame whatever its size; `passes_fast` first evaluates the same
column checks as one polars query and pandera runs only when that finds a failure (or the
schema holds a check it does not know), so pandera stays the authority on every failure.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pandera.polars as pa
import polars as pl

from pipeline.errors import Location, Problem
from pipeline.validate.checks import EventContext
from schemas.columns import G
from schemas.ingest import Events, Games

# What a schema column holds, for messages, and the stable code of a bad value; codes
# match the readers' codes for the same fault (e.g. "bad-rating", "bad-result").
_NOUNS = {
    "start_no": "a start number",
    "opponent_no": "an opponent start number",
    "round": "a round number",
    "code": "a result code",
    "colour": "a colour",
    "score": "a score",
    "fide_id": "a FIDE ID",
    "rating": "a rating",
    "points": "declared points",
    "list": "a rating list",
    "rounds": "a number of rounds",
    "source": "a source format",
    "event_id": "an event id",
}
_NOTES = {"rating": " (0 or blank when unrated)", "fide_id": " (0 or blank when none)"}
_CODES = {
    "code": "bad-result",
    "opponent_no": "bad-opponent",
    "start_no": "bad-start-number",
    "fide_id": "bad-fide-id",
}


class ReaderContractError(RuntimeError):
    """A reader returned a frame without a required column or with a wrong type: a bug in
    the reader, not in the user's file, so it is not an InputError."""


@cache
def schema_of(model: type[pa.DataFrameModel]) -> Any:
    return model.to_schema()


@cache
def optional_types(model: type[pa.DataFrameModel]) -> dict[str, pl.DataType]:
    """The optional columns of a model and their types (readers may leave them out)."""
    return {
        name: col.dtype.type
        for name, col in schema_of(model).columns.items()
        if not col.required and col.dtype is not None
    }


def describe_check(check: str) -> str:
    """Pandera's check text (`in_range(1000, 3500)`) as words (`in 1000..3500`)."""
    patterns: list[tuple[str, str]] = [
        (r"greater_than_or_equal_to\((.+)\)", "of at least {0}"),
        (r"less_than_or_equal_to\((.+)\)", "of at most {0}"),
        (r"in_range\((.+), (.+)\)", "in {0}..{1}"),
        (r"not_nullable", "present"),
        (r"field_uniqueness|unique", "unique"),
    ]
    for pattern, text in patterns:
        m = re.fullmatch(pattern, check)
        if m:
            return text.format(*m.groups())
    m = re.fullmatch(r"isin\(\[(.*)\]\)", check)
    if m:
        values = [v.strip().strip("'\"") for v in m.group(1).split(",")]
        return "one of " + " ".join(values)
    return f"passing {check}"


def normalized(df: pl.DataFrame, schema: Any) -> pl.DataFrame:
    """Cast all-null columns (dtype Null, e.g. nobody rated) to the schema's type."""
    casts = [
        pl.col(name).cast(col.dtype.type)
        for name, col in schema.columns.items()
        if name in df and df.schema[name] == pl.Null
    ]
    return df.with_columns(casts) if casts else df


def failure_row_expr(name: str, check: Any) -> pl.Expr | None:
    """A polars expression true on each row whose value fails `check`; None for a check
    this module cannot express."""
    col, stats = pl.col(name), check.statistics
    bad: pl.Expr
    if check.name == "greater_than_or_equal_to":
        bad = col < stats["min_value"]
    elif check.name == "less_than_or_equal_to":
        bad = col > stats["max_value"]
    elif (
        check.name == "in_range"
        and stats.get("include_min", True)
        and stats.get("include_max", True)
    ):
        bad = (col < stats["min_value"]) | (col > stats["max_value"])
    elif check.name == "isin":
        bad = ~col.is_in(list(stats["allowed_values"]))
    else:
        return None
    return bad


def _failure_expr(name: str, check: Any) -> pl.Expr | None:
    """True when some value fails `check`; None for an unknown check."""
    bad = failure_row_expr(name, check)
    return None if bad is None else bad.fill_null(False).any()


def passes_fast(df: pl.DataFrame, schema: Any) -> bool:
    """True when `df` certainly passes `schema`; False when pandera must look."""
    if schema.checks or schema.unique:
        return False
    exprs: list[pl.Expr] = []
    for name, col in schema.columns.items():
        if name not in df:
            if col.required:
                return False
            continue
        if col.dtype is None or df.schema[name] != col.dtype.type:
            return False
        if not col.nullable:
            exprs.append(pl.col(name).is_null().any())
        if col.unique:
            exprs.append(pl.col(name).drop_nulls().is_duplicated().any())
        for check in col.checks:
            expr = _failure_expr(name, check)
            if expr is None:
                return False
            exprs.append(expr)
    if not exprs or df.is_empty():
        return True
    return not any(df.select(e.alias(f"_{i}") for i, e in enumerate(exprs)).row(0))


def schema_problems(
    df: pl.DataFrame, model: type[pa.DataFrameModel], ctx: EventContext
) -> list[Problem]:
    """Validate `df` against a pandera model lazily; every failing value becomes a Problem
    at the source line (and column) of its row. Raises ReaderContractError when a column is
    missing or of the wrong type (a reader bug)."""
    schema = schema_of(model)
    frame = normalized(df, schema)
    if passes_fast(frame, schema):
        return []
    try:
        schema.validate(frame, lazy=True)
    except pa.errors.SchemaErrors as exc:
        cases: pl.DataFrame = exc.failure_cases
    else:
        return []
    structural = cases.filter(pl.col("index").is_null())
    if structural.height:
        detail = "; ".join(f"{r['column']}: {r['check']}" for r in structural.iter_rows(named=True))
        raise ReaderContractError(
            f"frame does not follow schemas.ingest.{model.__name__}: {detail}"
        )
    problems: list[Problem] = []
    for case in cases.iter_rows(named=True):
        name, index = str(case["column"]), int(case["index"])
        row = frame.row(index, named=True)
        line = row.get(G.LINE) if model is not Events else None
        column = row.get(G.COLUMN) if model is Games else ctx.player_column(name)
        got = case["failure_case"]
        problems.append(
            Problem(
                Location(ctx.file, line, column),
                _CODES.get(name, "bad-" + name.replace("_", "-")),
                f"expected {_NOUNS.get(name, name.replace('_', ' '))} "
                f"{describe_check(str(case['check']))}{_NOTES.get(name, '')}, "
                f"got {'nothing' if got is None else repr(got)}",
            )
        )
    return problems
