"""The rules of the period's date in a chain across 1 March 2024: the February 2024
period keeps the 2022 initial-rating method, the March period uses the 2024 one."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from typer.testing import CliRunner

from pipeline.cli import app
from tests.period.builders import Ev, P, read_rows, round_robin, write_event, write_registry

OPPONENTS = [P(f"Rated, R{i}", 4000 + i, 1700, 1980) for i in range(1, 6)]
E_RESULTS = ["1", "1", "1", "0", "0"]  # three of five against 1700s


def event(name: str, start: dt.date, newcomer: P) -> Ev:
    """A six-player round robin: the newcomer (no. 1) against five 1700s drawing each
    other (no change for them: D 0, PD .50)."""
    rounds = []
    e_games = iter(E_RESULTS)
    for pairs in round_robin(6):
        games = []
        for w, b in pairs:
            if 1 in (w, b):
                result = next(e_games)
                games.append((1, b if w == 1 else w, result))
            else:
                games.append((w, b, "="))
        rounds.append(games)
    return Ev(name, start, start + dt.timedelta(days=4), [newcomer, *OPPONENTS], rounds)


def test_initial_ratings_follow_the_rules_of_each_period(tmp_path: Path) -> None:
    e = P("Newcomer, Eva", 4100, None, 1990)
    f = P("Newcomer, Fay", 4101, None, 1990)
    write_event(tmp_path / "ev", event("Feb 2024", dt.date(2024, 2, 5), e))
    write_event(tmp_path / "ev", event("Mar 2024", dt.date(2024, 3, 4), f))
    everyone = [*OPPONENTS, e, f]
    rows = [{"fideid": p.fide_id, "name": p.name, "country": "NED", "rating": p.rating,
             "k": 20 if p.rating else None, "birthday": 1980} for p in everyone]  # fmt: skip
    registry = write_registry(tmp_path / "list.csv", rows)
    out = tmp_path / "out"
    result = CliRunner().invoke(
        app,
        ["run", str(tmp_path / "ev"), "--registry", str(registry), "--chain", "--out", str(out)],
    )
    assert result.exit_code == 0, result.stderr
    feb = {r["fide_id"]: r for r in read_rows(out / "2024-02" / "ratings.csv")}
    mar = {r["fide_id"]: r for r in read_rows(out / "2024-03" / "ratings.csv")}
    # 2022 method: Ra = 1700, 3 of 5 is one half point above 50 %: 1700 + 20
    assert (feb["4100"]["status"], feb["4100"]["rating_after"]) == ("initial", "1720")
    # 2024 method: Ra = (5 x 1700 + 2 x 1800) / 7 = 1728.57, p = 4/7 -> .57 -> dp 50
    assert (mar["4101"]["status"], mar["4101"]["rating_after"]) == ("initial", "1779")
    # E is rated on the list of 1 March and plays nobody in March
    listed = {r["fideid"]: r for r in read_rows(out / "2024-03" / "players_list.csv")}
    assert (listed["4100"]["rating"], listed["4100"]["games"]) == ("1720", "0")
