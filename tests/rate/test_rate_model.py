"""rate_period against a plain scalar model of the period, in Fractions.

The model below re-states fide-rules.md §1-§6 one game at a time, with nothing shared with
the engine but the rule-set parameters (`ruleset_for`) and table 8.1.2 / 8.1.1 literals:
classification, the cap modes (incl. once per event), PD, ΔR, K (§5 with the 700 rule),
both roundings and initial ratings (2024 and 2022 methods). Random multi-event periods
(standard and rapid, several eras, unrated players, byes and forfeits) are rated by both.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.rate import RateOptions, RateResult
from pipeline.rules.ruleset import RuleSet, ruleset_for
from pipeline.rules.tables import DP_BY_P, PD_TABLE
from tests.rate.builders import Event, rate

DATES = [
    dt.date(2023, 5, 10),  # standard: cap once per event
    dt.date(2023, 11, 20),
    dt.date(2024, 6, 10),  # cap every game, 2024 initial ratings, floor 1400
    dt.date(2024, 11, 25),
    dt.date(2024, 12, 15),  # rapid 600-point rule
    dt.date(2025, 3, 5),
    dt.date(2025, 10, 10),  # standard: 2650+ uncapped
    dt.date(2025, 10, 20),
]
RESULTS = ["1-0", "0-1", "=", "1-0", "0-1", "=", "+-", "-+", "W-L", "D-D"]
HALF = Fraction(1, 2)
SCORE: dict[str, Fraction] = {
    **dict.fromkeys("1+WFU", Fraction(1)),
    **dict.fromkeys("=DH", HALF),
    **dict.fromkeys("0-LZ", Fraction(0)),
}


def half_away(x: Fraction) -> int:
    whole = (2 * abs(x.numerator) + x.denominator) // (2 * x.denominator)
    return whole if x >= 0 else -whole


def pd(d: int) -> Fraction:
    """Table 8.1.2 by a linear search over the rows."""
    for low, high, h, low_pd in PD_TABLE:
        if low <= abs(d) and (high is None or abs(d) <= high):
            return Fraction(h if d >= 0 else low_pd, 100)
    raise AssertionError(d)


@dataclass(frozen=True)
class Person:
    fide_id: int | None
    rating: int | None
    birth_year: int | None


@dataclass
class Entry:
    event: int
    round: int
    me: int  # start number
    opp: int | None
    code: str


@st.composite
def periods(draw: st.DrawFn) -> tuple[list[Event], list[dict[int, Person]]]:
    rating = st.one_of(st.none(), *[st.integers(1400, 2800)] * 3)  # a quarter unrated
    pool = [
        Person(i + 1, draw(rating), draw(st.one_of(st.none(), st.integers(2004, 2014))))
        for i in range(draw(st.integers(4, 10)))
    ]
    dates = draw(st.lists(st.sampled_from(DATES), min_size=1, max_size=3, unique=True))
    events: list[Event] = []
    rosters: list[dict[int, Person]] = []
    for e_no, start in enumerate(dates):
        lst = draw(st.sampled_from(["standard", "rapid"]))
        e = Event(f"e{e_no}", lst=lst, start=start)
        picked = st.lists(
            st.sampled_from(range(len(pool))), min_size=2, max_size=len(pool), unique=True
        )
        members = [pool[j] for j in draw(picked)]
        anonymous = draw(st.integers(0, 2))
        people = list(members) + [
            Person(None, draw(st.one_of(st.none(), st.integers(1400, 2400))), None)
            for _ in range(anonymous)
        ]
        roster = {}
        for no, p in enumerate(people, start=1):
            e.player(no, p.rating, p.fide_id, birth_year=p.birth_year)
            roster[no] = p
        for rnd in range(1, draw(st.integers(1, 9)) + 1):
            order = draw(st.permutations(list(roster)))
            for a, b in zip(order[::2], order[1::2], strict=False):
                e.pair(rnd, a, b, draw(st.sampled_from(RESULTS)))
            if len(order) % 2:
                e.bye(rnd, order[-1], draw(st.sampled_from(["H", "F", "U", "Z"])))
        events.append(e)
        rosters.append(roster)
    return events, rosters


def model(events: list[Event], rosters: list[dict[int, Person]], rounding: str) -> dict[str, Any]:
    """The period by hand: {key: ratings row} and {(event, round, no): (reason, used, pd)}."""
    order = sorted(range(len(events)), key=lambda i: (events[i].start, i))
    latest = max(e.start for e in events if e.start is not None)
    period = latest.replace(day=1)
    event_rs = {i: ruleset_for(events[i].start or latest, events[i].lst) for i in order}

    def key(i: int, no: int) -> tuple[str, str]:
        p = rosters[i][no]
        who = f"fide:{p.fide_id}" if p.fide_id is not None else f"event:e{i}#{no}"
        return who, events[i].lst

    games_out: dict[tuple[str, int, int], tuple[str, int | None, Fraction | None]] = {}
    rated: dict[tuple[str, str], list[tuple[int, Fraction, Fraction]]] = defaultdict(list)
    unrated: dict[tuple[str, str], list[tuple[int, int, Fraction]]] = defaultdict(list)
    for i in order:
        rs = event_rs[i]
        entries = [Entry(i, g["round"], g["start_no"], g["opponent_no"], g["code"])
                   for g in events[i].games]  # fmt: skip
        by_player: dict[int, list[tuple[Entry, str]]] = defaultdict(list)
        for en in entries:
            me = rosters[i][en.me].rating
            opp = rosters[i][en.opp].rating if en.opp is not None else None
            if en.opp is None or en.code in "HFUZ":
                reason = "bye"
            elif en.code in "+-":
                reason = "forfeit"
            elif en.code in "WDL":
                reason = "under-one-move"
            elif opp is None:
                reason = "opponent-unrated"
            elif me is None:
                reason = "player-unrated"
            elif rs.rule_600 and max(me, opp) > 2600 and abs(me - opp) >= 600:
                reason = "rule-600"
            else:
                reason = ""
            by_player[en.me].append((en, reason))
        for no, rows in by_player.items():
            used = cap_event(rosters[i], no, [(en, r) for en, r in rows], rs)
            for en, reason in rows:
                d_used = used.get(en.round)
                expected = pd(d_used) if d_used is not None else None
                games_out[(f"e{i}", en.round, no)] = (reason, d_used, expected)
                score = SCORE[en.code]
                if reason == "" and expected is not None:
                    rated[key(i, no)].append((i, score, expected))
                elif reason == "player-unrated":
                    assert en.opp is not None
                    opp_rating = rosters[i][en.opp].rating
                    assert opp_rating is not None
                    unrated[key(i, no)].append((order.index(i), opp_rating, score))
    ratings: dict[tuple[str, str], dict[str, Any]] = {}
    people = {key(i, no): p for i in order for no, p in rosters[i].items()}
    for k, p in people.items():
        rs = ruleset_for(period, k[1])
        if p.rating is not None:
            ratings[k] = rated_row(p, rated[k], rs, period.year, rounding)
        else:
            ratings[k] = initial_row(unrated[k], rs)
    return {"ratings": ratings, "games": games_out}


def cap_event(
    roster: dict[int, Person], no: int, rows: list[tuple[Entry, str]], rs: RuleSet
) -> dict[int, int]:
    """D used per round for one player's rated games of one event (§3)."""
    me = roster[no].rating
    diffs: dict[int, int] = {}
    for en, reason in rows:
        if reason == "" and en.opp is not None:
            opp = roster[en.opp].rating
            assert me is not None
            assert opp is not None
            diffs[en.round] = me - opp
    assert rs.cap is not None
    cap = rs.cap
    if rs.cap_mode == "below-2650" and me is not None and me >= 2650:
        return diffs
    if rs.cap_mode == "once-per-event":
        over = [(d, -rnd) for rnd, d in diffs.items() if d > cap]
        best = -max(over)[1] if over else None
        return {rnd: -cap if d < -cap else cap if rnd == best else d for rnd, d in diffs.items()}
    return {rnd: max(-cap, min(cap, d)) for rnd, d in diffs.items()}


