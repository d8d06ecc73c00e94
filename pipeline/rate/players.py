"""Who is who: the first half of `pipeline.rate`.

`resolve_players` gives every player entry its identity across events, its rating Ro on
the event's list and the facts K is derived from, as a lazy query (rate.engine collects
it once); `rating_problem_rows` / `rating_problems` are the warnings of ratings that
disagree (fide-rules.md §1, §5).

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
  registry gets a ``rating-mismatch`` warning and the registry wins; a file that gives no
  ratings at all gets one ``no-ratings-in-file`` warning instead of one per player.
- Federation: the files' (the first entry's) when it is a FIDE code, else the registry's,
  else the files' club or region code as written (`pipeline.validate.player_fields`).
- K inputs: the registry's K of that list when > 0; career games are unknown (FIDE's
  `games` column counts the last period only), so a derived K treats the player as
  established; "ever reached 2400" is known only from a GM or IM title (both require
  it) or a current rating >= 2400.

A player entry is its row in the collected entries and a player on a list `c.PID`, the
row of their first entry, found by FIDE ID (`pipeline.rate.rows`).
"""

from __future__ import annotations

import polars as pl

from pipeline.errors import Location, Problem, Severity
from pipeline.identity.link import PERSON_KEY
from pipeline.rate import columns as c
from pipeline.rate.lists import person_key_expr, registry_long, start_long
from pipeline.rate.rows import (
    entries_order,
    event_orders,
    events_in_order,
    gathered,
    optional,
    spread,
)
from pipeline.rules.ruleset import LISTS
from pipeline.validate.player_fields import fide_federation_expr, no_ratings_problem
from schemas.columns import E, P, R

TOP_TITLES = ["GM", "IM", "G", "M"]  # titles that require a 2400+ rating (§5 rule 1)
_TRF_RATING_COLUMN = "49-52"


def resolve_players(
    players: pl.DataFrame,
    events: pl.DataFrame,
    registry: pl.DataFrame | None,
    start_lists: pl.DataFrame | None = None,
) -> pl.LazyFrame:
    """Every player entry with its identity, Ro and K inputs.

    `events` must carry `event_order` (see engine.py), and RO_MONTH where an event is
    rated from an earlier start list (`pipeline.rate.lists`). Returns one row per player
    entry, in event order then start number (event_id, start_no, player_key, list,
    fide_id, name, ..., ro, base_ro, facing_ro, rating_source, given_k, career_games,
    ever_2400, birth_year; `_row` its row and `c.PID` the row of the player's first entry
    on that list). `rating_problem_rows` picks the rows to warn about. The list rows and
    the players' facts are found at once (eagerly); the rest is the returned query.
    """
    by_event = events_in_order(events)
    if c.RO_MONTH not in by_event.columns:
        by_event = by_event.with_columns(pl.lit(None, dtype=pl.String()).alias(c.RO_MONTH))
    order = pl.col(c.EV_ORDER)
    entries = (
        players.select(
            pl.col(E.ID),
            pl.col(P.NO),
            pl.col(P.NAME),
            optional(players, P.FIDE, pl.Int64()).alias(P.FIDE),
            optional(players, P.FED, pl.String()).alias(P.FED),
            optional(players, P.TITLE, pl.String()).alias(P.TITLE),
            optional(players, P.BIRTH, pl.Int64()).alias(P.BIRTH),
            optional(players, P.RATING, pl.Int64()).alias(c.FILE_RATING),
            optional(players, P.LINE, pl.Int64()).alias(P.LINE),
            optional(players, PERSON_KEY, pl.String()).alias(PERSON_KEY),
        )
        .with_columns(event_orders(players[E.ID], events))
        .lazy()
        .with_columns(
            gathered(by_event, E.LIST, order),
            gathered(by_event, E.FILE, order),
            gathered(by_event, E.SOURCE, order),
            gathered(by_event, c.RO_MONTH, order),
            _key_expr(players).alias(c.KEY),
        )
        .drop(PERSON_KEY)
        .sort(entries_order(players, events))
    )
    lists = events[E.LIST].unique().to_list()
    found = _find_in_lists(entries, registry, start_lists, lists, players.height)
    found = found.with_row_index("_row").with_columns(_player_rows(found).alias(c.PID))
    # what the player's entries say together (their first known values, in event order)
    facts = found.group_by(c.PID).agg(
        pl.col(c.FILE_RATING).first(ignore_nulls=True).alias("first_file_rating"),
        pl.col(P.BIRTH).first(ignore_nulls=True).alias("_birth"),
        pl.col(P.TITLE).first(ignore_nulls=True).alias("_title"),
        pl.col(P.FED).first(ignore_nulls=True).alias("_fed"),
        pl.col(P.FED)
        .filter(fide_federation_expr(pl.col(P.FED)).is_not_null())
        .first()
        .alias("_fide_fed"),
        pl.col(c.EV_ORDER).n_unique().cast(pl.Int64).alias("events"),
        _top(pl.col("reg_title")).any().alias("_top_listed"),
        pl.col("reg_ever").fill_null(False).any().alias("_ever_listed"),
    )
    # "ever reached 2400" by any entry: its title (the player's first, else the list's)
    # or the list's flag
    title = pl.col("_title")
    ever = pl.col("_ever_listed") | (
        pl.when(title.is_not_null()).then(_top(title)).otherwise(pl.col("_top_listed"))
    )
    facts = facts.with_columns(ever.alias(c.EVER_2400)).drop("_top_listed", "_ever_listed")
    entries = found.hstack(spread(facts, c.PID, found[c.PID], found.height)).lazy()
    fallback = (pl.col(E.LIST) != "standard") & pl.col("reg_rating").is_null()
    entries = entries.with_columns(
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
        pl.coalesce("reg_birth_year", "_birth").alias(P.BIRTH),
        pl.coalesce("_title", "reg_title").alias(P.TITLE),
        # the files' FIDE federation, else the list's, else the files' code as written
        pl.coalesce("_fide_fed", "reg_federation", "_fed").alias(P.FED),
    )
    # An event rated from its start list: Ro from that list; a player published since
    # is rated as a rated player, and counts as unrated for the opponents (§6).
    in_start = pl.col("in_start").fill_null(False)
    return entries.with_columns(
        pl.when(in_start)
        .then(pl.coalesce("start_ro", c.BASE_RO))
        .otherwise(pl.col(c.BASE_RO))
        .alias(c.RO),
        pl.when(in_start).then(pl.col("start_ro")).otherwise(pl.col(c.BASE_RO)).alias(c.FACING_RO),
    ).select(pl.exclude(c.EVER_2400), c.EVER_2400)


