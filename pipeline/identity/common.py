"""What the identity stage's modules share: column names, the rating tolerance, the sex
and federation as compared, and how a problem of an entry is located."""

from __future__ import annotations

import polars as pl

from pipeline.errors import Location, Problem, Severity
from pipeline.formats.model import player_column
from schemas.ingest import Events, Players
from schemas.registry import Registry

RATING_TOLERANCE = 50  # a list published after the event: at most this far from the file
PERSON_KEY = "person_key"
FIDE_FED = "fide_fed"  # an entry's federation when it is a FIDE code, else null

E_ID, E_FILE, E_NAME = str(Events.event_id), str(Events.file), str(Events.name)
E_LIST, E_SOURCE = str(Events.list), str(Events.source)
P_NO, P_NAME, P_FIDE = str(Players.start_no), str(Players.name), str(Players.fide_id)
P_FED, P_RATING, P_SEX = str(Players.federation), str(Players.rating), str(Players.sex)
P_BIRTH, P_TITLE, P_LINE = str(Players.birth_year), str(Players.title), str(Players.line)
R_ID = str(Registry.fideid)
LIST_RATING = {"standard": "rating", "rapid": "rapid_rating", "blitz": "blitz_rating"}


def optional(frame: pl.DataFrame, name: str, dtype: pl.DataType) -> pl.Expr:
    return pl.col(name).cast(dtype) if name in frame.columns else pl.lit(None, dtype=dtype)


def sex_expr(expr: pl.Expr) -> pl.Expr:
    """A sex as compared: ``m`` or ``w`` (``f`` read as ``w``)."""
    return expr.str.strip_chars().str.to_lowercase().replace({"f": "w"})


def entry_problem(r: dict[str, object], field_: str, code: str, message: str) -> Problem:
    source = str(r.get(E_SOURCE) or "")
    line = r.get(P_LINE)
    return Problem(
        Location(
            str(r[E_FILE]), line if isinstance(line, int) else None, player_column(source, field_)
        ),
        code,
        message,
        Severity.WARNING,
    )
