"""Every command's help names what its options take (issue 20): the choices of an option
with a fixed set of values, a meaningful metavar (FILE, DIR, YYYY-MM, N) for any other
value, nothing beside a flag, never a Python type (`<str>`, `<bool>`, `<list[Path]>`);
and a value outside the choices is one `elo: error:` line naming the option, the value
and the choices (exit 2).

The commands are walked from the click group typer builds, so a new command or option
is covered without a new test."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import get_args

import pytest
import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption
from typer.testing import CliRunner

from pipeline.calc import ALL_METHODS
from pipeline.cli import app
from pipeline.cli.common import EventType, Rounding, TrfVersion, expected_one_of
from pipeline.formats.trf.write import VERSIONS
from pipeline.i18n import LANGS
from pipeline.norms.titles import EVENT_TYPES
from pipeline.rate.engine import ROUNDINGS
from pipeline.rules.methods import EXPECTATIONS
from pipeline.rules.ruleset import LISTS

runner = CliRunner()
WIDE = {"COLUMNS": "200"}  # one line per option: an option and its metavar side by side
TYPE_METAVARS = ("<bool>", "<str>", "<int>", "<float>", "<path>", "<file>", "<dir>", "<list")


def walk(
    command: TyperCommand | TyperGroup, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], TyperCommand | TyperGroup]]:
    """`command` and every command below it, each with its words after `elo`."""
    yield path, command
    if isinstance(command, TyperGroup):
        for name, sub in sorted(command.commands.items()):
            assert isinstance(sub, (TyperCommand, TyperGroup))
            yield from walk(sub, (*path, name))


def elo_group() -> TyperGroup:
    """The click group typer builds from the app: `elo` and its commands."""
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    return group


COMMANDS = dict(walk(elo_group()))
CHOICE_OPTIONS = [
    (path, param)
    for path, command in COMMANDS.items()
    for param in command.params
    if isinstance(param, TyperOption) and param.type_descriptor.choices is not None
]


def render_help(path: tuple[str, ...]) -> str:
    result = runner.invoke(app, [*path, "--help"], env=WIDE)
    assert result.exit_code == 0, result.output
    return result.stdout


def option_line(text: str, option: str) -> str:
    """The help line of `option` (its first line: the option, its metavar, its help)."""
    pattern = rf"│ +(\* +)?{re.escape(option)} "  # `*` marks a required option
    lines = [line for line in text.splitlines() if re.match(pattern, line)]
    assert len(lines) == 1, (option, text)
    return lines[0]


def metavar_of(text: str, option: str) -> str:
    """What help shows between `option` (and its short or negative forms) and its help."""
    cells = option_line(text, option).strip("│ ").split("  ")
    words = [cell.strip() for cell in cells if cell.strip() not in ("", "*")]
    names = [w for w in words if w.startswith("-")]
    return words[len(names)] if len(words) > len(names) + 1 else ""


def test_the_walk_finds_every_command() -> None:
    assert set(COMMANDS) >= {
        (),
        ("calc",),
        ("validate",),
        ("run",),
        ("explain",),
        ("convert",),
        ("profile",),
        ("profile", "set"),
        ("profile", "show"),
        ("profile", "clear"),
    }


@pytest.mark.parametrize("path", list(COMMANDS), ids=lambda p: " ".join(("elo", *p)))
def test_help_shows_no_python_types(path: tuple[str, ...]) -> None:
    text = render_help(path)
    for metavar in TYPE_METAVARS:
        assert metavar not in text, (metavar, text)


@pytest.mark.parametrize("path", list(COMMANDS), ids=lambda p: " ".join(("elo", *p)))
def test_flags_bare_values_named(path: tuple[str, ...]) -> None:
    """A flag shows nothing beside it; a value option its metavar or its choices."""
    text = render_help(path)
    command = COMMANDS[path]
    options = [p for p in command.params if isinstance(p, TyperOption)]
    for option in options:
        shown = metavar_of(text, option.opts[0])
        if option.is_flag:
            assert shown == "", (option.opts, shown)
        else:
            assert re.fullmatch(r"\[[\w|-]+\]|[A-Z][A-Z_:.-]*", shown), (option.opts, shown)
    assert metavar_of(text, "--help") == ""
    for argument in (p for p in command.params if isinstance(p, TyperArgument)):
        assert argument.metavar is not None, argument.name
        assert argument.metavar.isupper(), argument.name


@pytest.mark.parametrize(
    ("path", "option", "choices"),
    [
        (("validate",), "--list", "[standard|rapid|blitz]"),
        (("run",), "--list", "[standard|rapid|blitz]"),
        (("explain",), "--list", "[standard|rapid|blitz]"),
        (("convert",), "--list", "[standard|rapid|blitz]"),
        (("calc",), "--list", "[standard|rapid|blitz]"),
        (("profile", "set"), "--list", "[standard|rapid|blitz]"),
        (("run",), "--rounding", "[period|tournament]"),
        (("explain",), "--rounding", "[period|tournament]"),
        (("run",), "--lang", f"[{'|'.join(LANGS)}]"),
        (("calc",), "--lang", f"[{'|'.join(LANGS)}]"),
        (("convert",), "--to", "[trf16|trf26]"),
        (("calc",), "--method", "[fide|continuous|sequential|average]"),
        (("calc",), "--method", f"[{'|'.join(ALL_METHODS)}]"),
        (("calc",), "--expectation", "[table|logistic|polynomial]"),
        (("calc",), "--expectation", f"[{'|'.join(EXPECTATIONS)}]"),
        (("calc",), "--k", "[N|fide|variable]"),
        (("profile", "set"), "--k", "[N|fide|variable]"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, tuple) else v,
)
def test_choices_beside_the_option(path: tuple[str, ...], option: str, choices: str) -> None:
    assert metavar_of(render_help(path), option) == choices


@pytest.mark.parametrize(
    ("path", "option", "metavar"),
    [
        (("run",), "--period", "YYYY-MM"),
        (("run",), "--rules", "YYYY-MM-DD"),
        (("run",), "--out", "DIR"),
        (("run",), "--registry", "FILE"),
        (("run",), "--jobs", "N"),
        (("explain",), "--player", "FIDE_ID"),
        (("calc",), "--date", "YYYY-MM-DD"),
        (("calc",), "--games", "N"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, tuple) else v,
)
def test_values_named_by_their_form(path: tuple[str, ...], option: str, metavar: str) -> None:
    assert metavar_of(render_help(path), option) == metavar


def test_lang_help_says_the_default_is_the_locale() -> None:
    line = option_line(render_help(("run",)), "--lang")
    assert "(default: the locale of LC_ALL / LC_MESSAGES / LANG, else en)" in line
    assert "[default:" not in line  # None: the environment's, not a value


@pytest.mark.parametrize(
    ("spelt", "library"),
    [(Rounding, ROUNDINGS), (TrfVersion, VERSIONS), (EventType, EVENT_TYPES)],
    ids=["rounding", "trf-version", "event-type"],
)
def test_choices_spelt_in_the_cli_agree_with_the_library(
    spelt: object, library: tuple[str, ...]
) -> None:
    assert get_args(spelt) == tuple(library)


def test_library_choice_sets_are_the_options() -> None:
    choices = {(p, o.opts[0]): o.type_descriptor.choices for p, o in CHOICE_OPTIONS}
    assert choices[("run",), "--list"] == LISTS
    assert choices[("calc",), "--lang"] == LANGS
    assert choices[("calc",), "--method"] == ALL_METHODS
    assert choices[("calc",), "--expectation"] == EXPECTATIONS


@pytest.mark.parametrize(
    ("path", "option"),
    [(path, option) for path, option in CHOICE_OPTIONS],
    ids=lambda v: " ".join(v) if isinstance(v, tuple) else v.opts[0],
)
def test_a_wrong_choice_is_one_line_naming_the_choices(
    path: tuple[str, ...], option: TyperOption
) -> None:
    """Parsed before any other check (a missing PATH or --player): exit 2, one line."""
    name = option.opts[0]
    result = runner.invoke(app, [*path, name, "bogus"])
    assert result.exit_code == 2
    choices = option.type_descriptor.choices
    assert choices is not None
    assert (
        result.stderr == f"elo: error: {name}: expected {expected_one_of(choices)}, got 'bogus'\n"
    )
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["run", "samples", "--list", "classical"],
         "--list: expected one of standard, rapid, blitz, got 'classical'"),
        (["run", "samples", "--rounding", "game"],
         "--rounding: expected period or tournament, got 'game'"),
        (["explain", "samples", "--player", "1", "--rounding=game"],
         "--rounding: expected period or tournament, got 'game'"),
        (["convert", "samples", "--to", "trf06"], "--to: expected trf16 or trf26, got 'trf06'"),
        (["calc", "1500", "1600:1", "--method", "elo"],
         "--method: expected one of fide, continuous, sequential, average, got 'elo'"),
        (["calc", "1500", "1600:1", "--expectation", "normal"],
         "--expectation: expected one of table, logistic, polynomial, got 'normal'"),
        (["calc", "1500", "1600:1", "--lang", "fr"],
         "--lang: expected one of en, es, it, got 'fr'"),
        (["profile", "set", "--list", "bullet"],
         "--list: expected one of standard, rapid, blitz, got 'bullet'"),
        (["run", "samples", "--jobs", "two"], "--jobs: expected a whole number, got 'two'"),
        (["explain", "samples", "--player", "Carlsen"],
         "--player: expected a whole number, got 'Carlsen'"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else None,
)  # fmt: skip
def test_bad_values_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"elo: error: {message}\n")


@pytest.mark.parametrize(
    ("args", "value"),
    [
        (["calc", "1500", "1600:1", "--method", "AVERAGE", "--json"], "average"),
        (["calc", "1500", "1600:1", "--list", "Rapid", "--json"], "rapid"),
        (["calc", "1500", "1600:1", "--lang", "ES"], "Método"),
    ],
    ids=["method", "list", "lang"],
)
def test_calc_choices_take_any_case_as_before(args: list[str], value: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.stderr
    assert value in result.stdout
