"""Shared fixtures. `shared_data` points at the reference files kept beside the project;
tests that use it skip cleanly when a clone has no such folder."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
SHARED = ROOT.parent / "shared"


@pytest.fixture
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.skip("the shared reference folder is not beside this clone")
    return SHARED
