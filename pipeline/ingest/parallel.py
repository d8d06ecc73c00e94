"""Reading many tournament files: in worker processes when there are enough of them.

Reading a file is mostly Python (slicing TRF lines, openpyxl's cells), which one process
runs on one core whatever its threads. So a job of many files is read by several
processes: this one and workers, each a fresh interpreter running `serve` (started as
`python -c` with this process's import path, so that it never imports the caller's main
module, which may be a script without a main guard). The files are cut into contiguous
shares of about equal bytes, one a process; this process reads the first share, the
larger by what a worker reads while it starts (`START_BYTES`), while each worker reads
its share with `read_path` and hands back each file's outcome, pickled, through its
standard output, taken in by a thread as it comes. So the outcomes come in the order of
the paths, this process's first (and the progress with them): each file's events or the
`InputError` that names its problems, exactly as reading them one after another gives
them. Anything else a worker raises (a bug) is raised here with the worker's traceback.

A worker pays for its start (an interpreter importing the readers, some 0.5 s) and for
handing the frames back; measured on TRF files, that is about what reading
`BYTES_PER_WORKER` bytes costs. So the number of processes is the smaller of the cores
this process may use and the files' total size over `BYTES_PER_WORKER`: below that, this
process reads everything. On fewer than `MIN_CORES` cores it reads everything too: on the
2-core development machine a worker measured no gain beyond the machine's noise (a month
of 1,000 TRF files read in 3.20 s with a worker and 3.03 s without in one run, 3.04 s
and 3.64 s in another). `jobs` fixes the number (the `--jobs` option; 1 reads here).
"""

from __future__ import annotations

import itertools
import json
import os
import pickle
import queue
import subprocess
import sys
import threading
import traceback
from bisect import bisect_left
from collections.abc import Generator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, cast

from pipeline.errors import InputError

if TYPE_CHECKING:
    from pipeline.formats.model import EventData

BYTES_PER_WORKER = 8_000_000  # some 400 TRF files of 100 players and 10 rounds
START_BYTES = 4_000_000  # what this process reads while a worker starts (TRF files)
MIN_CORES = 4  # fewer cores than this: no workers unless asked for (module docstring)
MAX_WORKERS = 8  # beyond this, handing the frames back costs more than reading them

Outcome = list["EventData"] | InputError


def usable_cores() -> int:
    """The cores this process may run on (its affinity where the OS says)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def workers_for(sizes: Sequence[int], jobs: int | None = None) -> int:
    """How many processes (this one and the workers) read files of `sizes` bytes: `jobs`
    when given (at most one a file), else one per `BYTES_PER_WORKER` bytes up to the
    usable cores and MAX_WORKERS, and one on fewer than MIN_CORES cores."""
    if jobs is not None:
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1, got {jobs}")
        return max(1, min(jobs, len(sizes)))
    cores = usable_cores()
    if cores < MIN_CORES:
        return 1
    share = sum(sizes) // BYTES_PER_WORKER
    return max(1, min(cores, MAX_WORKERS, share, len(sizes)))


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


def serve(requests: BinaryIO, outcomes: BinaryIO) -> int:
    """A worker's loop: (paths, list_override) in, then one ("read", outcome) per path
    out, in order; ("bug", traceback) and exit code 1 when reading raises anything but
    InputError."""
    paths, list_override = pickle.load(requests)
    for path in paths:
        try:
            outcome = read_one(Path(path), list_override)
        except Exception:
            pickle.dump(("bug", traceback.format_exc()), outcomes)
            outcomes.flush()
            return 1
        pickle.dump(("read", outcome), outcomes, protocol=pickle.HIGHEST_PROTOCOL)
    outcomes.flush()
    return 0


_BOOT = (
    "import json, sys; sys.path[:0] = json.loads(sys.argv[1]); "
    "from pipeline.ingest.parallel import serve; "
    "raise SystemExit(serve(sys.stdin.buffer, sys.stdout.buffer))"
)


def share_ends(sizes: Sequence[int], processes: int) -> list[int]:
    """Where each process's share of the files ends (module docstring): contiguous, none
    empty, about equal in bytes, the first larger by START_BYTES (at most by half a
    share, so that small jobs are shared too). One end when it is all one share."""
    total = sum(sizes)
    bias = min(START_BYTES, total // (2 * processes))
    each = (total - bias) / processes
    cumulative = list(itertools.accumulate(sizes))
    ends: list[int] = []
    for k in range(1, processes):
        end = bisect_left(cumulative, bias + k * each) + 1
        if (not ends or end > ends[-1]) and end < len(sizes):
            ends.append(end)
    return [*ends, len(sizes)]


def read_paths(
    paths: Sequence[Path], list_override: str | None = None, jobs: int | None = None
) -> Generator[tuple[Path, Outcome], None, None]:
    """Each path with its outcome, in order (module docstring)."""
    sizes = [_size(p) for p in paths]
    ends = share_ends(sizes, workers_for(sizes, jobs))
    started: list[_Worker] = []
    try:
        for low, high in itertools.pairwise(ends):
            started.append(_Worker(list(paths[low:high]), list_override))
        for path in paths[: ends[0]]:
            yield path, read_one(path, list_override)
        for worker, (low, high) in zip(started, itertools.pairwise(ends), strict=True):
            for path in paths[low:high]:
                yield path, worker.outcome(path)
            worker.finish()
    finally:
        for worker in started:
            worker.stop()


class _Worker:
    """A worker process reading `paths`, and a thread taking in its outcomes as they come
    (a worker never waits on a full pipe while another one's outcomes are taken)."""

    def __init__(self, paths: list[Path], list_override: str | None) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", _BOOT, json.dumps(sys.path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        assert self.process.stdin is not None
        with self.process.stdin:
            pickle.dump(([str(p) for p in paths], list_override), self.process.stdin)
        self.outcomes: queue.Queue[tuple[str, object]] = queue.Queue()
        self.thread = threading.Thread(target=self._take, name="ingest-worker", daemon=True)
        self.thread.start()

    def _take(self) -> None:
        out = self.process.stdout
        assert out is not None
        try:
            while True:
                self.outcomes.put(pickle.load(out))
        except EOFError:
            pass
        except Exception as exc:  # a damaged stream: said where the outcome is asked for
            self.outcomes.put(("broken", repr(exc)))
        finally:
            self.outcomes.put(("end", None))

    def outcome(self, path: Path) -> Outcome:
        """The outcome of `path`, the next file of this worker's."""
        kind, value = self.outcomes.get()
        if kind == "read":
            return cast(Outcome, value)
        if kind == "bug":
            raise RuntimeError(f"{path}: reading it in a worker process raised\n{value}")
        code = self.process.wait()
        raise RuntimeError(f"{path}: the worker process reading it ended (exit {code}, {value})")

    def finish(self) -> None:
        """Every outcome taken: the process must have ended well."""
        code = self.process.wait()
        if code != 0:
            raise RuntimeError(f"a worker process reading the files exited {code}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self.thread.join()
        if self.process.stdout is not None:
            self.process.stdout.close()


__all__ = [
    "BYTES_PER_WORKER",
    "read_one",
    "read_paths",
    "serve",
    "share_ends",
    "usable_cores",
    "workers_for",
]
