"""The console summary of a run, as a rich renderable (the CLI prints it) or plain text.

    render_summary(summary, ratings, written=paths) -> rich Group
    summary_text(summary, ratings, written=paths, width=100) -> str

`summary` is the dict summary.json is written from (pipeline.run.build_summary): status,
exit_code, counts.per_list, identities, warnings, errors, report_notes. `ratings` (optional) is the
ratings frame, for the largest gains and losses.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from pathlib import Path

import polars as pl
from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from pipeline.report import columns as c
from pipeline.validate.rated import RATED_EVENT_CODES, SECTION

_STATUS_STYLE = {"ok": "bold green", "partial": "bold yellow", "rejected": "bold red"}
_PER_LIST = [
    ("players", "players"),
    ("rated", "rated"),
    ("initial", "initial"),
    ("unrated", "unrated"),
    ("no-rated-games", "no rated games"),
    ("rated_games", "rated games"),
]


def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def _sequence(value: object) -> Sequence[object]:
    return value if isinstance(value, list | tuple) else []


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def _headline(summary: Mapping[str, object]) -> Text:
    status = str(summary.get("status", "ok"))
    counts = _mapping(summary.get("counts"))
    errors = len(_sequence(summary.get("errors")))
    text = Text()
    text.append(status.upper(), style=_STATUS_STYLE.get(status, "bold"))
    text.append(f" (exit {summary.get('exit_code', 0)}): ")
    if status == "rejected":
        text.append(f"input rejected, {_plural(errors, 'error')}; nothing was rated")
        return text
    periods = _sequence(summary.get("periods"))
    if periods:
        names = [str(_mapping(p).get("period")) for p in periods]
        events = sum(int(str(_mapping(p).get("events", 0))) for p in periods)
        span = names[0] if len(names) == 1 else f"{names[0]} to {names[-1]}"
        text.append(f"{_plural(len(names), 'period')} rated in order ({span}), ")
        text.append(f"{_plural(events, 'event')}")
        return text
    text.append(
        f"{_plural(int(str(counts.get('events', 0))), 'event')} rated, "
        f"{_plural(int(str(counts.get('players', 0))), 'player')}"
    )
    invalid = _sequence(summary.get("invalid_files"))
    if invalid:
        text.append(f"; {_plural(len(invalid), 'file')} skipped ({_plural(errors, 'error')})")
    return text


def _per_list_table(summary: Mapping[str, object]) -> Table | None:
    per_list = _mapping(_mapping(summary.get("counts")).get("per_list"))
    if not per_list:
        return None
    table = Table(title="Players per rating list", title_justify="left", title_style="bold")
    table.add_column("list")
    for _, label in _PER_LIST:
        table.add_column(label, justify="right")
    for name, raw in per_list.items():
        row = _mapping(raw)
        table.add_row(str(name), *(str(row.get(key, "")) for key, _ in _PER_LIST))
    return table


def _movers_table(ratings: pl.DataFrame, top: int) -> Table | None:
    moved = ratings.filter(
        (pl.col(c.STATUS) == "rated") & pl.col(c.CHANGE).is_not_null() & (pl.col(c.CHANGE) != 0)
    )
    if moved.height == 0:
        return None
    gains = moved.filter(pl.col(c.CHANGE) > 0).sort(
        [-pl.col(c.CHANGE), pl.col(c.NAME)], maintain_order=True
    )
    losses = moved.filter(pl.col(c.CHANGE) < 0).sort(
        [pl.col(c.CHANGE), pl.col(c.NAME)], maintain_order=True
    )
    table = Table(
        title=f"Largest gains and losses (top {top})", title_justify="left", title_style="bold"
    )
    for name in ("list", "FIDE ID", "name", "Ro", "change", "new"):
        table.add_column(name, justify="left" if name in ("list", "name") else "right")
    for i, (frame, style) in enumerate(((gains.head(top), "green"), (losses.head(top), "red"))):
        if i == 1 and gains.height and losses.height:
            table.add_section()
        for row in frame.iter_rows(named=True):
            fide = row[c.FIDE_ID]
            table.add_row(
                str(row[c.LIST]),
                "" if fide is None else str(fide),
                str(row[c.NAME]),
                str(row[c.RATING_BEFORE]),
                Text(f"{row[c.CHANGE]:+d}", style=style),
                str(row[c.RATING_AFTER]),
            )
    return table


def _problem_line(raw: object) -> str:
    p = _mapping(raw)
    where = ":".join(
        str(part)
        for part in (p.get("file"), p.get("line"), p.get("column"))
        if part not in (None, "")
    )
    return f"{where}: {p.get('message', '')} [{p.get('code', '')}]"


def _problems(summary: Mapping[str, object], key: str, label: str, limit: int) -> Text | None:
    items = _sequence(summary.get(key))
    if not items:
        return None
    text = Text(f"{_plural(len(items), label)}:", style="bold")
    for raw in items[:limit]:
        text.append("\n  " + _problem_line(raw), style="")
    if len(items) > limit:
        text.append(f"\n  ... and {len(items) - limit} more (Checks sheet of report.xlsx)")
    return text


_IDENTITY_PARTS = [
    ("file-id", "by the file's FIDE ID"),
    ("registry-name", "by name to the rating list"),
    ("run-name", "by name across events"),
    ("manual", "by your decisions"),
]


def _identities_line(summary: Mapping[str, object]) -> Text | None:
    """``Identities: 183 by the file's FIDE ID, 10 by name to the rating list, 2
    ambiguous, 6 not in the rating list.``"""
    counts = _mapping(summary.get("identities"))
    if not counts:
        return None
    linked = [
        f"{counts[key]} {label}" for key, label in _IDENTITY_PARTS if int(str(counts.get(key, 0)))
    ]
    open_ = [
        f"{counts[key]} {label}"
        for key, label in (
            ("ambiguous", "ambiguous"),
            ("unmatched", "not in the rating list"),
            ("vetoed", "kept apart by your decisions"),
            ("unlinked", "without a FIDE ID"),
        )
        if int(str(counts.get(key, 0)))
    ]
    text = Text("Identities: ", style="bold")
    text.append(", ".join(linked + open_) or "none")
    return text


def _rated_events_table(summary: Mapping[str, object], most: int) -> Table | None:
    """The rated-event checks (pipeline.validate.rated) grouped per event: each event's
    file with the checks it fails and their regulation sections."""
    per_file: dict[str, list[str]] = {}
    for raw in _sequence(summary.get("warnings")):
        problem = _mapping(raw)
        code = str(problem.get("code", ""))
        if code in RATED_EVENT_CODES:
            found = per_file.setdefault(str(problem.get("file", "")), [])
            label = f"{code} ({SECTION[code]})"
            if label not in found:
                found.append(label)
    if not per_file:
        return None
    table = Table(
        title=f"Rated-event checks: {_plural(len(per_file), 'event')} to look at",
        title_justify="left",
        title_style="bold",
    )
    table.add_column("event file")
    table.add_column("checks")
    for file, labels in list(per_file.items())[:most]:
        table.add_row(Path(file).name, ", ".join(labels))
    if len(per_file) > most:
        table.add_row(f"... and {len(per_file) - most} more", "")
    return table


def _periods_table(summary: Mapping[str, object]) -> Table | None:
    """A chain: one row per period with its events and players per status."""
    periods = _sequence(summary.get("periods"))
    if not periods:
        return None
    table = Table(
        title="Rating periods",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
    )
    for header in (
        "period",
        "list of",
        "events",
        "players",
        "rated",
        "initial",
        "unrated",
        "warnings",
    ):
        left = header in ("period", "list of")
        table.add_column(header, justify="left" if left else "right", no_wrap=True)
    for item in periods:
        row = _mapping(item)
        per_list = _mapping(_mapping(row.get("counts")).get("per_list"))
        total = {
            key: sum(int(str(_mapping(v).get(key, 0))) for v in per_list.values())
            for key in ("rated", "initial", "unrated")
        }
        table.add_row(
            str(row.get("period")),
            str(row.get("list_date")),
            str(row.get("events", 0)),
            str(row.get("players", 0)),
            *(str(total[key]) for key in ("rated", "initial", "unrated")),
            str(row.get("warnings", 0)),
        )
    return table


def render_summary(
    summary: Mapping[str, object],
    ratings: pl.DataFrame | None = None,
    *,
    written: Sequence[Path] = (),
    top: int = 5,
    max_problems: int = 10,
    list_problems: bool = True,
) -> Group:
    """Headline, players per list, largest gains/losses, warnings, notes, files written.

    `list_problems=False` counts errors and warnings without listing them (the CLI has
    printed every one of them on stderr already)."""
    parts: list[RenderableType] = [_headline(summary)]
    chain = _periods_table(summary)
    if chain is not None:
        parts.append(chain)
    per_list = _per_list_table(summary)
    if per_list is not None:
        parts.append(per_list)
    if ratings is not None:
        movers = _movers_table(ratings, top)
        if movers is not None:
            parts.append(movers)
    identities = _identities_line(summary)
    if identities is not None:
        parts.append(identities)
    rated = _rated_events_table(summary, max_problems)
    if rated is not None:
        parts.append(rated)
    for key, label in (("errors", "error"), ("warnings", "warning"), ("report_notes", "note")):
        if key in ("errors", "warnings") and not list_problems:
            n = len(_sequence(summary.get(key)))
            if key == "warnings" and n:
                parts.append(Text(f"{_plural(n, 'warning')} (on stderr and in the report)"))
            continue
        block = _problems(summary, key, label, max_problems)
        if block is not None:
            parts.append(block)
    if written:
        parts.append(Text("Wrote " + ", ".join(str(p) for p in written)))
    return Group(*parts)


def summary_text(
    summary: Mapping[str, object],
    ratings: pl.DataFrame | None = None,
    *,
    written: Sequence[Path] = (),
    width: int = 100,
    top: int = 5,
) -> str:
    """The same as plain text (no colour codes), e.g. for logs and tests."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None, force_terminal=False)
    console.print(render_summary(summary, ratings, written=written, top=top))
    return buffer.getvalue()
