"""Fuzz over the layouts of real exports: mutations of the real files of
tests/fixtures/real (crosstables as XLSX and CSV, TRF files of other programs, CR-only
and CRLF line ends) and of the starting-rank, in-progress and round-robin layouts of
test_crosstable_layouts. As in test_fuzz: only `InputError`, never a traceback. The quick
test runs 300 mutations; `make test-slow` runs 5,000.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import FIXTURES
from tests.formats.crosstable.test_layouts import IN_PROGRESS, START_ORDER, robin_workbook
from tests.ingest.test_fuzz import Base, fuzz

REAL = FIXTURES / "real"


def real_bases() -> list[Base]:
    names = [
        "chessresults_keshmat_circuit_rapid_2025_04.xlsx",
        "chessresults_keshmat_circuit_rapid_2025_04_libreoffice_semicolon.csv",
        "chessresults_keshmat_circuit_rapid_2025_04_libreoffice_comma.csv",
        "trf_lichess_swiss_j8rtj5gl_bullet_2020.trf",
        "trf_bbppairings_autotest_issue7_cr_line_endings.trf",
        "trf_tiebreakserver_swiss_many_unplayed_rounds.trf",
        "trf26_tiebreakserver_no_colour_preference.trf",
    ]
    bases = [Base(name, (REAL / name).read_bytes()) for name in names]
    bases += [
        Base("starting_rank.csv", START_ORDER.encode("utf-8")),
        Base("in_progress.csv", IN_PROGRESS.encode("utf-8")),
        Base("robin.xlsx", robin_workbook()),
    ]
    return bases


def test_fuzz_real_quick(tmp_path: Path) -> None:
    outcome = fuzz(300, tmp_path, real_bases())
    assert sum(outcome.values()) == 300
    assert len(outcome) == len(real_bases())


@pytest.mark.slow
def test_fuzz_real_many(tmp_path: Path) -> None:
    outcome = fuzz(5_000, tmp_path, real_bases())
    assert sum(outcome.values()) == 5_000
