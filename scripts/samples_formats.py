"""Writers for the sample files, byte for byte in the real formats.

- TRF26 (FIDE "TRF-2026" / TRF16 player line): fide-rules.md section 8, columns 1-based.
- FIDE combined rating list TXT (`players_list_foa.txt`): 0-based [start, end) fields.
- chess-results.com "Final Ranking crosstable" exports: XLSX (Swiss) and CSV (round robin).
- The project's games CSV + players CSV.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from zipfile import ZIP_DEFLATED, ZipFile, ZipInfo

from openpyxl import Workbook
from openpyxl.writer.excel import ExcelWriter
from samples_people import Person
from samples_swiss import HALVES, Entry

# --------------------------------------------------------------------------- TRF


@dataclass(frozen=True)
class TrfPlayer:
    no: int
    person: Person
    rating: int  # 0 = unrated
    halves: int
    rank: int
    entries: Sequence[Entry]


def trf_player_line(p: TrfPlayer) -> str:
    """A `001` record: start number 5-8, sex 10, title 11-13, name 15-47, rating 49-52,
    federation 54-56, FIDE ID 58-68 (blank without one), birth date 70-79, points 81-84,
    rank 86-89, round r in 92+10(r-1) .. 99+10(r-1)."""
    person = p.person
    sex = "w" if person.woman else "m"
    fide_id = "" if person.fide_id is None else str(person.fide_id)
    birth = f"{person.birth.year:04d}/{person.birth.month:02d}/{person.birth.day:02d}"
    assert len(person.name) <= 33, person.name
    points = f"{p.halves // 2}.{5 if p.halves % 2 else 0}"
    head = (
        f"001 {p.no:>4} {sex}{person.title_trf():>3} {person.name:<33} {p.rating:>4} "
        f"{person.federation:<3} {fide_id:>11} {birth:<10} {points:>4} {p.rank:>4}"
    )
    assert len(head) == 89, head
    blocks = []
    for e in p.entries:
        opponent = "0000" if e.opponent is None else f"{e.opponent:>4}"
        blocks.append(f"  {opponent} {e.colour} {e.code}")
    return head + "".join(blocks)


def trf_ruler(rounds: int) -> list[str]:
    """The three `###` comment lines (TRF26) that mark the columns of a `001` record."""
    width = 99 + 10 * (rounds - 1)
    tens = [" "] * (width + 1)
    for col in range(10, width + 1, 10):
        label = str(col // 10)
        for i, ch in enumerate(reversed(label)):
            tens[col - i] = ch
    line1 = "###" + "".join(tens[4:])
    line2 = "###" + "".join(str(col % 10) for col in range(4, width + 1))
    fields = " SSSS sTTT " + "N" * 33 + " RRRR FFF " + "I" * 11 + " BBBB/BB/BB PPPP RRRR"
    rounds_part = "".join(f"  {str(r % 10) * 4} {r % 10} {r % 10}" for r in range(1, rounds + 1))
    line3 = "###" + fields + rounds_part
    return [line1.rstrip(), line2, line3]


def write_trf(
    header: Sequence[tuple[str, str]], round_dates: Sequence[date], players: Sequence[TrfPlayer]
) -> str:
    """The whole file with CR LF line ends, as Swiss-Manager writes it."""
    lines = [f"{code} {value}" for code, value in header]
    dates = "".join(f"{d:%y/%m/%d}  " for d in round_dates).rstrip()
    lines.append("132" + " " * 88 + dates)
    lines.extend(trf_ruler(len(round_dates)))
    lines.extend(trf_player_line(p) for p in players)
    return "\r\n".join(lines) + "\r\n"


# ------------------------------------------------------------------ rating list

REGISTRY_HEADER = (
    "ID Number      Name                                                         "
    "Fed Sex Tit  WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
)
# Field widths of the combined list, from the header tokens: ID 0-15, Name 15-76, ...
REGISTRY_WIDTHS = (15, 61, 4, 4, 5, 5, 15, 4, 6, 4, 3, 6, 4, 3, 6, 4, 3, 6, 4)


def registry_line(person: Person) -> str:
    assert person.fide_id is not None
    values: list[str] = [
        str(person.fide_id),
        person.name,
        person.federation,
        person.sex,
        person.title,
        person.w_title,
        person.o_title,
        person.foa,
    ]
    for list_name in ("standard", "rapid", "blitz"):
        entry = person.lists[list_name]
        if entry.rating is None:
            values.extend(["", "", ""])
        else:
            values.extend([str(entry.rating), str(entry.period_games), str(entry.k)])
    values.extend([str(person.birth.year), person.flag])
    out = []
    for value, width in zip(values, REGISTRY_WIDTHS, strict=True):
        assert len(value) < width or (width == 4 and len(value) <= 4), (value, width)
        out.append(value.ljust(width))
    return "".join(out)


def write_registry(people: Sequence[Person]) -> str:
    lines = [REGISTRY_HEADER, *(registry_line(p) for p in people)]
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------ chess-results XLSX

Cell = str | int | float | None


def xlsx_bytes(rows: Sequence[Sequence[Cell]], sheet: str, stamp: datetime) -> bytes:
    """A one-sheet workbook whose bytes depend only on `rows`, `sheet` and `stamp`: the
    document dates and every zip member's timestamp are pinned to `stamp`."""
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = sheet
    for row in rows:
        ws.append(list(row))
    wb.properties.creator = "Swiss-Manager"
    wb.properties.created = stamp
    wb.properties.modified = stamp
    raw = io.BytesIO()
    with ZipFile(raw, "w", ZIP_DEFLATED) as archive:
        ExcelWriter(wb, archive).write_data()
    out = io.BytesIO()
    with ZipFile(raw) as src, ZipFile(out, "w", ZIP_DEFLATED) as dst:
        for info in src.infolist():
            member = ZipInfo(info.filename, date_time=stamp.timetuple()[:6])
            member.compress_type = ZIP_DEFLATED
            member.external_attr = 0o600 << 16
            dst.writestr(member, src.read(info.filename))
    return out.getvalue()


def swiss_cell(e: Entry) -> str:
    """A chess-results round cell: `12w1`, `5b½`, `3b+`, `9w-`, or `-1` / `-½` / `-0`."""
    symbol = {"1": "1", "=": "½", "0": "0", "+": "+", "-": "-"}
    if e.opponent is None:
        return "-" + {2: "1", 1: "½", 0: "0"}[HALVES[e.code]]
    return f"{e.opponent}{e.colour}{symbol[e.code]}"


def points_number(halves: int) -> int | float:
    return halves // 2 if halves % 2 == 0 else halves / 2


# ------------------------------------------------------------- chess-results CSV


def decimal_comma(value: float, places: int | None = None) -> str:
    """`3,5`, `5` (points) or `10,00` (two places), as the German-locale export writes."""
    if places is None:
        text = f"{value:g}" if value != int(value) else str(int(value))
    else:
        text = f"{value:.{places}f}"
    return text.replace(".", ",")


def write_csv_rows(rows: Sequence[Sequence[str]], delimiter: str) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=delimiter, lineterminator="\n")
    writer.writerows(rows)
    return buf.getvalue()
