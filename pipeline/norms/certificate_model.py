"""The fields of FIDE's "Certificate of Title Result" (form IT1) as frozen dataclasses,
filled by `pipeline.norms.certificate.norm_certificates`: the reference's §4 (the IT1
as two software replicas give it). None: the files do not give it (a blank on the form).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass


@dataclass(frozen=True)
class CertificatePlayer:
    name: str | None
    fide_id: int | None
    federation: str | None
    title: str | None
    sex: str | None  # 'm' / 'w'
    birth_year: int | None
    start_no: int


@dataclass(frozen=True)
class CertificateEvent:
    event_id: str
    name: str | None
    start_date: dt.date | None
    end_date: dt.date | None
    city: str | None
    host_federation: str | None
    chief_arbiter: str | None  # as written, less the FIDE ID
    chief_arbiter_fide_id: int | None
    rate_of_play: str | None  # the time-control text
    rounds: int | None
    games_counted: int
    event_type: str | None


@dataclass(frozen=True)
class OpponentCounts:
    """Over the counted games (an opponent met twice counts twice)."""

    federations: int | None  # distinct federations of the opponents (the FIDE flag: none)
    not_own_federation: int | None  # opponents not of the applicant's federation
    rated: int
    host_federation: int | None  # opponents of the host federation
    titled: int | None  # GM IM WGM WIM FM WFM (1.4.5a)
    gm: int | None
    im: int | None
    wgm: int | None
    wim: int | None
    fm: int | None
    wfm: int | None


@dataclass(frozen=True)
class ForeignCounts:
    """B.01 1.4.3d, tournament-wide: each the minimum over the event's rounds."""

    federations: int | None
    rated_not_host: int | None  # FIDE-rated players not from the host federation
    titled_not_host: int | None  # of them, GM IM WGM WIM


@dataclass(frozen=True)
class CertificateRound:
    round: int
    opponent_name: str | None
    opponent_fide_id: int | None
    opponent_federation: str | None
    opponent_title: str | None
    opponent_rating: int | None
    rating_used: int | None  # 1.4.6: only where it differs (the floor, or 1400 unrated)
    result: str  # 1 ½ 0 played; + = − not played
    code: str  # the TRF result code
    counted: bool
    note: str | None  # a bye's kind, a forfeit, a game not counted


@dataclass(frozen=True)
class CertificateResult:
    ra: int | None
    floor: int  # the norm's floor (1.4.6b-c)
    floor_applied: bool
    floor_raised_from: int | None  # the rating the floor replaced (1400: unrated)
    rp: int | None
    min_rp: int
    score_required: float | None
    score: float
    exceeding_by: float | None  # score - score required, in points
    games_credited: int | None  # toward a title application's 27 games (1.4.1d, 1.7)


@dataclass(frozen=True)
class Certificate:
    norm: str  # GM / IM / WGM / WIM
    verdict: str
    for_review: bool  # printed for review: the norm is not met (or cannot be told)
    failing: tuple[str, ...]
    missing: tuple[str, ...]
    player: CertificatePlayer
    event: CertificateEvent
    counts: OpponentCounts
    foreign_143d: ForeignCounts | None  # 1.4.3d's block, when that exemption applied
    remarks: tuple[str, ...]
    rounds: tuple[CertificateRound, ...]
    result: CertificateResult


__all__ = [
    "Certificate",
    "CertificateEvent",
    "CertificatePlayer",
    "CertificateResult",
    "CertificateRound",
    "ForeignCounts",
    "OpponentCounts",
]
