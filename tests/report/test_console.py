"""The console summary: headline, players per list, largest changes, problems, files."""

from __future__ import annotations

from pathlib import Path

from rich.console import Group

from pipeline.report.console import render_summary, summary_text
from tests.report.sample import sample_ratings


def _summary(**extra: object) -> dict[str, object]:
    base: dict[str, object] = {
        "status": "ok",
        "exit_code": 0,
        "counts": {
            "events": 2,
            "players": 6,
            "per_list": {
                "standard": {
                    "players": 4,
                    "rated_games": 3,
                    "rated": 3,
                    "initial": 0,
                    "unrated": 1,
                    "no-rated-games": 0,
                },
                "rapid": {
                    "players": 2,
                    "rated_games": 1,
                    "rated": 2,
                    "initial": 0,
                    "unrated": 0,
                    "no-rated-games": 0,
                },
            },
        },
        "errors": [],
        "warnings": [],
    }
    base.update(extra)
    return base


def test_a_chain_names_the_period_of_its_largest_changes() -> None:
    """A chain's rating result is its last period's: the movers' title says so."""
    periods = [{"period": "2026-10"}, {"period": "2026-11"}]
    text = summary_text(_summary(periods=periods), sample_ratings())
    assert "Largest gains and losses in 2026-11 (top 5)" in text
    spanish = summary_text(_summary(periods=periods), sample_ratings(), lang="es")
    assert "Mayores subidas y bajadas en 2026-11 (los 5 primeros)" in spanish


def test_render_returns_a_rich_group() -> None:
    assert isinstance(render_summary(_summary()), Group)


def test_headline_and_tables() -> None:
    text = summary_text(_summary(), sample_ratings(), written=[Path("reports/report.xlsx")])
    lines = text.splitlines()
    assert lines[0] == "OK (exit 0): 2 events rated, 6 players"
    assert "Players per rating list" in text
    assert any(line.split()[:4] == ["│", "standard", "│", "4"] for line in lines)
    assert "Largest gains and losses (top 5)" in text
    # gains first, largest first; then losses, largest first (fide-rules.md §4 sample)
    order = [name for name in ("+9", "+4", "-8", "-3", "-2") if name in text]
    assert order == ["+9", "+4", "-8", "-3", "-2"]
    assert text.index("+9") < text.index("+4") < text.index("-8") < text.index("-3")
    assert lines[-1] == "Wrote reports/report.xlsx"


def test_rejected_run() -> None:
    error = {"file": "a.trf", "line": 4, "column": "92-95", "code": "bad-opponent",
             "message": "expected 1..9, got 12", "severity": "error"}  # fmt: skip
    text = summary_text({"status": "rejected", "exit_code": 1, "errors": [error]})
    assert text.splitlines()[0] == "REJECTED (exit 1): input rejected, 1 error; nothing was rated"
    assert "a.trf:4:92-95: expected 1..9, got 12 [bad-opponent]" in text


def test_many_warnings_are_truncated() -> None:
    warnings = [
        {"file": "a.trf", "line": i, "column": None, "code": "w", "message": f"m{i}"}
        for i in range(1, 15)
    ]
    text = summary_text(_summary(warnings=warnings))
    assert "14 warnings:" in text
    assert "a.trf:10: m10 [w]" in text
    assert "a.trf:11:" not in text
    assert "... and 4 more (Checks sheet of report.xlsx)" in text


def test_partial_run_names_skipped_files() -> None:
    text = summary_text(
        _summary(status="partial", exit_code=1, invalid_files=["bad.trf"], errors=[{}, {}])
    )
    assert text.splitlines()[0] == (
        "PARTIAL (exit 1): 2 events rated, 6 players; 1 file skipped (2 errors)"
    )
