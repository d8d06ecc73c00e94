"""The sample rating period (November 2026): one pool of invented players and four events.

- a 9-round standard Swiss open (TRF26), 6-14 November;
- a 7-round rapid Swiss (chess-results XLSX), 22 November;
- a 10-player blitz round robin (chess-results CSV), 28 November;
- a 6-round standard club league (games CSV + players CSV), 2-25 November.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from samples_people import People, Person
from samples_swiss import HALVES, Entrant, Schedule, Standing, draw_result, run_swiss, standings

SEED = 20261106
OPEN_ROUND_DATES = [date(2026, 11, d) for d in range(6, 15)]
LEAGUE_DATES = [date(2026, 11, d) for d in (2, 4, 16, 18, 23, 25)]
RAPID_DATE = date(2026, 11, 22)
BLITZ_DATE = date(2026, 11, 28)
RULE_600 = 600  # rapid/blitz: not rated when >= 600 apart and one is above 2600
CANDIDATE_OPEN_ROUNDS = 4  # the initial-rating candidate withdraws after round 4
CANDIDATE_LEAGUE_FROM = 3  # ... and joins the league in round 3
CANDIDATE_LEAGUE_RESULTS = ["1", "=", "1", "0"]  # rounds 3-6, candidate's side


@dataclass
class SwissEvent:
    field: list[Person]  # index = start number - 1
    ratings: list[int]  # rating printed for each start number (0 = unrated)
    entrants: dict[int, Entrant]
    standings: list[Standing]
    schedule: Schedule


@dataclass(frozen=True)
class LeagueGame:
    round: int
    white: int  # player id in the players CSV (1-based index into the league field)
    black: int
    code: str  # TRF code from white's side: 1 = 0 or + (forfeit)


@dataclass
class Period:
    sgm: Person  # the 2650+ player
    candidate: Person  # unrated in standard; initial rating from open + league pooled
    open: SwissEvent
    rapid: SwissEvent
    blitz_field: list[Person]  # in start order
    blitz_ratings: list[int]
    blitz_halves: dict[tuple[int, int], int]  # (i, j) 0-based -> i's halves against j
    league_field: list[Person]  # id = index + 1
    league_games: list[LeagueGame]
    extras: list[Person]
    notes: dict[str, Person] = field(default_factory=dict)

    def pool(self) -> list[Person]:
        """Every player with a FIDE ID who plays in the period, each once."""
        seen: dict[int, Person] = {}
        groups = (self.open.field, self.rapid.field, self.blitz_field, self.league_field)
        for group in groups:
            for p in group:
                if p.fide_id is not None:
                    seen.setdefault(p.fide_id, p)
        return list(seen.values())


_TITLE_ORDER = {"GM": 0, "IM": 1, "WGM": 2, "FM": 3, "WIM": 4, "CM": 5, "WFM": 6, "WCM": 7}


def start_order(players: Sequence[Person], list_name: str) -> list[Person]:
    """Start ranking: rating on the event's list (unrated last), title, name."""

    def key(p: Person) -> tuple[int, int, str]:
        return (-(p.rating(list_name) or 0), _TITLE_ORDER.get(p.title, 9), p.name)

    return sorted(players, key=key)


def _swiss(
    players: list[Person], list_name: str, schedule: Schedule, rng: random.Random
) -> SwissEvent:
    ratings = [p.rating(list_name) or 0 for p in players]
    strengths = [p.rating(list_name) or p.rating("standard") or p.strength for p in players]
    entrants = run_swiss(strengths, schedule, rng)
    for round_no, nos in schedule.no_shows.items():
        for no in nos:
            assert entrants[no].entries[round_no - 1].code == "-", (list_name, round_no, no)
    return SwissEvent(players, ratings, entrants, standings(entrants), schedule)


def _open(people: People, rng: random.Random, notes: dict[str, Person]) -> SwissEvent:
    sgm = people.make(2703, woman=False, junior=False, rapid=2681, blitz=2694)
    sgm.title = "GM"
    notes["sgm"] = sgm
    notes["junior_k20"] = people.make(2312, woman=False, junior=True, blitz=None)
    notes["veteran_k10"] = people.make(2368, woman=False, junior=False, ever_2400=True)
    notes["few_games_k40"] = people.make(1585, junior=False, few_games=True, rapid=None)
    rated = [sgm, notes["junior_k20"], notes["veteran_k10"], notes["few_games_k40"]]
    while len(rated) < 126:
        rated.append(people.make(int(rng.triangular(1400, 2480, 1650))))
    candidate = people.make(None, woman=False, junior=False, rapid=None, blitz=None, strength=1750)
    notes["candidate"] = candidate
    unrated = [
        people.make(None, rapid=None, blitz=None, strength=rng.randint(1250, 1650))
        for _ in range(4)
    ]
    notes["fully_unrated"] = unrated[0]
    notes["rapid_only"] = people.make(None, junior=False, rapid=1562, blitz=None, strength=1560)
    no_id = [
        people.make(None, rapid=None, blitz=None, strength=rng.randint(1150, 1600), with_id=False)
        for _ in range(5)
    ]
    players = start_order([*rated, candidate, *unrated, notes["rapid_only"], *no_id], "standard")
    cand_no = players.index(candidate) + 1
    schedule = Schedule(
        rounds=9,
        absent={
            2: {37: "H"},
            3: {58: "H", 84: "H"},
            5: {21: "H", cand_no: "Z"},
            6: {66: "Z", cand_no: "Z"},
            7: {95: "H", cand_no: "Z"},
            8: {cand_no: "Z"},
            9: {cand_no: "Z"},
        },
        no_shows={4: {47}, 7: {73}},
    )
    return _swiss(players, "standard", schedule, rng)


