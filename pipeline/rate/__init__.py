"""The rating stage: every event of a period in, each player's change per list out.

engine.py    rate_period: the period computation (RateOptions, RateResult)
outputs.py   its output frames: ratings.csv's and games.csv's rows, events, warnings
players.py   who is who (identity, Ro, K inputs) and the ratings that disagree
classify.py  which games count (reason, D, D used, PD, ΔR)
initial.py   initial ratings of unrated players, pooled across periods
lists.py     the base and start lists an entry is rated from
rows.py      how the frames' rows find each other by integer keys (events, entries)
checks.py    the files' declared K and changes cross-checked
columns.py   the stage's own column names (`c.KEY`, `c.RO`, ...)
"""

from __future__ import annotations

from pipeline.rate.engine import RateOptions, RateResult, period_start, rate_period

__all__ = ["RateOptions", "RateResult", "period_start", "rate_period"]
