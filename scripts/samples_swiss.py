"""A small Swiss-system pairing engine and result simulator for the sample events.

Pairing follows the spirit of the Dutch system (FIDE Handbook C.04.3): players are ranked
by score then start number; inside a score group the top half meets the bottom half; an
odd player floats down; nobody meets the same opponent twice; colours alternate where
possible and no player gets an absolute colour preference violated unless nothing else
pairs. The pairing-allocated bye goes to the lowest-ranked player who has not had one.
Results are drawn from the Elo expectation with a draw share.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

# Points in halves under standard scoring (TRF26 record 162 "W 1.0 D 0.5 L 0.0").
HALVES = {"1": 2, "=": 1, "0": 0, "+": 2, "-": 0, "H": 1, "F": 2, "U": 2, "Z": 0}
PLAYED = frozenset("1=0")
MIRROR = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+"}


@dataclass(frozen=True)
class Entry:
    """One round of one player, as a TRF round block holds it."""

    opponent: int | None  # start number, None for a bye or absence
    colour: str  # 'w', 'b' or '-'
    code: str  # TRF result code


@dataclass
class Entrant:
    no: int  # start number (1 = highest rated)
    strength: int  # simulated playing strength
    entries: list[Entry] = field(default_factory=list)

    @property
    def halves(self) -> int:
        return sum(HALVES[e.code] for e in self.entries)

    @property
    def opponents(self) -> set[int]:
        return {e.opponent for e in self.entries if e.opponent is not None}

    @property
    def colours(self) -> list[str]:
        return [e.colour for e in self.entries if e.code in PLAYED]

    @property
    def had_bye(self) -> bool:
        return any(e.code in "UF" for e in self.entries)

    def preference(self) -> tuple[str | None, int]:
        """(colour, strength): 3 absolute, 2 strong, 1 mild, 0 none (C.04.3 A.6)."""
        colours = self.colours
        diff = colours.count("w") - colours.count("b")
        if diff > 1 or colours[-2:] == ["w", "w"]:
            return "b", 3
        if diff < -1 or colours[-2:] == ["b", "b"]:
            return "w", 3
        if diff == 1:
            return "b", 2
        if diff == -1:
            return "w", 2
        if colours:
            return ("b" if colours[-1] == "w" else "w"), 1
        return None, 0


@dataclass
class Schedule:
    """What happens besides normal pairing: requested byes, absences, no-shows."""

    rounds: int
    absent: dict[int, dict[int, str]] = field(default_factory=dict)  # round -> {no: H|Z}
    no_shows: dict[int, set[int]] = field(default_factory=dict)  # round -> forfeiting nos
    forced: dict[tuple[int, int], str] = field(default_factory=dict)  # (round, no) -> 1 = 0


class _Exhausted(Exception):
    pass


def _rank_key(player: Entrant) -> tuple[int, int]:
    return (-player.halves, player.no)


def _compatible(a: Entrant, b: Entrant, relax: bool) -> bool:
    if b.no in a.opponents:
        return False
    if relax:
        return True
    pa, sa = a.preference()
    pb, sb = b.preference()
    return not (sa == 3 and sb == 3 and pa == pb)


def _candidates(p: Entrant, rest: list[Entrant]) -> list[Entrant]:
    group = [x for x in rest if x.halves == p.halves]
    others = [x for x in rest if x.halves != p.halves]
    ideal = max((len(group) + 1) // 2 - 1, 0)
    order = list(range(ideal, len(group))) + list(range(ideal - 1, -1, -1))
    pref, strength = p.preference()

    def clash(x: Entrant) -> int:
        xp, xs = x.preference()
        return int(pref is not None and pref == xp and min(strength, xs) >= 2)

    ranked = sorted(
        ((clash(group[i]), pos, group[i]) for pos, i in enumerate(order)),
        key=lambda t: (t[0], t[1]),
    )
    return [x for _, _, x in ranked] + others


def _pair(
    pool: list[Entrant], relax: bool, budget: list[int]
) -> list[tuple[Entrant, Entrant]] | None:
    if not pool:
        return []
    budget[0] -= 1
    if budget[0] < 0:
        raise _Exhausted
    p, rest = pool[0], pool[1:]
    for c in _candidates(p, rest):
        if not _compatible(p, c, relax):
            continue
        sub = _pair([x for x in rest if x is not c], relax, budget)
        if sub is not None:
            return [(p, c), *sub]
    return None


def pair_players(pool: Sequence[Entrant]) -> list[tuple[Entrant, Entrant]] | None:
    """Pairs of (higher-ranked, lower-ranked); None when no pairing without rematches."""
    ordered = sorted(pool, key=_rank_key)
    for relax in (False, True):
        try:
            pairs = _pair(ordered, relax, [20_000])
        except _Exhausted:
            continue
        if pairs is not None:
            return pairs
    return None


def allocate_colours(a: Entrant, b: Entrant, board: int, round_no: int) -> tuple[Entrant, Entrant]:
    """(white, black) for a pair where `a` is the higher-ranked player."""
    pa, sa = a.preference()
    pb, sb = b.preference()
    if round_no == 1 or (pa is None and pb is None):
        return (a, b) if board % 2 == 0 else (b, a)
    if pa is None:
        return (b, a) if pb == "w" else (a, b)
    if pb is None or pa != pb:
        return (a, b) if pa == "w" else (b, a)
    winner_pref = pa if sa >= sb else ("b" if pb == "w" else "w")
    return (a, b) if winner_pref == "w" else (b, a)


def expected(white: int, black: int) -> float:
    """Logistic expectation with a small white advantage (simulation only)."""
    return 1.0 / (1.0 + float(10.0 ** ((black - white - 20) / 400.0)))


def draw_result(rng: random.Random, white: int, black: int) -> str:
    """'1', '=' or '0' for white, drawn from the expectation with a draw share."""
    e = expected(white, black)
    draw = 0.6 * min(e, 1.0 - e)
    x = rng.random()
    if x < e - draw / 2:
        return "1"
    if x < e + draw / 2:
        return "="
    return "0"


def play_round(
    entrants: dict[int, Entrant], schedule: Schedule, round_no: int, rng: random.Random
) -> list[tuple[int, int]]:
    """Pair and play one round; returns the boards as (white no, black no)."""
    away = schedule.absent.get(round_no, {})
    for no, code in away.items():
        entrants[no].entries.append(Entry(None, "-", code))
    available = sorted((p for p in entrants.values() if p.no not in away), key=_rank_key)
    pairs: list[tuple[Entrant, Entrant]] | None = None
    if len(available) % 2:
        for candidate in reversed(available):
            if candidate.had_bye:
                continue
            pairs = pair_players([p for p in available if p is not candidate])
            if pairs is not None:
                candidate.entries.append(Entry(None, "-", "U"))
                break
    else:
        pairs = pair_players(available)
    if pairs is None:
        raise RuntimeError(f"round {round_no}: no pairing found")
    pairs.sort(key=lambda ab: (_rank_key(ab[0]), _rank_key(ab[1])))
    boards: list[tuple[int, int]] = []
    no_shows = schedule.no_shows.get(round_no, set())
    for board, (a, b) in enumerate(pairs):
        white, black = allocate_colours(a, b, board, round_no)
        if white.no in no_shows or black.no in no_shows:
            code = "-" if white.no in no_shows else "+"
        elif (round_no, white.no) in schedule.forced:
            code = schedule.forced[(round_no, white.no)]
        elif (round_no, black.no) in schedule.forced:
            code = MIRROR[schedule.forced[(round_no, black.no)]]
        else:
            code = draw_result(rng, white.strength, black.strength)
        white.entries.append(Entry(black.no, "w", code))
        black.entries.append(Entry(white.no, "b", MIRROR[code]))
        boards.append((white.no, black.no))
    return boards


def run_swiss(
    strengths: Sequence[int], schedule: Schedule, rng: random.Random
) -> dict[int, Entrant]:
    """Play a whole Swiss; `strengths[i]` belongs to start number i + 1."""
    entrants = {i + 1: Entrant(i + 1, s) for i, s in enumerate(strengths)}
    for round_no in range(1, schedule.rounds + 1):
        for no in schedule.no_shows.get(round_no, set()):
            assert no not in schedule.absent.get(round_no, {}), (round_no, no)
        play_round(entrants, schedule, round_no, rng)
    return entrants


@dataclass(frozen=True)
class Standing:
    no: int
    rank: int
    halves: int
    bh_cut1: float  # Buchholz Cut 1
    bh: float  # Buchholz
    sb: float  # Sonneborn-Berger


def standings(entrants: dict[int, Entrant]) -> list[Standing]:
    """Final ranking: points, Buchholz Cut 1, Buchholz, Sonneborn-Berger, start number.

    An unplayed round counts the player's own points as the opponent's (a virtual
    opponent, C.07 2023 section 16 in spirit).
    """
    rows: list[tuple[int, int, int, int, int]] = []
    for p in entrants.values():
        parts = [
            entrants[e.opponent].halves if e.opponent is not None else p.halves for e in p.entries
        ]
        bh = sum(parts)
        cut = bh - min(parts) if parts else 0
        sb4 = sum(
            entrants[e.opponent].halves * HALVES[e.code]
            for e in p.entries
            if e.opponent is not None
        )
        rows.append((p.halves, cut, bh, sb4, p.no))
    rows.sort(key=lambda r: (-r[0], -r[1], -r[2], -r[3], r[4]))
    return [
        Standing(no=r[4], rank=i + 1, halves=r[0], bh_cut1=r[1] / 2, bh=r[2] / 2, sb=r[3] / 4)
        for i, r in enumerate(rows)
    ]
