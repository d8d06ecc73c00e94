"""The numbers of a time control as people write it: TRF record 122, a crosstable's
time-control line, a flyer (``90'+30"``, ``1:30 + 10``, ``40/120, SD/30 d5``,
``100'/40 + 50'/20 + 15' + 30"``, ``90 Minuten für 40 Züge``, ``40 zetten in 1.30 uur``,
``90 minuti + 30 secondi a mossa``).

`read_text` gives the stages (moves, base seconds), the increment and the delay, or None:
one pass of a parser over the text's tokens (`timecontrol.tokens`);
`pipeline.formats.timecontrol` turns them into periods and a rating list, and its
docstring states the reading rules. The words are those of the project's languages
(`vocabulary.LANGUAGES`): unit words, increment and delay words, the US ``G``/``SD`` and
the ``KO``/``QPF`` finishes, and move numbers (``from move 1``, ``ab dem 40. Zug``,
``dalla prima mossa``), which are never read as quantities.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from pipeline.formats.timecontrol.tokens import Token, normalize, tokenize

USUAL_MOVES = 40  # a period followed by another, its moves not given, is this long
MAX_MOVES = 200
MAX_FREE_SECONDS = 6 * 60 * 60  # a longer stage is a clock time or a date, not a period
MAX_BARE_MINUTES = 360
HOURS_FORM_MAX = 3  # US `40/2`: a time this small after a move count is in hours


_PAREN_NUMBERS = re.compile(r"\([^()]*\d[^()]*\)")


@dataclass(frozen=True)
class TextTimes:
    """What a free-text time control's numbers say: `stages` as (moves or None, base
    seconds), the `increment` and `delay` in seconds a move, and the move they start at."""

    stages: tuple[tuple[int | None, Fraction], ...]
    increment: Fraction = Fraction(0)
    delay: Fraction = Fraction(0)
    increment_from: int = 1


def read_text(text: str) -> TextTimes | None:
    """The numbers of a free-text time control, None when no base time reads. Numbers in
    parentheses that repeat the text (``15 + 10 (15 minutes ... plus 10 seconds ...)``)
    are read past when the rest reads alone."""
    s = normalize(text)
    rest = _PAREN_NUMBERS.sub(" , ", s)
    if rest != s:
        found = _Parser(tokenize(rest)).run()
        if found is not None:
            return found
    return _Parser(tokenize(s)).run()


@dataclass
class _Stage:
    seconds: Fraction
    moves: int | None = None


class _Parser:
    """One pass over the tokens; the rules are in `timecontrol`'s docstring."""

    def __init__(self, toks: list[Token]) -> None:
        self.toks = toks
        self.stages: list[_Stage] = []
        self.increment: Fraction | None = None
        self.delay: Fraction | None = None
        self.increment_from = 1
        self.pending_moves: int | None = None
        self.last: str | None = None  # the last quantity read: time, inc, delay
        self.blocked = False  # a `,` `;` `+` or `then` since the last time
        self.expect = ""  # "inc" / "delay": an increment or delay word wants a number
        kinds = {t.kind for t in toks}
        self.has_sign = bool(kinds & {"time", "secs", "moves", "slash", "plus", "delay"})
        self.bare_only = kinds <= {"bare", "sep"}
        self.hours_form = any(self._us_hours(i) for i in range(len(toks)))
        self.named_increment = bool(kinds & {"secs", "delay"}) or any(
            t.kind == "word" and t.text == "inc" and self._kind(self._next(i)) == "bare"
            for i, t in enumerate(toks)
        )

    # --- looking around ------------------------------------------------------------------

    def _at(self, i: int) -> Token | None:
        return self.toks[i] if 0 <= i < len(self.toks) else None

    def _next(self, i: int) -> int:
        """The index of the next token that is not a filler word."""
        i += 1
        while (t := self._at(i)) is not None and t.kind == "word" and t.text == "filler":
            i += 1
        return i

    def _prev(self, i: int, skip: tuple[str, ...] = ("filler",)) -> int:
        i -= 1
        while (t := self._at(i)) is not None and (
            (t.kind == "word" and t.text in skip) or (t.kind == "sep" and t.text in "().")
        ):
            i -= 1
        return i

    def _kind(self, i: int) -> str:
        t = self._at(i)
        return "" if t is None else t.kind if t.kind != "word" else "word:" + t.text

    def _us_hours(self, i: int) -> bool:
        """`40/2`: a move count over a small bare number (US hours form)."""
        left, right = self._at(i), self._at(i + 2)
        return (
            left is not None
            and right is not None
            and self._kind(i + 1) == "slash"
            and left.kind == right.kind == "bare"
            and left.value.denominator == 1
            and 10 <= left.value <= MAX_MOVES
            and 0 < right.value <= HOURS_FORM_MAX
        )

    # --- quantities ----------------------------------------------------------------------

    def _time(self, seconds: Fraction) -> bool:
        if not 0 < seconds <= MAX_FREE_SECONDS:
            return False
        self.stages.append(_Stage(seconds, self.pending_moves))
        self.pending_moves = None
        self.last = "time"
        self.blocked = False
        self.expect = ""
        return True

    def _minutes(self, value: Fraction) -> bool:
        hours = self.hours_form and value <= HOURS_FORM_MAX
        return self._time(value * (3600 if hours else 60))

    def _per_move(self, value: Fraction, as_delay: bool = False) -> None:
        if as_delay:
            self.delay = value if self.delay is None else max(self.delay, value)
            self.last = "delay"
        else:
            self.increment = value if self.increment is None else max(self.increment, value)
            self.last = "inc"
        self.expect = ""

    def _moves(self, value: Fraction, after: bool = False) -> None:
        if value.denominator != 1 or not 1 <= value <= MAX_MOVES:
            return
        moves = int(value)
        stages = self.stages
        if after and len(stages) >= 2 and stages[-2].moves is None:
            stages[-2].moves = moves
        elif (after or not self.blocked) and stages and stages[-1].moves is None:
            stages[-1].moves = moves
        else:
            self.pending_moves = moves

    # --- the pass ------------------------------------------------------------------------

    def run(self) -> TextTimes | None:
        i = 0
        while i < len(self.toks):
            i = self._step(i) + 1
        if not self.stages:
            return None
        return TextTimes(
            tuple((s.moves, s.seconds) for s in self.stages),
            self.increment or Fraction(0),
            self.delay or Fraction(0),
            self.increment_from,
        )

    def _step(self, i: int) -> int:
        """Read token `i`; the index of the last token it used."""
        t = self.toks[i]
        if t.kind == "time":
            return self._moves_after_slash(i) if self._time(t.value) else i
        if t.kind == "secs":
            delay = self.expect == "delay" or self._kind(self._next(i)) == "word:delay"
            self._per_move(t.value, as_delay=delay)
        elif t.kind == "moves":
            self._moves(t.value, after=self._kind(self._prev(i)) == "word:after")
        elif t.kind == "bare":
            return self._bare(i, t.value)
        elif t.kind == "delay":
            self._per_move(t.value, as_delay=True)
        elif t.kind == "from":
            self._from_move(int(t.value))
        elif t.kind == "plus" or (t.kind == "sep" and t.text in ",;"):
            self.blocked = True
            self.expect = ""
        elif t.kind == "word":
            self._word(t.text)
        return i

    def _word(self, role: str) -> None:
        if role in ("plus", "then"):
            self.blocked = True
        elif role == "inc":
            self.expect = "inc"
        elif role == "delay" and self.last != "delay":
            if self.last == "inc" and self.increment is not None and self.delay is None:
                self.delay, self.increment = self.increment, None  # `5 sec delay`
                self.last = "delay"
            else:
                self.expect = "delay"

    def _from_move(self, number: int) -> None:
        """`from move 41` after an increment: it starts there; after a period's time: the
        period before ends at the move before."""
        if number <= 1:
            return
        if self.last in ("inc", "delay"):
            self.increment_from = number
        elif self.last == "time" and len(self.stages) >= 2 and self.stages[-2].moves is None:
            self.stages[-2].moves = min(number - 1, MAX_MOVES)

    def _moves_after_slash(self, i: int) -> int:
        """`100'/40`: a bare whole number after a time and a slash is its moves."""
        after = self._at(i + 2)
        if (
            self._kind(i + 1) == "slash"
            and after is not None
            and after.kind == "bare"
            and self._kind(i + 3) != "slash"
            and self.stages
            and self.stages[-1].moves is None
        ):
            self._moves(after.value)
            return i + 2
        return i

    def _bare(self, i: int, value: Fraction) -> int:
        nxt = self._next(i)
        if self._kind(nxt) == "slash":
            used = self._slashed(i, value, nxt)
            if used is not None:
                return used
        before = self._prev(i)
        context = (
            self._prev(before, skip=("filler", "for"))
            if self._kind(before) in ("slash", "word:for")
            else before
        )
        if self._kind(before) == "word:game" or self._kind(context) == "word:game":
            self._minutes(value)
        elif self.expect:
            self._per_move(value, as_delay=self.expect == "delay")
        elif self._kind(nxt) == "word:move" or (
            self._kind(nxt) == "slash" and self._kind(nxt + 1) == "word:move"
        ):
            self._per_move(value)  # `+ 30 per move`, `30/move`
        elif self._kind(before) in ("word:for", "times") and self.last == "time":
            self._moves(value)  # `para las siguientes 20`, `100'x40`
        elif (
            self._kind(before) in ("plus", "word:plus")
            and self.stages
            and not self.named_increment
            and value <= 60
        ):
            self._per_move(value)  # `15+10`, `G/25+5`
        elif self._kind(nxt) in ("word:unknown", "word:label") or self._kind(before) == (
            "word:label"
        ):
            pass  # `7 rounds`, `Round 1`
        elif not (self.has_sign or self.bare_only) or _year(value):
            pass
        elif self._kind(before) == "plus" and not self.stages:
            pass  # `5400+30`, `14:30 + 10`: a `+` after no time
        elif value <= MAX_BARE_MINUTES:
            self._minutes(value)  # over it: `5400`, `U1800` are not minutes
        return i

    def _slashed(self, i: int, left: Fraction, slash: int) -> int | None:
        """`40/90` (moves/minutes), `40/2` (US hours), `90/40` (minutes/moves), `30/SD`,
        `40/90'`, `90/40 moves`; None when the slash starts nothing of these."""
        right = self._at(slash + 1)
        if right is None:
            return None
        whole = left.denominator == 1 and 1 <= left <= MAX_MOVES
        if right.kind == "time" and whole:
            self.pending_moves = int(left)
            return slash
        if right.kind == "moves":
            self._minutes(left)
            self._moves(right.value)
            return slash + 1
        if right.kind == "word" and right.text == "game":
            self._minutes(left)
            return slash + 1
        if right.kind != "bare":
            return None
        if whole and left >= 10 and (self._us_hours(i) or left <= right.value):
            self.pending_moves = int(left)
            if self._us_hours(i):
                self._time(right.value * 3600)
            else:
                self._minutes(right.value)
        elif right.value < left <= MAX_BARE_MINUTES and self._minutes(left):
            self._moves(right.value)
        return slash + 1  # anything else (`1/2`, `2025/26`) is not a time control


def _year(value: Fraction) -> bool:
    return value.denominator == 1 and 1900 <= value <= 2099


__all__ = ["USUAL_MOVES", "TextTimes", "read_text"]
