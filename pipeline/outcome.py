"""What a job hands back (`RunOutcome`), the summary.json it writes (`build_summary`) and
the error report of a run that rated nothing (`rejected`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pipeline.errors import Problem
from pipeline.load import EXIT_INPUT, EXIT_OK, Loaded, RunOptions, Timer

if TYPE_CHECKING:
    import polars as pl

    from pipeline.norms import NormOptions
    from pipeline.norms.stage import NormsStage
    from pipeline.rate import RateResult


@dataclass
class RunOutcome:
    exit_code: int
    loaded: Loaded
    result: RateResult | None = None
    written: list[Path] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    peaks: dict[str, int] = field(default_factory=dict)
    summary: dict[str, object] = field(default_factory=dict)
    # the warnings of the rating stage (a chain: of every period), beside loaded.problems
    rating_warnings: list[Problem] = field(default_factory=list)
    norms: NormsStage | None = None  # the norms stage, when outputs were written


def _problem_dict(p: Problem) -> dict[str, object]:
    loc = p.location
    return {
        "file": loc.file,
        "line": loc.line,
        "column": loc.column,
        "code": p.code,
        "message": p.message,
        "severity": p.severity.value,
    }


def _skipped_duplicates(loaded: Loaded, result: RateResult | None) -> list[dict[str, str]]:
    """The files skipped as an event given twice; for a period rated (a chain's period
    summary holds only its own events), those whose kept file it rates."""
    if result is None:
        return list(loaded.skipped_duplicates)
    rated = {str(ev.events["file"][0]) for ev in loaded.events}
    return [d for d in loaded.skipped_duplicates if d["kept"] in rated]


def norms_of(
    result: RateResult,
    players: pl.DataFrame,
    options: RunOptions,
    checks: Literal["all", "reach", "none"] = "none",
    titles: Sequence[str] | None = None,
) -> NormsStage:
    """The norms stage (pipeline.norms.stage) on what was rated: performance ratings and
    the title-norm checks, the events typed by `--events` or `--event-type`."""
    from pipeline.norms.stage import norms_stage

    return norms_stage(
        result.games, players, result.events, norm_options(options, titles), checks=checks
    )


def norm_options(options: RunOptions, titles: Sequence[str] | None = None) -> NormOptions:
    """The title-norm choices of a job: FIDE's readings, `titles` (default all four) and
    the type `--event-type` gives the events `--events` does not type."""
    from pipeline.norms import NormOptions
    from pipeline.norms.titles import NORM_TITLES

    return NormOptions(titles=tuple(titles or NORM_TITLES), default_event_type=options.event_type)


def build_summary(
    loaded: Loaded,
    result: RateResult | None,
    exit_code: int,
    timings: dict[str, float],
    warnings: list[Problem],
) -> dict[str, object]:
    summary: dict[str, object] = {
        "status": "ok" if exit_code == EXIT_OK else ("partial" if result else "rejected"),
        "exit_code": exit_code,
        "files_read": loaded.files_read,
        "events_rated": len(loaded.events) if result is not None else 0,
        "invalid_files": loaded.invalid_files,
        "ignored_registries": loaded.ignored_registries,
        "errors": [_problem_dict(p) for p in loaded.errors],
        "warnings": [_problem_dict(p) for p in warnings],
        "skipped_duplicates": _skipped_duplicates(loaded, result),
        "adjustments": [a.as_dict() for a in loaded.adjustments],
    }
    if result is not None:
        import polars as pl

        from schemas.ingest import LIST_BASIS

        ratings = result.ratings
        games = result.games
        per_list: dict[str, dict[str, int]] = {}
        for lst in sorted(set(ratings["list"].to_list())):
            sub = ratings.filter(pl.col("list") == lst)
            per_list[str(lst)] = {
                "players": sub.height,
                "rated_games": int(games.filter((pl.col("list") == lst) & pl.col("rated")).height)
                // 2,
                **{
                    status: int(sub.filter(pl.col("status") == status).height)
                    for status in ("rated", "initial", "unrated", "no-rated-games")
                },
            }
        summary["counts"] = {
            "events": result.events.height,
            "player_entries": int(sum(ev.players.height for ev in loaded.events)),
            "players": ratings.height,
            "game_rows": games.height,
            "rated_game_rows": int(games["rated"].sum()),
            "per_list": per_list,
        }
        summary["events"] = [
            {
                "name": row.get("name"),
                "file": row.get("file"),
                "list": row.get("list"),
                "list_basis": LIST_BASIS.get(str(row.get("list_source"))),
                "list_reason": row.get("list_reason"),
                "start_date": str(row["start_date"]) if row.get("start_date") else None,
                "rule_set": row.get("rule_set"),
            }
            for row in result.events.iter_rows(named=True)
        ]
    if loaded.identity is not None:
        summary["identities"] = loaded.identity.counts
    summary["timings"] = {k: round(v, 4) for k, v in timings.items()}
    return summary


def rejected(loaded: Loaded, options: RunOptions, timer: Timer) -> RunOutcome:
    """Nothing rated: the error report (errors.txt and summary.json) replaces the outputs."""
    outcome = RunOutcome(EXIT_INPUT, loaded, timings=timer.timings, peaks=timer.peaks)
    outcome.summary = build_summary(loaded, None, EXIT_INPUT, timer.timings, loaded.warnings)
    if options.out_dir is not None:
        from pipeline.report.outdir import staged
        from pipeline.report.tables import write_error_report

        with timer.stage("report"), staged(options.out_dir) as staging:
            errors_txt = write_error_report(staging, loaded.problems, outcome.summary)
        errors_txt = options.out_dir / errors_txt.name
        outcome.written = [errors_txt, errors_txt.with_name("summary.json")]
    return outcome
