"""The long text fields (the name) on the fast path of the TXT reader: measured by numpy
(rating_list.fixed), copied out of the lines' bytes by polars, against the polars path.

Like test_registry_fixed, every list is read both ways and the outcomes must be equal.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from pipeline.formats.rating_list import fixed as list_fixed
from tests.formats.rating_list.test_fixed import (
    ODD_HEADER,
    ODD_WIDTHS,
    assert_same_bytes,
    combined,
    fast_path_taken,
    fixed,
    players,
)
from tests.formats.rating_list.test_read import COMBINED_HEADER

NAME_WIDTH = 61  # the combined list's name field, its separating blank included


def with_name(name: str, fide_id: int) -> str:
    """A combined-list line whose name field holds `name` as it stands (cut to fit)."""
    line = combined(f"{fide_id}|X|ESP|M||||||||1712|4|40||||2011|")
    return line[:15] + name[:NAME_WIDTH].ljust(NAME_WIDTH) + line[15 + NAME_WIDTH :]


@given(st.lists(st.text(alphabet="ab ,\x00\r\t", max_size=NAME_WIDTH), min_size=1, max_size=40))
def test_lengths_are_read_up_to_the_last_byte_that_is_not_a_blank(names: list[str]) -> None:
    fields = [name.encode().ljust(NAME_WIDTH)[:NAME_WIDTH] for name in names]
    rows = np.frombuffer(b"".join(fields), dtype=np.uint8).reshape(len(fields), NAME_WIDTH)
    words = []
    for at in range(0, NAME_WIDTH, 8):
        piece = np.full((len(fields), 8), 0x20, dtype=np.uint8)
        piece[:, : min(8, NAME_WIDTH - at)] = rows[:, at : at + 8]
        words.append(piece.view("<u8").ravel().copy())
    length, readable = list_fixed._text_length(words)
    for index, field in enumerate(fields):
        assert int(length[index]) == len(field.rstrip(b" ")), field
        assert bool(readable[index]) == (not field.startswith(b" ") or not field.strip(b" "))


def test_names_of_every_kind() -> None:
    names = [
        "",
        " " * NAME_WIDTH,
        "A" * NAME_WIDTH,  # no separating blank: the whole field
        "A" * (NAME_WIDTH - 1),
        "Twelve chars",  # held in polars' view of a string, and one more in a buffer
        "Thirteen char",
        " Leading, Blank",  # left to the polars path, which strips it
        "Nul, Inside\x00 too",
        "Nul, At The End\x00",
        "Nul, Last Byte".ljust(NAME_WIDTH - 1) + "\x00",
        "Tab\t, Cr\r",
        "Kovalenko, Anna" + " " * 30 + "x",
    ]
    lines = [COMBINED_HEADER, *players(10)]
    lines += [with_name(name, 5_000_000 + i) for i, name in enumerate(names)]
    lines += players(10, 900_000)
    for end in ("\n", "\r\n"):
        data = end.join(lines).encode() + end.encode()
        assert fast_path_taken(data)
        assert_same_bytes(data)


@given(
    st.lists(
        st.text(alphabet="abcXYZ ,.-'\x00\t", min_size=0, max_size=NAME_WIDTH + 3),
        min_size=1,
        max_size=30,
    )
)
def test_random_names_read_the_same_both_ways(names: list[str]) -> None:
    lines = [COMBINED_HEADER, *players(3)]
    lines += [with_name(name, 7_000_000 + i) for i, name in enumerate(names)]
    assert_same_bytes("\r\n".join(lines).encode())


def test_other_long_text_fields() -> None:
    # a layout whose "other titles" field is wider than 16 bytes: a long text too
    rows = [
        ["1001", "Short, Name", "ESP", "M", "", "", "IA,FT,FA,IO,DI,X", "", "2000", "1", "20"],
        ["1002", "Other, Name", "GER", "F", "", "WFM", " FA", "", "", "", ""],
        ["1003", "Third, Name", "IND", "M", "GM", "", "", "", "2500", "9", "10"],
    ]
    lines = [ODD_HEADER]
    for index in range(60):
        values = list(rows[index % 3])
        values[0] = str(1000 + index)
        lines.append(fixed(ODD_WIDTHS, [*values, "", "", "", "", "", "", "1990", ""]))
    data = "\n".join(lines).encode()
    assert fast_path_taken(data)
    assert_same_bytes(data, "list.txt")
