"""Benchmark: the arbiter's run, `elo run` on one 300-player event, against the floor
of starting the interpreter and importing what that run imports.

The event is a TRF16 file of 300 players and 9 rounds (2,700 game rows) with every
player's FIDE ID and rating in the file, rated without a list, with the full outputs
(CSVs, report.xlsx, summary.json). The floor is a fresh interpreter importing exactly the
modules the run had loaded when it finished (recorded from a first run), so the ratio is
the work of the run itself over what any Python tool using the same libraries pays at
start. Each is timed as a child process, best of 5.

Target: the run <= 2x the floor.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.pipeline import Pooled, _event_text

PLAYERS = 300
ROUNDS = 9
REPEATS = 5

# In the child: the run through the CLI's entry point, then the modules it loaded.
_RUN = """
import json, sys
from pipeline.cli import main
sys.argv = ["elo", *sys.argv[1:]]
try:
    main()
except SystemExit as done:
    if done.code not in (0, None):
        raise
finally:
    mods = sorted(m for m in sys.modules if not m.startswith("__"))
    with open(sys.argv[-1] + ".modules.json", "w") as f:
        json.dump(mods, f)
"""

_FLOOR = """
import importlib, json, sys
for name in json.load(open(sys.argv[1])):
    try:
        importlib.import_module(name)
    except Exception:
        pass
"""


def _event(folder: Path) -> Path:
    rng = random.Random(300)
    players: list[Pooled] = [
        (10_000_000 + i, f"Player{i:03d}, Test", rng.randint(1400, 2600), "ENG", 1990, "m", "")
        for i in range(PLAYERS)
    ]
    players.sort(key=lambda p: -p[2])
    import bench.pipeline as bp

    saved = bp.ROUNDS
    bp.ROUNDS = ROUNDS
    try:
        text = _event_text(rng, 1, players)
    finally:
        bp.ROUNDS = saved
    path = folder / "open.trf"
    path.write_text(text, encoding="utf-8")
    return path


def _best(command: list[str], cwd: Path) -> float:
    best = float("inf")
    for _ in range(REPEATS):
        started = time.perf_counter()
        subprocess.run(command, check=True, cwd=cwd, capture_output=True)
        best = min(best, time.perf_counter() - started)
    return best


def main() -> None:
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory(prefix="elo-bench-single-") as tmp:
        folder = Path(tmp)
        event = _event(folder)
        out = folder / "out"
        run = [sys.executable, "-c", _RUN, "run", str(event), "--out", str(out)]
        run_s = _best(run, root)
        modules = Path(str(out) + ".modules.json")
        loaded = json.loads(modules.read_text())
        floor_s = _best([sys.executable, "-c", _FLOOR, str(modules)], root)
        bare_s = _best([sys.executable, "-c", "pass"], root)
        summary = json.loads((out / "summary.json").read_text())
    print(
        f"one event: {PLAYERS} players, {ROUNDS} rounds, "
        f"{summary['counts']['rated_game_rows']:,} rated game rows; best of {REPEATS}"
    )
    print(f"elo run (all outputs)                    {run_s:6.2f} s")
    print(f"floor: interpreter + its {len(loaded):,} modules {floor_s:6.2f} s")
    print(f"bare interpreter                          {bare_s:6.2f} s")
    ratio = run_s / floor_s
    print(f"ratio {ratio:.2f}x the floor; target <= 2x {'met' if ratio <= 2 else 'MISSED'}")


if __name__ == "__main__":
    main()
