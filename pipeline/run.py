"""`elo run` for one rating period: the inputs loaded (`pipeline.load`), the period rated
(`pipeline.rate`), the outputs written (`pipeline.report`). A chain of periods is
`pipeline.chain`'s. No printing here: the CLI passes a progress callback and prints what
`RunOutcome` holds.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.errors import Problem
from pipeline.load import (
    EXIT_INPUT,
    EXIT_OK,
    Loaded,
    ProgressFn,
    RunOptions,
    Timer,
    linked_players,
    load_inputs,
    stack_frames,
)
from pipeline.outcome import RunOutcome, build_summary, norms_of, rejected
from pipeline.rate import columns as c

if TYPE_CHECKING:
    import polars as pl

    from pipeline.rate import RateResult


def rated_period(loaded: Loaded, options: RunOptions) -> str | None:
    """The period a single run rates: --period, else the one its events belong to."""
    if options.period is not None:
        return options.period
    found = [p for p in loaded.periods if p != "undated"]
    return found[0] if len(found) == 1 else None


def _start_lists(loaded: Loaded, options: RunOptions) -> pl.DataFrame | None:
    """The previous month's list as the start list of the events that began then."""
    from pipeline.period.calendar import shift

    period = rated_period(loaded, options)
    if loaded.previous_list is None or period is None:
        return None
    import polars as pl

    return loaded.previous_list.with_columns(pl.lit(shift(period, -1)).alias(c.RO_MONTH))


def rate_loaded(loaded: Loaded, options: RunOptions, timer: Timer) -> RateResult:
    """Rate the period read (`pipeline.rate.rate_period`): the events' frames stacked
    (`_all`), the players as the identity stage linked them."""
    from pipeline.rate import RateOptions, rate_period

    with timer.stage("rate"):
        # one row each: one chunk, for the gathers by event
        events = stack_frames(loaded, "events")
        players = linked_players(loaded)
        games = stack_frames(loaded, "games", rechunk=False)
        return rate_period(
            events,
            players,
            games,
            loaded.registry,
            RateOptions(
                rules_date=options.rules_date,
                rounding=options.rounding,
                # the period placed (an officer's decision may move an event to a later one)
                period=rated_period(loaded, options),
                today=options.today,
            ),
            start_lists=_start_lists(loaded, options),
            pending=loaded.pending,
        )


def run_job(options: RunOptions, progress: ProgressFn | None = None) -> RunOutcome:
    """The main job (`elo run`) for one period: read, validate, rate, write. Returns what
    happened. A chain (`options.chain`) is `pipeline.chain.run_chain`'s."""
    if options.chain:
        raise ValueError("a chain of periods is run by pipeline.chain.run_chain")
    timer = Timer()
    loaded = load_inputs(options, timer, progress)
    if _blocked(loaded, options):
        return rejected(loaded, options, timer)

    result = rate_loaded(loaded, options, timer)
    exit_code = EXIT_INPUT if loaded.errors else EXIT_OK
    period = _period(result)
    late = []
    if options.registry is not None:
        from pipeline.period.calendar import shift
        from pipeline.period.select import start_list_problems

        known = shift(period, -1) if loaded.previous_list is not None else period
        late = start_list_problems(loaded.events, period, known, registry_given=True)
    warnings = sorted([*loaded.warnings, *late, *result.warnings], key=Problem.sort_key)
    outcome = RunOutcome(exit_code, loaded, result, timings=timer.timings, peaks=timer.peaks)
    outcome.rating_warnings = sorted([*late, *result.warnings], key=Problem.sort_key)
    outcome.summary = build_summary(loaded, result, exit_code, timer.timings, warnings)
    outcome.summary["period"] = period  # rated into the list of the 1st of the next month
    if options.out_dir is not None:
        with timer.stage("norms"):
            outcome.norms = norms_of(result, linked_players(loaded), options)
        outcome.summary["norms"] = outcome.norms.counts()
        outcome.summary["timings"] = {k: round(v, 4) for k, v in timer.timings.items()}
        from pipeline.report.outdir import staged
        from pipeline.report.tables import write_outputs
        from pipeline.report.workbook import WorkbookOptions

        with timer.stage("report"), staged(options.out_dir) as staging:
            lists = []
            if options.write_list:
                lists = write_list_files(staging, loaded.registry, result, period)
            written = write_outputs(
                result,
                staging,
                summary=outcome.summary,
                checks=warnings,
                skipped=list(loaded.errors),
                identities=loaded.identity.table if loaded.identity else None,
                extra=lists,
                workbook=WorkbookOptions(lang=options.lang),
                norms=outcome.norms,
            )
        outcome.written = [options.out_dir / p.relative_to(staging) for p in written]
        outcome.summary["timings"] = {k: round(v, 4) for k, v in timer.timings.items()}
    return outcome


def _period(result: RateResult) -> str:
    """The period rated (RateResult.events carries each event's `rules_date`)."""
    return str(result.period)


def _blocked(loaded: Loaded, options: RunOptions) -> bool:
    registry_bad = options.registry is not None and loaded.registry is None
    registry_bad |= options.previous_list is not None and loaded.previous_list is None
    blocked = bool(loaded.errors) and (not options.skip_invalid or registry_bad)
    return blocked or not loaded.events


def write_list_files(
    folder: Path, base: pl.DataFrame | None, result: RateResult, period: str
) -> list[Path]:
    """players_list.csv (the next list) and pending.csv of a rated period."""
    from pipeline.period.lists import next_state, write_list

    new_list, pending = next_state(base, result, period)
    return write_list(folder, new_list, pending)
