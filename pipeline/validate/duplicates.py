"""The same event given twice: rated once.

A file downloaded twice (the same bytes), or one tournament in two files of any kinds (its
TRF and its chess-results crosstable; the XLSX and the CSV of one export). The files may
number the players differently (a final-ranking crosstable by rank, a TRF by start
number), write the names differently (``Surname, First`` and ``SURNAME First``), give FIDE
IDs or ratings in one of them only, and name or date the event differently. So two events
are compared by who played whom, not by their numbers or their titles:

- the players: an entry of one event is the same person as an entry of the other when
  both have this FIDE ID; where either has none, when their names give the same
  `name_key` (any word order, case, accents). Only one-to-one links count: two entries of
  one event with one name (homonyms) are told apart by their own results (rounds, classes,
  points), else linked to neither.
- the results, in the persons of the first event: each game once, as its round, its two
  persons and its result (played, or a forfeit or an unrated game, with the points of the
  first person); each bye without an opponent as its round, its person and its points
  (``U``, ``F``, ``+`` alike). An absence (no opponent, no points) is no result: files
  write it differently (blank, ``-``, ``Z``) or not at all.

Two events with the same persons and every result the same are one event: it is rated
once, from the TRF if one of them is a TRF (``trf16``, ``trf26``: what FIDE is sent), else
from the first in path order; the other is skipped with a ``duplicate-event`` warning at
its file. Two events sharing at least `SHARE` (80) % of the smaller event's players and of
its results (``overlapping-event``) are both rated, with a warning naming the counts: a
crosstable of a round before the last, or one with a result corrected. Two events of one
club with the same players (two monthly rapids; the halves of a double round robin) share
their players but not their rounds' results, and are left alone; two events whose files
date them more than `DAYS_APART` (3) days apart are two events whatever their results (a
four-player round robin may repeat the one of the week before).

Fast for a month of 1,000 events of 100 players (25 ms with FIDE IDs, 65 ms with half of
them missing: the names folded): the pairs of events that could be one are found first
from the persons they share (a join of all entries on FIDE ID, and on name key where an
entry has no ID, counted loosely; no loop over pairs of events); only for those are the
links made one-to-one and the results compared, all pairs in one join.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import polars as pl

from pipeline.errors import Location, Problem, Severity
from pipeline.formats.names import fold_expr
from schemas.columns import E, G, P

if TYPE_CHECKING:
    from pipeline.formats.model import EventData

SHARE = 80  # % of the smaller event's players, and of its results: an overlap to look at
DAYS_APART = 3  # two files' dates of one event may differ by this much (a report's date)
TRF_SOURCES = frozenset({"trf16", "trf26"})
SAME_BYTES = "the same bytes"
SAME_GAMES = "the same players and games"

_EV, _NO, _OPP, _KEY, _CLS, _PAIR = "ev", "no", "opp", "key", "cls", "pair"


def file_digest(path: Path) -> str:
    """SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@dataclass(frozen=True)
class Duplicates:
    """What `find_duplicates` found, by index in the events given."""

    skipped: dict[int, int] = field(default_factory=dict)  # index skipped -> index kept
    why: dict[int, str] = field(default_factory=dict)  # index skipped -> SAME_BYTES | ...
    problems: list[Problem] = field(default_factory=list)  # warnings, sorted

    def records(self, events: Sequence[EventData]) -> list[dict[str, str]]:
        """One ``{"file", "kept", "why"}`` per file skipped, in path order."""
        found: list[dict[str, str]] = []
        for index in sorted(self.skipped):
            record = {
                "file": _file(events[index]),
                "kept": _file(events[self.skipped[index]]),
                "why": self.why[index],
            }
            if record not in found:
                found.append(record)
        return found


def _file(ev: EventData) -> str:
    return str(ev.events[E.FILE][0])


def _stack(
    frames: list[pl.DataFrame], indexes: Sequence[int], columns: dict[str, tuple[str, pl.DataType]]
) -> pl.DataFrame:
    """The frames stacked as `columns` (name -> (column, dtype); null where a frame has not
    that column), each row with the index of its event (`ev`)."""
    try:
        stacked = pl.concat(frames, how="vertical", rechunk=False)
    except (pl.exceptions.SchemaError, pl.exceptions.ShapeError):
        stacked = pl.concat(frames, how="diagonal_relaxed", rechunk=False)
    sizes = pl.DataFrame({_EV: list(indexes), "n": [f.height for f in frames]})
    ev = sizes.select(pl.col(_EV).repeat_by("n").explode().cast(pl.Int64))[_EV]
    return stacked.select(
        ev,
        *(
            (pl.col(column) if column in stacked.columns else pl.lit(None)).cast(dtype).alias(name)
            for name, (column, dtype) in columns.items()
        ),
    ).rechunk()  # the columns used only, in one piece each: the joins are 3x faster


