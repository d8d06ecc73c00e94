"""The IT1 "Certificate of Title Result" (pipeline.norms.certificate, written by
pipeline.report.certificate): the fields of ../shared/reference/norms-and-performance.md
§4, checked on the reference's worked example E5 (§5: an IM norm, B.01 from 1 January
2024), byes and forfeits, unrated opponents (1.4.6d) and the files written."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import polars as pl
import pytest

from pipeline.load import RunOptions, stack_frames
from pipeline.norms.certificate import chief_arbiter, norm_certificates
from pipeline.norms.certificate_model import Certificate
from pipeline.norms.checks import NormChecks, norm_checks
from pipeline.norms.titles import NormOptions
from pipeline.report import certificate as report
from pipeline.report.certificate import certificate_record, certificate_stems, write_certificates
from pipeline.run import run_job
from tests.conftest import ROOT
from tests.norms.norm_frames import Opp, bye, frames
from tests.norms.norm_frames import opp as o
from tests.norms.test_checks import E5

ARBITER = "IA Mikel Larreategi Arana (22232540)"
# reference §5 E4's opponents (a GM mix; the unrated one is the lowest)
E4 = [o("GM", "ESP", 2550, 1), o("GM", "FRA", 2520, 1), o("GM", "NED", 2500, 1),
      o("IM", "POL", 2480, 1), o("IM", "ITA", 2460, 1), o("IM", "ESP", 2450, 1),
      o("FM", "FRA", 2400, 1), o(None, "NED", 2150, 0), o(None, "POL", None, 0)]  # fmt: skip


def event_frames(
    rounds: list[Opp], **kwargs: Any
) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    games, players, events = frames(rounds, **kwargs)
    events = events.with_columns(
        pl.lit("Bad Wiessee Open 2026").alias("name"),
        pl.lit("Bad Wiessee").alias("city"),
        pl.lit(ARBITER).alias("chief_arbiter"),
    )
    return games, players, events


def certified(
    rounds: list[Opp], title: str | None = None, options: NormOptions | None = None, **kwargs: Any
) -> tuple[NormChecks, list[Certificate]]:
    """The norm checks and certificates: of every norm met, or (`title`) of the
    applicant's norm row for that title whatever its verdict."""
    games, players, events = event_frames(rounds, **kwargs)
    result = norm_checks(games, players, events, options)
    selection = None
    if title is not None:
        selection = result.norms.filter((pl.col("start_no") == 1) & (pl.col("title") == title))
    return result, norm_certificates(result, games, players, events, options, selection)


def ra_of(cert: Certificate) -> int:
    """Ra from the rounds as printed: the rating used where shown, else the rating."""
    used = [r.rating_used or r.opponent_rating or 0 for r in cert.rounds if r.counted]
    return (2 * sum(used) + len(used)) // (2 * len(used))


def test_e5_gives_the_im_certificate() -> None:
    result, certs = certified(E5)
    assert [(c.norm, c.player.start_no, c.verdict) for c in certs] == [("IM", 1, "met")]
    cert = certs[0]
    norm = result.norms.filter((pl.col("start_no") == 1) & (pl.col("title") == "IM")).row(
        0, named=True
    )
    assert cert.for_review is False
    assert (cert.player.name, cert.player.fide_id, cert.player.federation) == (
        "Applicant",
        1,
        "GER",
    )
    event = cert.event
    assert (event.name, event.city, event.host_federation) == (
        "Bad Wiessee Open 2026", "Bad Wiessee", "GER"
    )  # fmt: skip
    assert (event.chief_arbiter, event.chief_arbiter_fide_id) == ("IA Mikel Larreategi Arana",
                                                                  22232540)  # fmt: skip
    assert (event.rate_of_play, event.rounds, event.games_counted) == ("90 min + 30 s", 9, 9)
    assert str(event.start_date) == "2026-05-01"
    # §4's counts: ESP NED FRA POL and GER; 4 foreign; GM 2, IM 3, WGM 1, FM 1 (7 titled)
    counts = dataclasses.asdict(cert.counts)
    assert counts == {"federations": 5, "not_own_federation": 4, "rated": 9,
                      "host_federation": 5, "titled": 7, "gm": 2, "im": 3, "wgm": 1,
                      "wim": 0, "fm": 1, "wfm": 0}  # fmt: skip
    # 1.4.6b-c: the 2010 of round 8 raised to the IM floor 2050, shown as the rating used
    used = {r.round: r.rating_used for r in cert.rounds if r.rating_used is not None}
    assert used == {8: 2050}
    res = cert.result
    assert (res.ra, res.floor, res.floor_applied, res.floor_raised_from) == (2359, 2050, True, 2010)
    assert (res.rp, res.min_rp, res.score) == (2525, 2450, 6.5)
    assert (res.ra, res.rp, res.score_required) == (norm["ra"], norm["rp"], norm["score_required"])
    assert res.exceeding_by == res.score - norm["score_required"]
    assert ra_of(cert) == res.ra
    assert [r.result for r in cert.rounds] == ["½", "1", "1", "0", "1", "½", "1", "1", "½"]
    assert [(r.opponent_title, r.opponent_federation, r.opponent_rating) for r in cert.rounds] == [
        (x.title, x.fed, x.rating) for x in E5
    ]
    assert all(r.counted and r.note is None for r in cert.rounds)
    assert cert.remarks == ("1.4.6b-c: one game raised from 2010 to 2050",)
    assert cert.foreign_143d is None


