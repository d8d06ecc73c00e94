"""The table sheets of report.xlsx: Summary, Top changes, Games, Events, Performance,
Identities, Checks.

Each builder returns a `TableSheet`: the rows as a polars frame plus the columns to show
(header, value expression, style). workbook.py lays them out; nothing here touches openpyxl.
Sheet names, headers and labels are in the translator's language (`tr`, English by
default); values that are codes of the CSV outputs (lists, statuses, reasons, methods,
message codes) stay as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import polars as pl

from pipeline.errors import Problem
from pipeline.i18n import N_, Translator, translator
from pipeline.report import columns as c
from pipeline.report.workbook_style import TEXT_STYLES
from pipeline.validate.rated import RATED_EVENT_CODES
from schemas.ingest import LIST_BASIS


@dataclass(frozen=True)
class Col:
    header: str
    value: pl.Expr
    style: str = "text"  # workbook_style.STYLES key; TEXT_STYLES hold text, others numbers

    @property
    def numeric(self) -> bool:
        return self.style not in TEXT_STYLES


@dataclass(frozen=True)
class TableSheet:
    name: str
    frame: pl.DataFrame
    columns: Sequence[Col]
    chart: bool = False  # Top changes: bar chart of the Gain / Loss columns
    landscape: bool = True

    def body(self) -> pl.DataFrame:
        """One column per shown column, named c0, c1, ..."""
        return self.frame.select([col.value.alias(f"c{i}") for i, col in enumerate(self.columns)])


def with_k(games: pl.DataFrame, ratings: pl.DataFrame) -> pl.DataFrame:
    """Add `_k` to the games: rate.py's per-game `k` extra, else the player's K from the
    ratings (list, FIDE ID); null for players without an ID when no extra is given."""
    if c.X_K in games.columns:
        return games.with_columns(pl.col(c.X_K).cast(pl.Int64).alias("_k"))
    keys = ratings.filter(pl.col(c.FIDE_ID).is_not_null()).select(
        pl.col(c.LIST).alias(c.G_LIST),
        pl.col(c.FIDE_ID).cast(pl.Int64).alias(c.G_FIDE_ID),
        pl.col(c.K).cast(pl.Int64).alias("_k"),
    )
    keys = keys.unique([c.G_LIST, c.G_FIDE_ID], keep="first", maintain_order=True)
    return games.with_columns(pl.col(c.G_FIDE_ID).cast(pl.Int64)).join(
        keys, on=[c.G_LIST, c.G_FIDE_ID], how="left", maintain_order="left"
    )


def k_times_delta(k: pl.Expr, delta: pl.Expr) -> pl.Expr:
    """K·ΔR computed in integer hundredths, shown with two decimals."""
    return (k.cast(pl.Int64) * c.hundredths(delta)) / 100


# --- Summary ----------------------------------------------------------------------------


def summary_sheet(ratings: pl.DataFrame, tr: Translator | None = None) -> TableSheet:
    _ = (tr or translator())._
    frame = ratings.sort(
        [c.list_rank(pl.col(c.LIST)), pl.col(c.NAME), pl.col(c.FIDE_ID)],
        nulls_last=True,
        maintain_order=True,
    )
    score_h = c.hundredths(pl.col(c.SCORE))
    sum_delta = pl.when(pl.col(c.RATING_BEFORE).is_not_null() & (pl.col(c.GAMES) > 0)).then(
        (score_h - c.hundredths(pl.col(c.EXPECTED))) / 100
    )
    cols = [
        Col(_("FIDE ID"), pl.col(c.FIDE_ID), "int"),
        Col(_("Name"), pl.col(c.NAME)),
        Col(_("Fed"), pl.col(c.FEDERATION)),
        Col(_("Title"), c.optional(ratings, c.X_TITLE, pl.String())),
        Col(_("List"), pl.col(c.LIST)),
        Col("Ro", pl.col(c.RATING_BEFORE), "int"),
        Col("K", pl.col(c.K), "int"),
        Col(_("Games"), pl.col(c.GAMES), "int"),
        Col(_("Score"), pl.col(c.SCORE), "score"),
        Col(_("Expected (ΣPD)"), pl.col(c.EXPECTED), "pd"),
        Col("ΣΔR", sum_delta, "signed2"),
        Col(_("K·ΣΔR unrounded"), pl.col(c.CHANGE_UNROUNDED), "signed2"),
        Col(_("Change"), pl.col(c.CHANGE), "signed0"),
        Col(_("New rating"), pl.col(c.RATING_AFTER), "int"),
        Col(_("Status"), pl.col(c.STATUS)),
    ]
    return TableSheet(_("Summary"), frame, cols)


# --- Top changes ------------------------------------------------------------------------


def top_changes_sheet(ratings: pl.DataFrame, top: int, tr: Translator | None = None) -> TableSheet:
    """The `top` largest gains and losses (rounded change) of rated players."""
    _ = (tr or translator())._
    moved = ratings.filter(
        pl.col(c.CHANGE).is_not_null() & (pl.col(c.STATUS) == "rated") & (pl.col(c.CHANGE) != 0)
    )
    several_lists = moved[c.LIST].n_unique() > 1
    order = [pl.col(c.NAME), pl.col(c.FIDE_ID)]
    gains = moved.filter(pl.col(c.CHANGE) > 0).sort(
        [-pl.col(c.CHANGE), *order], nulls_last=True, maintain_order=True
    )
    losses = moved.filter(pl.col(c.CHANGE) < 0).sort(
        [pl.col(c.CHANGE), *order], nulls_last=True, maintain_order=True
    )
    frame = pl.concat([gains.head(top), losses.head(top)], how="vertical_relaxed")
    label = pl.col(c.NAME)
    if several_lists:
        label = pl.concat_str([pl.col(c.NAME), pl.lit(" ("), pl.col(c.LIST), pl.lit(")")])
    cols = [
        Col(_("Player"), label),
        Col(_("FIDE ID"), pl.col(c.FIDE_ID), "int"),
        Col(_("List"), pl.col(c.LIST)),
        Col("Ro", pl.col(c.RATING_BEFORE), "int"),
        Col(_("Gain"), pl.when(pl.col(c.CHANGE) > 0).then(pl.col(c.CHANGE)), "signed0"),
        Col(_("Loss"), pl.when(pl.col(c.CHANGE) < 0).then(pl.col(c.CHANGE)), "signed0"),
        Col(_("New rating"), pl.col(c.RATING_AFTER), "int"),
    ]
    return TableSheet(_("Top changes"), frame, cols, chart=frame.height > 0, landscape=False)


# --- Games ------------------------------------------------------------------------------


def games_sheet(
    games: pl.DataFrame, ratings: pl.DataFrame, tr: Translator | None = None
) -> TableSheet:
    tr = tr or translator()
    _ = tr._
    frame = with_k(games, ratings)
    rated = pl.col(c.G_RATED).fill_null(False)
    reason = pl.col(c.G_REASON).cast(pl.String)
    status = (
        pl.when(rated)
        .then(pl.lit(tr.pgettext("game", "rated")))
        .when(reason.is_null() | (reason == ""))
        .then(pl.lit(tr.pgettext("game", "not rated")))
        .otherwise(reason)
    )
    cols = [
        Col(_("Event"), pl.col(c.G_TOURNAMENT)),
        Col(_("List"), pl.col(c.G_LIST)),
        Col(_("Rd"), pl.col(c.G_ROUND), "int"),
        Col(_("FIDE ID"), pl.col(c.G_FIDE_ID), "int"),
        Col(_("Player"), pl.col(c.G_NAME)),
        Col(_("Rating"), pl.col(c.G_RATING), "int"),
        Col(_("Col"), pl.col(c.G_COLOUR), "center"),
        Col(_("Opp. FIDE ID"), pl.col(c.G_OPPONENT_FIDE_ID), "int"),
        Col(_("Opponent"), pl.col(c.G_OPPONENT_NAME)),
        Col(_("Opp. rating"), pl.col(c.G_OPPONENT_RATING), "int"),
        Col(_("Result"), pl.col(c.G_RESULT), "center"),
        Col(_("Score"), pl.col(c.G_SCORE), "score"),
        Col("D", pl.col(c.G_DIFFERENCE), "signed0"),
        Col(_("D used"), pl.col(c.G_DIFFERENCE_USED), "signed0"),
        Col("PD", pl.col(c.G_EXPECTED), "pd"),
        Col("ΔR", pl.when(rated).then(pl.col(c.G_DELTA)), "signed2"),
        Col("K", pl.when(rated).then(pl.col("_k")), "int"),
        Col("K·ΔR", pl.when(rated).then(k_times_delta(pl.col("_k"), pl.col(c.G_DELTA))), "signed2"),
        Col(_("Rated / reason"), status),
    ]
    return TableSheet(_("Games"), frame, cols)


# --- Events -----------------------------------------------------------------------------


def _event_counts(events: pl.DataFrame, games: pl.DataFrame) -> pl.DataFrame:
    """players and rated games per event, keyed like `events` (event_id, else name)."""
    rated = pl.col(c.G_RATED).fill_null(False)
    if c.X_EVENT_ID in games.columns:
        key, ev_key = c.X_EVENT_ID, c.E_ID
        player = pl.col(c.X_START_NO) if c.X_START_NO in games.columns else pl.col(c.G_NAME)
    else:
        key, ev_key = c.G_TOURNAMENT, c.E_NAME
        player = pl.col(c.G_NAME)
    counts = games.group_by(key, maintain_order=True).agg(
        player.n_unique().alias("_players"),
        (rated.sum() // 2).alias("_rated_from_games"),
    )
    return events.join(counts.rename({key: ev_key}), on=ev_key, how="left", maintain_order="left")


def _excel_date(expr: pl.Expr) -> pl.Expr:
    return (expr.cast(pl.Date) - pl.date(1899, 12, 30)).dt.total_days()


# why an event is on its list (schemas.ingest.LIST_BASIS), in the workbook's language
_BASIS_WORDS = {
    "declared": N_("declared"),
    "time control": N_("time control"),
    "schedule": N_("schedule"),
    "--list": "--list",
    "decision": N_("decision"),
}


def _list_basis(frame: pl.DataFrame, _: Callable[[str], str]) -> pl.Expr:
    """The list's basis (declared, time control, schedule, --list, decision) by the
    events' `list_source`, translated."""
    if c.E_LIST_SOURCE not in frame.columns:
        return pl.lit(None, dtype=pl.String())
    words = {source: _(_BASIS_WORDS[basis]) for source, basis in LIST_BASIS.items()}
    return pl.col(c.E_LIST_SOURCE).replace_strict(words, default=None, return_dtype=pl.String())


