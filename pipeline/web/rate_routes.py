"""Rating files: `GET /` (the upload form), `POST /rate` (the result page, or `elo
validate`'s report with `action=validate`), `POST /api/rate` (summary.json's object plus
`ratings`, ratings.csv's rows, and `downloads`, the outputs' addresses). The form's fields
are named as `elo run`'s options: `files` (one or more; a `.zip` of them is unpacked,
`pipeline.web.uploads`), `registry` (a rating list; else the server's --registry),
`identities` and `events` (the officer's decision files), `list`, `period`, `rules`,
`rounding`. Each rating runs `elo
run`'s job (`pipeline.run.run_job`) into a temporary folder of its own, kept for the
downloads (`pipeline.web.downloads`)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from pathlib import Path

from python_multipart.exceptions import MultipartParseError
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from pipeline.errors import InputError
from pipeline.load import PeriodUsageError, RunOptions
from pipeline.outcome import RunOutcome
from pipeline.rules.ruleset import LISTS
from pipeline.validate.files import ValidationReport
from pipeline.web.common import (
    BODY_TAIL,
    ServeConfig,
    page_lang,
    problem_dicts,
    problem_response,
    render,
)
from pipeline.web.rate_view import changes_histogram, identities_to_review, rated_event_checks
from pipeline.web.store import Job, JobStore
from pipeline.web.uploads import (
    MAX_FILES,
    UploadRefused,
    is_zip,
    save_upload,
    save_zip,
)

ROUNDINGS = ("period", "tournament")  # pipeline.rate.engine.ROUNDINGS (loads polars)
_PERIOD = re.compile(r"\d{4}-(0[1-9]|1[0-2])")
_BOUNDARY = re.compile(r"boundary=([^;]+)")


class FormError(ValueError):
    """A form value that cannot be used: (status, code, message)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


def _choice(field: str, value: str, choices: Sequence[str]) -> str | None:
    if not value:
        return None
    if value not in choices:
        expected = ", ".join(choices)
        raise FormError(400, "bad-value", f"{field}: expected one of {expected}, got {value!r}")
    return value


def _text(form: FormData, name: str) -> str:
    value = form.get(name)
    return value.strip() if isinstance(value, str) else ""


async def _prepare(request: Request, job: Job) -> tuple[str, RunOptions]:
    """The uploaded files saved into the job's folder; the run's options from the form."""
    content_type = request.headers.get("content-type", "")
    if not content_type.startswith("multipart/form-data"):
        raise FormError(415, "not-multipart", "expected a multipart/form-data upload of files")
    try:
        form = await request.form(max_files=MAX_FILES + 1, max_fields=50)
    except HTTPException as exc:
        if exc.status_code != 400:
            raise
        message = f"expected a well-formed multipart/form-data body, got: {exc.detail}"
        raise FormError(400, "malformed-multipart", message) from None
    except MultipartParseError as exc:  # what Starlette lets through of the parser's errors
        message = f"expected a well-formed multipart/form-data body, got: {exc}"
        raise FormError(400, "malformed-multipart", message) from None
    boundary = _BOUNDARY.search(content_type)
    tail = getattr(request.state, BODY_TAIL, b"")
    if boundary is None or f"--{boundary.group(1).strip(chr(34))}--".encode() not in tail:
        message = (
            "expected a multipart/form-data body ending with its closing boundary, got one "
            "cut short (send the form again)"
        )
        raise FormError(400, "malformed-multipart", message)
    uploads = [f for f in form.getlist("files") if isinstance(f, UploadFile) and f.filename]
    if not uploads:
        raise FormError(400, "no-files", "expected at least one tournament file in 'files'")
    config: ServeConfig = request.app.state.config
    taken: set[str] = set()
    zips = job.folder / "zips"
    zips.mkdir()
    for i, upload in enumerate(uploads, start=1):
        path = await save_upload(upload, job.inputs, i, taken)
        if path.stat().st_size == 0:
            raise FormError(400, "empty-file", f"{path.name}: the file is empty (0 bytes)")
        if not is_zip(path):
            job.files.append(path)
            continue
        path = path.rename(zips / path.name)  # its members are the files
        limit = int(config.max_upload_mb * 1_000_000)
        room = MAX_FILES - len(job.files)
        job.files += await run_in_threadpool(save_zip, path, job.inputs, taken, room, limit)
    decisions: dict[str, Path | None] = {}
    for name in ("registry", "identities", "events"):
        given = form.get(name)
        if isinstance(given, UploadFile) and given.filename:
            folder = job.folder / name
            folder.mkdir()
            decisions[name] = await save_upload(given, folder, 1, set())
    registry = decisions.get("registry") or config.registry
    period = _text(form, "period")
    if period and not _PERIOD.fullmatch(period):
        raise FormError(400, "bad-value", f"period: expected YYYY-MM, got {period!r}")
    rules = _text(form, "rules")
    try:
        rules_date = dt.date.fromisoformat(rules) if rules else None
    except ValueError:
        message = f"rules: expected a date YYYY-MM-DD, got {rules!r}"
        raise FormError(400, "bad-value", message) from None
    job.registry = registry
    job.list_override = _choice("list", _text(form, "list"), LISTS)
    options = RunOptions(
        paths=list(job.files),
        registry=registry,
        list_override=job.list_override,
        period=period or None,
        rules_date=rules_date,
        rounding=_choice("rounding", _text(form, "rounding"), ROUNDINGS) or "period",
        identities=decisions.get("identities"),
        events=decisions.get("events"),
        out_dir=job.out,
        lang=page_lang(request),
        jobs=1,
    )
    return _text(form, "action") or "rate", options


