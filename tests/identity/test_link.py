"""link_players: every entry of a run linked to a person, in the documented order
(decisions, file IDs, name matches in the rating list, the same name across events).

The rating list below holds homonyms on purpose: two `Müller, Hans` of GER and AUT, two
`Smith` of ENG with other given names, a `Kim, Ji` pair told apart only by birth year.
"""

from __future__ import annotations

from typing import Any

import polars as pl
import pytest

from pipeline.errors import InputError
from pipeline.identity import RATING_TOLERANCE, link_players, parse_decisions
from schemas.ingest import EVENT_DTYPES, PLAYER_DTYPES

REGISTRY = pl.DataFrame(
    {
        "fideid": [101, 102, 103, 104, 105, 106, 107, 108, 109, 110],
        "name": [
            "Smith, John", "Smith, James", "Müller, Hans", "Müller, Hans", "Nguyen, Van An",
            "Carlsen, Magnus", "Kim, Ji", "Kim, Ji", "Oster, Bjorn", "Rossi, Marco",
        ],
        "country": ["ENG", "ENG", "GER", "AUT", "VIE", "NOR", "KOR", "KOR", "SWE", "ITA"],
        "sex": ["M", "M", "M", "M", "M", "M", "F", "F", "M", "M"],
        "title": [None, None, None, None, None, "g", None, "wf", None, None],
        "rating": [1850, 1700, 2000, 2010, 1600, 2830, 1900, 1905, None, 2100],
        "rapid_rating": [None, None, None, None, None, 2800, None, None, 1750, None],
        "blitz_rating": [None, None, None, None, None, 2880, None, None, None, None],
        "birthday": [1990, 1992, 1970, 1980, None, 1990, 2001, 1999, 1985, 1975],
    }
)  # fmt: skip

EVENT_COLUMNS = ("event_id", "file", "name", "source", "list")
PLAYER_COLUMNS = (
    "event_id", "start_no", "name", "federation", "rating", "fide_id", "sex", "birth_year",
    "title", "line",
)  # fmt: skip


def events(*rows: tuple[str, str]) -> pl.DataFrame:
    """(event id, list) rows; the file is the id, the name 'Event <id>'."""
    return pl.DataFrame(
        [
            {
                "event_id": e,
                "file": e,
                "name": f"Event {e}",
                "source": "crosstable-csv",
                "list": lst,
            }
            for e, lst in rows
        ],
        schema={k: EVENT_DTYPES[k] for k in EVENT_COLUMNS},
    )


def entry(event: str, no: int, name: str, fed: str | None = None, rating: int | None = None,
          fide_id: int | None = None, sex: str | None = None, birth: int | None = None,
          title: str | None = None) -> dict[str, Any]:  # fmt: skip
    return {
        "event_id": event, "start_no": no, "name": name, "federation": fed, "rating": rating,
        "fide_id": fide_id, "sex": sex, "birth_year": birth, "title": title, "line": no + 1,
    }  # fmt: skip


def players(*rows: dict[str, Any]) -> pl.DataFrame:
    return pl.DataFrame(list(rows), schema={k: PLAYER_DTYPES[k] for k in PLAYER_COLUMNS})


def linked(result: Any) -> dict[tuple[str, int], tuple[int | None, str, str]]:
    """(event, start no) -> (FIDE ID, method, status)."""
    table = result.table
    return {
        (r["file"], r["start_no"]): (r["fide_id"], r["method"], r["status"])
        for r in table.iter_rows(named=True)
    }


