"""The three result classes real files hold beside played games, the same in every reader
(TRF, crosstable, games CSV) and through `elo run`:

- a double forfeit: neither player came; zero points each, no game, reason ``forfeit``;
- a pending game: paired, the result not in yet (an event in progress); not rated, reason
  ``unplayed``, one ``results-pending`` warning for the event;
- not paired: no game at all (``Z``, reason ``bye``).

One 4-player event, written in each format: round 1, 1 beats 2 and 3 v 4 is a double
forfeit; round 2, 1 v 3 is paired without a result, 2 and 4 are not paired.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.ingest.detect import read_path
from pipeline.validate import check_event
from schemas.ingest import Games

TRF = """\
012 Club Rapid 2025
042 2025/05/10
052 2025/05/10
092 Rapid
001    1      Alpha, Ann                        2000 AUT    10000011             1.0    1     2 w 1     3 b
001    2      Beta, Bob                         1900 AUT    10000022             0.0    2     1 b 0
001    3      Gamma, Cid                        1800 AUT    10000033             0.0    3     4 w -     1 w
001    4      Delta, Dan                        1700 AUT    10000044             0.0    4     3 b -
"""  # noqa: E501 (round 2 of players 1 and 3: opponent and colour, no result yet)

CROSSTABLE = """\
Club Rapid 2025
Date : 2025/05/10
No.;;Name;Rtg;FED;FideID;1.Rd;2.Rd;Pts.;Rk.
1;;Alpha, Ann;2000;AUT;10000011; 2w1; 3b ;1;1
2;;Beta, Bob;1900;AUT;10000022; 1b0;;0;2
3;;Gamma, Cid;1800;AUT;10000033; 4w-; 1w ;0;3
4;;Delta, Dan;1700;AUT;10000044; 3b-;;0;4
"""

GAMES = """\
event,round,white,black,result,date,list
Club Rapid 2025,1,1,2,1-0,2025-05-10,rapid
Club Rapid 2025,1,3,4,0F-0F,2025-05-10,rapid
Club Rapid 2025,2,3,1,*,2025-05-10,rapid
Club Rapid 2025,2,2,,-,2025-05-10,rapid
Club Rapid 2025,2,4,,-,2025-05-10,rapid
"""
PLAYERS = """\
id,name,fide_id,rating,federation
1,"Alpha, Ann",10000011,2000,AUT
2,"Beta, Bob",10000022,1900,AUT
3,"Gamma, Cid",10000033,1800,AUT
4,"Delta, Dan",10000044,1700,AUT
"""

# (round, start_no, opponent, code, score, played) for every reader
EXPECTED_GAMES = [
    (1, 1, 2, "1", 1.0, True),
    (1, 2, 1, "0", 0.0, True),
    (1, 3, 4, "-", 0.0, False),
    (1, 4, 3, "-", 0.0, False),
    (2, 1, 3, "*", 0.0, False),
    (2, 2, None, "Z", 0.0, False),
    (2, 3, 1, "*", 0.0, False),
    (2, 4, None, "Z", 0.0, False),
]
# games.csv: (round, name, opponent, result, rated, reason)
EXPECTED_RATED = [
    ("1", "Alpha, Ann", "Beta, Bob", "1", "true", ""),
    ("1", "Beta, Bob", "Alpha, Ann", "0", "true", ""),
    ("1", "Delta, Dan", "Gamma, Cid", "-", "false", "forfeit"),
    ("1", "Gamma, Cid", "Delta, Dan", "-", "false", "forfeit"),
    ("2", "Alpha, Ann", "Gamma, Cid", "*", "false", "unplayed"),
    ("2", "Beta, Bob", "", "Z", "false", "bye"),
    ("2", "Delta, Dan", "", "Z", "false", "bye"),
    ("2", "Gamma, Cid", "Alpha, Ann", "*", "false", "unplayed"),
]


def write(tmp_path: Path, kind: str) -> Path:
    if kind == "trf":
        path = tmp_path / "club.trf"
        path.write_text(TRF, encoding="utf-8")
    elif kind == "crosstable":
        path = tmp_path / "club.csv"
        path.write_text(CROSSTABLE, encoding="utf-8")
    else:
        path = tmp_path / "club-games.csv"
        path.write_text(GAMES, encoding="utf-8")
        (tmp_path / "club-games.players.csv").write_text(PLAYERS, encoding="utf-8")
    return path


KINDS = ["trf", "crosstable", "games-csv"]


@pytest.mark.parametrize("kind", KINDS)
def test_every_reader_gives_the_same_result_classes(tmp_path: Path, kind: str) -> None:
    (event,) = read_path(write(tmp_path, kind))
    columns = [
        str(Games.round), str(Games.start_no), str(Games.opponent_no), str(Games.code),
        str(Games.score), str(Games.played),
    ]  # fmt: skip
    assert sorted(event.games.select(columns).rows(), key=lambda r: (r[0], r[1])) == (
        EXPECTED_GAMES
    )
    problems = check_event(event)
    assert [p.code for p in problems if p.is_error] == []  # a double forfeit is mirrored
    pending = [p for p in problems if p.code == "results-pending"]
    assert [p.message for p in pending] == [
        "expected a result for every paired game, got round 2 (1 game) without one yet: "
        "those games are not rated (an event in progress)"
    ]


@pytest.mark.parametrize("kind", KINDS)
def test_elo_run_rates_the_games_that_have_results(tmp_path: Path, kind: str) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["run", str(write(tmp_path, kind)), "--out", str(out), "-q"])
    assert result.exit_code == 0, result.stderr
    assert "[results-pending]" in result.stderr
    with (out / "games.csv").open(encoding="utf-8", newline="") as fh:
        rows = [
            (r["round"], r["name"], r["opponent_name"], r["result"], r["rated"], r["reason"])
            for r in csv.DictReader(fh)
        ]
    assert sorted(rows) == EXPECTED_RATED
    with (out / "ratings.csv").open(encoding="utf-8", newline="") as fh:
        ratings = {r["name"]: (r["games"], r["change"]) for r in csv.DictReader(fh)}
    # the interim change after round 1: only 1 v 2 is rated (D = 100: PD 0.64 / 0.36, K 20)
    assert ratings["Alpha, Ann"] == ("1", "7")
    assert ratings["Beta, Bob"] == ("1", "-7")
    assert ratings["Gamma, Cid"][0] == ratings["Delta, Dan"][0] == "0"
