"""The calculator's records: the request (`CalcRequest`, its `GameInput`s and `KSpec`),
the result (`CalcResult`, one `CalcGame` a game) and the notes explaining it (`Note`,
`Term`), with the one error the calculator raises (`CalcInputError`)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from pipeline.rules.fide import InitialRating
from pipeline.rules.ruleset import RuleSet


@dataclass(frozen=True)
class Term:
    """A word inside a note that is translated with it (a rating list's name)."""

    word: str


NoteValue = int | Decimal | str | dt.date | Term


@dataclass(frozen=True)
class Note:
    """One note of a calculation: an English template (a msgid of the catalogs, with
    `{name}` fields) and its values, so that a report can write it in any language.
    `str(note)` is the English text (`--json`'s `notes`)."""

    template: str
    values: tuple[tuple[str, NoteValue], ...] = ()

    def __str__(self) -> str:
        return self.template.format(
            **{k: v.word if isinstance(v, Term) else str(v) for k, v in self.values}
        )


class CalcInputError(ValueError):
    """A calculator input that cannot be used; the message is one line for the user."""


@dataclass(frozen=True)
class GameInput:
    opponent: int | None  # None = unrated opponent
    score: int  # hundredths: 100, 50 or 0
    text: str = ""


KSpec = int | Decimal | str | None  # None / "fide": FIDE's K; "variable"; a number


@dataclass(frozen=True)
class CalcRequest:
    rating: int | None  # None = unrated player
    games: tuple[GameInput, ...]
    on: dt.date
    list_: str = "standard"
    method: str = "fide"
    expectation: str | None = None  # None = the method's default
    k: KSpec = None
    career_games: int | None = None
    birth_year: int | None = None
    ever_2400: bool = False


@dataclass(frozen=True)
class CalcGame:
    """One game as reported; values in points (Decimal), None where not applicable."""

    opponent: int | None
    score: Decimal
    difference: Decimal | None
    difference_used: Decimal | None
    expected: Decimal | None
    delta: Decimal | None
    k_delta: Decimal | None
    rated: bool
    reason: str
    rating_before: Decimal | None = None  # sequential method: rating before the game


@dataclass(frozen=True)
class CalcResult:
    method: str
    expectation: str
    rule_set: RuleSet
    on: dt.date
    rating_before: int | None
    k: Decimal | None  # effective K
    games: tuple[CalcGame, ...]
    n: int
    score: Decimal
    expected: Decimal | None
    sum_delta: Decimal | None
    change_unrounded: Decimal | None
    change: Decimal | None  # whole for FIDE, one decimal for the other methods
    rating_after: Decimal | None
    notes: tuple[Note, ...] = ()
    initial: InitialRating | None = None
    decimals: int = 2  # decimals of PD / ΔR in reports (4 for non-table expectations)
    average_opponent: Decimal | None = None  # average method: the average opponent
    average_difference: Decimal | None = None  # average method: D used against it


__all__ = [
    "CalcGame",
    "CalcInputError",
    "CalcRequest",
    "CalcResult",
    "GameInput",
    "KSpec",
    "Note",
    "NoteValue",
    "Term",
]
