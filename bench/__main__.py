"""`make bench`: every benchmark of the project, one after another, each in a process of
its own (so that one's memory does not show in the next one's peak figures)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCHES = ["engine", "single", "registry", "pipeline", "chain", "serve"]


def main(argv: list[str]) -> int:
    wanted = argv or BENCHES
    unknown = [name for name in wanted if name not in BENCHES]
    if unknown:
        print(f"unknown benchmark {unknown[0]!r}; choose from {', '.join(BENCHES)}")
        return 2
    root = Path(__file__).resolve().parent.parent
    for name in wanted:
        print(f"== {name} ==", flush=True)
        code = f"import bench.{name} as b; b.main()"
        done = subprocess.run([sys.executable, "-c", code], cwd=root, check=False)
        if done.returncode != 0:
            return done.returncode
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
