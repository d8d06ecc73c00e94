"""What every job over tournament files shares: its options (`RunOptions`), and reading,
validating and linking every input once (`load_inputs` -> `Loaded`): find the files, read
them (in worker processes where it pays), apply the officer's event decisions, validate,
set duplicates aside, place the events in their rating periods, read the rating list and
link every entry to a person. `Timer` times the stages. `run` (one period), `chain`
(every period in order) and `convert` (TRF files) build on it; nothing here prints.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.errors import HasProblems, InputError, Location, Problem, Severity

if TYPE_CHECKING:
    import polars as pl

    from pipeline.formats.model import EventData
    from pipeline.formats.names import NameFilter
    from pipeline.identity import IdentityResult
    from pipeline.ingest.event_adjustments import Adjustment


ProgressFn = Callable[[int, int, str], None]

EXIT_OK = 0
EXIT_INPUT = 1


@dataclass(frozen=True)
class RunOptions:
    paths: Sequence[Path]
    registry: Path | None = None
    list_override: str | None = None
    period: str | None = None  # "YYYY-MM"
    rules_date: date | None = None
    rounding: str = "period"
    out_dir: Path | None = None  # None: compute only (explain)
    skip_invalid: bool = False
    identities: Path | None = None  # the officer's decisions (--identities)
    events: Path | None = None  # the officer's decisions about events (--events)
    name_match: bool = True  # --no-name-match turns it off
    chain: bool = False  # --chain: every period found, oldest first
    write_list: bool = False  # --write-list: players_list.csv and pending.csv
    pending: Path | None = None  # --pending: the pool of earlier periods
    previous_list: Path | None = None  # --previous-list: the list of the month before
    # elo convert: keep every event read, whatever its period (no period placement)
    all_periods: bool = False
    lang: str = "en"  # --lang: the language of report.xlsx (pipeline.i18n)
    jobs: int | None = None  # --jobs: processes reading the files (None: by their size)
    # --event-type: for the title norms, the type of every event --events does not type
    event_type: str | None = None
    today: date = field(default_factory=date.today)


class PeriodUsageError(Exception):
    """The events are of several periods and the run said neither --period nor --chain."""


@dataclass
class Loaded(HasProblems):
    """Everything read and checked, before rating."""

    events: list[EventData] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    invalid_files: list[str] = field(default_factory=list)
    rejected: list[EventData] = field(default_factory=list)  # read, with validation errors
    adjustments: list[Adjustment] = field(default_factory=list)  # --events decisions applied
    ignored_registries: list[str] = field(default_factory=list)
    registry: pl.DataFrame | None = None
    identity: IdentityResult | None = None  # every entry linked to a person
    files_read: int = 0
    periods: dict[str, list[EventData]] = field(default_factory=dict)  # the periods rated
    pending: pl.DataFrame | None = None  # --pending, read
    previous_list: pl.DataFrame | None = None  # --previous-list, read
    # an event given twice, rated once: {"file": skipped, "kept": rated, "why": ...}
    skipped_duplicates: list[dict[str, str]] = field(default_factory=list)


def linked_players(loaded: Loaded) -> pl.DataFrame:
    """Every player entry, as the identity stage linked them (else as the files gave them)."""
    return loaded.identity.players if loaded.identity else stack_frames(loaded, "players", False)


def peak_rss_bytes() -> int | None:
    """Peak resident memory of this process so far (None where the OS doesn't say)."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(kib) * (1 if sys.platform == "darwin" else 1024)


class Timer:
    """Wall time per stage, and the process's peak memory at the end of each stage."""

    def __init__(self) -> None:
        self.timings: dict[str, float] = {}
        self.peaks: dict[str, int] = {}

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.timings[name] = self.timings.get(name, 0.0) + time.perf_counter() - start
            peak = peak_rss_bytes()
            if peak is not None:
                self.peaks[name] = peak


def load_inputs(options: RunOptions, timer: Timer, progress: ProgressFn | None = None) -> Loaded:
    """Read and validate every input; collect all problems of all files."""
    from pipeline.ingest.detect import find_inputs
    from pipeline.ingest.parallel import read_paths
    from pipeline.validate.batch import check_events

    loaded = Loaded()
    with timer.stage("discover"):
        inputs = find_inputs(list(options.paths))
    given = options.registry.resolve() if options.registry is not None else None
    loaded.ignored_registries = [str(p) for p in inputs.registries if p.resolve() != given]
    for path, why in inputs.skipped:
        loaded.problems.append(Problem(Location(str(path)), "skipped-file", why, Severity.WARNING))

    total = len(inputs.events)
    read: list[EventData] = []
    with timer.stage("ingest"):
        files = read_paths(inputs.events, options.list_override, options.jobs)
        for i, (path, outcome) in enumerate(files, start=1):
            if progress is not None:
                progress(i, total, str(path))
            loaded.files_read += 1
            if isinstance(outcome, InputError):
                loaded.problems.extend(outcome.problems)
                loaded.invalid_files.append(str(path))
            else:
                read += outcome
    if options.events is not None:
        read = _apply_event_decisions(options.events, read, loaded)
    with timer.stage("validate"):
        # one batch pass; only the events it cannot clear are checked one by one
        for ev, problems in zip(
            read, check_events(read, rules_given=options.rules_date is not None), strict=True
        ):
            loaded.problems.extend(problems)
            if any(p.is_error for p in problems):
                loaded.invalid_files.append(str(ev.events["file"][0]))
                loaded.rejected.append(ev)
            else:
                loaded.events.append(ev)
    if total == 0:
        loaded.problems.append(
            Problem(
                Location(", ".join(str(p) for p in options.paths)),
                "no-events",
                "expected at least one tournament file (TRF, crosstable XLSX/CSV or games "
                "CSV), got none",
            )
        )

    with timer.stage("validate"):
        _drop_duplicates(loaded, inputs.events)
    if not options.all_periods:
        _place_in_periods(loaded, options)
    if options.pending is not None:
        _read_pending(options, loaded)

    decisions = _read_decisions(options, loaded)
    players = stack_frames(loaded, "players")
    if options.registry is not None:
        _read_registry(options, loaded, timer, players, decisions)
    if loaded.events and (options.registry is None or loaded.registry is not None):
        from pipeline.identity import link_players

        with timer.stage("identity"):
            loaded.identity = link_players(
                players,
                stack_frames(loaded, "events"),
                loaded.registry,
                decisions,
                decisions_file=str(options.identities or ""),
                name_match=options.name_match,
            )
        loaded.problems.extend(loaded.identity.problems)
        if any(p.is_error for p in loaded.identity.problems):
            loaded.invalid_files.append(str(options.identities))
    loaded.invalid_files = sorted(set(loaded.invalid_files))
    return loaded


def _apply_event_decisions(path: Path, events: list[EventData], loaded: Loaded) -> list[EventData]:
    """The officer's decisions about events (`--events`), applied before validation; a
    decision file with errors rejects the run as a bad `--identities` file does."""
    from pipeline.ingest.event_adjustments import adjustment_problems, apply_event_decisions
    from pipeline.ingest.event_decisions import read_event_decisions

    try:
        decisions = read_event_decisions(path)
    except InputError as exc:
        loaded.problems.extend(exc.problems)
        loaded.invalid_files.append(str(path))
        return events
    applied = apply_event_decisions(events, decisions, str(path))
    loaded.problems.extend(applied.problems)
    loaded.problems.extend(adjustment_problems(applied.adjustments))
    loaded.adjustments = applied.adjustments
    if any(p.is_error for p in applied.problems):
        loaded.invalid_files.append(str(path))
    return applied.events


def _drop_duplicates(loaded: Loaded, files: Sequence[Path]) -> None:
    """An event given twice is rated once (pipeline.validate.duplicates): the other file
    is skipped with a warning and named in `skipped_duplicates`."""
    from pipeline.validate.duplicates import file_digest, find_duplicates

    digests = {str(path): file_digest(path) for path in files}
    found = find_duplicates(loaded.events, digests)
    loaded.problems.extend(found.problems)
    loaded.skipped_duplicates = found.records(loaded.events)
    loaded.events = [ev for i, ev in enumerate(loaded.events) if i not in found.skipped]


def _place_in_periods(loaded: Loaded, options: RunOptions) -> None:
    """Keep the events of the period(s) rated (pipeline.period.select)."""
    from pipeline.period.select import plan_periods

    plan = plan_periods(loaded.events, options.period, options.chain)
    if plan.usage is not None:
        raise PeriodUsageError(plan.usage)
    loaded.problems.extend(plan.problems)
    loaded.invalid_files.extend(p.location.file for p in plan.problems if p.is_error)
    loaded.periods = {
        period: [loaded.events[i] for i in indexes] for period, indexes in plan.periods.items()
    }
    loaded.events = [ev for events in loaded.periods.values() for ev in events]


def _read_pending(options: RunOptions, loaded: Loaded) -> None:
    from pipeline.period.pending import read_pending

    assert options.pending is not None
    try:
        loaded.pending = read_pending(options.pending)
    except InputError as exc:
        loaded.problems.extend(exc.problems)
        loaded.invalid_files.append(str(options.pending))
    except OSError as exc:
        loaded.problems.append(
            Problem(
                Location(str(options.pending)),
                "unreadable-file",
                f"expected a readable pending.csv, got {exc.strerror or exc}",
            )
        )
        loaded.invalid_files.append(str(options.pending))


def stack_frames(loaded: Loaded, frame: str, rechunk: bool = True) -> pl.DataFrame:
    """One frame of every event read, in one copy (empty without events): stacked as they
    are when the events' frames share one schema (the readers give the same columns),
    else aligned by name. `rechunk=False` leaves one chunk per event (the rate stage
    gathers from them)."""
    import polars as pl

    frames: list[pl.DataFrame] = [getattr(ev, frame) for ev in loaded.events]
    if not frames:
        return pl.DataFrame()
    try:
        return pl.concat(frames, how="vertical", rechunk=rechunk)
    except (pl.exceptions.SchemaError, pl.exceptions.ShapeError):
        return pl.concat(frames, how="diagonal_relaxed", rechunk=rechunk)


def _read_decisions(options: RunOptions, loaded: Loaded) -> pl.DataFrame | None:
    if options.identities is None:
        return None
    from pipeline.identity import read_decisions

    try:
        return read_decisions(options.identities)
    except InputError as exc:
        loaded.problems.extend(exc.problems)
        loaded.invalid_files.append(str(options.identities))
        return None


def _read_registry(
    options: RunOptions,
    loaded: Loaded,
    timer: Timer,
    players: pl.DataFrame,
    decisions: pl.DataFrame | None,
) -> None:
    """The period's players from the rating list: those of the files' and the officer's
    FIDE IDs, and, for name matching, those with a surname an entry without an ID may
    have. The same for the previous month's list (`--previous-list`)."""
    from pipeline.identity import wanted_from_registry

    assert options.registry is not None
    with timer.stage("registry"):
        # Only the players of the period are needed from a list of 1.64 M, unless the
        # next list is written (every player of the list is in it).
        ids, names = wanted_from_registry(players, decisions, options.name_match)
        whole = options.chain or options.write_list
        loaded.registry = _read_list(options.registry, options, loaded, ids, names, whole)
        if options.previous_list is not None:
            loaded.previous_list = _read_list(
                options.previous_list, options, loaded, ids, names, False
            )


def _read_list(
    path: Path,
    options: RunOptions,
    loaded: Loaded,
    ids: set[int],
    names: NameFilter | None,
    whole: bool,
) -> pl.DataFrame | None:
    from pipeline.formats.rating_list.read import read_rating_list

    try:
        return read_rating_list(
            path,
            list_hint=options.list_override,
            only_ids=None if whole else ids,
            names=None if whole else names,
        )
    except InputError as exc:
        loaded.problems.extend(exc.problems)
    except OSError as exc:
        loaded.problems.append(
            Problem(
                Location(str(path)),
                "unreadable-file",
                f"expected a readable rating list, got {exc.strerror or exc}",
            )
        )
    loaded.invalid_files.append(str(path))
    return None
