"""Time-control classification into FIDE rating lists.

Source of the thresholds: FIDE Laws of Chess, Appendix A.1 (rapid: more than 10 and less
than 60 minutes, or the time allotted plus 60 times any increment) and Appendix B.1 (blitz:
10 minutes or less, same measure); standard is therefore 60 minutes or more for 60 moves
(fide-rules.md §8: "222 encoded time control ... use it to classify standard/rapid/blitz").
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.ingest.timecontrol import (
    Period,
    classify_encoded,
    classify_free_text,
    classify_time_control,
    classify_words,
    list_for_seconds,
    parse_encoded,
    seconds_for_moves,
)

# (222 value, list) -- TRF26 record 222, seconds; 60-move time in the id
ENCODED = [
    ("5400+30", "standard"),  # 90 min + 60 x 30 s = 120 min
    ("40/6000+30:20/3000+30:1500+30", "standard"),  # 100 + 50 + 30 min (team file)
    ("3600", "standard"),  # exactly 60 min
    ("2700+15", "standard"),  # 45 min + 15 min = 60 min
    ("2700+14", "rapid"),  # 59 min
    ("1500+10", "rapid"),  # 25 + 10 min
    ("900+10", "rapid"),  # 15 + 10 min
    ("600", "blitz"),  # exactly 10 min
    ("600+1", "rapid"),  # 11 min
    ("300+3", "blitz"),  # 5 + 3 min
    ("180+2", "blitz"),  # 3 + 2 min
    ("60", "blitz"),  # bullet is blitz by the 10-minute rule
    ("40/5400+30:1800+30", "standard"),  # 90 + 30 min + 30 min of increments
]

BAD_ENCODED = ["", "abc", "90 min", "40/", "5400+", "5400+30:", "6000+30:1500", "0/5400", "-5"]

# (free text, list): TRF 122 as arbiters type it, crosstable preambles
FREE_TEXT = [
    ("90 min + 30 sec", "standard"),
    ("40/120, 60", "standard"),  # the 2005 TRF16 example's 122
    ("15+10", "rapid"),
    ("3+2", "blitz"),
    ("90'+30\"", "standard"),
    ("90’+30”", "standard"),
    ("100'x40mm + 50'x20mm + 30\" from move 1 ", "standard"),  # the TRF26 team file
    ("G/25+5", "rapid"),
    ("1h30", "standard"),
    ("1 h 30 min + 30 s", "standard"),
    ("2 hours", "standard"),
    ("45 min + 15 sec", "standard"),  # 60 min for 60 moves
    ("45 min + 14 sec", "rapid"),
    ("10 min", "blitz"),
    ("10+5", "rapid"),
    ("60 min", "standard"),
    ("90 min für 40 Züge, dann 30 min + 30 Sek./Zug", "standard"),
    ("40 moves in 2 hours, then 1 hour", "standard"),
    ("90 min/40 moves + 30 min + 30 sec/move", "standard"),
    ("Blitz 3 min + 2 sec", "blitz"),
    ("rapid", "rapid"),
    ("Blitz", "blitz"),
    ("Schnellschach", "rapid"),
    ("Partidas rápidas", "rapid"),
    ("standard", "standard"),
    ("classical", "standard"),
    ("Individual: Swiss-System (Standard)", "standard"),
    ("7 rounds, 90 min", "standard"),  # "7 rounds" is not a time
    ("Final Ranking crosstable after 7 Rounds", None),
    ("moves/time, increment", None),  # the JaVaFo sample's 122
    ("", None),
    ("Rapid or Blitz", None),  # two lists named: no guess
]


@pytest.mark.parametrize(("value", "expected"), ENCODED, ids=[v for v, _ in ENCODED])
def test_classify_encoded(value: str, expected: str) -> None:
    assert classify_encoded(value) == expected


@pytest.mark.parametrize("value", BAD_ENCODED)
def test_classify_encoded_rejects_malformed(value: str) -> None:
    assert parse_encoded(value) is None
    assert classify_encoded(value) is None


@pytest.mark.parametrize(("text", "expected"), FREE_TEXT, ids=[t or "blank" for t, _ in FREE_TEXT])
def test_classify_free_text(text: str, expected: str | None) -> None:
    assert classify_free_text(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5400+30", "standard"),  # encoded: first base over 180 -> seconds
        ("300+3", "blitz"),
        ("40/6000+30:20/3000+30:1500+30", "standard"),
        ("90+30", "standard"),  # free text: 90 minutes + 30 seconds
        ("15+10", "rapid"),
        ("3+2", "blitz"),
        ("90 min + 30 sec", "standard"),
        ("Blitz", "blitz"),
    ],
)
def test_classify_time_control_takes_either_form(text: str, expected: str) -> None:
    assert classify_time_control(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("092 Individual: Swiss-System (Standard)", "standard"),
        ("Rapid", "rapid"),
        ("Blitzturnier", "blitz"),
        ("Team Swiss", None),
        ("Individual: Swiss-System", None),
        ("Round robin 10 players", None),  # numbers are not read from words
    ],
)
def test_classify_words(text: str, expected: str | None) -> None:
    assert classify_words(text) == expected


@pytest.mark.parametrize(
    ("periods", "seconds"),
    [
        ([Period(None, Fraction(5400), Fraction(30))], 7200),
        # two periods started within 60 moves: both bases count in full
        ([Period(40, Fraction(6000), Fraction(30)), Period(None, Fraction(1500), Fraction(30))],
         6000 + 1500 + 60 * 30),
        # a third period starting at move 61 does not count
        (
            [
                Period(40, Fraction(6000), Fraction(30)),
                Period(20, Fraction(3000), Fraction(30)),
                Period(None, Fraction(1500), Fraction(30)),
            ],
            6000 + 3000 + 60 * 30,
        ),
        ([Period(60, Fraction(3600))], 3600),
    ],
)  # fmt: skip
def test_seconds_for_60_moves(periods: list[Period], seconds: int) -> None:
    assert seconds_for_moves(periods) == seconds


@pytest.mark.parametrize(
    ("seconds", "expected"),
    [(0, None), (1, "blitz"), (600, "blitz"), (601, "rapid"), (3599, "rapid"), (3600, "standard")],
)
def test_list_for_seconds_boundaries(seconds: int, expected: str | None) -> None:
    """Laws of Chess A.1 / B.1: blitz at most 10 min, standard at least 60 min."""
    assert list_for_seconds(Fraction(seconds)) == expected


@given(st.text(max_size=60))
def test_classifiers_never_raise(text: str) -> None:
    assert classify_time_control(text) in (None, "standard", "rapid", "blitz")
    assert classify_encoded(text) in (None, "standard", "rapid", "blitz")


@given(
    base=st.integers(min_value=1, max_value=20_000),
    increment=st.integers(min_value=0, max_value=120),
)
def test_encoded_matches_the_60_move_rule(base: int, increment: int) -> None:
    total = base + 60 * increment
    expected = "standard" if total >= 3600 else "blitz" if total <= 600 else "rapid"
    assert classify_encoded(f"{base}+{increment}") == expected
