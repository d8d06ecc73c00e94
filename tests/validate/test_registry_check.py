"""check_against_registry: warnings where the tournament file and the rating list disagree
(design.md "Registry inputs": the list's rating and K are used, a differing file rating is a
warning). FIDE 1003 is not in the list: that is the identity stage's warning
(tests/identity), not repeated here."""

from __future__ import annotations

import polars as pl
import pytest

from pipeline.errors import Severity
from pipeline.validate import check_against_registry
from schemas.registry import Registry
from tests.validate.builders import Player, game, make_event, player_line

PLAYERS: list[Player] = [
    (1, 2200, 1001, 1.0),
    (2, 2100, 1002, 0.0),
    (3, 2000, 1003, 0.5),
    (4, 1900, 1004, 0.5),
    (5, None, None, 0.0),
]
ENTRIES = [*game(1, 2, 1, "1"), *game(3, 4, 1, "=")]


def registry(rows: list[tuple[int, int | None, int | None, int | None]]) -> pl.DataFrame:
    """(fideid, standard, rapid, blitz) rows as the Registry frame."""
    return pl.DataFrame(
        {
            str(Registry.fideid): [r[0] for r in rows],
            str(Registry.rating): [r[1] for r in rows],
            str(Registry.rapid_rating): [r[2] for r in rows],
            str(Registry.blitz_rating): [r[3] for r in rows],
        },
        schema={
            str(Registry.fideid): pl.Int64,
            str(Registry.rating): pl.Int64,
            str(Registry.rapid_rating): pl.Int64,
            str(Registry.blitz_rating): pl.Int64,
        },
    )


LIST = registry(
    [
        (1001, 2200, 2150, None),
        (1002, 2150, 2100, None),
        (1004, 1900, None, None),
        (1009, 1500, None, None),
    ]
)


@pytest.mark.parametrize(
    ("list_", "expected"),
    [
        (
            "standard",
            [(player_line(2), "49-52", "rating-differs")],
        ),
        # Rapid: 1001 and 1002 differ from their rapid ratings; 1004 has no rapid rating and
        # the file shows its standard rating, which stands in (B.02 rapid/blitz §1).
        (
            "rapid",
            [(player_line(1), "49-52", "rating-differs")],
        ),
    ],
)
def test_registry_disagreements_are_warnings(
    list_: str, expected: list[tuple[int, str, str]]
) -> None:
    ev = make_event(PLAYERS, ENTRIES, list_=list_)
    problems = check_against_registry(ev.players, ev.events, LIST)
    assert [(p.location.line, p.location.column, p.code) for p in problems] == expected
    assert all(p.severity is Severity.WARNING for p in problems)


def test_rapid_unrated_player_shown_unrated_agrees() -> None:
    ev = make_event([(1, 2200, 1001, 0.0), (4, None, 1004, 1.0)], game(4, 1, 1, "1"), list_="rapid")
    problems = check_against_registry(ev.players, ev.events, LIST)
    assert [p.location.line for p in problems] == [player_line(1)]


def test_message_names_both_ratings() -> None:
    ev = make_event(PLAYERS, ENTRIES)
    problems = check_against_registry(ev.players, ev.events, LIST)
    assert problems[0].message == (
        "expected the rating list's 2150 (standard) for FIDE ID 1002, got 2100; "
        "the rating list's value is used"
    )


def test_unrated_in_file_but_rated_in_list() -> None:
    ev = make_event([(1, None, 1001, 0.0), (2, 2100, 1002, 1.0)], game(2, 1, 1, "1"))
    problems = check_against_registry(ev.players, ev.events, LIST)
    assert [p.message for p in problems] == [
        "expected the rating list's 2200 (standard) for FIDE ID 1001, got unrated; "
        "the rating list's value is used",
        "expected the rating list's 2150 (standard) for FIDE ID 1002, got 2100; "
        "the rating list's value is used",
    ]
