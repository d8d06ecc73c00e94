"""Classify a time control as a FIDE rating list: standard, rapid or blitz.

FIDE measures a time control by the time each player has for 60 moves: base time(s)
plus 60 times the increment (Laws of Chess, Appendices A and B; Rating Regulations
B.02 §1.1 "at least 60 minutes" for standard). The split used here:

- standard: at least 60 minutes for 60 moves;
- blitz: at most 10 minutes for 60 moves;
- rapid: anything in between.

With several periods (``40 moves in 90 min, then 30 min``) the time available for the
first 60 moves counts: every period that starts within those moves contributes its whole
base time, plus the increment of each of the 60 moves.

Three entry points:

- `classify_encoded` reads the TRF26 record 222 (seconds): ``5400+30``,
  ``40/6000+30:20/3000+30:1500+30``.
- `classify_free_text` reads what arbiters type into TRF record 122 or a crosstable
  preamble: ``90 min + 30 sec``, ``40/120, 60``, ``15+10``, ``90'+30"``,
  ``100'x40mm + 50'x20mm + 30" from move 1``. Bare numbers are minutes, a bare number
  after ``+`` (at most 60) is an increment in seconds; falls back to words (rapid,
  Blitz, Schnellschach, rápidas, standard, classical, ...).
- `classify_time_control` is the one other readers call: it takes either form. Text in
  the strict 222 grammar whose first base time is over 180 is read as seconds (``5400+30``,
  ``300+3``); anything else as free text (``90+30`` is 90 minutes + 30 seconds).

Arithmetic is exact (`fractions.Fraction` seconds); nothing here raises on any text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

STANDARD = "standard"
RAPID = "rapid"
BLITZ = "blitz"

MOVES_MEASURED = 60  # FIDE: the time for 60 moves decides the category
STANDARD_MIN_SECONDS = 60 * 60  # at least 60 minutes -> standard
BLITZ_MAX_SECONDS = 10 * 60  # at most 10 minutes -> blitz
ENCODED_MIN_BASE = 180  # `classify_time_control`: a first base above this is seconds
MAX_PERIOD_SECONDS = 24 * 60 * 60  # larger values are not a time control
MAX_MOVES = 200


@dataclass(frozen=True)
class Period:
    """One period of a time control: `moves` (None = rest of the game) in `base`
    seconds, with `increment` seconds added per move of that period."""

    moves: int | None
    base: Fraction
    increment: Fraction = Fraction(0)


def seconds_for_moves(periods: list[Period], moves: int = MOVES_MEASURED) -> Fraction:
    """Time a player has for the first `moves` moves (whole base of each period started)."""
    total = Fraction(0)
    left = moves
    for period in periods:
        if left <= 0:
            break
        total += period.base
        used = left if period.moves is None else min(left, period.moves)
        total += used * period.increment
        left -= used
    return total


def list_for_seconds(seconds: Fraction) -> str | None:
    """The rating list for a time for 60 moves; None for a zero or negative time."""
    if seconds <= 0:
        return None
    if seconds >= STANDARD_MIN_SECONDS:
        return STANDARD
    if seconds <= BLITZ_MAX_SECONDS:
        return BLITZ
    return RAPID


# --- TRF26 record 222 (seconds) ---------------------------------------------------------

_ENCODED_PERIOD = re.compile(r"(?:(\d{1,3})/)?(\d{1,6})(?:\+(\d{1,4}))?")


def parse_encoded(value: str) -> list[Period] | None:
    """Periods of an encoded time control (``40/6000+30:1500+30``), or None if malformed.

    Every period but the last must name its number of moves; the last may omit it.
    """
    text = value.strip()
    if not text:
        return None
    periods: list[Period] = []
    parts = text.split(":")
    for index, part in enumerate(parts):
        match = _ENCODED_PERIOD.fullmatch(part.strip())
        if match is None:
            return None
        moves_s, base_s, inc_s = match.groups()
        moves = int(moves_s) if moves_s is not None else None
        if moves is None and index < len(parts) - 1:
            return None
        if moves is not None and not 1 <= moves <= MAX_MOVES:
            return None
        base = Fraction(int(base_s))
        if base > MAX_PERIOD_SECONDS:
            return None
        periods.append(Period(moves, base, Fraction(int(inc_s or "0"))))
    return periods


def classify_encoded(value: str) -> str | None:
    """The list for a TRF26 222 value (``5400+30`` -> standard), None if malformed."""
    periods = parse_encoded(value)
    if periods is None:
        return None
    return list_for_seconds(seconds_for_moves(periods))


# --- free text (TRF 122, crosstable preambles) -------------------------------------------

_QUOTES = str.maketrans({"’": "'", "′": "'", "‘": "'", "´": "'", "″": '"', "“": '"', "”": '"'})

_LETTER = r"(?![a-zäöüß])"
_UNIT_HOURS = r"(?:hours|hour|hrs|hr|horas|hora|heures|heure|stunden|stunde|std|h)" + _LETTER
_UNIT_MINUTES = r"(?:(?:minutes|minute|minuten|minutos|minuto|mins|min|mn|m)" + _LETTER + r"|')"
_UNIT_SECONDS = (
    r"(?:(?:seconds|second|secondes|seconde|sekunden|sekunde|segundos|segundo|secs|sec|sek"
    r"|seg|s)" + _LETTER + r"|\")"
)
_UNIT_MOVES = (
    r"(?:moves|move|mvs|mv|mm|züge|zuege|zügen|zug|jugadas|jugada|coups|coup|"
    r"movimientos|movs|mov|z)" + _LETTER
)

_TOKEN = re.compile(
    r"(?P<hm>(?P<hm_h>\d{1,2})\s*" + _UNIT_HOURS + r"\s*(?P<hm_m>\d{1,2})"
    r"(?:\s*" + _UNIT_MINUTES + r")?)"
    r"|(?P<num>\d{1,5}(?:\.\d{1,3})?)\s*"
    r"(?:(?P<hours>" + _UNIT_HOURS + r")|(?P<minutes>" + _UNIT_MINUTES + r")"
    r"|(?P<seconds>" + _UNIT_SECONDS + r")|(?P<moves>" + _UNIT_MOVES + r"))?"
    r"|(?P<slash>/)"
    r"|(?P<plus>\+)"
    r"|(?P<times>[x×*](?=\s*\d))"
    r"|(?P<word>[a-zäöüßñáéíóúàèç]+)"
    r"|(?P<sep>[,;&.()\-:])"
)

# "from move 1", "ab Zug 41": a move number, not a quantity
_MOVE_NUMBER = re.compile(
    r"(?:move|zug|jugada|coup|movimiento)\s*(?:no\.?|nr\.?|#)?\s*\d+", re.IGNORECASE
)
_DATE_LIKE = re.compile(r"\d{1,4}[./-]\d{1,2}[./-]\d{1,4}")

_FOR_WORDS = {"for", "für", "fuer", "para", "pour", "per"}
_INC_WORDS = {"inc", "incr", "increment", "inkrement", "bonus", "incremento", "fischer"}
_PLUS_WORDS = {"plus", "mit", "with", "con", "avec"}
_GAME_WORDS = {"g", "sd", "game", "partie", "partida", "rest", "resto", "reste", "rem"}
_BRIDGE_WORDS = {"in", "then", "dann", "and", "und", "y", "et", "puis", "luego", "all", "for"}


@dataclass
class _Quantity:
    seconds: Fraction
    moves: int | None = None


def _number(text: str) -> Fraction:
    return Fraction(text)


def parse_free_text(text: str) -> tuple[list[Period], Fraction] | None:
    """Periods and the increment (seconds) of a free-text time control, None if the text
    holds no recognisable quantity. Bare numbers are read only when the text also has a
    time sign (a unit, ``+``, ``/``, ``'``) or consists of numbers and signs alone."""
    s = text.lower().translate(_QUOTES).replace("''", '"')
    s = _MOVE_NUMBER.sub(" ", s)
    s = _DATE_LIKE.sub(" ", s)
    tokens = [m for m in _TOKEN.finditer(s) if m.group(0).strip()]
    kinds = [_kind(m) for m in tokens]
    has_sign = any(
        kind in ("slash", "plus", "times", "hm") or (kind == "num" and _unit_of(m) is not None)
        for kind, m in zip(kinds, tokens, strict=True)
    )
    bare_only = all(kind in ("num", "sep") for kind in kinds)
    times: list[_Quantity] = []
    increment: Fraction | None = None
    pending_moves: int | None = None
    previous: str | None = None  # kind of the previous meaningful token

    for index, tok in enumerate(tokens):
        kind = kinds[index]
        following = kinds[index + 1] if index + 1 < len(tokens) else None
        following_text = tokens[index + 1].group(0) if index + 1 < len(tokens) else ""
        if kind == "hm":
            hours = _number(tok.group("hm_h"))
            minutes = _number(tok.group("hm_m"))
            times.append(_Quantity(hours * 3600 + minutes * 60, pending_moves))
            pending_moves = None
            previous = "time"
            continue
        if kind == "num":
            value = _number(tok.group("num"))
            unit = _unit_of(tok)
            if unit == "seconds":
                increment = value if increment is None else max(increment, value)
                previous = "inc"
                continue
            if unit == "moves":
                moves = int(value) if value.denominator == 1 else None
                if moves is None or not 1 <= moves <= MAX_MOVES:
                    return None
                if previous in ("times", "for", "slash-after-time") and times:
                    times[-1].moves = moves
                else:
                    pending_moves = moves
                previous = "moves"
                continue
            if unit in ("hours", "minutes"):
                factor = 3600 if unit == "hours" else 60
                times.append(_Quantity(value * factor, pending_moves))
                pending_moves = None
                previous = "time"
                continue
            # a bare number
            if not (has_sign or bare_only):
                previous = "ignored"
                continue
            if following == "slash":
                moves = int(value) if value.denominator == 1 else None
                if moves is None or not 1 <= moves <= MAX_MOVES:
                    return None
                pending_moves = moves
                previous = "moves"
                continue
            if previous in ("times", "for") and times and value.denominator == 1:
                times[-1].moves = int(value)
                previous = "moves"
                continue
            if (
                previous in ("plus", "inc-word")
                and times
                and (previous == "inc-word" or value <= 60)
            ):
                increment = value if increment is None else max(increment, value)
                previous = "inc"
                continue
            if following == "word" and following_text not in _NUMBER_WORDS:
                previous = "ignored"  # "7 rounds", "10 players"
                continue
            times.append(_Quantity(value * 60, pending_moves))
            pending_moves = None
            previous = "time"
            continue
        if kind == "slash":
            previous = "slash-after-time" if previous == "time" else "slash"
            continue
        if kind == "plus":
            previous = "plus"
            continue
        if kind == "times":
            previous = "times"
            continue
        if kind == "word":
            word = tok.group(0)
            if word in _FOR_WORDS and previous == "time":
                previous = "for"
            elif word in _INC_WORDS:
                previous = "inc-word"
            elif word in _PLUS_WORDS:
                previous = "plus"
            elif word in _GAME_WORDS or word in _BRIDGE_WORDS:
                pass
            else:
                previous = "word"
            continue
        previous = "sep"

    if not times:
        return None
    periods: list[Period] = []
    for quantity in times:
        if quantity.seconds <= 0 or quantity.seconds > MAX_PERIOD_SECONDS:
            return None
        if quantity.moves is not None and not 1 <= quantity.moves <= MAX_MOVES:
            return None
        periods.append(Period(quantity.moves, quantity.seconds))
    return periods, increment or Fraction(0)


_NUMBER_WORDS = _BRIDGE_WORDS | _INC_WORDS | _PLUS_WORDS | _GAME_WORDS
_KINDS = ("hm", "num", "slash", "plus", "times", "word", "sep")


def _kind(tok: re.Match[str]) -> str:
    for kind in _KINDS:
        if tok.group(kind) is not None:
            return kind
    return "sep"  # unreachable: every alternative is one of the kinds


def _unit_of(tok: re.Match[str]) -> str | None:
    for unit in ("hours", "minutes", "seconds", "moves"):
        if tok.group(unit) is not None:
            return unit
    return None


_WORDS: dict[str, tuple[str, ...]] = {
    STANDARD: (
        "standard",
        "classical",
        "classic",
        "klassisch",
        "langpartie",
        "estándar",
        "estandar",
        "clásic",
        "clasic",
        "lentas",
        "cadence lente",
    ),
    RAPID: ("rapid", "rápid", "rapide", "schnellschach", "schnell", "semi-rapid"),
    BLITZ: ("blitz", "lightning", "bullet"),
}


def classify_words(text: str) -> str | None:
    """The list named by words in `text` (``(Standard)``, ``Schnellschach``, ``Blitz``);
    None when no list or more than one list is named."""
    s = text.lower()
    found = {name for name, words in _WORDS.items() if any(w in s for w in words)}
    if len(found) == 1:
        return found.pop()
    return None


def _free_text_seconds(text: str) -> Fraction | None:
    """Each player's time for 60 moves by a free-text time control's numbers."""
    parsed = parse_free_text(text)
    if parsed is None:
        return None
    periods, increment = parsed
    return seconds_for_moves([Period(p.moves, p.base, increment) for p in periods])


def classify_free_text(text: str) -> str | None:
    """The list for a free-text time control: its numbers first, else its words."""
    seconds = _free_text_seconds(text)
    found = list_for_seconds(seconds) if seconds is not None else None
    return found if found is not None else classify_words(text)


def _encoded_periods(text: str) -> list[Period] | None:
    """The periods of text in the TRF26 encoded grammar read as seconds (its first base
    time over ENCODED_MIN_BASE), else None (free text)."""
    periods = parse_encoded(text)
    return periods if periods is not None and periods[0].base > ENCODED_MIN_BASE else None


def classify_time_control(text: str) -> str | None:
    """Standard, rapid or blitz for a time control in either form, None if unknown.

    Text in the TRF26 encoded grammar whose first base time is over 180 is read as
    seconds (``5400+30``, ``300+3``, ``40/6000+30:1500+30``); everything else is free
    text, so ``90+30`` is 90 minutes + 30 seconds and ``180+2`` is 180 minutes + 2 s.
    """
    periods = _encoded_periods(text)
    if periods is not None:
        return list_for_seconds(seconds_for_moves(periods))
    return classify_free_text(text)


def seconds_for_time_control(text: str) -> Fraction | None:
    """Each player's time for 60 moves (base times plus 60 increments) of a time control in
    either form (see `classify_time_control`), None when its numbers do not read."""
    periods = _encoded_periods(text)
    seconds = seconds_for_moves(periods) if periods is not None else _free_text_seconds(text)
    return seconds if seconds is not None and seconds > 0 else None
