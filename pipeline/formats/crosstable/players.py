"""The player rows of a crosstable: which rows are players, each row's fields and round
cells (`PlayerRow`), and the start numbers players are known by.

The table is the rows after the header up to the first blank row or the first row that
is not a player row (a lead cell that is not a number, or a row without a name), so
what follows (``Annotation:``, ``You find all details ...`` with its links copied into
every cell by a spreadsheet program) is never read as players. Problems are collected
into a `ProblemList`, never raised here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.errors import ProblemList
from pipeline.formats.crosstable.cells import (
    RoundCell,
    parse_decimal,
    parse_int,
    parse_rr_cell,
    parse_swiss_cell,
)
from pipeline.formats.crosstable.layout import Layout


@dataclass
class PlayerRow:
    """One player row as read: its fields, and its round cells by round (or column) number."""

    line: int
    position: int  # 1-based order in the table
    rank: int | None = None
    sno: int | None = None
    name: str = ""
    title: str | None = None
    federation: str | None = None
    rating: int | None = None
    fide_id: int | None = None
    sex: str | None = None
    points: float | None = None
    k: float | None = None
    change: float | None = None
    start_no: int = 0
    cells: dict[int, list[RoundCell]] = field(default_factory=dict)  # number -> entries
    stars: set[int] = field(default_factory=set)  # round-robin columns holding '*'
    columns: dict[int, str] = field(default_factory=dict)  # number -> header text


def is_player_row(cells: list[str], layout: Layout) -> bool:
    """A row of the table: its lead cell (rank / start number) is a number, or it is empty
    (shared places leave the rank empty) and the row has a name."""
    lead = _cell(cells, layout.first).rstrip(".")
    if lead:
        return lead.isdigit()
    return bool(_cell(cells, layout.fields["name"]))


def read_player(
    line: int, cells: list[str], position: int, layout: Layout, file: str, problems: ProblemList
) -> PlayerRow:
    player = PlayerRow(line, position)
    fields = layout.fields

    def text(name: str) -> str:
        return _cell(cells, fields[name]) if name in fields else ""

    def bad(name: str, code: str, expected: str) -> None:
        shown = text(name)
        problems.add(
            file, line, layout.headers[fields[name]], code, f"expected {expected}, got {shown!r}"
        )

    player.rank = parse_int(text("rank").rstrip("."))
    if text("rank") and player.rank is None:
        bad("rank", "bad-rank", "a rank number")
    if "sno" in fields:
        player.sno = parse_int(text("sno").rstrip("."))
        if player.sno is None or player.sno < 1:
            bad("sno", "bad-start-number", "a start number 1 or more")
            player.sno = None
    player.name = " ".join(text("name").split())
    if not player.name:
        bad("name", "missing-name", "a player name")
    title = text("title").upper()
    player.title = title if title else None
    player.federation = text("federation") or None
    # 0 / empty -> null (unrated, no ID); the rating range is validation's (schemas.ingest)
    if text("rating"):
        player.rating = parse_int(text("rating"))
        if player.rating is None:
            bad("rating", "bad-rating", "a rating (a whole number, or empty)")
        player.rating = player.rating or None
    if text("fide_id"):
        player.fide_id = parse_int(text("fide_id"))
        if player.fide_id is None:
            bad("fide_id", "bad-fide-id", "a FIDE ID (digits) or empty")
        player.fide_id = player.fide_id or None
    sex = text("sex").casefold()
    player.sex = "m" if sex == "m" else "w" if sex in ("w", "f") else None
    for name, code, what in (
        ("points", "bad-points", "points like '3,5'"),
        ("k", "bad-k", "a K factor like '20'"),
        ("change", "bad-rating-change", "a rating change like '-4,8'"),
    ):
        if text(name):
            value = parse_decimal(text(name))
            if value is None:
                bad(name, code, what)
            setattr(player, name, value)
    for number, index in layout.rounds:
        header = layout.headers[index]
        raw = _cell(cells, index)
        entries = parse_rr_cell(raw) if layout.round_robin else _swiss_entry(raw)
        if entries is None:
            example = "'1', '½', '0', '+', '-' or '*'" if layout.round_robin else "'12w1'"
            problems.add(
                file,
                line,
                header,
                "round-cell",
                f"expected a round cell like {example}, got {raw!r}",
            )
            continue
        player.cells[number] = entries
        player.columns[number] = header
        if layout.round_robin and raw == "*":
            player.stars.add(number)
    return player


def assign_start_numbers(
    players: list[PlayerRow], layout: Layout, file: str, problems: ProblemList
) -> None:
    """SNo when the file has it, else the rank when ranks are complete and unique, else
    the row order. Duplicate start numbers are errors."""
    if "sno" in layout.fields:
        first_line: dict[int, int] = {}
        for player in players:
            player.start_no = player.sno or player.position
            if player.sno is None:
                continue
            if player.sno in first_line:
                column = layout.headers[layout.fields["sno"]]
                problems.add(
                    file,
                    player.line,
                    column,
                    "duplicate-start-number",
                    f"expected unique start numbers, got {player.sno} again "
                    f"(first on line {first_line[player.sno]})",
                )
            else:
                first_line[player.sno] = player.line
        return
    ranks = rank_keys(players)
    for player, key in zip(players, ranks, strict=True):
        player.start_no = key


def rank_keys(players: list[PlayerRow]) -> list[int]:
    """The number a player is referred to by as 'rank': the rank when every row has a
    distinct one, else the row position."""
    ranks = [p.rank for p in players]
    if all(r is not None and r >= 1 for r in ranks) and len(set(ranks)) == len(ranks):
        return [r for r in ranks if r is not None]
    return [p.position for p in players]


# --- internals -------------------------------------------------------------------------


def _cell(cells: list[str], index: int) -> str:
    return cells[index] if index < len(cells) else ""


def _swiss_entry(raw: str) -> list[RoundCell] | None:
    entry = parse_swiss_cell(raw)
    return None if entry is None else [entry]


__all__ = [
    "PlayerRow",
    "assign_start_numbers",
    "is_player_row",
    "rank_keys",
    "read_player",
]
