"""Month names and their short forms in the languages real files are written in (English,
German, Spanish, French, Italian, Portuguese, Dutch), for dates written with words
(``May 29, 2020``, ``29. Mai 2020``, ``29 de mayo de 2020``): `month_number`."""

from __future__ import annotations

import unicodedata

_MONTH_NAMES: dict[str, tuple[tuple[str, ...], ...]] = {
    "en": (("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"),
           ("may",), ("june", "jun"), ("july", "jul"), ("august", "aug"),
           ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
           ("december", "dec")),
    "de": (("januar", "jan", "jänner", "jän"), ("februar", "feb", "feber"), ("märz", "mär", "mrz"),
           ("april", "apr"), ("mai",), ("juni", "jun"), ("juli", "jul"), ("august", "aug"),
           ("september", "sep", "sept"), ("oktober", "okt"), ("november", "nov"),
           ("dezember", "dez")),
    "es": (("enero", "ene"), ("febrero", "feb"), ("marzo", "mar"), ("abril", "abr"),
           ("mayo", "may"), ("junio", "jun"), ("julio", "jul"), ("agosto", "ago"),
           ("septiembre", "setiembre", "sep", "sept", "set"), ("octubre", "oct"),
           ("noviembre", "nov"), ("diciembre", "dic")),
    "fr": (("janvier", "janv", "jan"), ("février", "févr", "fév", "fevrier", "fevr"),
           ("mars", "mar"), ("avril", "avr"), ("mai",), ("juin",), ("juillet", "juil"),
           ("août", "aout"), ("septembre", "sept", "sep"), ("octobre", "oct"),
           ("novembre", "nov"), ("décembre", "déc", "decembre", "dec")),
    "it": (("gennaio", "gen"), ("febbraio", "feb"), ("marzo", "mar"), ("aprile", "apr"),
           ("maggio", "mag"), ("giugno", "giu"), ("luglio", "lug"), ("agosto", "ago"),
           ("settembre", "set"), ("ottobre", "ott"), ("novembre", "nov"),
           ("dicembre", "dic")),
    "pt": (("janeiro", "jan"), ("fevereiro", "fev"), ("março", "mar"), ("abril", "abr"),
           ("maio", "mai"), ("junho", "jun"), ("julho", "jul"), ("agosto", "ago"),
           ("setembro", "set"), ("outubro", "out"), ("novembro", "nov"),
           ("dezembro", "dez")),
    "nl": (("januari", "jan"), ("februari", "feb"), ("maart", "mrt", "mar"), ("april", "apr"),
           ("mei",), ("juni", "jun"), ("juli", "jul"), ("augustus", "aug"),
           ("september", "sep", "sept"), ("oktober", "okt"), ("november", "nov"),
           ("december", "dec")),
}  # fmt: skip


def fold(word: str) -> str:
    """Case and diacritics folded: ``'Févr'`` -> ``'fevr'``."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _months() -> dict[str, int]:
    found: dict[str, int] = {}
    for names in _MONTH_NAMES.values():
        for number, forms in enumerate(names, start=1):
            for form in forms:
                key = fold(form)
                if found.setdefault(key, number) != number:
                    raise ValueError(f"month word {form!r} names two months")
    return found


MONTHS: dict[str, int] = _months()


def month_number(word: str) -> int | None:
    """``'Mai'`` -> 5, ``'févr'`` -> 2, ``'setembro'`` -> 9; None for other words."""
    return MONTHS.get(fold(word).rstrip("."))
