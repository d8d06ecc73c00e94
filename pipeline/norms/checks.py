"""Title-norm checks (FIDE Handbook B.01, Title Regulations applied from 1 January 2024)
for every player, event and norm sought (GM, IM, WGM, WIM) at once, in polars.

`norm_checks(games, players, events, options, *, checks)` takes the rate stage's games
frame (`RateResult.games`: contract columns plus `event_id`, `start_no`, `opponent_no`,
`code`), the players frame (`federation`, `title`, `sex`) and the events frame
(`federation` = the host, TRF 032; `list`, dates, `rounds`, `time_control`, and the
officer's `event_type` when decided) and returns `NormChecks`:

- `norms`: one row per player entry, event and norm (`NORM_COLUMNS`): `verdict` is
  ``met`` (every requirement holds), ``not met`` (`failing` names every requirement
  that fails) or ``cannot tell`` (none fails, but one needs a fact the file lacks:
  `missing` names it, a key of `titles.SUPPLY`, which says how to supply it).
  `title_performance` is true when Ra, Rp and the 35 % hold: a player with a title
  performance and a ``not met`` verdict made the score but not the conditions.
  `in_reach`: Rp at most 50 below the norm's `min_rp`. `why`, for the rows met, with a
  title performance or in reach: each failing requirement as "rule counted < required
  (article)", "; "-separated (null elsewhere, or when none fails).
  `score_required` is the IT1's: the smallest half-point score of the games counted that
  gives Rp >= `min_rp` and 35 % (null when none does). `games_credited` (null unless
  ``met``): the games the norm counts toward a title application's 27 (1.5.1): the
  games counted (9 for a World Cup norm of 8 games, 1.4.1b, and in the 1.4.1c case),
  plus one per full point scored above `score_required` (1.4.1d), the whole capped at
  13 (1.7: an event of more than 13 rounds counts as 13 games). The project's choice:
  the cap applies after the overscore is added, so 12 games and two points over give
  13, not 14 (the text caps the event's games; 1.4.1d's extra games are read as part of
  the norm's count).
- `checks`: one row per requirement (`CHECK_COLUMNS`): `rule`, `article`, `counted`,
  `required`, `comparison` (``>=`` or ``<=``), `ok` (null: cannot tell), `missing` (a key
  of `SUPPLY`) and a `note`. `checks="all"` (the default) gives every norm row's;
  ``"reach"`` only those of the rows met, with a title performance or in reach (what
  `elo run` and `elo norms` show); ``"none"`` an empty frame.
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

Games counted: as `pipeline.norms.counts` says (over the board, less 1.4.2b's games in a
round-robin: `excluded`). 1.4.1c: in a 9-round event, 8 games and one forfeit win or
pairing-allocated bye: 8 games suffice, thresholds on 8 (`NormOptions.eight_games`).
1.4.2c: when the player's game of the last round was lost by forfeit (TRF ``-``), the
`games` check's note says so ("judge by hand") and, when the row has the opponent's
rating, gives the games, Ra and Rp with that game counted as a played loss and whether
that is a title performance; the verdict does not change. The federation rules (1.4.3,
1.4.4) hold for an exempt event: 1.4.3a (national championship, players of the host
federation), 1.4.3b (national team championship, same), 1.4.3c (zonal), 1.4.3d (a Swiss
whose every round has 20 foreign rated players of 3 federations, 10 of them titled: read
from the file). Unknown facts: an opponent without title (when the event's file carries
no title at all) or federation counts as unknown; a check that unknowns could decide is
``cannot tell``, one that holds whatever they are holds.

How it runs: no per-game or per-player Python; the games are read once, on integer keys
(`event_facts.KEY`), into one row per player entry (`counts.player_counts`). The rules
that do not depend on the norm sought are checked on those rows; one row per norm is
then made for the others and the verdict. A verdict's failing rules and missing facts
are kept as integers (a bit and a digit per rule) and turned into lists once per
distinct value; the check rows are made only for the norm rows asked for. Only the event
facts read each event's time-control text in Python.

Not checked (not in the file, or for the title application rather than one event): the
1.4.2c last-round forfeit (noted, see above), opponents outside FIDE federations
(1.4.2a), events altered to favour a player (1.4.2d), dropping games under 1.4.1e-f, the
27-game total (1.5.1), 1.4.3e, 1.5.6, 1.1.3a, the arbiters (1.1.5-1.1.6), the event's
registration, and the titles' confirmation dates.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

import polars as pl
import polars.selectors as cs

from pipeline.norms.counts import PREFIX, performance_of, player_counts
from pipeline.norms.event_facts import (
    FACT_COLUMNS,
    coded_games,
    coded_players,
    event_codes,
    facts_frame,
)
from pipeline.norms.performance import (
    PerformanceOptions,
    dp_expr,
    half_up_mean_expr,
    percentage_expr,
)
from pipeline.norms.requirements import (
    REACH,
    RULES,
    Check,
    games_credited_expr,
    rule_checks,
    score_required_expr,
)
from pipeline.norms.titles import MIN_RA, MIN_RP, SUPPLY, TARGETS, WOMEN_TITLES, NormOptions
from schemas.columns import E, G

NORM_COLUMNS: Final = [
    "event_id", "start_no", "event", "name", "fide_id", "title", "verdict", "games",
    "score", "score_required", "games_credited", "ra", "rp", "min_rp", "floor_applied",
    "title_performance", "in_reach", "failing", "missing", "excluded", "event_type", "why",
]  # fmt: skip
CHECK_COLUMNS: Final = [
    "event_id", "start_no", "title", "rule", "article", "counted", "required",
    "comparison", "ok", "missing", "note",
]  # fmt: skip
INPUT_COLUMNS: Final = (
    E.ID, G.NO, G.OPP, G.ROUND, G.CODE, "tournament", "list", "fide_id", "name",
    "rating", "opponent_rating", "score", "reason",
)  # fmt: skip
# which norm rows get their check rows (`norm_checks`' `checks`)
CheckRows = Literal["all", "reach", "none"]
_BASE: Final = len(SUPPLY) + 1  # the digits of `_miss_code`: no fact, or one of SUPPLY
assert _BASE ** len(RULES) < 2**63, "the missing facts' code must fit an Int64"
# the per-norm rows' columns that depend on the norm sought (the others: on the player)
_NORM_LEVEL: Final = frozenset({"title", "floor", "min_ra", "min_rp", "_target", "ra", "rp",
                                "floor_applied", "_pct", "score_required", "in_reach"})  # fmt: skip


@dataclass(frozen=True)
class NormChecks:
    """`norms` (`NORM_COLUMNS`), `checks` (`CHECK_COLUMNS`), the event facts
    (`event_facts.FACT_COLUMNS`) and, when asked for, the performance ratings."""

    norms: pl.DataFrame
    checks: pl.DataFrame
    events: pl.DataFrame
    # performance.csv's rows, event id and start number first (`norm_checks`' `performance`)
    performance: pl.DataFrame | None = None


def _roots(*exprs: pl.Expr) -> set[str]:
    """The columns the expressions read."""
    return {name for e in exprs for name in e.meta.root_names()}


def _per_title(check: Check) -> bool:
    """Whether the rule's verdict depends on the norm sought (else on the player only)."""
    return bool(_roots(check.ok, check.missing, check.applies) & _NORM_LEVEL)


