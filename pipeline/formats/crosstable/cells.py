"""Cell-level parsing of Swiss-Manager / chess-results crosstables (shared by CSV and XLSX).

Header texts map to fields (the words of `pipeline.formats.crosstable.vocabulary`, every language in
one table), round cells to TRF-style result codes, and number cells (decimal comma,
``½``, floats from spreadsheets) to values. This is the cell grammar of both layouts:

- Swiss round cell: opponent number, colour letter, result: ``12w1``, `` 5b½``, ``7s0``,
  ``3n½``, ``12w+`` / ``12b-`` (forfeit; ``-`` on both sides is a double forfeit),
  ``12w`` (paired, no result yet: pending), ``-1`` / ``-½`` / ``-0`` / ``+`` (byes),
  ``0``, ``-``, ``*``, empty, ``not paired`` (no game), a bye word (``bye``, ``spielfrei``).
- Round-robin cell: ``*`` (the player's own column) or empty (no game), else one result
  per game, each optionally after a colour letter: ``1``, ``½``, ``0``, ``+``, ``-``,
  ``=``, ``1/2``, ``0.5`` (``1½`` for two games of a double round-robin).
Every parser returns ``None`` for a value it cannot read; the caller reports the problem
with its row and column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.formats.crosstable.vocabulary import (
    BYE_WORD_SET,
    COLOURS,
    FIELD_OF_HEADER,
    NOT_PAIRED_SET,
    ROUND_HEADER,
    fold,
    header_key,
)
from schemas.ingest import PENDING_CODE

# --- headers ---------------------------------------------------------------------------

_RR_COLUMN = re.compile(r"([0-9]{1,4})\.?")
LEAD_FIELDS = ("rank", "sno")  # what a header row's first column can be


@dataclass(frozen=True)
class Header:
    """What one header cell means: a player field, a round column, or nothing we use."""

    kind: str  # a field name, 'round' (Swiss), 'opponent' (round-robin), 'blank', 'other'
    number: int = 0  # round number (Swiss) or opponent number (round-robin column)


def classify_header(text: str) -> Header:
    """``'3.Rd'`` -> round 3, ``'5'`` -> round-robin column 5, ``'Rtg'`` -> rating, ...
    (the words of every language in `pipeline.formats.crosstable.vocabulary`)."""
    key = header_key(text)
    if not key:
        return Header("blank")
    field = FIELD_OF_HEADER.get(key)
    if field:
        return Header(field)
    found = ROUND_HEADER.fullmatch(key)
    if found:
        number = int(found.group("n1") or found.group("n2"))
        if number >= 1:
            return Header("round", number)
    found = _RR_COLUMN.fullmatch(key)
    if found and int(found.group(1)) >= 1:
        return Header("opponent", int(found.group(1)))
    return Header("other")


def is_lead_header(text: str) -> bool:
    """The first column of a header row: ``Rk.`` (final ranking) or ``No.`` (starting rank)."""
    return FIELD_OF_HEADER.get(header_key(text)) in LEAD_FIELDS


def is_name_header(text: str) -> bool:
    return FIELD_OF_HEADER.get(header_key(text)) == "name"


# --- values ----------------------------------------------------------------------------

_FLOAT_INTEGRAL = re.compile(r"(-?[0-9]+)\.0+")
_DECIMAL = re.compile(r"([+-]?)([0-9]{0,6})(?:[.,]([0-9]{1,6}))?")
_INTEGER = re.compile(r"[0-9]{1,12}")
_MINUS_SIGNS = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2012": "-", "\xa0": " "})


def normalize_cell(value: object) -> str:
    """A cell as text: stripped, NBSP and typographic minus folded, ``2482.0`` -> ``2482``."""
    if value is None:
        return ""
    text = str(value).translate(_MINUS_SIGNS).strip()
    found = _FLOAT_INTEGRAL.fullmatch(text)
    return found.group(1) if found else text


def parse_int(text: str) -> int | None:
    """A non-negative integer of up to 12 digits, else None."""
    return int(text) if _INTEGER.fullmatch(text) else None


def parse_decimal(text: str) -> float | None:
    """``'3,5'``, ``'3.5'``, ``'3½'``, ``'½'``, ``'-12,4'``, ``'+5'`` -> float; else None."""
    text = text.replace(" ", "")
    half = text.endswith("½")
    if half:
        text = text[:-1]
        if text in ("", "+", "-"):
            text += "0"
    found = _DECIMAL.fullmatch(text)
    if not found or not (found.group(2) or found.group(3)):
        return None
    sign, whole, frac = found.groups()
    value = float(f"{whole or 0}.{frac or 0}") + (0.5 if half else 0.0)
    return -value if sign == "-" else value


# --- round cells -----------------------------------------------------------------------

# result as written -> (TRF code, score)
_RESULTS: dict[str, tuple[str, float]] = {
    "1": ("1", 1.0),
    "0": ("0", 0.0),
    "½": ("=", 0.5),
    "=": ("=", 0.5),
    "0.5": ("=", 0.5),
    "0,5": ("=", 0.5),
    "1/2": ("=", 0.5),
    "+": ("+", 1.0),
    "-": ("-", 0.0),
}
_RESULT = r"(?:1/2|0[.,]5|[10½=+-])"
COLOUR_LETTERS = frozenset(letter for pair in COLOURS.values() for letter in pair)
_LETTER = f"[{''.join(sorted(COLOUR_LETTERS))}]"
_SWISS_GAME = re.compile(rf"([0-9]{{1,6}})\s*({_LETTER})\s*({_RESULT})", re.IGNORECASE)
_SWISS_PENDING = re.compile(rf"([0-9]{{1,6}})\s*({_LETTER})", re.IGNORECASE)
_SWISS_NO_COLOUR = re.compile(rf"([0-9]{{1,6}})(?:\s+({_RESULT})|\s*(1/2|[½=+-]))")
_BYES: dict[str, tuple[str, float]] = {
    "-1": ("U", 1.0),
    "-½": ("H", 0.5),
    "-=": ("H", 0.5),
    "-0.5": ("H", 0.5),
    "-0,5": ("H", 0.5),
    "-0": ("Z", 0.0),
    "0": ("Z", 0.0),  # '-0' typed into a spreadsheet as a number
    "+": ("F", 1.0),
    "-": ("Z", 0.0),
    "*": ("Z", 0.0),
    "": ("Z", 0.0),
}
RR_GAME = re.compile(rf"({_LETTER}?)({_RESULT})", re.IGNORECASE)


@dataclass(frozen=True)
class RoundCell:
    """One parsed round entry. `ref` is the opponent number as written (rank or start
    number, resolved later); `letter` is the colour letter as written (``w b s n``)."""

    ref: int | None
    letter: str | None
    code: str
    score: float
    bye_word: bool = False


def parse_swiss_cell(text: str) -> RoundCell | None:
    """``'12w1'``, ``'5b½'``, ``'7s0'``, ``'3n½'``, ``'12w+'``, ``'12w'`` (pending), ``'-1'``,
    ``'bye'``, ``''``..."""
    key = " ".join(text.split()).casefold()
    bye = _BYES.get(key.replace(" ", ""))
    if bye is not None:
        return RoundCell(None, None, bye[0], bye[1])
    folded = fold(key)
    if folded in BYE_WORD_SET:
        return RoundCell(None, None, "U", 1.0, bye_word=True)
    if folded in NOT_PAIRED_SET:
        return RoundCell(None, None, "Z", 0.0)
    found = _SWISS_GAME.fullmatch(key)
    if found:
        ref, letter, result = found.groups()
    elif pending := _SWISS_PENDING.fullmatch(key):
        ref, letter = pending.groups()
        return RoundCell(int(ref), letter, PENDING_CODE, 0.0)
    else:
        found = _SWISS_NO_COLOUR.fullmatch(key)
        if not found:
            return None
        ref, letter, result = found.group(1), None, found.group(2) or found.group(3)
    code, score = _RESULTS[result]
    return RoundCell(int(ref), letter, code, score)


def parse_rr_cell(text: str) -> list[RoundCell] | None:
    """A round-robin cell: ``''``/``'*'`` -> no game, ``'½'`` -> one, ``'1½'`` -> two
    (double round-robin); an optional colour letter may precede each result."""
    key = "".join(text.split()).casefold()
    if key in ("", "*"):
        return []
    games: list[RoundCell] = []
    pos = 0
    while pos < len(key):
        found = RR_GAME.match(key, pos)
        if not found or len(games) >= 8:
            return None
        letter, result = found.groups()
        code, score = _RESULTS[result]
        games.append(RoundCell(None, letter or None, code, score))
        pos = found.end()
    return games


def colour_map(letters: set[str]) -> dict[str, str]:
    """Colour letters of one file -> 'w'/'b' (`vocabulary.COLOURS`). English w/b, German
    w/s, Spanish b/n: a file using ``n`` and no ``w`` is Spanish, where ``b`` (blancas)
    is white."""
    white, black = COLOURS["es"]
    if black in letters and COLOURS["en"][0] not in letters:
        return {white: "w", black: "b"}
    return {w: "w" for w, _ in COLOURS.values() if w != white} | {
        b: "b" for _, b in COLOURS.values()
    }


MIRROR_CODE = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+", PENDING_CODE: PENDING_CODE}


def mirrors(code: str, other: str) -> bool:
    """Whether `other` is the opponent's side of `code`: the mirrored result, or a forfeit
    loss on both sides (a double forfeit)."""
    return MIRROR_CODE.get(code) == other or code == other == "-"
