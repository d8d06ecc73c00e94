"""The rating-list readers on FIDE's XML, on CSV with FIDE's tag names, and on zips
(pipeline.formats.rating_list.read). Tag names: fide-rules.md §8; people are invented."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from pipeline.errors import InputError
from pipeline.formats.rating_list.read import (
    RegistryLimits,
    read_rating_list,
    read_rating_list_bytes,
)
from schemas.registry import Registry
from tests.formats.rating_list.test_read import (
    ANNA,
    BORIS,
    COLUMNS,
    COMBINED_HEADER,
    SINGLE_HEADER,
    SINGLE_LINE,
    problems_of,
    row,
    text_of,
)

# --- XML --------------------------------------------------------------------------------

XML = """<?xml version="1.0" encoding="ISO-8859-1"?>
<playerslist>
<player>
<fideid>4100018</fideid>
<name>Kovalenko, Anna</name>
<country>UKR</country>
<sex>F</sex>
<title></title>
<w_title>WGM</w_title>
<o_title></o_title>
<foa_title></foa_title>
<rating>2331</rating>
<games>0</games>
<k>10</k>
<rapid_rating>2290</rapid_rating>
<rapid_games>9</rapid_games>
<rapid_k>20</rapid_k>
<blitz_rating>0</blitz_rating>
<blitz_games>0</blitz_games>
<blitz_k>0</blitz_k>
<birthday>1994</birthday>
<flag>w</flag>
</player>
<player><fideid>600200</fideid><name>M\xfcller &amp; Sohn, J\xfcrgen</name>
<rating>2105</rating><flag/></player>
</playerslist>
"""


def test_xml_reads_players_and_decodes_the_declared_encoding() -> None:
    frame = read_rating_list_bytes(XML.encode("latin-1"), "players_list_xml_foa.xml")
    assert frame.columns == COLUMNS
    Registry.validate(frame)
    anna = row(frame, 4100018)
    assert (anna["w_title"], anna["title"], anna["rating"], anna["k"]) == ("WGM", None, 2331, 10)
    assert (anna["blitz_rating"], anna["blitz_k"], anna["flag"]) == (None, 0, "w")
    jurgen = row(frame, 600200)
    assert (jurgen["name"], jurgen["rating"], jurgen["country"]) == (
        "Müller & Sohn, Jürgen",
        2105,
        None,
    )


def test_xml_streams_from_a_binary_file(tmp_path: Path) -> None:
    path = tmp_path / "players_list_xml_foa.xml"
    path.write_bytes(XML.encode("latin-1"))
    assert read_rating_list(path).height == 2
    assert read_rating_list_bytes(io.BytesIO(XML.encode("latin-1")), "s.xml").height == 2


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE playerslist [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<playerslist><player><fideid>1</fideid><name>&lol3;</name></player></playerslist>
"""
EXTERNAL = b"""<?xml version="1.0"?>
<!DOCTYPE playerslist SYSTEM "file:///etc/passwd">
<playerslist><player><fideid>1</fideid></player></playerslist>
"""


@pytest.mark.parametrize("data", [BILLION_LAUGHS, EXTERNAL], ids=["entity-expansion", "doctype"])
def test_xml_doctype_and_entities_are_refused(data: bytes) -> None:
    with pytest.raises(InputError) as error:
        read_rating_list_bytes(data, "evil.xml")
    assert problems_of(error) == [(2, None, "xml-forbidden")]


def test_xml_problems_point_at_the_player_record() -> None:
    data = XML.replace("<k>10</k>", "<k>1O</k>").replace(
        "</playerslist>", "<player><fideid>4100018</fideid></player>\n</playerslist>"
    )
    with pytest.raises(InputError) as error:
        read_rating_list_bytes(data.encode("latin-1"), "l.xml")
    assert problems_of(error) == [(4, "k", "bad-number"), (26, "fideid", "duplicate-fide-id")]


def test_xml_that_is_not_well_formed() -> None:
    with pytest.raises(InputError) as error:
        read_rating_list_bytes(b"<playerslist>\n<player><fideid>1</player>\n", "l.xml")
    assert problems_of(error) == [(2, None, "bad-xml")]