def _verdict_codes(rules: dict[int, Check]) -> tuple[pl.Expr, pl.Expr, pl.Expr]:
    """Of the rules by index, from their `_ok{i}` and `_m{i}` columns: the failing
    ones (bit i for rule i), the missing facts (rule i's `MISSING` key + 1 as digit i,
    base `_BASE`) and whether one cannot tell."""
    oks = {i: pl.col(f"_ok{i}") for i in rules}
    fails = [(ok == False).fill_null(False).cast(pl.Int64) * (1 << i) for i, ok in oks.items()]  # noqa: E712
    facts = [
        (pl.col(f"_m{i}").to_physical().cast(pl.Int64) + 1).fill_null(0) * _BASE**i for i in rules
    ]
    unknown = [ok.is_null() & rules[i].applies for i, ok in oks.items()]
    return (
        pl.sum_horizontal(fails) if fails else pl.lit(0, dtype=pl.Int64),
        pl.sum_horizontal(facts) if facts else pl.lit(0, dtype=pl.Int64),
        pl.any_horizontal(unknown) if unknown else pl.lit(False),
    )


def _players(per: pl.DataFrame, rules: dict[int, Check]) -> pl.DataFrame:
    """The per-player rows with the checks of the rules that do not depend on the norm
    sought (`_ok{i}`, `_m{i}`) and their codes (`_p_fail`, `_p_miss`, `_p_unknown`)."""
    mask, code, unknown = _verdict_codes(rules)
    return (
        per.lazy()
        .with_columns((pl.col("_s2") / 2).alias("score"))
        .with_columns(
            *(c.ok.alias(f"_ok{i}") for i, c in rules.items()),
            *(c.missing.alias(f"_m{i}") for i, c in rules.items()),
        )
        .with_columns(mask.alias("_p_fail"), code.alias("_p_miss"), unknown.alias("_p_unknown"))
        .collect(engine="in-memory")
    )


