"""The header row of a crosstable: which row it is and where its columns are (`Layout`).

Two layouts, both Swiss and round-robin (`Layout.order`): the final ranking (the header
starts ``Rk.``, rows in final order) and the starting rank (the header starts ``No.``,
rows in start-number order, the rank a column after the points). A header is a name
column and either a lead column ``Rk.`` / ``No.`` in a language of the vocabulary or at
least two round columns (a language we lack). Round columns are ``1.Rd`` ... (Swiss) or
the opponents' numbers ``1`` ... ``N`` (round-robin). Problems are collected into a
`ProblemList`, never raised here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.errors import ProblemList
from pipeline.formats.crosstable.cells import (
    Header,
    classify_header,
    is_lead_header,
    is_name_header,
)

Row = tuple[int, list[str]]
FINAL_RANKING = "final-ranking"
STARTING_RANK = "starting-rank"


@dataclass
class Layout:
    """Where things are in the header row (absolute cell indexes)."""

    line: int
    first: int  # index of the rank cell
    fields: dict[str, int] = field(default_factory=dict)
    headers: dict[int, str] = field(default_factory=dict)  # index -> header text
    rounds: list[tuple[int, int]] = field(default_factory=list)  # (number, index)
    round_robin: bool = False
    order: str = FINAL_RANKING  # or STARTING_RANK: the header's first column is `No.`

    @property
    def name(self) -> str:
        """``'starting-rank round-robin'`` (`schemas.ingest.LAYOUTS`)."""
        return f"{self.order} {'round-robin' if self.round_robin else 'swiss'}"


def is_header_row(cells: list[str]) -> bool:
    """A crosstable header: a name column and either a first column ``Rk.`` / ``No.`` (any
    language of the vocabulary) or at least two round columns (a language we lack)."""
    filled = [cell for cell in cells if cell]
    if not filled or not any(is_name_header(cell) for cell in filled):
        return False
    if is_lead_header(filled[0]):
        return True
    kinds = [classify_header(cell).kind for cell in filled]
    return sum(kind in ("round", "opponent") for kind in kinds) >= 2


def find_header(rows: list[Row]) -> int | None:
    """Index of the first header row (`is_header_row`); failing that, of a row that starts
    like one but lacks the name column (for `read_layout` to say so)."""
    for index, (_, cells) in enumerate(rows):
        if is_header_row(cells):
            return index
    for index, (_, cells) in enumerate(rows):
        filled = [cell for cell in cells if cell]
        if len(filled) > 1 and is_lead_header(filled[0]):
            return index
    return None


def read_layout(line: int, cells: list[str], file: str, problems: ProblemList) -> Layout | None:
    """The layout of the header row `cells` (on `line`); None, after a problem, when it has
    no name column or no round columns."""
    first = next(i for i, cell in enumerate(cells) if cell)
    layout = Layout(line, first)
    kinds: dict[int, Header] = {}
    for index in range(first, len(cells)):
        header = classify_header(cells[index])
        if index == first and header.kind not in ("rank", "sno"):
            header = Header("rank")  # a lead column in a language we lack: the row order
        kinds[index] = header
        layout.headers[index] = cells[index]
        if header.kind in ("round", "opponent"):
            continue
        layout.fields.setdefault(header.kind, index)
    if kinds[first].kind == "sno":
        layout.order = STARTING_RANK
    if "name" not in layout.fields:
        shown = [cell for cell in cells if cell]
        problems.add(
            file,
            line,
            None,
            "crosstable-no-name-column",
            f"expected a 'Name' column in the header, got {shown!r}",
        )
        return None
    before = layout.fields["name"] - 1
    if "title" not in layout.fields and before > first and kinds[before].kind == "blank":
        layout.fields["title"] = before
    swiss = [(h.number, i) for i, h in kinds.items() if h.kind == "round"]
    robin = [(h.number, i) for i, h in kinds.items() if h.kind == "opponent"]
    layout.round_robin = not swiss and bool(robin)
    layout.rounds = swiss or robin
    if not layout.rounds:
        problems.add(
            file,
            line,
            None,
            "crosstable-no-rounds",
            "expected round columns ('1.Rd' ... or '1' ... 'N' for a round-robin), got none",
        )
        return None
    seen: set[int] = set()
    for number, index in layout.rounds:
        if number in seen:
            problems.add(
                file,
                line,
                cells[index],
                "crosstable-duplicate-column",
                f"expected each round column once, got '{cells[index]}' again",
            )
        seen.add(number)
    return layout


__all__ = [
    "FINAL_RANKING",
    "STARTING_RANK",
    "Layout",
    "Row",
    "find_header",
    "is_header_row",
    "read_layout",
]
