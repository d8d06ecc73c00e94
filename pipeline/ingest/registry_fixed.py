"""The fast path of the TXT rating-list reader: regular lines cut and typed with numpy.

Nearly every line of a FIDE list has the same length, and then every field sits at its
header offset. For those lines registry_txt's polars path (the reference, which handles
every line) spends some 50-90 ns per field and line on a string slice, a strip and a cast;
this module reads the numbers and short text fields of the same lines from the file's
bytes instead, a few numpy operations per field and block of lines.

- `line_bytes` (for `read_txt_lines`): RAW, a fixed-size UInt8 array column holding each
  line's bytes with its line end. It is made of zero-copy views of the file's bytes (a
  file is mapped, `map_file`), one chunk per run of lines of the file's most common length
  and line end ("regular" lines); the other rows hold zeros. The line starts follow from
  polars' own line lengths (TEXT), checked against the size of the file and the line ends
  (`_line_starts`), so RAW's rows are TEXT's lines.
- `read_fixed` (for `read_txt_fields`): the plan's fields of every RAW row, by blocks of
  rows. The bytes a plan needs are covered by as few 8-byte loads per row as possible
  (`_Windows`: strided views of the rows, copied a few thousand rows at a time while they
  are in the CPU cache); each field is cut from them with a shift and a mask. A number must
  be digits followed by blanks, or all blanks (null): per byte, digit or not, with
  carry-free word arithmetic, then the digits are aligned and combined with three
  multiplications (SWAR); a FIDE ID takes two words. A group of numbers that are blank
  together on most lines (each list's rating, games and K) is tested blank on the loads,
  and its numbers are read on the other rows only. A short text field (Fed, Sex, the
  titles, Flag) is keyed by its first three bytes on its non-blank rows (by all of its
  bytes when it is longer), and the distinct keys are decoded once.
- A row is left to the polars path (`FixedFields.fallback`) when it is not a regular line
  (its line end is not where it should be, or it holds a byte of a multi-byte character,
  so that characters are not bytes), or any of its numbers is anything but the two forms
  above (a sign, an inner or leading blank, more than 18 digits), or its FIDE ID is blank
  or 0. Every value `convert_fields` would report is such a case, so the problems of a
  file are found, and reported, on the polars path, which also reads the over-long lines.

The names (text fields of more than 16 bytes) are not read here: registry_txt cuts them
with polars (they need real strings), and types everything with `typed_columns` (the
zero-is-null and blank-is-null rules stay where they are defined).
"""

from __future__ import annotations

import mmap
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from pipeline.ingest.registry_txt import RAW

if TYPE_CHECKING:
    from numpy.typing import NDArray

    Buffer = bytes | mmap.mmap

_MIN_LENGTH = 8  # a regular line holds at least one 8-byte load
_MAX_LENGTH = 1 << 12  # and is shorter than this (longer lengths are counted as one)
_MAX_RUNS = 512  # more runs of regular lines than this: RAW is copied into one chunk
_BOM = b"\xef\xbb\xbf"
_PIECE = 1 << 24  # bytes scanned at once for line ends
_OUTER = 65_536  # rows whose words are combined at once (few numpy calls per row)
_INNER = 8_192  # rows loaded at once (their bytes stay in the CPU cache between loads)
_SORT_BELOW = 1 << 16  # fewer keys than this: the distinct ones are found by sorting

_U64 = np.uint64
_ZEROS = _U64(0x3030303030303030)  # b"00000000"
_BLANKS = _U64(0x2020202020202020)  # b"        "
_NINE_UP = _U64(0x7676767676767676)  # + (0x80 - 10): bit 7 set on bytes of 10 or more
_HIGH = _U64(0x8080808080808080)
_ONES = _U64(0x0101010101010101)
_PAIRS = _U64(0x000000FF000000FF)
_MUL_A = _U64(100 + (1_000_000 << 32))
_MUL_B = _U64(1 + (10_000 << 32))
_POW10 = np.array([10**k for k in range(9)], dtype=np.uint64)


