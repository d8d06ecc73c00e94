"""Dates as real files write them (pipeline.formats.dates): every unambiguous form read,
an ambiguous one never guessed, and the dates of a file settled together.

Forms from the real files: ``28. 07. 2005`` (FIDE's TRF16 example), ``24/09/2010``
(JaVaFo sample), ``2025/04/30`` (chess-results ``Date``), ``30.04.2025`` (chess-results
``Last update``), ``May 29, 2020`` (lichess TRF export), and the forms the issue lists:
``10.09.13`` for 2010-09-13 (year first, two-digit year, as some national programs write
it). The joint settling is tested through each reader: the TRF (042, 052 and the round
dates of 132), a crosstable's date line, a games CSV's rounds. Events and people are
invented; the 90-day span is FIDE's rating regulations (B.02) on a tournament's duration.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

import pytest

from pipeline.errors import InputError, Problem, Severity
from pipeline.formats.crosstable.read import read_crosstable_csv
from pipeline.formats.dates import (
    DateRead,
    Point,
    Settled,
    find_dates,
    read_date,
    settle,
    settle_event,
)
from pipeline.formats.games_csv.read import read_games_csv
from pipeline.formats.months import month_number
from pipeline.formats.schedule import settle_list
from pipeline.formats.trf.read import read_trf
from pipeline.validate import reader_problems
from tests.conftest import FIXTURES

D = date


@pytest.mark.parametrize(
    ("text", "value", "order"),
    [
        ("2025/03/01", D(2025, 3, 1), "ymd"),  # TRF26
        ("2012-02-06", D(2012, 2, 6), "ymd"),  # ISO
        ("2010.09.24", D(2010, 9, 24), "ymd"),
        ("28. 07. 2005", D(2005, 7, 28), "dmy"),  # the 2005 TRF16 example
        ("24.09.2010", D(2010, 9, 24), "dmy"),
        ("03.04.2010", D(2010, 4, 3), "dmy"),  # dots: always day first
        ("13.02.30", D(2030, 2, 13), "dmy"),  # two-digit year with dots: 2013-02-30 is none
        ("24/09/2010", D(2010, 9, 24), "dmy"),  # the JaVaFo sample: only day first fits
        ("09/24/2010", D(2010, 9, 24), "mdy"),  # only month first fits
        ("29-05-2020", D(2020, 5, 29), "dmy"),
        ("05/05/2020", D(2020, 5, 5), "dmy"),  # both orders give the same day
        ("May 29, 2020", D(2020, 5, 29), "name"),  # lichess
        ("29 May 2020", D(2020, 5, 29), "name"),
        ("29. Mai 2020", D(2020, 5, 29), "name"),  # German
        ("29 de mayo de 2020", D(2020, 5, 29), "name"),  # Spanish
        ("29 mai 2020", D(2020, 5, 29), "name"),  # French
        ("1 février 2021", D(2021, 2, 1), "name"),
        ("29 maggio 2020", D(2020, 5, 29), "name"),  # Italian
        ("29 de maio de 2020", D(2020, 5, 29), "name"),  # Portuguese
        ("29 mei 2020", D(2020, 5, 29), "name"),  # Dutch
        ("3 mrt 2021", D(2021, 3, 3), "name"),
        ("29-May-20", D(2020, 5, 29), "name"),
        ("Sept 3, 2019", D(2019, 9, 3), "name"),
        ("12 März 1999", D(1999, 3, 12), "name"),
    ],
)
def test_unambiguous_forms(text: str, value: date, order: str) -> None:
    reading = read_date(text)
    assert reading is not None
    assert (reading.value, reading.orders[0], reading.ambiguous) == (value, order, False)
    assert reading.standard == (order == "ymd")


@pytest.mark.parametrize(
    ("text", "readings"),
    [
        ("05/06/2020", {D(2020, 6, 5), D(2020, 5, 6)}),
        ("03-04-2010", {D(2010, 4, 3), D(2010, 3, 4)}),
        ("29/05/20", {D(2020, 5, 29), D(2029, 5, 20)}),  # day first, or year first
        ("29.05.20", {D(2020, 5, 29), D(2029, 5, 20)}),  # dots too: day or year first
        ("10.09.13", {D(2013, 9, 10), D(2010, 9, 13)}),  # some national programs: year first
    ],
)
def test_ambiguous_forms_are_never_guessed(text: str, readings: set[date]) -> None:
    reading = read_date(text)
    assert reading is not None
    assert reading.ambiguous
    assert reading.value is None
    assert set(reading.readings) == readings


def test_ambiguity_names_both_readings() -> None:
    reading = read_date("05/06/2020")
    assert reading is not None
    assert reading.ambiguity() == (
        "'05/06/2020' reads as 2020-06-05 (day first) or 2020-05-06 (month first)"
    )


@pytest.mark.parametrize(
    "text", ["2025/13/45", "31/02/2010", "2010", "soon", "someday", "1 Smarch 2020", "99/99/99"]
)
def test_not_dates(text: str) -> None:
    assert read_date(text) is None


def test_note_shows_the_date_understood() -> None:
    reading = read_date("May 29, 2020")
    assert reading is not None
    assert reading.note() == "read 'May 29, 2020' as 2020-05-29 (month name)"


def test_find_dates_in_a_line() -> None:
    found = find_dates("Date : 2024/03/02 - 2024/03/03")
    assert [r.value for r in found] == [D(2024, 3, 2), D(2024, 3, 3)]
    found = find_dates("Von 26.09.2026 bis 28.11.2026")
    assert [r.value for r in found] == [D(2026, 9, 26), D(2026, 11, 28)]
    found = find_dates("Last update 30.04.2025 21:49:26")
    assert [r.value for r in found] == [D(2025, 4, 30)]
    assert find_dates("Rating-Ø / Average age : 1642 / 24") == []


def test_settle_uses_the_files_other_dates() -> None:
    # 05/06/2020 alone reads two ways; beside 29/06/2020 the file is day first
    first, second = (read_date(t) for t in ("05/06/2020", "29/06/2020"))
    assert first is not None
    assert second is not None
    settled = settle([first, second])
    assert [r.value for r in settled] == [D(2020, 6, 5), D(2020, 6, 29)]
    # a file whose other dates are month first
    other = read_date("06/29/2020")
    assert other is not None
    assert settle([first, other])[0].value == D(2020, 5, 6)
    # another separator says nothing about slashes
    dotted = read_date("29.06.2020")
    assert dotted is not None
    assert settle([first, dotted])[0].ambiguous


@pytest.mark.parametrize(
    ("word", "month"),
    [("january", 1), ("Jänner", 1), ("févr", 2), ("März", 3), ("mrt", 3), ("abr", 4),
     ("Mai", 5), ("mei", 5), ("giugno", 6), ("julho", 7), ("août", 8), ("setembro", 9),
     ("okt", 10), ("out", 10), ("nov", 11), ("dic", 12), ("Dezember", 12), ("Rounds", None)],
)  # fmt: skip
def test_month_words(word: str, month: int | None) -> None:
    assert month_number(word) == month


# --- the dates of a file settled together (settle_event) -------------------------------

# B.02 (FIDE rating regulations), on a tournament's duration: within 90 days, leagues aside
WITHIN = "the event within 90 days (FIDE's limit for a tournament, leagues excepted)"


def reads(*texts: str) -> list[DateRead]:
    found = [read_date(t) for t in texts]
    assert all(r is not None for r in found)
    return [r for r in found if r is not None]


def in_order(dates: list[DateRead], keeps: str = "the end after the start") -> Settled:
    """The dates as one chain (start, ..., end), each named by its text."""

    def chains(values: Sequence[date]) -> list[list[Point]]:
        return [
            [Point(v, repr(d.text), i) for i, (v, d) in enumerate(zip(values, dates, strict=True))]
        ]

    return settle_event(dates, chains, keeps)


def test_the_reading_that_keeps_the_dates_in_order_is_taken() -> None:
    # day first 2028-12-10 .. 2003-01-11 is reversed: year first is the one that fits
    settled = in_order(reads("10.12.28", "11.01.03"))
    assert settled.conflict is None
    assert [r.value for r in settled.reads] == [D(2010, 12, 28), D(2011, 1, 3)]
    assert settled.reads[0].note() == (
        "read '10.12.28' as 2010-12-28 (year first, two-digit year): the only reading that "
        "keeps the end after the start"
    )


def test_the_span_of_an_event_breaks_a_tie_only() -> None:
    # both readings keep the end after the start; only day first is within 90 days
    settled = in_order(reads("29.05.20", "31.05.20"))
    assert [r.value for r in settled.reads] == [D(2020, 5, 29), D(2020, 5, 31)]
    assert settled.reads[0].note() == (
        "read '29.05.20' as 2020-05-29 (day first, two-digit year): the only reading that "
        f"keeps {WITHIN}"
    )
    # a league's dates in order but longer than 90 days: never refused for that
    long = in_order(reads("2025/09/01", "2026/05/31"))
    assert [r.value for r in long.reads] == [D(2025, 9, 1), D(2026, 5, 31)]


def test_readings_that_all_fit_stay_ambiguous_naming_each() -> None:
    settled = in_order(reads("05/06/2020", "07/06/2020"))
    assert [r.value for r in settled.reads] == [None, None]
    assert settled.reads[0].ambiguity() == (
        "'05/06/2020' reads as 2020-06-05 (day first) or 2020-05-06 (month first), each of "
        f"which keeps the end after the start and {WITHIN}"
    )


def test_no_reading_in_order_names_the_dates_that_disagree() -> None:
    settled = in_order(reads("10.09.21", "10.09.13"))
    assert settled.conflict == (
        0,
        "expected a reading of the dates that keeps the end after the start, got none: "
        "read day first, two-digit year: '10.09.21' is 2021-09-10, after '10.09.13', "
        "2013-09-10; read year first, two-digit year: '10.09.21' is 2010-09-21, after "
        "'10.09.13', 2010-09-13",
    )


def test_one_order_for_the_dates_written_the_same_way() -> None:
    # read alone, 12.01.05 day first (2005-01-12) is before 11.01.04 year first
    # (2011-01-04); a file writes both one way, and neither way is in order
    settled = in_order(reads("12.01.05", "11.01.04"))
    assert settled.conflict is not None
    # a date that reads one way fixes the order of its form: 13.02.30 is day first only
    start, end = in_order(reads("10.09.13", "13.02.30")).reads
    assert (start.value, start.why, end.value) == (D(2013, 9, 10), "", D(2030, 2, 13))


def test_dates_with_one_reading_are_left_as_they_are() -> None:
    # nothing to choose: a reversed pair is validation's dates-reversed, not the reader's
    settled = in_order(reads("2021/09/10", "2013/09/10"))
    assert settled.conflict is None
    assert [r.value for r in settled.reads] == [D(2021, 9, 10), D(2013, 9, 10)]


# --- the TRF: 042, 052 and the round dates of 132 ---------------------------------------


def trf_with(*records: str) -> str:
    """The fixture's players under other tournament records."""
    text = (FIXTURES / "dates" / "trf_year_first_two_digit_dates.trf").read_text()
    return "\n".join([*records, *(ln for ln in text.splitlines() if ln.startswith("001"))]) + "\n"


