"""Player names as keys: the same person written differently in different files.

A name is folded (case; accents and other diacritics, ``ß`` -> ``ss``, ``ø`` -> ``o``,
``ł`` -> ``l``; apostrophes dropped, ``O'Brien`` -> ``obrien``; other punctuation and
hyphens -> blanks) and cut into tokens. Two names are the
same name when their tokens are the same in any order, so FIDE's ``Müller-Lüdenscheidt,
Hans Jörg`` is the crosstable's ``Hans Jorg Muller Ludenscheidt`` (`name_key`). A token
of one letter is an initial: ``Smith, J.`` is read as the surname ``smith`` and the
initial ``j`` (`NameParts`), to be compared with the surname and the given names'
initials of a rating-list name.

Every function has a polars twin for the rating list's 1.64 M names (`fold_expr`,
`surname_key_expr`), written with the same table, so both give the same keys.

- ``name_key('Carlsen, Magnus') == name_key('Magnus CARLSEN') == 'carlsen magnus'``
- ``surname_key('Carlsen, Magnus') == 'carlsen'``: the part before the comma, as FIDE
  writes its names; the rating list is cut to the rows whose surname is one a run's
  names may hold (`surname_spans`: their first or last words), then to their names.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache

import polars as pl

# Letters NFKD does not take apart, as FIDE's list and the federations' files spell them.
_SPECIAL = {
    "ß": "ss", "ẞ": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d",
    "þ": "th", "ı": "i", "ħ": "h", "ŧ": "t", "ŋ": "n", "ĸ": "k", "ſ": "s",
}  # fmt: skip
_NOT_WORD = r"[^\p{L}\p{N}]+"
_NOT_WORD_RE = re.compile(r"[\W_]+")
_APOSTROPHES = "'’‘`´ʼ"  # O'Brien = OBrien: an apostrophe joins, it does not split


@cache
def _letters() -> tuple[list[str], list[str]]:
    """Lower-case precomposed letters and what they fold to (Latin-1 to Latin Extended
    Additional: every accented Latin letter), plus the special ones."""
    source: list[str] = list(_SPECIAL)
    target: list[str] = list(_SPECIAL.values())
    for code in [*range(0xC0, 0x250), *range(0x1E00, 0x1F00)]:
        char = chr(code)
        if char != char.lower() or char in _SPECIAL:
            continue
        base = "".join(
            c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c)
        )
        if base != char and base.isascii() and base:
            source.append(char)
            target.append(base.lower())
    return source, target


@cache
def _table() -> dict[int, str]:
    source, target = _letters()
    return {ord(s): t for s, t in zip(source, target, strict=True)}


def fold(name: str) -> str:
    """``'Müller-Lüdenscheidt,  Hans'`` -> ``'muller ludenscheidt hans'``."""
    text = name.lower().translate(_table()).translate({ord(a): None for a in _APOSTROPHES})
    text = "".join(c for c in text if not unicodedata.combining(c))  # decomposed input
    return " ".join(_NOT_WORD_RE.sub(" ", text).split())


def fold_expr(expr: pl.Expr) -> pl.Expr:
    """`fold` as a polars expression."""
    source, target = _letters()
    return (
        expr.str.to_lowercase()
        .str.replace_many([*source, *_APOSTROPHES], [*target, *[""] * len(_APOSTROPHES)])
        .str.replace_all(r"\p{M}", "")
        .str.replace_all(_NOT_WORD, " ")  # a run of them becomes one blank
        .str.strip_chars(" ")
    )


def name_key(name: str) -> str:
    """The tokens of a name in sorted order: the same for every spelling of one name."""
    return " ".join(sorted(fold(name).split()))


def name_key_expr(expr: pl.Expr) -> pl.Expr:
    """`name_key` as a polars expression (for the small frames of candidates)."""
    return fold_expr(expr).str.split(" ").list.sort().list.join(" ")


def surname_key(name: str) -> str:
    """The folded part before the first comma (the whole name without one)."""
    return fold(name.split(",", 1)[0])


def surname_key_expr(expr: pl.Expr) -> pl.Expr:
    """`surname_key` as a polars expression: what the rating list is joined on."""
    return fold_expr(expr.str.split(",").list.first())


@dataclass(frozen=True)
class NameParts:
    """A name's full tokens (two letters or more) and its initials (one letter)."""

    full: tuple[str, ...]
    initials: tuple[str, ...]

    @property
    def initials_key(self) -> str:
        """``'smith|j'``: sorted full tokens, then sorted initials; '' without initials."""
        if not self.initials or not self.full:
            return ""
        return " ".join(sorted(self.full)) + "|" + " ".join(sorted(self.initials))


def name_parts(name: str) -> NameParts:
    tokens = fold(name).split()
    return NameParts(
        tuple(t for t in tokens if len(t) > 1 or t.isdigit()),
        tuple(t for t in tokens if len(t) == 1 and not t.isdigit()),
    )