ONE = events(("a.csv", "standard"))


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        # name in another spelling, federation, rating equal
        (entry("a.csv", 1, "John Smith", "ENG", 1850), (101, "registry-name", "linked")),
        (entry("a.csv", 1, "SMITH John", None, None), (101, "registry-name", "linked")),
        # same surname, other given name: never the other Smith
        (entry("a.csv", 1, "Smith Jonathan", "ENG", 1850), (None, "", "unmatched")),
        # initials against the given names: two Smith J. of ENG, the rating tells
        (entry("a.csv", 1, "Smith, J.", "ENG", 1702), (102, "registry-name", "linked")),
        # the federation tells the two Hans Müller apart
        (entry("a.csv", 1, "Hans Muller", "AUT", None), (104, "registry-name", "linked")),
        # ... and without federation or a telling rating, nothing does
        (entry("a.csv", 1, "Hans Müller", None, 2005), (None, "", "ambiguous")),
        # a rating beyond the tolerance rules a candidate out
        (entry("a.csv", 1, "Hans Müller", None, 2000 - RATING_TOLERANCE - 1),
         (None, "", "unmatched")),
        (entry("a.csv", 1, "Hans Müller", None, 1955), (103, "registry-name", "linked")),
        # same name, other federation: never linked
        (entry("a.csv", 1, "Magnus Carlsen", "DEN", 2830), (None, "", "unmatched")),
        # a club or region code is no federation: it rules no one out
        (entry("a.csv", 1, "Nguyen Van An", "KIL", 1600), (105, "registry-name", "linked")),
        (entry("a.csv", 1, "Magnus Carlsen", "C.C", 2830), (106, "registry-name", "linked")),
        # a conflicting sex or birth year rules a candidate out
        (entry("a.csv", 1, "Carlsen, Magnus", "NOR", None, sex="w"), (None, "", "unmatched")),
        (entry("a.csv", 1, "Carlsen, Magnus", "NOR", None, birth=1991), (None, "", "unmatched")),
        # tie-breaks: the birth year, or the title, picks one of two Kim Ji
        (entry("a.csv", 1, "Kim Ji", "KOR", None, birth=1999), (108, "registry-name", "linked")),
        (entry("a.csv", 1, "Kim Ji", "KOR", None, title="WFM"), (108, "registry-name", "linked")),
        (entry("a.csv", 1, "Kim Ji", "KOR", None), (None, "", "ambiguous")),
        # a file rating where the list has none on that list: not the same player
        (entry("a.csv", 1, "Oster Bjorn", "SWE", 1750), (None, "", "unmatched")),
    ],
)  # fmt: skip
def test_name_matches(who: dict[str, Any], expected: tuple[int | None, str, str]) -> None:
    result = link_players(players(who), ONE, REGISTRY)
    assert linked(result)[("a.csv", 1)] == expected


def test_rapid_rating_or_the_standard_rating_that_stands_in() -> None:
    rapid = events(("r.csv", "rapid"))
    result = link_players(
        players(
            entry("r.csv", 1, "Oster Bjorn", "SWE", 1750),  # the rapid rating
            entry("r.csv", 2, "Rossi Marco", "ITA", 2100),  # unrated in rapid: standard
            entry("r.csv", 3, "Magnus Carlsen", "NOR", 2740),  # the rapid 2800 is too far
        ),
        rapid,
        REGISTRY,
    )
    got = linked(result)
    assert got[("r.csv", 1)][0] == 109
    assert got[("r.csv", 2)][0] == 110
    assert got[("r.csv", 3)][2] == "unmatched"


def test_ambiguous_warning_names_the_candidates() -> None:
    result = link_players(players(entry("a.csv", 1, "Hans Müller", None, 2005)), ONE, REGISTRY)
    (problem,) = result.problems
    assert str(problem) == (
        "a.csv:2:Name: warning: expected one rating-list player for 'Hans Müller' "
        "(no federation, 2005), got 2: 103 Müller, Hans (GER, 2000); 104 Müller, Hans "
        "(AUT, 2010); not linked (settle it with --identities) [identity-ambiguous]"
    )
    row = result.table.row(0, named=True)
    assert (row["candidates"], row["status"]) == ("103;104", "ambiguous")


def test_evidence_is_recorded() -> None:
    both = (
        entry("a.csv", 1, "Smith John", "ENG", 1850),
        entry("a.csv", 2, "Kim Ji", "KOR", birth=1999),
    )
    result = link_players(players(*both), ONE, REGISTRY)
    evidence = dict(zip(result.table["start_no"], result.table["evidence"], strict=True))
    assert evidence[1] == "name, federation, rating equal"
    assert evidence[2] == "name, federation, birth year"  # the other Kim Ji: born 2001
    result = link_players(players(entry("a.csv", 1, "Kim Ji", "KOR", title="WFM")), ONE, REGISTRY)
    assert result.table["evidence"].to_list() == ["name, federation, title (chosen of 2)"]


