"""The calculator's saved player data: `elo profile set|show|clear`, read by `elo calc`.

One small TOML file, ``profile.toml``, in the user's configuration folder (the platform's
convention, from `platformdirs`: ``~/.config/elo-pipeline`` on Linux, ``~/Library/
Application Support/elo-pipeline`` on macOS, ``%LOCALAPPDATA%\\elo-pipeline`` on
Windows); ``ELO_CONFIG_DIR`` names another folder (tests use it). Keys, all optional:

    rating = 1500          # 1..3500
    list = "standard"      # standard, rapid or blitz
    birth_year = 2010      # for the junior K
    games = 12             # career games before (K 40 below 30)
    ever_2400 = false      # the rating has reached 2400 (K 10)
    k = 40                 # a number above 0 (decimals allowed), "fide" or "variable"

Pure except `read_profile`, `write_profile` and `clear_profile`: a damaged file (not
TOML, a wrong type, an unknown key, a value out of range) raises `ProfileError` with every
problem of the file; the CLI prints them and exits 1. Writes are atomic.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
import os
import tomllib
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Final

import tomli_w

from pipeline.calc import MAX_RATING, CalcInputError, KSpec, parse_count, parse_k
from pipeline.i18n import DEFAULT_LANG, Translator, translator
from pipeline.rules.ruleset import LISTS

ENV_CONFIG_DIR: Final[str] = "ELO_CONFIG_DIR"
APP_NAME: Final[str] = "elo-pipeline"
FILE_NAME: Final[str] = "profile.toml"
MIN_BIRTH_YEAR: Final[int] = 1850
MAX_GAMES: Final[int] = 100_000
# TOML key -> Profile attribute, in the order files and `show` list them.
KEYS: Final[dict[str, str]] = {
    "rating": "rating",
    "list": "list_",
    "birth_year": "birth_year",
    "games": "games",
    "ever_2400": "ever_2400",
    "k": "k",
}
_HEADER: Final[str] = (
    "# elo calc's saved profile: edit with `elo profile set`, see `elo profile show`\n"
)
_TOML_TYPES: Final[dict[type, str]] = {
    str: "a string",
    int: "an integer",
    float: "a float",
    bool: "a boolean",
    list: "an array",
    dict: "a table",
    dt.datetime: "a date-time",
    dt.date: "a date",
    dt.time: "a time",
}


class ProfileError(ValueError):
    """A profile file that cannot be used: `problems` are one-line messages."""

    def __init__(self, path: Path, problems: Collection[str]) -> None:
        self.path = path
        self.problems = tuple(problems)
        super().__init__("\n".join(f"{path}: {p}" for p in self.problems))


@dataclass(frozen=True)
class Profile:
    """What `elo calc` takes from the profile when RATING is not given; None = not saved."""

    rating: int | None = None
    list_: str | None = None
    birth_year: int | None = None
    games: int | None = None
    ever_2400: bool | None = None
    k: KSpec = None  # an int, a Decimal, "fide" or "variable"

    def is_empty(self) -> bool:
        return all(getattr(self, attr) is None for attr in KEYS.values())

    def saved(self) -> dict[str, int | str | bool | Decimal]:
        """The saved values by TOML key, in file order (unsaved keys left out)."""
        values = ((key, getattr(self, attr)) for key, attr in KEYS.items())
        return {key: value for key, value in values if value is not None}


# --- where ----------------------------------------------------------------------------


def config_dir(environ: Mapping[str, str] | None = None) -> Path:
    """``$ELO_CONFIG_DIR`` when set, else the platform's user configuration folder."""
    env = os.environ if environ is None else environ
    override = env.get(ENV_CONFIG_DIR, "").strip()
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def profile_path(environ: Mapping[str, str] | None = None) -> Path:
    return config_dir(environ) / FILE_NAME


# --- values ---------------------------------------------------------------------------


def check_rating(value: int) -> str | None:
    """None when `value` is a rating a profile may hold, else what is wrong."""
    if 1 <= value <= MAX_RATING:
        return None
    return f"expected a rating 1..{MAX_RATING}, got {value}"


def check_list(value: str) -> str | None:
    if value in LISTS:
        return None
    return f"expected one of {', '.join(LISTS)}, got {value!r}"


def check_birth_year(value: int, this_year: int) -> str | None:
    if MIN_BIRTH_YEAR <= value <= this_year:
        return None
    return f"expected a year {MIN_BIRTH_YEAR}..{this_year}, got {value}"


def check_games(value: int) -> str | None:
    if 0 <= value <= MAX_GAMES:
        return None
    return f"expected a whole number 0..{MAX_GAMES}, got {value}"


def check_k(value: KSpec) -> str | None:
    if isinstance(value, str):
        if value in ("fide", "variable"):
            return None
        return f"expected a number above 0, 'fide' or 'variable', got {value!r}"
    if value is not None and value > 0:
        return None
    return f"expected a number above 0, 'fide' or 'variable', got {value}"