def test_a_norm_not_met_can_be_printed_for_review() -> None:
    _, [cert] = certified(E5, "GM")
    assert (cert.verdict, cert.for_review) == ("not met", True)
    assert cert.failing == ("target-titles", "average-rating", "performance")
    assert (cert.result.ra, cert.result.rp, cert.result.floor) == (2376, 2542, 2200)
    assert [r.rating_used for r in cert.rounds if r.rating_used] == [2200]
    assert certificate_stems([cert]) == ["1-GM-bad-wiessee-open-2026-review"]


@pytest.mark.parametrize(
    ("last", "code", "result", "note", "opponent"),
    [
        (bye("U"), "U", "+", "pairing-allocated bye", None),
        (Opp("IM", "FRA", 2400, 1.0, "+"), "+", "+", "forfeit", "Opponent 10"),
        (Opp("IM", "FRA", 2400, 0.0, "-"), "-", "−", "forfeit", "Opponent 10"),
        (bye("H", 0.5), "H", "=", "half-point bye", None),
    ],
    ids=["1.4.1c-pab", "1.4.1c-forfeit-win", "1.4.2c-forfeit-loss", "half-point-bye"],
)
def test_a_round_not_played_shows_its_code_and_is_not_counted(
    last: Opp, code: str, result: str, note: str, opponent: str | None
) -> None:
    _, [cert] = certified([*E5[:8], last], "IM")
    ninth = cert.rounds[8]
    assert (ninth.round, ninth.code, ninth.result, ninth.note) == (9, code, result, note)
    assert (ninth.counted, ninth.rating_used, ninth.opponent_name) == (False, None, opponent)
    assert cert.event.games_counted == 8
    assert sum(r.counted for r in cert.rounds) == 8
    # the counts are over the 8 games: E5's ninth opponent (an IM) is not among them
    assert (cert.counts.im, cert.counts.rated) == (2, 8)
    assert ra_of(cert) == cert.result.ra
    if code in ("U", "+"):  # B.01 1.4.1c: 8 games and a forfeit win or a PAB
        assert any("1.4.1c" in r for r in cert.remarks)


def test_unrated_opponents_count_1400_and_the_lowest_is_raised() -> None:
    # E4 with a second unrated opponent: IM sought, the first of the two 1400s raised to
    # 2050 (1.4.6b-c), the other shown as 1400 (1.4.6d), the 2150 as it is
    rounds = [*E4[:7], o(None, "NED", None, 0), E4[8]]
    _, [cert] = certified(rounds, "IM")
    assert [(r.round, r.opponent_rating, r.rating_used) for r in cert.rounds[6:]] == [
        (7, 2400, None), (8, None, 2050), (9, None, 1400)
    ]  # fmt: skip
    assert cert.counts.rated == 7
    assert cert.result.floor_raised_from == 1400
    assert ra_of(cert) == cert.result.ra


def test_what_the_file_does_not_give_is_left_blank() -> None:
    rounds = [o(None, x.fed, x.rating, x.score) for x in E5]
    rounds[3] = o(None, None, 2515, 0)
    games, players, events = frames(rounds, host=None, start=None, end=None)
    result = norm_checks(games, players, events)
    selection = result.norms.filter((pl.col("start_no") == 1) & (pl.col("title") == "IM"))
    [cert] = norm_certificates(result, games, players, events, selection=selection)
    # no title in the file: the title counts are unknown, not 0; one federation unknown
    counts = dataclasses.asdict(cert.counts)
    assert {k: v for k, v in counts.items() if v is not None} == {"rated": 9}
    event = cert.event
    assert (event.name, event.city, event.chief_arbiter, event.start_date) == (
        "E open", None, None, None
    )  # fmt: skip
    assert cert.player.birth_year is None


