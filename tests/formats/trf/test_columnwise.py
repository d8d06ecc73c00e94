"""The TRF reader's column-wise reading of the round slots against the slot-by-slot one
(`trf._games_columnwise` / `trf._games_one_by_one`): the same games frame for every TRF
file the project has, and, for slots damaged at random, either the same frame or the
column-wise path standing aside so that the slot-by-slot one words the problems."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from polars.testing import assert_frame_equal

import pipeline.formats.trf.read as trf
from pipeline.errors import InputError
from pipeline.formats.text import decode_bytes
from pipeline.ingest.detect import find_inputs
from tests.conftest import FIXTURES, ROOT, SAMPLES

FILES = sorted(
    p
    for p in find_inputs([FIXTURES / "real", SAMPLES, ROOT / "tests" / "validate" / "data"]).events
    if p.suffix.lower() == ".trf"
)
DAMAGE = " 0123456789wbWB-+=DLFHUZXx*\t#"


def read_both(text: str, file: str, monkeypatch: pytest.MonkeyPatch) -> tuple[object, object]:
    def outcome() -> object:
        try:
            ev = trf.read_trf(text, file)
        except InputError as exc:
            return [str(p) for p in exc.problems]
        return ev

    fast = outcome()
    with monkeypatch.context() as m:
        m.setattr(trf, "_games_columnwise", lambda *args: None)
        slow = outcome()
    return fast, slow


def same(fast: object, slow: object) -> None:
    if isinstance(slow, list):
        assert fast == slow
        return
    assert not isinstance(fast, list)
    assert_frame_equal(fast.games, slow.games)  # type: ignore[attr-defined]
    assert fast.problems == slow.problems  # type: ignore[attr-defined]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_trf_file_reads_the_same_column_wise(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    same(*read_both(decode_bytes(path.read_bytes()), str(path), monkeypatch))


def test_damaged_slots_read_the_same_or_fall_back(monkeypatch: pytest.MonkeyPatch) -> None:
    base = (SAMPLES / "events" / "2026-11-standard-open.trf").read_text(encoding="utf-8")
    lines = base.splitlines()
    players = [i for i, line in enumerate(lines) if line.startswith("001")]
    rng = random.Random(20261201)
    for _ in range(150):
        damaged = list(lines)
        for _ in range(rng.randint(1, 3)):
            i = rng.choice(players)
            line = damaged[i]
            at = rng.randrange(91, len(line) + 2)
            ch = rng.choice(DAMAGE)
            damaged[i] = (line[:at] + ch + line[at + 1 :]) if at < len(line) else line + ch
        same(*read_both("\n".join(damaged) + "\n", "damaged.trf", monkeypatch))
