"""Reading many files in worker processes gives what reading them one by one gives."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from polars.testing import assert_frame_equal

from pipeline.errors import InputError, Location, Problem, Severity
from pipeline.ingest import parallel
from pipeline.ingest.detect import find_inputs
from pipeline.ingest.parallel import Outcome, read_paths, workers_for

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "events"


def _inputs() -> list[Path]:
    """Good files of every kind, and broken ones (their errors must come back too)."""
    found = find_inputs([SAMPLES, FIXTURES / "real", FIXTURES / "invalid"]).events
    assert len(found) > 20
    return found


def _same(one: Outcome, other: Outcome) -> None:
    if isinstance(one, InputError):
        assert isinstance(other, InputError)
        assert other.problems == one.problems
        assert str(other) == str(one)
        return
    assert not isinstance(other, InputError)
    assert len(other) == len(one)
    for mine, theirs in zip(one, other, strict=True):
        for frame in ("events", "players", "games"):
            assert_frame_equal(getattr(theirs, frame), getattr(mine, frame))
        assert theirs.problems == mine.problems


def test_workers_read_what_one_process_reads() -> None:
    paths = _inputs()
    alone = list(read_paths(paths, jobs=1))
    together = list(read_paths(paths, jobs=3))  # runs of a few files each, in 3 processes
    assert [p for p, _ in together] == [p for p, _ in alone] == paths
    assert any(isinstance(o, InputError) for _, o in alone)
    for (_, one), (_, other) in zip(alone, together, strict=True):
        _same(one, other)


def test_the_list_option_reaches_the_workers() -> None:
    paths = _inputs()
    for (_, one), (_, other) in zip(
        read_paths(paths, "blitz", jobs=1), read_paths(paths, "blitz", jobs=2), strict=True
    ):
        _same(one, other)
        if not isinstance(other, InputError):
            assert {ev.events["list"][0] for ev in other} == {"blitz"}


def test_an_input_error_survives_pickling() -> None:
    error = InputError(
        [
            Problem(Location("b.trf", 3, "12-15"), "bad-rating", "expected a number, got 'x'"),
            Problem(Location("a.trf"), "late", "a warning", Severity.WARNING),
        ]
    )
    copy = pickle.loads(pickle.dumps(error))
    assert isinstance(copy, InputError)
    assert copy.problems == error.problems
    assert str(copy) == str(error)


_TRF = 20_000  # bytes of a TRF file of 100 players and 10 rounds


@pytest.mark.parametrize(
    ("sizes", "jobs", "cores", "expected"),
    [
        ([_TRF] * 1_000, None, 4, 2),  # one per BYTES_PER_WORKER (20 MB)
        ([_TRF] * 1_000, None, 2, 1),  # on two cores: no workers unless asked for
        ([parallel.BYTES_PER_WORKER] * 100, None, 6, 6),  # as many as the cores
        ([parallel.BYTES_PER_WORKER] * 100, None, 64, parallel.MAX_WORKERS),
        ([parallel.BYTES_PER_WORKER // 2] * 6, None, 16, 3),  # one per BYTES_PER_WORKER
        ([_TRF] * 100, None, 16, 1),  # too little to pay for a process
        ([parallel.BYTES_PER_WORKER * 10], None, 16, 1),  # one file: one process
        ([_TRF] * 10, 4, 1, 4),  # --jobs is taken as given
        ([_TRF] * 3, 8, 16, 3),  # but never more than the files
        ([], 4, 16, 1),
    ],
)
def test_how_many_workers(
    monkeypatch: pytest.MonkeyPatch, sizes: list[int], jobs: int | None, cores: int, expected: int
) -> None:
    monkeypatch.setattr(parallel, "usable_cores", lambda: cores)
    assert workers_for(sizes, jobs) == expected


@pytest.mark.parametrize(
    ("sizes", "processes"),
    [
        ([20_000] * 1_000, 2),
        ([20_000] * 1_000, 3),
        ([100] * 7, 3),  # a small job is shared too
        ([5, 1, 1, 1, 1, 1, 1, 30_000_000], 4),  # one large file: a share of its own
        ([10] * 3, 8),
        ([0] * 5, 2),
        ([7], 1),
    ],
)
def test_shares_cover_every_file_once_this_process_first(sizes: list[int], processes: int) -> None:
    ends = parallel.share_ends(sizes, processes)
    assert ends[-1] == len(sizes)
    assert ends == sorted(set(ends))  # no share is empty
    assert len(ends) <= processes
    starts = [0, *ends[:-1]]
    shares = [sum(sizes[a:b]) for a, b in zip(starts, ends, strict=True)]
    if len(shares) > 1 and len(set(sizes)) == 1:  # equal files: the first share is larger
        assert shares[0] >= max(shares[1:])


def test_the_first_share_covers_a_workers_start() -> None:
    ends = parallel.share_ends([20_000] * 1_000, 2)  # 20 MB of TRF files, two processes
    first, second = ends[0] * 20_000, (1_000 - ends[0]) * 20_000
    assert first - second == pytest.approx(parallel.START_BYTES, abs=40_000)


def test_jobs_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        workers_for([_TRF] * 10, 0)


def test_a_bug_in_a_worker_is_raised_not_swallowed(tmp_path: Path) -> None:
    """Only InputError is a user's problem; anything else raised in a worker reaches the
    caller with the worker's traceback, and the worker ends."""
    path = tmp_path / "e.trf"
    path.write_text("012 Open\n", encoding="utf-8")
    worker = parallel._Worker([path, path], "bullet")  # not a list: read_path raises
    try:
        with pytest.raises(RuntimeError, match="reading it in a worker process raised") as caught:
            worker.outcome(path)
        assert "ValueError: list_override must be one of" in str(caught.value)
        assert worker.process.wait() == 1
    finally:
        worker.stop()
    with pytest.raises(ValueError, match="list_override"):  # read here: raised as it is
        list(read_paths([path] * 4, "bullet", jobs=2))


def test_a_script_without_a_main_guard_reads_once(tmp_path: Path) -> None:
    """The workers never import the caller's main module: a script calling the readers at
    its top level runs once, and its files are read."""
    script = tmp_path / "job.py"
    script.write_text(
        "from pathlib import Path\n"
        "from pipeline.ingest.parallel import read_paths\n"
        f"paths = sorted(Path({str(SAMPLES)!r}).glob('*.trf')) * 4\n"
        "outcomes = [o for _, o in read_paths(paths, jobs=2)]\n"
        "print('ran', len(outcomes), sum(len(o) for o in outcomes))\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, check=False, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == "ran 4 4\n"


def _children() -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        text = (task / "children").read_text(encoding="ascii")
        found |= {int(pid) for pid in text.split()}
    return found


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc")
def test_stopping_early_stops_the_workers() -> None:
    before = _children()
    outcomes = read_paths(_inputs(), jobs=3)  # this process and two workers
    next(outcomes)
    assert len(_children() - before) == 2
    outcomes.close()  # the caller gives up (an error of its own)
    assert _children() == before
