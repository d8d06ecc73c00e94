"""Dates as real files write them (pipeline.ingest.dates): every unambiguous form read,
an ambiguous one never guessed.

Forms from the real files: ``28. 07. 2005`` (FIDE's TRF16 example), ``24/09/2010``
(JaVaFo sample), ``2025/04/30`` (chess-results ``Date``), ``30.04.2025`` (chess-results
``Last update``), ``May 29, 2020`` (lichess TRF export), and the forms the issue lists.
"""

from __future__ import annotations

from datetime import date

import pytest

from pipeline.ingest.dates import find_dates, month_number, read_date, settle

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
        ("29.05.20", D(2020, 5, 29), "dmy"),  # two-digit year with dots
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