def test_the_1_4_3d_block_when_that_exemption_held_the_federation_rules() -> None:
    result, [cert] = certified(E5)
    assert cert.foreign_143d is None
    games, players, events = event_frames(E5)
    exempt = dataclasses.replace(
        result,
        checks=result.checks.with_columns(
            pl.when(pl.col("rule") == "own-federation")
            .then(pl.lit("exempt under 1.4.3d"))
            .otherwise(pl.col("note"))
            .alias("note")
        ),
        events=result.events.with_columns(
            d_foreign_rated=pl.lit(24), d_federations=pl.lit(7), d_titled=pl.lit(11)
        ),
    )
    [cert] = norm_certificates(exempt, games, players, events)
    assert cert.foreign_143d is not None
    assert dataclasses.asdict(cert.foreign_143d) == {
        "federations": 7, "rated_not_host": 24, "titled_not_host": 11
    }  # fmt: skip
    assert "exempt under 1.4.3d" in cert.remarks


@pytest.mark.parametrize(
    ("text", "name", "fide_id"),
    [
        (ARBITER, "IA Mikel Larreategi Arana", 22232540),
        ("IA Brenhoven, Ilse", "IA Brenhoven, Ilse", None),
        ("Ralph Blum (SV Griesheim)", "Ralph Blum (SV Griesheim)", None),
        ("FA Jan Novak 1234567", "FA Jan Novak", 1234567),
        ("  ", None, None),
        (None, None, None),
    ],
    ids=["bracketed-id", "no-id", "bracketed-club", "id-last", "blank", "absent"],
)
def test_the_chief_arbiter_of_trf_102(
    text: str | None, name: str | None, fide_id: int | None
) -> None:
    assert chief_arbiter(text) == (name, fide_id)


# --- the files ---------------------------------------------------------------------------


def sheet(path: Path) -> Any:
    ws = openpyxl.load_workbook(path).active
    assert ws is not None
    return ws


def labelled(ws: Any) -> dict[str, Any]:
    """Label -> the value beside it (the cell after the label's merged span), for every
    label on the sheet; the first of labels used twice."""
    spans = {(r.min_row, r.min_col): r.max_col for r in ws.merged_cells.ranges}
    found: dict[str, Any] = {}
    values: set[tuple[int, int]] = set()  # cells already read as a label's value
    for row in ws.iter_rows():
        for cell in row:
            at = (cell.row, cell.column)
            if isinstance(cell.value, str) and at in spans and at not in values:
                right = ws.cell(row=cell.row, column=spans[at] + 1)
                values.add((right.row, right.column))
                found.setdefault(cell.value, right.value)
    return found


def rounds_table(ws: Any) -> list[dict[str, Any]]:
    """The rounds table's rows by its headers (found by the 'Rd' header)."""
    [head] = [c for row in ws.iter_rows() for c in row if c.value == "Rd"]
    headers = {c.column: c.value for c in ws[head.row] if c.value is not None}
    rows = []
    for r in range(head.row + 1, ws.max_row + 1):
        if not isinstance(ws.cell(row=r, column=head.column).value, int):
            break
        rows.append({h: ws.cell(row=r, column=col).value for col, h in headers.items()})
    return rows


