"""`games_credited`: what a norm met counts toward a title application's 27 games (FIDE
Handbook B.01 from 1 January 2024: 1.5.1, 1.4.1b-d, 1.7). Each case's id names its
articles; the counts are checked by hand in the comments."""

from __future__ import annotations

import datetime as dt

import pytest

from pipeline.norms.titles import NormOptions
from tests.norms.norm_frames import Opp, applicant, bye, check
from tests.norms.norm_frames import opp as o
from tests.norms.test_checks import E1_MIX, E5, e1

SWISS = NormOptions(default_event_type="swiss")
MIX = [*E1_MIX, ("GM", "ITA"), ("IM", "NED"), ("GM", "POL"), ("IM", "FRA"), ("GM", "ESP")]


def strong(rounds: int, wins: int) -> list[Opp]:
    """`rounds` games against 2450, `wins` won and the rest drawn."""
    return [o(t, f, 2450, 1.0 if i < wins else 0.5) for i, (t, f) in enumerate(MIX[:rounds])]


@pytest.mark.parametrize(
    ("rounds", "title", "options", "days", "credited"),
    [
        # 6.5 of 9, 6 required: half a point over adds nothing
        (E5, "IM", SWISS, 9, 9),
        # 7 of 9, 7 required
        (e1(7), "GM", SWISS, 9, 9),
        # 8 of 9 against 2380, 7 required: one full point over, one game more
        ([o(t, f, 2380, 1.0 if i < 8 else 0.0) for i, (t, f) in enumerate(E1_MIX)], "GM",
         SWISS, 9, 10),
        # 8 games and a pairing-allocated bye in 9 rounds: counts as 9 (6 of 8, 5.5 required)
        ([*E5[:8], bye("U")], "IM", SWISS, 9, 9),
        # a World Cup norm of 8 games counts as 9
        (E5[:8], "IM", NormOptions(event_types={"E": "world-cup"}), 9, 9),
        # 12 games, 11 points, 8.5 required: 12 + 2 = 14, capped at 13 after the overscore
        (strong(12, 10), "GM", SWISS, 12, 13),
        # 14 rounds, 13 points, 10 required: 14 + 3 capped at 13
        (strong(14, 12), "GM", SWISS, 14, 13),
        # 10 games, 9.5 points, 7.5 required (Ra 2450: Rp 2600 needs 71 %): 10 + 2
        (strong(10, 9), "GM", SWISS, 10, 12),
    ],
    ids=["1.4.1d-half-point-over-adds-nothing", "1.4.1a-9-games", "1.4.1d-one-point-over",
         "1.4.1c-counts-as-9", "1.4.1b-world-cup-counts-as-9", "1.7-cap-after-1.4.1d",
         "1.7-more-than-13-rounds", "1.4.1d-two-points-over"],
)  # fmt: skip
def test_games_credited(
    rounds: list[Opp], title: str, options: NormOptions, days: int, credited: int
) -> None:
    end = dt.date(2026, 5, days)
    norm, _ = applicant(check(rounds, options, end=end), title)
    assert norm["verdict"] == "met"
    assert norm["games_credited"] == credited


def test_a_norm_not_met_credits_nothing_1_5_1() -> None:
    norm, _ = applicant(check(e1(6.5), SWISS), "GM")
    assert (norm["verdict"], norm["games_credited"]) == ("not met", None)
    # a sixth German opponent, the event type unknown (1.4.3a-c could exempt it)
    norm, _ = applicant(check([*E5[:7], o(None, "GER", 2010, 1), E5[8]]), "IM")
    assert (norm["verdict"], norm["games_credited"]) == ("cannot tell", None)
