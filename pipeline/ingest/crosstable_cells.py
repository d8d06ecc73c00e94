"""Cell-level parsing of Swiss-Manager / chess-results crosstables (shared by CSV and XLSX).

Header texts map to fields (English, German and Spanish exports), round cells to TRF-style
result codes, and number cells (decimal comma, ``½``, floats from spreadsheets) to values.
Every parser returns ``None`` for a value it cannot read; the caller reports the problem
with its row and column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# --- headers ---------------------------------------------------------------------------

RANK_HEADERS = frozenset({"rk.", "rk", "rg.", "rg", "pos.", "pos", "rang", "rank", "pl.", "platz"})
_HEADER_FIELDS: dict[str, frozenset[str]] = {
    "rank": RANK_HEADERS,
    "sno": frozenset(
        {"sno", "sno.", "snr", "snr.", "no.", "no", "nr.", "nr", "nº", "n°", "no.st", "startnr"}
    ),
    "name": frozenset({"name", "nombre", "nom", "spieler", "player", "jugador"}),
    "title": frozenset({"tit", "tit.", "title", "titel", "tít", "tít.", "título"}),
    "federation": frozenset({"fed", "fed.", "land", "fide", "federation", "país", "pais"}),
    "rating": frozenset(
        {"rtg", "rtg.", "rtgi", "elo", "elo.", "eloi", "elo fide", "fide elo", "rating", "frtg"}
    ),
    "points": frozenset({"pts.", "pts", "pkt.", "pkt", "ptos.", "ptos", "punkte", "points"}),
    "fide_id": frozenset({"fideid", "fide-id", "fide id", "id", "fide-nr", "fide no.", "id fide"}),
    "k": frozenset({"k"}),
    "change": frozenset({"rtg+/-", "elo+/-", "rtg +/-", "elo +/-"}),
    "sex": frozenset({"sex", "geschl.", "sexo"}),
}
_FIELD_OF_HEADER = {text: field for field, texts in _HEADER_FIELDS.items() for text in texts}
_SWISS_ROUND = (
    re.compile(r"([0-9]{1,3})\s*\.?\s*(?:rd|r|rnd|rde|runde|ronda|rda)\.?", re.IGNORECASE),
    re.compile(r"(?:rd|rnd|round|runde|ronda)\.?\s*([0-9]{1,3})", re.IGNORECASE),
)
_RR_COLUMN = re.compile(r"([0-9]{1,4})\.?")


@dataclass(frozen=True)
class Header:
    """What one header cell means: a player field, a round column, or nothing we use."""

    kind: str  # a field name, 'round' (Swiss), 'opponent' (round-robin), 'blank', 'other'
    number: int = 0  # round number (Swiss) or opponent number (round-robin column)


def classify_header(text: str) -> Header:
    """``'3.Rd'`` -> round 3, ``'5'`` -> round-robin column 5, ``'Rtg'`` -> rating, ..."""
    key = " ".join(text.split()).casefold()
    if not key:
        return Header("blank")
    field = _FIELD_OF_HEADER.get(key)
    if field:
        return Header(field)
    for pattern in _SWISS_ROUND:
        found = pattern.fullmatch(key)
        if found and int(found.group(1)) >= 1:
            return Header("round", int(found.group(1)))
    found = _RR_COLUMN.fullmatch(key)
    if found and int(found.group(1)) >= 1:
        return Header("opponent", int(found.group(1)))
    return Header("other")


def is_rank_header(text: str) -> bool:
    return " ".join(text.split()).casefold() in RANK_HEADERS


def is_name_header(text: str) -> bool:
    return _FIELD_OF_HEADER.get(" ".join(text.split()).casefold()) == "name"


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
_SWISS_GAME = re.compile(rf"([0-9]{{1,6}})\s*([wbsn])\s*({_RESULT})", re.IGNORECASE)
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
BYE_WORDS = frozenset({"bye", "spielfrei", "frei", "libre", "exento", "descansa"})
_ABSENT_WORDS = frozenset(
    {"not paired", "nicht gepaart", "nicht ausgelost", "no emparejado", "sin emparejar"}
)
RR_GAME = re.compile(rf"([wbsn]?)({_RESULT})", re.IGNORECASE)
COLOUR_LETTERS = frozenset("wbsn")


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
    """``'12w1'``, ``'5b½'``, ``'7s0'``, ``'3n½'``, ``'12w+'``, ``'-1'``, ``'bye'``, ``''``..."""
    key = " ".join(text.split()).casefold()
    bye = _BYES.get(key.replace(" ", ""))
    if bye is not None:
        return RoundCell(None, None, bye[0], bye[1])
    if key in BYE_WORDS:
        return RoundCell(None, None, "U", 1.0, bye_word=True)
    if key in _ABSENT_WORDS:
        return RoundCell(None, None, "Z", 0.0)
    found = _SWISS_GAME.fullmatch(key)
    if found:
        ref, letter, result = found.groups()
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
    """Colour letters of one file -> 'w'/'b'. English w/b, German w/s, Spanish b/n: a
    file using ``n`` and no ``w`` is Spanish, where ``b`` (blancas) is white."""
    if "n" in letters and "w" not in letters:
        return {"b": "w", "n": "b"}
    return {"w": "w", "b": "b", "s": "b", "n": "b"}


MIRROR_CODE = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+"}
