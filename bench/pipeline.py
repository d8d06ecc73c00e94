"""Benchmark: the whole job on a synthetic rating period at federation scale.

A period of 1,000 standard events (TRF), 100 players each (100,000 player entries) and
10 rounds (1,000,000 game rows, both sides of every game), against a synthetic full FIDE
combined list of 1.64 M players, run through `pipeline.run.run_job` in a child process:
wall time and peak memory per stage (discover, ingest, validate, registry, identity,
rate, report). The job runs a third time with `--jobs 2`: a worker process reads part
of the files (pipeline.ingest.parallel; by default only from 4 cores), its peak reported
beside the job's.

The same period is run a second time, in a child of its own, with the FIDE ID of every
other player line blanked (half of the entries, as crosstables without an ID column
give them): their players are found in the list by name (`pipeline.identity`). Both runs
are reported side by side, with the players linked and the changes compared.

Three more children run the job without the performance ratings and the norm checks
(issue 22's baseline: performance.csv left empty, no norms stage, no norms.csv or Norms
sheet), alternating with two more runs with them: the difference of the best wall time of
each three is what they add (target <= 10 %). The stages before the rating stage's end do
the same work in both, and are the noisiest (reading a thousand files): the difference of
the best times after it (the norms stage and the report) is given too, and the target
holds only when both are within it.

In the same child, after the job, the rating stage is compared with a plain per-game
Python loop over the same rated games using the scalar rules (pipeline.rules.fide): D,
the cap, PD from the table, ΔR, per-player sums, the 700 rule, rounding. Both must give
the same changes. The stage is timed as the job ran it (the first touch of its memory in
that process included) and again three times on the same loaded inputs in the warm
process, as the loop is timed (its rows already built, best of 2).

Targets (all FIDE IDs): <= 12 s and <= 1.3 GB in all, validation <= 2 s of it; the
rating stage >= 10x faster than the loop.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# ELO_BENCH_EVENTS / ELO_BENCH_REGISTRY shrink the period for a quick smoke run.
PAIRS = 3  # jobs run without the norms, alternating with jobs with them (the first: `data`)
_SHORT = {"ELO_BENCH_SHORT": "1"}
EVENTS = int(os.environ.get("ELO_BENCH_EVENTS", "1000"))
PLAYERS_PER_EVENT = 100
ROUNDS = 10
REGISTRY_PLAYERS = int(os.environ.get("ELO_BENCH_REGISTRY", "1640000"))


# fide_id, name, rating, federation, birth year, sex (m/w), title
Pooled = tuple[int, str, int, str, int | None, str, str]


def _pool(registry: Path) -> list[Pooled]:
    """(fide_id, name, standard rating, federation, birth year, sex, title) of the players
    rated on the standard list: the title the list gives, else the women's title."""
    import polars as pl

    from pipeline.formats.rating_list.read import read_rating_list

    reg = read_rating_list(registry).filter(pl.col("rating").is_not_null())
    rows = reg.select(
        "fideid",
        "name",
        "rating",
        "country",
        "birthday",
        pl.when(pl.col("sex").str.to_uppercase() == "F").then(pl.lit("w")).otherwise(pl.lit("m")),
        pl.coalesce(
            pl.when(pl.col(c).str.strip_chars() != "").then(pl.col(c).str.strip_chars())
            for c in ("title", "w_title")
        ).fill_null(""),
    ).rows()
    return [
        (int(i), str(n or "Player"), int(r), str(c or ""), b, str(sx), str(t)[:3])
        for i, n, r, c, b, sx, t in rows
    ]


