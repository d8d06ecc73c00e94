"""What the routes of `elo serve` share: the configuration, the pages' language and
rendering, the upload limit and the problems a request can meet (a page message or a JSON
problem, never a traceback).

A JSON problem is ``{"status": 400, "title": ..., "problems": [{file, line, column, code,
message, severity}]}``, the problems as summary.json writes them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pipeline import __version__
from pipeline.errors import Problem
from pipeline.i18n import DEFAULT_LANG, LANGS, N_, translator

STATIC = Path(__file__).resolve().parent / "static"
_ACCEPT = re.compile(r"([a-zA-Z]{2})(?:-[a-zA-Z0-9]+)?\s*(?:;\s*q=([0-9.]+))?")


@dataclass(frozen=True)
class ServeConfig:
    registry: Path | None = None  # the rating list every rating uses unless one is uploaded
    lang: str = DEFAULT_LANG  # the pages' language when neither ?lang= nor the browser says
    max_upload_mb: float = 200.0  # a request body above it is refused (413)
    max_jobs: int = 20  # ratings kept for their downloads; the oldest is deleted first
    keep_minutes: float = 60.0  # a rating's files are deleted this long after it


BODY_TAIL = "body_tail"  # request.state: the body's last bytes (a multipart's closing line)
TAIL_BYTES = 256


class UploadTooLarge(Exception):
    """The request's body is over --max-upload-mb."""


class LimitUpload:
    """ASGI middleware: a request body over the limit stops being read (413). A declared
    Content-Length over it is refused before any byte is read."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await too_large(scope, self.limit)(scope, receive, send)
            return
        seen = 0
        state = scope.setdefault("state", {})
        state[BODY_TAIL] = b""

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            body = message.get("body", b"")
            seen += len(body)
            if seen > self.limit:
                raise UploadTooLarge
            state[BODY_TAIL] = (state[BODY_TAIL] + body)[-TAIL_BYTES:]
            return message

        await self.app(scope, counted, send)


def too_large(scope: Scope, limit: int) -> Response:
    request = Request(scope)
    mb = limit / 1_000_000
    message = f"the upload is over the server's limit of {mb:g} MB (elo serve --max-upload-mb)"
    return problem_response(request, 413, "upload-too-large", message)


def page_lang(request: Request) -> str:
    """?lang=, else the browser's Accept-Language (the first of ours), else the server's."""
    asked = request.query_params.get("lang", "").strip().lower()
    if asked in LANGS:
        return asked
    best: tuple[float, str] | None = None
    for match in _ACCEPT.finditer(request.headers.get("accept-language", "")):
        code, q = match.group(1).lower(), float(match.group(2) or 1)
        if code in LANGS and (best is None or q > best[0]):
            best = (q, code)
    config: ServeConfig = request.app.state.config
    return best[1] if best is not None else config.lang


def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("pipeline.web", "templates"),
        autoescape=select_autoescape(["html"]),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    return env


def render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    """A page in the request's language: `_()` in the templates is the catalogs' gettext,
    `num` writes a number as the language does (decimal comma in es and it)."""
    lang = page_lang(request)
    tr = translator(lang)

    def num(value: object, places: int = 0, sign: bool = False) -> str:
        if value is None or value == "":
            return ""
        return tr.number(round(Decimal(str(value)), places), places, sign=sign)

    env: Environment = request.app.state.templates
    page = env.get_template(template).render(
        gettext=tr._,
        ngettext=tr.ngettext,
        num=num,
        lang=lang,
        langs=LANGS,
        request=request,
        version=__version__,
        **context,
    )
    return HTMLResponse(page, status_code=status)


def problem_dicts(problems: Iterable[Problem]) -> list[dict[str, object]]:
    return [
        {
            "file": p.location.file,
            "line": p.location.line,
            "column": p.location.column,
            "code": p.code,
            "message": p.message,
            "severity": p.severity.value,
        }
        for p in problems
    ]


_TITLES = {
    400: N_("The request cannot be used"),
    404: N_("Not found"),
    405: N_("The request cannot be used"),
    413: N_("The upload is too large"),
    415: N_("Send the files as a form upload"),
    422: N_("The files were not rated"),
}


def problem_response(
    request: Request,
    status: int,
    code: str,
    message: str,
    problems: list[dict[str, object]] | None = None,
) -> Response:
    """A JSON problem for /api/ and a page elsewhere."""
    found = problems or [
        {"file": None, "line": None, "column": None, "code": code, "message": message,
         "severity": "error"}
    ]  # fmt: skip
    if request.url.path.startswith("/api/"):
        title = _TITLES.get(status, _TITLES[400])
        return JSONResponse({"status": status, "title": title, "problems": found}, status)
    tr = translator(page_lang(request))
    title = tr._(_TITLES.get(status, _TITLES[400]))
    return render(request, "problem.html", status, title=title, problems=found)
