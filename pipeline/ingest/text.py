"""Bytes to text for every text format: UTF-8 (with or without BOM), else Windows-1252."""

from __future__ import annotations


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