def _event_text(
    rng: random.Random, number: int, players: list[Pooled], month: str = "2026/11"
) -> str:
    """A valid TRF16 event: random pairings each round, results from the ratings."""
    n = len(players)
    slots: list[list[str]] = [[] for _ in range(n)]
    points = [0] * n  # half points
    for _ in range(ROUNDS):
        order = list(range(n))
        rng.shuffle(order)
        for a, b in zip(order[0::2], order[1::2], strict=True):
            d = players[a][2] - players[b][2]
            p_a = 1 / (1 + 10 ** (-d / 400))
            x = rng.random()
            res_a, res_b = (
                ("1", "0") if x < p_a - 0.15 else ("=", "=") if x < p_a + 0.15 else ("0", "1")
            )
            points[a] += {"1": 2, "=": 1, "0": 0}[res_a]
            points[b] += {"1": 2, "=": 1, "0": 0}[res_b]
            slots[a].append(f"  {b + 1:4d} w {res_a}")
            slots[b].append(f"  {a + 1:4d} b {res_b}")
    day = 1 + number % 19  # ten rounds on ten days, as a standard open plays them
    lines = [
        f"012 Synthetic Open {month} {number:04d}",
        "022 Benchtown",
        f"032 {players[0][3][:3]}",
        f"042 {month}/{day:02d}",
        f"052 {month}/{day + ROUNDS - 1:02d}",
        f"062 {n}",
        "092 Individual: Swiss-System",
        "222 5400+30",
        f"XXR {ROUNDS}",
    ]
    for i, (fide_id, name, rating, fed, birth, sex, title) in enumerate(players):
        pts = f"{points[i] // 2}.{5 if points[i] % 2 else 0}"
        born = f"{birth:04d}/00/00" if birth else ""
        head = (
            f"001 {i + 1:4d} {sex}{title:>3} {name[:33]:<33} {rating:4d} {fed[:3]:<3} "
            f"{fide_id:11d} {born:<10} {pts:>4} {i + 1:4d}"
        )
        lines.append(head + "".join(slots[i]))
    return "\n".join(lines) + "\n"


def _write_period(folder: Path) -> Path:
    from bench.registry import synthesize_combined_list

    registry = folder / "players_list_foa.txt"
    synthesize_combined_list(registry, REGISTRY_PLAYERS)
    pool = _pool(registry)
    rng = random.Random(7)
    events = folder / "events"
    stripped = folder / "stripped"
    events.mkdir()
    stripped.mkdir()
    for number in range(EVENTS):
        chosen = rng.sample(pool, PLAYERS_PER_EVENT)
        chosen.sort(key=lambda p: -p[2])
        text = _event_text(rng, number, chosen)
        (events / f"event{number:04d}.trf").write_text(text, encoding="utf-8")
        (stripped / f"event{number:04d}.trf").write_text(_strip_ids(text), encoding="utf-8")
    return registry


def _strip_ids(text: str) -> str:
    """The FIDE ID (columns 58-68) of every other player line blanked."""
    lines = text.splitlines()
    players = 0
    for i, line in enumerate(lines):
        if line.startswith("001 "):
            if players % 2:
                lines[i] = line[:57] + " " * 11 + line[68:]
            players += 1
    return "\n".join(lines) + "\n"


Row = tuple[object, ...]


