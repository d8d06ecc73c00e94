"""Who is who and which games count: the first half of `pipeline.rate`.

`resolve_players` gives every player entry its identity across events, its rating Ro on
the event's list and the facts K is derived from; `classify_games` joins both sides of
every game entry and decides whether it is rated, and if not, why (the `reason` of
games.csv). Everything is vectorized polars; ratings are Int64, scores and PD Int64
hundredths (fide-rules.md §1-§4).

Choices (documented in the README of `elo run` and the report to the lead):
- Identity: ``fide:<id>`` for a player with a FIDE ID (the file's, or linked by
  `pipeline.identity`), merged across events; else the identity stage's `person_key`
  (``name:<key>|<fed>``: one player of several events, by name); else
  ``event:<event_id>#<start_no>``, never merged.
- Ro: the registry's rating for the event's list when a registry is given, covers that
  list (has a non-null value in that list's rating column) and holds the player; for
  rapid/blitz a player unrated there but rated in standard uses the standard rating
  (§1). Otherwise the event file's rating, treated as that list's rating; if the files
  of one period disagree, the first event's (by start date) non-null rating is used and
  the others get a ``rating-inconsistent`` warning. A file rating that disagrees with the
  registry gets a ``rating-mismatch`` warning and the registry wins.
- K inputs: the registry's K of that list when > 0; career games are unknown (FIDE's
  `games` column counts the last period only), so a derived K treats the player as
  established; "ever reached 2400" is known only from a GM or IM title (both require
  it) or a current rating >= 2400.
"""

from __future__ import annotations

import polars as pl

from pipeline.errors import Location, Problem, Severity
from pipeline.identity.link import PERSON_KEY
from pipeline.rate_lists import (
    LIST_KEY,
    RO_MONTH,
    person_key_expr,
    registry_long,
    start_long,
)
from pipeline.rules.vector import difference_used_expr, expected_expr, rule_600_expr
from schemas.ingest import Events, Games, Players
from schemas.registry import Registry

E_ID = str(Events.event_id)
E_FILE = str(Events.file)
E_NAME = str(Events.name)
E_SOURCE = str(Events.source)
E_LIST = str(Events.list)
P_NO = str(Players.start_no)
P_NAME = str(Players.name)
P_FIDE = str(Players.fide_id)
P_FED = str(Players.federation)
P_TITLE = str(Players.title)
P_BIRTH = str(Players.birth_year)
P_RATING = str(Players.rating)
P_LINE = str(Players.line)
G_ROUND = str(Games.round)
G_NO = str(Games.start_no)
G_OPP = str(Games.opponent_no)
G_COLOUR = str(Games.colour)
G_CODE = str(Games.code)
G_SCORE = str(Games.score)
G_PLAYED = str(Games.played)
G_LINE = str(Games.line)
G_COLUMN = str(Games.column)
R_ID = str(Registry.fideid)

# internal column names shared with rate.py / rate_initial.py
KEY = "player_key"
OPP_KEY = "opponent_key"
RO = "ro"  # the rating used (Ro), null = unrated on that list
OPP_RO = "opponent_ro"
RO_SOURCE = "rating_source"  # registry | registry-standard | file | (null: unrated)
FILE_RATING = "file_rating"
EV_ORDER = "event_order"  # events by start date (nulls last), then input order
GIVEN_K = "given_k"
EVER_2400 = "ever_2400"
SCORE_H = "score_h"
D = "difference"
D_USED = "difference_used"
PD_H = "expected_h"
DELTA_H = "delta_h"
REASON = "reason"
RATED = "rated"

TOP_TITLES = ["GM", "IM", "G", "M"]  # titles that require a 2400+ rating (§5 rule 1)
_TRF_RATING_COLUMN = "49-52"
BASE_RO = "base_ro"  # the rating on the base list (the rating before the period)
FACING_RO = "facing_ro"  # the rating the player's opponents are rated against
CAREER = "career_games"  # career games on that list before the period (null: unknown)


def _optional(df: pl.DataFrame, name: str, dtype: pl.DataType) -> pl.Expr:
    """A column of `df`, or nulls of `dtype` when the frame lacks it."""
    if name in df.columns:
        return pl.col(name).cast(dtype)
    return pl.lit(None, dtype=dtype)


