"""Player identity, Ro and K: registry precedence, the standard fallback of rapid/blitz,
players without FIDE ID (fide-rules.md §1, §4, §5; design.md "Registry")."""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest

from tests.rate.builders import Event, game_rows, rate, registry, row


def duel(source: str = "trf16", lst: str = "standard", file_rating: int | None = 2000) -> Event:
    """Player 11 (file rating `file_rating`) beats player 12 (file rating 2050)."""
    e = Event("a", lst=lst, source=source)
    e.player(1, file_rating, 11)
    e.player(2, 2050, 12)
    e.pair(1, 1, 2, "1-0")
    return e


def test_registry_rating_and_k_win_with_a_mismatch_warning() -> None:
    # Ro 2050 and K 40 from the registry; D 0 -> .50 (§2); +.50 x 40 = +20 (§4)
    reg = registry([{"fideid": 11, "rating": 2050, "k": 40}])
    result = rate(duel(), reg=reg)
    r = row(result, 11)
    assert (r["rating_before"], r["k"], r["change"], r["rating_after"]) == (2050, 40, 20, 2070)
    assert r["rating_source"] == "registry"
    # player 12 is not in the registry: the file rating, derived K 20 -> -.50 x 20 = -10
    other = row(result, 12)
    assert (other["rating_before"], other["k"], other["change"]) == (2050, 20, -10)
    assert other["rating_source"] == "file"
    assert [str(w) for w in result.warnings] == [
        "a.trf:11:49-52: warning: expected 2050 (the registry's standard rating of FIDE ID 11), "
        "got 2000; the registry value is used [rating-mismatch]"
    ]


@pytest.mark.parametrize(
    ("source", "column"),
    [("crosstable-csv", "Rtg"), ("crosstable-xlsx", "Rtg"), ("games-csv", "rating")],
)
def test_mismatch_column_follows_the_source(source: str, column: str) -> None:
    reg = registry([{"fideid": 11, "rating": 2050}])
    [warning] = rate(duel(source), reg=reg).warnings
    assert (warning.code, warning.location.column) == ("rating-mismatch", column)


def test_registry_unrated_wins_over_the_file() -> None:
    reg = registry([{"fideid": 11, "rating": None}, {"fideid": 99, "rating": 1500}])
    result = rate(duel(), reg=reg)
    assert row(result, 11)["status"] == "unrated"
    assert game_rows(result, 12)[0]["reason"] == "opponent-unrated"
    [warning] = result.warnings
    assert warning.message.startswith("expected unrated (the registry's standard rating")


def test_registry_k_zero_is_derived_and_equal_ratings_do_not_warn() -> None:
    reg = registry([{"fideid": 11, "rating": 2000, "k": 0, "birthday": 2010}])
    result = rate(duel(), reg=reg)
    # K 40 for a junior (2025 - 2010 <= 18, below 2300; §5): D -50 -> .43, +.57 x 40 = 22.8
    r = row(result, 11)
    assert (r["k"], r["change_unrounded"], r["change"]) == (40, 22.8, 23)
    assert result.warnings == []


def test_rapid_uses_standard_rating_from_the_registry() -> None:
    # §1: unrated in rapid but rated in standard -> rated with the standard rating.
    # D 2000 - 1800 = 200 -> .76 (§2); +.24 x K 20 = 4.8 -> 5
    e = Event("r", lst="rapid")
    e.player(1, None, 21)
    e.player(2, 1800, 22)
    e.pair(1, 1, 2, "1-0")
    reg = registry(
        [
            {"fideid": 21, "rating": 2000, "rapid_rating": None},
            {"fideid": 22, "rating": 1700, "rapid_rating": 1800},
        ]
    )
    result = rate(e, reg=reg)
    r = row(result, 21, "rapid")
    assert (r["rating_before"], r["rating_source"], r["k"], r["change"]) == (
        2000,
        "registry-standard",
        20,
        5,
    )
    assert game_rows(result, 22)[0]["opponent_rating"] == 2000
    assert result.warnings == []  # the file's "unrated in rapid" agrees with the registry


def test_rapid_without_registry_takes_the_file_rating() -> None:
    # the event file's rating is the only one known: it is that list's rating
    result = rate(duel(lst="rapid"))
    r = row(result, 11, "rapid")
    assert (r["rating_before"], r["rating_source"], r["status"]) == (2000, "file", "rated")


def test_single_list_registry_does_not_cover_rapid() -> None:
    # a standard-only registry says nothing about rapid ratings: the files are used
    reg = registry([{"fideid": 11, "rating": 2300}, {"fideid": 12, "rating": 2300}])
    result = rate(duel(lst="rapid"), reg=reg)
    assert row(result, 11, "rapid")["rating_before"] == 2000
    assert result.warnings == []


