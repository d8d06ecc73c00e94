"""`elo convert` (design.md "More commands"): one TRF per event, and the round trip.

Every sample, every valid fixture of tests/fixtures/real and the shared reference files
are converted to TRF16 and TRF26; `elo run` over the TRF files must give the same
ratings.csv bytes as over the source, and `elo validate` must find the TRF files clean
with no warning the source did not have. Then: FIDE IDs from the identity links and
ratings from the registry, every result code surviving, refusals with their exact
messages (and the other events still written), file-name safety, atomic output.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.convert import file_names, safe_stem
from pipeline.formats.timecontrol import classify_encoded, classify_free_text, parse_encoded
from pipeline.formats.trf.fit import PLAYER_FIELDS
from pipeline.formats.trf.read import read_trf
from pipeline.formats.trf.write import encoded_as_free_text, write_trf
from pipeline.ingest.detect import EVENT_KINDS, detect_kind_of, find_inputs, read_path
from pipeline.load import RunOptions
from pipeline.report.tables import write_ratings_csv
from pipeline.run import run_job
from tests.conftest import FIXTURES, ROOT, SAMPLES, SHARED

REGISTRY = SAMPLES / "registry" / "players_list_foa.txt"
VERSIONS = ("trf16", "trf26")
NO_SHARED = "the shared reference folder is not beside this clone"


def invoke(*args: object) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


ARBITERS = ["chief_arbiter", "deputy_arbiters"]


def event_files(folder: Path) -> list[Path]:
    return [p for p in sorted(folder.iterdir()) if detect_kind_of(p) in EVENT_KINDS]


def sources() -> list[object]:
    """Every sample, every valid real fixture, the shared TRF files and crosstables."""
    found: list[object] = [pytest.param(SAMPLES, id="samples")]
    found += [pytest.param(p, id=f"samples-{p.name}") for p in event_files(SAMPLES / "events")]
    found += [pytest.param(p, id=p.name) for p in event_files(FIXTURES / "real")]
    for sub in ("trf", "crosstables"):
        folder = SHARED / "data" / sub
        if folder.is_dir():
            found += [pytest.param(p, id=f"shared-{p.name}") for p in event_files(folder)]
        else:
            found.append(pytest.param(None, id=f"shared-{sub}", marks=pytest.mark.skip(NO_SHARED)))
    return found


def ratings_csv(tmp: Path, paths: list[Path], registry: Path | None, list_: str | None) -> bytes:
    """ratings.csv as `elo run` writes it (the same options and the same writer), without
    the workbook that makes a run slow."""
    options = RunOptions(paths=paths, registry=registry, list_override=list_)
    outcome = run_job(options)
    assert outcome.result is not None, [str(p) for p in outcome.loaded.errors]
    write_ratings_csv(tmp, outcome.result.ratings)
    return tmp.read_bytes()


def warning_codes(path: Path) -> set[str]:
    code, _, err = invoke("validate", path)
    assert code == 0, err
    return {line.rsplit("[", 1)[1].rstrip("]") for line in err.splitlines() if "warning:" in line}


@cache
def undated(source: Path) -> bool:
    events = [ev for path in find_inputs([source]).events for ev in read_path(path)]
    return any(ev.events["start_date"][0] is None for ev in events)


# --- the round trip ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sources_seen() -> dict[Path, tuple[bytes, set[str]]]:
    """Each source's ratings.csv and validation warning codes, once for both versions."""
    return {}


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("source", sources())
def test_round_trip(
    source: Path, version: str, tmp_path: Path, sources_seen: dict[Path, tuple[bytes, set[str]]]
) -> None:
    out = tmp_path / "trf"
    code, stdout, err = invoke("convert", source, "--to", version, "--out", out)
    if version == "trf26" and undated(source):
        assert code == 1
        assert "[trf-no-date]" in err
        assert list(out.iterdir()) == []  # nothing written for it
        return
    assert code == 0, err
    assert stdout.endswith(f"written as {version.upper()}, 0 refused (exit 0)\n")
    written = sorted(out.iterdir())
    assert written
    assert all(p.suffix == ".trf" for p in written)
    dates_written, arbiters_written = [], []
    for path in written:
        event = read_trf(path.read_text(encoding="utf-8"), str(path))
        assert event.events["source"][0] == version
        dates_written.append(event.round_dates)
        arbiters_written.append(event.events.select(ARBITERS).row(0))
    files = find_inputs([source]).events if source.is_dir() else [source]
    events_read = [ev for file in files for ev in read_path(file)]
    dates_read = [ev.round_dates for ev in events_read]
    assert sorted(dates_written, key=repr) == sorted(dates_read, key=repr)  # record 132
    arbiters_read = [ev.events.select(ARBITERS).row(0) for ev in events_read]
    assert sorted(arbiters_written, key=repr) == sorted(arbiters_read, key=repr)  # 102, 112
    if source not in sources_seen:
        before = ratings_csv(tmp_path / "source.csv", [source], None, None)
        sources_seen[source] = (before, warning_codes(source))
    ratings, warnings = sources_seen[source]
    assert ratings_csv(tmp_path / "ratings.csv", [out], None, None) == ratings
    assert warning_codes(out) <= warnings


