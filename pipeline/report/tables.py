"""ratings.csv, games.csv, summary.json and the error report; `write_outputs` writes all.

CSV files hold exactly the contract's columns in order (schemas.output), UTF-8 without
BOM, LF line ends, `,` separator, empty for null, floats with two decimals, booleans as
`true` / `false`. summary.json has a fixed key order (known keys first, then the rest in
the order given) and problems as {file, line, column, code, message, severity} objects.
Every file is written atomically (report/atomic.py).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import date, datetime
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import polars as pl

from pipeline.errors import Problem
from pipeline.norms import performance_frame
from pipeline.report import pretty_json
from pipeline.report.atomic import atomic_open, atomic_write_text
from schemas.output import (
    GAMES_COLUMNS,
    IDENTITY_COLUMNS,
    NORMS_COLUMNS,
    PERFORMANCE_COLUMNS,
    RATINGS_COLUMNS,
)

if TYPE_CHECKING:
    from pipeline.norms.stage import NormsStage
    from pipeline.report.workbook import WorkbookOptions

REPORT_XLSX = "report.xlsx"
RATINGS_CSV = "ratings.csv"
GAMES_CSV = "games.csv"
IDENTITIES_CSV = "identities.csv"
PERFORMANCE_CSV = "performance.csv"
NORMS_CSV = "norms.csv"
SUMMARY_JSON = "summary.json"
ERRORS_TXT = "errors.txt"

# summary.json: these keys first, in this order; any other key follows in given order.
SUMMARY_KEY_ORDER = [
    "status",
    "exit_code",
    "period",
    "periods",
    "files_read",
    "events_rated",
    "counts",
    "events",
    "identities",
    "invalid_files",
    "skipped",
    "ignored_registries",
    "errors",
    "warnings",
    "report_notes",
    "outputs",
    "timings",
]


class RateResultLike(Protocol):
    """What the writers need of pipeline.rate.RateResult (not imported here)."""

    @property
    def games(self) -> pl.DataFrame: ...
    @property
    def ratings(self) -> pl.DataFrame: ...
    @property
    def events(self) -> pl.DataFrame: ...
    @property
    def warnings(self) -> Sequence[Problem]: ...


# --- CSV --------------------------------------------------------------------------------


def contract_frame(frame: pl.DataFrame, columns: Sequence[str], table: str) -> pl.DataFrame:
    """The contract columns in order; -0.0 shown as 0.00, empty text as an empty field. A
    missing column is a bug of the producer, reported as such (not a user error)."""
    missing = [name for name in columns if name not in frame.columns]
    if missing:
        raise ValueError(f"{table}: expected the contract columns, missing {missing}")
    out = frame.select(columns)
    floats = [name for name, dtype in out.schema.items() if dtype.is_float()]
    texts = [name for name, dtype in out.schema.items() if dtype == pl.String]
    return out.with_columns(
        *(pl.when(pl.col(n) == 0).then(0.0).otherwise(pl.col(n)).alias(n) for n in floats),
        # polars writes "" for an empty string (to tell it from null): both are empty here
        *(pl.when(pl.col(n) != "").then(pl.col(n)).alias(n) for n in texts),
    )


def write_csv_frame(path: Path, frame: pl.DataFrame) -> None:
    with atomic_open(path) as stream:
        frame.write_csv(
            stream,
            separator=",",
            line_terminator="\n",
            null_value="",
            float_precision=2,
            include_bom=False,
        )


def write_ratings_csv(path: Path, ratings: pl.DataFrame) -> None:
    write_csv_frame(path, contract_frame(ratings, RATINGS_COLUMNS, RATINGS_CSV))


def write_games_csv(path: Path, games: pl.DataFrame) -> None:
    write_csv_frame(path, contract_frame(games, GAMES_COLUMNS, GAMES_CSV))


def write_identities_csv(path: Path, identities: pl.DataFrame) -> None:
    write_csv_frame(path, contract_frame(identities, IDENTITY_COLUMNS, IDENTITIES_CSV))


def write_performance_csv(path: Path, performance: pl.DataFrame) -> None:
    write_csv_frame(path, contract_frame(performance, PERFORMANCE_COLUMNS, PERFORMANCE_CSV))


def write_norms_csv(path: Path, norms: NormsStage) -> None:
    from pipeline.report.norms import norms_csv_frame

    write_csv_frame(path, contract_frame(norms_csv_frame(norms), NORMS_COLUMNS, NORMS_CSV))


# --- JSON -------------------------------------------------------------------------------


def problem_dict(problem: Problem) -> dict[str, object]:
    loc = problem.location
    return {
        "file": loc.file,
        "line": loc.line,
        "column": loc.column,
        "code": problem.code,
        "message": problem.message,
        "severity": problem.severity.value,
    }


_PLAIN = (str, int, bool, type(None))  # JSON values as they are (a float may be NaN)


def _plain(value: dict[object, object]) -> bool:
    """Whether a dict is JSON as it is: text keys, values of `_PLAIN` types or finite
    floats (a problem object of the summary's thousands)."""
    return all(type(k) is str for k in value) and all(
        type(v) in _PLAIN or (type(v) is float and math.isfinite(v)) for v in value.values()
    )


def _jsonable(value: object) -> object:
    """Plain JSON values: problems as objects, paths and dates as strings, NaN as null."""
    if type(value) is dict and _plain(value):
        return value
    if isinstance(value, Problem):
        return problem_dict(value)
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value, key=str) if isinstance(value, set | frozenset) else value
        return [_jsonable(v) for v in items]
    if isinstance(value, Enum):
        return _jsonable(value.value)
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise TypeError(f"summary.json: expected JSON-able values, got {type(value).__name__}")


