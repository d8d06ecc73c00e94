"""Names as keys (pipeline.formats.names): the same person written differently in different
files gives one key; the polars twins give the same keys as the scalar functions.

The cases are the spellings real files show: FIDE's list writes `Surname, Given`,
chess-results crosstables `Surname Given` without a comma, club files `Given Surname`,
and every one of them may drop accents, use hyphens or initials.
"""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.formats.names import (
    fold,
    fold_expr,
    initials_key_expr,
    name_filter,
    name_key,
    name_key_expr,
    name_parts,
    registry_initials_key,
    registry_initials_key_expr,
    surname_key,
    surname_key_expr,
    surname_spans,
    surname_spans_expr,
)

SAME = [
    # (one spelling, another spelling of the same name)
    ("Carlsen, Magnus", "Magnus Carlsen"),  # comma and order
    ("Carlsen, Magnus", "CARLSEN MAGNUS"),  # case
    ("Carlsen, Magnus", "Carlsen  ,  Magnus "),  # extra blanks
    ("Müller, Jörg", "Muller Jorg"),  # diacritics
    ("Šimić, Željko", "Simic Zeljko"),
    ("García Pérez, José Ángel", "Jose Angel Garcia Perez"),
    ("Øster, Bjørn", "Oster Bjorn"),  # letters NFKD does not take apart
    ("Straße, Hans", "Strasse Hans"),
    ("Łukasiewicz, Paweł", "Lukasiewicz Pawel"),
    ("Mbeki-Osei, Kwame", "Mbeki Osei Kwame"),  # hyphens
    ("Schmidt-Wolf, Anna-Lena", "Anna Lena Schmidt Wolf"),
    ("O'Brien, Sean", "OBrien Sean"),  # an apostrophe joins
    ("D’Angelo, Luca", "Dangelo Luca"),
    ("Nguyen, Van An", "An Van Nguyen"),  # given names in another order
    ("Smith, John Paul", "Smith Paul John"),
    ("van der Berg, Jan", "Jan van der Berg"),
    ("Mu\u0308ller, Hans", "Müller Hans"),  # decomposed input
]
DIFFERENT = [
    ("Carlsen, Magnus", "Carlsen, Henrik"),  # same surname, other given name
    ("Smith, John", "Smith, John Paul"),  # a given name more
    ("Nguyen, Van An", "Nguyen, Van Anh"),
    ("Berg, Jan", "Bergen, Jan"),
]


@pytest.mark.parametrize(("a", "b"), SAME, ids=[f"{a} = {b}" for a, b in SAME])
def test_spellings_of_one_name_give_one_key(a: str, b: str) -> None:
    assert name_key(a) == name_key(b)


@pytest.mark.parametrize(("a", "b"), DIFFERENT, ids=[f"{a} != {b}" for a, b in DIFFERENT])
def test_other_names_give_other_keys(a: str, b: str) -> None:
    assert name_key(a) != name_key(b)


@pytest.mark.parametrize(
    ("name", "full", "initials", "initials_key"),
    [
        ("Smith, J.", ("smith",), ("j",), "smith|j"),
        ("J. P. Smith", ("smith",), ("j", "p"), "smith|j p"),
        ("Smith J", ("smith",), ("j",), "smith|j"),
        ("Smith, John", ("smith", "john"), (), ""),
        ("J. K.", (), ("j", "k"), ""),  # initials alone say nothing
    ],
)
def test_initials(
    name: str, full: tuple[str, ...], initials: tuple[str, ...], initials_key: str
) -> None:
    parts = name_parts(name)
    assert (parts.full, parts.initials, parts.initials_key) == (full, initials, initials_key)


@pytest.mark.parametrize(
    ("registry_name", "key"),
    [
        ("Smith, John", "smith|j"),
        ("Smith, John Paul", "smith|j p"),
        ("Schmidt-Wolf, Anna", "schmidt wolf|a"),
        ("Carlsen", ""),  # no given names
    ],
)
def test_registry_initials_key(registry_name: str, key: str) -> None:
    assert registry_initials_key(registry_name) == key
    # an entry written with initials meets the list's name on this key
    if key:
        surname, _, given = registry_name.partition(",")
        initials = " ".join(f"{g[0]}." for g in given.split())
        assert name_parts(f"{surname} {initials}").initials_key == key


def test_surname_key_is_the_part_before_the_comma() -> None:
    assert surname_key("van der Berg, Jan") == "van der berg"
    assert surname_key("Carlsen") == "carlsen"


def test_surname_spans_are_the_first_or_the_last_words() -> None:
    spans = surname_spans("Jan van der Berg")
    assert spans == [
        "jan", "jan van", "jan van der", "jan van der berg", "berg", "der berg", "van der berg",
    ]  # fmt: skip
    assert surname_spans("van der Berg, Jan")[2] == "van der berg"
    assert surname_spans("Smith, J.") == ["smith"]  # initials are no surname


def test_name_filter_cuts_first_by_surname_then_by_name() -> None:
    found = name_filter(pl.Series(["Jan van der Berg", "Smith, J."]))
    assert "van der berg" in found.surnames
    assert found.keys == {"berg der jan van", "j smith"}
    assert found.initials == {"smith|j"}
    names = pl.DataFrame(
        {"n": ["van der Berg, Jan", "van der Berg, Piet", "Smith, John", "Smith, Alan"]}
    )
    first = names.filter(found.first_cut(pl.col("n")))["n"].to_list()
    assert first == names["n"].to_list()  # every surname is one the entries may have
    exact = names.filter(found.exact(pl.col("n")))["n"].to_list()
    assert exact == ["van der Berg, Jan", "Smith, John"]


NAMES = st.text(
    alphabet=st.sampled_from([*"abcABC éÉüÜøØßłŁ-,.'’  ", "\u0308", "İ", "ﬁ"]), max_size=30
)


@given(st.lists(NAMES, min_size=1, max_size=20))
def test_polars_twins_give_the_scalar_keys(names: list[str]) -> None:
    frame = pl.DataFrame({"n": names}).select(
        fold_expr(pl.col("n")).alias("fold"),
        name_key_expr(pl.col("n")).alias("key"),
        surname_key_expr(pl.col("n")).alias("surname"),
        initials_key_expr(pl.col("n")).alias("ikey"),
        registry_initials_key_expr(pl.col("n")).alias("rikey"),
        surname_spans_expr(pl.col("n")).alias("spans"),
    )
    for name, row in zip(names, frame.iter_rows(named=True), strict=True):
        assert row["fold"] == fold(name), name
        assert row["key"] == name_key(name), name
        assert row["surname"] == surname_key(name), name
        assert row["ikey"] == name_parts(name).initials_key, name
        assert row["rikey"] == registry_initials_key(name), name
        tokens = [t for t in fold(name).split() if len(t) > 1 or t.isdigit()]
        if len(tokens) <= 6:
            assert sorted(row["spans"]) == sorted(surname_spans(name)), name
