"""The result grammar of a games CSV: a game's `result` cell as the two sides' codes
(`parse_result`), a bye's as its code (`parse_bye_result`), and the score of a code
(`result_score`).

Spaces are ignored and letters read in any case; `:` may replace `-`:
- games: `1-0`, `0-1`; draws `½-½`, `1/2-1/2`, `0.5-0.5`, `=`; forfeits `1F-0F`, `0F-1F`,
  `+:-`, `-:+` (also `+ - -`, `- - +` as chess-results prints them); double forfeit
  `0F-0F`, `-:-`, `- - -` (no game, nobody scores); `*` or an empty result: paired, not
  played yet (an event in progress; pending, not rated). The codes are mirrored: 1-0 ->
  1/0, draw =/=, 1F-0F -> +/-, 0F-0F -> -/-.
- byes (the row's `black` empty or `bye`): `1` or `+` (pairing-allocated bye, TRF code U,
  one point), `½` / `1/2` / `0.5` / `=` (half-point bye, H) or `0` / `-` (zero-point bye
  or absence, Z).
"""

from __future__ import annotations

from schemas.ingest import PENDING_CODE

_DRAW = ("=", "=")
_RESULTS: dict[str, tuple[str, str]] = {
    **dict.fromkeys(("1-0", "1:0"), ("1", "0")),
    **dict.fromkeys(("0-1", "0:1"), ("0", "1")),
    **dict.fromkeys(("½-½", "½:½", "1/2-1/2", "1/2:1/2", "0.5-0.5", "0.5:0.5", "="), _DRAW),
    **dict.fromkeys(("1f-0f", "1f:0f", "+:-", "+-", "+--"), ("+", "-")),
    **dict.fromkeys(("0f-1f", "0f:1f", "-:+", "-+", "--+"), ("-", "+")),
    **dict.fromkeys(("0f-0f", "0f:0f", "-:-", "---"), ("-", "-")),
    # paired, no result yet (an event in progress): PGN's '*' or an empty cell
    **dict.fromkeys(("*", ""), (PENDING_CODE, PENDING_CODE)),
}
_BYE_RESULTS: dict[str, str] = {
    **dict.fromkeys(("1", "+"), "U"),
    **dict.fromkeys(("½", "1/2", "0.5", "="), "H"),
    **dict.fromkeys(("0", "-"), "Z"),
}
_SCORE: dict[str, float] = {
    "1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0, "U": 1.0, "H": 0.5, "Z": 0.0,
    PENDING_CODE: 0.0,
}  # fmt: skip
RESULT_FORMS = (
    "1-0, 0-1, ½-½, 1/2-1/2, 0.5-0.5, =, 1F-0F, 0F-1F, 0F-0F, +:-, -:+, -:-, or * / empty "
    "for a game not played yet"
)
BYE_FORMS = "1, +, ½, 1/2, 0.5, =, 0, -"


def parse_result(text: str) -> tuple[str, str] | None:
    """White's and Black's codes of a game's result, None when it is none of the forms."""
    return _RESULTS.get(_key(text))


def parse_bye_result(text: str) -> str | None:
    """The code of a bye's result (U, H or Z), None when it is none of the forms."""
    return _BYE_RESULTS.get(_key(text))


def result_score(code: str) -> float:
    """The points a code scores (0 for a game not played yet)."""
    return _SCORE[code]


def _key(text: str) -> str:
    return text.replace(" ", "").lower()


__all__ = ["BYE_FORMS", "RESULT_FORMS", "parse_bye_result", "parse_result", "result_score"]
