"""`make bench`: every benchmark of the project, one after another, in one run."""

from __future__ import annotations

import importlib
import sys

BENCHES = ["bench.engine", "bench.registry", "bench.pipeline"]


def main(argv: list[str]) -> None:
    wanted = argv or [b.rsplit(".", 1)[1] for b in BENCHES]
    for name in BENCHES:
        short = name.rsplit(".", 1)[1]
        if short not in wanted:
            continue
        module = importlib.import_module(name)
        print(f"== {short} ==", flush=True)
        module.main()


if __name__ == "__main__":
    main(sys.argv[1:])
