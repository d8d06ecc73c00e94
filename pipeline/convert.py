"""`elo convert`: one TRF16 or TRF26 file per event, from any input the readers take.

`convert_paths(options)` reads, validates and links the inputs as `elo run` does
(`run.load_inputs`, every event whatever its rating period), then writes each event with
`trf.write.write_trf`:

- FIDE IDs: the file's, or the one the identity stage linked the entry to (by name in
  the rating list with `--registry`, or across the events of the run); an entry left
  unlinked keeps no ID.
- Ratings: with `--registry`, the list's rating on the event's rating list for a player
  the list holds, as the rate stage takes it (for rapid and blitz the standard rating
  where the player is unrated there, FIDE's rule); a list that has no ratings of that
  list at all, or a player it does not hold, keeps the file's rating. Without a
  registry, the file's. `--list` sets every event's list, as in `elo run`: those
  ratings are written and the list is record 092.
- Dates, the rating list (092), the time control (222 / 122), rounds, points, ranks and
  every round entry (forfeits, byes, double forfeits, absences, pending games) as the
  reader read them; see `trf.fit` for what a TRF cannot carry and
  `trf.write` for the records of each version.

Every event is checked before anything is written (`trf.fit.fit_event`) and the text
written is read back and compared (`trf.fit.read_back`) and validated. An event that
cannot be written faithfully, or whose file has errors, is refused: nothing is written
for it, every problem of it is reported, and the exit code is 1. The other events are
still written, as a rating officer converting a month of files expects: one bad file
does not hold back the others' submission, and the exit code tells the scheduler. A
registry that cannot be read stops everything (no ratings or links could be trusted).

File names come from the event's name: ASCII letters, digits, ``-`` and ``_`` (accents
dropped, every other run of characters one ``-``), at most 80 characters, ``.trf``; a
name taken by an earlier event of the run (case ignored), by a folder in the output
folder, or by one of the input files, gets ``-2``, ``-3``... in input order. Files of
earlier conversions with the same names are replaced; other files are left alone.

Writing is atomic as a whole: every file is first written (and synced) into a hidden
staging folder inside the output folder, and only then moved into place one rename
each; a failure before that leaves the output folder as it was.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import unicodedata
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import polars as pl

from pipeline.errors import Location, Problem
from pipeline.formats.model import EventData
from pipeline.formats.trf.fit import fit_event, read_back
from pipeline.formats.trf.write import VERSIONS, write_trf
from pipeline.identity.common import LIST_RATING
from pipeline.identity.link import PERSON_KEY
from pipeline.load import EXIT_INPUT, EXIT_OK, Loaded, ProgressFn, RunOptions, Timer, load_inputs
from pipeline.rate.lists import list_key_expr, person_key_expr
from schemas.columns import E, P, R

SUFFIX = ".trf"
MAX_STEM = 80
_SPECIAL: dict[str, str | int | None] = {
    "ß": "ss", "ẞ": "SS", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ø": "o", "Ø": "O",
    "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th",
    "ı": "i",
}  # fmt: skip
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")
_DASHES = re.compile(r"-{2,}")
_FILE_SUFFIX = re.compile(r"\.(?:trf|txt|csv|xlsx)$", re.IGNORECASE)
_RESERVED = {"con", "prn", "aux", "nul", *(f"{d}{n}" for d in ("com", "lpt") for n in range(10))}


@dataclass(frozen=True)
class ConvertOptions:
    paths: Sequence[Path]
    version: str  # "trf16" or "trf26"
    out_dir: Path
    registry: Path | None = None
    list_override: str | None = None
    jobs: int | None = None  # processes reading the files (pipeline.ingest.parallel)
    events: Path | None = None  # the officer's decisions about events (--events)


@dataclass(frozen=True)
class Written:
    """One TRF file written."""

    path: Path
    event: str
    file: str  # the source file
    players: int
    rounds: int


@dataclass(frozen=True)
class Refused:
    """An event (or a file whose events could not be read) not converted."""

    file: str
    event: str | None
    errors: int


@dataclass
class ConvertOutcome:
    exit_code: int
    version: str
    written: list[Written] = field(default_factory=list)
    refused: list[Refused] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)  # errors and warnings, sorted
    ignored_registries: list[str] = field(default_factory=list)
    stopped: str | None = None  # why nothing at all was converted


@dataclass
class _Ready:
    source: EventData
    target: EventData
    text: str


def convert_paths(options: ConvertOptions, progress: ProgressFn | None = None) -> ConvertOutcome:
    """Convert every event of `options.paths` (module docstring). Raises OSError when the
    output folder cannot be written."""
    if options.version not in VERSIONS:
        raise ValueError(f"version must be one of {VERSIONS}, got {options.version!r}")
    run_options = RunOptions(
        paths=options.paths,
        registry=options.registry,
        list_override=options.list_override,
        all_periods=True,
        jobs=options.jobs,
        events=options.events,
    )
    loaded = load_inputs(run_options, Timer(), progress)
    outcome = ConvertOutcome(EXIT_OK, options.version)
    outcome.ignored_registries = loaded.ignored_registries
    problems = list(loaded.problems)
    # the events with validation errors: what else keeps them from TRF, said at once (a
    # FIDE ID twice is a validation error of its own)
    problems += [
        p
        for ev in loaded.rejected
        for p in fit_event(ev, options.version)[1]
        if p.code != "trf-duplicate-fide-id"
    ]
    outcome.refused = _invalid_files(loaded, options.registry, problems)
    if options.registry is not None and loaded.registry is None:
        outcome.stopped = f"the rating list {options.registry} could not be read"
        outcome.refused += [Refused(_file(ev), _name(ev), 0) for ev in loaded.events]
    else:
        ready, found, refused = _prepare(loaded, options)
        problems += found
        outcome.refused += refused
        if ready:
            names = file_names([_name(r.source) for r in ready], _taken(options))
            _write_all(options.out_dir, [(n, r.text) for n, r in zip(names, ready, strict=True)])
            outcome.written = [
                Written(
                    options.out_dir / name,
                    _name(r.source),
                    _file(r.source),
                    r.target.players.height,
                    int(r.target.events[E.ROUNDS][0] or 0),
                )
                for name, r in zip(names, ready, strict=True)
            ]
    outcome.problems = sorted(problems, key=Problem.sort_key)
    if outcome.refused or any(p.is_error for p in outcome.problems):
        outcome.exit_code = EXIT_INPUT
    return outcome


def _file(ev: EventData) -> str:
    return str(ev.events[E.FILE][0])


def _name(ev: EventData) -> str:
    return str(ev.events[E.NAME][0])


def _invalid_files(loaded: Loaded, registry: Path | None, problems: list[Problem]) -> list[Refused]:
    """The tournament files `load_inputs` rejected, with their error counts."""
    counts: dict[str, int] = {}
    for problem in (p for p in problems if p.is_error):
        counts[problem.location.file] = counts.get(problem.location.file, 0) + 1
    files = [f for f in loaded.invalid_files if registry is None or f != str(registry)]
    return [Refused(file, None, counts.get(file, 0)) for file in files]


def _prepare(
    loaded: Loaded, options: ConvertOptions
) -> tuple[list[_Ready], list[Problem], list[Refused]]:
    """Each event linked, re-rated, fitted, written to text and read back; the events
    that pass, the problems, the events refused."""
    from pipeline.validate.batch import check_events

    linked: dict[object, pl.DataFrame] = {}
    if loaded.identity is not None:  # the entries with their FIDE IDs, by event
        by_event = loaded.identity.players.partition_by(E.ID, as_dict=True)
        linked = {key[0]: frame for key, frame in by_event.items()}
    candidates: list[_Ready] = []
    backs: list[EventData] = []
    problems: list[Problem] = []
    refused: list[Refused] = []
    for index, ev in enumerate(loaded.events):
        text = ""
        source = _linked(ev, linked, loaded.registry)
        target, found = fit_event(source, options.version)
        problems += found
        errors = [p for p in found if p.is_error]
        back: EventData | None = None
        if not errors:
            text = write_trf(target, options.version)
            back, found = read_back(
                target, text, options.version, options.list_override, f"<{index}>.trf"
            )
            problems += found
            errors += found
        if errors or back is None:
            refused.append(Refused(_file(ev), _name(ev), len(errors)))
            continue
        candidates.append(_Ready(ev, target, text))
        backs.append(back)
    ready: list[_Ready] = []
    for candidate, found in zip(candidates, check_events(backs, True), strict=True):
        errors = [_invalid_back(candidate.source, p, options.version) for p in found if p.is_error]
        if errors:
            problems += errors
            refused.append(Refused(_file(candidate.source), _name(candidate.source), len(errors)))
        else:
            ready.append(candidate)
    return ready, problems, refused


def _invalid_back(ev: EventData, problem: Problem, version: str) -> Problem:
    line = f" (line {problem.location.line})" if problem.location.line else ""
    return Problem(
        Location(_file(ev)),
        "trf-not-faithful",
        f"expected the {version.upper()} written to pass validation, got{line}: "
        f"{problem.message} [{problem.code}]; event {_name(ev)!r} not converted to "
        f"{version.upper()}",
    )


# --- FIDE IDs and ratings --------------------------------------------------------------------


def _linked(
    ev: EventData, linked: dict[object, pl.DataFrame], registry: pl.DataFrame | None
) -> EventData:
    """The event with the identity stage's FIDE IDs and, with a registry, its ratings."""
    players = linked.get(ev.events[E.ID][0], ev.players)
    if registry is not None:
        players = _registry_ratings(players, str(ev.events[E.LIST][0]), registry)
    if PERSON_KEY in players.columns:
        players = players.drop(PERSON_KEY)
    return replace(ev, players=players)


