"""`GET /`, `POST /rate`, `POST /api/rate`, the downloads and the player cards: `elo run`
in a browser and as JSON, and every way a request can go wrong (a page message or a 4xx
JSON problem, never a traceback)."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import polars as pl
import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.web.store import JobStore
from pipeline.web.uploads import MAX_FILES, safe_name
from tests.conftest import FIXTURES, SAMPLES
from tests.web.conftest import KESHMAT, upload

runner = CliRunner()
OPEN = SAMPLES / "events" / "2026-11-standard-open.trf"
LEAGUE = SAMPLES / "events" / "2026-11-club-league.csv"
REGISTRY = SAMPLES / "registry" / "players_list_foa.txt"


def _elo_run(tmp_path: Path, *args: str) -> pl.DataFrame:
    out = tmp_path / "cli"
    done = runner.invoke(app, ["run", *args, "--out", str(out), "--quiet"])
    assert done.exit_code == 0, done.output
    return pl.read_csv(out / "ratings.csv")


def test_rating_a_file_gives_elo_runs_ratings(client: TestClient, tmp_path: Path) -> None:
    answer = client.post("/api/rate", files=upload(KESHMAT))
    assert answer.status_code == 200
    body = answer.json()
    assert body["status"] == "ok"
    assert body["events"][0]["file"] == KESHMAT.name  # no server folder in the names
    assert pl.DataFrame(body["ratings"]).equals(_elo_run(tmp_path, str(KESHMAT)))
    assert {"ratings.csv", "games.csv", "report.xlsx", "summary.json", "trf16", "trf26"} <= set(
        body["downloads"]
    )  # every file elo run wrote, and the TRF files


def test_the_shared_crosstable_rates_as_elo_run_does(
    client: TestClient, shared_dir: Path, tmp_path: Path
) -> None:
    path = shared_dir / "data" / "crosstables" / "chessresults_keshmat_circuit_rapid_2025_04.xlsx"
    options = {"list": "rapid", "rounding": "tournament", "rules": "2025-04-30"}
    answer = client.post("/api/rate", files=upload(path), data=options)
    assert answer.status_code == 200
    cli = _elo_run(tmp_path, str(path), "--list", "rapid", "--rounding", "tournament",
                   "--rules", "2025-04-30")  # fmt: skip
    assert pl.DataFrame(answer.json()["ratings"]).equals(cli)


def test_registry_upload_and_several_files(client: TestClient, tmp_path: Path) -> None:
    files = [*upload(OPEN, LEAGUE, LEAGUE.with_name("2026-11-club-league.players.csv"))]
    files.append(("registry", (REGISTRY.name, REGISTRY.read_bytes())))
    answer = client.post("/api/rate", files=files)
    assert answer.status_code == 200, answer.text
    cli = _elo_run(tmp_path, str(OPEN), str(LEAGUE), "--registry", str(REGISTRY))
    assert pl.DataFrame(answer.json()["ratings"]).equals(cli)


def test_downloads_name_the_files_as_uploaded(client: TestClient) -> None:
    """No output handed out shows the server's folders: summary.json, identities.csv and
    the workbook's sheets name each file as it was uploaded."""
    from openpyxl import load_workbook

    body = client.post("/api/rate", files=upload(OPEN, LEAGUE)).json()
    folders = re.compile(rb"elo-serve-|inputs[/\\]")
    for name, address in body["downloads"].items():
        data = client.get(address).content
        if name.endswith(".xlsx"):
            with zipfile.ZipFile(io.BytesIO(data)) as package:
                assert package.testzip() is None
                data = b"".join(package.read(member) for member in package.namelist())
        assert not folders.search(data), name
    summary = client.get(body["downloads"]["summary.json"]).json()
    assert {e["file"] for e in summary["events"]} == {OPEN.name, LEAGUE.name}
    identities = pl.read_csv(io.BytesIO(client.get(body["downloads"]["identities.csv"]).content))
    assert set(identities["file"]) == {OPEN.name, LEAGUE.name}
    report = client.get(body["downloads"]["report.xlsx"]).content
    events = load_workbook(io.BytesIO(report), read_only=True)["Events"]
    cells = {cell for row in events.iter_rows(values_only=True) for cell in row}
    assert {OPEN.name, LEAGUE.name} <= cells


