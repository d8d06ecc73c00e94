"""The fast path of the TXT rating-list reader: the fields of the regular lines read with
numpy.

Nearly every line of a FIDE list has the same length, and then every field sits at its
header offset. For those lines rating_list.txt's polars path (the reference, which handles
every line) spends some 50-90 ns per field and line on a string slice, a strip and a cast;
`read_fixed` reads the same fields from the lines' bytes instead (RAW, rating_list.raw), a
few numpy operations per field and block of rows.

- The rows go by blocks of _OUTER, handed to a few threads as they are free (numpy works
  without the GIL; each block writes its own rows of the results). The bytes a plan needs
  are covered by as few 8-byte loads per row as possible (`_Windows`: strided views of
  the rows, copied a few thousand rows at a time while they are in the CPU cache); each
  field is cut from them with a shift and a mask.
- A number must be digits followed by blanks, or all blanks (null): per byte, digit or
  not, with carry-free word arithmetic, then the digits are aligned and combined with
  three multiplications (SWAR); a FIDE ID takes two words. A group of numbers that are
  blank together on most lines (each list's rating, games and K) is tested blank on the
  loads, and its numbers are read on the other rows only.
- A short text field (Fed, Sex, the titles, Flag) is keyed by its first three bytes (by
  all of its bytes when it is longer), on a block's non-blank rows only when the last
  block read had few, and the distinct keys are decoded once. A longer one (the name) is
  measured: the length of its value without the trailing blanks, by the same word
  arithmetic; polars then copies the values out of the rows' bytes (`bin.slice`), block
  by block.
- A row is left to the polars path (`FixedFields.fallback`) when it does not end with the
  layout's line end (a row of zeros for a line that is not regular, or a regular line with
  the other kind of line end), or any of its numbers is anything but the two forms above
  (a sign, an inner or leading blank, more than 18 digits), or its FIDE ID is blank or 0,
  or a long text starts with a blank. Every value `convert_fields` would report is such a
  case, so the problems of a file are found, and reported, on the polars path, which also
  reads the over-long lines.

rating_list.fast types everything with `typed_columns` (the zero-is-null and blank-is-null
rules stay where they are defined).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from pipeline.formats.rating_list.raw import THREADS

if TYPE_CHECKING:
    from numpy.typing import NDArray

_OUTER = 65_536  # rows whose words are combined at once (few numpy calls per row)
_INNER = 8_192  # rows loaded at once (their bytes stay in the CPU cache between loads)
_SORT_BELOW = 1 << 16  # fewer keys than this: the distinct ones are found by sorting

_U64 = np.uint64
_ZEROS = _U64(0x3030303030303030)  # b"00000000"
_BLANKS = _U64(0x2020202020202020)  # b"        "
_NINE_UP = _U64(0x7676767676767676)  # + (0x80 - 10): bit 7 set on bytes of 10 or more
_LOW = _U64(0x7F7F7F7F7F7F7F7F)
_HIGH = _U64(0x8080808080808080)
_ONES = _U64(0x0101010101010101)
_PAIRS = _U64(0x000000FF000000FF)
_MUL_A = _U64(100 + (1_000_000 << 32))
_MUL_B = _U64(1 + (10_000 << 32))
_POW10 = np.array([10**k for k in range(9)], dtype=np.uint64)


@dataclass(frozen=True)
class Span:
    """A field's bytes in a regular line: `width` bytes from `start` (0: past the end)."""

    tag: str
    start: int
    width: int


@dataclass(frozen=True)
class FixedPlan:
    """What `read_fixed` reads from rows of `length` bytes plus a line end: `numbers` on
    every row, each of `groups` (numbers blank together) where it is not blank, the short
    `texts` (at most 16 bytes) and the `long_texts`; `id_tag` names the FIDE ID."""

    length: int
    numbers: tuple[Span, ...]
    groups: tuple[tuple[Span, ...], ...]
    texts: tuple[Span, ...]
    long_texts: tuple[Span, ...]
    id_tag: str


