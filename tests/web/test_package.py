"""elo serve's templates and static assets ship in the package (pyproject's package-data):
every file of the two folders is matched by a pattern, so a wheel carries them."""

from __future__ import annotations

import tomllib
from pathlib import Path

from tests.conftest import ROOT

WEB = ROOT / "pipeline" / "web"


def test_every_template_and_asset_is_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["pipeline.web"]
    files = [p for folder in ("templates", "static") for p in (WEB / folder).iterdir()]
    assert files
    missing = [
        str(p.relative_to(WEB))
        for p in files
        if not any(Path(p.relative_to(WEB)).match(pattern) for pattern in patterns)
    ]
    assert missing == []


def test_no_page_loads_anything_from_another_site() -> None:
    """Offline: no CDN, no web font; every address in a page or asset is the server's."""
    for path in [*(WEB / "templates").iterdir(), *(WEB / "static").iterdir()]:
        text = path.read_text(encoding="utf-8")
        assert "http://" not in text, path.name
        assert "https://" not in text, path.name