@pytest.fixture(scope="module")
def samples_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("source") / "reports"
    code, _, err = invoke("run", SAMPLES, "--registry", REGISTRY, "--out", out, "--quiet")
    assert code == 0, err
    return out


@pytest.mark.parametrize("version", VERSIONS)
def test_samples_with_the_registry_through_elo_run(
    version: str, tmp_path: Path, samples_run: Path
) -> None:
    """The whole period, with the rating list: `elo run` itself on both sides."""
    out = tmp_path / "trf"
    code, _, err = invoke("convert", SAMPLES, "--to", version, "--out", out, "--registry", REGISTRY)
    assert code == 0, err
    reports = tmp_path / "reports"
    code, _, err = invoke("run", out, "--registry", REGISTRY, "--out", reports, "--quiet")
    assert code == 0, err
    assert (reports / "ratings.csv").read_bytes() == (samples_run / "ratings.csv").read_bytes()
    code, stdout, err = invoke("validate", out, "--registry", REGISTRY)
    assert code == 0
    assert err == ""
    assert stdout.endswith("5 files checked: 5 valid, 0 invalid (0 errors, 0 warnings)\n")


@pytest.mark.parametrize("list_", ["rapid", "blitz"])
def test_list_option_writes_that_lists_ratings(list_: str, tmp_path: Path) -> None:
    out = tmp_path / "trf"
    code, _, err = invoke(
        "convert", SAMPLES, "--to", "trf26", "--out", out, "--registry", REGISTRY, "--list", list_
    )
    assert code == 0, err
    before = ratings_csv(tmp_path / "a.csv", [SAMPLES], REGISTRY, list_)
    assert ratings_csv(tmp_path / "b.csv", [out], REGISTRY, list_) == before
    text = (out / "Havenwijk-Autumn-Open-2026.trf").read_text(encoding="utf-8")
    assert f"092 {list_.capitalize()}" in text.splitlines()


def test_fide_ids_linked_by_name_are_written(tmp_path: Path) -> None:
    out = tmp_path / "trf"
    code, _, err = invoke("convert", SAMPLES, "--to", "trf26", "--out", out, "--registry", REGISTRY)
    assert code == 0, err
    blitz = read_trf((out / "Riverside-Friday-Blitz-2026.trf").read_text("utf-8"), "b.trf")
    source = read_path(SAMPLES / "events" / "2026-11-blitz-roundrobin.csv")[0]
    # the crosstable has no FIDE ID column: every player was linked by name to the list
    assert source.players["fide_id"].null_count() == source.players.height
    assert blitz.players["fide_id"].null_count() == 0
    assert blitz.players["name"].equals(source.players["name"])


