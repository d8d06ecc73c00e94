"""The TRF reader's column-wise reading of the 001 lines against the line-by-line one
(`trf._players_columnwise` / `trf._read_player`): the same frames and the same problems
(code, file, line, column, wording, order) for every TRF file the project has, and for
player lines damaged at random; the column-wise path is taken whenever the line-by-line
one finds nothing to say about a 001 line. Odd round slots are read the same by
`trf._games_columnwise` as by `trf._read_round` (see also test_trf_columnwise.py)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from polars.testing import assert_frame_equal

import pipeline.formats.trf.read as trf
from pipeline.errors import InputError, Problem
from pipeline.formats.model import EventData
from pipeline.formats.text import decode_bytes
from pipeline.formats.trf.columns import PlayerColumns, players_columnwise
from pipeline.ingest.detect import detect_kind_of, find_inputs
from tests.conftest import FIXTURES, ROOT, SAMPLES

FILES = sorted(
    p
    for p in find_inputs([FIXTURES, SAMPLES, ROOT / "tests" / "validate" / "data"]).events
    if detect_kind_of(p) == "trf"
)
# the codes `_read_player` and the duplicate check give a 001 line
PLAYER_CODES = frozenset(
    {
        "short-line", "missing-start-number", "bad-start-number", "bad-sex", "missing-name",
        "bad-rating", "bad-fide-id", "bad-birth-date", "bad-points", "bad-rank",
        "duplicate-start-number",
    }
)  # fmt: skip
BASE = SAMPLES / "events" / "2026-11-standard-open.trf"
# characters that break a field one way or another: digits, signs, separators, letters,
# whitespace other than blanks, non-ASCII digits and letters
DAMAGE = " 0123456789mwfMWFgGx/.-,+=*\t\xa0\u2007\u0663\u00b2é#"

Outcome = EventData | list[Problem]


def outcome(text: str, file: str) -> Outcome:
    try:
        return trf.read_trf(text, file)
    except InputError as exc:
        return exc.problems


def read_both(
    text: str, file: str, monkeypatch: pytest.MonkeyPatch
) -> tuple[Outcome, Outcome, bool]:
    """(column-wise outcome, line-by-line outcome, whether the column-wise path read the
    001 lines)."""
    taken: list[bool] = []

    def spy(texts: list[str], line_nos: list[int]) -> PlayerColumns | None:
        found = players_columnwise(texts, line_nos)
        taken.append(found is not None)
        return found

    with monkeypatch.context() as m:
        m.setattr(trf, "_players_columnwise", spy)
        fast = outcome(text, file)
    with monkeypatch.context() as m:
        m.setattr(trf, "_players_columnwise", lambda *args: None)
        slow = outcome(text, file)
    return fast, slow, taken == [True]


def same(fast: Outcome, slow: Outcome) -> None:
    if isinstance(slow, list):
        assert fast == slow
        return
    assert isinstance(fast, EventData)
    assert_frame_equal(fast.events, slow.events)
    assert_frame_equal(fast.players, slow.players)
    assert_frame_equal(fast.games, slow.games)
    assert fast.problems == slow.problems


def player_problems(slow: Outcome) -> bool:
    problems = slow if isinstance(slow, list) else slow.problems
    return any(p.code in PLAYER_CODES for p in problems)


def check_file(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fast, slow, taken = read_both(decode_bytes(path.read_bytes()), str(path), monkeypatch)
    same(fast, slow)
    assert taken != player_problems(slow)


def test_files_found() -> None:
    names = {p.name for p in FILES}
    assert {"2026-11-standard-open.trf", "trf_bad_rating.trf", "valid_open.trf"} <= names


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_trf_file_reads_the_same_column_wise(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    check_file(path, monkeypatch)


def test_shared_trf_files_read_the_same_column_wise(
    shared_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = [p for p in find_inputs([shared_dir / "data"]).events if detect_kind_of(p) == "trf"]
    assert paths
    for path in paths:
        check_file(path, monkeypatch)


def damage(rng: random.Random, line: str) -> str:
    """One change to the player fields (columns 1-91) of a 001 line."""
    op = rng.randrange(5)
    at = rng.randrange(0, 91)
    if op == 0:  # one character replaced
        return line[:at] + rng.choice(DAMAGE) + line[at + 1 :]
    if op == 1:  # a short run of characters replaced
        run = "".join(rng.choice(DAMAGE) for _ in range(rng.randint(2, 6)))
        return line[:at] + run + line[at + len(run) :]
    if op == 2:  # the line cut short
        return line[: rng.randrange(0, 92)]
    if op == 3:  # a field blanked
        a, b = rng.choice([(4, 8), (9, 10), (10, 13), (14, 47), (48, 52), (53, 56), (57, 68),
                           (69, 79), (80, 84), (85, 89)])  # fmt: skip
        return line[:a] + " " * (b - a) + line[b:]
    # a character inserted: every field after it shifts
    return line[:at] + rng.choice(DAMAGE) + line[at:]


def test_damaged_player_lines_read_the_same_or_fall_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lines = BASE.read_text(encoding="utf-8").splitlines()
    players = [i for i, line in enumerate(lines) if line.startswith("001")]
    rng = random.Random(20261202)
    fell_back = 0
    for _ in range(300):
        damaged = list(lines)
        for _ in range(rng.randint(1, 3)):
            i = rng.choice(players)
            damaged[i] = damage(rng, damaged[i])
        if rng.random() < 0.1:  # a line given twice: its start number repeats
            damaged.insert(rng.choice(players), damaged[rng.choice(players)])
        fast, slow, taken = read_both("\n".join(damaged) + "\n", "damaged.trf", monkeypatch)
        same(fast, slow)
        if player_problems(slow):
            assert not taken
        fell_back += not taken
    assert 0 < fell_back < 300


@pytest.mark.parametrize(
    "fields",
    [
        "001    1 m GM Name, First                       2703 ESP    11024940 1972/07/09  9.0    1",
        "001    1                                                                               ",
        "001    1",
        "001 0001 f wg Naïve, Zoë                        1000 ned 00000000000 05.06.1990  0,5 0001",
        "001    1 F    Blank, Birth                         0          0      0000/00/00  10     0",
        "001    1 W  g Trail\xa0                         \t2000                 1990-1-1        ",
        "001    1 m    Year, Only                        2000                 1988        4.25  12",
        "001   12      Nine, Digits                      2000     123456789 0000        1.0",
        "001    1      Bad, Birth                        2000                 1990/13/13        ",
        "001    1      Tab, Rating                      \t200                                   ",
        "001    1      Sign, Rating                      +200                                   ",
        "001    1      Odd, Digits                       \u0663\u0663\u0663\u0663",
        "001    0      Zero, Start",
        "001 ",
        "001",
        "001   \t1      Tab, Start",
        "001    1 x    Bad, Sex",
        "001    1 m",
        "001    1 m GM                                   2000",
        "001    1      Points, Comma                     2000                      4,",
    ],
)
def test_odd_player_lines_read_the_same(fields: str, monkeypatch: pytest.MonkeyPatch) -> None:
    head = ["012 Odd lines", "042 2026/11/06", "XXR 2"]
    other = ("001    2      Other, Player".ljust(48) + "2100").ljust(91) + "   1 b 0  0000 - Z"
    for line in (fields, fields.ljust(91) + "   2 w 1  0000 - Z"):
        text = "\n".join([*head, line, other]) + "\n"
        fast, slow, _ = read_both(text, "odd.trf", monkeypatch)
        same(fast, slow)


@pytest.mark.parametrize(
    "slot",
    [
        "   2 w 1  ", "   2 b =  ", "   2 W 0  ", "   2 B +  ", "   2 - -  ", "   2 w d  ",
        "   2 b h  ", "   2 w    ", "2    w 1  ", " 2   b 0  ", "0002 w 1  ", "     - Z  ",
        "0000 - Z  ", "0000   U  ", "     w    ", "0000 w    ", "   0 B    ", " 00  b    ",
        "0000 -    ", "          ", " 2 2 w 1  ", "   2 x 1  ", "   2 w q  ", "   2 w 1 x",
        "   2w 1   ", "\t  2 w 1  ", "   2\tw 1  ", "   2 w\t1  ", "  \u0663\u0663 w 1  ",
        "   2 w 1", "   2 w", "   2", "   2 w *  ", "   2 w z  ", "   2 w x  ",
    ],
)  # fmt: skip
def test_odd_round_slots_read_the_same(slot: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A round slot against the slot-by-slot path (`trf._read_round`), as the first of
    two rounds and as the last part of the line."""
    head = ["012 Odd slots", "042 2026/11/06", "XXR 2"]
    first = ("001    1      One, Player".ljust(48) + "2000").ljust(91)
    other = ("001    2      Other, Player".ljust(48) + "2100").ljust(91) + "   1 b 0  0000 - Z"
    for line in (first + slot.ljust(10) + "0000 - Z", first + slot):
        text = "\n".join([*head, line, other]) + "\n"
        fast = outcome(text, "odd.trf")
        with monkeypatch.context() as m:
            m.setattr(trf, "_games_columnwise", lambda *args: None)
            slow = outcome(text, "odd.trf")
        same(fast, slow)
