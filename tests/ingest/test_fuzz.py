"""Fuzz: random byte and field mutations of valid files (TRF, crosstable CSV, games CSV,
rating-list TXT) through detection, reading and validation. The only exception allowed
is `InputError`, and every problem it carries is well formed.

Each mutation is drawn from its own `random.Random(seed)`, so a failure names the seed
that reproduces it. `FUZZ_SEED` (an integer) shifts the seeds to explore further; the
default run is deterministic. The quick test runs ~300 mutations; the slow one (`make
fuzz`) runs 10,000.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from pipeline.errors import InputError, Problem
from pipeline.ingest.detect import HEAD_BYTES, detect_kind, read_path
from pipeline.validate import check_against_registry, check_event, validate_event
from pipeline.validate.batch import check_events

DATA = Path(__file__).resolve().parent.parent / "validate" / "data"
CODE = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
BASE_SEED = int(os.environ.get("FUZZ_SEED", "20261130"))

# Values that break parsers: signs, separators, huge and odd numbers, non-ASCII digits,
# quotes, control characters, a lone UTF-8 lead byte.
TOKENS: list[bytes] = [
    b"",
    b" ",
    b"0",
    b"-1",
    b"+",
    b"-",
    b"=",
    b"9999",
    b"99999999999999999999",
    b"0x12",
    b"1e3",
    b"3.5",
    b"3,5",
    b"NaN",
    b"\xc2\xbd",
    b"\xd9\xa3",
    b"\xa0",
    b"\xff",
    b'"',
    b";",
    b",",
    b"\t",
    b"\r",
    b"\n",
    b"\x00",
    b"w",
    b"b",
    b"x",
    b"W",
    b"0000",
    b"2025/02/30",
    b"12w1",
    b"-\xc2\xbd",
]


@dataclass(frozen=True)
class Base:
    name: str  # file name written for each mutation
    data: bytes
    companion: tuple[str, bytes] | None = None  # players CSV of a games CSV


def _bases() -> list[Base]:
    def read(name: str) -> bytes:
        return (DATA / name).read_bytes()

    return [
        Base("open.trf", read("valid_open.trf")),
        Base("rapid.csv", read("valid_rapid_swiss.csv")),
        Base(
            "league.csv",
            read("valid_league.csv"),
            ("league.players.csv", read("valid_league.players.csv")),
        ),
        Base("players_list_foa.txt", read("valid_players_list_foa.txt")),
    ]


# --- mutations -------------------------------------------------------------------------------


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def flip_byte(rng: random.Random, data: bytes) -> bytes:
    if not data:
        return bytes([rng.randrange(256)])
    i = rng.randrange(len(data))
    return data[:i] + bytes([rng.randrange(256)]) + data[i + 1 :]


def insert_token(rng: random.Random, data: bytes) -> bytes:
    i = rng.randrange(len(data) + 1)
    return data[:i] + rng.choice(TOKENS) + data[i:]


def delete_span(rng: random.Random, data: bytes) -> bytes:
    if not data:
        return data
    i = rng.randrange(len(data))
    return data[:i] + data[i + rng.randint(1, 24) :]


def truncate(rng: random.Random, data: bytes) -> bytes:
    return data[: rng.randrange(len(data) + 1)]


def shuffle_lines(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    op = rng.choice(("dup", "drop", "swap"))
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    if op == "dup":
        lines.insert(j, lines[i])
    elif op == "drop":
        del lines[i]
    else:
        lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


def mutate_field(rng: random.Random, data: bytes) -> bytes:
    """Replace one field: a fixed-width TRF column span of a 001 line, else one cell of a
    delimited line (`;` or `,`), else a whitespace-separated word."""
    lines = _lines(data)
    i = rng.randrange(len(lines))
    line = lines[i]
    token = rng.choice(TOKENS)
    if line.startswith(b"001"):
        spans = [(4, 8), (9, 10), (48, 52), (57, 68), (69, 79), (80, 84), (85, 89)]
        spans += [(91 + 10 * r, 95 + 10 * r) for r in range(3)]
        spans += [(96 + 10 * r, 97 + 10 * r) for r in range(3)]
        spans += [(98 + 10 * r, 99 + 10 * r) for r in range(3)]
        a, b = rng.choice(spans)
        lines[i] = line[:a] + token.rjust(b - a)[: max(b - a, len(token))] + line[b:]
    else:
        sep = b";" if line.count(b";") >= line.count(b",") and b";" in line else b","
        if sep in line:
            cells = line.split(sep)
            cells[rng.randrange(len(cells))] = token
            lines[i] = sep.join(cells)
        else:
            words = line.split(b" ")
            words[rng.randrange(len(words))] = token
            lines[i] = b" ".join(words)
    return b"\n".join(lines)


def mutate_workbook(rng: random.Random, data: bytes) -> bytes:
    """Change one to three cells of the first sheet (a token, a number, a blank, another
    cell's value) and save the workbook again: what a user's edits in Excel do."""
    import io

    import openpyxl

    book = openpyxl.load_workbook(io.BytesIO(data))
    sheet = book.worksheets[0]
    rows, cols = sheet.max_row, sheet.max_column
    for _ in range(rng.choice((1, 2, 3))):
        cell = sheet.cell(rng.randint(1, rows + 1), rng.randint(1, cols + 1))
        choice = rng.randrange(4)
        if choice == 0:
            cell.value = rng.choice(TOKENS).decode("utf-8", "replace").replace("\x00", "")
        elif choice == 1:
            cell.value = rng.choice((0, 1, 0.5, -1, 2.5, 1e9, 123456789012))
        elif choice == 2:
            cell.value = None
        else:
            cell.value = sheet.cell(rng.randint(1, rows), rng.randint(1, cols)).value
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


MUTATIONS: list[Callable[[random.Random, bytes], bytes]] = [
    flip_byte,
    insert_token,
    delete_span,
    truncate,
    shuffle_lines,
    mutate_field,
    mutate_field,
    mutate_field,
]


def mutate(rng: random.Random, data: bytes) -> tuple[bytes, list[str]]:
    applied: list[str] = []
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        op = rng.choice(MUTATIONS)
        data = op(rng, data)
        applied.append(op.__name__)
    return data, applied


# --- one run ---------------------------------------------------------------------------------


def _check_error(exc: InputError, files: set[str]) -> None:
    assert exc.problems, "an InputError without problems"
    assert any(p.is_error for p in exc.problems), "an InputError holding only warnings"
    for p in exc.problems:
        _check_problem(p, files)


def _check_problem(p: Problem, files: set[str]) -> None:
    assert CODE.fullmatch(p.code), f"code not kebab-case: {p.code!r}"
    assert p.location.file in files, f"problem names an unknown file: {p}"
    assert p.location.line is None or p.location.line >= 1, str(p)
    assert p.message.strip(), str(p)


def run_one(base: Base, data: bytes, folder: Path, to_companion: bool) -> None:
    """Detect, read and validate one mutated file; raise AssertionError on misbehaviour."""
    path = folder / base.name
    files = {str(path)}
    main, other = (base.data, data) if to_companion else (data, base.data)
    path.write_bytes(main)
    if base.companion is not None:
        companion = folder / base.companion[0]
        companion.write_bytes(other if to_companion else base.companion[1])
        files.add(str(companion))
    kind = detect_kind(path, main[:HEAD_BYTES])
    if kind == "registry":
        from pipeline.formats.rating_list.read import read_rating_list

        try:
            registry = read_rating_list(path)
        except InputError as exc:
            _check_error(exc, files)
            return
        event = read_path(DATA / "valid_open.trf")[0]
        for p in check_against_registry(event.players, event.events, registry):
            _check_problem(p, {str(DATA / "valid_open.trf")})
        return
    try:
        events = read_path(path)
    except InputError as exc:
        _check_error(exc, files)
        return
    one_by_one = [check_event(ev) for ev in events]
    for problems in one_by_one:
        for p in problems:
            _check_problem(p, files)
    # the batch pass of `elo run` and `elo validate` finds exactly the same problems
    assert check_events(events) == one_by_one, "batch validation differs from check_event"


def _where(exc: BaseException) -> str:
    """The innermost frame of the project's code that the exception passed through."""
    tb, where = exc.__traceback__, "?"
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if "/pipeline/" in name or "/schemas/" in name:
            where = f"{name.rsplit('/', 2)[-2]}/{name.rsplit('/', 1)[-1]}:{tb.tb_lineno}"
        tb = tb.tb_next
    return where


def fuzz(count: int, tmp_path: Path, bases: list[Base] | None = None) -> dict[str, int]:
    """Run `count` mutations spread over the bases (default: the valid files of
    tests/validate/data); return how many each base took. Fails at the end with one
    example (seed, mutation, bytes) per distinct misbehaviour."""
    bases = bases if bases is not None else _bases()
    outcome: dict[str, int] = {}
    failures: dict[str, str] = {}
    for i in range(count):
        seed = BASE_SEED + i
        rng = random.Random(seed)
        base = bases[i % len(bases)]
        to_companion = base.companion is not None and rng.random() < 0.3
        source = base.companion[1] if to_companion and base.companion else base.data
        if base.name.endswith(".xlsx"):
            data, applied = mutate_workbook(rng, source), ["mutate_workbook"]
        else:
            data, applied = mutate(rng, source)
        folder = tmp_path / f"m{i % 8}"
        folder.mkdir(exist_ok=True)
        try:
            run_one(base, data, folder, to_companion)
        except Exception as exc:  # collected and reported below, never hidden
            target = base.companion[0] if to_companion and base.companion else base.name
            key = f"{type(exc).__name__} at {_where(exc)}"
            failures.setdefault(
                key,
                f"{key}: seed {seed}, {target} mutated by {applied}: {str(exc)[:300]}\n"
                f"    mutated bytes: {data[:300]!r}",
            )
        outcome[base.name] = outcome.get(base.name, 0) + 1
    assert not failures, f"{len(failures)} kinds of misbehaviour:\n" + "\n".join(failures.values())
    return outcome


def test_bases_are_valid() -> None:
    for base in _bases():
        if base.name.endswith(".txt"):
            continue
        events = read_path(DATA / _data_name(base.name))
        assert events
        for ev in events:
            assert [*ev.problems, *validate_event(ev)] == [], base.name


def _data_name(name: str) -> str:
    return {
        "open.trf": "valid_open.trf",
        "rapid.csv": "valid_rapid_swiss.csv",
        "league.csv": "valid_league.csv",
    }[name]


def test_fuzz_quick(tmp_path: Path) -> None:
    outcome = fuzz(300, tmp_path)
    assert sum(outcome.values()) == 300


@pytest.mark.slow
def test_fuzz_many(tmp_path: Path) -> None:
    outcome = fuzz(10_000, tmp_path)
    assert sum(outcome.values()) == 10_000