def resolve_players(
    players: pl.DataFrame,
    events: pl.DataFrame,
    registry: pl.DataFrame | None,
    start_lists: pl.DataFrame | None = None,
) -> tuple[pl.DataFrame, list[Problem]]:
    """Every player entry with its identity, Ro and K inputs.

    `events` must carry `event_order` (see rate.py), and RO_MONTH where an event is rated
    from an earlier start list (`pipeline.rate_lists`). Returns one row per player entry
    (event_id, start_no, player_key, list, fide_id, name, ..., ro, base_ro, facing_ro,
    rating_source, given_k, career_games, ever_2400, birth_year) and the warnings
    (rating-mismatch, rating-inconsistent).
    """
    ev = events.select(
        E_ID, E_LIST, E_FILE, E_SOURCE, EV_ORDER, _optional(events, RO_MONTH, pl.String())
    )
    entries = (
        players.select(
            pl.col(E_ID),
            pl.col(P_NO),
            pl.col(P_NAME),
            _optional(players, P_FIDE, pl.Int64()).alias(P_FIDE),
            _optional(players, P_FED, pl.String()).alias(P_FED),
            _optional(players, P_TITLE, pl.String()).alias(P_TITLE),
            _optional(players, P_BIRTH, pl.Int64()).alias(P_BIRTH),
            _optional(players, P_RATING, pl.Int64()).alias(FILE_RATING),
            _optional(players, P_LINE, pl.Int64()).alias(P_LINE),
            _optional(players, PERSON_KEY, pl.String()).alias(PERSON_KEY),
        )
        .join(ev, on=E_ID, how="left")
        .with_columns(
            pl.when(pl.col(P_FIDE).is_not_null())
            .then(pl.format("fide:{}", pl.col(P_FIDE)))
            .when(pl.col(PERSON_KEY).is_not_null())
            .then(pl.col(PERSON_KEY))
            .otherwise(pl.format("event:{}#{}", pl.col(E_ID), pl.col(P_NO)))
            .alias(KEY)
        )
        .drop(PERSON_KEY)
        .sort(EV_ORDER, P_NO)
    )
    entries = _find_in_lists(entries, registry, start_lists)
    over = [KEY, E_LIST]
    first_rating = pl.col(FILE_RATING).drop_nulls().first().over(over)
    fallback = (pl.col(E_LIST) != "standard") & pl.col("reg_rating").is_null()
    entries = entries.with_columns(
        first_file_rating=first_rating,
        reg_ro=pl.coalesce(
            "reg_rating", pl.when(pl.col(E_LIST) != "standard").then(pl.col("reg_standard"))
        ),
    ).with_columns(
        pl.when(pl.col("in_registry"))
        .then(pl.col("reg_ro"))
        .otherwise(pl.col("first_file_rating"))
        .alias(BASE_RO),
        pl.when(pl.col("in_registry") & pl.col("reg_ro").is_not_null())
        .then(pl.when(fallback).then(pl.lit("registry-standard")).otherwise(pl.lit("registry")))
        .when(~pl.col("in_registry") & pl.col("first_file_rating").is_not_null())
        .then(pl.lit("file"))
        .alias(RO_SOURCE),
        pl.when(pl.col("in_registry") & (pl.col("reg_k") > 0)).then(pl.col("reg_k")).alias(GIVEN_K),
        pl.when(pl.col("in_registry")).then(pl.col("reg_career")).alias(CAREER),
        pl.coalesce("reg_birth_year", pl.col(P_BIRTH).drop_nulls().first().over(over)).alias(
            P_BIRTH
        ),
        pl.coalesce(pl.col(P_TITLE).drop_nulls().first().over(over), "reg_title").alias(P_TITLE),
        pl.coalesce(pl.col(P_FED).drop_nulls().first().over(over), "reg_federation").alias(P_FED),
    )
    # An event rated from its start list: Ro from that list; a player published since
    # is rated as a rated player, and counts as unrated for the opponents (§6).
    in_start = pl.col("in_start").fill_null(False)
    entries = entries.with_columns(
        pl.when(in_start)
        .then(pl.coalesce("start_ro", BASE_RO))
        .otherwise(pl.col(BASE_RO))
        .alias(RO),
        pl.when(in_start).then(pl.col("start_ro")).otherwise(pl.col(BASE_RO)).alias(FACING_RO),
    )
    entries = entries.with_columns(
        (
            pl.col(P_TITLE).str.to_uppercase().is_in(TOP_TITLES).fill_null(False)
            | pl.col("reg_ever").fill_null(False)
        )
        .any()
        .over(over)
        .alias(EVER_2400)
    )
    return entries, _rating_problems(entries)


