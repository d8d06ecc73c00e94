"""rate_period on small periods, numbers worked out by hand from table 8.1.2.

Sections cited are those of fide-rules.md (FIDE Handbook B.02, rating regulations from
1 March 2024 with §8.3.1 as amended from 1 October 2025; rapid/blitz regulations with the
600-point rule from 1 December 2024).
"""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest

from pipeline.rate import RateOptions, period_start, rate_period
from schemas.output import GAMES_COLUMNS, RATINGS_COLUMNS, REASONS, STATUSES
from tests.rate.builders import Event, frames, game_rows, rate, row

TODAY = dt.date(2025, 6, 1)


def single_event() -> Event:
    """A 2000 (FIDE ID 1001) meets 1900 (win), 2100 (draw), 1500 (loss), then a bye."""
    e = Event("a")
    e.player(1, 2000, 1001)
    e.player(2, 1900, 1002)
    e.player(3, 2100, 1003)
    e.player(4, 1500, 1004)
    e.pair(1, 1, 2, "1-0")
    e.pair(2, 3, 1, "=")
    e.pair(3, 1, 4, "0-1")
    e.bye(4, 1, "H")
    return e


def test_output_columns_come_first() -> None:
    result = rate(single_event())
    assert result.games.columns[: len(GAMES_COLUMNS)] == GAMES_COLUMNS
    assert result.ratings.columns[: len(RATINGS_COLUMNS)] == RATINGS_COLUMNS
    assert set(result.ratings["status"]) <= set(STATUSES)
    assert set(result.games["reason"]) <= {"", *REASONS}
    assert result.games.schema["expected"] == pl.Float64
    assert result.ratings.schema["change"] == pl.Int64
    assert result.ratings.schema["rating_after"] == pl.Int64


# §2 table 8.1.2 and §3 cap (2024-03-01 .. 2025-09-30: 400 for everyone, every game):
# D 100 -> .64, D -100 -> .36, D 500 -> 400 -> .92 (and -400 -> .08); K 20 (§5).
@pytest.mark.parametrize(
    ("fide_id", "games", "score", "expected", "change_unrounded", "change", "after"),
    [
        (1001, 3, 1.5, 1.92, -8.4, -8, 1992),  # ΣΔR .36 + .14 - .92 = -.42
        (1002, 1, 0.0, 0.36, -7.2, -7, 1893),
        (1003, 1, 0.5, 0.64, -2.8, -3, 2097),
        (1004, 1, 1.0, 0.08, 18.4, 18, 1518),
    ],
    ids=["2000-three-games", "1900-loss", "2100-draw", "1500-win-capped"],
)
def test_single_event(
    fide_id: int,
    games: int,
    score: float,
    expected: float,
    change_unrounded: float,
    change: int,
    after: int,
) -> None:
    r = row(rate(single_event()), fide_id)
    assert (r["k"], r["games"], r["score"], r["expected"]) == (20, games, score, expected)
    assert (r["change_unrounded"], r["change"], r["rating_after"]) == (
        change_unrounded,
        change,
        after,
    )
    assert r["status"] == "rated"


def test_single_event_game_rows() -> None:
    rows = game_rows(rate(single_event()), 1001)
    got = [
        (g["round"], g["difference"], g["difference_used"], g["expected"], g["delta"], g["reason"])
        for g in rows
    ]
    assert got == [
        (1, 100, 100, 0.64, 0.36, ""),
        (2, -100, -100, 0.36, 0.14, ""),
        (3, 500, 400, 0.92, -0.92, ""),
        (4, None, None, None, None, "bye"),
    ]
    assert [g["result"] for g in rows] == ["1", "½", "0", "H"]
    assert rows[0]["k_delta"] == pytest.approx(7.2)


def test_events_frame() -> None:
    result = rate(single_event())
    ev = result.events.row(0, named=True)
    assert ev["rule_set"] == "standard 2024-03-01"
    assert (ev["rated_games"], ev["rated_entries"]) == (3, 6)


def thirty_games(event_id: str, start: dt.date, score: float, n: int = 20) -> Event:
    """Player 1 (2000, FIDE ID 7) meets n players rated 2000 (D 0 -> PD .50)."""
    e = Event(event_id, start=start)
    e.player(1, 2000, 7)
    e.series(1, [(2000, score)] * n, first_no=2)
    return e


