"""What the `elo` commands share: the Typer app, the exit codes, the common options and
the one-line usage error. The `pipeline.cli` package is the only code that prints or
exits."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, NoReturn

import typer

from pipeline import __version__

if TYPE_CHECKING:
    from pipeline.errors import Problem

app = typer.Typer(
    name="elo",
    help="Rate chess tournaments with FIDE's rules, and answer rating what-if questions.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
)

EXIT_OK = 0
EXIT_INPUT = 1
EXIT_USAGE = 2

# Arguments and options shared by validate, run and explain.
PATHS = typer.Argument(
    ..., metavar="PATH", help="Tournament files or folders (searched recursively)."
)
REGISTRY = typer.Option(None, "--registry", help="FIDE rating list (TXT, XML, CSV or a zip).")
LIST = typer.Option(None, "--list", help="Rating list of every event: standard, rapid or blitz.")
IDENTITIES = typer.Option(
    None,
    "--identities",
    help="Your decisions on who is who: CSV of file or event, start_no or name, fide_id "
    "(an empty fide_id keeps the player unlinked).",
)
EVENTS = typer.Option(
    None,
    "--events",
    help="Your decisions about events: CSV of file (and event), then any of period "
    "(YYYY-MM: rate it in that period, e.g. a late report), list, start_date, end_date, "
    "time_control; each applied before validation and reported as an adjustment.",
)
JOBS = typer.Option(
    None,
    "--jobs",
    "-j",
    help="Processes reading the tournament files (default: on 4 cores or more, one per 8 MB "
    "of files up to the cores; 1 reads them in this process).",
)
NO_NAME_MATCH = typer.Option(
    False, "--no-name-match", help="Link players by FIDE ID only, never by name."
)
LANG = typer.Option(
    None,
    "--lang",
    help="Language of the text output and the workbook: en, es or it (default: the "
    "locale of LC_ALL / LC_MESSAGES / LANG, else en).",
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"elo-pipeline {__version__}")
        raise typer.Exit(EXIT_OK)


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version."
    ),
) -> None:
    """Rate chess tournaments with FIDE's rules."""


def usage_error(message: str) -> NoReturn:
    """One line on stderr, exit 2."""
    typer.echo(f"elo: error: {message}", err=True)
    raise typer.Exit(EXIT_USAGE)


def pick_lang(value: str | None) -> str:
    """--lang, else the environment's locale (LC_ALL, LC_MESSAGES, LANG), else English;
    an unknown --lang is a usage error."""
    from pipeline.i18n import lang_from_env, parse_lang

    if value is None:
        return lang_from_env(os.environ)
    try:
        return parse_lang(value)
    except ValueError as exc:
        usage_error(f"--lang: {exc}")


def print_problems(problems: Iterable[Problem]) -> None:
    """Every problem as `file:line[:column]: message [code]` on stderr."""
    for problem in problems:
        typer.echo(str(problem), err=True)


# --- commands are added below: calc, validate, run, explain ---------------------------
