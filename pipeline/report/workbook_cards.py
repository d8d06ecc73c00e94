"""The Cards sheet: one block per player, laid out like FIDE's individual calculation page.

    Doe, John            FIDE ID 12345678 · GER · IM · standard list · Ro 1850 · K 20
    Spring Open 2025 · 2025-03-01                                       (per event)
    Rd | Opponent | Opp. FIDE ID | Opp. rating | Result | D | D used | PD | ΔR | K·ΔR
    ... one row per game that counts ...
    Event  | 7 games           |  |  | 4.5 |  |  | 3.91 | +0.59 | +11.80  (several events)
    Period | 9 games, 2 events |  |  | 6.0 |  |  | 5.10 | +0.90 | +18.00
           | Rating change (rounded)                           | +18
           | New rating                                        | 1868

Only games that count are listed: rated games, and for an unrated player the games toward
an initial rating (their ΔR columns stay empty). Built as one polars frame (no per-game
Python loop); each shown column i is three frame columns: t{i} text, n{i} number, s{i}
style id (a null style with no value leaves the cell out). Words and dates are in the
translator's language (`tr`, English by default).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass

import polars as pl

from pipeline.i18n import DEFAULT_LANG, N_, Translator, translator
from pipeline.report import columns as c
from pipeline.report.workbook_sheets import k_times_delta, with_k
from pipeline.report.workbook_xml import CellSpec

N_COLS = 10
HEADERS = [N_("Rd"), N_("Opponent"), N_("Opp. FIDE ID"), N_("Opp. rating"), N_("Result")]
HEADERS += ["D", N_("D used"), "PD", "ΔR", "K·ΔR"]  # symbols are not translated
WIDTHS = [8.0, 26.0, 12.0, 11.0, 8.0, 7.0, 8.0, 7.0, 8.0, 9.0]
assert len(HEADERS) == len(WIDTHS) == N_COLS
BAND = 0  # row kind of a block's first row
INFO_COLUMN = 3  # the band row: name in A (overflowing into B, C), details from D on


@dataclass(frozen=True)
class CardsFrame:
    frame: pl.DataFrame  # sorted rows: t0..t9, n0..n9, s0..s9, _kind
    players: int  # players shown
    total_players: int  # players with games that count
    total_rows: int  # rows all their blocks would take

    @property
    def height(self) -> int:
        return self.frame.height

    def block_starts(self) -> list[int]:
        """Row positions where a player's block starts (where a sheet may be split)."""
        return (
            self.frame.with_row_index("_pos")
            .filter(pl.col("_kind") == BAND)["_pos"]
            .cast(pl.Int64)
            .to_list()
        )


def card_widths(tr: Translator) -> list[float]:
    """The column widths: WIDTHS, widened where a translated header or row label needs
    more room (bold letters: about 1.1 digit widths each, plus a margin). English keeps
    WIDTHS as they are."""
    widths = list(WIDTHS)
    if tr.lang == DEFAULT_LANG:
        return widths
    texts = {i: [tr._(header)] for i, header in enumerate(HEADERS)}
    texts[0] += [tr._("Event"), tr._("Period")]
    for i, items in texts.items():
        widths[i] = max(widths[i], *(round(len(text) * 1.1 + 1, 1) for text in items))
    return widths


def cell_specs() -> list[CellSpec]:
    return [
        CellSpec(
            text=pl.col(f"t{i}"),
            number=pl.col(f"n{i}"),
            style=pl.col(f"s{i}").fill_null(0),
            styled_empty=pl.col(f"s{i}").is_not_null(),
        )
        for i in range(N_COLS)
    ]


def _player_key(frame: pl.DataFrame, other: pl.DataFrame, fide: str, name: str) -> pl.Expr:
    if c.X_PLAYER_KEY in frame.columns and c.X_PLAYER_KEY in other.columns:
        return pl.col(c.X_PLAYER_KEY).cast(pl.String)
    ident = pl.concat_str([pl.lit("id:"), pl.col(fide).cast(pl.Int64).cast(pl.String)])
    return pl.coalesce(ident, pl.concat_str([pl.lit("name:"), pl.col(name)]))


