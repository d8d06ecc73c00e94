"""The Starlette application of `elo serve`: the routes and what answers a request that
meets no route or is over the upload limit."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from pipeline import __version__
from pipeline.i18n import LANGS
from pipeline.web import calc_routes, downloads, rate_routes
from pipeline.web.common import (
    STATIC,
    LimitUpload,
    ServeConfig,
    UploadTooLarge,
    environment,
    problem_response,
    too_large,
)
from pipeline.web.store import JobStore


async def health(request: Request) -> JSONResponse:
    config: ServeConfig = request.app.state.config
    return JSONResponse(
        {
            "status": "ok",
            "version": __version__,
            "langs": list(LANGS),
            "registry": config.registry is not None,
            "max_upload_mb": config.max_upload_mb,
        }
    )


async def _uploadtoo_large(request: Request, exc: Exception) -> Response:
    config: ServeConfig = request.app.state.config
    return too_large(request.scope, int(config.max_upload_mb * 1_000_000))


_HTTP_CODES = {404: "not-found", 405: "method-not-allowed"}


async def _http_problem(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (no route, a wrong method, a form over its limits of files
    or fields) as the app's problems."""
    assert isinstance(exc, HTTPException)
    code = _HTTP_CODES.get(exc.status_code, "bad-request")
    if exc.status_code == 404:
        message = f"no page at {request.url.path}"
    elif exc.status_code == 405:
        message = f"{request.method} is not accepted at {request.url.path}"
    else:
        message = str(exc.detail)
    return problem_response(request, exc.status_code, code, message)


def create_app(config: ServeConfig | None = None) -> Starlette:
    """The application: `uvicorn.run(create_app(config))`."""
    config = config or ServeConfig()
    store = JobStore(config.max_jobs, config.keep_minutes * 60)

    async def sweep() -> None:
        """Expired ratings deleted even when no request comes."""
        while True:
            await anyio.sleep(min(60.0, max(1.0, store.keep_seconds / 4)))
            await anyio.to_thread.run_sync(store.expire)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            async with anyio.create_task_group() as tasks:
                tasks.start_soon(sweep)
                yield
                tasks.cancel_scope.cancel()
        finally:
            store.clear()

    routes = [
        Route("/api/health", health),
        *calc_routes.ROUTES,
        *rate_routes.ROUTES,
        *downloads.ROUTES,
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        UploadTooLarge: _uploadtoo_large,
        HTTPException: _http_problem,
    }
    app = Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan)
    app.state.config = config
    app.state.store = store
    app.state.templates = environment()
    app.add_middleware(LimitUpload, limit=int(config.max_upload_mb * 1_000_000))
    return app
