"""Steps 2 and 3 of `pipeline.identity.link`: the files' FIDE IDs checked against the
rating list, and the entries without one matched in it by name (see link.py)."""

from __future__ import annotations

import polars as pl

from pipeline.errors import Problem
from pipeline.formats.names import (
    full_tokens_expr,
    initials_key_expr,
    name_key_expr,
    registry_initials_key_expr,
)
from pipeline.formats.trf.fields import TITLE_NAMES
from pipeline.identity.common import (
    E_FILE,
    E_ID,
    E_LIST,
    FIDE_FED,
    LIST_RATING,
    P_BIRTH,
    P_FED,
    P_FIDE,
    P_LINE,
    P_NAME,
    P_RATING,
    P_SEX,
    P_TITLE,
    R_ID,
    RATING_TOLERANCE,
    entry_problem,
    optional,
    sex_expr,
)
from schemas.registry import Registry

# --- 2. the file's own IDs against the registry --------------------------------------------


def file_id_problems(entries: pl.DataFrame, registry: pl.DataFrame) -> list[Problem]:
    reg = registry.select(
        pl.col(R_ID).cast(pl.Int64).alias("linked_id"),
        optional(registry, str(Registry.name), pl.String()).alias("r_name"),
        pl.lit(True).alias("r_found"),
    )
    with_id = entries.filter(pl.col("method") == "file-id").join(reg, on="linked_id", how="left")
    problems: list[Problem] = []
    unknown = with_id.filter(pl.col("r_found").is_null()).sort(E_FILE, P_LINE)
    for r in unknown.iter_rows(named=True):
        problems.append(
            entry_problem(
                r,
                P_FIDE,
                "identity-id-unknown",
                f"expected FIDE ID {r['linked_id']} in the rating list, got no such player; "
                "the file's rating is used",
            )
        )
    named = with_id.filter(pl.col("r_name").is_not_null()).with_columns(
        _shares_a_token(pl.col(P_NAME), pl.col("r_name")).alias("_shared")
    )
    for r in named.filter(~pl.col("_shared")).sort(E_FILE, P_LINE).iter_rows(named=True):
        problems.append(
            entry_problem(
                r,
                P_FIDE,
                "identity-name-differs",
                f"expected the rating list's player of FIDE ID {r['linked_id']}, "
                f"{r['r_name']!r}, to be {r[P_NAME]!r}, got another name: check the ID",
            )
        )
    return problems


def _shares_a_token(a: pl.Expr, b: pl.Expr) -> pl.Expr:
    """Whether two names share a full token (two letters or more): a clearly different name
    shares none."""
    return full_tokens_expr(a).list.set_intersection(full_tokens_expr(b)).list.len() > 0


# --- 3. name matches in the registry -------------------------------------------------------


def _title_expr(expr: pl.Expr) -> pl.Expr:
    return (
        expr.str.strip_chars()
        .str.to_lowercase()
        .replace_strict(
            TITLE_NAMES, default=expr.str.strip_chars().str.to_uppercase(), return_dtype=pl.String
        )
    )


def registry_candidates(registry: pl.DataFrame) -> pl.DataFrame:
    """The rating list's columns a name match compares, with its name keys."""
    return registry.select(
        pl.col(R_ID).cast(pl.Int64).alias("r_id"),
        optional(registry, str(Registry.name), pl.String()).alias("r_name"),
        optional(registry, str(Registry.country), pl.String()).str.to_uppercase().alias("r_fed"),
        sex_expr(optional(registry, str(Registry.sex), pl.String())).alias("r_sex"),
        optional(registry, str(Registry.birthday), pl.Int64()).alias("r_birth"),
        _title_expr(optional(registry, str(Registry.title), pl.String())).alias("r_title"),
        *[
            optional(registry, column, pl.Int64()).alias(f"r_{lst}")
            for lst, column in LIST_RATING.items()
        ],
    ).with_columns(
        name_key_expr(pl.col("r_name")).alias("r_key"),
        registry_initials_key_expr(pl.col("r_name")).alias("r_ikey"),
    )