def test_the_sheet_holds_the_certificate(tmp_path: Path) -> None:
    _, [cert] = certified(E5)
    paths = write_certificates(tmp_path, [cert])
    assert [p.name for p in paths] == ["1-IM-bad-wiessee-open-2026.xlsx",
                                       "1-IM-bad-wiessee-open-2026.json"]  # fmt: skip
    ws = sheet(paths[0])
    texts = {c.value for row in ws.iter_rows() for c in row if isinstance(c.value, str)}
    assert {"Certificate of Title Result", "FIDE IT1", "Signatures"} <= texts
    fields = labelled(ws)
    assert fields["Norm sought"] == "IM"
    assert (fields["Name"], fields["FIDE ID"], fields["Federation"]) == ("Applicant", 1, "GER")
    assert (fields["Rating average Ra"], fields["Performance Rp"]) == (2359, 2525)
    assert (fields["Floor applied"], fields["Raised from"]) == ("yes", 2010)
    assert (fields["Score achieved"], fields["Score required"]) == (6.5, cert.result.score_required)
    assert fields["Exceeding the norm by"] == cert.result.exceeding_by
    assert (fields["GM"], fields["IM"], fields["WGM"], fields["WIM"], fields["FM"]) == (
        2,
        3,
        1,
        0,
        1,
    )
    assert (fields["Titled opponents (total)"], fields["Rated opponents"]) == (7, 9)
    assert fields["Chief Arbiter FIDE ID"] == 22232540
    assert fields["Chief Arbiter (name, signature)"] is None  # left for the signature
    table = rounds_table(ws)
    assert [r["Result"] for r in table] == ["½", "1", "1", "0", "1", "½", "1", "1", "½"]
    assert [r["Rating used (1.4.6)"] for r in table] == [None] * 7 + [2050, None]
    assert (table[7]["Opponent"], table[7]["Fed"], table[7]["Rating"]) == (
        "Opponent 9",
        "POL",
        2010,
    )
    # one A4 portrait page: fitted to the page, a print area
    assert (ws.page_setup.orientation, ws.page_setup.paperSize) == ("portrait", 9)
    assert (ws.page_setup.fitToWidth, ws.page_setup.fitToHeight) == (1, 1)
    fit = ws.sheet_properties.pageSetUpPr
    assert fit is not None
    assert fit.fitToPage is True
    assert re.fullmatch(r"'.+'!\$A\$1:\$K\$\d+", ws.print_area or "")


def test_a_review_certificate_says_so_on_the_sheet(tmp_path: Path) -> None:
    _, [cert] = certified(E5, "GM")
    [xlsx, _] = write_certificates(tmp_path, [cert])
    ws = sheet(xlsx)
    fields = labelled(ws)
    assert fields["Verdict"] == "not met"
    assert fields["Failing"] == "target-titles; average-rating; performance"


def test_the_json_round_trips(tmp_path: Path) -> None:
    _, [cert] = certified(E5)
    [_, path] = write_certificates(tmp_path, [cert])
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data == certificate_record(cert)
    assert data["form"] == "FIDE IT1"
    assert (data["event"]["start_date"], data["event"]["end_date"]) == ("2026-05-01", "2026-05-09")
    result = {k: v for k, v in data["result"].items() if k != "games_credited"}
    assert data["result"]["games_credited"] == cert.result.games_credited
    assert result == {"ra": 2359, "floor": 2050, "floor_applied": True,
                      "floor_raised_from": 2010, "rp": 2525, "min_rp": 2450,
                      "score_required": cert.result.score_required, "score": 6.5,
                      "exceeding_by": cert.result.exceeding_by}  # fmt: skip
    assert data["rounds"][7]["rating_used"] == 2050
    assert data["counts"]["gm"] == 2

    def keys(value: Any) -> set[str]:
        if isinstance(value, dict):
            return set(value) | {k for v in value.values() for k in keys(v)}
        if isinstance(value, list):
            return {k for v in value for k in keys(v)}
        return set()

    assert all(re.fullmatch(r"[a-z][a-z0-9_]*", k) for k in keys(data))


def test_a_name_like_a_formula_is_written_as_text(tmp_path: Path) -> None:
    games, players, events = event_frames(E5)
    evil = "=cmd|' /C calc'!A0"
    games = games.with_columns(
        pl.when(pl.col("start_no") == 1).then(pl.lit(evil))
        .when(pl.col("start_no") == 2).then(pl.lit("@SUM(1+1)"))
        .otherwise(pl.col("name")).alias("name")
    )  # fmt: skip
    result = norm_checks(games, players, events)
    [cert] = norm_certificates(result, games, players, events)
    [xlsx, _] = write_certificates(tmp_path, [cert])
    with zipfile.ZipFile(xlsx) as package:
        xml = package.read("xl/worksheets/sheet1.xml")
    assert b"<f>" not in xml
    ws = sheet(xlsx)
    cells = [c for row in ws.iter_rows() for c in row if c.value in (evil, "@SUM(1+1)")]
    assert len(cells) == 2
    assert all(c.data_type == "s" for c in cells)


def test_writing_twice_gives_the_same_files(tmp_path: Path) -> None:
    _, certs = certified(E5)
    _, review = certified(E5, "GM")
    first = write_certificates(tmp_path, certs + review)
    before = {p: p.read_bytes() for p in first}
    second = write_certificates(tmp_path, certs + review)
    assert second == first
    assert {p: p.read_bytes() for p in second} == before
    assert sorted(tmp_path.iterdir()) == sorted(first)


