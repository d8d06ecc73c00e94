"""The norms stage: what each player performed in each event, and (to come) the title-norm
checks of FIDE's Title Regulations (B.01).

performance.py   performance ratings per player and event, three views: the norm Rp
                 (B.01 1.4.6-1.4.9), the tie-break TPR with ARO (C.07 Article 10) and
                 the FIDE-rated-opponents-only view; performance.csv's rows
"""

from __future__ import annotations

from pipeline.norms.performance import PerformanceOptions, performance_frame

__all__ = ["PerformanceOptions", "performance_frame"]