@dataclass
class FixedFields:
    """What `read_fixed` read, one entry per row of RAW.

    `numbers`: per tag, the value and whether it is blank (the value is then 0);
    `texts`: per tag, an index into its list of stripped strings ("" for a blank);
    `long_texts`: per tag, the stripped strings ("" for a blank);
    `fallback`: the rows for the polars path (module docstring); their values are
    meaningless. The strings are still being made (futures)."""

    numbers: dict[str, tuple[NDArray[np.int64], NDArray[np.bool_]]]
    texts: dict[str, Future[tuple[NDArray[np.uint32], list[str]]]]
    long_texts: dict[str, Future[pl.Series]]
    fallback: NDArray[np.bool_]


@contextmanager
def read_fixed(raw: pl.Series, plan: FixedPlan) -> Iterator[FixedFields]:
    """Read the plan's fields on every RAW row (module docstring): the blocks of rows go
    to the threads one at a time as they are free. The fields are given once the blocks
    are read; the threads go on making the strings meanwhile (the short texts decoded,
    the long texts' blocks joined), until the caller is done."""
    reader = _Reader(raw, plan)
    with ThreadPoolExecutor(THREADS) as pool:
        parts = list(pool.map(reader.read_block, _blocks(raw)))
        long_texts = {
            span.tag: pool.submit(pl.concat, [part[span.tag] for part in parts], rechunk=True)
            for span in plan.long_texts
        }
        texts = {span.tag: pool.submit(reader.decoded, span) for span in plan.texts}
        yield FixedFields(reader.numbers, texts, long_texts, reader.fallback)


@dataclass(frozen=True)
class _Block:
    """Rows `first:first + count` of RAW, as the parts of its chunks that hold them."""

    first: int
    count: int
    parts: list[NDArray[np.uint8]]


def _blocks(raw: pl.Series) -> list[_Block]:
    """RAW's rows in blocks of _OUTER rows (the last one shorter), across its chunks."""
    chunks = [np.ascontiguousarray(chunk.to_numpy()) for chunk in raw.get_chunks()]
    bounds = np.cumsum([0, *(chunk.shape[0] for chunk in chunks)]).tolist()
    blocks: list[_Block] = []
    for first in range(0, raw.len(), _OUTER):
        last = min(first + _OUTER, raw.len())
        parts = [
            chunk[max(first - low, 0) : last - low]
            for chunk, low, high in zip(chunks, bounds[:-1], bounds[1:], strict=True)
            if low < last and high > first
        ]
        blocks.append(_Block(first, last - first, parts))
    return blocks


