"""`elo run` and `elo explain` end to end on the sample period (design.md contracts):
outputs and their columns, exit codes, an invalid event blocking the run, --skip-invalid,
--rounding, the FIDE-style breakdown, and the README's commands."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from schemas.output import GAMES_COLUMNS, RATINGS_COLUMNS
from tests.conftest import FIXTURES, ROOT, SAMPLES

REGISTRY = SAMPLES / "registry" / "players_list_foa.txt"
BAD = FIXTURES / "invalid" / "trf_bad_rating.trf"
OUTPUTS = {
    "report.xlsx",
    "ratings.csv",
    "games.csv",
    "identities.csv",
    "performance.csv",
    "norms.csv",
    "summary.json",
}

# Named in samples/README.md: the 2650+ player and the initial-rating candidate.
TOP_PLAYER = 11024940
NEWCOMER = 81684905


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module")
def sample_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("run") / "reports"
    code, _, err = invoke("run", str(SAMPLES), "--registry", str(REGISTRY), "--out", str(out))
    assert code == 0, err
    return out


def test_run_writes_the_contract_files(sample_run: Path) -> None:
    assert {p.name for p in sample_run.iterdir()} == OUTPUTS
    with (sample_run / "ratings.csv").open(encoding="utf-8") as handle:
        assert handle.readline().rstrip("\n").split(",") == RATINGS_COLUMNS
    with (sample_run / "games.csv").open(encoding="utf-8") as handle:
        assert handle.readline().rstrip("\n").split(",") == GAMES_COLUMNS
    summary = json.loads((sample_run / "summary.json").read_text(encoding="utf-8"))
    assert summary["status"] == "ok"
    assert summary["exit_code"] == 0
    assert summary["counts"]["events"] == 4


def test_sample_special_cases(sample_run: Path) -> None:
    ratings = rows(sample_run / "ratings.csv")
    newcomer = [r for r in ratings if r["fide_id"] == str(NEWCOMER)]
    # fide-rules.md §6: 8 rated opponents summing 14439 plus two 1800s, 4.5 points:
    # Ra 1803.90, p (4.5+1)/10 = .55 -> dp 36, Ru 1840.
    assert [(r["list"], r["status"], r["rating_after"]) for r in newcomer] == [
        ("standard", "initial", "1840")
    ]
    games = rows(sample_run / "games.csv")
    rule_600 = [g for g in games if g["reason"] == "rule-600"]
    assert {g["list"] for g in rule_600} == {"rapid"}
    assert str(TOP_PLAYER) in {g["fide_id"] for g in rule_600}
    # every row's change is K x ΣΔR rounded half away from zero (fide-rules.md §4)
    for r in ratings:
        if r["status"] == "rated":
            hundredths = round(float(r["change_unrounded"]) * 100)
            expected = (abs(hundredths) + 50) // 100 * (1 if hundredths >= 0 else -1)
            assert int(r["change"]) == expected, r
            assert int(r["rating_after"]) == int(r["rating_before"]) + expected


def test_invalid_event_blocks_the_run(tmp_path: Path) -> None:
    out = tmp_path / "reports"
    out.mkdir()
    (out / "ratings.csv").write_text("stale\n", encoding="utf-8")  # from an earlier run
    code, stdout, err = invoke(
        "run", str(SAMPLES), str(BAD), "--registry", str(REGISTRY), "--out", str(out)
    )
    assert code == 1
    assert err.splitlines()[0] == (
        f"{BAD}:15:49-52: expected a rating in 1000..3500 (0 or blank when unrated), "
        "got '850' [bad-rating]"
    )
    assert {p.name for p in out.iterdir()} == {"errors.txt", "summary.json"}
    assert "input rejected, 1 error; nothing was rated" in stdout
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert (summary["status"], summary["exit_code"]) == ("rejected", 1)


def test_skip_invalid_rates_the_rest_and_still_exits_1(tmp_path: Path) -> None:
    out = tmp_path / "reports"
    code, _, err = invoke(
        "run", str(SAMPLES), str(BAD), "--registry", str(REGISTRY), "--out", str(out),
        "--skip-invalid", "--quiet",
    )  # fmt: skip
    assert code == 1
    assert "[bad-rating]" in err
    assert {p.name for p in out.iterdir()} == OUTPUTS
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["status"] == "partial"
    assert summary["invalid_files"] == [str(BAD)]


def test_tournament_rounding_changes_only_rounding(tmp_path: Path, sample_run: Path) -> None:
    out = tmp_path / "reports"
    code, _, _ = invoke(
        "run", str(SAMPLES), "--registry", str(REGISTRY), "--out", str(out),
        "--rounding", "tournament", "--quiet",
    )  # fmt: skip
    assert code == 0
    period = {(r["list"], r["fide_id"], r["name"]): r for r in rows(sample_run / "ratings.csv")}
    per_event = {(r["list"], r["fide_id"], r["name"]): r for r in rows(out / "ratings.csv")}
    assert period.keys() == per_event.keys()
    differ = 0
    for key, a in period.items():
        b = per_event[key]
        assert a["change_unrounded"] == b["change_unrounded"]
        if a["change"] != b["change"]:
            # standard players of both the open and the league: two roundings of x.5 or
            # of parts that add up differently; never more than a point apart here
            differ += 1
            assert abs(int(a["change"]) - int(b["change"])) == 1, key
    assert differ > 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--list", "classical"], "--list: expected one of standard, rapid, blitz"),
        (["--rounding", "game"], "--rounding: expected period or tournament"),
        (["--period", "2026-13"], "--period: expected YYYY-MM"),
        (["--rules", "yesterday"], "--rules: expected a date YYYY-MM-DD"),
        (["--jobs", "0"], "--jobs: expected a number of processes, at least 1"),
    ],
)
def test_usage_errors_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    code, _, err = invoke("run", str(SAMPLES), "--out", str(tmp_path / "r"), *args)
    assert code == 2
    assert err.startswith(f"elo: error: {message}")
    assert not (tmp_path / "r").exists()


def test_missing_path_is_a_usage_error(tmp_path: Path) -> None:
    code, _, err = invoke("run", str(tmp_path / "nowhere.trf"))
    assert code == 2
    assert err == f"elo: error: {tmp_path / 'nowhere.trf'}: no such file or folder\n"


def test_explain_shows_the_fide_breakdown() -> None:
    code, out, _ = invoke(
        "explain", str(SAMPLES), "--registry", str(REGISTRY), "--player", str(TOP_PLAYER)
    )
    assert code == 0
    assert out.startswith(f"Marvsson, Bram (FIDE ID {TOP_PLAYER}, ESP)\n")
    assert "not rated: rule-600" in out
    assert "Standard rating list: Ro 2703, K 10, status rated" in out
    # 2650+ from 2025-10-01: the real difference is used beyond 400 (fide-rules.md §3)
    assert any(" 942   942  1.00  +0.00" in line for line in out.splitlines())


def test_explain_shows_an_initial_rating() -> None:
    code, out, _ = invoke(
        "explain", str(SAMPLES), "--registry", str(REGISTRY), "--player", str(NEWCOMER)
    )
    assert code == 0
    assert out.rstrip().endswith(
        "Period: 8 games against rated opponents: initial rating 1840 (Ra 1803.90 with two "
        "hypothetical 1800 opponents, p 0.55, dp 36), published"
    )


def test_explain_unknown_player_is_a_usage_error() -> None:
    code, _, err = invoke("explain", str(SAMPLES), "--player", "1")
    assert code == 2
    assert err == "elo: error: --player: no player with FIDE ID 1 in these events\n"


def test_module_entry_point_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pipeline", "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0
    for command in ("calc", "validate", "run", "explain"):
        assert command in done.stdout


def test_worker_processes_write_the_same_outputs(tmp_path: Path, sample_run: Path) -> None:
    """`--jobs 2` through the module entry point: the workers start as fresh interpreters
    (which import the entry module again) and the files they read rate the same."""
    out = tmp_path / "reports"
    done = subprocess.run(
        [
            sys.executable, "-m", "pipeline", "run", str(SAMPLES), "--registry", str(REGISTRY),
            "--out", str(out), "--jobs", "2", "--quiet",
        ],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    for name in ("ratings.csv", "games.csv", "identities.csv"):
        assert (out / name).read_bytes() == (sample_run / name).read_bytes(), name


def test_readme_names_the_two_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make demo" in readme
    assert "make test" in readme
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert f"--registry {REGISTRY.relative_to(ROOT)}" in makefile


def test_registry_folder_and_out_file_are_usage_errors(tmp_path: Path) -> None:
    code, _, err = invoke("run", str(SAMPLES), "--registry", str(SAMPLES))
    assert code == 2
    assert err == f"elo: error: --registry: expected a rating-list file, got the folder {SAMPLES}\n"
    taken = tmp_path / "taken"
    taken.write_text("", encoding="utf-8")
    code, _, err = invoke("run", str(SAMPLES), "--out", str(taken))
    assert code == 2
    assert err == f"elo: error: --out: expected a folder, got the file {taken}\n"


def test_a_refused_write_is_one_line_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pipeline.run

    def full_disk(*_: object, **__: object) -> None:
        raise OSError(28, "No space left on device", str(tmp_path / "report.xlsx"))

    monkeypatch.setattr(pipeline.run, "run_job", full_disk)
    code, _, err = invoke("run", str(SAMPLES), "--out", str(tmp_path))
    assert code == 1
    assert err == f"elo: error: {tmp_path / 'report.xlsx'}: No space left on device\n"
