"""The layout of FIDE's "Certificate of Title Result" (form IT1) as data, for the sheet
`pipeline.report.certificate` writes: sections of rows of label -> field, a list, the
rounds table and the signature lines, on a grid of `GRID` columns. A field is a dotted
path into the certificate (`player.fide_id`, `pipeline.norms.certificate.Certificate`).

FIDE's current form was not found (reference Q7): the sections follow two software
replicas. To follow FIDE's form, change `FORM` and `GRID` here, not the writer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

TITLE: Final = "Certificate of Title Result"
FORM_NAME: Final = "FIDE IT1"
# the grid's column widths (Excel units): the rounds table's columns are Rd, Opponent
# (three), FIDE ID, Fed, Title, Rating, Rating used, Result, Note
GRID: Final = (5.0, 8.0, 8.0, 8.0, 10.0, 6.0, 6.0, 7.0, 8.0, 7.0, 17.0)


@dataclass(frozen=True)
class Field:
    """A label and the value at `key` (a dotted path into the certificate; None: a line
    left blank for a hand, as the signatures), over `label_span` + `value_span` columns."""

    label: str
    key: str | None
    label_span: int = 3
    value_span: int = 3


@dataclass(frozen=True)
class Fields:
    """A section of rows of fields; shown only when `when` (a key) is true or not null."""

    heading: str
    rows: tuple[tuple[Field, ...], ...]
    when: str | None = None
    height: float | None = None  # of each row (points): room to sign


@dataclass(frozen=True)
class Lines:
    """A section with one full-width row per item of the list at `key`."""

    heading: str
    key: str


@dataclass(frozen=True)
class Column:
    header: str
    key: str  # a field of `CertificateRound`
    span: int = 1


@dataclass(frozen=True)
class Table:
    """A section with a header row and one row per item of the list at `key`."""

    heading: str
    key: str
    columns: tuple[Column, ...]


@dataclass(frozen=True)
class Note:
    text: str


def _pair(label: str, key: str, right: str = "", right_key: str = "") -> tuple[Field, ...]:
    """Two fields on a row (A:C D:F, G:I J:K), or one on its left half."""
    left = Field(label, key, 3, 3)
    return (left, Field(right, right_key, 3, 2)) if right else (left,)


def _wide(label: str, key: str | None, label_span: int = 3) -> tuple[Field, ...]:
    """One field over the whole row."""
    return (Field(label, key, label_span, len(GRID) - label_span),)


def _count(label: str, key: str | None, right: str, right_key: str) -> tuple[Field, ...]:
    """A count (A:D E) and a title's count (G:H I)."""
    return (Field(label, key, 4, 1), Field("", None, 1, 0), Field(right, right_key, 2, 1))


FORM: Final[tuple[Fields | Lines | Table | Note, ...]] = (
    Fields("For review: not a norm (this certificate is printed to be checked)", (
        _pair("Verdict", "verdict", "Norm sought", "norm"),
        _wide("Failing", "failing"),
        _wide("Missing", "missing"),
    ), when="for_review"),
    Fields("Title result", (_pair("Norm sought", "norm", "Verdict", "verdict"),)),
    Fields("Player", (
        _wide("Name", "player.name"),
        _pair("FIDE ID", "player.fide_id", "Federation", "player.federation"),
        _pair("Title", "player.title", "Sex", "player.sex"),
        _pair("Birth (year)", "player.birth_year", "Start number", "player.start_no"),
    )),
    Fields("Event", (
        _wide("Name", "event.name"),
        _pair("City", "event.city", "Host federation", "event.host_federation"),
        _pair("Start date", "event.start_date", "Close date", "event.end_date"),
        _wide("Chief Arbiter", "event.chief_arbiter"),
        _pair("Chief Arbiter FIDE ID", "event.chief_arbiter_fide_id", "Event type",
              "event.event_type"),
        _wide("Rate of play", "event.rate_of_play"),
        _pair("Rounds", "event.rounds", "Games counted", "event.games_counted"),
    )),
    Fields("Opponents (games counted)", (
        _count("Number of federations", "counts.federations", "GM", "counts.gm"),
        _count("Not from the applicant's federation", "counts.not_own_federation", "IM",
               "counts.im"),
        _count("Rated opponents", "counts.rated", "WGM", "counts.wgm"),
        _count("From the host federation", "counts.host_federation", "WIM", "counts.wim"),
        _count("Titled opponents (total)", "counts.titled", "FM", "counts.fm"),
        _count("", None, "WFM", "counts.wfm"),
    )),
    Fields("Where applying 1.4.3d (tournament-wide, the fewest in any round)", (
        (Field("Number of federations", "foreign_143d.federations", 7, 1),),
        (Field("Rated players not from the host federation", "foreign_143d.rated_not_host",
               7, 1),),
        (Field("Of them GM, IM, WGM or WIM", "foreign_143d.titled_not_host", 7, 1),),
    ), when="foreign_143d"),
    Lines("Special remarks", "remarks"),
    Table("Games", "rounds", (
        Column("Rd", "round"), Column("Opponent", "opponent_name", 3),
        Column("FIDE ID", "opponent_fide_id"), Column("Fed", "opponent_federation"),
        Column("Title", "opponent_title"), Column("Rating", "opponent_rating"),
        Column("Rating used (1.4.6)", "rating_used"), Column("Result", "result"),
        Column("Note", "note"),
    )),
    Note("Unrated = 1400, but see 1.4.6b; rating used shown only where it differs."),
    Fields("Result", (
        _pair("Rating average Ra", "result.ra", "Floor applied", "result.floor_applied"),
        _pair("Performance Rp", "result.rp", "Floor (1.4.6b-c)", "result.floor"),
        _pair("Score required", "result.score_required", "Raised from",
              "result.floor_raised_from"),
        _pair("Score achieved", "result.score", "Rp required", "result.min_rp"),
        _pair("Exceeding the norm by", "result.exceeding_by", "Games credited (1.4.1d)",
              "result.games_credited"),
    )),
    Fields("Signatures", (
        _wide("Chief Arbiter (name, signature)", None, 5),
        _wide("Federation confirming the result", None, 5),
        _wide("Federation official (name, signature)", None, 5),
        _wide("Place and date", None, 5),
    ), height=26.0),
)  # fmt: skip


__all__ = [
    "FORM",
    "FORM_NAME",
    "GRID",
    "TITLE",
    "Column",
    "Field",
    "Fields",
    "Lines",
    "Note",
    "Table",
]
