"""--events on validate, run, explain and convert: the officer's decisions about events
applied before validation, each shown as an adjustment (console, Checks sheet,
summary.json), a late report moving an event to the next period (also in a chain), an
event type decided for the title-norm checks (the rating unchanged), and a bad decision
file refused at its line and column."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import openpyxl
import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from tests.conftest import ROOT

OPEN = ROOT / "tests" / "validate" / "data" / "valid_open.trf"  # 2025-04-12 .. 2025-04-13
ALPHA = "90000011"  # Lindqvist, Astrid: plays every round of valid_open.trf


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def decisions(folder: Path, text: str) -> Path:
    path = folder / "events.csv"
    path.write_text(text, encoding="utf-8")
    return path


def event_files(folder: Path) -> tuple[Path, Path]:
    """valid_open.trf (period 2025-04) and the same event a month later (2025-05)."""
    april = folder / "events" / "april" / "open.trf"
    may = folder / "events" / "may" / "open.trf"
    for path in (april, may):
        path.parent.mkdir(parents=True)
    text = OPEN.read_text(encoding="utf-8")
    april.write_text(text, encoding="utf-8")
    may.write_text(
        text.replace("2025/04/12", "2025/05/10")
        .replace("2025/04/13", "2025/05/11")
        .replace("Riverside Spring Open", "Riverside May Open"),
        encoding="utf-8",
    )
    return april, may


def test_validate_shows_each_decision_and_the_list_it_gives(tmp_path: Path) -> None:
    path = decisions(tmp_path, "file;list;end_date\nvalid_open.trf;rapid;2025-04-14\n")
    code, out, err = invoke("validate", str(OPEN), "--events", str(path))
    assert code == 0, err
    assert err.splitlines() == [
        f"{OPEN}: warning: end_date 2025-04-14 (the file's: 2025-04-13); list rapid (the "
        f"file's: standard), as decided in {path} line 2 [event-decision]",
        # the decision is applied, and the event checked as a rapid one
        f"{OPEN}: warning: rapid time control: expected more than 10 and less than 60 "
        "minutes for 60 moves (base time plus 60 increments), got 120 from '90 min + 30 "
        "sec/move' (Laws of Chess A.1) [rapid-time-control]",
    ]
    assert out.splitlines()[0] == (
        f"{OPEN}: TRF26, 6 players, 3 rounds, rapid list (decision: decided in {path} line 2)"
    )


def test_validate_names_the_list_and_why_without_decisions() -> None:
    code, out, _ = invoke("validate", str(OPEN))
    assert code == 0
    assert out.splitlines()[0] == (
        f"{OPEN}: TRF26, 6 players, 3 rounds, standard list (time control: "
        f"{_described('90 min + 30 sec/move')} (TRF 122))"
    )


def _described(text: str) -> str:
    from pipeline.formats.timecontrol import read_time_control

    return read_time_control(text).describe()


def test_run_rates_a_late_report_in_the_next_period(tmp_path: Path) -> None:
    path = decisions(tmp_path, "file,period\nvalid_open.trf,2025-05\n")
    out = tmp_path / "out"
    code, _, err = invoke("run", str(OPEN), "--events", str(path), "--out", str(out), "-q")
    assert code == 0, err
    assert f"{OPEN}: warning: period 2025-05 (the file's: 2025-04), as decided in {path} " in err
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["period"] == "2025-05"
    assert summary["adjustments"] == [
        {
            "file": str(OPEN),
            "event": "Riverside Spring Open",
            "field": "period",
            "value": "2025-05",
            "before": "2025-04",
            "decisions_file": str(path),
            "line": 2,
        }
    ]
    (event,) = summary["events"]
    assert (event["list"], event["list_basis"]) == ("standard", "time control")
    checks = openpyxl.load_workbook(out / "report.xlsx", read_only=True)["Checks"]
    kinds = {row[0]: row[4] for row in checks.iter_rows(min_row=2, values_only=True)}
    assert kinds.get("adjustment") == "event-decision"


def test_run_without_the_decision_rates_the_events_own_period(tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, _, err = invoke("run", str(OPEN), "--out", str(out), "-q")
    assert code == 0, err
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert (summary["period"], summary["adjustments"]) == ("2025-04", [])


def test_a_period_option_takes_the_moved_event(tmp_path: Path) -> None:
    april, _ = event_files(tmp_path)
    path = decisions(tmp_path, "file,period\napril/open.trf,2025-05\n")
    out = tmp_path / "out"
    code, _, err = invoke(
        "run", str(april.parent.parent), "--period", "2025-05", "--events", str(path),
        "--out", str(out), "-q",
    )  # fmt: skip
    assert code == 0, err
    assert "[other-period]" not in err
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["counts"]["events"] == 2
    with (out / "ratings.csv").open(encoding="utf-8") as handle:
        alpha = next(r for r in csv.DictReader(handle) if r["fide_id"] == ALPHA)
    assert alpha["games"] == "6"  # three games in each event, one period


def test_a_chain_moves_the_event_to_the_decided_month(tmp_path: Path) -> None:
    april, _ = event_files(tmp_path)
    folder = april.parent.parent
    out = tmp_path / "chain"
    code, _, err = invoke("run", str(folder), "--chain", "--out", str(out), "-q")
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == ["2025-04", "2025-05"]
    path = decisions(tmp_path, "file,period\napril/open.trf,2025-05\n")
    moved = tmp_path / "moved"
    code, _, err = invoke(
        "run", str(folder), "--chain", "--events", str(path), "--out", str(moved), "-q"
    )
    assert code == 0, err
    assert sorted(p.name for p in moved.iterdir() if p.is_dir()) == ["2025-05"]
    summary = json.loads((moved / "2025-05" / "summary.json").read_text(encoding="utf-8"))
    assert summary["counts"]["events"] == 2
    assert [a["field"] for a in summary["adjustments"]] == ["period"]


def test_a_bad_decision_file_rejects_the_run_at_its_lines(tmp_path: Path) -> None:
    path = decisions(
        tmp_path,
        "file,period,list\nvalid_open.trf,2025-03,\nvalid_open.trf,,classic\nother.trf,,blitz\n",
    )
    out = tmp_path / "out"
    code, _, err = invoke("run", str(OPEN), "--events", str(path), "--out", str(out), "-q")
    assert code == 1
    assert err.splitlines() == [
        f"{path}:3:list: expected standard, rapid or blitz, got 'classic' [bad-event-decision]"
    ]
    assert sorted(p.name for p in out.iterdir()) == ["errors.txt", "summary.json"]
    path.write_text("file,period\nvalid_open.trf,2025-03\nother.trf,2025-05\n", encoding="utf-8")
    code, _, err = invoke("run", str(OPEN), "--events", str(path), "--out", str(out), "-q")
    assert code == 1
    assert err.splitlines() == [
        f"{path}:2: expected a period on or after 2025-04 for {OPEN}, which ends 2025-04-13 (an "
        "event is rated in the period it ends or later, when its report is late), got 2025-03 "
        "[event-decision-conflict]",
        f"{path}:3: warning: expected the row to name an event of these files, got none: file "
        "'other.trf' [event-decision-unused]",
    ]


def test_a_decision_file_that_is_a_folder_is_a_usage_error(tmp_path: Path) -> None:
    code, _, err = invoke("validate", str(OPEN), "--events", str(tmp_path))
    assert code == 2
    assert err == f"elo: error: --events: expected a CSV file, got the folder {tmp_path}\n"


def test_explain_and_convert_take_the_decisions(tmp_path: Path) -> None:
    path = decisions(tmp_path, "file,start_date,end_date\nvalid_open.trf,2025-04-19,2025-04-20\n")
    code, out, err = invoke("explain", str(OPEN), "--player", ALPHA, "--events", str(path))
    assert code == 0, err
    assert "[event-decision]" not in out
    folder = tmp_path / "trf"
    code, _, err = invoke(
        "convert", str(OPEN), "--to", "trf26", "--out", str(folder), "--events", str(path)
    )
    assert code == 0, err
    (written,) = folder.iterdir()
    lines = written.read_text(encoding="utf-8").splitlines()
    assert "042 2025/04/19" in lines
    assert "052 2025/04/20" in lines


def test_the_readme_transcript(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    block = doc.split("$ cat events.csv\n", 1)[1].split("```", 1)[0]
    csv_text, rest = block.split("$ elo ", 1)
    command, *expected = rest.strip("\n").splitlines()
    (tmp_path / "events.csv").write_text(csv_text, encoding="utf-8")
    args = command.split()
    args[args.index("--events") + 1] = str(tmp_path / "events.csv")
    monkeypatch.chdir(ROOT)
    code, out, err = invoke(*args)
    assert code == 0
    shown = (err + out).replace(str(tmp_path / "events.csv"), "events.csv")
    assert shown.splitlines() == expected


SAMPLE_EVENTS = ROOT / "samples" / "events"
SAMPLE_REGISTRY = ROOT / "samples" / "registry" / "players_list_foa.txt"
TYPES = (
    "file,event_type\n2026-11-blitz-roundrobin.csv,Round robin\n2026-11-standard-open.trf,swiss\n"
)


def test_validate_shows_each_event_type_decided(tmp_path: Path) -> None:
    path = decisions(tmp_path, TYPES)
    code, _, err = invoke("validate", str(SAMPLE_EVENTS), "--events", str(path))
    assert code == 0, err
    assert err.splitlines() == [
        f"{SAMPLE_EVENTS / '2026-11-blitz-roundrobin.csv'}: warning: event_type round-robin, "
        f"as decided in {path} line 2 [event-decision]",
        f"{SAMPLE_EVENTS / '2026-11-standard-open.trf'}: warning: event_type swiss, as "
        f"decided in {path} line 3 [event-decision]",
    ]


def test_run_reports_the_event_types_and_rates_as_without_them(tmp_path: Path) -> None:
    path = decisions(tmp_path, TYPES)
    plain, typed = tmp_path / "plain", tmp_path / "typed"
    for out, extra in ((plain, ()), (typed, ("--events", str(path)))):
        code, _, err = invoke(
            "run", str(SAMPLE_EVENTS), "--registry", str(SAMPLE_REGISTRY), *extra,
            "--out", str(out), "-q",
        )  # fmt: skip
        assert code == 0, err
    summary = json.loads((typed / "summary.json").read_text(encoding="utf-8"))
    assert [(a["file"], a["event"], a["field"], a["value"], a["before"], a["line"])
            for a in summary["adjustments"]] == [
        (str(SAMPLE_EVENTS / "2026-11-blitz-roundrobin.csv"), "Riverside Friday Blitz 2026",
         "event_type", "round-robin", None, 2),
        (str(SAMPLE_EVENTS / "2026-11-standard-open.trf"), "Havenwijk Autumn Open 2026",
         "event_type", "swiss", None, 3),
    ]  # fmt: skip
    checks = openpyxl.load_workbook(typed / "report.xlsx", read_only=True)["Checks"]
    codes = [
        row[4] for row in checks.iter_rows(min_row=2, values_only=True) if row[0] == "adjustment"
    ]
    assert codes == ["event-decision", "event-decision"]
    # an event's type is for the title-norm checks: the rating is the same
    for name in ("ratings.csv", "games.csv"):
        assert (typed / name).read_bytes() == (plain / name).read_bytes(), name


def test_a_bad_event_type_rejects_validate_at_its_line_and_column(tmp_path: Path) -> None:
    path = decisions(tmp_path, "file;list;event_type\nvalid_open.trf;rapid;open\n")
    code, _, err = invoke("validate", str(OPEN), "--events", str(path))
    assert code == 1
    assert err.splitlines() == [
        f"{path}:2:event_type: expected an event type (swiss, round-robin, double-round-robin, "
        "knockout, national-championship, national-team-championship, zonal, team-championship, "
        "world-cup), got 'open' [bad-event-decision]"
    ]
