"""Uploaded files into a rating's private folder: each under a name of our own making
(`safe_name`: never a path out of the folder, never a hidden file), and a zip of
tournament files read member by member (`save_zip`): members with folders, too many
members or too many bytes are refused, and the bytes are counted as they are read, not
taken from the archive's own headers. A refusal is an `UploadRefused` the routes turn
into a 400 page or JSON problem."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from typing import IO

from starlette.datastructures import UploadFile

MAX_FILES = 200  # tournament files in one rating, a zip's members included
_UNSAFE = re.compile(r"[^\w.-]+")
_CHUNK = 1 << 20
_IGNORED = ("__MACOSX/",)  # the resource forks macOS adds to the zips it makes


class UploadRefused(ValueError):
    """An upload that is not used: (code, message)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def safe_name(filename: str | None, index: int) -> str:
    """An uploaded file's name without its folders, in letters, digits, `.`, `-`, `_`:
    never a path out of the job's folder, never a hidden file."""
    base = re.split(r"[\\/]", filename or "")[-1]
    name = _UNSAFE.sub("_", base).strip("._")[:120]
    return name or f"upload-{index}"


def free_path(folder: Path, filename: str | None, index: int, taken: set[str]) -> Path:
    """`folder / safe_name(...)`, numbered (`a-2.trf`) when the name is taken."""
    name = safe_name(filename, index)
    stem, dot, suffix = name.rpartition(".")
    n = 1
    while name.lower() in taken:
        n += 1
        name = f"{stem}-{n}.{suffix}" if dot else f"{suffix}-{n}"
    taken.add(name.lower())
    return folder / name


async def save_upload(upload: UploadFile, folder: Path, index: int, taken: set[str]) -> Path:
    path = free_path(folder, upload.filename, index, taken)
    with path.open("wb") as out:
        while chunk := await upload.read(_CHUNK):
            out.write(chunk)
    return path


def is_zip(path: Path) -> bool:
    """A zip of tournament files: named .zip (an .xlsx is a zip too, and is read as one)."""
    return path.suffix.lower() == ".zip"


def _copy(source: IO[bytes], path: Path, budget: int, name: str, limit: int) -> int:
    """`source` into `path`, at most `budget` bytes; the bytes written."""
    written = 0
    with path.open("wb") as out:
        while chunk := source.read(_CHUNK):
            written += len(chunk)
            if written > budget:
                raise UploadRefused(
                    "zip-too-large",
                    f"{name}: the zip's files unpack to more than {limit / 1e6:g} MB "
                    "(elo serve --max-upload-mb)",
                )
            out.write(chunk)
    return written


def save_zip(
    archive: Path, folder: Path, taken: set[str], max_files: int, limit: int
) -> list[Path]:
    """The members of the zip `archive` into `folder` (at most `max_files` files and
    `limit` bytes unpacked in all): the files written."""
    try:
        with zipfile.ZipFile(archive) as z:
            members = [
                m for m in z.infolist() if not m.is_dir() and not m.filename.startswith(_IGNORED)
            ]
            with_folders = [m.filename for m in members if re.search(r"[\\/]", m.filename)]
            if with_folders:
                raise UploadRefused(
                    "zip-member-path",
                    f"{archive.name}: expected the tournament files at the zip's top level, "
                    f"got {with_folders[0]!r} (zip the files themselves, not their folder)",
                )
            if len(members) > max_files:
                raise UploadRefused(
                    "zip-too-many-files",
                    f"{archive.name}: expected at most {max_files} files, got {len(members)}",
                )
            if not members:
                raise UploadRefused("zip-empty", f"{archive.name}: the zip holds no file")
            budget = limit
            written = []
            for i, member in enumerate(members, start=1):
                path = free_path(folder, member.filename, i, taken)
                with z.open(member) as source:
                    budget -= _copy(source, path, budget, archive.name, limit)
                written.append(path)
            return written
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError) as exc:
        raise UploadRefused("bad-zip", f"{archive.name}: not a readable zip ({exc})") from None
