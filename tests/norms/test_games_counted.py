"""Which games a title norm counts (FIDE Handbook B.01 from 1 January 2024, 1.4.2b-c):
1.4.2b drops a game against an unrated opponent who scored zero against the rated
players only in a round-robin; a last round lost by forfeit (1.4.2c) is noted on the
`games` check, with the figures as if it were a played loss, for the arbiter to judge."""

from __future__ import annotations

from pipeline.norms.requirements import FORFEIT_NOTE
from pipeline.norms.titles import NormOptions
from tests.norms.norm_frames import Opp, applicant, check
from tests.norms.norm_frames import opp as o
from tests.norms.test_checks import E5

SWISS = NormOptions(default_event_type="swiss")


def test_1_4_2b_keeps_the_game_outside_a_round_robin() -> None:
    # round 5's opponent unrated, beaten: zero against the rated players; the pairings
    # are not a round-robin's and no type is given: the game counts
    rounds = [*E5[:4], o(None, "GER", None, 1), *E5[5:]]
    norm, checks = applicant(check(rounds), "IM")
    assert (norm["games"], norm["excluded"], norm["event_type"]) == (9, 0, None)
    assert checks["games"]["note"] is None


def test_1_4_2c_a_last_round_lost_by_forfeit() -> None:
    # E5's last round lost by forfeit to the 2445: 8 games, 1.4.1a fails; as a played
    # loss: 9 games, IM Ra (21235 with 2010 -> 2050) / 9 = 2359, 6/9 = 67 % -> dp 125,
    # Rp 2484 >= 2450; GM: 2010 -> 2200, Ra 2376, Rp 2501 < 2600
    rounds = [*E5[:8], Opp("IM", "GER", 2445, 0.0, "-")]
    result = check(rounds, SWISS)
    norm, checks = applicant(result, "IM")
    assert (norm["verdict"], norm["failing"], norm["games"]) == ("not met", ["games"], 8)
    assert checks["games"]["note"] == (
        f"{FORFEIT_NOTE}; as a played loss against 2445: 9 games, Ra 2359, Rp 2484 "
        "(a title performance)"
    )
    _, checks = applicant(result, "GM")
    assert checks["games"]["note"].endswith("9 games, Ra 2376, Rp 2501 (no title performance)")


def test_1_4_2c_without_the_opponents_rating_only_the_note() -> None:
    rounds = [*E5[:8], Opp("IM", "GER", None, 0.0, "-")]
    _, checks = applicant(check(rounds, SWISS), "IM")
    assert checks["games"]["note"] == FORFEIT_NOTE


def test_1_4_2c_an_earlier_round_lost_by_forfeit_is_not_noted() -> None:
    rounds = [*E5[:2], Opp("GM", "GER", 2515, 0.0, "-"), *E5[3:]]
    norm, checks = applicant(check(rounds, SWISS), "IM")
    assert norm["games"] == 8
    assert checks["games"]["note"] is None