def _name_key(folded: pl.Expr) -> pl.Expr:
    """`name_key` of a folded name as a number: the hashes of its words added up, so any
    word order gives the same; null for a blank name."""
    words = folded.str.split(" ").list.eval(pl.element().hash()).list.sum()
    return pl.when(folded != "").then(words)


def _entries(events: Sequence[EventData]) -> pl.DataFrame:
    """Every player entry: ev, no, fide, key (its name key; all null when every entry has
    a FIDE ID: no name is then compared)."""
    columns = {_NO: (P.NO, pl.Int64()), "fide": (P.FIDE, pl.Int64()), "name": (P.NAME, pl.String())}
    entries = _stack([ev.players for ev in events], range(len(events)), columns)
    if entries["fide"].null_count() == 0:
        return entries.select(_EV, _NO, "fide", pl.lit(None, pl.UInt64).alias(_KEY))
    entries = entries.with_columns(fold_expr(pl.col("name")))
    return entries.select(_EV, _NO, "fide", _name_key(pl.col("name")).alias(_KEY))


def _raw_links(entries: pl.DataFrame) -> pl.DataFrame:
    """Every entry of an event against an entry of a later event with the same FIDE ID, or
    the same name where either has none: ev, no, ev_b, no_b, by_id."""
    ids = entries.filter(pl.col("fide").is_not_null() & pl.col("fide").is_duplicated())
    by_id = ids.join(ids, on="fide", suffix="_b").filter(pl.col(_EV) < pl.col("ev_b"))
    named = entries.filter(pl.col(_KEY).is_not_null() & pl.col(_KEY).is_duplicated())
    bare = named.filter(pl.col("fide").is_null())  # against every entry of that name
    by_name = bare.join(named, on=_KEY, suffix="_b").filter(pl.col(_EV) != pl.col("ev_b"))
    swap = pl.col(_EV) > pl.col("ev_b")
    by_name = by_name.select(
        pl.when(swap).then(pl.col("ev_b")).otherwise(pl.col(_EV)).alias(_EV),
        pl.when(swap).then(pl.col("no_b")).otherwise(pl.col(_NO)).alias(_NO),
        pl.when(swap).then(pl.col(_EV)).otherwise(pl.col("ev_b")).alias("ev_b"),
        pl.when(swap).then(pl.col(_NO)).otherwise(pl.col("no_b")).alias("no_b"),
        pl.lit(False).alias("by_id"),
    )
    by_id = by_id.select(_EV, _NO, "ev_b", "no_b", pl.lit(True).alias("by_id"))
    return pl.concat([by_id, by_name]).unique(maintain_order=True)


def _one_to_one(links: pl.DataFrame, profiles: pl.DataFrame) -> pl.DataFrame:
    """The links of an entry to one entry of the other event: a FIDE ID link before a name
    link; homonyms (a name two entries of one event share) told apart by their results
    (`profiles`: ev, no, profile), else not linked."""
    a_side, b_side = [_EV, _NO, "ev_b"], [_EV, "ev_b", "no_b"]
    links = links.filter(
        pl.col("by_id") | ~pl.col("by_id").any().over(a_side),
        pl.col("by_id") | ~pl.col("by_id").any().over(b_side),
    ).unique([_EV, _NO, "ev_b", "no_b"])
    theirs = profiles.rename({_EV: "ev_b", _NO: "no_b", "profile": "profile_b"})
    many = (pl.len().over(a_side) > 1) | (pl.len().over(b_side) > 1)
    return (
        links.join(profiles, on=[_EV, _NO], how="left")
        .join(theirs, on=["ev_b", "no_b"], how="left")
        .filter(~many | pl.col("profile").eq_missing(pl.col("profile_b")))
        .filter(pl.len().over(a_side) == 1, pl.len().over(b_side) == 1)
        .select(_EV, _NO, "ev_b", "no_b")
    )


def _shared(links: pl.DataFrame, sizes: pl.DataFrame) -> pl.DataFrame:
    """The pairs of events whose links reach SHARE % of the smaller one's players: ev, ev_b,
    players, n, n_b."""
    return (
        links.group_by(_EV, "ev_b")
        .agg(pl.len().alias("players"))
        .join(sizes, on=_EV)
        .join(sizes.rename({_EV: "ev_b", "n": "n_b"}), on="ev_b")
        .filter(100 * pl.col("players") >= SHARE * pl.min_horizontal("n", "n_b"))
    )


