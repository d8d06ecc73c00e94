"""The `elo` command line. The only module that prints or exits.

Each command parses its options, calls the library, prints, and exits with the contract's
code: 0 success, 1 input rejected, 2 usage error. Heavy modules are imported inside the
commands so that `elo calc` starts fast.
"""

from __future__ import annotations

import dataclasses
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer

from pipeline import __version__

if TYPE_CHECKING:
    from rich.console import Console

    from pipeline.errors import Problem
    from pipeline.profile import Profile, ProfileError
    from pipeline.run import ProgressFn, RunOptions, RunOutcome

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


# --- calc -----------------------------------------------------------------------------


_CALC_VALUE_OPTIONS = (
    "--list",
    "--method",
    "--expectation",
    "--k",
    "--games",
    "--birth-year",
    "--date",
    "--lang",
)
_CALC_FLAGS = ("--ever-2400", "--no-ever-2400", "--json")


class _CalcCommand(typer.core.TyperCommand):
    """`elo calc` reports the few parse errors click would catch as one `elo: error:` line."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[-1] in _CALC_VALUE_OPTIONS:
            usage_error(f"{args[-1]}: expected a value after the option")
        for arg in args:
            name, eq, _ = arg.partition("=")
            if eq and name in _CALC_FLAGS:
                usage_error(f"{name} takes no value, got {arg!r}")
        return super().parse_args(ctx, args)


@app.command(cls=_CalcCommand, context_settings={"ignore_unknown_options": True})
def calc(
    rating: str | None = typer.Argument(
        None,
        metavar="[RATING]",
        help="Your rating; 0 or 'unrated' for an initial rating. Left out: the rating "
        "saved with `elo profile set` (and its other values, where no option is given).",
    ),
    games: list[str] | None = typer.Argument(
        None, metavar="OPP:SCORE...", help="Games, e.g. 1600:1 1650:0.5 1700:½ 1800:0."
    ),
    list_: str | None = typer.Option(None, "--list", help="standard (default), rapid or blitz."),
    method: str = typer.Option("fide", "--method", help="fide, continuous, sequential or average."),
    expectation: str | None = typer.Option(
        None,
        "--expectation",
        help="table, logistic or polynomial (default: table; logistic for continuous "
        "and sequential).",
    ),
    k: str | None = typer.Option(
        None, "--k", help="K: a number (decimals allowed), 'fide' (default) or 'variable'."
    ),
    career_games: str | None = typer.Option(
        None, "--games", help="Rated games before (default: 30 or more, established)."
    ),
    birth_year: str | None = typer.Option(None, "--birth-year", help="For the junior K."),
    ever_2400: bool | None = typer.Option(
        None, "--ever-2400/--no-ever-2400", help="Rating has reached 2400 (or not)."
    ),
    on: str | None = typer.Option(None, "--date", help="Rules of this date (default: today)."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    lang: str | None = LANG,
) -> None:
    """What happens to a rating after these games (the rating calculators' job).

    FIDE method by default: table 8.1.2, the cap and K of the rules in force on --date,
    the 700 rule (for a derived or whole K), the change rounded half away from zero.
    Opponent 0 or 'unrated' does not count; RATING 0 gives an initial rating.
    Without RATING, the saved profile (`elo profile show`) fills what the options leave.
    """
    import json

    from pipeline.calc import (
        CalcInputError,
        CalcRequest,
        calculate,
        parse_count,
        parse_date,
        parse_game,
        parse_k,
        parse_rating,
    )
    from pipeline.report.calc_table import calc_json, render_calc

    language = pick_lang(lang)
    tokens = [t for t in (rating, *(games or [])) if t is not None]
    if tokens and ":" in tokens[0]:  # the first game: RATING left out
        rating = None
    saved = _calc_profile(rating, list_, k, career_games, birth_year, ever_2400)
    try:
        if rating is None and saved.rating is None:
            example = f"1500 {tokens[0]}" if tokens else "1500 1600:1"
            raise CalcInputError(
                f"expected RATING and at least one OPP:SCORE, e.g. {example} "
                "(or save your rating: elo profile set --rating R)"
            )
        day = parse_date(on) if on is not None else date.today()
        if saved.birth_year is not None:
            parse_count(str(saved.birth_year), "birth_year (saved profile)", 1850, day.year)
        request = CalcRequest(
            rating=saved.rating if rating is None else parse_rating(rating),
            games=tuple(parse_game(token) for token in (tokens if rating is None else tokens[1:])),
            on=day,
            list_=(list_ or saved.list_ or "standard").strip().lower(),
            method=method.strip().lower(),
            expectation=expectation.strip().lower() if expectation is not None else None,
            k=saved.k if k is None else parse_k(k),
            career_games=saved.games
            if career_games is None
            else parse_count(career_games, "--games", 0, 100_000),
            birth_year=saved.birth_year
            if birth_year is None
            else parse_count(birth_year, "--birth-year", 1850, day.year),
            ever_2400=bool(saved.ever_2400 if ever_2400 is None else ever_2400),
        )
        result = calculate(request)
    except CalcInputError as exc:
        usage_error(str(exc))
    if as_json:
        data = calc_json(result)
        if not saved.is_empty():
            from pipeline.profile import profile_json

            data["profile"] = profile_json(saved)
        typer.echo(json.dumps(data, ensure_ascii=True))
        return
    text = render_calc(result, lang=language)
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        text = render_calc(result, ascii_only=True, lang=language)
    if not saved.is_empty():
        typer.echo(_profile_line(saved, language))
    typer.echo(text)


# --- profile: the calculator's saved player data --------------------------------------

profile_app = typer.Typer(
    name="profile",
    help="The calculator's saved player data: `elo calc` without RATING uses it.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="markdown",
)
app.add_typer(profile_app)


def _profile_error(exc: ProfileError) -> NoReturn:
    """A damaged profile file: every problem on stderr, exit 1 (input rejected)."""
    for line in str(exc).splitlines():
        typer.echo(f"elo: error: {line}", err=True)
    typer.echo("elo: fix the file, or delete it with: elo profile clear", err=True)
    raise typer.Exit(EXIT_INPUT)


def _os_error(exc: OSError) -> NoReturn:
    where = exc.filename if exc.filename is not None else "the profile"
    typer.echo(f"elo: error: {where}: {exc.strerror or exc}", err=True)
    raise typer.Exit(EXIT_INPUT)


def _load_profile() -> tuple[Path, Profile | None]:
    from pipeline.profile import ProfileError, profile_path, read_profile

    path = profile_path()
    try:
        return path, read_profile(path)
    except ProfileError as exc:
        _profile_error(exc)
    except OSError as exc:
        _os_error(exc)


def _calc_profile(
    rating: str | None,
    list_: str | None,
    k: str | None,
    career_games: str | None,
    birth_year: str | None,
    ever_2400: bool | None,
) -> Profile:
    """The saved values `elo calc` uses: none with a RATING, else those no option gives."""
    from pipeline.profile import Profile, calc_defaults

    if rating is not None:
        return Profile()
    _, saved = _load_profile()
    options = {
        "list": list_,
        "k": k,
        "games": career_games,
        "birth_year": birth_year,
        "ever_2400": ever_2400,
    }
    return calc_defaults(saved or Profile(), [key for key, v in options.items() if v is not None])


def _profile_line(used: Profile, lang: str) -> str:
    from pipeline.i18n import translator
    from pipeline.profile import describe_profile

    line = translator(lang)._("Using your saved profile: {profile} (elo profile show)")
    return line.format(profile=describe_profile(used, lang))


@profile_app.command("set")
def profile_set(
    rating: str | None = typer.Option(None, "--rating", help="Your rating, 1..3500."),
    list_: str | None = typer.Option(None, "--list", help="standard, rapid or blitz."),
    birth_year: str | None = typer.Option(None, "--birth-year", help="For the junior K."),
    career_games: str | None = typer.Option(
        None, "--games", help="Rated games before (fewer than 30: K 40)."
    ),
    ever_2400: bool | None = typer.Option(
        None, "--ever-2400/--no-ever-2400", help="Your rating has reached 2400 (or not)."
    ),
    k: str | None = typer.Option(
        None, "--k", help="K: a number (decimals allowed), 'fide' or 'variable'."
    ),
    unset: list[str] | None = typer.Option(
        None,
        "--unset",
        metavar="KEY",
        help="Forget a saved value: rating, list, birth-year, games, ever-2400 or k "
        "(repeat for more).",
    ),
) -> None:
    """Save values for `elo calc`; the values saved before are kept unless replaced."""
    from pipeline.calc import CalcInputError
    from pipeline.profile import (
        Profile,
        describe_profile,
        merge_profile,
        parse_set_options,
        write_profile,
    )

    try:
        changes, forget = parse_set_options(
            rating=rating,
            list_=list_,
            birth_year=birth_year,
            games=career_games,
            ever_2400=ever_2400,
            k=k,
            unset=unset or [],
            this_year=date.today().year,
        )
    except CalcInputError as exc:
        usage_error(str(exc))
    path, saved = _load_profile()
    merged = merge_profile(saved or Profile(), changes, forget)
    try:
        write_profile(path, merged)
    except OSError as exc:
        _os_error(exc)
    typer.echo(f"Saved {path}: {describe_profile(merged) or 'no values'}")


@profile_app.command("show")
def profile_show(
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Print the saved values and the file that holds them."""
    from pipeline.profile import render_profile, show_json

    path, saved = _load_profile()
    if as_json:
        import json

        typer.echo(json.dumps(show_json(path, saved), ensure_ascii=True))
        return
    typer.echo(render_profile(path, saved))


@profile_app.command("clear")
def profile_clear() -> None:
    """Delete the saved profile (also a damaged one)."""
    from pipeline.profile import clear_profile, profile_path

    path = profile_path()
    try:
        removed = clear_profile(path)
    except OSError as exc:
        _os_error(exc)
    typer.echo(f"Removed {path}" if removed else f"No saved profile ({path}): nothing to remove")


# --- validate -------------------------------------------------------------------------


@app.command()
def validate(
    paths: list[Path] = PATHS,
    registry: Path | None = typer.Option(
        None, "--registry", help="FIDE rating list to check the players against."
    ),
    list_: str | None = LIST,
    rules: str | None = typer.Option(
        None,
        "--rules",
        help="Rule-set date YYYY-MM-DD: settles an event date that reads two ways.",
    ),
    identities: Path | None = IDENTITIES,
    no_name_match: bool = NO_NAME_MATCH,
) -> None:
    """Check files; print every problem as file:line[:column]: message, and what each
    file holds (its kind, crosstable layout, players, rounds and rating list).

    Exit 1 if any input is invalid; warnings alone exit 0.
    """
    _check_list(list_)
    _check_paths(paths, registry, identities)
    rules_date = _parse_date("--rules", rules)
    from pipeline.validate import validate_paths

    report = validate_paths(
        paths,
        registry,
        list_,
        rules_given=rules_date is not None,
        identities=identities,
        name_match=not no_name_match,
    )
    print_problems(report.problems)
    for entry in report.files:
        for description in entry.descriptions:
            typer.echo(f"{entry.file}: {description}")
    typer.echo(report.summary())
    raise typer.Exit(EXIT_INPUT if report.invalid else EXIT_OK)


# --- run / explain --------------------------------------------------------------------

LIST_CHOICES = ("standard", "rapid", "blitz")


def _check_list(value: str | None) -> str | None:
    if value is not None and value not in LIST_CHOICES:
        usage_error(f"--list: expected one of standard, rapid, blitz, got {value!r}")
    return value


def _parse_date(option: str, value: str | None) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        usage_error(f"{option}: expected a date YYYY-MM-DD, got {value!r}")


def _check_paths(paths: list[Path], registry: Path | None, identities: Path | None = None) -> None:
    for path in [*paths, *(p for p in (registry, identities) if p is not None)]:
        if not path.exists():
            usage_error(f"{path}: no such file or folder")
    if registry is not None and not registry.is_file():
        usage_error(f"--registry: expected a rating-list file, got the folder {registry}")
    if identities is not None and not identities.is_file():
        usage_error(f"--identities: expected a CSV file, got the folder {identities}")


def _check_out(out: Path) -> None:
    """The output folder exists (or is made now) and can be written to."""
    if out.exists() and not out.is_dir():
        usage_error(f"--out: expected a folder, got the file {out}")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        usage_error(f"--out: cannot create {out}: {exc.strerror}")
    if not os.access(out, os.W_OK | os.X_OK):
        usage_error(f"--out: cannot write to {out}")


def _run_options(
    paths: list[Path],
    registry: Path | None,
    list_: str | None,
    period: str | None,
    rules: str | None,
    rounding: str,
    out: Path | None,
    skip_invalid: bool,
    identities: Path | None = None,
    no_name_match: bool = False,
) -> RunOptions:
    """The options of run and explain, checked (usage errors exit 2)."""
    _check_list(list_)
    _check_paths(paths, registry, identities)
    if rounding not in ("period", "tournament"):
        usage_error(f"--rounding: expected period or tournament, got {rounding!r}")
    if period is not None and not re.fullmatch(r"\d{4}-(0[1-9]|1[0-2])", period):
        usage_error(f"--period: expected YYYY-MM, got {period!r}")
    from pipeline.run import RunOptions

    return RunOptions(
        paths=paths,
        registry=registry,
        list_override=list_,
        period=period,
        rules_date=_parse_date("--rules", rules),
        rounding=rounding,
        out_dir=out,
        skip_invalid=skip_invalid,
        identities=identities,
        name_match=not no_name_match,
    )


def _run_or_exit(options: RunOptions, progress: ProgressFn | None = None) -> RunOutcome:
    """`run_job`, with a failing disk or permission turned into one line and exit 1."""
    from pipeline.run import PeriodUsageError, run_job

    try:
        return run_job(options, progress)
    except PeriodUsageError as exc:
        usage_error(str(exc))
    except OSError as exc:  # not a bug: the machine refused a read or a write
        where = exc.filename if exc.filename is not None else "a file"
        typer.echo(f"elo: error: {where}: {exc.strerror or exc}", err=True)
        raise typer.Exit(EXIT_INPUT) from None


@app.command()
def run(
    paths: list[Path] = PATHS,
    registry: Path | None = REGISTRY,
    list_: str | None = LIST,
    period: str | None = typer.Option(None, "--period", help="Rating period YYYY-MM."),
    rules: str | None = typer.Option(
        None,
        "--rules",
        help="Rule-set date YYYY-MM-DD for every event (default: each event's start date).",
    ),
    rounding: str = typer.Option(
        "period", "--rounding", help="Round the change once per period (FIDE) or per tournament."
    ),
    out: Path = typer.Option(Path("reports"), "--out", help="Output folder."),
    skip_invalid: bool = typer.Option(
        False, "--skip-invalid", help="Rate the valid events, list the skipped ones, exit 1."
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar or summary."),
    identities: Path | None = IDENTITIES,
    no_name_match: bool = NO_NAME_MATCH,
    chain: bool = typer.Option(
        False,
        "--chain",
        help="Rate every period found, oldest first, each from the list the one before wrote.",
    ),
    write_list: bool = typer.Option(
        False, "--write-list", help="Also write the next list (players_list.csv, pending.csv)."
    ),
    pending: Path | None = typer.Option(
        None,
        "--pending",
        help="pending.csv of the previous period: unrated players' games toward a rating.",
    ),
    previous_list: Path | None = typer.Option(
        None,
        "--previous-list",
        help="The list of the month before the period: Ro of the events that began then.",
    ),
    lang: str | None = LANG,
) -> None:
    """Rate the events of a rating period; write the workbook, CSV tables and summary."""
    language = pick_lang(lang)
    options = _run_options(
        paths, registry, list_, period, rules, rounding, out, skip_invalid, identities,
        no_name_match,
    )  # fmt: skip
    if chain and period is not None:
        usage_error("--chain rates every period found; leave out --period")
    if pending is not None and not pending.is_file():
        usage_error(f"--pending: no such file {pending}")
    if previous_list is not None and (registry is None or chain):
        usage_error("--previous-list goes with --registry, for a single period")
    if previous_list is not None and not previous_list.is_file():
        usage_error(f"--previous-list: no such file {previous_list}")
    options = dataclasses.replace(
        options,
        chain=chain,
        write_list=write_list,
        pending=pending,
        previous_list=previous_list,
        lang=language,
    )
    _check_out(out)
    with _progress(quiet) as progress:
        outcome = _run_or_exit(options, progress)
    shown = outcome.loaded.problems
    if outcome.result is not None:
        shown = sorted([*shown, *outcome.result.warnings], key=lambda p: p.sort_key())
    print_problems(shown)
    from pipeline.i18n import translator

    ignored = translator(language)._(
        "a rating list among the inputs is not an event; ignored (pass it with --registry "
        "to use it)"
    )
    for found in outcome.loaded.ignored_registries:
        typer.echo(f"{found}: warning: {ignored}", err=True)
    if not quiet:
        from rich.console import Console

        from pipeline.report.console import render_summary

        ratings = outcome.result.ratings if outcome.result is not None else None
        summary = render_summary(
            outcome.summary, ratings, written=outcome.written, list_problems=False, lang=language
        )
        Console(highlight=False).print(summary)
    raise typer.Exit(outcome.exit_code)


@app.command()
def explain(
    paths: list[Path] = PATHS,
    player: int = typer.Option(..., "--player", help="FIDE ID of the player to explain."),
    registry: Path | None = REGISTRY,
    list_: str | None = LIST,
    period: str | None = typer.Option(None, "--period", help="Rating period YYYY-MM."),
    rules: str | None = typer.Option(
        None, "--rules", help="Rule-set date YYYY-MM-DD for every event."
    ),
    rounding: str = typer.Option("period", "--rounding", help="period or tournament."),
    identities: Path | None = IDENTITIES,
    no_name_match: bool = NO_NAME_MATCH,
) -> None:
    """One player's per-game breakdown, as FIDE's individual-calculation page shows it."""
    options = _run_options(
        paths, registry, list_, period, rules, rounding, None, False, identities, no_name_match
    )
    outcome = _run_or_exit(options)
    if outcome.result is None:
        print_problems(outcome.loaded.problems)
        raise typer.Exit(outcome.exit_code)
    from pipeline.report.explain import render_explain

    text = render_explain(outcome.result, player)
    if text is None:
        usage_error(f"--player: no player with FIDE ID {player} in these events")
    typer.echo(text, nl=False)
    raise typer.Exit(outcome.exit_code)


# --- convert ----------------------------------------------------------------------------


@app.command()
def convert(
    paths: list[Path] = PATHS,
    to: str | None = typer.Option(None, "--to", help="TRF version to write: trf16 or trf26."),
    out: Path | None = typer.Option(None, "--out", help="Folder for the TRF files."),
    registry: Path | None = typer.Option(
        None,
        "--registry",
        help="FIDE rating list: FIDE IDs linked by name, and its ratings written.",
    ),
    list_: str | None = typer.Option(
        None,
        "--list",
        help="Rating list of every event (its ratings are written): standard, rapid or blitz.",
    ),
) -> None:
    """Write one TRF file per event (for submission), from any file `elo run` reads.

    Running `elo run` over the TRF files gives the same ratings.csv as over the sources.
    An event that cannot be written faithfully is refused with every reason (exit 1);
    the others are still written.
    """
    version = (to or "").strip().lower()
    if version not in ("trf16", "trf26"):
        usage_error(f"--to: expected trf16 or trf26, got {'nothing' if to is None else repr(to)}")
    if out is None:
        usage_error("--out: expected the folder to write the TRF files to")
    _check_list(list_)
    _check_paths(paths, registry)
    _check_out(out)
    from pipeline.convert import ConvertOptions, convert_paths, summary_lines

    options = ConvertOptions(paths, version, out, registry, list_)
    try:
        with _progress(False) as progress:
            outcome = convert_paths(options, progress)
    except OSError as exc:  # not a bug: the machine refused a read or a write
        where = exc.filename if exc.filename is not None else "a file"
        typer.echo(f"elo: error: {where}: {exc.strerror or exc}", err=True)
        raise typer.Exit(EXIT_INPUT) from None
    print_problems(outcome.problems)
    for found in outcome.ignored_registries:
        typer.echo(
            f"{found}: warning: a rating list among the inputs is not an event; "
            "ignored (pass it with --registry to use it)",
            err=True,
        )
    for line in summary_lines(outcome):
        typer.echo(line)
    raise typer.Exit(outcome.exit_code)


@contextmanager
def _progress(quiet: bool) -> Iterator[Callable[[int, int, str], None] | None]:
    """A progress bar on stderr for multi-file runs; silent when not a terminal or quiet."""
    if quiet or not sys.stderr.isatty():
        yield None
        return
    from rich.progress import Progress

    with Progress(transient=True, console=_stderr_console()) as bar:
        task = bar.add_task("reading", total=None, visible=False)

        def update(i: int, n: int, name: str) -> None:
            # shown for multi-file runs only
            bar.update(task, total=n, completed=i, description=Path(name).name[:40], visible=n > 1)

        yield update


def _stderr_console() -> Console:
    from rich.console import Console

    return Console(stderr=True)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
    sys.exit(0)