def events_sheet(
    events: pl.DataFrame, games: pl.DataFrame, tr: Translator | None = None
) -> TableSheet:
    _ = (tr or translator())._
    frame = _event_counts(events, games)
    rated_games = (
        pl.col(c.X_RATED_GAMES) if c.X_RATED_GAMES in frame.columns else pl.col("_rated_from_games")
    )
    cols = [
        Col(_("Event"), pl.col(c.E_NAME)),
        Col(_("File"), pl.col(c.E_FILE)),
        Col(_("List"), pl.col(c.E_LIST)),
        Col(_("Start"), _excel_date(pl.col(c.E_START)), "date"),
        Col(_("End"), _excel_date(pl.col(c.E_END)), "date"),
        Col(_("Rounds"), pl.col(c.E_ROUNDS), "int"),
        Col(_("Players"), pl.col("_players"), "int"),
        Col(_("Rated games"), rated_games, "int"),
        Col(_("Rule set"), c.optional(frame, c.X_RULE_SET, pl.String())),
        Col(_("Source"), pl.col(c.E_SOURCE)),
        # why the event is on its list: declared, time control, schedule, --list, decision
        Col(_("List by"), _list_basis(frame, _)),
        Col(_("Why this list"), c.optional(frame, c.E_LIST_REASON, pl.String())),
    ]
    return TableSheet(_("Events"), frame, cols)


