"""`elo serve`: its options checked before anything listens (exit 2, one line), and the
server started with them (uvicorn.run, replaced here: the tests listen nowhere)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.web import ServeConfig

runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--port", "0"], "elo: error: --port: expected a port 1..65535, got 0"),
        (["--port", "x"], "elo: error: --port: expected a whole number, got 'x'"),
        (["--max-upload-mb", "0"], "elo: error: --max-upload-mb: expected a size above 0, got 0"),
        (["--keep-minutes", "0"], "elo: error: --keep-minutes: expected minutes above 0, got 0"),
        (["--lang", "fr"], "elo: error: --lang: expected one of en, es, it, got 'fr'"),
        (["--registry", "nowhere.txt"], "elo: error: --registry: no such file nowhere.txt"),
    ],
)
def test_bad_option_is_a_usage_error(args: list[str], message: str) -> None:
    done = runner.invoke(app, ["serve", *args])
    assert done.exit_code == 2
    assert done.output.strip().splitlines()[-1] == message


def test_serve_starts_uvicorn_with_the_options(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seen: dict[str, Any] = {}

    def run(application: Any, **kwargs: Any) -> None:
        seen.update(kwargs, config=application.state.config)

    monkeypatch.setattr("uvicorn.run", run)
    registry = tmp_path / "list.txt"
    registry.write_text("ID Number\n", encoding="utf-8")
    args = ["serve", "--no-open", "--port", "8123", "--lang", "it", "--registry", str(registry),
            "--max-upload-mb", "5", "--keep-minutes", "15"]  # fmt: skip
    done = runner.invoke(app, args)
    assert done.exit_code == 0, done.output
    assert done.output == "elo serve: http://127.0.0.1:8123/calc (Ctrl+C stops)\n"
    assert seen["host"] == "127.0.0.1"
    assert seen["port"] == 8123
    assert seen["config"] == ServeConfig(
        registry=registry, lang="it", max_upload_mb=5.0, keep_minutes=15.0
    )


def test_serve_warns_when_open_to_the_network(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("uvicorn.run", lambda application, **kwargs: None)
    done = runner.invoke(app, ["serve", "--no-open", "--host", "0.0.0.0"])
    assert done.exit_code == 0
    assert "warning: listening on 0.0.0.0: anyone who can reach this computer" in done.output