def test_the_files_ids_are_checked_against_the_list() -> None:
    result = link_players(
        players(
            entry("a.csv", 1, "Smith John", "ENG", 1850, fide_id=101),  # fine
            entry("a.csv", 2, "Carlsen Magnus", "NOR", 2830, fide_id=999),  # no such ID
            entry("a.csv", 3, "Petrov Ivan", "RUS", 1700, fide_id=105),  # 105 is Nguyen
        ),
        ONE,
        REGISTRY,
    )
    assert [(p.location.line, p.location.column, p.code) for p in result.problems] == [
        (3, "FideID", "identity-id-unknown"),
        (4, "FideID", "identity-name-differs"),
    ]
    assert result.problems[1].message == (
        "expected the rating list's player of FIDE ID 105, 'Nguyen, Van An', to be "
        "'Petrov Ivan', got another name: check the ID"
    )
    assert linked(result)[("a.csv", 2)] == (999, "file-id", "linked")  # warned, not dropped


def test_a_name_link_to_an_id_the_event_already_has_is_dropped() -> None:
    result = link_players(
        players(
            entry("a.csv", 1, "Smith John", "ENG", 1850, fide_id=101),
            entry("a.csv", 2, "John Smith", "ENG", 1850),
        ),
        ONE,
        REGISTRY,
    )
    assert linked(result)[("a.csv", 2)][0] is None
    assert [p.code for p in result.problems] == ["identity-id-taken"]


# --- across the events of the run ---------------------------------------------------------

TWO = events(("a.csv", "standard"), ("b.csv", "standard"))


def test_without_a_registry_one_name_in_two_events_is_one_player() -> None:
    result = link_players(
        players(
            entry("a.csv", 1, "Rossi, Marco", "ITA", 2100, fide_id=110),
            entry("b.csv", 1, "Marco Rossi", "ITA", 2100),  # gets the ID of event a
            entry("a.csv", 2, "Bauer, Eva", "AUT"),
            entry("b.csv", 2, "Eva Bauer", "AUT"),  # no ID anywhere: one person key
            entry("a.csv", 3, "Bauer, Eva", "GER"),  # other federation: someone else
        ),
        TWO,
    )
    got = linked(result)
    assert got[("b.csv", 1)] == (110, "run-name", "linked")
    person = result.players.filter(pl.col("name").str.contains("Eva"))["person_key"].to_list()
    assert person == ["name:bauer eva|AUT", "name:bauer eva|AUT", None]
    assert result.counts["run-name"] == 3


@pytest.mark.parametrize(
    "second",
    [
        entry("b.csv", 2, "Bauer Eva", "AUT", birth=1990),  # birth years disagree
        entry("b.csv", 2, "Bauer Eva", "AUT", sex="m"),  # sexes disagree
    ],
)
def test_no_merge_when_the_entries_disagree(second: dict[str, Any]) -> None:
    first = entry("a.csv", 2, "Bauer, Eva", "AUT", birth=1985, sex="w")
    result = link_players(players(first, second), TWO)
    assert result.players["person_key"].to_list() == [None, None]


def test_no_merge_when_the_name_occurs_twice_in_one_event() -> None:
    result = link_players(
        players(
            entry("a.csv", 1, "Bauer, Eva", "AUT"),
            entry("a.csv", 2, "Eva Bauer", "AUT"),
            entry("b.csv", 1, "Bauer Eva", "AUT"),
        ),
        TWO,
    )
    assert result.players["person_key"].to_list() == [None, None, None]


# Names across events (design.md "Identities"): the same name key (word order aside) is one
# person only when nothing tells the entries apart; ratings within RATING_TOLERANCE.
THREE = events(("a.csv", "standard"), ("b.csv", "standard"), ("c.csv", "standard"))
FOUR = events(*THREE.select("event_id", "list").rows(), ("d.csv", "standard"))


def keys(result: Any) -> list[str | None]:
    return list(result.players["person_key"])


def test_the_same_name_with_ratings_apart_is_two_people() -> None:
    far = 1500 + RATING_TOLERANCE + 1
    result = link_players(
        players(entry("a.csv", 1, "Li Wei", "CHN", 1500), entry("b.csv", 1, "Wei Li", "CHN", far)),
        TWO,
    )
    assert keys(result) == [None, None]
    assert {m for _, m, _ in linked(result).values()} == {""}


