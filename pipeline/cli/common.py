"""What the `elo` commands share: the Typer app, the exit codes, the common options and
the one-line usage error. The `pipeline.cli` package is the only code that prints or
exits.

How options show in help and how a bad value is told (issue 20):
- An option with a fixed set of values is typed as a `Literal` of that set: typer checks
  the value and help shows the set, `--list [standard|rapid|blitz]`. The sets come from
  the library (`LISTS`, `LANGS`, `ALL_METHODS`, `EXPECTATIONS`); the two whose library
  modules load polars are spelt here, and tests/test_cli_help.py checks they agree.
- Every other value option names its value with a metavar (FILE, DIR, YYYY-MM, N); a
  flag shows none. Typer would show the Python type (`<str>`, `<bool>`, `<list[Path]>`).
- A value typer rejects is one `elo: error:` line naming the option, the value given and
  the choices (exit 2), as the values the commands check themselves are.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Literal, NoReturn, TypeAlias

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from pipeline import __version__
from pipeline.calc import ALL_METHODS
from pipeline.i18n import LANGS, lang_from_env
from pipeline.rules.methods import EXPECTATIONS
from pipeline.rules.ruleset import LISTS

if TYPE_CHECKING:
    from typer._click import Context, Parameter

    from pipeline.errors import Problem

    # mypy reads these as text; typer, at run time, as the Literals below.
    RatingList: TypeAlias = str
    Lang: TypeAlias = str
    Method: TypeAlias = str
    Expectation: TypeAlias = str
else:  # Literal[("a", "b")] is Literal["a", "b"]: the choices of the library's tuples
    RatingList = Literal[LISTS]
    Lang = Literal[LANGS]
    Method = Literal[ALL_METHODS]
    Expectation = Literal[EXPECTATIONS]

# pipeline.rate.engine.ROUNDINGS, pipeline.formats.trf.write.VERSIONS and
# pipeline.norms.titles.EVENT_TYPES: not imported here (they load polars, and `elo calc`
# starts without it)
Rounding: TypeAlias = Literal["period", "tournament"]
TrfVersion: TypeAlias = Literal["trf16", "trf26"]
EventType: TypeAlias = Literal[
    "swiss",
    "round-robin",
    "double-round-robin",
    "knockout",
    "national-championship",
    "national-team-championship",
    "zonal",
    "team-championship",
    "world-cup",
]

EXIT_OK = 0
EXIT_INPUT = 1
EXIT_USAGE = 2


def usage_error(message: str) -> NoReturn:
    """One line on stderr, exit 2."""
    typer.echo(f"elo: error: {message}", err=True)
    raise typer.Exit(EXIT_USAGE)


def expected_one_of(choices: Sequence[object]) -> str:
    """`one of a, b, c`; two choices read `a or b`."""
    names = [str(choice) for choice in choices]
    if len(names) == 2:
        return " or ".join(names)
    return f"one of {', '.join(names)}"


# --- help and parsing: the commands' classes ------------------------------------------


class _ShownOption(TyperOption):
    """An option as help shows it: its metavar, else its choices `[a|b]`; a flag bare."""

    def display_type_rich(self, ctx: Context) -> str | None:
        if self.is_flag:
            return None
        if self.metavar is not None:
            return self.metavar
        choices = self.type_descriptor.choices
        if choices is not None:
            return f"[{'|'.join(str(choice) for choice in choices)}]"
        return super().display_type_rich(ctx)


class _ShownArgument(TyperArgument):
    """An argument as help shows it: its metavar names it, no type beside."""

    def display_type_rich(self, ctx: Context) -> str | None:
        return None


def _adopt(param: Parameter) -> None:
    """Typer makes its own parameter objects and has no setting for their class: adopt
    each as the subclass above, which only changes what help shows."""
    if type(param) is TyperOption:
        param.__class__ = _ShownOption
    elif type(param) is TyperArgument:
        param.__class__ = _ShownArgument


def _bad_value(param: Parameter, given: object, reason: str) -> str:
    """The one line for a value typer rejected: the option, the value and what it takes."""
    if not isinstance(param, (TyperOption, TyperArgument)):
        return f"{param.name}: {reason}, got {given!r}"
    name = param.opts[0] if isinstance(param, TyperOption) else param.display_name_raw
    choices = param.type_descriptor.choices
    if choices is not None:
        return f"{name}: expected {expected_one_of(choices)}, got {given!r}"
    if param.type_descriptor.annotation is int:
        return f"{name}: expected a whole number, got {given!r}"
    return f"{name}: {reason}, got {given!r}"


class Command(TyperCommand):
    """Every `elo` command: help without Python types, a rejected value in one line."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            _adopt(param)

    def get_help_option(self, ctx: Context) -> TyperOption | None:
        option = super().get_help_option(ctx)
        if option is not None:
            _adopt(option)
        return option

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        given = list(args)  # the parser consumes `args`
        try:
            return super().parse_args(ctx, args)
        except typer.BadParameter as exc:
            if type(exc) is not typer.BadParameter or exc.param is None:
                raise  # a missing value (MissingParameter) keeps typer's message
            opts, _, _ = self.make_parser(ctx).parse_args(args=given)
            usage_error(_bad_value(exc.param, opts.get(exc.param.name), exc.message))