def match_registry(
    entries: pl.DataFrame, registry: pl.DataFrame
) -> tuple[pl.DataFrame, list[Problem]]:
    open_ = entries.filter(pl.col("linked_id").is_null(), ~pl.col("manual"))
    names = open_.select("entry", "key", initials_key_expr(pl.col(P_NAME)).alias("ikey")).filter(
        pl.col("key") != ""
    )
    # nothing to look for (every entry has its ID): skip the list's name keys, the
    # costliest step, with the same (empty) results
    reg = registry_candidates(registry.clear() if names.is_empty() else registry)
    by_key = names.join(reg, left_on="key", right_on="r_key")
    by_initials = names.filter(pl.col("ikey") != "").join(
        reg.filter(pl.col("r_ikey") != ""), left_on="ikey", right_on="r_ikey"
    )
    pairs = (
        pl.concat([by_key.select("entry", "r_id"), by_initials.select("entry", "r_id")])
        .unique(["entry", "r_id"])
        .join(reg, on="r_id")
        .join(
            open_.select("entry", FIDE_FED, P_RATING, P_SEX, P_BIRTH, P_TITLE, E_LIST),
            on="entry",
        )
    )
    list_rating = (
        pl.when(pl.col(E_LIST) == "rapid")
        .then(pl.col("r_rapid"))
        .when(pl.col(E_LIST) == "blitz")
        .then(pl.col("r_blitz"))
        .otherwise(pl.col("r_standard"))
    )
    stands_in = pl.when(pl.col(E_LIST) != "standard").then(pl.col("r_standard"))
    near = (pl.col(P_RATING) - list_rating).abs() <= RATING_TOLERANCE
    near_standard = list_rating.is_null() & (
        (pl.col(P_RATING) - stands_in).abs() <= RATING_TOLERANCE
    )
    # a club or region code in the federation column is no federation (FIDE_FED null)
    compared = ((FIDE_FED, "r_fed"), (P_SEX, "r_sex"), (P_BIRTH, "r_birth"), (P_TITLE, "r_title"))
    both = {
        mine: pl.col(mine).is_not_null() & pl.col(theirs).is_not_null() for mine, theirs in compared
    }
    pairs = pairs.with_columns(
        fed_known=both[FIDE_FED],
        rating_known=pl.col(P_RATING).is_not_null(),
        rating_equal=pl.col(P_RATING) == pl.coalesce(list_rating, stands_in),
    ).filter(
        ~both[FIDE_FED] | (pl.col(FIDE_FED) == pl.col("r_fed")),
        pl.col(P_RATING).is_null() | near.fill_null(False) | near_standard.fill_null(False),
        ~both[P_SEX] | (sex_expr(pl.col(P_SEX)) == pl.col("r_sex")),
        ~both[P_BIRTH] | (pl.col(P_BIRTH) == pl.col("r_birth")),
    )
    agree = [
        (both[P_SEX] & (sex_expr(pl.col(P_SEX)) == pl.col("r_sex"))).alias("agree_sex"),
        (both[P_BIRTH] & (pl.col(P_BIRTH) == pl.col("r_birth"))).alias("agree_birth"),
        (both[P_TITLE] & (_title_expr(pl.col(P_TITLE)) == pl.col("r_title"))).alias("agree_title"),
    ]
    pairs = (
        pairs.with_columns(agree)
        .with_columns(
            (
                pl.col("agree_sex").cast(pl.Int8) + pl.col("agree_birth") + pl.col("agree_title")
            ).alias("score"),
            pl.len().over("entry").alias("n"),
        )
        .with_columns(
            (pl.col("score") == pl.col("score").max().over("entry")).alias("best"),
        )
        .with_columns(pl.col("best").sum().over("entry").alias("n_best"))
    )
    chosen = pairs.filter(
        (pl.col("n") == 1) | (pl.col("best") & (pl.col("n_best") == 1) & (pl.col("score") > 0))
    ).with_columns(_evidence().alias("r_evidence"))
    tried = pairs.group_by("entry").agg(
        pl.col("r_id").sort().cast(pl.String).str.join(";").alias("r_candidates"),
        pl.col("n").first(),
    )
    entries = (
        entries.join(chosen.select("entry", "r_id", "r_evidence"), on="entry", how="left")
        .join(tried, on="entry", how="left")
        .with_columns(
            pl.coalesce("linked_id", "r_id").alias("linked_id"),
            pl.when(pl.col("r_id").is_not_null())
            .then(pl.lit("registry-name"))
            .otherwise(pl.col("method"))
            .alias("method"),
            pl.when(pl.col("r_id").is_null() & (pl.col("n") > 1))
            .then(pl.col("r_candidates"))
            .alias("candidates"),
            pl.coalesce("r_evidence", "evidence").alias("evidence"),
            (pl.col("searched") | (pl.col("linked_id").is_null() & ~pl.col("manual"))).alias(
                "searched"
            ),
        )
        .drop("r_id", "r_evidence", "r_candidates", "n")
    )
    entries, taken = _drop_taken(entries)
    ambiguous = entries.filter(pl.col("candidates").is_not_null()).sort(E_FILE, P_LINE)
    problems = taken + _ambiguous_problems(ambiguous, pairs)
    return entries, problems


