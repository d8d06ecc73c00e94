"""Step 4 of `pipeline.identity.link`: one person across the events of the run, by name.

Two entries of different events *agree* when they share the name key (the same tokens in
any order, `pipeline.formats.names.name_key`) and nothing tells them apart:

- the federation, where both have a FIDE one (a club or region code is none, `FIDE_FED`);
- the rating, where both have one and their events are on the same rating list: at most
  `RATING_TOLERANCE` apart, as a name match in the rating list allows. An entry without
  a rating (an unrated player, a file without ratings) agrees with any rating, and the
  ratings of two lists (standard and rapid) are not compared;
- the birth year and the sex, where both have one; the FIDE ID, where both have one.

The entries holding one FIDE ID are one *unit*, every other entry a unit of its own; two
units agree when all their entries do (two entries of one event never do). A unit whose
agreeing units all agree with one another is *clear*; the clear units that agree are one
person (they form a clique: each clear unit's agreeing units are the same group). A unit
that agrees with two units that disagree (``Li Wei`` unrated, beside a ``Li Wei`` 1500
and a ``Li Wei`` 2100 of other events) could be either and stays out: never a guess.
The entries of a person that have no ID receive the person's ID, if one has it, else a
`PERSON_KEY` ``name:<key>|<fed>``: the person's FIDE federation; else the club or region
code its entries carry, when they carry one only (the key under which a list written by
`elo run --chain` finds the person again: `pipeline.rate.lists` keys a list's player
without an ID by name and country as written); else empty. ``#1``, ``#2`` ... follow
where two persons of one name key share it. A name key with more than `UNITS_PER_NAME`
units is not merged (a name that common tells no one apart).

Everything is joins and group-bys over all the entries at once: the pairs of a name key,
the units that agree, the pairs of agreeing units of each unit (to find the clear ones).
"""

from __future__ import annotations

import polars as pl

from pipeline.identity.common import (
    E_ID,
    E_LIST,
    FIDE_FED,
    P_BIRTH,
    P_FED,
    P_RATING,
    P_SEX,
    PERSON_KEY,
    RATING_TOLERANCE,
    sex_expr,
)

UNITS_PER_NAME = 100  # more units of one name key: not merged (and no cubic wedge count)
EVIDENCE = (
    "the same name in other events of the run, nothing telling them apart (federation, "
    f"rating within {RATING_TOLERANCE} on the same list, birth year, sex)"
)


def merge_run(entries: pl.DataFrame, with_registry: bool) -> pl.DataFrame:
    """The entries with the persons found across events (module docstring): ``linked_id``,
    ``method`` ``run-name``, `PERSON_KEY` and ``evidence`` of the entries receiving one.
    Without a registry, the entries with a FIDE ID take part (and give it to the others);
    with one, only the entries left open (the list's evidence wins)."""
    vetoed = pl.col("manual") & pl.col("linked_id").is_null()
    open_ = pl.col("linked_id").is_null() & ~pl.col("manual") & pl.col("candidates").is_null()
    member = open_ if with_registry else (open_ | pl.col("linked_id").is_not_null())
    members = (
        entries.filter(member & ~vetoed & (pl.col("key") != ""))
        .select(
            "entry",
            "key",
            E_ID,
            E_LIST,
            FIDE_FED,
            P_RATING,
            P_BIRTH,
            sex_expr(pl.col(P_SEX)).alias(P_SEX),
            pl.when(pl.col(P_FED) != "").then(pl.col(P_FED)).alias("_written"),
            "linked_id",
        )
        .with_columns(
            pl.when(pl.col("linked_id").is_not_null())
            .then(pl.col("entry").min().over("key", "linked_id"))
            .otherwise(pl.col("entry"))
            .alias("unit")
        )
        .filter(pl.col("unit").n_unique().over("key") <= UNITS_PER_NAME)
    )
    people = members.join(_persons(_agreeing_units(members)), on="unit")
    if people.is_empty():
        return entries
    found = people.group_by("label").agg(
        pl.col("key").first(),
        pl.col("linked_id").drop_nulls().first().alias("group_id"),
        pl.col(FIDE_FED).drop_nulls().first().alias("_fide"),
        pl.col("_written").drop_nulls().unique().alias("_codes"),
    )
    one_code = pl.when(pl.col("_codes").list.len() == 1).then(pl.col("_codes").list.first())
    found = found.with_columns(pl.coalesce("_fide", one_code, pl.lit("")).alias("_fed"))
    named = found.filter(pl.col("group_id").is_null())
    shared = pl.len().over("key", "_fed") > 1
    number = pl.col("label").rank("ordinal").over("key", "_fed").cast(pl.String)
    named = named.with_columns(
        pl.concat_str(
            pl.lit("name:"),
            pl.col("key"),
            pl.lit("|"),
            pl.col("_fed"),
            pl.when(shared).then(pl.concat_str(pl.lit("#"), number)).otherwise(pl.lit("")),
        ).alias("_person")
    )
    found = found.join(named.select("label", "_person"), on="label", how="left")
    given = people.select("entry", "label").join(
        found.select("label", "group_id", "_person"), on="label"
    )
    frame = entries.join(given.drop("label"), on="entry", how="left")
    receive = pl.col("linked_id").is_null() & (
        pl.col("group_id").is_not_null() | pl.col("_person").is_not_null()
    )
    return frame.with_columns(
        pl.when(receive).then(pl.col("group_id")).otherwise(pl.col("linked_id")).alias("linked_id"),
        pl.when(receive).then(pl.lit("run-name")).otherwise(pl.col("method")).alias("method"),
        pl.when(receive).then(pl.col("_person")).otherwise(pl.col(PERSON_KEY)).alias(PERSON_KEY),
        pl.when(receive).then(pl.lit(EVIDENCE)).otherwise(pl.col("evidence")).alias("evidence"),
    ).drop("group_id", "_person")


