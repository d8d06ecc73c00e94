"""A ten-player round-robin as a TRF16 file, for the norm tests that go through the
readers: the applicant (start number 1) plays nine opponents whose titles, federations
and ratings the test chooses; every other game is a draw."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tests.norms.norm_frames import Opp


@dataclass(frozen=True)
class Entry:
    no: int
    name: str
    sex: str
    title: str
    rating: int | None
    fed: str
    fide_id: int


def _pairings(n: int) -> list[list[tuple[int, int]]]:
    """The rounds of a round-robin of n (even) players, by the circle method."""
    order = list(range(1, n + 1))
    rounds = []
    for _ in range(n - 1):
        rounds.append([(order[i], order[n - 1 - i]) for i in range(n // 2)])
        order = [order[0], order[-1], *order[1:-1]]
    return rounds


def _line(e: Entry, points: float, cells: Sequence[str]) -> str:
    head = (
        f"001 {e.no:>4} {e.sex}{e.title:>3} {e.name:<33} {e.rating or '':>4} {e.fed:<3} "
        f"{e.fide_id:>11} {'1990/01/01':<10} {points:>4.1f} {e.no:>4}"
    )
    return head + "".join(cells)


def round_robin_trf(
    opponents: Sequence[Opp],
    *,
    applicant_fed: str = "GER",
    host: str = "GER",
    applicant_rating: int = 2300,
    sex: str = "m",
    time_control: str = "5400+30",
) -> str:
    """The TRF text: the applicant meets opponent i (start number i + 2) with the score
    `opponents[i].score`; each opponent's title, federation and rating as given."""
    assert len(opponents) == 9
    people = [Entry(1, "Applicant, Ann", sex, "", applicant_rating, applicant_fed, 90000001)]
    for i, o in enumerate(opponents):
        people.append(
            Entry(
                i + 2,
                f"Opponent{i + 2}, Otto",
                "m",
                o.title or "",
                o.rating,
                o.fed or "",
                90000002 + i,
            )
        )
    rounds = _pairings(10)
    score = {(1, i + 2): o.score for i, o in enumerate(opponents)}
    cells: dict[int, list[str]] = {e.no: [] for e in people}
    points = dict.fromkeys(cells, 0.0)
    for pairs in rounds:
        for white, black in pairs:
            if (white, black) in score:
                s = score[(white, black)]
            elif (black, white) in score:
                s = 1 - score[(black, white)]
            else:
                s = 0.5
            code = {1.0: "1", 0.5: "=", 0.0: "0"}
            cells[white].append(f"  {black:>4} w {code[s]}")
            cells[black].append(f"  {white:>4} b {code[1 - s]}")
            points[white] += s
            points[black] += 1 - s
    header = [
        "012 Norm Round Robin 2026",
        "022 Bonn",
        f"032 {host}",
        "042 2026/05/01",
        "052 2026/05/09",
        "062 10",
        "072 10",
        "092 Individual: Round-Robin",
        "102 IA Arbiter, Anna",
        "122 90 min + 30 sec per move from move 1",
        f"222 {time_control}",
    ]
    body = [_line(e, points[e.no], cells[e.no]) for e in people]
    return "\n".join([*header, *body]) + "\n"