def test_downloads(client: TestClient) -> None:
    body = client.post("/api/rate", files=upload(OPEN, LEAGUE)).json()
    downloads = body["downloads"]
    ratings = client.get(downloads["ratings.csv"])
    assert ratings.status_code == 200
    assert ratings.text.startswith("list,fide_id,name,federation,rating_before,")
    assert "attachment" in ratings.headers["content-disposition"]
    workbook = client.get(downloads["report.xlsx"])
    assert workbook.content[:2] == b"PK"
    trf = client.get(downloads["trf26"])  # two events: a zip of one TRF each
    assert trf.headers["content-type"] == "application/zip"
    names = zipfile.ZipFile(io.BytesIO(trf.content)).namelist()
    assert len(names) == 2
    assert all(name.endswith(".trf") for name in names)


def test_trf_download_of_one_event_is_the_file(client: TestClient) -> None:
    body = client.post("/api/rate", files=upload(OPEN)).json()
    trf = client.get(body["downloads"]["trf16"])
    assert trf.status_code == 200
    assert trf.text.startswith("012 ")
    assert trf.headers["content-disposition"].endswith('.trf"')


def test_the_page_shows_the_ratings_in_the_language_asked(client: TestClient) -> None:
    files = [*upload(OPEN), ("registry", (REGISTRY.name, REGISTRY.read_bytes()))]
    page = client.post("/rate?lang=it", files=files)
    assert page.status_code == 200
    assert '<html lang="it">' in page.text
    assert "1 torneo valutato" in page.text
    assert "/download/" in page.text
    assert ">report.xlsx</a>" in page.text
    body = client.post("/api/rate", files=files).json()
    row = next(r for r in body["ratings"] if r["fide_id"] and r["expected"] % 1)
    expected = f"{row['expected']:.2f}".replace(".", ",")
    assert f">{expected}</td>" in page.text  # the decimal comma
    link = re.search(rf'href="(/rate/[^/]+/player/{row["fide_id"]})', page.text)
    assert link is not None  # the player's card, linked from the table
    player = client.get(link.group(1))
    assert player.status_code == 200
    assert f"FIDE ID {row['fide_id']}" in player.text
    assert '<pre class="card">' in player.text


def test_check_only_is_elo_validate(client: TestClient) -> None:
    bad = FIXTURES / "invalid" / "trf_bad_opponent.trf"
    page = client.post("/rate", files=upload(OPEN, bad), data={"action": "validate"})
    assert page.status_code == 422
    assert "2 files checked: 1 valid, 1 invalid" in page.text
    answer = client.post("/api/rate", files=upload(OPEN), data={"action": "validate"})
    assert answer.status_code == 200
    body = answer.json()
    assert body["invalid"] is False
    assert body["files"][0]["file"] == OPEN.name
    assert body["files"][0]["descriptions"]


def test_the_upload_form(client: TestClient) -> None:
    page = client.get("/?lang=es")
    assert page.status_code == 200
    assert 'enctype="multipart/form-data"' in page.text
    assert "Valorar un torneo" in page.text


# --- what can go wrong --------------------------------------------------------------------


def test_invalid_file_is_a_422_with_every_problem(client: TestClient) -> None:
    bad = FIXTURES / "invalid" / "trf_bad_opponent.trf"
    answer = client.post("/api/rate", files=upload(bad))
    assert answer.status_code == 422
    body = answer.json()
    assert body["status"] == "rejected"
    assert body["ratings"] == []
    errors = body["errors"]
    assert errors
    assert all(e["file"] == bad.name for e in errors)  # the uploaded name, no server folder
    assert all(e["line"] for e in errors)
    page = client.post("/rate", files=upload(bad))
    assert page.status_code == 422
    assert "The files were not rated" in page.text
    assert errors[0]["message"].replace("'", "&#39;") in page.text
    assert "Traceback" not in page.text


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"period": "2026-13"}, "period: expected YYYY-MM, got '2026-13'"),
        ({"rules": "yesterday"}, "rules: expected a date YYYY-MM-DD, got 'yesterday'"),
        ({"list": "bullet"}, "list: expected one of standard, rapid, blitz, got 'bullet'"),
        ({"rounding": "game"}, "rounding: expected one of period, tournament, got 'game'"),
    ],
    ids=["period", "rules", "list", "rounding"],
)
def test_bad_option_is_a_400(client: TestClient, data: dict[str, str], message: str) -> None:
    answer = client.post("/api/rate", files=upload(OPEN), data=data)
    assert answer.status_code == 400
    assert answer.json()["problems"][0]["message"] == message
    page = client.post("/rate", files=upload(OPEN), data=data)
    assert page.status_code == 400
    assert message.replace("'", "&#39;") in page.text