def record_132(*dates: str) -> str:
    return ("132".ljust(91) + "".join(d.ljust(10) for d in dates)).rstrip()


def test_trf_dates_year_first_with_two_digit_years() -> None:
    path = FIXTURES / "dates" / "trf_year_first_two_digit_dates.trf"
    event = read_trf(path.read_text(), "autumn.trf")
    row = event.events.row(0, named=True)
    assert (row["start_date"], row["end_date"]) == (D(2010, 9, 13), D(2010, 9, 21))
    assert event.round_dates == (D(2010, 9, 13), D(2010, 9, 14), D(2010, 9, 15))
    assert [str(p) for p in event.problems] == [
        "autumn.trf:6:5-12: warning: read '10.09.13' as 2010-09-13 (year first, two-digit "
        "year): the only reading that keeps the round dates in order and the end after the "
        "start [date-read]",
        "autumn.trf:7:5-12: warning: read '10.09.21' as 2010-09-21 (year first, two-digit "
        "year): the only reading that keeps the round dates in order and the end after the "
        "start [date-read]",
    ]


def test_trf_dates_that_fit_two_ways_are_ambiguous() -> None:
    event = read_trf(trf_with("012 T", "042 05/06/2020", "052 07/06/2020"), "t.trf")
    row = event.events.row(0, named=True)
    assert (row["start_date"], row["end_date"]) == (None, None)
    assert [(p.location.line, p.code) for p in event.problems] == [
        (2, "ambiguous-date"),
        (3, "ambiguous-date"),
    ]
    assert event.problems[0].message == (
        "expected a date that reads one way, got '05/06/2020' reads as 2020-06-05 (day "
        "first) or 2020-05-06 (month first), each of which keeps the end after the start "
        f"and {WITHIN}: write it year first (YYYY/MM/DD) or pass --rules YYYY-MM-DD"
    )


