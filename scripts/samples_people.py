"""Invented people for the sample rating period: names, FIDE IDs, ratings and K factors.

Every name is built from syllables so that it belongs to nobody. Ratings respect the
1400 floor (FIDE B.02 from 1 March 2024: a rating below 1400 is not published) and K
follows the rating regulations in force in 2026 (reference/fide-rules.md section 5):
10 once the rating has reached 2400, 40 for juniors (list year - birth year <= 18) rated
below 2300, 40 below 30 career games, otherwise 20.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date

LIST_YEAR = 2026
LISTS = ("standard", "rapid", "blitz")

_ROOTS = [
    "Kal",
    "Bren",
    "Dor",
    "Marv",
    "Vel",
    "Tor",
    "Hald",
    "Lin",
    "Sor",
    "Garv",
    "Fen",
    "Rad",
    "Mil",
    "Ost",
    "Wend",
    "Barr",
    "Pel",
    "Corv",
    "Dell",
    "Jarn",
    "Quell",
    "Ulm",
    "Nerv",
    "Tasc",
    "Ivr",
    "Brom",
    "Kest",
    "Lorn",
    "Morv",
    "Selb",
    "Vard",
    "Wilm",
    "Zell",
    "Aldr",
    "Grev",
    "Hork",
    "Jesk",
    "Pruv",
    "Rosk",
    "Trev",
]
_ENDINGS = [
    "ovic",
    "enko",
    "sson",
    "berg",
    "ani",
    "ez",
    "ink",
    "elli",
    "aert",
    "hoven",
    "ard",
    "mont",
    "stad",
    "ley",
    "ida",
    "ers",
    "ault",
    "inger",
    "avan",
    "oglu",
]
_GIVEN_M = [
    "Pieter",
    "Tomas",
    "Lukas",
    "Anders",
    "Milan",
    "Ruben",
    "Jonas",
    "Emil",
    "Bram",
    "Oskar",
    "Mateo",
    "Dario",
    "Felix",
    "Hugo",
    "Ivan",
    "Karel",
    "Levi",
    "Nico",
    "Pavel",
    "Rafael",
    "Sven",
    "Teodor",
    "Viktor",
    "Wout",
    "Yannick",
    "Arjun",
    "Bastian",
    "Casper",
    "Daan",
    "Elias",
    "Gideon",
    "Jurre",
    "Marek",
    "Niels",
    "Otto",
    "Quentin",
    "Stefan",
    "Timo",
]
_GIVEN_W = [
    "Anna",
    "Lotte",
    "Mira",
    "Sanne",
    "Elena",
    "Ingrid",
    "Julia",
    "Katja",
    "Lena",
    "Noor",
    "Olga",
    "Petra",
    "Rosa",
    "Sofia",
    "Tessa",
    "Vera",
    "Yara",
    "Zoe",
    "Ilse",
    "Femke",
]
_FEDS = [
    ("NED", 30),
    ("BEL", 8),
    ("GER", 10),
    ("FRA", 5),
    ("ENG", 5),
    ("ESP", 4),
    ("POL", 4),
    ("CZE", 3),
    ("DEN", 3),
    ("NOR", 3),
    ("SWE", 3),
    ("AUT", 2),
    ("SUI", 2),
    ("ITA", 3),
    ("HUN", 2),
    ("UKR", 3),
    ("IND", 4),
    ("USA", 2),
]
_OPEN_TITLES = [(2450, "GM"), (2300, "IM"), (2200, "FM"), (2100, "CM")]
_WOMEN_TITLES = [(2300, "WGM"), (2200, "WIM"), (2100, "WFM"), (2000, "WCM")]


@dataclass
class ListRating:
    """One list (standard, rapid or blitz) of a player: None rating = unrated there."""

    rating: int | None = None
    career_games: int = 0  # rated games ever on this list (drives K, not printed)
    period_games: int = 0  # games rated in the previous period (the list's SGm/RGm/BGm)
    ever_2400: bool = False
    k: int | None = None  # as the list prints it; None when unrated on this list


@dataclass
class Person:
    fide_id: int | None
    surname: str
    given: str
    federation: str
    sex: str  # 'M' / 'F' as in FIDE's list
    birth: date
    strength: int  # playing strength used to simulate results
    title: str = ""
    w_title: str = ""
    o_title: str = ""
    foa: str = ""
    inactive: bool = False
    lists: dict[str, ListRating] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return f"{self.surname}, {self.given}"

    @property
    def woman(self) -> bool:
        return self.sex == "F"

    @property
    def flag(self) -> str:
        return ("w" if self.woman else "") + ("i" if self.inactive else "")

    @property
    def junior(self) -> bool:
        return LIST_YEAR - self.birth.year <= 18

    def rating(self, list_name: str) -> int | None:
        return self.lists[list_name].rating

    def title_trf(self) -> str:
        """The title as TRF and crosstables print it (open title first)."""
        return self.title or self.w_title


def fide_k(entry: ListRating, junior: bool) -> int:
    """K of a rated player at the start of the period (fide-rules.md section 5)."""
    assert entry.rating is not None
    if entry.ever_2400 or entry.rating >= 2400:
        return 10
    if junior and entry.rating < 2300:
        return 40
    if entry.career_games < 30:
        return 40
    return 20


class People:
    """Deterministic factory of unique invented people."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._names: set[str] = set()
        self._ids: set[int] = set()

    def _fide_id(self) -> int:
        while True:
            digits = self.rng.choice((8, 8, 8, 9))
            value = self.rng.randrange(10 ** (digits - 1), 10**digits)
            if value not in self._ids:
                self._ids.add(value)
                return value

    def _name(self, woman: bool) -> tuple[str, str]:
        while True:
            surname = self.rng.choice(_ROOTS) + self.rng.choice(_ENDINGS)
            given = self.rng.choice(_GIVEN_W if woman else _GIVEN_M)
            if f"{surname}, {given}" not in self._names:
                self._names.add(f"{surname}, {given}")
                return surname, given

    def _federation(self) -> str:
        codes = [code for code, _ in _FEDS]
        weights = [weight for _, weight in _FEDS]
        return self.rng.choices(codes, weights)[0]

    def _birth(self, junior: bool) -> date:
        year = self.rng.randint(2009, 2014) if junior else self.rng.randint(1952, 2006)
        return date(year, self.rng.randint(1, 12), self.rng.randint(1, 28))

    def make(
        self,
        standard: int | None,
        *,
        woman: bool | None = None,
        junior: bool | None = None,
        rapid: int | str | None = "auto",
        blitz: int | str | None = "auto",
        strength: int | None = None,
        with_id: bool = True,
        few_games: bool = False,
        ever_2400: bool = False,
        inactive: bool = False,
    ) -> Person:
        """A new person. `rapid`/`blitz` "auto" derive a rating near the standard one
        (or none); an int or None sets it. `few_games` gives fewer than 30 career games."""
        rng = self.rng
        if woman is None:
            woman = rng.random() < 0.2
        if junior is None:
            junior = rng.random() < 0.15
        surname, given = self._name(woman)
        base = standard if standard is not None else strength or 1500
        person = Person(
            fide_id=self._fide_id() if with_id else None,
            surname=surname,
            given=given,
            federation=self._federation(),
            sex="F" if woman else "M",
            birth=self._birth(junior),
            strength=strength if strength is not None else base,
            inactive=inactive,
        )
        person.lists["standard"] = self._list(standard, few_games, ever_2400, person)
        for list_name, given_rating in (("rapid", rapid), ("blitz", blitz)):
            if given_rating == "auto":
                value: int | None = None
                if standard is not None and rng.random() < 0.7:
                    value = max(1400, standard + rng.randint(-90, 60))
            else:
                value = given_rating if isinstance(given_rating, int) else None
            person.lists[list_name] = self._list(value, False, False, person)
        self._titles(person)
        return person

    def _list(
        self, rating: int | None, few_games: bool, ever_2400: bool, person: Person
    ) -> ListRating:
        rng = self.rng
        if rating is None:
            return ListRating()
        age = LIST_YEAR - person.birth.year
        career = rng.randint(5, 27) if few_games else rng.randint(30, 40 + 45 * max(age - 8, 1))
        entry = ListRating(
            rating=rating,
            career_games=career,
            period_games=0 if person.inactive or rng.random() < 0.6 else rng.randint(1, 9),
            ever_2400=ever_2400 or rating >= 2400,
        )
        entry.k = fide_k(entry, person.junior)
        return entry

    def _titles(self, person: Person) -> None:
        peak = max((e.rating for e in person.lists.values() if e.rating is not None), default=None)
        standard = person.lists["standard"]
        if standard.rating is None or peak is None:
            return
        top = standard.rating + (60 if standard.ever_2400 and standard.rating < 2400 else 0)
        for floor, title in _OPEN_TITLES:
            if top >= floor + 20 and self.rng.random() < 0.8:
                person.title = title
                break
        if person.woman:
            for floor, title in _WOMEN_TITLES:
                if top >= floor + 20:
                    person.w_title = title
                    break
            if not person.title:
                person.title = person.w_title

    def extra(self) -> Person:
        """A list player who plays none of the sample events (the list excerpt)."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.12:
            person = self.make(None, rapid=None, blitz=None)
        elif roll < 0.18:
            person = self.make(None, rapid=rng.randint(1400, 1900), blitz=None)
        else:
            standard = int(rng.triangular(1400, 2550, 1750))
            person = self.make(standard, inactive=rng.random() < 0.15)
        if rng.random() < 0.05:
            person.o_title = rng.choice(("FA", "IA", "FI", "FT", "NA"))
        return person
