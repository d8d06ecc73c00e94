"""Benchmark: `elo serve` against the command line, on the same files in the same run.

1. Rating the 300-player event of `bench.single` (a TRF16 file, 9 rounds, every output
   written) through `POST /api/rate` (the app in process, Starlette's TestClient: the
   upload, the job's temporary folder, `elo run`'s job, ratings.csv read back, the JSON
   answer) against `elo run`'s job on the same file in this process (`pipeline.run.run_job`
   with the same options, warm: the work the web layer adds, and nothing else), and against
   `elo run` as a command (a child process: what an arbiter's command costs, interpreter
   start included). Best of 5 each, after one warm-up.
2. The calculator page (`GET /calc` with three games): the median answer time of 100
   requests in process.

Targets: /api/rate <= 1.5x `elo run`'s job; the calculator page's median < 50 ms.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from starlette.testclient import TestClient

from bench.single import PLAYERS, ROUNDS, _event
from pipeline.load import RunOptions
from pipeline.run import run_job
from pipeline.web import ServeConfig, create_app

REPEATS = 5
CALC_REQUESTS = 100
CALC_QUERY = {"rating": "1500", "game": "1600:1 1650:½ 1700:0", "date": "2026-11-30"}


def _best(action: Callable[[], None]) -> float:
    action()  # warm-up
    best = float("inf")
    for _ in range(REPEATS):
        started = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - started)
    return best


def main() -> None:
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory(prefix="elo-bench-serve-") as tmp:
        folder = Path(tmp)
        event = _event(folder)
        data = event.read_bytes()
        options = RunOptions(paths=[event], out_dir=folder / "out", jobs=1)

        def job() -> None:
            assert run_job(options).exit_code == 0

        command = [sys.executable, "-m", "pipeline", "run", str(event), "--out",
                   str(folder / "cli"), "--quiet"]  # fmt: skip

        def cli() -> None:
            subprocess.run(command, check=True, cwd=root, capture_output=True)

        with TestClient(create_app(ServeConfig(max_upload_mb=50))) as client:

            def api() -> None:
                answer = client.post("/api/rate", files=[("files", (event.name, data))])
                assert answer.status_code == 200, answer.text
                assert len(answer.json()["ratings"]) == PLAYERS

            api_s, job_s, cli_s = _best(api), _best(job), _best(cli)
            client.get("/calc", params=CALC_QUERY)
            times = []
            for _ in range(CALC_REQUESTS):
                started = time.perf_counter()
                page = client.get("/calc", params=CALC_QUERY)
                times.append(time.perf_counter() - started)
                assert page.status_code == 200
    calc_ms = statistics.median(times) * 1000
    ratio = api_s / job_s
    print(f"one event: {PLAYERS} players, {ROUNDS} rounds; best of {REPEATS} after a warm-up")
    print(f"POST /api/rate (in process)              {api_s:6.3f} s")
    print(f"elo run's job (run_job, in process)      {job_s:6.3f} s")
    print(f"elo run as a command (child process)     {cli_s:6.3f} s")
    print(f"ratio {ratio:.2f}x elo run's job; target <= 1.5x {'met' if ratio <= 1.5 else 'MISSED'}")
    print(
        f"calculator page GET /calc: median {calc_ms:.1f} ms of {CALC_REQUESTS} requests; "
        f"target < 50 ms {'met' if calc_ms < 50 else 'MISSED'}"
    )


if __name__ == "__main__":
    main()
