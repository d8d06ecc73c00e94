"""The same event given twice is rated once (pipeline.validate.duplicates): found by its
persons and results whatever the files' kinds, numbering, spelling of the names, IDs and
ratings; two different events of the same players are left alone."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import polars as pl
import pytest

from pipeline.errors import Severity
from pipeline.formats.model import EventData
from pipeline.validate.duplicates import SAME_BYTES, SAME_GAMES, Duplicates, find_duplicates
from schemas.columns import E, G, P
from schemas.ingest import EVENT_DTYPES, GAME_DTYPES, PLAYER_DTYPES

# Ten persons: (name as FIDE writes it, FIDE ID, rating).
PERSONS = [
    ("Carlsen, Magnus", 1503014, 2830),
    ("Caruana, Fabiano", 2020009, 2795),
    ("Nakamura, Hikaru", 2016192, 2790),
    ("Gukesh, D", 46616543, 2780),
    ("Firouzja, Alireza", 12573981, 2760),
    ("Giri, Anish", 24116068, 2745),
    ("So, Wesley", 5202213, 2740),
    ("Nepomniachtchi, Ian", 4168119, 2735),
    ("Erigaisi, Arjun", 35009192, 2730),
    ("Müller-Lüdenscheidt, Hans Jörg", 4600010, 2400),
    ("O'Brien, Seán", 2500035, 2350),
]
MIRROR = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+"}


@dataclass
class Event:
    """An event as played: games between persons (indexes in PERSONS) and byes."""

    persons: list[int]
    games: list[tuple[int, int, int, str]]  # round, white, black, result from white's side
    byes: list[tuple[int, int, str]] = field(default_factory=list)  # round, person, code


def round_robin(
    seed: int, persons: Sequence[int] = range(10), first_round: int = 1, swap: bool = False
) -> Event:
    """A round robin (the circle method; with an odd number of persons the one paired
    with nobody has a bye ``U``), results drawn from `seed`; `swap`: the colours reversed."""
    rng = random.Random(seed)
    ring: list[int | None] = [*persons, None] if len(persons) % 2 else list(persons)
    event = Event(list(persons), [])
    for r in range(len(ring) - 1):
        rnd = first_round + r
        for i in range(len(ring) // 2):
            white, black = ring[i], ring[-1 - i]
            if (r + i) % 2 != swap:
                white, black = black, white
            pair = [p for p in (white, black) if p is not None]
            if len(pair) == 1:
                event.byes.append((rnd, pair[0], "U"))
            else:
                event.games.append((rnd, pair[0], pair[1], rng.choice("1=0")))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return event


def fide_name(name: str) -> str:
    return name


def shouted(name: str) -> str:
    """``Carlsen, Magnus`` as ``CARLSEN Magnus `` (a crosstable's way, a trailing blank)."""
    surname, _, given = name.partition(",")
    return f"{surname.upper()} {given.strip()} "


def given_first(name: str) -> str:
    surname, _, given = name.partition(",")
    return f"{given.strip()} {surname}"


def render(
    event: Event,
    file: str,
    *,
    source: str = "trf16",
    order: Sequence[int] | None = None,
    names: Callable[[str], str] = fide_name,
    ids: bool = True,
    ratings: bool = True,
    title: str = "Club Rapid",
    start: date | None = date(2025, 4, 30),
) -> EventData:
    """The event as one file writes it: the persons numbered in `order` (start numbers
    1..n; default the event's own order), names as `names` writes them."""
    numbered = list(order) if order is not None else list(event.persons)
    no = {person: i + 1 for i, person in enumerate(numbered)}
    events = pl.DataFrame(
        {
            E.ID: [file],
            E.FILE: [file],
            E.NAME: [title],
            E.SOURCE: [source],
            E.LIST: ["rapid"],
            E.START: [start],
        },
        schema={k: EVENT_DTYPES[k] for k in (E.ID, E.FILE, E.NAME, E.SOURCE, E.LIST, E.START)},
    )
    players = pl.DataFrame(
        {
            P.EVENT: [file] * len(numbered),
            P.NO: [no[p] for p in numbered],
            P.NAME: [names(PERSONS[p][0]) for p in numbered],
            P.FIDE: [PERSONS[p][1] if ids else None for p in numbered],
            P.RATING: [PERSONS[p][2] if ratings else None for p in numbered],
            P.LINE: [10 + no[p] for p in numbered],
        },
        schema={k: PLAYER_DTYPES[k] for k in (P.EVENT, P.NO, P.NAME, P.FIDE, P.RATING, P.LINE)},
    )
    rows: list[tuple[int, int, int | None, str | None, str]] = []
    for rnd, white, black, result in event.games:
        rows.append((rnd, no[white], no[black], "w", result))
        rows.append((rnd, no[black], no[white], "b", MIRROR[result]))
    rows += [(rnd, no[person], None, None, code) for rnd, person, code in event.byes]
    scores = {"1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0, "U": 1.0, "H": 0.5, "Z": 0.0}
    games = pl.DataFrame(
        {
            G.EVENT: [file] * len(rows),
            G.ROUND: [r[0] for r in rows],
            G.NO: [r[1] for r in rows],
            G.OPP: [r[2] for r in rows],
            G.COLOUR: [r[3] for r in rows],
            G.CODE: [r[4] for r in rows],
            G.SCORE: [scores[r[4]] for r in rows],
            G.PLAYED: [r[4] in "1=0" and r[2] is not None for r in rows],
            G.LINE: [10 + r[1] for r in rows],
            G.COLUMN: ["" for _ in rows],
        },
        schema=GAME_DTYPES,
    )
    return EventData(events, players, games)


def by_rank(event: Event) -> list[int]:
    """The persons in final-ranking order (points, then person), as a crosstable numbers
    them."""
    points = dict.fromkeys(event.persons, 0.0)
    for _, white, black, result in event.games:
        points[white] += {"1": 1.0, "=": 0.5, "0": 0.0}[result]
        points[black] += {"1": 0.0, "=": 0.5, "0": 1.0}[result]
    return sorted(event.persons, key=lambda p: (-points[p], p))


def find(*events: EventData, digests: dict[str, str] | None = None) -> Duplicates:
    return find_duplicates(list(events), digests or {})


def lines(found: Duplicates) -> list[str]:
    return [str(p) for p in found.problems]


def skipped_line(skipped: str, kept: str, why: str = SAME_GAMES) -> str:
    return (
        f"{skipped}: warning: expected each event once, got the event of {kept} again "
        f"({why}); rated once, from {kept} [duplicate-event]"
    )


EVENT = round_robin(seed=1, persons=range(11))  # 55 games and 11 byes


def absent(event: Event) -> Event:
    """The same event with an absence (no opponent, no points) written for every player
    in an extra round, as some files write the rounds a player missed."""
    extra = max(g[0] for g in event.games) + 1
    return Event(
        event.persons, event.games, [*event.byes, *((extra, p, "Z") for p in event.persons)]
    )


@pytest.mark.parametrize(
    ("options", "label"),
    [
        ({"order": by_rank(EVENT)}, "numbered by rank, the TRF by start number"),
        ({"names": shouted}, "names written SURNAME First with a trailing blank"),
        ({"names": given_first, "order": by_rank(EVENT)}, "given names first, renumbered"),
        ({"ids": False, "names": shouted}, "FIDE IDs in one file only"),
        ({"ratings": False, "ids": False}, "no ratings, no IDs"),
        ({"title": "Keshmat Circuit April", "start": None}, "another title, no date"),
    ],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_a_crosstable_of_a_trf_s_event_is_the_same_event(
    options: dict[str, Any], label: str
) -> None:
    trf = render(EVENT, "club.trf")
    crosstable = render(EVENT, "club.xlsx", source="crosstable-xlsx", **options)
    found = find(trf, crosstable)
    assert found.skipped == {1: 0}, label
    assert found.why == {1: SAME_GAMES}
    assert lines(found) == [skipped_line("club.xlsx", "club.trf")]
    assert all(p.severity is Severity.WARNING for p in found.problems)


def test_absences_written_in_one_file_only_change_nothing() -> None:
    trf = render(absent(EVENT), "club.trf")
    crosstable = render(EVENT, "club.xlsx", source="crosstable-xlsx", order=by_rank(EVENT))
    assert find(trf, crosstable).skipped == {1: 0}


def test_the_trf_is_kept_when_it_comes_second_in_path_order() -> None:
    crosstable = render(EVENT, "a.xlsx", source="crosstable-xlsx", order=by_rank(EVENT))
    trf = render(EVENT, "b.trf", source="trf26", names=shouted)
    found = find(crosstable, trf)
    assert found.skipped == {0: 1}
    assert lines(found) == [skipped_line("a.xlsx", "b.trf")]
    assert found.records([crosstable, trf]) == [
        {"file": "a.xlsx", "kept": "b.trf", "why": SAME_GAMES}
    ]


def test_the_trf_is_kept_when_it_comes_first_in_path_order() -> None:
    trf = render(EVENT, "a.trf", ids=False)
    crosstable = render(EVENT, "b.csv", source="crosstable-csv", order=by_rank(EVENT))
    found = find(trf, crosstable)
    assert found.skipped == {1: 0}
    assert lines(found) == [skipped_line("b.csv", "a.trf")]


def test_without_a_trf_the_first_in_path_order_is_kept() -> None:
    xlsx = render(EVENT, "a.xlsx", source="crosstable-xlsx", order=by_rank(EVENT))
    csv = render(EVENT, "b.csv", source="crosstable-csv", names=shouted, ids=False)
    games = render(EVENT, "c.csv", source="games-csv", names=given_first)
    found = find(xlsx, csv, games)
    assert found.skipped == {1: 0, 2: 0}
    assert lines(found) == [skipped_line("b.csv", "a.xlsx"), skipped_line("c.csv", "a.xlsx")]
    assert [r["file"] for r in found.records([xlsx, csv, games])] == ["b.csv", "c.csv"]


def test_of_two_trfs_the_first_is_kept_and_the_same_bytes_are_named() -> None:
    first = render(EVENT, "a.trf")
    copy = render(EVENT, "downloads/a (1).trf")
    found = find(first, copy, digests={"a.trf": "d1", "downloads/a (1).trf": "d1"})
    assert found.skipped == {1: 0}
    assert found.why == {1: SAME_BYTES}
    assert lines(found) == [skipped_line("downloads/a (1).trf", "a.trf", SAME_BYTES)]


def test_homonyms_without_ids_are_told_apart_by_their_results() -> None:
    event = round_robin(seed=3)
    twin = {PERSONS[3][0]: PERSONS[4][0]}  # Gukesh written as Firouzja: one name, two players
    trf = render(event, "h.trf", names=lambda n: twin.get(n, n))
    crosstable = render(
        event,
        "h.xlsx",
        source="crosstable-xlsx",
        order=by_rank(event),
        ids=False,
        names=lambda n: shouted(twin.get(n, n)),
    )
    assert find(trf, crosstable).skipped == {1: 0}


def test_a_crosstable_of_an_earlier_round_overlaps_and_both_are_rated() -> None:
    final = round_robin(seed=5)
    earlier = Event(final.persons, [g for g in final.games if g[0] <= 7])
    found = find(
        render(final, "final.trf"),
        render(earlier, "round7.xlsx", source="crosstable-xlsx", order=by_rank(earlier)),
    )
    assert found.skipped == {}
    assert lines(found) == [
        "round7.xlsx: warning: expected each event in one file, got 10 of 10 players and 35 "
        "of 35 games in common with final.trf; both are rated: if they are one event, give "
        "one of the two files [overlapping-event]"
    ]


def test_a_corrected_result_overlaps_and_both_are_rated() -> None:
    rnd, white, black, result = EVENT.games[-1]
    other = {"1": "0", "=": "1", "0": "1"}[result]
    corrected = Event(EVENT.persons, [*EVENT.games[:-1], (rnd, white, black, other)], EVENT.byes)
    found = find(
        render(EVENT, "a.trf"),
        render(corrected, "b.csv", source="crosstable-csv", names=shouted, ids=False),
    )
    assert found.skipped == {}
    assert lines(found) == [
        "b.csv: warning: expected each event in one file, got 11 of 11 players and 65 of 66 "
        "games in common with a.trf; both are rated: if they are one event, give one of the "
        "two files [overlapping-event]"
    ]


def test_a_bye_of_another_class_is_another_result() -> None:
    rnd, person, _ = EVENT.byes[0]
    half = Event(EVENT.persons, EVENT.games, [(rnd, person, "H"), *EVENT.byes[1:]])
    found = find(render(EVENT, "a.trf"), render(half, "b.trf"))
    assert [p.code for p in found.problems] == ["overlapping-event"]
    assert "65 of 66 games" in found.problems[0].message


def test_two_monthly_rapids_of_the_same_ten_players_are_two_events() -> None:
    march = render(round_robin(seed=11), "march.trf", title="Club Rapid")
    april = render(round_robin(seed=12), "april.trf", title="Club Rapid")
    assert find(march, april) == Duplicates()


@pytest.mark.parametrize("second_half", [10, 1], ids=["rounds 10-18", "rounds 1-9 again"])
def test_the_halves_of_a_double_round_robin_are_two_events(second_half: int) -> None:
    first = round_robin(seed=21)
    second = round_robin(seed=22, first_round=second_half, swap=True)
    assert find(render(first, "half1.trf"), render(second, "half2.trf")) == Duplicates()


def test_events_of_other_players_are_left_alone() -> None:
    one = render(round_robin(seed=1, persons=range(5)), "one.trf")
    other = render(round_robin(seed=1, persons=range(5, 10)), "other.trf")
    assert find(one, other) == Duplicates()
    assert find(one) == Duplicates()


@pytest.mark.parametrize(
    ("other", "one_event"),
    [(date(2025, 5, 2), True), (None, True), (date(2025, 5, 4), False), (date(2025, 5, 28), False)],
    ids=["2 days later", "undated", "4 days later", "a month later"],
)
def test_files_dated_days_apart_are_two_events_whatever_their_results(
    other: date | None, one_event: bool
) -> None:
    """A club's weekly four-player round robin may repeat its results."""
    first = render(EVENT, "a.trf", start=date(2025, 4, 30))
    second = render(EVENT, "b.trf", start=other)
    assert find(first, second).skipped == ({1: 0} if one_event else {})
