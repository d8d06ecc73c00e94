"""`elo validate`, `elo run`, `elo explain` and `elo convert`: the jobs over tournament
files."""

from __future__ import annotations

import dataclasses
import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, get_args

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from pipeline.load import ProgressFn, RunOptions
    from pipeline.outcome import RunOutcome

from pipeline.cli.common import (
    EVENT_TYPE,
    EVENTS,
    EXIT_INPUT,
    EXIT_OK,
    IDENTITIES,
    JOBS,
    LANG,
    LIST,
    NO_NAME_MATCH,
    PATHS,
    PERIOD,
    REGISTRY,
    RULES,
    Command,
    EventType,
    Lang,
    RatingList,
    Rounding,
    TrfVersion,
    app,
    expected_one_of,
    pick_lang,
    print_problems,
    usage_error,
)

# --- validate -------------------------------------------------------------------------


@app.command(cls=Command)
def validate(
    paths: list[Path] = PATHS,
    registry: Path | None = typer.Option(
        None,
        "--registry",
        metavar="FILE",
        help="FIDE rating list to check the players against.",
    ),
    list_: RatingList | None = LIST,
    rules: str | None = typer.Option(
        None,
        "--rules",
        metavar="YYYY-MM-DD",
        help="Rule-set date YYYY-MM-DD: settles an event date that reads two ways.",
    ),
    identities: Path | None = IDENTITIES,
    events: Path | None = EVENTS,
    no_name_match: bool = NO_NAME_MATCH,
    jobs: int | None = JOBS,
) -> None:
    """Check files; print every problem as file:line[:column]: message, and what each
    file holds (its kind, crosstable layout, players, rounds, and its rating list with
    why: declared, time control, schedule, --list or a decision).

    Exit 1 if any input is invalid; warnings alone exit 0.
    """
    _check_paths(paths, registry, identities, events)
    _check_jobs(jobs)
    rules_date = _parse_date("--rules", rules)
    from pipeline.validate import validate_paths

    report = validate_paths(
        paths,
        registry,
        list_,
        rules_given=rules_date is not None,
        identities=identities,
        name_match=not no_name_match,
        jobs=jobs,
        events=events,
    )
    print_problems(report.problems)
    for entry in report.files:
        for description in entry.descriptions:
            typer.echo(f"{entry.file}: {description}")
    typer.echo(report.summary())
    raise typer.Exit(EXIT_INPUT if report.invalid else EXIT_OK)


# --- run / explain --------------------------------------------------------------------


def _check_jobs(value: int | None) -> int | None:
    if value is not None and value < 1:
        usage_error(f"--jobs: expected a number of processes, at least 1, got {value}")
    return value


def _parse_date(option: str, value: str | None) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        usage_error(f"{option}: expected a date YYYY-MM-DD, got {value!r}")


def _check_paths(
    paths: list[Path],
    registry: Path | None,
    identities: Path | None = None,
    events: Path | None = None,
) -> None:
    for path in [*paths, *(p for p in (registry, identities, events) if p is not None)]:
        if not path.exists():
            usage_error(f"{path}: no such file or folder")
    if registry is not None and not registry.is_file():
        usage_error(f"--registry: expected a rating-list file, got the folder {registry}")
    for option, given in (("--identities", identities), ("--events", events)):
        if given is not None and not given.is_file():
            usage_error(f"{option}: expected a CSV file, got the folder {given}")


def check_out(out: Path) -> None:
    """The output folder exists (or is made now) and can be written to."""
    if out.exists() and not out.is_dir():
        usage_error(f"--out: expected a folder, got the file {out}")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        usage_error(f"--out: cannot create {out}: {exc.strerror}")
    if not os.access(out, os.W_OK | os.X_OK):
        usage_error(f"--out: cannot write to {out}")


def run_options(
    paths: list[Path],
    registry: Path | None,
    list_: RatingList | None,
    period: str | None,
    rules: str | None,
    rounding: Rounding,
    out: Path | None,
    skip_invalid: bool,
    identities: Path | None = None,
    no_name_match: bool = False,
    jobs: int | None = None,
    events: Path | None = None,
) -> RunOptions:
    """The options of run and explain, checked (usage errors exit 2)."""
    _check_paths(paths, registry, identities, events)
    _check_jobs(jobs)
    if period is not None and not re.fullmatch(r"\d{4}-(0[1-9]|1[0-2])", period):
        usage_error(f"--period: expected YYYY-MM, got {period!r}")
    from pipeline.load import RunOptions

    return RunOptions(
        paths=paths,
        registry=registry,
        list_override=list_,
        period=period,
        rules_date=_parse_date("--rules", rules),
        rounding=rounding,
        out_dir=out,
        skip_invalid=skip_invalid,
        identities=identities,
        events=events,
        name_match=not no_name_match,
        jobs=jobs,
    )


