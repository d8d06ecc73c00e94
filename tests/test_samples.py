"""Invariants of samples/ (one valid rating period, November 2026), checked with small
independent parsers so that they hold whatever the project's readers do.

Formats: reference/fide-rules.md section 8 (TRF columns, FIDE combined list offsets,
chess-results crosstables). Rules: sections 1 (600-point rule), 5 (K), 6 (initial rating).
"""

from __future__ import annotations

import csv
import io
import math
import re
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest

from tests.conftest import ROOT, SAMPLES

EVENTS = SAMPLES / "events"
OPEN = EVENTS / "2026-11-standard-open.trf"
RAPID = EVENTS / "2026-11-rapid-swiss.xlsx"
BLITZ = EVENTS / "2026-11-blitz-roundrobin.csv"
LEAGUE = EVENTS / "2026-11-club-league.csv"
LEAGUE_PLAYERS = EVENTS / "2026-11-club-league.players.csv"
REGISTRY = SAMPLES / "registry" / "players_list_foa.txt"
TEXT_FILES = [
    "README.md",
    "events/2026-11-standard-open.trf",
    "events/2026-11-blitz-roundrobin.csv",
    "events/2026-11-club-league.csv",
    "events/2026-11-club-league.players.csv",
    "registry/players_list_foa.txt",
]
HALVES = {"1": 2, "=": 1, "0": 0, "+": 2, "-": 0, "H": 1, "F": 2, "U": 2, "Z": 0}
MIRROR = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+"}
LIST_YEAR = 2026


# ----------------------------------------------------------------- small parsers


@dataclass(frozen=True)
class Round:
    opponent: int | None
    colour: str
    code: str


@dataclass(frozen=True)
class TrfPlayer:
    no: int
    name: str
    rating: int
    fide_id: int | None
    halves: int  # points 81-84, in halves
    rank: int
    rounds: tuple[Round, ...]


def trf_lines() -> list[str]:
    return OPEN.read_bytes().decode("ascii").split("\r\n")


def trf_records() -> dict[str, str]:
    return {ln[:3]: ln[4:] for ln in trf_lines() if ln[:3].isdigit() and ln[:3] != "001"}


def trf_players() -> list[TrfPlayer]:
    """001 records at the TRF columns (1-based, inclusive)."""
    players = []
    for ln in trf_lines():
        if not ln.startswith("001"):
            continue
        rounds = []
        for start in range(91, len(ln), 10):
            opp = ln[start : start + 4]
            rounds.append(Round(None if opp == "0000" else int(opp), ln[start + 5], ln[start + 7]))
        fide_id = ln[57:68].strip()
        players.append(
            TrfPlayer(
                no=int(ln[4:8]),
                name=ln[14:47].strip(),
                rating=int(ln[48:52]),
                fide_id=int(fide_id) if fide_id else None,
                halves=round(float(ln[80:84]) * 2),
                rank=int(ln[85:89]),
                rounds=tuple(rounds),
            )
        )
    return players


def registry_rows() -> dict[int, dict[str, str]]:
    """The combined list, field offsets taken from the header tokens."""
    lines = REGISTRY.read_text(encoding="ascii").splitlines()
    header = lines[0]
    tokens = [(m.start(), m.group()) for m in re.finditer(r"ID Number|B-day|\S+", header)]
    rows = {}
    for ln in lines[1:]:
        row = {}
        for i, (start, name) in enumerate(tokens):
            end = tokens[i + 1][0] if i + 1 < len(tokens) else len(ln)
            row[name] = ln[start:end].strip()
        rows[int(row["ID Number"])] = row
    return rows


def registry_by_name() -> dict[str, dict[str, str]]:
    return {row["Name"]: row for row in registry_rows().values()}


def rapid_sheet() -> list[tuple[object, ...]]:
    wb = openpyxl.load_workbook(RAPID, read_only=True)
    ws = wb.active
    assert ws is not None
    rows: list[tuple[object, ...]] = [tuple(r) for r in ws.iter_rows(values_only=True)]
    wb.close()
    return rows


def blitz_rows() -> list[list[str]]:
    return list(csv.reader(io.StringIO(BLITZ.read_text(encoding="utf-8")), delimiter=";"))


