"""Club codes in the federation column and files without ratings, end to end through
`elo validate` and `elo run` (typer's CliRunner): the exact warning lines, the players
still found in the rating list by name, the identities and ratings tables.

The players, clubs and list are invented."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli import app

# A round robin without a rating column, with club codes (KIL, GON) where the federation
# goes, beside one real federation (GER).
CLUB = """\
;Riverside Standard Championship 2026
;Date: 2026/11/07 to 2026/11/08
;Final Ranking crosstable after 3 Rounds
Rk.;Name;FED;1;2;3;4;Pts.
1;Veltrami, Oskar;KIL;*;1;½;1;2,5
2;Brandquist, Mira;GON;0;*;1;1;2
3;Ostervald, Pim;KIL;½;0;*;1;1,5
4;Hallgren, Tove;GER;0;0;0;*;0
"""
# The same club's players in another event of the month, with ratings and their FIDE
# federations, names in another order; Brandquist with a rating far from the first's.
CUP = """\
;Riverside Standard Cup 2026
;Date: 2026/11/21 to 2026/11/22
;Final Ranking crosstable after 3 Rounds
Rk.;Name;Rtg;FED;1;2;3;4;Pts.
1;Oskar Veltrami;2010;NED;*;1;1;1;3
2;Pim Ostervald;1805;KIL;0;*;1;1;2
3;Mira Brandquist;1500;SWE;0;0;*;1;1
4;Ada Lindqvist;1650;SWE;0;0;0;*;0
"""
CLUB_RATED = (
    CLUB.replace("Name;FED", "Name;Rtg;FED")
    .replace("Oskar;KIL", "Oskar;2010;KIL")
    .replace("Mira;GON", "Mira;1890;GON")
    .replace("Pim;KIL", "Pim;1805;KIL")
    .replace("Tove;GER", "Tove;1702;GER")
)
LIST = """\
fideid,name,country,sex,rating,birthday
90000011,"Veltrami, Oskar",NED,M,2010,1990
90000012,"Brandquist, Mira",SWE,F,1890,1995
90000013,"Ostervald, Pim",NED,M,1805,2001
90000014,"Hallgren, Tove",GER,F,1702,1988
"""
CODES = (
    "warning: expected FIDE federation codes, got KIL (2 players), GON (1); they are not "
    "used to tell players apart (club or region codes?) [federation-unknown]"
)
NO_RATINGS = (
    "warning: the file gives no ratings: the rating list's are used (4 players rated "
    "there) [no-ratings-in-file]"
)


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    written = {}
    for name, text in (
        ("club.csv", CLUB),
        ("club_rated.csv", CLUB_RATED),
        ("cup.csv", CUP),
        ("list.csv", LIST),
    ):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        written[name] = path
    return written


def test_validate_names_the_club_codes_once(files: dict[str, Path]) -> None:
    club = files["club.csv"]
    code, out, err = invoke("validate", str(club))
    assert code == 0
    assert err == f"{club}: {CODES}\n"
    assert out.splitlines()[-1] == "1 file checked: 1 valid, 0 invalid (0 errors, 1 warning)"


def test_validate_with_the_list_says_once_that_the_file_gives_no_ratings(
    files: dict[str, Path],
) -> None:
    club = files["club.csv"]
    code, _, err = invoke("validate", str(club), "--registry", str(files["list.csv"]))
    assert code == 0
    assert err == f"{club}: {CODES}\n{club}: {NO_RATINGS}\n"


def test_run_finds_the_club_players_in_the_list_by_name(
    files: dict[str, Path], tmp_path: Path
) -> None:
    club, out = files["club.csv"], tmp_path / "out"
    args = ("run", str(club), "--registry", str(files["list.csv"]), "--out", str(out), "-q")
    code, _, err = invoke(*args)
    assert code == 0, err
    assert err == f"{club}: {CODES}\n{club}: {NO_RATINGS}\n"
    identities = [
        (r["name"], r["federation"], r["fide_id"], r["method"], r["candidates"])
        for r in rows(out / "identities.csv")
    ]
    assert identities == [
        ("Veltrami, Oskar", "KIL", "90000011", "registry-name", ""),
        ("Brandquist, Mira", "GON", "90000012", "registry-name", ""),
        ("Ostervald, Pim", "KIL", "90000013", "registry-name", ""),
        ("Hallgren, Tove", "GER", "90000014", "registry-name", ""),
    ]
    # ratings.csv: the list's federation where the file has a club code
    shown = {r["name"]: (r["federation"], r["rating_before"]) for r in rows(out / "ratings.csv")}
    assert shown == {
        "Veltrami, Oskar": ("NED", "2010"),
        "Brandquist, Mira": ("SWE", "1890"),
        "Ostervald, Pim": ("NED", "1805"),
        "Hallgren, Tove": ("GER", "1702"),
    }


def test_run_links_names_across_events_when_federation_and_rating_agree(
    files: dict[str, Path], tmp_path: Path
) -> None:
    club, cup, out = files["club_rated.csv"], files["cup.csv"], tmp_path / "out"
    code, _, err = invoke("run", str(club), str(cup), "--out", str(out), "-q")
    assert code == 0, err
    assert err.splitlines() == [
        f"{club}: {CODES}",
        f"{cup}: warning: expected FIDE federation codes, got KIL (1 player); they are not "
        "used to tell players apart (club or region codes?) [federation-unknown]",
    ]
    methods = {
        (r["file"], r["name"]): (r["method"], r["status"]) for r in rows(out / "identities.csv")
    }
    one = ("run-name", "linked")
    assert methods == {
        # KIL and NED, 2010 both: one person (the club code tells nothing)
        (str(club), "Veltrami, Oskar"): one,
        (str(cup), "Oskar Veltrami"): one,
        (str(club), "Ostervald, Pim"): one,
        (str(cup), "Pim Ostervald"): one,
        # 1890 and 1500: two people of one name
        (str(club), "Brandquist, Mira"): ("", "unlinked"),
        (str(cup), "Mira Brandquist"): ("", "unlinked"),
        (str(club), "Hallgren, Tove"): ("", "unlinked"),
        (str(cup), "Ada Lindqvist"): ("", "unlinked"),
    }
    ratings = [r["name"] for r in rows(out / "ratings.csv")]
    assert sorted(ratings) == sorted(
        [
            "Veltrami, Oskar",
            "Ostervald, Pim",
            "Brandquist, Mira",
            "Mira Brandquist",
            "Hallgren, Tove",
            "Ada Lindqvist",
        ]
    )
