"""Who is who: every player entry of a run linked to a person (`link_players`).

In this order, each step for the entries the earlier ones left open:

1. The officer's decisions (`--identities`, `decisions.py`): a FIDE ID, or a veto ("not
   this person": the entry is never linked). Method ``manual``.
2. The file's own FIDE ID. Method ``file-id``. With a registry, an ID it does not hold
   (``identity-id-unknown``) or whose name shares no name with the file's
   (``identity-name-differs``) is a warning: a typo in an ID must not pass silently.
3. With a registry, a name match (method ``registry-name``): the rating-list players whose
   name has the same tokens in any order (`pipeline.formats.names.name_key`; a file's
   ``Smith J.`` also matches ``Smith, John`` by surname and initials), and that nothing
   rules out: the federation where both have a FIDE one (a club or region code in the
   file's federation column is none: `pipeline.validate.player_fields`), the file's
   rating on the event's list within `RATING_TOLERANCE` of the list's (for rapid and
   blitz, of the standard rating that stands in when the player is unrated there), the
   sex and birth year where both have one. One such player: linked. Several: the ones
   agreeing on most of sex, birth year and title; if that leaves one, linked, else
   ``identity-ambiguous`` (a warning naming the candidates). None: unmatched (counted in
   `IdentityResult.counts`, listed in the table; a new player is not a problem). A name
   link to a FIDE ID that another entry of the same event already has is dropped
   (``identity-id-taken``).
4. Across the events of the run (method ``run-name``, `run_match.py`): entries of
   different events with the same name key are one player when nothing tells them
   apart: the FIDE federation, the rating on the same list (within `RATING_TOLERANCE`;
   an unrated entry agrees with any), birth year, sex and FIDE ID, where both have one;
   an entry that would fit two players that differ stays unlinked. Without a registry,
   an entry of the group that has a FIDE ID gives it to the others; with one, only
   entries the list does not hold are merged (the list's evidence wins). A merged group
   without an ID gets a `person_key` ``name:<key>|<FIDE federation>``.

`name_match=False` (``--no-name-match``) turns steps 3 and 4 off. Everything is joins and
group-bys over all entries of the run at once: the rating list's rows are cut to the
names the run can match when it is read (`pipeline.formats.names.NameFilter`), and the
entries are joined with them on the name key and the initials key.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from pipeline.errors import Problem
from pipeline.formats.names import NameFilter, name_filter, name_key_expr
from pipeline.identity.common import (
    E_FILE,
    E_ID,
    E_LIST,
    E_NAME,
    E_SOURCE,
    FIDE_FED,
    P_BIRTH,
    P_FED,
    P_FIDE,
    P_LINE,
    P_NAME,
    P_NO,
    P_RATING,
    P_SEX,
    P_TITLE,
    PERSON_KEY,
    R_ID,
    RATING_TOLERANCE,
    optional,
)
from pipeline.identity.decisions import apply_decisions
from pipeline.identity.registry_match import file_id_problems, match_registry
from pipeline.identity.run_match import merge_run
from pipeline.validate.player_fields import fide_federation_expr
from schemas.output import IDENTITY_METHODS

__all__ = ["PERSON_KEY", "RATING_TOLERANCE", "IdentityResult", "link_players"]


@dataclass
class IdentityResult:
    """The players with their links, the identities table, the problems, the counts."""

    players: pl.DataFrame  # the input players, fide_id linked, plus PERSON_KEY
    table: pl.DataFrame  # schemas.output.IDENTITY_COLUMNS, one row per entry
    problems: list[Problem] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)


def link_players(
    players: pl.DataFrame,
    events: pl.DataFrame,
    registry: pl.DataFrame | None = None,
    decisions: pl.DataFrame | None = None,
    decisions_file: str = "",
    name_match: bool = True,
) -> IdentityResult:
    """Link every entry (module docstring); `players` and `events` are the run's frames."""
    problems: list[Problem] = []
    entries = _entries(players, events)
    if decisions is not None and decisions.height:
        entries, found = apply_decisions(entries, decisions, decisions_file)
        problems += found
    else:
        entries = entries.with_columns(manual=pl.lit(False), manual_id=pl.lit(None, dtype=pl.Int64))
    entries = entries.with_columns(
        pl.when(pl.col("manual"))
        .then(pl.col("manual_id"))
        .otherwise(pl.col(P_FIDE))
        .alias("linked_id"),
        pl.when(pl.col("manual"))
        .then(pl.lit("manual"))
        .when(pl.col(P_FIDE).is_not_null())
        .then(pl.lit("file-id"))
        .alias("method"),
        pl.lit(None, dtype=pl.String).alias("candidates"),
        pl.lit(None, dtype=pl.String).alias("evidence"),
        pl.lit(None, dtype=pl.String).alias(PERSON_KEY),
        pl.lit(False).alias("searched"),
    )
    if registry is not None:
        # a list's players without a FIDE ID are found later, by name and federation
        registry = registry.filter(pl.col(R_ID).is_not_null())
        problems += file_id_problems(entries, registry)
        if name_match:
            entries, found = match_registry(entries, registry)
            problems += found
    if name_match:
        entries = merge_run(entries, with_registry=registry is not None)
    entries = entries.with_columns(_status().alias("status"))
    counts = _counts(entries, registry is not None and name_match)
    return IdentityResult(
        players=_linked_players(players, entries),
        table=_table(entries),
        problems=sorted(problems, key=Problem.sort_key),
        counts=counts,
    )


