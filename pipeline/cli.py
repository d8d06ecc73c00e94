"""The `elo` command line. The only module that prints or exits.

Each command parses its options, calls the library, prints, and exits with the contract's
code: 0 success, 1 input rejected, 2 usage error. Heavy modules are imported inside the
commands so that `elo calc` starts fast.
"""

from __future__ import annotations

import sys
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
)

EXIT_OK = 0
EXIT_INPUT = 1
EXIT_USAGE = 2


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


def print_problems(problems: Iterable[Problem]) -> None:
    """Every problem as `file:line[:column]: message [code]` on stderr."""
    for problem in problems:
        typer.echo(str(problem), err=True)


# --- commands are added below: calc, validate, run, explain ---------------------------


def main() -> None:
    app()


if __name__ == "__main__":
    main()
    sys.exit(0)