# --- Checks -----------------------------------------------------------------------------

ADJUSTMENT_CODE = "event-decision"  # pipeline.ingest.event_adjustments.adjustment_problems


def checks_sheet(
    checks: Sequence[Problem],
    skipped: Sequence[Problem],
    notes: Sequence[Problem],
    tr: Translator | None = None,
) -> TableSheet:
    """The problems of the run: rated-event checks, warnings and errors, skipped events,
    notes of the report. `kind` is written in the translator's language, the problems'
    codes and messages as they are (`notes` as the report wrote them)."""
    _ = (tr or translator())._
    kinds = {
        "rated event": _("rated event"),
        "warning": _("warning"),
        "error": _("error"),
        "skipped": _("skipped"),
        "note": _("note"),
        "adjustment": _("adjustment"),
    }
    rows: list[tuple[str, str, int | None, str | None, str, str]] = []
    # the rated-event checks first, as a section of their own grouped per event file
    rated = sorted(
        (p for p in checks if p.code in RATED_EVENT_CODES), key=lambda p: p.location.file
    )
    others = [p for p in checks if p.code not in RATED_EVENT_CODES]
    for kind, problems in (
        ("rated event", rated),
        ("warning", others),
        ("skipped", skipped),
        ("note", notes),
    ):
        for p in problems:
            loc = p.location
            label = kind if kind != "warning" or not p.is_error else "error"
            if p.code == ADJUSTMENT_CODE:
                label = "adjustment"  # an officer's decision applied (--events)
            rows.append((kinds[label], loc.file, loc.line, loc.column, p.code, p.message))
    if not rows:
        rows.append((kinds["note"], "", None, None, "", _("No warnings: every input was clean.")))
    frame = pl.DataFrame(
        rows,
        schema={
            "kind": pl.String,
            "file": pl.String,
            "line": pl.Int64,
            "column": pl.String,
            "code": pl.String,
            "message": pl.String,
        },
        orient="row",
    )
    cols = [
        Col(_("Kind"), pl.col("kind")),
        Col(_("File"), pl.col("file")),
        Col(_("Line"), pl.col("line"), "int"),
        Col(_("Column"), pl.col("column")),
        Col(_("Code"), pl.col("code")),
        Col(_("Message"), pl.col("message")),
    ]
    return TableSheet(_("Checks"), frame, cols)


