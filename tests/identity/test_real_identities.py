"""The identity stage on real chess-results exports, through `elo run` and `elo validate`.

The real export (tests/fixtures/real, no FIDE ID column) is rated against a rating list
that holds its players as FIDE writes names (`Surname, Given`), plus decoys for every
player: the same surname with another given name, and the same name in another
federation. Every player must be linked to the right one, no decoy ever, and each person
must appear once per list in ratings.csv, also when the same players come from three
files. A homonym pair the file cannot tell apart stays unlinked, with the warning.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.ingest.detect import read_path
from tests.conftest import FIXTURES, SHARED

REAL = FIXTURES / "real"
KESHMAT = REAL / "chessresults_keshmat_circuit_rapid_2025_04.xlsx"
VARIANTS = [
    KESHMAT,
    REAL / "chessresults_keshmat_circuit_rapid_2025_04_libreoffice_semicolon.csv",
    REAL / "chessresults_keshmat_circuit_rapid_2025_04_resaved_openpyxl.xlsx",
]
HEADER = ["fideid", "name", "country", "rating", "rapid_rating"]


def fide_name(name: str) -> str:
    """`Arkadan Adib` as FIDE writes it: `Arkadan, Adib` (the last word the given name)."""
    *surname, given = name.split()
    return f"{' '.join(surname)}, {given}" if surname else given


def registry_for(
    path: Path, tmp_path: Path, homonym: str | None = None
) -> tuple[Path, dict[int, int]]:
    """A registry CSV holding the event's players and decoys; start no. -> true FIDE ID."""
    (event,) = read_path(path)
    rows: list[list[object]] = []
    truth: dict[int, int] = {}
    for i, p in enumerate(event.players.iter_rows(named=True)):
        fide_id = 5_000_000 + 10 * i
        truth[p["start_no"]] = fide_id
        rating = p["rating"] or ""
        fed = p["federation"] or "LBN"
        surname = fide_name(p["name"]).split(",")[0]
        rows.append([fide_id, fide_name(p["name"]), fed, rating, rating])
        rows.append([fide_id + 1, f"{surname}, Zedekiah", fed, rating, rating])  # decoy
        rows.append([fide_id + 2, fide_name(p["name"]), "SYR", rating, rating])  # decoy
        if p["name"] == homonym:
            rows.append([fide_id + 3, fide_name(p["name"]), fed, rating, rating])
    target = tmp_path / "players_list.csv"
    with target.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(HEADER)
        writer.writerows(rows)
    return target, truth


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["run", *args, "--quiet"])
    return result.exit_code, result.stderr


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def check_linked(path: Path, tmp_path: Path) -> None:
    registry, truth = registry_for(path, tmp_path)
    out = tmp_path / "out"
    code, err = run(str(path), "--registry", str(registry), "--out", str(out))
    assert code == 0, err
    identities = read_csv(out / "identities.csv")
    assert len(identities) == len(truth)
    for row in identities:
        assert (row["method"], row["status"]) == ("registry-name", "linked"), row
        assert int(row["fide_id"]) == truth[int(row["start_no"])], row
    ratings = read_csv(out / "ratings.csv")
    assert {int(r["fide_id"]) for r in ratings} == set(truth.values())  # no decoy, nobody lost


def test_every_player_of_a_real_export_is_linked_and_no_decoy(tmp_path: Path) -> None:
    check_linked(KESHMAT, tmp_path)


def test_a_real_round_robin_export_is_linked(shared_dir: Path, tmp_path: Path) -> None:
    check_linked(
        shared_dir / "data" / "crosstables" / "chessresults_tnr437642_art4_roundrobin.csv", tmp_path
    )