def _key_expr(players: pl.DataFrame) -> pl.Expr:
    """The player key (module docstring): ``fide:<id>``, else the person key, else
    ``event:<event_id>#<start_no>`` (only the forms some entry needs are computed)."""
    by_id = pl.format("fide:{}", pl.col(P.FIDE))
    if P.FIDE in players.columns and players[P.FIDE].null_count() == 0:
        return by_id
    return (
        pl.when(pl.col(P.FIDE).is_not_null())
        .then(by_id)
        .when(pl.col(PERSON_KEY).is_not_null())
        .then(pl.col(PERSON_KEY))
        .otherwise(pl.format("event:{}#{}", pl.col(E.ID), pl.col(P.NO)))
    )


def _top(title: pl.Expr) -> pl.Expr:
    """A GM or IM title (both require a 2400 rating), false for none."""
    return title.str.to_uppercase().is_in(TOP_TITLES).fill_null(False)


def _player_rows(entries: pl.DataFrame) -> pl.Series:
    """`c.PID` of each entry: the row of the first entry with its (player_key, list),
    found by an integer key: 4 x FIDE ID + the list's number (3 for none) for the keys
    ``fide:<id>``, the others numbered above them by their first row among themselves."""
    first = pl.col("_i").first()
    numbered = entries.select(c.KEY, E.LIST, P.FIDE).with_row_index("_i")
    fide = entries[P.FIDE]
    low, high = fide.min(), fide.max()
    if isinstance(low, int) and isinstance(high, int) and max(-low, high) >= 1 << 60:
        return numbered.select(first.over(c.KEY, E.LIST).cast(pl.Int64)).to_series()
    number = {lst: i for i, lst in enumerate(LISTS)}
    list_no = pl.col(E.LIST).replace_strict(number, default=len(LISTS), return_dtype=pl.Int64)
    by_id = pl.col(P.FIDE) * (len(LISTS) + 1) + list_no.fill_null(len(LISTS))
    key = numbered.select(by_id).to_series()
    no_id = fide.is_null()
    if no_id.any():
        others = numbered.filter(no_id).select(first.over(c.KEY, E.LIST).cast(pl.Int64))
        highest = key.max()
        above = highest + 1 if isinstance(highest, int) else 0
        key = key.scatter(no_id.arg_true(), others.to_series() + above)
    return numbered.select(first.over(key).cast(pl.Int64)).to_series()


