"""Field-level pieces of the TRF format: column layout, value parsers and formatters.

Columns are 1-based and inclusive, as the FIDE TRF16 / TRF26 specifications number them
(reference: fide-rules.md §8 "TRF"). Parsers return None for a value they cannot read;
the reader decides whether that is an error or a warning.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import date

from schemas.ingest import PLAYED_CODES, RESULT_CODES


@dataclass(frozen=True)
class Columns:
    """A 1-based inclusive column range of a TRF line."""

    first: int
    last: int

    def cut(self, line: str) -> str:
        return line[self.first - 1 : self.last]

    def __str__(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"


# the 001 player record (TRF16 and TRF26 share it)
START_NO = Columns(5, 8)
SEX = Columns(10, 10)
TITLE = Columns(11, 13)
NAME = Columns(15, 47)
RATING = Columns(49, 52)
FEDERATION = Columns(54, 56)
FIDE_ID = Columns(58, 68)
BIRTH = Columns(70, 79)
POINTS = Columns(81, 84)
RANK = Columns(86, 89)
FIRST_ROUND = 92  # round r: opponent 92-95, colour 97, result 99, shifted 10 per round
ROUND_WIDTH = 10
RECORD_VALUE = 5  # tournament records: the value starts in column 5


def round_start(round_no: int) -> int:
    return FIRST_ROUND + ROUND_WIDTH * (round_no - 1)


def round_field(round_no: int) -> Columns:
    """The 8 significant columns of round `round_no` (92-99 for round 1)."""
    start = round_start(round_no)
    return Columns(start, start + 7)


def round_span(round_no: int) -> Columns:
    """The whole 10-column slot of a round, separators included (92-101 for round 1)."""
    start = round_start(round_no)
    return Columns(start, start + ROUND_WIDTH - 1)


def opponent_columns(round_no: int) -> Columns:
    start = round_start(round_no)
    return Columns(start, start + 3)


def colour_columns(round_no: int) -> Columns:
    start = round_start(round_no) + 5
    return Columns(start, start)


def result_columns(round_no: int) -> Columns:
    start = round_start(round_no) + 7
    return Columns(start, start)


def round_count(line: str) -> int:
    """How many round slots a line reaches into (a partly present slot counts)."""
    if len(line) < FIRST_ROUND:
        return 0
    return (len(line) - FIRST_ROUND) // ROUND_WIDTH + 1


# --- results --------------------------------------------------------------------------

FULL_POINT_CODES = frozenset({"1", "+", "W", "F", "U"})
HALF_POINT_CODES = frozenset({"=", "D", "H"})
RESULT_CODE_SET = frozenset(RESULT_CODES)
PLAYED_CODE_SET = frozenset(PLAYED_CODES)
RESULT_CODES_TEXT = " ".join(RESULT_CODES)


def result_score(code: str) -> float:
    """Points for a result code under the standard 1 / ½ / 0 scoring (§8 result codes)."""
    if code in FULL_POINT_CODES:
        return 1.0
    if code in HALF_POINT_CODES:
        return 0.5
    return 0.0


# --- players --------------------------------------------------------------------------

TITLE_NAMES = {
    "g": "GM",
    "m": "IM",
    "f": "FM",
    "c": "CM",
    "wg": "WGM",
    "wm": "WIM",
    "wf": "WFM",
    "wc": "WCM",
    "gm": "GM",
    "im": "IM",
    "fm": "FM",
    "cm": "CM",
    "wgm": "WGM",
    "wim": "WIM",
    "wfm": "WFM",
    "wcm": "WCM",
}


def normalise_title(text: str) -> str | None:
    """``g`` / ``GM`` -> ``GM`` ... ``wc`` -> ``WCM``; unknown text is kept as written."""
    value = text.strip()
    if not value:
        return None
    return TITLE_NAMES.get(value.lower(), value)


def normalise_sex(text: str) -> tuple[str | None, bool]:
    """(``'m'``, ``'w'`` or None, whether the text was understood). ``f`` reads as ``w``."""
    value = text.strip().lower()
    if not value:
        return None, True
    if value == "m":
        return "m", True
    if value in ("w", "f"):
        return "w", True
    return None, False


_UNSIGNED = re.compile(r"[0-9]+")
_POINTS = re.compile(r"([0-9]{1,3})(?:[.,]([0-9]{1,2}))?")
_BIRTH_YMD = re.compile(r"([0-9]{4})(?:[/.\-]([0-9]{1,2})[/.\-]([0-9]{1,2}))?")
_BIRTH_DMY = re.compile(r"([0-9]{1,2})[/.\-]([0-9]{1,2})[/.\-]([0-9]{4})")


def parse_unsigned(text: str, max_digits: int = 12) -> int | None:
    """A non-negative integer written in digits only (no sign, no spaces inside)."""
    value = text.strip()
    if len(value) > max_digits or not _UNSIGNED.fullmatch(value):
        return None
    return int(value)


def parse_points(text: str) -> float | None:
    """``4.0``, ``4,5``, ``4`` -> float; None when not a number of points."""
    match = _POINTS.fullmatch(text.strip())
    if match is None:
        return None
    whole, frac = match.groups()
    return float(f"{whole}.{frac or '0'}")


def format_points(points: float) -> str:
    """Points as TRF writes them: ``4.0``, ``10.5`` (one decimal when exact)."""
    text = f"{points:.1f}"
    if float(text) != points:
        text = f"{points:.2f}".rstrip("0")
    return text


def parse_birth_year(text: str) -> int | None:
    """Year from ``YYYY/MM/DD``, ``YYYY.MM.DD``, ``YYYY-MM-DD``, ``YYYY``, ``YYYY/00/00``
    or ``DD.MM.YYYY``; None when unreadable or year 0."""
    value = text.strip()
    match = _BIRTH_YMD.fullmatch(value)
    if match is not None:
        year = int(match.group(1))
    else:
        match = _BIRTH_DMY.fullmatch(value)
        if match is None:
            return None
        year = int(match.group(3))
    return year if year > 0 else None


# --- tournament records -----------------------------------------------------------------


def format_trf_date(value: date) -> str:
    """TRF26 date: ``YYYY/MM/DD``."""
    return f"{value.year:04d}/{value.month:02d}/{value.day:02d}"


_SCORING_PAIR = re.compile(r"([A-Za-z+=\-]{1,4})\s*[= ]\s*([0-9]{1,2}(?:[.,][0-9]{1,2})?)")


def parse_scoring(value: str) -> dict[str, float] | None:
    """Point values of a scoring record: TRF26 162 (``W 1.0    D 0.5    L 0.0``) or
    TRF(x) XXS (``WW=1.0 BW=1.0 ...``). Codes are upper-cased; None when nothing reads."""
    found: dict[str, float] = {}
    for code, number in _SCORING_PAIR.findall(value):
        found[code.upper()] = float(number.replace(",", "."))
    return found or None


def scoring_json(scoring: dict[str, float] | None) -> str | None:
    """The `scoring` column of the events frame: compact JSON, keys in file order."""
    if scoring is None:
        return None
    return json.dumps(scoring, separators=(",", ":"))


def format_scoring(scoring_text: str) -> str | None:
    """The 162 record value for a `scoring` column value, None if it is not a JSON object
    of numbers."""
    try:
        data = json.loads(scoring_text)
    except json.JSONDecodeError:
        return None
    if not isinstance(data, dict):
        return None
    parts: list[str] = []
    for code, points in data.items():
        if not isinstance(points, int | float) or isinstance(points, bool):
            return None
        parts.append(f"{code} {format_points(float(points))}")
    return "    ".join(parts)
