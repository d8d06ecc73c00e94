"""Validation: the pandera models of schemas/ingest.py (all failures, mapped back to
file:line:column) plus the cross-row checks of pipeline.validate.checks.

`validate_event` (`pipeline.validate.event`) checks one event read by a reader;
`check_against_registry` compares the players with a FIDE rating list; `validate_paths` is
what `elo validate` runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from pipeline.errors import HasProblems, InputError, Location, Problem, Severity
from pipeline.validate.checks import EventContext, with_columns_present
from pipeline.validate.player_fields import no_ratings_problem
from pipeline.validate.schema import ReaderContractError, optional_types, schema_problems
from schemas.columns import E, P, R
from schemas.ingest import LIST_BASIS, Events, Players
from schemas.registry import Registry

if TYPE_CHECKING:
    from pipeline.formats.model import EventData

_KINDS = {
    "trf16": "TRF16",
    "trf26": "TRF26",
    "crosstable-csv": "crosstable (CSV)",
    "crosstable-xlsx": "crosstable (XLSX)",
    "games-csv": "games CSV",
}


def describe_event(ev: EventData) -> str:
    """What a reader found, for `elo validate`: ``crosstable (XLSX), starting-rank
    round-robin, 6 players, 5 rounds, standard list``."""
    row = ev.events.row(0, named=True)
    source = str(row.get(str(Events.source)) or "")
    kind = _KINDS.get(source, source)
    parts = [kind]
    if source == "games-csv":
        parts[0] = f"{kind} {row[str(Events.name)]!r}"
    layout = row.get(str(Events.layout))
    if layout:
        parts.append(str(layout).replace("swiss", "Swiss").replace("round-robin", "round robin"))
    players = ev.players.height
    parts.append(f"{players} player{'' if players == 1 else 's'}")
    rounds = row.get(str(Events.rounds))
    if rounds:
        parts.append(f"{rounds} round{'' if rounds == 1 else 's'}")
    if row.get(E.LIST):
        basis = LIST_BASIS.get(str(row.get(E.LIST_SOURCE)))
        why = row.get(E.LIST_REASON)
        said = f"{basis}: {why}" if basis and why and not why.startswith(basis) else why or basis
        parts.append(f"{row[E.LIST]} list" + (f" ({said})" if said else ""))
    return ", ".join(parts)


def check_against_registry(
    players: pl.DataFrame, events: pl.DataFrame, registry: pl.DataFrame
) -> list[Problem]:
    """Warnings where the tournament files disagree with the rating list: a rating other
    than the list's on the event's rating list (for rapid and blitz, a file may show the
    standard rating of a player unrated on that list: it stands in, B.02 rapid/blitz §1).
    A file that gives no ratings at all gets one ``no-ratings-in-file`` instead of one
    warning per player. A FIDE ID the list does not hold, or one of another name, is
    `pipeline.identity`'s to report (``identity-id-unknown``, ``identity-name-differs``)."""
    events = with_columns_present(events, optional_types(Events))
    players = with_columns_present(players, optional_types(Players))
    reg = with_columns_present(registry, optional_types(Registry)).select(
        pl.col(R.ID),
        pl.col("rating").alias("reg_standard"),
        pl.col("rapid_rating").alias("reg_rapid"),
        pl.col("blitz_rating").alias("reg_blitz"),
    )
    joined = (
        players.filter(pl.col(P.FIDE).is_not_null())
        .join(events.select(E.ID, E.FILE, E.LIST, str(Events.source)), on=E.ID, how="left")
        .join(reg, left_on=P.FIDE, right_on=R.ID, how="left")
        .with_columns(
            found=pl.col("reg_standard").is_not_null() | pl.col(P.FIDE).is_in(reg[R.ID].implode()),
            expected=pl.when(pl.col(E.LIST) == "rapid")
            .then(pl.col("reg_rapid"))
            .when(pl.col(E.LIST) == "blitz")
            .then(pl.col("reg_blitz"))
            .otherwise(pl.col("reg_standard")),
        )
    )
    # Agreeing: the file shows the list's rating; or, unrated on a rapid/blitz list, the
    # file shows nothing or the standard rating that stands in for it.
    stands_in = (
        pl.col("expected").is_null()
        & (pl.col(E.LIST) != "standard")
        & (pl.col(P.RATING).is_null() | (pl.col(P.RATING) == pl.col("reg_standard")))
    )
    problems: list[Problem] = []  # an ID the list does not hold: pipeline.identity says so
    differs = joined.filter(
        pl.col("found"),
        pl.col(E.LIST).is_not_null(),
        ~pl.col(P.RATING).eq_missing(pl.col("expected")),
        ~stands_in.fill_null(False),
    )
    # a file that gives no ratings at all: said once for the file, not for each player
    none_given = players.group_by(E.ID).agg(pl.col(P.RATING).is_null().all().alias("_none"))
    differs = differs.join(none_given, on=E.ID, how="left")
    for file, n in differs.filter("_none").group_by(E.FILE).len().iter_rows():
        problems.append(no_ratings_problem(str(file), n))
    for r in differs.filter(~pl.col("_none")).iter_rows(named=True):
        ctx = _row_context(r)
        want = r["expected"] if r["expected"] is not None else "unrated"
        got = r[P.RATING] if r[P.RATING] is not None else "unrated"
        problems.append(
            ctx.problem(
                r[P.LINE],
                ctx.player_column(P.RATING),
                "rating-differs",
                f"expected the rating list's {want} ({r[E.LIST]}) for FIDE ID {r[P.FIDE]}, "
                f"got {got}; the rating list's value is used",
                Severity.WARNING,
            )
        )
    return sorted(problems, key=Problem.sort_key)