def _registry_ratings(players: pl.DataFrame, list_: str, registry: pl.DataFrame) -> pl.DataFrame:
    """Each player's rating as the rate stage takes it from the registry (pipeline.rate
    classify: the list's rating, for rapid and blitz the standard one when unrated there);
    the file's where the registry does not cover the list or hold the player."""
    column = LIST_RATING[list_]
    if column not in registry.columns or registry[column].null_count() == registry.height:
        return players
    standard = LIST_RATING["standard"]
    has_standard = standard in registry.columns
    has_standard = has_standard and registry[standard].null_count() < registry.height
    reg = (
        registry.lazy()
        .with_columns(list_key_expr(registry).alias("_key"))
        .filter(pl.col(R.ID).is_not_null() | (pl.len().over("_key") == 1))
        .unique("_key", keep="first", maintain_order=True)
        .select(
            "_key",
            pl.col(column).cast(pl.Int64).alias("_list"),
            (pl.col(standard).cast(pl.Int64) if has_standard else pl.lit(None, pl.Int64)).alias(
                "_standard"
            ),
            pl.lit(True).alias("_found"),
        )
    )
    own = person_key_expr(pl.col(P.NAME), pl.col(P.FED))
    person_key = pl.col(PERSON_KEY) if PERSON_KEY in players.columns else pl.lit(None, pl.String)
    key = (
        pl.when(pl.col(P.FIDE).is_not_null())
        .then(pl.format("fide:{}", pl.col(P.FIDE)))
        .when(person_key.is_not_null())
        .then(person_key)
        .when(pl.len().over(own) == 1)
        .then(own)
    )
    fallback = pl.col("_standard") if list_ != "standard" else pl.lit(None, pl.Int64)
    return (
        players.lazy()
        .with_columns(key.alias("_key"))
        .join(reg, on="_key", how="left", maintain_order="left")
        .with_columns(
            pl.when(pl.col("_found"))
            .then(pl.coalesce("_list", fallback))
            .otherwise(pl.col(P.RATING))
            .alias(P.RATING)
        )
        .drop("_key", "_list", "_standard", "_found")
        .collect()
    )