def map_file(path: Path) -> mmap.mmap:
    """The file's bytes, mapped read-only (no copy; pages are read as they are touched).
    The mapping lives as long as the arrays viewing it."""
    with path.open("rb") as handle:
        return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)


def line_bytes(data: Buffer, lengths: NDArray[np.int64]) -> pl.Series | None:
    """RAW for the lines polars read from `data` (`lengths`: their lengths in bytes,
    line ends excluded), or None when fewer than half of the lines after the first are
    regular (module docstring). The rows are views of `data`: it lives as long as RAW."""
    count = lengths.size
    if count < 2:
        return None
    counts = np.bincount(np.minimum(lengths[1:], _MAX_LENGTH))
    length = int(counts.argmax())
    if not _MIN_LENGTH <= length < _MAX_LENGTH or 2 * int(counts[length]) < count - 1:
        return None
    buffer = np.frombuffer(data, dtype=np.uint8)
    first = len(_BOM) if buffer[: len(_BOM)].tobytes() == _BOM else 0
    located = _line_starts(buffer, lengths, first, length)
    if located is None:
        return None
    starts, ends = located
    common = lengths == length
    end = int(np.bincount(ends[common]).argmax())
    stride = length + end
    regular = common & (ends == end) & (starts + stride <= buffer.size)
    if 2 * int(regular.sum()) < count - 1:
        return None
    bounds = np.concatenate(([0], np.flatnonzero(np.diff(regular)) + 1, [count]))
    if bounds.size - 1 > _MAX_RUNS:
        return _copied_rows(buffer, starts, regular, stride)
    chunks: list[pl.Series] = []
    for low, high_row in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
        rows = high_row - low
        if regular[low]:
            at = int(starts[low])
            piece = buffer[at : at + rows * stride]
        else:
            piece = np.zeros(rows * stride, dtype=np.uint8)
        chunks.append(pl.Series(RAW, piece).reshape((rows, stride)))
    return pl.concat(chunks, rechunk=False)


def _line_starts(
    buffer: NDArray[np.uint8], lengths: NDArray[np.int64], first: int, length: int
) -> tuple[NDArray[np.int64], NDArray[np.int64]] | None:
    """Offset of each line in `buffer` and the length of its line end (0 for a last line
    without one), or None when the line ends cannot be matched with polars' lines.

    The common case is the first line's kind of line end throughout. It is taken when the
    lines and their line ends add up to the size of the buffer and the lines that are not
    `length` bytes long (few) have their line end where it should be. The lines of
    `length` bytes are checked by `read_fixed`, row by row, as they are read: a line end of
    the other kind among them moves the following rows by a byte (two such by two, and
    more would not add up), which that check, or the next line of another length, catches;
    the rows are never off by a whole line. Otherwise the line ends are found."""
    size = buffer.size
    if first + lengths[0] >= size:
        return None
    end = 2 if buffer[first + lengths[0]] == 0x0D else 1
    starts = np.empty(lengths.size, dtype=np.int64)
    starts[0] = first
    np.cumsum(lengths[:-1] + end, out=starts[1:])
    starts[1:] += first
    last = int(starts[-1] + lengths[-1])
    if last <= size:
        ends = np.full(lengths.size, end, dtype=np.int64)
        ends[-1] = _last_end(buffer, last)
        whole = last + int(ends[-1]) == size or (last == size - 1 and buffer[last] == 0x0D)
        other = np.flatnonzero(lengths[:-1] != length)
        newlines = starts[other] + lengths[other] + (end - 1)
        at_ends = bool((buffer[newlines] == 0x0A).all())
        if at_ends and end == 2:
            at_ends = bool((buffer[newlines - 1] == 0x0D).all())
        if whole and at_ends:
            return starts, ends
    found = _newlines(buffer)
    if found.size not in (lengths.size, lengths.size - 1):
        return None
    starts = np.concatenate(([first], found[: lengths.size - 1] + 1))
    ends = np.zeros(lengths.size, dtype=np.int64)
    ends[: found.size] = found - (starts[: found.size] + lengths[: found.size]) + 1
    if not ((ends[: found.size] >= 1) & (ends[: found.size] <= 2)).all():
        return None
    if not (buffer[(starts + lengths)[ends == 2]] == 0x0D).all():
        return None
    return starts, ends