def run_or_exit(options: RunOptions, progress: ProgressFn | None = None) -> RunOutcome:
    """`run_job` (one period) or `run_chain` (`--chain`), with a failing disk or permission
    turned into one line and exit 1."""
    from pipeline.chain import run_chain
    from pipeline.load import PeriodUsageError
    from pipeline.run import run_job

    try:
        return run_chain(options, progress) if options.chain else run_job(options, progress)
    except PeriodUsageError as exc:
        usage_error(str(exc))
    except OSError as exc:  # not a bug: the machine refused a read or a write
        where = exc.filename if exc.filename is not None else "a file"
        typer.echo(f"elo: error: {where}: {exc.strerror or exc}", err=True)
        raise typer.Exit(EXIT_INPUT) from None


@app.command(cls=Command)
def run(
    paths: list[Path] = PATHS,
    registry: Path | None = REGISTRY,
    list_: RatingList | None = LIST,
    period: str | None = PERIOD,
    rules: str | None = typer.Option(
        None,
        "--rules",
        metavar="YYYY-MM-DD",
        help="Rule-set date YYYY-MM-DD for every event (default: each event's start date).",
    ),
    rounding: Rounding = typer.Option(
        "period", "--rounding", help="Round the change once per period (FIDE) or per tournament."
    ),
    out: Path = typer.Option(Path("reports"), "--out", metavar="DIR", help="Output folder."),
    skip_invalid: bool = typer.Option(
        False, "--skip-invalid", help="Rate the valid events, list the skipped ones, exit 1."
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar or summary."),
    identities: Path | None = IDENTITIES,
    events: Path | None = EVENTS,
    no_name_match: bool = NO_NAME_MATCH,
    chain: bool = typer.Option(
        False,
        "--chain",
        help="Rate every period found, oldest first, each from the list the one before wrote.",
    ),
    write_list: bool = typer.Option(
        False, "--write-list", help="Also write the next list (players_list.csv, pending.csv)."
    ),
    pending: Path | None = typer.Option(
        None,
        "--pending",
        metavar="FILE",
        help="pending.csv of the previous period: unrated players' games toward a rating.",
    ),
    previous_list: Path | None = typer.Option(
        None,
        "--previous-list",
        metavar="FILE",
        help="The list of the month before the period: Ro of the events that began then.",
    ),
    lang: Lang | None = LANG,
    jobs: int | None = JOBS,
    event_type: EventType | None = EVENT_TYPE,
) -> None:
    """Rate the events of a rating period; write the workbook, CSV tables and summary."""
    language = pick_lang(lang)
    options = run_options(
        paths, registry, list_, period, rules, rounding, out, skip_invalid, identities,
        no_name_match, jobs, events,
    )  # fmt: skip
    if chain and period is not None:
        usage_error("--chain rates every period found; leave out --period")
    if pending is not None and not pending.is_file():
        usage_error(f"--pending: no such file {pending}")
    if previous_list is not None and (registry is None or chain):
        usage_error("--previous-list goes with --registry, for a single period")
    if previous_list is not None and not previous_list.is_file():
        usage_error(f"--previous-list: no such file {previous_list}")
    options = dataclasses.replace(
        options,
        chain=chain,
        write_list=write_list,
        pending=pending,
        previous_list=previous_list,
        lang=language,
        event_type=event_type,
    )
    check_out(out)
    with progress_bar(quiet) as progress:
        outcome = run_or_exit(options, progress)
    # every problem of reading, and the rating stage's warnings (a chain: every period's)
    print_problems(
        sorted([*outcome.loaded.problems, *outcome.rating_warnings], key=lambda p: p.sort_key())
    )
    from pipeline.i18n import translator

    ignored = translator(language)._(
        "a rating list among the inputs is not an event; ignored (pass it with --registry "
        "to use it)"
    )
    for found in outcome.loaded.ignored_registries:
        typer.echo(f"{found}: warning: {ignored}", err=True)
    if not quiet:
        from rich.console import Console

        from pipeline.report.console import render_summary

        ratings = outcome.result.ratings if outcome.result is not None else None
        summary = render_summary(
            outcome.summary, ratings, written=outcome.written, list_problems=False, lang=language
        )
        Console(highlight=False).print(summary)
    raise typer.Exit(outcome.exit_code)


@app.command(cls=Command)
def explain(
    paths: list[Path] = PATHS,
    player: int = typer.Option(
        ..., "--player", metavar="FIDE_ID", help="FIDE ID of the player to explain."
    ),
    registry: Path | None = REGISTRY,
    list_: RatingList | None = LIST,
    period: str | None = PERIOD,
    rules: str | None = RULES,
    rounding: Rounding = typer.Option(
        "period", "--rounding", help="Round the change once per period (FIDE) or per tournament."
    ),
    identities: Path | None = IDENTITIES,
    events: Path | None = EVENTS,
    no_name_match: bool = NO_NAME_MATCH,
    jobs: int | None = JOBS,
) -> None:
    """One player's per-game breakdown, as FIDE's individual-calculation page shows it."""
    options = run_options(
        paths, registry, list_, period, rules, rounding, None, False, identities, no_name_match,
        jobs, events,
    )  # fmt: skip
    outcome = run_or_exit(options)
    if outcome.result is None:
        print_problems(outcome.loaded.problems)
        raise typer.Exit(outcome.exit_code)
    from pipeline.report.explain import render_explain

    text = render_explain(outcome.result, player)
    if text is None:
        usage_error(f"--player: no player with FIDE ID {player} in these events")
    typer.echo(text, nl=False)
    raise typer.Exit(outcome.exit_code)


# --- convert ----------------------------------------------------------------------------


@app.command(cls=Command)
def convert(
    paths: list[Path] = PATHS,
    to: TrfVersion | None = typer.Option(
        None, "--to", case_sensitive=False, help="TRF version to write."
    ),
    out: Path | None = typer.Option(None, "--out", metavar="DIR", help="Folder for the TRF files."),
    registry: Path | None = typer.Option(
        None,
        "--registry",
        metavar="FILE",
        help="FIDE rating list: FIDE IDs linked by name, and its ratings written.",
    ),
    list_: RatingList | None = typer.Option(
        None, "--list", help="Rating list of every event (its ratings are written)."
    ),
    events: Path | None = EVENTS,
    jobs: int | None = JOBS,
) -> None:
    """Write one TRF file per event (for submission), from any file `elo run` reads.

    Running `elo run` over the TRF files gives the same ratings.csv as over the sources.
    An event that cannot be written faithfully is refused with every reason (exit 1);
    the others are still written.
    """
    if to is None:
        usage_error(f"--to: expected {expected_one_of(get_args(TrfVersion))}, got nothing")
    if out is None:
        usage_error("--out: expected the folder to write the TRF files to")
    _check_paths(paths, registry, events=events)
    _check_jobs(jobs)
    check_out(out)
    from pipeline.convert import ConvertOptions, convert_paths, summary_lines

    options = ConvertOptions(paths, to, out, registry, list_, jobs, events)
    try:
        with progress_bar(False) as progress:
            outcome = convert_paths(options, progress)
    except OSError as exc:  # not a bug: the machine refused a read or a write
        where = exc.filename if exc.filename is not None else "a file"
        typer.echo(f"elo: error: {where}: {exc.strerror or exc}", err=True)
        raise typer.Exit(EXIT_INPUT) from None
    print_problems(outcome.problems)
    for found in outcome.ignored_registries:
        typer.echo(
            f"{found}: warning: a rating list among the inputs is not an event; "
            "ignored (pass it with --registry to use it)",
            err=True,
        )
    for line in summary_lines(outcome):
        typer.echo(line)
    raise typer.Exit(outcome.exit_code)


@contextmanager
def progress_bar(quiet: bool) -> Iterator[Callable[[int, int, str], None] | None]:
    """A progress bar on stderr for multi-file runs; silent when not a terminal or quiet."""
    if quiet or not sys.stderr.isatty():
        yield None
        return
    from rich.progress import Progress

    with Progress(transient=True, console=_stderr_console()) as bar:
        task = bar.add_task("reading", total=None, visible=False)

        def update(i: int, n: int, name: str) -> None:
            # shown for multi-file runs only
            bar.update(task, total=n, completed=i, description=Path(name).name[:40], visible=n > 1)

        yield update


def _stderr_console() -> Console:
    from rich.console import Console

    return Console(stderr=True)
