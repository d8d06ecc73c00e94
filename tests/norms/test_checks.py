"""Title-norm checks (pipeline.norms.checks) on the worked examples and the boundaries of
FIDE Handbook B.01, Title Regulations applied from 1 January 2024, as
../shared/reference/norms-and-performance.md §3 and §5 give them. Each case's id names
its article (and the reference's example)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import polars as pl
import pytest

from pipeline.norms.checks import CHECK_COLUMNS, NORM_COLUMNS, norm_checks
from pipeline.norms.event_facts import event_facts
from pipeline.norms.titles import NormOptions
from tests.norms.norm_frames import GAME_SCHEMA, PLAYER_SCHEMA, Opp, applicant, bye, check
from tests.norms.norm_frames import opp as o

# Reference §5 E5: a German applicant's 9-round Swiss, 6.5/9
E5 = [o("GM", "ESP", 2540, .5), o("IM", "GER", 2430, 1), o("FM", "NED", 2310, 1),
      o("GM", "GER", 2515, 0), o(None, "GER", 2190, 1), o("IM", "FRA", 2405, .5),
      o("WGM", "GER", 2350, 1), o(None, "POL", 2010, 1), o("IM", "GER", 2445, .5)]  # fmt: skip
# Reference §5 E1 (B.01 0.5, 2017 text): 9 opponents at 2380, a GM mix
E1_MIX = [("GM", "ESP"), ("GM", "FRA"), ("GM", "NED"), ("IM", "POL"), ("IM", "ITA"),
          ("IM", "ESP"), ("FM", "FRA"), (None, "NED"), (None, "POL")]  # fmt: skip


def e1(points: float) -> list[Opp]:
    scores = [1.0] * int(points) + [0.5] * (points % 1 > 0)
    scores += [0.0] * (9 - len(scores))
    return [o(t, f, 2380, s) for (t, f), s in zip(E1_MIX, scores, strict=True)]


def test_the_frames_carry_their_documented_columns() -> None:
    result = check(E5)
    assert result.norms.columns == NORM_COLUMNS
    assert result.checks.columns == CHECK_COLUMNS
    # GM and IM for a man without a title: no WGM/WIM rows (B.01 0.5); none for a title
    # held or a higher one; in start-number order
    rows = result.norms.select("start_no", "title").rows()
    assert rows[:2] == [(1, "GM"), (1, "IM")]
    assert (3, "GM") in rows  # an IM
    assert (2, "GM") not in rows  # a GM
    assert [r[0] for r in rows] == sorted(r[0] for r in rows)


@pytest.mark.parametrize(
    ("rounds", "title", "verdict", "figures", "failing"),
    [
        (E5, "IM", "met", {"ra": 2359, "rp": 2525, "floor_applied": True}, []),
        (E5, "GM", "not met", {"ra": 2376, "rp": 2542},
         ["target-titles", "average-rating", "performance"]),
        (e1(7), "GM", "met", {"ra": 2380, "rp": 2600, "floor_applied": False}, []),
        (e1(6.5), "GM", "not met", {"ra": 2380, "rp": 2546}, ["performance"]),
    ],
    ids=["E5-IM-1.4.8", "E5-GM-1.4.5b-1.4.8", "E1-GM-0.5-7of9", "E1-GM-0.5-6.5of9"],
)  # fmt: skip
def test_worked_examples(
    rounds: list[Opp], title: str, verdict: str, figures: dict[str, Any], failing: list[str]
) -> None:
    norm, checks = applicant(check(rounds), title)
    assert norm["verdict"] == verdict
    assert {k: norm[k] for k in figures} == figures
    assert norm["failing"] == failing
    if title == "IM":  # E5's counts, as the reference lists them
        counts = {r: (checks[r]["counted"], checks[r]["required"]) for r in checks}
        assert counts["title-holders"] == (7, 5)
        assert counts["target-titles"] == (5, 3)
        assert counts["own-federation"] == (5, 5)
        assert counts["one-federation"] == (5, 6)
        assert counts["other-federations"] == (4, 2)
        assert checks["floor"]["note"] == "one game raised from 2010 to 2050"


def test_e5_a_sixth_german_opponent_breaks_1_4_4() -> None:
    rounds = [*E5[:7], o(None, "GER", 2010, 1), E5[8]]
    norm, checks = applicant(check(rounds, NormOptions(default_event_type="swiss")), "IM")
    assert (checks["own-federation"]["counted"], checks["own-federation"]["ok"]) == (6, False)
    assert norm["verdict"] == "not met"
    assert norm["failing"] == ["own-federation"]
    # the performance was made: what an arbiter looks for
    assert norm["title_performance"] is True


def test_1_4_4_exempt_in_a_national_championship_for_its_federation() -> None:
    rounds = [*E5[:7], o(None, "GER", 2010, 1), E5[8]]
    types = NormOptions(event_types={"E": "national-championship"})
    norm, checks = applicant(check(rounds, types), "IM")
    assert norm["verdict"] == "met"
    assert checks["own-federation"]["note"] == "exempt under 1.4.3a"
    # a player of another federation is not exempt (1.4.3a: players of that federation)
    norm, _ = applicant(check(rounds, types, host="AUT"), "IM")
    assert norm["failing"] == ["own-federation"]


def test_an_unknown_event_type_cannot_tell_a_failing_federation_rule() -> None:
    rounds = [*E5[:7], o(None, "GER", 2010, 1), E5[8]]
    norm, checks = applicant(check(rounds), "IM")
    assert norm["verdict"] == "cannot tell"
    assert checks["own-federation"]["missing"] == "event-type"
    assert norm["missing"] == ["event-type"]
    # a Swiss without the host federation: 1.4.3d cannot be read
    norm, checks = applicant(check(rounds, NormOptions(default_event_type="swiss"), host=None),
                             "IM")  # fmt: skip
    assert (norm["verdict"], checks["own-federation"]["missing"]) == ("cannot tell", "host")


@pytest.mark.parametrize(
    ("rounds", "ok", "required", "article"),
    [
        (E5[:8], False, 9, "1.4.1a"),  # 8 games of 8 rounds
        (E5, True, 9, "1.4.1a"),
        ([*E5[:8], bye("U")], True, 8, "1.4.1c"),  # 9 rounds, a pairing-allocated bye
        ([*E5[:8], Opp("IM", "FRA", 2400, 1.0, "+")], True, 8, "1.4.1c"),  # a forfeit win
        ([*E5[:8], Opp("IM", "FRA", 2400, 0.0, "-")], False, 9, "1.4.1a"),  # a forfeit loss
        ([*E5[:8], bye("H", 0.5)], False, 9, "1.4.1a"),  # a requested half-point bye
    ],
    ids=["1.4.1a-8of8", "1.4.1a-9", "1.4.1c-pab", "1.4.1c-forfeit-win", "1.4.1c-not-a-loss",
         "1.4.1c-not-a-half-bye"],
)  # fmt: skip
def test_the_number_of_games(rounds: list[Opp], ok: bool, required: int, article: str) -> None:
    _, checks = applicant(check(rounds, NormOptions(default_event_type="swiss")), "IM")
    games = checks["games"]
    assert (games["ok"], games["required"], games["article"]) == (ok, required, article)


def test_1_4_1c_thresholds_on_the_8_games_or_on_9() -> None:
    # reference §5 E6: 8 games + a PAB: 4 title-holders suffice, own federation <= 4
    rounds = [o("GM", "GER", 2500, 1), o("GM", "GER", 2500, 1), o("GM", "GER", 2500, .5),
              o("IM", "GER", 2450, .5), o(None, "ESP", 2450, .5), o(None, "FRA", 2450, .5),
              o(None, "NED", 2450, 0), o(None, "NED", 2450, 0), bye("U")]  # fmt: skip
    _, checks = applicant(check(rounds), "IM")
    assert (checks["title-holders"]["counted"], checks["title-holders"]["required"]) == (4, 4)
    assert (checks["own-federation"]["counted"], checks["own-federation"]["required"]) == (4, 4)
    assert checks["minimum-score"]["required"] == 3  # 35 % of 8 = 2.8 -> 3 points
    _, nine = applicant(check(rounds, NormOptions(eight_games="nine")), "IM")
    assert (nine["title-holders"]["required"], nine["title-holders"]["ok"]) == (5, False)


@pytest.mark.parametrize(
    ("gms", "games", "ok"),
    [(3, 9, True), (2, 9, False), (4, 12, True), (3, 12, False), (5, 13, True), (4, 13, False)],
    ids=["1.4.5b-3of9", "1.4.5b-2of9", "1.4.5b-4of12", "1.4.5b-3of12", "1.4.5b-5of13",
         "1.4.5b-4of13"],
)  # fmt: skip
def test_one_third_of_the_opponents_hold_the_target_title(gms: int, games: int, ok: bool) -> None:
    feds = ["ESP", "FRA", "NED", "POL", "ITA"]
    rounds = [o("GM" if i < gms else "IM", feds[i % 5], 2500, 0.5) for i in range(games)]
    _, checks = applicant(check(rounds), "GM")
    assert (checks["target-titles"]["counted"], checks["target-titles"]["ok"]) == (gms, ok)


@pytest.mark.parametrize(
    ("holders", "ok"), [(5, True), (4, False)], ids=["1.4.5a-5of9", "1.4.5a-4of9"]
)
def test_half_the_opponents_are_title_holders(holders: int, ok: bool) -> None:
    titles = ["WFM", "FM", "IM", "GM", "WIM"][:holders] + ["CM"] * (9 - holders)
    rounds = [o(t, f, 2400, 0.5) for t, f in zip(titles, ["ESP", "FRA", "NED"] * 3, strict=True)]
    _, checks = applicant(check(rounds), "IM")
    assert (checks["title-holders"]["counted"], checks["title-holders"]["ok"]) == (holders, ok)


@pytest.mark.parametrize(
    ("own", "games", "ok"),
    [(5, 9, True), (6, 9, False), (6, 10, True), (7, 10, False)],
    ids=["1.4.4-5of9", "1.4.4-6of9", "1.4.4-6of10", "1.4.4-7of10"],
)
def test_three_fifths_from_the_own_federation(own: int, games: int, ok: bool) -> None:
    feds = ["GER"] * own + ["ESP", "FRA", "NED", "POL", "ITA"][: games - own]
    rounds = [o("GM", f, 2500, 0.5) for f in feds]
    _, checks = applicant(check(rounds, NormOptions(default_event_type="swiss")), "GM")
    assert (checks["own-federation"]["counted"], checks["own-federation"]["ok"]) == (own, ok)


def test_two_federations_other_than_the_applicants_and_two_thirds_of_one() -> None:
    # 1.4.3: ESP only -> 1 < 2; 1.4.4: 7 of 9 from ESP > 6
    rounds = [o("GM", "ESP", 2500, 0.5)] * 7 + [o("GM", "GER", 2500, 0.5)] * 2
    _, checks = applicant(check(rounds, NormOptions(default_event_type="swiss")), "GM")
    assert (checks["other-federations"]["counted"], checks["other-federations"]["ok"]) == (1, False)
    assert (checks["one-federation"]["counted"], checks["one-federation"]["required"]) == (7, 6)
    assert checks["one-federation"]["ok"] is False
    # the FIDE flag is no federation (QC 2026 as reported): FID opponents count for nobody
    rounds = [o("GM", "FID", 2500, 0.5)] * 7 + [
        o("GM", "ESP", 2500, 0.5),
        o("GM", "FRA", 2500, 0.5),
    ]
    _, checks = applicant(check(rounds, NormOptions(default_event_type="swiss")), "GM")
    assert (checks["one-federation"]["counted"], checks["one-federation"]["ok"]) == (1, True)
    assert checks["other-federations"]["counted"] == 2


def test_the_floor_raises_exactly_one_opponent_and_an_unrated_counts_1400() -> None:
    # reference §5 E4 (B.01 1.4.6b-d): GM, the unrated 1400 raised to 2200, the 2150 stays
    ratings = [2550, 2520, 2500, 2480, 2460, 2450, 2400, 2150, None]
    mix = [("GM", "ESP"), ("GM", "FRA"), ("GM", "NED"), ("IM", "POL"), ("IM", "ITA"),
           ("IM", "ESP"), ("FM", "FRA"), (None, "NED"), (None, "POL")]  # fmt: skip
    scores = [1, 1, 1, 1, 1, 1, 1, 0, 0]
    rounds = [o(t, f, r, s) for (t, f), r, s in zip(mix, ratings, scores, strict=True)]
    norm, checks = applicant(check(rounds), "GM")
    assert (norm["ra"], norm["rp"], norm["verdict"]) == (2412, 2632, "met")
    assert checks["floor"]["counted"] == 1400
    assert checks["floor"]["note"] == "one game raised from 1400 to 2200"
    norm, _ = applicant(check(rounds), "IM")
    assert norm["ra"] == 2396  # 1400 -> 2050


@pytest.mark.parametrize(
    ("choice", "points", "ok"),
    [("exact", 4.5, False), ("exact", 5.0, True), ("rounded", 4.5, True), ("rounded", 4.0, False)],
    ids=["1.4.8b-Q3-exact-4.5of13", "1.4.8b-Q3-exact-5of13", "1.4.8b-Q3-rounded-4.5of13",
         "1.4.8b-Q3-rounded-4of13"],
)  # fmt: skip
def test_35_percent(choice: str, points: float, ok: bool) -> None:
    scores = [1.0] * int(points) + [0.5] * (points % 1 > 0)
    scores += [0.0] * (13 - len(scores))
    rounds = [o("GM", ["ESP", "FRA"][i % 2], 2600, s) for i, s in enumerate(scores)]
    _, checks = applicant(check(rounds, NormOptions(min_score=choice)), "IM")  # type: ignore[arg-type]
    assert checks["minimum-score"]["ok"] is ok


def test_byes_and_forfeits_are_not_games() -> None:
    rounds = [*E5, bye("U"), Opp("GM", "ESP", 2600, 1.0, "+")]
    norm, checks = applicant(check(rounds), "IM")
    assert (norm["games"], norm["score"], norm["ra"]) == (9, 6.5, 2359)
    assert checks["games"]["counted"] == 9


def round_robin(
    people: list[tuple[str | None, str, int | None]], double: bool = False
) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """Every two players meet once (twice): the higher rating wins, equal ones draw, an
    unrated player loses; rows of both sides, rounds 1.. in pair order."""
    games: list[dict[str, Any]] = []
    pairs = [(a, b) for a in range(len(people)) for b in range(a + 1, len(people))]
    for leg in range(2 if double else 1):
        for i, (a, b) in enumerate(pairs):
            ra, rb = people[a][2], people[b][2]
            sa = 0.5 if ra == rb else float((ra or 0) > (rb or 0))
            for me, other, score in ((a, b, sa), (b, a, 1 - sa)):
                mine, theirs = people[me][2], people[other][2]
                reason = "" if theirs is not None else "opponent-unrated"
                reason = reason or ("" if mine is not None else "player-unrated")
                games.append({"event_id": "RR", "start_no": me + 1, "opponent_no": other + 1,
                              "round": leg * len(pairs) + i + 1,
                              "code": {1.0: "1", 0.5: "=", 0.0: "0"}[score],
                              "tournament": "RR", "list": "standard", "fide_id": me + 1,
                              "name": f"P{me + 1}", "rating": mine, "opponent_rating": theirs,
                              "score": score, "reason": reason})  # fmt: skip
    players = pl.DataFrame(
        [{"event_id": "RR", "start_no": n + 1, "federation": f, "title": t, "sex": "m"}
         for n, (t, f, _) in enumerate(people)], schema=PLAYER_SCHEMA,
    )  # fmt: skip
    events = pl.DataFrame({"event_id": ["RR"], "list": ["standard"], "federation": ["NED"],
                           "start_date": [dt.date(2026, 1, 2)], "end_date": [dt.date(2026, 1, 12)],
                           "time_control": ["40/90 + 30/30 + 30 s"]})  # fmt: skip
    return pl.DataFrame(games, schema=GAME_SCHEMA), players, events


def test_a_round_robin_drops_an_unrated_zero_scorer_1_4_2b() -> None:
    people = [("IM", "NED", 2600), *[("GM", f, 2500) for f in ["ESP", "FRA", "GER"] * 3][:8],
              (None, "NED", None)]  # fmt: skip
    result = norm_checks(*round_robin(people))
    assert result.events["event_type"].to_list() == ["round-robin"]
    norm, checks = applicant(result, "GM")
    assert (norm["excluded"], norm["games"]) == (1, 8)
    assert (checks["games"]["ok"], checks["games"]["required"]) == (False, 9)
    assert "(1.4.2b)" in checks["games"]["note"]
    # every player of the event is checked at once: 10 players, GM and IM (the IM only GM)
    assert result.norms.height == 3  # 8 GMs: no row; the IM: GM only; the unrated: GM, IM
    # a Swiss read as such keeps the game (1.4.2b is for round-robins)
    swiss = norm_checks(*round_robin(people), NormOptions(event_types={"RR": "swiss"}))
    assert applicant(swiss, "GM")[0]["games"] == 9


@pytest.mark.parametrize(
    ("choice", "required"), [("half", 5), ("third", 4)], ids=["1.4.5-Q4-half", "1.4.5-Q4-third"]
)
def test_a_double_round_robin(choice: str, required: int) -> None:
    people = [("IM", "NED", 2600), ("GM", "ESP", 2500), ("GM", "FRA", 2500),
              ("IM", "GER", 2500), ("IM", "POL", 2500), ("FM", "ITA", 2500)]  # fmt: skip
    result = norm_checks(*round_robin(people, double=True), NormOptions(drr_target=choice))  # type: ignore[arg-type]
    assert result.events["event_type"].to_list() == ["double-round-robin"]
    norm, checks = applicant(result, "GM")
    assert norm["games"] == 10  # each opponent twice (B.01 1.4.6)
    assert (checks["drr-players"]["counted"], checks["drr-players"]["ok"]) == (6, True)
    assert checks["target-titles"]["counted"] == 4  # two GMs, twice each
    assert checks["target-titles"]["required"] == required


def test_a_long_event_cannot_tell_without_each_games_ratings() -> None:
    # B.01 1.1.4: over 30 days, the ratings and titles when each game was played
    long: dict[str, Any] = {"start": dt.date(2026, 1, 10), "end": dt.date(2026, 3, 14)}
    norm, checks = applicant(check(E5, **long), "IM")
    assert (checks["ratings-date"]["counted"], checks["ratings-date"]["ok"]) == (64, None)
    assert (norm["verdict"], norm["missing"]) == ("cannot tell", ["long-event"])
    norm, _ = applicant(check(E5, NormOptions(long_events="start-list"), **long), "IM")
    assert norm["verdict"] == "met"


def test_cannot_tell_names_every_missing_fact() -> None:
    untitled = [Opp(None, r.fed, r.rating, r.score) for r in E5]
    norm, checks = applicant(check(untitled, time_control=None, start=None, end=None), "IM")
    assert norm["verdict"] == "cannot tell"
    assert {r: c["missing"] for r, c in checks.items() if c["ok"] is None} == {
        "time-control": "time-control", "rounds-per-day": "dates", "ratings-date": "dates",
        "title-holders": "opponent-titles", "target-titles": "opponent-titles",
    }  # fmt: skip
    assert norm["missing"] == ["time-control", "dates", "opponent-titles"]
    norm, checks = applicant(check(E5, fed=None), "IM")
    assert checks["own-federation"]["missing"] == "federation"
    assert norm["verdict"] == "cannot tell"


def test_a_failing_requirement_outweighs_a_missing_fact() -> None:
    # 8 games of 8 rounds fail 1.4.1a in a Swiss; with the type unknown 1.4.1b (World Cup:
    # 8 games) could hold, so the games cannot tell
    _, checks = applicant(check(E5[:8]), "IM")
    assert (checks["games"]["ok"], checks["games"]["missing"]) == (None, "event-type")
    swiss = NormOptions(default_event_type="swiss")
    norm, _ = applicant(check(E5[:8], swiss, time_control=None), "IM")
    assert norm["verdict"] == "not met"
    assert norm["failing"] == ["games"]


def test_women_norms_and_titles_held() -> None:
    result = check(E5, sex="w")
    assert result.norms["title"].to_list()[:4] == ["GM", "IM", "WGM", "WIM"]
    norm, checks = applicant(result, "WGM")
    assert checks["sex"]["ok"] is True
    assert checks["target-titles"]["counted"] == 6  # WGM, IM, GM
    norm, checks = applicant(check(E5, sex=None), "WIM")
    assert (checks["sex"]["ok"], norm["verdict"]) == (None, "cannot tell")
    held = check(E5, sex="w", title="WIM")
    assert held.norms.filter(pl.col("start_no") == 1)["title"].to_list() == ["GM", "IM", "WGM"]
    held = check(E5, sex="w", title="IM")
    assert held.norms.filter(pl.col("start_no") == 1)["title"].to_list() == ["GM"]


def test_norms_are_for_standard_chess_at_two_hours_for_60_moves() -> None:
    norm, checks = applicant(check(E5, list_="rapid", time_control="15 min + 10 s"), "IM")
    assert norm["failing"] == ["standard", "time-control"]
    assert checks["time-control"]["counted"] == 25
    norm, checks = applicant(check(E5, time_control="90 min + 30 s", end=dt.date(2026, 5, 4)),
                             "IM")  # fmt: skip
    assert (checks["rounds-per-day"]["counted"], norm["failing"]) == (3, ["rounds-per-day"])


def test_team_championship_7_games_1_4_1b() -> None:
    rounds = E5[:7]
    _, checks = applicant(check(rounds), "IM")
    assert (checks["games"]["ok"], checks["games"]["missing"]) == (None, "event-type")
    options = NormOptions(event_types={"E": "team-championship"})
    _, checks = applicant(check(rounds, options), "IM")
    assert (checks["games"]["ok"], checks["games"]["article"]) == (True, "1.4.1b")
    with pytest.raises(ValueError, match="event type of E"):
        check(rounds, NormOptions(event_types={"E": "blitz-arena"}))


def test_1_4_3d_counts_every_round() -> None:
    # a Swiss of 24 foreign rated players (ESP/FRA/NED, 12 GMs) and 2 of the host's,
    # 3 rounds, pairs (1,2) (3,4)... each round; no. 5 misses two rounds: not counted
    rows: list[dict[str, Any]] = []
    for rnd in (1, 2, 3):
        for no in range(1, 27):
            if no == 5 and rnd > 1:
                continue
            partner = no + 1 if no % 2 else no - 1
            rows.append({"event_id": "S", "start_no": no, "opponent_no": partner,
                         "round": rnd, "code": "=", "tournament": "S", "list": "standard",
                         "fide_id": no, "name": f"P{no}", "rating": 2300,
                         "opponent_rating": 2300, "score": 0.5, "reason": ""})  # fmt: skip
    feds = ["ESP", "FRA", "NED"]
    players = pl.DataFrame(
        [{"event_id": "S", "start_no": n, "federation": "GER" if n > 24 else feds[n % 3],
          "title": "GM" if n <= 12 else None, "sex": "m"} for n in range(1, 27)],
        schema=PLAYER_SCHEMA,
    )  # fmt: skip
    events = pl.DataFrame({"event_id": ["S"], "federation": ["GER"], "rounds": [3]})
    games = pl.DataFrame(rows, schema=GAME_SCHEMA)
    facts = event_facts(games, players, events)
    assert facts.select("d_foreign_rated", "d_federations", "d_titled").row(0) == (23, 3, 11)
    # a round without two of the GMs (forfeits): that round's 9 titled decide
    fewer = games.with_columns(
        pl.when((pl.col("round") == 2) & pl.col("start_no").is_in([1, 2]))
        .then(pl.lit("forfeit"))
        .otherwise(pl.col("reason"))
        .alias("reason")
    )
    facts = event_facts(fewer, players, events)
    assert facts.select("d_foreign_rated", "d_federations", "d_titled").row(0) == (21, 3, 9)
    # eight GMs in all (no. 5 not counted): short for the whole event, whose counts are
    # given (no round can have more)
    few = players.with_columns(
        pl.when(pl.col("start_no") <= 9).then(pl.col("title")).alias("title")
    )
    facts = event_facts(games, few, events)
    assert facts.select("d_foreign_rated", "d_federations", "d_titled").row(0) == (23, 3, 8)


def _required_by_search(ra: int, n: int, min_rp: int) -> float | None:
    """The IT1's score required by trying every half point (reference §4)."""
    from fractions import Fraction

    from pipeline.norms.performance import percentage
    from pipeline.rules.tables import DP_BY_P

    for s2 in range(2 * n + 1):
        if ra + DP_BY_P[percentage(s2, n)] >= min_rp and Fraction(s2, 2) >= Fraction(35, 100) * n:
            return s2 / 2
    return None


