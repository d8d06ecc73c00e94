"""Who is who: the player entries of a run linked to persons (FIDE IDs), with the
officer's decisions first (`decisions`) and every link shown (`link`)."""

from pipeline.identity.decisions import parse_decisions, read_decisions
from pipeline.identity.link import (
    PERSON_KEY,
    RATING_TOLERANCE,
    IdentityResult,
    link_players,
    wanted_from_registry,
)

__all__ = [
    "PERSON_KEY",
    "RATING_TOLERANCE",
    "IdentityResult",
    "link_players",
    "parse_decisions",
    "read_decisions",
    "wanted_from_registry",
]
