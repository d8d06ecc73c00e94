"""`elo calc` (design.md contract) and pipeline.calc: the required examples, JSON, errors."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from decimal import Decimal
from typing import Any

import pytest
from typer.testing import CliRunner

from pipeline.calc import (
    CalcInputError,
    CalcRequest,
    GameInput,
    calculate,
    parse_game,
    parse_k,
    parse_rating,
)
from pipeline.cli import app
from pipeline.report.calc_table import calc_json, render_calc

runner = CliRunner()
TODAY_RULES_DATE = "2026-11-30"  # rules from 2025-10-01 (cap 400 below 2650)


def _json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["calc", *args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


# --- the examples the task requires (fide-rules.md §2-§7) ------------------------------


def test_continuous_seed_example() -> None:
    # Source: fide-rules.md §7 seed: 1500 vs 1600, win, K 20 -> E 0.3599, +12.8.
    data = _json("1500", "1600:1", "--k", "20", "--method", "continuous")
    assert data["games"][0]["expected"] == 0.3599
    assert data["change"] == 12.8
    assert data["rating_after"] == 1512.8
    assert data["method"] == "continuous"


def test_five_game_fide_example() -> None:
    # Source: fide-rules.md §2-§4 (today's rules): ΣΔR 0.99, 19.8 -> 20.
    data = _json("2000", "2100:1", "1950:½", "2400:0", "1500:1", "2500:0.5", "--k", "20")
    assert data["sum_delta"] == 0.99
    assert data["change_unrounded"] == 19.8
    assert (data["change"], data["rating_after"]) == (20, 2020)
    assert [g["difference_used"] for g in data["games"]] == [-100, 50, -400, 400, -400]
    assert data["n"] == 5
    assert data["score"] == 3
    assert data["expected"] == 2.01


def test_2650_exemption_example() -> None:
    # Source: B.02 §8.3.1 amended 2025-10-01: 2813 vs 2400 -> D 413 -> .93.
    data = _json("2813", "2400:1", "--k", "10", "--date", TODAY_RULES_DATE)
    game = data["games"][0]
    assert (game["difference"], game["difference_used"], game["expected"]) == (413, 413, 0.93)


def test_2650_exemption_with_todays_date() -> None:
    if dt.date.today() < dt.date(2025, 10, 1):
        pytest.skip("the machine's date is before the 2025-10-01 rules")
    data = _json("2813", "2400:1", "--k", "10")
    assert data["games"][0]["difference_used"] == 413


def test_600_rule_example() -> None:
    # Source: B.02 Rapid and Blitz, 600-point rule from 2024-12-01.
    data = _json("2650", "2050:1", "--list", "rapid", "--date", "2024-12-15", "--k", "20")
    game = data["games"][0]
    assert (game["rated"], game["reason"]) == (False, "rule-600")
    assert (data["n"], data["change"], data["rating_after"]) == (0, 0, 2650)


def test_average_method_example() -> None:
    # Source: fide-rules.md §7 seed: 1830 vs 1980, draw, K 24.6 -> E 0.30, about +4.9.
    data = _json("1830", "1980:0.5", "--k", "24.6", "--method", "average")
    assert data["expected"] == 0.3
    assert data["change_unrounded"] == 4.92
    assert data["change"] == 4.9
    assert data["k"] == 24.6


def test_json_has_the_contract_keys() -> None:
    data = _json("1500", "1600:1", "unrated:0")
    for key in (
        "rating_before",
        "k",
        "method",
        "games",
        "n",
        "score",
        "expected",
        "change_unrounded",
        "change",
        "rating_after",
    ):
        assert key in data
    for key in (
        "opponent",
        "score",
        "difference",
        "difference_used",
        "expected",
        "delta",
        "rated",
        "reason",
    ):
        assert key in data["games"][0]
    assert data["games"][1]["reason"] == "opponent-unrated"
    assert data["games"][1]["opponent"] is None


# --- K --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "k", "note"),
    [
        ([], 20, "established player (no --games"),
        (["--games", "12"], 40, "fewer than 30 career games"),
        (["--birth-year", "2010", "--date", "2026-05-01"], 40, "junior"),
        (["--ever-2400"], 10, "reached 2400"),
        (["--k", "fide"], 20, "established player"),
        (["--list", "rapid", "--date", "2022-09-30", "--games", "5"], 20, "before 2022-10-01"),
    ],
    ids=["default", "new", "junior", "ever-2400", "k-fide", "rapid-flat"],
)
def test_k_derivation(args: list[str], k: int, note: str) -> None:
    # Source: fide-rules.md §5 (B.02 §8.3.3).
    data = _json("1800", "1800:1", *args)
    assert data["k"] == k
    assert any(note in n for n in data["notes"])


def test_700_rule_applies_to_derived_and_whole_k() -> None:
    # Source: B.02 §8.3.3: K 20 with 36 games -> 19.
    games = ["1800:½"] * 35 + ["1800:1"]
    data = _json("1800", *games, "--k", "20")
    assert data["k"] == 19
    assert any("700 rule: K 20 -> 19" in n for n in data["notes"])
    data = _json("1800", *games)
    assert data["k"] == 19


def test_700_rule_not_for_decimal_or_variable_k() -> None:
    games = ["1800:½"] * 35 + ["1800:1"]
    assert _json("1800", *games, "--k", "20.5")["k"] == 20.5
    data = _json("2000", *games, "--k", "variable")
    assert data["k"] == 19.6
    assert any("not a FIDE rule" in n for n in data["notes"])


# --- unrated player ---------------------------------------------------------------------


def test_initial_rating() -> None:
    # Source: FIDE's published example, fide-rules.md §6: -> 1922.
    games = ["1901:1", "1901:1", "1901:1", "1901:0", "1903:0"]
    data = _json("unrated", *games, "--date", "2025-01-01")
    assert data["rating_before"] is None
    assert data["rating_after"] == 1922
    assert data["initial"]["published"] is True
    assert data["initial"]["ra"] == 1872.43
    assert data["initial"]["p"] == 0.57
    assert data["initial"]["dp"] == 50
    assert {g["reason"] for g in data["games"]} == {"player-unrated"}


@pytest.mark.parametrize(
    ("games", "reason"),
    [
        (["1901:1"] * 4, "at least 5 games"),
        (["1400:0"] * 4 + ["1400:½"], "below the rating floor 1400"),
        (["1800:0"] * 6, "zero score"),
    ],
    ids=["four-games", "below-floor", "zero-score"],
)
def test_initial_rating_not_published(games: list[str], reason: str) -> None:
    data = _json("0", *games, "--date", "2025-01-01")
    assert data["rating_after"] is None
    assert any(reason in n for n in data["notes"])


# --- bad input: one line on stderr, exit 2 ---------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["1500", "1600:2"], "game '1600:2': expected a score 1, 0.5 (½ or =) or 0, got '2'"),
        (["abc", "1600:1"], "RATING: expected a rating 1..3500, 0 or 'unrated', got 'abc'"),
        (["-1500", "1600:1"], "RATING: expected a rating 1..3500, 0 or 'unrated', got '-1500'"),
        (["1500", "-1600:1"], "opponent: expected a rating 1..3500"),
        (["1500", "1600"], "expected OPP:SCORE such as 1600:1 or 1650:½, got '1600'"),
        (["1500", "1600:1", "--k", "0"], "--k: expected a K above 0, got '0'"),
        (["1500", "1600:1", "--k", "-5"], "--k: expected a positive number"),
        (["1500", "1600:1", "--method", "elo"], "--method: expected one of fide, continuous"),
        (["1500", "1600:1", "--list", "bullet"], "--list: expected one of standard, rapid"),
        (["1500", "1600:1", "--date", "2024-02-30"], "--date: expected a date YYYY-MM-DD"),
        (["1500", "1600:1", "--date", "1960-01-01"], "--date: expected a date from 1970"),
        (["1500", "1600:1", "--games", "many"], "--games: expected a whole number"),
        (["1500", "1600:1", "--expectation", "logistic"], "the FIDE method uses table 8.1.2"),
        (["1500", "1600:1", "--expectation", "x", "--method", "average"], "--expectation"),
        (["1500", "1600:1", "--colour", "w"], "unknown option '--colour'"),
        (["1500", "1600:1", "--k"], "--k: expected a value after the option"),
        (["1500", "1600:1", "--json=yes"], "--json takes no value"),
        (["1500"], "expected at least one game"),
        ([], "expected RATING and at least one OPP:SCORE"),
        (["0", "1600:1", "--method", "sequential"], "use --method fide"),
    ],
    ids=lambda v: v if isinstance(v, str) else " ".join(v),
)
def test_bad_input_is_one_line_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["calc", *args])
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("elo: error: ")
    assert message in lines[0]
    assert result.stdout == ""


# --- library --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "game"),
    [
        ("1600:1", GameInput(1600, 100, "1600:1")),
        ("1650:0.5", GameInput(1650, 50, "1650:0.5")),
        ("1700:½", GameInput(1700, 50, "1700:½")),
        ("1700:=", GameInput(1700, 50, "1700:=")),
        ("1700:0,5", GameInput(1700, 50, "1700:0,5")),
        ("1800:0", GameInput(1800, 0, "1800:0")),
        ("0:1", GameInput(None, 100, "0:1")),
        ("unrated:½", GameInput(None, 50, "unrated:½")),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_parse_game(token: str, game: GameInput) -> None:
    assert parse_game(token) == game


def test_parsers_raise_value_errors() -> None:
    with pytest.raises(ValueError, match="expected a rating"):
        parse_rating("4000")
    assert parse_k("24,6") == Decimal("24.6")
    assert parse_k("20.0") == 20
    assert parse_k("Variable") == "variable"
    assert issubclass(CalcInputError, ValueError)


def test_calculate_and_render() -> None:
    request = CalcRequest(
        rating=2000,
        games=(GameInput(2100, 100), GameInput(None, 50)),
        on=dt.date(2026, 11, 30),
        k=20,
    )
    result = calculate(request)
    assert result.change == 13  # 20 x 0.64 = 12.8
    data = calc_json(result)
    assert (data["change_unrounded"], data["change"], data["rating_after"]) == (12.8, 13, 2013)
    assert json.loads(json.dumps(data)) == data
    text = render_calc(result)
    assert "Rule set: standard 2025-10-01" in text
    assert "K×ΣΔR unrounded  +12.80" in text
    assert "opponent-unrated" in text
    assert "New rating       2013" in text
    plain = render_calc(result, ascii_only=True)
    assert plain.isascii()


def test_text_output_via_cli() -> None:
    result = runner.invoke(app, ["calc", "1500", "1600:1", "1600:1", "--method", "sequential"])
    assert result.exit_code == 0
    assert "Rating" in result.stdout
    assert "sequential" in result.stdout


# --- processes: python -m pipeline, start-up weight -------------------------------------


def test_python_m_pipeline_calc() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pipeline", "calc", "2000", "2100:1", "--k", "20", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["change"] == 13
    bad = subprocess.run(
        [sys.executable, "-m", "pipeline", "calc", "2000", "2100:2"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2
    assert bad.stderr.startswith("elo: error: ")
    assert "Traceback" not in bad.stderr


def test_calc_path_imports_no_heavy_module() -> None:
    code = (
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from pipeline.cli import app\n"
        "heavy = ('polars', 'pandera', 'openpyxl', 'fastexcel')\n"
        "early = sorted(m for m in sys.modules if m.split('.')[0] in heavy)\n"
        "r = CliRunner().invoke(app, ['calc', '1500', '1600:1', '--json'])\n"
        "assert r.exit_code == 0, r.output\n"
        "late = sorted(m for m in sys.modules if m.split('.')[0] in heavy)\n"
        "print(early, late)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[] []"