def _last_end(buffer: NDArray[np.uint8], at: int) -> int:
    """Length of the line end at `at` (where the last line's text ends)."""
    if at < buffer.size and buffer[at] == 0x0A:
        return 1
    if at + 1 < buffer.size and buffer[at] == 0x0D and buffer[at + 1] == 0x0A:
        return 2
    return 0


def _newlines(buffer: NDArray[np.uint8]) -> NDArray[np.int64]:
    """Offsets of the line feeds, piece by piece (the boolean temporary stays small)."""
    found = [
        np.flatnonzero(buffer[at : at + _PIECE] == 0x0A) + at
        for at in range(0, buffer.size, _PIECE)
    ]
    return np.concatenate(found).astype(np.int64) if found else np.zeros(0, dtype=np.int64)


def _copied_rows(
    buffer: NDArray[np.uint8], starts: NDArray[np.int64], regular: NDArray[np.bool_], stride: int
) -> pl.Series:
    """RAW as one chunk copied row by row (regular lines broken into many runs)."""
    rows = np.zeros((starts.size, stride), dtype=np.uint8)
    windows = np.lib.stride_tricks.sliding_window_view(buffer, stride)
    rows[regular] = windows[starts[regular]]
    return pl.Series(RAW, rows.reshape(-1)).reshape((starts.size, stride))


# --- reading the fields of RAW rows ---------------------------------------------------


@dataclass(frozen=True)
class Span:
    """A field's bytes in a regular line: `width` bytes from `start` (0: past the end)."""

    tag: str
    start: int
    width: int


@dataclass(frozen=True)
class FixedPlan:
    """What `read_fixed` reads from rows of `length` bytes plus a line end: `numbers` on
    every row, each of `groups` (numbers blank together) where it is not blank, and the
    short `texts` (at most 16 bytes); `id_tag` names the FIDE ID."""

    length: int
    numbers: tuple[Span, ...]
    groups: tuple[tuple[Span, ...], ...]
    texts: tuple[Span, ...]
    id_tag: str


@dataclass
class FixedFields:
    """What `read_fixed` read, one entry per row of RAW.

    `numbers`: per tag, the value and whether it is blank (the value is then 0);
    `texts`: per tag, an index into its list of stripped strings ("" for a blank);
    `fallback`: the rows for the polars path (module docstring); their values are
    meaningless."""

    numbers: dict[str, tuple[NDArray[np.int64], NDArray[np.bool_]]]
    texts: dict[str, tuple[NDArray[np.uint32], list[str]]]
    fallback: NDArray[np.bool_]


def raw_line_length(raw: pl.Series) -> int | None:
    """Length of the regular lines (line end excluded) in RAW, None when it has none."""
    stride = raw.dtype.shape[0] if isinstance(raw.dtype, pl.Array) else 0
    if stride <= _MIN_LENGTH:
        return None
    for chunk in raw.get_chunks():
        rows = chunk.to_numpy()
        ending = np.flatnonzero(rows[:, stride - 1] == 0x0A)
        if ending.size:
            return stride - (2 if rows[ending[0], stride - 2] == 0x0D else 1)
    return None


