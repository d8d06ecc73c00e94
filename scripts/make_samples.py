"""Regenerate samples/: one valid FIDE rating period (November 2026) of invented players.

    .venv/bin/python scripts/make_samples.py            # rewrites samples/
    .venv/bin/python scripts/make_samples.py --out DIR  # writes elsewhere (tests)

The output is deterministic (fixed seed, pinned XLSX timestamps): running it twice writes
byte-identical files.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path

from samples_events import (
    BLITZ_DATE,
    LEAGUE_DATES,
    OPEN_ROUND_DATES,
    RAPID_DATE,
    Period,
    SwissEvent,
    build_period,
)
from samples_formats import (
    Cell,
    TrfPlayer,
    decimal_comma,
    points_number,
    swiss_cell,
    write_csv_rows,
    write_registry,
    write_trf,
    xlsx_bytes,
)
from samples_readme import check_candidate, render_readme, rule600_games

ROOT = Path(__file__).resolve().parent.parent

OPEN_FILE = "events/2026-11-standard-open.trf"
RAPID_FILE = "events/2026-11-rapid-swiss.xlsx"
BLITZ_FILE = "events/2026-11-blitz-roundrobin.csv"
LEAGUE_FILE = "events/2026-11-club-league.csv"
LEAGUE_PLAYERS_FILE = "events/2026-11-club-league.players.csv"
REGISTRY_FILE = "registry/players_list_foa.txt"
README_FILE = "README.md"

OPEN_NAME = "Havenwijk Autumn Open 2026"
RAPID_NAME = "Lakeside Rapid Championship 2026"
BLITZ_NAME = "Riverside Friday Blitz 2026"
LEAGUE_NAME = "Northgate Club League 2026"


def open_trf(period: Period) -> str:
    event = period.open
    ranks = {s.no: s.rank for s in event.standings}
    players = [
        TrfPlayer(
            no=no,
            person=person,
            rating=event.ratings[no - 1],
            halves=event.entrants[no].halves,
            rank=ranks[no],
            entries=event.entrants[no].entries,
        )
        for no, person in enumerate(event.field, start=1)
    ]
    header = [
        ("012", OPEN_NAME),
        ("022", "Havenwijk"),
        ("032", "NED"),
        ("042", f"{OPEN_ROUND_DATES[0]:%Y/%m/%d}"),
        ("052", f"{OPEN_ROUND_DATES[-1]:%Y/%m/%d}"),
        ("062", str(len(players))),
        ("072", str(sum(1 for r in event.ratings if r > 0))),
        ("092", "Individual: Swiss-System"),
        ("102", "IA Brenhoven, Ilse"),
        ("112", "FA Kestley, Ruben"),
        ("122", "90 min + 30 sec per move from move 1"),
        ("142", str(len(OPEN_ROUND_DATES))),
        ("162", " W 1.0    D 0.5    L 0.0"),
        ("222", "5400+30"),
    ]
    return write_trf(header, OPEN_ROUND_DATES, players)


def _swiss_rows(event: SwissEvent) -> list[list[Cell]]:
    rounds = event.schedule.rounds
    header: list[Cell] = ["Rk.", "SNo", None, "Name", "FED", "Rtg", "FideID"]
    header += [f"{r}.Rd" for r in range(1, rounds + 1)] + ["Pts.", "TB1", "TB2", "TB3"]
    rows: list[list[Cell]] = [header]
    for s in event.standings:
        person = event.field[s.no - 1]
        row: list[Cell] = [
            s.rank,
            s.no,
            person.title_trf() or None,
            person.name,
            person.federation,
            event.ratings[s.no - 1],
            person.fide_id,
        ]
        row += [swiss_cell(e) for e in event.entrants[s.no].entries]
        row += [points_number(s.halves), s.bh_cut1, s.bh, s.sb]
        rows.append(row)
    return rows


def rapid_xlsx(period: Period) -> bytes:
    stamp = datetime(RAPID_DATE.year, RAPID_DATE.month, RAPID_DATE.day, 18, 40, 12)
    rows: list[list[Cell]] = [
        ["Chess-Results Server Chess-results.com"],
        [RAPID_NAME],
        [f"Last update {stamp:%d.%m.%Y %H:%M:%S}"],
        [f"Date: {RAPID_DATE:%Y/%m/%d}"],
        [f"Final Ranking crosstable after {period.rapid.schedule.rounds} Rounds"],
        *_swiss_rows(period.rapid),
        [],
        ["Annotation:"],
        ["Tie Break1: Buchholz Tie-Breaks (variabel with parameter)"],
        ["Tie Break2: Buchholz Tie-Breaks (variabel with parameter)"],
        ["Tie Break3: Sonneborn-Berger-Tie-Break variable"],
    ]
    return xlsx_bytes(rows, "Sheet1", stamp)


def blitz_csv(period: Period) -> str:
    players = period.blitz_field
    n = len(players)
    halves = period.blitz_halves
    points = [sum(halves[(i, j)] for j in range(n) if j != i) for i in range(n)]
    sb4 = [sum(halves[(i, j)] * points[j] for j in range(n) if j != i) for i in range(n)]

    def direct(i: int) -> int:
        tied = [j for j in range(n) if j != i and points[j] == points[i] and sb4[j] == sb4[i]]
        return sum(halves[(i, j)] for j in tied)

    order = sorted(range(n), key=lambda i: (-points[i], -sb4[i], -direct(i), i))
    rows: list[list[str]] = [
        ["", BLITZ_NAME],
        ["", f"Date: {BLITZ_DATE:%Y/%m/%d}"],
        ["", f"Final Ranking crosstable after {n - 1} Rounds"],
        ["Rk.", "", "Name", "Rtg", "FED", *(str(c) for c in range(1, n + 1)), "Pts.", "TB1", "TB2"],
    ]
    symbols = {2: "1", 1: "½", 0: "0"}
    for rank, i in enumerate(order, start=1):
        p = players[i]
        cells = ["*" if j == i else symbols[halves[(i, j)]] for j in order]
        rows.append(
            [
                str(rank),
                p.title_trf(),
                p.name,
                str(period.blitz_ratings[i]),
                p.federation,
                *cells,
                decimal_comma(points[i] / 2),
                decimal_comma(sb4[i] / 4, 2),
                str(direct(i) // 2),
            ]
        )
    text = write_csv_rows(rows, ";")
    return text + (
        "# Annotation:\n"
        "# Tie Break1: Sonneborn-Berger-Tie-Break variable\n"
        "# Tie Break2: Direct Encounter (The results of the players in the same point group)\n"
    )


def league_csvs(period: Period) -> tuple[str, str]:
    results = {"1": "1-0", "0": "0-1", "=": "1/2-1/2", "+": "1F-0F"}
    game_rows = [["event", "round", "white", "black", "result", "date", "list"]]
    draws = 0
    for g in period.league_games:
        result = results[g.code]
        if g.code == "=":
            draws += 1
            if draws % 3 == 0:
                result = "½-½"
        day = LEAGUE_DATES[g.round - 1]
        game_rows.append(
            [LEAGUE_NAME, str(g.round), str(g.white), str(g.black), result, f"{day}", "standard"]
        )
    player_rows = [["id", "name", "fide_id", "rating", "federation", "title", "sex", "birth_year"]]
    for pid, p in enumerate(period.league_field, start=1):
        rating = p.rating("standard")
        player_rows.append(
            [
                str(pid),
                p.name,
                "" if p.fide_id is None else str(p.fide_id),
                "" if rating is None else str(rating),
                p.federation,
                p.title_trf(),
                "w" if p.woman else "m",
                str(p.birth.year),
            ]
        )
    return write_csv_rows(game_rows, ","), write_csv_rows(player_rows, ",")


def registry_txt(period: Period) -> str:
    people = [*period.pool(), *period.extras]
    assert len({p.fide_id for p in people}) == len(people)
    return write_registry(sorted(people, key=lambda p: (p.name, p.fide_id or 0)))


def write_all(out: Path) -> list[Path]:
    """Generate every sample file under `out`; returns the paths written."""
    period = build_period()
    check_candidate(period)
    assert rule600_games(period), "the rapid event needs a 600-point-rule game"
    league_games, league_players = league_csvs(period)
    texts = {
        OPEN_FILE: open_trf(period),
        BLITZ_FILE: blitz_csv(period),
        LEAGUE_FILE: league_games,
        LEAGUE_PLAYERS_FILE: league_players,
        REGISTRY_FILE: registry_txt(period),
        README_FILE: render_readme(period, files=_file_names(), dates=_dates()),
    }
    written: list[Path] = []
    for rel, text in texts.items():
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
        written.append(path)
    path = out / RAPID_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(rapid_xlsx(period))
    written.append(path)
    return written


def _file_names() -> dict[str, str]:
    return {
        "open": OPEN_FILE,
        "rapid": RAPID_FILE,
        "blitz": BLITZ_FILE,
        "league": LEAGUE_FILE,
        "league_players": LEAGUE_PLAYERS_FILE,
        "registry": REGISTRY_FILE,
        "open_name": OPEN_NAME,
        "rapid_name": RAPID_NAME,
        "blitz_name": BLITZ_NAME,
        "league_name": LEAGUE_NAME,
    }


def _dates() -> dict[str, str]:
    return {
        "open": f"{OPEN_ROUND_DATES[0]:%d}-{OPEN_ROUND_DATES[-1]:%d %B %Y}",
        "rapid": f"{RAPID_DATE:%d %B %Y}",
        "blitz": f"{BLITZ_DATE:%d %B %Y}",
        "league": f"{LEAGUE_DATES[0]:%d}-{LEAGUE_DATES[-1]:%d %B %Y}",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=ROOT / "samples", help="output folder")
    args = parser.parse_args(argv)
    for path in write_all(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