def test_players_without_fide_id_are_not_merged() -> None:
    events = []
    for event_id, start in (("p1", dt.date(2025, 3, 1)), ("p2", dt.date(2025, 3, 8))):
        e = Event(event_id, start=start)
        e.player(1, 1800, None, name="Ann Example")
        e.player(2, 1800, None, name="Bo Sample")
        e.pair(1, 1, 2, "1-0")
        events.append(e)
    ratings = rate(*events).ratings.filter(pl.col("name") == "Ann Example")
    assert ratings.height == 2
    assert ratings["fide_id"].to_list() == [None, None]
    assert ratings["events"].to_list() == [1, 1]
    assert ratings["change"].to_list() == [10, 10]  # +.50 x 20 each, never pooled


def test_fide_id_merges_events_and_first_rating_wins() -> None:
    first = Event("m1", start=dt.date(2025, 3, 1))
    first.player(1, 1800, 5)
    first.player(2, 1800)
    first.pair(1, 1, 2, "1-0")
    second = Event("m2", start=dt.date(2025, 3, 20))
    second.player(3, 1810, 5)
    second.player(4, 1800)
    second.pair(1, 3, 4, "1-0")
    result = rate(second, first)  # input order does not matter: start dates do
    r = row(result, 5)
    # both games use Ro 1800: D 0 -> .50 twice -> ΣΔR 1.00 x 20 = 20
    assert (r["rating_before"], r["events"], r["games"], r["change"]) == (1800, 2, 2, 20)
    assert [str(w) for w in result.warnings] == [
        "m2.trf:13:49-52: warning: expected 1800 (the rating of FIDE ID 5 in m1.trf), got "
        "1810; the first event's rating is used for the period [rating-inconsistent]"
    ]


@pytest.mark.parametrize(
    ("title", "reg_title", "k"),
    [("IM", None, 10), ("GM", None, 10), (None, "IM", 10), ("FM", None, 20), (None, None, 20)],
)
def test_k_10_for_titles_that_needed_2400(title: str | None, reg_title: str | None, k: int) -> None:
    # §5 rule 1: K 10 once the rating has reached 2400 (IM and GM titles require it)
    e = Event("t")
    e.player(1, 2350, 31, title=title)
    e.player(2, 2350, 32)
    e.pair(1, 1, 2, "=")
    reg = registry([{"fideid": 31, "rating": 2350, "title": reg_title}])
    assert row(rate(e, reg=reg), 31)["k"] == k


def test_one_player_on_two_lists() -> None:
    std = Event("s", start=dt.date(2025, 3, 1))
    std.player(1, 1900, 41)
    std.player(2, 1900)
    std.pair(1, 1, 2, "1-0")
    rapid = Event("q", lst="rapid", start=dt.date(2025, 3, 2))
    rapid.player(1, 1700, 41)
    rapid.player(2, 1700)
    rapid.pair(1, 2, 1, "1-0")
    result = rate(std, rapid)
    assert (row(result, 41)["change"], row(result, 41, "rapid")["change"]) == (10, -10)
    assert result.ratings.filter(pl.col("fide_id") == 41)["list"].to_list() == [
        "standard",
        "rapid",
    ]


# --- a file without ratings; the federation shown ------------------------------------------


def test_a_file_without_ratings_is_one_warning_not_one_per_player() -> None:
    # a crosstable without a rating column: no file rating at all; the list rates both
    e = Event("n", source="crosstable-csv")
    e.player(1, None, 11)
    e.player(2, None, 12)
    e.pair(1, 1, 2, "1-0")
    reg = registry([{"fideid": 11, "rating": 2050}, {"fideid": 12, "rating": 1990}])
    result = rate(e, reg=reg)
    assert [str(w) for w in result.warnings] == [
        "n.trf: warning: the file gives no ratings: the rating list's are used (2 players "
        "rated there) [no-ratings-in-file]"
    ]
    assert (row(result, 11)["rating_before"], row(result, 12)["rating_before"]) == (2050, 1990)


def test_a_file_with_some_ratings_warns_per_player() -> None:
    reg = registry([{"fideid": 11, "rating": 2050}])
    result = rate(duel(file_rating=None), reg=reg)  # player 12 has the file's 2050
    assert [w.code for w in result.warnings] == ["rating-mismatch"]
    assert result.warnings[0].message.startswith("expected 2050 (the registry's standard")


@pytest.mark.parametrize(
    ("file_fed", "list_fed", "shown"),
    [
        ("KIL", "NED", "NED"),  # a club code: the list's federation
        ("GER", "NED", "GER"),  # a FIDE federation in the file: as today, the file's
        ("KIL", None, "KIL"),  # nothing better known: the file's code as written
    ],
)
def test_federation_shown_for_a_player_of_the_list(
    file_fed: str, list_fed: str | None, shown: str
) -> None:
    e = Event("f")
    e.player(1, 2000, 11, federation=file_fed)
    e.player(2, 2000, 12, federation="KIL")  # not in the list
    e.pair(1, 1, 2, "=")
    reg = registry([{"fideid": 11, "rating": 2000}]).with_columns(
        pl.Series("country", [list_fed], dtype=pl.String)
    )
    result = rate(e, reg=reg)
    assert (row(result, 11)["federation"], row(result, 12)["federation"]) == (shown, "KIL")
