"""Rated-event checks (pipeline.validate.rated): warnings with a code, the regulation
section and the value found, never errors; through `elo validate` and `elo run` as a user
sees them. Minimum times per B.02 §1.1 (120 / 90 / 60 minutes for 60 moves by the higher
rating 2400 / 1800); rapid more than 10 and less than 60 minutes, blitz more than 3 and at
most 10 (Laws of Chess A.1 / B.1); at most 15 rapid and 30 blitz rounds a day."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.errors import Problem
from pipeline.ingest.detect import read_path
from pipeline.validate.batch import check_events
from pipeline.validate.event import check_event
from pipeline.validate.files import validate_paths
from pipeline.validate.rated import RATED_EVENT_CODES, rated_event_warnings
from tests.period.builders import Ev, P, trf

DAY = dt.date(2026, 11, 7)


def _event(
    ratings: list[int | None],
    time_control: str | None,
    *,
    rounds: int = 1,
    end: dt.date = DAY,
    encoded: str | None = None,
) -> str:
    """A round robin (first `rounds` rounds) of players with these ratings, its 122 and
    222 records replaced."""
    players = [P(f"Player {i}, Test", 100_000 + i, r) for i, r in enumerate(ratings, 1)]
    n = len(players)
    schedule: list[list[tuple[int, int, str]]] = []
    for r in range(rounds):
        pairs = [((i + r) % n + 1, (n - 1 - i + r) % n + 1) for i in range(n // 2)]
        schedule.append([(a, b, "=") for a, b in pairs if a != b])
    text = trf(Ev("Check Open", DAY, end, players, schedule))
    lines = [line for line in text.split("\r\n") if not line.startswith(("122 ", "222 "))]
    if time_control is not None:
        lines.insert(5, f"122 {time_control}")
    if encoded is not None:
        lines.insert(5, f"222 {encoded}")
    return "\r\n".join(lines)


def _warnings(tmp_path: Path, text: str, list_override: str | None = None) -> list[Problem]:
    path = tmp_path / "event.trf"
    path.write_text(text, encoding="utf-8")
    report = validate_paths([path], list_override=list_override)
    assert not report.errors
    return [p for p in report.warnings if p.code in RATED_EVENT_CODES]


def test_a_15_minute_game_in_a_standard_file_warns_with_the_minutes_found(
    tmp_path: Path,
) -> None:
    found = _warnings(tmp_path, _event([2450, 2100, 1700, 1600], "15 minutes"), "standard")
    assert [(p.code, p.message) for p in found] == [
        (
            "standard-time-below-minimum",
            "standard games' thinking time: expected at least 120 for 1 game with a player "
            "rated 2400 or higher, 90 for 1 game with a player rated 1800 or higher "
            "(minutes for 60 moves), got 15 minutes from '15 minutes' (B.02 §1.1)",
        )
    ]
    assert not found[0].is_error


def test_the_minimum_follows_the_higher_rating_of_each_game(tmp_path: Path) -> None:
    # 90 minutes for 60 moves: enough below 2400, not for the games of the 2450 player
    text = _event([2450, 2100, 1700, 1600], "90 min", rounds=3)
    (found,) = _warnings(tmp_path, text)
    assert found.message.startswith(
        "standard games' thinking time: expected at least 120 for 3 games with a player "
        "rated 2400 or higher (minutes for 60 moves), got 90 minutes"
    )


@pytest.mark.parametrize(
    ("ratings", "encoded"),
    [
        ([2450, 2500], "5400+30"),  # 90 min + 30 s: 120 minutes
        ([2300, 1900], "5400"),  # 90 minutes where the higher is 2300
        ([1700, None, 1500, 1650], "3600"),  # 60 minutes below 1800 (and unrated)
    ],
)
def test_enough_time_is_quiet(tmp_path: Path, ratings: list[int | None], encoded: str) -> None:
    assert _warnings(tmp_path, _event(ratings, None, encoded=encoded)) == []


@pytest.mark.parametrize(
    ("time_control", "list_", "minutes"),
    [
        ("10 min", "rapid", "10"),  # not more than 10
        ("60 min", "rapid", "60"),  # not less than 60
        ("3 min", "blitz", "3"),  # not more than 3
        ("1+0", "blitz", "1"),
    ],
)
def test_rapid_and_blitz_outside_their_window(
    tmp_path: Path, time_control: str, list_: str, minutes: str
) -> None:
    (found,) = _warnings(tmp_path, _event([1500, 1600], time_control), list_)
    assert found.code == f"{list_}-time-control"
    assert f"got {minutes} from {time_control!r}" in found.message
    section = "Laws of Chess A.1" if list_ == "rapid" else "Laws of Chess B.1"
    assert found.message.endswith(f"({section})")


@pytest.mark.parametrize(
    ("time_control", "list_"), [("15+10", "rapid"), ("3+2", "blitz"), ("10 min", "blitz")]
)
def test_rapid_and_blitz_inside_their_window(tmp_path: Path, time_control: str, list_: str) -> None:
    assert _warnings(tmp_path, _event([1500, 1600], time_control), list_) == []


def test_more_rapid_rounds_than_fit_in_the_days(tmp_path: Path) -> None:
    players: list[int | None] = [1500 + 10 * i for i in range(18)]
    (found,) = _warnings(tmp_path, _event(players, "15+10", rounds=16), "rapid")
    assert found.code == "rounds-per-day"
    assert found.message == (
        "rapid rounds a day: expected at most 15, got 16 rounds in 1 day (2026-11-07), "
        "more than 15 on at least one day (Rapid and Blitz Rating Regulations)"
    )
    two_days = _event(players, "15+10", rounds=16, end=DAY + dt.timedelta(days=1))
    assert _warnings(tmp_path, two_days, "rapid") == []


def _dated(text: str, days: list[dt.date]) -> str:
    """`text` with record 132 giving round r the date days[r - 1]."""
    slots = "".join(day.strftime("%y/%m/%d").ljust(10) for day in days)
    lines = text.split("\r\n")
    lines.insert(3, ("132".ljust(91) + slots).rstrip())
    return "\r\n".join(lines)


def test_rounds_are_counted_on_each_day_the_file_dates_them(tmp_path: Path) -> None:
    players: list[int | None] = [1500 + 10 * i for i in range(18)]
    text = _event(players, "15+10", rounds=16, end=DAY + dt.timedelta(days=1))
    assert _warnings(tmp_path, text, "rapid") == []  # 16 rounds fit in two days
    second = DAY + dt.timedelta(days=1)
    crowded = _dated(text, [DAY] + [second] * 15)  # 15 on the second day: allowed
    assert _warnings(tmp_path, crowded, "rapid") == []
    (found,) = _warnings(tmp_path, _dated(text, [DAY] * 16), "rapid")
    assert found.code == "rounds-per-day"
    assert found.message == (
        "rapid rounds a day: expected at most 15, got 16 rounds on 2026-11-07 (the round "
        "dates of record 132) (Rapid and Blitz Rating Regulations)"
    )
    # blitz allows 30 a day (15+10 is no blitz time control: that is another warning)
    blitz = _warnings(tmp_path, _dated(text, [DAY] * 16), "blitz")
    assert [p.code for p in blitz] == ["blitz-time-control"]


def test_a_match_with_an_unrated_player(tmp_path: Path) -> None:
    (found,) = _warnings(tmp_path, _event([2200, None], "90 min + 30 sec", rounds=2))
    assert found.code == "match-unrated-player"
    assert found.message == (
        "match (two players only): expected both players rated, got Player 2, Test "
        "unrated (B.02 §6.1)"
    )
    assert _warnings(tmp_path, _event([2200, 2100], "90 min + 30 sec", rounds=2)) == []


@pytest.mark.parametrize(
    ("time_control", "got"),
    [
        ("Armageddon 5 min", "an Armageddon time control"),
        ("White 5 min, Black 4 min", "5 and 4 minutes for 60 moves"),
    ],
)
def test_unequal_times(tmp_path: Path, time_control: str, got: str) -> None:
    found = _warnings(tmp_path, _event([1500, 1600, 1700, 1800], time_control), "blitz")
    unequal = [p for p in found if p.code == "unequal-times"]
    assert [p.message for p in unequal] == [
        f"playing times: expected the same time for both players, got {got} from "
        f"{time_control!r} (Laws of Chess A.1 / B.1)"
    ]


def test_an_unreadable_time_control_is_not_guessed_at(tmp_path: Path) -> None:
    assert _warnings(tmp_path, _event([2500, 2450], "as in the rules of the event")) == []


def test_batch_and_one_by_one_give_the_same_warnings(tmp_path: Path) -> None:
    texts = [
        _event([2450, 2100, 1700, 1600], "15 minutes"),
        _event([2200, None], "60 min"),
        _event([1500, 1600], "60 min"),
        _event([2450, 2500], None, encoded="5400+30"),
    ]
    events = []
    for i, text in enumerate(texts):
        path = tmp_path / f"e{i}.trf"
        path.write_text(text, encoding="utf-8")
        events.extend(read_path(path, "standard" if i == 0 else None))
    assert check_events(events) == [check_event(ev) for ev in events]
    assert [len(w) for w in rated_event_warnings(events)] == [1, 2, 0, 0]


def test_elo_validate_and_run_show_them_as_warnings(tmp_path: Path) -> None:
    path = tmp_path / "event.trf"
    path.write_text(_event([2450, 2100, 1700, 1600], "15 minutes"), encoding="utf-8")
    runner = CliRunner()
    checked = runner.invoke(app, ["validate", str(path), "--list", "standard"])
    assert checked.exit_code == 0
    assert "got 15 minutes from '15 minutes' (B.02 §1.1) [standard-time-below-minimum]" in (
        checked.stderr
    )
    rated = runner.invoke(
        app, ["run", str(path), "--list", "standard", "--out", str(tmp_path / "out")]
    )
    assert rated.exit_code == 0
    assert "[standard-time-below-minimum]" in rated.stderr


def test_run_groups_them_per_event_in_the_console_and_the_checks_sheet(tmp_path: Path) -> None:
    from openpyxl import load_workbook

    folder = tmp_path / "events"
    folder.mkdir()
    (folder / "a-open.trf").write_text(_event([2450, 2100, 1700, 1600], "60 min"))
    (folder / "b-match.trf").write_text(_event([2200, None], "60 min", rounds=2))
    (folder / "c-fine.trf").write_text(_event([2450, 2500], None, encoded="5400+30"))
    out = tmp_path / "out"
    rated = CliRunner().invoke(app, ["run", str(folder), "--out", str(out)])
    assert rated.exit_code == 0
    lines = rated.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if "Rated-event checks" in line)
    assert lines[start].strip() == "Rated-event checks: 2 events to look at"
    table = "\n".join(lines[start : start + 8])
    assert "a-open.trf" in table
    assert "b-match.trf" in table
    assert "c-fine.trf" not in table
    assert "match-unrated-player (B.02 §6.1)" in table
    ws = load_workbook(out / "report.xlsx", read_only=True)["Checks"]
    rows = list(ws.iter_rows(min_row=2, values_only=True))
    kinds = [row[0] for row in rows]
    first_other = kinds.index("warning") if "warning" in kinds else len(kinds)
    assert kinds[:first_other] == ["rated event"] * first_other
    assert [Path(str(row[1])).name for row in rows[:first_other]] == [
        "a-open.trf",
        "b-match.trf",
        "b-match.trf",
    ]
