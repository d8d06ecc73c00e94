"""`elo run --chain`: every rating period found, oldest first, each rated from the list
the one before wrote (design "Periods and lists").

Everything is read, checked and linked once (the same person is the same person in every
month); then, period by period: the base list is the registry given (for the first
period) or the list the previous period wrote; an event that started in an earlier month
is rated from the list of that month (`pipeline.rate.lists`); the pool of unrated
players' games is carried (`pipeline.period.pending`). Outputs go to a staging folder
that replaces `--out` at the end (`pipeline.report.outdir`): `OUT/<YYYY-MM>/` with the
period's usual outputs plus players_list.csv and pending.csv, `OUT/history.csv` and
`OUT/summary.json`.
"""

from __future__ import annotations

import dataclasses
import time
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING

import polars as pl

from pipeline.errors import Problem
from pipeline.load import (
    EXIT_INPUT,
    EXIT_OK,
    Loaded,
    ProgressFn,
    RunOptions,
    Timer,
    load_inputs,
    peak_rss_bytes,
)
from pipeline.outcome import RunOutcome, build_summary, norms_of, rejected
from pipeline.period.calendar import months_between, period_of, shift
from pipeline.period.select import start_list_month, start_list_problems
from pipeline.rate import columns as c
from schemas.output import HISTORY_COLUMNS

if TYPE_CHECKING:
    from pipeline.formats.model import EventData
    from pipeline.rate import RateResult

HISTORY_CSV = "history.csv"


@dataclasses.dataclass
class _Period:
    name: str
    events: list[EventData]
    count: int = 0  # events rated
    summary: dict[str, object] = dataclasses.field(default_factory=dict)
    seconds: float = 0.0  # rating, lists and reports of the period (reading is shared)
    peak: int | None = None  # the process's peak memory at the period's end


def _frames(loaded: Loaded, events: list[EventData]) -> tuple[pl.DataFrame, ...]:
    ids = [str(ev.events["event_id"][0]) for ev in events]
    frames = [
        pl.concat([getattr(ev, name) for ev in events], how="diagonal_relaxed", rechunk=True)
        for name in ("events", "players", "games")
    ]
    if loaded.identity is not None:
        players = loaded.identity.players
        frames[1] = players.filter(pl.col("event_id").is_in(ids))
    return tuple(frames)


def _all_players(loaded: Loaded, periods: list[_Period]) -> pl.DataFrame:
    """Every entry with its linked FIDE ID (the identity stage's, else the file's)."""
    if loaded.identity is not None:
        return loaded.identity.players
    frames = [ev.players for p in periods for ev in p.events]
    frame = pl.concat(frames, how="diagonal_relaxed")
    return (
        frame
        if "fide_id" in frame.columns
        else frame.with_columns(pl.lit(None, pl.Int64).alias("fide_id"))
    )


def _projection(state: pl.DataFrame, month: str, fide_ids: pl.Series) -> pl.DataFrame:
    """The rows of a list that events started in `month` need, tagged with the month."""

    rows = state.filter(pl.col("fideid").is_in(fide_ids.implode()) | pl.col("fideid").is_null())
    return rows.with_columns(pl.lit(month).alias(c.RO_MONTH))