def test_the_console_summary(tmp_path: Path) -> None:
    out = tmp_path / "trf"
    code, stdout, err = invoke(
        "convert", SAMPLES, "--to", "trf26", "--out", out, "--registry", REGISTRY
    )
    assert code == 0
    assert stdout == "".join(
        f"Wrote {out / name} ({event}: {players} players, {rounds} rounds; "
        f"from {SAMPLES / 'events' / src})\n"
        for name, event, players, rounds, src in [
            ("Riverside-Friday-Blitz-2026.trf", "Riverside Friday Blitz 2026", 10, 9,
             "2026-11-blitz-roundrobin.csv"),
            ("Northgate-Club-League-2026.trf", "Northgate Club League 2026", 12, 6,
             "2026-11-club-league.csv"),
            ("Lakeside-Rapid-Championship-2026.trf", "Lakeside Rapid Championship 2026", 40, 7,
             "2026-11-rapid-swiss.xlsx"),
            ("Havenwijk-Autumn-Open-2026.trf", "Havenwijk Autumn Open 2026", 137, 9,
             "2026-11-standard-open.trf"),
        ]
    ) + "4 events written as TRF26, 0 refused (exit 0)\n"  # fmt: skip
    # the two crosstables give one date: a one-day event, whose end is that date
    assert "[trf-end-date-assumed]" not in err


def test_the_readme_transcript(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    block = doc.split("$ elo convert samples/", 1)[1].split("```", 1)[0]
    command, *lines = block.strip("\n").splitlines()
    monkeypatch.chdir(ROOT)
    args = command.split()
    args[args.index("--out") + 1] = str(tmp_path / "trf")
    code, stdout, err = invoke("convert", "samples/", *args)
    assert code == 0
    shown = [line.replace(str(tmp_path / "trf"), "trf") for line in (err + stdout).splitlines()]
    assert shown == lines


# --- every result code survives --------------------------------------------------------------

EVENT_IN_PROGRESS = """\
012 Harbour Weekend Open
022 Harbourside
042 2026/03/07
052 2026/03/08
122 90 min + 30 sec/move
001    1 m    Alpha, Anton                      2105 SWE    90000011 1990/03/02  1.5    1     2 w 1     3 b -  0000 - H     4 w
001    2 w    Beta, Berit                       2050 NOR    90000022 1985/07/14  2.0    2     1 b 0  0000 - F     3 w 0     5 b 1
001    3 m  g Gamma, Gustav                     1987 GER             2001/11/30  2.0    3  0000 - U     1 w -     2 b 1  0000 - Z
001    4 w    Delta, Dora                       1942 FRA    90000044 1979/01/05  1.0    4     5 w +  0000 - Z     6 b -     1 b
001    5 m    Eps, Erik                         1890 HUN    90000055 1995/05/21  0.5    5     4 b -     6 w =  0000 - Z     2 w 0
001    6 w    Zeta, Zoe                         1833 ESP    90000066 2003/09/09  0.5    6  0000 - Z     5 b =     4 w -
"""  # noqa: E501 (a TRF line is wider than the code)

CLUB_GAMES = """\
event,round,white,black,result,date,list
Spring Club Cup,1,1,2,1-0,2026-03-07,standard
Spring Club Cup,1,3,4,0F-0F,2026-03-07,standard
Spring Club Cup,2,2,3,1/2-1/2,2026-03-14,standard
Spring Club Cup,2,4,1,+:-,2026-03-14,standard
"""
CLUB_PLAYERS = """\
id,name,fide_id,rating,federation,title,sex,birth_year
1,"Wolfe, Hubertus",,1850,GER,,m,1980
2,"Berg, Anna",,1720,NOR,,w,1990
3,"Costa, Rui",,1640,POR,GM,m,1975
4,"Dahl, Erik",,,SWE,,m,2001
"""


def write_sources(folder: Path, players: str = CLUB_PLAYERS) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "harbour.trf").write_text(EVENT_IN_PROGRESS, encoding="utf-8")
    (folder / "club.csv").write_text(CLUB_GAMES, encoding="utf-8")
    (folder / "club.players.csv").write_text(players, encoding="utf-8")
    return folder


