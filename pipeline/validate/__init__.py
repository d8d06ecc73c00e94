"""The validation stage: every problem of every file, at its file, line and column.

event.py       check_event / validate_event (one event), reader_problems
files.py       validate_paths (files and folders, as `elo validate`), describe_event,
               check_against_registry
schema.py      the pandera models applied, problems mapped back to lines
checks.py      cross-row checks (pairings mirrored, rounds, dates, ...)
points.py      the declared points against the results
duplicates.py  the same event given twice (rated once)
player_fields.py  federation codes (FIDE's list), a file without ratings
batch.py       check_events: many events at once (the clean ones in one pass)
rated.py       is the event valid for FIDE rating (time control, rounds a day, matches)
"""

from __future__ import annotations

from pipeline.validate.event import check_event, reader_problems, validate_event
from pipeline.validate.files import (
    FileReport,
    ValidationReport,
    check_against_registry,
    describe_event,
    validate_paths,
)

__all__ = [
    "FileReport",
    "ValidationReport",
    "check_against_registry",
    "check_event",
    "describe_event",
    "reader_problems",
    "validate_event",
    "validate_paths",
]
