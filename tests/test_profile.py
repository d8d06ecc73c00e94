"""`elo profile set|show|clear` and pipeline.profile: the calculator's saved player data,
and `elo calc` without RATING using it. Every test keeps the file under tmp_path through
ELO_CONFIG_DIR."""

from __future__ import annotations

import json
import os
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.profile import (
    ENV_CONFIG_DIR,
    Profile,
    ProfileError,
    calc_defaults,
    config_dir,
    describe_profile,
    format_profile,
    merge_profile,
    parse_profile,
    profile_path,
    read_profile,
    write_profile,
)

runner = CliRunner()
DATE = "2026-11-30"  # rules of 2025-10-01
HINT = "elo: fix the file, or delete it with: elo profile clear"


@pytest.fixture
def profile_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The profile file of a configuration folder not made yet (set must create it)."""
    folder = tmp_path / "config" / "elo"
    monkeypatch.setenv(ENV_CONFIG_DIR, str(folder))
    return folder / "profile.toml"


def invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def calc_json(*args: str) -> dict[str, Any]:
    code, out, err = invoke("calc", *args, "--date", DATE, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


# --- set / show / clear ---------------------------------------------------------------


def test_show_with_nothing_saved(profile_file: Path) -> None:
    code, out, err = invoke("profile", "show")
    assert (code, err) == (0, "")
    assert out == f"No saved profile ({profile_file}); save one with: elo profile set --rating R\n"
    code, out, _ = invoke("profile", "show", "--json")
    assert code == 0
    assert json.loads(out) == {
        "path": str(profile_file),
        "saved": False,
        "rating": None,
        "list": None,
        "birth_year": None,
        "games": None,
        "ever_2400": None,
        "k": None,
    }


def test_set_show_clear_round_trip(profile_file: Path) -> None:
    code, out, err = invoke(
        "profile", "set", "--rating", "1500", "--list", "Rapid", "--birth-year", "2012",
        "--games", "12", "--ever-2400", "--k", "24,6",
    )  # fmt: skip
    assert (code, err) == (0, "")
    assert out == (
        f"Saved {profile_file}: rating 1500, rapid list, born 2012, 12 career games, "
        "has reached 2400, K 24.6\n"
    )
    assert profile_file.read_text(encoding="utf-8") == (
        "# elo calc's saved profile: edit with `elo profile set`, see `elo profile show`\n"
        'rating = 1500\nlist = "rapid"\nbirth_year = 2012\ngames = 12\never_2400 = true\n'
        "k = 24.6\n"
    )
    assert [p.name for p in profile_file.parent.iterdir()] == ["profile.toml"]  # no temp left
    code, out, err = invoke("profile", "show")
    assert (code, err) == (0, "")
    assert out == (
        f"Saved profile: {profile_file}\n"
        "  rating      1500\n"
        "  list        rapid\n"
        "  birth_year  2012\n"
        "  games       12\n"
        "  ever_2400   true\n"
        "  k           24.6\n"
    )
    code, out, _ = invoke("profile", "show", "--json")
    assert json.loads(out) == {
        "path": str(profile_file),
        "saved": True,
        "rating": 1500,
        "list": "rapid",
        "birth_year": 2012,
        "games": 12,
        "ever_2400": True,
        "k": 24.6,
    }
    assert invoke("profile", "clear") == (0, f"Removed {profile_file}\n", "")
    assert not profile_file.exists()
    assert invoke("profile", "clear") == (
        0,
        f"No saved profile ({profile_file}): nothing to remove\n",
        "",
    )
    assert invoke("profile", "show")[1].startswith("No saved profile")


def test_set_merges_with_what_is_saved_and_unsets(profile_file: Path) -> None:
    assert invoke("profile", "set", "--rating", "1500", "--k", "40")[0] == 0
    code, out, _ = invoke("profile", "set", "--list", "blitz")
    assert code == 0
    assert out == f"Saved {profile_file}: rating 1500, blitz list, K 40\n"
    code, out, _ = invoke("profile", "set", "--rating", "1620", "--unset", "k")
    assert out == f"Saved {profile_file}: rating 1620, blitz list\n"
    code, out, _ = invoke("profile", "set", "--unset", "rating", "--unset", "LIST")
    assert (code, out) == (0, f"Saved {profile_file}: no values\n")
    assert read_profile(profile_file) == Profile()
    assert invoke("profile", "show")[1].startswith("No saved profile")


def test_no_ever_2400_and_unset_with_underscore(profile_file: Path) -> None:
    invoke("profile", "set", "--ever-2400", "--birth-year", "2010")
    assert read_profile(profile_file) == Profile(ever_2400=True, birth_year=2010)
    invoke("profile", "set", "--no-ever-2400", "--unset", "birth_year")
    assert read_profile(profile_file) == Profile(ever_2400=False)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "expected a value to save: --rating, --list, --birth-year, --games, --ever-2400, "
             "--k (or --unset KEY)"),
        (["--rating", "-5"], "--rating: expected a rating 1..3500, got '-5'"),
        (["--rating", "0"], "--rating: expected a rating 1..3500, got '0'"),
        (["--rating", "4000"], "--rating: expected a rating 1..3500, got '4000'"),
        (["--list", "bullet"], "--list: expected one of standard, rapid, blitz, got 'bullet'"),
        (["--k", "0"], "--k: expected a K above 0, got '0'"),
        (["--k", "-20"], "--k: expected a positive number, 'fide' or 'variable', got '-20'"),
        (["--games", "many"], "--games: expected a whole number 0..100000, got 'many'"),
        (["--birth-year", "1700"], "--birth-year: expected a whole number 1850.."),
        (["--unset", "colour"], "--unset: expected one of rating, list, birth-year, games, "
                                "ever-2400, k, got 'colour'"),
        (["--k", "20", "--unset", "k"], "--k and --unset k: expected one or the other"),
    ],
    ids=lambda v: v if isinstance(v, str) else " ".join(v) or "nothing",
)  # fmt: skip
def test_set_rejects_bad_values_exit_2(profile_file: Path, args: list[str], message: str) -> None:
    profile_file.parent.mkdir(parents=True)
    profile_file.write_text("rating = 1500\n", encoding="utf-8")
    code, out, err = invoke("profile", "set", *args)
    assert (code, out) == (2, "")
    assert err.startswith(f"elo: error: {message}")
    assert len(err.splitlines()) == 1
    assert profile_file.read_text(encoding="utf-8") == "rating = 1500\n"  # untouched


# --- calc uses the profile ------------------------------------------------------------


def test_calc_uses_the_saved_profile_and_says_so(profile_file: Path) -> None:
    invoke("profile", "set", "--rating", "1500", "--games", "12")
    code, out, err = invoke("calc", "1600:1", "1700:½", "--date", DATE)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "Using your saved profile: rating 1500, 12 career games (elo profile show)"
    assert lines[1] == f"Rating 1500, standard list, {DATE}"
    explicit = invoke("calc", "1500", "1600:1", "1700:½", "--games", "12", "--date", DATE)[1]
    assert lines[1:] == explicit.splitlines()  # the same calculation, one line more
    assert "K 40: fewer than 30 career games (12)" in out
    data = calc_json("1600:1", "1700:½")
    assert data.pop("profile") == {"rating": 1500, "games": 12}
    assert data == calc_json("1500", "1600:1", "1700:½", "--games", "12")


def test_calc_takes_every_saved_value(profile_file: Path) -> None:
    invoke(
        "profile", "set", "--rating", "2390", "--list", "rapid", "--birth-year", "2010",
        "--games", "40", "--ever-2400", "--k", "15",
    )  # fmt: skip
    code, out, _ = invoke("calc", "2400:1", "--date", DATE)
    assert code == 0
    assert out.splitlines()[0] == (
        "Using your saved profile: rating 2390, rapid list, born 2010, 40 career games, "
        "has reached 2400, K 15 (elo profile show)"
    )
    data = calc_json("2400:1")
    assert (data["rating_before"], data["list"], data["k"]) == (2390, "rapid", 15)
    invoke("profile", "set", "--unset", "k")
    data = calc_json("2400:1")  # derived K: ever 2400 -> 10
    assert data["k"] == 10
    assert data["notes"][0] == "K 10: rating has reached 2400"


def test_an_explicit_option_wins_over_the_profile(profile_file: Path) -> None:
    invoke(
        "profile", "set", "--rating", "1500", "--list", "blitz", "--k", "40",
        "--ever-2400", "--birth-year", "2012", "--games", "5",
    )  # fmt: skip
    args = ["--list", "standard", "--k", "20", "--no-ever-2400", "--birth-year", "1990"]
    code, out, _ = invoke("calc", "1600:1", *args, "--games", "50", "--date", DATE)
    assert code == 0
    assert out.splitlines()[0] == "Using your saved profile: rating 1500 (elo profile show)"
    data = calc_json("1600:1", *args, "--games", "50")
    assert data.pop("profile") == {"rating": 1500}
    assert (data["list"], data["k"]) == ("standard", 20)
    # `--k fide` asks for the derived K over a saved number; --no-ever-2400 over true
    data = calc_json("1600:1", "--k", "fide", "--no-ever-2400")
    assert data["k"] == 40  # junior born 2012, 5 games, from the profile
    assert data["profile"] == {"rating": 1500, "list": "blitz", "birth_year": 2012, "games": 5}


def test_calc_with_a_rating_does_not_read_the_profile(profile_file: Path) -> None:
    profile_file.parent.mkdir(parents=True)
    profile_file.write_text("rating = [\n", encoding="utf-8")  # damaged: not even read
    code, out, err = invoke("calc", "1800", "1600:1", "--k", "20", "--date", DATE)
    assert (code, err) == (0, "")
    assert out.startswith(f"Rating 1800, standard list, {DATE}\n")
    assert "saved profile" not in out


@pytest.mark.parametrize(
    ("args", "example"),
    [([], "1500 1600:1"), (["1600:1", "1700:½"], "1500 1600:1"), (["1600:2"], "1500 1600:2")],
    ids=["no arguments", "games only", "a bad game"],
)
def test_calc_without_rating_or_saved_rating(
    profile_file: Path, args: list[str], example: str
) -> None:
    invoke("profile", "set", "--k", "20")  # a profile without a rating
    code, out, err = invoke("calc", *args)
    assert (code, out) == (2, "")
    assert err == (
        f"elo: error: expected RATING and at least one OPP:SCORE, e.g. {example} "
        "(or save your rating: elo profile set --rating R)\n"
    )


def test_calc_with_saved_rating_but_no_game(profile_file: Path) -> None:
    invoke("profile", "set", "--rating", "1500")
    code, _, err = invoke("calc")
    assert code == 2
    assert err == "elo: error: expected at least one game OPP:SCORE, e.g. 1600:1\n"


def test_saved_birth_year_after_date_is_a_usage_error(profile_file: Path) -> None:
    invoke("profile", "set", "--rating", "1500", "--birth-year", "2012")
    code, _, err = invoke("calc", "1600:1", "--date", "2010-06-01")
    assert code == 2
    assert err == (
        "elo: error: birth_year (saved profile): expected a whole number 1850..2010, got '2012'\n"
    )


# --- damaged files --------------------------------------------------------------------


DAMAGED = [
    ("rating = \n", ["not valid TOML: Invalid value (at line 1, column 10)"]),
    ('rating = "1500"\n',
     ['rating: expected a whole-number rating 1..3500, got a string ("1500")']),
    ("rating = 1500\ncolour = 'w'\n",
     ["unknown key 'colour' (expected rating, list, birth_year, games, ever_2400, k)"]),
    ("rating = -1500\n", ["rating: expected a rating 1..3500, got -1500"]),
    ("rating = 1500\nk = 0\nlist = 'bullet'\never_2400 = 1\n", [
        "k: expected a number above 0, 'fide' or 'variable', got 0",
        "list: expected one of standard, rapid, blitz, got 'bullet'",
        "ever_2400: expected true or false, got an integer (1)",
    ]),
    ("games = 1.5\nbirth_year = true\nk = nan\n", [
        "games: expected a whole number of games, got a float (1.5)",
        "birth_year: expected a whole-number year, got a boolean (true)",
        "k: expected a number above 0, 'fide' or 'variable', got a float (nan)",
    ]),
    ("[rating]\nvalue = 1500\n", ["rating: expected a whole-number rating 1..3500, got a table"]),
]  # fmt: skip
DAMAGED_IDS = [
    "bad TOML", "wrong type", "unknown key", "negative rating", "three problems", "floats", "table"
]  # fmt: skip


@pytest.mark.parametrize(("text", "problems"), DAMAGED, ids=DAMAGED_IDS)
@pytest.mark.parametrize(
    "command",
    [["profile", "show"], ["profile", "show", "--json"], ["profile", "set", "--k", "20"],
     ["calc", "1600:1"]],
    ids=" ".join,
)  # fmt: skip
def test_a_damaged_profile_is_a_clear_error_exit_1(
    profile_file: Path, text: str, problems: list[str], command: list[str]
) -> None:
    profile_file.parent.mkdir(parents=True)
    profile_file.write_text(text, encoding="utf-8")
    code, out, err = invoke(*command)
    assert (code, out) == (1, "")
    assert err.splitlines() == [*(f"elo: error: {profile_file}: {p}" for p in problems), HINT]
    assert profile_file.read_text(encoding="utf-8") == text  # set did not overwrite it


def test_a_damaged_profile_can_be_cleared(profile_file: Path) -> None:
    profile_file.parent.mkdir(parents=True)
    profile_file.write_bytes(b"\xff\xfe rating")
    code, _, err = invoke("profile", "show")
    assert code == 1
    assert err.splitlines()[0] == (
        f"elo: error: {profile_file}: not valid TOML: not UTF-8 text (byte 1)"
    )
    assert invoke("profile", "clear") == (0, f"Removed {profile_file}\n", "")
    assert invoke("profile", "show")[0] == 0


def test_a_refused_write_keeps_the_old_file(
    profile_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    invoke("profile", "set", "--rating", "1500")
    before = profile_file.read_bytes()

    def refuse(src: object, dst: object) -> None:
        raise PermissionError(13, "Permission denied", str(dst))

    monkeypatch.setattr(os, "replace", refuse)  # what pipeline.report.atomic calls
    code, out, err = invoke("profile", "set", "--rating", "1600")
    assert (code, out) == (1, "")
    assert err == f"elo: error: {profile_file}: Permission denied\n"
    assert profile_file.read_bytes() == before
    assert [p.name for p in profile_file.parent.iterdir()] == ["profile.toml"]


# --- the folder -----------------------------------------------------------------------


def test_the_folder_follows_the_environment_override(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert profile_path({ENV_CONFIG_DIR: str(tmp_path)}) == tmp_path / "profile.toml"
    import platformdirs

    default = Path(platformdirs.user_config_dir("elo-pipeline", appauthor=False))
    assert config_dir({}) == default
    assert config_dir({ENV_CONFIG_DIR: "  "}) == default  # empty: the platform's folder
    monkeypatch.setenv(ENV_CONFIG_DIR, str(tmp_path / "mine"))
    assert invoke("profile", "set", "--rating", "1500")[0] == 0
    assert (tmp_path / "mine" / "profile.toml").is_file()
    assert invoke("profile", "show", "--json")[1].startswith(
        json.dumps({"path": str(tmp_path / "mine" / "profile.toml")})[:-1]
    )


# --- library --------------------------------------------------------------------------


def test_format_and_parse_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "profile.toml"
    for profile in [
        Profile(),
        Profile(rating=2100, list_="standard", k=Decimal("24.6")),
        Profile(birth_year=2008, games=0, ever_2400=False, k="variable"),
        Profile(k=20),
    ]:
        assert parse_profile(format_profile(profile), path) == profile
        write_profile(path, profile)
        assert read_profile(path) == profile


def test_parse_profile_collects_every_problem(tmp_path: Path) -> None:
    path = tmp_path / "p.toml"
    with pytest.raises(ProfileError) as info:
        parse_profile("rating = 0\nbirth_year = 2030\ngames = -1\nk = 'x'\n", path, 2026)
    assert info.value.path == path
    assert info.value.problems == (
        "rating: expected a rating 1..3500, got 0",
        "birth_year: expected a year 1850..2026, got 2030",
        "games: expected a whole number 0..100000, got -1",
        "k: expected a number above 0, 'fide' or 'variable', got 'x'",
    )
    assert str(info.value).splitlines()[0] == f"{path}: rating: expected a rating 1..3500, got 0"


def test_merge_and_calc_defaults() -> None:
    saved = Profile(rating=1500, list_="rapid", k=40)
    assert merge_profile(saved, Profile(list_="blitz")) == Profile(1500, "blitz", k=40)
    assert merge_profile(saved, Profile(games=3), unset=["k"]) == Profile(1500, "rapid", games=3)
    assert calc_defaults(saved, ["list", "k"]) == Profile(rating=1500)
    with pytest.raises(ValueError, match="unknown profile keys"):
        merge_profile(saved, Profile(), unset=["colour"])
    assert describe_profile(Profile(k="fide", ever_2400=False)) == (
        "has not reached 2400, FIDE's K"
    )


def test_read_profile_of_a_missing_file_is_none(tmp_path: Path) -> None:
    assert read_profile(tmp_path / "none.toml") is None