def entries(games: pl.DataFrame) -> pl.DataFrame:
    """Round entries without the absences (a round left out reads back as ``Z``)."""
    columns = ["start_no", "round", "opponent_no", "colour", "code", "score", "played"]
    kept = games.filter((pl.col("code") != "Z") | pl.col("opponent_no").is_not_null())
    return kept.select(columns).sort("start_no", "round")


@pytest.mark.parametrize("version", VERSIONS)
def test_forfeits_byes_absences_and_pending_games_survive(version: str, tmp_path: Path) -> None:
    source = write_sources(tmp_path / "source")
    out = tmp_path / "trf"
    code, _, err = invoke("convert", source, "--to", version, "--out", out)
    assert code == 0, err
    for original, name in (
        (source / "harbour.trf", "Harbour-Weekend-Open.trf"),
        (source / "club.csv", "Spring-Club-Cup.trf"),
    ):
        before = read_path(original)[0]
        after = read_trf((out / name).read_text("utf-8"), name)
        assert entries(after.games).equals(entries(before.games))
        assert after.players.select(PLAYER_FIELDS).equals(before.players.select(PLAYER_FIELDS))
    harbour = read_trf((out / "Harbour-Weekend-Open.trf").read_text("utf-8"), "h.trf")
    assert set(harbour.games["code"]) == {"1", "0", "=", "+", "-", "H", "F", "U", "Z", "*"}
    assert harbour.players["title"][2] == "GM"  # TRF's 'g', as the reader reads it
    double = harbour.games.filter(pl.col("round") == 3, pl.col("start_no").is_in([4, 6]))
    assert double["code"].to_list() == ["-", "-"]  # a double forfeit
    before_csv = ratings_csv(tmp_path / "a.csv", [source], None, None)
    assert ratings_csv(tmp_path / "b.csv", [out], None, None) == before_csv


REGISTRY_CSV = """\
fideid,name,country,sex,rating,rapid_rating,blitz_rating
90000011,"Alpha, Anton",SWE,m,2111,2050,
90000022,"Beta, Berit",NOR,w,2044,,
90000044,"Delta, Dora",FRA,w,,,
90000066,"Zeta, Zoe",ESP,w,1840,1790,1700
77000001,"Gamma, Gustav",GER,m,1990,,
"""


@pytest.mark.parametrize(
    ("list_", "ratings"),
    [
        # 1 and 2 the list's; 3 linked by name to the list; 4 unrated in the list; 5 not in
        # it: the file's; 6 the list's
        ("standard", [2111, 2044, 1990, None, 1890, 1840]),
        # rapid: the standard rating stands in for 2 and 3, unrated there (FIDE's rule)
        ("rapid", [2050, 2044, 1990, None, 1890, 1790]),
    ],
)
def test_ratings_from_the_registry_and_ids_from_the_links(
    list_: str, ratings: list[int | None], tmp_path: Path
) -> None:
    source = write_sources(tmp_path / "source")
    registry = tmp_path / "list.csv"
    registry.write_text(REGISTRY_CSV, encoding="utf-8")
    out = tmp_path / "trf"
    code, _, err = invoke(
        "convert", source / "harbour.trf", "--to", "trf26", "--out", out,
        "--registry", registry, "--list", list_,
    )  # fmt: skip
    assert code == 0, err
    written = read_trf((out / "Harbour-Weekend-Open.trf").read_text("utf-8"), "h.trf")
    assert written.players["rating"].to_list() == ratings
    assert written.players["fide_id"][2] == 77000001  # the file has no ID: the link's
    args = ([source / "harbour.trf"], registry, list_)
    before = ratings_csv(tmp_path / "a.csv", *args)
    assert ratings_csv(tmp_path / "b.csv", [out], registry, list_) == before


# --- refusals ------------------------------------------------------------------------------------

TOO_WIDE = CLUB_PLAYERS.replace("Wolfe, Hubertus", "Wolfeschlegelsteinhausenberger, Hubertus")
TOO_WIDE = TOO_WIDE.replace(",NOR,", ",NORW,").replace(",GM,", ",GMXX,")


