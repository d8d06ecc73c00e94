"""`elo norms` and the norms `elo run` writes (norms.csv, the Norms sheet), through the
readers: a ten-player round-robin TRF built on the title regulations' own example (B.01
0.5: 7 of 9 against an average of 2380 is a GM performance, Rp 2600), the sample period
and every real file."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from typer.testing import CliRunner

from pipeline.cli import app
from schemas.output import NORMS_COLUMNS
from tests.conftest import SAMPLES
from tests.norms.norm_frames import Opp
from tests.norms.round_robin_trf import round_robin_trf
from tests.norms.test_checks import e1
from tests.test_real_files import real_files

runner = CliRunner()
REGISTRY = SAMPLES / "registry" / "players_list_foa.txt"


def trf(tmp_path: Path, rounds: list[Opp], **kwargs: Any) -> Path:
    path = tmp_path / "rr.trf"
    path.write_text(round_robin_trf(rounds, **kwargs), encoding="utf-8")
    return path


def norms_json(*args: str) -> list[dict[str, Any]]:
    result = runner.invoke(app, ["norms", *args, "--json"])
    assert result.exit_code == 0, result.output
    records: list[dict[str, Any]] = json.loads(result.stdout)
    return records


def applicant(records: list[dict[str, Any]]) -> dict[str, Any]:
    (found,) = [r for r in records if r["start_no"] == 1]
    return found


def test_the_handbook_example_is_a_gm_norm_through_the_trf_reader(tmp_path: Path) -> None:
    """B.01 0.5: 7/9 against 2380 -> 78 %, dp 220, Rp 2600; with three GMs, three IMs, an
    FM and five federations other than the applicant's, the GM norm is met, and the IM
    norm with it (1.5.2: one result may serve two titles)."""
    record = applicant(norms_json(str(trf(tmp_path, e1(7)))))
    assert (record["games"], record["score"]) == (9, 7)
    gm = record["norms"]["GM"]
    assert (gm["verdict"], gm["ra"], gm["rp"], gm["score_required"]) == ("met", 2380, 2600, 7)
    assert gm["floor_applied"] is False
    assert gm["failing"] == []
    assert gm["missing"] == []
    checks = {c["rule"]: c for c in gm["checks"]}
    assert all(c["ok"] for c in checks.values())
    assert (checks["target-titles"]["counted"], checks["target-titles"]["required"]) == (3, 3)
    assert checks["time-control"]["counted"] == 120  # 90 min + 30 s x 60 moves
    assert record["norms"]["IM"]["verdict"] == "met"
    assert set(record["norms"]) == {"GM", "IM"}  # a man: no WGM/WIM row (0.5)


def test_six_and_a_half_is_a_performance_short_of_the_gm_norm(tmp_path: Path) -> None:
    """B.01 0.5 (2017 text): 6.5/9 -> 72 %, dp 166, Rp 2546: no GM norm; 7 required."""
    path = trf(tmp_path, e1(6.5))
    gm = applicant(norms_json(str(path)))["norms"]["GM"]
    assert (gm["verdict"], gm["rp"], gm["failing"], gm["score_required"]) == (
        "not met", 2546, ["performance"], 7,
    )  # fmt: skip
    result = runner.invoke(app, ["norms", str(path), "--titles", "gm"])
    assert result.exit_code == 0, result.output
    assert "Applicant, Ann" not in result.stdout  # Rp 54 below: not within reach
    assert "0 met" in result.stdout


def test_the_table_names_the_norm_met_and_the_conditions_missed(tmp_path: Path) -> None:
    path = trf(tmp_path, e1(7))
    result = runner.invoke(app, ["norms", str(path)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "Norm Round Robin 2026" in lines
    met = [ln for ln in lines if "Applicant, Ann (90000001)" in ln]
    assert [ln.split()[3:5] for ln in met] == [["GM", "met"], ["IM", "met"]]
    assert "Rp 2600 (needs 2600)" in met[0]
    # the same games under a 60-minute time control: a GM performance, not a norm (1.1.3)
    fast = trf(tmp_path, e1(7), time_control="3600")
    result = runner.invoke(app, ["norms", str(fast), "--titles", "GM"])
    text = result.stdout
    assert "not met" in text
    assert "time-control 60 < 120 (1.1.3)" in text
    assert "1 made a norm's performance but not its conditions" in text


def test_elo_run_writes_norms_csv_and_the_norms_sheet(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = runner.invoke(app, ["run", str(trf(tmp_path, e1(7))), "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    with (out / "norms.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == NORMS_COLUMNS
    mine = {r["norm"]: r for r in rows if r["name"] == "Applicant, Ann"}
    assert (mine["GM"]["verdict"], mine["GM"]["rp"], mine["GM"]["score"]) == ("met", "2600", "7.00")
    # the three GMs have no GM row; the IMs have one: 9 entries, 3 GMs, 3 IMs
    assert sum(r["norm"] == "GM" for r in rows) == 7
    assert sum(r["norm"] == "IM" for r in rows) == 4
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["norms"]["met"] == 2
    assert "norms.csv" in summary["outputs"]
    assert "norms" in summary["timings"]
    sheet = load_workbook(out / "report.xlsx", read_only=True)["Norms"]
    values = [list(row) for row in sheet.iter_rows(values_only=True)]
    header = next(i for i, row in enumerate(values) if "Verdict" in row)
    table = [dict(zip(values[header], row, strict=True)) for row in values[header + 1 :]]
    gm = [r for r in table if r["Name"] == "Applicant, Ann" and r["Norm"] == "GM"]
    assert gm
    assert (gm[0]["Verdict"], gm[0]["Rp"], gm[0]["Score required"]) == ("met", 2600, 7)


@pytest.mark.parametrize(
    ("lang", "sheet", "column", "words"),
    [
        ("en", "Norms", "Missing", "the event's time control (TRF 222/122)"),
        ("es", "Normas", "Falta", "el ritmo de juego del torneo (TRF 222/122)"),
        ("it", "Norme", "Mancante", "la cadenza di gioco del torneo (TRF 222/122)"),
    ],
)
def test_the_norms_sheet_says_how_to_supply_a_fact_in_its_language(
    tmp_path: Path, lang: str, sheet: str, column: str, words: str
) -> None:
    """Without a time control the GM norm of 7/9 cannot be told: the Norms sheet says
    what is missing and how to supply it in the report's language (norms.csv keeps the
    fact's key)."""
    text = round_robin_trf(e1(7), time_control="")
    path = tmp_path / "rr.trf"
    path.write_text("".join(line for line in text.splitlines(keepends=True)
                            if not line.startswith("122 ")), encoding="utf-8")  # fmt: skip
    out = tmp_path / "out"
    result = runner.invoke(app, ["run", str(path), "--out", str(out), "-q", "--lang", lang])
    assert result.exit_code == 0, result.output
    values = [list(r) for r in load_workbook(out / "report.xlsx", read_only=True)[sheet].values]
    header = next(i for i, row in enumerate(values) if column in row)
    table = [dict(zip(values[header], row, strict=True)) for row in values[header + 1 :]]
    applicant = [r for r in table if r[values[header][1]] == "Applicant, Ann"]
    assert applicant
    assert all(str(r[column]).startswith(words) for r in applicant), applicant
    with (out / "norms.csv").open(encoding="utf-8", newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if r["name"] == "Applicant, Ann"]
    assert {r["verdict"] for r in rows} == {"cannot tell"}
    assert {r["missing"] for r in rows} == {"time-control"}


