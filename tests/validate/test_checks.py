"""validate_event on frames built in the test: each fault class yields exactly the expected
(line, column, code, severity) and nothing else. Rules cited per case."""

from __future__ import annotations

from datetime import date
from typing import Any

import polars as pl
import pytest

from pipeline.errors import Problem, Severity
from pipeline.validate import validate_event
from tests.validate.builders import Entry, Player, game, make_event, player_line, round_column

E = Severity.ERROR
W = Severity.WARNING

PLAYERS: list[Player] = [
    (1, 2200, 1001, 2.0),
    (2, 2100, 1002, 0.5),
    (3, 2000, 1003, 1.0),
    (4, 1900, 1004, 0.5),
]
ENTRIES: list[Entry] = [
    *game(1, 3, 1, "1"),
    *game(2, 4, 1, "="),
    *game(4, 1, 2, "0"),
    *game(3, 2, 2, "1"),
]


def found(problems: list[Problem]) -> list[tuple[int | None, str | None, str, Severity]]:
    return [(p.location.line, p.location.column, p.code, p.severity) for p in problems]


def replace(entries: list[Entry], old: Entry, new: Entry) -> list[Entry]:
    assert old in entries
    return [new if e == old else e for e in entries]


def with_points(players: list[Player], no: int, points: float | None) -> list[Player]:
    return [(p[0], p[1], p[2], points) if p[0] == no else p for p in players]


def with_rating(players: list[Player], no: int, rating: int | None) -> list[Player]:
    return [(p[0], rating, p[2], p[3]) if p[0] == no else p for p in players]


L = player_line
C = round_column

CASES: list[tuple[str, list[Player], list[Entry], dict[str, Any], list[Any]]] = [
    ("clean", PLAYERS, ENTRIES, {}, []),
    # TRF16 §001 / fide-rules §8: a played game appears on both lines, results mirrored.
    (
        "same-colour",
        PLAYERS,
        replace(ENTRIES, (3, 1, 1, "b", "0"), (3, 1, 1, "w", "0")),
        {},
        [(L(1), C(1), "unmirrored-game", E)],
    ),
    (
        "one-sided-game",
        PLAYERS,
        replace(ENTRIES, (3, 1, 1, "b", "0"), (3, 1, None, None, "Z")),
        {},
        [(L(1), C(1), "unmirrored-game", E)],
    ),
    (
        "no-entry-for-opponent",
        PLAYERS,
        [e for e in ENTRIES if e != (3, 1, 1, "b", "0")],
        {},
        [(L(1), C(1), "unmirrored-game", E)],
    ),
    (
        "opponent-missing",
        with_points(PLAYERS, 1, 2.0),
        replace(
            [e for e in ENTRIES if e != (3, 1, 1, "b", "0")],
            (1, 1, 3, "w", "1"),
            (1, 1, 9, "w", "1"),
        ),
        {},
        [(L(1), C(1), "opponent-missing", E)],
    ),
    (
        "paired-with-self",
        PLAYERS,
        replace(
            [e for e in ENTRIES if e != (3, 1, 1, "b", "0")],
            (1, 1, 3, "w", "1"),
            (1, 1, 1, "w", "1"),
        ),
        {},
        [(L(1), C(1), "paired-with-self", E)],
    ),
    # Player 4 claims a round-1 game against 1, who played 3: 1 would play twice.
    (
        "twice-in-round",
        with_points(PLAYERS, 2, 0.0),
        replace(
            replace(ENTRIES, (4, 1, 2, "b", "="), (4, 1, 1, "b", "=")),
            (2, 1, 4, "w", "="),
            (2, 1, None, None, "Z"),
        ),
        {},
        [(L(4), C(1), "twice-in-round", E)],
    ),
    # Declared points equal the results under 1/½/0 (TRF16 §001 columns 81-84).
    (
        "points-mismatch",
        with_points(PLAYERS, 2, 2.5),
        ENTRIES,
        {},
        [(L(2), "81-84", "points-mismatch", E)],
    ),
    (
        "points-byes-counted-otherwise",
        [*with_points(PLAYERS, 2, 0.5), (5, 1800, 1005, 0.0)],
        [*ENTRIES, (5, 1, None, None, "U"), (5, 2, None, None, "Z")],
        {},
        [(L(5), "81-84", "points-other-scoring", W)],
    ),
    (
        "points-three-one-zero",
        with_points(PLAYERS, 1, 6.0),
        ENTRIES,
        {},
        [(L(1), "81-84", "points-other-scoring", W)],
    ),
    # Ratings: nothing below 1000 is ever published; the floor is 1400 from 2024-03-01
    # (B.02 §6 / fide-rules §6), 1000 before.
    (
        "rating-below-1000",
        with_rating(PLAYERS, 4, 900),
        ENTRIES,
        {},
        [(L(4), "49-52", "bad-rating", E)],
    ),
    (
        "rating-above-3500",
        with_rating(PLAYERS, 1, 3600),
        ENTRIES,
        {},
        [(L(1), "49-52", "bad-rating", E)],
    ),
    (
        "rating-below-floor-2025",
        with_rating(PLAYERS, 4, 1350),
        ENTRIES,
        {},
        [(L(4), "49-52", "below-rating-floor", W)],
    ),
    (
        "rating-1350-in-2010",
        with_rating(PLAYERS, 4, 1350),
        ENTRIES,
        {"start": date(2010, 9, 24)},
        [],
    ),
    (
        "duplicate-fide-id",
        [(p[0], p[1], 1001 if p[0] == 3 else p[2], p[3]) for p in PLAYERS],
        ENTRIES,
        {},
        [(L(3), "58-68", "duplicate-fide-id", E)],
    ),
    (
        "unknown-list",
        PLAYERS,
        ENTRIES,
        {"list_": None},
        [(None, None, "unknown-list", E)],
    ),
    ("rounds-beyond-declared", PLAYERS, ENTRIES, {"rounds": 1}, [(L(1), C(2), "round-count", E)]),
    (
        "rounds-fewer-than-declared",
        PLAYERS,
        ENTRIES,
        {"rounds": 9},
        [(None, None, "rounds-missing", W)],
    ),
    (
        "bad-result",
        with_points(PLAYERS, 2, 0.0),
        replace(ENTRIES, (2, 1, 4, "w", "="), (2, 1, 4, "w", "Q")),
        {},
        [(L(2), C(1), "bad-result", E), (L(4), C(1), "unmirrored-game", E)],
    ),
    # The 2005 Karl-Mala file: a 'spielfrei' pseudo-player with a forfeit loss and no opponent.
    (
        "spielfrei",
        [*PLAYERS, (5, None, None, 0.0)],
        [*ENTRIES, (5, 2, None, None, "-")],
        {},
        [],
    ),
]


