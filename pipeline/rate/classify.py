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
from pipeline.rate import columns as c
from pipeline.rate.lists import person_key_expr, registry_long, start_long
from pipeline.rules.vector import difference_used_expr, expected_expr, rule_600_expr
from schemas.columns import E, G, P, R

TOP_TITLES = ["GM", "IM", "G", "M"]  # titles that require a 2400+ rating (§5 rule 1)
_TRF_RATING_COLUMN = "49-52"


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
    from an earlier start list (`pipeline.rate.lists`). Returns one row per player entry
    (event_id, start_no, player_key, list, fide_id, name, ..., ro, base_ro, facing_ro,
    rating_source, given_k, career_games, ever_2400, birth_year) and the warnings
    (rating-mismatch, rating-inconsistent).
    """
    ev = events.select(
        E.ID, E.LIST, E.FILE, E.SOURCE, c.EV_ORDER, _optional(events, c.RO_MONTH, pl.String())
    )
    entries = (
        players.select(
            pl.col(E.ID),
            pl.col(P.NO),
            pl.col(P.NAME),
            _optional(players, P.FIDE, pl.Int64()).alias(P.FIDE),
            _optional(players, P.FED, pl.String()).alias(P.FED),
            _optional(players, P.TITLE, pl.String()).alias(P.TITLE),
            _optional(players, P.BIRTH, pl.Int64()).alias(P.BIRTH),
            _optional(players, P.RATING, pl.Int64()).alias(c.FILE_RATING),
            _optional(players, P.LINE, pl.Int64()).alias(P.LINE),
            _optional(players, PERSON_KEY, pl.String()).alias(PERSON_KEY),
        )
        .join(ev, on=E.ID, how="left")
        .with_columns(
            pl.when(pl.col(P.FIDE).is_not_null())
            .then(pl.format("fide:{}", pl.col(P.FIDE)))
            .when(pl.col(PERSON_KEY).is_not_null())
            .then(pl.col(PERSON_KEY))
            .otherwise(pl.format("event:{}#{}", pl.col(E.ID), pl.col(P.NO)))
            .alias(c.KEY)
        )
        .drop(PERSON_KEY)
        .sort(c.EV_ORDER, P.NO)
    )
    entries = _find_in_lists(entries, registry, start_lists)
    over = [c.KEY, E.LIST]
    first_rating = pl.col(c.FILE_RATING).drop_nulls().first().over(over)
    fallback = (pl.col(E.LIST) != "standard") & pl.col("reg_rating").is_null()
    entries = entries.with_columns(
        first_file_rating=first_rating,
        reg_ro=pl.coalesce(
            "reg_rating", pl.when(pl.col(E.LIST) != "standard").then(pl.col("reg_standard"))
        ),
    ).with_columns(
        pl.when(pl.col("in_registry"))
        .then(pl.col("reg_ro"))
        .otherwise(pl.col("first_file_rating"))
        .alias(c.BASE_RO),
        pl.when(pl.col("in_registry") & pl.col("reg_ro").is_not_null())
        .then(pl.when(fallback).then(pl.lit("registry-standard")).otherwise(pl.lit("registry")))
        .when(~pl.col("in_registry") & pl.col("first_file_rating").is_not_null())
        .then(pl.lit("file"))
        .alias(c.RO_SOURCE),
        pl.when(pl.col("in_registry") & (pl.col("reg_k") > 0))
        .then(pl.col("reg_k"))
        .alias(c.GIVEN_K),
        pl.when(pl.col("in_registry")).then(pl.col("reg_career")).alias(c.CAREER),
        pl.coalesce("reg_birth_year", pl.col(P.BIRTH).drop_nulls().first().over(over)).alias(
            P.BIRTH
        ),
        pl.coalesce(pl.col(P.TITLE).drop_nulls().first().over(over), "reg_title").alias(P.TITLE),
        pl.coalesce(pl.col(P.FED).drop_nulls().first().over(over), "reg_federation").alias(P.FED),
    )
    # An event rated from its start list: Ro from that list; a player published since
    # is rated as a rated player, and counts as unrated for the opponents (§6).
    in_start = pl.col("in_start").fill_null(False)
    entries = entries.with_columns(
        pl.when(in_start)
        .then(pl.coalesce("start_ro", c.BASE_RO))
        .otherwise(pl.col(c.BASE_RO))
        .alias(c.RO),
        pl.when(in_start).then(pl.col("start_ro")).otherwise(pl.col(c.BASE_RO)).alias(c.FACING_RO),
    )
    entries = entries.with_columns(
        (
            pl.col(P.TITLE).str.to_uppercase().is_in(TOP_TITLES).fill_null(False)
            | pl.col("reg_ever").fill_null(False)
        )
        .any()
        .over(over)
        .alias(c.EVER_2400)
    )
    return entries, _rating_problems(entries)


def _find_in_lists(
    entries: pl.DataFrame, registry: pl.DataFrame | None, start_lists: pl.DataFrame | None
) -> pl.DataFrame:
    """Join each entry to its base-list row (by FIDE ID or person key; an entry of one
    event without an ID is the list's person of its name and federation, when the event
    holds that name once) and, for events with RO_MONTH, to its start-list row."""
    no_id = registry is not None and registry[R.ID].null_count() > 0
    lookup = pl.col(c.KEY)
    if no_id:
        person = person_key_expr(pl.col(P.NAME), pl.col(P.FED))
        lookup = (
            pl.when(pl.col(c.KEY).str.starts_with("event:") & (pl.len().over(E.ID, person) == 1))
            .then(person)
            .otherwise(pl.col(c.KEY))
        )
    entries = entries.with_columns(lookup.alias("_lookup"))
    name_keys = entries.filter(pl.col("_lookup").str.starts_with("name:"))["_lookup"]
    reg = registry_long(registry, entries[P.FIDE], name_keys)
    entries = (
        entries.join(reg, left_on=["_lookup", E.LIST], right_on=[c.LIST_KEY, E.LIST], how="left")
        .with_columns(pl.col("in_registry").fill_null(False))
        .with_columns(
            pl.when(pl.col("in_registry"))
            .then(pl.col("_lookup"))
            .otherwise(pl.col(c.KEY))
            .alias(c.KEY)
        )
        .drop("_lookup")
    )
    start = start_long(start_lists)
    return entries.join(
        start,
        left_on=[c.KEY, E.LIST, c.RO_MONTH],
        right_on=[c.LIST_KEY, E.LIST, c.RO_MONTH],
        how="left",
    )


def _rating_problems(entries: pl.DataFrame) -> list[Problem]:
    """rating-mismatch (file vs registry) and rating-inconsistent (file vs file)."""
    file_r = pl.col(c.FILE_RATING)
    mismatch = pl.col("in_registry") & (
        (file_r.is_not_null() & file_r.ne_missing(pl.col(c.RO)))
        | (file_r.is_null() & pl.col(c.RO).is_not_null() & (pl.col(c.RO_SOURCE) == "registry"))
    )
    inconsistent = ~pl.col("in_registry") & file_r.is_not_null() & (file_r != pl.col(c.RO))
    rows = (
        entries.with_columns(
            mismatch.alias("_mismatch"),
            pl.col(E.FILE).first().over([c.KEY, E.LIST], order_by=c.EV_ORDER).alias("_first_file"),
        )
        .filter(mismatch | inconsistent)
        .sort(c.EV_ORDER, P.NO)
    )
    problems: list[Problem] = []
    for r in rows.iter_rows(named=True):
        column = _rating_column(r[E.SOURCE])
        got = "unrated" if r[c.FILE_RATING] is None else str(r[c.FILE_RATING])
        if r["_mismatch"]:
            expected = "unrated" if r[c.RO] is None else str(r[c.RO])
            source = "standard rating" if r[c.RO_SOURCE] == "registry-standard" else "rating"
            message = (
                f"expected {expected} (the registry's {r[E.LIST]} {source} of {_who(r)}), "
                f"got {got}; the registry value is used"
            )
            code = "rating-mismatch"
        else:
            message = (
                f"expected {r[c.RO]} (the rating of {_who(r)} in {r['_first_file']}), "
                f"got {got}; the first event's rating is used for the period"
            )
            code = "rating-inconsistent"
        problems.append(
            Problem(Location(r[E.FILE], r[P.LINE], column), code, message, Severity.WARNING)
        )
    return problems


def _who(r: dict[str, object]) -> str:
    return f"FIDE ID {r[P.FIDE]}" if r[P.FIDE] is not None else repr(r[P.NAME])


def _rating_column(source: str | None) -> str:
    if source is not None and source.startswith("trf"):
        return _TRF_RATING_COLUMN
    if source is not None and source.startswith("crosstable"):
        return "Rtg"
    return P.RATING


def classify_games(
    games: pl.DataFrame, events: pl.DataFrame, entries: pl.DataFrame
) -> pl.DataFrame:
    """Both sides of every game entry with Ro, D, D used, PD, ΔR and the reason.

    `events` carries the event's rule set as ``rs_`` columns (pipeline.rules.vector)
    plus `event_order`; `entries` is `resolve_players`' frame.
    """
    me = entries.select(E.ID, P.NO, c.KEY, P.FIDE, P.NAME, c.RO)
    opp = entries.select(
        pl.col(E.ID),
        pl.col(P.NO).alias(G.OPP),
        pl.col(c.KEY).alias(c.OPP_KEY),
        pl.col(P.FIDE).alias("opponent_fide_id"),
        pl.col(P.NAME).alias("opponent_name"),
        pl.col(c.FACING_RO).alias(c.OPP_RO),
    )
    ev = events.select(
        E.ID,
        E.LIST,
        pl.col(E.NAME).alias("tournament"),
        c.EV_ORDER,
        "rs_cap",
        "rs_cap_mode",
        "rs_cap_exempt_from",
        "rs_rule_600",
    )
    g = (
        games.select(
            E.ID,
            G.ROUND,
            G.NO,
            _optional(games, G.OPP, pl.Int64()).alias(G.OPP),
            _optional(games, G.COLOUR, pl.String()).alias(G.COLOUR),
            pl.col(G.CODE).str.to_uppercase(),
            G.SCORE,
            _optional(games, G.PLAYED, pl.Boolean()).fill_null(False).alias(G.PLAYED),
            _optional(games, G.LINE, pl.Int64()).alias(G.LINE),
            _optional(games, G.COLUMN, pl.String()).alias(G.COLUMN),
        )
        .join(ev, on=E.ID, how="left")
        .join(me, on=[E.ID, G.NO], how="left")
        .join(opp, on=[E.ID, G.OPP], how="left")
    )
    code = pl.col(G.CODE)
    ratings_known = pl.col(c.RO).is_not_null() & pl.col(c.OPP_RO).is_not_null()
    not_600 = ~rule_600_expr(pl.col(c.RO), pl.col(c.OPP_RO), pl.col("rs_rule_600"))
    reason = (
        pl.when(pl.col(G.OPP).is_null() | code.is_in(["H", "F", "U", "Z"]))
        .then(pl.lit("bye"))
        .when(code.is_in(["+", "-"]))
        .then(pl.lit("forfeit"))
        .when(code.is_in(["W", "D", "L"]))
        .then(pl.lit("under-one-move"))
        .when(~pl.col(G.PLAYED) | pl.col(c.OPP_KEY).is_null())
        .then(pl.lit("unplayed"))
        .when(pl.col(c.OPP_RO).is_null())
        .then(pl.lit("opponent-unrated"))
        .when(pl.col(c.RO).is_null())
        .then(pl.lit("player-unrated"))
        .when(~not_600)
        .then(pl.lit("rule-600"))
        .otherwise(pl.lit(""))
    )
    g = g.with_columns(
        reason.alias(c.REASON),
        (pl.col(G.SCORE) * 100).round(0).cast(pl.Int64).alias(c.SCORE_H),
    ).with_columns((pl.col(c.REASON) == "").alias(c.RATED))
    d = pl.col(c.RO) - pl.col(c.OPP_RO)
    shown = ratings_known & pl.col(c.REASON).is_in(["", "rule-600"])
    g = g.with_columns(
        pl.when(shown).then(d).alias(c.D),
        difference_used_expr(
            pl.when(pl.col(c.RATED)).then(d),
            pl.col(c.RO),
            pl.col("rs_cap"),
            pl.col("rs_cap_mode"),
            pl.col("rs_cap_exempt_from"),
            over=[E.ID, G.NO],
            order_by=G.ROUND,
        ).alias(c.D_USED),
    )
    g = g.with_columns(
        pl.when(pl.col(c.RATED)).then(expected_expr(pl.col(c.D_USED))).alias(c.PD_H)
    ).with_columns((pl.col(c.SCORE_H) - pl.col(c.PD_H)).alias(c.DELTA_H))
    return g.drop("rs_cap", "rs_cap_mode", "rs_cap_exempt_from", "rs_rule_600")