# the games' columns the cards read (the others are left out before any copy)
_CARD_GAME_COLUMNS = frozenset(
    {
        c.G_LIST,
        c.G_FIDE_ID,
        c.G_NAME,
        c.G_TOURNAMENT,
        c.G_ROUND,
        c.G_OPPONENT_NAME,
        c.G_OPPONENT_FIDE_ID,
        c.G_OPPONENT_RATING,
        c.G_RESULT,
        c.G_SCORE,
        c.G_DIFFERENCE,
        c.G_DIFFERENCE_USED,
        c.G_EXPECTED,
        c.G_DELTA,
        c.G_RATED,
        c.G_REASON,
        c.X_K,
        c.X_PLAYER_KEY,
        c.X_EVENT_ID,
        c.X_COUNTS_INITIAL,
    }
)


def _counting(games: pl.DataFrame) -> pl.Expr:
    rated = pl.col(c.G_RATED).fill_null(False)
    if c.X_COUNTS_INITIAL in games.columns:
        return rated | pl.col(c.X_COUNTS_INITIAL).fill_null(False)
    return rated | (pl.col(c.G_REASON) == "player-unrated").fill_null(False)


def _row(
    keys: Mapping[str, pl.Expr | int],
    cells: Mapping[int, tuple[pl.Expr | str | None, str]],
    styles: Mapping[str, int],
    *,
    fill: str | None = None,
) -> list[pl.Expr]:
    """Expressions for one kind of card row. `cells` maps a column to (value, style): a
    str value is a literal label; an Expr goes to t{i} when its style is a text style, else
    to n{i}. Columns not given get the `fill` style (an empty cell of a band) or nothing."""
    out: list[pl.Expr] = [
        (v if isinstance(v, pl.Expr) else pl.lit(v, dtype=pl.Int64)).alias(k)
        for k, v in keys.items()
    ]
    for i in range(N_COLS):
        value, style = cells.get(i, (None, fill or ""))
        text: pl.Expr = pl.lit(None, dtype=pl.String)
        number: pl.Expr = pl.lit(None, dtype=pl.Float64)
        if isinstance(value, str):
            text = pl.lit(value, dtype=pl.String)
        elif isinstance(value, pl.Expr) and style in _TEXT_STYLES:
            text = value.cast(pl.String)
        elif isinstance(value, pl.Expr):
            number = value.cast(pl.Float64)
        sid = pl.lit(styles[style], dtype=pl.Int64) if style else pl.lit(None, dtype=pl.Int64)
        out += [text.alias(f"t{i}"), number.alias(f"n{i}"), sid.alias(f"s{i}")]
    return out


_TEXT_STYLES = {"text", "center", "band", "band_info", "event", "head", "head_right", "head_center"}
_TEXT_STYLES |= {"total_text", "total_label", "period_text", "period_label", "result_text"}
_HEAD_STYLES = {1: "head", 4: "head_center"}


def fill_template(template: str, **fields: pl.Expr) -> pl.Expr:
    """A text expression from a (translated) template with `{name}` fields: its literal
    parts and the fields' expressions, concatenated (null where a field is null)."""
    parts: list[pl.Expr] = []
    for i, piece in enumerate(re.split(r"\{(\w+)\}", template)):
        if i % 2:
            parts.append(fields[piece].cast(pl.String))
        elif piece:
            parts.append(pl.lit(piece))
    return pl.concat_str(parts)