def test_700_rule_bites_only_across_events() -> None:
    # §5: K 20 x n 20 = 400 <= 700 in one event; over the period n = 40 -> K = 700 // 40 = 17.
    first = thirty_games("m1", dt.date(2025, 3, 1), 1.0)  # ΣΔR 20 x .50 = 10.00
    second = thirty_games("m2", dt.date(2025, 3, 15), 0.5)  # ΣΔR 0
    alone = row(rate(first), 7)
    assert (alone["k"], alone["games"], alone["change"]) == (20, 20, 200)
    both = row(rate(first, second), 7)
    assert (both["k"], both["games"], both["change_unrounded"], both["change"]) == (
        17,
        40,
        170.0,
        170,
    )
    assert both["rating_after"] == 2170


def quarter(event_id: str, start: dt.date, opponent: int, result: str) -> Event:
    """A 2500 player (K 10, §5) with one game where ΔR = ±.25 (|D| 190 -> .75 / .25)."""
    e = Event(event_id, start=start)
    e.player(1, 2500, 9)
    e.player(2, opponent)
    e.pair(1, 1, 2, result)
    return e


@pytest.mark.parametrize(
    ("opponent", "result", "period", "tournament"),
    [
        (2310, "1-0", 5, 6),  # +2.5 twice: period 5.0 -> 5; per event 3 + 3 = 6 (§4)
        (2690, "0-1", -5, -6),  # -2.5 twice: -5; per event -3 + -3 = -6
    ],
    ids=["plus-2.5-twice", "minus-2.5-twice"],
)
def test_period_vs_tournament_rounding(
    opponent: int, result: str, period: int, tournament: int
) -> None:
    events = [
        quarter("r1", dt.date(2025, 3, 2), opponent, result),
        quarter("r2", dt.date(2025, 3, 20), opponent, result),
    ]
    by_period = row(rate(*events), 9)
    by_event = row(rate(*events, options=RateOptions(rounding="tournament", today=TODAY)), 9)
    assert by_period["change_unrounded"] == by_event["change_unrounded"] == 2 * period / 2
    assert (by_period["change"], by_event["change"]) == (period, tournament)


def test_half_rounds_away_from_zero() -> None:
    # §4: -2.5 -> -3 (not banker's -2), +2.5 -> +3
    down = row(rate(quarter("r1", dt.date(2025, 3, 2), 2690, "0-1")), 9)
    up = row(rate(quarter("r1", dt.date(2025, 3, 2), 2310, "1-0")), 9)
    assert (down["change_unrounded"], down["change"]) == (-2.5, -3)
    assert (up["change_unrounded"], up["change"]) == (2.5, 3)


def top_game(start: dt.date) -> Event:
    """2813 (FIDE ID 1) beats 2400 (FIDE ID 2): the §3 example."""
    e = Event("t", start=start)
    e.player(1, 2813, 1)
    e.player(2, 2400, 2)
    e.pair(1, 1, 2, "1-0")
    return e


@pytest.mark.parametrize(
    ("start", "top_used", "top_pd", "low_used", "low_pd"),
    [
        (dt.date(2025, 10, 1), 413, 0.93, -400, 0.08),  # §3 from 2025-10-01: 2650+ uncapped
        (dt.date(2025, 9, 30), 400, 0.92, -400, 0.08),  # before: 400 for everyone
    ],
    ids=["from-2025-10-01", "until-2025-09-30"],
)
def test_2650_exemption(
    start: dt.date, top_used: int, top_pd: float, low_used: int, low_pd: float
) -> None:
    result = rate(top_game(start))
    top = game_rows(result, 1)[0]
    low = game_rows(result, 2)[0]
    assert (top["difference"], top["difference_used"], top["expected"]) == (413, top_used, top_pd)
    assert (low["difference"], low["difference_used"], low["expected"]) == (-413, low_used, low_pd)
    # both K 10 (rating >= 2400, §5): +.07 x 10 = 0.7 -> 1, or +.08 x 10 = 0.8 -> 1
    assert row(result, 1)["change_unrounded"] == round(10 * (1 - top_pd), 2)


