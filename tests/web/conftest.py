"""The app of `elo serve` in process (Starlette's TestClient)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from pipeline.web import ServeConfig, create_app
from tests.conftest import FIXTURES

KESHMAT = FIXTURES / "real" / "chessresults_keshmat_circuit_rapid_2025_04.xlsx"


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(ServeConfig(lang="en", max_upload_mb=2))) as test_client:
        yield test_client


def upload(*paths: Path) -> list[tuple[str, tuple[str, bytes]]]:
    return [("files", (path.name, path.read_bytes())) for path in paths]
