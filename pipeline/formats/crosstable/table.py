"""The table of a crosstable: header layout, player rows, round cells, opponent references.

Input is a list of ``(line, cells)`` rows (CSV line or spreadsheet row, cell texts already
normalised); output is plain records that `crosstable.py` turns into frames. Problems are
collected into a `ProblemList`, never raised here.

Two layouts, both Swiss and round-robin (`Layout.order`):
- final ranking: the header starts ``Rk.``, rows in final order, opponents by rank
  (chess-results) or by start number (some Swiss-Manager exports): both readings are
  tried and the one under which more games are mirrored (B's cell of the same round
  names A, with the other colour and the complementary result) wins; a tie (for instance
  SNo equal to rank) keeps ``rank``. Round-robin: the ``*`` diagonal tells which
  numbering the columns use (rank unless the diagonal says start number).
- starting rank: the header starts ``No.``, rows in start-number order, opponents (and a
  round-robin's columns) by start number; the rank is a column after the points.

The table is the rows after the header up to the first blank row or the first row that
is not a player row (a lead cell that is not a number, or a row without a name), so
what follows (``Annotation:``, ``You find all details ...`` with its links copied into
every cell by a spreadsheet program) is never read as players. Trailing rounds in which
nobody has a game or a bye (an event in progress) are not rounds yet.
Round-robin games get synthetic round numbers from the Berger table of the player numbers
(the file does not say when a game was played): both sides of a game share a round and
nobody plays twice in one round; a double round-robin's second games follow the first.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.errors import ProblemList
from pipeline.formats.crosstable.cells import (
    COLOUR_LETTERS,
    Header,
    RoundCell,
    classify_header,
    colour_map,
    is_lead_header,
    is_name_header,
    mirrors,
    parse_decimal,
    parse_int,
    parse_rr_cell,
    parse_swiss_cell,
)

Row = tuple[int, list[str]]
RANK_REF = "rank"
START_NUMBER_REF = "start-number"
FINAL_RANKING = "final-ranking"
STARTING_RANK = "starting-rank"
_ENTRY_CODES = frozenset({"U", "H", "F"})  # byes that say the round took place


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


@dataclass
class PlayerRow:
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


@dataclass(frozen=True)
class GameRow:
    round: int
    start_no: int
    opponent_no: int | None
    colour: str | None
    code: str
    score: float
    line: int
    column: str


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
    ranks = _rank_keys(players)
    for player, key in zip(players, ranks, strict=True):
        player.start_no = key


def resolve_games(
    players: list[PlayerRow], layout: Layout, file: str, problems: ProblemList
) -> tuple[list[GameRow], str]:
    """Every round entry as a game row with opponents in start numbers; and which
    numbering the file's opponent references use."""
    letters = {
        entry.letter
        for player in players
        for entries in player.cells.values()
        for entry in entries
        if entry.letter in COLOUR_LETTERS
    }
    colours = colour_map({letter for letter in letters if letter})
    by_rank = dict(zip(_rank_keys(players), range(len(players)), strict=True))
    maps = {RANK_REF: by_rank}
    if "sno" in layout.fields:
        maps[START_NUMBER_REF] = {p.sno: i for i, p in enumerate(players) if p.sno is not None}
    # a starting-rank table numbers the opponents by start number; a final ranking may
    # use either numbering, so the games decide
    fixed = START_NUMBER_REF if layout.order == STARTING_RANK and START_NUMBER_REF in maps else ""
    if layout.round_robin:
        ref = fixed or _choose_rr_reference(players, maps)
        return _rr_games(players, maps[ref], ref, colours, file, problems), ref
    ref = fixed or _choose_swiss_reference(players, maps, colours)
    return _swiss_games(players, maps[ref], ref, colours, file, problems), ref


# --- internals -------------------------------------------------------------------------


def _cell(cells: list[str], index: int) -> str:
    return cells[index] if index < len(cells) else ""


def _swiss_entry(raw: str) -> list[RoundCell] | None:
    entry = parse_swiss_cell(raw)
    return None if entry is None else [entry]


def _rank_keys(players: list[PlayerRow]) -> list[int]:
    """The number a player is referred to by as 'rank': the rank when every row has a
    distinct one, else the row position."""
    ranks = [p.rank for p in players]
    if all(r is not None and r >= 1 for r in ranks) and len(set(ranks)) == len(ranks):
        return [r for r in ranks if r is not None]
    return [p.position for p in players]


def _mirrors(a: RoundCell, b: RoundCell, colours: dict[str, str]) -> bool:
    if not mirrors(a.code, b.code):
        return False
    ca = colours.get(a.letter or "")
    cb = colours.get(b.letter or "")
    return ca is None or cb is None or ca != cb


def _choose_swiss_reference(
    players: list[PlayerRow], maps: dict[str, dict[int, int]], colours: dict[str, str]
) -> str:
    if len(maps) == 1 or maps[RANK_REF] == maps[START_NUMBER_REF]:
        return RANK_REF
    scores: dict[str, int] = {}
    for ref, mapping in maps.items():
        score = 0
        for i, player in enumerate(players):
            for number, entries in player.cells.items():
                entry = entries[0]
                j = mapping.get(entry.ref) if entry.ref is not None else None
                if j is None or j == i:
                    continue
                other = players[j].cells.get(number)
                if other and other[0].ref is not None and mapping.get(other[0].ref) == i:
                    score += _mirrors(entry, other[0], colours)
        scores[ref] = score
    return START_NUMBER_REF if scores[START_NUMBER_REF] > scores[RANK_REF] else RANK_REF