@pytest.mark.parametrize(
    ("lst", "start", "high", "low", "excluded"),
    [
        ("rapid", dt.date(2024, 12, 15), 2650, 2000, True),  # 650 apart, 2650 > 2600
        ("blitz", dt.date(2024, 12, 1), 2601, 2001, True),  # exactly 600, first day
        ("rapid", dt.date(2024, 12, 15), 2600, 1990, False),  # 2600 is not above 2600
        ("rapid", dt.date(2024, 12, 15), 2650, 2051, False),  # 599 apart
        ("rapid", dt.date(2024, 11, 30), 2650, 2000, False),  # before the rule
        ("standard", dt.date(2024, 12, 15), 2650, 2000, False),  # standard: never
    ],
    ids=["rapid-650", "blitz-600-first-day", "2600-not-above", "599", "2024-11-30", "standard"],
)
def test_600_rule(lst: str, start: dt.date, high: int, low: int, excluded: bool) -> None:
    # §1: rapid/blitz from 2024-12-01, one of the two above 2600 and |diff| >= 600
    e = Event("q", lst=lst, start=start)
    e.player(1, high, 1)
    e.player(2, low, 2)
    e.pair(1, 1, 2, "=")
    result = rate(e)
    reasons = {g["reason"] for g in result.games.to_dicts()}
    assert reasons == ({"rule-600"} if excluded else {""})
    assert row(result, 1, lst)["status"] == ("no-rated-games" if excluded else "rated")
    if excluded:
        assert row(result, 2, lst)["change"] == 0
        assert game_rows(result, 1)[0]["difference"] == high - low


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda e: e.pair(1, 1, 2, "+-"), "forfeit"),
        (lambda e: e.pair(1, 1, 2, "-+"), "forfeit"),
        (lambda e: e.pair(1, 1, 2, "W-L"), "under-one-move"),
        (lambda e: e.pair(1, 1, 2, "D-D"), "under-one-move"),
        (lambda e: (e.bye(1, 1, "H"), e.bye(1, 2, "H")), "bye"),
        (lambda e: (e.bye(1, 1, "F"), e.bye(1, 2, "U")), "bye"),
        (lambda e: (e.bye(1, 1, "Z"), e.bye(1, 2, "Z")), "bye"),
    ],
    ids=[
        "forfeit-win",
        "forfeit-loss",
        "under-one-move-win",
        "under-one-move-draw",
        "H",
        "F-U",
        "Z",
    ],
)
def test_unplayed_games_do_not_count(make: object, reason: str) -> None:
    # §1: + - W D L H F U Z never count
    e = Event("f")
    e.player(1, 1800, 1)
    e.player(2, 1700, 2)
    make(e)  # type: ignore[operator]
    result = rate(e)
    assert {g["reason"] for g in result.games.to_dicts()} == {reason}
    assert not result.games["rated"].any()
    for fid in (1, 2):
        r = row(result, fid)
        assert (r["status"], r["games"], r["change"], r["rating_after"]) == (
            "no-rated-games",
            0,
            0,
            r["rating_before"],
        )


def test_unplayed_flag_without_code() -> None:
    # a game the reader marks as not played (e.g. an unknown mark) is "unplayed"
    e = Event("u")
    e.player(1, 1800, 1)
    e.player(2, 1700, 2)
    e.pair(1, 1, 2, "1-0")
    ev, players, games = frames(e)
    games = games.with_columns(pl.lit(False).alias("played"))
    from pipeline.rate import rate_period

    result = rate_period(ev, players, games, None, RateOptions(today=TODAY))
    assert set(result.games["reason"]) == {"unplayed"}


def test_once_per_event_cap_2023() -> None:
    # §3 2022 - Feb 2024: the cap helps the higher-rated side once per event, in the game
    # with the largest D: D 500 -> 400 (.92), D 450 stays (.94), D 100 (.64).
    e = Event("c", start=dt.date(2023, 5, 1))
    e.player(1, 2400, 1)
    e.series(1, [(1900, 1.0), (1950, 1.0), (2300, 1.0)], first_no=2)
    result = rate(e)
    got = [(g["difference_used"], g["expected"]) for g in game_rows(result, 1)]
    assert got == [(400, 0.92), (450, 0.94), (100, 0.64)]
    r = row(result, 1)
    assert (r["k"], r["change_unrounded"], r["change"]) == (10, 5.0, 5)  # ΣΔR .08+.06+.36
    # the lower-rated side is always capped: 1900 uses -400 -> .08
    low = result.games.filter(pl.col("start_no") == 2).row(0, named=True)
    assert (low["difference_used"], low["expected"]) == (-400, 0.08)
    # with the 2024 rules every game is capped: 400, 400, 100 -> ΣΔR .52 -> 5.2
    later = rate(e, options=RateOptions(rules_date=dt.date(2024, 3, 1), today=TODAY))
    assert [g["difference_used"] for g in game_rows(later, 1)] == [400, 400, 100]
    assert row(later, 1)["change_unrounded"] == 5.2
    assert later.events["rule_set"].to_list() == ["standard 2024-03-01"]


def test_once_per_event_tie_goes_to_earliest_round() -> None:
    e = Event("c", start=dt.date(2023, 5, 1))
    e.player(1, 2400, 1)
    e.series(1, [(1900, 1.0), (1900, 1.0)], first_no=2)
    assert [g["difference_used"] for g in game_rows(rate(e), 1)] == [400, 500]