# --- Identities -------------------------------------------------------------------------


def identities_sheet(identities: pl.DataFrame, tr: Translator | None = None) -> TableSheet:
    """Every player entry and who it was taken to be (the identity stage's table, already
    ambiguous and unmatched first)."""
    _ = (tr or translator())._
    cols = [
        Col(_("Status"), pl.col("status")),
        Col(_("Event"), pl.col("event")),
        Col(_("File"), pl.col("file")),
        Col(_("Line"), pl.col("line"), "int"),
        Col(_("No."), pl.col("start_no"), "int"),
        Col(_("Name"), pl.col("name")),
        Col(_("Fed"), pl.col("federation")),
        Col(_("Rating"), pl.col("rating"), "int"),
        Col(_("FIDE ID"), pl.col("fide_id"), "int"),
        Col(_("Method"), pl.col("method")),
        Col(_("Candidates"), pl.col("candidates")),
        Col(_("Evidence"), pl.col("evidence")),
    ]
    return TableSheet(_("Identities"), identities, cols)


# --- Performance ------------------------------------------------------------------------


def performance_sheet(performance: pl.DataFrame, tr: Translator | None = None) -> TableSheet:
    """performance.csv's rows (pipeline.norms.performance): the norm Rp (B.01), C.07's
    ARO and TPR, and the FIDE-rated-opponents-only view. Ra and Rp per norm sought, with
    its floor, are in performance.csv and, for the players near a norm, on the Norms
    sheet (a sheet of every player would hold 8 more columns nobody reads).
    Headers that are the regulations' symbols (Ra, dp, Rp, ARO, TPR, Rc) stay as they are."""
    _ = (tr or translator())._

    cols = [
        Col(_("Event"), pl.col("event")),
        Col(_("Name"), pl.col("name")),
        Col(_("FIDE ID"), pl.col("fide_id"), "int"),
        Col(_("List"), pl.col("list")),
        Col(_("Games"), pl.col("games"), "int"),
        Col(_("Score"), pl.col("score"), "score"),
        Col("Ra", pl.col("ra"), "int"),
        Col("%", pl.col("percentage"), "int"),
        Col("dp", pl.col("dp"), "signed0"),
        Col("Rp", pl.col("rp"), "int"),
        Col("ARO", pl.col("aro"), "int"),
        Col("TPR", pl.col("tpr"), "int"),
        Col(_("Rated games"), pl.col("rated_games"), "int"),
        Col(_("Rated score"), pl.col("rated_score"), "score"),
        Col("Rc", pl.col("rc"), "int"),
        Col("Rc %", pl.col("rated_percentage"), "int"),
        Col("Rc dp", pl.col("rated_dp"), "signed0"),
        Col("Rc + dp", pl.col("rated_performance"), "int"),
    ]
    return TableSheet(_("Performance"), performance, cols)
