"""The period computation: every event of a rating period in, each player's change per
rating list out (fide-rules.md §1-§6). Pure and vectorized with polars; the only Python
loops are over the distinct (date, list) of the events (choosing rule sets) and over
warnings.

Stages: `_event_rules` (rule set per event) -> `players.resolve_players` (identity,
Ro, K inputs) -> `classify.classify_games` (reason, D, D used, PD, ΔR per game entry)
-> `initial.initial_ratings` (unrated players) -> `_rated_players` (K, 700 rule,
rounding) -> the output frames (`pipeline.rate.outputs`).

`rate_period` collects them in four steps: the entries (in a thread, while the game
rows are put into games.csv's order, which needs only the events), the classified
game rows with the roster in ratings.csv's order, the players' totals and initial
ratings with the events' counts, then the games and ratings frames; the warnings are
read from the collected frames. Rows find each other by integer keys and gathers
(`pipeline.rate.rows`), each game column is computed once, and a frame with one row
per player meets the entries by its row number (`rows.spread`), not by a join.

Choices (see also classify and initial):
- Rule sets: each event uses the rules of its start date; `RateOptions.rules_date`
  overrides every event; an event without a date uses `today` with a ``no-start-date``
  warning. K, the 700 rule, the floor and initial ratings use the rules in force on the
  first day of the period (or `rules_date`).
- Period: `RateOptions.period` ("YYYY-MM"), else the period of the latest event end
  (or start) date by the closing dates of `pipeline.period.calendar`, else `today`'s
  month. Its year is the "list year" of the junior K test.
- Lists: the registry is the base list (rating before the period, K); `start_lists`
  (a chain's lists of earlier months, with RO_MONTH) give Ro of an event that started
  in an earlier month (`pipeline.rate.lists`).
- Initial ratings pool the period's games with `pending` (earlier periods' games of
  unrated players, pipeline.period.pending) over at most 26 months.
- Rounding: ``period`` (default) rounds K x ΣΔR once per player and list; ``tournament``
  rounds each event's K x ΣΔR (with the period's K) and adds them.
- Floor: a rating after the period below the rule set's floor is reported as computed,
  with ``below_floor`` true in the ratings frame and a ``below-floor`` warning (FIDE lists
  such a player as unrated from the next list).
- A rated player with no rated game: status ``no-rated-games``, change 0.
"""

from __future__ import annotations

import datetime as dt
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import polars as pl

from pipeline.errors import Location, Problem, Severity
from pipeline.period.calendar import first_day, period_of
from pipeline.period.pending import empty as pending_empty
from pipeline.period.pending import in_window, prior_rows
from pipeline.rate import columns as c
from pipeline.rate import outputs
from pipeline.rate.checks import declared_problems, declared_rows
from pipeline.rate.classify import REASONS, classify_games
from pipeline.rate.initial import initial_ratings
from pipeline.rate.players import rating_problem_rows, rating_problems, resolve_players
from pipeline.rate.rows import order_games, spans
from pipeline.rules.ruleset import LISTS, RuleSet, ruleset_for
from pipeline.rules.vector import (
    derive_k_expr,
    k_after_700_expr,
    round_half_away_expr,
    ruleset_frame,
)
from schemas.columns import E, G, P

ROUNDINGS = ("period", "tournament")


@dataclass(frozen=True)
class RateOptions:
    """How a period is rated (see the module docstring for the choices)."""

    rules_date: dt.date | None = None  # every event uses the rule set of this date
    rounding: str = "period"  # "period" | "tournament"
    period: str | None = None  # "YYYY-MM"; default: month of the latest event start
    today: dt.date = field(default_factory=dt.date.today)  # for events without a date


@dataclass
class RateResult:
    """`games` and `ratings` start with the contract columns of schemas.output;
    `events` is the input events plus `rule_set`, `rules_date`, `rated_games`
    (pairings rated for at least one side) and `rated_entries` (player sides rated)."""

    games: pl.DataFrame
    ratings: pl.DataFrame
    events: pl.DataFrame
    warnings: list[Problem] = field(default_factory=list)
    pending: pl.DataFrame | None = None  # pending.csv after the period (period.pending)
    period: str = ""  # the period rated, YYYY-MM


