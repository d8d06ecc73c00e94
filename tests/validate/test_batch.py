"""The batch pass of validation (pipeline.validate.batch) against the per-event checks:
the same problems, event by event, for every file the project has (valid, invalid, real,
samples, the shared reference files) read as one batch; clean events cleared in the batch."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.errors import InputError
from pipeline.formats.model import EventData
from pipeline.ingest.detect import find_inputs, read_path
from pipeline.validate import check_event, validate_event
from pipeline.validate.batch import check_events, quiet_events
from tests.conftest import FIXTURES, ROOT, SAMPLES

DATA = ROOT / "tests" / "validate" / "data"


def events_under(*folders: Path) -> list[EventData]:
    events: list[EventData] = []
    for path in find_inputs(list(folders)).events:
        try:
            events += read_path(path)
        except InputError:
            continue
    return events


def test_every_fixture_as_one_batch_gives_the_problems_of_check_event() -> None:
    events = events_under(FIXTURES, DATA, SAMPLES)
    assert len(events) > 25
    assert check_events(events) == [check_event(ev) for ev in events]
    assert check_events(events, rules_given=True) == [
        check_event(ev, rules_given=True) for ev in events
    ]


def test_the_shared_files_as_one_batch(shared_dir: Path) -> None:
    events = events_under(shared_dir / "data")
    assert check_events(events) == [check_event(ev) for ev in events]


def test_clean_events_are_cleared_without_the_per_event_checks() -> None:
    events = events_under(DATA)
    quiet = quiet_events(events)
    by_file = {
        str(ev.events["file"][0]).rsplit("/", 1)[-1]: q for ev, q in zip(events, quiet, strict=True)
    }
    silent = {name for name, ev in zip(by_file, events, strict=True) if not validate_event(ev)}
    assert silent  # some of the valid files have nothing to say
    assert {name for name, q in by_file.items() if q} == silent


def _readable(path: Path) -> bool:
    try:
        read_path(path)
    except InputError:
        return False
    return True


# the invalid TRF fixtures whose errors the checks find (the others the reader refuses)
BAD = sorted(p.name for p in (FIXTURES / "invalid").glob("trf_*.trf") if _readable(p))


@pytest.mark.parametrize("name", BAD)
def test_a_bad_event_among_clean_ones_is_looked_at(name: str) -> None:
    events = events_under(DATA) + read_path(FIXTURES / "invalid" / name)
    quiet = quiet_events(events)
    assert quiet[-1] is False
    assert check_events(events)[-1] == check_event(events[-1])


def test_chunks_of_events_give_the_same_problems(monkeypatch: pytest.MonkeyPatch) -> None:
    import pipeline.validate.batch as batch

    events = events_under(FIXTURES, DATA, SAMPLES)
    whole = check_events(events)
    monkeypatch.setattr(batch, "CHUNK", 7)
    assert check_events(events) == whole == [check_event(ev) for ev in events]
