"""The lines of a TXT rating list split with numpy: RAW, the regular lines as rows of bytes.

For a whole read, rating_list.txt does not read every line as a polars string: the lines of
the file's most common size ("regular" lines) are left as bytes, for rating_list.fixed to
read their fields, and only the others are read as text (`read_txt_lines`).

- `regular_lines` finds the line feeds with numpy (piece by piece, in a few threads, with
  the bytes that are not ASCII) and splits the lines as polars' line read does: at each
  line feed, a CR before it being part of the line end; nothing after a last line feed is
  a line; a first line starting with a BOM starts after it. A line is regular when it has
  the most common size (its bytes with its line end), ends with a line feed, holds only
  ASCII bytes (characters are bytes, and it reads the same in whichever encoding
  rating_list.txt decodes the file with), and is not the first (the header). Most lines
  after the first must be regular, else every line is read as text.
- RAW, a fixed-size UInt8 array column with a row per line, holds each regular line's
  bytes with its line end: zero-copy views of the file's bytes (a file is mapped,
  `map_file`), one chunk per run of regular lines (copied into one chunk when the runs
  are many); the other rows hold zeros. The other lines' bytes are handed back, one after
  the other, for polars to read as text.
- A regular line's line end is looked at by `read_fixed`, row by row: the layout's is the
  kind most regular lines have (`raw_line_length`: a CR before the line feed or not), and
  a row with the other kind is left to the polars path, which reads its TEXT from its
  bytes (`row_bytes`) like any regular line it gets.
"""

from __future__ import annotations

import mmap
import os
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from pipeline.formats.rating_list.txt import RAW

if TYPE_CHECKING:
    from numpy.typing import NDArray

    Buffer = bytes | mmap.mmap

THREADS = min(os.cpu_count() or 1, 4)  # for numpy, whose large operations release the GIL

_MIN_SIZE = 8  # a regular line is longer than one 8-byte load (its line end included)
_MAX_SIZE = 1 << 12  # and is shorter than this (longer sizes are counted as one)
_MAX_RUNS = 512  # more runs of regular lines than this: RAW is copied into one chunk
_BOM = b"\xef\xbb\xbf"
_PIECE = 1 << 24  # bytes scanned at once for line feeds
_SAMPLE = 4096  # lines looked at for the most common size and line end
_HIGH = np.uint64(0x8080808080808080)


def map_file(path: Path) -> mmap.mmap:
    """The file's bytes, mapped read-only (no copy; pages are read as they are touched).
    The mapping lives as long as the arrays viewing it."""
    with path.open("rb") as handle:
        return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)


@dataclass(frozen=True)
class RegularLines:
    """The lines of a buffer (`regular_lines`): RAW, one row per line, and the others."""

    raw: pl.Series
    others: NDArray[np.int64]  # positions of the lines RAW does not hold, the first among them
    other_bytes: bytes  # their bytes with their line ends, in order (the first line's BOM too)


def regular_lines(data: Buffer, absent: bytes) -> RegularLines | None:
    """RAW and the other lines of `data` (module docstring), or None when fewer than half
    of the lines after the first are regular, or the byte `absent` occurs (rating_list.txt's
    separator: the polars read of every line decides then). The rows are views of `data`:
    it lives as long as RAW."""
    buffer = np.frombuffer(data, dtype=np.uint8)
    scanned = _scan(data, buffer, absent)
    if scanned is None:
        return None
    starts, high = scanned
    if starts[-1] >= buffer.size:
        starts = starts[:-1]
    if starts.size < 2:
        return None
    if buffer[: len(_BOM)].tobytes() == _BOM:
        starts[0] = len(_BOM)
    sizes = np.empty_like(starts)
    np.subtract(starts[1:], starts[:-1], out=sizes[:-1])
    sizes[-1] = buffer.size - starts[-1]
    stride = _most_common(sizes[1:])
    regular = sizes == stride
    if not _MIN_SIZE < stride < _MAX_SIZE or 2 * int(regular[1:].sum()) < starts.size - 1:
        return None
    regular[0] = False  # the header is read as text
    regular[-1] &= bool(buffer[-1] == 0x0A)  # a last line without a line feed is not
    regular[np.maximum(np.searchsorted(starts, high, side="right") - 1, 0)] = False
    if 2 * int(regular.sum()) < starts.size - 1:
        return None
    raw = _raw_rows(buffer, starts, regular, stride)
    return RegularLines(raw, np.flatnonzero(~regular), _other_bytes(data, starts, regular))


