"""Item 5, safety: every bad upload gets its message (a page, or a 4xx JSON problem in the
API), never a traceback, and the next request still works; uploaded files are deleted
once their rating is replaced or older than ServeConfig.keep_minutes; ratings run off the
event loop, so two uploads at once get their own results and the pages keep answering."""

from __future__ import annotations

import io
import tempfile
import threading
import time
import zipfile
from pathlib import Path

import anyio
import httpx
import pytest
from starlette.testclient import TestClient

from pipeline.load import RunOptions
from pipeline.outcome import RunOutcome
from pipeline.web import ServeConfig, create_app, rate_routes
from pipeline.web.store import Job, JobStore
from tests.conftest import SAMPLES
from tests.web.conftest import KESHMAT, upload

OPEN = SAMPLES / "events" / "2026-11-standard-open.trf"


def _xlsx(parts: dict[str, bytes]) -> bytes:
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in parts.items():
            archive.writestr(name, content)
    return data.getvalue()


TYPES = b'<?xml version="1.0" encoding="UTF-8"?><Types/>'
BOMB = _xlsx({"[Content_Types].xml": TYPES, "xl/worksheets/sheet1.xml": b" " * 150_000_000})
DOCTYPE = _xlsx(
    {"[Content_Types].xml": b'<?xml version="1.0"?><!DOCTYPE t [<!ENTITY a "b">]><Types/>'}
)
BAD_FILES = [
    ("bomb.xlsx", BOMB, "xlsx-unsafe",
     "part 'xl/worksheets/sheet1.xml': expected at most 100000000 bytes uncompressed, got "
     "150000000 declared"),
    ("doctype.xlsx", DOCTYPE, "xlsx-unsafe",
     "part '[Content_Types].xml': expected XML without DOCTYPE or ENTITY declarations, got one"),
    ("text.xlsx", b"Name;Rating\nSmith John;1500\n", "unknown-format",
     "expected a TRF file, a crosstable (XLSX/CSV), a games CSV or a rating list, got a file "
     "starting 'Name;Rating'"),
]  # fmt: skip


def _still_serving(client: TestClient) -> None:
    assert client.get("/api/health").json()["status"] == "ok"
    assert client.post("/api/rate", files=upload(OPEN)).status_code == 200


@pytest.mark.parametrize(("name", "data", "code", "message"), BAD_FILES,
                         ids=["zip-bomb", "doctype", "text-named-xlsx"])  # fmt: skip
def test_a_refused_file_is_a_problem_with_its_message(
    client: TestClient, name: str, data: bytes, code: str, message: str
) -> None:
    assert len(data) < 2_000_000  # under the upload limit: the pre-flight refuses it
    answer = client.post("/api/rate", files=[("files", (name, data))])
    assert answer.status_code == 422
    body = answer.json()
    assert body["status"] == "rejected"
    problem = next(p for p in body["problems"] if p["code"] == code)
    assert problem["file"] == name  # the name uploaded, not the server's folder
    assert problem["message"] == message
    page = client.post("/rate?lang=en", files=[("files", (name, data))])
    assert page.status_code == 422
    assert message.replace("'", "&#39;") in page.text
    assert "Traceback" not in page.text
    _still_serving(client)


@pytest.mark.parametrize(
    ("content_type", "body", "message"),
    [
        ("multipart/form-data; boundary=b",
         b'--b\r\nContent-Disposition: form-data; name="files"; filename="a.trf"\r\n\r\n012 x',
         "expected a multipart/form-data body ending with its closing boundary, got one cut "
         "short"),
        ("multipart/form-data", b"--b\r\n\r\n--b--\r\n",
         "expected a well-formed multipart/form-data body, got: Missing boundary"),
        ("multipart/form-data; boundary=b", b"--b\r\nno headers at all--b--\r\n",
         "expected a well-formed multipart/form-data body, got: "),
    ],
    ids=["cut-short", "no-boundary", "garbage"],
)  # fmt: skip
def test_a_malformed_multipart_body_is_a_400(
    client: TestClient, content_type: str, body: bytes, message: str
) -> None:
    for path in ("/api/rate", "/rate"):
        answer = client.post(path, content=body, headers={"content-type": content_type})
        assert answer.status_code == 400, answer.text
        if path == "/api/rate":
            (problem,) = answer.json()["problems"]
            assert problem["code"] == "malformed-multipart"
            assert problem["message"].startswith(message)
        else:
            assert "Traceback" not in answer.text
    _still_serving(client)