def rated_row(
    p: Person, games: list[tuple[int, Fraction, Fraction]], rs: RuleSet, year: int, rounding: str
) -> dict[str, Any]:
    assert p.rating is not None
    if p.rating >= 2400:
        k = 10
    elif p.birth_year is not None and year - p.birth_year <= 18 and p.rating < 2300:
        k = 40
    else:
        k = 20
    n = len(games)
    if k * n > 700:
        k = 700 // n
    total = sum((s - e for _, s, e in games), Fraction(0))
    if rounding == "period":
        change = half_away(k * total)
    else:
        per_event: dict[int, Fraction] = defaultdict(Fraction)
        for i, s, e in games:
            per_event[i] += s - e
        change = sum(half_away(k * v) for v in per_event.values())
    return {
        "status": "rated" if n else "no-rated-games",
        "k": k,
        "games": n,
        "score": sum((s for _, s, _ in games), Fraction(0)),
        "expected": sum((e for _, _, e in games), Fraction(0)),
        "change_unrounded": k * total,
        "change": change,
        "rating_after": p.rating + change,
    }


def initial_row(games: list[tuple[int, int, Fraction]], rs: RuleSet) -> dict[str, Any]:
    if games:
        first = min(i for i, _, _ in games)
        if sum(s for i, _, s in games if i == first) == 0:
            games = [g for g in games if g[0] != first]
    n = len(games)
    w = sum((s for _, _, s in games), Fraction(0))
    opp = sum(o for _, o, _ in games)
    value = None
    if n >= 5:
        if rs.initial_method == "2024":
            ra = Fraction(opp + 3600, n + 2)
            dp = DP_BY_P[half_away((w + 1) / (n + 2) * 100)]
            value = min(half_away(ra + dp), rs.initial_max)
        else:
            ra = Fraction(opp, n)
            halves = int(2 * w - n)
            dp = 20 * halves if halves >= 0 else DP_BY_P[half_away(w / n * 100)]
            value = half_away(ra + dp)
    published = value is not None and value >= rs.floor
    return {
        "status": "initial" if published else "unrated",
        "k": None,
        "games": n,
        "score": w,
        "expected": None,
        "change_unrounded": None,
        "change": None,
        "rating_after": value if published else None,
    }


