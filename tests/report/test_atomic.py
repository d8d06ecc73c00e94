"""Atomic writes: the target is the complete new file or the previous one, never a part."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pipeline.report.atomic import atomic_open, atomic_path, atomic_write_bytes, atomic_write_text


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_write_bytes_creates_the_file_and_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "out.bin"
    atomic_write_bytes(target, b"\x00\x01data")
    assert target.read_bytes() == b"\x00\x01data"
    assert _leftovers(tmp_path) == []


def test_write_text_keeps_newlines_untranslated(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    atomic_write_text(target, "a\nb½\n")
    assert target.read_bytes() == "a\nb½\n".encode()


def test_replaces_an_existing_file(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old")
    atomic_write_text(target, "new")
    assert target.read_text() == "new"


@pytest.mark.parametrize(
    "error", [RuntimeError("boom"), KeyboardInterrupt()], ids=["error", "ctrl-c"]
)
def test_failure_midway_keeps_the_old_file_and_leaves_no_temp(
    tmp_path: Path, error: BaseException
) -> None:
    target = tmp_path / "report.csv"
    target.write_text("previous complete report")

    def write_half() -> None:
        with atomic_open(target) as stream:
            stream.write(b"half of the new ")
            raise error

    with pytest.raises(type(error)):
        write_half()
    assert target.read_text() == "previous complete report"
    assert _leftovers(tmp_path) == []


def test_failure_on_a_new_target_leaves_nothing(tmp_path: Path) -> None:
    target = tmp_path / "new.xlsx"

    def write_part() -> None:
        with atomic_path(target) as tmp:
            tmp.write_bytes(b"partial")
            raise RuntimeError("writer failed")

    with pytest.raises(RuntimeError, match="writer failed"):
        write_part()
    assert list(tmp_path.iterdir()) == []


def test_atomic_path_hands_a_name_in_the_same_folder(tmp_path: Path) -> None:
    target = tmp_path / "report.xlsx"
    with atomic_path(target) as tmp:
        assert tmp.parent == tmp_path
        assert tmp.name.startswith(".report.xlsx.")
        tmp.write_bytes(b"done")
    assert target.read_bytes() == b"done"
    assert _leftovers(tmp_path) == []


@pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")
def test_new_files_get_the_umask_permissions_not_0600(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        atomic_write_bytes(tmp_path / "shared.csv", b"x")
    finally:
        os.umask(old)
    assert (tmp_path / "shared.csv").stat().st_mode & 0o777 == 0o644