def _evidence() -> pl.Expr:
    """What a name link rests on, for the identities table: ``name, federation, rating
    equal, birth year (chosen of 2)``."""
    parts = [
        pl.lit("name"),
        pl.when(pl.col("fed_known")).then(pl.lit("federation")),
        pl.when(pl.col("rating_equal"))
        .then(pl.lit("rating equal"))
        .when(pl.col("rating_known"))
        .then(pl.lit(f"rating within {RATING_TOLERANCE}")),
        pl.when(pl.col("agree_sex")).then(pl.lit("sex")),
        pl.when(pl.col("agree_birth")).then(pl.lit("birth year")),
        pl.when(pl.col("agree_title")).then(pl.lit("title")),
    ]
    chosen = pl.concat_str(pl.lit(" (chosen of "), pl.col("n").cast(pl.String), pl.lit(")"))
    return pl.concat_str(
        pl.concat_list(parts).list.drop_nulls().list.join(", "),
        pl.when(pl.col("n") > 1).then(chosen).otherwise(pl.lit("")),
    )


def _drop_taken(entries: pl.DataFrame) -> tuple[pl.DataFrame, list[Problem]]:
    """A name link to an ID another entry of the same event holds is dropped."""
    holders = pl.len().over(E_ID, "linked_id")
    taken = entries.filter(
        pl.col("linked_id").is_not_null(), holders > 1, pl.col("method") == "registry-name"
    )
    problems = [
        entry_problem(
            r,
            P_NAME,
            "identity-id-taken",
            f"expected one entry of the event for FIDE ID {r['linked_id']}, the name match "
            f"of {r[P_NAME]!r}, got another entry with that ID; not linked",
        )
        for r in taken.sort(E_FILE, P_LINE).iter_rows(named=True)
    ]
    if taken.is_empty():
        return entries, problems
    drop = pl.col("entry").is_in(taken["entry"].implode())
    return (
        entries.with_columns(
            pl.when(drop).then(None).otherwise(pl.col("linked_id")).alias("linked_id"),
            pl.when(drop).then(None).otherwise(pl.col("method")).alias("method"),
            pl.when(drop).then(None).otherwise(pl.col("evidence")).alias("evidence"),
        ),
        problems,
    )


def _ambiguous_problems(ambiguous: pl.DataFrame, pairs: pl.DataFrame) -> list[Problem]:
    if ambiguous.is_empty():
        return []
    shown = pairs.filter(pl.col("entry").is_in(ambiguous["entry"].implode())).sort("entry", "r_id")
    described: dict[int, list[str]] = {}
    for r in shown.iter_rows(named=True):
        rating = r[f"r_{r[E_LIST] or 'standard'}"]
        described.setdefault(r["entry"], []).append(
            f"{r['r_id']} {r['r_name']} ({r['r_fed'] or '-'}, {rating or 'unrated'})"
        )
    problems = []
    for r in ambiguous.iter_rows(named=True):
        listed = "; ".join(described.get(r["entry"], []))
        fed = r[P_FED] or "no federation"
        rating = r[P_RATING] or "unrated"
        problems.append(
            entry_problem(
                r,
                P_NAME,
                "identity-ambiguous",
                f"expected one rating-list player for {r[P_NAME]!r} ({fed}, {rating}), got "
                f"{len(described.get(r['entry'], []))}: {listed}; not linked (settle it with "
                "--identities)",
            )
        )
    return problems