def read_fixed(raw: pl.Series, plan: FixedPlan) -> FixedFields:
    """Read the plan's fields on every RAW row (module docstring)."""
    assert isinstance(raw.dtype, pl.Array)
    stride = int(raw.dtype.shape[0])
    height = raw.len()
    grouped = [span for group in plan.groups for span in group]
    end = (plan.length, stride - plan.length)
    pieces = [p for span in [*plan.numbers, *grouped, *plan.texts] for p in _pieces(span)]
    windows = _Windows([end, *pieces], stride)
    numbers = {
        span.tag: (np.empty(height, np.int64), np.empty(height, np.bool_)) for span in plan.numbers
    }
    for span in grouped:
        numbers[span.tag] = (np.zeros(height, np.int64), np.ones(height, np.bool_))
    texts = {span.tag: _TextParts(height) for span in plan.texts}
    fallback = np.empty(height, dtype=np.bool_)
    expected_end = _U64(int.from_bytes(b"\r\n"[2 - end[1] :], "little"))
    loads = np.empty((len(windows.offsets), _OUTER), dtype=np.uint64)
    base = 0
    for chunk in raw.get_chunks():
        rows = np.ascontiguousarray(chunk.to_numpy())
        for at in range(0, rows.shape[0], _OUTER):
            count = min(_OUTER, rows.shape[0] - at)
            block = _Words(windows, windows.load(rows, at, count, loads[:, :count]))
            here = slice(base + at, base + at + count)
            ok = block.word(*end, blank=False) == expected_end
            if _any_high(rows[at : at + count]):  # a character of several bytes
                ok &= rows[at : at + count].max(axis=1) < 0x80
            for span in plan.numbers:
                value, valid, blank = _number(block.words(span))
                numbers[span.tag][0][here] = value
                numbers[span.tag][1][here] = blank
                ok &= valid
                if span.tag == plan.id_tag:
                    ok &= ~blank & (value > 0)
            for group in plan.groups:
                start, stop = group[0].start, group[-1].start + group[-1].width
                if start >= stop:
                    continue  # past the end of the line: blank
                picked = np.flatnonzero(~block.blank(start, stop))
                for span in group:
                    value, valid, blank = _number(block.words(span, picked))
                    numbers[span.tag][0][base + at + picked] = value
                    numbers[span.tag][1][base + at + picked] = blank
                    ok[picked] &= valid
            for span in plan.texts:
                if span.width:
                    nonblank = ~block.blank(span.start, span.start + span.width) & ok
                    found = np.flatnonzero(nonblank)
                    if found.size == count:
                        texts[span.tag].add(block.words(span), here)
                    elif found.size:
                        texts[span.tag].add(block.words(span, found), found + base + at)
            fallback[here] = ~ok
        base += rows.shape[0]
    decoded = {span.tag: texts[span.tag].decoded(span.width) for span in plan.texts}
    return FixedFields(numbers, decoded, fallback)


def _any_high(rows: NDArray[np.uint8]) -> bool:
    """Whether some byte of `rows` (contiguous) is not ASCII, 8 bytes at a time."""
    flat = rows.reshape(-1)
    whole = flat.size - flat.size % 8
    high = np.bitwise_or.reduce(flat[:whole].view(np.uint64)) & _HIGH if whole else 0
    return bool(high) or bool((flat[whole:] >= 0x80).any())


def _pieces(span: Span) -> list[tuple[int, int]]:
    """The span's bytes in pieces of at most 8 (none for a span past the line's end)."""
    return [(span.start + at, min(8, span.width - at)) for at in range(0, span.width, 8)]


class _Windows:
    """The 8-byte loads that cover some pieces of the rows (a field's bytes in pieces of at
    most 8, the line end) with as few loads as possible: a load serves every piece that
    lies inside it. A load that would pass the row's end is moved left to end there."""

    def __init__(self, pieces: list[tuple[int, int]], stride: int) -> None:
        self.stride = stride
        self.offsets: list[int] = []
        self.place: dict[tuple[int, int], tuple[int, int]] = {}
        for start, size in sorted(set(pieces)):
            if not self.offsets or start + size > self.offsets[-1] + 8:
                self.offsets.append(min(start, stride - 8))
            self.place[start, size] = (len(self.offsets) - 1, start - self.offsets[-1])

    def load(
        self, rows: NDArray[np.uint8], at: int, count: int, out: NDArray[np.uint64]
    ) -> NDArray[np.uint64]:
        """The loads (one row each in `out`) of rows `at:at+count` of a (rows, stride) byte
        array, `_INNER` rows at a time."""
        for low in range(0, count, _INNER):
            size = min(_INNER, count - low)
            for index, offset in enumerate(self.offsets):
                view: NDArray[np.uint64] = np.ndarray(
                    shape=(size,),
                    dtype="<u8",
                    buffer=rows,
                    offset=(at + low) * self.stride + offset,
                    strides=(self.stride,),
                )
                out[index, low : low + size] = view
        return out