def test_file_names_are_unique_for_namesakes() -> None:
    _, [cert] = certified(E5)
    nameless = dataclasses.replace(cert.player, fide_id=None, name="Müller, Jörg")
    twins = [
        dataclasses.replace(cert, player=dataclasses.replace(nameless, start_no=no))
        for no in (4, 7)
    ]
    assert certificate_stems([*twins, twins[0]]) == [
        "muller-jorg-IM-bad-wiessee-open-2026-4",
        "muller-jorg-IM-bad-wiessee-open-2026-7",
        "muller-jorg-IM-bad-wiessee-open-2026-4-2",
    ]


def test_a_failed_rendering_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, certs = certified(E5)
    _, review = certified(E5, "GM")
    render = report.render_xlsx

    def fail_on_review(cert: Certificate) -> bytes:
        if cert.for_review:
            raise RuntimeError("disk on fire")
        return render(cert)

    monkeypatch.setattr(report, "render_xlsx", fail_on_review)
    with pytest.raises(RuntimeError, match="disk on fire"):
        write_certificates(tmp_path / "out", certs + review)
    assert not (tmp_path / "out").exists()


@pytest.mark.skipif(
    shutil.which("soffice") is None or shutil.which("pdfinfo") is None,
    reason="LibreOffice (soffice) or poppler's pdfinfo is not installed",
)
def test_libreoffice_prints_one_a4_page(tmp_path: Path) -> None:
    _, certs = certified(E5)
    [xlsx, _] = write_certificates(tmp_path, certs)
    subprocess.run(
        ["soffice", f"-env:UserInstallation=file://{tmp_path / 'lo-profile'}", "--headless",
         "--convert-to", "pdf", "--outdir", str(tmp_path), str(xlsx)],
        check=True, capture_output=True, timeout=240,
    )  # fmt: skip
    info = subprocess.run(
        ["pdfinfo", str(xlsx.with_suffix(".pdf"))], check=True, capture_output=True, text=True
    ).stdout
    assert re.search(r"^Pages:\s+1$", info, re.MULTILINE), info
    assert "(A4)" in info


def test_a_real_file_gives_a_certificate_per_norm_row(tmp_path: Path) -> None:
    """FIDE's C.07 exercise (a 9-round Swiss, tests/fixtures/real): every norm row,
    printed for review, agrees with the norms frame round by round."""
    path = ROOT / "tests" / "fixtures" / "real" / "trf_fide_c07_tiebreak_exercise_swiss9.trf"
    outcome = run_job(RunOptions(paths=[path]))
    assert outcome.result is not None
    loaded, games = outcome.loaded, outcome.result.games
    players = loaded.identity.players if loaded.identity else stack_frames(loaded, "players")
    result = norm_checks(games, players, outcome.result.events)
    certs = norm_certificates(result, games, players, outcome.result.events,
                              selection=result.norms)  # fmt: skip
    assert len(certs) == result.norms.height > 0
    for cert, norm in zip(certs, result.norms.iter_rows(named=True), strict=True):
        assert (cert.player.start_no, cert.norm, cert.verdict) == (
            norm["start_no"], norm["title"], norm["verdict"]
        )  # fmt: skip
        assert sum(r.counted for r in cert.rounds) == cert.event.games_counted == norm["games"]
        assert len(cert.rounds) == cert.event.rounds == 9
        assert all(r.opponent_name for r in cert.rounds if r.code in ("1", "=", "0"))
        assert ra_of(cert) == cert.result.ra
        assert cert.event.name == "FIDE C.07 2023 Tie-Break Exercises"
    assert len(write_certificates(tmp_path, certs[:2])) == 4


def test_the_certificate_marks_the_game_1_4_2b_drops_as_the_checks_do() -> None:
    """A round-robin with an unrated player who scored nothing against the rated ones:
    the checks count 8 games; the certificate shows the game against that player as not
    counted (1.4.2b), the other eight counted (the same rule, `counts.zero_scorers`)."""
    from tests.norms.test_checks import round_robin

    people = [("IM", "NED", 2600), *[("GM", f, 2500) for f in ["ESP", "FRA", "GER"] * 3][:8],
              (None, "NED", None)]  # fmt: skip
    games, players, events = round_robin(people)
    result = norm_checks(games, players, events)
    gm = result.norms.filter((pl.col("start_no") == 1) & (pl.col("title") == "GM"))
    (cert,) = norm_certificates(result, games, players, events, selection=gm)
    assert cert.event.games_counted == gm["games"].item() == 8
    dropped = [r for r in cert.rounds if not r.counted]
    assert [(r.opponent_rating, r.note) for r in dropped] == [(None, "not counted (1.4.2b)")]
    assert sum(r.counted for r in cert.rounds) == 8