def _info_line(ratings: pl.DataFrame, tr: Translator) -> pl.Expr:
    ro = pl.col(c.RATING_BEFORE).cast(pl.String)
    list_name = pl.col(c.LIST).cast(pl.String)
    for name in ("standard", "rapid", "blitz"):
        list_name = pl.when(pl.col(c.LIST) == name).then(pl.lit(tr._(name))).otherwise(list_name)
    parts = [
        fill_template(tr._("FIDE ID {id}"), id=pl.col(c.FIDE_ID)).fill_null(tr._("no FIDE ID")),
        pl.col(c.FEDERATION),
        c.optional(ratings, c.X_TITLE, pl.String()),
        fill_template(tr._("{list} list"), list=list_name),
        pl.coalesce(fill_template(tr._("Ro {rating}"), rating=ro), pl.lit(tr._("unrated"))),
        fill_template(tr._("K {k}"), k=pl.col(c.K)),
    ]
    return pl.concat_str(parts, separator=" · ", ignore_nulls=True)


def _count_noun(n: pl.Expr, one: str, many: str) -> pl.Expr:
    """`{n} game(s)` by the count: the catalog's forms for one (`one`) and for more or
    none (`many`): the plural rule of English, Spanish and Italian for a count below a
    million."""
    return pl.when(n == 1).then(fill_template(one, n=n)).otherwise(fill_template(many, n=n))


def _games_noun(n: pl.Expr, tr: Translator) -> pl.Expr:
    one, many = (tr.ngettext("{n} game", "{n} games", count) for count in (1, 2))
    return _count_noun(n, one, many)


def _events_noun(n: pl.Expr, tr: Translator) -> pl.Expr:
    one, many = (tr.ngettext("{n} event", "{n} events", count) for count in (1, 2))
    return _count_noun(n, one, many)


def _event_dates(events: pl.DataFrame, tr: Translator) -> pl.Expr:
    """An event's start date as text: ISO (English), else the translator's long date (each
    distinct date formatted once)."""
    if tr.iso_dates or c.E_START not in events.columns:
        return pl.col(c.E_START).cast(pl.String)
    start = pl.col(c.E_START).cast(pl.Date)
    days = [d for d in events[c.E_START].cast(pl.Date).unique().to_list() if isinstance(d, dt.date)]
    if not days:
        return start.cast(pl.String)
    return start.replace_strict(days, [tr.date(d) for d in days], return_dtype=pl.String)


