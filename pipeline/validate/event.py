"""One event validated: the pandera models of schemas/ingest.py (all failures, mapped back
to file:line:column) plus the cross-row checks of `pipeline.validate.checks`
(`validate_event`), with the reader's own problems and the rated-event and federation
warnings (`check_event`). `pipeline.validate.batch` runs the same over many events at
once; `pipeline.validate.files` is what `elo validate` runs over files.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from pipeline.errors import Problem, Severity
from pipeline.validate.checks import (
    EventContext,
    check_event_facts,
    check_pairings,
    check_players,
    with_columns_present,
)
from pipeline.validate.points import check_points
from pipeline.validate.schema import optional_types, schema_problems
from schemas.ingest import Events, Games, Players

if TYPE_CHECKING:
    from pipeline.formats.model import EventData


AMBIGUOUS_DATE = "ambiguous-date"
DATES_DISAGREE = "dates-disagree"


def validate_event(ev: EventData) -> list[Problem]:
    """Every error and warning about one event, sorted by file and line. The reader's own
    warnings stay in `ev.problems` and are not repeated here."""
    ctx = EventContext.from_events(with_columns_present(ev.events, optional_types(Events)))
    players = with_columns_present(ev.players, optional_types(Players))
    games = with_columns_present(ev.games, optional_types(Games))
    problems = schema_problems(ev.events, Events, ctx)
    problems += schema_problems(players, Players, ctx)
    problems += schema_problems(games, Games, ctx)
    problems += check_event_facts(ctx, games)
    problems += check_players(ctx, players)
    problems += check_pairings(ctx, games, players)
    problems += check_points(ctx, games, players)
    return sorted(problems, key=Problem.sort_key)


def check_event(ev: EventData, rules_given: bool = False) -> list[Problem]:
    """The reader's problems of one event, then `validate_event`'s, the rated-event
    warnings (`pipeline.validate.rated`) and the federation codes' (`player_fields`),
    sorted. A date the reader could not read one way (``ambiguous-date``) blocks the event
    unless ``--rules`` fixes the rule set (`rules_given`): the rules depend on the date,
    and a guess is worse than a refusal."""
    from pipeline.validate.player_fields import federation_warnings
    from pipeline.validate.rated import rated_event_warnings

    found = validate_event(ev) + rated_event_warnings([ev])[0] + federation_warnings([ev])[0]
    return reader_problems(ev, rules_given) + sorted(found, key=Problem.sort_key)


def reader_problems(ev: EventData, rules_given: bool = False) -> list[Problem]:
    """The reader's problems of one event, the dates' made errors: one that reads two ways
    (``ambiguous-date``, unless ``--rules`` fixes the rule set) and dates that no reading
    puts in order (``dates-disagree``). The readers keep them warnings so that an
    officer's decision (``--events`` start and end dates) can settle them first."""
    return [
        replace(p, severity=Severity.ERROR)
        if p.code == DATES_DISAGREE or (p.code == AMBIGUOUS_DATE and not rules_given)
        else p
        for p in ev.problems
    ]


__all__ = ["check_event", "reader_problems", "validate_event"]