def csv_dicts(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def rating_or_none(text: str) -> int | None:
    return int(text) if text.strip() not in ("", "0") else None


# ------------------------------------------------------------------------ TRF


@pytest.mark.parametrize(
    ("code", "value"),
    [
        ("042", "2026/11/06"),  # TRF26: start date YYYY/MM/DD
        ("052", "2026/11/14"),
        ("142", "9"),  # TRF26: number of rounds
        ("222", "5400+30"),  # TRF26: encoded time control, 90 min + 30 s = standard
        ("032", "NED"),
        ("092", "Individual: Swiss-System"),
    ],
    ids=["042", "052", "142", "222", "032", "092"],
)
def test_trf_tournament_records(code: str, value: str) -> None:
    assert trf_records()[code] == value


def test_trf_counts_and_round_dates() -> None:
    records, players = trf_records(), trf_players()
    assert int(records["062"]) == len(players) >= 100
    assert int(records["072"]) == sum(1 for p in players if p.rating > 0)
    assert "W 1.0" in records["162"]
    line132 = next(ln for ln in trf_lines() if ln.startswith("132"))
    dates = [line132[91 + 10 * r : 99 + 10 * r] for r in range(9)]
    assert dates == [f"26/11/{d:02d}" for d in range(6, 15)]
    assert sum(1 for ln in trf_lines() if ln.startswith("###")) == 3


def test_trf_player_line_columns() -> None:
    """Separators at the blank columns of the 001 record and each field's shape."""
    for ln in (ln for ln in trf_lines() if ln.startswith("001")):
        for col in (4, 9, 14, 48, 53, 57, 69, 80, 85, 90, 91):
            assert ln[col - 1] == " ", (col, ln)
        assert re.fullmatch(r" *\d{1,4}", ln[4:8])
        assert ln[9] in "mw"
        assert ln[10:13].strip() in {"", "GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM"}
        assert re.fullmatch(r" *\d{1,4}", ln[48:52])
        assert re.fullmatch(r"[A-Z]{3}", ln[53:56])
        assert re.fullmatch(r" *(\d{8,9})?", ln[57:68])
        assert re.fullmatch(r"\d{4}/\d\d/\d\d", ln[69:79])
        assert re.fullmatch(r" *\d{1,2}\.[05]", ln[80:84])
        blocks = ln[91:]
        assert len(blocks) == 8 + 10 * 8  # 9 rounds, no trailing blanks
        for r in range(9):
            block = blocks[10 * r : 10 * r + 8]
            assert re.fullmatch(r"( *\d{1,4}|0000) [wb-] [10=+\-HUZ]", block), (r + 1, ln)
            if r < 8:
                assert blocks[10 * r + 8 : 10 * r + 10] == "  "


def test_trf_start_numbers_follow_rating() -> None:
    players = trf_players()
    assert [p.no for p in players] == list(range(1, len(players) + 1))
    ratings = [p.rating for p in players]
    assert ratings == sorted(ratings, reverse=True)


def test_trf_games_are_mirrored() -> None:
    """A game appears on both lines, opposite colours, mirrored result (section 8)."""
    by_no = {p.no: p for p in trf_players()}
    for p in by_no.values():
        for r, e in enumerate(p.rounds):
            if e.opponent is None:
                assert e.code in "HUZ"
                assert e.colour == "-"
                continue
            other = by_no[e.opponent].rounds[r]
            assert other.opponent == p.no
            assert {e.colour, other.colour} == {"w", "b"}
            assert other.code == MIRROR[e.code]


def test_trf_points_and_ranks() -> None:
    players = trf_players()
    for p in players:
        assert p.halves == sum(HALVES[e.code] for e in p.rounds), p.name
    assert sorted(p.rank for p in players) == list(range(1, len(players) + 1))
    by_rank = sorted(players, key=lambda p: p.rank)
    assert [p.halves for p in by_rank] == sorted((p.halves for p in players), reverse=True)


def test_trf_swiss_pairing_quality() -> None:
    """No rematches; no colour three times running; colour difference at most 2."""
    for p in trf_players():
        opponents = [e.opponent for e in p.rounds if e.opponent is not None]
        assert len(opponents) == len(set(opponents)), p.name
        colours = "".join(e.colour for e in p.rounds if e.code in "10=")
        assert "www" not in colours, p.name
        assert "bbb" not in colours, p.name
        assert abs(colours.count("w") - colours.count("b")) <= 2


def test_trf_covers_the_special_cases() -> None:
    players = trf_players()
    codes = Counter(e.code for p in players for e in p.rounds)
    for code in "+-HUZ10=":
        assert codes[code] > 0, code
    assert any(p.rating >= 2650 for p in players)
    assert any(p.rating == 0 and p.fide_id is None for p in players)
    assert any(p.rating == 0 and p.fide_id is not None for p in players)
    for r in range(9):  # the pairing-allocated bye only when the paired count is odd
        present = [p for p in players if p.rounds[r].code not in "HZ"]
        byes = [p for p in present if p.rounds[r].code == "U"]
        assert len(byes) == len(present) % 2


# ----------------------------------------------------------------- registry


def test_registry_header_matches_fide(shared_dir: Path) -> None:
    real = shared_dir / "data" / "rating-list" / "players_list_foa_sample.txt"
    real_header = real.read_text(encoding="utf-8").splitlines()[0]
    assert REGISTRY.read_text(encoding="ascii").splitlines()[0] == real_header


def test_registry_fixed_width() -> None:
    """0-based [start, end) fields of fide-rules.md section 8; 162 characters a line."""
    lines = REGISTRY.read_text(encoding="ascii").split("\n")
    assert lines[-1] == ""
    cuts = [0, 15, 76, 80, 84, 89, 94, 109, 113, 119, 123, 126, 132, 136, 139, 145, 149, 152]
    header_tokens = [lines[0][c:].split()[0] for c in cuts]
    assert header_tokens[:3] == ["ID", "Name", "Fed"]
    assert header_tokens[-1] == "B-day"
    for ln in lines[:-1]:
        assert len(ln) == 162
        for c in cuts[1:]:
            assert ln[c - 1] == " ", (c, ln)
    assert len(lines) - 2 >= 300


def test_registry_values() -> None:
    """IDs 8-9 digits; ratings >= 1400 (floor since March 2024); K as section 5 derives."""
    rows = registry_rows()
    for fide_id, row in rows.items():
        assert 8 <= len(str(fide_id)) <= 9
        assert row["Sex"] in {"M", "F"}
        assert row["Flag"] in {"", "w", "i", "wi"}
        assert ("w" in row["Flag"]) == (row["Sex"] == "F")
        junior = LIST_YEAR - int(row["B-day"]) <= 18
        for rating_key, games_key, k_key in (
            ("SRtng", "SGm", "SK"),
            ("RRtng", "RGm", "Rk"),
            ("BRtng", "BGm", "BK"),
        ):
            if not row[rating_key]:
                assert not row[k_key]
                assert not row[games_key]
                continue
            rating, k = int(row[rating_key]), int(row[k_key])
            assert rating >= 1400
            assert k in {10, 20, 40}
            if rating >= 2400:
                assert k == 10
            elif junior and rating < 2300:
                assert k in {10, 40}  # 10 only if 2400 was reached before


def _event_ratings() -> list[tuple[str, int, str, int | None]]:
    """(event, FIDE ID, list, rating shown) of every sample player with a FIDE ID."""
    out: list[tuple[str, int, str, int | None]] = []
    for p in trf_players():
        if p.fide_id is not None:
            out.append(("open", p.fide_id, "SRtng", p.rating or None))
    rows = rapid_sheet()
    start = next(i for i, r in enumerate(rows) if r[0] == "Rk.") + 1
    for r in rows[start:]:
        if r[0] is None:
            break
        if r[6] is not None:
            out.append(("rapid", int(str(r[6])), "RRtng", int(str(r[5])) or None))
    for row in csv_dicts(LEAGUE_PLAYERS):
        out.append(("league", int(row["fide_id"]), "SRtng", rating_or_none(row["rating"])))
    return out


def test_every_event_player_is_in_the_registry_with_the_same_rating() -> None:
    rows = registry_rows()
    for event, fide_id, key, rating in _event_ratings():
        assert fide_id in rows, (event, fide_id)
        assert rating_or_none(rows[fide_id][key]) == rating, (event, fide_id)


def test_blitz_players_match_the_registry_by_name() -> None:
    """The round-robin export has no FideID column: names match the list exactly."""
    by_name = registry_by_name()
    for row in blitz_rows()[4:14]:
        entry = by_name[row[2]]
        assert int(row[3]) > 0  # no FIDE ID to find a standard rating with
        assert rating_or_none(entry["BRtng"]) == rating_or_none(row[3])
        assert entry["Fed"] == row[4]


# --------------------------------------------------------------- rapid XLSX


SWISS_CELL = re.compile(r"(?P<opp>\d+)(?P<col>[wb])(?P<res>[10½+\-])|-(?P<bye>[1½0])")


def _rapid_table() -> tuple[list[object], list[tuple[object, ...]]]:
    rows = rapid_sheet()
    start = next(i for i, r in enumerate(rows) if r[0] == "Rk.")
    table = []
    for r in rows[start + 1 :]:
        if r[0] is None:
            break
        table.append(r)
    return list(rows[start]), table


def test_rapid_preamble_and_header() -> None:
    rows = rapid_sheet()
    preamble = [str(r[0]) for r in rows[:5]]
    assert preamble[0].startswith("Chess-Results Server")
    assert "Rapid" in preamble[1]
    assert preamble[2] == "Last update 22.11.2026 18:40:12"
    assert preamble[3] == "Date: 2026/11/22"
    assert preamble[4] == "Final Ranking crosstable after 7 Rounds"
    assert rows[5][0] == "Rk."
    header, table = _rapid_table()
    rounds = [f"{r}.Rd" for r in range(1, 8)]
    expected = ["Rk.", "SNo", None, "Name", "FED", "Rtg", "FideID", *rounds]
    assert header[: len(expected)] == expected
    assert header[len(expected) :] == ["Pts.", "TB1", "TB2", "TB3"]
    assert len(table) == 40
    assert [r[0] for r in table] == list(range(1, 41))
    assert any(str(r[0]).startswith("Annotation") for r in rows if r[0] is not None)


def test_rapid_games_mirrored_and_points() -> None:
    _, table = _rapid_table()
    by_sno = {int(str(r[1])): r for r in table}
    for sno, r in by_sno.items():
        halves = 0
        for rnd in range(7):
            m = SWISS_CELL.fullmatch(str(r[7 + rnd]))
            assert m, (sno, r[7 + rnd])
            if m["bye"]:
                halves += {"1": 2, "½": 1, "0": 0}[m["bye"]]
                continue
            halves += {"1": 2, "½": 1, "0": 0, "+": 2, "-": 0}[m["res"]]
            other = SWISS_CELL.fullmatch(str(by_sno[int(m["opp"])][7 + rnd]))
            assert other
            assert int(other["opp"]) == sno
            assert {m["col"], other["col"]} == {"w", "b"}
            mirror = {"1": "0", "0": "1", "½": "½", "+": "-", "-": "+"}
            assert other["res"] == mirror[m["res"]]
        assert float(str(r[14])) * 2 == halves, sno


def test_rapid_has_a_600_point_rule_game() -> None:
    """Rapid/blitz: not rated when >= 600 apart and one is above 2600 (section 1)."""
    _, table = _rapid_table()
    by_sno = {int(str(r[1])): r for r in table}
    top = max(table, key=lambda r: int(str(r[5])))
    assert int(str(top[5])) > 2600
    gaps = []
    for rnd in range(7):
        m = SWISS_CELL.fullmatch(str(top[7 + rnd]))
        if m and m["opp"] and m["res"] in "10½":
            opp_rating = int(str(by_sno[int(m["opp"])][5]))
            if opp_rating:
                gaps.append(int(str(top[5])) - opp_rating)
    assert any(gap >= 600 for gap in gaps)
    assert any(int(str(r[5])) == 0 and r[6] is not None for r in table)  # standard only


# --------------------------------------------------------------- blitz CSV


def test_blitz_round_robin_shape() -> None:
    text = BLITZ.read_text(encoding="utf-8")
    rows = blitz_rows()
    assert rows[0][0] == ""
    assert "Blitz" in rows[0][1]
    assert rows[1] == ["", "Date: 2026/11/28"]
    assert rows[2] == ["", "Final Ranking crosstable after 9 Rounds"]
    n = 10
    assert rows[3] == [
        "Rk.",
        "",
        "Name",
        "Rtg",
        "FED",
        *map(str, range(1, n + 1)),
        "Pts.",
        "TB1",
        "TB2",
    ]
    table = rows[4 : 4 + n]
    assert all(len(r) == 5 + n + 3 for r in table)
    assert rows[4 + n][0].startswith("# Annotation")
    value = {"1": 2, "½": 1, "0": 0}
    for i, r in enumerate(table):
        assert r[0] == str(i + 1)
        cells = r[5 : 5 + n]
        assert cells[i] == "*"
        halves = 0
        for j, cell in enumerate(cells):
            if j != i:
                halves += value[cell]
                assert value[cell] + value[table[j][5 + i]] == 2
        assert float(r[5 + n].replace(",", ".")) * 2 == halves
        assert re.fullmatch(r"\d+,\d\d", r[6 + n])
    assert "\r" not in text


# ------------------------------------------------------------- club league


def test_league_files_shape() -> None:
    games = csv_dicts(LEAGUE)
    players = csv_dicts(LEAGUE_PLAYERS)
    assert list(games[0]) == ["event", "round", "white", "black", "result", "date", "list"]
    assert list(players[0]) == [
        "id",
        "name",
        "fide_id",
        "rating",
        "federation",
        "title",
        "sex",
        "birth_year",
    ]
    ids = {p["id"] for p in players}
    results = Counter(g["result"] for g in games)
    assert set(results) <= {"1-0", "0-1", "1/2-1/2", "½-½", "1F-0F"}
    assert results["1F-0F"] == 1
    assert results["½-½"] >= 1
    assert results["1/2-1/2"] >= 1
    pairs = set()
    for g in games:
        assert g["white"] in ids
        assert g["black"] in ids
        assert g["white"] != g["black"]
        assert g["list"] == "standard"
        assert g["date"].startswith("2026-11-")
        pair = frozenset((g["white"], g["black"]))
        assert pair not in pairs
        pairs.add(pair)
    assert len({g["event"] for g in games}) == 1


def _candidate_games() -> list[tuple[int, int]]:
    """(opponent rating, halves) of the unrated player in both the open and the league."""
    league_players = {p["id"]: p for p in csv_dicts(LEAGUE_PLAYERS)}
    unrated = {int(p["fide_id"]): p["id"] for p in league_players.values() if not p["rating"]}
    trf = {p.no: p for p in trf_players()}
    (cand,) = [p for p in trf.values() if p.rating == 0 and p.fide_id in unrated]
    games = [
        (trf[e.opponent].rating, HALVES[e.code])
        for e in cand.rounds
        if e.opponent is not None and e.code in "10=" and trf[e.opponent].rating
    ]
    cid = unrated[cand.fide_id or 0]
    score = {"1-0": 2, "0-1": 0, "1/2-1/2": 1, "½-½": 1}
    for g in csv_dicts(LEAGUE):
        if cid not in (g["white"], g["black"]) or g["result"] not in score:
            continue
        other = league_players[g["black"] if g["white"] == cid else g["white"]]
        halves = score[g["result"]] if g["white"] == cid else 2 - score[g["result"]]
        if other["rating"]:
            games.append((int(other["rating"]), halves))
    return games


def test_initial_rating_candidate(shared_dir: Path) -> None:
    """Section 6: >= 5 rated opponents pooled; Ra with two 1800 opponents and a draw
    against each; dp from table 8.1.1; published when Ru >= 1400."""
    games = _candidate_games()
    n = len(games)
    assert n >= 5
    table = shared_dir / "reference" / "tables" / "fide_table_8_1_1_p_to_dp.csv"
    dp = {row["p"]: int(row["dp"]) for row in csv.DictReader(io.StringIO(table.read_text()))}
    won = Fraction(sum(h for _, h in games), 2)
    ra = Fraction(sum(r for r, _ in games) + 2 * 1800, n + 2)
    p100 = math.floor((won + 1) / (n + 2) * 100 + Fraction(1, 2))  # p to two decimals
    ru = math.floor(ra + dp[f"{p100 // 100}.{p100 % 100:02d}"] + Fraction(1, 2))
    assert ru >= 1400


# ---------------------------------------------------------- regeneration


def _generate(out: Path) -> None:
    script = ROOT / "scripts" / "make_samples.py"
    subprocess.run(
        [sys.executable, str(script), "--out", str(out)], check=True, capture_output=True
    )


def _xlsx_values(path: Path) -> list[tuple[object, ...]]:
    wb = openpyxl.load_workbook(path)
    values = [tuple(r) for ws in wb.worksheets for r in ws.iter_rows(values_only=True)]
    return [(*v, wb.properties.created, wb.properties.modified) for v in values]


def test_regeneration_is_byte_identical(tmp_path: Path) -> None:
    _generate(tmp_path / "a")
    for rel in TEXT_FILES:
        assert (tmp_path / "a" / rel).read_bytes() == (SAMPLES / rel).read_bytes(), rel
    rel = "events/2026-11-rapid-swiss.xlsx"
    assert _xlsx_values(tmp_path / "a" / rel) == _xlsx_values(SAMPLES / rel)
    _generate(tmp_path / "b")
    assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes()


# ------------------------------------------------- the project's own readers


def test_project_readers_find_nothing_to_report() -> None:
    """What `elo validate samples/ --registry ...` does: every file read, no error and no
    warning, the registry recognised as a rating list, four events of November 2026."""
    from pipeline.validate import validate_paths

    report = validate_paths([SAMPLES], REGISTRY)
    assert [str(p) for p in report.problems] == []
    assert len(report.events) == 4
    lists = sorted(str(ev.events["list"][0]) for ev in report.events)
    assert lists == ["blitz", "rapid", "standard", "standard"]
    for ev in report.events:
        assert str(ev.events["start_date"][0]).startswith("2026-11-")
