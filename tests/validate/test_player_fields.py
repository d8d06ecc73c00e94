"""pipeline.validate.player_fields: FIDE's federation codes kept as cited data, the
``federation-unknown`` warning (once per file, all events in one query, the batch path
equal to the per-event one) and ``no-ratings-in-file`` in the registry check."""

from __future__ import annotations

import re
from dataclasses import replace
from importlib.resources import files

import polars as pl
import pytest

from pipeline.errors import Severity
from pipeline.formats.model import EventData
from pipeline.validate import check_against_registry, check_event
from pipeline.validate.batch import check_events
from pipeline.validate.player_fields import (
    FEDERATIONS_CSV,
    SHOWN_CODES,
    federation_warnings,
    fide_federation_expr,
    fide_federations,
)
from schemas.ingest import Events, Players
from schemas.registry import Registry
from tests.validate.builders import FILE, Player, game, make_event

FOUR: list[Player] = [
    (1, 2100, None, 1.0),
    (2, 2000, None, 0.0),
    (3, 1900, None, 0.5),
    (4, 1800, None, 0.5),
]
GAMES = [*game(1, 2, 1, "1"), *game(3, 4, 1, "=")]


def with_federations(ev: EventData, feds: list[str | None], file: str = FILE) -> EventData:
    """`ev` with the players' federations (in start-number order) and its file renamed."""
    players = ev.players.with_columns(
        pl.Series(str(Players.federation), feds, dtype=pl.String),
        pl.lit(file).alias(str(Players.event_id)),
    )
    events = ev.events.with_columns(
        pl.lit(file).alias(str(Events.file)), pl.lit(file).alias(str(Events.event_id))
    )
    games = ev.games.with_columns(pl.lit(file).alias(str(Players.event_id)))
    return replace(ev, events=events, players=players, games=games)


def test_the_codes_are_cited_data_with_fides_own_codes() -> None:
    text = files("pipeline.validate").joinpath(FEDERATIONS_CSV).read_text(encoding="utf-8")
    first, header = text.splitlines()[:2]
    assert first.startswith("# Source: ")
    assert "ratings.fide.com" in first
    assert header == "code,name"
    codes = fide_federations()
    assert all(re.fullmatch("[A-Z]{3}", code) for code in codes)
    # the home nations, FIDE itself, a dissolved federation the list still carries
    assert {"ENG", "SCO", "WLS", "FID", "AHO", "GER", "LBN", "NED"} <= set(codes)
    assert codes["HKG"] == "Hong Kong, China"
    assert len(codes) == 210


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("GER", "GER"),
        (" ger ", "GER"),
        ("FID", "FID"),
        ("KIL", None),
        ("C.C", None),
        ("DE", None),  # an ISO code is not FIDE's
        ("", None),
        (None, None),
    ],
)
def test_a_code_is_a_federation_only_when_it_is_fides(
    written: str | None, expected: str | None
) -> None:
    frame = pl.DataFrame({"fed": [written]}, schema={"fed": pl.String})
    assert frame.select(fide_federation_expr(pl.col("fed")))["fed"].to_list() == [expected]


def test_one_warning_per_file_naming_the_codes_most_players_first() -> None:
    clubs = with_federations(make_event(FOUR, GAMES), ["GON", "KIL", " KIL", "kil"], "a.trf")
    fide = with_federations(make_event(FOUR, GAMES), ["GER", "ger", None, "FID"], "b.trf")
    one = with_federations(make_event(FOUR, GAMES), ["C.C", "", "NED", "NED"], "c.trf")
    found = federation_warnings([clubs, fide, one])
    assert [[str(p) for p in problems] for problems in found] == [
        [
            "a.trf: warning: expected FIDE federation codes, got KIL (2 players), GON (1), "
            "kil (1); they are not used to tell players apart (club or region codes?) "
            "[federation-unknown]"
        ],
        [],
        [
            "c.trf: warning: expected FIDE federation codes, got C.C (1 player); they are "
            "not used to tell players apart (club or region codes?) [federation-unknown]"
        ],
    ]
    assert all(p.severity is Severity.WARNING for problems in found for p in problems)


def test_many_codes_are_counted_beyond_the_ones_named() -> None:
    names = [f"K{i:02d}" for i in range(SHOWN_CODES + 3)]
    players: list[Player] = [(n, None, None, 0.0) for n in range(1, len(names) + 1)]
    ev = with_federations(make_event(players, []), [*names])
    [[problem]] = federation_warnings([ev])
    assert problem.message.endswith(
        f"K{SHOWN_CODES - 1:02d} (1), 3 more (3); they are not used to tell players apart "
        "(club or region codes?)"
    )


def test_the_batch_path_gives_the_warning_of_the_per_event_path() -> None:
    events = [
        with_federations(make_event(FOUR, GAMES), ["KIL", "GER", None, "GON"], "a.trf"),
        with_federations(make_event(FOUR, GAMES), ["SWE", "SWE", "NOR", "NOR"], "b.trf"),
        # a LOUD event (points declared wrongly): the federation warning as well
        with_federations(
            make_event([(1, 2100, None, 0.0), (2, 2000, None, 0.0)], game(1, 2, 1, "1")),
            ["KIL", None],
            "c.trf",
        ),
    ]
    batch = check_events(events)
    assert batch == [check_event(ev) for ev in events]
    codes = [[p.code for p in problems] for problems in batch]
    assert codes[0] == ["federation-unknown"]
    assert codes[1] == []
    assert {"federation-unknown", "points-mismatch"} <= set(codes[2])


def registry(rows: list[tuple[int, int | None]]) -> pl.DataFrame:
    return pl.DataFrame(
        {str(Registry.fideid): [r[0] for r in rows], str(Registry.rating): [r[1] for r in rows]},
        schema={str(Registry.fideid): pl.Int64, str(Registry.rating): pl.Int64},
    )


def test_a_file_without_ratings_is_said_once_in_the_registry_check() -> None:
    unrated: list[Player] = [(1, None, 1001, 1.0), (2, None, 1002, 0.0), (3, None, 1003, 0.5)]
    ev = make_event(unrated, [*game(1, 2, 1, "1")])
    reg = registry([(1001, 2200), (1002, 2150), (1003, None)])
    problems = check_against_registry(ev.players, ev.events, reg)
    assert [str(p) for p in problems] == [
        f"{FILE}: warning: the file gives no ratings: the rating list's are used "
        "(2 players rated there) [no-ratings-in-file]"
    ]


def test_one_rating_in_the_file_keeps_the_warnings_per_player() -> None:
    some: list[Player] = [(1, None, 1001, 1.0), (2, 2150, 1002, 0.0)]
    ev = make_event(some, game(1, 2, 1, "1"))
    problems = check_against_registry(ev.players, ev.events, registry([(1001, 2200), (1002, 2150)]))
    assert [p.code for p in problems] == ["rating-differs"]