def wanted_from_registry(
    players: pl.DataFrame, decisions: pl.DataFrame | None, name_match: bool
) -> tuple[set[int], NameFilter | None]:
    """What a run needs from the rating list: the FIDE IDs of the files and the decisions,
    and (for name matching) the names of the entries without an ID."""
    ids: set[int] = set()
    names = None
    has_ids = P_FIDE in players.columns
    if players.height and has_ids:
        ids.update(players[P_FIDE].drop_nulls().to_list())
    if players.height and name_match:
        open_ = players.filter(pl.col(P_FIDE).is_null()) if has_ids else players
        names = name_filter(open_[P_NAME])
    if decisions is not None:
        ids.update(decisions["d_fide_id"].drop_nulls().to_list())
    return ids, names


# --- the entries --------------------------------------------------------------------------


def _entries(players: pl.DataFrame, events: pl.DataFrame) -> pl.DataFrame:
    ev = events.select(
        E_ID,
        pl.col(E_FILE).str.replace_all("\\\\", "/", literal=True).alias("path"),
        pl.col(E_FILE),
        pl.col(E_NAME).alias("event"),
        optional(events, E_LIST, pl.String()).alias(E_LIST),
        optional(events, E_SOURCE, pl.String()).alias(E_SOURCE),
    )
    return (
        players.select(
            E_ID,
            P_NO,
            P_NAME,
            optional(players, P_FIDE, pl.Int64()).alias(P_FIDE),
            optional(players, P_FED, pl.String()).str.strip_chars().str.to_uppercase().alias(P_FED),
            optional(players, P_RATING, pl.Int64()).alias(P_RATING),
            optional(players, P_SEX, pl.String()).alias(P_SEX),
            optional(players, P_BIRTH, pl.Int64()).alias(P_BIRTH),
            optional(players, P_TITLE, pl.String()).str.to_uppercase().alias(P_TITLE),
            optional(players, P_LINE, pl.Int64()).alias(P_LINE),
        )
        .with_row_index("entry")
        .join(ev, on=E_ID, how="left")
        .with_columns(
            name_key_expr(pl.col(P_NAME)).alias("key"),
            pl.col("path").str.split("/").list.last().alias("base"),
            fide_federation_expr(pl.col(P_FED)).alias(FIDE_FED),
        )
    )


# --- results --------------------------------------------------------------------------------


def _status() -> pl.Expr:
    return (
        pl.when(pl.col("manual") & pl.col("linked_id").is_null())
        .then(pl.lit("vetoed"))
        .when(pl.col("linked_id").is_not_null() | pl.col(PERSON_KEY).is_not_null())
        .then(pl.lit("linked"))
        .when(pl.col("candidates").is_not_null())
        .then(pl.lit("ambiguous"))
        .when(pl.col("searched"))
        .then(pl.lit("unmatched"))
        .otherwise(pl.lit("unlinked"))
    )


def _counts(entries: pl.DataFrame, searched: bool) -> dict[str, int]:
    counts = dict.fromkeys(IDENTITY_METHODS, 0)
    for method, n in entries.group_by("method").len().iter_rows():
        if method is not None:
            counts[str(method)] = int(n)
    for status in ("ambiguous", "unmatched", "vetoed", "unlinked"):
        counts[status] = int(entries.filter(pl.col("status") == status).height)
    if not searched:
        counts["unlinked"] += counts.pop("unmatched")
        counts["unmatched"] = 0
    counts["entries"] = entries.height
    return counts


def _linked_players(players: pl.DataFrame, entries: pl.DataFrame) -> pl.DataFrame:
    links = entries.sort("entry").select(pl.col("linked_id").alias(P_FIDE), pl.col(PERSON_KEY))
    return players.with_columns(links[P_FIDE], links[PERSON_KEY])


def _table(entries: pl.DataFrame) -> pl.DataFrame:
    order = {"ambiguous": 0, "unmatched": 1, "vetoed": 2, "unlinked": 3, "linked": 4}
    return (
        entries.with_columns(pl.col("status").replace_strict(order, default=9).alias("_order"))
        .sort("_order", E_FILE, P_LINE, P_NO)
        .select(
            pl.col("event"),
            pl.col(E_FILE).alias("file"),
            pl.col(P_LINE).alias("line"),
            pl.col(P_NO).alias("start_no"),
            pl.col(P_NAME).alias("name"),
            pl.col(P_FED).alias("federation"),
            pl.col(P_RATING).alias("rating"),
            pl.col("linked_id").alias("fide_id"),
            pl.col("method").fill_null(""),
            pl.col("candidates").fill_null(""),
            pl.col("status"),
            pl.col("evidence").fill_null(""),
        )
    )