class _Words:
    """The loads of a block of rows (`_Windows.load`) and the pieces cut from them."""

    def __init__(self, windows: _Windows, loads: NDArray[np.uint64]) -> None:
        self.windows = windows
        self.loads = loads

    def word(
        self, start: int, size: int, blank: bool = True, rows: NDArray[np.int64] | None = None
    ) -> NDArray[np.uint64]:
        """Bytes `start:start+size` of each row (of `rows` only, when given) in the low
        bytes of a new word, the others blanks (zeros when not `blank`)."""
        index, shift = self.windows.place[start, size]
        load: NDArray[np.uint64] = self.loads[index] if rows is None else self.loads[index, rows]
        word: NDArray[np.uint64] = load >> _U64(8 * shift) if shift else load
        if size == 8:
            return word if shift or rows is not None else word.copy()
        keep = _U64((1 << (8 * size)) - 1)
        word = word & keep
        if blank:
            word |= _BLANKS & ~keep
        return word

    def words(self, span: Span, rows: NDArray[np.int64] | None = None) -> list[NDArray[np.uint64]]:
        """The span's pieces as words (`word`); one word of blanks for an empty span."""
        if span.width == 0:
            count = self.loads.shape[1] if rows is None else rows.size
            return [np.full(count, _BLANKS, dtype=np.uint64)]
        return [self.word(start, size, rows=rows) for start, size in _pieces(span)]

    def blank(self, start: int, end: int) -> NDArray[np.bool_]:
        """Whether bytes `start:end` (pieces of this plan) are blank on each row, tested
        on the loads that hold them."""
        blank: NDArray[np.bool_] | None = None
        for index, offset in enumerate(self.windows.offsets):
            low, high = max(start, offset), min(end, offset + 8)
            if low >= high:
                continue
            mask = _U64(((1 << (8 * (high - low))) - 1) << (8 * (low - offset)))
            here = (self.loads[index] & mask) == (_BLANKS & mask)
            blank = here if blank is None else blank & here
        assert blank is not None
        return blank


def _digits(
    word: NDArray[np.uint64],
) -> tuple[NDArray[np.uint64], NDArray[np.uint64], NDArray[np.bool_]]:
    """Value, number of digits and validity of words that should read as digits followed
    by blanks (8 bytes, the first character in the lowest byte); `word` is overwritten.
    Per byte without carries (every byte is ASCII): `nondigit` has bit 7 set on each byte
    that is not a digit; the bytes before the first of them are the digits, and all bytes
    from it on must be blanks. The digits are moved to the top of the word (the last one
    in the highest byte) and combined pairwise: 10a+b per pair, then the four pairs at
    once with two multiplications."""
    digits = word
    digits ^= _ZEROS
    nondigit = digits + _NINE_UP
    nondigit &= _HIGH
    before = np.negative(nondigit)
    before &= nondigit  # bit 7 of the first byte that is not a digit
    before >>= _U64(7)
    before -= _U64(1)  # 0xFF on the bytes before it (on all when every byte is a digit)
    valid = (digits ^ (_ZEROS ^ _BLANKS)) <= before  # (the word ^ blanks) is 0 from it on
    shift = nondigit
    shift >>= _U64(4)
    shift *= _ONES
    shift >>= _U64(56)  # 8 bits per byte that is not a digit
    value = digits
    value &= before
    value <<= shift
    pairs = value >> _U64(8)
    value *= _U64(10)
    value += pairs
    pairs = value >> _U64(16)
    pairs &= _PAIRS
    pairs *= _MUL_B
    value &= _PAIRS
    value *= _MUL_A
    value += pairs
    value >>= _U64(32)
    shift >>= _U64(3)
    return value, _U64(8) - shift, valid


