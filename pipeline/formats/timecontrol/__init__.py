"""Read a time control and classify it as a FIDE rating list: standard, rapid or blitz.

FIDE measures a time control by the time each player has for 60 moves: the base time of
every period started within the first 60 moves, plus 60 times the increment (Laws of
Chess, Appendices A.1 and B.1; Rating Regulations B.02 §1.1). The split used here:

- standard: at least 60 minutes for 60 moves;
- blitz: at most 10 minutes for 60 moves;
- rapid: anything in between.

`read_time_control` is the entry point: it returns a `TimeControlReading` (periods,
seconds for 60 moves, list, how it was decided, the list the words name) that can
`describe()` itself for warnings. The older functions (`classify_time_control`,
`seconds_for_time_control`, `classify_encoded`, `classify_free_text`) are views of it.

Forms read:

- TRF26 record 222 (seconds): ``d[:d]`` and ``Wd[:d]-Bd[:d]`` (Armageddon), each ``d``
  one of ``M/S``, ``M/S+I``, ``S``, ``S+I`` (``5400+30``, ``40/6000+30:1500+30``,
  ``40/7200:3600``, ``W300-B240``). With ``encoded=None`` text in that grammar is read as
  seconds when its first base time is over 180 (``5400+30``, ``300+3``); ``90+30`` and
  ``180+2`` are free text (minutes).
- Free text (`timecontrol.text`): minutes and seconds with units in the project's
  languages or ``'`` and ``"`` (``90'+30"``, ``90 minuti + 30 secondi a mossa``),
  ``h:mm`` / ``h:mm:ss`` / ``1h30`` / ``1.30 uur``, moves-based periods (``40/90 +
  30/30 + 30s``, ``40 moves in 2 hours``, ``100'/40 + 50'/20 + 15' + 30"``), the US
  ``G/90;d5``, ``SD/30``, ``30/SD`` and ``Game/60 + 5``; failing numbers, the words that
  name a list (``Rapid``, ``Schnellschach``, ``semilampo``).

Choices (each a reading the texts leave open, decided once here):

- **Delay counts as an increment.** FIDE's texts measure increments; a delay (US ``d5``,
  ``delay 5``, Bronstein) gives a player up to that many seconds a move, never more, and
  exactly that much to a player who uses it, so the time for 60 moves is base + 60 ×
  delay, as for an increment of the same size. US Chess classifies its own time controls
  the same way (rule 5C: ``G/60 d/5`` = 60 + 5 = 65 minutes). The delay is carried in
  `Period.increment` and named in `TimeControlReading.delay`.
- ``h:mm`` without a unit is hours:minutes when the hours are at most 2 (``1:30``,
  ``2:00``, ``0:30``); with ``:ss`` or an hour word always; with a minute word
  (``15:00 min``) it is minutes:seconds; ``14:30`` alone is a clock time, not read.
- US moves/time: ``40/90`` is 40 moves in 90 minutes; a time of at most 3 after a move
  count is in hours (``40/2, SD/1``: US Chess writes 1 or 2 for hours), and so are the
  other bare times of at most 3 in that text. A bare ``90/40`` (larger first) is minutes
  for moves.
- A bare number is minutes; after ``+`` (or plus, più, más) and at most 60 it is the
  increment in seconds (``15+10``, ``G/25+5``), unless the text names its increment with
  a unit or word elsewhere (``40/90 + 30 + 30s``: the 30 is a period). A bare number
  next to a word that counts something else is not read (``7 rounds``, ``Round 1``),
  nor years, dates or a bare number over 360 (``U1800``), nor a ``+`` number after no
  base time (``5400+30`` as free text reads nothing; with ``encoded=None`` it is seconds).
- A period followed by another whose moves are not given is read as 40 moves (the FIDE
  usual: ``90 min + 30 min + 30 s``); ``30 min after 40 moves`` gives the 40 to the period
  before.
- ``increment ... after move 40`` starts the increment at move 41 (only moves 41 to 60
  count it).
- Numbers in parentheses that repeat the text (``15 + 10 (15 minutes ... plus 10
  seconds)``) are read past when the rest reads alone.
- Two colours (Armageddon, ``W300-B240``, ``10 minutes for white and 7 minutes for
  black``): `seconds` is the shorter time for 60 moves, and the list is named only when
  both colours' times fall in the same list.

Arithmetic is exact (`fractions.Fraction` seconds); nothing here raises on any text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from pipeline.formats.timecontrol.text import USUAL_MOVES, TextTimes, read_text
from pipeline.formats.timecontrol.tokens import split_colours
from pipeline.formats.timecontrol.words import LIST_WORDS

STANDARD = "standard"
RAPID = "rapid"
BLITZ = "blitz"

MOVES_MEASURED = 60  # FIDE: the time for 60 moves decides the category
STANDARD_MIN_SECONDS = 60 * 60  # at least 60 minutes -> standard
BLITZ_MAX_SECONDS = 10 * 60  # at most 10 minutes -> blitz
ENCODED_MIN_BASE = 180  # `classify_time_control`: a first base above this is seconds
MAX_PERIOD_SECONDS = 24 * 60 * 60  # larger values are not a time control
MAX_MOVES = 200


@dataclass(frozen=True)
class Period:
    """One period of a time control: `moves` (None = rest of the game) in `base`
    seconds, with `increment` seconds added per move of that period."""

    moves: int | None
    base: Fraction
    increment: Fraction = Fraction(0)


def seconds_for_moves(periods: list[Period], moves: int = MOVES_MEASURED) -> Fraction:
    """Time a player has for the first `moves` moves (whole base of each period started)."""
    total = Fraction(0)
    left = moves
    for period in periods:
        if left <= 0:
            break
        total += period.base
        used = left if period.moves is None else min(left, period.moves)
        total += used * period.increment
        left -= used
    return total


def list_for_seconds(seconds: Fraction) -> str | None:
    """The rating list for a time for 60 moves; None for a zero or negative time."""
    if seconds <= 0:
        return None
    if seconds >= STANDARD_MIN_SECONDS:
        return STANDARD
    if seconds <= BLITZ_MAX_SECONDS:
        return BLITZ
    return RAPID


# --- TRF26 record 222 (seconds) ---------------------------------------------------------

_ENCODED_PERIOD = re.compile(r"(?:(\d{1,3})/)?(\d{1,6})(?:\+(\d{1,4}))?")
_ARMAGEDDON = re.compile(r"\s*[wW](.+)-[bB](.+?)\s*")


def parse_encoded(value: str) -> list[Period] | None:
    """Periods of an encoded time control (``40/6000+30:1500+30``), or None if malformed.

    Every period but the last must name its number of moves; the last may omit it.
    """
    text = value.strip()
    if not text:
        return None
    periods: list[Period] = []
    parts = text.split(":")
    for index, part in enumerate(parts):
        match = _ENCODED_PERIOD.fullmatch(part.strip())
        if match is None:
            return None
        moves_s, base_s, inc_s = match.groups()
        moves = int(moves_s) if moves_s is not None else None
        if moves is None and index < len(parts) - 1:
            return None
        if moves is not None and not 1 <= moves <= MAX_MOVES:
            return None
        base = Fraction(int(base_s))
        if base > MAX_PERIOD_SECONDS:
            return None
        periods.append(Period(moves, base, Fraction(int(inc_s or "0"))))
    return periods


def _encoded_sides(value: str) -> tuple[list[Period], list[Period]] | None:
    """White's and Black's periods of a 222 value (the same list twice unless it is the
    Armageddon form ``W300-B240``), None if malformed."""
    match = _ARMAGEDDON.fullmatch(value)
    if match is not None:
        white, black = parse_encoded(match.group(1)), parse_encoded(match.group(2))
        return (white, black) if white is not None and black is not None else None
    periods = parse_encoded(value)
    return (periods, periods) if periods is not None else None


def _seconds_likely(text: str, periods: list[Period]) -> bool:
    """Text in the 222 grammar read as seconds when the kind is not given: its first base
    time is over 180, and it is not a lone year (``2025``)."""
    year = text.strip().isdigit() and 1900 <= int(text) <= 2099
    return periods[0].base > ENCODED_MIN_BASE and not year


def classify_encoded(value: str) -> str | None:
    """The list for a TRF26 222 value (``5400+30`` -> standard), None if malformed."""
    return read_time_control(value, encoded=True).list


# --- words ---------------------------------------------------------------------------------

_LIST_WORDS = sorted(
    ((word, name) for name, words in LIST_WORDS.items() for w in words.values() for word in w),
    key=lambda pair: len(pair[0]),
    reverse=True,
)


def lists_named(text: str) -> list[str]:
    """Every list named by words in `text` (``(Standard)``, ``Schnellschach``, ``Blitz``,
    ``semilampo``), sorted."""
    s = text.casefold()
    found: set[str] = set()
    for word, name in _LIST_WORDS:  # longest first: `semilampo` is not `lampo`
        if word in s:
            found.add(name)
            s = s.replace(word, " ")
    return sorted(found)


def classify_words(text: str) -> str | None:
    """The list named by words in `text`; None when no list or more than one list is
    named (`lists_named`)."""
    found = lists_named(text)
    return found[0] if len(found) == 1 else None


# --- the reading -------------------------------------------------------------------------


@dataclass(frozen=True)
class TimeControlReading:
    """What a time control's text says, and how it was read.

    `periods` are White's (and both players' unless `black` holds Black's different
    ones); `seconds` is the time for 60 moves (the shorter one when the colours differ);
    `by` is ``"numbers"`` when the seconds decided the list, ``"words"`` when only words
    named it, None when nothing did (also when the two colours' times fall in different
    lists: `seconds` is then set, `list` None); `delay` is the delay a move (already
    counted in the periods' increments).
    """

    text: str
    periods: tuple[Period, ...]
    seconds: Fraction | None
    list: str | None
    by: str | None
    words_list: str | None
    delay: Fraction = Fraction(0)
    black: tuple[Period, ...] = ()

    def describe(self) -> str:
        """One short English line: ``'1:30 + 10' is 90 min + 10 s a move: 100 min for 60
        moves, standard``; ``'Rapid' names the rapid list``."""
        shown = "'" + " ".join(self.text.split()) + "'"
        if self.seconds is None:
            if self.words_list is not None:
                return f"{shown} names the {self.words_list} list"
            return f"{shown} does not read as a time control"
        if self.black:
            white_s = seconds_for_moves(list(self.periods))
            black_s = seconds_for_moves(list(self.black))
            body = (
                f"White {_periods_text(self.periods, self.delay)}, "
                f"Black {_periods_text(self.black, self.delay)}"
            )
            timing = f"{_duration(white_s)} and {_duration(black_s)} for 60 moves"
            verdict = self.list or (
                f"White {list_for_seconds(white_s)}, Black {list_for_seconds(black_s)}"
            )
        else:
            body = _periods_text(self.periods, self.delay)
            timing = f"{_duration(self.seconds)} for 60 moves"
            verdict = self.list or "no list"
        out = f"{shown} is {body}: {timing}, {verdict}"
        if self.words_list is not None and self.words_list != self.list:
            out += f" (its words name the {self.words_list} list)"
        return out


def read_time_control(text: str, encoded: bool | None = None) -> TimeControlReading:
    """Read a time control: `encoded` True for a TRF26 222 value (seconds), False for free
    text, None for either (the 222 grammar with a first base time over 180 is seconds,
    anything else free text). Free text falls back to the words that name a list."""
    words = classify_words(text)
    if encoded is not False:
        sides = _encoded_sides(text)
        if sides is not None and (encoded or _seconds_likely(text, sides[0])):
            return _reading(text, sides[0], sides[1], Fraction(0), words)
        if encoded:
            return TimeControlReading(text, (), None, None, None, words)
    free = _free_periods(text)
    if free is not None:
        return _reading(text, *free, words)
    return TimeControlReading(text, (), None, words, "words" if words else None, words)


def _reading(
    text: str, white: list[Period], black: list[Period], delay: Fraction, words: str | None
) -> TimeControlReading:
    white_s, black_s = seconds_for_moves(white), seconds_for_moves(black)
    seconds = min(white_s, black_s)
    if seconds <= 0:
        return TimeControlReading(text, (), None, words, "words" if words else None, words)
    lst = (
        list_for_seconds(white_s)
        if list_for_seconds(white_s) == list_for_seconds(black_s)
        else None
    )
    others = tuple(black) if black != white else ()
    by = "numbers" if lst is not None else None
    return TimeControlReading(text, tuple(white), seconds, lst, by, words, delay, others)


def _free_periods(text: str) -> tuple[list[Period], list[Period], Fraction] | None:
    """(White's periods, Black's periods, delay) of free text, None if no numbers read."""
    colours = split_colours(text)
    if colours is not None:
        white, black = read_text(colours[0]), read_text(colours[1])
        if white is not None and black is not None:
            return _periods(white), _periods(black), max(white.delay, black.delay)
    times = read_text(text)
    if times is None:
        return None
    periods = _periods(times)
    return periods, periods, times.delay


def _periods(times: TextTimes) -> list[Period]:
    """Periods of a free-text reading: a non-last period without moves is 40 moves; the
    increment (with any delay) is added from its first move on, a period split there."""
    per_move = times.increment + times.delay
    periods: list[Period] = []
    start = 1
    last = len(times.stages) - 1
    for index, (moves, base) in enumerate(times.stages):
        count = moves if moves is not None or index == last else USUAL_MOVES
        end = None if count is None else start + count - 1
        first = times.increment_from
        if first <= start or per_move == 0:
            periods.append(Period(count, base, per_move))
        elif end is not None and first > end:
            periods.append(Period(count, base, Fraction(0)))
        else:  # the increment starts inside this period
            periods.append(Period(first - start, base, Fraction(0)))
            periods.append(Period(None if end is None else end - first + 1, Fraction(0), per_move))
        start = start + (count or 0)
    return periods


def _periods_text(periods: tuple[Period, ...], delay: Fraction) -> str:
    """``40 moves in 90 min, then 30 min, + 30 s a move``."""
    parts: list[str] = []
    for index, period in enumerate(periods):
        if period.base == 0 and parts:
            continue  # where an increment starts within a period
        split = index + 1 < len(periods) and periods[index + 1].base == 0
        base = _duration(period.base)
        moves = None if split else period.moves
        parts.append(f"{moves} moves in {base}" if moves is not None else base)
    text = ", then ".join(parts)
    adds = _increments_text(periods, delay)
    if not adds:
        return text
    return f"{text}, {adds}" if len(parts) > 1 else f"{text} {adds}"


def _increments_text(periods: tuple[Period, ...], delay: Fraction) -> str:
    increments = [p.increment for p in periods]
    nonzero = [i for i, inc in enumerate(increments) if inc]
    if not nonzero:
        return ""
    first = nonzero[0]
    value = increments[first]
    if increments[first:] != [value] * (len(increments) - first):
        return "; ".join(f"+ {_number(i)} s a move" for i in increments if i)  # irregular
    if delay and delay == value:
        text = f"+ {_number(delay)} s delay a move"
    elif delay:
        text = f"+ {_number(value - delay)} s + {_number(delay)} s delay a move"
    else:
        text = f"+ {_number(value)} s a move"
    before = periods[:first]
    if before and all(p.moves is not None for p in before):
        text += f" from move {1 + sum(p.moves or 0 for p in before)}"
    return text


def _duration(seconds: Fraction) -> str:
    """``90 min``, ``7.5 min``, ``30 s``, ``123 min 20 s``."""
    minutes = seconds / 60
    if seconds < 60 and seconds % 60:
        return f"{_number(seconds)} s"
    if (minutes * 100).denominator == 1:
        return f"{_number(minutes)} min"
    whole = seconds // 60
    return f"{whole} min {_number(seconds - whole * 60)} s"


def _number(value: Fraction) -> str:
    """An exact decimal where one exists (``7.5``), else three places."""
    if value.denominator == 1:
        return str(value.numerator)
    for places in range(1, 7):
        if (value * 10**places).denominator == 1:
            return f"{float(value):.{places}f}"
    return f"{float(value):.3f}"


# --- the older entry points, views of `read_time_control` ---------------------------------


def parse_free_text(text: str) -> tuple[list[Period], Fraction] | None:
    """Periods (without increments) and the increment in seconds of a free-text time
    control, None if the text holds no base time."""
    times = read_text(text)
    if times is None:
        return None
    periods = [Period(moves, base) for moves, base in times.stages]
    return periods, times.increment + times.delay


def classify_free_text(text: str) -> str | None:
    """The list for a free-text time control: its numbers first, else its words."""
    return read_time_control(text, encoded=False).list


def classify_time_control(text: str) -> str | None:
    """Standard, rapid or blitz for a time control in either form, None if unknown.

    Text in the TRF26 encoded grammar whose first base time is over 180 is read as
    seconds (``5400+30``, ``300+3``, ``40/6000+30:1500+30``); everything else is free
    text, so ``90+30`` is 90 minutes + 30 seconds and ``180+2`` is 180 minutes + 2 s.
    """
    return read_time_control(text).list


def seconds_for_time_control(text: str) -> Fraction | None:
    """Each player's time for 60 moves (base times plus 60 increments) of a time control in
    either form (see `classify_time_control`), None when its numbers do not read."""
    return read_time_control(text).seconds
