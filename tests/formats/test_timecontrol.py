"""Time-control reading and classification into FIDE rating lists.

Source of the thresholds: FIDE Laws of Chess, Appendix A.1 (rapid: more than 10 and less
than 60 minutes, or the time allotted plus 60 times any increment) and Appendix B.1 (blitz:
10 minutes or less, same measure); standard is therefore 60 minutes or more for 60 moves
(fide-rules.md §8: "222 encoded time control ... use it to classify standard/rapid/blitz").
The real forms are in tests/vectors/time_controls.csv, each row citing where it was seen.
"""

from __future__ import annotations

import csv
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.formats.timecontrol import (
    Period,
    classify_encoded,
    classify_free_text,
    classify_time_control,
    classify_words,
    list_for_seconds,
    parse_encoded,
    parse_free_text,
    read_time_control,
    seconds_for_moves,
    seconds_for_time_control,
)
from tests.conftest import ROOT

VECTORS = ROOT / "tests" / "vectors" / "time_controls.csv"
ENCODED_KIND = {"222": True, "text": False, "either": None}


def _vectors() -> list[dict[str, str]]:
    with VECTORS.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


REAL = _vectors()


@pytest.mark.parametrize(
    "row", REAL, ids=[f"{i:03d}-{r['kind']}-{r['text'].strip()[:40]}" for i, r in enumerate(REAL)]
)
def test_real_time_controls(row: dict[str, str]) -> None:
    reading = read_time_control(row["text"], encoded=ENCODED_KIND[row["kind"]])
    seconds = Fraction(row["seconds_for_60"]) if row["seconds_for_60"] else None
    assert (reading.seconds, reading.list) == (seconds, row["list"] or None), reading.describe()
    if seconds is None and not row["list"]:
        assert reading.by is None
    elif seconds is None:
        assert reading.by == "words"


def test_the_vectors_hold_forty_real_forms_with_sources() -> None:
    assert all(row["source"] for row in REAL)
    real = [r for r in REAL if "constructed" not in r["source"] and r["seconds_for_60"]]
    assert len(real) >= 40
    assert len({(r["text"], r["kind"]) for r in REAL}) == len(REAL)


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
        ("Torneo semilampo", "rapid"),  # not `lampo` (blitz) inside it
        ("Torneo lampo", "blitz"),
        ("NK Snelschaken", "blitz"),  # Dutch: snelschaak is blitz, rapidschaak rapid
        ("Partidas relámpago", "blitz"),
        ("Cadence lente", "standard"),
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


# --- read_time_control: the reading and its description -----------------------------------


@pytest.mark.parametrize(
    ("text", "encoded", "described"),
    [
        ("1:30 + 10", None,
         "'1:30 + 10' is 90 min + 10 s a move: 100 min for 60 moves, standard"),
        ("Rapid", None, "'Rapid' names the rapid list"),
        ("40/90, SD/30 + 30s", None,
         "'40/90, SD/30 + 30s' is 40 moves in 90 min, then 30 min, + 30 s a move: "
         "150 min for 60 moves, standard"),
        ("90 min + 30 s (Rapid)", None,
         "'90 min + 30 s (Rapid)' is 90 min + 30 s a move: 120 min for 60 moves, standard "
         "(its words name the rapid list)"),
        ("G/90;d5", None,
         "'G/90;d5' is 90 min + 5 s delay a move: 95 min for 60 moves, standard"),
        ("2.5 min + 5 sec per move", False,
         "'2.5 min + 5 sec per move' is 2.5 min + 5 s a move: 7.5 min for 60 moves, blitz"),
        ("40/5400:1800+30", True,
         "'40/5400:1800+30' is 40 moves in 90 min, then 30 min, + 30 s a move from move 41: "
         "130 min for 60 moves, standard"),
        ("590+0", True, "'590+0' is 9 min 50 s: 9 min 50 s for 60 moves, blitz"),
        ("120 minutes with an increment of 10 seconds per move after move 40", None,
         "'120 minutes with an increment of 10 seconds per move after move 40' is 120 min "
         "+ 10 s a move from move 41: 123 min 20 s for 60 moves, standard"),
        ("W300-B240", None,
         "'W300-B240' is White 5 min, Black 4 min: 5 min and 4 min for 60 moves, blitz"),
        ("W3600-B3000", True,
         "'W3600-B3000' is White 60 min, Black 50 min: 60 min and 50 min for 60 moves, "
         "White standard, Black rapid"),
        ("7 rounds", None, "'7 rounds' does not read as a time control"),
        ("abc", True, "'abc' does not read as a time control"),
    ],
)  # fmt: skip
def test_describe(text: str, encoded: bool | None, described: str) -> None:
    assert read_time_control(text, encoded).describe() == described


def test_reading_fields() -> None:
    reading = read_time_control("40/120, SD/30 d5")
    assert reading.text == "40/120, SD/30 d5"
    assert reading.periods == (
        Period(40, Fraction(7200), Fraction(5)),
        Period(None, Fraction(1800), Fraction(5)),
    )
    assert (reading.seconds, reading.list, reading.by) == (Fraction(9300), "standard", "numbers")
    assert (reading.delay, reading.black, reading.words_list) == (Fraction(5), (), None)
    words = read_time_control("Schnellschach")
    assert (words.periods, words.seconds, words.list, words.by) == ((), None, "rapid", "words")
    nothing = read_time_control("Round 1")
    assert (nothing.list, nothing.by, nothing.words_list) == (None, None, None)


