"""The norms stage: what each player performed in each event, and the title-norm checks
of FIDE's Title Regulations (B.01).

performance.py   performance ratings per player and event, three views: the norm Rp
                 (B.01 1.4.6-1.4.9), the tie-break TPR with ARO (C.07 Article 10) and
                 the FIDE-rated-opponents-only view; performance.csv's rows
checks.py        the title-norm checks (GM, IM, WGM, WIM) per player and event: a verdict
                 and one row per requirement of B.01 (`norm_checks`)
requirements.py  the requirements as polars expressions
event_facts.py   what each event's file shows that the checks need
titles.py        the norms' numbers and the choices (`NormOptions`)
"""

from __future__ import annotations

from pipeline.norms.checks import NormChecks, norm_checks
from pipeline.norms.performance import PerformanceOptions, performance_frame
from pipeline.norms.titles import NormOptions

__all__ = ["NormChecks", "NormOptions", "PerformanceOptions", "norm_checks", "performance_frame"]