def test_words_in_another_order_with_the_rating_agreeing_is_one_person() -> None:
    near = 1500 + RATING_TOLERANCE
    result = link_players(
        players(entry("a.csv", 1, "Li Wei", "CHN", 1500), entry("b.csv", 1, "Wei Li", "CHN", near)),
        TWO,
    )
    assert keys(result) == ["name:li wei|CHN"] * 2
    table = result.table.select("file", "federation", "rating", "method", "candidates", "status")
    assert table.rows() == [
        ("a.csv", "CHN", 1500, "run-name", "", "linked"),
        ("b.csv", "CHN", near, "run-name", "", "linked"),
    ]
    assert result.counts["run-name"] == 2


def test_a_club_code_is_no_federation_across_events() -> None:
    result = link_players(
        players(
            entry("a.csv", 1, "Li Wei", "KIL", 1500),
            entry("b.csv", 1, "Wei Li", "CHN", 1500),
            entry("a.csv", 2, "Bauer, Eva", "KIL"),
            entry("b.csv", 2, "Eva Bauer", "GON"),  # two club codes: no federation either
            entry("a.csv", 3, "Ola Berg", "KIL"),
            entry("b.csv", 3, "Berg, Ola", None),
        ),
        TWO,
    )
    # the key of a person without a FIDE federation names the one club code it carries
    # (as a list written by the chain keys the player: name and country as written)
    assert (
        keys(result)
        == ["name:li wei|CHN"] * 2 + ["name:bauer eva|"] * 2 + ["name:berg ola|KIL"] * 2
    )
    # the identities table keeps the file's code as written
    assert result.table.filter(pl.col("name") == "Li Wei")["federation"].to_list() == ["KIL"]


def test_an_unrated_entry_agrees_with_a_rating_and_ratings_of_two_lists_are_not_compared() -> None:
    lists = events(("a.csv", "standard"), ("b.csv", "standard"), ("c.csv", "rapid"))
    result = link_players(
        players(
            entry("a.csv", 1, "Li Wei", "CHN", 1500),
            entry("b.csv", 1, "Li Wei", "CHN"),  # unrated (or a file without ratings)
            entry("c.csv", 1, "Li Wei", "CHN", 1900),  # a rapid rating
        ),
        lists,
    )
    assert keys(result) == ["name:li wei|CHN"] * 3


def test_an_entry_that_fits_two_people_stays_unlinked() -> None:
    result = link_players(
        players(
            entry("a.csv", 1, "Li Wei", "CHN", 1500),
            entry("b.csv", 1, "Li Wei", None),  # fits both the 1500 and the 2100
            entry("c.csv", 1, "Li Wei", "CHN", 2100),
        ),
        THREE,
    )
    assert keys(result) == [None, None, None]


def test_two_people_of_one_name_and_federation_get_two_keys() -> None:
    result = link_players(
        players(
            entry("a.csv", 1, "Li Wei", "CHN", 1500),
            entry("b.csv", 1, "Wei Li", "CHN", 1510),
            entry("c.csv", 1, "Li Wei", "CHN", 2100),
            entry("d.csv", 1, "Li Wei", "KIL", 2090),
        ),
        FOUR,
    )
    assert keys(result) == ["name:li wei|CHN#1"] * 2 + ["name:li wei|CHN#2"] * 2


def test_an_id_of_the_run_goes_to_the_entry_whose_rating_agrees() -> None:
    result = link_players(
        players(
            entry("a.csv", 1, "Li Wei", "CHN", 1500, fide_id=8601),
            entry("b.csv", 1, "Wei Li", "KIL", 1530),  # gets 8601
            entry("c.csv", 1, "Li Wei", "CHN", 2100),  # someone else
        ),
        THREE,
    )
    got = linked(result)
    assert got[("b.csv", 1)] == (8601, "run-name", "linked")
    assert got[("c.csv", 1)] == (None, "", "unlinked")


def test_with_a_registry_only_unmatched_entries_merge() -> None:
    both = entry("a.csv", 1, "Newcomer, Ola", "NOR"), entry("b.csv", 1, "Ola Newcomer", "NOR")
    result = link_players(players(*both), TWO, REGISTRY)
    assert result.players["person_key"].to_list() == ["name:newcomer ola|NOR"] * 2
    assert result.counts["unmatched"] == 0  # merged: linked to one another


