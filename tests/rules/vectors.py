"""Load the cited test vectors of tests/vectors/*.csv (lines starting with '#' are the
source citation and are skipped)."""

from __future__ import annotations

import csv
from pathlib import Path

VECTORS = Path(__file__).resolve().parent.parent / "vectors"


def load_vectors(name: str) -> list[dict[str, str]]:
    with (VECTORS / name).open(encoding="utf-8", newline="") as fh:
        lines = [line for line in fh if not line.startswith("#")]
    return list(csv.DictReader(lines))


def source_of(name: str) -> str:
    """The `# Source:` line of a vector file."""
    with (VECTORS / name).open(encoding="utf-8") as fh:
        first = fh.readline()
    return first.removeprefix("# Source:").strip()


def opt_int(text: str) -> int | None:
    return int(text) if text.strip() else None
