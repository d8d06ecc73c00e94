"""`elo norms`: the title norms (GM, IM, WGM, WIM) of every player of the events read,
with the performance ratings they rest on: who met a norm, who came within reach, and
why not (pipeline.norms; docs/rules.md "Title norms")."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import typer

from pipeline.cli.common import (
    EVENT_TYPE,
    EVENTS,
    IDENTITIES,
    JOBS,
    LANG,
    LIST,
    NO_NAME_MATCH,
    PATHS,
    PERIOD,
    REGISTRY,
    RULES,
    Command,
    EventType,
    Lang,
    RatingList,
    app,
    pick_lang,
    print_problems,
    usage_error,
)
from pipeline.cli.jobs import check_out, run_options, run_or_exit

if TYPE_CHECKING:
    from pipeline.load import RunOptions
    from pipeline.norms.stage import NormsStage
    from pipeline.outcome import RunOutcome

NORMS = ("GM", "IM", "WGM", "WIM")  # pipeline.norms.titles.NORM_TITLES (loads polars)


def _titles(value: str) -> tuple[str, ...]:
    """--titles: some of GM, IM, WGM, WIM, comma-separated, any case, each once."""
    given = [t.strip().upper() for t in value.split(",") if t.strip()]
    wrong = [t for t in given if t not in NORMS]
    if not given or wrong:
        shown = ", ".join(wrong) if wrong else repr(value)
        usage_error(f"--titles: expected some of {','.join(NORMS)}, got {shown}")
    return tuple(dict.fromkeys(given))


@app.command(cls=Command)
def norms(
    paths: list[Path] = PATHS,
    registry: Path | None = REGISTRY,
    list_: RatingList | None = LIST,
    period: str | None = PERIOD,
    rules: str | None = RULES,
    identities: Path | None = IDENTITIES,
    events: Path | None = EVENTS,
    no_name_match: bool = NO_NAME_MATCH,
    jobs: int | None = JOBS,
    titles: str = typer.Option(
        "GM,IM,WGM,WIM",
        "--titles",
        metavar="TITLES",
        help="The norms to check, comma-separated: some of GM, IM, WGM, WIM.",
    ),
    event_type: EventType | None = EVENT_TYPE,
    as_json: bool = typer.Option(
        False,
        "--json",
        help="Print one JSON object per player and event, each norm with its verdict, "
        "figures and every requirement checked.",
    ),
    every: bool = typer.Option(
        False, "--all", help="List every norm checked, not only those met or within reach."
    ),
    certificate: Path | None = typer.Option(
        None,
        "--certificate",
        metavar="DIR",
        help="Write the IT1 certificate's numbers (XLSX and JSON) of each norm met into DIR.",
    ),
    skip_invalid: bool = typer.Option(
        False, "--skip-invalid", help="Check the valid events, list the skipped ones, exit 1."
    ),
    lang: Lang | None = LANG,
) -> None:
    """Title norms and performance ratings: who met a GM, IM, WGM or WIM norm, who came
    within 50 points of its Rp, and which requirement failed or which fact is missing."""
    language = pick_lang(lang)
    wanted = _titles(titles)
    options = run_options(
        paths, registry, list_, period, rules, "period", None, skip_invalid, identities,
        no_name_match, jobs, events,
    )  # fmt: skip
    options = dataclasses.replace(options, event_type=event_type, lang=language)
    if certificate is not None:
        check_out(certificate)
    outcome = run_or_exit(options)
    print_problems(
        sorted([*outcome.loaded.problems, *outcome.rating_warnings], key=lambda p: p.sort_key())
    )
    if outcome.result is None:
        raise typer.Exit(outcome.exit_code)
    from pipeline.load import linked_players
    from pipeline.outcome import norms_of

    detail: Literal["all", "none"] = "all" if as_json or certificate is not None else "none"
    stage = norms_of(outcome.result, linked_players(outcome.loaded), options, detail, titles=wanted)
    written = []
    if certificate is not None:
        written = _write_certificates(stage, outcome, options, wanted, certificate)
    if as_json:
        from pipeline.report import pretty_json
        from pipeline.report.norms import norm_records

        typer.echo(pretty_json.dumps(norm_records(stage)))
    else:
        from rich.console import Console

        from pipeline.report.norms import render_norms

        # a line per norm, never wrapped (grep, a pager)
        Console(highlight=False, soft_wrap=True).print(
            render_norms(stage, lang=language, every=every)
        )
    if certificate is not None:
        from pipeline.i18n import translator

        tr = translator(language)
        n = len(written) // 2
        told = tr.ngettext(
            "Wrote {n} certificate into {folder}", "Wrote {n} certificates into {folder}", n
        )
        typer.echo(told.format(n=n, folder=certificate), err=as_json)
    raise typer.Exit(outcome.exit_code)


def _write_certificates(
    stage: NormsStage, outcome: RunOutcome, options: RunOptions, titles: tuple[str, ...],
    folder: Path,
) -> list[Path]:  # fmt: skip
    """The IT1 certificate's numbers (XLSX and JSON) of each norm met, into `folder`."""
    from pipeline.load import linked_players
    from pipeline.norms.certificate import norm_certificates
    from pipeline.outcome import norm_options
    from pipeline.report.certificate import write_certificates

    assert outcome.result is not None
    certificates = norm_certificates(
        stage.norms,
        outcome.result.games,
        linked_players(outcome.loaded),
        outcome.result.events,
        norm_options(options, titles),
    )
    return write_certificates(folder, certificates)