# --- CSV --------------------------------------------------------------------------------


def test_csv_with_fide_tag_names_in_any_order_and_case() -> None:
    data = (
        b"FIDEID;Rating;Name;rapid_rating;birthday\n"
        b"4100018;2331;Kovalenko, Anna;0;1994\n"
        b"\n"
        b"512440901;;Oyelaran, Boris;1712;\n"
    )
    frame = read_rating_list_bytes(data, "registry.csv")
    assert frame.columns == COLUMNS
    assert row(frame, 4100018)["rating"] == 2331
    assert row(frame, 4100018)["rapid_rating"] is None
    boris = row(frame, 512440901)
    assert (boris["rating"], boris["rapid_rating"], boris["birthday"]) == (None, 1712, None)
    assert boris["country"] is None


def test_csv_unknown_column_and_bad_value() -> None:
    with pytest.raises(InputError) as error:
        read_rating_list_bytes(b"fideid,name,ratng\n1,A,2000\n", "r.csv")
    assert problems_of(error) == [(1, "ratng", "unknown-column")]
    with pytest.raises(InputError) as error:
        read_rating_list_bytes(b"fideid,name,rating\n1,A,2000\n2,B,20o0\n", "r.csv")
    assert problems_of(error) == [(3, "rating", "bad-number")]


def test_csv_row_with_too_many_cells() -> None:
    with pytest.raises(InputError) as error:
        read_rating_list_bytes(b"fideid,name\n1,A\n2,B,C\n", "r.csv")
    assert problems_of(error) == [(None, None, "bad-csv")]


# --- zip --------------------------------------------------------------------------------


def zipped(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_zip_holding_a_list(tmp_path: Path) -> None:
    data = zipped(
        {"rapid_rating_list.txt": text_of(SINGLE_HEADER, SINGLE_LINE), "readme.txt": b"hi"}
    )
    path = tmp_path / "rapid_rating_list.zip"
    path.write_bytes(data)
    for frame in (read_rating_list(path), read_rating_list_bytes(data, "download.zip")):
        assert row(frame, 4100018)["rapid_rating"] == 2290
    xml_zip = zipped({"players_list_xml_foa.xml": XML.encode("latin-1")})
    assert read_rating_list_bytes(xml_zip, "players_list_xml.zip").height == 2


def test_zip_problems_name_the_member() -> None:
    data = zipped({"players_list_foa.txt": text_of(COMBINED_HEADER, ANNA, ANNA)})
    with pytest.raises(InputError) as error:
        read_rating_list_bytes(data, "players_list.zip")
    assert error.value.problems[0].location.file == "players_list.zip/players_list_foa.txt"


@pytest.mark.parametrize(
    ("members", "code"),
    [
        ({"a.txt": b"nothing here"}, "zip-members"),
        (
            {"a.txt": text_of(COMBINED_HEADER, ANNA), "b.txt": text_of(COMBINED_HEADER, BORIS)},
            "zip-members",
        ),
    ],
    ids=["none", "two"],
)
def test_zip_must_hold_exactly_one_list(members: dict[str, bytes], code: str) -> None:
    with pytest.raises(InputError) as error:
        read_rating_list_bytes(zipped(members), "x.zip")
    assert [p.code for p in error.value.problems] == [code]


def test_zip_member_over_the_limits_is_refused() -> None:
    data = zipped({"players_list_foa.txt": text_of(COMBINED_HEADER, ANNA, BORIS)})
    with pytest.raises(InputError) as error:
        read_rating_list_bytes(data, "x.zip", limits=RegistryLimits(max_unzipped_bytes=100))
    assert [p.code for p in error.value.problems] == ["zip-too-large"]


def test_damaged_zip() -> None:
    data = zipped({"players_list_foa.txt": text_of(COMBINED_HEADER, ANNA)})
    with pytest.raises(InputError) as error:
        read_rating_list_bytes(data[:60], "x.zip")
    assert [p.code for p in error.value.problems] == ["bad-zip"]