def _agreeing_units(members: pl.DataFrame) -> pl.DataFrame:
    """``u``, ``v`` (u < v): the units of one name key all of whose entries agree."""
    pairs = members.join(members, on="key", suffix="_b").filter(pl.col("unit") < pl.col("unit_b"))

    def differ(name: str) -> pl.Expr:
        other = pl.col(f"{name}_b")
        return pl.col(name).is_not_null() & other.is_not_null() & (pl.col(name) != other)

    far = (pl.col(P_RATING) - pl.col(f"{P_RATING}_b")).abs() > RATING_TOLERANCE
    same_list = pl.col(E_LIST).eq_missing(pl.col(f"{E_LIST}_b"))
    apart = (
        (pl.col(E_ID) == pl.col(f"{E_ID}_b"))  # two entries of one event: two people
        | differ(FIDE_FED)
        | differ(P_BIRTH)
        | differ(P_SEX)
        | differ("linked_id")
        | (same_list & far).fill_null(False)
    )
    return (
        pairs.group_by(pl.col("unit").alias("u"), pl.col("unit_b").alias("v"))
        .agg((~apart).all().alias("_agree"))
        .filter("_agree")
        .select("u", "v")
    )


def _persons(edges: pl.DataFrame) -> pl.DataFrame:
    """``unit``, ``label`` (the person's smallest unit) of the clear units that agree with
    another clear unit: a unit is clear when the units it agrees with all agree with one
    another (its agreeing pairs counted against the pairs it could have)."""
    both_ways = pl.concat([edges, edges.select(pl.col("v").alias("u"), pl.col("u").alias("v"))])
    degree = both_ways.group_by("u").agg(pl.len().alias("_deg"))
    wedges = both_ways.join(both_ways.rename({"v": "w"}), on="u").filter(pl.col("v") < pl.col("w"))
    closed = (
        wedges.join(edges.select(pl.col("u").alias("v"), pl.col("v").alias("w")), on=["v", "w"])
        .group_by("u")
        .agg(pl.len().alias("_closed"))
    )
    clear = (
        degree.join(closed, on="u", how="left")
        .filter(pl.col("_closed").fill_null(0) == pl.col("_deg") * (pl.col("_deg") - 1) // 2)
        .select("u")
    )
    kept = both_ways.join(clear, on="u", how="semi").join(
        clear.select(pl.col("u").alias("v")), on="v", how="semi"
    )
    return (
        kept.group_by("u")
        .agg(pl.col("v").min())
        .select(pl.col("u").alias("unit"), pl.min_horizontal("u", "v").alias("label"))
    )
