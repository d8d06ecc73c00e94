"""The calculator behind `elo calc`: one player's rating change from a list of games.

Pure: `calculate(CalcRequest) -> CalcResult` (`compute`, where the choices it makes are
listed); the CLI parses the command line with the `parse_*` helpers (`parse`: they raise
`CalcInputError`, a ValueError, with a one-line message) and prints the result
(`pipeline.report.calc_table`: `render_calc`, or `calc_json` for ``--json``). The request,
result and note records are in `model`.
"""

from pipeline.calc.compute import ALL_METHODS, REASON_PLAYER_UNRATED, calculate
from pipeline.calc.model import (
    CalcGame,
    CalcInputError,
    CalcRequest,
    CalcResult,
    GameInput,
    KSpec,
    Note,
    NoteValue,
    Term,
)
from pipeline.calc.parse import (
    MAX_RATING,
    parse_count,
    parse_date,
    parse_game,
    parse_k,
    parse_rating,
    parse_score,
)
from pipeline.calc.request import parse_request, split_games

__all__ = [
    "ALL_METHODS",
    "MAX_RATING",
    "REASON_PLAYER_UNRATED",
    "CalcGame",
    "CalcInputError",
    "CalcRequest",
    "CalcResult",
    "GameInput",
    "KSpec",
    "Note",
    "NoteValue",
    "Term",
    "calculate",
    "parse_count",
    "parse_date",
    "parse_game",
    "parse_k",
    "parse_rating",
    "parse_request",
    "parse_score",
    "split_games",
]