def registry_initials_key(name: str) -> str:
    """A rating-list name as an entry written with initials would give it: ``'Smith, John
    Paul'`` -> ``'smith|j p'`` (the surname's tokens, the given names' first letters)."""
    surname, _, given = name.partition(",")
    full = fold(surname).split()
    initials = [t[0] for t in fold(given).split()]
    if not full or not initials:
        return ""
    return " ".join(sorted(full)) + "|" + " ".join(sorted(initials))


def surname_spans(name: str) -> list[str]:
    """The surnames a name may hold: its first words or its last words (a surname opens
    the name in FIDE's and chess-results' lists, and closes it in ``Given Surname``):
    ``'Jan van der Berg'`` -> ``'jan'``, ``'jan van'``, ..., ``'van der berg'``,
    ``'der berg'``, ``'berg'``. Initials are no surname."""
    tokens = [t for t in fold(name).split() if len(t) > 1 or t.isdigit()]
    prefixes = [" ".join(tokens[:k]) for k in range(1, len(tokens) + 1)]
    suffixes = [" ".join(tokens[-k:]) for k in range(1, len(tokens))]
    return prefixes + suffixes


# --- the same for many names at once ------------------------------------------------------


def full_tokens_expr(expr: pl.Expr) -> pl.Expr:
    """The full tokens (two letters or more, or digits) of each name, as a list."""
    element = pl.element()
    return (
        fold_expr(expr)
        .str.split(" ")
        .list.eval(element.filter((element.str.len_chars() > 1) | element.str.contains(r"^\d+$")))
    )


def initials_key_expr(expr: pl.Expr) -> pl.Expr:
    """`NameParts.initials_key` as a polars expression ('' without initials)."""
    element = pl.element()
    tokens = fold_expr(expr).str.split(" ")
    initials = tokens.list.eval(
        element.filter((element.str.len_chars() == 1) & ~element.str.contains(r"^\d$"))
    )
    full = full_tokens_expr(expr)
    both = (initials.list.len() > 0) & (full.list.len() > 0)
    joined = pl.concat_str(
        full.list.sort().list.join(" "), pl.lit("|"), initials.list.sort().list.join(" ")
    )
    return pl.when(both).then(joined).otherwise(pl.lit(""))


def registry_initials_key_expr(expr: pl.Expr) -> pl.Expr:
    """`registry_initials_key` as a polars expression ('' without given names)."""
    parts = expr.str.splitn(",", 2)
    surname = fold_expr(parts.struct.field("field_0")).str.split(" ")
    given = fold_expr(parts.struct.field("field_1").fill_null("")).str.split(" ")
    initials = given.list.eval(pl.element().str.slice(0, 1)).list.eval(
        pl.element().filter(pl.element() != "")
    )
    full = surname.list.eval(pl.element().filter(pl.element() != ""))
    both = parts.struct.field("field_1").is_not_null() & (initials.list.len() > 0)
    both = both & (full.list.len() > 0)
    joined = pl.concat_str(
        full.list.sort().list.join(" "), pl.lit("|"), initials.list.sort().list.join(" ")
    )
    return pl.when(both).then(joined).otherwise(pl.lit(""))


def surname_spans_expr(expr: pl.Expr) -> pl.Expr:
    """`surname_spans` as a polars list expression (up to six words from either end)."""
    full = full_tokens_expr(expr)
    count = full.list.len()
    spans = [pl.when(count >= k).then(full.list.head(k).list.join(" ")) for k in range(1, 7)]
    spans += [pl.when(count > k).then(full.list.tail(k).list.join(" ")) for k in range(1, 6)]
    return pl.concat_list(spans).list.drop_nulls()


@dataclass(frozen=True)
class NameFilter:
    """Which rating-list names a run's entries can match: their candidate surnames (a cheap
    first cut of 1.64 M names), then their name keys and initials keys (exact)."""

    surnames: frozenset[str]
    keys: frozenset[str]
    initials: frozenset[str]

    def first_cut(self, name: pl.Expr) -> pl.Expr:
        return surname_key_expr(name).is_in(list(self.surnames)).fill_null(False)

    def exact(self, name: pl.Expr) -> pl.Expr:
        found = name_key_expr(name).is_in(list(self.keys))
        if self.initials:
            found = found | registry_initials_key_expr(name).is_in(list(self.initials))
        return found.fill_null(False)


def name_filter(names: pl.Series) -> NameFilter:
    """The `NameFilter` of the names of a run's entries without a FIDE ID."""
    frame = pl.DataFrame({"n": names.rechunk()}).select(  # list work is slow over many chunks
        surname_spans_expr(pl.col("n")).alias("spans"),
        name_key_expr(pl.col("n")).alias("key"),
        initials_key_expr(pl.col("n")).alias("ikey"),
    )
    spans = frame["spans"].explode().drop_nulls().unique().to_list()
    keys = frame["key"].drop_nulls().unique().to_list()
    initials = [k for k in frame["ikey"].drop_nulls().unique().to_list() if k]
    return NameFilter(frozenset(spans), frozenset(keys) - {""}, frozenset(initials))
