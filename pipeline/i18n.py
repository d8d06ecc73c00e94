"""The languages of the readable outputs (`--lang en|es|it`): texts and numbers.

    lang_from_env(os.environ) -> "it"           # LC_ALL, LC_MESSAGES, LANG; else "en"
    parse_lang("es") -> "es"                    # ValueError for any other value
    tr = translator("it")
    tr._("New rating"), tr.ngettext("{n} event", "{n} events", n).format(n=n)
    tr.number(Decimal("12.8"), 1, sign=True) -> "+12,8"
    tr.percent(Decimal("0.3599")) -> "35,99%"
    tr.date(date(2026, 12, 1)) -> "1 dicembre 2026"

Texts come from the gettext catalogs `pipeline/locale/<lang>/LC_MESSAGES/elo.mo` (compiled
from the `elo.po` beside them); the English texts are the msgids, so English needs no
catalog. Numbers, percentages and dates are Babel's (CLDR locale data). Message codes,
file names and the CSV / JSON outputs are never translated.

Choices:
- Numbers are rounded by the caller (exact Decimal arithmetic, half away from zero) and
  only written here: the decimal separator and signs of the locale, never a group
  separator (ratings are written 1512, not 1.512).
- English keeps ISO dates (2026-12-01), as the English outputs always had; the other
  languages write their locale's long date (1 dicembre 2026, 1 de diciembre de 2026).
- `N_` only marks a text for the catalogs (where it is looked up later, by `tr._`).
"""

from __future__ import annotations

import copy
import datetime as dt
import functools
import gettext
import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from babel import Locale

LANGS: Final[tuple[str, ...]] = ("en", "es", "it")
DEFAULT_LANG: Final = "en"
DOMAIN: Final = "elo"
LOCALE_DIR: Final = Path(__file__).resolve().parent / "locale"
ENV_VARS: Final[tuple[str, ...]] = ("LC_ALL", "LC_MESSAGES", "LANG")  # POSIX precedence


def N_(message: str) -> str:
    """Mark `message` for the catalogs without translating it (translated where used)."""
    return message


def lang_from_env(environ: Mapping[str, str]) -> str:
    """The language of the environment's locale: the first of LC_ALL, LC_MESSAGES and
    LANG that is set (`it_IT.UTF-8` -> it); English when that one is another language,
    `C` or `POSIX`, or when none is set."""
    for name in ENV_VARS:
        value = environ.get(name, "").strip()
        if value:
            code = re.split(r"[_.@-]", value, maxsplit=1)[0].lower()
            return code if code in LANGS else DEFAULT_LANG
    return DEFAULT_LANG


def parse_lang(text: str) -> str:
    """`en`, `es` or `it` (any case); ValueError naming the value otherwise."""
    code = text.strip().lower()
    if code not in LANGS:
        raise ValueError(f"expected one of {', '.join(LANGS)}, got {text!r}")
    return code


def _excel_date_format(cldr: str) -> str:
    """An Excel number format from a CLDR date pattern: dd/MM/yy -> dd/mm/yyyy."""
    out = re.sub(r"y+", "yyyy", cldr)
    return re.sub(r"M+", lambda m: "m" * len(m.group(0)), out)


@dataclass(frozen=True)
class Translator:
    """One language's texts (gettext) and number and date formats (Babel)."""

    lang: str
    catalog: gettext.NullTranslations

    def _(self, message: str) -> str:
        return self.catalog.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.catalog.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        return self.catalog.pgettext(context, message)

    @functools.cached_property
    def locale(self) -> Locale:
        from babel import Locale

        return Locale.parse(self.lang)

    @property
    def iso_dates(self) -> bool:
        return self.lang == DEFAULT_LANG

    def number(self, value: Decimal | int, places: int = 0, *, sign: bool = False) -> str:
        """`value` (already rounded to `places`) with the locale's decimal separator and
        minus sign, a plus sign when `sign` and the value is above zero, no grouping."""
        from babel.numbers import parse_pattern

        pattern = copy.copy(parse_pattern(self.locale.decimal_formats[None]))
        pattern.frac_prec = (places, places)
        d = Decimal(value)
        if d == 0:
            d = abs(d)  # no "-0.00"
        text: str = pattern.apply(d, self.locale, group_separator=False)
        if sign and d > 0:
            text = str(self.locale.number_symbols["latn"]["plusSign"]) + text
        return text

    def percent(self, fraction: Decimal, places: int = 2) -> str:
        """`fraction` (0.3599) as the locale writes a percentage (35,99%), with `places`
        decimals: the caller rounds (fraction * 100 to `places`)."""
        from babel.numbers import parse_pattern

        pattern = copy.copy(parse_pattern(self.locale.percent_formats[None]))
        pattern.frac_prec = (places, places)
        text: str = pattern.apply(fraction, self.locale, group_separator=False)
        return text

    def date(self, day: dt.date) -> str:
        """A date as text: ISO in English, the locale's long date otherwise."""
        if self.iso_dates:
            return day.isoformat()
        from babel.dates import format_date

        return format_date(day, "long", locale=self.locale)

    def excel_date_format(self) -> str:
        """The number format of date cells: ISO in English, else the locale's short date
        with a four-digit year (Excel shows the format as given, in any locale)."""
        if self.iso_dates:
            return "yyyy-mm-dd"
        return _excel_date_format(str(self.locale.date_formats["short"].pattern))


@functools.cache
def translator(lang: str = DEFAULT_LANG) -> Translator:
    """The translator of `lang` (a code of LANGS; the catalog found beside this module,
    English texts when there is none)."""
    catalog = gettext.translation(
        DOMAIN, localedir=str(LOCALE_DIR), languages=[lang], fallback=True
    )
    return Translator(lang, catalog)
