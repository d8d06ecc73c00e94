"""Benchmark: `elo run --chain` over three world-sized months.

Three periods (September, October, November 2026) of 1,000 standard events each (TRF,
100 players, 10 rounds: 10^6 game rows a month), against the synthetic 1.64 M-player
combined list, which the chain carries through: every month writes its players_list.csv
of every player. The chain runs in a child process of its own (`pipeline.chain.run_chain`
with `chain=True`, writing all outputs), then, as the baseline in the same run, a single
`elo run` of the last month in another child, as an officer working a month at a time
runs it: from the list and the pool the chain wrote for that month, with `--write-list`.
Its outputs must equal the chain's November byte for byte.

Reported: the chain's reading (shared by the months), each month's rating, lists and
reports with the peak memory at its end, the chain's total per month, and the single
run. Target: a month in the chain costs no more than the single run of the same month.
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.pipeline import (
    EVENTS,
    PLAYERS_PER_EVENT,
    REGISTRY_PLAYERS,
    _event_text,
    _pool,
    run_child,
)

MONTHS = ["2026/09", "2026/10", "2026/11"]

_CHILD = r"""
import json, sys, time
from pathlib import Path
from pipeline.chain import run_chain
from pipeline.load import RunOptions
from pipeline.run import run_job
folder, chain = Path(sys.argv[1]), sys.argv[2] == "chain"
paths = [folder / "months"] if chain else [folder / "months" / "2026-11"]
before = folder / "out-chain" / "2026-10"  # the list and pool the chain wrote for November
registry = folder / "players_list_foa.txt" if chain else before / "players_list.csv"
pending = None if chain else before / "pending.csv"
started = time.perf_counter()
options = RunOptions(paths=paths, registry=registry, pending=pending,
                     out_dir=folder / ("out-chain" if chain else "out-single"),
                     chain=chain, write_list=not chain, name_match=False)
outcome = run_chain(options) if chain else run_job(options)
wall = time.perf_counter() - started
print(json.dumps({"wall": wall, "exit": outcome.exit_code, "timings": outcome.timings,
                  "peaks": outcome.peaks, "periods": outcome.summary.get("periods", [])}))
"""


def _write(folder: Path) -> None:
    from bench.registry import synthesize_combined_list

    registry = folder / "players_list_foa.txt"
    synthesize_combined_list(registry, REGISTRY_PLAYERS)
    pool = _pool(registry)
    rng = random.Random(11)
    for month in MONTHS:
        events = folder / "months" / month.replace("/", "-")
        events.mkdir(parents=True)
        for number in range(EVENTS):
            chosen = rng.sample(pool, PLAYERS_PER_EVENT)
            chosen.sort(key=lambda p: -p[2])
            text = _event_text(rng, number, chosen, month)
            (events / f"event{number:04d}.trf").write_text(text, encoding="utf-8")


def main() -> None:
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory(prefix="elo-bench-chain-") as tmp:
        folder = Path(tmp)
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-c",
             "import sys; from pathlib import Path; from bench.chain import _write; "
             "_write(Path(sys.argv[1]))", str(folder)],
            check=True,
            cwd=root,
        )  # fmt: skip
        print(
            f"synthesized 3 months of {EVENTS:,} events / "
            f"{EVENTS * PLAYERS_PER_EVENT * 10:,} game rows and a {REGISTRY_PLAYERS:,}-player "
            f"list in {time.perf_counter() - started:.1f} s",
            flush=True,
        )
        chain = run_child(_CHILD, root, str(folder), "chain")
        single = run_child(_CHILD, root, str(folder), "single")
        same = all(
            (folder / "out-chain" / "2026-11" / name).read_bytes()
            == (folder / "out-single" / name).read_bytes()
            for name in ("ratings.csv", "games.csv", "players_list.csv", "pending.csv")
        )
    shared = sum(
        chain["timings"].get(stage, 0.0)
        for stage in ("discover", "ingest", "validate", "registry", "identity")
    )
    print(
        f"chain exit code {chain['exit']}; reading, checking and linking 3 months: {shared:.2f} s"
    )
    print(f"{'month':<8} {'rate+lists+report s':>20} {'peak MB':>8} {'month total s':>14}")
    for period in chain["periods"]:
        total = period["seconds"] + shared / len(chain["periods"])
        peak = period["peak_rss"] or 0
        print(f"{period['period']:<8} {period['seconds']:20.2f} {peak / 1e6:8.0f} {total:14.2f}")
    print(f"{'stage':<10} {'chain, a month':>15} {'single run':>11}")
    for stage in dict.fromkeys([*chain["timings"], *single["timings"]]):
        mine = chain["timings"].get(stage, 0.0) / len(chain["periods"])
        theirs = single["timings"].get(stage, 0.0)
        print(f"{stage:<10} {mine:15.2f} {theirs:11.2f}")
    per_month = chain["wall"] / len(chain["periods"])
    single_peak = max(single["peaks"].values()) if single["peaks"] else 0
    print(f"chain total {chain['wall']:.2f} s, {per_month:.2f} s a month")
    print(
        "single run of 2026-11 from the list and pool the chain wrote for it, with "
        f"--write-list (baseline, same run): {single['wall']:.2f} s, peak "
        f"{single_peak / 1e6:.0f} MB (exit {single['exit']}); the same ratings.csv, "
        f"games.csv, players_list.csv and pending.csv as the chain's November: {same}"
    )
    print(
        f"target: a month in the chain <= the single run: "
        f"{'met' if per_month <= single['wall'] else 'MISSED'} "
        f"({per_month / single['wall']:.2f}x)"
    )


if __name__ == "__main__":
    main()