# --- file names --------------------------------------------------------------------------------


def safe_stem(name: str) -> str:
    """A file name (without ``.trf``) for an event name: ASCII letters, digits, ``-`` and
    ``_``; ``'Lakeside Open 2026 – Group A'`` -> ``'Lakeside-Open-2026-Group-A'``."""
    text = name.translate(str.maketrans(_SPECIAL))
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    text = _FILE_SUFFIX.sub("", text.strip())
    text = _DASHES.sub("-", _UNSAFE.sub("-", text)).strip("-_")
    text = text[:MAX_STEM].rstrip("-_") or "event"
    return f"{text}_" if text.lower() in _RESERVED else text


def file_names(names: Sequence[str], taken: Collection[str] = ()) -> list[str]:
    """One ``.trf`` file name per event name, in order; a name already used (case
    ignored), or in `taken`, gets ``-2``, ``-3``, ..."""
    used = {name.lower() for name in taken}
    found: list[str] = []
    for name in names:
        stem = safe_stem(name)
        candidate, n = stem, 1
        while f"{candidate}{SUFFIX}".lower() in used:
            n += 1
            candidate = f"{stem}-{n}"
        used.add(f"{candidate}{SUFFIX}".lower())
        found.append(f"{candidate}{SUFFIX}")
    return found


