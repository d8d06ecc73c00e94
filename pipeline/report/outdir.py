"""An output folder replaced as a whole: a run writes into a staging folder beside
`--out` and, once everything is written, the staging folder takes the place of what the
previous run wrote. A run that fails leaves the previous outputs as they were; a rerun
never mixes its files with an earlier run's (a chain that now has fewer periods leaves
no stale period folder behind).

What a run wrote is listed in its summary.json (`outputs`). When the folder holds
nothing else, it is swapped for the staging folder by two renames. When it also holds
files of the user's (say `--out .`), only the entries of the earlier run are removed and
the new ones moved in, one rename each; the user's files are never touched.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

SUMMARY = "summary.json"
# what runs wrote before the manifest existed
_KNOWN = {
    "report.xlsx",
    "ratings.csv",
    "games.csv",
    "identities.csv",
    "summary.json",
    "errors.txt",
    "players_list.csv",
    "pending.csv",
    "history.csv",
}
_PERIOD_DIR = re.compile(r"\d{4}-\d{2}")


def _earlier(out_dir: Path) -> set[str]:
    """The entries of `out_dir` an earlier run wrote: its summary's `outputs`, and what
    runs wrote before summaries listed them."""
    found = {p.name for p in out_dir.iterdir() if p.name in _KNOWN}
    found |= {
        p.name
        for p in out_dir.iterdir()
        if p.is_dir() and _PERIOD_DIR.fullmatch(p.name) and (p / SUMMARY).is_file()
    }
    try:
        listed = json.loads((out_dir / SUMMARY).read_text("utf-8")).get("outputs", [])
    except (OSError, ValueError, AttributeError):
        listed = []
    if isinstance(listed, list):
        found |= {n for n in listed if isinstance(n, str) and n and "/" not in n and n[0] != "."}
    return found


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        with suppress(FileNotFoundError):
            path.unlink()


def _commit(staging: Path, out_dir: Path) -> None:
    entries = sorted(p.name for p in staging.iterdir())
    if not out_dir.exists():
        os.replace(staging, out_dir)
        return
    earlier = _earlier(out_dir)
    present = {p.name for p in out_dir.iterdir()}
    if present <= earlier:
        old = out_dir.with_name(f".{out_dir.name}.old-{secrets.token_hex(4)}")
        os.replace(out_dir, old)
        os.replace(staging, out_dir)
        shutil.rmtree(old, ignore_errors=True)
        return
    for name in sorted(earlier & present):
        _remove(out_dir / name)
    for name in entries:
        target = out_dir / name
        if target.exists():
            _remove(target)
        os.replace(staging / name, target)
    shutil.rmtree(staging, ignore_errors=True)


@contextmanager
def staged(out_dir: Path) -> Iterator[Path]:
    """A fresh folder to write a run's outputs into; it becomes `out_dir` when the block
    ends normally, and is removed when the block raises."""
    out_dir = Path(out_dir).absolute()
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = out_dir.with_name(f".{out_dir.name}.partial-{secrets.token_hex(4)}")
    staging.mkdir()
    try:
        yield staging
        _commit(staging, out_dir)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)


__all__ = ["staged"]