@pytest.mark.parametrize(
    ("players", "entries", "kwargs", "expected"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_fault_classes(
    players: list[Player], entries: list[Entry], kwargs: dict[str, Any], expected: list[Any]
) -> None:
    problems = validate_event(make_event(players, entries, **kwargs))
    assert found(problems) == expected


def test_results_not_complementary_names_both_lines() -> None:
    entries = replace(ENTRIES, (3, 1, 1, "b", "0"), (3, 1, 1, "b", "1"))
    problems = validate_event(make_event(with_points(PLAYERS, 3, 2.0), entries))
    assert found(problems) == [(L(1), C(1), "unmirrored-game", E)]
    message = problems[0].message
    assert f"line {L(3)}" in message
    assert message.startswith("expected ")
    assert ", got " in message


def test_duplicate_start_number_reported_once() -> None:
    players = [*PLAYERS, (4, 1800, 1005, 0.0)]
    event = make_event(players, ENTRIES, line_of={4: 20})
    problems = validate_event(event)
    assert found(problems) == [(20, "5-8", "duplicate-start-number", E)]
    assert "first on line 14" in problems[0].message


def test_problems_are_sorted_and_formatted() -> None:
    players = with_rating(with_points(PLAYERS, 2, 2.5), 4, 900)
    problems = validate_event(make_event(players, ENTRIES, list_=None))
    assert problems == sorted(problems, key=Problem.sort_key)
    text = [str(p) for p in problems]
    assert text[0].startswith("t.trf: expected a time control")
    assert text[0].endswith("pass --list standard|rapid|blitz [unknown-list]")
    assert any(t.startswith(f"t.trf:{L(2)}:81-84: expected 0.5 points") for t in text)


def test_warning_prefix() -> None:
    problems = validate_event(make_event(with_rating(PLAYERS, 4, 1350), ENTRIES))
    assert str(problems[0]) == (
        f"t.trf:{L(4)}:49-52: warning: expected a rating of at least 1400 (the rating floor "
        "from 2024-03-01), got 1350: below the rating floor [below-rating-floor]"
    )


def test_crosstable_columns_are_headers() -> None:
    event = make_event(with_points(PLAYERS, 2, 2.5), ENTRIES, source="crosstable-csv")
    assert found(validate_event(event)) == [(L(2), "Pts.", "points-mismatch", E)]


def test_record_162_scoring_is_a_warning() -> None:
    event = make_event(with_points(PLAYERS, 1, 6.0), ENTRIES, source="trf26")
    event.events = event.events.with_columns(scoring=pl.lit("W 3.0 D 1.0 L 0.0"))
    problems = validate_event(event)
    assert found(problems) == [(L(1), "81-84", "points-other-scoring", W)]
    assert "record 162" in problems[0].message
