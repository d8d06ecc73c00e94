"""`elo validate PATH... [--registry FILE] [--list L]`: problems on stderr as
`file:line[:column]: message [code]`, a one-line summary on stdout, exit 0 clean or
warnings only, 1 when any input is invalid, 2 for usage errors (design.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from tests.conftest import FIXTURES, SAMPLES

VALID = Path(__file__).resolve().parent / "validate" / "data" / "valid_open.trf"
INVALID = FIXTURES / "invalid"
PROBLEM_LINE = re.compile(r"^.+?(:\d+(:[^:]+)?)?: (warning: )?expected .+, got .+ \[[a-z0-9-]+\]$")


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["validate", *args])
    return result.exit_code, result.stdout, result.stderr


def summary(out: str) -> str:
    """The last stdout line (the lines before it describe each file read)."""
    return out.splitlines()[-1] + "\n"


def invalid_fixtures() -> list[Path]:
    return sorted(
        p
        for p in INVALID.iterdir()
        if p.name != "EXPECTED.csv" and not p.name.endswith(".players.csv")
    )


def test_valid_file_exits_0_with_what_it_holds_and_the_summary() -> None:
    assert invoke(str(VALID)) == (
        0,
        f"{VALID}: TRF26, 6 players, 3 rounds, standard list (time control: '90 min + 30 "
        "sec/move' is 90 min + 30 s a move: 120 min for 60 moves, standard (TRF 122))\n"
        "1 file checked: 1 valid, 0 invalid (0 errors, 0 warnings)\n",
        "",
    )


def test_exact_problem_line_on_stderr() -> None:
    path = INVALID / "trf_points_mismatch.trf"
    code, out, err = invoke(str(path))
    assert code == 1
    assert err == (
        f"{path}:13:81-84: expected 0.5 points (the sum of the results, 1/½/0), "
        "got 2.5 declared [points-mismatch]\n"
    )
    assert summary(out) == "1 file checked: 0 valid, 1 invalid (1 error, 0 warnings)\n"


@pytest.mark.parametrize("path", invalid_fixtures(), ids=lambda p: p.name)
def test_each_invalid_fixture_exits_1(path: Path) -> None:
    code, out, err = invoke(str(path))
    assert code == 1
    assert summary(out).startswith("1 file checked: 0 valid, 1 invalid (")
    lines = err.splitlines()
    assert lines
    assert all(line.startswith(str(path)) and PROBLEM_LINE.match(line) for line in lines), err


def test_folder_is_searched_and_every_file_reported() -> None:
    fixtures = invalid_fixtures()
    code, out, err = invoke(str(INVALID))
    assert code == 1
    n = len(fixtures)
    assert summary(out).startswith(f"{n} files checked: 0 valid, {n} invalid (")
    assert out.endswith(" errors, 1 warning)\n")
    errors = [line for line in err.splitlines() if ": warning: " not in line]
    assert {line.split(":", 1)[0] for line in errors} == {str(p) for p in fixtures}
    # The expectations table is no tournament file: skipped, with a warning saying why.
    warnings = [line for line in err.splitlines() if ": warning: " in line]
    assert len(warnings) == 1
    assert warnings[0].startswith(
        f"{INVALID / 'EXPECTED.csv'}: warning: expected a TRF file, a crosstable (XLSX/CSV), "
        "a games CSV or a rating list, got a file starting '# Every problem"
    )
    assert warnings[0].endswith(" [skipped-file]")


def test_valid_and_invalid_together_exit_1() -> None:
    code, out, _ = invoke(str(VALID), str(INVALID / "trf_bad_rating.trf"))
    assert code == 1
    assert summary(out) == "2 files checked: 1 valid, 1 invalid (1 error, 0 warnings)\n"


# The real files of the shared folder: all consistent. Dates written day first
# (`28. 07. 2005`, `24/09/2010`) are read with a warning that shows the date understood.
# The Gros 2010 file names no time control (092 "Individual: Swiss-System", 122
# "moves/time, increment"), so the arbiter says which list; it declares 9 rounds (XXR)
# and holds 5, a warning.
SHARED_TRF = [
    ("fide_example1_karl_mala_2005.trf", [], 2),
    ("fide_tec_sample_grandmommys_cup_trf26_team.trf", [], 0),
    ("javafo_sample_open_gros_2010.trf", ["--list", "standard"], 3),
]


@pytest.mark.parametrize(("name", "extra", "warnings"), SHARED_TRF, ids=[s[0] for s in SHARED_TRF])
def test_shared_trf_files_are_valid(
    shared_dir: Path, name: str, extra: list[str], warnings: int
) -> None:
    path = shared_dir / "data" / "trf" / name
    code, out, err = invoke(str(path), *extra)
    assert code == 0, err
    plural = "" if warnings == 1 else "s"
    assert summary(out) == (
        f"1 file checked: 1 valid, 0 invalid (0 errors, {warnings} warning{plural})\n"
    )
    assert all(": warning: " in line for line in err.splitlines())


def test_shared_trf_folder_covers_every_file(shared_dir: Path) -> None:
    names = sorted(p.name for p in (shared_dir / "data" / "trf").iterdir())
    assert names == sorted(s[0] for s in SHARED_TRF)


def test_list_inferred_from_the_schedule_is_a_warning(shared_dir: Path) -> None:
    # The Gros 2010 file's time control does not read ('moves/time, increment', a
    # template left unfilled), but it plays 9 rounds in 9 days.
    path = shared_dir / "data" / "trf" / "javafo_sample_open_gros_2010.trf"
    code, out, err = invoke(str(path))
    assert code == 0
    assert (
        f"{path}: warning: expected a time control that names the rating list, got "
        "'moves/time, increment', which does not read; 9 rounds in 9 days is a standard "
        "event (pass --list, or decide it with --events, to say otherwise) "
        "[time-control-unread]"
    ) in err
    assert out.splitlines()[0] == (
        f"{path}: TRF16, 52 players, 9 rounds, standard list (schedule: 9 rounds in 9 days "
        "is a standard event)"
    )


def test_no_list_and_no_telling_schedule_is_taken_as_standard_with_a_warning() -> None:
    # Three rounds in two days: a standard weekend event can play that; nothing says rapid.
    # Its time control ('moves/time, increment') names no time: said, with the list chosen.
    path = Path(__file__).resolve().parent / "validate" / "data" / "no_list_weekend.trf"
    code, out, err = invoke(str(path))
    assert code == 0
    assert err == (
        f"{path}: warning: expected a time control that names the rating list, got "
        "'moves/time, increment', which does not read; 3 rounds in 2 days: rated as "
        "standard (pass --list, or decide it with --events, to say otherwise) "
        "[time-control-unread]\n"
    )
    assert out.splitlines()[0] == (
        f"{path}: TRF26, 6 players, 3 rounds, standard list (schedule: 3 rounds in 2 days: "
        "rated as standard)"
    )


@pytest.mark.parametrize(
    ("start", "end", "rounds", "expected"),
    [
        ("2025/04/12", "2025/04/20", 9, "9 rounds in 9 days is a standard event"),
        ("2025/04/12", "2025/04/12", 7, "7 rounds in 1 day is more than a standard event "
                                        "plays: rated as rapid"),
        ("2025/04/12", "2025/04/12", 21, "21 rounds in 1 day is more than a rapid event "
                                         "plays: rated as blitz"),
        (None, None, 9, "no dates to tell by: rated as standard"),
    ],
)  # fmt: skip
def test_list_from_the_schedule(
    tmp_path: Path, start: str | None, end: str | None, rounds: int, expected: str
) -> None:
    text = (INVALID.parent.parent / "validate" / "data" / "no_list_weekend.trf").read_text()
    lines = [ln for ln in text.splitlines() if not ln.startswith(("042", "052", "122"))]
    dates = [f"042 {start}", f"052 {end}"] if start else []
    path = tmp_path / "event.trf"
    path.write_text("\n".join([lines[0], *dates, f"XXR {rounds}", *lines[1:]]) + "\n")
    code, _, err = invoke(str(path))
    assert code == 0, err
    assert f"got none; {expected} (pass --list, or decide it with --events, to say " in err


def test_samples_folder_is_valid() -> None:
    events = SAMPLES / "events"
    if not events.is_dir() or not any(events.iterdir()):
        pytest.skip("samples/ holds no events yet")
    registry = SAMPLES / "registry" / "players_list_foa.txt"
    code, out, err = invoke(str(SAMPLES), "--registry", str(registry))
    assert code == 0, err
    assert "0 invalid (0 errors" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["no-such-file.trf"], "elo: error: no-such-file.trf: no such file or folder\n"),
        (
            [str(VALID), "--list", "classical"],
            "elo: error: --list: expected one of standard, rapid, blitz, got 'classical'\n",
        ),
        (
            [str(VALID), "--registry", "no-such-list.txt"],
            "elo: error: no-such-list.txt: no such file or folder\n",
        ),
    ],
    ids=["no-such-path", "bad-list", "no-such-registry"],
)
def test_usage_errors_exit_2(args: list[str], message: str) -> None:
    assert invoke(*args) == (2, "", message)


def test_list_option_overrides_the_file() -> None:
    path = Path(__file__).resolve().parent / "validate" / "data" / "no_list_weekend.trf"
    code, out, _ = invoke(str(path), "--list", "rapid")
    assert (code, out) == (
        0,
        f"{path}: TRF26, 6 players, 3 rounds, rapid list (--list rapid)\n"
        "1 file checked: 1 valid, 0 invalid (0 errors, 0 warnings)\n",
    )


def test_unknown_file_named_explicitly_is_invalid(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("Round 1 pairings will be posted at 10:00.\n", encoding="utf-8")
    code, out, err = invoke(str(path))
    assert code == 1
    assert err == (
        f"{path}: expected a TRF file, a crosstable (XLSX/CSV), a games CSV or a rating "
        "list, got a file starting 'Round 1 pairings will be posted at 10:00.' "
        "[unknown-format]\n"
    )
    assert out == "1 file checked: 0 valid, 1 invalid (1 error, 0 warnings)\n"


def test_empty_folder_is_an_input_error(tmp_path: Path) -> None:
    code, out, err = invoke(str(tmp_path))
    assert code == 1
    assert "[no-events]" in err
    assert out == "0 files checked: 0 valid, 0 invalid (1 error, 0 warnings)\n"


def test_readme_transcript_of_invalid_fixtures() -> None:
    """The `elo validate` transcript of the invalid fixtures in docs/cli.md is what the
    command prints (stderr, then stdout)."""
    doc = (FIXTURES.parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    start = doc.index("$ elo validate tests/fixtures/invalid/") + len("$ elo validate ")
    block = doc[start:].split("\n\n", 1)[0].split("\n```", 1)[0]
    command, *expected = block.splitlines()
    root = FIXTURES.parent.parent
    paths = [str(root / arg) for arg in command.split()]
    code, out, err = invoke(*paths)
    assert code == 1
    shown = (err + out).replace(str(root) + "/", "")
    assert shown.splitlines() == expected


@pytest.mark.parametrize(
    ("written", "minutes", "expected"),
    [
        ("1:30 + 10", "100 min", "standard"),
        ("2:00 + 30", "150 min", "standard"),
        ("G/90;d5", "95 min", "standard"),
        ("40/120, 30/SD + 30s", "180 min", "standard"),
        ("15 min + 10 s", "25 min", "rapid"),
        ("3+2", "5 min", "blitz"),
    ],
)
def test_validate_says_the_list_a_time_control_gives(
    tmp_path: Path, written: str, minutes: str, expected: str
) -> None:
    # arbiters' forms of record 122 (the reader's table: tests/vectors/time_controls.csv)
    text = (INVALID.parent.parent / "validate" / "data" / "valid_open.trf").read_text()
    path = tmp_path / "event.trf"
    path.write_text(text.replace("122 90 min + 30 sec/move", f"122 {written}"))
    code, out, _ = invoke(str(path))
    assert code == 0
    assert f", {expected} list (time control: '{written}' is " in out.splitlines()[0]
    assert f": {minutes} for 60 moves, {expected} (TRF 122))" in out.splitlines()[0]


def test_year_first_dotted_dates_are_settled_by_the_round_dates() -> None:
    path = FIXTURES / "dates" / "trf_year_first_two_digit_dates.trf"
    code, _, err = invoke(str(path))
    assert code == 0
    assert err.splitlines() == [
        f"{path}:{line}:5-12: warning: read '{text}' as {iso} (year first, two-digit year): "
        "the only reading that keeps the round dates in order and the end after the start "
        "[date-read]"
        for line, text, iso in ((6, "10.09.13", "2010-09-13"), (7, "10.09.21", "2010-09-21"))
    ]