def _row_context(row: dict[str, Any]) -> EventContext:
    return EventContext(
        file=str(row.get(E.FILE) or ""),
        source=str(row.get(str(Events.source)) or ""),
        list=row.get(E.LIST),
        start_date=None,
        end_date=None,
        rounds=None,
        time_control=None,
    )


# --- validate_paths: what `elo validate` runs ------------------------------------------------


@dataclass
class FileReport:
    """One input file: its kind and the problems found in it (and its companion)."""

    file: str
    kind: str
    events: int = 0
    problems: list[Problem] = field(default_factory=list)
    descriptions: list[str] = field(default_factory=list)  # one per event read

    @property
    def valid(self) -> bool:
        return not any(p.is_error for p in self.problems)


@dataclass
class ValidationReport(HasProblems):
    files: list[FileReport] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)  # all of them, sorted
    registries_found: list[str] = field(default_factory=list)  # found while searching
    events: list[EventData] = field(default_factory=list)

    @property
    def invalid(self) -> bool:
        return bool(self.errors)

    def summary(self) -> str:
        """`3 files checked: 2 valid, 1 invalid (4 errors, 2 warnings)`."""
        n = len(self.files)
        valid = sum(f.valid for f in self.files)
        errors, warnings = len(self.errors), len(self.warnings)
        return (
            f"{n} file{'' if n == 1 else 's'} checked: {valid} valid, {n - valid} invalid "
            f"({errors} error{'' if errors == 1 else 's'}, "
            f"{warnings} warning{'' if warnings == 1 else 's'})"
        )


def _check_duplicates(report: ValidationReport) -> None:
    """The same event given twice is rated once, as `elo run` rates it: a warning at the
    file skipped, whose events are left out of the identity check; a warning where two
    events overlap (pipeline.validate.duplicates). Only the files valid otherwise are
    compared: an invalid copy is reported for its own errors."""
    from pipeline.validate.duplicates import file_digest, find_duplicates

    digests = {entry.file: file_digest(Path(entry.file)) for entry in report.files}
    bad = {entry.file for entry in report.files if any(p.is_error for p in entry.problems)}
    valid = [ev for ev in report.events if str(ev.events["file"][0]) not in bad]
    found = find_duplicates(valid, digests)
    gone = {id(valid[i]) for i in found.skipped}
    by_file = {entry.file: entry for entry in report.files}
    for problem in found.problems:
        entry = by_file.get(problem.location.file)
        (entry.problems if entry is not None else report.problems).append(problem)
    report.events = [ev for ev in report.events if id(ev) not in gone]