WARNING = Severity.WARNING


def errors_of(text: str, file: str = "t.trf") -> list[Problem]:
    """The errors of the file's dates: the reader keeps ``dates-disagree`` a warning (an
    ``--events`` decision of both dates may settle it), which validation makes an error."""
    event = read_trf(text, file)
    assert [p.severity for p in event.problems if p.code == "dates-disagree"] == [WARNING]
    row = event.events.row(0, named=True)
    assert (row["start_date"], row["end_date"]) == (None, None)
    return [p for p in reader_problems(event) if p.is_error]


def test_trf_dates_no_reading_puts_in_order() -> None:
    (error,) = errors_of(trf_with("012 T", "042 10.09.21", "052 10.09.13"))
    assert str(error) == (
        "t.trf:2:5-12: expected a reading of the dates that keeps the end after the start, "
        "got none: read day first, two-digit year: 042 '10.09.21' (line 2, columns 5-12) is "
        "2021-09-10, after 052 '10.09.13' (line 3, columns 5-12), 2013-09-10; read year "
        "first, two-digit year: 042 '10.09.21' (line 2, columns 5-12) is 2010-09-21, after "
        "052 '10.09.13' (line 3, columns 5-12), 2010-09-13 [dates-disagree]"
    )


def test_trf_round_dates_take_part() -> None:
    # 042 and 052 alone fit either way; the round dates of 132 (2011) come before the
    # day-first start (2013) and after the year-first end (2010-09-21)
    (error,) = errors_of(
        trf_with("042 10.09.13", "052 10.09.21", record_132("11/01/01", "11/01/02"))
    )
    assert (error.location.line, error.location.column, error.code) == (
        1, "5-12", "dates-disagree",
    )  # fmt: skip
    assert error.message == (
        "expected a reading of the dates that keeps the round dates in order and the end "
        "after the start, got none: read day first, two-digit year: 042 '10.09.13' (line 1, "
        "columns 5-12) is 2013-09-10, after 132 round 1 '11/01/01' (line 3, columns 92-101), "
        "2011-01-01; read year first, two-digit year: 132 round 2 '11/01/02' (line 3, "
        "columns 102-111) is 2011-01-02, after 052 '10.09.21' (line 2, columns 5-12), "
        "2010-09-21"
    )


