"""The FIDE rating-list readers (pipeline.formats.rating_list.read).

Layouts and facts: fide-rules.md §8 "FIDE rating list downloads" (combined TXT columns and
0-based offsets, single-list TXT, XML tag names, rating 0 = unrated). Players are invented.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import polars as pl
import pytest

from pipeline.errors import InputError
from pipeline.formats.rating_list.fields import (
    ProblemBudget,
    RawFrame,
    convert_fields,
    typed_columns,
)
from pipeline.formats.rating_list.read import (
    RegistryLimits,
    looks_like_rating_list,
    rating_list_name,
    read_rating_list,
    read_rating_list_bytes,
)
from schemas.registry import Registry
from tests.conftest import ROOT

# fide-rules.md §8: the combined list's header and its field widths (ID 0-15, Name 15-76,
# Fed 76-80, Sex 80-84, Tit 84-89, WTit 89-94, OTit 94-109, FOA 109-113, SRtng 113-119,
# SGm 119-123, SK 123-126, RRtng 126-132, RGm 132-136, Rk 136-139, BRtng 139-145,
# BGm 145-149, BK 149-152, B-day 152-158, Flag 158-162)
COMBINED_HEADER = (
    "ID Number      Name                                                         "
    "Fed Sex Tit  WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
)
COMBINED_WIDTHS = (15, 61, 4, 4, 5, 5, 15, 4, 6, 4, 3, 6, 4, 3, 6, 4, 3, 6, 4)
# single lists: the same through FOA, then rating 113-119, games 119-123, K 123-126,
# B-day 126-132, Flag 132-136
SINGLE_HEADER = (
    "ID Number      Name                                                         "
    "Fed Sex Tit  WTit OTit           FOA NOV26 Gms K  B-day Flag"
)
SINGLE_WIDTHS = (15, 61, 4, 4, 5, 5, 15, 4, 6, 4, 3, 6, 4)

COLUMNS = list(Registry.to_schema().columns)


def fixed(widths: tuple[int, ...], *values: str) -> str:
    """A fixed-width line; a value wider than its field pushes the rest right, as FIDE's
    writer does."""
    return "".join(value.ljust(width) for value, width in zip(values, widths, strict=True))


def combined(values: str) -> str:
    """A combined-list line from its 19 values separated by '|'."""
    return fixed(COMBINED_WIDTHS, *values.split("|"))


def single(values: str) -> str:
    """A single-list line from its 13 values separated by '|'."""
    return fixed(SINGLE_WIDTHS, *values.split("|"))


ANNA = combined("4100018|Kovalenko, Anna|UKR|F||WGM|||2331|0|10|2290|9|20|2302|0|20|1994|w")
BORIS = combined("512440901|Oyelaran, Boris|NGR|M||||||||1712|4|40||||2011|")
CLARA = combined("13300412|Dimitrescu-Varga, Clara|ROU|F|FM|WIM|FA||0|0|40|0|0|40|1650|12|40|0|wi")
# "other titles" wider than the field (16 characters): the rest of the line moves right
OVERFLOW = combined(
    "700123|Halvorsen, Dag|NOR|M|IM||LSI,FI,SI,SLI,NA||2410|3|10|2388|0|20|2421|7|20|1969|i"
)


def text_of(*lines: str, end: str = "\n") -> bytes:
    return (end.join(lines) + end).encode("utf-8")


EXTRA_COLUMNS = (
    "career_games",
    "rapid_career_games",
    "blitz_career_games",
    "ever_2400",
    "rapid_ever_2400",
    "blitz_ever_2400",
)


def row(frame: pl.DataFrame, fide_id: int) -> dict[str, object]:
    """FIDE's columns of one player; the project's extra columns must be empty (FIDE's
    own formats never carry them)."""
    found = frame.filter(pl.col("fideid") == fide_id).row(0, named=True)
    assert all(found.pop(name) is None for name in EXTRA_COLUMNS)
    return found


def problems_of(
    error: pytest.ExceptionInfo[InputError],
) -> list[tuple[int | None, str | None, str]]:
    return [(p.location.line, p.location.column, p.code) for p in error.value.problems]


# --- combined TXT -----------------------------------------------------------------------


def test_layout_widths_match_the_reference_offsets() -> None:
    assert len(COMBINED_HEADER) == 162
    assert len(ANNA) == 162
    assert len(OVERFLOW) == 163


def test_combined_txt_reads_every_column() -> None:
    frame = read_rating_list_bytes(text_of(COMBINED_HEADER, ANNA, BORIS), "players_list_foa.txt")
    assert frame.columns == COLUMNS
    assert frame.height == 2
    Registry.validate(frame)
    assert row(frame, 4100018) == {
        "fideid": 4100018,
        "name": "Kovalenko, Anna",
        "country": "UKR",
        "sex": "F",
        "title": None,
        "w_title": "WGM",
        "o_title": None,
        "foa_title": None,
        "rating": 2331,
        "games": 0,
        "k": 10,
        "rapid_rating": 2290,
        "rapid_games": 9,
        "rapid_k": 20,
        "blitz_rating": 2302,
        "blitz_games": 0,
        "blitz_k": 20,
        "birthday": 1994,
        "flag": "w",
    }


def test_blank_ratings_are_null_and_zero_ratings_are_unrated() -> None:
    frame = read_rating_list_bytes(text_of(COMBINED_HEADER, BORIS, CLARA), "players_list_foa.txt")
    boris = row(frame, 512440901)
    assert (boris["rating"], boris["games"], boris["k"]) == (None, None, None)
    assert (boris["blitz_rating"], boris["flag"]) == (None, None)
    clara = row(frame, 13300412)
    # fide-rules.md §8: rating 0 = unrated -> null; games and K stay as written
    assert (clara["rating"], clara["games"], clara["k"]) == (None, 0, 40)
    assert clara["rapid_rating"] is None
    assert clara["blitz_rating"] == 1650
    assert clara["birthday"] is None  # year 0 = unknown
    assert (clara["title"], clara["w_title"], clara["o_title"]) == ("FM", "WIM", "FA")


def test_overflowing_title_line_is_realigned_from_the_right() -> None:
    frame = read_rating_list_bytes(
        text_of(COMBINED_HEADER, ANNA, OVERFLOW, BORIS, end="\r\n"), "players_list_foa.txt"
    )
    assert frame["fideid"].to_list() == [4100018, 700123, 512440901]  # file order kept
    dag = row(frame, 700123)
    assert dag["o_title"] == "LSI,FI,SI,SLI,NA"
    assert (dag["title"], dag["foa_title"]) == ("IM", None)
    assert (dag["rating"], dag["games"], dag["k"]) == (2410, 3, 10)
    assert (dag["rapid_rating"], dag["blitz_rating"], dag["blitz_k"]) == (2388, 2421, 20)
    assert (dag["birthday"], dag["flag"]) == (1969, "i")


def test_overflowing_name_shifts_the_fields_after_it() -> None:
    long_name = "Villanueva de la Fuente y Castellanos-Oyarzabal, Maria Soledad"  # 62
    line = combined(f"900001|{long_name}|ESP|F|||||1875|5|20|||||||1990|")
    frame = read_rating_list_bytes(
        text_of(COMBINED_HEADER, ANNA, line, BORIS), "players_list_foa.txt"
    )
    maria = row(frame, 900001)
    assert (maria["name"], maria["country"], maria["sex"]) == (long_name, "ESP", "F")
    assert (maria["rating"], maria["k"], maria["birthday"]) == (1875, 20, 1990)


def test_a_value_filling_its_field_survives_the_realignment() -> None:
    # the name overflows; "other titles" fills its 15 characters exactly, K fills 2 of 3
    long_name = "Castellanos-Oyarzabal y Villanueva de la Fuente, Maria Soledad"
    line = combined(f"900002|{long_name}|ESP|F|||FA,FT,IO,NA,LSI||1875|125|20||||||||")
    frame = read_rating_list_bytes(text_of(COMBINED_HEADER, ANNA, line, BORIS), "list.txt")
    maria = row(frame, 900002)
    assert (maria["name"], maria["o_title"]) == (long_name, "FA,FT,IO,NA,LSI")
    assert (maria["rating"], maria["games"], maria["k"]) == (1875, 125, 20)


def test_long_line_with_only_trailing_blanks_is_read_as_it_stands() -> None:
    frame = read_rating_list_bytes(text_of(COMBINED_HEADER, ANNA + "    "), "list.txt")
    assert row(frame, 4100018)["rating"] == 2331


def test_lines_without_trailing_blanks_and_blank_lines() -> None:
    data = text_of(COMBINED_HEADER, "", BORIS.rstrip(), "   ", CLARA.rstrip(), "")
    frame = read_rating_list_bytes(data, "players_list_foa.txt")
    assert frame["fideid"].to_list() == [512440901, 13300412]
    assert row(frame, 512440901)["birthday"] == 2011
    assert row(frame, 13300412)["flag"] == "wi"


def test_every_line_padded_beyond_the_header() -> None:
    frame = read_rating_list_bytes(
        text_of(COMBINED_HEADER, ANNA + "  ", BORIS + "  ", CLARA + "  "), "list.txt"
    )
    assert frame.height == 3
    assert row(frame, 13300412)["flag"] == "wi"


def test_windows_1252_names_are_decoded() -> None:
    line = combined("600200|Müller, Jürgen|GER|M|||||2105|0|20|||||||1975|i")
    data = (COMBINED_HEADER + "\r\n" + line + "\r\n").encode("cp1252")
    frame = read_rating_list_bytes(data, "players_list_foa.txt")
    assert row(frame, 600200)["name"] == "Müller, Jürgen"
    assert row(frame, 600200)["rating"] == 2105


def at_tokens(header: str, values: list[str]) -> str:
    """A line with each value at the start of its header token."""
    starts = [m.start() for m in re.finditer(r"ID Number|\S+", header)]
    ends = [*starts[1:], starts[-1] + 4]
    return "".join(v.ljust(e - s) for v, s, e in zip(values, starts, ends, strict=True))


def test_header_tokens_give_the_offsets_not_constants() -> None:
    header = (
        "ID Number  Name                    Fed  Sex  Tit   WTit  OTit             FOA  SRtng  "
        "SGm  SK  RRtng  RGm  Rk  BRtng  BGm  BK  B-day  Flag"
    )
    values = ["4100018", "Kovalenko, Anna", "UKR", "F", "", "WGM", "", "", "2331", "0", "10"]
    values += ["", "", "", "2302", "1", "20", "1994", "w"]
    frame = read_rating_list_bytes(text_of(header, at_tokens(header, values)), "list.txt")
    anna = row(frame, 4100018)
    assert (anna["name"], anna["country"], anna["w_title"]) == ("Kovalenko, Anna", "UKR", "WGM")
    assert (anna["rating"], anna["k"], anna["blitz_games"]) == (2331, 10, 1)
    assert (anna["birthday"], anna["flag"]) == (1994, "w")


# --- single-list TXT --------------------------------------------------------------------

SINGLE_LINE = single("4100018|Kovalenko, Anna|UKR|F||WGM|||2290|9|20|1994|w")


@pytest.mark.parametrize(
    ("file", "hint", "prefix"),
    [
        ("standard_rating_list.txt", None, ""),
        ("rapid_rating_list.txt", None, "rapid_"),
        ("blitz_rating_list.txt", None, "blitz_"),
        ("BLITZ_nov26frl.txt", None, "blitz_"),
        ("list.txt", None, ""),  # no word in the name, no hint: standard (documented)
        ("list.txt", "rapid", "rapid_"),
        ("rapid_rating_list.txt", "blitz", "rapid_"),  # the file name wins over the hint
    ],
)
def test_single_list_goes_to_its_columns(file: str, hint: str | None, prefix: str) -> None:
    frame = read_rating_list_bytes(text_of(SINGLE_HEADER, SINGLE_LINE), file, list_hint=hint)
    anna = row(frame, 4100018)
    assert (anna[f"{prefix}rating"], anna[f"{prefix}games"], anna[f"{prefix}k"]) == (2290, 9, 20)
    others = {"", "rapid_", "blitz_"} - {prefix}
    assert all(anna[f"{other}rating"] is None for other in others)
    assert (anna["birthday"], anna["flag"], anna["w_title"]) == (1994, "w", "WGM")
    assert frame.columns == COLUMNS


def test_single_list_problem_names_the_month_column() -> None:
    bad = SINGLE_LINE.replace("2290  ", "22x0  ")
    with pytest.raises(InputError) as error:
        read_rating_list_bytes(text_of(SINGLE_HEADER, bad), "standard_rating_list.txt")
    assert problems_of(error) == [(2, "NOV26", "bad-number")]


def test_list_name_rules() -> None:
    assert rating_list_name(["rapid/players.txt", "standard.txt"]) == "standard"
    assert rating_list_name(["players.txt"], "blitz") == "blitz"
    with pytest.raises(ValueError, match="list_hint"):
        rating_list_name(["players.txt"], "classical")


# --- errors -----------------------------------------------------------------------------


def test_bad_numbers_are_reported_with_line_and_header_column() -> None:
    bad_rating = ANNA.replace("2331  ", "23a1  ")
    bad_games = BORIS[:132] + "4x  " + BORIS[136:]
    with pytest.raises(InputError) as error:
        read_rating_list_bytes(text_of(COMBINED_HEADER, bad_rating, CLARA, bad_games), "l.txt")
    assert problems_of(error) == [(2, "SRtng", "bad-number"), (4, "RGm", "bad-number")]
    messages = [p.message for p in error.value.problems]
    assert messages[0] == "expected a whole number, got '23a1'"


def test_problems_are_kept_column_by_column_whatever_the_field() -> None:
    # bad numbers of the B-day (cut on every line), of SRtng (cut only where the standard
    # columns are not blank) and of the ID, and a missing ID: listed by line; under a cap the
    # ones kept are the first by column in the schema's order, bad numbers before missing IDs
    bad_birthday = ANNA[:152] + "19x4  " + ANNA[158:]
    bad_rating = CLARA[:113] + "2a00  " + CLARA[119:]
    bad_id = "12a4".ljust(15) + BORIS[15:]
    no_id = " " * 15 + OVERFLOW[15:]
    data = text_of(COMBINED_HEADER, bad_birthday, bad_rating, bad_id, no_id)
    with pytest.raises(InputError) as error:
        read_rating_list_bytes(data, "l.txt")
    assert problems_of(error) == [
        (2, "B-day", "bad-number"),
        (3, "SRtng", "bad-number"),
        (4, "ID Number", "bad-number"),
        (5, "ID Number", "missing-fide-id"),
    ]
    assert error.value.problems[1].message == "expected a whole number, got '2a00'"
    with pytest.raises(InputError) as error:
        read_rating_list_bytes(data, "l.txt", limits=RegistryLimits(max_problems=2))
    assert problems_of(error) == [
        (None, None, "more-problems"),
        (3, "SRtng", "bad-number"),
        (4, "ID Number", "bad-number"),
    ]


def test_fields_of_a_mostly_blank_group_are_read_wherever_one_is_given() -> None:
    only_k = combined("700001|Only, K|ESP|M|||||||40|||||||1990|")
    only_foa = combined("700002|Only, Foa|ESP|F||||AIM||||||||||2001|w")
    rapid_cut = combined("700003|Cut, Rapid|ESP|M||||||||2105|7|20|||||")
    rapid_cut = rapid_cut[:130]  # trimmed inside the rapid rating: the rest is missing
    frame = read_rating_list_bytes(
        text_of(COMBINED_HEADER, ANNA, only_k, only_foa, rapid_cut), "players_list_foa.txt"
    )
    assert (row(frame, 700001)["rating"], row(frame, 700001)["k"]) == (None, 40)
    assert (row(frame, 700002)["foa_title"], row(frame, 700002)["title"]) == ("AIM", None)
    cut = row(frame, 700003)
    assert (cut["rapid_rating"], cut["rapid_games"], cut["birthday"]) == (2105, None, None)
    assert row(frame, 4100018)["w_title"] == "WGM"


def test_a_file_holding_the_separator_byte_is_still_read_line_by_line(tmp_path: Path) -> None:
    # lines are read as one CSV column split on a byte that does not occur ("\x1f" first)
    odd = ANNA[:15] + "Kovalenko,\x1fAnna".ljust(61) + ANNA[76:]
    path = tmp_path / "players_list_foa.txt"
    path.write_bytes(text_of(COMBINED_HEADER, odd, BORIS))
    frame = read_rating_list(path)
    assert frame["name"].to_list() == ["Kovalenko,\x1fAnna", "Oyelaran, Boris"]
    latin = tmp_path / "latin.txt"
    line = combined("600200|Müller, Jürgen|GER|M|||||2105|0|20|||||||1975|i")
    latin.write_bytes((COMBINED_HEADER + "\r\n" + line + "\r\n").encode("cp1252"))
    assert read_rating_list(latin)["name"].to_list() == ["Müller, Jürgen"]


def test_duplicate_fide_id_names_both_lines() -> None:
    with pytest.raises(InputError) as error:
        read_rating_list_bytes(text_of(COMBINED_HEADER, ANNA, BORIS, ANNA), "l.txt")
    (problem,) = error.value.problems
    assert (problem.location.line, problem.location.column, problem.code) == (
        4,
        "ID Number",
        "duplicate-fide-id",
    )
    assert problem.message == "expected each FIDE ID once, got 4100018 again (first on line 2)"


def test_missing_and_zero_fide_ids() -> None:
    no_id = " " * 15 + BORIS[15:]
    zero = "0".ljust(15) + CLARA[15:]
    with pytest.raises(InputError) as error:
        read_rating_list_bytes(text_of(COMBINED_HEADER, no_id, zero), "l.txt")
    assert problems_of(error) == [
        (2, "ID Number", "missing-fide-id"),
        (3, "ID Number", "bad-fide-id"),
    ]


def test_problems_are_capped_with_a_count_of_the_rest() -> None:
    lines = [combined(f"{1000 + i}|X|||||||abc||||||||||") for i in range(8)]
    with pytest.raises(InputError) as error:
        read_rating_list_bytes(
            text_of(COMBINED_HEADER, *lines), "l.txt", limits=RegistryLimits(max_problems=3)
        )
    codes = [p.code for p in error.value.problems]
    assert codes.count("bad-number") == 3
    assert "more-problems" in codes
    assert "5 more" in next(p.message for p in error.value.problems if p.code == "more-problems")


@pytest.mark.parametrize(
    ("data", "got"),
    [
        (b"", "an empty file"),
        (b"012 Some tournament\n001    1 m    Someone\n", "'012 Some tournament'"),
        (b"event,round,white,black,result\n", "'event,round,white,black,result'"),
        (b"Rk.;SNo;;Name;FED;Rtg;FideID;1.Rd;Pts.\n", "'Rk.;SNo;;Name;FED;Rtg;FideID;1.Rd;Pts.'"),
    ],
    ids=["empty", "trf", "games-csv", "crosstable-with-fideid"],
)
def test_not_a_rating_list(data: bytes, got: str) -> None:
    with pytest.raises(InputError) as error:
        read_rating_list_bytes(data, "x.txt")
    (problem,) = error.value.problems
    assert problem.code == "not-a-registry"
    assert problem.message == (
        "expected a FIDE rating list (TXT, XML or CSV with FIDE's tag names), got " + got
    )


def test_typed_columns_match_convert_fields_and_flag_the_rows_it_reports() -> None:
    raw = pl.DataFrame(
        {
            "line": [2, 3, 4, 5, 6, 7],
            "fideid": ["1", "", "0", "x", "5", "6"],
            "rating": ["2000", "0", "", "-3", "12a", ""],
            "name": ["A", "", "B", "C", "D", ""],
            "ever_2400": ["1", "", "0", "2", None, "0"],
        }
    )
    budget = ProblemBudget("l.csv", 50)
    converted = convert_fields(RawFrame(raw, {}), budget)
    values, problem = typed_columns(["fideid", "rating", "name", "ever_2400"])
    typed = raw.select(*values, problem.alias("problem"))
    assert typed.drop("problem").equals(converted.select(typed.columns[:-1]))
    reported = {p.location.line for p in budget.problems.items}
    assert reported == {3, 4, 5, 6}
    assert typed["problem"].to_list() == [line in reported for line in raw["line"]]


# --- sniffing and real lines ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (COMBINED_HEADER + "\n" + ANNA, True),
        ("\ufeff" + SINGLE_HEADER + "\r\n", True),
        ('<?xml version="1.0"?>\n<playerslist>\n<player>', True),
        ("fideid,name,rating\n1,A,2000\n", True),
        ("fideid\n", True),
        ("012 Open\n001    1 m    Someone\n", False),
        ("event,round,white,black,result\n", False),
        ("id,name,fide_id,rating\n", False),
        ("Rk.;SNo;;Name;FED;Rtg;FideID;1.Rd;2.Rd;Pts.\n", False),
        ("<html><body>playerslist</body></html>", False),
    ],
)
def test_looks_like_registry(text: str, expected: bool) -> None:
    assert looks_like_rating_list(text) is expected


def test_real_sample_lines(shared_dir: Path) -> None:
    path = shared_dir / "data" / "rating-list" / "players_list_foa_sample.txt"
    frame = read_rating_list(path)
    Registry.validate(frame)
    assert frame.height == 3
    first = frame.row(0, named=True)
    assert (first["fideid"], first["country"], first["title"], first["rating"]) == (
        1503014,
        "NOR",
        "GM",
        2823,
    )
    assert (first["rapid_rating"], first["rapid_games"], first["birthday"]) == (2801, 12, 1990)


@pytest.mark.slow
def test_generated_list_of_200k_lines(tmp_path: Path) -> None:
    from bench.registry import synthesize_combined_list

    path = tmp_path / "players_list_foa.txt"
    synthesize_combined_list(path, 200_000, overflow=7)
    started = time.perf_counter()
    frame = read_rating_list(path)
    elapsed = time.perf_counter() - started
    assert frame.height == 200_000
    assert frame["fideid"].is_unique().all()
    assert frame.filter(pl.col("o_title").str.len_chars() >= 15).height == 7  # 15 fits exactly
    assert frame["rating"].drop_nulls().is_between(1000, 2850).all()
    assert elapsed < 30


def test_only_ids_keeps_the_players_asked_for(tmp_path: Path) -> None:
    # A run needs only its own players from the full list: the other lines are not cut.
    header = (
        "ID Number      Name                                                         "
        "Fed Sex Tit  WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
    )
    lines = [header]
    for i, rating in ((1001, 2100), (1002, 1900), (1003, 1800)):
        lines.append(
            f"{i:<15}{'Player, P' + str(i):<61}{'ESP':<4}{'M':<4}{'':<5}{'':<5}{'':<15}"
            f"{'':<4}{rating:<6}{0:<4}{20:<3}{'':<6}{'':<4}{'':<3}{'':<6}{'':<4}{'':<3}"
            f"{1990:<6}{'':<4}"
        )
    path = tmp_path / "players_list_foa.txt"
    path.write_text("\r\n".join(lines) + "\r\n", encoding="ascii")
    full = read_rating_list(path)
    some = read_rating_list(path, only_ids={1003, 1001, 999})
    assert full["fideid"].to_list() == [1001, 1002, 1003]
    assert some["fideid"].to_list() == [1001, 1003]
    assert some["rating"].to_list() == [2100, 1800]
    assert some.schema == full.schema


@pytest.mark.parametrize("form", ["txt", "csv"])
def test_a_read_keeps_the_ids_and_the_names_asked_for(form: str, tmp_path: Path) -> None:
    """What a run reads from the list: its FIDE IDs, and the players a name without an ID
    may be (pipeline.formats.names.NameFilter: surname first, then the whole name)."""
    from pipeline.formats.names import name_filter

    source = ROOT / "tests" / "validate" / "data"
    path = source / "valid_players_list_foa.txt"
    if form == "csv":
        full = read_rating_list(path)
        path = tmp_path / "list.csv"
        full.select("fideid", "name", "country", "rating").write_csv(path)
    names = name_filter(pl.Series(["Astrid Lindqvist", "Brandt H.", "Moreau Pierre"]))
    kept = read_rating_list(path, only_ids={90000022}, names=names)
    assert sorted(kept["fideid"].to_list()) == [90000011, 90000022, 90000033]
    assert read_rating_list(path, only_ids=set(), names=None).height == 0
