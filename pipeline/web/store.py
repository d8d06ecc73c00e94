"""The ratings `elo serve` keeps for their downloads: each in a temporary folder of its
own (the uploaded files, the outputs), found by an unguessable id, the oldest deleted once
more than `limit` are kept, and all of them when the server stops."""

from __future__ import annotations

import os
import secrets
import shutil
import tempfile
import threading
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

    @property
    def inputs(self) -> Path:
        return self.folder / "inputs"

    @property
    def out(self) -> Path:
        return self.folder / "out"

    def relative(self, value: Any) -> Any:
        """`value` (summary.json's object, problems, a file name) with the job's folders
        left out of the file names: the user sees the names uploaded, not the server's."""
        if isinstance(value, str):
            return value.replace(f"{self.inputs}{os.sep}", "").replace(f"{self.folder}{os.sep}", "")
        if isinstance(value, dict):
            return {key: self.relative(item) for key, item in value.items()}
        if isinstance(value, list):
            return [self.relative(item) for item in value]
        return value


class JobStore:
    def __init__(self, limit: int) -> None:
        self.limit = max(1, limit)
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()

    def new(self) -> Job:
        """A job with its empty folders; the oldest jobs over the limit are deleted."""
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
        with self._lock:
            return self._jobs.get(job_id)

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
