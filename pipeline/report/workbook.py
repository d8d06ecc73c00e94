"""report.xlsx: Summary, Top changes, Games, Events, Performance, Identities, Checks and Cards
sheets.

    write_workbook(path, ratings=..., games=..., events=..., checks=..., skipped=...)

openpyxl (write-only) builds the package: styles, column widths, frozen header, autofilter,
A4 landscape page setup fitted to the width with the header row repeated, page header and
footer, the bar chart. The rows themselves are rendered by polars (workbook_xml) and
spliced in while the package is copied to its destination, atomically and reproducibly:
two writes of the same data give byte-identical files.

A sheet longer than Excel's 1,048,576 rows continues on `Games (2)`, `Games (3)`, ...
(`WorkbookOptions.row_limit`, a parameter so tests can use a small one). The Games sheet
can be capped (`games_row_cap`; the CSV always holds every row) and the Cards sheet is
capped at `cards_row_cap` rows by default; a cap that takes effect is noted on the Checks
sheet and returned.

`WorkbookOptions.lang` (pipeline.i18n: en, es, it) is the language of the sheet names,
headers, titles, notes, page header and footer; numbers stay numbers (their formats are
the same in every language: Excel and LibreOffice show the viewer's decimal separator),
dates take the language's date format. The notes returned (summary.json) are in English.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl
from openpyxl import Workbook
from openpyxl.utils import get_column_letter
from openpyxl.xml.functions import tostring

from pipeline.errors import Location, Problem, Severity
from pipeline.i18n import DEFAULT_LANG, N_, Translator, translator
from pipeline.report import columns as c
from pipeline.report.atomic import atomic_open
from pipeline.report.workbook_cards import WIDTHS, build_cards, card_widths, cell_specs
from pipeline.report.workbook_package import write_package as _write_package
from pipeline.report.workbook_sheets import (
    TableSheet,
    checks_sheet,
    events_sheet,
    games_sheet,
    identities_sheet,
    performance_sheet,
    summary_sheet,
    top_changes_sheet,
)
from pipeline.report.workbook_style import (
    PageSetup,
    bar_chart,
    fit_width,
    header_style,
    register_styles,
    setup_sheet,
)
from pipeline.report.workbook_xml import (
    EXCEL_MAX_ROWS,
    CellSpec,
    Segment,
    SharedStrings,
    clean_text,
    sheet_rows,
)

if TYPE_CHECKING:
    from pipeline.norms.stage import NormsStage

DEFAULT_STAMP = datetime(2000, 1, 1)
_DECIMALS = {"score": 1, "pd": 2, "signed2": 2}
_SIGNED = {"signed0", "signed2"}


@dataclass(frozen=True)
class WorkbookOptions:
    row_limit: int = EXCEL_MAX_ROWS  # rows per sheet, header included
    games_row_cap: int | None = None  # None: every game (continued on Games (2) ...)
    cards_row_cap: int | None = 250_000  # None: every card
    top: int = 10  # players in each of the largest gains / losses
    title: str | None = None  # left page header; None: "Rating report" in `lang`
    stamp: datetime | None = None  # document dates; None: the latest event date
    lang: str = DEFAULT_LANG  # language of the texts (pipeline.i18n.LANGS)

    @property
    def translator(self) -> Translator:
        return translator(self.lang)

    @property
    def page_title(self) -> str:
        return self.title if self.title is not None else self.translator._("Rating report")


@dataclass
class _Part:
    """One worksheet to create: its name, page setup, widths and row segments."""

    name: str
    widths: list[float]
    page: PageSetup
    segments: list[Segment]
    chart: Callable[[Any], None] | None = None


@dataclass
class _Layout:
    parts: list[_Part] = field(default_factory=list)
    notes: list[Problem] = field(default_factory=list)  # English (summary.json)
    shown_notes: list[Problem] = field(default_factory=list)  # the Checks sheet's


def _note(code: str, message: str) -> Problem:
    return Problem(Location("report.xlsx"), code, message, Severity.WARNING)


def _add_note(layout: _Layout, tr: Translator, code: str, message: str, **values: int) -> None:
    """A note of the report: in English for summary.json, translated on the Checks sheet."""
    layout.notes.append(_note(code, message.format(**values)))
    layout.shown_notes.append(_note(code, tr._(message).format(**values)))


def _sheet_names(base: str, count: int) -> list[str]:
    return [base if i == 0 else f"{base} ({i + 1})" for i in range(count)]


def _fitted_widths(sheet: TableSheet, body: pl.DataFrame) -> list[float]:
    """Fitted widths from the longest value of each column (bounded)."""
    if body.height == 0:
        return [fit_width(None, col.header, numeric=col.numeric) for col in sheet.columns]
    exprs: list[pl.Expr] = []
    for i, col in enumerate(sheet.columns):
        name = f"c{i}"
        if col.numeric:
            exprs.append(pl.col(name).cast(pl.Float64).abs().max().alias(name))
        else:
            # each distinct value once: a text column repeats few values many times
            exprs.append(clean_text(pl.col(name).unique()).str.len_chars().max().alias(name))
    stats = body.select(exprs).row(0)
    widths: list[float] = []
    for col, stat in zip(sheet.columns, stats, strict=True):
        chars: int | None = None
        if col.numeric and col.style != "date" and stat is not None and math.isfinite(stat):
            digits = len(str(int(stat)))
            decimals = _DECIMALS.get(col.style, 0)
            chars = digits + (decimals + 1 if decimals else 0) + (col.style in _SIGNED)
        elif not col.numeric and stat is not None:
            chars = int(stat)
        elif col.style == "date":
            chars = 10
        widths.append(fit_width(chars, col.header, numeric=col.numeric))
    return widths


def _table_parts(
    sheet: TableSheet, styles: dict[str, int], options: WorkbookOptions
) -> list[_Part]:
    tr = options.translator
    body = sheet.body()
    header = Segment(
        pl.DataFrame({"_": [0]}),
        [
            CellSpec(text=pl.lit(col.header), style=styles[header_style(col.style)])
            for col in sheet.columns
        ],
    )
    specs = [
        CellSpec(
            text=pl.col(f"c{i}") if not col.numeric else None,
            number=pl.col(f"c{i}") if col.numeric else None,
            style=styles[col.style],
        )
        for i, col in enumerate(sheet.columns)
    ]
    widths = _fitted_widths(sheet, body)
    per_sheet = max(options.row_limit - 1, 1)
    count = max(1, -(-body.height // per_sheet))
    last_col = get_column_letter(len(sheet.columns))
    parts: list[_Part] = []
    for i, name in enumerate(_sheet_names(sheet.name, count)):
        chunk = body.slice(i * per_sheet, per_sheet)
        page = PageSetup(
            title=options.page_title,
            header_rows=1,
            freeze="A2",
            autofilter=f"A1:{last_col}{chunk.height + 1}",
            landscape=sheet.landscape,
            footer=tr._("Page &P of &N"),
        )
        parts.append(_Part(name, widths, page, [header, Segment(chunk, specs)]))
    if sheet.chart and parts:
        parts[0].chart = bar_chart(body.height, tr)
    return parts


def _cards_parts(
    games: pl.DataFrame,
    ratings: pl.DataFrame,
    events: pl.DataFrame,
    styles: dict[str, int],
    options: WorkbookOptions,
    layout: _Layout,
) -> list[_Part]:
    tr = options.translator
    cap = options.cards_row_cap
    cards = build_cards(games, ratings, events, styles, cap, tr)
    frame = cards.frame
    if cap is not None and cards.total_rows > cap:
        _add_note(
            layout,
            tr,
            "cards-capped",
            N_(
                "expected at most {cap} rows on the Cards sheet, got {rows}: {shown} of "
                "{players} players are shown (the Games sheet and games.csv hold every game)"
            ),
            cap=cap,
            rows=cards.total_rows,
            shown=cards.players,
            players=cards.total_players,
        )
        frame = frame.head(cap)  # when even the first block is longer than the cap
    starts = [s for s in cards.block_starts() if s < frame.height]
    lines = [tr._("Individual calculations"), *(tr._(line) for line in _CARDS_NOTE), None]
    title = Segment(
        pl.DataFrame(
            {"t": lines, "s": [styles["title"], *[styles["note"]] * len(_CARDS_NOTE), 0]},
            schema={"t": pl.String, "s": pl.Int64},
        ),
        [CellSpec(text=pl.col("t"), style=pl.col("s"))],
    )
    per_sheet = max(options.row_limit - title.height, 1)
    cuts = _split_points(frame.height, starts, per_sheet)
    widths = card_widths(tr)
    if frame.height:
        longest = frame.select(clean_text(pl.col("t1")).str.len_chars().max()).item()
        widths[1] = fit_width(longest, tr._("Opponent"), numeric=False)
    specs = cell_specs()
    parts: list[_Part] = []
    names = _sheet_names(tr._("Cards"), len(cuts) - 1)
    for name, (a, b) in zip(names, pairwise(cuts), strict=True):
        local = [s - a for s in starts if a <= s < b]
        page = PageSetup(
            title=options.page_title,
            footer=tr._("Page &P of &N"),
            header_rows=0,
            freeze=None,
            landscape=False,
            print_area=f"A1:{get_column_letter(len(WIDTHS))}{title.height + b - a}",
            row_breaks=tuple(_block_breaks(local, b - a, title.height)),
        )
        parts.append(_Part(name, widths, page, [title, Segment(frame.slice(a, b - a), specs)]))
    return parts


_CARDS_NOTE = [
    N_("One block per player and rating list, with the games that count: rated games, and for"),
    N_("an unrated player the games toward an initial rating. D used: the difference after the"),
    N_("cap; PD from table 8.1.2; ΔR = score − PD; change = K × ΣΔR rounded to a whole number."),
]


# A4 portrait fitted to the width holds ~53-55 rows of Calibri 11 (Excel; LibreOffice
# with Carlito): stay below, so a break never lands inside a card.
CARD_ROWS_PER_PAGE = 48
EXCEL_MAX_BREAKS = 1026  # manual page breaks Excel keeps per sheet


def _block_breaks(starts: Sequence[int], height: int, offset: int) -> list[int]:
    """Page breaks (after sheet row N) so that a card does not straddle two printed
    pages when it fits on one: before every block that would cross the page end."""
    breaks: list[int] = []
    if height == 0:
        return breaks
    used = offset
    starts = sorted({0, *starts})  # a part may open in the middle of a long block
    ends = [*starts[1:], height]
    for start, end in zip(starts, ends, strict=True):
        size = end - start
        if used + size > CARD_ROWS_PER_PAGE and used > 0 and len(breaks) < EXCEL_MAX_BREAKS:
            breaks.append(offset + start)  # the block's first row is offset + start + 1
            used = 0
        used = (used + size) % CARD_ROWS_PER_PAGE if size > CARD_ROWS_PER_PAGE else used + size
    return breaks


def _split_points(height: int, starts: Sequence[int], per_sheet: int) -> list[int]:
    """Row positions where sheets begin: at a block start when a whole block fits."""
    cuts = [0]
    while height - cuts[-1] > per_sheet:
        limit = cuts[-1] + per_sheet
        candidates = [s for s in starts if cuts[-1] < s <= limit]
        cuts.append(candidates[-1] if candidates else limit)
    cuts.append(height)
    return cuts


def _document_stamp(events: pl.DataFrame) -> datetime:
    for name in (c.E_END, c.E_START):
        if name in events.columns and events.height:
            latest = events[name].max()
            if isinstance(latest, date):
                return datetime(latest.year, latest.month, latest.day)
    return DEFAULT_STAMP


def _layout(
    ratings: pl.DataFrame,
    games: pl.DataFrame,
    events: pl.DataFrame,
    checks: Sequence[Problem],
    skipped: Sequence[Problem],
    styles: dict[str, int],
    options: WorkbookOptions,
    identities: pl.DataFrame | None = None,
    performance: pl.DataFrame | None = None,
    norms: NormsStage | None = None,
) -> _Layout:
    layout = _Layout()
    tr = options.translator
    shown_games = games
    if options.games_row_cap is not None and games.height > options.games_row_cap:
        shown_games = games.head(options.games_row_cap)
        _add_note(
            layout,
            tr,
            "games-capped",
            N_(
                "expected at most {cap} rows on the Games sheet, got {rows}: the first {cap} "
                "are shown; games.csv holds every row"
            ),
            cap=options.games_row_cap,
            rows=games.height,
        )
    cards = _cards_parts(games, ratings, events, styles, options, layout)
    for sheet in (
        summary_sheet(ratings, tr),
        top_changes_sheet(ratings, options.top, tr),
        games_sheet(shown_games, ratings, tr),
        events_sheet(events, games, tr),
    ):
        layout.parts += _table_parts(sheet, styles, options)
    if performance is not None:
        layout.parts += _table_parts(performance_sheet(performance, tr), styles, options)
    if norms is not None:
        from pipeline.report.norms import norms_sheet

        layout.parts += _table_parts(norms_sheet(norms, tr), styles, options)
    if identities is not None:
        layout.parts += _table_parts(identities_sheet(identities, tr), styles, options)
    checks_table = checks_sheet(checks, skipped, layout.shown_notes, tr)
    layout.parts += _table_parts(checks_table, styles, options)
    layout.parts += cards
    return layout


def write_workbook(
    path: Path,
    *,
    ratings: pl.DataFrame,
    games: pl.DataFrame,
    events: pl.DataFrame,
    checks: Sequence[Problem] = (),
    skipped: Sequence[Problem] = (),
    options: WorkbookOptions | None = None,
    identities: pl.DataFrame | None = None,
    performance: pl.DataFrame | None = None,
    norms: NormsStage | None = None,
    laid_out: Callable[[], object] | None = None,
) -> list[Problem]:
    """Write report.xlsx atomically. Returns the notes it added to the Checks sheet (caps
    that took effect); `skipped` are the errors of events left out of the run;
    `identities` (the identity stage's table) adds the Identities sheet, `performance`
    (performance.csv's rows, pipeline.norms) the Performance sheet, `norms` (the norms
    stage) the Norms sheet. `laid_out` is called once every sheet is laid out, before
    the rows are written (whatever else is to be done may start then: the writing uses
    less than two cores)."""
    options = options or WorkbookOptions()
    stamp = options.stamp or _document_stamp(events)
    wb = Workbook(write_only=True)
    first = wb.create_sheet("Summary")
    styles = register_styles(first, date_format=options.translator.excel_date_format())
    layout = _layout(
        ratings, games, events, checks, skipped, styles, options, identities, performance, norms
    )
    if laid_out is not None:
        laid_out()

    sheets: list[tuple[Any, _Part]] = []
    for i, part in enumerate(layout.parts):
        ws: Any = first if i == 0 else wb.create_sheet(part.name)
        ws.title = part.name
        setup_sheet(ws, part.widths, part.page)
        if part.chart is not None:
            part.chart(ws)
        sheets.append((ws, part))

    props = wb.properties
    props.creator = "elo-pipeline"
    props.title = options.page_title
    props.created = props.modified = stamp
    template = io.BytesIO()
    wb.save(template)
    props.modified = stamp  # save() stamps the current time; the package gets `stamp`
    core_xml = tostring(props.to_tree())

    strings = SharedStrings()
    rows = {ws.path.lstrip("/"): sheet_rows(part.segments, strings) for ws, part in sheets}
    template.seek(0)
    with atomic_open(Path(path)) as out:
        _write_package(template, out, rows=rows, strings=strings, core_xml=core_xml, stamp=stamp)
    return layout.notes
