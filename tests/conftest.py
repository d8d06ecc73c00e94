"""Shared fixtures. `shared_data` points at the reference files kept beside the project;
tests that use it skip cleanly when a clone has no such folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Timing-based checks only add flakiness on a loaded 2-core CI machine: no deadline, and
# no "too slow" health check (slow generation is measured by the benchmarks instead).
settings.register_profile(
    "project", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("project")

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
SHARED = ROOT.parent / "shared"


@pytest.fixture
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.skip("the shared reference folder is not beside this clone")
    return SHARED


@pytest.fixture(autouse=True)
def _no_real_profile(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No test reads or writes the real user's `elo profile`: ELO_CONFIG_DIR points at an
    empty folder of its own (tests of the profile set their own)."""
    monkeypatch.setenv("ELO_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))


@pytest.fixture(autouse=True)
def _english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """Outputs are English unless a test asks for --lang or sets a locale: a developer's
    own LC_ALL / LC_MESSAGES / LANG (pipeline.i18n) must not change what tests see."""
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
