"""Atomic file writes: a report is either the complete new file or the previous one.

Every writer goes through a temporary file in the destination folder (same file system, so
`os.replace` is atomic), flushed and fsynced before it replaces the target. When the writer
raises -- or the process is interrupted -- the temporary file is removed and the target is
untouched. A hard kill can leave a hidden `.NAME.*.tmp` file behind, never a half-written
target.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO

_CREATE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)


def temp_path_for(path: Path) -> Path:
    """A fresh hidden name beside `path` (`.report.xlsx.3f9a1c2b.tmp`)."""
    return path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")


def _create_temp(path: Path) -> tuple[Path, int]:
    while True:
        tmp = temp_path_for(path)
        try:
            # 0o666 filtered by the umask: the final file gets the usual permissions,
            # unlike tempfile.mkstemp's 0o600.
            return tmp, os.open(tmp, _CREATE_FLAGS, 0o666)
        except FileExistsError:
            continue


def _fsync_dir(folder: Path) -> None:
    """Make the rename durable (POSIX); folders cannot be opened on Windows."""
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _discard(tmp: Path) -> None:
    with suppress(FileNotFoundError):
        tmp.unlink()


@contextmanager
def atomic_open(path: Path) -> Iterator[BinaryIO]:
    """Open a binary stream whose content becomes `path` when the block ends normally."""
    path = Path(path)
    tmp, fd = _create_temp(path)
    try:
        with os.fdopen(fd, "wb") as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(tmp, path)
    except BaseException:
        # Clean up, then let the error (or KeyboardInterrupt) travel on unchanged.
        _discard(tmp)
        raise
    _fsync_dir(path.parent)


@contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """Yield a temporary path for writers that want a file name; it replaces `path` when
    the block ends normally and is removed otherwise."""
    path = Path(path)
    tmp, fd = _create_temp(path)
    os.close(fd)
    try:
        yield tmp
        fd = os.open(tmp, os.O_RDONLY | getattr(os, "O_BINARY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        _discard(tmp)
        raise
    _fsync_dir(path.parent)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    with atomic_open(path) as stream:
        stream.write(data)


def atomic_write_text(path: Path, text: str, encoding: str = "utf-8") -> None:
    """Text is written as given: newlines are not translated, so files are identical on
    every platform."""
    atomic_write_bytes(path, text.encode(encoding))
