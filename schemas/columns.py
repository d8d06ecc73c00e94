"""The column names of the frames, by frame, taken from the schema models themselves:
`E` (events), `P` (players), `G` (games), `R` (registry). Modules write `E.ID`, `P.NAME`,
`G.ROUND` instead of importing a constant per column from each other."""

from __future__ import annotations

from typing import Final

from schemas.ingest import Events, Games, Players
from schemas.registry import Registry


class E:
    """Events."""

    ID: Final = str(Events.event_id)
    FILE: Final = str(Events.file)
    NAME: Final = str(Events.name)
    SOURCE: Final = str(Events.source)
    LIST: Final = str(Events.list)
    LIST_SOURCE: Final = str(Events.list_source)
    LIST_REASON: Final = str(Events.list_reason)
    PERIOD: Final = str(Events.period)
    START: Final = str(Events.start_date)
    END: Final = str(Events.end_date)
    ROUNDS: Final = str(Events.rounds)
    TIME: Final = str(Events.time_control)
    TYPE: Final = str(Events.event_type)


class P:
    """Players (one entry of an event)."""

    EVENT: Final = str(Players.event_id)
    NO: Final = str(Players.start_no)
    NAME: Final = str(Players.name)
    FIDE: Final = str(Players.fide_id)
    FED: Final = str(Players.federation)
    SEX: Final = str(Players.sex)
    TITLE: Final = str(Players.title)
    BIRTH: Final = str(Players.birth_year)
    RATING: Final = str(Players.rating)
    POINTS: Final = str(Players.points)
    LINE: Final = str(Players.line)


class G:
    """Games (one row per player side and round)."""

    EVENT: Final = str(Games.event_id)
    ROUND: Final = str(Games.round)
    NO: Final = str(Games.start_no)
    OPP: Final = str(Games.opponent_no)
    COLOUR: Final = str(Games.colour)
    CODE: Final = str(Games.code)
    SCORE: Final = str(Games.score)
    PLAYED: Final = str(Games.played)
    LINE: Final = str(Games.line)
    COLUMN: Final = str(Games.column)


class R:
    """Registry (rating list)."""

    ID: Final = str(Registry.fideid)
    NAME: Final = str(Registry.name)
    FED: Final = str(Registry.country)


__all__ = ["E", "G", "P", "R"]