def _find_in_lists(
    entries: pl.LazyFrame,
    registry: pl.DataFrame | None,
    start_lists: pl.DataFrame | None,
    lists: list[str],
    players: int,
) -> pl.DataFrame:
    """Join each entry to its base-list row (by FIDE ID or person key; an entry of one
    event without an ID is the list's person of its name and federation, when the event
    holds that name once) and, for events with RO_MONTH, to its start-list row.
    `players` is the number of entries: a list no longer is joined whole, not first cut
    down to the entries' players."""
    found = pl.col("in_registry").fill_null(False)
    whole = registry is not None and registry.height <= players
    if registry is None or registry[R.ID].null_count() == 0:
        # every list row has a FIDE ID: it is the row of the entries with that ID (key
        # fide:<id>); an entry without one (a person or event key) is in no row
        wanted = None if whole else entries.select(P.FIDE)
        rows = registry_long(registry, wanted, lists, by_id=True)
        joined = _by_id(entries.collect(engine="in-memory"), rows.collect(engine="in-memory"))
        entries = joined.lazy().with_columns(found)
    else:
        person = person_key_expr(pl.col(P.NAME), pl.col(P.FED))
        lookup = (
            pl.when(pl.col(c.KEY).str.starts_with("event:") & (pl.len().over(E.ID, person) == 1))
            .then(person)
            .otherwise(pl.col(c.KEY))
        )
        entries = entries.with_columns(lookup.alias("_lookup"))
        wanted = None if whole else entries.select(P.FIDE, pl.col("_lookup").alias(c.LIST_KEY))
        entries = (
            entries.join(
                registry_long(registry, wanted, lists),
                left_on=["_lookup", E.LIST],
                right_on=[c.LIST_KEY, E.LIST],
                how="left",
                maintain_order="left",
            )
            .with_columns(found)
            .with_columns(
                pl.when(pl.col("in_registry"))
                .then(pl.col("_lookup"))
                .otherwise(pl.col(c.KEY))
                .alias(c.KEY)
            )
            .drop("_lookup")
        )
    if start_lists is None or start_lists.is_empty():
        entries = entries.with_columns(
            pl.lit(None, dtype=pl.Int64()).alias("start_ro"),
            pl.lit(None, dtype=pl.Boolean()).alias("in_start"),
        )
    else:
        entries = entries.join(
            start_long(start_lists),
            left_on=[c.KEY, E.LIST, c.RO_MONTH],
            right_on=[c.LIST_KEY, E.LIST, c.RO_MONTH],
            how="left",
            maintain_order="left",
        )
    return entries.collect(engine="in-memory")


def _by_id(entries: pl.DataFrame, rows: pl.DataFrame) -> pl.DataFrame:
    """`entries` left-joined with the list rows on FIDE ID and list: the rows' numbers
    found by a join of the keys alone (on the ID alone when one list is rated), then the
    rows' columns gathered; a full join when an entry finds two rows."""
    numbered = rows.select(P.FIDE, E.LIST, pl.int_range(pl.len(), dtype=pl.Int64).alias("_at"))
    keys = [P.FIDE, E.LIST]
    if entries[E.LIST].n_unique() == 1:
        keys = [P.FIDE]
        value = entries[E.LIST][0]  # an entry without a list is in no row
        numbered = numbered.filter(pl.col(E.LIST) == value) if value else numbered.clear()
        numbered = numbered.drop(E.LIST)
    at = entries.select(keys).join(numbered, on=keys, how="left", maintain_order="left")
    if at.height != entries.height:
        return entries.join(rows, on=[P.FIDE, E.LIST], how="left", maintain_order="left")
    return entries.hstack(rows.drop(P.FIDE, E.LIST).select(pl.all().gather(at["_at"])))


def rating_problem_rows(entries: pl.DataFrame) -> pl.LazyFrame:
    """The entries to warn about (`rating_problems`), in event order then start number:
    rating-mismatch (file vs registry) and rating-inconsistent (file vs file); for an
    event whose file gives no ratings at all, one row of the event instead of its
    mismatches (``_no_ratings``: how many players the registry rates).
    `entries` is `resolve_players`' frame, collected."""
    file_r = pl.col(c.FILE_RATING)
    mismatch = pl.col("in_registry") & (
        (file_r.is_not_null() & file_r.ne_missing(pl.col(c.RO)))
        | (file_r.is_null() & pl.col(c.RO).is_not_null() & (pl.col(c.RO_SOURCE) == "registry"))
    )
    inconsistent = ~pl.col("in_registry") & file_r.is_not_null() & (file_r != pl.col(c.RO))
    none_given = file_r.is_null().all().over(E.ID)
    rows = (
        entries.lazy()
        .filter((mismatch & ~none_given) | inconsistent)
        .select(
            c.EV_ORDER,
            P.NO,
            E.FILE,
            E.SOURCE,
            E.LIST,
            P.LINE,
            P.FIDE,
            P.NAME,
            c.FILE_RATING,
            c.RO,
            c.RO_SOURCE,
            mismatch.alias("_mismatch"),
            # the player's first entry (by event order) is the row `c.PID`
            gathered(entries, E.FILE, pl.col(c.PID)).alias("_first_file"),
        )
    )
    once = (
        entries.lazy()
        .filter(none_given & mismatch)
        .group_by(E.ID)
        .agg(pl.col(c.EV_ORDER).first(), pl.col(E.FILE).first(), pl.len().alias("_no_ratings"))
        .drop(E.ID)
    )
    return pl.concat([rows, once], how="diagonal").sort(c.EV_ORDER, P.NO).drop(c.EV_ORDER, P.NO)


def rating_problems(rows: pl.DataFrame) -> list[Problem]:
    """The warnings of `rating_problem_rows`, in its order."""
    problems: list[Problem] = []
    for r in rows.iter_rows(named=True):
        if r["_no_ratings"] is not None:
            problems.append(no_ratings_problem(r[E.FILE], r["_no_ratings"]))
            continue
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