def test_no_name_match_links_by_id_only() -> None:
    both = entry("a.csv", 1, "John Smith", "ENG", 1850), entry("b.csv", 1, "Smith John", "ENG")
    result = link_players(players(*both), TWO, REGISTRY, name_match=False)
    assert result.players["fide_id"].to_list() == [None, None]
    assert result.players["person_key"].to_list() == [None, None]


# --- the officer's decisions --------------------------------------------------------------

DECISIONS = """\
file,event,start_no,name,fide_id
a.csv,,3,,104
,Event b.csv,,Eva Bauer,
x/a.csv,,9,,101
b.csv,,1,,106
"""


def test_decisions_link_veto_and_warn_about_stale_rows() -> None:
    decisions = parse_decisions(DECISIONS, "ids.csv")
    result = link_players(
        players(
            entry("a.csv", 3, "Hans Müller", None, 2005),  # ambiguous by name: decided 104
            entry("b.csv", 2, "Eva Bauer", "AUT"),  # vetoed: never linked
            entry("a.csv", 2, "Bauer, Eva", "AUT"),
            entry("b.csv", 1, "Carlsen Magnus", "NOR", fide_id=999),  # decided over the file
        ),
        TWO,
        REGISTRY,
        decisions,
        decisions_file="ids.csv",
    )
    got = linked(result)
    assert got[("a.csv", 3)] == (104, "manual", "linked")
    assert got[("b.csv", 2)] == (None, "manual", "vetoed")
    assert got[("a.csv", 2)][2] == "unmatched"  # its partner is vetoed: no merge
    assert got[("b.csv", 1)] == (106, "manual", "linked")
    assert [(p.location.line, p.code) for p in result.problems] == [(4, "identity-row-unused")]
    assert result.problems[0].message == (
        "expected the row to name a player of these events, got none: file 'x/a.csv', start no. 9"
    )


def test_a_file_decision_matches_by_trailing_path_components() -> None:
    decisions = parse_decisions("file,start_no,fide_id\nmay/open.trf,1,101\n", "ids.csv")
    ev = events(("2026-05/may/open.trf", "standard"), ("2026-06/jun/open.trf", "standard"))
    result = link_players(
        players(
            entry("2026-05/may/open.trf", 1, "Ann X"), entry("2026-06/jun/open.trf", 1, "Bo Y")
        ),
        ev,
        None,
        decisions,
    )
    assert result.players["fide_id"].to_list() == [101, None]


def test_two_decisions_for_one_entry_are_an_error() -> None:
    decisions = parse_decisions("file,start_no,fide_id\na.csv,1,101\na.csv,1,102\n", "ids.csv")
    result = link_players(players(entry("a.csv", 1, "X")), ONE, None, decisions, "ids.csv")
    (problem,) = result.problems
    assert problem.is_error
    assert str(problem) == (
        "ids.csv:3:fide_id: expected one decision per player, got FIDE IDs 101, 102 for the "
        "same entry on lines 2, 3 [identity-conflict]"
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("file,start_no\na,1\n", [(1, None, "missing-column")]),
        ("fide_id,start_no\n1,1\n", [(1, None, "missing-column")]),
        ("file,fide_id,colour\na,1,w\n",
         [(1, None, "missing-column"), (1, "colour", "unknown-column")]),
        ("file,start_no,fide_id\n,1,5\n", [(2, "file", "bad-identity-row")]),
        ("file,start_no,fide_id\na,x,5\n", [(2, "start_no", "bad-identity-row")]),
        ("file,start_no,fide_id\na,0,5\n", [(2, "start_no", "bad-identity-row")]),
        ("file,start_no,fide_id\na,1,12ab\n", [(2, "fide_id", "bad-identity-row")]),
        ("file,start_no,name,fide_id\na,,,5\n", [(2, "start_no", "bad-identity-row")]),
        ("file,start_no,fide_id\na,1,5\nb,x,5\nc,1,y\n",
         [(3, "start_no", "bad-identity-row"), (4, "fide_id", "bad-identity-row")]),
    ],
)  # fmt: skip
def test_malformed_decisions(text: str, expected: list[tuple[int, str | None, str]]) -> None:
    with pytest.raises(InputError) as caught:
        parse_decisions(text, "ids.csv")
    got = [(p.location.line, p.location.column, p.code) for p in caught.value.problems]
    assert got == expected
