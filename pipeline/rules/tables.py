"""FIDE's two rating tables as Python literals, in exact integers.

- Table 8.1.2 (FIDE Handbook B.02, Rating Regulations applied from 1 March 2024):
  rating difference D -> expected score PD, in integer hundredths. For D >= 0 the H
  column applies, for D < 0 the L column at |D|; |D| > 735 gives 1.00 / 0.00.
- Table 8.1.1 (same regulations): fractional score p -> rating difference dp, used for
  initial ratings; p is given in integer hundredths 0..100.

The literals are checked against the CSV copies of the regulation in a test.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Final

# Table 8.1.2: (D_min, D_max, PD_H, PD_L) with PD in hundredths; the last row is
# open-ended (|D| > 735).
PD_TABLE: Final[tuple[tuple[int, int | None, int, int], ...]] = (
    (0, 3, 50, 50),
    (4, 10, 51, 49),
    (11, 17, 52, 48),
    (18, 25, 53, 47),
    (26, 32, 54, 46),
    (33, 39, 55, 45),
    (40, 46, 56, 44),
    (47, 53, 57, 43),
    (54, 61, 58, 42),
    (62, 68, 59, 41),
    (69, 76, 60, 40),
    (77, 83, 61, 39),
    (84, 91, 62, 38),
    (92, 98, 63, 37),
    (99, 106, 64, 36),
    (107, 113, 65, 35),
    (114, 121, 66, 34),
    (122, 129, 67, 33),
    (130, 137, 68, 32),
    (138, 145, 69, 31),
    (146, 153, 70, 30),
    (154, 162, 71, 29),
    (163, 170, 72, 28),
    (171, 179, 73, 27),
    (180, 188, 74, 26),
    (189, 197, 75, 25),
    (198, 206, 76, 24),
    (207, 215, 77, 23),
    (216, 225, 78, 22),
    (226, 235, 79, 21),
    (236, 245, 80, 20),
    (246, 256, 81, 19),
    (257, 267, 82, 18),
    (268, 278, 83, 17),
    (279, 290, 84, 16),
    (291, 302, 85, 15),
    (303, 315, 86, 14),
    (316, 328, 87, 13),
    (329, 344, 88, 12),
    (345, 357, 89, 11),
    (358, 374, 90, 10),
    (375, 391, 91, 9),
    (392, 411, 92, 8),
    (412, 432, 93, 7),
    (433, 456, 94, 6),
    (457, 484, 95, 5),
    (485, 517, 96, 4),
    (518, 559, 97, 3),
    (560, 619, 98, 2),
    (620, 735, 99, 1),
    (736, None, 100, 0),
)

# Largest |D| the table distinguishes; every |D| above it gives PD 1.00 / 0.00.
PD_TABLE_MAX_D: Final[int] = 735

_UPPER_BOUNDS: Final[tuple[int, ...]] = tuple(row[1] for row in PD_TABLE if row[1] is not None)

# PD_H by |D| for |D| = 0..736 (index 736 stands for every |D| > 735); the lookup
# table the vectorized engine gathers from.
PD_HIGH_BY_ABS_D: Final[tuple[int, ...]] = tuple(
    PD_TABLE[bisect_left(_UPPER_BOUNDS, a)][2] for a in range(PD_TABLE_MAX_D + 2)
)


def expected_hundredths(d: int) -> int:
    """PD in hundredths for a (capped) rating difference D = own - opponent."""
    a = abs(d)
    high = PD_HIGH_BY_ABS_D[min(a, PD_TABLE_MAX_D + 1)]
    return high if d >= 0 else 100 - high


# Table 8.1.1: dp for p = 0.00, 0.01, ..., 1.00 (index = p in hundredths).
DP_BY_P: Final[tuple[int, ...]] = (
    -800, -677, -589, -538, -501, -470, -444, -422, -401, -383,
    -366, -351, -336, -322, -309, -296, -284, -273, -262, -251,
    -240, -230, -220, -211, -202, -193, -184, -175, -166, -158,
    -149, -141, -133, -125, -117, -110, -102, -95, -87, -80,
    -72, -65, -57, -50, -43, -36, -29, -21, -14, -7,
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65,
    72, 80, 87, 95, 102, 110, 117, 125, 133, 141,
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230,
    240, 251, 262, 273, 284, 296, 309, 322, 336, 351,
    366, 383, 401, 422, 444, 470, 501, 538, 589, 677,
    800,
)  # fmt: skip


def dp_for_p(p_hundredths: int) -> int:
    """dp of table 8.1.1 for a score fraction p given in hundredths (0..100)."""
    if not 0 <= p_hundredths <= 100:
        raise ValueError(f"expected p in hundredths 0..100, got {p_hundredths}")
    return DP_BY_P[p_hundredths]