@pytest.mark.parametrize(
    ("rounds", "title", "required"),
    [(e1(7), "GM", 7.0), (e1(6.5), "GM", 7.0), (E5, "IM", 6.0), (E5, "GM", 7.5)],
    ids=["E1-7of9-needs-7-not-7.5", "E1-6.5of9", "E5-IM", "E5-GM"],
)
def test_score_required_is_the_smallest_half_point_that_reaches_rp(
    rounds: list[Opp], title: str, required: float
) -> None:
    norm, _ = applicant(check(rounds), title)
    assert norm["score_required"] == required
    assert norm["min_rp"] == {"GM": 2600, "IM": 2450}[title]
    assert norm["in_reach"] == (norm["rp"] >= norm["min_rp"] - 50)


def test_score_required_against_every_half_point() -> None:
    """Every Ra from 1800 to 2800 by 7, every game count 1..20, every norm: the
    vectorized score required equals the search over the half points."""
    from pipeline.norms.requirements import score_required_expr
    from pipeline.norms.titles import MIN_RP

    rows = [(ra, n, rp) for ra in range(1800, 2801, 7) for n in range(1, 21)
            for rp in MIN_RP.values()]  # fmt: skip
    frame = pl.DataFrame(rows, schema=["ra", "games", "min_rp"], orient="row").with_columns(
        pl.lit(None, dtype=pl.Int64).alias(c) for c in ("rounds", "excluded", "_aside", "_rows")
    )
    got = frame.select(score_required_expr(NormOptions()))[:, 0].to_list()
    want = [_required_by_search(ra, n, rp) for ra, n, rp in rows]
    assert got == want