def test_event_without_date_uses_today_with_warning() -> None:
    e = Event("nd", start=None)
    e.player(1, 1800, 1)
    e.player(2, 1800, 2)
    e.pair(1, 1, 2, "1-0")
    result = rate(e, options=RateOptions(today=dt.date(2023, 6, 1)))
    assert result.events["rule_set"].to_list() == ["standard 2022-01-01"]
    [warning] = [w for w in result.warnings if w.code == "no-start-date"]
    assert str(warning) == (
        "nd.trf: warning: no start date; rules of 2023-06-01 (today) used; pass --rules "
        "[no-start-date]"
    )
    with_rules = rate(e, options=RateOptions(rules_date=dt.date(2025, 1, 1), today=TODAY))
    assert not [w for w in with_rules.warnings if w.code == "no-start-date"]


def test_rating_below_floor_is_reported() -> None:
    # §6: the floor is 1400 from 2024-03-01; a junior (K 40, §5) at 1410 losing at D 0
    # drops 40 x .50 = 20 to 1390.
    e = Event("fl")
    e.player(1, 1410, 1, birth_year=2012)
    e.player(2, 1410, 2)
    e.pair(1, 1, 2, "0-1")
    result = rate(e)
    r = row(result, 1)
    assert (r["k"], r["rating_after"], r["below_floor"]) == (40, 1390, True)
    assert [w.code for w in result.warnings] == ["below-floor"]
    assert result.warnings[0].location.line == 11


@pytest.mark.parametrize(
    ("period", "starts", "expected"),
    [
        ("2025-04", [dt.date(2025, 3, 1)], dt.date(2025, 4, 1)),
        (None, [dt.date(2025, 3, 9), dt.date(2025, 2, 1)], dt.date(2025, 3, 1)),
        (None, [None], dt.date(2025, 6, 1)),
    ],
    ids=["option", "latest-start", "today"],
)
def test_period_start(period: str | None, starts: list[dt.date | None], expected: dt.date) -> None:
    events = pl.DataFrame({"start_date": starts}, schema={"start_date": pl.Date()})
    assert period_start(events, RateOptions(period=period, today=TODAY)) == expected


def test_bad_options_are_value_errors() -> None:
    with pytest.raises(ValueError, match="rounding"):
        rate(single_event(), options=RateOptions(rounding="game"))
    with pytest.raises(ValueError, match="YYYY-MM"):
        rate(single_event(), options=RateOptions(period="March"))


def test_junior_k_uses_period_year() -> None:
    # §5: K 40 until the end of the year of the 18th birthday (list year - birth year <= 18)
    e = Event("j", start=dt.date(2025, 3, 1))
    e.player(1, 1800, 1, birth_year=2007)  # 18 in 2025
    e.player(2, 1800, 2, birth_year=2006)  # 19 in 2025
    e.pair(1, 1, 2, "=")
    result = rate(e)
    assert (row(result, 1)["k"], row(result, 2)["k"]) == (40, 20)
    older = rate(e, options=RateOptions(period="2026-01", today=TODAY))
    assert row(older, 1)["k"] == 20


def test_hundredths_are_the_nearest_doubles() -> None:
    # reports print these floats: 94 hundredths must be 0.94, not 0.9400000000000001
    from pipeline.rate.outputs import hundredths

    values = [*range(-300_000, 300_001, 7), 94, 70, -280, 1, -1, 0]
    got = pl.DataFrame({"h": values}).select(hundredths("h"))["h"].to_list()
    assert got == [v / 100 for v in values]


def test_event_without_start_date_uses_its_end_date() -> None:
    # A crosstable without a date row: its "Last update" is read as the end date, and the
    # rules of that day are closer to the event's than today's (fide-rules.md §3 eras).
    e = Event("nd", start=None)
    e.player(1, 2813, 1)
    e.player(2, 2400, 2)
    e.pair(1, 1, 2, "1-0")
    events, players, games = frames(e)
    events = events.with_columns(pl.lit(dt.date(2025, 9, 20)).alias("end_date"))
    result = rate_period(events, players, games, None, RateOptions(today=dt.date(2026, 1, 1)))
    assert result.events["rule_set"].to_list() == ["standard 2024-03-01"]
    [warning] = [w for w in result.warnings if w.code == "no-start-date"]
    assert str(warning) == (
        "nd.trf: warning: no start date; rules of 2025-09-20 (the end date) used; "
        "pass --rules [no-start-date]"
    )