def _toml_type(value: object) -> str:
    for kind, name in _TOML_TYPES.items():
        if type(value) is kind:
            return name
    return type(value).__name__  # pragma: no cover - tomllib makes only the types above


def _toml_text(value: object) -> str:
    """A scalar `value` as TOML writes it (``true``, ``"1500"``, ``nan``), for messages."""
    text = tomli_w.dumps({"v": value}).partition("=")[2].strip()
    return text if len(text) <= 40 else text[:37] + "..."


def _wrong_type(expected: str, value: object) -> str:
    if isinstance(value, list | dict):
        return f"expected {expected}, got {_toml_type(value)}"
    return f"expected {expected}, got {_toml_type(value)} ({_toml_text(value)})"


def _read_value(key: str, value: object, this_year: int) -> tuple[object, str | None]:
    """The Profile attribute value of one TOML entry, or the problem with it."""
    whole = isinstance(value, int) and not isinstance(value, bool)
    if key == "rating":
        if not whole:
            return None, _wrong_type(f"a whole-number rating 1..{MAX_RATING}", value)
        assert isinstance(value, int)
        return value, check_rating(value)
    if key == "list":
        if not isinstance(value, str):
            return None, _wrong_type("a string: " + ", ".join(LISTS), value)
        return value, check_list(value)
    if key == "birth_year":
        if not whole:
            return None, _wrong_type("a whole-number year", value)
        assert isinstance(value, int)
        return value, check_birth_year(value, this_year)
    if key == "games":
        if not whole:
            return None, _wrong_type("a whole number of games", value)
        assert isinstance(value, int)
        return value, check_games(value)
    if key == "ever_2400":
        if not isinstance(value, bool):
            return None, _wrong_type("true or false", value)
        return value, None
    # key == "k"
    k = _read_k(value)
    if k is None:
        return None, _wrong_type("a number above 0, 'fide' or 'variable'", value)
    return k, check_k(k)


def _read_k(value: object) -> KSpec:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | str):
        return value
    if isinstance(value, float) and math.isfinite(value):
        k = Decimal(repr(value))
        return int(k) if k == k.to_integral_value() else k
    return None


# --- text <-> Profile -----------------------------------------------------------------


