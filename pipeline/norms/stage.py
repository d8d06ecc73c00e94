"""The norms stage of a job: what every player performed and the title-norm checks, from
what the rate stage rated, in one call (`elo run` writes it, `elo norms` prints it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import polars as pl

from pipeline.norms.checks import NormChecks, norm_checks
from pipeline.norms.event_facts import title_expr
from pipeline.norms.performance import PerformanceOptions
from pipeline.norms.titles import NormOptions
from schemas.columns import E, G, P

# a norm row of an event on the standard list (B.01 0.5: norms in standard chess only)
ON_STANDARD = ~pl.col("failing").list.contains("standard")


def norm_counts(norms: pl.DataFrame) -> dict[str, int]:
    """Of norm rows: how many were checked, of each verdict, title performances without
    every condition, and rows within reach."""
    verdict = norms["verdict"]
    return {
        "checked": norms.height,
        "met": int((verdict == "met").sum()),
        "cannot_tell": int((verdict == "cannot tell").sum()),
        "not_met": int((verdict == "not met").sum()),
        "title_performances": int((norms["title_performance"] & (verdict != "met")).sum()),
        "in_reach": int(norms["in_reach"].sum()),
    }


@dataclass(frozen=True)
class NormsStage:
    """performance.csv's rows (`performance`, after the event id and start number) and
    the norm checks (`norms`)."""

    performance: pl.DataFrame
    norms: NormChecks
    players: pl.DataFrame  # the player entries checked (their titles held)

    def counts(self) -> dict[str, int]:
        """summary.json's `norms`: `norm_counts` of every norm row."""
        return norm_counts(self.norms.norms)

    def held_titles(self) -> pl.DataFrame:
        """Per player entry (event id, start number), the title held (`held_title`)."""
        return self.players.select(
            pl.col(P.EVENT).alias(E.ID),
            pl.col(P.NO).alias(G.NO),
            title_expr(P.TITLE).alias("held_title"),
        )

    def shown(self) -> pl.DataFrame:
        """The norm rows an arbiter looks at: met, a title performance, or Rp within
        reach (`in_reach`), in an event of the standard list (B.01 0.5), in the norms
        frame's order."""
        n = self.norms.norms
        return n.filter(
            ((pl.col("verdict") == "met") | pl.col("title_performance") | pl.col("in_reach"))
            & ON_STANDARD
        )


def norms_stage(
    games: pl.DataFrame,
    players: pl.DataFrame,
    events: pl.DataFrame,
    options: NormOptions | None = None,
    *,
    checks: Literal["all", "reach", "none"] = "none",
) -> NormsStage:
    """The performance ratings of every player entry of `games` (the rate stage's games
    frame) and their norm checks; `checks` says which norm rows get their checks' rows:
    all, those shown (`NormsStage.shown`), or none (the norms frame's `why` still says
    what fails for the rows shown)."""
    o = options or NormOptions()
    # one pass over the games for both (pipeline.norms.counts); Ra and the floors as the
    # norms value them, the rest C.07's and FIDE's reading (PerformanceOptions)
    reading = PerformanceOptions(unrated_norm=o.unrated_norm, floors=dict(o.floors))
    norms = norm_checks(games, players, events, o, checks=checks, performance=reading)
    assert norms.performance is not None  # asked for
    return NormsStage(performance=norms.performance, norms=norms, players=players)


__all__ = ["ON_STANDARD", "NormsStage", "norm_counts", "norms_stage"]