def as_fraction(x: float | None) -> Fraction | None:
    return None if x is None else Fraction(str(x))


def compare(result: RateResult, expected: dict[str, Any]) -> None:
    got = {(r["player_key"], r["list"]): r for r in result.ratings.to_dicts()}
    assert set(got) == set(expected["ratings"])
    for k, want in expected["ratings"].items():
        r = got[k]
        have = {name: r[name] for name in want}
        for name in ("score", "expected", "change_unrounded"):
            have[name] = as_fraction(have[name])
        assert have == want, k
    for g in result.games.to_dicts():
        reason, used, pd_ = expected["games"][(g["event_id"], g["round"], g["start_no"])]
        assert (g["reason"], g["difference_used"], as_fraction(g["expected"])) == (
            reason,
            used,
            pd_,
        )


def check(data: tuple[list[Event], list[dict[int, Person]]], rounding: str) -> None:
    events, rosters = data
    options = RateOptions(rounding=rounding, today=dt.date(2025, 6, 1))
    compare(rate(*events, options=options), model(events, rosters, rounding))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=periods(), rounding=st.sampled_from(["period", "tournament"]))
def test_rate_period_equals_the_model_quick(
    data: tuple[list[Event], list[dict[int, Person]]], rounding: str
) -> None:
    check(data, rounding)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=periods(), rounding=st.sampled_from(["period", "tournament"]))
def test_rate_period_equals_the_model(
    data: tuple[list[Event], list[dict[int, Person]]], rounding: str
) -> None:
    check(data, rounding)
