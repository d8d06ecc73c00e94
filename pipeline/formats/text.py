"""Bytes to text for every text format: UTF-8 (with or without BOM), else Windows-1252;
and a file's bytes or text read with one message when the machine refuses the read."""

from __future__ import annotations

from pathlib import Path

from pipeline.errors import InputError


def read_file_bytes(path: Path) -> bytes:
    """The file's bytes; an unreadable file is an ``unreadable-file`` `InputError`."""
    try:
        return path.read_bytes()
    except OSError as exc:
        raise InputError.single(
            str(path),
            None,
            None,
            "unreadable-file",
            f"expected a readable file, got {exc.strerror}",
        ) from None


def read_file_text(path: Path) -> str:
    """The file's text (`decode_bytes`); an unreadable file is an `InputError`."""
    return decode_bytes(read_file_bytes(path))


def decode_bytes(data: bytes) -> str:
    """Decode a file's bytes the way pairing programs write them.

    Swiss-Manager and Vega write UTF-8 or Windows-1252 (Latin-1 in practice); a UTF-8 BOM is
    dropped. Windows-1252 leaves five bytes undefined; those decode as Latin-1 so nothing
    is ever refused at this stage. Line ends are kept as they are.
    """
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        return data.decode("latin-1")
