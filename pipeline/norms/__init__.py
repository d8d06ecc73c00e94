"""The norms stage: what each player performed in each event, and the title-norm checks
of FIDE's Title Regulations (B.01).

performance.py   performance ratings per player and event, three views: the norm Rp
                 (B.01 1.4.6-1.4.9), the tie-break TPR with ARO (C.07 Article 10) and
                 the FIDE-rated-opponents-only view; performance.csv's rows
checks.py        the title-norm checks (GM, IM, WGM, WIM) per player and event: a verdict
                 and one row per requirement of B.01 (`norm_checks`)
requirements.py  the requirements as polars expressions
counts.py        what each player's games count for: games, score, ratings, opponents'
                 titles and federations, one row per player entry
event_facts.py   what each event's file shows that the checks need
titles.py        the norms' numbers and the choices (`NormOptions`)
certificate.py   the numbers of FIDE's IT1 certificate per norm (`norm_certificates`)
"""

from __future__ import annotations

from pipeline.norms.certificate import norm_certificates
from pipeline.norms.certificate_model import Certificate
from pipeline.norms.checks import NormChecks, norm_checks
from pipeline.norms.performance import PerformanceOptions, performance_frame
from pipeline.norms.titles import NormOptions

__all__ = [
    "Certificate",
    "NormChecks",
    "NormOptions",
    "PerformanceOptions",
    "norm_certificates",
    "norm_checks",
    "performance_frame",
]
