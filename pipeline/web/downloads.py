"""What a rating kept in the job store gives back: `GET /download/{job}/{name}` (an output
of `elo run`: report.xlsx, ratings.csv, games.csv, summary.json, ...; or `trf16` / `trf26`,
the TRF files of `elo convert`: one .trf, or a zip of one per event) and
`GET /rate/{job}/player/{fide_id}` (the player's card: `elo explain`'s breakdown)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Route

from pipeline.convert import ConvertOptions, ConvertOutcome, convert_paths
from pipeline.web.common import problem_dicts, problem_response, render
from pipeline.web.store import Job, JobStore

TRF_VERSIONS = ("trf16", "trf26")  # pipeline.formats.trf.write.VERSIONS
_TYPES = {
    ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ".csv": "text/csv; charset=utf-8",
    ".json": "application/json",
    ".txt": "text/plain; charset=utf-8",
}


def _job(request: Request) -> Job | None:
    store: JobStore = request.app.state.store
    return store.get(request.path_params["job"])


def _gone(request: Request) -> Response:
    message = "no such rating on this server (it may have been replaced by newer ones)"
    return problem_response(request, 404, "no-such-rating", message)


def _convert(job: Job, version: str) -> ConvertOutcome:
    """`elo convert` of the job's files, once per version (later downloads reuse it)."""
    out = job.folder / version
    with job.lock:
        options = ConvertOptions(list(job.files), version, out, job.registry, job.list_override, 1)
        if out.is_dir():
            return ConvertOutcome(0, version)
        out.mkdir()
        return convert_paths(options)


def _trf_response(folder: Path, version: str) -> Response:
    files = sorted(folder.glob("*.trf"))
    if len(files) == 1:
        return FileResponse(files[0], media_type="text/plain; charset=utf-8",
                            filename=files[0].name)  # fmt: skip
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in files:
            archive.write(path, path.name)
    headers = {"content-disposition": f'attachment; filename="{version}.zip"'}
    return Response(data.getvalue(), media_type="application/zip", headers=headers)


async def download(request: Request) -> Response:
    job = _job(request)
    if job is None:
        return _gone(request)
    name: str = request.path_params["name"]
    if name in TRF_VERSIONS:
        if job.result is None:
            return problem_response(request, 404, "not-rated", "these files were not rated")
        outcome = await run_in_threadpool(_convert, job, name)
        if not any((job.folder / name).glob("*.trf")):
            problems = job.relative(problem_dicts(outcome.problems)) or None
            message = outcome.stopped or "no event could be written as TRF"
            return problem_response(request, 422, "not-converted", message, problems)
        return _trf_response(job.folder / name, name)
    path = job.out / name
    if "/" in name or name.startswith(".") or not path.is_file():
        return problem_response(request, 404, "no-such-file", f"no output named {name!r}")
    return FileResponse(path, media_type=_TYPES.get(path.suffix), filename=path.name)


async def player_card(request: Request) -> Response:
    from pipeline.report.explain import render_explain

    job = _job(request)
    if job is None or job.result is None:
        return _gone(request)
    fide_id: int = request.path_params["fide_id"]
    text = render_explain(job.result, fide_id)
    if text is None:
        message = f"no player with FIDE ID {fide_id} in these events"
        return problem_response(request, 404, "no-such-player", message)
    return render(request, "player.html", text=text, fide_id=fide_id, job=job)


ROUTES = [
    Route("/download/{job}/{name}", download, name="download"),
    Route("/rate/{job}/player/{fide_id:int}", player_card, name="player"),
]
