"""`elo profile set|show|clear`: the calculator's saved player data."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import typer

if TYPE_CHECKING:
    from pipeline.profile import Profile, ProfileError

from pipeline.cli.common import EXIT_INPUT, Command, Group, RatingList, app, usage_error

profile_app = typer.Typer(
    name="profile",
    cls=Group,
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


def load_profile() -> tuple[Path, Profile | None]:
    from pipeline.profile import ProfileError, profile_path, read_profile

    path = profile_path()
    try:
        return path, read_profile(path)
    except ProfileError as exc:
        _profile_error(exc)
    except OSError as exc:
        _os_error(exc)


@profile_app.command("set", cls=Command)
def profile_set(
    rating: str | None = typer.Option(
        None, "--rating", metavar="RATING", help="Your rating, 1..3500."
    ),
    list_: RatingList | None = typer.Option(
        None, "--list", case_sensitive=False, help="Your rating list."
    ),
    birth_year: str | None = typer.Option(
        None, "--birth-year", metavar="YYYY", help="For the junior K."
    ),
    career_games: str | None = typer.Option(
        None, "--games", metavar="N", help="Rated games before (fewer than 30: K 40)."
    ),
    ever_2400: bool | None = typer.Option(
        None, "--ever-2400/--no-ever-2400", help="Your rating has reached 2400 (or not)."
    ),
    k: str | None = typer.Option(
        None,
        "--k",
        metavar="[N|fide|variable]",
        help="K: a number (decimals allowed), 'fide' or 'variable'.",
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
    path, saved = load_profile()
    merged = merge_profile(saved or Profile(), changes, forget)
    try:
        write_profile(path, merged)
    except OSError as exc:
        _os_error(exc)
    typer.echo(f"Saved {path}: {describe_profile(merged) or 'no values'}")


@profile_app.command("show", cls=Command)
def profile_show(
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Print the saved values and the file that holds them."""
    from pipeline.profile import render_profile, show_json

    path, saved = load_profile()
    if as_json:
        import json

        typer.echo(json.dumps(show_json(path, saved), ensure_ascii=True))
        return
    typer.echo(render_profile(path, saved))


@profile_app.command("clear", cls=Command)
def profile_clear() -> None:
    """Delete the saved profile (also a damaged one)."""
    from pipeline.profile import clear_profile, profile_path

    path = profile_path()
    try:
        removed = clear_profile(path)
    except OSError as exc:
        _os_error(exc)
    typer.echo(f"Removed {path}" if removed else f"No saved profile ({path}): nothing to remove")
