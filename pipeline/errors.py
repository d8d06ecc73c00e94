"""One error model for every stage: where a problem is, what it is, how bad it is.

Readers and validators collect `Problem`s and raise a single `InputError` holding all
problems of a file; only the CLI turns them into text and an exit code.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, order=True)
class Location:
    """Where a problem is, as the user sees it.

    `line` is 1-based (TRF line or spreadsheet row); `column` is a TRF column range such
    as ``"92-95"`` or a header text such as ``"3.Rd"``.
    """

    file: str
    line: int | None = None
    column: str | None = None

    def __str__(self) -> str:
        parts = [self.file]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column:
                parts.append(self.column)
        return ":".join(parts)


@dataclass(frozen=True)
class Problem:
    """A single finding: `code` is a stable kebab-case identifier, `message` reads
    "expected ..., got ..." where that applies."""

    location: Location
    code: str
    message: str
    severity: Severity = Severity.ERROR

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def __str__(self) -> str:
        tag = "" if self.is_error else "warning: "
        return f"{self.location}: {tag}{self.message} [{self.code}]"

    def sort_key(self) -> tuple[str, int, str, str]:
        loc = self.location
        return (loc.file, loc.line or 0, loc.column or "", self.code)


@dataclass
class ProblemList:
    """Collects problems while a file is read; `raise_if_errors` ends a reader."""

    items: list[Problem] = field(default_factory=list)

    def add(
        self,
        file: str,
        line: int | None,
        column: str | None,
        code: str,
        message: str,
        severity: Severity = Severity.ERROR,
    ) -> None:
        self.items.append(Problem(Location(file, line, column), code, message, severity))

    def extend(self, problems: Iterable[Problem]) -> None:
        self.items.extend(problems)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.items if p.is_error]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.items if not p.is_error]

    def raise_if_errors(self) -> None:
        if self.errors:
            raise InputError(self.items)


class HasProblems:
    """A collection of problems (`problems`) split into its errors and its warnings."""

    problems: list[Problem]

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.is_error]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if not p.is_error]


class InputError(Exception):
    """The user's input cannot be used. Carries every problem found (errors and warnings)."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: list[Problem] = sorted(problems, key=Problem.sort_key)
        super().__init__("\n".join(str(p) for p in self.problems))

    def __reduce__(self) -> tuple[type[InputError], tuple[list[Problem]]]:
        # rebuilt from its problems (a worker process hands it back pickled)
        return (type(self), (self.problems,))

    @classmethod
    def single(
        cls, file: str, line: int | None, column: str | None, code: str, message: str
    ) -> InputError:
        return cls([Problem(Location(file, line, column), code, message)])