def _results(events: Sequence[EventData], indexes: list[int]) -> pl.DataFrame:
    """Every round entry of those events from each side: ev, round, no, opp (0 for
    none), cls (the entry's class and points); absences left out."""
    columns = {
        "round": (G.ROUND, pl.Int64()),
        _NO: (G.NO, pl.Int64()),
        _OPP: (G.OPP, pl.Int64()),
        "played": (G.PLAYED, pl.Boolean()),
        "score": (G.SCORE, pl.Float64()),
    }
    rows = _stack([events[i].games for i in indexes], indexes, columns)
    alone = pl.col(_OPP).is_null()
    kind = pl.when(alone).then(2).when(pl.col("played")).then(0).otherwise(1)
    points = (pl.col("score").fill_null(0.0) * 2).round().cast(pl.Int64)
    return rows.filter(~alone | (points > 0)).select(
        _EV, "round", _NO, pl.col(_OPP).fill_null(0), (kind * 4 + points).alias(_CLS)
    )


def _once(rows: pl.DataFrame, no: str, opp: str) -> pl.DataFrame:
    """Each result once: a game from its lower-numbered person's side, a bye as it is."""
    return rows.filter((pl.col(opp) == 0) | (pl.col(no) < pl.col(opp)))


def _compare(events: Sequence[EventData], entries: pl.DataFrame) -> pl.DataFrame:
    """The pairs of events that share at least SHARE % of the smaller one's players, with
    their counts: ev, ev_b, players, n, n_b, games, g, g_b."""
    sizes = entries.group_by(_EV).agg(pl.len().alias("n"))
    # first the pairs whose links, counted loosely (an entry may link twice), could reach
    # the share; then only their links made one-to-one and counted again
    raw = _raw_links(entries)
    near = _shared(raw, sizes).select(_EV, "ev_b")
    if near.is_empty():
        return near
    indexes = sorted(set(near[_EV].to_list()) | set(near["ev_b"].to_list()))
    sides = _results(events, indexes)
    # an entry's results whoever its opponents: its rounds, classes and points
    profiles = sides.group_by(_EV, _NO).agg(pl.struct("round", _CLS).hash().sum().alias("profile"))
    links = _one_to_one(raw.join(near, on=[_EV, "ev_b"], how="semi"), profiles)
    pairs = _shared(links, sizes).sort(_EV, "ev_b").with_row_index(_PAIR)
    if pairs.is_empty():
        return pairs
    mine = _once(sides, _NO, _OPP)
    totals = mine.group_by(_EV).agg(pl.len().alias("g"))
    pair_links = links.join(pairs.select(_PAIR, _EV, "ev_b"), on=[_EV, "ev_b"])
    to_a = pair_links.select(_PAIR, "no_b", pl.col(_NO).alias("no_a"))
    # the second event's results in the first one's persons (0: a bye's opponent)
    theirs = (
        sides.rename({_EV: "ev_b"})
        .join(pairs.select(_PAIR, _EV, "ev_b"), on="ev_b")
        .join(to_a, left_on=[_PAIR, _NO], right_on=[_PAIR, "no_b"])
        .join(
            pl.concat(
                [to_a, pairs.select(_PAIR, no_b=pl.lit(0, pl.Int64), no_a=pl.lit(0, pl.Int64))]
            ),
            left_on=[_PAIR, _OPP],
            right_on=[_PAIR, "no_b"],
            suffix="_opp",
        )
        .select(
            _PAIR, _EV, "round", pl.col("no_a").alias(_NO), pl.col("no_a_opp").alias(_OPP), _CLS
        )
    )
    common = (
        _once(theirs, _NO, _OPP)
        .join(mine, on=[_EV, "round", _NO, _OPP, _CLS])
        .group_by(_PAIR)
        .agg(pl.len().alias("games"))
    )
    return (
        pairs.join(common, on=_PAIR, how="left")
        .join(totals, on=_EV, how="left")
        .join(totals.rename({_EV: "ev_b", "g": "g_b"}), on="ev_b", how="left")
        .with_columns(pl.col("games", "g", "g_b").fill_null(0))
        .sort(_PAIR)
    )


