"""Who is who: every player entry of a run linked to a person (`link_players`).

In this order, each step for the entries the earlier ones left open:

1. The officer's decisions (`--identities`, `decisions.py`): a FIDE ID, or a veto ("not
   this person": the entry is never linked). Method ``manual``.
2. The file's own FIDE ID. Method ``file-id``. With a registry, an ID it does not hold
   (``identity-id-unknown``) or whose name shares no name with the file's
   (``identity-name-differs``) is a warning: a typo in an ID must not pass silently.
3. With a registry, a name match (method ``registry-name``): the rating-list players whose
   name has the same tokens in any order (`pipeline.ingest.names.name_key`; a file's
   ``Smith J.`` also matches ``Smith, John`` by surname and initials), and that nothing
   rules out: the federation where both have one, the file's rating on the event's list
   within `RATING_TOLERANCE` of the list's (for rapid and blitz, of the standard rating
   that stands in when the player is unrated there), the sex and birth year where both
   have one. One such player: linked. Several: the ones agreeing on most of sex, birth
   year and title; if that leaves one, linked, else ``identity-ambiguous`` (a warning
   naming the candidates). None: unmatched (counted in `IdentityResult.counts`, listed in
   the table; a new player is not a problem). A name link to a FIDE ID that another entry
   of the same event already has is dropped (``identity-id-taken``).
4. Across the events of the run (method ``run-name``): entries left without an ID that
   share the name key and federation with entries of other events are one player,
   unless the name occurs twice in one event or the entries disagree on FIDE ID, birth
   year or sex. Without a registry, an entry of the group that has a FIDE ID gives it to
   the others; with one, only entries the list does not hold are merged (the list's
   evidence wins). A merged group without an ID gets a `person_key` ``name:<key>|<fed>``.

`name_match=False` (``--no-name-match``) turns steps 3 and 4 off. Everything is joins and
group-bys over all entries of the run at once: the rating list's rows are cut to the
names the run can match when it is read (`pipeline.ingest.names.NameFilter`), and the
entries are joined with them on the name key and the initials key.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from pipeline.errors import Location, Problem, Severity
from pipeline.ingest.names import (
    NameFilter,
    full_tokens_expr,
    initials_key_expr,
    name_filter,
    name_key_expr,
    registry_initials_key_expr,
)
from pipeline.ingest.trf_fields import TITLE_NAMES
from pipeline.validate_checks import player_column
from schemas.ingest import Events, Players
from schemas.output import IDENTITY_METHODS
from schemas.registry import Registry

RATING_TOLERANCE = 50  # a list published after the event: at most this far from the file
PERSON_KEY = "person_key"

E_ID, E_FILE, E_NAME = str(Events.event_id), str(Events.file), str(Events.name)
E_LIST, E_SOURCE = str(Events.list), str(Events.source)
P_NO, P_NAME, P_FIDE = str(Players.start_no), str(Players.name), str(Players.fide_id)
P_FED, P_RATING, P_SEX = str(Players.federation), str(Players.rating), str(Players.sex)
P_BIRTH, P_TITLE, P_LINE = str(Players.birth_year), str(Players.title), str(Players.line)
R_ID = str(Registry.fideid)
_LIST_RATING = {"standard": "rating", "rapid": "rapid_rating", "blitz": "blitz_rating"}


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
        entries, found = _apply_decisions(entries, decisions, decisions_file)
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
        problems += _file_id_problems(entries, registry)
        if name_match:
            entries, found = _match_registry(entries, registry)
            problems += found
    if name_match:
        entries = _merge_run(entries, with_registry=registry is not None)
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


def _optional(frame: pl.DataFrame, name: str, dtype: pl.DataType) -> pl.Expr:
    return pl.col(name).cast(dtype) if name in frame.columns else pl.lit(None, dtype=dtype)


def _entries(players: pl.DataFrame, events: pl.DataFrame) -> pl.DataFrame:
    ev = events.select(
        E_ID,
        pl.col(E_FILE).str.replace_all("\\\\", "/", literal=True).alias("path"),
        pl.col(E_FILE),
        pl.col(E_NAME).alias("event"),
        _optional(events, E_LIST, pl.String()).alias(E_LIST),
        _optional(events, E_SOURCE, pl.String()).alias(E_SOURCE),
    )
    return (
        players.select(
            E_ID,
            P_NO,
            P_NAME,
            _optional(players, P_FIDE, pl.Int64()).alias(P_FIDE),
            _optional(players, P_FED, pl.String())
            .str.strip_chars()
            .str.to_uppercase()
            .alias(P_FED),
            _optional(players, P_RATING, pl.Int64()).alias(P_RATING),
            _optional(players, P_SEX, pl.String()).alias(P_SEX),
            _optional(players, P_BIRTH, pl.Int64()).alias(P_BIRTH),
            _optional(players, P_TITLE, pl.String()).str.to_uppercase().alias(P_TITLE),
            _optional(players, P_LINE, pl.Int64()).alias(P_LINE),
        )
        .with_row_index("entry")
        .join(ev, on=E_ID, how="left")
        .with_columns(
            name_key_expr(pl.col(P_NAME)).alias("key"),
            pl.col("path").str.split("/").list.last().alias("base"),
        )
    )


# --- 1. the officer's decisions -----------------------------------------------------------


def _apply_decisions(
    entries: pl.DataFrame, decisions: pl.DataFrame, file: str
) -> tuple[pl.DataFrame, list[Problem]]:
    d = decisions.with_columns(pl.col("d_file").str.split("/").list.last().alias("d_base"))
    cols = ["entry", "path", "event", P_NO, "key", "base"]
    e = entries.select(cols)
    parts = []
    for where, where_d in (("base", "d_base"), ("event", "d_event")):
        for who, who_d in ((P_NO, "d_start_no"), ("key", "d_name_key")):
            chosen = d.filter(pl.col(where_d).is_not_null(), pl.col(who_d).is_not_null())
            if where == "event":
                chosen = chosen.filter(pl.col("d_file").is_null())
            if who == "key":
                chosen = chosen.filter(pl.col("d_start_no").is_null())
            parts.append(e.join(chosen, left_on=[where, who], right_on=[where_d, who_d]))
    matched = pl.concat(parts, how="diagonal_relaxed") if parts else pl.DataFrame()
    same_path = (pl.col("path") == pl.col("d_file")) | pl.col("path").str.ends_with(
        pl.concat_str(pl.lit("/"), pl.col("d_file"))
    )
    matched = matched.filter(
        pl.col("d_file").is_null() | same_path,
        pl.col("d_event").is_null() | (pl.col("event") == pl.col("d_event")),
        pl.col("d_start_no").is_null() | (pl.col(P_NO) == pl.col("d_start_no")),
        pl.col("d_name_key").is_null() | (pl.col("key") == pl.col("d_name_key")),
    ).unique(["entry", "d_line"])
    problems: list[Problem] = []
    conflicts = matched.filter(pl.col("d_fide_id").n_unique().over("entry") > 1).sort("d_line")
    for entry, rows in conflicts.group_by("entry", maintain_order=True):
        lines = rows["d_line"].to_list()
        del entry
        problems.append(
            Problem(
                Location(file, lines[-1], "fide_id"),
                "identity-conflict",
                f"expected one decision per player, got FIDE IDs {_ids(rows['d_fide_id'])} "
                f"for the same entry on lines {', '.join(map(str, lines))}",
            )
        )
    used = set(matched["d_line"].to_list())
    for row in decisions.filter(~pl.col("d_line").is_in(list(used))).iter_rows(named=True):
        problems.append(
            Problem(
                Location(file, row["d_line"]),
                "identity-row-unused",
                "expected the row to name a player of these events, got none: "
                f"{_decision_text(row)}",
                Severity.WARNING,
            )
        )
    chosen = (
        matched.sort("d_line")
        .group_by("entry")
        .agg(pl.col("d_fide_id").first().alias("manual_id"))
        .with_columns(manual=pl.lit(True))
    )
    entries = entries.join(chosen, on="entry", how="left").with_columns(
        pl.col("manual").fill_null(False)
    )
    return entries, problems


def _ids(series: pl.Series) -> str:
    return ", ".join("empty" if v is None else str(v) for v in series.unique(maintain_order=True))


def _decision_text(row: dict[str, object]) -> str:
    where = f"file {row['d_file']!r}" if row["d_file"] else f"event {row['d_event']!r}"
    who = f"start no. {row['d_start_no']}" if row["d_start_no"] else f"name {row['d_name']!r}"
    return f"{where}, {who}"


# --- 2. the file's own IDs against the registry --------------------------------------------


def _file_id_problems(entries: pl.DataFrame, registry: pl.DataFrame) -> list[Problem]:
    reg = registry.select(
        pl.col(R_ID).cast(pl.Int64).alias("linked_id"),
        _optional(registry, str(Registry.name), pl.String()).alias("r_name"),
        pl.lit(True).alias("r_found"),
    )
    with_id = entries.filter(pl.col("method") == "file-id").join(reg, on="linked_id", how="left")
    problems: list[Problem] = []
    unknown = with_id.filter(pl.col("r_found").is_null()).sort(E_FILE, P_LINE)
    for r in unknown.iter_rows(named=True):
        problems.append(
            _entry_problem(
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
            _entry_problem(
                r,
                P_FIDE,
                "identity-name-differs",
                f"expected the rating list's player of FIDE ID {r['linked_id']}, "
                f"{r['r_name']!r}, to be {r[P_NAME]!r}, got another name: check the ID",
            )
        )
    return problems


def _shares_a_token(a: pl.Expr, b: pl.Expr) -> pl.Expr:
    """Whether two names share a full token (`names.token_overlap`)."""
    return full_tokens_expr(a).list.set_intersection(full_tokens_expr(b)).list.len() > 0


def _entry_problem(r: dict[str, object], field_: str, code: str, message: str) -> Problem:
    source = str(r.get(E_SOURCE) or "")
    line = r.get(P_LINE)
    return Problem(
        Location(
            str(r[E_FILE]), line if isinstance(line, int) else None, player_column(source, field_)
        ),
        code,
        message,
        Severity.WARNING,
    )


# --- 3. name matches in the registry -------------------------------------------------------


def _title_expr(expr: pl.Expr) -> pl.Expr:
    return (
        expr.str.strip_chars()
        .str.to_lowercase()
        .replace_strict(
            TITLE_NAMES, default=expr.str.strip_chars().str.to_uppercase(), return_dtype=pl.String
        )
    )


def _sex_expr(expr: pl.Expr) -> pl.Expr:
    return expr.str.strip_chars().str.to_lowercase().replace({"f": "w"})


def registry_candidates(registry: pl.DataFrame) -> pl.DataFrame:
    """The rating list's columns a name match compares, with its name keys."""
    return registry.select(
        pl.col(R_ID).cast(pl.Int64).alias("r_id"),
        _optional(registry, str(Registry.name), pl.String()).alias("r_name"),
        _optional(registry, str(Registry.country), pl.String()).str.to_uppercase().alias("r_fed"),
        _sex_expr(_optional(registry, str(Registry.sex), pl.String())).alias("r_sex"),
        _optional(registry, str(Registry.birthday), pl.Int64()).alias("r_birth"),
        _title_expr(_optional(registry, str(Registry.title), pl.String())).alias("r_title"),
        *[
            _optional(registry, column, pl.Int64()).alias(f"r_{lst}")
            for lst, column in _LIST_RATING.items()
        ],
    ).with_columns(
        name_key_expr(pl.col("r_name")).alias("r_key"),
        registry_initials_key_expr(pl.col("r_name")).alias("r_ikey"),
    )