def test_no_files_is_a_400(client: TestClient) -> None:
    answer = client.post("/api/rate", files=[("other", ("x.trf", b""))], data={"list": ""})
    assert answer.status_code == 400
    assert answer.json()["problems"][0]["code"] == "no-files"


def test_not_a_form_upload_is_a_415(client: TestClient) -> None:
    answer = client.post("/api/rate", json={"files": []})
    assert answer.status_code == 415
    assert answer.json()["problems"][0]["code"] == "not-multipart"


def test_events_of_several_periods_are_a_400(client: TestClient) -> None:
    answer = client.post("/api/rate", files=upload(OPEN, KESHMAT))
    assert answer.status_code == 400
    problem = answer.json()["problems"][0]
    assert problem["code"] == "several-periods"
    assert "2025-05" in problem["message"]


def test_an_upload_over_the_limit_is_a_413(client: TestClient) -> None:
    big = [("files", ("big.trf", b"012 x\n" * 400_000))]  # 2.4 MB, the limit is 2 MB
    answer = client.post("/api/rate", files=big)
    assert answer.status_code == 413
    assert answer.json()["problems"][0]["code"] == "upload-too-large"
    page = client.post("/rate", files=big)
    assert page.status_code == 413
    assert "The upload is too large" in page.text


def test_a_body_longer_than_declared_is_stopped(client: TestClient) -> None:
    """A body sent in chunks (no Content-Length) is counted as it arrives."""

    def chunks() -> object:
        for _ in range(30):
            yield b"x" * 100_000

    headers = {"content-type": "multipart/form-data; boundary=b"}
    answer = client.post("/api/rate", content=chunks(), headers=headers)  # type: ignore[arg-type]
    assert answer.status_code == 413


def test_unknown_rating_and_file_are_404(client: TestClient) -> None:
    body = client.post("/api/rate", files=upload(OPEN)).json()
    job = body["downloads"]["ratings.csv"].split("/")[-2]
    assert client.get(f"/download/{job}/nothing.csv").status_code == 404
    assert client.get(f"/download/{job}/..%2F..%2Fetc%2Fpasswd").status_code == 404
    assert client.get(f"/download/{job}/.hidden").status_code == 404
    assert client.get("/download/not-a-job/ratings.csv").status_code == 404
    assert client.get(f"/rate/{job}/player/1").status_code == 404
    assert client.get("/rate/not-a-job/player/1").status_code == 404


def test_a_rejected_rating_has_no_trf(client: TestClient) -> None:
    bad = FIXTURES / "invalid" / "trf_bad_opponent.trf"
    body = client.post("/api/rate", files=upload(bad)).json()
    assert "trf16" not in body["downloads"]
    job = body["downloads"]["summary.json"].split("/")[-2]
    assert client.get(f"/download/{job}/trf16").status_code == 404


@pytest.mark.parametrize(
    ("given", "name"),
    [
        ("open.trf", "open.trf"),
        ("../../etc/passwd", "passwd"),
        ("C:\\Users\\me\\event 1.xlsx", "event_1.xlsx"),
        (".bashrc", "bashrc"),
        ("..", "upload-3"),
        ("", "upload-3"),
        (None, "upload-3"),
    ],
)
def test_uploaded_names_stay_in_the_jobs_folder(given: str | None, name: str) -> None:
    assert safe_name(given, 3) == name


def test_the_store_keeps_the_newest_ratings() -> None:
    store = JobStore(2)
    first, second, third = store.new(), store.new(), store.new()
    assert store.get(first.id) is None
    assert not first.folder.exists()
    assert store.get(third.id) is third
    store.clear()
    assert not second.folder.exists()
    assert len(store) == 0


def test_a_wrong_method_is_a_405(client: TestClient) -> None:
    answer = client.get("/api/rate")
    assert answer.status_code == 405
    assert answer.json()["problems"][0]["message"] == "GET is not accepted at /api/rate"
    assert client.get("/rate").status_code == 405


def test_too_many_files_is_a_400(client: TestClient) -> None:
    files = [("files", (f"e{i}.trf", b"012 x\n")) for i in range(MAX_FILES + 2)]
    answer = client.post("/api/rate", files=files)
    assert answer.status_code == 400
    assert "Too many files" in answer.json()["problems"][0]["message"]
