"""Rating files: `GET /` (the upload form), `POST /rate` (the result page, or `elo
validate`'s report with `action=validate`), `POST /api/rate` (summary.json's object plus
`ratings`, ratings.csv's rows, and `downloads`, the outputs' addresses). The form's fields
are named as `elo run`'s options: `files` (one or more), `registry` (a rating list; else
the server's --registry), `list`, `period`, `rules`, `rounding`. Each rating runs `elo
run`'s job (`pipeline.run.run_job`) into a temporary folder of its own, kept for the
downloads (`pipeline.web.downloads`)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from pipeline.errors import InputError
from pipeline.load import PeriodUsageError, RunOptions
from pipeline.outcome import RunOutcome
from pipeline.rules.ruleset import LISTS
from pipeline.validate.files import ValidationReport
from pipeline.web.common import ServeConfig, page_lang, problem_dicts, problem_response, render
from pipeline.web.store import Job, JobStore

ROUNDINGS = ("period", "tournament")  # pipeline.rate.engine.ROUNDINGS (loads polars)
MAX_FILES = 200
_PERIOD = re.compile(r"\d{4}-(0[1-9]|1[0-2])")
_UNSAFE = re.compile(r"[^\w.-]+")


class FormError(ValueError):
    """A form value that cannot be used: (status, code, message)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


def safe_name(filename: str | None, index: int) -> str:
    """An uploaded file's name without its folders, in letters, digits, `.`, `-`, `_`:
    never a path out of the job's folder, never a hidden file."""
    base = re.split(r"[\\/]", filename or "")[-1]
    name = _UNSAFE.sub("_", base).strip("._")[:120]
    return name or f"upload-{index}"


async def _save(upload: UploadFile, folder: Path, index: int, taken: set[str]) -> Path:
    name = safe_name(upload.filename, index)
    stem, dot, suffix = name.rpartition(".")
    n = 1
    while name.lower() in taken:
        n += 1
        name = f"{stem}-{n}.{suffix}" if dot else f"{suffix}-{n}"
    taken.add(name.lower())
    path = folder / name
    with path.open("wb") as out:
        while chunk := await upload.read(1 << 20):
            out.write(chunk)
    return path


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
    if not request.headers.get("content-type", "").startswith("multipart/form-data"):
        raise FormError(415, "not-multipart", "expected a multipart/form-data upload of files")
    form = await request.form(max_files=MAX_FILES + 1, max_fields=50)
    uploads = [f for f in form.getlist("files") if isinstance(f, UploadFile) and f.filename]
    if not uploads:
        raise FormError(400, "no-files", "expected at least one tournament file in 'files'")
    taken: set[str] = set()
    for i, upload in enumerate(uploads, start=1):
        await _save(upload, job.inputs, i, taken)
    config: ServeConfig = request.app.state.config
    registry = config.registry
    given = form.get("registry")
    if isinstance(given, UploadFile) and given.filename:
        folder = job.folder / "registry"
        folder.mkdir()
        registry = await _save(given, folder, 1, set())
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
        paths=[job.inputs],
        registry=registry,
        list_override=job.list_override,
        period=period or None,
        rules_date=rules_date,
        rounding=_choice("rounding", _text(form, "rounding"), ROUNDINGS) or "period",
        out_dir=job.out,
        lang=page_lang(request),
        jobs=1,
    )
    return _text(form, "action") or "rate", options


def _run(options: RunOptions) -> RunOutcome:
    from pipeline.run import run_job

    return run_job(options)


def _validate(job: Job) -> ValidationReport:
    from pipeline.validate import validate_paths

    return validate_paths([job.inputs], job.registry, job.list_override, jobs=1)


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
        outcome = await run_in_threadpool(_run, options)
    except FormError as exc:
        store.drop(job)
        return problem_response(request, exc.status, exc.code, str(exc))
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
    return render(
        request,
        "rated.html",
        200 if outcome.result is not None else 422,
        summary=summary,
        problems=problems,
        ratings=_ratings(job),
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