def _loop_rating_stage(
    players: list[Row], games: list[Row], registry: list[Row]
) -> tuple[float, dict[int, int]]:
    """The rating stage as a plain per-game Python loop over the same inputs.

    Players (event, start_no, fide_id, rating), games (event, start_no, opponent_no, code)
    and the registry (fideid, rating, k) are Python rows already (their conversion from
    frames is not timed). Per game: look both players up, skip what is not rated, D, the
    cap, PD from the table, ΔR; then per player the 700 rule and the rounding.
    """
    from datetime import date

    from pipeline.rules.fide import difference_used, expected_score, k_after_700, round_half_away
    from pipeline.rules.ruleset import ruleset_for

    rs = ruleset_for(date(2026, 11, 1), "standard")
    scores = {"1": 100, "=": 50, "0": 0}
    started = time.perf_counter()
    listed = {fid: (rating, k) for fid, rating, k in registry}
    who: dict[tuple[object, object], tuple[object, object, object]] = {}
    for event, start_no, fid, rating in players:
        entry = listed.get(fid)
        ro = entry[0] if entry is not None and entry[0] is not None else rating
        who[(event, start_no)] = (fid, ro, entry[1] if entry is not None else None)
    sums: dict[int, int] = {}
    counts: dict[int, int] = {}
    ks: dict[int, int] = {}
    for event, start_no, opponent_no, code in games:
        if code not in scores or opponent_no is None:
            continue
        fid, ro, k = who[(event, start_no)]
        _, opp_ro, _ = who[(event, opponent_no)]
        if not isinstance(fid, int) or not isinstance(ro, int) or not isinstance(opp_ro, int):
            continue
        delta = scores[str(code)] - expected_score(difference_used(ro, opp_ro, rs))
        sums[fid] = sums.get(fid, 0) + delta
        counts[fid] = counts.get(fid, 0) + 1
        ks[fid] = k if isinstance(k, int) and k > 0 else 20
    changes = {f: round_half_away(k_after_700(ks[f], counts[f]) * s) for f, s in sums.items()}
    return time.perf_counter() - started, changes


_CHILD = """
import json, os, sys, time
from pathlib import Path
import polars as pl
from pipeline.load import RunOptions
from pipeline.run import run_job
baseline = bool(os.environ.get("ELO_BENCH_WITHOUT_NORMS"))
if baseline:  # the job as it was before issue 22: no performance ratings, no norm checks
    import types
    import pipeline.report.tables as _tables
    import pipeline.run as _run
    from schemas.output import PERFORMANCE_COLUMNS
    _run.norms_of = lambda *args, **kwargs: types.SimpleNamespace(counts=dict)
    _tables.performance_frame = lambda games: pl.DataFrame(schema=PERFORMANCE_COLUMNS)
    _write = _tables.write_outputs
    _tables.write_outputs = lambda *args, **kwargs: _write(*args, **{**kwargs, "norms": None})
    # (write_outputs, given no norms stage, computes the performance frame: left empty)
from bench.pipeline import _loop_rating_stage

folder = Path(sys.argv[1])
events = sys.argv[2]
jobs = int(sys.argv[3]) if len(sys.argv) > 3 else None  # None: as elo run chooses
started = time.perf_counter()
options = RunOptions(paths=[folder / events], registry=folder / "players_list_foa.txt",
                     out_dir=folder / ("out-" + events), jobs=jobs)
outcome = run_job(options)
wall = time.perf_counter() - started
res = outcome.result
assert res is not None, outcome.loaded.errors[:5]
import resource
workers_peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024  # the largest
loaded = outcome.loaded
identities = loaded.identity.counts if loaded.identity is not None else {}
if events != "events" or jobs is not None or baseline or os.environ.get("ELO_BENCH_SHORT"):
    changes = dict(res.ratings.filter(pl.col("status") == "rated")
                   .select("fide_id", "change").rows())
    print(json.dumps({"wall": wall, "timings": outcome.timings, "peaks": outcome.peaks,
                      "exit": outcome.exit_code, "identities": identities,
                      "workers_peak": workers_peak,
                      "players": res.ratings.height,
                      "changes": {str(k): v for k, v in changes.items()}}))
    raise SystemExit(0)
from pipeline.load import Timer
from pipeline.run import rate_loaded
warm = []  # the stage again on the same loaded inputs, in this warm process
for _ in range(3):
    timer = Timer()
    again = rate_loaded(loaded, options, timer)
    assert again.ratings.equals(res.ratings)
    warm.append(timer.timings["rate"])
    del again
players = pl.concat([ev.players for ev in loaded.events], how="diagonal_relaxed")
games = pl.concat([ev.games for ev in loaded.events], how="diagonal_relaxed")
registry = loaded.registry
assert registry is not None
rows = (
    players.select("event_id", "start_no", "fide_id", "rating").rows(),
    games.select("event_id", "start_no", "opponent_no", "code").rows(),
    registry.select("fideid", "rating", "k").rows(),
)
loop_s, changes = _loop_rating_stage(*rows)
loop_s = min(loop_s, _loop_rating_stage(*rows)[0])
vec = dict(res.ratings.filter(pl.col("status") == "rated").select("fide_id", "change").rows())
agree = all(vec.get(p) == c for p, c in changes.items()) and len(changes) == len(vec)
print(json.dumps({"wall": wall, "timings": outcome.timings, "peaks": outcome.peaks,
                  "exit": outcome.exit_code, "game_rows": res.games.height,
                  "workers_peak": workers_peak,
                  "rated_rows": int(res.games["rated"].sum()),
                  "players": res.ratings.height, "loop_s": loop_s, "agree": agree,
                  "warm_rate_s": min(warm),
                  "identities": identities,
                  "changes": {str(k): v for k, v in vec.items()}}))
"""


