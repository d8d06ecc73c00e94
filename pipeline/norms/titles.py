"""The numbers of FIDE's title norms (Handbook B.01, Title Regulations applied from
1 January 2024) and the choices the norm checks make where the texts leave a reading
open (`NormOptions`, FIDE's reading by default; docs/rules.md "Title norms").

Per norm sought (B.01 0.5, 1.4.5, 1.4.6b-c, 1.4.8):

| norm | min Rp | min Ra | floor | target titles (1.4.5b-e) |
|------|--------|--------|-------|--------------------------|
| GM   | 2600   | 2380   | 2200  | GM                       |
| IM   | 2450   | 2230   | 2050  | IM, GM                   |
| WGM  | 2400   | 2180   | 2000  | WGM, IM, GM              |
| WIM  | 2250   | 2030   | 1850  | WIM, WGM, IM, GM         |

Title-holders for 1.4.5a: GM, IM, WGM, WIM, FM, WFM (CM and WCM are not).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

from pipeline.i18n import N_
from pipeline.norms.performance import NORM_FLOORS, UNRATED_NORM
from schemas.ingest import EVENT_TYPES  # the types the checks know (NormOptions.event_types)

NORM_TITLES: Final = ("GM", "IM", "WGM", "WIM")
WOMEN_TITLES: Final = frozenset({"WGM", "WIM"})
MIN_RP: Final[Mapping[str, int]] = {"GM": 2600, "IM": 2450, "WGM": 2400, "WIM": 2250}
MIN_RA: Final[Mapping[str, int]] = {"GM": 2380, "IM": 2230, "WGM": 2180, "WIM": 2030}
TARGETS: Final[Mapping[str, frozenset[str]]] = {
    "GM": frozenset({"GM"}),
    "IM": frozenset({"IM", "GM"}),
    "WGM": frozenset({"WGM", "IM", "GM"}),
    "WIM": frozenset({"WIM", "WGM", "IM", "GM"}),
}
TITLE_HOLDERS: Final = frozenset({"GM", "IM", "WGM", "WIM", "FM", "WFM"})  # 1.4.5a
FOREIGN_TITLES: Final = frozenset({"GM", "IM", "WGM", "WIM"})  # 1.4.3d's ten
NO_FEDERATION: Final = "FID"  # the FIDE flag: games count, not a federation (1.4.3-1.4.4)

ROUND_ROBINS: Final = ("round-robin", "double-round-robin")

# How each missing fact is supplied, for `missing`
SUPPLY: Final[Mapping[str, str]] = {
    "list": N_("the event's rating list: an --events decision `list` (or --list standard)"),
    "time-control": N_(
        "the event's time control (TRF 222/122): an --events decision `time_control`"
    ),
    "dates": N_(
        "the event's start and end dates (TRF 042/052): an --events decision "
        "`start_date`, `end_date`"
    ),
    "long-event": N_(
        "the ratings and titles of each game's date (the event lasts over 30 days, B.01 "
        "1.1.4; the file carries those at the start): check each game against the list "
        "of its month"
    ),
    "event-type": N_(
        "the event type (1.4.1b, 1.4.3a-c): an --events decision `event_type`, or "
        "--event-type for the events not decided"
    ),
    "host": N_("the host federation (TRF 032) for 1.4.3d: add it to the file"),
    "federation": N_(
        "the player's federation: add it to the file or link the player to the rating "
        "list (--identities decision)"
    ),
    "opponent-federations": N_(
        "opponents' federations: add them to the file or link the players to the rating "
        "list (--identities decisions)"
    ),
    "opponent-titles": N_(
        "opponents' titles (the file carries none): add them to the file or link the "
        "players to the rating list (--identities decisions)"
    ),
    "sex": N_("the player's sex (TRF 001 column 10), for a WGM/WIM norm: add it to the file"),
}  # English in `elo norms --json` and the certificate; the Norms sheet and the console translate


@dataclass(frozen=True)
class NormOptions:
    """The choices of docs/rules.md "Title norms"; every default is FIDE's reading."""

    titles: Sequence[str] = NORM_TITLES
    # event id -> one of EVENT_TYPES; events not named take the events frame's
    # `event_type` (an --events decision), else `default_event_type`, else a round-robin
    # read from the pairings, else unknown (a rule needing it: cannot tell)
    event_types: Mapping[str, str] = field(default_factory=dict)
    default_event_type: str | None = None
    # Q3: 35 % as score >= 0.35 n ("exact") or as the rounded percentage >= 35
    min_score: Literal["exact", "rounded"] = "exact"
    # Q4: a double round-robin's target-title count: half the games rounded up ("half",
    # the text as read by [T2]/[T3]) or max(3, n/3 rounded up) as elsewhere ("third")
    drr_target: Literal["half", "third"] = "half"
    # Q6: 1.4.1c's 8 games: thresholds on the 8 games played ("played") or on 9
    eight_games: Literal["played", "nine"] = "played"
    # 1.1.4: an event over 30 days uses each game's ratings, not in the file: cannot
    # tell ("cannot-tell"), or use the list at the start ("start-list")
    long_events: Literal["cannot-tell", "start-list"] = "cannot-tell"
    fid_is_federation: bool = False  # the FIDE flag is not a federation (QC 2026, [T2])
    skip_held: bool = True  # no row for a norm whose title (or a higher one) is held
    unrated_norm: int = UNRATED_NORM  # 1.4.6d
    floors: Mapping[str, int] = field(default_factory=lambda: dict(NORM_FLOORS))


__all__ = [
    "EVENT_TYPES",
    "FOREIGN_TITLES",
    "MIN_RA",
    "MIN_RP",
    "NORM_TITLES",
    "NO_FEDERATION",
    "ROUND_ROBINS",
    "SUPPLY",
    "TARGETS",
    "TITLE_HOLDERS",
    "WOMEN_TITLES",
    "NormOptions",
]
