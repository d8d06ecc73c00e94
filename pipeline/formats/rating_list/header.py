"""The header line of FIDE's fixed-width rating-list TXT files, and the layout it announces:
the combined list (`ID Number, Name, Fed, Sex, Tit, WTit, OTit, FOA, SRtng, SGm, SK,
RRtng, RGm, Rk, BRtng, BGm, BK, B-day, Flag`) or a single list (the same through `FOA`,
then the rating headed by the month, `NOV26`, `Gms`, `K`, `B-day`, `Flag`). A field
starts where its header token starts and ends where the next token starts (the last one
runs to the end of the line), in characters."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from schemas.registry import Registry

ListName = Literal["standard", "rapid", "blitz"]

# (header token pattern, Registry column) in file order; a pattern is a regex matched as a
# whole blank-separated token, case-insensitively.
_COMMON: tuple[tuple[str, str], ...] = (
    (r"ID Number", str(Registry.fideid)),
    (r"Name", str(Registry.name)),
    (r"Fed", str(Registry.country)),
    (r"Sex", str(Registry.sex)),
    (r"Tit", str(Registry.title)),
    (r"WTit", str(Registry.w_title)),
    (r"OTit", str(Registry.o_title)),
    (r"FOA", str(Registry.foa_title)),
)
_COMBINED_TAIL: tuple[tuple[str, str], ...] = (
    (r"SRtng", str(Registry.rating)),
    (r"SGm", str(Registry.games)),
    (r"SK", str(Registry.k)),
    (r"RRtng", str(Registry.rapid_rating)),
    (r"RGm", str(Registry.rapid_games)),
    (r"Rk", str(Registry.rapid_k)),
    (r"BRtng", str(Registry.blitz_rating)),
    (r"BGm", str(Registry.blitz_games)),
    (r"BK", str(Registry.blitz_k)),
    (r"B-day", str(Registry.birthday)),
    (r"Flag", str(Registry.flag)),
)
_MONTH_TOKEN = r"[A-Z]{3}\d{2}"  # the single lists head their rating column NOV26 etc.
_SINGLE_TAIL: tuple[tuple[str, str], ...] = (
    (_MONTH_TOKEN, "rating"),
    (r"Gms", "games"),
    (r"K", "k"),
    (r"B-day", str(Registry.birthday)),
    (r"Flag", str(Registry.flag)),
)
_LIST_PREFIX: dict[str, str] = {"standard": "", "rapid": "rapid_", "blitz": "blitz_"}


@dataclass(frozen=True)
class TxtField:
    """One fixed-width field: `token` is the header text (a problem's column)."""

    tag: str
    token: str
    start: int
    end: int | None  # exclusive; None runs to the end of the line


@dataclass(frozen=True)
class TxtLayout:
    kind: Literal["combined", "single"]
    fields: tuple[TxtField, ...]
    width: int  # characters of the header line (trailing blanks ignored)

    def labels(self) -> dict[str, str]:
        return {f.tag: f.token for f in self.fields}


def _locate(header: str, tokens: tuple[tuple[str, str], ...]) -> list[tuple[int, str, str]]:
    """Start offset, token text and column of each token, in order; [] when one is missing."""
    found: list[tuple[int, str, str]] = []
    position = 0
    for pattern, tag in tokens:
        match = re.compile(rf"(?<!\S)(?:{pattern})(?!\S)", re.IGNORECASE).search(header, position)
        if match is None:
            return []
        found.append((match.start(), match.group(0), tag))
        position = match.end()
    return found


def parse_txt_header(header: str, list_name: ListName = "standard") -> TxtLayout | None:
    """The layout a header line announces, or None when it is not a FIDE list header.

    `list_name` says which list a single-list file holds (its columns become `rating` /
    `rapid_rating` / `blitz_rating` and so on); it is ignored for the combined list.
    """
    header = header.lstrip("\ufeff").rstrip()
    kind: Literal["combined", "single"] = "combined"
    located = _locate(header, _COMMON + _COMBINED_TAIL)
    if not located:
        kind = "single"
        prefix = _LIST_PREFIX[list_name]
        tail = tuple(
            (pattern, prefix + tag if tag in ("rating", "games", "k") else tag)
            for pattern, tag in _SINGLE_TAIL
        )
        located = _locate(header, _COMMON + tail)
    if not located or located[0][0] != 0:
        return None
    fields = tuple(
        TxtField(tag, token, start, located[i + 1][0] if i + 1 < len(located) else None)
        for i, (start, token, tag) in enumerate(located)
    )
    return TxtLayout(kind, fields, len(header))


__all__ = ["ListName", "TxtField", "TxtLayout", "parse_txt_header"]