# --- a crosstable's date line ------------------------------------------------------------

HARBOUR = """\
Chess-Tournament-Results-Server Chess-Results.com
Harbour Club Championship 2025
Last update 30.04.2025 21:49:26
{date}
Final Ranking crosstable after 5 Rounds

Rk.;;Name;Rtg;FED;1;2;3;4;5;6;Pts.;TB1
1;;Aalto Ines;1900;FIN;*;1;1;1;1;1;5;10,00
2;;Brandt Olaf;1850;GER;0;*;½;1;1;1;3,5;5,00
3;;Cerny Jana;1800;CZE;0;½;*;½;1;1;3;4,00
4;;Dumas Leo;1750;FRA;0;0;½;*;1;1;2,5;2,50
5;;Eriksen Tove;1700;NOR;0;0;0;0;*;1;1;0,00
6;;Faro Nuno;1650;POR;0;0;0;0;0;*;0;0,00
"""


def test_a_single_preamble_date_is_a_one_day_event() -> None:
    event = read_crosstable_csv(HARBOUR.format(date="Date : 2025/04/30"), "harbour.csv")
    row = event.events.row(0, named=True)
    assert (row["start_date"], row["end_date"], row["rounds"]) == (
        D(2025, 4, 30), D(2025, 4, 30), 5,
    )  # fmt: skip
    assert event.problems == []
    # 5 rounds on one day: the schedule rule (schedule.settle_list) says rapid
    listed = settle_list(event).events.row(0, named=True)
    assert (listed["list"], listed["list_source"]) == ("rapid", "assumed")
    assert "5 rounds in 1 day" in settle_list(event).problems[-1].message


