"""Rule sets: the FIDE rating rules in force on a date, for one rating list.

`ruleset_for(on, list_)` returns the frozen `RuleSet` of the era that contains `on`.
Eras (FIDE Handbook B.02 and its earlier editions; see fide-rules.md beside the project and
docs/rules.md):

Standard list
- before 2009-07-01: cap 350, every game; K 25 / 15 / 10.
- 2009-07-01: cap 400, every game, every player (2650+ included).
- 2011-07-01: K for new players 30 (**choice** of date: the July 2011 regulations).
- 2014-07-01: K 40 / 20 / 10, junior K 40, the 700 rule (**choice** of date: the rule
  came with the July 2014 K changes; earlier rule sets do not apply it).
- 2022-01-01: cap 400 once per event, every player (2650+ included; see below).
- 2024-03-01: cap 400, every game, every player; floor 1400; initial ratings by the 2024
  method.
- 2025-10-01: cap 400 only for players rated below 2650 (B.02 §8.3.1 as amended).

Rapid and blitz lists
- K = 20 for everyone before 2022-10-01 (`k_flat`, 700 rule applied), then the
  standard K rules (40 / 20 / 10, junior 40).
- caps as standard before 2024-03-01; from then 400 every game for everyone (the rapid
  and blitz chapter has no 2650 exemption).
- from 2024-12-01 the 600-point rule (`rule_600`).

Floor 1000 and the 2022 initial-rating method apply before 2024-03-01 on every list
(the project keeps no earlier floors).

The cap by the text in force (B.02 §8.3.1; §8.54 in the 2010s editions; docs/rules.md "The
rating-difference cap by era" gives where each text was found):
- 2009-07-01 .. 2021-12-31: "A difference in rating of more than 400 points shall be
  counted for rating purposes as though it were a difference of 400 points." Nothing
  more: every player, every game.
- 2022-01-01 .. 2024-02-29, "FIDE Rating Regulations effective from 1 January 2022 till
  29 February 2024" (handbook.fide.com/chapter/B022022): the same sentence, then "In any
  tournament, a player may benefit from only one upgrade under this rule, for the game in
  which the rating difference is greatest." It has no sentence on 2650.
- 2024-03-01 .. 2025-09-30, B.02 applied from 1 March 2024: the first sentence alone (FIDE
  Qualification Commission, 1 March 2024: "the limitation of the 400-points rule to once
  per event has been abolished").
- from 2025-10-01: "Effective from 1 October 2025: A difference in rating of more than 400
  points shall be counted for rating purposes as though it were a difference of 400 points
  for players rated below 2650. For players rated 2650 and above, the difference between
  ratings shall be used in all cases".
The closing 2650 sentence that lichess' scalachess (Elo.scala) quotes after the 2022 text
was appended there on 2025-09-29 (scalachess pull request 758, "Keep up with new FIDE
rating regulations"), from the 2025 amendment: it is not part of the 2022 edition. So a
2650+ player has no exemption before 2025-10-01 in any mode here.

"Once per event" (cap_mode ``"once-per-event"``, 2022-01-01 .. 2024-02-29), **choice**:
in each event, the player rated higher benefits from the cap only in the game with the
largest difference among the games where their own D exceeds the cap (the earliest round
on ties); in their other games the real D is used. A player's negative D (they are the
lower-rated side) is always capped at -cap: the cap is no "upgrade" for them.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Final

LISTS: Final[tuple[str, ...]] = ("standard", "rapid", "blitz")
CAP_MODES: Final[tuple[str, ...]] = ("every-game", "once-per-event", "below-2650")

EARLIEST: Final[dt.date] = dt.date(1970, 1, 1)

CAP_400_FROM: Final[dt.date] = dt.date(2009, 7, 1)
K_NEW_30_FROM: Final[dt.date] = dt.date(2011, 7, 1)
K_2014_FROM: Final[dt.date] = dt.date(2014, 7, 1)
ONCE_PER_EVENT_FROM: Final[dt.date] = dt.date(2022, 1, 1)
RAPID_K_FROM: Final[dt.date] = dt.date(2022, 10, 1)
RULES_2024_FROM: Final[dt.date] = dt.date(2024, 3, 1)
RULE_600_FROM: Final[dt.date] = dt.date(2024, 12, 1)
BELOW_2650_FROM: Final[dt.date] = dt.date(2025, 10, 1)
CAP_EXEMPT_RATING: Final[int] = 2650  # from BELOW_2650_FROM: the standard list only

_BOUNDARIES: Final[dict[str, tuple[dt.date, ...]]] = {
    "standard": (
        EARLIEST,
        CAP_400_FROM,
        K_NEW_30_FROM,
        K_2014_FROM,
        ONCE_PER_EVENT_FROM,
        RULES_2024_FROM,
        BELOW_2650_FROM,
    ),
    "rapid": (
        EARLIEST,
        CAP_400_FROM,
        ONCE_PER_EVENT_FROM,
        RAPID_K_FROM,
        RULES_2024_FROM,
        RULE_600_FROM,
    ),
}
_BOUNDARIES["blitz"] = _BOUNDARIES["rapid"]


@dataclass(frozen=True)
class RuleSet:
    """The rules of one era for one rating list. Ratings and K are whole numbers."""

    name: str
    list: str
    valid_from: dt.date
    valid_to: dt.date | None
    cap: int | None
    cap_mode: str
    cap_exempt_from: int | None
    k_new: int
    k_junior: int | None
    k_default: int
    k_top: int
    k_flat: int | None
    rule_700: bool
    rule_600: bool
    floor: int
    initial_method: str
    initial_min_games: int
    initial_max: int
    k_top_from: int = 2400  # K 10 once the published rating has reached this
    junior_below: int = 2300  # junior K only while rated below this
    junior_max_age: int = 18  # list year - birth year <= this
    new_player_games: int = 30  # k_new while fewer career games than this
    rule_600_above: int = 2600
    rule_600_difference: int = 600

    def describe(self) -> str:
        """One line for reports: the name and the rules that matter to a reader."""
        if self.cap is None:
            cap = "no cap"
        elif self.cap_mode == "below-2650":
            cap = f"cap {self.cap} below {self.cap_exempt_from}"
        elif self.cap_mode == "once-per-event":
            cap = f"cap {self.cap} once per event"
        else:
            cap = f"cap {self.cap}"
        if self.k_flat is not None:
            k = f"K {self.k_flat} for all"
        else:
            junior = f", junior {self.k_junior}" if self.k_junior is not None else ""
            k = f"K {self.k_new}/{self.k_default}/{self.k_top}{junior}"
        extras = [cap, k]
        if self.rule_700:
            extras.append("700 rule")
        if self.rule_600:
            extras.append("600 rule")
        extras.append(f"floor {self.floor}")
        return f"{self.name} ({', '.join(extras)})"


def ruleset_for(on: dt.date, list_: str) -> RuleSet:
    """The rule set in force on `on` for rating list `list_` (standard, rapid, blitz)."""
    if list_ not in LISTS:
        raise ValueError(f"expected a rating list {', '.join(LISTS)}, got {list_!r}")
    if on < EARLIEST:
        raise ValueError(f"expected a date from {EARLIEST.isoformat()}, got {on.isoformat()}")
    bounds = _BOUNDARIES[list_]
    start = max(b for b in bounds if b <= on)
    later = [b for b in bounds if b > on]
    end = min(later) - dt.timedelta(days=1) if later else None
    return _build(list_, start, end)


def _build(list_: str, start: dt.date, end: dt.date | None) -> RuleSet:
    standard = list_ == "standard"
    cap = 350 if start < CAP_400_FROM else 400
    if start >= BELOW_2650_FROM and standard:
        cap_mode = "below-2650"
    elif ONCE_PER_EVENT_FROM <= start < RULES_2024_FROM:
        cap_mode = "once-per-event"
    else:
        cap_mode = "every-game"
    rules_2014 = start >= K_2014_FROM
    if rules_2014:
        k_new, k_default = 40, 20
    elif start >= K_NEW_30_FROM:
        k_new, k_default = 30, 15
    else:
        k_new, k_default = 25, 15
    k_flat = None if standard or start >= RAPID_K_FROM else 20
    rules_2024 = start >= RULES_2024_FROM
    return RuleSet(
        name=f"{list_} {start.isoformat()}",
        list=list_,
        valid_from=start,
        valid_to=end,
        cap=cap,
        cap_mode=cap_mode,
        cap_exempt_from=CAP_EXEMPT_RATING if cap_mode == "below-2650" else None,
        k_new=k_new,
        k_junior=40 if rules_2014 else None,
        k_default=k_default,
        k_top=10,
        k_flat=k_flat,
        rule_700=rules_2014 or not standard,
        rule_600=not standard and start >= RULE_600_FROM,
        floor=1400 if rules_2024 else 1000,
        initial_method="2024" if rules_2024 else "2022",
        initial_min_games=5,
        initial_max=2200,
    )
