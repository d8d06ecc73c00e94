"""The same event given twice: two files with the same bytes (a file downloaded twice),
or two events with the same name, dates and games (the XLSX and the CSV of one
tournament). The second is a ``duplicate-event`` error naming the first; rating both
would count every game twice."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.errors import Location, Problem
from pipeline.ingest.names import fold

if TYPE_CHECKING:
    from pipeline.ingest.model import EventData

_GAME_COLUMNS = ("round", "start_no", "opponent_no", "score")


def file_digest(path: Path) -> str:
    """SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _facts(ev: EventData) -> tuple[object, ...]:
    """The name (folded), the dates and the number of players: cheap, and nearly always
    enough to tell two events apart."""
    row = ev.events.row(0, named=True)
    return (
        fold(str(row.get("name") or "")),
        row.get("start_date"),
        row.get("end_date"),
        ev.players.height,
    )


def event_fingerprint(ev: EventData) -> tuple[object, ...]:
    """The name (folded), the dates, the number of players and a digest of the games."""
    columns = [c for c in _GAME_COLUMNS if c in ev.games.columns]
    games = ev.games.select(columns).sort(columns, nulls_last=True)
    digest = hashlib.sha256(games.write_csv().encode("utf-8")).hexdigest()
    return (*_facts(ev), digest)


def duplicate_events(
    events: Sequence[EventData], digests: dict[str, str]
) -> tuple[list[int], list[Problem]]:
    """The indexes of events that repeat an earlier one, and their errors. `digests` maps
    a file (as in `Events.file`) to its bytes' digest."""
    by_bytes: dict[str, str] = {}
    by_content: dict[tuple[object, ...], str] = {}
    repeated: list[int] = []
    problems: list[Problem] = []
    facts = [_facts(ev) for ev in events]
    shared = Counter(facts)
    for index, ev in enumerate(events):
        file = str(ev.events["file"][0])
        digest = digests.get(file)
        first = by_bytes.get(digest) if digest is not None else None
        why = "the same bytes"
        if first is None or first == file:
            if shared[facts[index]] == 1:  # no other event with its name, dates, players
                if digest is not None:
                    by_bytes.setdefault(digest, file)
                continue
            fingerprint = event_fingerprint(ev)
            first = by_content.get(fingerprint)
            why = "the same name, dates and games"
            if first is None:
                by_content[fingerprint] = file
                if digest is not None:
                    by_bytes.setdefault(digest, file)
                continue
        repeated.append(index)
        problems.append(
            Problem(
                Location(file),
                "duplicate-event",
                f"expected each event once, got the event of {first} again ({why}); "
                "give one of the two files",
            )
        )
    return repeated, problems


__all__ = ["duplicate_events", "event_fingerprint", "file_digest"]