def ordered_summary(summary: Mapping[str, object]) -> dict[str, object]:
    known = [k for k in SUMMARY_KEY_ORDER if k in summary]
    rest = [k for k in summary if k not in SUMMARY_KEY_ORDER]
    return {k: _jsonable(summary[k]) for k in [*known, *rest]}


def summary_text(summary: Mapping[str, object]) -> str:
    """summary.json's text: json.dumps' with an indent of 2, UTF-8 as it is."""
    return pretty_json.dumps(ordered_summary(summary)) + "\n"


def write_summary_json(path: Path, summary: Mapping[str, object]) -> None:
    atomic_write_text(path, summary_text(summary))


# --- everything -------------------------------------------------------------------------


def write_outputs(
    result: RateResultLike,
    out_dir: Path,
    *,
    summary: Mapping[str, object],
    checks: Sequence[Problem] | None = None,
    skipped: Sequence[Problem] = (),
    workbook: WorkbookOptions | None = None,
    identities: pl.DataFrame | None = None,
    extra: Sequence[Path] = (),
    norms: NormsStage | None = None,
) -> list[Path]:
    """Write ratings.csv, games.csv, identities.csv (given `identities`, the identity
    stage's table), performance.csv (pipeline.norms: `norms`' performance, else from the
    games), norms.csv (given `norms`, the norms stage), report.xlsx and (last)
    summary.json into `out_dir`; `extra` are files written there before (the next list),
    listed in the summary's outputs.

    `checks` are the warnings for the Checks sheet (default: `result.warnings`);
    `skipped` the errors of events left out. A stale errors.txt of an earlier rejected
    run is removed. Returns the paths written, in order.
    """
    from pipeline.report.workbook import write_workbook

    started = time.perf_counter()
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = [out_dir / RATINGS_CSV, out_dir / GAMES_CSV]
    if identities is not None:
        paths.append(out_dir / IDENTITIES_CSV)
    else:
        (out_dir / IDENTITIES_CSV).unlink(missing_ok=True)  # an earlier run's
    paths.append(out_dir / PERFORMANCE_CSV)
    if norms is not None:
        paths.append(out_dir / NORMS_CSV)
    else:
        (out_dir / NORMS_CSV).unlink(missing_ok=True)
    paths.append(out_dir / REPORT_XLSX)
    performance = norms.performance if norms is not None else performance_frame(result.games)

    def write_tables() -> None:
        write_ratings_csv(paths[0], result.ratings)
        write_games_csv(paths[1], result.games)
        if identities is not None:
            write_identities_csv(paths[2], identities)
        write_performance_csv(out_dir / PERFORMANCE_CSV, performance)
        if norms is not None:
            write_norms_csv(out_dir / NORMS_CSV, norms)

    # the CSVs are written beside the workbook's rows, once its sheets are laid out (the
    # layout keeps both cores busy, the rows' writing not: polars releases the GIL); both
    # are done, or the first error raised, before the summary
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="tables") as pool:
        tables: list[Future[None]] = []
        notes = write_workbook(
            paths[-1],
            ratings=result.ratings,
            games=result.games,
            events=result.events,
            checks=list(result.warnings) if checks is None else checks,
            skipped=skipped,
            options=workbook,
            identities=identities,
            performance=performance,
            norms=norms,
            laid_out=lambda: tables.append(pool.submit(write_tables)),
        )
        (written,) = tables  # submitted once the sheets were laid out
        written.result()
    final = dict(summary)
    timings = summary.get("timings")
    if isinstance(timings, Mapping):
        # the caller's timer is still running around this call: add the report stage
        final["timings"] = {**timings, "report": round(time.perf_counter() - started, 4)}
    if notes:
        final["report_notes"] = [problem_dict(p) for p in notes]
    final["outputs"] = [p.name for p in [*paths, *extra, out_dir / SUMMARY_JSON]]
    write_summary_json(out_dir / SUMMARY_JSON, final)
    (out_dir / ERRORS_TXT).unlink(missing_ok=True)
    return [*paths, *extra, out_dir / SUMMARY_JSON]


def error_report_text(problems: Sequence[Problem]) -> str:
    errors = [p for p in problems if p.is_error]
    warnings = len(problems) - len(errors)
    head = (
        f"Input rejected: {len(errors)} error{'s' * (len(errors) != 1)}, "
        f"{warnings} warning{'s' * (warnings != 1)}. Nothing was rated; fix the lines "
        "below and run again.\n"
    )
    ordered = sorted(problems, key=Problem.sort_key)
    return head + "".join(f"{p}\n" for p in ordered)


def write_error_report(
    out_dir: Path, problems: Sequence[Problem], summary: Mapping[str, object] | None = None
) -> Path:
    """When the input is rejected: errors.txt (one `file:line:column: message [code]` per
    problem) and, given a summary, summary.json (its `status` says "rejected"). Reports of
    an earlier run in `out_dir` are removed, so that nothing but the error report is there
    for a scheduler to pick up. Returns the path of errors.txt."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    for stale in (RATINGS_CSV, GAMES_CSV, IDENTITIES_CSV, PERFORMANCE_CSV, REPORT_XLSX):
        (out_dir / stale).unlink(missing_ok=True)
    path = out_dir / ERRORS_TXT
    atomic_write_text(path, error_report_text(problems))
    if summary is not None:
        final = {"status": "rejected", **summary}
        final["outputs"] = [ERRORS_TXT, SUMMARY_JSON]
        write_summary_json(out_dir / SUMMARY_JSON, final)
    return path