def test_one_export_saved_three_ways_is_one_event_rated_once(tmp_path: Path) -> None:
    registry, truth = registry_for(KESHMAT, tmp_path)
    out = tmp_path / "out"
    args = ["--registry", str(registry), "--out", str(out)]
    code, err = run(*map(str, VARIANTS), *args, "--skip-invalid")
    assert code == 0, err  # the copies are skipped with a warning, not rejected
    repeats = [line for line in err.splitlines() if line.endswith("[duplicate-event]")]
    assert len(repeats) == len(VARIANTS) - 1
    assert all(f"got the event of {VARIANTS[0]} again" in line for line in repeats)
    ratings = read_csv(out / "ratings.csv")
    keys = [(r["list"], r["fide_id"]) for r in ratings]
    assert len(keys) == len(set(keys)) == len(truth)
    single = tmp_path / "single"
    assert run(str(VARIANTS[0]), "--registry", str(registry), "--out", str(single))[0] == 0
    assert ratings == read_csv(single / "ratings.csv")  # the games counted once


def test_a_homonym_pair_stays_unlinked_with_the_exact_warning(tmp_path: Path) -> None:
    registry, truth = registry_for(KESHMAT, tmp_path, homonym="Khoder Akram")
    out = tmp_path / "out"
    code, err = run(str(KESHMAT), "--registry", str(registry), "--out", str(out))
    assert code == 0, err
    lines = [line for line in err.splitlines() if "[identity-ambiguous]" in line]
    first = truth[3]  # Khoder Akram: rank 3, start no. 3 in the final ranking
    assert lines == [
        f"{KESHMAT}:23:Name: warning: expected one rating-list player for 'Khoder Akram' "
        f"(LBN, 2217), got 2: {first} Khoder, Akram (LBN, 2217); {first + 3} Khoder, Akram "
        "(LBN, 2217); not linked (settle it with --identities) [identity-ambiguous]"
    ]
    rows = {r["name"]: r for r in read_csv(out / "identities.csv")}
    assert (rows["Khoder Akram"]["status"], rows["Khoder Akram"]["candidates"]) == (
        "ambiguous",
        f"{first};{first + 3}",
    )
    assert list(rows).index("Khoder Akram") == 0  # ambiguous first


def test_decisions_settle_the_homonym_and_no_name_match_turns_names_off(tmp_path: Path) -> None:
    registry, truth = registry_for(KESHMAT, tmp_path, homonym="Khoder Akram")
    decisions = tmp_path / "identities.csv"
    decisions.write_text(
        f"file,name,fide_id\n{KESHMAT.name},Akram Khoder,{truth[3] + 3}\n", encoding="utf-8"
    )
    out = tmp_path / "out"
    code, err = run(
        str(KESHMAT), "--registry", str(registry), "--identities", str(decisions), "--out", str(out)
    )
    assert code == 0, err
    assert "[identity-ambiguous]" not in err
    rows = {r["name"]: r for r in read_csv(out / "identities.csv")}
    assert (rows["Khoder Akram"]["fide_id"], rows["Khoder Akram"]["method"]) == (
        str(truth[3] + 3),
        "manual",
    )
    code, err = run(str(KESHMAT), "--registry", str(registry), "--no-name-match", "--out", str(out))
    assert code == 0, err
    assert {r["status"] for r in read_csv(out / "identities.csv")} == {"unlinked"}


def test_validate_reports_the_identity_warnings(tmp_path: Path) -> None:
    registry, _ = registry_for(KESHMAT, tmp_path, homonym="Khoder Akram")
    result = CliRunner().invoke(app, ["validate", str(KESHMAT), "--registry", str(registry)])
    assert result.exit_code == 0
    assert sum("[identity-ambiguous]" in line for line in result.stderr.splitlines()) == 1


def test_a_malformed_decisions_file_rejects_the_run(tmp_path: Path) -> None:
    decisions = tmp_path / "identities.csv"
    decisions.write_text("file,start_no,fide_id\nx.trf,one,5\n", encoding="utf-8")
    code, err = run(str(KESHMAT), "--identities", str(decisions), "--out", str(tmp_path / "o"))
    assert code == 1
    assert err.splitlines()[0] == (
        f"{decisions}:2:start_no: expected a start number 1 or more, got 'one' [bad-identity-row]"
    )


@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared reference folder is absent")
def test_shared_real_exports_link_with_a_registry(tmp_path: Path) -> None:
    for path in sorted((SHARED / "data" / "crosstables").iterdir()):
        folder = tmp_path / path.stem
        folder.mkdir()
        check_linked(path, folder)