def test_an_event_trf_cannot_carry_is_refused_with_every_reason(tmp_path: Path) -> None:
    source = write_sources(tmp_path / "source", TOO_WIDE)
    out = tmp_path / "trf"
    code, stdout, err = invoke("convert", source, "--to", "trf26", "--out", out)
    assert code == 1
    club = source / "club.csv"
    tail = "event 'Spring Club Cup' not converted to TRF26 [trf-field-too-long]"
    assert err.splitlines() == [
        f"{club}: warning: expected FIDE federation codes, got NORW (1 player); they are not "
        "used to tell players apart (club or region codes?) [federation-unknown]",
        f"{club}:2:federation: expected a federation of at most 3 letters (TRF columns 54-56), "
        f"got 'NORW'; {tail}",
        f"{club}:2:name: expected a name of at most 33 characters (TRF columns 15-47), got "
        "'Wolfeschlegelsteinhausenberger, Hubertus' (40 characters): shorten it in the "
        f"source, as FIDE's list writes it; {tail}",
        f"{club}:3:title: expected a title of at most 3 letters (TRF columns 11-13), got "
        f"'GMXX'; {tail}",
        f"{source / 'harbour.trf'}: warning: expected a result for every paired game, got round "
        "4 (1 game) without one yet: those games are not rated (an event in progress) "
        "[results-pending]",
    ]
    # the other event of the run is still written; nothing is written for the refused one
    assert stdout.splitlines() == [
        f"Wrote {out / 'Harbour-Weekend-Open.trf'} (Harbour Weekend Open: 6 players, 4 "
        f"rounds; from {source / 'harbour.trf'})",
        f"Refused event 'Spring Club Cup' of {club}: 3 errors above; nothing written for it",
        "1 event written as TRF26, 1 refused (exit 1)",
    ]
    assert sorted(p.name for p in out.iterdir()) == ["Harbour-Weekend-Open.trf"]


def test_validation_errors_and_what_trf_cannot_carry_come_together(tmp_path: Path) -> None:
    players = TOO_WIDE.replace(",NORW,", ",NOR,").replace(",GMXX,", ",GM,").replace("1720", "850")
    source = write_sources(tmp_path / "source", players)
    code, stdout, err = invoke("convert", source / "club.csv", "--to", "trf16", "--out", tmp_path)
    assert code == 1
    club = source / "club.csv"
    assert err.splitlines() == [
        f"{club}:2:name: expected a name of at most 33 characters (TRF columns 15-47), got "
        "'Wolfeschlegelsteinhausenberger, Hubertus' (40 characters): shorten it in the "
        "source, as FIDE's list writes it; event 'Spring Club Cup' not converted to TRF16 "
        "[trf-field-too-long]",
        f"{club}:2:rating: expected a rating in 1000..3500 (0 or blank when unrated), got "
        "'850' [bad-rating]",
    ]
    assert stdout.splitlines() == [
        f"Refused {club}: 2 errors above; nothing written for it",
        "0 events written as TRF16, 1 refused (exit 1)",
    ]


def test_trf26_needs_a_start_date(tmp_path: Path) -> None:
    source = tmp_path / "undated.trf"
    source.write_text(
        "\n".join(EVENT_IN_PROGRESS.splitlines()[:2] + EVENT_IN_PROGRESS.splitlines()[4:]) + "\n",
        encoding="utf-8",
    )
    code, stdout, err = invoke("convert", source, "--to", "trf26", "--out", tmp_path / "out")
    assert code == 1
    assert (
        f"{source}: expected a start date (record 042, mandatory in TRF26 as YYYY/MM/DD), got "
        "none: add it to the source, or convert --to trf16; event 'Harbour Weekend Open' not "
        "converted to TRF26 [trf-no-date]\n"
    ) in err
    assert stdout.endswith("0 events written as TRF26, 1 refused (exit 1)\n")
    assert list((tmp_path / "out").iterdir()) == []
    code, _, err = invoke("convert", source, "--to", "trf16", "--out", tmp_path / "out")
    assert code == 0, err