class _Reader:
    """The results of `read_fixed`, filled block by block (each block its own rows)."""

    def __init__(self, raw: pl.Series, plan: FixedPlan) -> None:
        assert isinstance(raw.dtype, pl.Array)
        stride, height = int(raw.dtype.shape[0]), raw.len()
        self.raw = raw
        self.plan = plan
        # the line end, and for a line feed alone the byte before it (not a CR: polars would
        # take it for a part of the line end)
        self.end = (stride - 2, 2)
        self.crlf = stride - plan.length == 2
        grouped = [span for group in plan.groups for span in group]
        spans = [*plan.numbers, *grouped, *plan.texts, *plan.long_texts]
        self.windows = _Windows([self.end, *(p for span in spans for p in _pieces(span))], stride)
        # filled by the threads, block by block (their memory is touched there, not here)
        self.numbers = {
            span.tag: (np.empty(height, np.int64), np.empty(height, np.bool_))
            for span in (*plan.numbers, *grouped)
        }
        self.texts = {span.tag: _TextParts(height) for span in plan.texts}
        self.fallback = np.empty(height, dtype=np.bool_)
        self.scratch = threading.local()

    def read_block(self, block: _Block) -> dict[str, pl.Series]:
        """Read a block's fields (`_read_block`), with its thread's buffer of loads; its
        long texts as strings (made block by block, their buffers stay small)."""
        loads = getattr(self.scratch, "loads", None)
        if loads is None:
            loads = np.empty((len(self.windows.offsets), _OUTER), dtype=np.uint64)
            self.scratch.loads = loads
        lengths = self._read_block(block, loads)
        part = self.raw.slice(block.first, block.count)
        return {
            span.tag: _long_text(part, span, lengths[span.tag]) for span in self.plan.long_texts
        }

    def decoded(self, span: Span) -> tuple[NDArray[np.uint32], list[str]]:
        return self.texts[span.tag].decoded(span.width)

    def _read_group(
        self, words: _Words, group: tuple[Span, ...], first: int, ok: NDArray[np.bool_]
    ) -> None:
        """The numbers of a group on the rows of a block (`words`) where the group is not
        blank (the others are 0, blank)."""
        for span in group:
            self.numbers[span.tag][0][first : first + words.count] = 0
            self.numbers[span.tag][1][first : first + words.count] = True
        start, stop = group[0].start, group[-1].start + group[-1].width
        if start >= stop:
            return  # past the end of the line: blank
        picked = np.flatnonzero(~words.blank(start, stop))
        filled = words.on(picked, group)
        at = picked + first
        valid = np.ones(picked.size, dtype=np.bool_)
        for span in group:
            value, readable, blank = _number(filled.words(span))
            self.numbers[span.tag][0][at] = value
            self.numbers[span.tag][1][at] = blank
            valid &= readable
        ok[picked] &= valid

    def _read_text(self, words: _Words, span: Span, first: int, ok: NDArray[np.bool_]) -> None:
        """A short text field of a block's rows (`words`), on its rows that are not blank
        and not left to the polars path (`ok`): on all of them (a blank is keyed 0 anyway,
        and the others are keyed 0 by `ok`) while the field was filled on more than a
        quarter of the rows of the last block read, else on those picked out."""
        parts = self.texts[span.tag]
        here = slice(first, first + words.count)
        if parts.dense:
            parts.add(words.words(span), here, ok)
            parts.dense = 4 * int(np.count_nonzero(parts.keys[here])) > words.count
            return
        filled = ~words.blank(span.start, span.start + span.width) & ok
        count = np.count_nonzero(filled)
        parts.dense = 4 * int(count) > words.count
        if parts.dense:
            parts.add(words.words(span), here, ok)
        elif count:
            rows = np.flatnonzero(filled)
            parts.add(words.words(span, rows), rows + first)

    def _read_block(
        self, block: _Block, loads: NDArray[np.uint64]
    ) -> dict[str, NDArray[np.uint64]]:
        """Read the fields of a block of rows: into the results, but for the lengths of
        the long texts' values, returned."""
        plan = self.plan
        first, count = block.first, block.count
        words = _Words(self.windows, self.windows.load(block.parts, loads[:, :count]), count)
        here = slice(first, first + count)
        ok = _line_ended(words.word(*self.end, blank=False), self.crlf)
        for span in plan.numbers:
            value, valid, blank = _number(words.words(span))
            self.numbers[span.tag][0][here] = value
            self.numbers[span.tag][1][here] = blank
            ok &= valid
            if span.tag == plan.id_tag:
                ok &= ~blank & (value > 0)
        for group in plan.groups:
            self._read_group(words, group, first, ok)
        lengths = {}
        for span in plan.long_texts:
            lengths[span.tag], readable = _text_length(words.words(span, scratch=False))
            ok &= readable
        for span in plan.texts:
            if span.width:
                self._read_text(words, span, first, ok)
        self.fallback[here] = ~ok
        return lengths


def _line_ended(end: NDArray[np.uint64], crlf: bool) -> NDArray[np.bool_]:
    """Whether the last two bytes of rows (`end`, in the low bytes) are a CR and a line
    feed, or else a line feed after a byte that is not a CR."""
    if crlf:
        ended: NDArray[np.bool_] = end == _U64(0x0A0D)
        return ended
    fed: NDArray[np.bool_] = (end >> _U64(8)) == _U64(0x0A)
    fed &= (end & _U64(0xFF)) != _U64(0x0D)
    return fed


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

    def load(self, parts: list[NDArray[np.uint8]], out: NDArray[np.uint64]) -> NDArray[np.uint64]:
        """The loads (one row each in `out`) of the rows of (rows, stride) byte arrays one
        after the other, `_INNER` rows at a time."""
        done = 0
        for rows in parts:
            for low in range(0, rows.shape[0], _INNER):
                size = min(_INNER, rows.shape[0] - low)
                for index, offset in enumerate(self.offsets):
                    view: NDArray[np.uint64] = np.ndarray(
                        shape=(size,),
                        dtype="<u8",
                        buffer=rows,
                        offset=low * self.stride + offset,
                        strides=(self.stride,),
                    )
                    out[index, done : done + size] = view
                done += size
        return out


