"""The numpy fast path of the TXT rating-list reader (pipeline.formats.rating_list.fixed)
against the polars path it stands in for.

Every test reads the same bytes twice: as `read_rating_list` / `read_rating_list_bytes` do (the
fast path reads the regular lines, the polars path the others), and with the fast path
switched off (`read_txt_lines` adding no RAW column, so every line takes the polars path,
the reference). The frames must be equal, or the problems raised (lines, columns, codes,
messages, in order). The property tests build random lists, damaged at random.
"""

from __future__ import annotations

import random
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from pipeline.errors import InputError, Problem
from pipeline.formats.rating_list import fixed as list_fixed
from pipeline.formats.rating_list import raw as list_raw
from pipeline.formats.rating_list import txt as list_txt
from pipeline.formats.rating_list.read import (
    RegistryLimits,
    read_rating_list,
    read_rating_list_bytes,
)
from pipeline.formats.rating_list.txt import RAW, read_txt_lines
from tests.conftest import ROOT
from tests.formats.rating_list.test_read import (
    COMBINED_HEADER,
    COMBINED_WIDTHS,
    SINGLE_HEADER,
    SINGLE_WIDTHS,
)

# offsets from the header's tokens, not FIDE's (list_txt.parse_txt_header)
ODD_HEADER = (
    "ID Number  Name                    Fed  Sex  Tit   WTit  OTit             FOA  SRtng  "
    "SGm  SK  RRtng  RGm  Rk  BRtng  BGm  BK  B-day  Flag"
)
ODD_WIDTHS = (11, 24, 5, 5, 6, 6, 17, 5, 7, 5, 4, 7, 5, 4, 7, 5, 4, 7, 4)

Outcome = tuple[str, pl.DataFrame | list[Problem]]


def outcome(read: Callable[[], pl.DataFrame]) -> Outcome:
    try:
        return "frame", read()
    except InputError as error:
        return "problems", list(error.problems)