@pytest.mark.parametrize(
    "fixture",
    sorted(p.name for p in (FIXTURES / "invalid").iterdir() if p.suffix in (".trf", ".csv")
           and not p.name.endswith(".players.csv") and p.name != "EXPECTED.csv"),
)  # fmt: skip
def test_invalid_files_are_refused_and_nothing_is_written(fixture: str, tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, stdout, err = invoke(
        "convert", FIXTURES / "invalid" / fixture, "--to", "trf16", "--out", out
    )
    assert code == 1
    assert f"{FIXTURES / 'invalid' / fixture}:" in err  # its errors, at their lines
    assert stdout.startswith(f"Refused {FIXTURES / 'invalid' / fixture}")
    assert stdout.endswith("0 events written as TRF16, 1 refused (exit 1)\n")
    assert list(out.iterdir()) == []


def test_an_unreadable_registry_stops_everything(tmp_path: Path) -> None:
    bad = tmp_path / "list.txt"
    bad.write_text("ID Number      Name\nnot a rating list line\n", encoding="utf-8")
    out = tmp_path / "out"
    code, stdout, _ = invoke(
        "convert", SAMPLES / "events", "--to", "trf16", "--out", out, "--registry", bad
    )
    assert code == 1
    assert stdout.splitlines() == [
        f"Nothing converted: the rating list {bad} could not be read (errors above)",
        "0 events written as TRF16, 4 refused (exit 1)",
    ]
    assert list(out.iterdir()) == []


def test_usage_errors(tmp_path: Path) -> None:
    code, _, err = invoke("convert", SAMPLES, "--out", tmp_path)
    assert (code, err) == (2, "elo: error: --to: expected trf16 or trf26, got nothing\n")
    code, _, err = invoke("convert", SAMPLES, "--to", "trf06", "--out", tmp_path)
    assert (code, err) == (2, "elo: error: --to: expected trf16 or trf26, got 'trf06'\n")
    code, _, err = invoke("convert", SAMPLES, "--to", "trf26")
    assert (code, err) == (2, "elo: error: --out: expected the folder to write the TRF files to\n")
    code, _, err = invoke("convert", SAMPLES, "--to", "trf26", "--out", tmp_path, "--list", "fast")
    assert code == 2
    assert err == "elo: error: --list: expected one of standard, rapid, blitz, got 'fast'\n"


# --- file names -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "stem"),
    [
        ("Lakeside Open 2026", "Lakeside-Open-2026"),
        ("Keshmat Circuit - Rapid - April 2025", "Keshmat-Circuit-Rapid-April-2025"),
        ("Müller-Lüdenscheidt Gedenkturnier", "Muller-Ludenscheidt-Gedenkturnier"),
        ("Ærøskøbing Åben / Łódź", "AEroskobing-Aben-Lodz"),
        ("9. Karl-Mala-Gedenkturnier", "9-Karl-Mala-Gedenkturnier"),
        ("../../etc/passwd", "etc-passwd"),
        ("C:\\Users\\x", "C-Users-x"),
        ("snake_case_name", "snake_case_name"),
        ("  --Open--  ", "Open"),
        ("trf26_no_colour_preference.trf", "trf26_no_colour_preference"),
        ("Турнир", "event"),
        ("", "event"),
        ("CON", "CON_"),
        ("lpt1", "lpt1_"),
        ("x" * 120, "x" * 80),
    ],
)
def test_safe_stem(name: str, stem: str) -> None:
    assert safe_stem(name) == stem


def test_clashes_get_numbers_in_order() -> None:
    names = ["Open", "open", "Open!", "Open-2", "Blitz", "Open"]
    assert file_names(names) == [
        "Open.trf", "open-2.trf", "Open-3.trf", "Open-2-2.trf", "Blitz.trf", "Open-4.trf",
    ]  # fmt: skip
    assert file_names(["Blitz"], taken={"blitz.TRF"}) == ["Blitz-2.trf"]


