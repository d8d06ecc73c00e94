"""The rows above a crosstable's header: event name, dates, rounds and rating list.

chess-results / Swiss-Manager exports start with a line naming the database, the
tournament name, ``Last update dd.mm.yyyy hh:mm:ss``, sometimes detail lines (``Date``,
``Federation``, ``Time control (Rapid)``) and a title such as ``Final Ranking crosstable
after 7 Rounds`` / ``Endtabelle nach 7 Runden`` / ``Clasificación final después de 7
rondas``. Which FIDE rating list the event belongs to is not a field of the format: it is
taken from the time-control line (`pipeline.ingest.timecontrol`), else from words of the
name and title, and stays null (validation then asks for ``--list``) when none or
conflicting words are found.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from pipeline.ingest.timecontrol import classify_time_control

_DATABASE = re.compile(r"chess-?results|chess-tournament-results|schach-turnier|servidor", re.I)
_LAST_UPDATE = re.compile(
    r"(last update|letzte aktualisierung|[úu]ltima actualizaci[óo]n|actualizado)", re.I
)
_TITLE = re.compile(
    r"crosstable|ranking|rangliste|endtabelle|kreuztabelle|tabelle|clasificaci[óo]n|"
    r"classement|standings|after [0-9]+ rounds?|nach [0-9]+ runden|despu[ée]s de [0-9]+ rondas",
    re.I,
)
_ROUNDS = (
    re.compile(
        r"(?:after|nach|despu[ée]s de|tras)\s+([0-9]{1,3})\.?\s+(?:rounds?|runden|rondas?)", re.I
    ),
    re.compile(r"(?:after|nach|tras la|tras)\s+(?:round|runde|ronda)\s+([0-9]{1,3})", re.I),
)
_DATE_KEY = re.compile(r"(dates?|datum|fecha|period|zeitraum)\b", re.I)
_FEDERATION_KEY = re.compile(r"(federation|land|verband|federaci[óo]n)\b", re.I)
_CITY_KEY = re.compile(r"(location|ort|spielort|lugar|city|ciudad|venue)\b", re.I)
_TIME_KEY = re.compile(r"(time control|bedenkzeit|ritmo|control de tiempo)", re.I)
_OTHER_KEY = re.compile(
    r"(organi[sz](er|ador)|veranstalter|(tournament )?director|turnierdirektor|"
    r"(chief |deputy )?arbiter|schiedsrichter|[áa]rbitro|number of rounds|rundenanzahl|"
    r"n[úu]mero de rondas|tournament type|turnier(art|typ)|tipo de torneo|"
    r"rating calculation|elo-?(rechnung|auswertung)|c[áa]lculo|average|schnitt|media|"
    r"annotation|tie ?break|feinwertung|desempate)\b",
    re.I,
)
_DATE_YMD = re.compile(r"([0-9]{4})[/.-]([0-9]{1,2})[/.-]([0-9]{1,2})")
_DATE_DMY = re.compile(r"([0-9]{1,2})[/.]([0-9]{1,2})[/.]([0-9]{4})")
_FED_CODE = re.compile(r"\b([A-Z]{3})\b")
_LIST_WORDS = {
    "rapid": re.compile(r"r[áa]pid|schnell", re.I),
    "blitz": re.compile(r"blitz|rel[áa]mpago", re.I),
    "standard": re.compile(r"standard|classic|klassisch|cl[áa]sic|est[áa]ndar|langpartie", re.I),
}


@dataclass
class Preamble:
    """What the rows above the header tell about the event (all optional)."""

    name: str | None = None
    title: str | None = None
    rounds: int | None = None
    start_date: date | None = None
    end_date: date | None = None
    city: str | None = None
    federation: str | None = None
    time_control: str | None = None
    updated: date | None = None  # the "Last update" date: the standings' date
    lists_found: list[str] = field(default_factory=list)


def read_preamble(lines: list[str]) -> Preamble:
    """Read the preamble lines (each row's non-empty cells joined by a space)."""
    info = Preamble()
    for raw in lines:
        line = " ".join(raw.split())
        if not line or line.startswith("#"):
            continue
        if _LAST_UPDATE.match(line):
            dates = _dates_in(line)
            info.updated = info.updated or (dates[0] if dates else None)
            continue
        if _DATABASE.search(line):
            continue
        if _TITLE.search(line):
            info.title = info.title or line
            info.rounds = info.rounds or _rounds_of(line)
            continue
        if _key_line(info, line):
            continue
        if info.name is None:
            info.name = line
    return info


def list_of(info: Preamble, name: str) -> tuple[str | None, list[str]]:
    """The rating list of the event, and every list named by the name and title.

    A time-control line decides when `classify_time_control` can read it (its numbers,
    else its words such as ``(Rapid)``); else the name and the title must name exactly one
    list. Conflicting words give None with the lists found, for a warning.
    """
    if info.time_control:
        by_time = classify_time_control(info.time_control)
        if by_time is not None:
            return by_time, [by_time]
    texts = (name, info.title or "")
    found = sorted({lst for lst, rx in _LIST_WORDS.items() for t in texts if rx.search(t)})
    return (found[0] if len(found) == 1 else None), found


def _key_line(info: Preamble, line: str) -> bool:
    """Detail lines: take what the event needs, report whether the line was one."""
    if _DATE_KEY.match(line):
        dates = _dates_in(line)
        if dates and info.start_date is None:
            info.start_date = dates[0]
            info.end_date = dates[1] if len(dates) > 1 else None
        return True
    if _TIME_KEY.match(line):
        info.time_control = info.time_control or line
        return True
    if key := _FEDERATION_KEY.match(line):
        code = _FED_CODE.search(line[key.end() :])
        if code and info.federation is None:
            info.federation = code.group(1)
        return True
    if key := _CITY_KEY.match(line):
        info.city = info.city or (line[key.end() :].lstrip(" :") or None)
        return True
    return bool(_OTHER_KEY.match(line))


def _rounds_of(line: str) -> int | None:
    for pattern in _ROUNDS:
        found = pattern.search(line)
        if found:
            return int(found.group(1))
    return None


def _dates_in(line: str) -> list[date]:
    found: list[tuple[int, date]] = []
    for pattern, order in ((_DATE_YMD, (0, 1, 2)), (_DATE_DMY, (2, 1, 0))):
        for match in pattern.finditer(line):
            parts = [int(match.group(i + 1)) for i in order]
            try:
                found.append((match.start(), date(parts[0], parts[1], parts[2])))
            except ValueError:
                continue
    return [d for _, d in sorted(found, key=lambda item: item[0])]
