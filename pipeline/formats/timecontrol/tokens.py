"""A free-text time control cut into tokens for `timecontrol.text`'s parser: the text
normalized (`normalize`: case folded, quotes made ASCII, move numbers marked, number words
made digits, dates blanked), split by colour when it names both (`split_colours`), and
read into `Token`s (`tokenize`): times, seconds, move counts, bare numbers, move numbers,
delays, signs and words by their role. The words are those of `timecontrol.words`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from pipeline.formats.timecontrol.words import (
    AFTER,
    ARTICLE,
    BLACK,
    FIRST,
    FROM,
    LIST_WORDS,
    MOVE_ONE,
    NUMBER_WORDS,
    ROLES,
    UNITS,
    WHITE,
)


def _all(words: dict[str, tuple[str, ...]]) -> list[str]:
    return [w for lang_words in words.values() for w in lang_words]


def _alt(words: list[str] | tuple[str, ...]) -> str:
    """A regex alternation of `words`, longest first."""
    return "|".join(sorted({re.escape(w) for w in words}, key=len, reverse=True))


_NO_LETTER = r"(?![^\W\d_])"
_HOURS = rf"(?:(?:{_alt(_all(UNITS['hours']))}){_NO_LETTER})"
_MINUTES = rf"(?:(?:{_alt(_all(UNITS['minutes']))}){_NO_LETTER}|')"
_SECONDS = rf"(?:(?:{_alt(_all(UNITS['seconds']))}){_NO_LETTER}|\")"
_MOVES = rf"(?:(?:{_alt(_all(UNITS['moves']))}){_NO_LETTER})"
_ANY_UNIT = rf"(?:{_HOURS}|{_MINUTES}|{_SECONDS}|{_MOVES}|/)"

_TOKEN = re.compile(
    r"@from(?P<from>\d{1,3})@"
    rf"|(?P<hm>(?P<hm_h>\d{{1,2}}):(?P<hm_m>[0-5]\d)(?::(?P<hm_s>[0-5]\d))?(?!\d)"
    rf"(?:\s*(?:(?P<hm_hours>{_HOURS})|(?P<hm_minutes>{_MINUTES})))?)"
    rf"|(?P<hd>(?P<hd_h>\d)\.(?P<hd_m>[0-5]\d)\s*(?:uur|h){_NO_LETTER})"
    rf"|(?P<hh>(?P<hh_h>\d{{1,2}})\s*{_HOURS}\.?\s*(?:(?:and|und|et|e|y|en)\s+)?"
    rf"(?P<hh_m>\d{{1,2}})(?![\d.,]\d)(?:\s*{_MINUTES})?(?!\s*(?:{_SECONDS}|{_MOVES}|/)))"
    r"|(?P<delay>(?<![^\W\d_])d\s?/?\s?(?P<dval>\d{1,3})(?![\d.]))"
    rf"|(?P<num>\d{{1,5}}(?:\.\d{{1,3}}|,\d{{1,2}}(?=\s*(?:{_HOURS}|{_MINUTES}|{_SECONDS})))?)"
    rf"(?:[\s-]*(?:(?P<hours>{_HOURS})|(?P<minutes>{_MINUTES})|(?P<seconds>{_SECONDS})"
    rf"|(?P<moves>{_MOVES})))?"
    r"|(?P<slash>/)|(?P<plus>\+)|(?P<times>(?<![^\W\d_])x(?=\s*\d))"
    r"|(?P<word>[^\W\d_]+)|(?P<sep>[,;:.()\[\]&|-])"
)
_MOVE_NUMBER = re.compile(
    rf"(?<![^\W\d_])(?:(?P<prep>{_alt(FROM + AFTER)})\s+)?(?:{ARTICLE})?"
    rf"(?:(?:{_alt(MOVE_ONE)})\.?\s*(?:no\.?\s*|nr\.?\s*|#\s*)?"
    rf"(?P<n1>\d{{1,3}}|{_alt(FIRST)})(?!\d|[.,]\d|\s*{_ANY_UNIT}|[^\W\d_])"
    rf"|(?P<n2>\d{{1,3}}(?:\.|st|nd|rd|th|er|e|ème|°|º|ª)|{_alt(FIRST)})\s+"
    rf"(?:{_alt(MOVE_ONE)}){_NO_LETTER})"
)
_NUMBER_WORD = re.compile(
    rf"(?<![^\W\d_])({_alt(list(NUMBER_WORDS))})(?=[\s-]+(?:{_HOURS}|{_MINUTES}|{_SECONDS}"
    rf"|{_MOVES}))"
)
_DATE = re.compile(r"(?<!\d)\d{1,4}[./-]\d{1,2}[./-]\d{2,4}(?!\d)")
_QUOTES = str.maketrans(
    {"’": "'", "‘": "'", "`": "'", "´": "'", "′": "'", "ʼ": "'", "″": '"', "“": '"', "”": '"',
     "„": '"', "×": " x "}
)  # fmt: skip
_WHITE_WORD = re.compile(rf"(?<![^\W\d_])(?:{_alt(WHITE)}){_NO_LETTER}")
_BLACK_WORD = re.compile(rf"(?<![^\W\d_])(?:{_alt(BLACK)}){_NO_LETTER}")
_CLAUSE = re.compile(r"[,;]|\s(?:and|und|y|et|e|en|и|-|–)\s")


def _role_of() -> dict[str, str]:
    found: dict[str, str] = {}
    for role, words in ROLES.items():
        for word in _all(words):
            found.setdefault(word, role)
    for words in LIST_WORDS.values():
        for word in _all(words):
            found.setdefault(word, "list")
    for word in _all(UNITS["moves"]):
        found.setdefault(word, "move")
    return found


_ROLE = _role_of()


@dataclass(frozen=True)
class Token:
    """One piece of a normalized text: its kind, its value in seconds or moves, and a
    word's role or a sign's character."""

    kind: str  # time, secs, moves, bare, from, delay, slash, plus, times, word, sep
    value: Fraction = Fraction(0)
    text: str = ""  # a word's role, a separator's character


def normalize(text: str) -> str:
    """Case folded, quotes and primes made ASCII, move numbers marked (`@from41@`), number
    words before a unit made digits, dates blanked."""
    s = text.casefold().translate(_QUOTES).replace("''", '"')
    s = re.sub(r"(\d)\s*»", r'\1"', s)
    s = _DATE.sub(" ", s)
    s = _NUMBER_WORD.sub(lambda m: str(NUMBER_WORDS[m.group(1)]), s)
    return _MOVE_NUMBER.sub(_move_number, s)


def _move_number(match: re.Match[str]) -> str:
    raw = (match.group("n1") or match.group("n2") or "").rstrip(".stndrhèmeº°ª")
    number = int(raw) if raw.isdigit() else 1
    if match.group("prep") in AFTER:
        number += 1
    return f" @from{number}@ "


def tokenize(s: str) -> list[Token]:
    """The tokens of a normalized text (`normalize`), in order."""
    found: list[Token] = []
    for m in _TOKEN.finditer(s):
        if m.group("from"):
            found.append(Token("from", Fraction(int(m.group("from")))))
        elif m.group("hm"):
            found.append(_clock(m))
        elif m.group("hd"):
            found.append(Token("time", Fraction(int(m["hd_h"]) * 3600 + int(m["hd_m"]) * 60)))
        elif m.group("hh"):
            found.append(Token("time", Fraction(int(m["hh_h"]) * 3600 + int(m["hh_m"]) * 60)))
        elif m.group("delay"):
            found.append(Token("delay", Fraction(int(m.group("dval")))))
        elif m.group("num"):
            found.append(_quantity(m))
        elif m.group("word"):
            found.append(Token("word", text=_ROLE.get(m.group("word"), "unknown")))
        else:
            kind = next(k for k in ("slash", "plus", "times", "sep") if m.group(k))
            found.append(Token(kind, text=m.group(kind)))
    return found


def _clock(m: re.Match[str]) -> Token:
    """`1:30` (hours), `1:30:00`, `1:35 uur`; `15:00 min` (minutes:seconds); `14:30` is a
    clock time, not a period."""
    first, second = int(m["hm_h"]), int(m["hm_m"])
    if m.group("hm_minutes"):
        return Token("time", Fraction(first * 60 + second))
    if m.group("hm_hours") or m.group("hm_s") or first <= 2:
        return Token("time", Fraction(first * 3600 + second * 60 + int(m["hm_s"] or 0)))
    return Token("word", text="unknown")


def _quantity(m: re.Match[str]) -> Token:
    value = Fraction(m.group("num").replace(",", "."))
    if m.group("hours"):
        return Token("time", value * 3600)
    if m.group("minutes"):
        return Token("time", value * 60)
    if m.group("seconds"):
        return Token("secs", value)
    if m.group("moves"):
        return Token("moves", value)
    return Token("bare", value)


def split_colours(text: str) -> tuple[str, str] | None:
    """White's and Black's text of a time control that names both colours (``10 minutes
    for white and 7 minutes for black, with ...``): each clause naming one colour goes to
    that colour, the others to both; None when the text does not name both."""
    s = text.casefold()
    if not (_WHITE_WORD.search(s) and _BLACK_WORD.search(s)):
        return None
    clauses = _CLAUSE.split(s)
    white = " , ".join(c for c in clauses if not _BLACK_WORD.search(c))
    black = " , ".join(c for c in clauses if not _WHITE_WORD.search(c))
    return white, black


__all__ = ["Token", "normalize", "split_colours", "tokenize"]
