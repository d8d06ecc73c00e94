"""`norm_checks(..., checks=...)`: every norm row's check rows ("all"), those of the rows
met, with a title performance or within reach ("reach", what `elo run` writes) or none;
the norms frame is the same whichever is asked (B.01 checks as in test_checks)."""

from __future__ import annotations

import polars as pl
import pytest

from pipeline.norms.checks import CHECK_COLUMNS, NormChecks, norm_checks
from pipeline.norms.titles import NormOptions
from tests.norms.norm_frames import Opp, frames
from tests.norms.test_checks import E5, e1, round_robin

KEY = ["event_id", "start_no", "title"]


def agree(
    games: pl.DataFrame, players: pl.DataFrame, events: pl.DataFrame
) -> tuple[NormChecks, NormChecks]:
    """The three modes on the same frames agree; "all"'s and "reach"'s results."""
    every = norm_checks(games, players, events, checks="all")
    reach = norm_checks(games, players, events, checks="reach")
    none = norm_checks(games, players, events, checks="none")
    assert reach.norms.equals(every.norms)
    assert none.norms.equals(every.norms)
    assert reach.events.equals(every.events)
    shown = every.norms.filter(
        (pl.col("verdict") == "met") | pl.col("title_performance") | pl.col("in_reach")
    ).select(KEY)
    assert reach.checks.equals(every.checks.join(shown, on=KEY, how="semi", maintain_order="left"))
    assert reach.checks.select(KEY).unique(maintain_order=True).equals(shown)
    assert none.checks.height == 0
    assert none.checks.schema == every.checks.schema
    assert list(none.checks.columns) == CHECK_COLUMNS
    return every, reach


def test_reach_all_and_none_on_one_event() -> None:
    _, reach = agree(*frames(E5))
    # E5: the applicant's IM norm met, its GM not in reach (Rp 2542); the opponents' not
    assert reach.checks.select(KEY).unique(maintain_order=True).rows() == [("E", 1, "IM")]


def test_reach_all_and_none_on_a_round_robin() -> None:
    people: list[tuple[str | None, str, int | None]] = [
        ("IM", "NED", 2600), ("GM", "ESP", 2500), ("GM", "FRA", 2500), ("IM", "GER", 2500),
        ("IM", "POL", 2500), ("FM", "ITA", 2500), (None, "NED", None),
    ]  # fmt: skip
    agree(*round_robin(people, double=True))


def test_checks_of_a_norm_in_reach_only() -> None:
    # 6.5 of 9 against 2390: 72 % -> dp 166, Rp 2556: no GM norm, but within 50 of 2600
    rounds = [Opp(r.title, r.fed, 2390, r.score) for r in e1(6.5)]
    _, reach = agree(*frames(rounds))
    gm = reach.norms.filter((pl.col("start_no") == 1) & (pl.col("title") == "GM")).row(
        0, named=True
    )
    assert (gm["rp"], gm["verdict"], gm["title_performance"], gm["in_reach"]) == (
        2556, "not met", False, True,
    )  # fmt: skip
    assert ("E", 1, "GM") in reach.checks.select(KEY).rows()


def test_an_unknown_mode_is_named() -> None:
    with pytest.raises(ValueError, match="got 'some'"):
        norm_checks(*frames(E5), NormOptions(), checks="some")  # type: ignore[arg-type]
