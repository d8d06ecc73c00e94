"""`elo run --chain` over random months against a plain model of the chain, in Fractions.

The model re-states the rules one game at a time and shares nothing with the engine but
table 8.1.2 / 8.1.1 literals (fide-rules.md §3-§6, B.02 §7.1.3-§7.2.1, design "Periods
and lists"): an event belongs to the period of its end date by the closing dates; its Ro
comes from the list in force at its start (the list the chain wrote for that month); K
from the list's K, else from career games, the junior year and 2400; the 700 rule; one
rounding per period; initial ratings pooled over periods with the first zero-score event
disregarded; the floor; the next list's games, career games, 2400 flag and K for the next
period. Random events (round robins of 4 or 6 players, some crossing a closing date,
juniors whose junior year ends with 2024, unrated players) over five months are rated by
both, and every period's ratings.csv and the last players_list.csv are compared.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.rules.tables import DP_BY_P
from tests.period.builders import Ev, P, read_rows, round_robin, write_event, write_registry
from tests.rate.test_rate_model import half_away, pd

MONTHS = [(2024, 11), (2024, 12), (2025, 1), (2025, 2), (2025, 3)]
SCORE = {
    "1": Fraction(1),
    "=": Fraction(1, 2),
    "0": Fraction(0),
    "+": Fraction(1),
    "-": Fraction(0),
}
MIRROR = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+"}


def period_of(end: dt.date) -> str:
    """The month before the first list (1st of a month) at least three days after `end`."""
    day = end + dt.timedelta(days=3)
    first = day if day.day == 1 else (day.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
    before = first - dt.timedelta(days=1)
    return f"{before.year:04d}-{before.month:02d}"


def month_index(period: str) -> int:
    return int(period[:4]) * 12 + int(period[5:])


def from_index(index: int) -> str:
    return f"{(index - 1) // 12:04d}-{(index - 1) % 12 + 1:02d}"


@dataclass
class Person:
    fide_id: int
    name: str
    rating: int | None
    k: int | None
    career: int | None
    ever: bool | None
    birth: int
    games: int | None = None  # games of the last period on the list written


def derive_k(rating: int, career: int | None, ever: bool | None, birth: int, year: int) -> int:
    if ever or rating >= 2400:
        return 10
    if year - birth <= 18 and rating < 2300:
        return 40
    if career is not None and career < 30:
        return 40
    return 20


def next_k(person: Person, year: int) -> int | None:
    """K written on the next list (the list's K is carried where career games are
    unknown, except that 2400 makes it 10)."""
    if person.rating is None:
        return None
    if person.career is not None:
        return derive_k(person.rating, person.career, person.ever, person.birth, year)
    if person.ever or person.rating >= 2400:
        return 10
    if person.k is not None:
        return person.k
    return derive_k(person.rating, None, person.ever, person.birth, year)


@dataclass
class Event:
    file: str
    name: str
    start: dt.date
    end: dt.date
    ids: list[int]  # by start number
    rounds: list[list[tuple[int, int, str]]]


def scenario(seed: int) -> tuple[list[Person], list[Event]]:
    rnd = random.Random(seed)
    people: list[Person] = []
    for i in range(16):
        rated = i < 12
        rating = rnd.randint(1420, 2480) if rated else None
        known = rated and rnd.random() < 0.5
        birth = rnd.choice([1960, 1975, 1990, 2000, 2006, 2006, 2008])
        career = rnd.randint(0, 60) if known else None
        ever = (rnd.random() < 0.3 if rating and rating >= 2250 else False) if known else None
        k = None if known or not rated else rnd.choice([20, 20, 40, 10])
        people.append(Person(3001 + i, f"Player{i:02d}, Test", rating, k, career, ever, birth))
    events: list[Event] = []
    for year, month in MONTHS:
        for j in range(rnd.randint(1, 3)):
            n = rnd.choice([4, 4, 6])
            ids = [p.fide_id for p in rnd.sample(people, n)]
            start = dt.date(year, month, rnd.randint(1, 27))
            end = start + dt.timedelta(days=rnd.randint(0, 4))
            rounds = []
            for pairs in round_robin(n)[: rnd.randint(2, n - 1)]:
                games = []
                for w, b in pairs:
                    code = rnd.choices(["1", "0", "=", "+"], [0.4, 0.35, 0.2, 0.05])[0]
                    games.append((w, b, code))
                rounds.append(games)
            file = f"{start.isoformat()}-{j}"
            events.append(Event(file, f"Event {file}", start, end, ids, rounds))
    return people, sorted(events, key=lambda e: (e.start, e.file))


def model(people: list[Person], events: list[Event]) -> tuple[dict[str, Any], dict[int, Person]]:
    state = {p.fide_id: Person(**p.__dict__) for p in people}
    lists: dict[str, dict[int, int | None]] = {}
    pending: list[tuple[int, str, str, int, Fraction]] = []  # id, period, event, opp, score
    by_period: dict[str, list[Event]] = defaultdict(list)
    for ev in events:
        by_period[period_of(ev.end)].append(ev)
    periods = sorted(by_period)
    out: dict[str, Any] = {}
    previous: str | None = None
    for period in periods:
        year = int(period[:4])
        if previous is None:
            months = [period]
        else:
            months = [
                from_index(m) for m in range(month_index(previous) + 1, month_index(period) + 1)
            ]
            if len(months) > 1:  # months without events: K for this period's year
                for p in state.values():
                    if p.career is not None and p.rating is not None:
                        p.k = derive_k(p.rating, p.career, p.ever, p.birth, year)
        for m in months:
            lists[m] = {i: p.rating for i, p in state.items()}
        rated: dict[int, list[Fraction]] = defaultdict(list)
        own_first: dict[int, int | None] = {}
        unrated: dict[int, list[tuple[tuple[int, int], str, int, Fraction]]] = defaultdict(list)
        seen: list[int] = []
        for order, ev in enumerate(by_period[period]):
            start_month = f"{ev.start.year:04d}-{ev.start.month:02d}"
            snap = lists.get(start_month) if start_month < period else None
            own: dict[int, int | None] = {}
            facing: dict[int, int | None] = {}
            for i in ev.ids:
                base = state[i].rating
                own[i] = (snap[i] if snap[i] is not None else base) if snap else base
                facing[i] = snap[i] if snap else base
                own_first.setdefault(i, own[i])
                if i not in seen:
                    seen.append(i)
            for pairings in ev.rounds:
                for w, b, code in pairings:
                    for me, opp, c in ((ev.ids[w - 1], ev.ids[b - 1], code),
                                       (ev.ids[b - 1], ev.ids[w - 1], MIRROR[code])):  # fmt: skip
                        theirs = facing[opp]
                        if c in "+-" or theirs is None:
                            continue
                        mine = own[me]
                        if mine is None:
                            unrated[me].append(((0, order), ev.name, theirs, SCORE[c]))
                            continue
                        d = max(-400, min(400, mine - theirs))
                        rated[me].append(SCORE[c] - pd(d))
        rows: dict[int, dict[str, Any]] = {}
        now = month_index(period)
        window = [r for r in pending if 0 < now - month_index(r[1]) < 26]
        settled: set[int] = set()
        for i in seen:
            p = state[i]
            before = p.rating if p.rating is not None else own_first[i]
            if before is not None:
                n = len(rated[i])
                k = p.k if p.k is not None else derive_k(before, p.career, p.ever, p.birth, year)
                if n and k * n > 700:
                    k = 700 // n
                change = half_away(k * sum(rated[i], Fraction(0)))
                after = before + change
                status = "rated" if n else "no-rated-games"
                rows[i] = {"rating_before": before, "k": k, "games": n, "change": change,
                           "rating_after": after, "status": status}  # fmt: skip
                new = after if after >= 1400 else None
                p.rating = new
                p.career = p.career + n if p.career is not None else None
                if new is not None and new >= 2400:
                    p.ever = True
                settled.add(i)
                continue
            # earlier periods first; within a period, the events by name
            prior: list[tuple[tuple[int, int], str, int, Fraction]] = []
            for r in window:
                if r[0] != i:
                    continue
                same = sorted({x[2] for x in window if x[0] == i and x[1] == r[1]})
                prior.append(((month_index(r[1]) - now, same.index(r[2])), r[2], r[3], r[4]))
            pool = prior + unrated[i]
            if pool:
                first = min(g[0] for g in pool)
                if sum(g[3] for g in pool if g[0] == first) == 0:
                    pool = [g for g in pool if g[0] != first]
            n = len(pool)
            won = sum((g[3] for g in pool), Fraction(0))
            value = None
            if n >= 5:
                ra = Fraction(sum(g[2] for g in pool) + 3600, n + 2)
                dp = DP_BY_P[half_away((won + 1) / (n + 2) * 100)]
                value = min(half_away(ra + dp), 2200)
            if value is not None and value >= 1400:
                rows[i] = {"rating_before": None, "k": None, "games": n, "change": None,
                           "rating_after": value, "status": "initial"}  # fmt: skip
                p.rating, p.career, p.ever = value, n, False
                settled.add(i)
            else:
                rows[i] = {"rating_before": None, "k": None, "games": n, "change": None,
                           "rating_after": None, "status": "unrated"}  # fmt: skip
        for i in seen:
            pending.extend((i, period, name, opp, s) for _, name, opp, s in unrated[i])
        pending = [r for r in pending if r[0] not in settled and (r[1] == period or r in window)]
        listed = ("rated", "no-rated-games", "initial")
        played = {i: len(rated[i]) if rows[i]["status"] != "initial" else rows[i]["games"]
                  for i in seen if rows[i]["status"] in listed}  # fmt: skip
        next_year = int(period[:4]) + (period[5:] == "12")
        for i, p in state.items():
            if p.rating is not None and p.rating >= 2400:  # a published 2400 is "ever 2400"
                p.ever = True
            p.k = next_k(p, next_year)
            p.games = played.get(i, 0) if p.rating is not None else None
        out[period] = rows
        previous = period
    return out, state


def write_inputs(root: Path, people: list[Person], events: list[Event]) -> tuple[Path, Path]:
    folder = root / "events"
    rows = [
        {"fideid": p.fide_id, "name": p.name, "country": "NED", "rating": p.rating, "k": p.k,
         "birthday": p.birth, "career_games": p.career,
         "ever_2400": None if p.ever is None else int(p.ever)}
        for p in people
    ]  # fmt: skip
    registry = write_registry(root / "list.csv", rows)
    by_id = {p.fide_id: p for p in people}
    for ev in events:
        players = [P(by_id[i].name, i, by_id[i].rating, by_id[i].birth) for i in ev.ids]
        write_event(folder, Ev(ev.name, ev.start, ev.end, players, ev.rounds), stem=ev.file)
    return folder, registry


def check(seed: int, root: Path) -> None:
    people, events = scenario(seed)
    folder, registry = write_inputs(root, people, events)
    out = root / "out"
    result = CliRunner().invoke(
        app, ["run", str(folder), "--registry", str(registry), "--chain", "--out", str(out)]
    )
    assert result.exit_code == 0, result.stderr
    expected, final = model(people, events)
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == sorted(expected)
    for period, rows in expected.items():
        got = {int(r["fide_id"]): r for r in read_rows(out / period / "ratings.csv")}
        assert sorted(got) == sorted(rows), period
        for i, want in rows.items():
            shown = {key: "" if v is None else str(v) for key, v in want.items()}
            assert {key: got[i][key] for key in shown} == shown, (period, i)
    last = sorted(expected)[-1]
    listed = {int(r["fideid"]): r for r in read_rows(out / last / "players_list.csv")}
    for i, p in final.items():
        want = {
            "rating": p.rating,
            "k": p.k,
            "games": p.games,
            "career_games": p.career,
            "ever_2400": None if p.ever is None else int(p.ever),
        }
        shown = {key: "" if v is None else str(v) for key, v in want.items()}
        assert {key: listed[i][key] for key in shown} == shown, i


@pytest.mark.parametrize("seed", range(4))
def test_random_chains_agree_with_the_model(seed: int, tmp_path: Path) -> None:
    check(seed, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4, 60))
def test_many_random_chains_agree_with_the_model(seed: int, tmp_path: Path) -> None:
    check(seed, tmp_path)


def test_a_month_at_a_time_writes_what_the_chain_writes(tmp_path: Path) -> None:
    people, events = scenario(1)
    folder, registry = write_inputs(tmp_path, people, events)
    out = tmp_path / "out"
    runner = CliRunner()
    result = runner.invoke(
        app, ["run", str(folder), "--registry", str(registry), "--chain", "--out", str(out)]
    )
    assert result.exit_code == 0, result.stderr
    periods = sorted(p.name for p in out.iterdir() if p.is_dir())
    base, pending, previous = registry, None, None
    for period in periods:
        args = ["run", str(folder), "--period", period, "--registry", str(base), "--write-list"]
        if pending is not None:
            args += ["--pending", str(pending)]
        if previous is not None:  # the events that began the month before
            args += ["--previous-list", str(previous)]
        single = tmp_path / "single" / period
        result = runner.invoke(app, [*args, "--out", str(single)])
        assert result.exit_code == 0, result.stderr
        for name in ("ratings.csv", "games.csv", "players_list.csv", "pending.csv"):
            assert (single / name).read_bytes() == (out / period / name).read_bytes(), name
        previous = base
        base, pending = single / "players_list.csv", single / "pending.csv"