def period_start(events: pl.DataFrame, options: RateOptions) -> dt.date:
    """The first day of the rating period (see the module docstring)."""
    if options.period is not None:
        return first_day(options.period)
    dated = [pl.col(name) for name in (E.END, E.START) if name in events.columns]
    latest = events.select(pl.coalesce(*dated).max()).item() if dated else None
    if isinstance(latest, dt.date):
        return first_day(period_of(latest))
    return options.today.replace(day=1)


def _event_rules(
    events: pl.DataFrame, options: RateOptions
) -> tuple[pl.DataFrame, list[Problem], list[RuleSet]]:
    """The events with `event_order`, `rule_set`, `rules_date` and the ``rs_`` columns,
    the warnings and the rule sets chosen (one `ruleset_for` per distinct date and list)."""
    if E.START not in events.columns:
        events = events.with_columns(pl.lit(None, dtype=pl.Date()).alias(E.START))
    missing = events.filter(pl.col(E.LIST).is_null())
    if missing.height:
        raise ValueError(f"{missing[E.FILE][0]}: the event's rating list must be set before rating")
    end = pl.col(E.END) if E.END in events.columns else pl.lit(None, dtype=pl.Date())
    # an end date (or a crosstable's "Last update") is closer to the event than today
    on = pl.coalesce(E.START, end, pl.lit(options.today))
    if options.rules_date is not None:
        on = pl.lit(options.rules_date)
    dated = events.select(E.FILE, E.LIST, E.START, end.alias("_end"), on.alias("rules_date"))
    problems = [
        Problem(
            Location(file),
            "no-start-date",
            f"no start date; rules of {day.isoformat()} "
            f"({'the end date' if last is not None else 'today'}) used; pass --rules",
            Severity.WARNING,
        )
        for file, last, day in dated.filter(pl.col(E.START).is_null())
        .select(E.FILE, "_end", "rules_date")
        .iter_rows()
        if options.rules_date is None
    ]
    pairs = dated.select("rules_date", E.LIST).unique(maintain_order=True)
    chosen = [ruleset_for(day, lst) for day, lst in pairs.iter_rows()]
    pairs = pairs.with_columns(pl.Series("rule_set", [rs.name for rs in chosen], pl.String()))
    rulesets = list({rs.name: rs for rs in chosen}.values())
    # `event_order` follows the start date (nulls last), then the input order
    frame = (
        events.lazy()
        .with_columns(dated["rules_date"], pl.int_range(pl.len(), dtype=pl.Int64).alias("_i"))
        .join(pairs.lazy(), on=["rules_date", E.LIST], how="left", maintain_order="left")
        .sort(E.START, "_i", nulls_last=True)
        .with_columns(pl.int_range(pl.len(), dtype=pl.Int64).alias(c.EV_ORDER))
        .sort("_i")
        .drop("_i")
        .join(
            ruleset_frame(rulesets).lazy(),
            left_on="rule_set",
            right_on="rs_name",
            how="left",
            maintain_order="left",
        )
    )
    columns = [*events.columns, "rule_set", "rules_date", c.EV_ORDER]
    out = frame.collect(engine="in-memory")
    return out.select(*columns, pl.exclude(columns)).rechunk(), problems, rulesets


def _period_rules(start: dt.date, options: RateOptions) -> pl.DataFrame:
    """One row per list: `list` and the ``rs_`` columns of K / floor / initial ratings."""
    on = options.rules_date or start
    rulesets = [ruleset_for(on, lst) for lst in LISTS]
    return ruleset_frame(rulesets).with_columns(pl.col("rs_list").alias(E.LIST))


def _roster(entries: pl.DataFrame) -> pl.LazyFrame:
    """One row per (player_key, list): the player's facts from their first entry, in the
    order of ratings.csv (by list when there are several, name and key)."""
    order = [pl.col(P.NAME), pl.col(c.KEY)]
    if entries[E.LIST].n_unique() > 1:
        rank = {lst: i for i, lst in enumerate(LISTS)}
        order.insert(0, pl.col(E.LIST).replace_strict(rank, return_dtype=pl.Int64))
    first = entries.lazy().filter(pl.col("_row") == pl.col(c.PID))
    return first.sort(order).select(
        c.PID,
        c.KEY,
        E.LIST,
        P.FIDE,
        P.NAME,
        P.FED,
        P.TITLE,
        P.BIRTH,
        pl.coalesce(c.BASE_RO, c.RO).alias(c.RO),
        c.RO_SOURCE,
        c.CAREER,
        c.GIVEN_K,
        c.EVER_2400,
        E.FILE,
        P.LINE,
        "events",
    )


