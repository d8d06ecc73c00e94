"""ratings.csv, games.csv, summary.json, write_outputs and the error report."""

from __future__ import annotations

import csv
import io
import json
from datetime import date
from pathlib import Path

import polars as pl
import pytest

from pipeline.errors import Location, Problem, Severity
from pipeline.report.tables import (
    error_report_text,
    summary_text,
    write_error_report,
    write_games_csv,
    write_outputs,
    write_ratings_csv,
    write_summary_json,
)
from pipeline.report.workbook import WorkbookOptions
from schemas.output import GAMES_COLUMNS, RATINGS_COLUMNS
from tests.report.sample import sample_games, sample_ratings, sample_result, with_names


def _rows(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_bytes().decode("utf-8"))))


def test_ratings_csv_has_exactly_the_contract_columns(tmp_path: Path) -> None:
    path = tmp_path / "ratings.csv"
    write_ratings_csv(path, sample_ratings())  # has extras: title, player_key
    rows = _rows(path)
    assert rows[0] == RATINGS_COLUMNS
    assert len(rows) == 1 + sample_ratings().height


def test_games_csv_has_exactly_the_contract_columns(tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    write_games_csv(path, sample_games())  # has extras: event_id, start_no, k, ...
    rows = _rows(path)
    assert rows[0] == GAMES_COLUMNS
    assert len(rows) == 1 + sample_games().height


def test_csv_value_formats(tmp_path: Path) -> None:
    """Design contract: empty for null, two decimals, true/false, UTF-8, LF."""
    path = tmp_path / "games.csv"
    write_games_csv(path, sample_games())
    data = path.read_bytes()
    assert not data.startswith(b"\xef\xbb\xbf")
    assert b"\r\n" not in data
    assert b'""' not in data  # an empty reason is an empty field, like null
    rows = [dict(zip(GAMES_COLUMNS, row, strict=True)) for row in _rows(path)[1:]]
    hahn_r1 = rows[1]
    assert hahn_r1["fide_id"] == ""
    assert hahn_r1["rating"] == ""
    assert hahn_r1["rated"] == "false"
    assert hahn_r1["reason"] == "player-unrated"
    dorn_r1 = rows[2]
    assert dorn_r1["result"] == "½"
    assert dorn_r1["score"] == "0.50"
    assert dorn_r1["expected"] == "0.82"
    assert dorn_r1["delta"] == "-0.32"
    assert dorn_r1["rated"] == "true"
    assert dorn_r1["reason"] == ""
    assert dorn_r1["difference"] == "260"


def test_csv_negative_zero_and_float_noise(tmp_path: Path) -> None:
    ratings = sample_ratings().with_columns(
        pl.Series("change_unrounded", [-0.0, 0.1 + 0.2, 9.2, None, 3.8000000000000003, -7.6])
    )
    path = tmp_path / "ratings.csv"
    write_ratings_csv(path, ratings)
    column = [row[RATINGS_COLUMNS.index("change_unrounded")] for row in _rows(path)[1:]]
    assert column == ["0.00", "0.30", "9.20", "", "3.80", "-7.60"]


def test_missing_contract_column_is_a_bug_not_a_silent_gap(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"missing \['status'\]"):
        write_ratings_csv(tmp_path / "r.csv", sample_ratings().drop("status"))
    assert not (tmp_path / "r.csv").exists()


def test_summary_json_key_order_and_values(tmp_path: Path) -> None:
    problem = Problem(Location("a.trf", 3, "92-95"), "bad-opponent", "expected 1..9, got 12")
    summary: dict[str, object] = {
        "timings": {"ingest": 0.25},
        "zeta": 1,
        "warnings": [problem],
        "status": "ok",
        "counts": {"events": 2},
        "exit_code": 0,
        "alpha": {"when": date(2025, 3, 1), "where": Path("out") / "x", "nan": float("nan")},
        "severity": Severity.WARNING,
    }
    path = tmp_path / "summary.json"
    write_summary_json(path, summary)
    loaded = json.loads(path.read_text(encoding="utf-8"))
    assert list(loaded) == [
        "status",
        "exit_code",
        "counts",
        "warnings",
        "timings",
        "zeta",
        "alpha",
        "severity",
    ]
    assert loaded["warnings"] == [
        {
            "file": "a.trf",
            "line": 3,
            "column": "92-95",
            "code": "bad-opponent",
            "message": "expected 1..9, got 12",
            "severity": "error",
        }
    ]
    assert loaded["alpha"] == {"when": "2025-03-01", "where": str(Path("out") / "x"), "nan": None}
    assert loaded["severity"] == "warning"
    assert summary_text(summary) == path.read_text(encoding="utf-8")


def test_summary_json_rejects_unknown_objects() -> None:
    with pytest.raises(TypeError, match="JSON-able"):
        summary_text({"frame": pl.DataFrame()})


def test_write_outputs_writes_the_five_files(tmp_path: Path) -> None:
    out = tmp_path / "reports"
    (out).mkdir()
    (out / "errors.txt").write_text("stale errors of an earlier rejected run")
    summary: dict[str, object] = {"status": "ok", "exit_code": 0, "timings": {"rate": 0.1}}
    written = write_outputs(sample_result(), out, summary=summary)
    names = ["ratings.csv", "games.csv", "performance.csv", "report.xlsx", "summary.json"]
    assert [p.name for p in written] == names
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in written)
    loaded = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert loaded["outputs"] == names
    assert "report_notes" not in loaded
    assert loaded["timings"]["rate"] == 0.1
    assert loaded["timings"]["report"] > 0
    assert summary == {"status": "ok", "exit_code": 0, "timings": {"rate": 0.1}}  # untouched