def _most_common(sizes: NDArray[np.int64]) -> int:
    """The most common of some thousand sizes spread over `sizes` (a size that most lines
    have is all but surely among them)."""
    sample = sizes[:: max(sizes.size // _SAMPLE, 1)]
    return int(np.bincount(np.minimum(sample, _MAX_SIZE)).argmax())


def _scan(
    data: Buffer, buffer: NDArray[np.uint8], absent: bytes
) -> tuple[NDArray[np.int64], NDArray[np.int64]] | None:
    """Where each line starts (0, and after each line feed) and the offsets of the bytes
    that are not ASCII, None when `absent` occurs: piece by piece (the boolean
    temporaries stay small) in a few threads."""
    scan = partial(_scan_piece, data, buffer, absent)
    with ThreadPoolExecutor(THREADS) as pool:
        found = list(pool.map(scan, range(0, buffer.size, _PIECE)))
    pieces = [piece for piece in found if piece is not None]
    if len(pieces) < len(found):
        return None
    return (
        np.concatenate([np.zeros(1, dtype=np.int64), *(starts for starts, _ in pieces)]),
        np.concatenate([np.zeros(0, dtype=np.int64), *(high for _, high in pieces)]),
    )


def _scan_piece(
    data: Buffer, buffer: NDArray[np.uint8], absent: bytes, at: int
) -> tuple[NDArray[np.int64], NDArray[np.int64]] | None:
    """`_scan` of the piece at `at` (the search for `absent` holds the GIL, numpy not):
    the starts of the lines after its line feeds, its bytes that are not ASCII."""
    if data.find(absent, at, at + _PIECE) >= 0:
        return None
    piece = buffer[at : at + _PIECE]
    high = np.flatnonzero(piece >= 0x80) if _any_high(piece) else np.zeros(0, dtype=np.int64)
    starts = np.flatnonzero(piece == 0x0A)
    starts += at + 1
    high += at
    return starts, high


def _any_high(flat: NDArray[np.uint8]) -> bool:
    """Whether some byte of `flat` (contiguous) is not ASCII, 8 bytes at a time."""
    whole = flat.size - flat.size % 8
    high = np.bitwise_or.reduce(flat[:whole].view(np.uint64)) & _HIGH if whole else 0
    return bool(high) or bool((flat[whole:] >= 0x80).any())


def _raw_rows(
    buffer: NDArray[np.uint8], starts: NDArray[np.int64], regular: NDArray[np.bool_], stride: int
) -> pl.Series:
    """RAW: a chunk viewing `buffer` per run of regular lines, zeros for the others (one
    copied chunk when the runs are many)."""
    count = starts.size
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


def _copied_rows(
    buffer: NDArray[np.uint8], starts: NDArray[np.int64], regular: NDArray[np.bool_], stride: int
) -> pl.Series:
    """RAW as one chunk copied row by row (regular lines broken into many runs)."""
    rows = np.zeros((starts.size, stride), dtype=np.uint8)
    windows = np.lib.stride_tricks.sliding_window_view(buffer, stride)
    rows[regular] = windows[starts[regular]]
    return pl.Series(RAW, rows.reshape(-1)).reshape((starts.size, stride))


def _other_bytes(data: Buffer, starts: NDArray[np.int64], regular: NDArray[np.bool_]) -> bytes:
    """The bytes of the lines that are not regular, run by run (a run's lines are next to
    each other in `data`); the first line's from the start of `data`."""
    change = np.flatnonzero(regular[1:] != regular[:-1]) + 1
    lows = np.concatenate(([0], change[~regular[change]]))  # the first line is not regular
    highs = change[regular[change]]
    ends = starts[highs].tolist() + ([] if regular[-1] else [len(data)])
    begins = [0, *starts[lows[1:]].tolist()]
    view = memoryview(data)
    return b"".join(view[low:high] for low, high in zip(begins, ends, strict=True))


def regular_rows(raw: pl.Series, rows: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Whether each of some rows of RAW (positions, ascending) holds a line (the others
    hold zeros)."""
    return np.concatenate(
        [np.zeros(0, dtype=np.bool_), *(part[:, -1] == 0x0A for part in _rows_of(raw, rows))]
    )


def _rows_of(raw: pl.Series, rows: NDArray[np.int64]) -> Iterator[NDArray[np.uint8]]:
    """Some rows of RAW (positions, ascending) as arrays of bytes, chunk by chunk."""
    base = 0
    for chunk in raw.get_chunks():
        low, high = np.searchsorted(rows, [base, base + chunk.len()])
        if high > low:
            yield chunk.to_numpy()[rows[low:high] - base]
        base += chunk.len()


def row_bytes(raw: pl.Series, rows: NDArray[np.int64]) -> bytes:
    """The bytes of some rows of RAW (positions, ascending), one after the other."""
    return b"".join(part.tobytes() for part in _rows_of(raw, rows))


def raw_line_length(raw: pl.Series) -> int | None:
    """Length of the regular lines in RAW: their size less the line end most of some
    thousand of them have, spread over RAW (a CR and a line feed, or a line feed; a row
    with the other is left to the polars path); None when it has none."""
    stride = raw.dtype.shape[0] if isinstance(raw.dtype, pl.Array) else 0
    if stride <= _MIN_SIZE:
        return None
    step = max(raw.len() // _SAMPLE, 1)
    ends = np.concatenate([chunk.to_numpy()[::step, -2:] for chunk in raw.get_chunks()])
    fed = ends[:, 1] == 0x0A
    if not fed.any():
        return None
    crlf = int((fed & (ends[:, 0] == 0x0D)).sum())
    return int(stride) - (2 if 2 * crlf > int(fed.sum()) else 1)