def _run(job: Job, options: RunOptions) -> RunOutcome:
    """`elo run`'s job, its outputs naming the files as uploaded (pipeline.web.names)."""
    from pipeline.run import run_job
    from pipeline.web.names import as_uploaded

    outcome = run_job(options)
    as_uploaded(outcome.written, job.relative, job.prefixes)
    return outcome


def _validate(job: Job) -> ValidationReport:
    from pipeline.validate import validate_paths

    return validate_paths(list(job.files), job.registry, job.list_override, jobs=1)


def _listed(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else []


def _ratings(job: Job) -> list[dict[str, object]]:
    """ratings.csv's rows, read back as `elo run` wrote them."""
    import polars as pl

    path = job.out / "ratings.csv"
    return pl.read_csv(path).to_dicts() if path.is_file() else []


def _downloads(
    request: Request, job: Job, written: Sequence[Path], rated: bool, *, paths: bool = False
) -> dict[str, str]:
    """The outputs' addresses (the API's absolute ones; the page's paths)."""
    names = [p.name for p in written]
    if rated:
        names += ["trf16", "trf26"]
    urls = {name: request.url_for("download", job=job.id, name=name) for name in names}
    return {name: url.path if paths else str(url) for name, url in urls.items()}


async def _rate(request: Request) -> tuple[Job, RunOutcome | ValidationReport] | Response:
    """The job and its outcome (`elo run`'s, or `elo validate`'s report with
    `action=validate`), or the problem to answer with."""
    store: JobStore = request.app.state.store
    job = store.new()
    try:
        action, options = await _prepare(request, job)
        if action == "validate":
            return job, await run_in_threadpool(_validate, job)
        outcome = await run_in_threadpool(_run, job, options)
    except FormError as exc:
        store.drop(job)
        return problem_response(request, exc.status, exc.code, str(exc))
    except UploadRefused as exc:
        store.drop(job)
        return problem_response(request, 400, exc.code, str(exc))
    except PeriodUsageError as exc:
        store.drop(job)
        return problem_response(request, 400, "several-periods", str(exc))
    except InputError as exc:
        store.drop(job)
        problems = job.relative(problem_dicts(exc.problems))
        return problem_response(request, 422, "invalid-input", str(exc), problems)
    job.result = outcome.result
    return job, outcome


async def api_rate(request: Request) -> Response:
    done = await _rate(request)
    if isinstance(done, Response):
        return done
    job, outcome = done
    if isinstance(outcome, ValidationReport):
        body = {
            "invalid": outcome.invalid,
            "summary": outcome.summary(),
            "files": [
                {"file": job.relative(f.file), "kind": f.kind, "events": f.events, "valid": f.valid,
                 "descriptions": f.descriptions}
                for f in outcome.files
            ],
            "problems": job.relative(problem_dicts(outcome.problems)),
        }  # fmt: skip
        return JSONResponse(body, 422 if outcome.invalid else 200)
    body = job.relative(outcome.summary)
    assert isinstance(body, dict)
    body["ratings"] = _ratings(job)
    body["downloads"] = _downloads(request, job, outcome.written, outcome.result is not None)
    if outcome.result is None:  # rejected: summary.json's object is also a JSON problem
        body["title"] = "The files were not rated"
        body["problems"] = _listed(body.get("errors"))
    return JSONResponse(body, 200 if outcome.result is not None else 422)


async def rate_page(request: Request) -> Response:
    done = await _rate(request)
    if isinstance(done, Response):
        return done
    job, outcome = done
    if isinstance(outcome, ValidationReport):
        status = 422 if outcome.invalid else 200
        problems = job.relative(problem_dicts(outcome.problems))
        return render(request, "validate.html", status, report=outcome, problems=problems)
    summary = job.relative(outcome.summary)
    assert isinstance(summary, dict)
    problems = [p for key in ("errors", "warnings") for p in _listed(summary.get(key))]
    ratings = _ratings(job)
    return render(
        request,
        "rated.html",
        200 if outcome.result is not None else 422,
        summary=summary,
        problems=problems,
        checks=rated_event_checks(summary),
        review=job.relative(identities_to_review(job.out)),
        histogram=changes_histogram(ratings),
        ratings=ratings,
        downloads=_downloads(request, job, outcome.written, outcome.result is not None, paths=True),
        job=job,
    )


async def upload_page(request: Request) -> Response:
    config: ServeConfig = request.app.state.config
    return render(
        request,
        "rate.html",
        lists=LISTS,
        roundings=ROUNDINGS,
        server_registry=config.registry.name if config.registry else None,
    )


ROUTES = [
    Route("/", upload_page),
    Route("/rate", rate_page, methods=["POST"]),
    Route("/api/rate", api_rate, methods=["POST"]),
]