@contextmanager
def polars_only() -> Iterator[None]:
    """Every line through the polars path: no RAW column, so no fast path."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(list_txt, "_fast_lines", lambda source, file: None)
        yield


def assert_same(read: Callable[[], pl.DataFrame]) -> Outcome:
    fast = outcome(read)
    with polars_only():
        reference = outcome(read)
    assert fast[0] == reference[0], (fast, reference)
    if isinstance(fast[1], pl.DataFrame):
        assert isinstance(reference[1], pl.DataFrame)
        assert_frame_equal(fast[1], reference[1])
    else:
        assert fast[1] == reference[1]
    return fast


def assert_same_bytes(
    data: bytes, file: str = "players_list_foa.txt", max_problems: int = 50
) -> Outcome:
    limits = RegistryLimits(max_problems=max_problems)
    return assert_same(lambda: read_rating_list_bytes(data, file, None, limits))


def fast_path_taken(data: bytes) -> bool:
    return RAW in read_txt_lines(data, "x").columns


def fixed(widths: tuple[int, ...], values: list[str]) -> str:
    """A fixed-width line; a value wider than its field pushes the rest right."""
    return "".join(value.ljust(width) for value, width in zip(values, widths, strict=True))


def combined(values: str) -> str:
    """A combined-list line from its 19 values separated by '|'."""
    return fixed(COMBINED_WIDTHS, values.split("|"))


# --- lists built at random ----------------------------------------------------------

_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_ODD_CHARS = ["a", "x", "-", "+", ".", " ", "\t", "\x1f", "\r", "\x00", "é", "ü", "9", "0"]


def _number(rng: random.Random, digits: int) -> str:
    roll = rng.random()
    if roll < 0.4:
        return ""
    if roll < 0.45:
        return "0"
    if roll < 0.5:
        return "0" * rng.randint(1, digits)
    return str(rng.randint(0, 10**digits - 1))


def _name(rng: random.Random, non_ascii: bool) -> str:
    length = rng.choice([0, 3, 8, 15, 30, 60, 61, 62, 70]) if rng.random() < 0.2 else 12
    letters = _LETTERS + " ,." + ("äöüéñç" if non_ascii else "")
    name = "".join(rng.choice(letters) for _ in range(length)).strip()
    return (" " + name) if rng.random() < 0.03 else name


def _player(rng: random.Random, fide_id: int, widths: tuple[int, ...], non_ascii: bool) -> str:
    ids = str(fide_id) if rng.random() < 0.97 else rng.choice(["", "0", "00", str(fide_id)])
    titles = [
        rng.choice(["", "", "", "GM", "IM", "WGM", "CM"]),
        rng.choice(["", "", "WIM", "WFM"]),
        rng.choice(
            ["", "", "", "FA", "IA,FT", "LSI,FI,SI,SLI,NA", "FA,FT,IO,NA,LSI", "A,B,C,D,E,F,G,H"]
        ),
        rng.choice(["", "", "AGM", "AIMX"]),
    ]
    head = [
        ids,
        _name(rng, non_ascii),
        rng.choice(["ESP", "GER", "IND", "", "X"]),
        rng.choice(["M", "F", "", " M"]),
        *titles,
    ]
    lists = [
        [_number(rng, 4), _number(rng, 3), rng.choice(["", "10", "20", "40"])] for _ in range(3)
    ]
    tail = [rng.choice(["", "0", "1990", "2001", "19"]), rng.choice(["", "i", "w", "wi", "wix"])]
    if len(widths) == len(SINGLE_WIDTHS):
        return fixed(widths, [*head, *lists[0], *tail])
    return fixed(widths, [*head, *(v for values in lists for v in values), *tail])


def _damaged(rng: random.Random, line: str) -> str:
    roll = rng.random()
    if roll < 0.3:
        return line.rstrip()
    if roll < 0.4:
        return rng.choice(["", "   ", "\t", " " * len(line)])
    at = rng.randrange(max(len(line), 1))
    char = rng.choice(_ODD_CHARS)
    if roll < 0.7:
        return line[:at] + char + line[at + 1 :]
    if roll < 0.85:
        return line[:at] + char + line[at:]
    return line[:at] + line[at + 1 :]


def random_list(seed: int, players: int, damage: float) -> tuple[bytes, str]:
    """A rating list of `players` lines (bytes) and its file name, from `seed`."""
    rng = random.Random(seed)
    layout = rng.choice(["combined", "combined", "single", "odd"])
    header, widths, file = {
        "combined": (COMBINED_HEADER, COMBINED_WIDTHS, "players_list_foa.txt"),
        "single": (
            SINGLE_HEADER,
            SINGLE_WIDTHS,
            rng.choice(["standard", "rapid", "blitz"]) + ".txt",
        ),
        "odd": (ODD_HEADER, ODD_WIDTHS, "list.txt"),
    }[layout]
    encoding = rng.choice(["utf-8", "utf-8", "cp1252"])
    non_ascii = rng.random() < 0.3
    end = rng.choice(["\n", "\r\n"])
    pad = " " * rng.choice([0, 0, 0, 2])
    lines = [header + rng.choice(["", "  "])]
    fide_id = rng.randint(1, 10**8)
    for _ in range(players):
        fide_id += rng.randint(0, 50) if rng.random() < 0.02 else rng.randint(1, 50)
        line = _player(rng, fide_id, widths, non_ascii) + pad
        lines.append(_damaged(rng, line) if rng.random() < damage else line)
    ends = [end if rng.random() > 0.01 else rng.choice(["\n", "\r\n"]) for _ in lines]
    text = "".join(line + e for line, e in zip(lines, ends, strict=True))
    if rng.random() < 0.2:
        text = text.rstrip("\r\n")
    data = text.encode(encoding, errors="replace")
    if encoding == "utf-8" and rng.random() < 0.1:
        data = b"\xef\xbb\xbf" + data
    return data, file


@given(st.integers(0, 2**32), st.sampled_from([0.0, 0.02, 0.1, 0.3]))
@settings(max_examples=60)
def test_random_lists_read_the_same_both_ways(seed: int, damage: float) -> None:
    data, file = random_list(seed, 60, damage)
    assert_same_bytes(data, file)
    if damage == 0.0 and data.isascii():
        assert fast_path_taken(data)


@given(st.integers(0, 2**32), st.sampled_from([0.0, 0.005, 0.05, 0.3]))
@settings(max_examples=40)
def test_random_lists_from_files_read_the_same_both_ways(seed: int, damage: float) -> None:
    data, file = random_list(seed, 40, damage)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / file
        path.write_bytes(data)
        assert_same(lambda: read_rating_list(path))


@pytest.mark.slow
@given(st.integers(0, 2**32), st.sampled_from([0.0, 0.001, 0.01, 0.1, 0.5]))
@settings(max_examples=300)
def test_bigger_random_lists_read_the_same_both_ways(seed: int, damage: float) -> None:
    data, file = random_list(seed, 3_000, damage)
    assert_same_bytes(data, file, max_problems=10_000)
    assert_same_bytes(data, file, max_problems=3)


# --- the numbers, word by word -------------------------------------------------------


def reference_number(field: bytes) -> tuple[int | None, bool]:
    """(value, readable) as the fast path must read a number field: digits followed by
    blanks, or only blanks (None)."""
    stripped = field.rstrip(b" ")
    if not stripped:
        return None, True
    if not stripped.isdigit() or not stripped.isascii() or len(stripped) > 18:
        return None, False
    return int(stripped), True


@given(
    st.lists(
        st.text(alphabet="0123456789 0123456789 a+-\t\x7f", min_size=1, max_size=24),
        min_size=1,
        max_size=60,
    ),
    st.integers(1, 24),
)
def test_numbers_are_read_as_digits_followed_by_blanks(texts: list[str], width: int) -> None:
    fields = [t.encode()[:width].ljust(width) for t in texts]
    rows = np.frombuffer(b"".join(fields), dtype=np.uint8).reshape(len(fields), width)
    words = []
    for at in range(0, width, 8):
        piece = np.zeros((len(fields), 8), dtype=np.uint8) + 0x20
        piece[:, : min(8, width - at)] = rows[:, at : at + 8]
        words.append(piece.view("<u8").ravel().copy())
    value, valid, blank = list_fixed._number(words)
    for index, field in enumerate(fields):
        expected, readable = reference_number(field)
        assert bool(valid[index]) == readable, field
        if readable:
            assert bool(blank[index]) == (expected is None), field
            if expected is not None:
                assert int(value[index]) == expected, field


# --- particular files ---------------------------------------------------------------

ANNA = combined("4100018|Kovalenko, Anna|UKR|F||WGM|||2331|0|10|2290|9|20|2302|0|20|1994|w")
BORIS = combined("512440901|Oyelaran, Boris|NGR|M||||||||1712|4|40||||2011|")


def players(count: int, start: int = 100_000) -> list[str]:
    """Valid combined-list lines of players `start`, `start + 7`, ... (no overflow)."""
    rng = random.Random(count)
    lines = []
    for i in range(count):
        rated = [[str(rng.randint(1000, 2800)), str(rng.randint(0, 30)), "20"] for _ in range(3)]
        kept = [values if rng.random() < 0.4 else ["", "", ""] for values in rated]
        values = [str(start + 7 * i), f"Player{i}, Given", "ESP", rng.choice("MF"), "", "", "", ""]
        values += [*(v for group in kept for v in group), str(rng.randint(1950, 2015)), ""]
        lines.append(fixed(COMBINED_WIDTHS, values))
    return lines


@pytest.mark.parametrize("end", ["\n", "\r\n"])
def test_regular_lines_take_the_fast_path(end: str) -> None:
    data = end.join([COMBINED_HEADER, *players(50)]).encode() + end.encode()
    assert fast_path_taken(data)
    frame = assert_same_bytes(data)[1]
    assert isinstance(frame, pl.DataFrame)
    assert frame.height == 50


def test_line_ends_of_both_kinds_in_one_file() -> None:
    lines = [COMBINED_HEADER, *players(40)]
    text = "".join(line + ("\n" if i in (5, 6, 30) else "\r\n") for i, line in enumerate(lines))
    assert_same_bytes(text.encode())
    # two line ends one byte short move the later lines by two bytes; an empty line
    # after them would look like a line end where the moved rows expect one
    text = "".join(
        line + ("\n" if i in (5, 6) else "\r\n") + ("\r\n" if i == 20 else "")
        for i, line in enumerate(lines)
    )
    assert_same_bytes(text.encode())


def test_non_ascii_lines_and_latin_1_files_go_the_polars_way() -> None:
    same_bytes = ANNA.replace("Kovalenko, Anna ", "Kovalenko, Anné")  # 1 byte longer
    lines = [COMBINED_HEADER, *players(30), same_bytes, BORIS, *players(30, 900_000)]
    assert_same_bytes("\r\n".join(lines).encode("utf-8"))
    assert_same_bytes("\r\n".join(lines).encode("cp1252"))
    # a line of the common length in bytes, one character short (a character of two
    # bytes): read by characters, its numbers are cut one to the left
    short = ANNA.replace("Kovalenko, Anna  ", "Kovalenko, Anné ")
    assert len(short.encode()) == len(ANNA)
    kind, found = assert_same_bytes("\n".join([COMBINED_HEADER, *players(30), short]).encode())
    assert kind == "problems"
    assert isinstance(found, list)
    assert {p.location.line for p in found} == {32}


def test_overflowing_lines_blank_lines_and_problems() -> None:
    overflow = combined(
        "700123|Halvorsen, Dag|NOR|M|IM||LSI,FI,SI,SLI,NA||2410|3|10|2388|0|20|2421|7|20|1969|i"
    )
    bad_rating = ANNA.replace("2331  ", "23a1  ")
    right_aligned = ANNA.replace("4100018        ", "        4100018")
    lines = [
        COMBINED_HEADER,
        *players(20),
        overflow,
        "",
        "   ",
        bad_rating,
        right_aligned,
        BORIS.rstrip(),
        *players(20, 800_000),
    ]
    kind, found = assert_same_bytes("\n".join(lines).encode())
    assert kind == "problems"
    assert isinstance(found, list)
    assert {p.code for p in found} == {"bad-number", "duplicate-fide-id"}


def test_regular_lines_longer_than_the_layout_are_left_to_polars() -> None:
    # the common length (164) passes the header's, but only half of the lines are longer:
    # the layout keeps the header's width and those lines need realigning
    lines = [COMBINED_HEADER, ANNA + "  ", BORIS + "  ", ANNA[:150], BORIS[:140]]
    data = "\n".join(lines).encode()
    assert fast_path_taken(data)
    assert_same_bytes(data)


def _with_short_lines(count: int, every: int, at: int) -> bytes:
    """A CRLF list of `count` players whose line `at` of every `every` is stripped of its
    trailing blanks (not regular: the runs of regular lines are broken there)."""
    lines = [COMBINED_HEADER]
    for index, line in enumerate(players(count)):
        lines.append(line.rstrip() if index % every == at else line)
    return "\r\n".join(lines).encode()


def test_regular_lines_in_many_runs() -> None:
    # more runs of regular lines than list_raw._MAX_RUNS: RAW is one copied chunk
    data = _with_short_lines(1_500, every=3, at=1)
    raw = read_txt_lines(data, "x")[RAW]
    assert raw.n_chunks() == 1
    assert_same_bytes(data)


def test_only_ids_and_names(tmp_path: Path) -> None:
    from pipeline.formats.names import name_filter

    path = tmp_path / "players_list_foa.txt"
    lines = [COMBINED_HEADER, *players(200), ANNA, BORIS]
    path.write_text("\r\n".join(lines) + "\r\n", encoding="ascii")
    assert_same(lambda: read_rating_list(path, only_ids={100_007, 4100018, 5}))
    names = name_filter(pl.Series(["Kovalenko Anna"]))
    assert_same(lambda: read_rating_list(path, only_ids={100_014}, names=names))


@pytest.mark.parametrize(
    "path",
    [
        ROOT / "tests" / "validate" / "data" / "valid_players_list_foa.txt",
        ROOT / "samples" / "registry" / "players_list_foa.txt",
    ],
    ids=lambda p: p.name,
)
def test_project_lists(path: Path) -> None:
    assert_same(lambda: read_rating_list(path))
    assert_same_bytes(path.read_bytes(), path.name)


def test_real_sample_lines(shared_dir: Path) -> None:
    path = shared_dir / "data" / "rating-list" / "players_list_foa_sample.txt"
    assert_same(lambda: read_rating_list(path))


@pytest.mark.slow
def test_generated_full_list_reads_the_same_both_ways(tmp_path: Path) -> None:
    from bench.registry import synthesize_combined_list

    path = tmp_path / "players_list_foa.txt"
    synthesize_combined_list(path, 300_000, overflow=40)
    assert RAW in read_txt_lines(path, path.name).columns
    assert_same(lambda: read_rating_list(path))


# --- lines split by numpy (list_raw), the others read as text --------------------


def test_lines_are_split_as_polars_splits_them() -> None:
    # a BOM; empty lines, a line of a CR, a CR inside a line, the last line ending in a CR
    # without a line feed: LINE and TEXT must be those of polars' read of every line
    lines = [COMBINED_HEADER, *players(20), "", "\r", ANNA.replace("Anna ", "An\rna"), *players(5)]
    for end in ("\n", "\r\n"):
        body = end.join(lines).encode()
        for data in (b"\xef\xbb\xbf" + body, body + b"\r", body + end.encode() + b"\r", body):
            assert fast_path_taken(data)
            assert_same_bytes(data)


def test_regular_lines_are_a_size_in_bytes_with_the_line_end() -> None:
    # a line of the regular size with the other line end is a line one byte longer (a
    # line feed alone in a CRLF file) or shorter (a CR before the line feed in an LF file)
    # than the regular lines: it goes the polars way, read from its bytes
    crlf = [line + "\r\n" for line in [COMBINED_HEADER, *players(30)]]
    crlf[10] = ANNA + "x\n"
    crlf[11] = ANNA[:-1] + "\n\r\n"  # and an empty line after a short one
    assert_same_bytes("".join(crlf).encode())
    lf = [line + "\n" for line in [COMBINED_HEADER, *players(30)]]
    lf[10] = ANNA[:-1] + "\r\n"
    lf[12] = BORIS[:-1] + "\r\n"
    data = "".join(lf).encode()
    assert fast_path_taken(data)
    assert_same_bytes(data)


def test_a_file_holding_the_separator_is_read_line_by_line(tmp_path: Path) -> None:
    lines = [COMBINED_HEADER, *players(30)]
    lines[7] = lines[7][:20] + "\x1f" + lines[7][21:]
    data = "\r\n".join(lines).encode()
    assert not fast_path_taken(data)
    assert_same_bytes(data)
    path = tmp_path / "players_list_foa.txt"
    path.write_bytes(data)
    assert RAW not in read_txt_lines(path, path.name).columns
    assert_same(lambda: read_rating_list(path))


def test_non_ascii_lines_of_the_regular_size_are_read_as_text() -> None:
    # regular by size, but a character of several bytes (UTF-8) or a byte that is not
    # ASCII (Windows-1252): read as text with the other lines, decoded like the file
    same_size = ANNA.replace("Anna  ", "Anné ")
    lines = [COMBINED_HEADER, *players(20), same_size, *players(20, 700_000)]
    for encoding in ("utf-8", "cp1252"):
        data = "\n".join(lines).encode(encoding)
        assert fast_path_taken(data)
        assert_same_bytes(data)


def test_blocks_across_chunks_and_threads() -> None:
    # blocks of a few rows, several to a chunk and several chunks to a block, shared out
    # to the threads; sizes and line ends found from a few lines
    data = _with_short_lines(200, every=17, at=3)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(list_fixed, "_OUTER", 7)
        patch.setattr(list_fixed, "_INNER", 3)
        patch.setattr(list_raw, "_SAMPLE", 5)
        patch.setattr(list_raw, "_PIECE", 1000)
        assert read_txt_lines(data, "x")[RAW].n_chunks() > 2
        assert_same_bytes(data)


def test_short_texts_filled_more_or_less_from_block_to_block() -> None:
    # a block reads a text field on all of its rows or on its filled rows only, as the
    # last block read found it filled: either way the keys are the same
    lines = [COMBINED_HEADER]
    for index, line in enumerate(players(120)):
        title = "GM" if (index // 20) % 3 == 0 else ("IM" if index % 9 == 0 else "")
        lines.append(line[:84] + title.ljust(5) + line[89:])
    data = "\n".join(lines).encode()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(list_fixed, "_OUTER", 10)
        patch.setattr(list_fixed, "_INNER", 4)
        frame = assert_same_bytes(data)[1]
    assert isinstance(frame, pl.DataFrame)
    assert frame["title"].value_counts().height == 3