def test_write_outputs_reports_caps_in_summary(tmp_path: Path) -> None:
    written = write_outputs(
        sample_result(),
        tmp_path,
        summary={"status": "ok"},
        workbook=WorkbookOptions(games_row_cap=3),
    )
    loaded = json.loads(written[-1].read_text(encoding="utf-8"))
    assert [n["code"] for n in loaded["report_notes"]] == ["games-capped"]
    assert len(_rows(tmp_path / "games.csv")) == 1 + sample_games().height  # CSV: all rows


def test_write_outputs_unicode_names(tmp_path: Path) -> None:
    result = with_names(sample_result(), {"Berg, Anna": "Weiß, Zoë", "Fink, Eva": "Đặng, Thị"})
    write_outputs(result, tmp_path, summary={})
    text = (tmp_path / "ratings.csv").read_text(encoding="utf-8")
    assert "Weiß, Zoë" in text
    assert "Đặng, Thị" in text


def test_error_report(tmp_path: Path) -> None:
    problems = [
        Problem(Location("b.trf", 9, "92-95"), "bad-opponent", "expected 1..9, got 12"),
        Problem(
            Location("a.csv", 2, "Rtg"),
            "odd-rating",
            "expected 1000..3500, got 12",
            Severity.WARNING,
        ),
    ]
    path = write_error_report(tmp_path, problems, {"status": "rejected", "exit_code": 1})
    assert path == tmp_path / "errors.txt"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines == [
        "Input rejected: 1 error, 1 warning. Nothing was rated; fix the lines below and run again.",
        "a.csv:2:Rtg: warning: expected 1000..3500, got 12 [odd-rating]",
        "b.trf:9:92-95: expected 1..9, got 12 [bad-opponent]",
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["errors.txt", "summary.json"]
    loaded = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert loaded["status"] == "rejected"
    assert loaded["outputs"] == ["errors.txt", "summary.json"]


def test_error_report_without_summary_writes_only_errors_txt(tmp_path: Path) -> None:
    write_error_report(tmp_path / "new", [])
    assert [p.name for p in (tmp_path / "new").iterdir()] == ["errors.txt"]
    assert error_report_text([]).startswith("Input rejected: 0 errors, 0 warnings.")