def _find_in_lists(
    entries: pl.DataFrame, registry: pl.DataFrame | None, start_lists: pl.DataFrame | None
) -> pl.DataFrame:
    """Join each entry to its base-list row (by FIDE ID or person key; an entry of one
    event without an ID is the list's person of its name and federation, when the event
    holds that name once) and, for events with RO_MONTH, to its start-list row."""
    no_id = registry is not None and registry[R_ID].null_count() > 0
    lookup = pl.col(KEY)
    if no_id:
        person = person_key_expr(pl.col(P_NAME), pl.col(P_FED))
        lookup = (
            pl.when(pl.col(KEY).str.starts_with("event:") & (pl.len().over(E_ID, person) == 1))
            .then(person)
            .otherwise(pl.col(KEY))
        )
    entries = entries.with_columns(lookup.alias("_lookup"))
    name_keys = entries.filter(pl.col("_lookup").str.starts_with("name:"))["_lookup"]
    reg = registry_long(registry, entries[P_FIDE], name_keys)
    entries = (
        entries.join(reg, left_on=["_lookup", E_LIST], right_on=[LIST_KEY, E_LIST], how="left")
        .with_columns(pl.col("in_registry").fill_null(False))
        .with_columns(
            pl.when(pl.col("in_registry")).then(pl.col("_lookup")).otherwise(pl.col(KEY)).alias(KEY)
        )
        .drop("_lookup")
    )
    start = start_long(start_lists)
    return entries.join(
        start,
        left_on=[KEY, E_LIST, RO_MONTH],
        right_on=[LIST_KEY, E_LIST, RO_MONTH],
        how="left",
    )


def _rating_problems(entries: pl.DataFrame) -> list[Problem]:
    """rating-mismatch (file vs registry) and rating-inconsistent (file vs file)."""
    file_r = pl.col(FILE_RATING)
    mismatch = pl.col("in_registry") & (
        (file_r.is_not_null() & file_r.ne_missing(pl.col(RO)))
        | (file_r.is_null() & pl.col(RO).is_not_null() & (pl.col(RO_SOURCE) == "registry"))
    )
    inconsistent = ~pl.col("in_registry") & file_r.is_not_null() & (file_r != pl.col(RO))
    rows = (
        entries.with_columns(
            mismatch.alias("_mismatch"),
            pl.col(E_FILE).first().over([KEY, E_LIST], order_by=EV_ORDER).alias("_first_file"),
        )
        .filter(mismatch | inconsistent)
        .sort(EV_ORDER, P_NO)
    )
    problems: list[Problem] = []
    for r in rows.iter_rows(named=True):
        column = _rating_column(r[E_SOURCE])
        got = "unrated" if r[FILE_RATING] is None else str(r[FILE_RATING])
        if r["_mismatch"]:
            expected = "unrated" if r[RO] is None else str(r[RO])
            source = "standard rating" if r[RO_SOURCE] == "registry-standard" else "rating"
            message = (
                f"expected {expected} (the registry's {r[E_LIST]} {source} of {_who(r)}), "
                f"got {got}; the registry value is used"
            )
            code = "rating-mismatch"
        else:
            message = (
                f"expected {r[RO]} (the rating of {_who(r)} in {r['_first_file']}), "
                f"got {got}; the first event's rating is used for the period"
            )
            code = "rating-inconsistent"
        problems.append(
            Problem(Location(r[E_FILE], r[P_LINE], column), code, message, Severity.WARNING)
        )
    return problems


def _who(r: dict[str, object]) -> str:
    return f"FIDE ID {r[P_FIDE]}" if r[P_FIDE] is not None else repr(r[P_NAME])


def _rating_column(source: str | None) -> str:
    if source is not None and source.startswith("trf"):
        return _TRF_RATING_COLUMN
    if source is not None and source.startswith("crosstable"):
        return "Rtg"
    return P_RATING


