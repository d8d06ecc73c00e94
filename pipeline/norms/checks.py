"""Title-norm checks (FIDE Handbook B.01, Title Regulations applied from 1 January 2024)
for every player, event and norm sought (GM, IM, WGM, WIM) at once, in polars.

`norm_checks(games, players, events, options)` takes the rate stage's games frame
(`RateResult.games`: contract columns plus `event_id`, `start_no`, `opponent_no`, `code`),
the players frame (`federation`, `title`, `sex`) and the events frame (`federation` = the
host, TRF 032; `list`, dates, `rounds`, `time_control`) and returns `NormChecks`:

- `norms`: one row per player entry, event and norm (`NORM_COLUMNS`): `verdict` is
  ``met`` (every requirement holds), ``not met`` (`failing` names every requirement
  that fails) or ``cannot tell`` (none fails, but one needs a fact the file lacks:
  `missing` says which and how to supply it). `title_performance` is true when Ra, Rp and
  the 35 % hold: a player with a title performance and a ``not met`` verdict made the
  score but not the conditions. `in_reach`: Rp at most 50 below the norm's `min_rp`.
  `score_required` is the IT1's: the smallest half-point score of the games counted that
  gives Rp >= `min_rp` and 35 % (null when none does).
- `checks`: one row per requirement (`CHECK_COLUMNS`): `rule`, `article`, `counted`,
  `required`, `comparison` (``>=`` or ``<=``), `ok` (null: cannot tell), `missing` (a key
  of `SUPPLY`) and a `note`.
- `events`: the event facts (`pipeline.norms.event_facts`).

The requirements, each per norm sought (docs/rules.md "Title norms"):

| rule | article | counted | required |
|---|---|---|---|
| standard | 0.5 | 1 when the event is on the standard list | 1 |
| time-control | 1.1.3 | minutes each player has for 60 moves | >= 120 |
| rounds-per-day | 1.1.3 | rounds / days, rounded up (the file has no daily schedule) | <= 2 |
| ratings-date | 1.1.4 | days of the event | <= 30, else each game's ratings |
| games | 1.4.1a/b/c | games counted | >= 9 (7, 8: 1.4.1b; 8: 1.4.1c) |
| title-holders | 1.4.5a | opponents GM IM WGM WIM FM WFM | >= n/2 rounded up |
| target-titles | 1.4.5b-e | opponents with the norm's title or higher | >= max(3, n/3 up) |
| drr-players | 1.4.5 | players of a double round-robin | >= 6 |
| other-federations | 1.4.3 | federations of opponents other than the player's | >= 2 |
| own-federation | 1.4.4 | opponents of the player's federation | <= 3n/5 down |
| one-federation | 1.4.4 | opponents of the most frequent federation | <= 2n/3 down |
| floor | 1.4.6b-c | the lowest game's rating (unrated 1400), raised when below | the floor |
| average-rating | 1.4.8 | Ra with the floor | >= 2380 / 2230 / 2180 / 2030 |
| performance | 1.4.8 | Rp = Ra + dp | >= 2600 / 2450 / 2400 / 2250 |
| minimum-score | 1.4.8b | score | >= 35 % of the games |
| sex | 0.5 | WGM/WIM: 1 for a woman | 1 |

Games counted: those played over the board (as `pipeline.norms.performance`), less the
games of a round-robin against an unrated opponent who scored zero against the rated
players (1.4.2b: `excluded`). An opponent met twice counts twice. 1.4.1c: in a 9-round
event, 8 games and one forfeit win or pairing-allocated bye: 8 games suffice, thresholds
on 8 (`NormOptions.eight_games`). The federation rules (1.4.3, 1.4.4) hold for an exempt
event: 1.4.3a (national championship, players of the host federation), 1.4.3b (national
team championship, same), 1.4.3c (zonal), 1.4.3d (a Swiss whose every round has 20
foreign rated players of 3 federations, 10 of them titled: read from the file). The FIDE
flag is no federation (`fid_is_federation`). Unknown facts: an opponent without title
(when the event's file carries no title at all) or federation counts as unknown; a check
that unknowns could decide is ``cannot tell``, one that holds whatever they are holds.

No per-game or per-player Python: each step is a polars query over every game; only the
event facts read each event's time-control text in Python.

Not checked (not in the file, or for the title application rather than one event): a
last-round forfeit (1.4.2c), opponents outside FIDE federations (1.4.2a), events altered
to favour a player (1.4.2d), dropping games under 1.4.1e-f, the 13-game cap and the
27-game total (1.7, 1.5.1), 1.4.3e, 1.5.6, 1.1.3a, the arbiters (1.1.5-1.1.6), the
event's registration, and the titles' confirmation dates.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import polars as pl

from pipeline.norms.event_facts import FORFEIT_WIN, PAB, event_facts, title_expr
from pipeline.norms.performance import OVER_THE_BOARD, dp_expr, half_up_mean_expr, percentage_expr
from pipeline.norms.requirements import REACH, check_columns, score_required_expr
from pipeline.norms.titles import (
    MIN_RA,
    MIN_RP,
    NO_FEDERATION,
    ROUND_ROBINS,
    SUPPLY,
    TARGETS,
    TITLE_HOLDERS,
    WOMEN_TITLES,
    NormOptions,
)
from schemas.columns import E, G, P

KEY: Final = (E.ID, G.NO, "title")
NORM_COLUMNS: Final = [
    "event_id", "start_no", "event", "name", "fide_id", "title", "verdict", "games",
    "score", "score_required", "ra", "rp", "min_rp", "floor_applied", "title_performance",
    "in_reach", "failing", "missing", "excluded", "event_type",
]  # fmt: skip
CHECK_COLUMNS: Final = [
    "event_id", "start_no", "title", "rule", "article", "counted", "required",
    "comparison", "ok", "missing", "note",
]  # fmt: skip
INPUT_COLUMNS: Final = (
    E.ID, G.NO, G.OPP, G.ROUND, G.CODE, "tournament", "list", "fide_id", "name",
    "rating", "opponent_rating", "score", "reason",
)  # fmt: skip


@dataclass(frozen=True)
class NormChecks:
    """`norms` (`NORM_COLUMNS`), `checks` (`CHECK_COLUMNS`) and the event facts
    (`event_facts.FACT_COLUMNS`)."""

    norms: pl.DataFrame
    checks: pl.DataFrame
    events: pl.DataFrame


def _people(players: pl.DataFrame) -> pl.LazyFrame:
    return players.lazy().select(
        pl.col(P.EVENT).alias(E.ID),
        pl.col(P.NO).alias(G.NO),
        pl.col(P.FED).str.strip_chars().str.to_uppercase().alias("fed"),
        title_expr(P.TITLE).alias("own_title"),
        pl.col(P.SEX).str.strip_chars().str.to_lowercase().alias("sex"),
    )


def _game_rows(games: pl.DataFrame, players: pl.DataFrame, facts: pl.DataFrame) -> pl.LazyFrame:
    """The games with the opponents' federation and title, `_otb` (played over the
    board) and `_counted` (less 1.4.2b's games)."""
    people = _people(players)
    titled = people.group_by(E.ID).agg(pl.col("own_title").is_not_null().any().alias("_tk"))
    otb = pl.col("reason").fill_null("").is_in(OVER_THE_BOARD)
    halves = (pl.col("score").cast(pl.Float64) * 2).round(0).cast(pl.Int64)
    rows = (
        games.lazy()
        .select(*INPUT_COLUMNS)
        .with_columns(otb.alias("_otb"), halves.alias("_s2"))
        .join(facts.lazy().select(E.ID, "event_type"), on=E.ID, how="left")
    )
    rated_opp = pl.col("_otb") & pl.col("opponent_rating").is_not_null()
    zero = (
        rows.group_by(E.ID, G.NO)
        .agg(
            pl.col("rating").first().is_null().alias("_unrated"),
            rated_opp.sum().alias("_vs_rated"),
            pl.col("_s2").filter(rated_opp).sum().alias("_s2_rated"),
        )
        .select(
            E.ID,
            pl.col(G.NO).alias(G.OPP),
            (pl.col("_unrated") & (pl.col("_vs_rated") > 0) & (pl.col("_s2_rated") == 0)).alias(
                "_opp_zero"
            ),
        )
    )
    opponents = people.select(
        E.ID, pl.col(G.NO).alias(G.OPP), pl.col("fed").alias("opp_fed"),
        pl.col("own_title").alias("opp_title"),
    )  # fmt: skip
    excluded = (
        pl.col("_otb")
        & pl.col("event_type").is_in(list(ROUND_ROBINS))
        & pl.col("_opp_zero").fill_null(False)
    )
    return (
        rows.join(opponents, on=[E.ID, G.OPP], how="left")
        .join(people, on=[E.ID, G.NO], how="left")
        .join(zero, on=[E.ID, G.OPP], how="left")
        .join(titled, on=E.ID, how="left")
        .with_columns(excluded.alias("_excluded"))
        .with_columns((pl.col("_otb") & ~pl.col("_excluded")).alias("_counted"))
    )


def _per_player(rows: pl.LazyFrame, o: NormOptions) -> pl.LazyFrame:
    """One row per (event, start_no): the counts every norm reads."""
    c = pl.col("_counted")
    valued = pl.col("opponent_rating").cast(pl.Int64).fill_null(o.unrated_norm)
    known = pl.col("_tk").fill_null(False)
    title, fed = pl.col("opp_title"), pl.col("opp_fed")
    a_fed = fed.is_not_null() & (pl.lit(o.fid_is_federation) | (fed != NO_FEDERATION))
    aside = ~pl.col("_otb") & pl.col(G.CODE).is_in([FORFEIT_WIN, PAB])
    per = rows.group_by(E.ID, G.NO).agg(
        pl.col("tournament", "list", "fide_id", "name", "fed", "own_title", "sex").first(),
        c.sum().cast(pl.Int64).alias("games"),
        pl.col("_s2").filter(c).sum().alias("_s2"),
        valued.filter(c).sum().alias("_sum"),
        valued.filter(c).min().alias("_min"),
        pl.col("_excluded").sum().cast(pl.Int64).alias("excluded"),
        aside.sum().cast(pl.Int64).alias("_aside"),
        pl.len().cast(pl.Int64).alias("_rows"),
        known.first().alias("_titles_known"),
        (c & known & title.is_in(list(TITLE_HOLDERS))).sum().cast(pl.Int64).alias("_holders"),
        *(
            (c & known & title.is_in(list(TARGETS[t]))).sum().cast(pl.Int64).alias(f"_tg_{t}")
            for t in o.titles
        ),
        (c & fed.is_null()).sum().cast(pl.Int64).alias("_fed_unknown"),
        (c & a_fed & (fed == pl.col("fed"))).sum().cast(pl.Int64).alias("_own"),
    )
    feds = (
        rows.filter(c & a_fed)
        .group_by(E.ID, G.NO, "opp_fed")
        .agg(pl.len().cast(pl.Int64).alias("_k"), pl.col("fed").first())
        .group_by(E.ID, G.NO)
        .agg(
            pl.col("_k").max().alias("_top"),
            pl.col("opp_fed")
            .filter(pl.col("opp_fed") != pl.col("fed").fill_null(""))
            .n_unique()
            .cast(pl.Int64)
            .alias("_others"),
        )
    )
    return per.join(feds, on=[E.ID, G.NO], how="left").with_columns(
        pl.col("_top", "_others").fill_null(0)
    )


def _per_norm(per: pl.LazyFrame, facts: pl.DataFrame, o: NormOptions) -> pl.LazyFrame:
    """One row per (event, start_no, norm sought) with the figures the rules read; no row
    for a man's WGM/WIM norm nor (`skip_held`) for a title held or a higher one."""
    titles = pl.LazyFrame(
        {
            "title": list(o.titles),
            "floor": [o.floors[t] for t in o.titles],
            "min_ra": [MIN_RA[t] for t in o.titles],
            "min_rp": [MIN_RP[t] for t in o.titles],
        },
        schema={"title": pl.String, "floor": pl.Int64, "min_ra": pl.Int64, "min_rp": pl.Int64},
    )
    target: pl.Expr = pl.lit(None, dtype=pl.Int64)
    held: pl.Expr = pl.lit(False)
    for t in o.titles:
        is_t = pl.col("title") == t
        target = pl.when(is_t).then(pl.col(f"_tg_{t}")).otherwise(target)
        held = pl.when(is_t).then(pl.col("own_title").is_in(list(TARGETS[t]))).otherwise(held)
    keep = ~(pl.col("title").is_in(list(WOMEN_TITLES)) & (pl.col("sex") == "m")).fill_null(False)
    if o.skip_held:
        keep = keep & ~held.fill_null(False)
    n = pl.col("games")
    raise_by = (pl.col("floor") - pl.col("_min")).clip(lower_bound=0).fill_null(0)
    return (
        per.join(facts.lazy().drop(E.LIST), on=E.ID, how="left")
        .join(titles, how="cross")
        .filter(keep)
        .with_columns(
            target.alias("_target"),
            half_up_mean_expr(pl.col("_sum") + raise_by, n).alias("ra"),
            (raise_by > 0).alias("floor_applied"),
            percentage_expr(pl.col("_s2"), n).alias("_pct"),
            (pl.col("_s2") / 2).alias("score"),
        )
        .with_columns((pl.col("ra") + dp_expr(pl.col("_pct"))).alias("rp"))
        .with_columns(
            score_required_expr(o).alias("score_required"),
            (pl.col("rp") >= pl.col("min_rp") - REACH).fill_null(False).alias("in_reach"),
        )
    )


def _verdicts(columns: list[tuple[str, str]]) -> list[pl.Expr]:
    """The norms frame's verdict columns from the rules' check columns (rule, column)."""
    oks = {rule: pl.col(name).struct.field("ok") for rule, name in columns}
    applies = [pl.col(name).is_not_null() for _, name in columns]
    fails = [(ok == False).fill_null(False) for ok in oks.values()]  # noqa: E712
    unknown = [ok.is_null() & a for ok, a in zip(oks.values(), applies, strict=True)]
    el = pl.element()
    supply = el.replace_strict(list(SUPPLY), list(SUPPLY.values()), default=el)
    missing = [pl.col(name).struct.field("missing") for _, name in columns]
    performance = [oks[r] for r in ("average-rating", "performance", "minimum-score")]
    return [
        pl.when(pl.any_horizontal(fails))
        .then(pl.lit("not met"))
        .when(pl.any_horizontal(unknown))
        .then(pl.lit("cannot tell"))
        .otherwise(pl.lit("met"))
        .alias("verdict"),
        pl.concat_list([pl.when(f).then(pl.lit(r)) for r, f in zip(oks, fails, strict=True)])
        .list.drop_nulls()
        .alias("failing"),
        pl.concat_list(missing)
        .list.drop_nulls()
        .list.unique(maintain_order=True)
        .list.eval(supply)
        .alias("missing"),
        pl.all_horizontal(performance).fill_null(False).alias("title_performance"),
    ]


def norm_checks(
    games: pl.DataFrame,
    players: pl.DataFrame,
    events: pl.DataFrame,
    options: NormOptions | None = None,
) -> NormChecks:
    """The norm checks of every player entry of `games` (see the module docstring): the
    norms frame in the games' order of events, then start number and the order of
    `options.titles`; the checks in that order, then the rules' order."""
    o = options or NormOptions()
    unknown = [t for t in o.titles if t not in TARGETS]
    if unknown:
        raise ValueError(f"norm titles: expected some of {list(TARGETS)}, got {unknown}")
    absent = [name for name in INPUT_COLUMNS if name not in games.columns]
    if absent:
        raise ValueError(f"norm checks: expected the games frame's columns, missing {absent}")
    facts = event_facts(games, players, events, o)
    rows = _game_rows(games, players, facts)
    per = _per_norm(_per_player(rows, o), facts, o)
    order = games.lazy().select(E.ID).unique(maintain_order=True).with_row_index("_ev")
    titles = pl.LazyFrame({"title": list(o.titles)}).with_row_index("_t")
    columns = [(rule, f"_c{i}") for i, (rule, _) in enumerate(check_columns(o))]
    per_rows = (
        per.join(order, on=E.ID)
        .join(titles, on="title")
        .sort("_ev", G.NO, "_t")
        .with_columns(expr.alias(f"_c{i}") for i, (_, expr) in enumerate(check_columns(o)))
        .with_row_index("_i")
        .collect()
    )
    # one row per check: the norm rows' order, then the rules'
    names = [name for _, name in columns]
    checks_out = (
        per_rows.lazy()
        .select("_i", *KEY, *names)
        .unpivot(on=names, index=["_i", *KEY], variable_name="_r", value_name="_check")
        .drop_nulls("_check")
        .sort("_i", pl.col("_r").str.slice(2).cast(pl.Int64))
        .unnest("_check")
        .select(*CHECK_COLUMNS)
        .collect()
    )
    norms_out = (
        per_rows.lazy()
        .rename({"tournament": "event"})
        .with_columns(_verdicts(columns))
        .select(*NORM_COLUMNS)
        .collect()
    )
    return NormChecks(norms=norms_out, checks=checks_out, events=facts)


__all__ = ["CHECK_COLUMNS", "INPUT_COLUMNS", "NORM_COLUMNS", "NormChecks", "norm_checks"]
