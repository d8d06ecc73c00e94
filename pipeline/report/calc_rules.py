"""Which of FIDE's special rules a calculation met, each with the date it is in force
from, for the calculator page: the 400-point cap (how many games it changed), the 2650+
exemption from it (standard list from 2025-10-01), the 700 rule (K lowered so that K
times the games stays within 700) and the 600-point rule (rapid and blitz from
2024-12-01). Pure: texts in the translator's language."""

from __future__ import annotations

import datetime as dt

from pipeline.calc import CalcResult
from pipeline.i18n import N_, Translator
from pipeline.rules.fide import REASON_RULE_600
from pipeline.rules.ruleset import (
    BELOW_2650_FROM,
    CAP_400_FROM,
    CAP_EXEMPT_RATING,
    K_2014_FROM,
    ONCE_PER_EVENT_FROM,
    RULE_600_FROM,
)

RULE_700_NOTE = N_("700 rule: K {k} -> {used} ({n} games)")  # pipeline.calc.compute's


def _cap_from(result: CalcResult) -> dt.date:
    rs = result.rule_set
    if rs.cap == 400 and rs.cap_mode == "every-game" and rs.valid_from < ONCE_PER_EVENT_FROM:
        return CAP_400_FROM
    return rs.valid_from


def applied_rules(result: CalcResult, tr: Translator) -> list[str]:
    """One line per rule of the rule set in force: whether it changed this calculation."""
    rs = result.rule_set
    n = tr.number
    lines: list[str] = []
    exempt = (
        rs.cap_exempt_from is not None
        and result.rating_before is not None
        and result.rating_before >= rs.cap_exempt_from
    )
    if rs.cap is not None and not exempt:
        capped = sum(
            1
            for g in result.games
            if g.rated
            and g.difference is not None
            and g.difference_used is not None
            and g.difference != g.difference_used
        )
        text = (
            tr.ngettext(
                "{cap}-point cap: applied to {n} game (from {date})",
                "{cap}-point cap: applied to {n} games (from {date})",
                capped,
            )
            if capped
            else tr._("{cap}-point cap: no difference over {cap} (from {date})")
        )
        lines.append(text.format(cap=n(rs.cap), n=capped, date=tr.date(_cap_from(result))))
    if rs.cap_mode == "below-2650":
        text = (
            tr._("2650+: rated {rating}, no cap (from {date})")
            if exempt
            else tr._("2650+: the cap applies below {rating} (from {date})")
        )
        rating = result.rating_before if exempt else CAP_EXEMPT_RATING
        lines.append(text.format(rating=n(rating or 0), date=tr.date(BELOW_2650_FROM)))
    if rs.rule_700:
        since = K_2014_FROM if rs.list == "standard" else rs.valid_from
        lowered = [note for note in result.notes if note.template == RULE_700_NOTE]
        if lowered:
            values = dict(lowered[0].values)
            text = tr._("700 rule: K {k} lowered to {used} for {n} games (from {date})")
            lines.append(
                text.format(k=values["k"], used=values["used"], n=values["n"], date=tr.date(since))
            )
        elif result.method == "fide" and result.rating_before is not None:
            text = tr._("700 rule: K times the games within 700, K unchanged (from {date})")
            lines.append(text.format(date=tr.date(since)))
    if rs.rule_600:
        r600 = sum(1 for g in result.games if g.reason == REASON_RULE_600)
        text = tr.ngettext(
            "600-point rule: {n} game not rated (from {date})",
            "600-point rule: {n} games not rated (from {date})",
            r600,
        )
        lines.append(text.format(n=r600, date=tr.date(RULE_600_FROM)))
    return lines