def run_child(
    code: str, root: Path, *args: str, env: dict[str, str] | None = None
) -> dict[str, Any]:
    """Run `code` in a fresh interpreter (its own peak memory); its last stdout line is
    the JSON it reports. `env` adds to the environment."""
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        check=True,
        capture_output=True,
        text=True,
        cwd=root,
        env={**os.environ, **(env or {})},
    )
    data: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return data


def _post(run: dict[str, Any]) -> float:
    """A run's time after the rating stage: the norms stage and the report."""
    timings: dict[str, float] = run["timings"]
    return timings.get("norms", 0.0) + timings["report"]


def _norms_line(withs: list[dict[str, Any]], bares: list[dict[str, Any]]) -> str:
    """What the performance ratings and norm checks add: the best wall of the runs with
    them against the best without (the jobs alternating); and, as the stages before the
    norms do the same work in both, the same from the time after the rating stage only
    (less noise)."""
    with_s = min(r["wall"] for r in withs)
    bare_s = min(r["wall"] for r in bares)
    added = with_s - bare_s
    post = min(_post(r) for r in withs) - min(_post(r) for r in bares)
    best = min(withs, key=_post)
    base = min(bares, key=_post)
    peak_with = max(max(r["peaks"].values()) for r in withs)
    peak_bare = max(max(r["peaks"].values()) for r in bares)
    verdict = "met" if max(added, post) <= 0.10 * bare_s else "MISSED"
    return (
        f"performance ratings and norm checks: the job {with_s:.2f} s against {bare_s:.2f} s "
        f"without them (best of {len(withs)} each, alternating, same run): {added:+.2f} s, "
        f"{100 * added / bare_s:+.1f} %; after the rating stage {post:+.2f} s, "
        f"{100 * post / bare_s:+.1f} % (the norms stage {best['timings'].get('norms', 0):.2f} s,"
        f" report {best['timings']['report']:.2f} s against {base['timings']['report']:.2f} s);"
        f" peak {peak_with / 1e6:.0f} MB against {peak_bare / 1e6:.0f} MB (the largest of each);"
        f" target <= 10 %: {verdict}"
    )


