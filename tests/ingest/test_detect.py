"""File kinds by content (never by extension), the folder search, and read_path's
dispatch and `--list` override (design.md: `elo run PATH...` searches folders for
.trf/.txt TRF files, .xlsx and .csv; architecture.md: detect.py)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from pipeline.errors import InputError
from pipeline.ingest.detect import (
    HEAD_BYTES,
    Inputs,
    describe_unknown,
    detect_kind,
    find_inputs,
    read_path,
)

DATA = Path(__file__).resolve().parent.parent / "validate" / "data"
TRF = (DATA / "valid_open.trf").read_bytes()
CROSSTABLE = (DATA / "valid_rapid_swiss.csv").read_bytes()
GAMES = (DATA / "valid_league.csv").read_bytes()
PLAYERS = (DATA / "valid_league.players.csv").read_bytes()
REGISTRY = (DATA / "valid_players_list_foa.txt").read_bytes()


def _zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
    return buffer.getvalue()


def _zipped_list() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("players_list_foa.txt", REGISTRY)
    return buffer.getvalue()


KIND_CASES: list[tuple[str, bytes, str]] = [
    ("trf", TRF, "trf"),
    # Swiss-Manager: Windows-1252, CR LF, sometimes a UTF-8 BOM.
    ("trf-cp1252-crlf", TRF.replace(b"\n", b"\r\n").replace(b"Tomas", b"Tom\xe1s"), "trf"),
    ("trf-bom", b"\xef\xbb\xbf" + TRF, "trf"),
    ("crosstable-csv", CROSSTABLE, "crosstable-csv"),
    ("crosstable-csv-no-header", CROSSTABLE.replace(b"Rk.;SNo", b"xx;SNo"), "crosstable-csv"),
    ("xlsx-zip", _zip(), "crosstable-xlsx"),
    ("zipped-rating-list", _zipped_list(), "registry"),
    ("games-csv", GAMES, "games-csv"),
    ("players-csv", PLAYERS, "players-csv"),
    ("registry-txt", REGISTRY, "registry"),
    ("empty", b"", "unknown"),
    ("blank", b"  \r\n\n", "unknown"),
    ("xls-ole2", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(200), "unknown"),
    ("binary", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "unknown"),
    ("prose", b"Round 1 pairings will be posted at 10:00.\n", "unknown"),
    ("readme-naming-chess-results", b"Results go to chess-results.com after round 9.\n", "unknown"),
    # an export whose header row was damaged, in another page language: still a crosstable
    (
        "crosstable-de-no-header",
        b"Aus der Turnierdatenbank von Chess-Results https://chess-results.com;;;\n"
        b"Herbstopen 2025;;;\nxx;;Name;Elo;1.Rd;2.Rd\n1;;Berg Ana;2100;2w1;3b0\n",
        "crosstable-csv",
    ),
    # a table whose comment lines mention chess-results is not one
    (
        "comment-naming-chess-results",
        b"# rows as chess-results exports them\nfile,line,column,code\na,1,2,x\n",
        "unknown",
    ),
    # a starting-rank CSV (first column No.), as a spreadsheet saves it with commas
    (
        "crosstable-starting-rank-commas",
        b"Spring Open,,,\nNo.,,Name,Rtg,FED,1.Rd,2.Rd,Pts.,Rk.\n1,,Berg Ana,2100,GER,2w1,3b0,1,1\n",
        "crosstable-csv",
    ),
]


@pytest.mark.parametrize(
    ("head", "kind"), [c[1:] for c in KIND_CASES], ids=[c[0] for c in KIND_CASES]
)
def test_detect_kind_by_content(head: bytes, kind: str) -> None:
    for name in ("x.trf", "x.txt", "x.csv", "x.xlsx"):  # the extension never matters
        assert detect_kind(Path(name), head[:HEAD_BYTES]) == kind


@pytest.mark.parametrize(
    ("head", "described"),
    [
        (b"", "an empty file"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an Excel 97-2003 workbook (.xls): save it as .xlsx"),
        (b"ab\x00cd", "a binary file"),
        (b"\n\n  hello  \nworld", "a file starting 'hello'"),
        (b"y" * 80, "a file starting '" + "y" * 60 + "...'"),
    ],
    ids=["empty", "xls", "binary", "first-line", "long-line"],
)
def test_describe_unknown(head: bytes, described: str) -> None:
    assert describe_unknown(head) == described


def _tree(root: Path) -> None:
    (root / "sub" / "deeper").mkdir(parents=True)
    (root / ".hidden").mkdir()
    (root / "b-open.trf").write_bytes(TRF)
    (root / "sub" / "a-open-as-text.txt").write_bytes(TRF)  # Swiss-Manager writes .txt
    (root / "sub" / "deeper" / "rapid.csv").write_bytes(CROSSTABLE)
    (root / "league.csv").write_bytes(GAMES)
    (root / "league.players.csv").write_bytes(PLAYERS)
    (root / "players_list_foa.txt").write_bytes(REGISTRY)
    (root / "notes.txt").write_bytes(b"bring a pen\n")
    (root / "photo.png").write_bytes(b"\x89PNG")  # not a candidate extension: ignored
    (root / "~$rapid.xlsx").write_bytes(b"lock")  # Excel lock file: ignored
    (root / ".hidden" / "old.trf").write_bytes(TRF)  # hidden folder: ignored


def test_find_inputs_sorts_the_tree(tmp_path: Path) -> None:
    _tree(tmp_path)
    found = find_inputs([tmp_path])
    assert found == Inputs(
        events=[
            tmp_path / "b-open.trf",
            tmp_path / "league.csv",
            tmp_path / "sub" / "a-open-as-text.txt",
            tmp_path / "sub" / "deeper" / "rapid.csv",
        ],
        registries=[tmp_path / "players_list_foa.txt"],
        companions=[tmp_path / "league.players.csv"],
        skipped=[
            (
                tmp_path / "notes.txt",
                "expected a TRF file, a crosstable (XLSX/CSV), a games CSV or a rating list, "
                "got a file starting 'bring a pen'",
            )
        ],
    )


def test_find_inputs_is_deterministic_and_deduplicated(tmp_path: Path) -> None:
    _tree(tmp_path)
    once = find_inputs([tmp_path])
    twice = find_inputs([tmp_path, tmp_path / "b-open.trf", tmp_path])
    assert twice == once


def test_explicit_files_keep_their_order_and_unknown_ones_are_events(tmp_path: Path) -> None:
    _tree(tmp_path)
    notes, trf, registry = (
        tmp_path / "notes.txt",
        tmp_path / "b-open.trf",
        tmp_path / "players_list_foa.txt",
    )
    missing = tmp_path / "missing.trf"
    found = find_inputs([notes, trf, registry, missing])
    assert found.events == [notes, trf, missing]  # read_path says why they fail
    assert found.registries == [registry]
    assert found.skipped == []


def test_read_path_trf_and_list_override(tmp_path: Path) -> None:
    path = tmp_path / "open.txt"
    path.write_bytes(TRF)
    (event,) = read_path(path)
    row = event.events.row(0, named=True)
    assert (row["file"], row["list"], row["list_source"]) == (str(path), "standard", "122")
    (event,) = read_path(path, "rapid")
    row = event.events.row(0, named=True)
    assert (row["list"], row["list_source"]) == ("rapid", "option")


def test_read_path_games_csv_uses_its_companion(tmp_path: Path) -> None:
    (tmp_path / "league.csv").write_bytes(GAMES)
    (tmp_path / "league.players.csv").write_bytes(PLAYERS)
    (event,) = read_path(tmp_path / "league.csv")
    assert event.players.height == 6
    assert "Lindqvist, Astrid" in event.players["name"].to_list()


def test_read_path_crosstable_csv(tmp_path: Path) -> None:
    path = tmp_path / "rapid.csv"
    path.write_bytes(CROSSTABLE)
    (event,) = read_path(path)
    assert event.events["list"][0] == "rapid"


@pytest.mark.parametrize(
    ("name", "data", "code", "message"),
    [
        (
            "notes.txt",
            b"bring a pen\n",
            "unknown-format",
            "expected a TRF file, a crosstable (XLSX/CSV), a games CSV or a rating list, "
            "got a file starting 'bring a pen'",
        ),
        (
            "players_list_foa.txt",
            REGISTRY,
            "not-an-event",
            "expected a tournament file, got a FIDE rating list: pass it with --registry",
        ),
        (
            "league.players.csv",
            PLAYERS,
            "not-an-event",
            "expected a tournament file, got a players CSV: pass the games CSV beside it",
        ),
        (
            "old.xls",
            b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(100),
            "unknown-format",
            "expected a TRF file, a crosstable (XLSX/CSV), a games CSV or a rating list, "
            "got an Excel 97-2003 workbook (.xls): save it as .xlsx",
        ),
    ],
    ids=["unknown", "registry", "players-csv", "xls"],
)
def test_read_path_refuses_non_events(
    tmp_path: Path, name: str, data: bytes, code: str, message: str
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(InputError) as info:
        read_path(path)
    (problem,) = info.value.problems
    assert (problem.location.file, problem.code, problem.message) == (str(path), code, message)


def test_read_path_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "gone.trf"
    with pytest.raises(InputError) as info:
        read_path(path)
    (problem,) = info.value.problems
    assert (problem.code, problem.message) == (
        "unreadable-file",
        "expected a readable file, got No such file or directory",
    )


def test_read_path_xlsx_goes_through_the_safety_check(tmp_path: Path) -> None:
    path = tmp_path / "broken.xlsx"
    path.write_bytes(_zip())
    with pytest.raises(InputError) as info:
        read_path(path)
    assert all(p.location.file == str(path) for p in info.value.problems)


def test_read_path_rejects_a_bad_list_override(tmp_path: Path) -> None:
    path = tmp_path / "open.trf"
    path.write_bytes(TRF)
    with pytest.raises(ValueError, match="list_override"):
        read_path(path, "classical")


def _match_trf(first: str, last: str, dates: list[str]) -> str:
    """A two-player match without a time control, one game a round, record 132 dating
    the rounds (`dates`, YY/MM/DD; none: no record 132)."""
    lines = ["012 Club match", f"042 {first}", f"052 {last}", "062 2", "072 2"]
    if dates:
        lines.append("132".ljust(91) + "".join(d.ljust(10) for d in dates).rstrip())
    rounds = len(dates) or 4
    for no, name, opponent in ((1, "Aalto, Anna", 2), (2, "Berg, Bo", 1)):
        # columns 1-3, 5-8 start number, 15-47 name, 49-52 rating, 54-56 federation,
        # 58-68 FIDE ID, 70-79 birth, 81-84 points, 86-89 rank, 92- the rounds
        head = f"001 {no:>4}      {name:<33} 1800 FIN {90000000 + no:>11} 1990/01/01 "
        head += f"{rounds / 2:>4.1f} {no:>4}  "
        slots = [f"{opponent:>4} {'w' if (r + no) % 2 else 'b'} =  " for r in range(rounds)]
        lines.append((head + "".join(slots)).rstrip())
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("first", "last", "dates", "expected"),
    [
        # the round dates agree with the average: the message is the average's
        (
            "2025/04/12",
            "2025/04/15",
            ["25/04/12", "25/04/13", "25/04/14", "25/04/15"],
            ("standard", "schedule", "list-inferred", "4 rounds in 4 days is a standard event"),
        ),
        # one round a day on average, but two on a day: nothing says standard any more
        (
            "2025/04/12",
            "2025/04/15",
            ["25/04/12", "25/04/12", "25/04/14", "25/04/15"],
            (
                "standard",
                "assumed",
                "list-assumed",
                "4 rounds on 3 days by the round dates, 2 on 2025-04-12: rated as standard",
            ),
        ),
        # under two a day on average, but four rounds on the first day: rapid
        (
            "2025/04/12",
            "2025/04/14",
            ["25/04/12", "25/04/12", "25/04/12", "25/04/12", "25/04/14"],
            (
                "rapid",
                "assumed",
                "list-assumed",
                "5 rounds on 2 days by the round dates, 4 on 2025-04-12 is more than a "
                "standard event plays: rated as rapid",
            ),
        ),
        # without record 132, the average as before
        (
            "2025/04/12",
            "2025/04/14",
            [],
            ("standard", "assumed", "list-assumed", "4 rounds in 3 days: rated as standard"),
        ),
    ],
)
def test_list_from_the_rounds_of_each_day(
    tmp_path: Path, first: str, last: str, dates: list[str], expected: tuple[str, ...]
) -> None:
    path = tmp_path / "match.trf"
    path.write_text(_match_trf(first, last, dates), encoding="utf-8")
    (event,) = read_path(path)
    row = event.events.row(0, named=True)
    (warning,) = [p for p in event.problems if p.code.startswith("list-")]
    lst, source, code, why = expected
    assert (row["list"], row["list_source"], warning.code) == (lst, source, code)
    assert warning.message == (
        f"expected a time control that names the rating list, got none; {why} "
        "(pass --list, or decide it with --events, to say otherwise)"
    )