def test_an_input_file_in_the_output_folder_is_never_replaced(tmp_path: Path) -> None:
    """An event named as its own file: converting it into its own folder writes `-2`."""
    source = tmp_path / "Harbour-Weekend-Open.trf"
    source.write_text(EVENT_IN_PROGRESS, encoding="utf-8")
    code, _, err = invoke("convert", source, "--to", "trf26", "--out", tmp_path)
    assert code == 0, err
    assert source.read_text(encoding="utf-8") == EVENT_IN_PROGRESS
    assert (tmp_path / "Harbour-Weekend-Open-2.trf").is_file()


# --- atomic output ---------------------------------------------------------------------------


def test_a_failed_write_leaves_the_output_folder_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pipeline.report.atomic as atomic

    out = tmp_path / "out"
    out.mkdir()
    (out / "Havenwijk-Autumn-Open-2026.trf").write_text("an earlier file\n", encoding="utf-8")
    (out / "notes.txt").write_text("mine\n", encoding="utf-8")
    real = atomic.atomic_write_text
    calls: list[Path] = []

    def full_disk(path: Path, text: str, encoding: str = "utf-8") -> None:
        calls.append(path)
        if len(calls) == 3:
            raise OSError(28, "No space left on device", str(path))
        real(path, text, encoding)

    monkeypatch.setattr(atomic, "atomic_write_text", full_disk)
    code, _, err = invoke("convert", SAMPLES, "--to", "trf26", "--out", out)
    assert code == 1
    assert err.endswith(f"elo: error: {calls[-1]}: No space left on device\n")
    assert sorted(p.name for p in out.iterdir()) == ["Havenwijk-Autumn-Open-2026.trf", "notes.txt"]
    assert (out / "Havenwijk-Autumn-Open-2026.trf").read_text(
        encoding="utf-8"
    ) == "an earlier file\n"


def test_a_rerun_replaces_its_files_and_keeps_others(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine\n", encoding="utf-8")
    (out / "Havenwijk-Autumn-Open-2026.trf").write_text("an earlier file\n", encoding="utf-8")
    code, _, err = invoke(
        "convert", SAMPLES / "events" / "2026-11-standard-open.trf", "--to", "trf16", "--out", out
    )
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir()) == ["Havenwijk-Autumn-Open-2026.trf", "notes.txt"]
    assert (out / "Havenwijk-Autumn-Open-2026.trf").read_text("utf-8").startswith("012 Havenwijk")


# --- the writer's TRF16 --------------------------------------------------------------------------


def test_trf16_has_no_trf26_records(tmp_path: Path) -> None:
    event = read_path(SAMPLES / "events" / "2026-11-standard-open.trf")[0]
    text = write_trf(event, "trf16")
    codes = {line[:3] for line in text.splitlines()}
    assert codes.isdisjoint({"###", "142", "162", "222"})
    assert {"042", "052", "092", "122", "XXR", "XXS"} <= codes
    again = read_trf(text, "x.trf")
    assert again.events["source"][0] == "trf16"
    assert again.events.select("list", "start_date", "end_date", "rounds", "scoring").equals(
        event.events.select("list", "start_date", "end_date", "rounds", "scoring")
    )


@pytest.mark.parametrize(
    "encoded",
    ["5400+30", "900+10", "180+2", "300+3", "600", "3600", "1500", "590+0", "150+5",
     "40/6000+30:20/3000+30:1500+30", "40/5400:1800+30", "40/7200:3600"],
)  # fmt: skip
def test_an_encoded_time_control_as_free_text_reads_as_the_same_list(encoded: str) -> None:
    periods = parse_encoded(encoded)
    assert periods is not None
    assert classify_free_text(encoded_as_free_text(periods)) == classify_encoded(encoded)


def test_free_text_time_control_examples() -> None:
    assert encoded_as_free_text(parse_encoded("5400+30") or []) == "90 min + 30 sec per move"
    assert encoded_as_free_text(parse_encoded("40/6000+30:1500+30") or []) == (
        "40 moves in 100 min, then 25 min + 30 sec per move"
    )