def _span(ev: EventData) -> tuple[date, date] | None:
    """The first and last day of an event, as far as its file says (None: no date)."""
    row = ev.events.row(0, named=True)
    days = [d for d in (row.get(E.START), row.get(E.END)) if isinstance(d, date)]
    return (min(days), max(days)) if days else None


def _apart(a: EventData, b: EventData) -> bool:
    """Two events dated more than DAYS_APART days apart are two events, whatever their
    players and results (a club's weekly four-player round robin may repeat its results)."""
    one, other = _span(a), _span(b)
    if one is None or other is None:
        return False
    return max(one[0], other[0]) - min(one[1], other[1]) > timedelta(days=DAYS_APART)


def _root(parent: dict[int, int], i: int) -> int:
    while parent.get(i, i) != i:
        i = parent[i]
    return i


def find_duplicates(events: Sequence[EventData], digests: Mapping[str, str]) -> Duplicates:
    """The events to rate once (module docstring) and the warnings: ``duplicate-event`` at
    each file skipped, ``overlapping-event`` for two events kept that share most of their
    players and results. `events` in path order; `digests` maps a file (as in
    `Events.file`) to its bytes' digest."""
    if len(events) < 2:
        return Duplicates()
    files = [_file(ev) for ev in events]
    ids = [str(ev.events[E.ID][0]) for ev in events]
    parts = [i[len(f) :] if i.startswith(f) else i for i, f in zip(ids, files, strict=True)]
    same: list[tuple[int, int]] = []  # one event, whatever the files
    seen: dict[tuple[str, str], int] = {}
    for i, (file, part) in enumerate(zip(files, parts, strict=True)):
        digest = digests.get(file)
        if digest is not None:
            first = seen.setdefault((digest, part), i)
            if first != i:
                same.append((first, i))
    compared = _compare(events, _entries(events))
    overlaps: list[dict[str, int]] = []
    for row in compared.iter_rows(named=True):
        if row["g"] == 0 or row["g_b"] == 0 or _apart(events[row[_EV]], events[row["ev_b"]]):
            continue
        if row["players"] == row["n"] == row["n_b"] and row["games"] == row["g"] == row["g_b"]:
            same.append((row[_EV], row["ev_b"]))
        elif 100 * row["games"] >= SHARE * min(row["g"], row["g_b"]):
            overlaps.append(row)
    return _decide(events, files, digests, same, overlaps)


def _decide(
    events: Sequence[EventData],
    files: list[str],
    digests: Mapping[str, str],
    same: list[tuple[int, int]],
    overlaps: list[dict[str, int]],
) -> Duplicates:
    """Each group of one event rated once, from its TRF or its first file."""
    parent: dict[int, int] = {}
    for a, b in same:
        ra, rb = _root(parent, a), _root(parent, b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    groups: dict[int, list[int]] = {}
    for i in sorted({i for pair in same for i in pair}):
        groups.setdefault(_root(parent, i), []).append(i)
    skipped: dict[int, int] = {}
    why: dict[int, str] = {}
    problems: list[Problem] = []
    for members in groups.values():
        sources = {i: str(events[i].events[E.SOURCE][0]) for i in members}
        kept = min(members, key=lambda i: (sources[i] not in TRF_SOURCES, i))
        for i in members:
            if i == kept:
                continue
            skipped[i] = kept
            bytes_equal = digests.get(files[i]) is not None and (
                digests.get(files[i]) == digests.get(files[kept])
            )
            why[i] = SAME_BYTES if bytes_equal else SAME_GAMES
            message = (
                f"expected each event once, got the event of {files[kept]} again ({why[i]}); "
                f"rated once, from {files[kept]}"
            )
            problems.append(
                Problem(Location(files[i]), "duplicate-event", message, Severity.WARNING)
            )
    for row in overlaps:
        a, b = row[_EV], row["ev_b"]
        if a in skipped or b in skipped:
            continue
        message = (
            f"expected each event in one file, got {row['players']} of "
            f"{min(row['n'], row['n_b'])} players and {row['games']} of "
            f"{min(row['g'], row['g_b'])} games in common with {files[a]}; both are rated: "
            "if they are one event, give one of the two files"
        )
        problems.append(Problem(Location(files[b]), "overlapping-event", message, Severity.WARNING))
    unique = list(dict.fromkeys(problems))
    return Duplicates(skipped, why, sorted(unique, key=Problem.sort_key))


__all__ = [
    "DAYS_APART",
    "SAME_BYTES",
    "SAME_GAMES",
    "SHARE",
    "Duplicates",
    "file_digest",
    "find_duplicates",
]
