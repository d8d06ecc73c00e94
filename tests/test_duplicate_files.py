"""One real event in two files, end to end: a chess-results crosstable (a final-ranking
table, numbered by rank) and the TRF the project writes of it, in one folder. `elo run`
rates the games once, from the TRF, exits 0 and names the file it skipped (stderr, the
console summary, summary.json, the Checks sheet); `elo validate` warns the same way. The
TRF is written during the test (`elo convert`), and once more renumbered by rating with
the names as FIDE writes them, as another program's TRF would be."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import polars as pl
import pytest
from openpyxl import load_workbook
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.formats.model import EventData
from pipeline.formats.trf.write import write_trf
from pipeline.ingest.detect import read_path
from pipeline.report.console import summary_text
from schemas.columns import E, G, P
from tests.conftest import FIXTURES

REAL = FIXTURES / "real"
SOURCES = [
    REAL / "chessresults_keshmat_circuit_rapid_2025_04.xlsx",
    REAL / "chessresults_keshmat_circuit_rapid_2025_04_libreoffice_comma.csv",
    REAL / "chessresults_keshmat_circuit_rapid_2025_04_libreoffice_semicolon.csv",
]
WHY = "the same players and games"


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "400"})
    return result.exit_code, result.stdout, result.stderr


def read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def converted(source: Path, folder: Path) -> Path:
    """`elo convert source --to trf16`: the one TRF it writes."""
    code, out, err = invoke("convert", str(source), "--to", "trf16", "--out", str(folder))
    assert code == 0, out + err
    (trf,) = folder.glob("*.trf")
    return trf


def renumbered(source: Path, target: Path) -> Path:
    """The event as a pairing program's TRF: start numbers by rating (the unrated last),
    names ``Surname, Given`` (the last word the given name), another title."""
    (event,) = read_path(source)
    order = event.players.sort([P.RATING, P.NO], descending=[True, False], nulls_last=True)
    new = pl.DataFrame(
        {P.NO: order[P.NO], "new": range(1, order.height + 1)},
        schema={P.NO: pl.Int64, "new": pl.Int64},
    )
    words = pl.col(P.NAME).str.split(" ")
    surname = words.list.slice(0, words.list.len() - 1).list.join(" ")
    players = event.players.join(new, on=P.NO).with_columns(
        pl.col("new").alias(P.NO), (surname + ", " + words.list.last()).alias(P.NAME)
    )
    opponents = new.rename({P.NO: G.OPP, "new": "new_opponent"})
    games = (
        event.games.join(new, on=G.NO)
        .join(opponents, on=G.OPP, how="left")
        .with_columns(pl.col("new").alias(G.NO), pl.col("new_opponent").alias(G.OPP))
    )
    events = event.events.with_columns(pl.lit("Keshmat Rapid Circuit (April)").alias(E.NAME))
    rewritten = EventData(events, players.drop("new"), games.drop("new", "new_opponent"))
    target.write_text(write_trf(rewritten, "trf16"), encoding="utf-8")
    return target


def skipped_line(skipped: Path, kept: Path) -> str:
    return (
        f"{skipped}: warning: expected each event once, got the event of {kept} again ({WHY}); "
        f"rated once, from {kept} [duplicate-event]"
    )


@pytest.fixture(params=SOURCES, ids=lambda p: p.suffix.lstrip(".") + "-" + p.stem[-5:])
def source(request: pytest.FixtureRequest) -> Path:
    path: Path = request.param
    return path


@pytest.mark.parametrize("how", ["elo convert", "renumbered by rating"])
def test_a_crosstable_and_its_trf_are_rated_once_from_the_trf(
    source: Path, how: str, tmp_path: Path
) -> None:
    folder = tmp_path / "month"
    folder.mkdir()
    crosstable = folder / f"a_{source.name}"  # first in path order: the TRF is kept anyway
    shutil.copy(source, crosstable)
    trf = folder / "b_keshmat.trf"
    if how == "elo convert":
        shutil.move(converted(source, tmp_path / "converted"), trf)
    else:
        renumbered(source, trf)

    both = tmp_path / "both"
    code, out, err = invoke("run", str(folder), "--out", str(both))
    assert code == 0, err
    warnings = [line for line in err.splitlines() if line.endswith("[duplicate-event]")]
    assert warnings == [skipped_line(crosstable, trf)]
    assert (
        f"Skipped {crosstable}: the same event as {trf} ({WHY}); rated once, from {trf}"
        in out.splitlines()
    )
    summary = json.loads((both / "summary.json").read_text(encoding="utf-8"))
    assert summary["exit_code"] == 0
    assert summary["events_rated"] == 1
    assert summary["invalid_files"] == []
    assert summary["skipped_duplicates"] == [
        {"file": str(crosstable), "kept": str(trf), "why": WHY}
    ]
    assert [e["file"] for e in summary["events"]] == [str(trf)]
    assert skipped_line(crosstable, trf).split(": warning: ")[1].removesuffix(
        " [duplicate-event]"
    ) in [w["message"] for w in summary["warnings"] if w["file"] == str(crosstable)]
    checks = load_workbook(both / "report.xlsx")["Checks"]
    cells = [str(c) for row in checks.iter_rows(values_only=True) for c in row if c is not None]
    assert "duplicate-event" in cells
    assert any(str(crosstable) in c for c in cells)

    alone = tmp_path / "trf_alone"
    code, _, err = invoke("run", str(trf), "--out", str(alone))
    assert code == 0, err
    for table in ("ratings.csv", "games.csv"):
        assert read_rows(both / table) == read_rows(alone / table), table
    games = read_rows(both / "games.csv")
    assert len(games) == len(read_rows(alone / "games.csv"))  # every game once
    if how == "elo convert":  # the same names: the same ratings as the crosstable alone
        single = tmp_path / "crosstable_alone"
        code, _, err = invoke("run", str(source), "--out", str(single))
        assert code == 0, err
        assert read_rows(both / "ratings.csv") == read_rows(single / "ratings.csv")

    code, out, err = invoke("validate", str(folder))
    assert code == 0, err
    assert [line for line in err.splitlines() if line.endswith("[duplicate-event]")] == [
        skipped_line(crosstable, trf)
    ]


def test_no_player_plays_more_rounds_than_the_event_has(tmp_path: Path) -> None:
    """The report that started it: one player with 18 games in a 9-round event."""
    folder = tmp_path / "month"
    folder.mkdir()
    for path in SOURCES:
        shutil.copy(path, folder / path.name)
    renumbered(SOURCES[0], folder / "keshmat.trf")
    out = tmp_path / "out"
    code, stdout, err = invoke("run", str(folder), "--out", str(out))
    assert code == 0, err
    games = read_rows(out / "games.csv")
    per_player: dict[str, int] = {}
    for row in games:
        per_player[row["name"]] = per_player.get(row["name"], 0) + 1
    assert max(per_player.values()) <= 7  # 7 rounds
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    kept = str(folder / "keshmat.trf")
    assert [(d["file"], d["kept"]) for d in summary["skipped_duplicates"]] == [
        (str(folder / p.name), kept) for p in SOURCES
    ]
    assert sum(line.startswith("Skipped ") for line in stdout.splitlines()) == len(SOURCES)


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("en", "Skipped b.xlsx: the same event as a.trf (the same bytes); rated once, from a.trf"),
        (
            "es",
            "Omitido b.xlsx: el mismo torneo que a.trf (los mismos bytes); valorado una sola "
            "vez, a partir de a.trf",
        ),
        (
            "it",
            "Escluso b.xlsx: lo stesso torneo di a.trf (gli stessi giocatori e le stesse "
            "partite); valutato una sola volta, da a.trf",
        ),
    ],
)
def test_the_console_names_each_file_skipped(lang: str, line: str) -> None:
    why = "the same players and games" if lang == "it" else "the same bytes"
    summary: dict[str, object] = {
        "status": "ok",
        "exit_code": 0,
        "counts": {"events": 1, "players": 2},
        "skipped_duplicates": [{"file": "b.xlsx", "kept": "a.trf", "why": why}],
    }
    lines = summary_text(summary, width=200, lang=lang).splitlines()
    assert lines[1] == line