def test_titles_and_event_type_are_checked_as_usage(tmp_path: Path) -> None:
    path = str(trf(tmp_path, e1(7)))
    result = runner.invoke(app, ["norms", path, "--titles", "GM,CM"])
    assert result.exit_code == 2
    assert "--titles: expected some of GM,IM,WGM,WIM, got CM" in result.output
    result = runner.invoke(app, ["norms", path, "--event-type", "arena"])
    assert result.exit_code == 2
    assert "swiss" in result.output
    record = applicant(norms_json(path, "--titles", "im"))
    assert set(record["norms"]) == {"IM"}


def test_the_sample_period_gives_every_player_a_verdict() -> None:
    records = norms_json(str(SAMPLES), "--registry", str(REGISTRY))
    assert records
    for record in records:
        if record["games"] and record["title"] != "GM":
            assert record["norms"], record
        for norm in record["norms"].values():
            assert norm["verdict"] in {"met", "not met", "cannot tell"}
            assert (norm["verdict"] == "cannot tell") <= bool(norm["missing"])


@pytest.mark.parametrize("path", real_files(), ids=lambda p: p.name)
def test_every_real_file(path: Path) -> None:
    """`elo norms` exits 0 on each real file with a verdict, or `cannot tell` and the
    facts missing, for every player entry with a game (a GM has no norm to seek)."""
    for record in norms_json(str(path)):
        if record["games"] and record["title"] != "GM":
            assert record["norms"], record
        for norm in record["norms"].values():
            if norm["verdict"] == "cannot tell":
                assert norm["missing"], record


def test_certificates_of_the_norms_met(tmp_path: Path) -> None:
    """--certificate DIR: the IT1's numbers of each norm met, an XLSX and a JSON each."""
    folder = tmp_path / "certificates"
    result = runner.invoke(app, ["norms", str(trf(tmp_path, e1(7))), "--certificate", str(folder)])
    assert result.exit_code == 0, result.output
    assert "Wrote 2 certificates into" in result.stdout
    names = sorted(p.name for p in folder.iterdir())
    assert [n.rsplit(".", 1)[1] for n in names] == ["json", "xlsx", "json", "xlsx"]
    gm = json.loads(next(folder.glob("*-GM-*.json")).read_text(encoding="utf-8"))
    assert gm["result"]["ra"] == 2380
    assert gm["result"]["rp"] == 2600
    assert gm["result"]["score_required"] == 7
    assert (gm["counts"]["gm"], gm["counts"]["im"], gm["counts"]["fm"]) == (3, 3, 1)
    assert [r["round"] for r in gm["rounds"]] == list(range(1, 10))
    assert gm["event"]["chief_arbiter"] == "IA Arbiter, Anna"


@pytest.mark.parametrize("path", [*real_files(), SAMPLES], ids=lambda p: p.name)
def test_the_stage_performance_is_performance_frames(path: Path) -> None:
    """The norms stage makes performance.csv's rows in the checks' pass over the games
    (pipeline.norms.counts); `performance_frame` reads the games on its own. Both agree,
    row for row, on every real file and the sample period."""
    from pipeline.load import RunOptions, linked_players
    from pipeline.norms.performance import performance_frame
    from pipeline.outcome import norms_of
    from pipeline.run import run_job

    registry = REGISTRY if path == SAMPLES else None
    options = RunOptions(paths=[path], registry=registry, skip_invalid=True)
    outcome = run_job(options)
    assert outcome.result is not None
    stage = norms_of(outcome.result, linked_players(outcome.loaded), options)
    expected = performance_frame(outcome.result.games, keys=True)
    assert expected.height
    assert stage.performance.equals(expected)