class _Words:
    """The loads of a block of rows (`_Windows.load`: one row of `loads` per load, or a
    mapping of some of them) and the pieces cut from them."""

    def __init__(
        self,
        windows: _Windows,
        loads: NDArray[np.uint64] | dict[int, NDArray[np.uint64]],
        count: int,
    ) -> None:
        self.windows = windows
        self.loads = loads
        self.count = count

    def on(self, rows: NDArray[np.int64], spans: tuple[Span, ...]) -> _Words:
        """The words of some rows only, with the loads that hold `spans` (picked once)."""
        places = {self.windows.place[piece][0] for span in spans for piece in _pieces(span)}
        return _Words(self.windows, {index: self.loads[index][rows] for index in places}, rows.size)

    def word(
        self,
        start: int,
        size: int,
        blank: bool = True,
        rows: NDArray[np.int64] | None = None,
        scratch: bool = True,
    ) -> NDArray[np.uint64]:
        """Bytes `start:start+size` of each row (of `rows` only, when given) in the low
        bytes of a word, the others blanks (zeros when not `blank`); a new word that may be
        overwritten unless not `scratch` (then it may be a view of the loads)."""
        index, shift = self.windows.place[start, size]
        load = self.loads[index] if rows is None else self.loads[index][rows]
        word: NDArray[np.uint64] = load >> _U64(8 * shift) if shift else load
        if size == 8:
            return word if shift or rows is not None or not scratch else word.copy()
        keep = _U64((1 << (8 * size)) - 1)
        word = word & keep
        if blank:
            word |= _BLANKS & ~keep
        return word

    def words(
        self, span: Span, rows: NDArray[np.int64] | None = None, scratch: bool = True
    ) -> list[NDArray[np.uint64]]:
        """The span's pieces as words (`word`); one word of blanks for an empty span."""
        if span.width == 0:
            return [np.full(self.count if rows is None else rows.size, _BLANKS, dtype=np.uint64)]
        return [self.word(start, size, rows=rows, scratch=scratch) for start, size in _pieces(span)]

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


def _text_length(
    words: list[NDArray[np.uint64]],
) -> tuple[NDArray[np.uint64], NDArray[np.bool_]]:
    """The length of a text field's value without its trailing blanks (from its words),
    and whether it does not start with a blank (the polars path strips leading blanks
    too; such a rare value is left to it): counted in the last word that holds a
    non-blank (`_bytes_to_last`), found word by word."""
    last = np.zeros(words[0].size, dtype=np.uint64)
    last_word = np.full(words[0].size, _BLANKS, dtype=np.uint64)
    for index, word in enumerate(words):
        nonblank = word != _BLANKS
        last = np.where(nonblank, _U64(index), last)
        last_word = np.where(nonblank, word, last_word)
    length = _bytes_to_last(last_word)  # 0 for a blank value (last is 0)
    last <<= _U64(3)
    length += last
    return length, ((words[0] & _U64(0xFF)) != _U64(0x20)) | (length == 0)


def _bytes_to_last(word: NDArray[np.uint64]) -> NDArray[np.uint64]:
    """The number of bytes up to the last one that is not a blank in each word (0 for a
    blank word). Per byte, without carries: bit 7 is set on the bytes that are not
    blanks, then on every byte before them too, and those are counted by a
    multiplication."""
    flipped = word ^ _BLANKS
    upto = ((flipped & _LOW) + _LOW) | flipped
    upto &= _HIGH
    upto |= upto >> _U64(8)
    upto |= upto >> _U64(16)
    upto |= upto >> _U64(32)
    upto >>= _U64(7)
    upto *= _ONES
    upto >>= _U64(56)
    return upto


def _long_text(rows: pl.Series, span: Span, lengths: NDArray[np.uint64]) -> pl.Series:
    """A long text field of some RAW rows as strings: each row's bytes as polars binary
    (views of RAW), then the value's bytes copied out of them (ASCII on every row that is
    kept)."""
    binary = rows.cast(pl.List(pl.UInt8)).cast(pl.Binary).alias(span.tag)
    frame = pl.DataFrame([binary, pl.Series("length", lengths)])
    value = pl.col(span.tag).bin.slice(span.start, pl.col("length")).cast(pl.String)
    return frame.select(value).to_series()


