"""The console summary of a run, as a rich renderable (the CLI prints it) or plain text.

    render_summary(summary, ratings, written=paths, lang="en") -> rich Group
    summary_text(summary, ratings, written=paths, width=100, lang="en") -> str

`summary` is the dict summary.json is written from (pipeline.outcome.build_summary): status,
exit_code, counts.per_list, identities, warnings, errors, report_notes, skipped_duplicates
(a line per file skipped as an event given twice). `ratings` (optional) is the ratings
frame, for the largest gains and losses. `lang` (pipeline.i18n) is the language of the
words; codes, file names and the problems' messages stay as they are.
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

from pipeline.i18n import DEFAULT_LANG, N_, Translator, translator
from pipeline.report import columns as c
from pipeline.validate.rated import RATED_EVENT_CODES, SECTION

_STATUS_STYLE = {"ok": "bold green", "partial": "bold yellow", "rejected": "bold red"}
_STATUS_WORDS = {"ok": N_("OK"), "partial": N_("PARTIAL"), "rejected": N_("REJECTED")}
# the counts per list: summary key and column header (a count of players)
_PER_LIST = ["players", "rated", "initial", "unrated", "no-rated-games", "rated_games"]


def _player_headers(tr: Translator) -> dict[str, str]:
    """Headers of counts of players (and of their games) in the console tables."""
    return {
        "players": tr.pgettext("players", "players"),
        "rated": tr.pgettext("players", "rated"),
        "initial": tr.pgettext("players", "initial"),
        "unrated": tr.pgettext("players", "unrated"),
        "no-rated-games": tr.pgettext("players", "no rated games"),
        "rated_games": tr._("rated games"),
        "events": tr._("events"),
        "warnings": tr._("warnings"),
    }


def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def _sequence(value: object) -> Sequence[object]:
    return value if isinstance(value, list | tuple) else []


def _errors(tr: Translator, n: int) -> str:
    return tr.ngettext("{n} error", "{n} errors", n).format(n=n)


def _events(tr: Translator, n: int) -> str:
    return tr.ngettext("{n} event", "{n} events", n).format(n=n)


def _headline(summary: Mapping[str, object], tr: Translator) -> Text:
    status = str(summary.get("status", "ok"))
    counts = _mapping(summary.get("counts"))
    errors = len(_sequence(summary.get("errors")))
    text = Text()
    word = _STATUS_WORDS.get(status)
    text.append(tr._(word) if word else status.upper(), style=_STATUS_STYLE.get(status, "bold"))
    text.append(tr._(" (exit {code}): ").format(code=summary.get("exit_code", 0)))
    if status == "rejected":
        text.append(
            tr._("input rejected, {errors}; nothing was rated").format(errors=_errors(tr, errors))
        )
        return text
    periods = _sequence(summary.get("periods"))
    if periods:
        names = [str(_mapping(p).get("period")) for p in periods]
        events = sum(int(str(_mapping(p).get("events", 0))) for p in periods)
        span = names[0]
        if len(names) > 1:
            span = tr._("{first} to {last}").format(first=names[0], last=names[-1])
        rated = tr.ngettext(
            "{n} period rated in order", "{n} periods rated in order", len(names)
        ).format(n=len(names))
        text.append(f"{rated} ({span}), {_events(tr, events)}")
        return text
    events = int(str(counts.get("events", 0)))
    players = int(str(counts.get("players", 0)))
    text.append(
        tr.ngettext("{n} event rated", "{n} events rated", events).format(n=events)
        + ", "
        + tr.ngettext("{n} player", "{n} players", players).format(n=players)
    )
    invalid = _sequence(summary.get("invalid_files"))
    if invalid:
        skipped = tr.ngettext("{n} file skipped", "{n} files skipped", len(invalid))
        skipped = skipped.format(n=len(invalid))
        text.append(f"; {skipped} ({_errors(tr, errors)})")
    return text


# why a file was skipped as an event given twice (pipeline.validate.duplicates)
_WHY = {
    "the same bytes": N_("the same bytes"),
    "the same players and games": N_("the same players and games"),
}


def _skipped_duplicates(summary: Mapping[str, object], tr: Translator) -> Text | None:
    """A line per file skipped as an event given twice: ``Skipped b.xlsx: the same event
    as a.trf (the same players and games); rated once, from a.trf``."""
    lines = []
    for raw in _sequence(summary.get("skipped_duplicates")):
        item = _mapping(raw)
        why = str(item.get("why", ""))
        kept = str(item.get("kept", ""))
        line = tr._("Skipped {file}: the same event as {kept} ({why}); rated once, from {kept}")
        lines.append(
            line.format(file=item.get("file", ""), kept=kept, why=tr._(_WHY.get(why, why)))
        )
    return Text("\n".join(lines)) if lines else None


def _per_list_table(summary: Mapping[str, object], tr: Translator) -> Table | None:
    per_list = _mapping(_mapping(summary.get("counts")).get("per_list"))
    if not per_list:
        return None
    table = Table(title=tr._("Players per rating list"), title_justify="left", title_style="bold")
    table.add_column(tr._("list"))
    headers = _player_headers(tr)
    for key in _PER_LIST:
        table.add_column(headers[key], justify="right")
    for name, raw in per_list.items():
        row = _mapping(raw)
        table.add_row(tr._(str(name)), *(str(row.get(key, "")) for key in _PER_LIST))
    return table


def _movers_table(
    ratings: pl.DataFrame, top: int, tr: Translator, period: str | None = None
) -> Table | None:
    """The `top` largest gains and losses of `ratings`; `period` names the one period
    they are of (a chain's last: its rating result is that period's)."""
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
    if period is None:
        title = tr._("Largest gains and losses (top {top})").format(top=top)
    else:
        title = tr._("Largest gains and losses in {period} (top {top})")
        title = title.format(period=period, top=top)
    table = Table(
        title=title,
        title_justify="left",
        title_style="bold",
    )
    for i, name in enumerate((tr._("list"), tr._("FIDE ID"), tr._("name"), "Ro")):
        table.add_column(name, justify="left" if i in (0, 2) else "right")
    for name in (tr._("change"), tr._("new")):
        table.add_column(name, justify="right")
    for i, (frame, style) in enumerate(((gains.head(top), "green"), (losses.head(top), "red"))):
        if i == 1 and gains.height and losses.height:
            table.add_section()
        for row in frame.iter_rows(named=True):
            fide = row[c.FIDE_ID]
            table.add_row(
                tr._(str(row[c.LIST])),
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


def _problems_heading(tr: Translator, key: str, n: int) -> str:
    if key == "errors":
        heading = tr.ngettext("{n} error:", "{n} errors:", n)
    elif key == "warnings":
        heading = tr.ngettext("{n} warning:", "{n} warnings:", n)
    else:
        heading = tr.ngettext("{n} note:", "{n} notes:", n)
    return heading.format(n=n)


def _problems(summary: Mapping[str, object], key: str, limit: int, tr: Translator) -> Text | None:
    items = _sequence(summary.get(key))
    if not items:
        return None
    text = Text(_problems_heading(tr, key, len(items)), style="bold")
    for raw in items[:limit]:
        text.append("\n  " + _problem_line(raw), style="")
    if len(items) > limit:
        more = tr._("... and {n} more ({sheet} sheet of report.xlsx)")
        text.append("\n  " + more.format(n=len(items) - limit, sheet=tr._("Checks")))
    return text


# identities.csv's methods, then the open statuses, in the order of the line
_IDENTITY_KEYS = [
    "file-id",
    "registry-name",
    "run-name",
    "manual",
    "ambiguous",
    "unmatched",
    "vetoed",
    "unlinked",
]


def _identity_part(tr: Translator, key: str, n: int) -> str:
    """One count of the identities line (the words agree with n in es and it)."""
    parts = {
        "file-id": tr.ngettext("{n} by the file's FIDE ID", "{n} by the file's FIDE ID", n),
        "registry-name": tr.ngettext(
            "{n} by name to the rating list", "{n} by name to the rating list", n
        ),
        "run-name": tr.ngettext("{n} by name across events", "{n} by name across events", n),
        "manual": tr.ngettext("{n} by your decisions", "{n} by your decisions", n),
        "ambiguous": tr.ngettext("{n} ambiguous", "{n} ambiguous", n),
        "unmatched": tr.ngettext("{n} not in the rating list", "{n} not in the rating list", n),
        "vetoed": tr.ngettext(
            "{n} kept apart by your decisions", "{n} kept apart by your decisions", n
        ),
        "unlinked": tr.ngettext("{n} without a FIDE ID", "{n} without a FIDE ID", n),
    }
    return parts[key].format(n=n)


def _identities_line(summary: Mapping[str, object], tr: Translator) -> Text | None:
    """``Identities: 183 by the file's FIDE ID, 10 by name to the rating list, 2
    ambiguous, 6 not in the rating list.``"""
    counts = _mapping(summary.get("identities"))
    if not counts:
        return None
    parts = [
        _identity_part(tr, key, n) for key in _IDENTITY_KEYS if (n := int(str(counts.get(key, 0))))
    ]
    text = Text(tr._("Identities: "), style="bold")
    text.append(", ".join(parts) or tr._("none"))
    return text


def _rated_events_table(summary: Mapping[str, object], most: int, tr: Translator) -> Table | None:
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
    n = len(per_file)
    to_look_at = tr.ngettext("{n} event to look at", "{n} events to look at", n).format(n=n)
    table = Table(
        title=tr._("Rated-event checks: {events}").format(events=to_look_at),
        title_justify="left",
        title_style="bold",
    )
    table.add_column(tr._("event file"))
    table.add_column(tr._("checks"))
    for file, labels in list(per_file.items())[:most]:
        table.add_row(Path(file).name, ", ".join(labels))
    if len(per_file) > most:
        table.add_row(tr._("... and {n} more").format(n=len(per_file) - most), "")
    return table


_PERIOD_COUNTS = ["events", "players", "rated", "initial", "unrated", "warnings"]


def _periods_table(summary: Mapping[str, object], tr: Translator) -> Table | None:
    """A chain: one row per period with its events and players per status."""
    periods = _sequence(summary.get("periods"))
    if not periods:
        return None
    table = Table(
        title=tr._("Rating periods"),
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
    )
    table.add_column(tr._("period"), justify="left", no_wrap=True)
    table.add_column(tr._("list of"), justify="left", no_wrap=True)
    headers = _player_headers(tr)
    for key in _PERIOD_COUNTS:
        table.add_column(headers[key], justify="right", no_wrap=True)
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
    lang: str = DEFAULT_LANG,
) -> Group:
    """Headline, players per list, largest gains/losses, warnings, notes, files written.

    `list_problems=False` counts errors and warnings without listing them (the CLI has
    printed every one of them on stderr already)."""
    tr = translator(lang)
    parts: list[RenderableType] = [_headline(summary, tr)]
    skipped = _skipped_duplicates(summary, tr)
    if skipped is not None:
        parts.append(skipped)
    chain = _periods_table(summary, tr)
    if chain is not None:
        parts.append(chain)
    per_list = _per_list_table(summary, tr)
    if per_list is not None:
        parts.append(per_list)
    if ratings is not None:
        periods = _sequence(summary.get("periods"))
        last = str(_mapping(periods[-1]).get("period")) if periods else None
        movers = _movers_table(ratings, top, tr, last)
        if movers is not None:
            parts.append(movers)
    identities = _identities_line(summary, tr)
    if identities is not None:
        parts.append(identities)
    rated = _rated_events_table(summary, max_problems, tr)
    if rated is not None:
        parts.append(rated)
    for key in ("errors", "warnings", "report_notes"):
        if key in ("errors", "warnings") and not list_problems:
            n = len(_sequence(summary.get(key)))
            if key == "warnings" and n:
                line = tr.ngettext(
                    "{n} warning (on stderr and in the report)",
                    "{n} warnings (on stderr and in the report)",
                    n,
                )
                parts.append(Text(line.format(n=n)))
            continue
        block = _problems(summary, key, max_problems, tr)
        if block is not None:
            parts.append(block)
    if written:
        files = ", ".join(str(p) for p in written)
        parts.append(Text(tr._("Wrote {files}").format(files=files)))
    return Group(*parts)


def summary_text(
    summary: Mapping[str, object],
    ratings: pl.DataFrame | None = None,
    *,
    written: Sequence[Path] = (),
    width: int = 100,
    top: int = 5,
    lang: str = DEFAULT_LANG,
) -> str:
    """The same as plain text (no colour codes), e.g. for logs and tests."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None, force_terminal=False)
    console.print(render_summary(summary, ratings, written=written, top=top, lang=lang))
    return buffer.getvalue()