def test_a_crosstable_date_line_is_settled_as_a_whole() -> None:
    event = read_crosstable_csv(HARBOUR.format(date="Date : 10.12.28 - 11.01.03"), "h.csv")
    row = event.events.row(0, named=True)
    assert (row["start_date"], row["end_date"]) == (D(2010, 12, 28), D(2011, 1, 3))
    assert [(p.location.line, p.code) for p in event.problems] == [
        (4, "date-read"),
        (4, "date-read"),
    ]
    assert event.problems[1].message == (
        "read '11.01.03' as 2011-01-03 (year first, two-digit year): the only reading that "
        "keeps the end after the start"
    )
    event = read_crosstable_csv(HARBOUR.format(date="Date : 10.09.21 - 10.09.13"), "h.csv")
    assert [(p.location.line, p.code) for p in reader_problems(event) if p.is_error] == [
        (4, "dates-disagree")
    ]


# --- a games CSV's rounds ----------------------------------------------------------------

GAMES_PLAYERS = """id,name,fide_id,rating
a1,"Brenner, Ilse",4100018,2105
b2,"Osei, Kwame",,0
c3,"Lindqvist, Per",700123,1890
d4,"Varga, Eszter",13300412,1650
"""


def games_with(first: str, second: str) -> str:
    return f"event,round,white,black,result,date\nL,1,a1,b2,1-0,{first}\nL,2,c3,d4,0-1,{second}\n"


@pytest.mark.parametrize(
    ("first", "second", "days", "why"),
    [
        # month first, round 2 (2026-04-05) would come before round 1 (2026-05-04)
        ("05/04/2026", "04/05/2026", (D(2026, 4, 5), D(2026, 5, 4)),
         "the only reading that keeps the rounds in date order"),
        # month first keeps the rounds in order too, but over 213 days
        ("01/02/2026", "08/02/2026", (D(2026, 2, 1), D(2026, 2, 8)),
         f"the only reading that keeps {WITHIN}"),
    ],
    ids=["round order", "span"],
)  # fmt: skip
def test_games_csv_dates_settled_by_the_rounds(
    first: str, second: str, days: tuple[date, date], why: str
) -> None:
    (event,) = read_games_csv(games_with(first, second), "g.csv", GAMES_PLAYERS, "p.csv")
    row = event.events.row(0, named=True)
    assert (row["start_date"], row["end_date"]) == days
    notes = [p for p in event.problems if p.code == "date-read"]
    assert [p.message for p in notes] == [
        f"read {first!r} as {days[0].isoformat()} (day first): {why}",
        f"read {second!r} as {days[1].isoformat()} (day first): {why}",
    ]


def test_games_csv_rounds_no_reading_puts_in_order() -> None:
    with pytest.raises(InputError) as caught:
        read_games_csv(games_with("05/04/2026", "04/03/2026"), "g.csv", GAMES_PLAYERS, "p.csv")
    (error,) = caught.value.problems
    assert (error.location.line, error.code) == (2, "dates-disagree")
    assert error.message == (
        "expected a reading of the dates that keeps the rounds in date order, got none: "
        "read day first: '05/04/2026' (line 2, round 1) is 2026-04-05, after '04/03/2026' "
        "(line 3, round 2), 2026-03-04; read month first: '05/04/2026' (line 2, round 1) "
        "is 2026-05-04, after '04/03/2026' (line 3, round 2), 2026-04-03"
    )