def _match_registry(
    entries: pl.DataFrame, registry: pl.DataFrame
) -> tuple[pl.DataFrame, list[Problem]]:
    open_ = entries.filter(pl.col("linked_id").is_null(), ~pl.col("manual"))
    names = open_.select("entry", "key", initials_key_expr(pl.col(P_NAME)).alias("ikey")).filter(
        pl.col("key") != ""
    )
    reg = registry_candidates(registry)
    by_key = names.join(reg, left_on="key", right_on="r_key")
    by_initials = names.filter(pl.col("ikey") != "").join(
        reg.filter(pl.col("r_ikey") != ""), left_on="ikey", right_on="r_ikey"
    )
    pairs = (
        pl.concat([by_key.select("entry", "r_id"), by_initials.select("entry", "r_id")])
        .unique(["entry", "r_id"])
        .join(reg, on="r_id")
        .join(
            open_.select("entry", P_FED, P_RATING, P_SEX, P_BIRTH, P_TITLE, E_LIST),
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
    compared = ((P_FED, "r_fed"), (P_SEX, "r_sex"), (P_BIRTH, "r_birth"), (P_TITLE, "r_title"))
    both = {
        mine: pl.col(mine).is_not_null() & pl.col(theirs).is_not_null() for mine, theirs in compared
    }
    pairs = pairs.with_columns(
        fed_known=both[P_FED],
        rating_known=pl.col(P_RATING).is_not_null(),
        rating_equal=pl.col(P_RATING) == pl.coalesce(list_rating, stands_in),
    ).filter(
        ~both[P_FED] | (pl.col(P_FED) == pl.col("r_fed")),
        pl.col(P_RATING).is_null() | near.fill_null(False) | near_standard.fill_null(False),
        ~both[P_SEX] | (_sex_expr(pl.col(P_SEX)) == pl.col("r_sex")),
        ~both[P_BIRTH] | (pl.col(P_BIRTH) == pl.col("r_birth")),
    )
    agree = [
        (both[P_SEX] & (_sex_expr(pl.col(P_SEX)) == pl.col("r_sex"))).alias("agree_sex"),
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
        _entry_problem(
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
            _entry_problem(
                r,
                P_NAME,
                "identity-ambiguous",
                f"expected one rating-list player for {r[P_NAME]!r} ({fed}, {rating}), got "
                f"{len(described.get(r['entry'], []))}: {listed}; not linked (settle it with "
                "--identities)",
            )
        )
    return problems


# --- 4. one player across the events of the run ---------------------------------------------


def _merge_run(entries: pl.DataFrame, with_registry: bool) -> pl.DataFrame:
    group = ["key", "fed_key"]
    vetoed = pl.col("manual") & pl.col("linked_id").is_null()
    open_ = pl.col("linked_id").is_null() & ~pl.col("manual") & pl.col("candidates").is_null()
    member = open_ if with_registry else (open_ | pl.col("linked_id").is_not_null())
    frame = entries.with_columns(
        pl.col(P_FED).fill_null("").alias("fed_key"),
        (member & ~vetoed & (pl.col("key") != "")).alias("member"),
    )
    m = frame.filter("member")
    stats = m.group_by(group).agg(
        pl.col(E_ID).n_unique().alias("events"),
        pl.len().alias("entries"),
        pl.col("linked_id").drop_nulls().n_unique().alias("ids"),
        pl.col("linked_id").drop_nulls().first().alias("group_id"),
        pl.col(P_BIRTH).drop_nulls().n_unique().alias("births"),
        pl.col(P_SEX).drop_nulls().n_unique().alias("sexes"),
        pl.col("linked_id").is_null().sum().alias("open"),
    )
    merged = stats.filter(
        pl.col("events") > 1,
        pl.col("events") == pl.col("entries"),  # the name twice in one event: no merge
        pl.col("ids") <= 1,
        pl.col("births") <= 1,
        pl.col("sexes") <= 1,
        pl.col("open") > 0,
    ).select(*group, "group_id", pl.lit(True).alias("merge"))
    frame = frame.join(merged, on=group, how="left")
    receive = pl.col("member") & pl.col("merge").fill_null(False) & pl.col("linked_id").is_null()
    person = pl.concat_str(pl.lit("name:"), pl.col("key"), pl.lit("|"), pl.col("fed_key"))
    return frame.with_columns(
        pl.when(receive).then(pl.col("group_id")).otherwise(pl.col("linked_id")).alias("linked_id"),
        pl.when(receive).then(pl.lit("run-name")).otherwise(pl.col("method")).alias("method"),
        pl.when(receive & pl.col("group_id").is_null())
        .then(person)
        .otherwise(pl.col(PERSON_KEY))
        .alias(PERSON_KEY),
        pl.when(receive)
        .then(pl.lit("the same name and federation in other events of the run"))
        .otherwise(pl.col("evidence"))
        .alias("evidence"),
    ).drop("fed_key", "member", "group_id", "merge")


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