def _rapid(
    people: People, rng: random.Random, notes: dict[str, Person], open_field: list[Person]
) -> SwissEvent:
    sgm = notes["sgm"]
    strong = [p for p in open_field[4:] if (p.rating("rapid") or 0) >= 1750]
    from_open = rng.sample(strong, 18)
    std_only_open = rng.sample(
        [p for p in open_field[4:] if p.rating("rapid") is None and p.rating("standard")], 3
    )
    new_rated = []
    for _ in range(12):
        std = int(rng.triangular(1750, 2450, 2050))
        new_rated.append(people.make(std, rapid=max(1400, std + rng.randint(-80, 50))))
    new_std_only = [people.make(rng.randint(1600, 2100), rapid=None) for _ in range(3)]
    no_id = people.make(None, rapid=None, blitz=None, strength=1450, with_id=False)
    group = [sgm, *from_open, *new_rated, *std_only_open, *new_std_only]
    group += [notes["fully_unrated"], notes["rapid_only"], no_id]
    players = start_order(group, "rapid")
    opponent = players[20]  # start number 21 meets start number 1 in round 1
    opp_rating = opponent.rating("rapid") or 0
    assert 1850 <= opp_rating <= 2681 - RULE_600, opp_rating
    notes["rule600_opponent"] = opponent
    schedule = Schedule(
        rounds=7,
        absent={3: {30: "H"}, 5: {12: "Z", 25: "H"}},
        no_shows={4: {33}},
    )
    return _swiss(players, "rapid", schedule, rng)


def _blitz(
    people: People, rng: random.Random, open_field: list[Person], rapid_field: list[Person]
) -> tuple[list[Person], dict[tuple[int, int], int]]:
    used = set(map(id, rapid_field))
    pool = [p for p in open_field[4:60] if (p.rating("blitz") or 0) >= 1750 and id(p) not in used]
    group = rng.sample(pool, 4)
    from_rapid = [p for p in rapid_field if p.fide_id and p.rating("blitz") and p not in group]
    group.append(from_rapid[-1])
    # The round-robin export has no FideID column, so the list's standard-rating
    # fallback could not be found for a player unrated in blitz: all ten are blitz-rated.
    for _ in range(5):
        std = rng.randint(1750, 2250)
        group.append(people.make(std, blitz=max(1400, std + rng.randint(-80, 60))))
    players = start_order(group, "blitz")
    strengths = [p.rating("blitz") or p.rating("standard") or p.strength for p in players]
    halves: dict[tuple[int, int], int] = {}
    for i in range(len(players)):
        for j in range(i + 1, len(players)):
            white, black = (i, j) if (i + j) % 2 else (j, i)
            code = draw_result(rng, strengths[white], strengths[black])
            halves[(white, black)] = HALVES[code]
            halves[(black, white)] = 2 - HALVES[code]
    return players, halves


def _league(
    people: People, rng: random.Random, notes: dict[str, Person], open_field: list[Person]
) -> tuple[list[Person], list[LeagueGame]]:
    candidate = notes["candidate"]
    members = rng.sample([p for p in open_field[40:100] if p is not notes["few_games_k40"]], 5)
    members += [people.make(rng.randint(1500, 2100)) for _ in range(6)]
    players = [*start_order(members, "standard"), candidate]
    n = len(players)
    cand_id = n
    order = list(range(1, n + 1))
    games: list[LeagueGame] = []
    forced = iter(CANDIDATE_LEAGUE_RESULTS)
    forfeit_done = False
    for round_no in range(1, 7):
        for board in range(n // 2):
            a, b = order[board], order[n - 1 - board]
            white, black = (a, b) if (board + round_no) % 2 else (b, a)
            if cand_id in (white, black):
                if round_no < CANDIDATE_LEAGUE_FROM:
                    continue  # joined the league in round 3: the game is not held
                code = next(forced)
                if black == cand_id:
                    code = {"1": "0", "0": "1", "=": "="}[code]
            elif round_no == 5 and not forfeit_done:
                code, forfeit_done = "+", True
            else:
                code = draw_result(
                    rng,
                    players[white - 1].rating("standard") or 0,
                    players[black - 1].rating("standard") or 0,
                )
            games.append(LeagueGame(round_no, white, black, code))
        order = [order[0], order[-1], *order[1:-1]]
    return players, games


def build_period() -> Period:
    rng = random.Random(SEED)
    people = People(rng)
    notes: dict[str, Person] = {}
    open_event = _open(people, rng, notes)
    rapid_event = _rapid(people, rng, notes, open_event.field)
    blitz_field, blitz_halves = _blitz(people, rng, open_event.field, rapid_event.field)
    league_field, league_games = _league(people, rng, notes, open_event.field)
    extras = [people.extra() for _ in range(200)]
    return Period(
        sgm=notes["sgm"],
        candidate=notes["candidate"],
        open=open_event,
        rapid=rapid_event,
        blitz_field=blitz_field,
        blitz_ratings=[p.rating("blitz") or 0 for p in blitz_field],
        blitz_halves=blitz_halves,
        league_field=league_field,
        league_games=league_games,
        extras=extras,
        notes=notes,
    )