def _number(
    words: list[NDArray[np.uint64]],
) -> tuple[NDArray[np.int64], NDArray[np.bool_], NDArray[np.bool_]]:
    """Value, validity and blankness of a number field given as words (`_digits`): its
    digits must run from the first byte, through full words, and blanks follow; at most
    18 digits (an Int64 without overflow). A later word is read only where it is not
    blank (the second word of a FIDE ID mostly is)."""
    value, count, valid = _digits(words[0])
    full = count == 8
    for word in words[1:]:
        rows = np.flatnonzero(word != _BLANKS)
        if not rows.size:
            continue
        more, digits, more_valid = _digits(word[rows])
        valid[rows] &= more_valid & full[rows]
        value[rows] = value[rows] * _POW10[digits] + more
        full[rows] &= digits == 8
        count[rows] += digits
    if len(words) > 2:
        valid &= count <= 18
    return value.view(np.int64), valid, count == 0


class _TextParts:
    """A short text field of RAW's rows: a value of at most three characters by a 21-bit
    key of its bytes (blank-xored, 7 bits each: small keys for short values, 0 for a blank
    and the rows not given), a longer value by its words."""

    def __init__(self, height: int) -> None:
        self.keys = np.zeros(height, dtype=np.int32)
        self.long_rows: list[NDArray[np.int64]] = []
        self.long_words: list[NDArray[np.uint64]] = []

    def add(self, words: list[NDArray[np.uint64]], rows: NDArray[np.int64] | slice) -> None:
        """The field's `words` on some `rows`."""
        head = words[0] ^ _BLANKS
        fits = head < _U64(1 << 24)
        for word in words[1:]:
            fits &= word == _BLANKS
        key = head & _U64(0x7F)
        key |= (head >> _U64(1)) & _U64(0x3F80)
        key |= (head >> _U64(2)) & _U64(0x1FC000)
        self.keys[rows] = key
        if not fits.all():
            where = np.flatnonzero(~fits) + rows.start if isinstance(rows, slice) else rows[~fits]
            self.keys[where] = 0
            self.long_rows.append(where)
            self.long_words.append(np.stack([word[~fits] for word in words], 1))

    def decoded(self, width: int) -> tuple[NDArray[np.uint32], list[str]]:
        """Per row an index into a list of stripped strings, and the list (a field blank
        on most rows is looked at on the others only)."""
        filled = np.flatnonzero(self.keys)
        if filled.size < self.keys.size // 8:
            distinct, inverse = _distinct(self.keys[filled])
            positions = np.zeros(self.keys.size, dtype=np.uint32)
            positions[filled] = inverse + 1
            distinct = np.concatenate(([0], distinct))
        else:
            distinct, positions = _distinct(self.keys)
        strings = []
        for key in distinct.tolist():
            raw = bytes((key & 0x7F, (key >> 7) & 0x7F, key >> 14))
            strings.append(bytes(b ^ 0x20 for b in raw).decode("ascii").strip(" "))
        if self.long_rows:
            words = np.ascontiguousarray(np.concatenate(self.long_words))
            values = words.view(np.dtype((np.void, 8 * words.shape[1]))).ravel()
            distinct_words, places = np.unique(values, return_inverse=True)
            positions[np.concatenate(self.long_rows)] = len(strings) + places.astype(np.uint32)
            strings += [
                bytes(v)[:width].decode("ascii").strip(" ") for v in distinct_words.tolist()
            ]
        return positions, strings


def _distinct(keys: NDArray[np.int32]) -> tuple[NDArray[np.int64], NDArray[np.uint32]]:
    """The distinct keys, ascending, and each key's position among them: by a sort for a
    few keys, else through a table with a place per possible key (marked where a key
    occurs, then numbered)."""
    if keys.size < _SORT_BELOW:
        sorted_keys, inverse = np.unique(keys, return_inverse=True)
        return sorted_keys.astype(np.int64), inverse.astype(np.uint32)
    table = np.zeros(int(keys.max()) + 1, dtype=np.uint32)
    table[keys] = 1
    present = np.flatnonzero(table)
    table[present] = np.arange(present.size, dtype=np.uint32)
    return present.astype(np.int64), table[keys]