def run_chain(options: RunOptions, progress: ProgressFn | None = None) -> RunOutcome:
    """Rate every period in order (module docstring)."""
    from pipeline.period.lists import next_state, write_list
    from pipeline.period.nextlist import as_list, refresh_k
    from pipeline.rate import RateOptions, rate_period
    from pipeline.report.outdir import staged
    from pipeline.report.tables import write_outputs
    from pipeline.report.workbook import WorkbookOptions

    timer = Timer()
    loaded = load_inputs(options, timer, progress)
    if (loaded.errors and not options.skip_invalid) or not loaded.events:
        return rejected(loaded, options, timer)
    if options.registry is not None and loaded.registry is None:
        return rejected(loaded, options, timer)
    today = period_of(options.today)
    periods = [
        _Period(today if name == "undated" else name, events)
        for name, events in loaded.periods.items()
    ]
    first = periods[0].name
    loaded.periods, loaded.events = {}, []  # each period's events go with it when done
    # the months whose list an event of a later period is rated from
    late: dict[str, list[str]] = {}  # start month -> the events that began then
    for period in periods:
        for ev in period.events:
            month = start_list_month(ev)
            if month is not None and first <= month < period.name:
                late.setdefault(month, []).append(str(ev.events["event_id"][0]))
    entries = _all_players(loaded, periods) if late else None
    wanted: dict[str, list[int]] = {
        month: entries.filter(pl.col("event_id").is_in(ids))["fide_id"].drop_nulls().to_list()
        for month, ids in late.items()
        if entries is not None
    }
    state = as_list(loaded.registry)
    loaded.registry = None  # the state holds the list from here on
    pending = loaded.pending
    start_lists: list[pl.DataFrame] = []
    history: list[pl.DataFrame] = []
    rating_warnings: list[Problem] = []  # every period's rating-stage warnings
    rules = RateOptions(
        rules_date=options.rules_date, rounding=options.rounding, today=options.today
    )
    out = options.out_dir
    place = staged(out) if out is not None else nullcontext(Path())
    with place as staging:
        previous: str | None = None
        last: RateResult | None = None
        for index, period in enumerate(periods, start=1):
            began = time.perf_counter()
            if progress is not None:
                progress(index, len(periods), f"period {period.name}")
            name = period.name
            covers = (
                [first]
                if previous is None
                else [shift(previous, 1 + i) for i in range(months_between(previous, name))]
            )
            for month in covers:
                if month in wanted:
                    start_lists.append(_projection(state, month, pl.Series(wanted[month])))
            if previous is not None and months_between(previous, name) > 1:
                state = refresh_k(state, name)
            events, players, games = _frames(loaded, period.events)
            last = None  # the period before is written: its frames go before these come
            with timer.stage("rate"):
                result = rate_period(
                    events,
                    players,
                    games,
                    state,
                    dataclasses.replace(rules, period=name),
                    start_lists=pl.concat(start_lists, how="diagonal_relaxed")
                    if start_lists
                    else None,
                    pending=pending,
                )
            with timer.stage("lists"):
                state, pending = next_state(state, result, name)
            files = {str(ev.events["file"][0]) for ev in period.events}
            # the period's problems: at its events' files and at the copies skipped for them
            skipped = {d["file"] for d in loaded.skipped_duplicates if d["kept"] in files}
            mine = [p for p in loaded.problems if p.location.file in files | skipped]
            extra = start_list_problems(period.events, name, first, options.registry is not None)
            warnings = sorted(
                [*[p for p in mine if not p.is_error], *extra, *result.warnings],
                key=Problem.sort_key,
            )
            sub = dataclasses.replace(
                loaded,
                events=period.events,
                problems=mine,
                files_read=len(files),
                adjustments=[a for a in loaded.adjustments if a.file in files],
            )
            period.summary = build_summary(sub, result, EXIT_OK, {}, warnings)
            rating_warnings += [*extra, *result.warnings]
            period.summary["period"] = name
            history.append(
                result.ratings.with_columns(pl.lit(name).alias("period")).select(HISTORY_COLUMNS)
            )
            if out is not None:
                folder = staging / name
                identities = None
                if loaded.identity is not None:
                    identities = loaded.identity.table.filter(pl.col("file").is_in(sorted(files)))
                with timer.stage("norms"):
                    norms = norms_of(result, players, options)
                period.summary["norms"] = norms.counts()
                with timer.stage("report"):
                    folder.mkdir(parents=True, exist_ok=True)
                    lists = write_list(folder, state, pending)
                    write_outputs(
                        result,
                        folder,
                        summary=period.summary,
                        checks=warnings,
                        identities=identities,
                        extra=lists,
                        workbook=WorkbookOptions(lang=options.lang),
                        norms=norms,
                    )
                del norms
            # a period done: only its counts are kept (a chain of world months would
            # otherwise hold every month's games)
            period.count = len(period.events)
            period.events = []
            last = result
            del result, events, players, games
            period.seconds = time.perf_counter() - began
            period.peak = peak_rss_bytes()
            previous = name
        exit_code = EXIT_INPUT if loaded.errors else EXIT_OK
        outcome = RunOutcome(exit_code, loaded, last, timings=timer.timings, peaks=timer.peaks)
        outcome.rating_warnings = sorted(rating_warnings, key=Problem.sort_key)
        outcome.summary = _chain_summary(loaded, periods, exit_code, timer, rating_warnings)
        if out is not None:
            from pipeline.report.tables import write_csv_frame, write_summary_json

            with timer.stage("report"):
                write_csv_frame(staging / HISTORY_CSV, pl.concat(history))
                outcome.summary["timings"] = {k: round(v, 4) for k, v in timer.timings.items()}
                outcome.summary["outputs"] = [
                    HISTORY_CSV,
                    "summary.json",
                    *[p.name for p in periods],
                ]
                write_summary_json(staging / "summary.json", outcome.summary)
            outcome.written = [
                out / HISTORY_CSV,
                out / "summary.json",
                *[out / p.name for p in periods],
            ]
    return outcome


def _count(summary: dict[str, object], key: str) -> object:
    counts = summary.get("counts")
    return counts.get(key, 0) if isinstance(counts, dict) else 0


def _chain_summary(
    loaded: Loaded,
    periods: list[_Period],
    exit_code: int,
    timer: Timer,
    rating_warnings: list[Problem],
) -> dict[str, object]:
    """The chain's summary.json: its counts, every period's line, and every warning (those
    of reading and of each period's rating)."""
    warnings = sorted([*loaded.warnings, *rating_warnings], key=Problem.sort_key)
    summary = build_summary(loaded, None, exit_code, timer.timings, warnings)
    summary["status"] = "ok" if exit_code == EXIT_OK else "partial"
    summary["events_rated"] = sum(p.count for p in periods)
    summary["periods"] = [
        {
            "period": p.name,
            "list_date": shift(p.name, 1) + "-01",
            "events": p.count,
            "players": _count(p.summary, "players"),
            "counts": p.summary.get("counts"),
            "warnings": len(w) if isinstance(w := p.summary.get("warnings"), list) else 0,
            "seconds": round(p.seconds, 4),
            "peak_rss": p.peak,
        }
        for p in periods
    ]
    return summary


__all__ = ["HISTORY_CSV", "run_chain"]
