"""`elo calc`: the calculator (the rating calculators' questions)."""

from __future__ import annotations

import sys
from datetime import date
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from typer._click import Context

    from pipeline.profile import Profile

from pipeline.cli.common import (
    LANG,
    Command,
    Expectation,
    Lang,
    Method,
    RatingList,
    app,
    pick_lang,
    usage_error,
)
from pipeline.cli.profile_command import load_profile

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


class _CalcCommand(Command):
    """`elo calc` reports the few parse errors click would catch as one `elo: error:` line."""

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
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
        metavar="RATING",
        help="Your rating; 0 or 'unrated' for an initial rating. Left out: the rating "
        "saved with `elo profile set` (and its other values, where no option is given).",
    ),
    games: list[str] | None = typer.Argument(
        None, metavar="OPP:SCORE...", help="Games, e.g. 1600:1 1650:0.5 1700:½ 1800:0."
    ),
    list_: RatingList | None = typer.Option(
        None, "--list", case_sensitive=False, help="Rating list (default: standard)."
    ),
    method: Method = typer.Option("fide", "--method", case_sensitive=False, help="Rating method."),
    expectation: Expectation | None = typer.Option(
        None,
        "--expectation",
        case_sensitive=False,
        help="Expected scores (default: table; logistic for continuous and sequential).",
    ),
    k: str | None = typer.Option(
        None,
        "--k",
        metavar="[N|fide|variable]",
        help="K: a number (decimals allowed), 'fide' (default) or 'variable'.",
    ),
    career_games: str | None = typer.Option(
        None,
        "--games",
        metavar="N",
        help="Rated games before (default: 30 or more, established).",
    ),
    birth_year: str | None = typer.Option(
        None, "--birth-year", metavar="YYYY", help="For the junior K."
    ),
    ever_2400: bool | None = typer.Option(
        None, "--ever-2400/--no-ever-2400", help="Rating has reached 2400 (or not)."
    ),
    on: str | None = typer.Option(
        None, "--date", metavar="YYYY-MM-DD", help="Rules of this date (default: today)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    lang: Lang | None = LANG,
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
            method=method,
            expectation=expectation,
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
    _, saved = load_profile()
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