def main() -> None:
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory(prefix="elo-bench-period-") as tmp:
        folder = Path(tmp)
        started = time.perf_counter()
        # In a child of its own: this process stays small, so the measured child's peak
        # memory is its own (Linux carries the peak across fork and exec).
        subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys; from pathlib import Path; from bench.pipeline import _write_period; "
                "_write_period(Path(sys.argv[1]))",
                str(folder),
            ],
            check=True,
            cwd=root,
        )
        print(
            f"synthesized {EVENTS:,} events / {EVENTS * PLAYERS_PER_EVENT:,} player entries / "
            f"{EVENTS * PLAYERS_PER_EVENT * ROUNDS:,} game rows and a "
            f"{REGISTRY_PLAYERS:,}-player list in {time.perf_counter() - started:.1f} s",
            flush=True,
        )
        data = run_child(_CHILD, root, str(folder), "events")
        half = run_child(_CHILD, root, str(folder), "stripped")
        shared = run_child(_CHILD, root, str(folder), "events", "2")  # with a worker
        # the job without performance ratings and norm checks (issue 22's baseline) and
        # with them, twice each, alternating: the best of each two compared
        without = {"ELO_BENCH_WITHOUT_NORMS": "1"}
        bares: list[dict[str, Any]] = []
        withs = [data]
        for i in range(PAIRS):
            bares.append(run_child(_CHILD, root, str(folder), "events", env=without))
            if i < PAIRS - 1:
                withs.append(run_child(_CHILD, root, str(folder), "events", env=_SHORT))
    print(f"exit code {data['exit']}; {data['game_rows']:,} game rows, {data['players']:,} players")
    print(f"{'':<10} {'all FIDE IDs':>17}   {'half stripped':>17}")
    print(f"{'stage':<10} {'seconds':>8} {'peak MB':>8}   {'seconds':>8} {'peak MB':>8}")
    for stage in dict.fromkeys([*data["timings"], *half["timings"]]):
        cells = []
        for run in (data, half):
            seconds = run["timings"].get(stage, float("nan"))
            peak = run["peaks"].get(stage)
            cells.append(f"{seconds:8.2f} {peak / 1e6 if peak else float('nan'):8.0f}")
        print(f"{stage:<10} {cells[0]}   {cells[1]}")
    peak_all = max(data["peaks"].values()) if data["peaks"] else 0
    peak_half = max(half["peaks"].values()) if half["peaks"] else 0
    print(
        f"{'total':<10} {data['wall']:8.2f} {peak_all / 1e6:8.0f}   "
        f"{half['wall']:8.2f} {peak_half / 1e6:8.0f}"
    )
    print(
        f"the same job with --jobs 2 (a worker process reading part of the files): ingest "
        f"{shared['timings']['ingest']:.2f} s against {data['timings']['ingest']:.2f} s, "
        f"total {shared['wall']:.2f} s against {data['wall']:.2f} s; the worker peaked at "
        f"{shared['workers_peak'] / 1e6:.0f} MB"
    )
    ids = half["identities"]
    same = sum(half["changes"].get(k) == v for k, v in data["changes"].items())
    print(
        f"half stripped: {ids.get('registry-name', 0):,} entries linked by name, "
        f"{ids.get('ambiguous', 0):,} ambiguous, {ids.get('unmatched', 0):,} unmatched; "
        f"{same:,} of {len(data['changes']):,} rated players with the same change; "
        f"{half['wall'] - data['wall']:+.2f} s, {(peak_half - peak_all) / 1e6:+.0f} MB"
    )
    print(_norms_line(withs, bares))
    rate_s = data["timings"]["rate"]
    warm_s = data["warm_rate_s"]
    loop_s = data["loop_s"]
    rows = data["rated_rows"]
    print(
        f"rating stage {rate_s:.2f} s in the job, {warm_s:.2f} s run again warm (best of 3); "
        f"the same stage as a plain per-game Python loop {loop_s:.2f} s (best of 2); ratio "
        f"{loop_s / rate_s:.1f}x in the job, {loop_s / warm_s:.1f}x warm ({rows:,} rated game "
        f"rows); same changes: {data['agree']}"
    )
    print(
        f"targets: total <= 12 s {'met' if data['wall'] <= 12 else 'MISSED'}; "
        f"peak <= 1.3 GB {'met' if peak_all <= 1.3e9 else 'MISSED'}; "
        f"validation <= 2 s {'met' if data['timings'].get('validate', 99) <= 2 else 'MISSED'}; "
        f"rating >= 10x loop {'met' if loop_s / rate_s >= 10 else 'MISSED'} in the job, "
        f"{'met' if loop_s / warm_s >= 10 else 'MISSED'} warm"
    )


if __name__ == "__main__":
    main()
