"""The ratings `elo serve` keeps for their downloads: each in a temporary folder of its
own (the uploaded files, the outputs), found by an unguessable id, deleted once older than
`keep_seconds` (ServeConfig.keep_minutes), the oldest deleted once more than `limit` are
kept, and all of them when the server stops."""

from __future__ import annotations

import os
import secrets
import shutil
import tempfile
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Job:
    id: str
    folder: Path  # inputs/ (the uploaded files), out/ (elo run's outputs), trf16/, trf26/
    registry: Path | None = None
    list_override: str | None = None
    result: Any = None  # pipeline.rate.RateResult of the rating, None when rejected
    lock: threading.Lock = field(default_factory=threading.Lock)
    files: list[Path] = field(default_factory=list)  # the tournament files, as uploaded
    created: float = field(default_factory=time.monotonic)

    @property
    def inputs(self) -> Path:
        return self.folder / "inputs"

    @property
    def out(self) -> Path:
        return self.folder / "out"

    @property
    def prefixes(self) -> list[str]:
        """The job's folders as they begin the paths of its files, longest first."""
        return [f"{self.inputs}{os.sep}", f"{self.folder}{os.sep}"]

    def relative(self, value: Any) -> Any:
        """`value` (summary.json's object, problems, a file name) with the job's folders
        left out of the file names: the user sees the names uploaded, not the server's."""
        if isinstance(value, str):
            for prefix in self.prefixes:
                value = value.replace(prefix, "")
            return value
        if isinstance(value, dict):
            return {key: self.relative(item) for key, item in value.items()}
        if isinstance(value, list):
            return [self.relative(item) for item in value]
        return value


class JobStore:
    def __init__(self, limit: int, keep_seconds: float = 3600.0) -> None:
        self.limit = max(1, limit)
        self.keep_seconds = keep_seconds
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()

    def new(self) -> Job:
        """A job with its empty folders; the expired jobs and the oldest over the limit
        are deleted."""
        self.expire()
        folder = Path(tempfile.mkdtemp(prefix="elo-serve-"))
        job = Job(secrets.token_urlsafe(16), folder)
        job.inputs.mkdir()
        with self._lock:
            self._jobs[job.id] = job
            old = [self._jobs.popitem(last=False)[1] for _ in range(len(self._jobs) - self.limit)]
        for gone in old:
            shutil.rmtree(gone.folder, ignore_errors=True)
        return job

    def get(self, job_id: str) -> Job | None:
        self.expire()
        with self._lock:
            return self._jobs.get(job_id)

    def expire(self, now: float | None = None) -> int:
        """Delete the jobs older than keep_seconds; how many were deleted."""
        cutoff = (time.monotonic() if now is None else now) - self.keep_seconds
        with self._lock:
            old = [job for job in self._jobs.values() if job.created < cutoff]
            for job in old:
                del self._jobs[job.id]
        for job in old:
            shutil.rmtree(job.folder, ignore_errors=True)
        return len(old)

    def drop(self, job: Job) -> None:
        with self._lock:
            self._jobs.pop(job.id, None)
        shutil.rmtree(job.folder, ignore_errors=True)

    def clear(self) -> None:
        with self._lock:
            jobs, self._jobs = list(self._jobs.values()), OrderedDict()
        for job in jobs:
            shutil.rmtree(job.folder, ignore_errors=True)

    def __len__(self) -> int:
        return len(self._jobs)
