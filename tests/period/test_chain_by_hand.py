"""A three-month chain (`elo run --chain`) against values computed by hand from table
8.1.2 (PD), table 8.1.1 (dp) and the 2024 rules (cap 400, K 40 / 20, 700 rule, floor
1400, initial ratings from five games with two hypothetical 1800 opponents).

Periods 2025-01, 2025-02, 2025-03 (lists of 1 February, 1 March, 1 April):
- a four-player round robin each month (A, B, C, D); A starts with 26 career games
  (K 40), reaches 29 in January and 32 in February: K 20 from March;
- E, unrated, plays three games in January and three in February: rated 1820 in the
  list of 1 March;
- a match C-D of 26-28 February closes after the list of 1 March (closing 26 February):
  rated in March, with Ro from the February list;
- I drops below 1400 in March and is unrated on the list of 1 April.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from tests.period.builders import Ev, P, read_rows, write_event, write_registry

A = P("Alpha, Anna", 1001, 2000, 1980)
B = P("Bravo, Ben", 1002, 1900, 1970)
C = P("Charlie, Cas", 1003, 1800, 1985)
D = P("Delta, Dirk", 1004, 1700, 1990)
E = P("Echo, Eva", 1005, None, 2000)
F = P("Foxtrot, Fay", 1006, 1600, 1975)
G = P("Golf, Gus", 1007, 1700, 1975)
H = P("Hotel, Hal", 1008, 1800, 1975)
I_ = P("India, Ida", 1009, 1410, 1990)
J = P("Juliet, Jan", 1010, 1420, 1990)

REGISTRY = [
    {"fideid": 1001, "name": A.name, "country": "NED", "rating": 2000, "k": None,
     "birthday": 1980, "career_games": 26, "ever_2400": 0},
    {"fideid": 1002, "name": B.name, "country": "NED", "rating": 1900, "k": 20, "birthday": 1970},
    {"fideid": 1003, "name": C.name, "country": "NED", "rating": 1800, "k": 20, "birthday": 1985},
    {"fideid": 1004, "name": D.name, "country": "NED", "rating": 1700, "k": 20, "birthday": 1990},
    {"fideid": 1005, "name": E.name, "country": "NED", "rating": None, "birthday": 2000},
    {"fideid": 1006, "name": F.name, "country": "NED", "rating": 1600, "k": 20, "birthday": 1975},
    {"fideid": 1007, "name": G.name, "country": "NED", "rating": 1700, "k": 20, "birthday": 1975},
    {"fideid": 1008, "name": H.name, "country": "NED", "rating": 1800, "k": 20, "birthday": 1975},
    {"fideid": 1009, "name": I_.name, "country": "NED", "rating": 1410, "k": None,
     "birthday": 1990, "career_games": 10, "ever_2400": 0},
    {"fideid": 1010, "name": J.name, "country": "NED", "rating": 1420, "k": 20, "birthday": 1990},
]  # fmt: skip


def rr(name: str, start: dt.date, results: list[str]) -> Ev:
    """A, B, C, D: round 1 A-D, B-C; round 2 A-C, D-B; round 3 A-B, C-D (white first)."""
    pairs = [[(1, 4), (2, 3)], [(1, 3), (4, 2)], [(1, 2), (3, 4)]]
    it = iter(results)
    rounds = [[(w, b, next(it)) for w, b in rnd] for rnd in pairs]
    return Ev(name, start, start + dt.timedelta(days=2), [A, B, C, D], rounds)


def open_with_e(name: str, start: dt.date, e_results: list[str]) -> Ev:
    """E against F, G, H (E white, results E's), F, G, H drawing each other."""
    players = [E, F, G, H]
    r1 = [(1, 2, e_results[0]), (3, 4, "=")]
    r2 = [(1, 3, e_results[1]), (2, 4, "=")]
    r3 = [(1, 4, e_results[2]), (2, 3, "=")]
    return Ev(name, start, start + dt.timedelta(days=2), players, [r1, r2, r3])


@pytest.fixture(scope="module")
def chain(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("chain")
    events = root / "events"
    write_event(events, rr("Jan RR", dt.date(2025, 1, 10), ["1", "=", "=", "0", "0", "1"]))
    write_event(events, rr("Feb RR", dt.date(2025, 2, 7), ["=", "1", "1", "=", "=", "="]))
    write_event(events, rr("Mar RR", dt.date(2025, 3, 7), ["1", "=", "=", "0", "0", "1"]))
    write_event(events, open_with_e("Jan Open", dt.date(2025, 1, 17), ["1", "=", "0"]))
    write_event(events, open_with_e("Feb Open", dt.date(2025, 2, 14), ["1", "1", "="]))
    late = Ev("Late Match", dt.date(2025, 2, 26), dt.date(2025, 2, 28), [C, D],
              [[(1, 2, "1")], [(2, 1, "0")]])  # fmt: skip
    write_event(events, late)
    floor = Ev("Floor Match", dt.date(2025, 3, 14), dt.date(2025, 3, 15), [I_, J],
               [[(1, 2, "0")], [(2, 1, "1")]])  # fmt: skip
    write_event(events, floor)
    registry = write_registry(root / "list.csv", REGISTRY)
    out = root / "out"
    result = CliRunner().invoke(
        app, ["run", str(events), "--registry", str(registry), "--chain", "--out", str(out)]
    )
    assert result.exit_code == 0, result.stderr
    return out


def ratings(out: Path, period: str) -> dict[int, dict[str, str]]:
    return {int(r["fide_id"]): r for r in read_rows(out / period / "ratings.csv")}


def listed(out: Path, period: str) -> dict[int, dict[str, str]]:
    return {int(r["fideid"]): r for r in read_rows(out / period / "players_list.csv")}


def test_one_folder_per_period_and_the_chain_files(chain: Path) -> None:
    assert sorted(p.name for p in chain.iterdir()) == [
        "2025-01",
        "2025-02",
        "2025-03",
        "history.csv",
        "summary.json",
    ]
    for period in ("2025-01", "2025-02", "2025-03"):
        names = {p.name for p in (chain / period).iterdir()}
        assert {"ratings.csv", "games.csv", "players_list.csv", "pending.csv"} <= names
    summary = json.loads((chain / "summary.json").read_text(encoding="utf-8"))
    assert [(p["period"], p["events"]) for p in summary["periods"]] == [
        ("2025-01", 2),
        ("2025-02", 2),
        ("2025-03", 3),  # the late match closed after the list of 1 March
    ]


def test_january(chain: Path) -> None:
    r = ratings(chain, "2025-01")
    # A: 1 vs D (D 300: .85), = vs C (200: .76), 0 vs B (100: .64): -0.75 x K 40 = -30
    assert (r[1001]["k"], r[1001]["change_unrounded"], r[1001]["rating_after"]) == (
        "40",
        "-30.00",
        "1970",
    )
    # B: = C (.64), 1 D (.76), 1 A (.36): +0.74 x 20 = 14.8 -> +15
    assert (r[1002]["change_unrounded"], r[1002]["rating_after"]) == ("14.80", "1915")
    assert (r[1003]["change_unrounded"], r[1003]["rating_after"]) == ("15.20", "1815")
    assert (r[1004]["change_unrounded"], r[1004]["rating_after"]) == ("-15.00", "1685")
    assert (r[1005]["status"], r[1005]["games"], r[1005]["rating_after"]) == ("unrated", "3", "")
    pending = read_rows(chain / "2025-01" / "pending.csv")
    assert [(p["fide_id"], p["opponent_rating"], p["score"]) for p in pending] == [
        ("1005", "1600", "1"),
        ("1005", "1700", "0.5"),
        ("1005", "1800", "0"),
    ]
    a = listed(chain, "2025-01")[1001]
    assert (a["rating"], a["games"], a["career_games"], a["k"]) == ("1970", "3", "29", "40")


def test_february_rates_from_the_january_list(chain: Path) -> None:
    r = ratings(chain, "2025-02")
    # A 1970: = D 1685 (285: .84), 1 C 1815 (155: .71), = B 1915 (55: .58): -0.13 x 40
    assert (r[1001]["rating_before"], r[1001]["k"], r[1001]["change"]) == ("1970", "40", "-5")
    assert (r[1002]["change_unrounded"], r[1002]["rating_after"]) == ("3.00", "1918")
    assert (r[1003]["change_unrounded"], r[1003]["rating_after"]) == ("-16.60", "1798")
    assert (r[1004]["change_unrounded"], r[1004]["rating_after"]) == ("16.20", "1701")
    a = listed(chain, "2025-02")[1001]
    assert (a["career_games"], a["k"]) == ("32", "20")  # 30 reached: K 20 from March


def test_initial_rating_from_two_periods(chain: Path) -> None:
    e = ratings(chain, "2025-02")[1005]
    # six games, 4 points; opponents 1600+1700+1800 then 1608+1700+1792 = 10200;
    # Ra = (10200 + 2 x 1800) / 8 = 1725; p = 5/8 -> .63 -> dp 95; Ru = 1820
    assert (e["status"], e["games"], e["score"], e["rating_after"]) == (
        "initial",
        "6",
        "4.00",
        "1820",
    )
    listed_e = listed(chain, "2025-02")[1005]
    assert (listed_e["rating"], listed_e["career_games"], listed_e["k"]) == ("1820", "6", "40")
    assert not [p for p in read_rows(chain / "2025-02" / "pending.csv") if p["fide_id"] == "1005"]


def test_march_with_k_20_and_the_late_event_from_the_february_list(chain: Path) -> None:
    r = ratings(chain, "2025-03")
    # A 1965, K 20: 1 D 1701 (264: .82), = C 1798 (167: .72), 0 B 1918 (47: .57): -0.61
    assert (r[1001]["k"], r[1001]["change_unrounded"], r[1001]["rating_after"]) == (
        "20",
        "-12.20",
        "1953",
    )
    assert r[1002]["rating_after"] == "1931"
    # C: round robin from 1798 (+0.75) and the late match from the February list, C 1815
    # vs D 1685 (130: .68, two wins: +0.64): +1.39 x 20 = 27.8 -> 1798 + 28
    assert (r[1003]["rating_before"], r[1003]["change_unrounded"], r[1003]["rating_after"]) == (
        "1798",
        "27.80",
        "1826",
    )
    assert (r[1004]["change_unrounded"], r[1004]["rating_after"]) == ("-28.20", "1673")


def test_a_player_below_the_floor_is_unrated_on_the_next_list(chain: Path) -> None:
    i = ratings(chain, "2025-03")[1009]
    # I 1410, K 40 (10 career games) loses twice to J 1420 (D -10: .49): -0.98 x 40
    assert (i["k"], i["change_unrounded"], i["rating_after"]) == ("40", "-39.20", "1371")
    row = listed(chain, "2025-03")[1009]
    assert (row["rating"], row["k"], row["games"]) == ("", "", "2")
    assert listed(chain, "2025-03")[1010]["rating"] == "1440"


def test_history_holds_every_period(chain: Path) -> None:
    rows = read_rows(chain / "history.csv")
    a = [(r["period"], r["rating_before"], r["change"], r["rating_after"])
         for r in rows if r["fide_id"] == "1001"]  # fmt: skip
    assert a == [
        ("2025-01", "2000", "-30", "1970"),
        ("2025-02", "1970", "-5", "1965"),
        ("2025-03", "1965", "-12", "1953"),
    ]


def test_the_console_shows_one_line_per_period(chain: Path) -> None:
    from pipeline.report.console import summary_text

    summary = json.loads((chain / "summary.json").read_text(encoding="utf-8"))
    lines = summary_text(summary, width=100).splitlines()
    assert lines[0] == "OK (exit 0): 3 periods rated in order (2025-01 to 2025-03), 7 events"
    assert lines[2].split() == ["period", "list", "of", "events", "players", "rated",
                                "initial", "unrated", "warnings"]  # fmt: skip
    rows = [line.split()[:7] for line in lines[4:7]]
    assert rows == [
        ["2025-01", "2025-02-01", "2", "8", "7", "0", "1"],
        ["2025-02", "2025-03-01", "2", "8", "7", "1", "0"],
        ["2025-03", "2025-04-01", "3", "6", "6", "0", "0"],
    ]
