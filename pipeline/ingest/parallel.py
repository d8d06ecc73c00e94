"""Reading many tournament files: in worker processes when there are enough of them.

Reading a file is mostly Python (slicing TRF lines, openpyxl's cells), which one process
runs on one core whatever its threads. So a job of many files reads them in worker
processes, each a fresh interpreter (the "spawn" start method: polars' threads make
forking unsafe) that reads runs of consecutive files with `read_path` and hands back
their events. A worker pays for its start (an interpreter importing the readers, some
0.4 s) and for handing the frames back; measured on TRF files, that is about what
reading `BYTES_PER_WORKER` bytes costs. So the number of workers is the smaller of the
cores this process may use and the files' total size over `BYTES_PER_WORKER`; one worker
reads in this process. `jobs` fixes the number (the `--jobs` option; 1 reads here).

The results come back in the order of the paths, each file's events or the `InputError`
that names its problems, exactly as reading them one after another gives them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.errors import InputError

if TYPE_CHECKING:
    from pipeline.ingest.model import EventData

BYTES_PER_WORKER = 8_000_000  # some 400 TRF files of 100 players and 10 rounds
MAX_WORKERS = 8  # beyond this, handing the frames back costs more than reading them
_RUNS_PER_WORKER = 4  # runs of files per worker: a slow run delays the others less

Outcome = list["EventData"] | InputError


def usable_cores() -> int:
    """The cores this process may run on (its affinity where the OS says)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def workers_for(sizes: Sequence[int], jobs: int | None = None) -> int:
    """How many processes read files of `sizes` bytes: `jobs` when given (at most one a
    file), else one per `BYTES_PER_WORKER` bytes up to the usable cores and MAX_WORKERS."""
    if jobs is not None:
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1, got {jobs}")
        return max(1, min(jobs, len(sizes)))
    share = sum(sizes) // BYTES_PER_WORKER
    return max(1, min(usable_cores(), MAX_WORKERS, share, len(sizes)))


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:  # read_path words it
        return 0


def read_one(path: Path, list_override: str | None) -> Outcome:
    """The events of one file, or the InputError naming its problems."""
    from pipeline.ingest.detect import read_path

    try:
        return read_path(path, list_override)
    except InputError as exc:
        return exc


def read_run(paths: Sequence[Path], list_override: str | None) -> list[Outcome]:
    """`read_one` of consecutive files (what a worker process runs)."""
    return [read_one(path, list_override) for path in paths]


def read_paths(
    paths: Sequence[Path], list_override: str | None = None, jobs: int | None = None
) -> Iterator[tuple[Path, Outcome]]:
    """Each path with its outcome, in order (module docstring)."""
    workers = workers_for([_size(p) for p in paths], jobs)
    if workers == 1:
        for path in paths:
            yield path, read_one(path, list_override)
        return
    import multiprocessing

    size = -(-len(paths) // (workers * _RUNS_PER_WORKER))
    runs = [list(paths[i : i + size]) for i in range(0, len(paths), size)]
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
    try:
        futures = [pool.submit(read_run, run, list_override) for run in runs]
        for run, future in zip(runs, futures, strict=True):
            yield from zip(run, future.result(), strict=True)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


__all__ = ["BYTES_PER_WORKER", "read_one", "read_paths", "usable_cores", "workers_for"]