def build_cards(
    games: pl.DataFrame,
    ratings: pl.DataFrame,
    events: pl.DataFrame,
    styles: Mapping[str, int],
    max_rows: int | None = None,
    tr: Translator | None = None,
) -> CardsFrame:
    """The card rows of every player with games that count, in Summary order; with
    `max_rows`, only the first players whose blocks fit (at least one player)."""
    tr = tr or translator()
    # the players in Summary order, their block sizes and the cap first, from narrow key
    # columns; then only the shown players' games are cut from the games frame
    base = with_k(games.select(col for col in games.columns if col in _CARD_GAME_COLUMNS), ratings)
    ev_key = c.X_EVENT_ID if c.X_EVENT_ID in games.columns and c.E_ID in events.columns else None
    game_keys = base.select(
        pl.col(c.G_LIST),
        _player_key(games, ratings, c.G_FIDE_ID, c.G_NAME).alias("_pk"),
        pl.col(ev_key or c.G_TOURNAMENT).alias("_ek"),
        _counting(games).alias("_counts"),
    )
    counted = game_keys.filter(pl.col("_counts"))
    # event order and title: events frame order, else first appearance in the games
    if ev_key is not None:
        ev = events.select(
            pl.col(c.E_ID).alias("_ek"),
            pl.int_range(pl.len(), dtype=pl.Int64).alias("_ei"),
            pl.concat_str(
                [pl.col(c.E_NAME), _event_dates(events, tr)],
                separator=" · ",
                ignore_nulls=True,
            ).alias("_etitle"),
        )
    else:
        firsts = counted.select(pl.col("_ek").unique(maintain_order=True))
        ev = firsts.with_columns(
            pl.int_range(pl.len(), dtype=pl.Int64).alias("_ei"), pl.col("_ek").alias("_etitle")
        )
    per_player = (
        counted.join(ev.select("_ek", "_ei"), on="_ek", how="left", maintain_order="left")
        .group_by(c.G_LIST, "_pk")
        .agg(pl.col("_ei").n_unique().alias("_events"), pl.len().alias("_n"))
    )
    r = ratings.sort(
        [c.list_rank(pl.col(c.LIST)), pl.col(c.NAME), pl.col(c.FIDE_ID)],
        nulls_last=True,
        maintain_order=True,
    ).with_columns(_player_key(ratings, games, c.FIDE_ID, c.NAME).alias("_pk"))
    # without rate.py's player_key, two players without ID may share a name: one card
    r = r.unique([c.LIST, "_pk"], keep="first", maintain_order=True)
    r = r.join(
        per_player,
        left_on=[c.LIST, "_pk"],
        right_on=[c.G_LIST, "_pk"],
        maintain_order="left",
    )
    r = r.with_columns(pl.int_range(pl.len(), dtype=pl.Int64).alias("_pi"))
    # band; per event: title, header, games, subtotal (only with several events);
    # period; rating change (rated players); new rating
    n_ev = pl.col("_events")
    block = 1 + 2 * n_ev + pl.col("_n") + pl.when(n_ev > 1).then(n_ev).otherwise(0)
    block = block + 2 + (pl.col(c.STATUS) == "rated").cast(pl.Int64)
    sizes = r.select(block.cum_sum().alias("_end"))["_end"]
    total_players, total_rows = r.height, int(sizes[-1]) if r.height else 0
    if max_rows is not None and total_rows > max_rows:
        keep = max(1, int((sizes <= max_rows).sum()))
        r = r.filter(pl.col("_pi") < keep)
    shown = game_keys.join(
        r.select(c.LIST, "_pk", "_pi"),
        left_on=[c.G_LIST, "_pk"],
        right_on=[c.LIST, "_pk"],
        how="left",
        maintain_order="left",
    )
    g = base.hstack([game_keys["_pk"], game_keys["_ek"], shown["_pi"]]).filter(
        game_keys["_counts"] & shown["_pi"].is_not_null()
    )
    g = g.join(ev, on="_ek", how="left", maintain_order="left")

    rated = pl.col(c.G_RATED).fill_null(False)
    g = g.with_columns(
        pl.when(rated).then(pl.col(c.G_EXPECTED)).alias("_pd"),
        pl.when(rated).then(pl.col(c.G_DELTA)).alias("_dr"),
        pl.when(rated).then(k_times_delta(pl.col("_k"), pl.col(c.G_DELTA))).alias("_kdr"),
    )
    per_event = g.group_by("_pi", "_ei", maintain_order=True).agg(
        pl.first("_etitle"),
        pl.len().alias("_n"),
        pl.col(c.G_SCORE).sum().alias("_score"),
        rated.sum().alias("_nrated"),
        (c.hundredths(pl.col("_pd")).sum() / 100).alias("_pd"),
        (c.hundredths(pl.col("_dr")).sum() / 100).alias("_dr"),
        (c.hundredths(pl.col("_kdr")).sum() / 100).alias("_kdr"),
    )
    per_event = per_event.with_columns(
        pl.when(pl.col("_nrated") > 0).then(pl.col(x)).alias(x) for x in ("_pd", "_dr", "_kdr")
    )
    per_event = per_event.with_columns(pl.len().over("_pi").alias("_events"))

    s = styles
    kind = 0

    def keys(sec: int, ei: pl.Expr | int = 0, rd: pl.Expr | int = 0) -> dict[str, pl.Expr | int]:
        nonlocal kind
        kind += 1
        return {"_pi": pl.col("_pi"), "_sec": sec, "_ei": ei, "_kind": kind - 1, "_rd": rd}

    is_rated = pl.col(c.STATUS) == "rated"
    score_h = c.hundredths(pl.col(c.SCORE))
    sum_dr = pl.when(is_rated).then((score_h - c.hundredths(pl.col(c.EXPECTED))) / 100)
    result_label = (
        pl.when(pl.col(c.STATUS) == "initial")
        .then(pl.lit(tr._("Initial rating")))
        .when(pl.col(c.STATUS) == "unrated")
        .then(pl.lit(tr._("Not yet rated")))
        .otherwise(pl.lit(tr._("New rating")))
    )
    parts = [
        r.select(
            _row(
                keys(0),
                {0: (pl.col(c.NAME), "band"), INFO_COLUMN: (_info_line(ratings, tr), "band_info")},
                s,
                fill="band",
            )
        ),
        per_event.select(_row(keys(1, pl.col("_ei")), {0: (pl.col("_etitle"), "event")}, s)),
        per_event.select(
            _row(
                keys(1, pl.col("_ei")),
                {i: (tr._(h), _HEAD_STYLES.get(i, "head_right")) for i, h in enumerate(HEADERS)},
                s,
            )
        ),
        g.select(
            _row(
                keys(1, pl.col("_ei"), pl.col(c.G_ROUND)),
                {
                    0: (pl.col(c.G_ROUND), "int"),
                    1: (pl.col(c.G_OPPONENT_NAME), "text"),
                    2: (pl.col(c.G_OPPONENT_FIDE_ID), "int"),
                    3: (pl.col(c.G_OPPONENT_RATING), "int"),
                    4: (pl.col(c.G_RESULT), "center"),
                    5: (pl.col(c.G_DIFFERENCE), "signed0"),
                    6: (pl.col(c.G_DIFFERENCE_USED), "signed0"),
                    7: (pl.col("_pd"), "pd"),
                    8: (pl.col("_dr"), "signed2"),
                    9: (pl.col("_kdr"), "signed2"),
                },
                s,
            )
        ),
        per_event.filter(pl.col("_events") > 1).select(
            _row(
                keys(1, pl.col("_ei")),
                {
                    0: (tr._("Event"), "total_label"),
                    1: (_games_noun(pl.col("_n"), tr), "total_text"),
                    4: (pl.col("_score"), "total_score"),
                    7: (pl.col("_pd"), "total_pd"),
                    8: (pl.col("_dr"), "total_signed2"),
                    9: (pl.col("_kdr"), "total_signed2"),
                },
                s,
                fill="total_text",
            )
        ),
        r.select(
            _row(
                keys(2),
                {
                    0: (tr._("Period"), "period_label"),
                    1: (
                        pl.concat_str(
                            [
                                _games_noun(pl.col(c.GAMES), tr),
                                _events_noun(pl.col("_events"), tr),
                            ],
                            separator=", ",
                        ),
                        "period_text",
                    ),
                    4: (pl.col(c.SCORE), "period_score"),
                    7: (pl.when(is_rated).then(pl.col(c.EXPECTED)), "period_pd"),
                    8: (sum_dr, "period_signed2"),
                    9: (pl.when(is_rated).then(pl.col(c.CHANGE_UNROUNDED)), "period_signed2"),
                },
                s,
                fill="period_text",
            )
        ),
        r.filter(is_rated).select(
            _row(
                keys(2),
                {
                    1: (tr._("Rating change (rounded)"), "result_text"),
                    9: (pl.col(c.CHANGE), "result_signed0"),
                },
                s,
            )
        ),
        r.select(
            _row(
                keys(2),
                {1: (result_label, "result_text"), 9: (pl.col(c.RATING_AFTER), "result_int")},
                s,
            )
        ),
    ]
    frame = pl.concat(parts, how="vertical").sort(
        "_pi", "_sec", "_ei", "_kind", "_rd", maintain_order=True
    )
    return CardsFrame(frame, r.height, total_players, total_rows)
