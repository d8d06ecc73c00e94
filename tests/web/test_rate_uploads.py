"""Rating files, item 3: a zip of tournament files (its members rated as the files, and
the zips refused: members in folders, too many, too large, not a zip), the officer's
decision files (`identities`, `events`) as upload fields, and what the result page shows
beside the players: the rated-event checks, the identities to review, the histogram of
the changes."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Mapping
from pathlib import Path

import polars as pl
import pytest
from starlette.testclient import TestClient

from pipeline.web.rate_view import changes_histogram, identities_to_review
from pipeline.web.uploads import MAX_FILES
from tests.conftest import SAMPLES
from tests.validate.test_rated import _event
from tests.web.conftest import KESHMAT, upload

OPEN = SAMPLES / "events" / "2026-11-standard-open.trf"


def _zip(members: Mapping[str, bytes | str]) -> bytes:
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return data.getvalue()


EVENTS = {
    "a-open.trf": _event([2450, 2100, 1700, 1600], "60 min"),
    "b-match.trf": _event([2200, None], "60 min", rounds=2),
    "c-fine.trf": _event([2450, 2500], None, encoded="5400+30"),
}


def test_a_zip_is_rated_as_its_files(client: TestClient) -> None:
    zipped = client.post("/api/rate", files=[("files", ("events.zip", _zip(EVENTS)))])
    assert zipped.status_code == 200, zipped.text
    one_by_one = client.post(
        "/api/rate", files=[("files", (n, t.encode())) for n, t in EVENTS.items()]
    )
    assert zipped.json()["ratings"] == one_by_one.json()["ratings"]
    assert zipped.json()["events_rated"] == 3


def test_the_page_shows_the_rated_event_checks_and_the_histogram(client: TestClient) -> None:
    page = client.post("/rate?lang=en", files=[("files", ("events.zip", _zip(EVENTS)))])
    assert page.status_code == 200
    checks = page.text.split("<h2>Rated-event checks</h2>")[1].split("</table>")[0]
    assert "match-unrated-player (B.02 §6.1)" in checks
    assert "<td>b-match.trf</td>" in checks
    assert "c-fine.trf" not in checks
    assert '<svg class="chart histogram"' in page.text
    assert 'id="filter"' in page.text  # the table's filter (shown by rate.js)


@pytest.mark.parametrize(
    ("members", "code", "message"),
    [
        ({"events/a.trf": EVENTS["a-open.trf"]}, "zip-member-path",
         "events.zip: expected the tournament files at the zip's top level, got 'events/a.trf'"),
        ({f"e{i}.trf": "" for i in range(MAX_FILES + 1)}, "zip-too-many-files",
         f"events.zip: expected at most {MAX_FILES} files, got {MAX_FILES + 1}"),
        ({"big.trf": b"0" * 2_500_000}, "zip-too-large",
         "events.zip: the zip's files unpack to more than 2 MB"),
        ({}, "zip-empty", "events.zip: the zip holds no file"),
    ],
    ids=["member-with-a-folder", "too-many-members", "too-large-unpacked", "empty"],
)  # fmt: skip
def test_zips_refused(
    client: TestClient, members: dict[str, bytes | str], code: str, message: str
) -> None:
    answer = client.post("/api/rate", files=[("files", ("events.zip", _zip(members)))])
    assert answer.status_code == 400
    (problem,) = answer.json()["problems"]
    assert problem["code"] == code
    assert problem["message"].startswith(message)
    page = client.post("/rate?lang=en", files=[("files", ("events.zip", _zip(members)))])
    assert page.status_code == 400
    assert "Traceback" not in page.text
    assert client.post("/api/rate", files=upload(OPEN)).status_code == 200  # still serving


def test_a_text_named_zip_is_refused(client: TestClient) -> None:
    answer = client.post("/api/rate", files=[("files", ("events.zip", b"not a zip at all"))])
    assert answer.status_code == 400
    assert answer.json()["problems"][0]["code"] == "bad-zip"
    assert answer.json()["problems"][0]["message"].startswith("events.zip: not a readable zip")


def test_the_events_decision_file_reaches_the_run(client: TestClient) -> None:
    decision = f"file;list\n{OPEN.name};rapid\n".encode()
    answer = client.post("/api/rate", files=[*upload(OPEN), ("events", ("events.csv", decision))])
    assert answer.status_code == 200, answer.text
    assert {r["list"] for r in answer.json()["ratings"]} == {"rapid"}
    plain = client.post("/api/rate", files=upload(OPEN)).json()
    assert {r["list"] for r in plain["ratings"]} == {"standard"}


def test_a_bad_identities_file_is_named(client: TestClient) -> None:
    bad = b"this is not an identities file\n"
    answer = client.post("/api/rate", files=[*upload(OPEN), ("identities", ("ids.csv", bad))])
    assert answer.status_code == 422
    body = answer.json()
    assert body["status"] == "rejected"
    assert body["errors"][0]["file"] == "identities/ids.csv"  # not the server's folder
    assert body["errors"][0]["message"] == (
        "expected a column fide_id, got this is not an identities file"
    )


def test_identities_to_review_are_the_ambiguous_and_unmatched(tmp_path: Path) -> None:
    pl.DataFrame(
        {
            "event": ["E"] * 3,
            "name": ["Müller Hans", "Kim Ji", "Smith John"],
            "candidates": ["103;104", "", ""],
            "status": ["ambiguous", "unmatched", "registry-name"],
        }
    ).write_csv(tmp_path / "identities.csv")
    review = identities_to_review(tmp_path)
    assert [(r["name"], r["candidates"]) for r in review] == [
        ("Müller Hans", "103;104"),
        ("Kim Ji", ""),
    ]
    assert identities_to_review(tmp_path / "none") == []


def test_the_histogram_counts_the_changes_in_bars_of_five() -> None:
    ratings = [{"change": c} for c in (-12, -3, 0, 4, 4, 17)] + [{"change": None}]
    histogram = changes_histogram(ratings)
    assert histogram is not None
    assert [(b.low, b.count) for b in histogram.bars] == [(-15, 1), (-5, 1), (0, 3), (15, 1)]
    assert histogram.most == 3
    assert changes_histogram([{"change": None}]) is None


def test_the_page_shows_the_identities_to_review(client: TestClient, tmp_path: Path) -> None:
    from tests.identity.test_real_identities import registry_for

    registry, truth = registry_for(KESHMAT, tmp_path, homonym="Khoder Akram")
    first = truth[3]  # Khoder Akram, twice in the list: ambiguous
    files = [*upload(KESHMAT), ("registry", (registry.name, registry.read_bytes()))]
    page = client.post("/rate?lang=en", files=files)
    assert page.status_code == 200
    review = page.text.split("<h2>Identities to review</h2>")[1].split("</table>")[0]
    assert "<td>Khoder Akram</td>" in review
    assert f"<td>{first};{first + 3}</td>" in review  # the candidates
    assert f"<td>{KESHMAT.name}</td><td>23</td>" in review
    assert review.count("<tr>") == 2  # its header and the one entry to review