def _norm_rows(players: pl.DataFrame, rules: list[Check], o: NormOptions) -> pl.DataFrame:
    """One row per (player entry, norm sought), `_p` its player row, with the figures
    and checks that depend on the norm and the verdict; no row for a man's WGM/WIM norm
    nor (`skip_held`) for a title held or a higher one."""
    titles = list(o.titles)
    t = pl.col("_t")

    def by_title(values: list[Any], dtype: pl.DataType) -> pl.Expr:
        return pl.lit(pl.Series(values, dtype=dtype)).gather(t)

    target: pl.Expr = pl.lit(None, dtype=pl.Int64)
    held: pl.Expr = pl.lit(False)
    for i, title in enumerate(titles):
        target = pl.when(t == i).then(pl.col(f"_tg_{title}")).otherwise(target)
        holds = pl.col("own_title").is_in(list(TARGETS[title]))
        held = pl.when(t == i).then(holds).otherwise(held)
    keep = ~(pl.col("title").is_in(list(WOMEN_TITLES)) & (pl.col("sex") == "m")).fill_null(False)
    if o.skip_held:
        keep = keep & ~held.fill_null(False)
    n = pl.col("games")
    raise_by = (pl.col("floor") - pl.col("_min")).clip(lower_bound=0).fill_null(0)
    mine = {i: c for i, c in enumerate(rules) if _per_title(c)}
    mask, code, unknown = _verdict_codes(mine)
    mask = pl.col("_p_fail") + mask
    performance = [pl.col(f"_ok{RULES.index(r)}") for r in ("average-rating", "performance",
                                                              "minimum-score")]  # fmt: skip
    steps: list[list[pl.Expr]] = [
        [
            by_title(titles, pl.String()).alias("title"),
            by_title([o.floors[x] for x in titles], pl.Int64()).alias("floor"),
            by_title([MIN_RA[x] for x in titles], pl.Int64()).alias("min_ra"),
            by_title([MIN_RP[x] for x in titles], pl.Int64()).alias("min_rp"),
            target.alias("_target"),
        ],
        [
            half_up_mean_expr(pl.col("_sum") + raise_by, n).alias("ra"),
            (raise_by > 0).alias("floor_applied"),
            percentage_expr(pl.col("_s2"), n).alias("_pct"),
        ],
        [(pl.col("ra") + dp_expr(pl.col("_pct"))).alias("rp")],
        [
            score_required_expr(o).alias("score_required"),
            (pl.col("rp") >= pl.col("min_rp") - REACH).fill_null(False).alias("in_reach"),
        ],
        [
            *(c.ok.alias(f"_ok{i}") for i, c in mine.items()),
            *(c.missing.alias(f"_m{i}") for i, c in mine.items()),
        ],
        [
            mask.alias("_fail_mask"),
            (pl.col("_p_miss") + code).alias("_miss_code"),
            pl.when(mask != 0)
            .then(pl.lit("not met"))
            .when(pl.col("_p_unknown") | unknown)
            .then(pl.lit("cannot tell"))
            .otherwise(pl.lit("met"))
            .alias("verdict"),
            pl.all_horizontal(performance).fill_null(False).alias("title_performance"),
        ],
        [pl.when(pl.col("verdict") == "met").then(games_credited_expr()).alias("games_credited")],
    ]
    made = {e.meta.output_name() for step in steps for e in step}
    needed = (_roots(keep, *(e for step in steps for e in step)) - made) & set(players.columns)
    k = pl.int_range(players.height * len(titles), eager=True, dtype=pl.Int64)
    frame = pl.DataFrame({"_p": k // len(titles), "_t": k % len(titles)})
    lazy = frame.hstack(players.select(*sorted(needed))[frame["_p"]]).lazy()
    lazy = lazy.with_columns(steps[0]).filter(keep)
    for step in steps[1:]:
        lazy = lazy.with_columns(step)
    return lazy.collect(engine="in-memory")


def _lists(norm_rows: pl.DataFrame, rules: list[Check]) -> pl.DataFrame:
    """`failing` (the rules failing, in the rules' order) and `missing` (the keys of
    `SUPPLY` of the facts missing, in the order the rules first need them) from
    `_verdict_codes`:
    each distinct code is decoded once."""
    names = [c.rule for c in rules]
    keys = list(SUPPLY)

    def supply(code: int) -> list[str]:
        found: list[str] = []
        while code:
            code, digit = divmod(code, _BASE)
            if digit and keys[digit - 1] not in found:
                found.append(keys[digit - 1])
        return found

    masks = norm_rows["_fail_mask"].unique().to_list()
    codes = norm_rows["_miss_code"].unique().to_list()
    failing = pl.DataFrame(
        {"_fail_mask": masks, "failing": [[n for i, n in enumerate(names) if m >> i & 1]
                                          for m in masks]},
        schema={"_fail_mask": pl.Int64, "failing": pl.List(pl.String)},
    )  # fmt: skip
    missing = pl.DataFrame(
        {"_miss_code": codes, "missing": [supply(code) for code in codes]},
        schema={"_miss_code": pl.Int64, "missing": pl.List(pl.String)},
    )
    return norm_rows.join(failing, on="_fail_mask", how="left", maintain_order="left").join(
        missing, on="_miss_code", how="left", maintain_order="left"
    )


def _check_rows(selected: pl.DataFrame, rules: list[Check]) -> pl.DataFrame:
    """One row per check of the `selected` norm rows: the norm rows' order, then the
    rules' (each field an array of one value per rule, exploded)."""
    fields = {
        "article": [c.article for c in rules],
        "counted": [c.counted for c in rules],
        "required": [c.required for c in rules],
        "ok": [pl.col(f"_ok{i}") for i in range(len(rules))],
        "missing": [pl.col(f"_m{i}").cast(pl.String) for i in range(len(rules))],
        "note": [c.note for c in rules],
        "_applies": [c.applies for c in rules],
    }
    r = pl.int_range(pl.len(), dtype=pl.Int64) % len(rules)
    return (
        selected.lazy()
        .select(E.ID, G.NO, "title", *(pl.concat_arr(v).alias(k) for k, v in fields.items()))
        .explode(list(fields))
        .with_columns(
            pl.lit(pl.Series([c.rule for c in rules])).gather(r).alias("rule"),
            pl.lit(pl.Series([c.comparison for c in rules])).gather(r).alias("comparison"),
        )
        .filter("_applies")
        .select(*CHECK_COLUMNS)
        .collect(engine="in-memory")
    )


def _number(value: pl.Expr) -> pl.Expr:
    """A check's number as text: whole numbers without a decimal point (3.5 keeps it)."""
    whole = value.cast(pl.Int64, strict=False).cast(pl.String)
    return pl.when(value == value.floor()).then(whole).otherwise(value.round(1).cast(pl.String))


def _why(selected: pl.DataFrame, rules: list[Check]) -> pl.Series:
    """Per `selected` norm row, each failing requirement as "rule counted < required
    (article)", "; "-separated (null when none fails): the check rows' failing ones,
    without building the check rows."""
    fails = {">=": "<", "<=": ">"}
    parts = [
        pl.when(pl.col(f"_ok{i}") == False).then(  # noqa: E712
            pl.format(
                "{} {} {} {} ({})",
                pl.lit(c.rule),
                _number(c.counted.cast(pl.Float64)),
                pl.lit(fails.get(c.comparison, c.comparison)),
                _number(c.required.cast(pl.Float64)),
                c.article,
            )
        )
        for i, c in enumerate(rules)
    ]
    why = pl.concat_str(parts, separator="; ", ignore_nulls=True)
    return selected.select(pl.when(why != "").then(why).alias("why")).to_series()


def norm_checks(
    games: pl.DataFrame,
    players: pl.DataFrame,
    events: pl.DataFrame,
    options: NormOptions | None = None,
    *,
    checks: CheckRows = "all",
    performance: PerformanceOptions | None = None,
) -> NormChecks:
    """The norm checks of every player entry of `games` (see the module docstring): the
    norms frame in the games' order of events, then start number and the order of
    `options.titles`; the checks in that order, then the rules' order. `checks` says
    which norm rows get their check rows: ``all``, those in ``reach`` (verdict met, a
    title performance or `in_reach`: what `elo run` and `elo norms` show) or ``none``
    (an empty frame of `CHECK_COLUMNS`). Given `performance`, the result holds the
    performance ratings too (`performance.performance_frame`'s rows with `keys`), from
    the same pass over the games."""
    o = options or NormOptions()
    unknown = [t for t in o.titles if t not in TARGETS]
    if unknown:
        raise ValueError(f"norm titles: expected some of {list(TARGETS)}, got {unknown}")
    absent = [name for name in INPUT_COLUMNS if name not in games.columns]
    if absent:
        raise ValueError(f"norm checks: expected the games frame's columns, missing {absent}")
    if checks not in ("all", "reach", "none"):
        raise ValueError(f"norm checks: expected checks 'all', 'reach' or 'none', got {checks!r}")
    codes = event_codes(games)
    rows = coded_games(games, codes, G.NO, G.OPP, G.ROUND, G.CODE, "rating", "opponent_rating")
    people = coded_players(players, codes)
    facts = facts_frame(rows, people, events, codes, o)
    rules = rule_checks(o)
    counts = player_counts(games, rows, people, facts, o)
    performed = performance_of(counts, performance) if performance is not None else None
    per = _players(
        counts.drop(cs.starts_with(PREFIX)),
        {i: c for i, c in enumerate(rules) if not _per_title(c)},
    )
    del counts
    norm_rows = _lists(_norm_rows(per, rules, o), rules)
    shown = (pl.col("verdict") == "met") | pl.col("title_performance") | pl.col("in_reach")
    chosen = {"all": pl.lit(True), "reach": shown, "none": pl.lit(False)}[checks]
    fields = [e for c in rules for e in (c.article, c.counted, c.required, c.note, c.applies)]
    read = _roots(*fields) | {E.ID, G.NO, *(f"_ok{i}" for i in range(len(rules)))}
    read |= {f"_m{i}" for i in range(len(rules))}
    theirs = [name for name in per.columns if name in read]

    def with_fields(rows: pl.DataFrame) -> pl.DataFrame:
        mine = [name for name in rows.columns if name in read and name not in per.columns]
        return per.select(theirs)[rows["_p"]].hstack(rows.select(mine))

    # the failing requirements in words for the rows shown (met, title performance, in
    # reach), whatever `checks` asks
    in_reach = norm_rows.with_row_index("_n").filter(shown)
    why = pl.Series("why", [None] * norm_rows.height, dtype=pl.String).scatter(
        in_reach["_n"], _why(with_fields(in_reach), rules)
    )
    norm_rows = norm_rows.with_columns(why)
    selected = norm_rows.filter(chosen)
    checks_out = _check_rows(with_fields(selected), rules)
    player = [name for name in NORM_COLUMNS if name in per.columns]
    norm = [name for name in NORM_COLUMNS if name not in player]
    norms = per.select(player)[norm_rows["_p"]].hstack(norm_rows.select(norm))
    return NormChecks(
        norms=norms.select(NORM_COLUMNS),
        checks=checks_out,
        events=facts.select(*FACT_COLUMNS),
        performance=performed,
    )


__all__ = [
    "CHECK_COLUMNS",
    "INPUT_COLUMNS",
    "NORM_COLUMNS",
    "CheckRows",
    "NormChecks",
    "norm_checks",
]