def parse_profile(text: str, path: Path, this_year: int | None = None) -> Profile:
    """The profile in `text` (the content of `path`); ProfileError lists every problem."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(path, [f"not valid TOML: {exc}"]) from None
    year = dt.date.today().year if this_year is None else this_year
    problems: list[str] = []
    values: dict[str, object] = {}
    for key, value in data.items():
        if key not in KEYS:
            problems.append(f"unknown key {key!r} (expected {', '.join(KEYS)})")
            continue
        read, problem = _read_value(key, value, year)
        if problem is not None:
            problems.append(f"{key}: {problem}")
        else:
            values[KEYS[key]] = read
    if problems:
        raise ProfileError(path, problems)
    return Profile(**values)  # type: ignore[arg-type]  # each value checked by _read_value


def format_profile(profile: Profile) -> str:
    """The TOML text of `profile` (a comment line, then the saved keys)."""
    data = {
        key: float(value) if isinstance(value, Decimal) else value
        for key, value in profile.saved().items()
    }
    return _HEADER + tomli_w.dumps(data)


def merge_profile(saved: Profile, changes: Profile, unset: Collection[str] = ()) -> Profile:
    """`saved` with every value `changes` holds, and without the keys in `unset`."""
    unknown = sorted(set(unset) - set(KEYS))
    if unknown:
        raise ValueError(f"unknown profile keys {unknown}")
    updates: dict[str, object] = {attr: None for key, attr in KEYS.items() if key in unset}
    updates.update(
        (attr, getattr(changes, attr))
        for attr in KEYS.values()
        if getattr(changes, attr) is not None
    )
    return dataclasses.replace(saved, **updates)  # type: ignore[arg-type]


def calc_defaults(saved: Profile, given: Collection[str]) -> Profile:
    """The saved values `elo calc` uses: those of the keys not `given` as options."""
    return merge_profile(saved, Profile(), unset=given)


def describe_profile(profile: Profile, lang: str = DEFAULT_LANG) -> str:
    """``rating 1500, standard list, born 2010, 12 career games, K 40`` (in `lang`)."""
    tr = translator(lang)
    parts: list[str] = []
    if profile.rating is not None:
        parts.append(tr._("rating {rating}").format(rating=tr.number(profile.rating)))
    if profile.list_ is not None:
        parts.append(tr._("{list} list").format(list=tr._(profile.list_)))
    if profile.birth_year is not None:
        parts.append(tr._("born {year}").format(year=tr.number(profile.birth_year)))
    if profile.games is not None:
        parts.append(tr._("{n} career games").format(n=tr.number(profile.games)))
    if profile.ever_2400 is not None:
        parts.append(
            tr._("has reached 2400") if profile.ever_2400 else tr._("has not reached 2400")
        )
    if profile.k is not None:
        parts.append(_describe_k(profile.k, tr))
    return ", ".join(parts)


def _describe_k(k: KSpec, tr: Translator) -> str:
    if k == "fide":
        return tr._("FIDE's K")
    if isinstance(k, Decimal):
        return f"K {tr.number(k, max(0, -int(k.as_tuple().exponent)))}"
    if isinstance(k, int):
        return f"K {tr.number(k)}"
    if k == "variable":
        return tr._("K variable")
    return f"K {k}"


# --- `elo profile set` options, `show` output -----------------------------------------

UNSET_NAMES: Final[tuple[str, ...]] = ("rating", "list", "birth-year", "games", "ever-2400", "k")


def parse_set_options(
    *,
    rating: str | None = None,
    list_: str | None = None,
    birth_year: str | None = None,
    games: str | None = None,
    ever_2400: bool | None = None,
    k: str | None = None,
    unset: Collection[str] = (),
    this_year: int,
) -> tuple[Profile, tuple[str, ...]]:
    """The values `elo profile set` saves and the TOML keys it forgets (``--unset``).

    Raises CalcInputError (one line, naming the option) as the calculator's parsers do.
    """
    forget: list[str] = []
    for name in unset:
        option = name.strip().lower().replace("_", "-")
        if option not in UNSET_NAMES:
            raise CalcInputError(f"--unset: expected one of {', '.join(UNSET_NAMES)}, got {name!r}")
        forget.append(option.replace("-", "_"))
    given: dict[str, object] = {"rating": rating, "list": list_, "birth_year": birth_year}
    given |= {"games": games, "ever_2400": ever_2400, "k": k}
    for key in forget:
        if given[key] is not None:
            option = key.replace("_", "-")
            raise CalcInputError(f"--{option} and --unset {option}: expected one or the other")
    if not forget and all(value is None for value in given.values()):
        raise CalcInputError(
            "expected a value to save: --rating, --list, --birth-year, --games, "
            "--ever-2400, --k (or --unset KEY)"
        )
    changes = Profile(
        rating=None if rating is None else _parse_saved_rating(rating),
        list_=None if list_ is None else _parse_list(list_),
        birth_year=None
        if birth_year is None
        else parse_count(birth_year, "--birth-year", MIN_BIRTH_YEAR, this_year),
        games=None if games is None else parse_count(games, "--games", 0, MAX_GAMES),
        ever_2400=ever_2400,
        k=parse_k(k),
    )
    return changes, tuple(forget)


def _parse_saved_rating(text: str) -> int:
    t = text.strip()
    if not t.isdigit() or check_rating(int(t)) is not None:
        raise CalcInputError(f"--rating: expected a rating 1..{MAX_RATING}, got {text!r}")
    return int(t)


def _parse_list(text: str) -> str:
    name = text.strip().lower()
    problem = check_list(name)
    if problem is not None:
        raise CalcInputError(f"--list: {problem}")
    return name


def profile_json(profile: Profile) -> dict[str, object]:
    """The saved values as JSON values (a decimal K as a number), by TOML key."""
    return {
        key: float(value) if isinstance(value, Decimal) else value
        for key, value in profile.saved().items()
    }


def show_json(path: Path, profile: Profile | None) -> dict[str, object]:
    """`elo profile show --json`: the file, whether anything is saved, every key (null)."""
    values = {} if profile is None else profile_json(profile)
    data: dict[str, object] = {"path": str(path), "saved": bool(values)}
    data |= {key: values.get(key) for key in KEYS}
    return data


def render_profile(path: Path, profile: Profile | None) -> str:
    """`elo profile show`: the file, then one line per saved value, as TOML spells it."""
    values = {} if profile is None else profile.saved()
    if not values:
        return f"No saved profile ({path}); save one with: elo profile set --rating R"
    width = max(len(key) for key in values)
    lines = [f"Saved profile: {path}"]
    for key, value in values.items():
        text = ("true" if value else "false") if isinstance(value, bool) else str(value)
        lines.append(f"  {key.ljust(width)}  {text}")
    return "\n".join(lines)


# --- files ----------------------------------------------------------------------------


def read_profile(path: Path) -> Profile | None:
    """The saved profile, or None when there is no file. OSError when it cannot be read."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise ProfileError(path, ["expected a file, got a folder"]) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProfileError(
            path, [f"not valid TOML: not UTF-8 text (byte {exc.start + 1})"]
        ) from None
    return parse_profile(text, path)


def write_profile(path: Path, profile: Profile) -> None:
    """Save `profile` atomically (a temporary file beside it, then a replace)."""
    from pipeline.report.atomic import atomic_write_text

    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, format_profile(profile))


def clear_profile(path: Path) -> bool:
    """Delete the saved profile (damaged or not); False when there was none."""
    try:
        path.unlink()
    except FileNotFoundError:
        return False
    return True
