"""The games of a crosstable: every round entry of the player rows as a `GameRow`, its
opponent reference turned into a start number.

A final ranking refers to opponents by rank (chess-results) or by start number (some
Swiss-Manager exports): both readings are tried and the one under which more games are
mirrored (B's cell of the same round names A, with the other colour and the
complementary result) wins; a tie (for instance SNo equal to rank) keeps ``rank``.
Round-robin: the ``*`` diagonal tells which numbering the columns use (rank unless the
diagonal says start number). A starting-rank table refers to opponents (and a
round-robin's columns) by start number.

Trailing rounds in which nobody has a game or a bye (an event in progress) are not
rounds yet. Round-robin games get synthetic round numbers from the Berger table of the
player numbers (the file does not say when a game was played): both sides of a game
share a round and nobody plays twice in one round; a double round-robin's second games
follow the first. Problems are collected into a `ProblemList`, never raised here.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.errors import ProblemList
from pipeline.formats.crosstable.cells import COLOUR_LETTERS, RoundCell, colour_map, mirrors
from pipeline.formats.crosstable.layout import STARTING_RANK, Layout
from pipeline.formats.crosstable.players import PlayerRow, rank_keys

RANK_REF = "rank"
START_NUMBER_REF = "start-number"
_ENTRY_CODES = frozenset({"U", "H", "F"})  # byes that say the round took place


@dataclass(frozen=True)
class GameRow:
    """One side of a game (or a bye): opponent and colour resolved, `column` the header."""

    round: int
    start_no: int
    opponent_no: int | None
    colour: str | None
    code: str
    score: float
    line: int
    column: str


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
    by_rank = dict(zip(rank_keys(players), range(len(players)), strict=True))
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
    "START_NUMBER_REF",
    "GameRow",
    "resolve_games",
]
