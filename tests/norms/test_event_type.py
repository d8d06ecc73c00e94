"""Where the title-norm checks take an event's type from (pipeline.norms.event_facts):
given by event (`NormOptions.event_types`) > the officer's decision in the events
frame's `event_type` column > `default_event_type` > read from the pairings. The types
decide B.01 1.4.1b (7 or 8 games), 1.4.2b (round-robins) and 1.4.3a-c (exemptions)."""

from __future__ import annotations

import polars as pl
import pytest

from pipeline.norms.checks import norm_checks
from pipeline.norms.event_facts import event_facts
from pipeline.norms.titles import NormOptions
from tests.norms.norm_frames import applicant, frames
from tests.norms.norm_frames import opp as o
from tests.norms.test_checks import E5, round_robin

# E5 with a sixth German opponent: 1.4.4 fails unless the event is exempt (1.4.3a-c)
SIX_GERMANS = [*E5[:7], o(None, "GER", 2010, 1), E5[8]]


def decided(kind: str | None) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    games, players, events = frames(SIX_GERMANS)
    return games, players, events.with_columns(pl.lit(kind, dtype=pl.String).alias("event_type"))


@pytest.mark.parametrize(
    ("kind", "options", "want", "source", "verdict"),
    [
        ("national-championship", NormOptions(), "national-championship", "decision", "met"),
        ("national-championship", NormOptions(event_types={"E": "swiss"}), "swiss", "given",
         "not met"),
        ("national-championship", NormOptions(default_event_type="swiss"),
         "national-championship", "decision", "met"),
        (None, NormOptions(default_event_type="zonal"), "zonal", "default", "met"),
        (None, NormOptions(), None, None, "cannot tell"),
    ],
    ids=["1.4.3a-decision", "given-over-decision", "decision-over-default",
         "1.4.3c-default-when-undecided", "unknown"],
)  # fmt: skip
def test_the_type_and_where_it_came_from(
    kind: str | None, options: NormOptions, want: str | None, source: str | None, verdict: str
) -> None:
    result = norm_checks(*decided(kind), options)
    assert result.events.select("event_type", "type_source").row(0) == (want, source)
    norm, checks = applicant(result, "IM")
    assert norm["verdict"] == verdict
    assert norm["event_type"] == want
    if verdict == "met":
        assert checks["own-federation"]["note"].startswith("exempt under 1.4.3")


def test_a_decision_outweighs_the_pairings_1_4_2b() -> None:
    people = [("IM", "NED", 2600), *[("GM", f, 2500) for f in ["ESP", "FRA", "GER"] * 3][:8],
              (None, "NED", None)]  # fmt: skip
    games, players, events = round_robin(people)
    facts = event_facts(games, players, events)
    assert facts.select("event_type", "type_source").row(0) == ("round-robin", "pairings")
    events = events.with_columns(pl.lit("swiss").alias("event_type"))
    facts = event_facts(games, players, events)
    assert facts.select("event_type", "type_source").row(0) == ("swiss", "decision")
    # a Swiss keeps the game against the unrated player who scored zero (1.4.2b)
    assert applicant(norm_checks(games, players, events), "GM")[0]["games"] == 9


def test_an_unknown_decided_type_is_named() -> None:
    with pytest.raises(ValueError, match=r"event type of E: expected one of .* got 'arena'"):
        norm_checks(*decided("arena"))