class Group(TyperGroup):
    """`elo` and `elo profile`: their flags (--help, --version) shown bare."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            _adopt(param)

    def get_help_option(self, ctx: Context) -> TyperOption | None:
        option = super().get_help_option(ctx)
        if option is not None:
            _adopt(option)
        return option


app = typer.Typer(
    name="elo",
    cls=Group,
    help="Rate chess tournaments with FIDE's rules, and answer rating what-if questions.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
)

# Arguments and options shared by validate, run and explain.
PATHS = typer.Argument(
    ..., metavar="PATH", help="Tournament files or folders (searched recursively)."
)
REGISTRY = typer.Option(
    None, "--registry", metavar="FILE", help="FIDE rating list (TXT, XML, CSV or a zip)."
)
LIST = typer.Option(None, "--list", help="Rating list of every event.")
IDENTITIES = typer.Option(
    None,
    "--identities",
    metavar="FILE",
    help="Your decisions on who is who: CSV of file or event, start_no or name, fide_id "
    "(an empty fide_id keeps the player unlinked).",
)
EVENTS = typer.Option(
    None,
    "--events",
    metavar="FILE",
    help="Your decisions about events: CSV of file (and event), then any of period "
    "(YYYY-MM: rate it in that period, e.g. a late report), list, start_date, end_date, "
    "time_control, event_type; each applied before validation and reported as an "
    "adjustment.",
)
EVENT_TYPE = typer.Option(
    None,
    "--event-type",
    metavar="TYPE",
    help="For the title norms: the type of every event that --events does not type, one "
    "of swiss, round-robin, double-round-robin, knockout, national-championship, "
    "national-team-championship, zonal, team-championship, world-cup (default: a "
    "round-robin where the pairings show one, else unknown).",
)
PERIOD = typer.Option(None, "--period", metavar="YYYY-MM", help="Rating period YYYY-MM.")
RULES = typer.Option(
    None, "--rules", metavar="YYYY-MM-DD", help="Rule-set date YYYY-MM-DD for every event."
)
JOBS = typer.Option(
    None,
    "--jobs",
    "-j",
    metavar="N",
    help="Processes reading the tournament files (default: on 4 cores or more, one per 8 MB "
    "of files up to the cores; 1 reads them in this process).",
)
NO_NAME_MATCH = typer.Option(
    False, "--no-name-match", help="Link players by FIDE ID only, never by name."
)
LANG = typer.Option(
    None,
    "--lang",
    case_sensitive=False,
    help="Language of the text output and the workbook (default: the locale of LC_ALL / "
    "LC_MESSAGES / LANG, else en).",
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


def pick_lang(value: str | None) -> str:
    """--lang (one of LANGS, typer checked it), else the environment's locale (LC_ALL,
    LC_MESSAGES, LANG), else English."""
    return value if value is not None else lang_from_env(os.environ)


def print_problems(problems: Iterable[Problem]) -> None:
    """Every problem as `file:line[:column]: message [code]` on stderr."""
    for problem in problems:
        typer.echo(str(problem), err=True)


# --- commands are added below: calc, validate, run, explain ---------------------------