def _entry_totals(games: pl.DataFrame, by_event: bool) -> pl.LazyFrame:
    """n, Σscore and ΣΔR of the rated games of each player (`c.PID`), and with
    `by_event` of each player in each event (`event_order`)."""
    keys = [c.PID, c.EV_ORDER] if by_event else [c.PID]
    return (
        games.lazy()
        .filter(pl.col(c.RATED))
        .group_by(keys)
        .agg(
            pl.len().cast(pl.Int64).alias("n"),
            pl.col(c.SCORE_H).sum().alias("score_sum"),
            pl.col(c.DELTA_H).sum().alias("sum_delta"),
        )
    )


def _rated_players(
    roster: pl.LazyFrame,
    per_entry: pl.LazyFrame,
    period_rules: pl.DataFrame,
    period_year: int,
    rounding: str,
) -> pl.LazyFrame:
    """K, n, Σscore, ΣPD, ΣΔR, K x ΣΔR and the rounded change per rated player
    (`per_entry`: `_entry_totals`, by event for ``tournament`` rounding)."""
    totals = per_entry
    if rounding == "tournament":
        totals = per_entry.group_by(c.PID).agg(pl.col("n", "score_sum", "sum_delta").sum())
    k0 = derive_k_expr(
        rating=pl.col(c.RO),
        career_games=pl.col(c.CAREER),
        birth_year=pl.col(P.BIRTH),
        period_year=pl.lit(period_year, dtype=pl.Int64()),
        ever_2400=pl.col(c.EVER_2400),
        given_k=pl.col(c.GIVEN_K),
    )
    players = (
        roster.filter(pl.col(c.RO).is_not_null())
        .join(period_rules.lazy(), on=E.LIST, how="left")
        .join(totals, on=c.PID, how="left")
        .with_columns(pl.col("n", "score_sum", "sum_delta").fill_null(0))
        # ΔR = score - PD game by game, so ΣPD = Σscore - ΣΔR exactly
        .with_columns((pl.col("score_sum") - pl.col("sum_delta")).alias("expected_sum"))
        .with_columns(k0.alias("k_base"))
        .with_columns(
            pl.when(pl.col("rs_rule_700"))
            .then(k_after_700_expr(pl.col("k_base"), pl.col("n")))
            .otherwise(pl.col("k_base"))
            .alias("k"),
            pl.col("rs_floor").alias("floor"),
        )
        .with_columns((pl.col("k") * pl.col("sum_delta")).alias("change_h"))
    )
    if rounding == "tournament":
        per_event = per_entry.group_by(c.PID, c.EV_ORDER).agg(
            pl.col("sum_delta").sum().alias("sum_delta_event")
        )
        by_event = (
            per_event.join(players.select(c.PID, "k"), on=c.PID, how="inner")
            .group_by(c.PID)
            .agg(
                round_half_away_expr(pl.col("k") * pl.col("sum_delta_event")).sum().alias("change")
            )
        )
        players = players.join(by_event, on=c.PID, how="left").with_columns(
            pl.col("change").fill_null(0).cast(pl.Int64)
        )
    else:
        players = players.with_columns(round_half_away_expr(pl.col("change_h")).alias("change"))
    return players.select(
        c.PID,
        "k",
        "n",
        "score_sum",
        "expected_sum",
        "sum_delta",
        "change_h",
        "change",
        "floor",
    )