def validate_paths(
    paths: Sequence[Path],
    registry_path: Path | None = None,
    list_override: str | None = None,
    rules_given: bool = False,
    identities: Path | None = None,
    name_match: bool = True,
    jobs: int | None = None,
    events: Path | None = None,
) -> ValidationReport:
    """Find, read and check every input under `paths` (folders searched recursively), and
    the rating list if given; collect every problem of every file. `rules_given`: a
    ``--rules`` date fixes the rule set, so an ambiguous event date does not block.
    The players are linked as `elo run` links them (`pipeline.identity`, with the
    officer's `identities` and name matching unless `name_match` is off). `jobs`: the
    processes reading the files (pipeline.ingest.parallel). `events`: the officer's
    decisions about events, applied before the checks (pipeline.ingest.event_decisions)."""
    from pipeline.ingest.detect import detect_kind_of, find_inputs
    from pipeline.ingest.parallel import read_paths

    report = ValidationReport()
    inputs = find_inputs(paths)
    given_registry = registry_path.resolve() if registry_path is not None else None
    for path in inputs.registries:
        if path.resolve() == given_registry:
            continue
        report.registries_found.append(str(path))
        report.problems.append(
            Problem(
                Location(str(path)),
                "registry-ignored",
                "expected a tournament file, got a FIDE rating list: pass it with --registry "
                "to check the players against it",
                Severity.WARNING,
            )
        )
    for path, why in inputs.skipped:
        report.problems.append(Problem(Location(str(path)), "skipped-file", why, Severity.WARNING))

    owners: list[FileReport] = []
    for path, read in read_paths(inputs.events, list_override, jobs):
        entry = FileReport(str(path), detect_kind_of(path))
        if isinstance(read, InputError):
            entry.problems.extend(read.problems)
        else:
            entry.events = len(read)
            for ev in read:
                report.events.append(ev)
                owners.append(entry)
        report.files.append(entry)
    if events is not None:
        _apply_event_decisions(report, events, owners)
    for owner, ev in zip(owners, report.events, strict=True):
        owner.descriptions.append(describe_event(ev))
    from pipeline.validate.batch import check_events

    for owner, problems in zip(owners, check_events(report.events, rules_given), strict=True):
        owner.problems.extend(problems)
    if not inputs.events:
        report.problems.append(
            Problem(
                Location(", ".join(str(p) for p in paths)),
                "no-events",
                "expected at least one tournament file (TRF, crosstable XLSX/CSV or games "
                "CSV), got none",
            )
        )

    _check_duplicates(report)
    _check_identities(report, registry_path, identities, name_match)
    for entry in report.files:
        report.problems.extend(entry.problems)
    report.problems.sort(key=Problem.sort_key)
    return report


def _apply_event_decisions(report: ValidationReport, path: Path, owners: list[FileReport]) -> None:
    """The officer's decisions about events, applied to the events read (their problems go
    to the decision file, the adjustments to the events' files)."""
    from pipeline.ingest.event_adjustments import adjustment_problems, apply_event_decisions
    from pipeline.ingest.event_decisions import read_event_decisions

    entry = FileReport(str(path), "events")
    report.files.append(entry)
    try:
        decisions = read_event_decisions(path)
    except InputError as exc:
        entry.problems.extend(exc.problems)
        return
    applied = apply_event_decisions(report.events, decisions, str(path))
    report.events = applied.events
    entry.problems.extend(applied.problems)
    by_file = {f.file: f for f in owners}
    for problem in adjustment_problems(applied.adjustments):
        by_file.get(problem.location.file, entry).problems.append(problem)


def _check_identities(
    report: ValidationReport,
    registry_path: Path | None,
    identities: Path | None,
    name_match: bool,
) -> None:
    """Link the players (decisions, file IDs, names) and compare them with the rating
    list; every problem goes to the file it names."""
    from pipeline.formats.rating_list.read import read_rating_list
    from pipeline.identity import link_players, read_decisions, wanted_from_registry

    decisions = None
    if identities is not None:
        entry = FileReport(str(identities), "identities")
        report.files.append(entry)
        try:
            decisions = read_decisions(identities)
        except InputError as exc:
            entry.problems.extend(exc.problems)
    players = _concat([ev.players for ev in report.events])
    events = _concat([ev.events for ev in report.events])
    registry = None
    if registry_path is not None:
        entry = FileReport(str(registry_path), "registry")
        report.files.append(entry)
        ids, names = wanted_from_registry(players, decisions, name_match)
        try:
            registry = read_rating_list(registry_path, only_ids=ids, names=names)
        except InputError as exc:
            entry.problems.extend(exc.problems)
            return
    if not report.events:
        return
    result = link_players(
        players,
        events,
        registry,
        decisions,
        decisions_file=str(identities or ""),
        name_match=name_match,
    )
    found = list(result.problems)
    if registry is not None:
        found += check_against_registry(result.players, events, registry)
    by_file = {f.file: f for f in report.files}
    fallback = report.files[-1]
    for problem in found:
        by_file.get(problem.location.file, fallback).problems.append(problem)


def _concat(frames: list[pl.DataFrame]) -> pl.DataFrame:
    return pl.concat(frames, how="diagonal_relaxed", rechunk=True) if frames else pl.DataFrame()


__all__ = [
    "FileReport",
    "ReaderContractError",
    "ValidationReport",
    "check_against_registry",
    "describe_event",
    "schema_problems",
    "validate_paths",
]