def test_an_empty_upload_is_a_400(client: TestClient) -> None:
    answer = client.post("/api/rate", files=[("files", ("empty.trf", b""))])
    assert answer.status_code == 400
    (problem,) = answer.json()["problems"]
    assert (problem["code"], problem["message"]) == (
        "empty-file",
        "empty.trf: the file is empty (0 bytes)",
    )
    page = client.post("/rate?lang=en", files=[("files", ("empty.trf", b""))])
    assert page.status_code == 400
    assert "empty.trf: the file is empty (0 bytes)" in page.text
    _still_serving(client)


def _folders(client: TestClient) -> list[Path]:
    store: JobStore = client.app.state.store  # type: ignore[attr-defined]
    return [job.folder for job in store._jobs.values()]


def test_a_refused_upload_leaves_no_file(client: TestClient) -> None:
    for files in ([("files", ("empty.trf", b""))], [("files", ("a.zip", b"not a zip"))]):
        assert client.post("/api/rate", files=files).status_code == 400
    assert _folders(client) == []  # a refused upload's folder is deleted at once
    assert not list(Path(tempfile.gettempdir()).glob("elo-serve-*/inputs/empty.trf"))


def test_ratings_older_than_the_time_limit_are_deleted() -> None:
    store = JobStore(5, keep_seconds=60)
    job = store.new()
    assert job.folder.is_dir()
    assert store.expire(now=time.monotonic() + 30) == 0
    assert store.expire(now=time.monotonic() + 61) == 1
    assert not job.folder.exists()
    assert store.get(job.id) is None


def test_the_server_deletes_expired_ratings_without_a_request() -> None:
    config = ServeConfig(lang="en", keep_minutes=0.2 / 60)  # 0.2 s; swept every second
    with TestClient(create_app(config)) as client:
        body = client.post("/api/rate", files=upload(OPEN)).json()
        (folder,) = _folders(client)
        assert folder.is_dir()
        deadline = time.monotonic() + 5
        while folder.exists():
            assert time.monotonic() < deadline, "the expired rating was not deleted"
            time.sleep(0.05)
        answer = client.get(body["downloads"]["ratings.csv"])
        assert answer.status_code == 404
        assert "no such rating on this server" in answer.text


def test_two_uploads_at_once_get_their_own_results_and_the_pages_keep_answering(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    slow = rate_routes._run
    running = threading.Event()

    def run_slowly(job: Job, options: RunOptions) -> RunOutcome:
        running.set()
        time.sleep(0.5)  # in the thread pool: the event loop stays free
        return slow(job, options)

    monkeypatch.setattr(rate_routes, "_run", run_slowly)
    app = create_app(ServeConfig(lang="en"))
    answers: dict[str, httpx.Response] = {}

    async def main() -> float:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://elo") as client:

            async def rate(key: str, path: Path) -> None:
                answers[key] = await client.post("/api/rate", files=upload(path))

            async def health() -> float:
                while not running.is_set():
                    await anyio.sleep(0.01)
                start = time.monotonic()
                assert (await client.get("/api/health")).status_code == 200
                return time.monotonic() - start

            waited: list[float] = []
            async with anyio.create_task_group() as tasks:
                tasks.start_soon(rate, "open", OPEN)
                tasks.start_soon(rate, "keshmat", KESHMAT)

                async def measure() -> None:
                    waited.append(await health())

                tasks.start_soon(measure)
            return waited[0]

    waited = anyio.run(main)
    assert waited < 0.3  # answered while both ratings ran
    open_body, keshmat_body = answers["open"].json(), answers["keshmat"].json()
    assert [e["file"] for e in open_body["events"]] == [OPEN.name]
    assert [e["file"] for e in keshmat_body["events"]] == [KESHMAT.name]
    assert len(keshmat_body["ratings"]) == 67
    assert open_body["downloads"]["ratings.csv"] != keshmat_body["downloads"]["ratings.csv"]