def rate_period(
    events: pl.DataFrame,
    players: pl.DataFrame,
    games: pl.DataFrame,
    registry: pl.DataFrame | None,
    options: RateOptions,
    start_lists: pl.DataFrame | None = None,
    pending: pl.DataFrame | None = None,
) -> RateResult:
    """Rate every player of the period on each rating list (fide-rules.md §1-§6).

    Inputs are the concatenated frames of every event (schemas.ingest), each event's
    `list` set; `registry` follows schemas.registry and is the base list; `start_lists`
    are earlier months' lists (registry rows plus RO_MONTH, pipeline.rate.lists);
    `pending` the pool of earlier periods (pipeline.period.pending). Returns the games
    and ratings frames (contract columns first), the events with their rule sets, the
    warnings and the pool after the period.
    """
    if options.rounding not in ROUNDINGS:
        raise ValueError(f"expected rounding period or tournament, got {options.rounding!r}")
    start = period_start(events, options)
    period = start.strftime("%Y-%m")
    ev, warnings, rulesets = _event_rules(events, options)
    ev = _start_months(ev, start_lists, period)
    period_rules = _period_rules(start, options)
    window = in_window(pending, period) if pending is not None else pending_empty()
    prior = prior_rows(window, period)
    # A few lazy queries, each collected once: the entries (in a thread, while the game
    # rows are put in order: neither needs the other), the classified game rows with the
    # roster, the players' totals, then the games and ratings frames.
    with ThreadPoolExecutor(1) as thread:
        finding = thread.submit(
            lambda: resolve_players(players, ev, registry, start_lists).collect(engine="in-memory")
        )
        ranges = spans(games, [G.ROUND, G.NO, G.OPP])
        ordered = order_games(games, ev, ranges)
        entries = finding.result()
    once = any(rs.cap_mode == "once-per-event" for rs in rulesets)
    numbers, names = classify_games(ordered, ev, entries, once)
    classified, names_out, roster, entry_rows = _collect(
        numbers, names, _roster(entries), rating_problem_rows(entries)
    )
    classified = classified.hstack(names_out)
    initial_q, dropped_q = initial_ratings(classified.lazy(), period_rules, prior)
    rated_q = _rated_players(
        roster.lazy(),
        _entry_totals(classified, options.rounding == "tournament"),
        period_rules,
        start.year,
        options.rounding,
    )
    initial, dropped, rated, events_out = _collect(
        initial_q, dropped_q, rated_q, outputs.events_frame(ev, classified.lazy(), ranges)
    )
    counted = outputs.counts_initial(classified, dropped, ev.height)
    games_out, ratings = _collect(
        outputs.games_frame(counted, rated, entries.height),
        outputs.ratings_frame(roster, rated, initial, entries.height),
    )
    floor_rows = outputs.floor_rows(ratings.lazy()).collect(engine="in-memory")
    no_id_rows = outputs.no_id_rows(ratings.lazy()).collect(engine="in-memory")
    warnings.extend(rating_problems(entry_rows))
    warnings.extend(outputs.warnings_of(floor_rows, "below-floor"))
    warnings.extend(outputs.warnings_of(no_id_rows, "initial-without-fide-id"))
    declared = declared_rows(games_out.lazy(), players, events)
    if declared is not None:
        warnings.extend(declared_problems(declared.collect(engine="in-memory")))
    unrated = classified["_reason"] == REASONS.index("player-unrated")
    pool = outputs.pool_after(window, games_out, ratings, dropped, period, unrated)
    return RateResult(
        games=games_out,
        ratings=ratings,
        events=events_out,
        warnings=sorted(warnings, key=Problem.sort_key),
        pending=pool,
        period=period,
    )


def _collect(*queries: pl.LazyFrame) -> list[pl.DataFrame]:
    """The queries collected together (their common parts computed once)."""
    return pl.collect_all(queries, engine="in-memory")


def _start_months(
    events: pl.DataFrame, start_lists: pl.DataFrame | None, period: str
) -> pl.DataFrame:
    """RO_MONTH for the events that started before the period's month and whose start
    list is known (`start_lists`); null for the others (rated from the base list)."""
    months = [] if start_lists is None else start_lists[c.RO_MONTH].unique().to_list()
    started = pl.col(E.START).dt.strftime("%Y-%m")
    return events.with_columns(
        pl.when(started.is_in(months) & (started < period)).then(started).alias(c.RO_MONTH)
    )


__all__ = ["RateOptions", "RateResult", "period_start", "rate_period"]