def _taken(options: ConvertOptions) -> set[str]:
    """Names in the output folder that a TRF must not replace: its folders, and the input
    files (a file given that is in it, or its files when it is in a folder given)."""
    from pipeline.ingest.detect import SUFFIXES

    out = options.out_dir.resolve()
    if not out.is_dir():
        return set()
    entries = list(out.iterdir())
    taken = {p.name for p in entries if p.is_dir()}
    for path in options.paths:
        given = path.resolve()
        if given.is_file() and given.parent == out:
            taken.add(given.name)
        elif given.is_dir() and (given == out or given in out.parents):
            taken |= {p.name for p in entries if p.is_file() and p.suffix.lower() in SUFFIXES}
    return taken


# --- writing -----------------------------------------------------------------------------------


def _write_all(out_dir: Path, files: list[tuple[str, str]]) -> None:
    """Every file written and synced into a staging folder inside `out_dir`, then moved in
    place; nothing of it is left behind when anything fails before the moves."""
    from pipeline.report.atomic import atomic_write_text

    out_dir.mkdir(parents=True, exist_ok=True)
    staging = out_dir / f".elo-convert-{secrets.token_hex(4)}"
    staging.mkdir()
    try:
        for name, text in files:
            atomic_write_text(staging / name, text)
        for name, _ in files:
            os.replace(staging / name, out_dir / name)
        if os.name == "posix":
            fd = os.open(out_dir, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


# --- the console summary -----------------------------------------------------------------------


def summary_lines(outcome: ConvertOutcome) -> list[str]:
    """What `elo convert` prints on stdout."""
    version = outcome.version.upper()
    lines = [
        f"Wrote {w.path} ({w.event}: {w.players} players, {w.rounds} rounds; from {w.file})"
        for w in outcome.written
    ]
    for r in outcome.refused if outcome.stopped is None else []:
        what = f"event {r.event!r} of {r.file}" if r.event is not None else r.file
        errors = f": {r.errors} error{'s' * (r.errors != 1)} above" if r.errors else ""
        lines.append(f"Refused {what}{errors}; nothing written for it")
    if outcome.stopped is not None:
        lines.append(f"Nothing converted: {outcome.stopped} (errors above)")
    written, refused = len(outcome.written), len(outcome.refused)
    lines.append(
        f"{written} event{'s' * (written != 1)} written as {version}, {refused} refused "
        f"(exit {outcome.exit_code})"
    )
    return lines


__all__ = [
    "ConvertOptions",
    "ConvertOutcome",
    "Refused",
    "Written",
    "convert_paths",
    "file_names",
    "safe_stem",
    "summary_lines",
]