class _TextParts:
    """A short text field of RAW's rows: a value of at most three characters by a 21-bit
    key of its bytes (blank-xored, 7 bits each: small keys for short values, 0 for a blank
    and the rows not given), a longer value by its words (blocks of rows may add theirs
    in any order, from several threads)."""

    def __init__(self, height: int) -> None:
        self.keys = np.zeros(height, dtype=np.int32)
        self.longer: list[tuple[NDArray[np.int64], NDArray[np.uint64]]] = []  # rows, words
        self.dense = False  # how the next block is read (_Reader._read_text): either is right

    def add(
        self,
        words: list[NDArray[np.uint64]],
        rows: NDArray[np.int64] | slice,
        kept: NDArray[np.bool_] | None = None,
    ) -> None:
        """The field's `words` on some `rows` (where `kept`, when given)."""
        head = words[0] ^ _BLANKS
        fits = head < _U64(1 << 24)
        for word in words[1:]:
            fits &= word == _BLANKS
        key = head & _U64(0x7F)
        key |= (head >> _U64(1)) & _U64(0x3F80)
        key |= (head >> _U64(2)) & _U64(0x1FC000)
        if kept is not None:
            key *= kept
            fits |= ~kept
        self.keys[rows] = key
        if not fits.all():
            where = np.flatnonzero(~fits) + rows.start if isinstance(rows, slice) else rows[~fits]
            self.keys[where] = 0
            self.longer.append((where, np.stack([word[~fits] for word in words], 1)))

    def decoded(self, width: int) -> tuple[NDArray[np.uint32], list[str]]:
        """Per row an index into a list of stripped strings, and the list (a field blank
        on most rows is looked at on the others only). The indexes take the place of the
        keys."""
        positions = self.keys.view(np.uint32)
        if np.count_nonzero(positions) < positions.size // 8:
            filled = np.flatnonzero(positions)
            distinct, inverse = _distinct(positions[filled])
            positions[filled] = inverse + 1  # the others are 0: the blank
            distinct = np.concatenate(([0], distinct))
        else:
            distinct = _numbered(positions)
        strings = []
        for key in distinct.tolist():
            raw = bytes((key & 0x7F, (key >> 7) & 0x7F, key >> 14))
            strings.append(bytes(b ^ 0x20 for b in raw).decode("ascii").strip(" "))
        if self.longer:
            words = np.ascontiguousarray(np.concatenate([words for _, words in self.longer]))
            values = words.view(np.dtype((np.void, 8 * words.shape[1]))).ravel()
            distinct_words, places = np.unique(values, return_inverse=True)
            rows = np.concatenate([rows for rows, _ in self.longer])
            positions[rows] = len(strings) + places.astype(np.uint32)
            strings += [
                bytes(v)[:width].decode("ascii").strip(" ") for v in distinct_words.tolist()
            ]
        return positions, strings


def _distinct(keys: NDArray[np.uint32]) -> tuple[NDArray[np.int64], NDArray[np.uint32]]:
    """The distinct keys, ascending, and each key's position among them (`keys` is
    overwritten): by a sort for a few keys, else `_numbered`."""
    if keys.size >= _SORT_BELOW:
        return _numbered(keys), keys
    sorted_keys, inverse = np.unique(keys, return_inverse=True)
    return sorted_keys.astype(np.int64), inverse.astype(np.uint32)


def _numbered(keys: NDArray[np.uint32]) -> NDArray[np.int64]:
    """The distinct keys, ascending, each key replaced by its position among them:
    through a table with a place per possible key (marked where a key occurs, then
    numbered), a block of keys at a time."""
    table = np.zeros(int(keys.max()) + 1, dtype=np.uint32)
    table[keys] = 1
    present = np.flatnonzero(table)
    table[present] = np.arange(present.size, dtype=np.uint32)
    for low in range(0, keys.size, _OUTER):
        keys[low : low + _OUTER] = table[keys[low : low + _OUTER]]
    return present