def test_parse_free_text_keeps_its_meaning() -> None:
    assert parse_free_text("40/120, 60 + 30s") == (
        [Period(40, Fraction(7200)), Period(None, Fraction(3600))],
        Fraction(30),
    )
    assert parse_free_text("7 rounds") is None


def test_a_222_value_is_never_read_as_free_text_or_words() -> None:
    assert read_time_control("90 min", encoded=True).seconds is None
    assert read_time_control("Rapid", encoded=True).list is None
    assert read_time_control("Rapid", encoded=True).words_list == "rapid"
    assert read_time_control("90+30", encoded=True).seconds == 90 + 60 * 30  # seconds


def test_armageddon_keeps_both_colours() -> None:
    reading = read_time_control("W300+2-B240+2")
    assert reading.periods == (Period(None, Fraction(300), Fraction(2)),)
    assert reading.black == (Period(None, Fraction(240), Fraction(2)),)
    assert (reading.seconds, reading.list) == (Fraction(360), "blitz")
    assert classify_encoded("W300-B240") == "blitz"


def test_an_increment_from_move_41_splits_the_period_at_that_move() -> None:
    reading = read_time_control("90 min + 30 s from move 41")
    assert reading.periods == (
        Period(40, Fraction(5400)),
        Period(None, Fraction(0), Fraction(30)),
    )
    assert reading.seconds == 5400 + 20 * 30


def test_a_period_without_moves_before_another_is_40_moves() -> None:
    reading = read_time_control("90 min + 30 min + 30 s")
    assert reading.periods[0].moves == 40
    assert reading.seconds == 150 * 60


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("15:00 min + 10 s", 15 * 60 + 600),  # minutes:seconds with a minute word
        ("1:35 uur", 95 * 60),  # hours word
        ("14:30 + 10", None),  # a clock time
        ("40/2.5, SD/1", 150 * 60 + 60 * 60),  # US hours form, decimal
        ("90/40 + 30 + 30s", 150 * 60),  # minutes/moves; 30 is a period: the 30 s is named
        ("Open 2025: 90 min + 30 sec", 120 * 60),  # a year is not read
        ("1/2 point byes, 90 min", 90 * 60),  # `1/2` is not moves/time
        ("Round 3, G/45", 45 * 60),
        ("U1800 section: G/45;d5", 50 * 60),  # a rating class is not minutes
        ("5400+30 (free text)", None),  # 5400 is no minutes, so 30 is no increment
    ],
)  # fmt: skip
def test_choices(text: str, seconds: int | None) -> None:
    assert seconds_for_time_control(text) == seconds


@given(
    hours=st.integers(min_value=0, max_value=2),
    minutes=st.integers(min_value=0, max_value=59),
    increment=st.integers(min_value=0, max_value=60),
)
def test_h_mm_reads_as_hours_and_minutes(hours: int, minutes: int, increment: int) -> None:
    base = 3600 * hours + 60 * minutes
    text = f"{hours}:{minutes:02d} + {increment}"
    expected = base + 60 * increment if base else None
    assert seconds_for_time_control(text) == expected


@given(
    minutes=st.integers(min_value=1, max_value=180),
    seconds=st.integers(min_value=0, max_value=60),
    unit=st.sampled_from(["min", "minutes", "Minuten", "minutos", "minuti", "minuten", "'"]),
    sec_unit=st.sampled_from(["sec", "s", "Sekunden", "segundos", "secondi", "secondes", '"']),
)
def test_minutes_and_seconds_in_every_language(
    minutes: int, seconds: int, unit: str, sec_unit: str
) -> None:
    reading = read_time_control(f"{minutes} {unit} + {seconds} {sec_unit}")
    assert reading.seconds == 60 * minutes + 60 * seconds
    assert reading.list == list_for_seconds(Fraction(60 * minutes + 60 * seconds))


@given(st.text(max_size=80))
def test_read_time_control_never_raises(text: str) -> None:
    for encoded in (None, True, False):
        reading = read_time_control(text, encoded)
        assert reading.list in (None, "standard", "rapid", "blitz")
        assert reading.by in (None, "numbers", "words")
        assert reading.seconds is None or reading.seconds > 0
        assert isinstance(reading.describe(), str)


@given(
    st.lists(
        st.sampled_from(
            ["40", "/", "90", "+", "30", "s", "min", "'", '"', ",", "SD", "G", "d5", "1:30",
             "h", "moves", "from move", "after", "x", "(", ")", "inc", "delay", " "]
        ),
        max_size=14,
    )
)  # fmt: skip
def test_time_control_shaped_noise_never_raises(parts: list[str]) -> None:
    reading = read_time_control(" ".join(parts))
    assert reading.seconds is None or reading.list in ("standard", "rapid", "blitz", None)
