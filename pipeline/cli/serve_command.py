"""`elo serve`: the calculator and the rating of files in a browser, and the JSON API
(`pipeline.web`), served by uvicorn."""

from __future__ import annotations

import ipaddress
from pathlib import Path

import typer

from pipeline.cli.common import Command, Lang, app, pick_lang, usage_error


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@app.command(cls=Command)
def serve(
    host: str = typer.Option(
        "127.0.0.1",
        "--host",
        metavar="HOST",
        help="Address to listen on (default: this computer only; 0.0.0.0 opens it to the network).",
    ),
    port: int = typer.Option(8765, "--port", metavar="N", help="Port to listen on."),
    open_browser: bool = typer.Option(
        True, "--open/--no-open", help="Open the calculator in the default browser."
    ),
    registry: Path | None = typer.Option(
        None,
        "--registry",
        metavar="FILE",
        help="FIDE rating list used for every rating that uploads none.",
    ),
    lang: Lang | None = typer.Option(
        None,
        "--lang",
        case_sensitive=False,
        help="Language of the pages when the browser asks for none of en, es, it (default: "
        "the locale, else en).",
    ),
    max_upload_mb: float = typer.Option(
        200.0, "--max-upload-mb", metavar="N", help="Largest upload accepted, in MB."
    ),
    keep_minutes: float = typer.Option(
        60.0,
        "--keep-minutes",
        metavar="N",
        help="Minutes a rating's files are kept for its downloads, then deleted.",
    ),
) -> None:
    """The calculator (/calc) and the rating of files (/) in a browser, and a JSON API
    (/api/calc, /api/rate, /api/health) with the command line's contracts. Stop with
    Ctrl+C."""
    if not 0 < port < 65536:
        usage_error(f"--port: expected a port 1..65535, got {port}")
    if not max_upload_mb > 0:
        usage_error(f"--max-upload-mb: expected a size above 0, got {max_upload_mb:g}")
    if not keep_minutes > 0:
        usage_error(f"--keep-minutes: expected minutes above 0, got {keep_minutes:g}")
    if registry is not None and not registry.is_file():
        usage_error(f"--registry: no such file {registry}")
    import uvicorn

    from pipeline.web import ServeConfig, create_app

    config = ServeConfig(
        registry=registry,
        lang=pick_lang(lang),
        max_upload_mb=max_upload_mb,
        keep_minutes=keep_minutes,
    )
    shown = host if _loopback(host) or ":" not in host else f"[{host}]"
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else shown}:{port}/calc"
    typer.echo(f"elo serve: {url} (Ctrl+C stops)")
    if not _loopback(host):
        typer.echo(
            f"elo serve: warning: listening on {host}: anyone who can reach this computer can "
            "use it",
            err=True,
        )
    if open_browser:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(create_app(config), host=host, port=port, log_level="warning")