def _choose_rr_reference(players: list[PlayerRow], maps: dict[str, dict[int, int]]) -> str:
    """The numbering under which more ``*`` marks sit on the player's own column."""
    if len(maps) == 1:
        return RANK_REF
    votes = {
        ref: sum(mapping.get(n) == i for i, p in enumerate(players) for n in p.stars)
        for ref, mapping in maps.items()
    }
    return START_NUMBER_REF if votes[START_NUMBER_REF] > votes[RANK_REF] else RANK_REF


def _out_of_range(
    player: PlayerRow,
    column: str,
    number: int,
    ref: str,
    mapping: dict[int, int],
    file: str,
    problems: ProblemList,
) -> None:
    what = "rank" if ref == RANK_REF else "start number"
    low, high = (min(mapping), max(mapping)) if mapping else (1, 0)
    problems.add(
        file,
        player.line,
        column,
        "opponent-out-of-range",
        f"expected an opponent {what} in {low}..{high} other than the player's own, got {number}",
    )


def _swiss_games(
    players: list[PlayerRow],
    mapping: dict[int, int],
    ref: str,
    colours: dict[str, str],
    file: str,
    problems: ProblemList,
) -> list[GameRow]:
    held = _rounds_held(players)
    games: list[GameRow] = []
    for i, player in enumerate(players):
        rows: list[GameRow] = []
        for number, entries in sorted(player.cells.items()):
            if number not in held:
                continue
            entry, column = entries[0], player.columns[number]
            opponent: int | None = None
            if entry.ref is not None:
                j = mapping.get(entry.ref)
                if j is None or j == i:
                    _out_of_range(player, column, entry.ref, ref, mapping, file, problems)
                    continue
                opponent = players[j].start_no
            colour = colours.get(entry.letter) if entry.letter else None
            rows.append(
                GameRow(
                    number,
                    player.start_no,
                    opponent,
                    colour,
                    entry.code,
                    entry.score,
                    player.line,
                    column,
                )
            )
        games.extend(_settle_bye_words(player, rows))
    return games


def _rounds_held(players: list[PlayerRow]) -> set[int]:
    """The Swiss rounds that took place or are paired: every round up to the last one in
    which somebody has an opponent or a bye worth points. Later columns are rounds not
    paired yet (empty, ``0`` or ``-`` in every row)."""
    numbers = {n for p in players for n in p.cells}
    held = [
        n
        for p in players
        for n, entries in p.cells.items()
        if entries[0].ref is not None or entries[0].code in _ENTRY_CODES
    ]
    last = max(held, default=0)
    return {n for n in numbers if n <= last}


def _settle_bye_words(player: PlayerRow, rows: list[GameRow]) -> list[GameRow]:
    """A bye written as a word (``bye``, ``spielfrei``) is a 1-point bye unless the
    declared points say it was worth ½ or 0."""
    words = [n for n, entries in player.cells.items() if entries[0].bye_word]
    if len(words) != 1 or player.points is None:
        return rows
    others = sum(row.score for row in rows if row.round != words[0])
    rest = player.points - others
    code = {0.5: "H", 0.0: "Z"}.get(rest)
    if code is None:
        return rows
    return [
        GameRow(r.round, r.start_no, None, None, code, rest, r.line, r.column)
        if r.round == words[0]
        else r
        for r in rows
    ]


def _berger_round(a: int, b: int, count: int) -> int:
    """Round (1-based) of the pair of 0-based positions a, b in a single round-robin of
    `count` players by the circle method; a dummy makes the count even."""
    size = count + count % 2
    last = size - 1
    if last in (a, b):
        return (2 * (b if a == last else a)) % last + 1
    return (a + b) % last + 1


def _rr_games(
    players: list[PlayerRow],
    mapping: dict[int, int],
    ref: str,
    colours: dict[str, str],
    file: str,
    problems: ProblemList,
) -> list[GameRow]:
    number_of = {index: number for number, index in mapping.items()}
    order = sorted(range(len(players)), key=lambda i: (i not in number_of, number_of.get(i, 0), i))
    position = {index: k for k, index in enumerate(order)}
    count = len(players)
    cycle = count - 1 + count % 2
    games: list[GameRow] = []
    for i, player in enumerate(players):
        for number, entries in sorted(player.cells.items()):
            if not entries:
                continue
            j = mapping.get(number)
            if j is None or j == i:
                _out_of_range(player, player.columns[number], number, ref, mapping, file, problems)
                continue
            base = _berger_round(position[i], position[j], count)
            for k, entry in enumerate(entries):
                games.append(
                    GameRow(
                        base + k * cycle,
                        player.start_no,
                        players[j].start_no,
                        colours.get(entry.letter or ""),
                        entry.code,
                        entry.score,
                        player.line,
                        player.columns[number],
                    )
                )
    return games


__all__ = [
    "RANK_REF",
    "STARTING_RANK",
    "START_NUMBER_REF",
    "GameRow",
    "Layout",
    "PlayerRow",
    "Row",
    "assign_start_numbers",
    "find_header",
    "is_header_row",
    "is_player_row",
    "read_layout",
    "read_player",
    "resolve_games",
]