def classify_games(
    games: pl.DataFrame, events: pl.DataFrame, entries: pl.DataFrame
) -> pl.DataFrame:
    """Both sides of every game entry with Ro, D, D used, PD, ΔR and the reason.

    `events` carries the event's rule set as ``rs_`` columns (pipeline.rules.vector)
    plus `event_order`; `entries` is `resolve_players`' frame.
    """
    me = entries.select(E_ID, P_NO, KEY, P_FIDE, P_NAME, RO)
    opp = entries.select(
        pl.col(E_ID),
        pl.col(P_NO).alias(G_OPP),
        pl.col(KEY).alias(OPP_KEY),
        pl.col(P_FIDE).alias("opponent_fide_id"),
        pl.col(P_NAME).alias("opponent_name"),
        pl.col(FACING_RO).alias(OPP_RO),
    )
    ev = events.select(
        E_ID,
        E_LIST,
        pl.col(E_NAME).alias("tournament"),
        EV_ORDER,
        "rs_cap",
        "rs_cap_mode",
        "rs_cap_exempt_from",
        "rs_rule_600",
    )
    g = (
        games.select(
            E_ID,
            G_ROUND,
            G_NO,
            _optional(games, G_OPP, pl.Int64()).alias(G_OPP),
            _optional(games, G_COLOUR, pl.String()).alias(G_COLOUR),
            pl.col(G_CODE).str.to_uppercase(),
            G_SCORE,
            _optional(games, G_PLAYED, pl.Boolean()).fill_null(False).alias(G_PLAYED),
            _optional(games, G_LINE, pl.Int64()).alias(G_LINE),
            _optional(games, G_COLUMN, pl.String()).alias(G_COLUMN),
        )
        .join(ev, on=E_ID, how="left")
        .join(me, on=[E_ID, G_NO], how="left")
        .join(opp, on=[E_ID, G_OPP], how="left")
    )
    code = pl.col(G_CODE)
    ratings_known = pl.col(RO).is_not_null() & pl.col(OPP_RO).is_not_null()
    not_600 = ~rule_600_expr(pl.col(RO), pl.col(OPP_RO), pl.col("rs_rule_600"))
    reason = (
        pl.when(pl.col(G_OPP).is_null() | code.is_in(["H", "F", "U", "Z"]))
        .then(pl.lit("bye"))
        .when(code.is_in(["+", "-"]))
        .then(pl.lit("forfeit"))
        .when(code.is_in(["W", "D", "L"]))
        .then(pl.lit("under-one-move"))
        .when(~pl.col(G_PLAYED) | pl.col(OPP_KEY).is_null())
        .then(pl.lit("unplayed"))
        .when(pl.col(OPP_RO).is_null())
        .then(pl.lit("opponent-unrated"))
        .when(pl.col(RO).is_null())
        .then(pl.lit("player-unrated"))
        .when(~not_600)
        .then(pl.lit("rule-600"))
        .otherwise(pl.lit(""))
    )
    g = g.with_columns(
        reason.alias(REASON),
        (pl.col(G_SCORE) * 100).round(0).cast(pl.Int64).alias(SCORE_H),
    ).with_columns((pl.col(REASON) == "").alias(RATED))
    d = pl.col(RO) - pl.col(OPP_RO)
    shown = ratings_known & pl.col(REASON).is_in(["", "rule-600"])
    g = g.with_columns(
        pl.when(shown).then(d).alias(D),
        difference_used_expr(
            pl.when(pl.col(RATED)).then(d),
            pl.col(RO),
            pl.col("rs_cap"),
            pl.col("rs_cap_mode"),
            pl.col("rs_cap_exempt_from"),
            over=[E_ID, G_NO],
            order_by=G_ROUND,
        ).alias(D_USED),
    )
    g = g.with_columns(
        pl.when(pl.col(RATED)).then(expected_expr(pl.col(D_USED))).alias(PD_H)
    ).with_columns((pl.col(SCORE_H) - pl.col(PD_H)).alias(DELTA_H))
    return g.drop("rs_cap", "rs_cap_mode", "rs_cap_exempt_from", "rs_rule_600")
